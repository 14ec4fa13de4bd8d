//! Accesses one constant apart (issue 15's compile time): a counted loop's entry checks
//! ([`crate::loops`]) test, for every affine access, that each integer step of its address is
//! exact at the loop's first and last iteration and that the bytes between its two ends lie in
//! its allocation. A window written out — `img[(y + dy) * W + (x + dx)]` for the five `dx` of an
//! unrolled loop, `A[IDX(i, j, k - 1)]` … `A[IDX(i, j, k + 1)]` — has many accesses whose
//! addresses are the same expression but for one integer constant: their tests are implied by
//! those of the two accesses with the smallest and the largest constant, which are all the entry
//! checks need to make.
//!
//! Why: take the accesses of one *group* — address expressions equal node for node (the same
//! operations, types, locals and constants) but for one integer constant leaf `c`, each node on
//! the path from the root to that leaf a sum, a difference, a product (the other operand the
//! same in all), a conversion or a pointer step, and reading the loop's counter (so that the
//! checks compute it exactly, never as a value of C's wrapping arithmetic). At one iteration,
//! each node's exact value is then an affine function of `c` with the same slope for every
//! access of the group, so it lies between its values in the accesses with the smallest and
//! the largest `c`. Every test on a step is a range test on its value (fits its 32-bit kind,
//! lies within ±2^36, a factor within ±2^20), so it holds for every access of the group when it
//! holds at the two extreme ones; and every address lies between theirs, so its bytes (the same
//! kind, read and written alike) lie in the allocation when theirs do. The other accesses still
//! get their two ends' values (the lane version and the invariant groups use them), without
//! tests.

use accsim_core::exec::value::Kind;
use accsim_core::ir::{BinOp, Expr, ExprKind, LocalId};
use std::collections::HashMap;

use crate::translate::Translator;

/// How two address expressions compare ([`Translator::one_constant_apart`]).
enum Diff {
    /// Equal node for node.
    Same,
    /// Equal but for one integer leaf, reached by this path of child positions, with these
    /// two values.
    Leaf(Vec<u8>, i64, i64),
    /// Anything else.
    Other,
}

/// A group of accesses one constant apart: its first member, the path of its varying leaf, and
/// its members (by index in the plan's list) with their constants.
struct Group {
    first: usize,
    path: Vec<u8>,
    members: Vec<(usize, i64)>,
}

/// The groups of a loop's accesses one constant apart: for each access (by its index in the
/// plan's list), whether its entry tests are left to the group's extreme accesses.
pub(crate) fn implied_accesses(t: &Translator<'_, '_>, accesses: &[(&Expr, Kind, bool, bool)], var: LocalId, derived: &HashMap<u32, &Expr>, anchors: &[Option<LocalId>]) -> Vec<bool> {
    let mut groups: Vec<Group> = Vec::new();
    for (i, &(addr, k, read, write)) in accesses.iter().enumerate() {
        // Only accesses checked against the allocation of one register pointer: their bias is
        // the anchor's, shared by the group.
        if anchors.get(i).copied().flatten().is_none() {
            continue;
        }
        let mut joined = false;
        for g in groups.iter_mut() {
            let (faddr, fk, fread, fwrite) = accesses[g.first];
            if (fk, fread, fwrite) != (k, read, write) || anchors[g.first] != anchors[i] {
                continue;
            }
            if let Diff::Leaf(p, _, c) = t.one_constant_apart(faddr, addr, var, derived) {
                if p == g.path {
                    g.members.push((i, c));
                    joined = true;
                    break;
                }
            }
        }
        if joined {
            continue;
        }
        // A new group, its leaf found from the first access that joins it.
        for (j, &(other, ok, oread, owrite)) in accesses.iter().enumerate().skip(i + 1) {
            if (ok, oread, owrite) != (k, read, write) || anchors.get(j).copied().flatten() != anchors[i] {
                continue;
            }
            if let Diff::Leaf(p, c, _) = t.one_constant_apart(addr, other, var, derived) {
                groups.push(Group { first: i, path: p, members: vec![(i, c)] });
                break;
            }
        }
    }
    let mut implied = vec![false; accesses.len()];
    for Group { members, .. } in &groups {
        if members.len() < 3 {
            continue;
        }
        let lowest = members.iter().min_by_key(|&&(i, c)| (c, i)).map(|&(i, _)| i);
        let highest = members.iter().max_by_key(|&&(i, c)| (c, usize::MAX - i)).map(|&(i, _)| i);
        for &(i, _) in members {
            if Some(i) != lowest && Some(i) != highest {
                implied[i] = true;
            }
        }
    }
    implied
}

impl Translator<'_, '_> {
    /// Whether addresses `a` and `b` are one constant apart (see the module docs), and where.
    fn one_constant_apart(&self, a: &Expr, b: &Expr, var: LocalId, derived: &HashMap<u32, &Expr>) -> Diff {
        self.diff(a, b, var, derived)
    }

    fn diff(&self, a: &Expr, b: &Expr, var: LocalId, derived: &HashMap<u32, &Expr>) -> Diff {
        if a.ty != b.ty {
            return Diff::Other;
        }
        // The children of a node a leaf may lie under, and whether it may.
        let children: (Vec<(&Expr, &Expr)>, bool) = match (&a.kind, &b.kind) {
            (ExprKind::Int(x), ExprKind::Int(y)) => {
                return if x == y { Diff::Same } else { Diff::Leaf(Vec::new(), *x as i64, *y as i64) };
            }
            (ExprKind::Cast(x), ExprKind::Cast(y)) => (vec![(&**x, &**y)], true),
            (ExprKind::Binary(o, x1, x2), ExprKind::Binary(p, y1, y2)) if o == p => {
                (vec![(&**x1, &**y1), (&**x2, &**y2)], matches!(o, BinOp::Add | BinOp::Sub | BinOp::Mul))
            }
            (ExprKind::PtrAdd { ptr: p1, index: i1, elem: e1 }, ExprKind::PtrAdd { ptr: p2, index: i2, elem: e2 }) if e1 == e2 => {
                (vec![(&**p1, &**p2), (&**i1, &**i2)], true)
            }
            _ => return if a.same_computation(b, true) { Diff::Same } else { Diff::Other },
        };
        let (pairs, may_hold_leaf) = children;
        let mut found: Option<(Vec<u8>, i64, i64)> = None;
        for (n, (x, y)) in pairs.into_iter().enumerate() {
            match self.diff(x, y, var, derived) {
                Diff::Same => {}
                Diff::Other => return Diff::Other,
                Diff::Leaf(mut path, cx, cy) => {
                    // One leaf only, under a node the entry checks compute exactly (one that
                    // reads the counter).
                    if found.is_some() || !may_hold_leaf || !self.depends(a, var, derived) {
                        return Diff::Other;
                    }
                    path.insert(0, n as u8);
                    found = Some((path, cx, cy));
                }
            }
        }
        match found {
            Some((path, cx, cy)) => Diff::Leaf(path, cx, cy),
            None => Diff::Same,
        }
    }
}
