//! libFuzzer target `directive_parser` (see accsim::fuzzing::directive_parser): a panic or a defect aborts the run,
//! and libFuzzer keeps the input.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(defect) = accsim::fuzzing::directive_parser(data) {
        panic!("{}", defect.0);
    }
});
