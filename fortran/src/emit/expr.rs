//! Expressions: literals, operators with Fortran's type rules, array elements and sections
//! (column-major), intrinsic procedures and function references.
//!
//! An array-valued expression is translated one element at a time: `idx` names the C loop
//! counters (0-based, one per array dimension of the expression) that the caller's loop nest
//! runs; a whole array or a section then yields the element those counters select.

use super::types::*;
use super::*;

/// A translated expression: C text, Fortran type, and for character values the length.
#[derive(Debug, Clone)]
pub struct CE {
    pub c: String,
    pub ty: Ty,
    pub len: Option<String>,
}

impl CE {
    pub fn new(c: String, ty: Ty) -> Self {
        CE { c, ty, len: None }
    }
}

const ELEMENTAL_MATH: [&str; 14] = ["sqrt", "exp", "log", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "atan2"];

fn strip_parens(c: &str) -> &str {
    // A GNU statement expression `({ … })` keeps its parentheses.
    if c.starts_with("({") {
        return c;
    }
    let b = c.as_bytes();
    if b.first() == Some(&b'(') && b.last() == Some(&b')') {
        let mut depth = 0;
        for (i, ch) in b.iter().enumerate() {
            match ch {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 && i + 1 != b.len() {
                        return c;
                    }
                }
                _ => {}
            }
        }
        return &c[1..c.len() - 1];
    }
    c
}

pub fn unparen(c: &str) -> String {
    strip_parens(c).to_string()
}

pub(super) fn arg_value(a: &Arg) -> Option<&Expr> {
    match a {
        Arg::Value(v) | Arg::Keyword(_, v) => Some(v),
        Arg::Range(..) => None,
    }
}

impl Translator {
    /// The rank of an expression (0 for scalars).
    pub fn rank(&self, e: &Expr) -> usize {
        match e {
            Expr::Name(n) => self.lookup(n).map(|v| if v.param.is_some() { 0 } else { v.rank() }).unwrap_or(0),
            Expr::Apply(n, args) => {
                if let Some(v) = self.lookup(n) {
                    if v.shape.is_some() {
                        return args.iter().filter(|a| matches!(a, Arg::Range(..))).count();
                    }
                    return 0;
                }
                if self.procs.contains_key(n) {
                    return 0;
                }
                if super::array_intrinsics::TRANSFORMATIONAL.contains(&n.as_str()) {
                    return self.transformational_rank(n, args);
                }
                match n.as_str() {
                    // Without `dim`, the bounds of every dimension (Fortran 2003 §13.7.60, §13.7.108,
                    // §13.7.128 `shape`): a rank-one result.
                    "lbound" | "ubound" if args.len() == 1 => 1,
                    "shape" => 1,
                    "sum" | "product" | "maxval" | "minval" | "count" | "any" | "all" | "dot_product" | "size" | "lbound" | "ubound" | "allocated" | "associated" | "len" | "len_trim" | "kind" | "huge" | "tiny" | "epsilon" => 0,
                    _ => args.iter().filter_map(arg_value).map(|a| self.rank(a)).max().unwrap_or(0),
                }
            }
            Expr::Unary(_, x) | Expr::Paren(x) | Expr::Substring(x, _, _) => self.rank(x),
            Expr::Binary(_, a, b) => self.rank(a).max(self.rank(b)),
            Expr::Constructor(_) => 1,
            // The rank of the part with nonzero rank, if any (Fortran 2003 §6.1.2).
            Expr::Component(b, part, args) => {
                let own = match (self.designator_type(b).and_then(|t| self.component(t, part, 0).ok()).and_then(|v| v.shape), args) {
                    (Some(sh), None) => sh.rank(),
                    (Some(_), Some(a)) => a.iter().filter(|a| matches!(a, Arg::Range(..))).count(),
                    _ => 0,
                };
                self.rank(b) + own
            }
            _ => 0,
        }
    }

    /// The type of a designator, found without translating it (`None` for other expressions).
    pub fn designator_type(&self, e: &Expr) -> Option<Ty> {
        match e {
            Expr::Name(n) => self.lookup(n).map(|v| v.ty),
            Expr::Apply(n, _) => self.lookup(n).map(|v| v.ty).or_else(|| self.procs.get(n).and_then(|p| p.result.map(|r| r.0))),
            Expr::Component(b, part, _) => self.designator_type(b).and_then(|t| self.component(t, part, 0).ok()).map(|v| v.ty),
            Expr::Paren(x) => self.designator_type(x),
            _ => None,
        }
    }

    /// Component `part` of a value of type `ty` (Fortran 2003 §6.1.2): a [`Var`] whose `cname` is
    /// the C member name.
    pub fn component(&self, ty: Ty, part: &str, line: u32) -> TResult<Var> {
        let Ty::Derived(ct) = ty else {
            return error(line, format!("`%{part}` is applied to a {} value, not to a value of a derived type", ty.name()));
        };
        let name = ct.strip_prefix("struct _fty_").unwrap_or(ct);
        let Some(dt) = self.derived.get(name) else { return error(line, format!("type `{name}` is not defined")) };
        match dt.components.iter().find(|(n, _)| n == part) {
            Some((_, v)) => Ok(v.clone()),
            None => error(line, format!("type `{name}` has no component `{part}`")),
        }
    }

    /// Component `part` of the scalar designator `base` as a variable of its own: `cname` is the
    /// C member access (`x.a`) and the bounds of an allocatable component are the struct's members
    /// beside it (`x.a_lb1`, `x.a_n1`).
    pub fn component_of(&mut self, base: &Expr, part: &str, line: u32) -> TResult<Var> {
        let b = self.expr(base, None, line)?;
        let mut comp = self.component(b.ty, part, line)?;
        comp.cname = format!("{}.{}", b.c, comp.cname);
        comp.shape = comp.shape.map(|sh| member_shape(sh, &b.c));
        Ok(comp)
    }

    /// Element counts of the ranges of section `name(args)` of an array of shape `sh`.
    fn section_space(&mut self, sh: &Shape, name: &str, args: &[Arg], line: u32) -> TResult<Vec<String>> {
        let mut out = Vec::new();
        for (k, a) in args.iter().enumerate() {
            if let Arg::Range(lo, hi, st) = a {
                if lo.is_none() && hi.is_none() && st.is_none() && !(sh.assumed_size && k + 1 == sh.rank()) {
                    // The whole dimension: its extent.
                    out.push(sh.exts[k].clone());
                    continue;
                }
                let lo = match lo {
                    Some(l) => self.expr(l, None, line)?.c,
                    None => sh.lbs[k].clone(),
                };
                let hi = match hi {
                    Some(h) => self.expr(h, None, line)?.c,
                    None => {
                        if sh.assumed_size && k + 1 == sh.rank() {
                            return error(line, format!("the upper bound of the last dimension of assumed-size array `{name}` must be given"));
                        }
                        sh.ub(k)
                    }
                };
                out.push(match st {
                    None => count(&lo, &hi, None),
                    Some(s) => {
                        let s = self.expr(s, None, line)?.c;
                        count(&lo, &hi, Some(&s))
                    }
                });
            }
        }
        Ok(out)
    }

    /// Element counts of each dimension of an array-valued expression (from its first array operand).
    pub fn space(&mut self, e: &Expr, line: u32) -> TResult<Option<Vec<String>>> {
        match e {
            Expr::Name(n) => {
                let v = self.var(n, line)?;
                Ok(v.shape.filter(|_| v.param.is_none()).map(|s| s.exts.clone()))
            }
            Expr::Apply(n, args) => {
                if let Some(v) = self.lookup(n).cloned() {
                    if let Some(sh) = &v.shape {
                        return Ok(Some(self.section_space(sh, n, args, line)?));
                    }
                    return Ok(None);
                }
                if super::array_intrinsics::TRANSFORMATIONAL.contains(&n.as_str()) && !self.procs.contains_key(n) {
                    return self.transformational_space(n, args, line);
                }
                if ["lbound", "ubound", "shape"].contains(&n.as_str()) && self.rank(e) == 1 {
                    let array_rank = args.first().and_then(arg_value).map_or(0, |a| self.rank(a));
                    return Ok(Some(vec![array_rank.to_string()]));
                }
                if ["dot_product", "size", "lbound", "ubound"].contains(&n.as_str()) {
                    return Ok(None);
                }
                for a in args {
                    if let Some(v) = arg_value(a) {
                        if let Some(s) = self.space(v, line)? {
                            return Ok(Some(s));
                        }
                    }
                }
                Ok(None)
            }
            Expr::Unary(_, x) | Expr::Paren(x) | Expr::Substring(x, _, _) => self.space(x, line),
            Expr::Binary(_, a, b) => match self.space(a, line)? {
                Some(s) => Ok(Some(s)),
                None => self.space(b, line),
            },
            Expr::Component(b, part, args) => {
                if self.rank(b) > 0 {
                    return self.space(b, line);
                }
                if self.designator_type(b).is_none() {
                    return Ok(None);
                }
                let comp = self.component_of(b, part, line)?;
                match (&comp.shape, args) {
                    (Some(sh), None) => Ok(Some(sh.exts.clone())),
                    (Some(sh), Some(a)) => Ok(Some(self.section_space(sh, part, a, line)?)),
                    _ => Ok(None),
                }
            }
            Expr::Constructor(items) => {
                if items.iter().all(|i| !matches!(i, Expr::ImpliedDo { .. }) && self.rank(i) == 0) {
                    Ok(Some(vec![items.len().to_string()]))
                } else {
                    unsupported(line, "array constructors with implied-do loops or array items, outside an assignment")
                }
            }
            _ => Ok(None),
        }
    }

    /// The C offset of element `subs` (C subscript expressions) of an array with shape `sh`,
    /// column-major (Fortran 2003 §6.2.2.2): the sum over the dimensions of `stride_k * (s_k -
    /// lb_k)`, `stride_k` the product of the extents before dimension k.
    ///
    /// `varying` names the C variable of the innermost loop around the access (a `do` variable,
    /// or the first index of an array-syntax loop); `None` takes the first subscript as the one
    /// that varies, as column-major code's innermost loop does. The terms whose subscript does
    /// not mention it come first, then those that do (the first dimension's as `- lb_1 + s_1`):
    /// C's `+` and `-` group from the left, so everything before the last terms is one
    /// subexpression that does not change in the innermost loop, which the native engine
    /// computes once before the loop instead of once per iteration. (Measured on the Fortran
    /// bench: `n1 * (i - lb2) - lb1 + j` beats `j - lb1 + n1 * (i - lb2)` and `… + (j - lb1)`
    /// in a loop over j; in a loop over k, `(i - lb1) + n1 * (k - lb2)` beats
    /// `(i - lb1) - n1 * lb2 + n1 * k`.)
    ///
    /// A constant extent is written `1024L`, so a stride's product and the sum after it are
    /// `long`, as gfortran computes offsets in its 64-bit index type (the bound variables of
    /// arrays whose extents are not constant are `long` already); each subscript keeps its own
    /// type and value. Besides holding offsets past 2^31, the 64-bit sum lets the native
    /// engine fold the constant parts of neighbouring accesses (`a(j, i - 1)`, `a(j, i + 1)`)
    /// into their addresses, where a 32-bit sum needs a sign extension of its own per access
    /// (issue 16: the Fortran Jacobi's sweep takes about 12% less CPU).
    pub fn offset(sh: &Shape, subs: &[String], varying: Option<&str>) -> String {
        let wrap = |s: &str| if s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') { s.to_string() } else { format!("({s})") };
        let extent = |s: &str| if !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit()) { format!("{s}L") } else { wrap(s) };
        let mut stride: Vec<String> = Vec::new();
        let mut fixed = Vec::new();
        let mut moving = Vec::new();
        let mut moving_lbs = Vec::new();
        for (k, sub) in subs.iter().enumerate() {
            let sub = wrap(sub);
            let scale = |x: String| if stride.is_empty() { x } else { format!("{} * {x}", stride.join(" * ")) };
            let varies = match varying {
                Some(v) => mentions(&sub, v),
                None => k == 0,
            };
            let lb = sh.lbs[k].as_str();
            if varies && stride.is_empty() {
                moving.push(sub);
                if lb != "0" {
                    moving_lbs.push(wrap(lb));
                }
            } else if varies {
                moving.push(scale(if lb == "0" { sub } else { format!("({sub} - {})", wrap(lb)) }));
            } else if lb == "0" {
                fixed.push(scale(sub));
            } else {
                fixed.push(scale(format!("({sub} - {})", wrap(lb))));
            }
            if let Some(e) = sh.exts.get(k) {
                stride.push(extent(e));
            }
        }
        let mut acc = String::new();
        for t in fixed.iter().rev() {
            acc = if acc.is_empty() { t.clone() } else { format!("{acc} + {t}") };
        }
        if acc.is_empty() {
            // Nothing invariant: `s1 - lb1` (no unary minus, which the native engine's affine
            // access analysis does not follow).
            for t in &moving {
                acc = if acc.is_empty() { t.clone() } else { format!("{acc} + {t}") };
            }
            for lb in &moving_lbs {
                acc = format!("{acc} - {lb}");
            }
            return if acc.is_empty() { "0".to_string() } else { acc };
        }
        for lb in &moving_lbs {
            acc = format!("{acc} - {lb}");
        }
        for t in &moving {
            acc = format!("{acc} + {t}");
        }
        if acc.is_empty() {
            acc.push('0');
        }
        acc
    }

    /// Array element or (with `idx`) section element `name(args)`.
    fn element(&mut self, v: &Var, name: &str, args: &[Arg], idx: Option<&[String]>, line: u32) -> TResult<String> {
        let Some(mut sh) = v.shape.clone() else { return error(line, format!("`{name}` is not an array")) };
        if args.len() != sh.rank() {
            return error(line, format!("`{name}` has rank {} but {} subscripts are given", sh.rank(), args.len()));
        }
        let mut subs = Vec::new();
        let mut next = 0;
        for (k, a) in args.iter().enumerate() {
            match a {
                Arg::Value(e) => {
                    if self.rank(e) > 0 {
                        return unsupported(line, format!("vector subscripts (`{name}` subscripted by an array)"));
                    }
                    let c = self.expr(e, None, line)?;
                    if !matches!(c.ty, Ty::Int(_)) {
                        return error(line, format!("subscript {} of `{name}` is not an integer", k + 1));
                    }
                    subs.push(c.c);
                }
                Arg::Range(lo, _, st) => {
                    let Some(ix) = idx.and_then(|i| i.get(next)) else {
                        return error(line, format!("the array section of `{name}` is used where a scalar is needed"));
                    };
                    next += 1;
                    let lo = match lo {
                        Some(l) => self.expr(l, None, line)?.c,
                        None if st.is_none() => {
                            // From the lower bound: the section index is the offset in this
                            // dimension (not `lb + i - lb`).
                            sh.lbs[k] = "0".to_string();
                            subs.push(ix.clone());
                            continue;
                        }
                        None => sh.lbs[k].clone(),
                    };
                    subs.push(match st {
                        None => format!("{lo} + {ix}"),
                        Some(s) => format!("{lo} + {ix} * {}", self.expr(s, None, line)?.c),
                    });
                }
                Arg::Keyword(..) => return error(line, format!("keyword subscript in `{name}`")),
            }
        }
        let varying = match idx {
            Some(ix) => ix.first().cloned(),
            None => self.f.do_vars.last().cloned().flatten(),
        };
        Ok(Self::element_at(v, &Self::offset(&sh, &subs, varying.as_deref())))
    }

    /// The element at C offset `offset` of array `v`: `a[offset]`, or for a character array (each
    /// element `char_len` characters, stored one after another) the address of its first character.
    pub(super) fn element_at(v: &Var, offset: &str) -> String {
        if v.ty == Ty::Char {
            format!("({} + ({offset}) * {})", v.cname, v.char_len.max(1))
        } else {
            format!("{}[{offset}]", v.cname)
        }
    }

    /// A translated element of array `v`: with the length of a character element.
    fn element_ce(v: &Var, c: String) -> CE {
        CE { c, ty: v.ty, len: (v.ty == Ty::Char).then(|| v.len_c()) }
    }

    /// The element of a whole array selected by `idx`.
    fn whole_element(v: &Var, idx: &[String]) -> String {
        let Some(sh) = v.shape.as_ref() else { return v.cname.clone() };
        // Index k runs from 0 over dimension k: it is the offset in that dimension.
        let zero_based = Shape { lbs: vec!["0".to_string(); sh.rank()], ..sh.clone() };
        Self::element_at(v, &Self::offset(&zero_based, &idx[..sh.rank().min(idx.len())], idx.first().map(String::as_str)))
    }

    pub fn expr(&mut self, e: &Expr, idx: Option<&[String]>, line: u32) -> TResult<CE> {
        Ok(match e {
            Expr::Int(d, k) => {
                let kind = match k {
                    None => 4,
                    Some(k) => k.parse::<i64>().ok().or_else(|| self.const_of(k)).unwrap_or(4),
                };
                let v: i128 = d.parse().unwrap_or(0);
                if kind == 8 || v > i32::MAX as i128 {
                    CE::new(format!("{d}L"), Ty::Int(8))
                } else {
                    CE::new(d.clone(), Ty::Int(kind as u8))
                }
            }
            Expr::Real(r) => {
                let (body, kind) = match r.split_once('_') {
                    Some((b, k)) => {
                        let kind = k.parse::<i64>().ok().or_else(|| self.const_of(k));
                        match kind {
                            Some(4) => (b.to_string(), 4),
                            Some(8) => (b.to_string(), 8),
                            _ => return error(line, format!("unknown real kind `{k}`")),
                        }
                    }
                    None => (r.clone(), if r.contains('d') { 8 } else { 4 }),
                };
                let mut c = body.replace('d', "e");
                if c.starts_with('.') {
                    c.insert(0, '0');
                }
                if kind == 4 {
                    if !c.contains('.') && !c.contains('e') {
                        c.push('.');
                    }
                    c.push('f');
                }
                CE::new(c, Ty::Real(kind))
            }
            Expr::Str(s) => CE { c: c_str(s), ty: Ty::Char, len: Some(s.len().to_string()) },
            Expr::Logical(b) => CE::new(if *b { "1" } else { "0" }.into(), Ty::Logical),
            Expr::Complex(re, im) => {
                // A complex constant (Fortran 2003 §4.4.3): the kind of its real parts.
                let (r, i) = (self.expr(re, None, line)?, self.expr(im, None, line)?);
                let k = match (r.ty, i.ty) {
                    (Ty::Real(8), _) | (_, Ty::Real(8)) => 8,
                    _ => 4,
                };
                Self::complex_of(&r.c, &i.c, k)
            }
            Expr::Paren(x) => {
                let c = self.expr(x, idx, line)?;
                CE { c: format!("({})", strip_parens(&c.c)), ..c }
            }
            Expr::Name(n) => {
                let v = self.var(n, line)?;
                if let Some(p) = &v.param {
                    return Ok(CE::new(p.clone(), v.ty));
                }
                if v.pointer && v.shape.is_none() {
                    // A scalar pointer: its target (Fortran 2003 §5.1.2.11).
                    return Ok(CE::new(format!("(*{})", v.cname), v.ty));
                }
                if v.shape.is_some() {
                    match idx {
                        Some(ix) if ix.len() == v.rank() => Self::element_ce(&v, Self::whole_element(&v, ix)),
                        _ => return error(line, format!("array `{n}` is used where a scalar is needed")),
                    }
                } else if v.ty == Ty::Char {
                    CE { c: v.cname.clone(), ty: Ty::Char, len: Some(v.len_c()) }
                } else {
                    CE::new(v.cname.clone(), v.ty)
                }
            }
            Expr::Apply(n, args) => {
                if let Some(v) = self.lookup(n).cloned() {
                    if v.shape.is_some() {
                        let c = self.element(&v, n, args, idx, line)?;
                        return Ok(Self::element_ce(&v, c));
                    }
                    if v.ty == Ty::Char && args.len() == 1 {
                        if let Arg::Range(lo, hi, None) = &args[0] {
                            let lo = match lo {
                                Some(l) => self.expr(l, None, line)?.c,
                                None => "1".into(),
                            };
                            let hi = match hi {
                                Some(h) => self.expr(h, None, line)?.c,
                                None => v.len_c(),
                            };
                            return Ok(CE { c: format!("({} + ({lo}) - 1)", v.cname), ty: Ty::Char, len: Some(format!("(({hi}) - ({lo}) + 1)")) });
                        }
                    }
                    if !self.procs.contains_key(n) {
                        return error(line, format!("`{n}` is not an array or a function"));
                    }
                }
                if let Some(p) = self.procs.get(n).cloned() {
                    if !p.function {
                        return error(line, format!("subroutine `{n}` is referenced as a function (use `call`)"));
                    }
                    let (pre, post) = (std::mem::take(&mut self.f.call_pre), std::mem::take(&mut self.f.call_post));
                    let a = self.actual_args(&p, n, args, line)?;
                    let ty = p.result.map(|r| r.0).unwrap_or(Ty::Int(4));
                    let call = format!("{}({})", p.cname, a.join(", "));
                    let (my_pre, my_post) = (std::mem::replace(&mut self.f.call_pre, pre), std::mem::replace(&mut self.f.call_post, post));
                    if my_pre.is_empty() {
                        return Ok(CE::new(call, ty));
                    }
                    let r = self.tmp("res");
                    return Ok(CE::new(format!("({{ {} {} {r} = {call}; {} {r}; }})", my_pre.join(" "), ty.c(), my_post.join(" ")), ty));
                }
                if let Some(ce) = self.acc_api(n, args, line)? {
                    return Ok(ce);
                }
                if self.derived.contains_key(n) {
                    return self.structure_constructor(n, args, line);
                }
                return self.intrinsic(n, args, idx, line);
            }
            Expr::Unary(op, x) => {
                let c = self.expr(x, idx, line)?;
                match *op {
                    "-" => {
                        if !c.ty.is_numeric() {
                            return error(line, "unary minus of a non-numeric value");
                        }
                        CE::new(format!("(-{})", c.c), c.ty)
                    }
                    _ => {
                        if c.ty != Ty::Logical {
                            return error(line, "`.not.` of a non-logical value");
                        }
                        CE::new(format!("(!{})", c.c), Ty::Logical)
                    }
                }
            }
            Expr::Binary(op, a, b) => {
                let l = self.expr(a, idx, line)?;
                let r = self.expr(b, idx, line)?;
                self.binary(op, l, r, line)?
            }
            Expr::Constructor(items) => {
                let Some(ix) = idx.filter(|i| i.len() == 1) else {
                    return error(line, "an array constructor is used where a scalar is needed");
                };
                if items.iter().any(|i| matches!(i, Expr::ImpliedDo { .. }) || self.rank(i) > 0) {
                    return unsupported(line, "array constructors with implied-do loops or array items inside an expression");
                }
                let mut ty = None;
                let mut cs = Vec::new();
                for it in items {
                    let c = self.expr(it, None, line)?;
                    ty = Some(match ty {
                        None => c.ty,
                        Some(t) => Ty::common(t, c.ty),
                    });
                    cs.push(c.c);
                }
                let ty = ty.unwrap_or(Ty::Int(4));
                // Select the item: a chain of conditionals on the counter.
                let mut c = cs.last().cloned().unwrap_or_else(|| "0".into());
                for (i, item) in cs.iter().enumerate().rev().skip(1) {
                    c = format!("({} == {i} ? ({}){item} : {c})", ix[0], ty.c());
                }
                CE::new(c, ty)
            }
            Expr::ImpliedDo { .. } => return error(line, "an implied-do loop outside an I/O list or array constructor"),
            Expr::Component(base, part, args) => return self.component_ref(base, part, args.as_deref(), idx, line),
            Expr::Substring(base, lo, hi) => {
                let b = self.expr(base, idx, line)?;
                if b.ty != Ty::Char {
                    return error(line, format!("a substring of a {} value", b.ty.name()));
                }
                let lo = match lo {
                    Some(l) => self.expr(l, None, line)?.c,
                    None => "1".into(),
                };
                let hi = match hi {
                    Some(h) => self.expr(h, None, line)?.c,
                    None => b.len.clone().unwrap_or_else(|| "1".into()),
                };
                CE { c: format!("({} + ({lo}) - 1)", b.c), ty: Ty::Char, len: Some(format!("(({hi}) - ({lo}) + 1)")) }
            }
        })
    }

    /// `base%part[(args)]` (Fortran 2003 §6.1.2): the C member of the struct `base` is. At most
    /// one part of the reference has nonzero rank (C618): the base's elements or the
    /// component's run with `idx`.
    fn component_ref(&mut self, base: &Expr, part: &str, args: Option<&[Arg]>, idx: Option<&[String]>, line: u32) -> TResult<CE> {
        let base_rank = self.rank(base);
        let b = self.expr(base, if base_rank > 0 { idx } else { None }, line)?;
        let mut comp = self.component(b.ty, part, line)?;
        if (comp.allocatable || comp.pointer) && base_rank > 0 {
            return unsupported(line, format!("`%{part}` of an array section: allocatable component `{part}` of each element"));
        }
        let member = format!("{}.{}", b.c, comp.cname);
        comp.shape = comp.shape.map(|sh| member_shape(sh, &b.c));
        let both = || error(line, format!("`{}`: only one part of a structure component may be an array (Fortran 2003 §6.1.2, C618)", crate::names::fortran_text(base)));
        Ok(match (&comp.shape, args) {
            // A scalar pointer component: its target (Fortran 2003 §5.1.2.11).
            (None, None) if comp.pointer => CE::new(format!("(*{member})"), comp.ty),
            (None, None) => CE { c: member, ty: comp.ty, len: (comp.ty == Ty::Char).then(|| comp.char_len.to_string()) },
            (None, Some([Arg::Range(lo, hi, None)])) if comp.ty == Ty::Char => {
                let lo = match lo {
                    Some(l) => self.expr(l, None, line)?.c,
                    None => "1".into(),
                };
                let hi = match hi {
                    Some(h) => self.expr(h, None, line)?.c,
                    None => comp.char_len.to_string(),
                };
                CE { c: format!("({member} + ({lo}) - 1)"), ty: Ty::Char, len: Some(format!("(({hi}) - ({lo}) + 1)")) }
            }
            (None, Some(_)) => return error(line, format!("component `{part}` is not an array")),
            (Some(_), None) => {
                if base_rank > 0 {
                    return both();
                }
                comp.cname = member;
                match idx {
                    Some(ix) if ix.len() == comp.rank() => CE::new(Self::whole_element(&comp, ix), comp.ty),
                    _ => return error(line, format!("array component `{part}` is used where a scalar is needed")),
                }
            }
            (Some(_), Some(a)) => {
                if base_rank > 0 && a.iter().any(|x| matches!(x, Arg::Range(..))) {
                    return both();
                }
                comp.cname = member;
                CE::new(self.element(&comp, part, a, if base_rank > 0 { None } else { idx }, line)?, comp.ty)
            }
        })
    }

    /// A structure constructor `name(values)` (Fortran 2003 §4.5.9): a C compound literal with
    /// each value converted to its component's type (positional or keyword values).
    fn structure_constructor(&mut self, name: &str, args: &[Arg], line: u32) -> TResult<CE> {
        let values = self.constructor_values(name, args, line)?;
        let ty = Ty::Derived(derived_c_type(name));
        Ok(CE::new(format!("(({}){{{}}})", ty.c(), values.join(", ")), ty))
    }

    /// The C value of each component in the structure constructor `name(args)`: the value given
    /// (converted to the component's type), or the component's default where none is given
    /// (Fortran 2003 §4.5.9).
    pub fn constructor_values(&mut self, name: &str, args: &[Arg], line: u32) -> TResult<Vec<String>> {
        let Some(dt) = self.derived.get(name).cloned() else { return error(line, format!("type `{name}` is not defined")) };
        let mut given: Vec<Option<&Expr>> = vec![None; dt.components.len()];
        for (i, a) in args.iter().enumerate() {
            let (slot, e) = match a {
                Arg::Value(e) => (i, e),
                Arg::Keyword(k, e) => match dt.components.iter().position(|(n, _)| n == k) {
                    Some(at) => (at, e),
                    None => return error(line, format!("type `{name}` has no component `{k}`")),
                },
                Arg::Range(..) => return error(line, format!("a range in the structure constructor of `{name}`")),
            };
            match given.get_mut(slot) {
                Some(s) if s.is_none() => *s = Some(e),
                Some(_) => return error(line, format!("component `{}` is given twice in the structure constructor of `{name}`", dt.components[slot].0)),
                None => return error(line, format!("type `{name}` has {} components but {} values are given", dt.components.len(), args.len())),
            }
        }
        let mut values = Vec::new();
        for (((cname, comp), e), default) in dt.components.iter().zip(given).zip(&dt.defaults) {
            let Some(e) = e else {
                // A component of a type with defaults is default-initialized too (§4.5.3.4).
                let default = default.clone().or_else(|| if comp.shape.is_none() { self.derived_default(comp.ty) } else { None });
                match default {
                    Some(d) => {
                        values.push(d);
                        continue;
                    }
                    None => return error(line, format!("the structure constructor of `{name}` gives no value for component `{cname}`")),
                }
            };
            if let (None, Ty::Char, Expr::Str(text)) = (&comp.shape, comp.ty, e) {
                // A character literal, blank-padded or truncated to the component's length.
                let mut b: Vec<u8> = text.bytes().collect();
                b.resize(comp.char_len.max(1) as usize, b' ');
                values.push(super::c_str(&String::from_utf8_lossy(&b)));
                continue;
            }
            if comp.shape.is_some() || comp.ty == Ty::Char {
                return unsupported(line, format!("a structure constructor giving array component `{cname}` or a character component other than by a literal (assign the component instead)"));
            }
            let v = self.expr(e, None, line)?;
            let ok = match comp.ty {
                Ty::Int(_) | Ty::Real(_) | Ty::Complex(_) => v.ty.is_numeric(),
                t => v.ty == t,
            };
            if !ok {
                return error(line, format!("component `{cname}` of `{name}` is {} but {} is given", comp.ty.name(), v.ty.name()));
            }
            values.push(Self::convert(&v, comp.ty));
        }
        Ok(values)
    }

    /// The complex value `re + im·i` of kind `k`, from C real expressions (`1.0iF` is gcc's
    /// imaginary unit, glibc's `I`).
    pub fn complex_of(re: &str, im: &str, k: u8) -> CE {
        let t = Ty::Complex(k);
        let part = Ty::Real(k).c();
        CE::new(format!("(({})(({part}){re} + ({part}){im} * (__extension__ 1.0iF)))", t.c()), t)
    }

    pub fn binary(&mut self, op: &str, l: CE, r: CE, line: u32) -> TResult<CE> {
        if matches!(l.ty, Ty::Derived(_)) || matches!(r.ty, Ty::Derived(_)) {
            return unsupported(line, format!("operator `{op}` on a value of a derived type ({} and {}): defined operators are not supported by accsim's Fortran front-end", l.ty.name(), r.ty.name()));
        }
        Ok(match op {
            "+" | "-" | "*" | "/" => {
                if !l.ty.is_numeric() || !r.ty.is_numeric() {
                    return error(line, format!("operands of `{op}` must be numeric ({} and {})", l.ty.name(), r.ty.name()));
                }
                let t = Ty::common(l.ty, r.ty);
                CE::new(format!("({} {op} {})", l.c, r.c), t)
            }
            "**" => {
                if !l.ty.is_numeric() || !r.ty.is_numeric() {
                    return error(line, "operands of `**` must be numeric");
                }
                let t = Ty::common(l.ty, r.ty);
                match (l.ty, r.ty) {
                    (Ty::Complex(_), Ty::Int(_)) if r.c == "2" => CE::new(format!("({} * {})", l.c, l.c), l.ty),
                    (Ty::Complex(_), _) | (_, Ty::Complex(_)) => {
                        let f = if t == Ty::Complex(4) { "cpowf" } else { "cpow" };
                        CE::new(format!("{f}(({}){}, ({}){})", t.c(), l.c, t.c(), r.c), t)
                    }
                    (Ty::Int(_), Ty::Int(_)) => CE::new(format!("(({})_f_ipow({}, {}))", t.c(), l.c, r.c), t),
                    (Ty::Real(k), Ty::Int(_)) => {
                        if r.c == "2" {
                            CE::new(format!("({} * {})", l.c, l.c), l.ty)
                        } else if k == 8 {
                            CE::new(format!("_f_dpowi({}, {})", l.c, r.c), l.ty)
                        } else {
                            CE::new(format!("_f_fpowi({}, {})", l.c, r.c), l.ty)
                        }
                    }
                    _ => {
                        if let Ty::Real(4) = t {
                            CE::new(format!("powf({}, {})", l.c, r.c), t)
                        } else {
                            CE::new(format!("pow({}, {})", l.c, r.c), t)
                        }
                    }
                }
            }
            "==" | "/=" | "<" | "<=" | ">" | ">=" => {
                let cop = if op == "/=" { "!=" } else { op };
                if l.ty == Ty::Char || r.ty == Ty::Char {
                    if l.ty != r.ty {
                        return error(line, "comparison of a character value with a non-character value");
                    }
                    let (ll, rl) = (l.len.clone().unwrap_or_default(), r.len.clone().unwrap_or_default());
                    return Ok(CE::new(format!("(_f_char_cmp({}, {ll}, {}, {rl}) {cop} 0)", l.c, r.c), Ty::Logical));
                }
                // gfortran accepts a logical operand compared with an integer (as 0 or 1).
                let num = |t: Ty| t.is_numeric() || t == Ty::Logical;
                if !num(l.ty) || !num(r.ty) || (l.ty == Ty::Logical && r.ty == Ty::Logical) {
                    return error(line, format!("operands of `{op}` must be numeric (use `.eqv.` for logical values)"));
                }
                CE::new(format!("({} {cop} {})", l.c, r.c), Ty::Logical)
            }
            ".and." | ".or." | ".eqv." | ".neqv." => {
                if l.ty != Ty::Logical || r.ty != Ty::Logical {
                    return error(line, format!("operands of `{op}` must be logical"));
                }
                if let Some(x) = self.f.atomic_lhs.clone() {
                    // Under `!$acc atomic` (§2.12, Fortran operators .and. .or. .eqv. .neqv.): on
                    // logical values 0/1 these are C's bitwise operators, which C's atomic forms take.
                    let c = match op {
                        ".and." => format!("({} & {})", l.c, r.c),
                        ".or." => format!("({} | {})", l.c, r.c),
                        ".neqv." => format!("({} ^ {})", l.c, r.c),
                        _ if super::expr::unparen(&l.c) == x => format!("({} ^ !{})", l.c, r.c),
                        _ => format!("(!{} ^ {})", l.c, r.c),
                    };
                    return Ok(CE::new(c, Ty::Logical));
                }
                let c = match op {
                    ".and." => format!("({} && {})", l.c, r.c),
                    ".or." => format!("({} || {})", l.c, r.c),
                    ".eqv." => format!("(!{} == !{})", l.c, r.c),
                    _ => format!("(!{} != !{})", l.c, r.c),
                };
                CE::new(c, Ty::Logical)
            }
            "//" => return unsupported(line, "character concatenation (`//`) outside `print`/`write` and assignment"),
            _ => return error(line, format!("unknown operator `{op}`")),
        })
    }

    /// Convert a translated value to type `to` (Fortran's intrinsic assignment conversion).
    pub fn convert(c: &CE, to: Ty) -> String {
        if c.ty == to {
            unparen(&c.c)
        } else {
            format!("({}){}", to.c(), c.c)
        }
    }

    /// Whether the section `n(args)` is contiguous in the column-major storage: whole leading
    /// dimensions, then one range, then single subscripts, no strides.
    pub fn is_contiguous_section(&self, n: &str, args: &[Arg]) -> bool {
        let Some(sh) = self.lookup(n).and_then(|v| v.shape.clone()) else { return false };
        let mut stage = 0;
        for (k, a) in args.iter().enumerate() {
            match a {
                Arg::Range(_, _, Some(_)) => return false,
                Arg::Range(lo, hi, None) => {
                    if stage >= 1 {
                        return false;
                    }
                    let whole_lo = lo.as_ref().is_none_or(|e| self.fold(e).is_some_and(|v| sh.lbs[k].parse::<i64>() == Ok(v)));
                    let whole_hi = hi.as_ref().is_none_or(|e| self.fold(e).is_some_and(|v| sh.ub(k).parse::<i64>() == Ok(v)));
                    if !(whole_lo && whole_hi) {
                        stage = 1;
                    }
                }
                _ => stage = 2,
            }
        }
        true
    }

    fn arg_ce(&mut self, args: &[Arg], i: usize, idx: Option<&[String]>, name: &str, line: u32) -> TResult<CE> {
        match args.get(i).and_then(arg_value) {
            Some(e) => self.expr(e, idx, line),
            None => error(line, format!("`{name}` needs argument {}", i + 1)),
        }
    }

    /// A reduction over an array expression: `init`, then `acc = combine(acc, elem)` per element.
    fn reduce(&mut self, arg: &Expr, ty: Ty, init: &str, combine: &dyn Fn(&str, &str) -> String, line: u32) -> TResult<String> {
        let Some(space) = self.space(arg, line)? else {
            return error(line, "this intrinsic needs an array argument");
        };
        let r = self.tmp("r");
        let ix: Vec<String> = (0..space.len()).map(|_| self.tmp("i")).collect();
        let elem = self.expr(arg, Some(&ix), line)?;
        let mut s = format!("({{ {} {r} = {init}; ", ty.c());
        // Array element order: the last dimension's loop outermost.
        for (k, n) in ix.iter().zip(&space).rev() {
            let _ = write!(s, "for (long {k} = 0; {k} < {n}; {k}++) ");
        }
        let _ = write!(s, "{r} = {}; {r}; }})", combine(&r, &elem.c));
        Ok(s)
    }

    fn intrinsic(&mut self, n: &str, args: &[Arg], idx: Option<&[String]>, line: u32) -> TResult<CE> {
        let nargs = args.len();
        if ELEMENTAL_MATH.contains(&n) {
            let a = self.arg_ce(args, 0, idx, n, line)?;
            if let Ty::Complex(k) = a.ty {
                // The complex forms (Fortran 2003 §13.7: sqrt, exp, log, sin, cos, … of complex).
                if !matches!(n, "sqrt" | "exp" | "log" | "sin" | "cos" | "tan" | "sinh" | "cosh" | "tanh" | "asin" | "acos" | "atan") {
                    return error(line, format!("the argument of `{n}` must be real"));
                }
                let f = if k == 4 { format!("c{n}f") } else { format!("c{n}") };
                return Ok(CE::new(format!("{f}({})", unparen(&a.c)), a.ty));
            }
            let a = match a.ty {
                Ty::Real(_) => a,
                Ty::Int(_) => return error(line, format!("the argument of `{n}` must be real")),
                _ => return error(line, format!("the argument of `{n}` must be real")),
            };
            let f = if a.ty == Ty::Real(4) { format!("{n}f") } else { n.to_string() };
            if n == "atan2" {
                let b = self.arg_ce(args, 1, idx, n, line)?;
                return Ok(CE::new(format!("{f}({}, {})", unparen(&a.c), unparen(&b.c)), a.ty));
            }
            return Ok(CE::new(format!("{f}({})", unparen(&a.c)), a.ty));
        }
        let kind_arg = |t: &Translator, i: usize| -> Option<i64> {
            args.iter()
                .find_map(|a| match a {
                    Arg::Keyword(k, v) if k == "kind" => Some(v),
                    _ => None,
                })
                .or_else(|| args.get(i).and_then(arg_value))
                .and_then(|e| t.fold(e))
        };
        Ok(match n {
            "abs" => {
                let a = self.arg_ce(args, 0, idx, n, line)?;
                let f = match a.ty {
                    Ty::Int(8) => "labs",
                    Ty::Int(_) => "abs",
                    Ty::Real(4) => "fabsf",
                    Ty::Real(_) => "fabs",
                    Ty::Complex(4) => return Ok(CE::new(format!("cabsf({})", unparen(&a.c)), Ty::Real(4))),
                    Ty::Complex(_) => return Ok(CE::new(format!("cabs({})", unparen(&a.c)), Ty::Real(8))),
                    _ => return error(line, "`abs` of a non-numeric value"),
                };
                CE::new(format!("{f}({})", unparen(&a.c)), a.ty)
            }
            "cmplx" | "dcmplx" => {
                // `cmplx(x[, y][, kind])` (§13.7.20): default kind 4 whatever the arguments' kinds.
                let x = self.arg_ce(args, 0, idx, n, line)?;
                let y = match args.get(1) {
                    Some(Arg::Value(_)) => Some(self.arg_ce(args, 1, idx, n, line)?),
                    _ => match super::array_intrinsics::intrinsic_arg(args, 1, "y") {
                        Some(e) => Some(self.expr(e, idx, line)?),
                        None => None,
                    },
                };
                let k = if n == "dcmplx" { 8 } else { kind_arg(self, 2).unwrap_or(4) as u8 };
                match (x.ty, y) {
                    (Ty::Complex(_), None) => CE::new(format!("(({}){})", Ty::Complex(k).c(), x.c), Ty::Complex(k)),
                    (_, Some(y)) => Self::complex_of(&x.c, &y.c, k),
                    (_, None) => Self::complex_of(&x.c, "0", k),
                }
            }
            "aimag" | "dimag" | "imag" => {
                let a = self.arg_ce(args, 0, idx, n, line)?;
                let Ty::Complex(k) = a.ty else { return error(line, format!("the argument of `{n}` must be complex")) };
                CE::new(format!("{}({})", if k == 4 { "cimagf" } else { "cimag" }, unparen(&a.c)), Ty::Real(k))
            }
            "conjg" | "dconjg" => {
                let a = self.arg_ce(args, 0, idx, n, line)?;
                let Ty::Complex(k) = a.ty else { return error(line, format!("the argument of `{n}` must be complex")) };
                CE::new(format!("{}({})", if k == 4 { "conjf" } else { "conj" }, unparen(&a.c)), a.ty)
            }
            "mod" | "modulo" => {
                let a = self.arg_ce(args, 0, idx, n, line)?;
                let b = self.arg_ce(args, 1, idx, n, line)?;
                let t = Ty::common(a.ty, b.ty);
                match (t, n) {
                    (Ty::Int(_), "mod") => CE::new(format!("({} % {})", a.c, b.c), t),
                    (Ty::Int(_), _) => CE::new(format!("(({})_f_modulo_l({}, {}))", t.c(), a.c, b.c), t),
                    (Ty::Real(4), "mod") => CE::new(format!("fmodf({}, {})", a.c, b.c), t),
                    (Ty::Real(_), "mod") => CE::new(format!("fmod({}, {})", a.c, b.c), t),
                    (Ty::Real(_), _) => CE::new(format!("(({})_f_modulo_d({}, {}))", t.c(), a.c, b.c), t),
                    _ => return error(line, format!("`{n}` of non-numeric values")),
                }
            }
            "min" | "max" => {
                let mut vals = Vec::new();
                for i in 0..nargs {
                    vals.push(self.arg_ce(args, i, idx, n, line)?);
                }
                let Some(first) = vals.first().cloned() else { return error(line, format!("`{n}` needs arguments")) };
                let t = vals.iter().fold(first.ty, |t, v| Ty::common(t, v.ty));
                let cmp = if n == "max" { ">" } else { "<" };
                // Under `!$acc atomic`, `x = max(…, x, …)` is Fortran's intrinsic-procedure form
                // (§2.12): `x` first, the others folded, through the runtime's atomic helper.
                if let Some(x) = self.f.atomic_lhs.clone() {
                    if let Some(at) = vals.iter().position(|v| unparen(&v.c) == x) {
                        let rest: Vec<&CE> = vals.iter().enumerate().filter(|(i, _)| *i != at).map(|(_, v)| v).collect();
                        if let Some(r0) = rest.first() {
                            let mut acc = format!("({}){}", t.c(), r0.c);
                            for v in &rest[1..] {
                                let y = format!("({}){}", t.c(), v.c);
                                acc = format!("({y} {cmp} {acc} ? {y} : {acc})");
                            }
                            let suffix = match t {
                                Ty::Real(8) => "d",
                                Ty::Real(_) => "f",
                                Ty::Int(8) => "l",
                                _ => "i",
                            };
                            return Ok(CE::new(format!("_f_atomic_{n}_{suffix}({x}, {acc})"), t));
                        }
                    }
                }
                let mut acc = format!("({}){}", t.c(), first.c);
                for v in &vals[1..] {
                    let x = format!("({}){}", t.c(), v.c);
                    acc = format!("({x} {cmp} {acc} ? {x} : {acc})");
                }
                CE::new(acc, t)
            }
            "sign" => {
                let a = self.arg_ce(args, 0, idx, n, line)?;
                let b = self.arg_ce(args, 1, idx, n, line)?;
                match a.ty {
                    Ty::Int(_) => CE::new(format!("({b} >= 0 ? abs({a}) : -abs({a}))", a = a.c, b = b.c), a.ty),
                    Ty::Real(4) => CE::new(format!("copysignf({}, {})", a.c, b.c), a.ty),
                    _ => CE::new(format!("copysign({}, {})", a.c, b.c), a.ty),
                }
            }
            "dim" => {
                let a = self.arg_ce(args, 0, idx, n, line)?;
                let b = self.arg_ce(args, 1, idx, n, line)?;
                CE::new(format!("({a} > {b} ? {a} - {b} : 0)", a = a.c, b = b.c), a.ty)
            }
            "int" | "nint" | "floor" | "ceiling" => {
                let a = self.arg_ce(args, 0, idx, n, line)?;
                let k = if nargs > 1 { kind_arg(self, 1).unwrap_or(4) } else { 4 };
                let t = Ty::Int(k as u8);
                let f4 = a.ty == Ty::Real(4);
                let inner = match n {
                    "int" => a.c.clone(),
                    "nint" => format!("{}({})", if f4 { "roundf" } else { "round" }, unparen(&a.c)),
                    "floor" => format!("{}({})", if f4 { "floorf" } else { "floor" }, unparen(&a.c)),
                    _ => format!("{}({})", if f4 { "ceilf" } else { "ceil" }, unparen(&a.c)),
                };
                if matches!(a.ty, Ty::Int(_)) && n != "int" {
                    return error(line, format!("the argument of `{n}` must be real"));
                }
                CE::new(format!("(({}){inner})", t.c()), t)
            }
            "real" | "dble" | "float" | "sngl" | "dfloat" => {
                let a = self.arg_ce(args, 0, idx, n, line)?;
                let k = match (n, a.ty) {
                    ("dble" | "dfloat", _) => 8,
                    ("real", _) if nargs > 1 => kind_arg(self, 1).unwrap_or(4),
                    // The real part of a complex keeps its kind (§13.7.99).
                    ("real", Ty::Complex(k)) => k as i64,
                    _ => 4,
                };
                let t = Ty::Real(k as u8);
                // C's conversion of a complex value to a real type keeps the real part.
                CE::new(format!("(({}){})", t.c(), a.c), t)
            }
            "aint" | "anint" => {
                let a = self.arg_ce(args, 0, idx, n, line)?;
                let f = match (n, a.ty) {
                    ("aint", Ty::Real(4)) => "truncf",
                    ("aint", _) => "trunc",
                    (_, Ty::Real(4)) => "roundf",
                    _ => "round",
                };
                CE::new(format!("{f}({})", unparen(&a.c)), a.ty)
            }
            "huge" | "tiny" | "epsilon" => {
                let a_ty = match args.first().and_then(arg_value) {
                    Some(Expr::Name(v)) => self.var(v, line)?.ty,
                    Some(e) => {
                        let ix0: Vec<String> = vec!["0".into(); self.rank(e)];
                        self.expr(e, Some(&ix0), line)?.ty
                    }
                    None => return error(line, format!("`{n}` needs an argument")),
                };
                let c = match (n, a_ty) {
                    ("huge", Ty::Int(8)) => "9223372036854775807L",
                    ("huge", Ty::Int(_)) => "2147483647",
                    ("huge", Ty::Real(4)) => "3.40282347e38f",
                    ("huge", Ty::Real(_)) => "1.7976931348623157e308",
                    ("tiny", Ty::Real(4)) => "1.17549435e-38f",
                    ("tiny", Ty::Real(_)) => "2.2250738585072014e-308",
                    ("epsilon", Ty::Real(4)) => "1.19209290e-7f",
                    ("epsilon", Ty::Real(_)) => "2.2204460492503131e-16",
                    _ => return error(line, format!("`{n}` of {}", a_ty.name())),
                };
                CE::new(c.into(), a_ty)
            }
            "kind" => {
                let a = self.arg_ce(args, 0, idx, n, line)?;
                let k = match a.ty {
                    Ty::Int(k) | Ty::Real(k) | Ty::Complex(k) => k,
                    _ => 4,
                };
                CE::new(k.to_string(), Ty::Int(4))
            }
            "selected_real_kind" | "selected_int_kind" => {
                let e = Expr::Apply(n.to_string(), args.to_vec());
                match self.fold(&e) {
                    Some(v) => CE::new(v.to_string(), Ty::Int(4)),
                    None => return unsupported(line, format!("`{n}` with these arguments")),
                }
            }
            "iand" | "ior" | "ieor" => {
                let a = self.arg_ce(args, 0, idx, n, line)?;
                let b = self.arg_ce(args, 1, idx, n, line)?;
                let op = match n {
                    "iand" => "&",
                    "ior" => "|",
                    _ => "^",
                };
                CE::new(format!("({} {op} {})", a.c, b.c), Ty::common(a.ty, b.ty))
            }
            "not" => {
                let a = self.arg_ce(args, 0, idx, n, line)?;
                CE::new(format!("(~{})", a.c), a.ty)
            }
            "ishft" => {
                let a = self.arg_ce(args, 0, idx, n, line)?;
                let b = self.arg_ce(args, 1, idx, n, line)?;
                let ut = if a.ty == Ty::Int(8) { "unsigned long" } else { "unsigned int" };
                CE::new(format!("(({}) ({b} >= 0 ? ({ut}){a} << {b} : ({ut}){a} >> -{b}))", a.ty.c(), a = a.c, b = b.c), a.ty)
            }
            "merge" => {
                let t = self.arg_ce(args, 0, idx, n, line)?;
                let f = self.arg_ce(args, 1, idx, n, line)?;
                let m = self.arg_ce(args, 2, idx, n, line)?;
                CE::new(format!("({} ? {} : {})", m.c, t.c, f.c), Ty::common(t.ty, f.ty))
            }
            "ichar" | "iachar" => {
                let a = self.arg_ce(args, 0, idx, n, line)?;
                CE::new(format!("((int)(unsigned char)({})[0])", a.c), Ty::Int(4))
            }
            "char" | "achar" => {
                // The character of a code (Fortran 2003 §13.7.3, §13.7.19), a one-character string.
                let a = self.arg_ce(args, 0, idx, n, line)?;
                if !matches!(a.ty, Ty::Int(_)) {
                    return error(line, format!("the argument of `{n}` must be an integer"));
                }
                CE { c: format!("((char[1]){{(char)({})}})", unparen(&a.c)), ty: Ty::Char, len: Some("1".into()) }
            }
            "len" => {
                let a = self.arg_ce(args, 0, idx, n, line)?;
                CE::new(a.len.unwrap_or_else(|| "1".into()), Ty::Int(4))
            }
            "len_trim" => {
                let a = self.arg_ce(args, 0, idx, n, line)?;
                CE::new(format!("((int)_f_len_trim({}, {}))", a.c, a.len.unwrap_or_else(|| "1".into())), Ty::Int(4))
            }
            "trim" => {
                let a = self.arg_ce(args, 0, idx, n, line)?;
                let len = format!("_f_len_trim({}, {})", a.c, a.len.clone().unwrap_or_else(|| "1".into()));
                CE { c: a.c, ty: Ty::Char, len: Some(len) }
            }
            "associated" => self.associated(args, line)?,
            "allocated" => {
                let v = match args.first().and_then(arg_value) {
                    Some(Expr::Name(v)) => self.var(v, line)?,
                    Some(Expr::Component(base, part, None)) if self.rank(base) == 0 => self.component_of(base, part, line)?,
                    _ => return error(line, "`allocated` needs an allocatable array"),
                };
                if !v.allocatable {
                    return error(line, format!("`allocated` of `{}`, which is not allocatable", v.cname));
                }
                CE::new(format!("({} != 0)", v.cname), Ty::Logical)
            }
            "size" | "lbound" | "ubound" | "shape" => {
                let (shape, a) = match args.first().and_then(arg_value) {
                    Some(Expr::Name(a)) => (self.var(a, line)?.shape, a.clone()),
                    Some(e @ Expr::Component(base, part, None)) if self.rank(base) == 0 => (self.component_of(base, part, line)?.shape, crate::names::fortran_text(e)),
                    Some(e) if self.rank(e) > 0 => {
                        // Any other array expression (a section, an operation): its bounds are
                        // 1 to its extents (Fortran 2003 §13.7.60: "… otherwise … 1").
                        let Some(exts) = self.space(e, line)? else { return unsupported(line, format!("`{n}` of this expression")) };
                        let lbs = vec!["1".to_string(); exts.len()];
                        (Some(Shape { lbs, exts, fixed: false, assumed_shape: false, assumed_size: false }), crate::names::fortran_text(e))
                    }
                    _ => return unsupported(line, format!("`{n}` of something other than an array")),
                };
                let Some(sh) = shape else { return error(line, format!("`{n}` of scalar `{a}`")) };
                let dim = match args.get(1).and_then(arg_value) {
                    Some(d) => match self.fold(d) {
                        Some(d) if d >= 1 && d as usize <= sh.rank() => Some(d as usize - 1),
                        _ => return unsupported(line, format!("`{n}` with a `dim` that is not a constant between 1 and the rank")),
                    },
                    None => None,
                };
                if n == "shape" && dim.is_some() {
                    return error(line, "`shape` has no `dim` argument");
                }
                let one = |k: usize| match n {
                    "lbound" => sh.lbs[k].clone(),
                    "ubound" => sh.ub(k),
                    _ => sh.exts[k].clone(),
                };
                let c = match (n, dim) {
                    ("size", None) => sh.total(),
                    ("size", Some(k)) => sh.exts[k].clone(),
                    (_, Some(k)) => one(k),
                    (_, None) => {
                        // The array of every dimension's bound or extent (§13.7.60, §13.7.108,
                        // §13.7.128), element `idx[0]` (counted from 0) of it.
                        if sh.assumed_size && n != "lbound" {
                            return error(line, format!("`{n}` of assumed-size array `{a}` without `dim` (its last extent is unknown)"));
                        }
                        let Some(ix) = idx.filter(|i| i.len() == 1) else {
                            return error(line, format!("`{n}({a})` is an array, used where a scalar is needed"));
                        };
                        let mut c = one(sh.rank() - 1);
                        for k in (0..sh.rank() - 1).rev() {
                            c = format!("({} == {k} ? ({}) : {c})", ix[0], one(k));
                        }
                        c
                    }
                };
                CE::new(format!("((int)({c}))"), Ty::Int(4))
            }
            _ if super::array_intrinsics::TRANSFORMATIONAL.contains(&n) => return self.transformational(n, args, idx, line),
            "dot_product" => {
                let (Some(a), Some(b)) = (args.first().and_then(arg_value), args.get(1).and_then(arg_value)) else {
                    return error(line, "`dot_product` needs two arrays");
                };
                let prod = Expr::Binary("*", Box::new(a.clone()), Box::new(b.clone()));
                let ix0: Vec<String> = vec!["0".into(); self.rank(&prod)];
                let ty = self.expr(&prod, Some(&ix0), line)?.ty;
                CE::new(self.reduce(&prod, ty, "0", &|r, e| format!("{r} + {e}"), line)?, ty)
            }
            "present" => {
                // `present(x)` of an optional dummy (Fortran 2003 §13.7.91): whether a pointer came.
                let Some(Expr::Name(x)) = args.first().and_then(arg_value) else { return error(line, "`present` needs the name of an optional dummy argument") };
                if !self.f.optional.contains(x) {
                    return error(line, format!("`present({x})`: `{x}` is not an optional dummy argument"));
                }
                let v = self.var(x, line)?;
                let ptr = if v.shape.is_some() || v.ty == Ty::Char { v.cname.clone() } else { format!("{}_arg", v.cname) };
                CE::new(format!("({ptr} != 0)"), Ty::Logical)
            }
            _ => {
                return unsupported(line, format!("`{n}` is neither a variable, a procedure of this file, nor an intrinsic accsim's Fortran front-end knows"));
            }
        })
    }
}

/// Trip count of `lo:hi[:step]` as a C expression.
pub fn count(lo: &str, hi: &str, step: Option<&str>) -> String {
    match step {
        None | Some("1") => match (lo.parse::<i64>(), hi.parse::<i64>()) {
            (Ok(l), Ok(h)) => (h - l + 1).max(0).to_string(),
            _ if lo == "1" => format!("({hi})"),
            _ => format!("(({hi}) - ({lo}) + 1)"),
        },
        Some(s) => format!("((({hi}) - ({lo}) + ({s})) / ({s}))"),
    }
}

/// The shape of a component of the struct value `base` (C text): the bounds of an allocatable
/// component are struct members (`a_lb1`), read through `base`; constant bounds stay.
pub fn member_shape(mut sh: Shape, base: &str) -> Shape {
    let prefix = |s: &mut String| {
        if s.parse::<i64>().is_err() {
            *s = format!("{base}.{s}");
        }
    };
    sh.lbs.iter_mut().for_each(prefix);
    sh.exts.iter_mut().for_each(prefix);
    sh
}

/// Whether C expression `text` uses the variable `name` (as a whole identifier).
fn mentions(text: &str, name: &str) -> bool {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}
