//! Lanes across the outer loop of a nest (issue 15): `for (j) { t = 0; for (k) t += A[k][j] *
//! x[k]; y[j] = t; }` runs two (`double`) or four (`float`, `int`) consecutive `j` iterations at
//! once, each lane keeping its own `t` and its own order of additions, so that the inner loop
//! reads `A[k][j..j+L]` as one vector instead of a column one element at a time (what gcc -O2
//! does with such a nest: the column loops of atax and bicg, 2mm's products).
//!
//! **Which nests.** An upward counted loop ([`Translator::loop_counter`]) whose body is, once its
//! blocks are flattened: the assignments of its derived locals (`j = lb + i*step`, as
//! [`crate::loops`]), straight-line statements, one inner `for` loop, straight-line statements.
//! - The inner loop is a counted loop ([`crate::loops`]) that starts and ends at the same values
//!   in every outer iteration (its `init` assigns its counter a value the outer body does not
//!   change; its bound likewise), has no derived locals and no unrolled loops, stores only at
//!   addresses that do not move with its counter (`x[i] = x[i] + A[j][i] * y[j]`, every access
//!   affine in its counter), and assigns only temporaries of the lanes' kind.
//! - Every access of the nest is affine in the outer counter, the inner loop's in both counters,
//!   with no product of the two.
//! - The statements, in the order they run (the inner body once), are element-wise code in the
//!   sense of [`crate::simd`]: temporaries assigned before they are read, values that move with
//!   the outer counter, values the same in every lane (the inner counter among them), at least
//!   one store, and stores only at addresses that move with the outer counter (and not with the
//!   inner one).
//!
//! **Same results.** Each lane runs its own outer iteration's operations in the scalar order (the
//! inner loop's reduction in its lane: no reassociation). What changes is the order of accesses
//! of different outer iterations, so at entry the vector loop runs only when that order cannot
//! matter: every access lies in its allocation at the four corners of the nest (both counters at
//! their first and last values; an affine address with no product of the counters lies between
//! those), every integer step of the addresses is exact there, every access that moves with the
//! outer counter moves by exactly its size, and every store's bytes over the whole nest are
//! either another access's bytes at every iteration (both move with the outer counter only) or
//! apart from all its bytes. The inner
//! loop runs at least once and the fuel the scalar code would take for the groups of lanes (one
//! unit per outer iteration and per inner iteration) is at hand. Otherwise, and for the last
//! 1..=L outer iterations (so that every local ends with the last iteration's value), the loop
//! runs as before, from the first iteration the lanes did not run.
//!
//! **Held elements.** The inner loop's accesses at an address that moves with the outer counter
//! only (`x[i]` in `x[i] = x[i] + A[j][i] * y[j]`) are each lane's one element, read into a
//! vector variable before the inner loop and, when it writes them, stored after it (as
//! [`crate::invariant`] does for one iteration), when at entry their bytes over the whole nest
//! are apart from every other access's but those of the statements around the inner loop at the
//! same address (`C[i][j] = 0; for (k) C[i][j] += A[i][k] * B[k][j];`), which run before the
//! load and after the store.
//!
//! **Two groups per step.** A small nest runs two groups of lanes per step of its outer loop
//! (`j .. j+2L`), each statement of the first group, then the same statement of the second: the
//! checks above make the order of different outer iterations' accesses irrelevant, and the
//! inner loop's two chains of vector additions overlap.

use crate::{HashMap, HashSet};

use cranelift_codegen::entity::EntityRef;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, Value};

use accsim_core::exec::value::Kind;
use accsim_core::ir::{BinOp, Expr, ExprKind, LocalId, Place, Stmt, StmtKind};

use crate::loops::{CountedLoop, Counter, ExactMemo};
use crate::simd::{lane_flags, lane_type, Lanes};
use crate::translate::{Translator, R};

/// Largest inner trip count (so that the fuel of the groups, outer trips under the exact limit
/// times this, stays far from 2^64).
const INNER_TRIP_LIMIT: i64 = 1 << 24;

/// Groups of lanes per step for a nest of at most [`WIDE_ACCESSES`] accesses: two independent
/// chains of vector operations in the inner loop (a reduction's additions are bound by their
/// latency, not by the processor's throughput).
const WIDE: i64 = 2;
const WIDE_ACCESSES: usize = 12;

/// A loop nest whose outer iterations run in lanes (see the module docs).
pub struct OuterPlan<'e> {
    counter: Counter<'e>,
    /// The nest as [`crate::simd`] classifies its expressions.
    view: CountedLoop<'e>,
    /// The outer body's statements before and after the inner loop.
    before: Vec<&'e Stmt>,
    after: Vec<&'e Stmt>,
    inner: Counter<'e>,
    /// The inner counter's first value and the inner loop's body.
    inner_first: &'e Expr,
    inner_body: &'e Stmt,
    /// The temporaries the inner body assigns, carried around it in vector variables.
    carried: Vec<(u32, Kind)>,
    /// `view.accesses[..inner_from]` are the statements' around the inner loop, the others the
    /// inner loop's.
    inner_from: usize,
    lanes: i64,
    /// Groups of lanes per step of the wide loop: [`WIDE`] for a small nest, else 1.
    wide: i64,
    /// The inner loop's accesses at an address that moves with the outer counter only, grouped
    /// by address (indices of `view.accesses`), with their kind and whether the group writes:
    /// held in a vector variable around the inner loop.
    held: Vec<(Vec<usize>, Kind, bool)>,
    /// The accesses around the inner loop at a held element's address (`C[i][j] = 0` before
    /// `for (k) C[i][j] += …`), with the group: the same bytes at every iteration, read or
    /// written in memory before the group's load and after its store.
    held_around: Vec<(usize, usize)>,
}

/// The statements of `s` with its blocks flattened, empty statements left out.
fn flatten<'e>(s: &'e Stmt, out: &mut Vec<&'e Stmt>) {
    match &s.kind {
        StmtKind::Block(ss) => ss.iter().for_each(|s| flatten(s, out)),
        StmtKind::Empty => {}
        _ => out.push(s),
    }
}

impl<'a, 'b> Translator<'a, 'b> {
    /// The plan of `for (…; cond; step) body` with lanes across its iterations, when it is a
    /// nest of the module docs' shape.
    pub fn outer_plan<'e>(&self, cond: Option<&'e Expr>, step: Option<&'e Expr>, body: &'e Stmt) -> Option<OuterPlan<'e>>
    where
        'a: 'e,
    {
        let counter = self.loop_counter(cond, step)?;
        if !counter.up {
            return None;
        }
        let mut stmts = Vec::new();
        flatten(body, &mut stmts);
        let at = stmts.iter().position(|s| matches!(s.kind, StmtKind::For { .. }))?;
        let (before, rest) = stmts.split_at(at);
        let (inner_stmt, after) = rest.split_first()?;
        let StmtKind::For { init: Some(init), cond: icond, step: istep, body: ibody } = &inner_stmt.kind else { return None };
        if self.unrolled.contains_key(&(*inner_stmt as *const Stmt)) {
            return None;
        }
        let inner_plan = self.counted_loop(icond.as_ref(), istep.as_ref(), ibody)?;
        let inner = inner_plan.counter();
        if !inner.up || !inner_plan.all_direct || !inner_plan.memory_locals.is_empty() || !inner_plan.derived.is_empty() || !inner_plan.prepaid.is_empty() || inner_plan.jumps || inner_plan.atomic || inner_plan.may_trap || inner_plan.accesses.iter().any(|a| a.3 && self.depends(a.0, inner.var, &inner_plan.derived)) {
            return None;
        }
        // `k = first`: the inner counter's first value, of its own kind.
        let mut init: &Stmt = init;
        while let StmtKind::Block(ss) = &init.kind {
            let [one] = ss.as_slice() else { return None };
            init = one;
        }
        let StmtKind::Expr(e) = &init.kind else { return None };
        let ExprKind::Assign { place: Place::Local(k), value: inner_first } = &e.kind else { return None };
        if *k != inner.var || self.kind_of(inner_first.ty) != inner.var_kind {
            return None;
        }
        // What the statements around the inner loop read, write and assign.
        let around: Vec<&Stmt> = before.iter().chain(after).copied().collect();
        let (accesses, counts) = self.straight_walk(&around)?;
        let mut assigned: HashSet<u32> = counts.keys().copied().collect();
        assigned.extend(inner_plan.assigned.iter().copied());
        assigned.insert(inner.var.0);
        if assigned.contains(&counter.var.0) || counts.contains_key(&inner.var.0) {
            return None;
        }
        // The same bound and the same inner loop in every outer iteration.
        if !self.invariant(counter.bound, &assigned, counter.var, true) {
            return None;
        }
        if !self.invariant(inner_first, &assigned, counter.var, false) || !self.invariant(inner.bound, &assigned, counter.var, false) {
            return None;
        }
        // The outer counter's derived locals: assigned once, at the top, from an affine
        // expression of it.
        let mut derived = HashMap::default();
        for s in before {
            let StmtKind::Expr(e) = &s.kind else { break };
            let ExprKind::Assign { place: Place::Local(d), value } = &e.kind else { break };
            if self.is_memory_local(*d) || counts.get(&d.0) != Some(&1) || inner_plan.assigned.contains(&d.0) || !matches!(self.kind_of(e.ty), Kind::I32 | Kind::I64 | Kind::U32 | Kind::U64) || !self.affine(value, counter.var, &assigned, &derived) {
                break;
            }
            derived.insert(d.0, &**value);
        }
        // Every access affine: around the inner loop in the outer counter, inside it in both.
        let mut outer_view = assigned.clone();
        outer_view.remove(&inner.var.0);
        let both = [counter.var, inner.var];
        if !accesses.iter().all(|a| self.affine(a.0, counter.var, &assigned, &derived)) {
            return None;
        }
        if !inner_plan.accesses.iter().all(|a| self.affine(a.0, counter.var, &outer_view, &derived) && !self.product_of_counters(a.0, &both, &derived)) {
            return None;
        }
        // An access that surely moves by a row with the outer counter would fail the stride
        // check at every entry: no lanes (and no code for them).
        if accesses.iter().chain(&inner_plan.accesses).any(|a| self.moves_by_rows(a.0, counter.var, &derived)) {
            return None;
        }
        // The inner loop's temporaries, carried around it.
        let mut carried = Vec::new();
        for &l in &inner_plan.assigned {
            let ty = self.func.locals.get(l as usize)?.ty;
            carried.push((l, self.kind_of(ty)));
        }
        carried.sort_by_key(|c| c.0);
        let inner_from = accesses.len();
        let mut all = accesses;
        all.extend(inner_plan.accesses.iter().copied());
        // The inner loop's elements of each lane: loaded before it, stored after it.
        let mut held: Vec<(Vec<usize>, Kind, bool)> = Vec::new();
        for (i, &(addr, k, _, write)) in all.iter().enumerate().skip(inner_from) {
            if self.depends(addr, inner.var, &HashMap::default()) || !self.depends(addr, counter.var, &derived) {
                continue;
            }
            match held.iter_mut().find(|(members, hk, _)| *hk == k && all[members[0]].0.same_computation(addr, false)) {
                Some(h) => {
                    h.0.push(i);
                    h.2 |= write;
                }
                None => held.push((vec![i], k, write)),
            }
        }
        let n_accesses = all.len();
        let view = CountedLoop::lanes_view(counter, derived, all, outer_view);
        let mut order: Vec<&Stmt> = before.to_vec();
        order.push(ibody);
        order.extend(after.iter().copied());
        let size = self.lane_size(&view, &order)?;
        let lane_kind = |k: Kind| matches!(k, Kind::F64 | Kind::F32 | Kind::I32 | Kind::U32 | Kind::I64 | Kind::U64) && k.bytes() == size;
        if !carried.iter().all(|&(_, k)| lane_kind(k)) {
            return None;
        }
        held.retain(|h| lane_kind(h.1));
        let held_around: Vec<(usize, usize)> = (0..inner_from)
            .filter_map(|i| {
                let all = &view.accesses;
                held.iter().position(|(members, k, _)| *k == all[i].1 && all[members[0]].0.same_computation(all[i].0, false)).map(|g| (i, g))
            })
            .collect();
        Some(OuterPlan { counter, view, before: before.to_vec(), after: after.to_vec(), inner, inner_first, inner_body: ibody, carried, inner_from, lanes: (16 / size) as i64, wide: if n_accesses <= WIDE_ACCESSES { WIDE } else { 1 }, held, held_around })
    }

    /// Whether the address `a` depends on the counter `var` only through the row index of an
    /// array of fixed-size rows (`A[i][k]` with `i` the counter): it moves by a row, not by an
    /// element, per iteration.
    fn moves_by_rows(&self, a: &Expr, var: LocalId, derived: &HashMap<u32, &Expr>) -> bool {
        let ExprKind::PtrAdd { ptr, index, elem: access_elem } = &a.kind else { return false };
        if self.depends(index, var, derived) {
            return false;
        }
        let ExprKind::PtrAdd { ptr: base, index: row, elem } = &ptr.kind else { return false };
        let row_bytes = self.p.types.size_of(*elem).unwrap_or(0);
        let elem_bytes = self.p.types.size_of(*access_elem).unwrap_or(0);
        !self.depends(base, var, derived) && self.depends(row, var, derived) && row_bytes != elem_bytes
    }

    /// Whether `e` multiplies two values that both depend on the counters `vars`.
    fn product_of_counters(&self, e: &Expr, vars: &[LocalId], derived: &HashMap<u32, &Expr>) -> bool {
        let p = |x: &Expr| self.product_of_counters(x, vars, derived);
        match &e.kind {
            ExprKind::Binary(BinOp::Mul, a, b) => (self.depends_any(a, vars, derived) && self.depends_any(b, vars, derived)) || p(a) || p(b),
            ExprKind::Binary(_, a, b) => p(a) || p(b),
            ExprKind::Cast(a) | ExprKind::Unary(_, a) | ExprKind::Load(a) => p(a),
            ExprKind::PtrAdd { ptr, index, .. } => p(ptr) || p(index),
            ExprKind::Local(l) => derived.get(&l.0).is_some_and(|d| p(d)),
            _ => false,
        }
    }

    // -----------------------------------------------------------------------------------------
    // Emission.

    /// At the loop's entry (its `init` translated): the checks and the groups of lanes of
    /// `plan`, leaving the loop's counter at the first iteration they did not run, for the loop
    /// as it is to run the rest.
    pub fn outer_lanes(&mut self, plan: &OuterPlan<'_>) -> R<()> {
        let var = self.vars[plan.counter.var.0 as usize];
        let v0 = self.b.use_var(var);
        let bound = self.expr(plan.counter.bound)?;
        let (mut ok, last, trip, runs_cc) = self.trip_checks(&plan.counter, v0, bound);
        // The inner loop, the same in every outer iteration, runs at least once.
        let k0 = self.expr(plan.inner_first)?;
        let k_bound = self.expr(plan.inner.bound)?;
        let (inner_ok, k_last, k_trip, k_cc) = self.trip_checks(&plan.inner, k0, k_bound);
        ok = self.b.ins().band(ok, inner_ok);
        let short = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, k_trip, INNER_TRIP_LIMIT);
        ok = self.b.ins().band(ok, short);
        // Steps of [`WIDE`] groups of lanes while an iteration is left after the step's, then
        // single groups while one is left after the group's (the last 1..=L iterations run as
        // before): (trip - 1) / (WIDE*L) steps, then (the rest - 1) / L groups.
        let shift = plan.lanes.trailing_zeros() as i64;
        let wide_lanes = plan.lanes * plan.wide;
        let wide_shift = wide_lanes.trailing_zeros() as i64;
        let before_last = self.b.ins().iadd_imm_s(trip, -1);
        let wide_steps = self.b.ins().ushr_imm_s(before_last, wide_shift);
        let wide_iterations = self.b.ins().ishl_imm_s(wide_steps, wide_shift);
        let rest_before_last = self.b.ins().isub(before_last, wide_iterations);
        let singles = self.b.ins().ushr_imm_s(rest_before_last, shift);
        let single_iterations = self.b.ins().ishl_imm_s(singles, shift);
        let iterations = self.b.ins().iadd(wide_iterations, single_iterations);
        let some = self.b.ins().icmp_imm_s(IntCC::SignedGreaterThan, iterations, 0);
        ok = self.b.ins().band(ok, some);

        // Every access at the corners of the nest, in its allocation; the ends of its bytes.
        let outer_var = plan.counter.var;
        let inner_var = plan.inner.var;
        let next = self.b.ins().iadd_imm_s(v0, 1);
        let mut direct = HashMap::default();
        let mut ranges = Vec::with_capacity(plan.view.accesses.len());
        let mut moving = Vec::with_capacity(plan.view.accesses.len());
        let mut inner_moving = Vec::with_capacity(plan.view.accesses.len());
        // Parts shared by several addresses computed once (`Translator::exact_at`).
        self.exact_memo = Some(ExactMemo::default());
        for (i, &(addr, k, read, write)) in plan.view.accesses.iter().enumerate() {
            let inside = i >= plan.inner_from;
            let ks: &[Value] = if inside { &[k0, k_last] } else { &[] };
            let at = |v: Value, kv: Option<Value>| match kv {
                Some(kv) => vec![(outer_var, v), (inner_var, kv)],
                None => vec![(outer_var, v)],
            };
            let mut corners = Vec::with_capacity(4);
            for v in [v0, last] {
                if ks.is_empty() {
                    corners.push(at(v, None));
                } else {
                    for &kv in ks {
                        corners.push(at(v, Some(kv)));
                    }
                }
            }
            let mut ends = Vec::with_capacity(corners.len());
            for c in &corners {
                let (p, fits) = self.exact_at(addr, c, &plan.view.derived)?;
                ok = self.b.ins().band(ok, fits);
                ends.push(p);
            }
            let (mut lo, mut hi) = (ends[0], ends[0]);
            for &p in &ends[1..] {
                let below = self.b.ins().icmp(IntCC::UnsignedLessThan, p, lo);
                lo = self.b.ins().select(below, p, lo);
                let above = self.b.ins().icmp(IntCC::UnsignedGreaterThan, p, hi);
                hi = self.b.ins().select(above, p, hi);
            }
            let (in_bounds, bias) = self.ends_in_place(lo, hi, k.bytes(), read, write);
            ok = self.b.ins().band(ok, in_bounds);
            direct.insert(addr as *const Expr, bias);
            // An access that moves with the outer counter moves by its size.
            let moves = self.depends(addr, outer_var, &plan.view.derived);
            if moves {
                let second = match ks.first() {
                    Some(&kv) => at(next, Some(kv)),
                    None => at(next, None),
                };
                let (p, _) = self.exact_at(addr, &second, &plan.view.derived)?;
                let stride = self.b.ins().isub(p, ends[0]);
                let unit = self.b.ins().icmp_imm_s(IntCC::Equal, stride, k.bytes() as i64);
                ok = self.b.ins().band(ok, unit);
            }
            moving.push(moves);
            inner_moving.push(inside && self.depends(addr, inner_var, &HashMap::default()));
            ranges.push((lo, hi, ends[0]));
        }
        self.exact_memo = None;
        let mut held_of: HashMap<usize, usize> = plan.held.iter().enumerate().flat_map(|(g, h)| h.0.iter().map(move |&i| (i, g))).collect();
        held_of.extend(plan.held_around.iter().copied());
        // Each store's bytes: another access's at every outer iteration, or apart from its bytes.
        for (s, &(_, sk, _, s_writes)) in plan.view.accesses.iter().enumerate() {
            if !s_writes {
                continue;
            }
            for (x, &(_, xk, _, x_writes)) in plan.view.accesses.iter().enumerate() {
                if x == s || (x_writes && x < s) {
                    continue;
                }
                let ((s_lo, s_hi, s_first), (x_lo, x_hi, x_first)) = (ranges[s], ranges[x]);
                let s_end = self.b.ins().iadd_imm_s(s_hi, sk.bytes() as i64);
                let x_end = self.b.ins().iadd_imm_s(x_hi, xk.bytes() as i64);
                let below = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, s_end, x_lo);
                let above = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, x_end, s_lo);
                let mut apart = self.b.ins().bor(below, above);
                // A held element is apart from every access but its group's (the same address
                // at every iteration).
                let (s_group, x_group) = (held_of.get(&s), held_of.get(&x));
                if s_group.is_some() || x_group.is_some() {
                    if s_group == x_group {
                        continue;
                    }
                } else if moving[s] && moving[x] && !inner_moving[s] && !inner_moving[x] && sk.bytes() == xk.bytes() {
                    let same = self.b.ins().icmp(IntCC::Equal, s_first, x_first);
                    apart = self.b.ins().bor(apart, same);
                }
                ok = self.b.ins().band(ok, apart);
            }
        }

        // The values at entry of the variables the nest does not assign.
        let mut frozen = HashMap::default();
        for (i, &v) in self.vars.clone().iter().enumerate() {
            let i32_ = i as u32;
            if i32_ != outer_var.0 && i32_ != inner_var.0 && !plan.view.assigned.contains(&i32_) {
                frozen.insert(v.index(), self.read_var(v));
            }
        }
        for v in [self.table, self.table_len] {
            frozen.insert(v.index(), self.read_var(v));
        }

        // The fuel of the groups: one unit per outer iteration, one per inner iteration.
        let per_outer = self.b.ins().iadd_imm_s(k_trip, 1);
        let need = self.b.ins().imul(iterations, per_outer);
        let (rest, scalar) = (self.b.create_block(), self.b.create_block());
        let first_left = self.b.append_block_param(rest, types::I64);
        self.take_fuel(ok, need, scalar)?;
        let (wide, single_test, single) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        let at_wide = self.b.append_block_param(wide, types::I64);
        let at_single_test = self.b.append_block_param(single_test, types::I64);
        let at_single = self.b.append_block_param(single, types::I64);
        let any_wide = self.b.ins().icmp_imm_s(IntCC::SignedGreaterThan, wide_steps, 0);
        self.b.ins().brif(any_wide, wide, &[v0.into()], single_test, &[v0.into()]);
        for (block, c, groups) in [(wide, at_wide, plan.wide), (single, at_single, 1)] {
            self.b.switch_to_block(block);
            let saved = (std::mem::take(&mut self.direct), std::mem::take(&mut self.frozen), std::mem::take(&mut self.prepaid), std::mem::take(&mut self.held));
            self.frozen = frozen.clone();
            self.frozen.insert(var.index(), c);
            let r = self.outer_groups(plan, groups, &direct, &moving, k0, k_bound, k_cc);
            (self.direct, self.frozen, self.prepaid, self.held) = saved;
            r?;
            let next_c = self.b.ins().iadd_imm_s(c, plan.lanes * groups);
            let after = self.b.ins().iadd_imm_s(next_c, plan.lanes * groups);
            let more = self.b.ins().icmp(runs_cc, after, bound);
            let done = if groups > 1 { single_test } else { rest };
            self.b.ins().brif(more, block, &[next_c.into()], done, &[next_c.into()]);
        }
        self.b.switch_to_block(single_test);
        let after = self.b.ins().iadd_imm_s(at_single_test, plan.lanes);
        let more = self.b.ins().icmp(runs_cc, after, bound);
        self.b.ins().brif(more, single, &[at_single_test.into()], rest, &[at_single_test.into()]);

        self.b.switch_to_block(scalar);
        self.b.ins().jump(rest, &[v0.into()]);
        self.b.switch_to_block(rest);
        self.b.def_var(var, first_left);
        Ok(())
    }

    /// `groups` groups of lanes of the nest, one after the other statement by statement (the
    /// outer counter frozen at the first lane's value): group `g`'s moving accesses are the
    /// first group's moved by `g` times the lanes.
    #[allow(clippy::too_many_arguments)]
    fn outer_groups(&mut self, plan: &OuterPlan<'_>, groups: i64, direct: &HashMap<*const Expr, Value>, moving: &[bool], k0: Value, k_bound: Value, k_cc: IntCC) -> R<()> {
        let mut directs = Vec::with_capacity(groups as usize);
        for g in 0..groups {
            let mut d = direct.clone();
            if g > 0 {
                for (&(addr, k, ..), &moves) in plan.view.accesses.iter().zip(moving) {
                    if moves {
                        let bias = *direct.get(&(addr as *const Expr)).ok_or("internal: an access without its bias")?;
                        let shifted = self.b.ins().iadd_imm_s(bias, g * plan.lanes * k.bytes() as i64);
                        d.insert(addr as *const Expr, shifted);
                    }
                }
            }
            directs.push(d);
        }
        let mut temps: Vec<HashMap<u32, Lanes>> = vec![HashMap::default(); groups as usize];
        for (d, t) in directs.iter().zip(temps.iter_mut()) {
            self.direct = d.clone();
            for s in &plan.before {
                self.lanes_stmt(&plan.view, s, t)?;
            }
        }
        // The inner loop, its temporaries in vector variables, tested at the bottom (it runs
        // at least once).
        let mut vars = Vec::with_capacity(groups as usize);
        for t in &temps {
            let mut group_vars = Vec::with_capacity(plan.carried.len());
            for &(l, k) in &plan.carried {
                let v = self.b.declare_var(lane_type(k));
                let init = match t.get(&l).copied() {
                    Some(x) => self.vector(k, x),
                    None => {
                        let zero = self.b.ins().iconst(types::I64, 0);
                        self.vector(k, Lanes::Same(zero))
                    }
                };
                self.b.def_var(v, init);
                group_vars.push(v);
            }
            vars.push(group_vars);
        }
        // The held elements of each group's lanes, in vector variables around the inner loop.
        let mut held_vars = Vec::with_capacity(groups as usize);
        for d in &directs {
            self.direct = d.clone();
            let mut map = HashMap::default();
            let mut group_held = Vec::with_capacity(plan.held.len());
            for (members, k, _) in &plan.held {
                let first = plan.view.accesses[members[0]].0;
                let (host, offset) = self.lanes_address(first)?;
                let v = self.b.declare_var(lane_type(*k));
                let x = self.b.ins().load(lane_type(*k), lane_flags(), host, offset);
                self.b.def_var(v, x);
                for &m in members {
                    map.insert(plan.view.accesses[m].0 as *const Expr, (v, *k));
                }
                group_held.push(v);
            }
            held_vars.push((map, group_held));
        }
        let (body, exit) = (self.b.create_block(), self.b.create_block());
        let kv = self.b.append_block_param(body, types::I64);
        self.b.ins().jump(body, &[k0.into()]);
        self.b.switch_to_block(body);
        let k_var = self.vars[plan.inner.var.0 as usize];
        self.frozen.insert(k_var.index(), kv);
        for (((d, t), group_vars), (held, _)) in directs.iter().zip(temps.iter_mut()).zip(&vars).zip(&held_vars) {
            self.direct = d.clone();
            self.held = held.clone();
            for (&(l, _), &v) in plan.carried.iter().zip(group_vars) {
                let x = self.b.use_var(v);
                t.insert(l, Lanes::Each(x));
            }
            let r = self.lanes_stmt(&plan.view, plan.inner_body, t);
            self.held.clear();
            r?;
            for (&(l, k), &v) in plan.carried.iter().zip(group_vars) {
                let x = t.get(&l).copied().ok_or("internal: a carried temporary without its value")?;
                let x = self.vector(k, x);
                self.b.def_var(v, x);
            }
        }
        let k_next = self.b.ins().iadd_imm_s(kv, 1);
        let more = self.b.ins().icmp(k_cc, k_next, k_bound);
        self.b.ins().brif(more, body, &[k_next.into()], exit, &[]);
        self.b.switch_to_block(exit);
        // After the loop, the inner counter holds its value past the last iteration, and the
        // held elements the loop writes are stored.
        self.frozen.insert(k_var.index(), k_next);
        for (d, (_, group_held)) in directs.iter().zip(&held_vars) {
            self.direct = d.clone();
            for ((members, _, written), &v) in plan.held.iter().zip(group_held) {
                if *written {
                    let (host, offset) = self.lanes_address(plan.view.accesses[members[0]].0)?;
                    let x = self.b.use_var(v);
                    self.b.ins().store(lane_flags(), x, host, offset);
                }
            }
        }
        for ((d, t), group_vars) in directs.iter().zip(temps.iter_mut()).zip(&vars) {
            self.direct = d.clone();
            for (&(l, _), &v) in plan.carried.iter().zip(group_vars) {
                let x = self.b.use_var(v);
                t.insert(l, Lanes::Each(x));
            }
            for s in &plan.after {
                self.lanes_stmt(&plan.view, s, t)?;
            }
        }
        Ok(())
    }
}
