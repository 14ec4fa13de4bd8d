//! Index polynomials: an integer expression that is a sum of terms of degree ≤ 2 in register
//! locals, compiled to a shape ([`IndexF`]) that a fused load evaluates inline.

use crate::exec::machine::Machine;

/// `coeff * regs[a] (* regs[b])`, wrapping.
#[derive(Clone, Copy, Debug)]
pub(in crate::exec) struct Term {
    pub(in crate::exec) a: usize,
    pub(in crate::exec) b: Option<usize>,
    pub(in crate::exec) c: u64,
}

impl Term {
    #[inline(always)]
    pub(in crate::exec) fn eval(&self, m: &Machine) -> u64 {
        let mut v = m.regs[m.bp + self.a];
        if let Some(b) = self.b {
            v = v.wrapping_mul(m.regs[m.bp + b]);
        }
        v.wrapping_mul(self.c)
    }
}

/// An integer expression that is a sum of terms of degree ≤ 2 in register locals, computed in
/// wrapping 64-bit arithmetic and then normalised to the expression's width. Addition and
/// multiplication commute with truncation modulo 2^32, so this equals gcc's 32-bit wrapping code.
#[derive(Clone, Debug, Default)]
pub(in crate::exec) struct Poly {
    pub(in crate::exec) terms: Vec<Term>,
    pub(in crate::exec) k: u64,
}

/// `k + Σ c·regs[s]` with at most three terms (`n` of them are used).
#[derive(Clone, Copy, Debug, Default)]
pub(in crate::exec) struct Lin {
    pub(in crate::exec) t: [(usize, u64); 3],
    pub(in crate::exec) n: u8,
    pub(in crate::exec) k: u64,
}

impl Lin {
    #[inline(always)]
    pub(in crate::exec) fn eval(&self, m: &Machine) -> u64 {
        let r = |i: usize| {
            let (s, c) = self.t[i];
            m.regs[m.bp + s].wrapping_mul(c)
        };
        match self.n {
            0 => self.k,
            1 => self.k.wrapping_add(r(0)),
            2 => self.k.wrapping_add(r(0)).wrapping_add(r(1)),
            _ => self
                .k
                .wrapping_add(r(0))
                .wrapping_add(r(1))
                .wrapping_add(r(2)),
        }
    }

    pub(in crate::exec) fn add(&mut self, slot: usize, c: u64) -> bool {
        let n = self.n as usize;
        if let Some(e) = self.t[..n].iter_mut().find(|(s, _)| *s == slot) {
            e.1 = e.1.wrapping_add(c);
            return true;
        }
        if n == self.t.len() {
            return false;
        }
        self.t[n] = (slot, c);
        self.n += 1;
        true
    }
}

/// `k + regs[s0]*c0 + regs[s1]*c1`: a [`Lin`] of at most two terms, evaluated without branches
/// (an unused term has coefficient 0 and repeats a used slot).
#[derive(Clone, Copy, Debug)]
pub(in crate::exec) struct L2 {
    pub(in crate::exec) k: u64,
    pub(in crate::exec) s0: usize,
    pub(in crate::exec) c0: u64,
    pub(in crate::exec) s1: usize,
    pub(in crate::exec) c1: u64,
}

impl L2 {
    /// `fill` is a slot that exists in the frame (for unused terms).
    pub(in crate::exec) fn of(l: &Lin, fill: usize) -> Option<L2> {
        let (s0, c0) = if l.n >= 1 { l.t[0] } else { (fill, 0) };
        let (s1, c1) = if l.n >= 2 { l.t[1] } else { (s0, 0) };
        (l.n <= 2).then_some(L2 {
            k: l.k,
            s0,
            c0,
            s1,
            c1,
        })
    }
    #[inline(always)]
    pub(in crate::exec) fn eval(&self, m: &Machine) -> u64 {
        let r = &m.regs[m.bp..];
        self.k
            .wrapping_add(r[self.s0].wrapping_mul(self.c0))
            .wrapping_add(r[self.s1].wrapping_mul(self.c1))
    }
}

/// A compiled [`Poly`]; `narrow` says the result is a 32-bit signed (true) value.
pub(in crate::exec) enum IndexF {
    T1(Term, u64, bool),
    /// [`IndexF::Lin`] of at most two terms.
    L2(L2, bool),
    /// [`IndexF::Grouped`] with both linear parts of at most two terms.
    G2(L2, usize, L2, bool),
    /// `lin0 + regs[factor] * lin1`: the shape of `a[i*n + j]`, `a[(i+di)*n + (j+dj)]`.
    Grouped(Lin, usize, Lin, bool),
    Lin(Lin, bool),
    Tn(Box<[Term]>, u64, bool),
}

impl IndexF {
    pub(in crate::exec) fn new(p: Poly, narrow: bool) -> IndexF {
        if p.terms.is_empty() {
            return IndexF::Tn(Box::new([]), p.k, narrow);
        }
        if let [t] = p.terms.as_slice() {
            return IndexF::T1(*t, p.k, narrow);
        }
        // Group the degree-2 terms by a common factor.
        let factor = p.terms.iter().find_map(|t| t.b.map(|b| (t.a, b)));
        let factor = factor.and_then(|(a, b)| {
            [a, b].into_iter().find(|f| {
                p.terms
                    .iter()
                    .all(|t| t.b.is_none() || t.a == *f || t.b == Some(*f))
            })
        });
        let mut lin0 = Lin {
            k: p.k,
            ..Lin::default()
        };
        let mut lin1 = Lin::default();
        let mut ok = true;
        for t in &p.terms {
            ok &= match (t.b, factor) {
                (None, Some(f)) if t.a == f => {
                    lin1.k = lin1.k.wrapping_add(t.c);
                    true
                }
                (None, _) => lin0.add(t.a, t.c),
                (Some(b), Some(f)) => lin1.add(if t.a == f { b } else { t.a }, t.c),
                (Some(_), None) => false,
            };
        }
        match (ok, factor) {
            (true, Some(f)) => match (L2::of(&lin0, f), L2::of(&lin1, f)) {
                (Some(a), Some(b)) => IndexF::G2(a, f, b, narrow),
                _ => IndexF::Grouped(lin0, f, lin1, narrow),
            },
            (true, None) => match L2::of(&lin0, p.terms[0].a) {
                Some(a) => IndexF::L2(a, narrow),
                None => IndexF::Lin(lin0, narrow),
            },
            _ => IndexF::Tn(p.terms.into(), p.k, narrow),
        }
    }
    /// Whether the index is affine in register `k` (no `k*k` term).
    pub(in crate::exec) fn affine_in(&self, k: usize) -> bool {
        let lin = |l: &Lin| l.t[..l.n as usize].iter().all(|&(s, _)| s != k);
        let l2 = |l: &L2| (l.s0 != k || l.c0 == 0) && (l.s1 != k || l.c1 == 0);
        match self {
            IndexF::T1(t, _, _) => !(t.a == k && t.b == Some(k)),
            IndexF::L2(..) | IndexF::Lin(..) => true,
            IndexF::G2(_, f, l1, _) => *f != k || l2(l1),
            IndexF::Grouped(_, f, l1, _) => *f != k || lin(l1),
            IndexF::Tn(ts, _, _) => ts.iter().all(|t| !(t.a == k && t.b == Some(k))),
        }
    }

    /// The value before narrowing, and whether it is narrowed.
    #[inline(always)]
    pub(in crate::exec) fn raw(&self, m: &Machine) -> (u64, bool) {
        match self {
            IndexF::T1(t, k, n) => (t.eval(m).wrapping_add(*k), *n),
            IndexF::L2(l, n) => (l.eval(m), *n),
            IndexF::G2(l0, f, l1, n) => (
                l0.eval(m)
                    .wrapping_add(m.regs[m.bp + f].wrapping_mul(l1.eval(m))),
                *n,
            ),
            IndexF::Grouped(l0, f, l1, n) => (
                l0.eval(m)
                    .wrapping_add(m.regs[m.bp + f].wrapping_mul(l1.eval(m))),
                *n,
            ),
            IndexF::Lin(l, n) => (l.eval(m), *n),
            IndexF::Tn(ts, k, n) => (ts.iter().fold(*k, |acc, t| acc.wrapping_add(t.eval(m))), *n),
        }
    }

    #[inline(always)]
    pub(in crate::exec) fn narrowed(&self) -> bool {
        match self {
            IndexF::T1(_, _, n)
            | IndexF::L2(_, n)
            | IndexF::G2(_, _, _, n)
            | IndexF::Grouped(_, _, _, n)
            | IndexF::Lin(_, n)
            | IndexF::Tn(_, _, n) => *n,
        }
    }

    #[inline(always)]
    pub(in crate::exec) fn eval(&self, m: &Machine) -> u64 {
        let (v, narrow) = self.raw(m);
        if narrow {
            v as i32 as i64 as u64
        } else {
            v
        }
    }
}
