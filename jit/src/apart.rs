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
//! tests. A leaf may also be a pointer step's constant index (`w[7]` of an unrolled window's
//! weights): the address is the pointer plus the constant times the element size, exactly
//! where the extremes lie in the allocation (see the covering reads below).
//!
//! **Boxes** (the windows' rows): a 5 × 5 window `img[(y + dy) * W + (x + dx)]` is 25 addresses
//! that differ in two leaves, `dy` under `(y + dy) * W`, which reads no counter, and `dx`. A
//! *box* is a set of accesses (one kind, read and written alike, one anchor) whose addresses are
//! equal node for node but for at most three integer leaves, each node above a leaf a sum, a
//! difference, a conversion between integer kinds, a product whose other operand holds no leaf,
//! or a pointer step of a constant element size under 2^20, and with an access at every
//! *corner* of the leaves' ranges (each leaf at its smallest or its largest value). Only the
//! corners are tested, and at a corner the nodes on the leaves' paths are computed exactly and
//! tested even where they read no counter (`y - 2` and `(y - 2) * W` fit `int`). Why the others
//! need no test: each such node's exact value is affine in the leaves (sums of terms with one
//! leaf each, the slopes the same for every member), so over the box it lies between its values
//! at the corners; a range test holding at every corner holds at every member. In particular the
//! parts that read no counter, which the loop computes in C's arithmetic, fit their kinds at
//! every member, so that arithmetic computes their exact values; every member's address is then
//! affine in the leaves and lies between the corners' addresses, in the allocation. (A group of
//! one leaf is a box of two corners, which then also covers a window's column, `dy` alone.)
//!
//! **Two corners.** When each leaf moves every node that holds it the same way, known at
//! translation (every step up from a node on its path other than the leaf a sum, the left side
//! of a difference, a conversion, a product by a positive constant or a pointer step; the step
//! up from the leaf may turn the direction: `y - dy`, `dy * -3`), only two opposite corners are
//! tested: the one where every leaf is at the end that makes the nodes smallest, and the one
//! where every leaf is at the other end. A node's exact value over the box is then smallest at
//! the first and largest at the second (each leaf's slope in it has the leaf's sign), at each of
//! the counter's two ends, which both corners test; so the tests of those two imply those of
//! every other corner, and they are also implied by them (the same version runs). blur's window
//! `img[(y + dy) * W + (x + dx)]` with `W` a constant: 2 corners tested of its 4 (issue 15's
//! compile time). A product by a loop-invariant value (`(y + dy) * w`) keeps every corner.
//!
//! **Covering reads** (the lane version's store tests, [`covering_reads`]): the lane version
//! ([`crate::simd`]) runs only when every store's bytes over the whole loop, `[sf, sl + s)`
//! (its address at the first and the last iteration, its size), lie before or after those of
//! every other access `[xf, xl + x)` — 25 reads of a 5 × 5 window and 25 of its weights were 50
//! such tests of blur's one store. A *run* of reads — one group as above (the same kind, no
//! store among them) whose constants are consecutive integers `c0, c0 + 1, …, c0 + n` (each one
//! present, repeats allowed) and whose address moves by a constant `d` bytes per unit of the
//! constant, `0 < |d| <=` the access size — is tested once: the store lies before all of them
//! (`sl + s <=` the smallest first address) or after all of them (the largest last address
//! `+ x <= sf`). `d` is the product of the constant factors on the leaf's path (a product's
//! other operand a constant, a pointer step's element size), so the smallest first address and
//! the largest last address are those of the run's two extreme accesses (the lowest constant
//! for `d > 0`, the highest for `d < 0`): the one test implies the pairwise ones. It is also
//! implied by them, so the same version runs: the accesses' byte ranges are intervals (the ends
//! of a moving access are ordered, its stride being its size, which the lane version tests),
//! and consecutive members' ranges meet (their first addresses differ by `|d| <= x` bytes, their
//! last ones too), so their union is one interval and a store apart from each member lies
//! wholly on one side of it. Where the pairwise test allows a store to coincide with a member
//! (the same first address, both moving, the same size), the neighbouring member — `|d|` bytes
//! away, `0 < |d| <=` the size, over the two or more iterations the lanes need — overlaps it, so
//! the pairwise tests fail too. Besides the leaves under nodes that read the counter, a run's
//! leaf may be the constant index of a pointer step (`weight[7]` of an unrolled window): its
//! address is the pointer plus the constant times the element size, exactly (the access lies in
//! its allocation, which the entry checks test), so affine in the constant.

use accsim_core::exec::value::Kind;
use accsim_core::ir::{BinOp, Expr, ExprKind, LocalId};
use crate::HashMap;

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

/// How a loop's entry tests are shared among its accesses ([`implied_accesses`]).
pub(crate) struct Implied {
    /// For each access (by its index in the plan's list), whether its entry tests are left to
    /// the tested accesses of its group.
    pub(crate) implied: Vec<bool>,
    /// For each tested access, the nodes of its address whose exact values its tests must also
    /// bound though they read no counter (a box's corner, see the module docs), and its box's
    /// number from 1: empty and 0 for the others.
    pub(crate) through: Vec<(Vec<*const Expr>, u32)>,
}

/// Most leaves in which the accesses of a box may differ (2^3 corners).
const MAX_LEAVES: usize = 3;

/// The integer leaves in which two addresses differ ([`Translator::leaves`]): each leaf's path
/// of child positions and its two values.
type Leaves = Vec<(Vec<u8>, i64, i64)>;

/// The groups of a loop's accesses one constant apart: for each access (by its index in the
/// plan's list), whether its entry tests are left to the group's extreme accesses; and the
/// boxes, whose corners' tests imply all of theirs (see the module docs).
pub(crate) fn implied_accesses(t: &Translator<'_, '_>, accesses: &[(&Expr, Kind, bool, bool)], var: LocalId, derived: &HashMap<u32, &Expr>, anchors: &[Option<crate::loops::Anchor>]) -> Implied {
    // Only accesses checked against the allocation of one register pointer: their bias is the
    // anchor's, shared by the group.
    let anchor = |i: usize| anchors.get(i).copied().flatten();
    let compatible = |i: usize, j: usize| {
        let ((_, ki, ri, wi), (_, kj, rj, wj)) = (accesses[i], accesses[j]);
        (ki, ri, wi) == (kj, rj, wj) && anchor(i) == anchor(j)
    };
    let groups = groups_apart(t, accesses, var, derived, true, |i| anchor(i).is_some(), compatible);
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
    let mut through = vec![(Vec::new(), 0); accesses.len()];
    for (n, b) in (1..).zip(boxes(t, accesses, |i| anchor(i).is_some(), compatible)) {
        for (i, _) in b.members {
            implied[i] = !b.corners.contains(&i);
        }
        for &c in &b.corners {
            through[c] = (path_nodes(accesses[c].0, &b.paths), n);
        }
    }
    Implied { implied, through }
}

/// A box: accesses whose addresses differ in up to [`MAX_LEAVES`] integer leaves (by path), one
/// access at each corner of the constants' ranges.
struct Box {
    paths: Vec<Vec<u8>>,
    members: Vec<(usize, Vec<i64>)>,
    corners: Vec<usize>,
}

/// The boxes of the accesses `eligible` admits, two in one box only where `compatible` says so
/// (see the module docs): each access joins the box of the first access it differs from in
/// leaves only; a box is kept when it has more members than corners and an access at every
/// corner.
fn boxes(t: &Translator<'_, '_>, accesses: &[(&Expr, Kind, bool, bool)], eligible: impl Fn(usize) -> bool, compatible: impl Fn(usize, usize) -> bool) -> Vec<Box> {
    let mut taken = vec![false; accesses.len()];
    let mut found = Vec::new();
    for i in 0..accesses.len() {
        if taken[i] || !eligible(i) {
            continue;
        }
        let mut diffs: Vec<(usize, Leaves)> = vec![(i, Vec::new())];
        for j in i + 1..accesses.len() {
            if taken[j] || !eligible(j) || !compatible(i, j) {
                continue;
            }
            if let Some(ls) = t.leaves(accesses[i].0, accesses[j].0).filter(|ls| ls.len() <= MAX_LEAVES) {
                diffs.push((j, ls));
            }
        }
        // The leaves' paths, and the first access's constant at each.
        let mut paths: Vec<(Vec<u8>, i64)> = Vec::new();
        for (_, ls) in &diffs {
            for (p, c, _) in ls {
                if !paths.iter().any(|(q, _)| q == p) {
                    paths.push((p.clone(), *c));
                }
            }
        }
        paths.sort();
        if paths.is_empty() || paths.len() > MAX_LEAVES || diffs.len() <= 1 << paths.len() {
            continue;
        }
        let members: Vec<(usize, Vec<i64>)> = diffs
            .iter()
            .map(|(j, ls)| (*j, paths.iter().map(|(p, c0)| ls.iter().find(|(q, ..)| q == p).map_or(*c0, |&(_, _, c)| c)).collect()))
            .collect();
        let lows: Vec<i64> = (0..paths.len()).map(|k| members.iter().map(|(_, v)| v[k]).min().unwrap_or(0)).collect();
        let highs: Vec<i64> = (0..paths.len()).map(|k| members.iter().map(|(_, v)| v[k]).max().unwrap_or(0)).collect();
        let mut corners = Vec::new();
        for mask in 0..1usize << paths.len() {
            let corner: Vec<i64> = (0..paths.len()).map(|k| if mask >> k & 1 == 1 { highs[k] } else { lows[k] }).collect();
            match members.iter().find(|(_, v)| *v == corner) {
                Some(&(j, _)) => corners.push(j),
                None => break,
            }
        }
        if corners.len() < 1 << paths.len() {
            continue;
        }
        // Where every node holding a leaf moves the same way with it, two opposite corners
        // bound every node (see the module docs, "Two corners").
        let directions: Option<Vec<i64>> = paths.iter().map(|(p, _)| t.leaf_direction(accesses[i].0, p)).collect();
        if let Some(d) = directions {
            let at = |low: bool| -> Vec<i64> { (0..paths.len()).map(|k| if (d[k] > 0) == low { lows[k] } else { highs[k] }).collect() };
            let (low, high) = (at(true), at(false));
            let find = |c: &Vec<i64>| members.iter().find(|(_, v)| v == c).map(|&(j, _)| j);
            if let (Some(l), Some(h)) = (find(&low), find(&high)) {
                corners = vec![l, h];
            }
        }
        for (j, _) in &members {
            taken[*j] = true;
        }
        found.push(Box { paths: paths.into_iter().map(|(p, _)| p).collect(), members, corners });
    }
    found
}

/// The nodes of `e` on the paths `paths` (from the root to each leaf, both included).
fn path_nodes(e: &Expr, paths: &[Vec<u8>]) -> Vec<*const Expr> {
    let mut nodes = Vec::new();
    for path in paths {
        let mut at = e;
        nodes.push(at as *const Expr);
        for &n in path {
            let next = match (&at.kind, n) {
                (ExprKind::Cast(a), 0) | (ExprKind::Binary(_, a, _), 0) | (ExprKind::PtrAdd { ptr: a, .. }, 0) => a,
                (ExprKind::Binary(_, _, b), 1) | (ExprKind::PtrAdd { index: b, .. }, 1) => b,
                _ => break,
            };
            at = next;
            nodes.push(at as *const Expr);
        }
    }
    nodes.sort();
    nodes.dedup();
    nodes
}

/// The groups of the accesses `eligible` admits whose addresses are one constant apart
/// ([`Translator::diff`] with `constant_index`), two accesses in one group only where
/// `compatible` says so. Each access joins the first group whose first member it differs from in
/// the group's leaf; one that joins none starts a group when a later compatible access differs
/// from it in one leaf.
fn groups_apart(t: &Translator<'_, '_>, accesses: &[(&Expr, Kind, bool, bool)], var: LocalId, derived: &HashMap<u32, &Expr>, constant_index: bool, eligible: impl Fn(usize) -> bool, compatible: impl Fn(usize, usize) -> bool) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    for (i, &(addr, ..)) in accesses.iter().enumerate() {
        if !eligible(i) {
            continue;
        }
        let joined = groups.iter_mut().any(|g| {
            if !compatible(g.first, i) {
                return false;
            }
            match t.diff(accesses[g.first].0, addr, var, derived, constant_index) {
                Diff::Leaf(p, _, c) if p == g.path => {
                    g.members.push((i, c));
                    true
                }
                _ => false,
            }
        });
        if joined {
            continue;
        }
        // A new group, its leaf found from the first access that joins it.
        for (j, &(other, ..)) in accesses.iter().enumerate().skip(i + 1) {
            if !compatible(i, j) {
                continue;
            }
            if let Diff::Leaf(p, c, _) = t.diff(addr, other, var, derived, constant_index) {
                groups.push(Group { first: i, path: p, members: vec![(i, c)] });
                break;
            }
        }
    }
    groups
}

impl Translator<'_, '_> {
    /// `constant_index`: a leaf may also be a pointer step's constant index in a node that does
    /// not read the counter (the covering reads, see the module docs).
    fn diff(&self, a: &Expr, b: &Expr, var: LocalId, derived: &HashMap<u32, &Expr>, constant_index: bool) -> Diff {
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
        let is_step = matches!(a.kind, ExprKind::PtrAdd { .. });
        for (n, (x, y)) in pairs.into_iter().enumerate() {
            match self.diff(x, y, var, derived, constant_index) {
                Diff::Same => {}
                Diff::Other => return Diff::Other,
                Diff::Leaf(mut path, cx, cy) => {
                    // One leaf only, under a node the entry checks compute exactly (one that
                    // reads the counter).
                    let index_leaf = constant_index && is_step && n == 1 && path.is_empty();
                    if found.is_some() || !may_hold_leaf || !(index_leaf || self.depends(a, var, derived)) {
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

impl Translator<'_, '_> {
    /// The integer leaves in which the addresses `a` and `b` differ, each by its path of child
    /// positions and its two values, when they are otherwise equal node for node and every node
    /// above a leaf is an integer sum, difference or conversion, a product whose other operand
    /// holds no leaf, or a pointer step of a small constant element size (so that a node's exact
    /// value is affine in the leaves, see the module docs); `None` otherwise.
    fn leaves(&self, a: &Expr, b: &Expr) -> Option<Leaves> {
        if a.ty != b.ty {
            return None;
        }
        let int = |e: &Expr| matches!(self.kind_of(e.ty), Kind::I32 | Kind::U32 | Kind::I64 | Kind::U64);
        let (pairs, one_side): (Vec<(&Expr, &Expr)>, bool) = match (&a.kind, &b.kind) {
            (ExprKind::Int(x), ExprKind::Int(y)) => {
                return Some(if x == y { Vec::new() } else { vec![(Vec::new(), *x as i64, *y as i64)] });
            }
            (ExprKind::Cast(x), ExprKind::Cast(y)) if int(a) && int(x) => (vec![(&**x, &**y)], false),
            (ExprKind::Binary(o, x1, x2), ExprKind::Binary(p, y1, y2)) if o == p && matches!(o, BinOp::Add | BinOp::Sub | BinOp::Mul) && int(a) => {
                (vec![(&**x1, &**y1), (&**x2, &**y2)], *o == BinOp::Mul)
            }
            (ExprKind::PtrAdd { ptr: p1, index: i1, elem: e1 }, ExprKind::PtrAdd { ptr: p2, index: i2, elem: e2 })
                if e1 == e2 && self.p.types.size_of(*e1).is_some_and(|s| s < 1 << 20) =>
            {
                (vec![(&**p1, &**p2), (&**i1, &**i2)], false)
            }
            _ => return a.same_computation(b, true).then(Vec::new),
        };
        let mut found = Vec::new();
        let mut sides = 0;
        for (n, (x, y)) in pairs.into_iter().enumerate() {
            let mut ls = self.leaves(x, y)?;
            if !ls.is_empty() {
                sides += 1;
            }
            for l in &mut ls {
                l.0.insert(0, n as u8);
            }
            found.extend(ls);
        }
        if one_side && sides > 1 {
            return None;
        }
        Some(found)
    }
}

/// A run of reads one constant apart whose byte ranges over the loop form one interval (see the
/// module docs): its members, and the two whose first address is the smallest (`low`) and
/// whose last address is the largest (`high`).
pub(crate) struct Run {
    pub(crate) members: Vec<usize>,
    pub(crate) low: usize,
    pub(crate) high: usize,
}

/// The runs of the loop's reads that the lane version tests as one each against a store (see
/// the module docs). Accesses that store are in none.
pub(crate) fn covering_reads(t: &Translator<'_, '_>, accesses: &[(&Expr, Kind, bool, bool)], var: LocalId, derived: &HashMap<u32, &Expr>) -> Vec<Run> {
    let groups = groups_apart(t, accesses, var, derived, true, |i| !accesses[i].3, |i, j| accesses[i].1 == accesses[j].1 && !accesses[j].3);
    let mut runs = Vec::new();
    for Group { first, path, mut members } in groups {
        let (addr, k, _, _) = accesses[first];
        let Some(slope) = t.leaf_slope(addr, &path) else { continue };
        if slope == 0 || slope.unsigned_abs() > k.bytes() {
            continue;
        }
        // Split into runs of consecutive constants, in the order of the constants (then of
        // the accesses, so the code is the same in every run).
        members.sort_by_key(|&(i, c)| (c, i));
        let mut start = 0;
        for end in 1..=members.len() {
            let breaks = end == members.len() || members[end].1.checked_sub(members[end - 1].1).is_none_or(|d| d > 1);
            if !breaks {
                continue;
            }
            let run = &members[start..end];
            if run.len() >= 2 {
                let (lowest, highest) = (run[0].0, run[run.len() - 1].0);
                let (low, high) = if slope > 0 { (lowest, highest) } else { (highest, lowest) };
                runs.push(Run { members: run.iter().map(|&(i, _)| i).collect(), low, high });
            }
            start = end;
        }
    }
    runs
}

/// For each of the accesses `eligible` admits: the access of its group one constant apart whose
/// address it is computed from, and the constant bytes between the two addresses (the leaf's
/// difference times its slope, [`Translator::leaf_slope`]), when that is known and fits an
/// address offset. The exact addresses are affine in the leaf, and the entry checks make every
/// address its exact value at every iteration, so the difference is the same at every one
/// (the streams of [`crate::streams`]: one base register per group, not per access).
pub(crate) fn stream_leaders(t: &Translator<'_, '_>, accesses: &[(&Expr, Kind, bool, bool)], var: LocalId, derived: &HashMap<u32, &Expr>, eligible: impl Fn(usize) -> bool) -> Vec<Option<(usize, i64)>> {
    let groups = groups_apart(t, accesses, var, derived, false, &eligible, |i, j| accesses[i].1 == accesses[j].1 && eligible(j));
    let mut leaders = vec![None; accesses.len()];
    for Group { first, path, members } in groups {
        let Some(slope) = t.leaf_slope(accesses[first].0, &path) else { continue };
        let Some(&(_, c0)) = members.iter().find(|&&(i, _)| i == first) else { continue };
        for (i, c) in members {
            let bytes = c.checked_sub(c0).and_then(|d| d.checked_mul(slope)).filter(|b| b.unsigned_abs() < 1 << 30);
            if i != first {
                leaders[i] = bytes.map(|b| (first, b));
            }
        }
    }
    leaders
}

impl Translator<'_, '_> {
    /// The direction (1 or -1) in which every node of `e` on the path `path` to an integer
    /// leaf (a path of [`Translator::leaves`]) moves as the leaf grows, when it is the same for
    /// all of them and known at translation: each step up from a node other than the leaf
    /// keeps the direction (a sum, the left side of a difference, a conversion, a product by a
    /// positive constant, a pointer step); the step up from the leaf may turn it (`y - dy`,
    /// `dy * -3`). `None` otherwise (a product by a loop-invariant value of unknown sign).
    fn leaf_direction(&self, e: &Expr, path: &[u8]) -> Option<i64> {
        let Some((&n, rest)) = path.split_first() else {
            return matches!(e.kind, ExprKind::Int(_)).then_some(1);
        };
        let (child, step): (&Expr, i64) = match (&e.kind, n) {
            (ExprKind::Cast(a), 0) => (a, 1),
            (ExprKind::Binary(BinOp::Add, a, _), 0) | (ExprKind::Binary(BinOp::Sub, a, _), 0) => (a, 1),
            (ExprKind::Binary(BinOp::Add, _, b), 1) => (b, 1),
            (ExprKind::Binary(BinOp::Sub, _, b), 1) => (b, -1),
            (ExprKind::Binary(BinOp::Mul, a, b), _) => {
                let (leaf_side, other) = if n == 0 { (a, b) } else { (b, a) };
                match other.kind {
                    ExprKind::Int(w) if w != 0 => (leaf_side, if (w as i64) > 0 { 1 } else { -1 }),
                    _ => return None,
                }
            }
            (ExprKind::PtrAdd { ptr, .. }, 0) => (ptr, 1),
            (ExprKind::PtrAdd { index, elem, .. }, 1) if self.p.types.size_of(*elem).is_some_and(|s| s > 0) => (index, 1),
            _ => return None,
        };
        let below = self.leaf_direction(child, rest)?;
        let here = step * below;
        (rest.is_empty() || here == below).then_some(here)
    }

    /// The bytes by which address `e` moves per unit of the integer leaf at `path` (a path of
    /// [`Diff::Leaf`]), when that is a constant: the product of the constant factors on the
    /// path (a product's other operand, a pointer step's element size); `None` otherwise.
    fn leaf_slope(&self, e: &Expr, path: &[u8]) -> Option<i64> {
        let Some((&n, rest)) = path.split_first() else {
            return matches!(e.kind, ExprKind::Int(_)).then_some(1);
        };
        match (&e.kind, n) {
            (ExprKind::Cast(a), 0) => self.leaf_slope(a, rest),
            (ExprKind::Binary(BinOp::Add, a, _), 0) | (ExprKind::Binary(BinOp::Sub, a, _), 0) => self.leaf_slope(a, rest),
            (ExprKind::Binary(BinOp::Add, _, b), 1) => self.leaf_slope(b, rest),
            (ExprKind::Binary(BinOp::Sub, _, b), 1) => self.leaf_slope(b, rest)?.checked_neg(),
            (ExprKind::Binary(BinOp::Mul, a, b), _) => {
                let (leaf_side, other) = if n == 0 { (a, b) } else { (b, a) };
                match other.kind {
                    ExprKind::Int(w) => self.leaf_slope(leaf_side, rest)?.checked_mul(w as i64),
                    _ => None,
                }
            }
            (ExprKind::PtrAdd { ptr, .. }, 0) => self.leaf_slope(ptr, rest),
            (ExprKind::PtrAdd { index, elem, .. }, 1) => {
                let size = i64::try_from(self.p.types.size_of(*elem)?).ok()?;
                self.leaf_slope(index, rest)?.checked_mul(size)
            }
            _ => None,
        }
    }
}
