//! `print` and `write`: list-directed output (Fortran 2003 §10.9.2, with libgfortran's layout,
//! see runtime.h) and formatted output through the runtime's format interpreter (§10.6: I, F, E,
//! ES, A, L, X, quoted strings, `/`, repeat counts and groups).

use super::expr::unparen;
use super::types::*;
use super::*;

impl Translator {
    pub fn print(&mut self, unit: Option<&Expr>, fmt: Option<&Expr>, items: &[Expr], advance: bool, line: u32, out: &mut String) -> TResult<()> {
        if !advance && fmt.is_none() {
            return error(line, "`advance='no'` needs an explicit format");
        }
        let m = self.marker(line);
        let unit_no = match unit {
            None => 6,
            Some(u) => match self.fold(u) {
                Some(6) => 6,
                Some(0) => 0,
                _ => return unsupported(line, "output to units other than `*`, 6 (standard output) and 0 (standard error)"),
            },
        };
        // A statement of scalar items with a literal format (or none) is written by one call
        // of a runtime helper (`print_helpers.rs`), or, where it cannot be, by the same calls
        // inline; the items are translated once for either.
        let literal_format = match fmt {
            None => true,
            Some(f) => matches!(f, Expr::Str(_)),
        };
        if literal_format && items.iter().all(|it| !matches!(it, Expr::ImpliedDo { .. } | Expr::Binary("//", _, _)) && self.rank(it) == 0) {
            let values = items.iter().map(|it| self.expr(it, None, line)).collect::<TResult<Vec<_>>>()?;
            return self.print_scalar_statement(unit_no, fmt, &values, advance, line, out);
        }
        let prefix = match fmt {
            None => {
                let _ = writeln!(out, "{m}_fr_begin({unit_no});");
                "_fr"
            }
            Some(f) => {
                let c = self.expr(f, None, line)?;
                if c.ty != Ty::Char {
                    return unsupported(line, "a format that is not a character string (`format` labels)");
                }
                let _ = writeln!(out, "{m}_ff_begin({unit_no}, {}, {});", c.c, c.len.unwrap_or_default());
                "_ff"
            }
        };
        for it in items {
            self.print_item(it, prefix, line, out)?;
        }
        output_end(&m, prefix, advance, out);
        Ok(())
    }

    /// The runtime calls of an output statement whose items are the scalars `values` (already
    /// translated) and whose format is a character literal or list-directed (`fmt` `None`):
    /// a compiled format's edits ([`Translator::compiled_format`]), else the runtime's format
    /// interpreter or list-directed writer, one call per item.
    pub(super) fn print_scalar_calls(&mut self, unit_no: i32, fmt: Option<&Expr>, values: &[super::expr::CE], advance: bool, line: u32, out: &mut String) -> TResult<()> {
        let m = self.marker(line);
        let prefix = match fmt {
            None => {
                let _ = writeln!(out, "{m}_fr_begin({unit_no});");
                "_fr"
            }
            Some(f) => {
                let c = self.expr(f, None, line)?;
                if let Expr::Str(text) = f {
                    if self.compiled_format(unit_no, text, values, advance, line, out) {
                        return Ok(());
                    }
                }
                let _ = writeln!(out, "{m}_ff_begin({unit_no}, {}, {});", c.c, c.len.unwrap_or_default());
                "_ff"
            }
        };
        for v in values {
            let _ = writeln!(out, "{m}{}", self.print_call(v, prefix, line)?);
        }
        output_end(&m, prefix, advance, out);
        Ok(())
    }

    /// Formatted output with a format the translation knows (a character literal) of scalar
    /// items of intrinsic types other than complex, already translated (`values`), its format
    /// control carried out here ([`super::format`]): the C calls the runtime's edits in order,
    /// without its format interpreter. `false` (nothing written to `out`): the statement takes
    /// the runtime's path.
    fn compiled_format(&mut self, unit_no: i32, text: &str, values: &[super::expr::CE], advance: bool, line: u32, out: &mut String) -> bool {
        use super::format::{FormatOp, ItemKind};
        let mut kinds = Vec::with_capacity(values.len());
        for c in values {
            kinds.push(match c.ty {
                Ty::Int(_) => ItemKind::Integer,
                Ty::Real(_) => ItemKind::Real,
                Ty::Logical => ItemKind::Logical,
                Ty::Char => ItemKind::Character,
                Ty::Complex(_) | Ty::Derived(_) => return false,
            });
        }
        let Some(ops) = super::format::compile(text, &kinds) else { return false };
        let m = self.marker(line);
        let _ = writeln!(out, "{m}_ffc_begin({unit_no});");
        let mut next = values.iter();
        for op in ops {
            match op {
                FormatOp::Text(t) => {
                    let t = String::from_utf8_lossy(&t).into_owned();
                    let _ = writeln!(out, "{m}_ffc_text({}, {});", c_str(&t), t.len());
                }
                FormatOp::Blanks(n) => {
                    let _ = writeln!(out, "{m}_ffc_blanks({n});");
                }
                FormatOp::Newline => {
                    let _ = writeln!(out, "{m}_ffc_newline();");
                }
                FormatOp::Edit(e) => {
                    // `compile` gives one edit per item, in order.
                    let Some(c) = next.next() else { continue };
                    let v = unparen(&c.c);
                    let (letter, hasw, w, d, ex) = (e.letter as char, i32::from(e.has_w), e.w, e.d, e.e);
                    let call = match c.ty {
                        Ty::Int(_) => format!("_ffc_int((long)({v}), '{letter}', {hasw}, {w}, {d}, {ex})"),
                        Ty::Real(k) => {
                            let second = if e.second == 0 { "0".to_string() } else { format!("'{}'", e.second as char) };
                            format!("_ffc_real((double)({v}), {k}, '{letter}', {second}, {hasw}, {w}, {d}, {ex})")
                        }
                        Ty::Logical => format!("_ffc_log({v}, '{letter}', {hasw}, {w}, {d}, {ex})"),
                        _ => format!("_ffc_str({v}, {}, '{letter}', {hasw}, {w}, {d}, {ex})", c.len.clone().unwrap_or_else(|| "1".into())),
                    };
                    let _ = writeln!(out, "{m}{call};");
                }
            }
        }
        let _ = writeln!(out, "{m}{}", if advance { "_ffc_newline();" } else { "_ffc_end_noadvance();" });
        true
    }

    /// List-directed `read` from standard input (Fortran 2003 §10.9.1) through the runtime's
    /// `_fi_*` routines: items in order, arrays in array element order, implied-do lists, the
    /// components of a derived-type item (§9.5.2); `iostat=` receives the statement's status.
    pub fn read(&mut self, items: &[Expr], iostat: Option<&Expr>, line: u32, out: &mut String) -> TResult<()> {
        if self.f.in_compute > 0 {
            return error(line, "a `read` statement inside a compute construct (input runs on the host)");
        }
        let m = self.marker(line);
        let _ = writeln!(out, "{m}_fi_begin({}, {line}, {});", iostat.is_some() as i32, c_str(&self.file));
        for it in items {
            self.read_item(it, line, out)?;
        }
        match iostat {
            Some(v) => {
                let c = self.expr(v, None, line)?;
                if !matches!(c.ty, Ty::Int(_)) || self.rank(v) > 0 {
                    return error(line, "the `iostat=` variable must be an integer scalar");
                }
                let _ = writeln!(out, "{m}{} = _fi_end();", unparen(&c.c));
            }
            None => {
                let _ = writeln!(out, "{m}_fi_end();");
            }
        }
        Ok(())
    }

    fn read_item(&mut self, it: &Expr, line: u32, out: &mut String) -> TResult<()> {
        let m = self.marker(line);
        match it {
            Expr::ImpliedDo { items, var, lo, hi, step } => {
                self.implied_do_header(var, lo, hi, step.as_deref(), line, out)?;
                for x in items {
                    self.read_item(x, line, out)?;
                }
                let _ = writeln!(out, "{m}}}");
                return Ok(());
            }
            Expr::Name(_) | Expr::Apply(..) | Expr::Component(..) | Expr::Substring(..) => {}
            _ => return error(line, format!("`{}` in a `read` list is not a variable", crate::names::fortran_text(it))),
        }
        if let Expr::Name(n) = it {
            if self.lookup(n).is_some_and(|v| v.param.is_some()) {
                return error(line, format!("named constant `{n}` in a `read` list"));
            }
        }
        if self.rank(it) > 0 {
            let Some(space) = self.space(it, line)? else { return error(line, "bad array in a `read` list") };
            let ix: Vec<String> = (0..space.len()).map(|_| self.tmp("i")).collect();
            let c = self.expr(it, Some(&ix), line)?;
            let mut head = String::new();
            for (k, n) in ix.iter().zip(&space).rev() {
                let _ = write!(head, "for (long {k} = 0; {k} < {n}; {k}++) ");
            }
            let _ = writeln!(out, "{m}{head}{}", self.read_value(&c, line)?);
            return Ok(());
        }
        let c = self.expr(it, None, line)?;
        let _ = writeln!(out, "{m}{}", self.read_value(&c, line)?);
        Ok(())
    }

    /// The C statement that reads one value into the variable `c`; a null value leaves it as it is.
    fn read_value(&mut self, c: &super::expr::CE, line: u32) -> TResult<String> {
        let v = unparen(&c.c);
        let t = self.tmp("in");
        Ok(match c.ty {
            Ty::Int(_) => format!("{{ long {t}; if (_fi_int(&{t})) {v} = ({}){t}; }}", c.ty.c()),
            Ty::Real(_) => format!("{{ double {t}; if (_fi_real(&{t})) {v} = ({}){t}; }}", c.ty.c()),
            Ty::Logical => format!("{{ int {t}; if (_fi_log(&{t})) {v} = {t}; }}"),
            Ty::Char => format!("_fi_str({v}, {});", c.len.clone().unwrap_or_else(|| "1".into())),
            Ty::Complex(_) => return unsupported(line, "reading complex values (`read` of a complex item)"),
            Ty::Derived(ct) => {
                let name = ct.strip_prefix("struct _fty_").unwrap_or(ct);
                let Some(dt) = self.derived.get(name).cloned() else { return error(line, format!("type `{name}` is not defined")) };
                let mut s = String::from("{ ");
                for (_, comp) in &dt.components {
                    let member = format!("({}).{}", c.c, comp.cname);
                    match &comp.shape {
                        None => {
                            let len = (comp.ty == Ty::Char).then(|| comp.char_len.to_string());
                            s.push_str(&self.read_value(&super::expr::CE { c: member, ty: comp.ty, len }, line)?);
                        }
                        Some(sh) => {
                            let k = self.tmp("k");
                            let elem = super::expr::CE::new(format!("{member}[{k}]"), comp.ty);
                            let _ = write!(s, "for (long {k} = 0; {k} < {}; {k}++) {}", sh.total(), self.read_value(&elem, line)?);
                        }
                    }
                    s.push(' ');
                }
                s.push('}');
                s
            }
        })
    }

    /// The `for (…) {` line of an implied-do loop `(items, var = lo, hi[, step])` (Fortran 2003
    /// §9.5.2, §4.7), shared by input lists, output lists and array constructors: a constant
    /// negative step counts down.
    pub(super) fn implied_do_header(&mut self, var: &str, lo: &Expr, hi: &Expr, step: Option<&Expr>, line: u32, out: &mut String) -> TResult<()> {
        let m = self.marker(line);
        let v = self.var(var, line)?;
        let lo = self.expr(lo, None, line)?.c;
        let hi = self.expr(hi, None, line)?.c;
        let (cond, inc) = match step {
            None => ("<=", "++".to_string()),
            Some(s) => match self.fold(s) {
                Some(x) if x < 0 => (">=", format!(" += {x}")),
                _ => ("<=", format!(" += {}", self.expr(s, None, line)?.c)),
            },
        };
        let _ = writeln!(out, "{m}for ({i} = {lo}; {i} {cond} {hi}; {i}{inc}) {{", i = v.cname);
        Ok(())
    }

    fn print_item(&mut self, it: &Expr, prefix: &str, line: u32, out: &mut String) -> TResult<()> {
        let m = self.marker(line);
        if let Expr::ImpliedDo { items, var, lo, hi, step } = it {
            self.implied_do_header(var, lo, hi, step.as_deref(), line, out)?;
            for x in items {
                self.print_item(x, prefix, line, out)?;
            }
            let _ = writeln!(out, "{m}}}");
            return Ok(());
        }
        if let Expr::Binary("//", _, _) = it {
            for (p, n) in self.char_pieces(it, line)? {
                let _ = writeln!(out, "{m}{prefix}_str({p}, {n});");
            }
            return Ok(());
        }
        if self.rank(it) > 0 {
            let Some(space) = self.space(it, line)? else { return error(line, "bad array in output list") };
            let ix: Vec<String> = (0..space.len()).map(|_| self.tmp("i")).collect();
            let c = self.expr(it, Some(&ix), line)?;
            let mut head = String::new();
            for (k, n) in ix.iter().zip(&space).rev() {
                let _ = write!(head, "for (long {k} = 0; {k} < {n}; {k}++) ");
            }
            let _ = writeln!(out, "{m}{head}{}", self.print_call(&c, prefix, line)?);
            return Ok(());
        }
        let c = self.expr(it, None, line)?;
        let _ = writeln!(out, "{m}{}", self.print_call(&c, prefix, line)?);
        Ok(())
    }

    /// The C statement that writes one value. A derived-type value is written as its components
    /// in order (Fortran 2003 §9.5.2), an array component in array element order.
    fn print_call(&mut self, c: &super::expr::CE, prefix: &str, line: u32) -> TResult<String> {
        let v = unparen(&c.c);
        if let Ty::Derived(ct) = c.ty {
            let name = ct.strip_prefix("struct _fty_").unwrap_or(ct);
            let Some(dt) = self.derived.get(name).cloned() else { return error(line, format!("type `{name}` is not defined")) };
            let mut s = String::from("{ ");
            for (_, comp) in &dt.components {
                let member = format!("({}).{}", c.c, comp.cname);
                match &comp.shape {
                    None => {
                        let len = (comp.ty == Ty::Char).then(|| comp.char_len.to_string());
                        s.push_str(&self.print_call(&super::expr::CE { c: member, ty: comp.ty, len }, prefix, line)?);
                    }
                    Some(sh) => {
                        let k = self.tmp("k");
                        let elem = super::expr::CE::new(format!("{member}[{k}]"), comp.ty);
                        let _ = write!(s, "for (long {k} = 0; {k} < {}; {k}++) {}", sh.total(), self.print_call(&elem, prefix, line)?);
                    }
                }
                s.push(' ');
            }
            s.push('}');
            return Ok(s);
        }
        Ok(format!("{};", match c.ty {
            // libgfortran's list-directed integer widths: kind 1: 4, 2: 6, 4: 11, 8: 20.
            Ty::Int(k) => format!("{prefix}_int((long)({v}), {})", if prefix == "_fr" { match k { 1 => 4, 2 => 6, 8 => 20, _ => 11 } } else { k as i32 }),
            Ty::Real(k) => format!("{prefix}_real((double)({v}), {k})"),
            Ty::Logical => format!("{prefix}_log({v})"),
            Ty::Char => format!("{prefix}_str({v}, {})", c.len.clone().unwrap_or_else(|| "1".into())),
            Ty::Complex(k) => format!("{prefix}_complex(creal({v}), cimag({v}), {k})"),
            Ty::Derived(_) => return error(line, "a derived-type value reached the writer of intrinsic values"),
        }))
    }
}

/// The runtime call that ends an output statement begun by `prefix`'s `_begin` (`_fr`
/// list-directed, `_ff` formatted): the record's end, or with `advance='no'` (formatted only)
/// the end that leaves the record open.
fn output_end(m: &str, prefix: &str, advance: bool, out: &mut String) {
    if advance {
        let _ = writeln!(out, "{m}{prefix}_end();");
    } else {
        let _ = writeln!(out, "{m}_ff_end_noadvance();");
    }
}
