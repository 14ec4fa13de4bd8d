//! Pointers (Fortran 2003 §5.1.2.11, §7.4.2): a scalar pointer is a C pointer to its target
//! (references read and write through it); an array pointer has an allocatable array's layout,
//! the element pointer and `NAME_lbK`/`NAME_nK` bound variables, which `=>` sets from the target:
//! a whole array keeps its bounds, a section gets lower bounds 1 (§7.4.2.1), `p(0:) =>` and
//! `p(1:n, 1:m) =>` give bounds of their own (bounds remapping). A pointer may
//! point at a contiguous section only (the layout has no strides). `nullify` and `=> null()`
//! disassociate, `associated(p[, t])` compares, `allocate`/`deallocate` give a pointer a new
//! target or free it (the statements in `stmt.rs`).

use std::fmt::Write;

use super::expr::{count, unparen, CE};
use super::types::*;
use super::*;

impl Translator {
    /// The pointer a designator names (a variable or a component of a scalar).
    fn pointer_var(&mut self, e: &Expr, what: &str, line: u32) -> TResult<Var> {
        let v = match e {
            Expr::Name(n) => self.var(n, line)?,
            Expr::Component(base, part, None) if self.rank(base) == 0 => self.component_of(base, part, line)?,
            _ => return error(line, format!("{what} takes pointer variables")),
        };
        if !v.pointer {
            return error(line, format!("`{}` is not a pointer ({what})", crate::names::fortran_text(e)));
        }
        Ok(v)
    }

    /// `p => t` and `p => null()` (Fortran 2003 §7.4.2).
    pub fn pointer_assign(&mut self, lhs: &Expr, rhs: Option<&Expr>, line: u32, out: &mut String) -> TResult<()> {
        let m = self.marker(line);
        // `p(0:, 1:) => t` gives the pointer lower bounds of its own, `p(1:n, 1:m) => t` bounds
        // and extents over the target's elements in array element order (bounds remapping,
        // Fortran 2003 §7.4.2, §7.4.2.1).
        let (lhs, remap) = match lhs {
            Expr::Apply(n, args) if self.lookup(n).is_some_and(|v| v.pointer && v.shape.is_some()) => {
                let mut bounds = Vec::new();
                for a in args {
                    let Arg::Range(Some(lo), hi, None) = a else {
                        return error(line, format!("the bounds of pointer `{n}` in a pointer assignment are `lower:` or `lower:upper` per dimension"));
                    };
                    let lo_c = self.expr(lo, None, line)?.c;
                    let hi_c = match hi {
                        Some(h) => Some(self.expr(h, None, line)?.c),
                        None => None,
                    };
                    bounds.push((lo_c, hi_c));
                }
                if bounds.iter().any(|b| b.1.is_some()) != bounds.iter().all(|b| b.1.is_some()) {
                    return error(line, format!("pointer `{n}`: give every dimension's upper bound or none (§7.4.2)"));
                }
                (Expr::Name(n.clone()), Some(bounds))
            }
            _ => (lhs.clone(), None),
        };
        let lhs = &lhs;
        let p = self.pointer_var(lhs, "pointer assignment", line)?;
        let Some(rhs) = rhs else {
            let _ = writeln!(out, "{m}{};", self.disassociate(&p));
            return Ok(());
        };
        let Some(psh) = p.shape.clone() else {
            // A scalar: the target's address (a pointer target: its target's).
            if self.rank(rhs) > 0 {
                return error(line, "a scalar pointer cannot point at an array");
            }
            let (addr, ty) = match rhs {
                Expr::Name(n) if self.lookup(n).is_some_and(|v| v.pointer) => {
                    let t = self.var(n, line)?;
                    (t.cname.clone(), t.ty)
                }
                _ => {
                    self.check_target(rhs, line)?;
                    let c = self.expr(rhs, None, line)?;
                    (format!("&{}", unparen(&c.c)), c.ty)
                }
            };
            if ty != p.ty {
                return error(line, format!("pointer `{}` is {} but its target is {}", crate::names::fortran_text(lhs), p.ty.name(), ty.name()));
            }
            let _ = writeln!(out, "{m}{} = {addr};", p.cname);
            return Ok(());
        };
        // An array pointer: the target's first element and bounds.
        let (base, lbs, exts, ty) = match rhs {
            Expr::Name(_) | Expr::Component(_, _, None) => {
                let t = match rhs {
                    Expr::Name(n) => self.var(n, line)?,
                    Expr::Component(b, part, None) => self.component_of(b, part, line)?,
                    _ => return error(line, "not a target"),
                };
                if !t.pointer {
                    self.check_target(rhs, line)?;
                }
                let Some(tsh) = t.shape.clone() else { return error(line, "an array pointer cannot point at a scalar") };
                if tsh.assumed_size {
                    return unsupported(line, "a pointer to an assumed-size array");
                }
                (t.cname.clone(), tsh.lbs.clone(), tsh.exts.clone(), t.ty)
            }
            Expr::Apply(n, args) if self.lookup(n).is_some_and(|v| v.shape.is_some()) => {
                let t = self.var(n, line)?;
                if !t.pointer {
                    self.check_target(rhs, line)?;
                }
                if !self.is_contiguous_section(n, args) {
                    return unsupported(line, format!("a pointer to a section of `{n}` that is not contiguous (accsim's pointers have no strides)"));
                }
                let Some(space) = self.space(rhs, line)? else { return error(line, "an array pointer cannot point at an array element") };
                // The first element of the section.
                let Some(tsh) = t.shape.clone() else { return error(line, "not an array") };
                let mut subs = Vec::new();
                for (k, a) in args.iter().enumerate() {
                    subs.push(match a {
                        Arg::Range(Some(lo), _, _) | Arg::Value(lo) => self.expr(lo, None, line)?.c,
                        Arg::Range(None, _, _) => tsh.lbs[k].clone(),
                        Arg::Keyword(..) => return error(line, "a keyword in a section"),
                    });
                }
                let elem = CE::new(Self::element_at(&t, &Self::offset(&tsh, &subs, None)), t.ty);
                (format!("&{}", unparen(&elem.c)), vec!["1".to_string(); space.len()], space, t.ty)
            }
            _ => return unsupported(line, "a pointer target other than a variable, a component or a contiguous section"),
        };
        if ty != p.ty {
            return error(line, format!("pointer `{}` is {} but its target is {}", crate::names::fortran_text(lhs), p.ty.name(), ty.name()));
        }
        let (lbs, exts) = match remap {
            None => (lbs, exts),
            Some(bounds) if bounds.len() != psh.rank() => {
                return error(line, format!("pointer `{}` has rank {} but {} bounds are given", crate::names::fortran_text(lhs), psh.rank(), bounds.len()));
            }
            // Lower bounds only: the target's extents (§7.4.2.1).
            Some(bounds) if bounds.iter().all(|b| b.1.is_none()) => {
                if exts.len() != psh.rank() {
                    return error(line, format!("pointer `{}` has rank {} but its target rank {}", crate::names::fortran_text(lhs), psh.rank(), exts.len()));
                }
                (bounds.into_iter().map(|b| b.0).collect(), exts)
            }
            // Rank remapping: the pointer's elements are the target's first ones in array
            // element order (the target is contiguous: accsim's pointers have no strides).
            Some(bounds) => {
                let (l, e): (Vec<String>, Vec<String>) = bounds.into_iter().map(|(lo, hi)| (lo.clone(), count(&lo, &hi.unwrap_or_default(), None))).unzip();
                (l, e)
            }
        };
        if exts.len() != psh.rank() {
            return error(line, format!("pointer `{}` has rank {} but its target rank {}", crate::names::fortran_text(lhs), psh.rank(), exts.len()));
        }
        // Bounds are read before the element pointer changes (`p => p(2:)` reads p's own).
        let mut s = String::new();
        let tmps: Vec<(String, String)> = lbs.iter().zip(&exts).map(|(l, e)| (l.clone(), e.clone())).collect();
        let _ = write!(s, "{{ {} *_fpbase = {base};", p.ty.c());
        for (k, (l, e)) in tmps.iter().enumerate() {
            let _ = write!(s, " long _fplb{k} = {l}, _fpn{k} = {e};");
        }
        let _ = write!(s, " {} = _fpbase;", p.cname);
        for k in 0..tmps.len() {
            let _ = write!(s, " {} = _fplb{k}; {} = _fpn{k};", psh.lbs[k], psh.exts[k]);
        }
        s.push_str(" }");
        let _ = writeln!(out, "{m}{s}");
        Ok(())
    }

    /// A target must be a pointer or have the `target` attribute (Fortran 2003 C717); accsim
    /// does not record `target`, so this only rejects what cannot be pointed at at all.
    fn check_target(&mut self, e: &Expr, line: u32) -> TResult<()> {
        match e {
            Expr::Name(n) | Expr::Apply(n, _) if self.lookup(n).is_some_and(|v| v.param.is_some()) => error(line, format!("named constant `{n}` cannot be a pointer target")),
            Expr::Name(_) | Expr::Apply(..) | Expr::Component(..) => Ok(()),
            _ => error(line, "a pointer target must be a variable"),
        }
    }

    /// C text making pointer `p` disassociated.
    fn disassociate(&self, p: &Var) -> String {
        let mut s = format!("{} = 0", p.cname);
        if let Some(sh) = &p.shape {
            for k in 0..sh.rank() {
                let _ = write!(s, "; {} = 1; {} = 0", sh.lbs[k], sh.exts[k]);
            }
        }
        s
    }

    /// `nullify(p, …)` (Fortran 2003 §6.3.2).
    pub fn nullify(&mut self, items: &[Expr], line: u32, out: &mut String) -> TResult<()> {
        let m = self.marker(line);
        for it in items {
            let p = self.pointer_var(it, "`nullify`", line)?;
            let _ = writeln!(out, "{m}{};", self.disassociate(&p));
        }
        Ok(())
    }

    /// `associated(p)` and `associated(p, t)` (Fortran 2003 §13.7.13): whether `p` points at
    /// anything, or at `t` (a variable or pointer: for an array, the same first element and the
    /// same extents).
    pub fn associated(&mut self, args: &[Arg], line: u32) -> TResult<CE> {
        let Some(pe) = args.first().and_then(super::expr::arg_value) else { return error(line, "`associated` needs a pointer") };
        let p = self.pointer_var(pe, "`associated`", line)?;
        let Some(te) = args.get(1).and_then(super::expr::arg_value) else {
            return Ok(CE::new(format!("({} != 0)", p.cname), Ty::Logical));
        };
        let t = match te {
            Expr::Name(n) => self.var(n, line)?,
            Expr::Component(base, part, None) if self.rank(base) == 0 => self.component_of(base, part, line)?,
            _ => return unsupported(line, "`associated` with a target other than a variable, a pointer or a component"),
        };
        let addr = match (&t.shape, t.pointer) {
            (None, false) => format!("&{}", t.cname),
            _ => t.cname.clone(),
        };
        let mut same = format!("({} != 0 && {} == {addr}", p.cname, p.cname);
        if let (Some(psh), Some(tsh)) = (&p.shape, &t.shape) {
            for k in 0..psh.rank().min(tsh.rank()) {
                let _ = write!(same, " && {} == {}", psh.exts[k], tsh.exts[k]);
            }
        }
        same.push(')');
        Ok(CE::new(same, Ty::Logical))
    }
}
