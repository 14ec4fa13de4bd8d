//! Fuzz targets and a structure-aware mutator for untrusted programs (issue 14).
//!
//! Three targets, each a function of arbitrary bytes that must return without panicking and
//! without an internal error, whatever the bytes:
//! - [`directive_parser`]: the text of one `#pragma acc` line ([`parse_directive`]).
//! - [`frontend`]: preprocessed C (`cc -E` output) through directive extraction, lang-c,
//!   lowering, outlining and compilation to closures.
//! - [`execute`]: the same, then a run under small limits ([`EXEC_MAX_STEPS`] steps,
//!   [`EXEC_MAX_MEMORY`] bytes) on the sequential simulated device.
//!
//! They are driven by libFuzzer (`fuzz/`, cargo-fuzz, nightly) or by `accsim-fuzz`
//! (`fuzz/src/bin`, stable), both seeded with the preprocessed `samples/`; crashing inputs found
//! are kept in `fuzz/crashes/TARGET/` and replayed by `cargo test` (simulator/tests/fuzz_replay.rs).
//!
//! [`mutate`] is the structure-aware mutation: most mutations edit a `#pragma acc` line
//! (clause arguments set to extreme or negative sizes, clauses dropped, duplicated or added,
//! directive names swapped, an `atomic` wrapped around a statement), the rest flip bytes or
//! splice lines, so that the mutants stay mostly valid C and reach the runtime.

use accsim_core::diag::{Class, SourceMap};
use accsim_core::directive::parse_directive;
use accsim_core::driver;
use accsim_core::exec::{self, Capture, RunOutcome};

/// Steps an executed mutant may take.
pub const EXEC_MAX_STEPS: u64 = 200_000;
/// Bytes of memory an executed mutant may hold.
pub const EXEC_MAX_MEMORY: u64 = 64 << 20;

/// What a target found wrong with an input (a panic is reported by unwinding instead).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Defect(pub String);

/// Parse one directive's text.
pub fn directive_parser(data: &[u8]) -> Result<(), Defect> {
    let text = String::from_utf8_lossy(data);
    let _ = parse_directive(&text);
    Ok(())
}

fn compiled(data: &[u8]) -> Result<Option<driver::Compiled>, Defect> {
    let text = String::from_utf8_lossy(data).into_owned();
    let mut map = SourceMap::new();
    match driver::compile_preprocessed("fuzz.c", text, &mut map) {
        Ok(c) => Ok(Some(c)),
        Err(diags) => match diags.iter().find(|d| d.class == Class::Internal) {
            Some(d) => Err(Defect(format!("internal compile error: {}", d.message))),
            None => Ok(None),
        },
    }
}

/// Whether preprocessed C compiles without an error (the driver counts its seeds that do: a
/// seed that does not compile exercises only the parser).
pub fn compiles(data: &[u8]) -> bool {
    matches!(compiled(data), Ok(Some(_)))
}

/// Compile preprocessed C: compile errors are fine, internal errors are defects.
pub fn frontend(data: &[u8]) -> Result<(), Defect> {
    let Some(c) = compiled(data)? else { return Ok(()) };
    match exec::compile(&c.program, &c.info) {
        Err(d) if d.0.iter().any(|d| d.class == Class::Internal) => Err(Defect("internal error compiling to closures".into())),
        _ => Ok(()),
    }
}

/// Compile and run preprocessed C under small limits: every outcome but an internal error is
/// fine (the interpreter turns its own panics into internal errors).
pub fn execute(data: &[u8]) -> Result<(), Defect> {
    let Some(c) = compiled(data)? else { return Ok(()) };
    let Ok(exe) = exec::compile(&c.program, &c.info) else { return Ok(()) };
    let (out, err) = (Capture::new(), Capture::new());
    let options = exec::RunOptions {
        max_steps: Some(EXEC_MAX_STEPS),
        max_memory: Some(EXEC_MAX_MEMORY),
        stdout: Some(out.sink()),
        stderr: Some(err.sink()),
        environment: Some(Default::default()),
        // No file may be opened, and stdin is empty (the default FileAccess grants nothing).
        stdin: Some(Box::new(std::io::empty())),
        ..Default::default()
    };
    match exe.run(options, vec!["fuzz".into()]) {
        RunOutcome::Trapped(d) | RunOutcome::Limit(d) if d.class == Class::Internal => Err(Defect(format!("internal error at run time: {}", d.message))),
        _ => Ok(()),
    }
}

/// The targets by name.
pub const TARGETS: &[(&str, fn(&[u8]) -> Result<(), Defect>)] = &[("directive_parser", directive_parser), ("frontend", frontend), ("execute", execute)];

/// A small deterministic generator (xorshift64*).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Integer arguments that stress sizes: negative, zero, huge, overflowing.
const INTERESTING: &[&str] = &["0", "1", "-1", "-4", "3", "1<<20", "1<<24", "1<<30", "2147483647", "-2147483648", "(1L<<40)", "4294967295u", "n", "-n", "n*n"];

/// Clauses to add to a directive.
const CLAUSES: &[&str] = &[
    "num_gangs(N)", "num_workers(N)", "vector_length(N)", "gang", "worker", "vector", "seq", "independent", "collapse(N)", "tile(N,N)",
    "reduction(+:s)", "private(i)", "firstprivate(n)", "copy(a[0:N])", "copyin(a[N:N])", "copyout(a)", "create(a[0:N])", "present(a)",
    "async(N)", "wait(N)", "if(N)", "device_type(nvidia)", "gang(num:N)", "worker(N)", "vector(N)", "cache(a[0:N])",
];

/// Directive names to swap in.
const DIRECTIVES: &[&str] = &[
    "parallel", "kernels", "loop", "parallel loop", "kernels loop", "data", "enter data", "exit data", "update", "host_data", "atomic",
    "atomic update", "atomic read", "atomic write", "atomic capture", "routine seq", "routine gang", "wait", "declare", "cache",
];

/// One structure-aware mutation of `input` (preprocessed C or a directive's text).
pub fn mutate(input: &[u8], rng: &mut Rng) -> Vec<u8> {
    let text = String::from_utf8_lossy(input);
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    if lines.is_empty() {
        lines.push(String::new());
    }
    let pragmas: Vec<usize> = lines.iter().enumerate().filter(|(_, l)| l.trim_start().starts_with("#pragma acc")).map(|(i, _)| i).collect();
    let choice = rng.below(10);
    if choice < 7 && !pragmas.is_empty() {
        let i = *rng.pick(&pragmas);
        lines[i] = mutate_pragma(&lines[i], rng);
    } else if choice < 8 && !pragmas.is_empty() {
        // An atomic around the statement after a directive, or a pragma copied elsewhere.
        let i = *rng.pick(&pragmas);
        let at = rng.below(lines.len() + 1);
        let line = if rng.below(2) == 0 { "#pragma acc atomic".to_string() } else { lines[i].clone() };
        lines.insert(at, line);
    } else if choice < 9 {
        // Splice: duplicate or drop a line.
        let i = rng.below(lines.len());
        if rng.below(2) == 0 {
            let l = lines[i].clone();
            lines.insert(rng.below(lines.len() + 1), l);
        } else {
            lines.remove(i);
        }
    } else {
        let mut bytes = lines.join("\n").into_bytes();
        for _ in 0..1 + rng.below(4) {
            if bytes.is_empty() {
                break;
            }
            let at = rng.below(bytes.len());
            match rng.below(3) {
                0 => bytes[at] ^= 1 << rng.below(8),
                1 => {
                    bytes.remove(at);
                }
                _ => bytes.insert(at, *rng.pick(b"()[]{};:,*-+<>0123456789 ")),
            }
        }
        return bytes;
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out.into_bytes()
}

/// Mutate one `#pragma acc` line.
fn mutate_pragma(line: &str, rng: &mut Rng) -> String {
    let number = |rng: &mut Rng| rng.pick(INTERESTING).to_string();
    match rng.below(6) {
        // Replace the argument of a clause with an interesting number.
        0 | 1 => {
            let opens: Vec<usize> = line.match_indices('(').map(|(i, _)| i).collect();
            let Some(&open) = opens.get(rng.below(opens.len().max(1))) else {
                return format!("{line} {}", rng.pick(CLAUSES).replace('N', &number(rng)));
            };
            let close = line[open..].find(')').map_or(line.len(), |c| open + c);
            format!("{}({}{}", &line[..open], number(rng), &line[close..])
        }
        // Add a clause.
        2 => format!("{line} {}", rng.pick(CLAUSES).replace('N', &number(rng))),
        // Drop a word.
        3 => {
            let words: Vec<&str> = line.split(' ').collect();
            if words.len() <= 3 {
                return line.to_string();
            }
            let drop = 2 + rng.below(words.len() - 2);
            words.iter().enumerate().filter(|(i, _)| *i != drop).map(|(_, w)| *w).collect::<Vec<_>>().join(" ")
        }
        // Swap the directive name, keeping the clauses.
        4 => {
            let rest = line.trim_start().trim_start_matches("#pragma acc").trim_start();
            let clauses = rest.find(['(', ' ']).map_or("", |i| &rest[i..]);
            format!("#pragma acc {}{clauses}", rng.pick(DIRECTIVES))
        }
        // A subarray with an extreme bound.
        _ => format!("{line} {}(a[{}:{}])", rng.pick(&["copy", "create", "copyin", "present"]), number(rng), number(rng)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutation_is_deterministic_and_edits_pragmas() {
        let src = b"int main(void) {\n#pragma acc parallel loop num_gangs(4) copy(a[0:8])\nfor (;;) ;\n}\n";
        let (mut r1, mut r2) = (Rng::new(7), Rng::new(7));
        let a: Vec<Vec<u8>> = (0..50).map(|_| mutate(src, &mut r1)).collect();
        let b: Vec<Vec<u8>> = (0..50).map(|_| mutate(src, &mut r2)).collect();
        assert_eq!(a, b);
        assert!(a.iter().any(|m| m != src));
        assert!(a.iter().filter(|m| String::from_utf8_lossy(m).contains("#pragma acc")).count() > 25);
    }

    #[test]
    fn the_directive_target_takes_any_bytes() {
        let mut rng = Rng::new(1);
        let mut input = b"parallel loop num_gangs(4) reduction(+:s) copy(a[0:n])".to_vec();
        for _ in 0..2000 {
            input = mutate(&input, &mut rng);
            assert_eq!(directive_parser(&input), Ok(()));
        }
    }
}
