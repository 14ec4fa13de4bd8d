//! The transformational intrinsics that take `dim=`/`mask=` or give array results (Fortran 2003
//! §13.7): `sum`, `product`, `maxval`, `minval`, `count`, `any`, `all` with `dim` and `mask`;
//! `maxloc`/`minloc`; `matmul`; `transpose`.
//!
//! They follow the element-at-a-time scheme of `expr.rs`: an array-valued reference is asked for
//! the element its caller's 0-based loop counters (`idx`) select, and computes that element with
//! a GNU statement expression; [`Translator::transformational_rank`] and
//! [`Translator::transformational_space`] give the shape callers build their loops from.

use std::fmt::Write;

use super::expr::CE;
use super::types::*;
use super::*;

/// Argument `name` of an intrinsic call: the keyword form, else positional `pos` (positional
/// arguments come first, Fortran 2003 §12.4.1).
pub fn intrinsic_arg<'a>(args: &'a [Arg], pos: usize, name: &str) -> Option<&'a Expr> {
    args.iter()
        .find_map(|a| match a {
            Arg::Keyword(k, v) if k == name => Some(v),
            _ => None,
        })
        .or_else(|| match args.get(pos) {
            Some(Arg::Value(v)) => Some(v),
            _ => None,
        })
}

/// The intrinsics this module translates.
pub const TRANSFORMATIONAL: [&str; 11] = ["sum", "product", "maxval", "minval", "count", "any", "all", "maxloc", "minloc", "matmul", "transpose"];

/// How one reduction combines: the result type, the initial value and `acc = combine(acc, e)`.
type Combine = (Ty, String, Box<dyn Fn(&str, &str) -> String>);

impl Translator {
    /// The array argument, `dim` (0-based, constant) and `mask` of a reduction intrinsic `n`.
    /// `sum(a, mask)` is told from `sum(a, dim)` by the second argument's rank (§13.7.161).
    fn reduction_args(&self, n: &str, args: &[Arg], line: u32) -> TResult<(Expr, Option<usize>, Option<Expr>)> {
        let first = if matches!(n, "count" | "any" | "all") { "mask" } else { "array" };
        let Some(a) = intrinsic_arg(args, 0, first) else { return error(line, format!("`{n}` needs an array")) };
        let mut dim = intrinsic_arg(args, 1, "dim");
        let mut mask = if matches!(n, "count" | "any" | "all") { None } else { intrinsic_arg(args, 2, "mask") };
        if let Some(d) = dim {
            if !args.iter().any(|x| matches!(x, Arg::Keyword(k, _) if k == "dim")) && self.rank(d) > 0 && mask.is_none() && !matches!(n, "count" | "any" | "all") {
                mask = Some(d);
                dim = None;
            }
        }
        let dim = match dim {
            None => None,
            Some(d) => match self.fold(d) {
                Some(k) if k >= 1 && (k as usize) <= self.rank(a).max(1) => Some(k as usize - 1),
                _ => return unsupported(line, format!("`{n}` with a `dim` that is not a constant between 1 and the rank")),
            },
        };
        Ok((a.clone(), dim, mask.cloned()))
    }

    /// The rank of a reference to a transformational intrinsic.
    pub fn transformational_rank(&self, n: &str, args: &[Arg]) -> usize {
        match n {
            "matmul" => {
                let ra = intrinsic_arg(args, 0, "matrix_a").map_or(0, |a| self.rank(a));
                let rb = intrinsic_arg(args, 1, "matrix_b").map_or(0, |b| self.rank(b));
                if ra == 2 && rb == 2 {
                    2
                } else {
                    1
                }
            }
            "transpose" => 2,
            "maxloc" | "minloc" => {
                let a = intrinsic_arg(args, 0, "array").map_or(0, |a| self.rank(a));
                match self.reduction_args(n, args, 0) {
                    Ok((_, Some(_), _)) => a.saturating_sub(1),
                    _ => 1,
                }
            }
            _ => match self.reduction_args(n, args, 0) {
                Ok((a, Some(_), _)) => self.rank(&a).saturating_sub(1),
                _ => 0,
            },
        }
    }

    /// The element counts of the result of a transformational intrinsic (`None`: a scalar).
    pub fn transformational_space(&mut self, n: &str, args: &[Arg], line: u32) -> TResult<Option<Vec<String>>> {
        if self.transformational_rank(n, args) == 0 {
            return Ok(None);
        }
        Ok(Some(match n {
            "transpose" => {
                let Some(a) = intrinsic_arg(args, 0, "matrix") else { return error(line, "`transpose` needs a matrix") };
                let Some(s) = self.space(&a.clone(), line)?.filter(|s| s.len() == 2) else { return error(line, "the argument of `transpose` must have rank 2") };
                vec![s[1].clone(), s[0].clone()]
            }
            "matmul" => {
                let (sa, sb) = self.matmul_spaces(args, line)?;
                match (sa.len(), sb.len()) {
                    (2, 2) => vec![sa[0].clone(), sb[1].clone()],
                    (2, 1) => vec![sa[0].clone()],
                    _ => vec![sb[1].clone()],
                }
            }
            "maxloc" | "minloc" => {
                let (a, dim, _) = self.reduction_args(n, args, line)?;
                let Some(s) = self.space(&a, line)? else { return error(line, format!("`{n}` needs an array")) };
                match dim {
                    Some(d) => s.iter().enumerate().filter(|(k, _)| *k != d).map(|(_, x)| x.clone()).collect(),
                    None => vec![s.len().to_string()],
                }
            }
            _ => {
                let (a, dim, _) = self.reduction_args(n, args, line)?;
                let Some(s) = self.space(&a, line)? else { return error(line, format!("`{n}` needs an array")) };
                let d = dim.unwrap_or(0);
                s.iter().enumerate().filter(|(k, _)| *k != d).map(|(_, x)| x.clone()).collect()
            }
        }))
    }

    fn matmul_spaces(&mut self, args: &[Arg], line: u32) -> TResult<(Vec<String>, Vec<String>)> {
        let (Some(a), Some(b)) = (intrinsic_arg(args, 0, "matrix_a").cloned(), intrinsic_arg(args, 1, "matrix_b").cloned()) else {
            return error(line, "`matmul` needs two arrays");
        };
        let sa = self.space(&a, line)?.unwrap_or_default();
        let sb = self.space(&b, line)?.unwrap_or_default();
        if !matches!((sa.len(), sb.len()), (2, 2) | (2, 1) | (1, 2)) {
            return error(line, "the arguments of `matmul` must be a matrix and a matrix or vector (Fortran 2003 §13.7.77)");
        }
        Ok((sa, sb))
    }

    /// A reference to one of [`TRANSFORMATIONAL`]; `idx`: the counters selecting the element of
    /// an array result.
    pub fn transformational(&mut self, n: &str, args: &[Arg], idx: Option<&[String]>, line: u32) -> TResult<CE> {
        match n {
            "transpose" => {
                let Some(a) = intrinsic_arg(args, 0, "matrix").cloned() else { return error(line, "`transpose` needs a matrix") };
                let Some(ix) = idx.filter(|i| i.len() == 2) else { return error(line, "`transpose` gives an array; it is used where a scalar is needed") };
                self.expr(&a, Some(&[ix[1].clone(), ix[0].clone()]), line)
            }
            "matmul" => self.matmul(args, idx, line),
            "maxloc" | "minloc" => self.location(n, args, idx, line),
            _ => self.reduction(n, args, idx, line),
        }
    }

    fn combine_of(n: &str, ty: Ty) -> Combine {
        match n {
            "sum" => (ty, "0".into(), Box::new(|r: &str, e: &str| format!("{r} + {e}"))),
            "product" => (ty, "1".into(), Box::new(|r: &str, e: &str| format!("{r} * {e}"))),
            "maxval" | "minval" => {
                let huge = match ty {
                    Ty::Int(8) => "9223372036854775807L",
                    Ty::Int(_) => "2147483647",
                    Ty::Real(4) => "3.40282347e38f",
                    _ => "1.7976931348623157e308",
                };
                let (init, cmp) = if n == "maxval" { (format!("-{huge}"), ">") } else { (huge.to_string(), "<") };
                let init = if n == "maxval" && matches!(ty, Ty::Int(_)) { format!("({init} - 1)") } else { init };
                (ty, init, Box::new(move |r: &str, e: &str| format!("({e} {cmp} {r} ? {e} : {r})")))
            }
            "count" => (Ty::Int(4), "0".into(), Box::new(|r: &str, e: &str| format!("{r} + ({e} ? 1 : 0)"))),
            "any" => (Ty::Logical, "0".into(), Box::new(|r: &str, e: &str| format!("{r} || {e}"))),
            _ => (Ty::Logical, "1".into(), Box::new(|r: &str, e: &str| format!("{r} && {e}"))),
        }
    }

    /// The loop counters over `space` with dimension `dim` (if any) fixed from `idx`: the full
    /// counters for the array argument, and those the loops run.
    fn counters(&mut self, rank: usize, dim: Option<usize>, idx: Option<&[String]>, line: u32) -> TResult<(Vec<String>, Vec<usize>)> {
        let mut full = Vec::new();
        let mut looped = Vec::new();
        let mut next = 0;
        for k in 0..rank {
            if dim.is_none() || dim == Some(k) {
                full.push(self.tmp("i"));
                looped.push(k);
            } else {
                let Some(i) = idx.and_then(|i| i.get(next)) else { return error(line, "an intrinsic with `dim` gives an array; it is used where a scalar is needed") };
                full.push(i.clone());
                next += 1;
            }
        }
        Ok((full, looped))
    }

    /// `sum`/`product`/`maxval`/`minval`/`count`/`any`/`all`, with `dim` and `mask`.
    fn reduction(&mut self, n: &str, args: &[Arg], idx: Option<&[String]>, line: u32) -> TResult<CE> {
        let (a, dim, mask) = self.reduction_args(n, args, line)?;
        let Some(space) = self.space(&a, line)? else { return error(line, format!("`{n}` needs an array argument")) };
        let dim = dim.filter(|_| space.len() > 1 || idx.is_some_and(|i| !i.is_empty()));
        let (full, looped) = self.counters(space.len(), dim, idx, line)?;
        let elem = self.expr(&a, Some(&full), line)?;
        let (ty, init, combine) = Self::combine_of(n, elem.ty);
        let r = self.tmp("r");
        let mut s = format!("({{ {} {r} = {init}; ", ty.c());
        // Array element order (Fortran 2003 §6.2.2.2): the last dimension's loop outermost, as
        // gfortran accumulates (a float sum's rounding depends on the order).
        for &k in looped.iter().rev() {
            let _ = write!(s, "for (long {c} = 0; {c} < {n}; {c}++) ", c = full[k], n = space[k]);
        }
        let update = format!("{r} = {};", combine(&r, &elem.c));
        match &mask {
            Some(m) => {
                let mc = self.expr(m, Some(&full), line)?;
                let _ = write!(s, "if ({}) {update} {r}; }})", mc.c);
            }
            None => {
                let _ = write!(s, "{update} {r}; }})");
            }
        }
        Ok(CE::new(s, ty))
    }

    /// `maxloc`/`minloc` (Fortran 2003 §13.7.73, §13.7.80): the subscripts, counted from 1, of
    /// the first greatest (least) element in array element order; 0 when no element is selected.
    fn location(&mut self, n: &str, args: &[Arg], idx: Option<&[String]>, line: u32) -> TResult<CE> {
        let (a, dim, mask) = self.reduction_args(n, args, line)?;
        let Some(space) = self.space(&a, line)? else { return error(line, format!("`{n}` needs an array argument")) };
        let cmp = if n == "maxloc" { ">" } else { "<" };
        // With `dim`, the result element is the position along that dimension; without, the
        // result is a vector of one subscript per dimension and `idx[0]` selects one.
        let (full, looped) = self.counters(space.len(), dim, if dim.is_some() { idx } else { None }, line)?;
        let elem = self.expr(&a, Some(&full), line)?;
        let best = self.tmp("best");
        let pos = self.tmp("pos");
        let found = self.tmp("found");
        let r = looped.len();
        let mut s = format!("({{ {} {best} = 0; long {pos}[{r}] = {{0}}; int {found} = 0; ", elem.ty.c());
        // Array element order, the last dimension's loop outermost: of equal elements, the first
        // in that order is the result.
        for &k in looped.iter().rev() {
            let _ = write!(s, "for (long {c} = 0; {c} < {n}; {c}++) ", c = full[k], n = space[k]);
        }
        let e = self.tmp("e");
        let mut set = String::new();
        for (j, &k) in looped.iter().enumerate() {
            let _ = write!(set, "{pos}[{j}] = {} + 1; ", full[k]);
        }
        let cond = match &mask {
            Some(m) => format!("({}) && ", self.expr(m, Some(&full), line)?.c),
            None => String::new(),
        };
        let _ = write!(s, "{{ {} {e} = {}; if ({cond}(!{found} || {e} {cmp} {best})) {{ {best} = {e}; {found} = 1; {set}}} }} ", elem.ty.c(), elem.c);
        let select = match (dim, idx) {
            (Some(_), _) => "0".to_string(),
            (None, Some(i)) if !i.is_empty() => i[0].clone(),
            (None, _) if r == 1 => "0".to_string(),
            _ => return error(line, format!("`{n}` gives an array; it is used where a scalar is needed")),
        };
        let _ = write!(s, "(int){pos}[{select}]; }})");
        Ok(CE::new(s, Ty::Int(4)))
    }

    /// `matmul` (Fortran 2003 §13.7.77): element (i, j) is the sum over k of a(i, k) * b(k, j);
    /// a matrix times a vector and a vector times a matrix likewise.
    fn matmul(&mut self, args: &[Arg], idx: Option<&[String]>, line: u32) -> TResult<CE> {
        let (sa, sb) = self.matmul_spaces(args, line)?;
        let (Some(a), Some(b)) = (intrinsic_arg(args, 0, "matrix_a").cloned(), intrinsic_arg(args, 1, "matrix_b").cloned()) else {
            return error(line, "`matmul` needs two arrays");
        };
        let Some(ix) = idx.filter(|i| !i.is_empty()) else { return error(line, "`matmul` gives an array; it is used where a scalar is needed") };
        let k = self.tmp("k");
        let (ia, ib, inner): (Vec<String>, Vec<String>, String) = match (sa.len(), sb.len()) {
            (2, 2) => (vec![ix[0].clone(), k.clone()], vec![k.clone(), ix.get(1).cloned().unwrap_or_default()], sa[1].clone()),
            (2, 1) => (vec![ix[0].clone(), k.clone()], vec![k.clone()], sa[1].clone()),
            _ => (vec![k.clone()], vec![k.clone(), ix[0].clone()], sa[0].clone()),
        };
        let ea = self.expr(&a, Some(&ia), line)?;
        let eb = self.expr(&b, Some(&ib), line)?;
        let ty = if ea.ty == Ty::Logical { Ty::Logical } else { Ty::common(ea.ty, eb.ty) };
        let r = self.tmp("r");
        let body = if ty == Ty::Logical { format!("{r} = {r} || ({} && {});", ea.c, eb.c) } else { format!("{r} += ({}){} * ({}){};", ty.c(), ea.c, ty.c(), eb.c) };
        Ok(CE::new(format!("({{ {} {r} = 0; for (long {k} = 0; {k} < {inner}; {k}++) {body} {r}; }})", ty.c()), ty))
    }
}
