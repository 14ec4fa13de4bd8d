//! libFuzzer target `execute` (see accsim::fuzzing::execute): a panic or a defect aborts the run,
//! and libFuzzer keeps the input.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(defect) = accsim::fuzzing::execute(data) {
        panic!("{}", defect.0);
    }
});
