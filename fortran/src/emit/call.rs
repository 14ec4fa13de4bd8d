//! Procedure calls: the C arguments of a call (Fortran 2003 §12.4.1): scalars by reference,
//! arrays as the address of their first element (with extents for assumed shape), non-contiguous
//! sections and array expressions through a temporary, character scalars with their length when the dummy's is assumed,
//! absent optional arguments as null pointers, and mismatched scalars of external procedures as
//! gfortran's `-fallow-argument-mismatch` passes them.

use super::expr::{count, unparen, CE};
use super::types::*;
use super::*;

impl Translator {
    /// The C arguments of a call to `p`.
    pub fn actual_args(&mut self, p: &Proc, name: &str, args: &[Arg], line: u32) -> TResult<Vec<String>> {
        // Positional arguments first, then keywords naming dummies (Fortran 2003 §12.4.1.1).
        let mut given: Vec<Option<&Expr>> = vec![None; p.dummies.len()];
        let mut keywords = false;
        for (i, a) in args.iter().enumerate() {
            match a {
                Arg::Value(e) if !keywords => match given.get_mut(i) {
                    Some(slot) => *slot = Some(e),
                    None => return error(line, format!("`{name}` takes {} arguments but {} are given", p.dummies.len(), args.len())),
                },
                Arg::Value(_) => return error(line, format!("a positional argument after a keyword argument in the call of `{name}`")),
                Arg::Keyword(k, e) => {
                    keywords = true;
                    let Some(at) = p.dummies.iter().position(|d| &d.name == k) else {
                        return error(line, format!("`{name}` has no dummy argument `{k}`"));
                    };
                    if given[at].is_some() {
                        return error(line, format!("argument `{k}` of `{name}` is given twice"));
                    }
                    given[at] = Some(e);
                }
                Arg::Range(..) => return error(line, format!("a range is not an argument (in the call of `{name}`)")),
            }
        }
        let mut out = Vec::new();
        for (d, e) in p.dummies.iter().zip(given) {
            let Some(e) = e else {
                if !d.optional {
                    return error(line, format!("argument `{}` of `{name}` is missing (it is not `optional`)", d.name));
                }
                // Absent: a null pointer, and zero extents for an assumed-shape array (a zero
                // length for an assumed-length character).
                out.push("0".into());
                if d.rank == 0 && d.ty == Ty::Char && d.char_len < 0 {
                    out.push("0".into());
                }
                if d.assumed_shape {
                    out.extend((0..d.rank).map(|_| "0".to_string()));
                }
                if d.allocatable || d.pointer {
                    out.extend((0..2 * d.rank).map(|_| "0".to_string()));
                }
                continue;
            };
            // An optional dummy passed on to an optional dummy keeps its presence (§12.4.1.6).
            if let Expr::Name(n) = e {
                if d.optional && d.rank == 0 && d.ty != Ty::Char && self.f.optional.contains(n) && self.f.scope.get(n).is_some_and(|v| v.dummy.is_some() && v.shape.is_none()) {
                    let c = self.f.scope[n].cname.clone();
                    out.push(format!("({c}_arg ? &{c} : 0)"));
                    continue;
                }
            }
            if d.allocatable || d.pointer {
                out.extend(self.descriptor_args(d, name, e, line)?);
                continue;
            }
            if d.rank == 0 {
                if self.rank(e) > 0 {
                    return error(line, format!("argument `{}` of `{name}` is a scalar but an array is given", d.name));
                }
                let c = self.expr(e, None, line)?;
                if d.ty == Ty::Char {
                    // A character scalar: the address of the actual's first character, and its
                    // length for an assumed-length dummy (Fortran 2003 §5.1.1.5).
                    if c.ty != Ty::Char {
                        return error(line, format!("argument `{}` of `{name}` is character but {} is given", d.name, c.ty.name()));
                    }
                    out.push(unparen(&c.c));
                    if d.char_len < 0 {
                        out.push(c.len.clone().unwrap_or_else(|| "1".into()));
                    }
                    continue;
                }
                let is_var = match e {
                    Expr::Name(n) => self.lookup(n).is_some_and(|v| v.param.is_none()),
                    Expr::Apply(n, _) => self.lookup(n).is_some_and(|v| v.shape.is_some()),
                    Expr::Component(..) => true,
                    _ => false,
                };
                if c.ty != d.ty {
                    let numeric = |t: Ty| matches!(t, Ty::Int(_) | Ty::Real(_) | Ty::Complex(_) | Ty::Logical);
                    if !(p.external && numeric(c.ty) && numeric(d.ty)) {
                        return error(line, format!("argument `{}` of `{name}` is {} but {} is given", d.name, d.ty.name(), c.ty.name()));
                    }
                    out.push(self.mismatched_scalar(&c, d, name, is_var, line));
                    continue;
                }
                out.push(if is_var { format!("&{}", unparen(&c.c)) } else { format!("&({}){{{}}}", d.ty.c(), unparen(&c.c)) });
                continue;
            }
            // Array dummy: the address of the first element, plus extents for assumed shape.
            let (base, exts, ty) = match e {
                Expr::Name(n) => {
                    let v = self.var(n, line)?;
                    let Some(sh) = &v.shape else { return error(line, format!("argument `{}` of `{name}` is an array but `{n}` is a scalar", d.name)) };
                    (v.cname.clone(), sh.exts.clone(), v.ty)
                }
                Expr::Apply(n, sargs) if self.lookup(n).is_some_and(|v| v.shape.is_some()) && !self.is_contiguous_section(n, sargs) => {
                    // A section that is not contiguous goes through a temporary: copied in before
                    // the call and back after it (Fortran 2003 §12.4.1.2, as gfortran does).
                    let v = self.var(n, line)?;
                    if v.ty == Ty::Char {
                        return unsupported(line, format!("passing a non-contiguous section of character array `{n}`"));
                    }
                    let Some(space) = self.space(e, line)? else { return error(line, "not a section") };
                    let ix: Vec<String> = (0..space.len()).map(|_| self.tmp("i")).collect();
                    let elem = self.expr(e, Some(&ix), line)?.c;
                    let t = self.tmp("sec");
                    let ty = v.ty.c();
                    let (total, lin, head) = temporary_loops(&ix, &space);
                    self.f.call_pre.push(format!("{ty} *{t} = ({ty} *)malloc(_f_allocation_bytes({total}, sizeof({ty}), 0)); {head}{t}[{lin}] = {elem};"));
                    if d.intent.as_deref() != Some("in") {
                        self.f.call_post.push(format!("{head}{elem} = {t}[{lin}];"));
                    }
                    self.f.call_post.push(format!("free({t});"));
                    (t, space, v.ty)
                }
                Expr::Apply(n, sargs) if self.lookup(n).is_some_and(|v| v.shape.is_some()) => {
                    let v = self.var(n, line)?;
                    let Some(sh) = v.shape.clone() else { return error(line, "not an array") };
                    let mut subs = Vec::new();
                    let mut exts = Vec::new();
                    for (k, s) in sargs.iter().enumerate() {
                        match s {
                            Arg::Value(x) => subs.push(self.expr(x, None, line)?.c),
                            Arg::Range(lo, hi, _) => {
                                let lo_c = match lo {
                                    Some(l) => self.expr(l, None, line)?.c,
                                    None => sh.lbs[k].clone(),
                                };
                                let hi_c = match hi {
                                    Some(h) => self.expr(h, None, line)?.c,
                                    None => sh.ub(k),
                                };
                                exts.push(count(&lo_c, &hi_c, None));
                                subs.push(lo_c);
                            }
                            Arg::Keyword(..) => return error(line, "keyword subscript"),
                        }
                    }
                    let first = Self::element_at(&v, &Self::offset(&sh, &subs, None));
                    (if v.ty == Ty::Char { first } else { format!("&{first}") }, exts, v.ty)
                }
                _ if self.rank(e) > 0 => {
                    // An array expression (an actual argument that is not a variable, Fortran
                    // 2003 §12.4.1.2): its value in a temporary the call reads, freed after it,
                    // as gfortran passes one. The dummy must not be defined (§12.4.1.2: "If the
                    // actual argument is not a variable … the dummy argument shall not be
                    // redefined"); gfortran rejects `intent(out)`/`intent(inout)` dummies.
                    if matches!(d.intent.as_deref(), Some("out" | "inout")) {
                        return error(line, format!("argument `{}` of `{name}` is `intent({})` but an expression is given, not a variable", d.name, d.intent.as_deref().unwrap_or_default()));
                    }
                    let Some(space) = self.space(e, line)? else { return unsupported(line, format!("passing this array expression to `{name}`")) };
                    let ix: Vec<String> = (0..space.len()).map(|_| self.tmp("i")).collect();
                    let elem = self.expr(e, Some(&ix), line)?;
                    if elem.ty == Ty::Char {
                        return unsupported(line, format!("passing a character array expression to `{name}`"));
                    }
                    let t = self.tmp("arg");
                    let ty = elem.ty.c();
                    let (total, lin, head) = temporary_loops(&ix, &space);
                    self.f.call_pre.push(format!("{ty} *{t} = ({ty} *)malloc(_f_allocation_bytes({total}, sizeof({ty}), 0)); {head}{t}[{lin}] = {};", elem.c));
                    self.f.call_post.push(format!("free({t});"));
                    (t, space, elem.ty)
                }
                _ => return unsupported(line, format!("passing this expression to the array argument `{}` of `{name}`", d.name)),
            };
            if ty != d.ty {
                return error(line, format!("argument `{}` of `{name}` is {} but {} is given", d.name, d.ty.name(), ty.name()));
            }
            out.push(base);
            if d.assumed_shape {
                if exts.len() != d.rank {
                    return error(line, format!("argument `{}` of `{name}` has rank {} but rank {} is given", d.name, d.rank, exts.len()));
                }
                out.extend(exts);
            }
        }
        Ok(out)
    }

    /// The C arguments for an allocatable or pointer dummy `d` (Fortran 2003 §12.4.1.2: the
    /// actual is an allocatable variable, §12.4.1.3: a pointer of the same type and rank): the
    /// addresses of the variable's element pointer and bound variables, which the procedure
    /// reads at entry and writes back at return.
    fn descriptor_args(&mut self, d: &DummyInfo, name: &str, e: &Expr, line: u32) -> TResult<Vec<String>> {
        let what = if d.pointer { "pointer" } else { "allocatable" };
        let v = match e {
            Expr::Name(n) => self.var(n, line)?,
            Expr::Component(base, part, None) if self.rank(base) == 0 => self.component_of(base, part, line)?,
            _ => return error(line, format!("argument `{}` of `{name}` is {what}: the actual argument must be a {what} variable", d.name)),
        };
        let shown = crate::names::fortran_text(e);
        if (d.pointer && !v.pointer) || (d.allocatable && !v.allocatable) {
            return error(line, format!("argument `{}` of `{name}` is {what} but `{shown}` is not", d.name));
        }
        if v.ty != d.ty {
            return error(line, format!("argument `{}` of `{name}` is {} but {} is given", d.name, d.ty.name(), v.ty.name()));
        }
        if v.rank() != d.rank {
            return error(line, format!("argument `{}` of `{name}` has rank {} but rank {} is given", d.name, d.rank, v.rank()));
        }
        let mut out = vec![format!("&{}", v.cname)];
        if let Some(sh) = &v.shape {
            for (lb, n) in sh.lbs.iter().zip(&sh.exts) {
                // A local allocated with the same constant bounds everywhere is addressed with
                // the constants (no bound variables), unless a `call` passes it here.
                if lb.parse::<i64>().is_ok() || n.parse::<i64>().is_ok() {
                    return unsupported(line, format!("passing `{shown}`, allocated with constant bounds, to the {what} dummy `{}` of `{name}` in a function reference (a `call` is supported)", d.name));
                }
                out.push(format!("&{lb}"));
                out.push(format!("&{n}"));
            }
        }
        Ok(out)
    }

    /// A scalar actual argument whose type is not its dummy's, in a call of an external procedure
    /// (an implicit interface, Fortran 2003 §12.3.1). Fortran requires the types to agree
    /// (§12.4.1.2); gfortran rejects the call, and with `-fallow-argument-mismatch` warns and
    /// passes the actual's address, so the procedure reads the actual's bytes as its dummy's type.
    /// accsim does the same with a warning: the dummy is a temporary holding the actual's bytes
    /// (zero beyond them, where gfortran reads whatever memory follows), and an actual that is a
    /// variable gets back as many bytes as it has when the dummy is not `intent(in)`.
    fn mismatched_scalar(&mut self, c: &CE, d: &DummyInfo, name: &str, is_var: bool, line: u32) -> String {
        self.names.warnings.push((
            line,
            "argument-mismatch",
            format!(
                "argument `{}` of `{name}` is {} but {} is given: Fortran requires the types to agree (Fortran 2003 §12.4.1.2); \
                 as gfortran -fallow-argument-mismatch, `{name}` reads the {} value's bytes as {}",
                d.name,
                d.ty.name(),
                c.ty.name(),
                c.ty.name(),
                d.ty.name()
            ),
        ));
        let t = self.tmp("mm");
        let bytes = |src: &str| format!("(sizeof({t}) < sizeof({src}) ? sizeof({t}) : sizeof({src}))");
        let mut pre = format!("{} {t}; memset(&{t}, 0, sizeof({t}));", d.ty.c());
        if is_var {
            let src = format!("({})", unparen(&c.c));
            pre.push_str(&format!(" memcpy(&{t}, &{src}, {});", bytes(&src)));
            if d.intent.as_deref() != Some("in") {
                self.f.call_post.push(format!("memcpy(&{src}, &{t}, {});", bytes(&src)));
            }
        } else {
            let s = self.tmp("mmv");
            pre.push_str(&format!(" {{ {} {s} = {}; memcpy(&{t}, &{s}, {}); }}", c.ty.c(), unparen(&c.c), bytes(&s)));
        }
        self.f.call_pre.push(pre);
        format!("&{t}")
    }
}

/// The loops over a temporary of `space` elements in array element order (`ix` the counters,
/// from 0): the element count, the linear index of element `ix`, and the loop heads.
fn temporary_loops(ix: &[String], space: &[String]) -> (String, String, String) {
    let total = space.iter().map(|s| format!("({s})")).collect::<Vec<_>>().join(" * ");
    let mut lin = String::new();
    for k in (0..ix.len()).rev() {
        lin = if lin.is_empty() { ix[k].clone() } else { format!("{} + {} * ({lin})", ix[k], space[k]) };
    }
    let mut head = String::new();
    for (k, c) in ix.iter().zip(space).rev() {
        head.push_str(&format!("for (long {k} = 0; {k} < {c}; {k}++) "));
    }
    (total, lin, head)
}
