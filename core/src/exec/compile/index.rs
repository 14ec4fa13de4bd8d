//! Index polynomials at compile time: an array subscript that is a polynomial of degree ≤ 2 in
//! register locals (`a[i*n + j]`) becomes an [`IndexF`] that the load evaluates inline.

use super::*;

impl<'a> Cx<'a> {
    /// The index of a `PtrAdd` as a compiled polynomial, when it is one (array subscripts like
    /// `a[i*n + j]`). Integer widening casts at the top are identities on words.
    pub(super) fn index_poly(&self, index: &Expr) -> Option<IndexF> {
        let (p, narrow) = self.index_terms(index)?;
        Some(IndexF::new(p, narrow))
    }

    /// [`Cx::index_poly`] before compiling: the polynomial and whether it is narrowed to `int`.
    pub(super) fn index_terms(&self, index: &Expr) -> Option<(Poly, bool)> {
        let mut e = index;
        while let ExprKind::Cast(inner) = &e.kind {
            let (from, to) = (self.kind(inner.ty), self.kind(e.ty));
            if !(from.is_int()
                && from != Kind::Bool
                && matches!(to, Kind::I64 | Kind::U64)
                && from.bytes() <= 8)
            {
                return None;
            }
            e = inner;
        }
        let k = self.kind(e.ty);
        let narrow = match k {
            Kind::I32 => true,
            Kind::I64 | Kind::U64 => false,
            _ => return None,
        };
        let p = self.poly(e, k)?;
        if p.terms.is_empty() {
            return None;
        }
        Some((p, narrow))
    }

    /// An operand of a fused select: any integer expression of register locals.
    pub(super) fn operand(&self, e: &Expr) -> Option<IndexF> {
        let k = self.kind(e.ty);
        let narrow = match k {
            Kind::I32 => true,
            Kind::I64 | Kind::U64 => false,
            _ => return None,
        };
        let p = self.poly_w(e, k, narrow)?;
        Some(IndexF::new(p, narrow))
    }

    /// `x cmp y ? a : b` over integer expressions of register locals (the `min(a, b)` of the
    /// partition loops of compute regions): ((op, signed), x, y, a, b).
    #[allow(clippy::type_complexity)]
    pub(super) fn select(
        &self,
        c: &Expr,
        a: &Expr,
        b: &Expr,
    ) -> Option<((BinOp, bool), IndexF, IndexF, IndexF, IndexF)> {
        let ExprKind::Binary(op, x, y) = &c.kind else {
            return None;
        };
        if !op.is_comparison() {
            return None;
        }
        let ck = self.kind(x.ty);
        let signed = match ck {
            Kind::I32 | Kind::I64 => true,
            Kind::U64 => false,
            _ => return None,
        };
        if self.kind(y.ty) != ck {
            return None;
        }
        Some((
            (*op, signed),
            self.operand(x)?,
            self.operand(y)?,
            self.operand(a)?,
            self.operand(b)?,
        ))
    }

    /// `e` as a polynomial of degree ≤ 2 in register locals, all nodes of kind `k`.
    pub(super) fn poly(&self, e: &Expr, k: Kind) -> Option<Poly> {
        self.poly_w(e, k, k == Kind::I32)
    }

    /// An integer expression of register locals (`+ - *` and integer casts) evaluated inline in
    /// one step, when it has at least two operations (so it replaces a tree of closures).
    pub(super) fn pure_int(&self, e: &Expr) -> Option<IndexF> {
        fn ops(e: &Expr, budget: usize) -> usize {
            if budget == 0 {
                return 0;
            }
            match &e.kind {
                ExprKind::Binary(_, a, b) => {
                    let x = 1 + ops(a, budget - 1);
                    x + ops(b, budget.saturating_sub(x))
                }
                ExprKind::Cast(a) => 1 + ops(a, budget - 1),
                _ => 0,
            }
        }
        let k = self.kind(e.ty);
        let narrow = match k {
            Kind::I32 => true,
            Kind::I64 | Kind::U64 => false,
            _ => return None,
        };
        if ops(e, 2) < 2 {
            return None;
        }
        let p = self.poly_w(e, k, narrow)?;
        if p.terms.is_empty() {
            return None;
        }
        Some(IndexF::new(p, narrow))
    }

    /// [`Cx::poly`]; with `low32` only the low 32 bits of the result matter (it is narrowed to
    /// `int` at the end), so nodes may be of any 32- or 64-bit integer kind and casts between
    /// them are looked through (truncation commutes with `+`, `-` and `*`).
    pub(super) fn poly_w(&self, e: &Expr, k: Kind, low32: bool) -> Option<Poly> {
        const MAX_TERMS: usize = 8;
        let ek = self.kind(e.ty);
        let wide = |x: Kind| matches!(x, Kind::I32 | Kind::U32 | Kind::I64 | Kind::U64);
        if low32 {
            if !wide(ek) {
                return None;
            }
        } else if ek != k {
            return None;
        }
        let p = match &e.kind {
            ExprKind::Cast(inner) => {
                let ik = self.kind(inner.ty);
                if low32 && wide(ik) {
                    return self.poly_w(inner, ik, true);
                }
                if !low32 && matches!(ik, Kind::I64 | Kind::U64) && matches!(k, Kind::I64 | Kind::U64) {
                    return self.poly_w(inner, ik, false);
                }
                return None;
            }
            ExprKind::Int(v) => Poly {
                terms: Vec::new(),
                k: *v,
            },
            ExprKind::Local(l) => match self.homes.get(l.0 as usize) {
                Some(Home::Reg(s)) => Poly {
                    terms: vec![Term {
                        a: *s,
                        b: None,
                        c: 1,
                    }],
                    k: 0,
                },
                _ => return None,
            },
            ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
                let (pa, pb) = (self.poly_w(a, k, low32)?, self.poly_w(b, k, low32)?);
                let neg = if *op == BinOp::Sub { u64::MAX } else { 1 };
                let mut terms = pa.terms;
                terms.extend(pb.terms.iter().map(|t| Term {
                    c: t.c.wrapping_mul(neg),
                    ..*t
                }));
                Poly {
                    terms,
                    k: pa.k.wrapping_add(pb.k.wrapping_mul(neg)),
                }
            }
            ExprKind::Binary(BinOp::Mul, a, b) => {
                let (pa, pb) = (self.poly_w(a, k, low32)?, self.poly_w(b, k, low32)?);
                let mut terms = Vec::new();
                for x in pa.terms.iter() {
                    for y in pb.terms.iter() {
                        if x.b.is_some() || y.b.is_some() {
                            return None;
                        }
                        terms.push(Term {
                            a: x.a,
                            b: Some(y.a),
                            c: x.c.wrapping_mul(y.c),
                        });
                    }
                    if pb.k != 0 {
                        terms.push(Term {
                            c: x.c.wrapping_mul(pb.k),
                            ..*x
                        });
                    }
                }
                if pa.k != 0 {
                    terms.extend(pb.terms.iter().map(|t| Term {
                        c: t.c.wrapping_mul(pa.k),
                        ..*t
                    }));
                }
                Poly {
                    terms,
                    k: pa.k.wrapping_mul(pb.k),
                }
            }
            _ => return None,
        };
        (p.terms.len() <= MAX_TERMS).then_some(p)
    }
}
