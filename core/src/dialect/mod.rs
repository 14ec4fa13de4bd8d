//! Dialect layers: the directive languages before and beside OpenACC 2.0, translated into 2.0
//! directives that the one engine runs (DESIGN.md "Where it is going": dialects are lowered onto
//! the 2.0 semantics, not run beside them).
//!
//! A dialect works on directive text (what follows `#pragma acc` or `!$acc`) and knows the base
//! language only through [`pgi13::Lang`], so the C front-end and a Fortran one share it. Each
//! translated directive keeps its original text for messages and for `accsim info`, which shows
//! the 2.0 equivalent.
//!
//! - [`pgi13`]: the PGI Accelerator programming model 1.3 (seeds/004).
//! - [`openuh`]: OpenUH's nested `gang`/`vector` loops (seeds/002), run as 2.0 nests.
//! - [`cray`]: Cray CCE's `-h acc_model` execution and memory model (seeds/003), and
//!   [`cray_info`], what CCE says about a program (`accsim info --cray`) and its limits.

pub mod cray;
pub mod cray_info;
pub mod openuh;
pub mod pgi13;

/// Which directive language a translation unit is read in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Dialect {
    /// OpenACC 2.0, unless the file uses a 1.3 `region` directive (then PGI 1.3, with a note).
    #[default]
    Auto,
    /// OpenACC 2.0 only (`--dialect openacc-2.0`).
    OpenAcc20,
    /// The PGI Accelerator model 1.3 (`--dialect pgi-1.3`); OpenACC 2.0 directives the 1.3 model
    /// does not have (`kernels`, `parallel`, `loop`, `enter data` …) are accepted too.
    Pgi13,
    /// OpenACC 2.0 with OpenUH's nested `gang` (and `vector`) loops (`--dialect openuh`,
    /// [`openuh`]).
    OpenUh,
}

impl Dialect {
    /// The `--dialect` spellings.
    pub const NAMES: [&'static str; 4] = ["auto", "openacc-2.0", "pgi-1.3", "openuh"];

    pub fn parse(s: &str) -> Option<Dialect> {
        match s {
            "auto" => Some(Dialect::Auto),
            "openacc-2.0" | "2.0" => Some(Dialect::OpenAcc20),
            "pgi-1.3" | "pgi" => Some(Dialect::Pgi13),
            "openuh" => Some(Dialect::OpenUh),
            _ => None,
        }
    }

    /// The value of the dialect's own version macro, if it has one (1.3 §2.2: `_ACCEL`, the year
    /// and month of the model's version).
    pub fn version_macro(self) -> Option<(&'static str, u32)> {
        match self {
            Dialect::Pgi13 => Some(("_ACCEL", 201011)),
            _ => None,
        }
    }
}

/// The first line of C source text with a 1.3 `region` directive (`#pragma acc region`,
/// `#pragma acc data region`, `#pragma acc region for`), 1-based: what makes [`Dialect::Auto`]
/// read a file as PGI 1.3.
pub fn pgi13_region_line(source: &str) -> Option<u32> {
    source.lines().position(|l| {
        let Some(rest) = l.trim_start().strip_prefix('#') else { return false };
        let Some(rest) = rest.trim_start().strip_prefix("pragma") else { return false };
        let Some(rest) = rest.trim_start().strip_prefix("acc") else { return false };
        let mut words = rest.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').filter(|w| !w.is_empty());
        matches!((words.next(), words.next()), (Some("region"), _) | (Some("data"), Some("region")))
    }).map(|i| i as u32 + 1)
}

/// The first line of Fortran source text with a 1.3 `region` directive (`!$acc region`,
/// `!$acc data region`, `!$acc region do`; free or fixed form, any case), 1-based.
pub fn pgi13_region_line_fortran(source: &str) -> Option<u32> {
    source.lines().position(|l| {
        let l = l.trim_start().to_ascii_lowercase();
        let Some(rest) = l.strip_prefix("!$acc").or_else(|| l.strip_prefix("c$acc")).or_else(|| l.strip_prefix("*$acc")) else { return false };
        let mut words = rest.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').filter(|w| !w.is_empty());
        matches!((words.next(), words.next()), (Some("region"), _) | (Some("data"), Some("region")))
    }).map(|i| i as u32 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn region_lines_are_found() {
        assert_eq!(pgi13_region_line("int x;\n  #  pragma acc region copy(a)\n"), Some(2));
        assert_eq!(pgi13_region_line("#pragma acc data region\n"), Some(1));
        assert_eq!(pgi13_region_line("#pragma acc kernels\n#pragma acc data copy(a)\n// region\n"), None);
        assert_eq!(pgi13_region_line_fortran("program p\n  !$ACC Region\n"), Some(2));
        assert_eq!(pgi13_region_line_fortran("!$acc data region copy(a)\n"), Some(1));
        assert_eq!(pgi13_region_line_fortran("!$acc kernels\n! region\n!$acc end kernels\n"), None);
        assert_eq!(Dialect::parse("pgi-1.3"), Some(Dialect::Pgi13));
        assert_eq!(Dialect::parse("nope"), None);
    }
}
