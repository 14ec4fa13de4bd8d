//! One call per output statement: a `print`/`write` of scalar items with a literal format (or
//! list-directed) becomes a call of a helper routine that the translation adds to the runtime's
//! text, which writes the statement's edits with the calls the statement would otherwise make
//! inline (`_ffc_*`, `_ff_*`, `_fr_*` in runtime.h). The helper takes the items that are not
//! constants as its arguments, in the list's order; constant items (literals, named constants)
//! are written inside it.
//!
//! Why (issue 16): each call a compiled host function makes costs it about 70 Cranelift
//! instructions (the interpreter fallback while the callee has no code, fuel, call depth, trap
//! test), so the Fortran Jacobi's one formatted `print` of five items was 12 calls and 830 of its
//! `main`'s 3,915 instructions, all of it compiled before the program runs. As a runtime
//! routine (the runtime is a system header, `runtime.rs`), the helper runs its first calls in
//! the interpreter and has code generated only for a program that calls it often, as the
//! routines it calls do; `main` makes one call.
//!
//! What the program computes and writes is unchanged: the items are evaluated in order (into
//! temporaries where one of several may have an effect, since C leaves the order of arguments
//! open), in the
//! statement's procedure and at its line (their faults and `check`'s findings name the Fortran
//! line), before the record is written, as libgfortran also builds a record before it writes it.
//! Statements the helper cannot take keep their inline calls: those in a compute construct or
//! an `!$acc routine` procedure (device code calls no host helper), and items of derived or
//! complex type (written component by component or as two parts).

use super::expr::{unparen, CE};
use super::types::*;
use super::*;

/// A C expression that is a literal: an integer or floating constant, or a string literal.
fn is_literal(c: &str) -> bool {
    let c = unparen(c);
    let b = c.as_bytes();
    if b.len() >= 2 && b[0] == b'"' && b[b.len() - 1] == b'"' {
        // One string literal: every inner quote is escaped (`c_str`).
        let mut escaped = false;
        for &x in &b[1..b.len() - 1] {
            match x {
                b'\\' if !escaped => escaped = true,
                b'"' if !escaped => return false,
                _ => escaped = false,
            }
        }
        return !escaped;
    }
    let digits = c.strip_prefix('-').unwrap_or(&c);
    let starts_numeric = digits.bytes().next().is_some_and(|x| x.is_ascii_digit() || x == b'.');
    let body = digits.trim_end_matches(['L', 'l', 'U', 'u', 'f', 'F']);
    starts_numeric && body.parse::<f64>().is_ok()
}

impl Translator {
    /// Write an output statement of scalar items: one call of a helper (see the module docs)
    /// where it can take the statement, else the runtime calls inline.
    pub(super) fn print_scalar_statement(&mut self, unit_no: i32, fmt: Option<&Expr>, values: &[CE], advance: bool, line: u32, out: &mut String) -> TResult<()> {
        let helper_takes_it = self.f.in_compute == 0 && !self.f.acc_routine && values.iter().all(|c| matches!(c.ty, Ty::Int(_) | Ty::Real(_) | Ty::Logical | Ty::Char));
        if !helper_takes_it {
            return self.print_scalar_calls(unit_no, fmt, values, advance, line, out);
        }
        let mut params = Vec::new();
        let mut args = Vec::new();
        let mut arg_types: Vec<String> = Vec::new();
        let mut inner = Vec::with_capacity(values.len());
        for c in values {
            let len = c.len.clone().unwrap_or_else(|| "1".into());
            let constant = is_literal(&c.c) && (c.ty != Ty::Char || is_literal(&len));
            if constant {
                inner.push(c.clone());
                continue;
            }
            let p = format!("_p{}", params.len());
            if c.ty == Ty::Char {
                params.push(format!("const char *{p}, long {p}n"));
                args.push(unparen(&c.c));
                args.push(unparen(&len));
                arg_types.push("const char *".into());
                arg_types.push("long".into());
                inner.push(CE { c: p.clone(), ty: Ty::Char, len: Some(format!("{p}n")) });
            } else {
                params.push(format!("{} {p}", c.ty.c()));
                args.push(unparen(&c.c));
                arg_types.push(c.ty.c().into());
                inner.push(CE::new(p, c.ty));
            }
        }
        let mut calls = String::new();
        self.print_scalar_calls(unit_no, fmt, &inner, advance, line, &mut calls)?;
        // The helper is runtime text: no line markers of the Fortran file inside it.
        let body = calls.replace(&self.marker(line), "");
        let params = if params.is_empty() { "void".to_string() } else { params.join(", ") };
        let signature_and_body = format!("({params}) {{\n{body}}}\n");
        let name = match self.print_helper_names.get(&signature_and_body) {
            Some(n) => n.clone(),
            None => {
                let n = format!("_fo{}", self.print_helper_names.len());
                let _ = write!(self.print_helpers, "static void {n}{signature_and_body}");
                self.print_helper_names.insert(signature_and_body, n.clone());
                n
            }
        };
        let m = self.marker(line);
        let plain = |a: &String| is_literal(a) || (a.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') && a.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
        if args.len() < 2 || args.iter().all(plain) {
            let _ = writeln!(out, "{m}{name}({});", args.join(", "));
            return Ok(());
        }
        // C leaves the order of a call's arguments open (accsim evaluates them last first):
        // where an item may have an effect (a call, an array element that may fault),
        // temporaries keep the items' order, so effects and faults come as listed. Variables
        // and literals are read in any order.
        let mut block = String::from("{ ");
        let mut temps = Vec::with_capacity(args.len());
        for (a, p) in args.iter().zip(&arg_types) {
            let t = self.tmp("item");
            let _ = write!(block, "{p} {t} = {a}; ");
            temps.push(t);
        }
        let _ = writeln!(out, "{m}{block}{name}({}); }}", temps.join(", "));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::is_literal;

    #[test]
    fn literals_are_constants_and_names_are_not() {
        for c in ["1024", "(1024)", "-1", "0.25e0", "1.5f", "10L", "\"jacobi n=\"", "\"say \\\"hi\\\"\""] {
            assert!(is_literal(c), "{c}");
        }
        for c in ["n", "inf", "(1024 / 2) + 1", "a[0]", "\"a\" \"b\"", "-x", "\"a\\\"", "s + 1.0"] {
            assert!(!is_literal(c), "{c}");
        }
    }
}
