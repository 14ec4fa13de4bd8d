//! Compiling OpenACC directives of host code: data clauses become range computations, constructs
//! become enter/exit operations around their bodies, compute constructs launch their kernels.

use std::ops::Range;
use std::sync::Arc;

use crate::data::present::DataLifetime;
use crate::diag::{Diagnostic, Loc};
use crate::exec::machine::{Machine, Trap};
use crate::exec::openacc::{self as rt, CaptureArg, HostRange, ACC_ASYNC_NOVAL, ACC_ASYNC_SYNC};
use crate::exec::value::Kind;
use crate::ir::acc::*;
use crate::ir::*;

use super::deep_copy::{deep_enter, deep_exit, deep_update, DeepLayout};
use super::{Cx, ExprFn, Op, R};

/// How to find the host bytes a clause names, at run time.
struct VarPlan {
    name: String,
    /// The variable (`a` of `a[0:n]`).
    var: String,
    loc: Loc,
    shape: Shape,
    /// The pointer members of the data's element type, for Cray's `deep_copy`
    /// ([`super::deep_copy`]); `None` when it has none.
    deep: Option<Arc<DeepLayout>>,
}

enum Shape {
    /// A whole variable at `addr`, `size` bytes (`size_fn` for a VLA); for a pointer, what a
    /// clause naming it whole maps by default (item 7 of issue 12).
    Whole { addr: ExprFn, size: u64, size_fn: Option<ExprFn>, bare: Option<BarePointer> },
    /// `base[l0:n0][l1:n1]…` over contiguous memory: each dimension's byte stride and extent.
    Section { base: ExprFn, dims: Vec<Dim> },
    /// `a[l0:n0][l1:n1]…` through pointers (`double **a`, `int *a[N]`, `int ***a`, §2.7.1): the
    /// dimensions in groups, each group contiguous memory; every group but the last holds
    /// pointers, each the base of the next group's subarray.
    Jagged { base: ExprFn, groups: Vec<Vec<Dim>> },
}

/// A pointer named whole in a data clause (`present(A)` on `double *A`, `copy(C)` on a parameter
/// `double C[NI][NJ]`). OpenACC 2.0 maps the pointer itself (8 bytes), as gcc does; the PGI/NVIDIA
/// compilers, which the training labs and PolyBench/ACC were written for, map what it points to:
/// the parameter's declared extent, or the present data that contains its target. accsim does
/// the latter by default and 2.0's reading under `--strict-2.0`; `accsim info` and `check` note
/// the difference (`kernel::outline::bare_pointer_notes`).
struct BarePointer {
    /// `sizeof *p`, evaluated when the clause is: the rows of a variable-length array parameter
    /// `float C[n][p]` are `p * 4` bytes.
    elem: ExprFn,
    /// The declared extent of a parameter declared as an array (`n` of a VLA parameter, read from
    /// its count local when the clause is evaluated).
    extent: Option<ExprFn>,
}

/// One contiguous host range of a clause's data.
struct Piece {
    range: HostRange,
    /// The host addresses of the pointers in `range` that point at the next level (a pointer
    /// array of a jagged subarray); empty for data.
    slots: Vec<u64>,
}

impl Piece {
    fn is_pointer_array(&self) -> bool {
        !self.slots.is_empty()
    }
}

struct Dim {
    lower: Option<ExprFn>,
    length: Option<ExprFn>,
    /// The declared extent, for `[lo:]` on arrays: a constant, or a variable-length array's
    /// count local (known when the clause is evaluated, §2.6.5's "array has known size").
    extent: Option<ExprFn>,
    /// The byte size of one element of the dimension: a constant, or evaluated at run time when
    /// the element is (or contains) a variable-length array (the rows of `float V[n][p]` or of
    /// `float (*P)[p]` are `p * 4` bytes).
    stride: ExprFn,
}

impl Dim {
    /// The dimension's lower bound, length and element stride.
    fn eval(&self, m: &mut Machine, name: &str, loc: Loc) -> Result<(u64, u64, u64), Trap> {
        let lo = match &self.lower {
            Some(f) => f(m)?,
            None => 0,
        };
        let stride = (self.stride)(m)?;
        let len = match (&self.length, &self.extent) {
            (Some(f), _) => f(m)?,
            (None, Some(n)) => n(m)?.saturating_sub(lo),
            (None, None) => {
                return Err(Trap::error(Diagnostic::error(
                    "directive",
                    format!("the subarray `{name}` needs a length: the dimension's size is not known (§2.7.1)"),
                    loc,
                )))
            }
        };
        if (lo as i64) < 0 || (len as i64) < 0 {
            return Err(Trap::error(Diagnostic::error("directive", format!("the subarray `{name}` has a negative bound or length"), loc)));
        }
        Ok((lo, len, stride))
    }
}

fn constant_fn(n: u64) -> ExprFn {
    Box::new(move |_: &mut Machine<'_>| Ok(n))
}

/// The most pointers a jagged subarray's pointer arrays may name (a bound on the work a clause
/// does per pointer, not a limit real programs meet).
const MAX_POINTER_SLOTS: u64 = 1 << 24;

impl VarPlan {
    /// The plan for data clause `dc`: `deviceptr(p)` names the pointer, whose value is a device
    /// address (§2.6.5.9), never what a host pointer would point to.
    fn for_clause(mut self, dc: DataClause) -> VarPlan {
        if dc == DataClause::DevicePtr {
            if let Shape::Whole { bare, .. } = &mut self.shape {
                *bare = None;
            }
        }
        self
    }

    /// The host ranges the clause names (several for jagged subarrays: pointer arrays first).
    fn ranges(&self, m: &mut Machine) -> Result<Vec<HostRange>, Trap> {
        Ok(self.pieces(m)?.into_iter().map(|p| p.range).collect())
    }

    /// The first and one-past-the-last byte that `dims` name from `base`, and, with `slots`,
    /// the address of every element named (in order).
    fn span(&self, m: &mut Machine, base: u64, dims: &[Dim], slots: Option<&mut Vec<u64>>) -> Result<Range<u64>, Trap> {
        let mut start = base;
        let mut end_off = 0u64;
        let mut bounds = Vec::with_capacity(dims.len());
        for (i, d) in dims.iter().enumerate() {
            let (lo, len, stride) = d.eval(m, &self.name, self.loc)?;
            start = start.wrapping_add(lo.wrapping_mul(stride));
            bounds.push((lo, len, stride));
            if len == 0 {
                return Ok(start..start);
            }
            // Span from the first to the last element named.
            end_off = end_off.wrapping_add(if i + 1 == dims.len() { len.wrapping_mul(stride) } else { (len - 1).wrapping_mul(stride) });
        }
        if let Some(out) = slots {
            let count = bounds.iter().try_fold(1u64, |n, b| n.checked_mul(b.1)).filter(|n| *n <= MAX_POINTER_SLOTS);
            if count.is_none() {
                return Err(Trap::error(Diagnostic::error("directive", format!("`{}` names more than {MAX_POINTER_SLOTS} pointers", self.name), self.loc)));
            }
            let mut index = vec![0u64; bounds.len()];
            'all: loop {
                out.push(start + index.iter().zip(&bounds).map(|(i, b)| i * b.2).sum::<u64>());
                for k in (0..index.len()).rev() {
                    index[k] += 1;
                    if index[k] < bounds[k].1 {
                        continue 'all;
                    }
                    index[k] = 0;
                }
                break;
            }
        }
        Ok(start..start + end_off)
    }

    /// The pieces of host memory the clause names: for a jagged subarray, each pointer array
    /// (level by level) and then the data its last level points at.
    fn pieces(&self, m: &mut Machine) -> Result<Vec<Piece>, Trap> {
        let hr = |range: Range<u64>| HostRange { range, name: self.name.clone(), var: self.var.clone(), loc: self.loc };
        match &self.shape {
            Shape::Whole { addr, size, size_fn, bare } => {
                let a = addr(m)?;
                let size = match size_fn {
                    Some(f) => f(m)?,
                    None => *size,
                };
                if let Some(bare) = bare.as_ref().filter(|_| !m.acc.config.strict_2_0) {
                    let target = m.mem.load_u64(a).map_err(|f| m.fault(f, self.loc))?;
                    if let Some(extent) = &bare.extent {
                        let bytes = extent(m)?.wrapping_mul((bare.elem)(m)?);
                        return Ok(vec![Piece { range: hr(target..target.wrapping_add(bytes)), slots: Vec::new() }]);
                    }
                    if let Some(e) = m.acc.present.containing(target) {
                        return Ok(vec![Piece { range: hr(e.host.clone()), slots: Vec::new() }]);
                    }
                }
                if bare.is_some() {
                    rt::note_pointer_mapped_alone(m, a, &self.name, self.loc)?;
                }
                Ok(vec![Piece { range: hr(a..a + size), slots: Vec::new() }])
            }
            Shape::Section { base, dims } => {
                let b = base(m)?;
                let r = self.span(m, b, dims, None)?;
                Ok(vec![Piece { range: hr(r), slots: Vec::new() }])
            }
            Shape::Jagged { base, groups } => {
                let mut out = Vec::new();
                let mut bases = vec![base(m)?];
                for (g, dims) in groups.iter().enumerate() {
                    let last = g + 1 == groups.len();
                    let mut next = Vec::new();
                    for b in bases {
                        let mut slots = Vec::new();
                        let r = self.span(m, b, dims, (!last).then_some(&mut slots))?;
                        for s in &slots {
                            next.push(m.mem.load_u64(*s).map_err(|f| m.fault(f, self.loc))?);
                        }
                        out.push(Piece { range: hr(r), slots });
                    }
                    bases = next;
                }
                Ok(out)
            }
        }
    }
}

/// After mapping the pieces of a jagged subarray, make each device pointer array point at the
/// device copies of what its host pointers point at (the device copy of `a[0:n][0:m]` on
/// `double **a`).
fn attach_pieces(m: &mut Machine, pieces: &[Piece], loc: Loc) -> Result<(), Trap> {
    for p in pieces {
        for &slot in &p.slots {
            let Some(dev_slot) = rt::translate(m, slot) else { continue };
            let target = m.mem.load_u64(slot).map_err(|f| m.fault(f, loc))?;
            if let Some(d) = rt::translate_pointer(m, target) {
                rt::attach_pointer(m, dev_slot, d, loc)?;
            }
        }
    }
    Ok(())
}

/// The pointer arrays of a jagged subarray are copied in (the device needs them, then points
/// them at the device rows) and never copied back (they would bring device addresses home).
fn piece_clause(piece: &Piece, dc: DataClause) -> DataClause {
    if piece.is_pointer_array() && dc != DataClause::Present {
        DataClause::PresentOrCopyIn
    } else {
        dc
    }
}

fn clauses_of(d: &AccDirective) -> impl Iterator<Item = &AccClauseKind> {
    d.clauses.iter().map(|c| &c.kind)
}

impl<'a> Cx<'a> {
    /// The plan of a clause's variable, with the pointer members `deep_copy` follows.
    fn var_plan(&mut self, v: &AccVar) -> R<VarPlan> {
        let mut plan = self.var_plan_shape(v)?;
        if !matches!(plan.shape, Shape::Jagged { .. }) {
            plan.deep = DeepLayout::of_data(self.t, v.var_ty);
        }
        Ok(plan)
    }

    fn var_plan_shape(&mut self, v: &AccVar) -> R<VarPlan> {
        let t = self.t;
        let name = v.text.clone();
        let loc = v.loc;
        if v.sections.is_empty() {
            let Some(addr) = &v.addr else {
                return Err(Diagnostic::internal(format!("`{name}` has no address to map"), Some(loc)));
            };
            let size = t.size_of(v.var_ty).unwrap_or(0);
            let size_fn = match t.get(v.var_ty) {
                Type::Vla(..) => Some(self.size_of(v.var_ty, loc)?.into_fn()),
                _ => None,
            };
            let bare = match t.get(v.var_ty) {
                Type::Pointer(e) if v.root != VarRoot::Other => {
                    let elem = match t.size_of(*e) {
                        Some(n) => constant_fn(n.max(1)),
                        None if t.is_variably_modified(*e) => self.size_of(*e, loc)?.into_fn(),
                        None => constant_fn(1),
                    };
                    let extent = match &v.declared_extent {
                        Some(DeclaredExtent::Constant(n)) => Some(constant_fn(*n)),
                        Some(DeclaredExtent::Variable { count, .. }) => Some(self.local_value(*count, loc)?.into_fn()),
                        None => None,
                    };
                    Some(BarePointer { elem, extent })
                }
                _ => None,
            };
            return Ok(VarPlan { name, var: v.name.clone(), loc, shape: Shape::Whole { addr: self.expr(addr)?.into_fn(), size, size_fn, bare }, deep: None });
        }
        let Some(base) = &v.base else {
            return Err(Diagnostic::error("directive", format!("`{name}` cannot be subscripted"), loc));
        };
        let base_fn = self.expr(base)?.into_fn();
        // Dimensions from the variable's type: pointer first (unknown extent), then array dims.
        let mut dims_ty = Vec::new();
        let mut ty = v.var_ty;
        // Per dimension: whether its container is a pointer (its elements are reached through
        // a pointer loaded from the previous dimension's element).
        let mut through_pointer = Vec::new();
        for _ in 0..v.sections.len() {
            match t.get(ty).clone() {
                Type::Array(e, n) => {
                    dims_ty.push((e, n.map(constant_fn)));
                    through_pointer.push(false);
                    ty = e;
                }
                Type::Vla(e, count) => {
                    dims_ty.push((e, Some(self.local_value(count, loc)?.into_fn())));
                    through_pointer.push(false);
                    ty = e;
                }
                Type::Pointer(e) => {
                    dims_ty.push((e, None));
                    through_pointer.push(true);
                    ty = e;
                }
                _ => return Err(Diagnostic::error("directive", format!("`{name}` has more subscripts than dimensions"), loc)),
            }
        }
        let mut dims = Vec::new();
        for (s, (elem, extent)) in v.sections.iter().zip(dims_ty) {
            let stride = match t.size_of(elem) {
                Some(n) => constant_fn(n),
                None if t.is_variably_modified(elem) => self.size_of(elem, loc)?.into_fn(),
                None => constant_fn(1),
            };
            let lower = match &s.lower {
                Some(e) => Some(self.expr(e)?.into_fn()),
                None => None,
            };
            let length = match (&s.length, s.is_range) {
                (Some(e), _) => Some(self.expr(e)?.into_fn()),
                (None, false) => Some(Box::new(|_: &mut Machine<'_>| Ok(1u64)) as ExprFn),
                (None, true) => None,
            };
            dims.push(Dim { lower, length, extent, stride });
        }
        // A dimension after the first whose container is a pointer starts a new contiguous group.
        let mut groups: Vec<Vec<Dim>> = Vec::new();
        for (i, d) in dims.into_iter().enumerate() {
            if i == 0 || through_pointer[i] {
                groups.push(Vec::new());
            }
            if let Some(g) = groups.last_mut() {
                g.push(d);
            }
        }
        if groups.len() > 1 {
            return Ok(VarPlan { name, var: v.name.clone(), loc, shape: Shape::Jagged { base: base_fn, groups }, deep: None });
        }
        let dims = groups.pop().unwrap_or_default();
        Ok(VarPlan { name, var: v.name.clone(), loc, shape: Shape::Section { base: base_fn, dims }, deep: None })
    }

    /// Every variable of the directive's data clauses, with its clause.
    fn data_plans(&mut self, dir: &AccDirective) -> R<Vec<(DataClause, VarPlan)>> {
        let mut data = Vec::new();
        for c in clauses_of(dir) {
            if let AccClauseKind::Data(dc, vars) = c {
                for p in self.var_plans(vars)? {
                    data.push((*dc, p.for_clause(*dc)));
                }
            }
        }
        Ok(data)
    }

    fn var_plans(&mut self, vars: &[AccVar]) -> R<Vec<VarPlan>> {
        vars.iter().map(|v| self.var_plan(v)).collect()
    }

    /// Compile an OpenACC directive of host code.
    pub(super) fn acc_stmt(&mut self, d: DirectiveId, body: Option<&Stmt>, sub: bool, loc: Loc) -> R<()> {
        let Some(Some(dir)) = self.p.acc.get(d.0 as usize) else {
            return Err(Diagnostic::internal("directive without its lowered form", Some(loc)));
        };
        let dir = dir.clone();
        let if_fn = match clauses_of(&dir).find_map(|c| if let AccClauseKind::If(e) = c { Some(e) } else { None }) {
            Some(e) => Some(Arc::new(self.expr(e)?.into_fn())),
            None => None,
        };
        // `async(n)`: the queue the work goes to (-1 for `async` without a value, acc_async_noval).
        let queue_fn: Option<Arc<Option<ExprFn>>> = match clauses_of(&dir).find_map(|c| if let AccClauseKind::Async(e) = c { Some(e) } else { None }) {
            Some(Some(e)) => Some(Arc::new(Some(self.expr(e)?.into_fn()))),
            Some(None) => Some(Arc::new(None)),
            None => None,
        };
        // §2.13.1: "An async clause with the argument value acc_async_sync will behave the same
        // as if no async clause appeared"; acc_async_noval (-1) is the queue of `async` alone.
        // Without `async`, Cray's auto-async models put some work on their implicit queue
        // (dialect::cray): kernels of compute constructs, and under `auto_async_all` the
        // transfers of data directives.
        let auto_async = match dir.kind {
            AccKind::Parallel | AccKind::Kernels | AccKind::ParallelLoop | AccKind::KernelsLoop => Some(true),
            AccKind::Data | AccKind::EnterData | AccKind::ExitData | AccKind::Update => Some(false),
            _ => None,
        };
        let queue_of = move |m: &mut Machine| -> Result<Option<i64>, Trap> {
            Ok(match &queue_fn {
                None => auto_async.and_then(|compute| rt::auto_async_queue(m, compute)),
                Some(q) => match q.as_ref() {
                    Some(f) => Some(f(m)? as i32 as i64).filter(|q| *q != ACC_ASYNC_SYNC),
                    None => Some(ACC_ASYNC_NOVAL),
                },
            })
        };
        let queue_of = Arc::new(queue_of);
        // `wait(list)` clauses (§2.13.2): the construct waits for the queues of every clause,
        // each list in order; a clause without a list waits for all queues. The constructs that
        // take `async` run the waits themselves, once they know their queue.
        let mut waits = WaitClauses { all: false, queues: Vec::new() };
        let mut has_wait = false;
        for c in clauses_of(&dir) {
            if let AccClauseKind::Wait(w) = c {
                has_wait = true;
                match w {
                    Some(list) => {
                        for e in list {
                            waits.queues.push(self.expr(e)?.into_fn());
                        }
                    }
                    None => waits.all = true,
                }
            }
        }
        let takes_async = matches!(
            dir.kind,
            AccKind::Data
                | AccKind::Parallel
                | AccKind::Kernels
                | AccKind::ParallelLoop
                | AccKind::KernelsLoop
                | AccKind::HostData
                | AccKind::EnterData
                | AccKind::ExitData
                | AccKind::Update
        );
        let waits: Option<Arc<WaitClauses>> = has_wait.then(|| Arc::new(waits));
        if let Some(w) = waits.as_ref().filter(|_| !takes_async) {
            let w = w.clone();
            self.emit(Op::Expr(Box::new(move |m| w.run(m, None, loc).map(|_| 0))), loc, false);
        }
        match &dir.kind {
            AccKind::Data | AccKind::Parallel | AccKind::Kernels | AccKind::ParallelLoop | AccKind::KernelsLoop | AccKind::HostData => {
                let mut data = Vec::new();
                let mut use_dev = Vec::new();
                // `use_device(a)` on an array: its name stands for its device copy's address in
                // the body (§2.8), checked present when the construct starts.
                let mut device_arrays = Vec::new();
                for c in clauses_of(&dir) {
                    match c {
                        AccClauseKind::Data(dc, vars) => {
                            for p in self.var_plans(vars)? {
                                data.push((*dc, p.for_clause(*dc)));
                            }
                        }
                        AccClauseKind::UseDevice(vars) => {
                            for v in vars {
                                let array = matches!(self.t.get(v.var_ty), Type::Array(..) | Type::Vla(..));
                                if array && v.sections.is_empty() && v.root != VarRoot::Other {
                                    device_arrays.push((v.root, self.var_plan(v)?));
                                } else {
                                    use_dev.push(self.var_plan(v)?);
                                }
                            }
                        }
                        _ => {}
                    }
                }
                let array_names: Vec<(VarRoot, String)> = device_arrays.iter().map(|(r, p)| (*r, p.name.clone())).collect();
                let is_compute = dir.kind.is_compute();
                let is_host_data = matches!(dir.kind, AccKind::HostData);
                let if_enter = if_fn.clone();
                let q = queue_of.clone();
                let waits = waits.clone();
                // The same data in two clauses gets both behaviours (copy in if one copies in, out if
                // one copies out): map copy-in clauses first, and let later clauses add copy-out.
                data.sort_by_key(|(dc, _)| !matches!(dc, DataClause::Copy | DataClause::CopyIn | DataClause::PresentOrCopy | DataClause::PresentOrCopyIn));
                self.emit(
                    Op::Expr(Box::new(move |m| {
                        let cond = match &if_enter {
                            Some(f) => f(m)? != 0,
                            None => true,
                        };
                        let inherited = rt::region_on_host(m);
                        let queue = q(m)?;
                        if queue.is_none() && !is_host_data {
                            // Synchronous work comes after the implicit queue's (program order).
                            rt::auto_async_join(m, loc)?;
                        }
                        if let Some(w) = &waits {
                            // A construct the host runs itself (`if(false)`, the host device) waits
                            // on the host.
                            let waiter = queue.filter(|_| cond && !inherited && !m.acc.on_host);
                            w.run(m, waiter, loc)?;
                        }
                        rt::region_enter(m, !cond || inherited, queue, is_host_data);
                        if !cond || m.acc.on_host {
                            return Ok(0);
                        }
                        for (dc, plan) in &data {
                            let pieces = plan.pieces(m)?;
                            for p in &pieces {
                                rt::map(m, piece_clause(p, *dc), &p.range, DataLifetime::Structured)?;
                            }
                            attach_pieces(m, &pieces, plan.loc)?;
                            if let Some(deep) = plan.deep.as_deref().filter(|_| m.acc.config.acc_model.deep_copy) {
                                for p in &pieces {
                                    deep_enter(m, deep, &p.range, *dc, DataLifetime::Structured)?;
                                }
                            }
                        }
                        for plan in &use_dev {
                            if let Shape::Whole { addr, .. } = &plan.shape {
                                let a = addr(m)?;
                                rt::use_device(m, a, &plan.name, plan.loc)?;
                            }
                        }
                        for (_, plan) in &device_arrays {
                            if let Shape::Whole { addr, .. } = &plan.shape {
                                let a = addr(m)?;
                                rt::use_device_array(m, a, &plan.name, plan.loc)?;
                            }
                        }
                        let _ = is_compute;
                        Ok(0)
                    })),
                    loc,
                    true,
                );
                let body_start = self.code.len();
                if let Some(b) = body {
                    let depth = self.use_device_arrays.len();
                    self.use_device_arrays.extend(array_names);
                    let compiled = self.stmt_inner(b, sub);
                    self.use_device_arrays.truncate(depth);
                    compiled?;
                }
                self.acc_body = Some(body_start..self.code.len());
                self.emit(Op::Expr(Box::new(move |m| rt::region_exit(m, loc).map(|_| 0))), loc, false);
            }
            AccKind::EnterData | AccKind::ExitData => {
                let enter = matches!(dir.kind, AccKind::EnterData);
                let data = self.data_plans(&dir)?;
                self.emit(
                    Op::Expr(Box::new(move |m| {
                        let queue = queue_of(m)?;
                        if queue.is_none() {
                            rt::auto_async_join(m, loc)?;
                        }
                        if let Some(w) = &waits {
                            w.run(m, queue.filter(|_| !m.acc.on_host), loc)?;
                        }
                        if let Some(f) = &if_fn {
                            if f(m)? == 0 {
                                return Ok(0);
                            }
                        }
                        if m.acc.on_host {
                            return Ok(0);
                        }
                        let saved = m.acc.queue;
                        m.acc.queue = queue;
                        for (dc, plan) in &data {
                            let pieces = plan.pieces(m)?;
                            let deep = plan.deep.as_deref().filter(|_| m.acc.config.acc_model.deep_copy);
                            if enter {
                                for p in &pieces {
                                    rt::map(m, piece_clause(p, *dc), &p.range, DataLifetime::Dynamic)?;
                                }
                                attach_pieces(m, &pieces, plan.loc)?;
                                if let Some(deep) = deep {
                                    for p in &pieces {
                                        deep_enter(m, deep, &p.range, *dc, DataLifetime::Dynamic)?;
                                    }
                                }
                            } else {
                                let copy_out = matches!(dc, DataClause::CopyOut | DataClause::PresentOrCopyOut | DataClause::Copy);
                                if let Some(deep) = deep {
                                    for p in &pieces {
                                        deep_exit(m, deep, &p.range, copy_out)?;
                                    }
                                }
                                // A pointer array holds device addresses on the device: never copied home.
                                for p in pieces.iter().rev() {
                                    rt::exit_data(m, &p.range, copy_out && !p.is_pointer_array(), false)?;
                                }
                            }
                        }
                        m.acc.queue = saved;
                        Ok(0)
                    })),
                    loc,
                    true,
                );
            }
            AccKind::Update => {
                let mut ops = Vec::new();
                for c in clauses_of(&dir) {
                    match c {
                        AccClauseKind::Host(vars) => ops.extend(self.var_plans(vars)?.into_iter().map(|p| (false, p))),
                        AccClauseKind::Device(vars) => ops.extend(self.var_plans(vars)?.into_iter().map(|p| (true, p))),
                        _ => {}
                    }
                }
                self.emit(
                    Op::Expr(Box::new(move |m| {
                        let queue = queue_of(m)?;
                        if queue.is_none() {
                            rt::auto_async_join(m, loc)?;
                        }
                        if let Some(w) = &waits {
                            w.run(m, queue.filter(|_| !rt::region_on_host(m)), loc)?;
                        }
                        if let Some(f) = &if_fn {
                            if f(m)? == 0 {
                                return Ok(0);
                            }
                        }
                        if rt::region_on_host(m) {
                            return Ok(0);
                        }
                        let saved = m.acc.queue;
                        m.acc.queue = queue;
                        for (to_dev, plan) in &ops {
                            // Cray `deep_copy`: the struct's pointer members are followed.
                            let deep = plan.deep.as_deref().filter(|_| m.acc.config.acc_model.deep_copy);
                            // The pointer arrays of `a[i:n][j:m]` hold host addresses on the host and
                            // device addresses on the device: only the rows are data.
                            for p in plan.pieces(m)?.iter().filter(|p| !p.is_pointer_array()) {
                                match deep {
                                    Some(deep) => deep_update(m, deep, &p.range, *to_dev)?,
                                    None => rt::update(m, &p.range, *to_dev)?,
                                }
                            }
                        }
                        m.acc.queue = saved;
                        Ok(0)
                    })),
                    loc,
                    true,
                );
            }
            AccKind::Wait(args) => {
                // Each queue of the list in order, all queues without a list (§2.13.3); under the
                // default schedule the queues are already idle, but the arguments are still
                // evaluated (they may have side effects).
                let fns: Vec<ExprFn> = match args {
                    Some(a) => a.iter().map(|e| Ok(self.expr(e)?.into_fn())).collect::<R<_>>()?,
                    None => Vec::new(),
                };
                let queue_of = queue_of.clone();
                self.emit(
                    Op::Expr(Box::new(move |m| {
                        // With `async(q)` the waits go on queue q and the host goes on (§2.13.3).
                        let wait = |m: &mut Machine, on: Option<i64>, waiter: Option<i64>| match waiter {
                            Some(w) => rt::queue_wait(m, on, w, loc),
                            None => rt::wait_queues(m, on),
                        };
                        let mut queues = Vec::with_capacity(fns.len());
                        for f in &fns {
                            queues.push(f(m)? as i32 as i64);
                        }
                        let waiter = queue_of(m)?;
                        if fns.is_empty() {
                            wait(m, None, waiter)?;
                            rt::emit(m, crate::exec::events::Event::WaitDirective { queue: None, loc });
                        }
                        // `wait(1, 2)` waits for each queue of the list.
                        for q in queues {
                            wait(m, Some(q), waiter)?;
                            rt::emit(m, crate::exec::events::Event::WaitDirective { queue: Some(q), loc });
                        }
                        Ok(0)
                    })),
                    loc,
                    true,
                );
            }
            AccKind::Declare => {
                // Function-scope declare: the data lives until the function returns (§2.13).
                let data = self.data_plans(&dir)?;
                self.emit(
                    Op::Expr(Box::new(move |m| {
                        rt::declare_enter(m);
                        if rt::region_on_host(m) {
                            return Ok(0);
                        }
                        for (dc, plan) in &data {
                            let pieces = plan.pieces(m)?;
                            for p in &pieces {
                                rt::map(m, piece_clause(p, *dc), &p.range, DataLifetime::Structured)?;
                            }
                            attach_pieces(m, &pieces, plan.loc)?;
                            if let Some(deep) = plan.deep.as_deref().filter(|_| m.acc.config.acc_model.deep_copy) {
                                for p in &pieces {
                                    deep_enter(m, deep, &p.range, *dc, DataLifetime::Structured)?;
                                }
                            }
                        }
                        Ok(0)
                    })),
                    loc,
                    true,
                );
            }
            // An atomic statement of a word form is one compare-and-swap update of its word
            // (`exec::atomic`, §2.12); any other runs while holding the run's atomic lock, so
            // that no other device thread's atomic touches memory between its read and its write.
            AccKind::Atomic(kind) => {
                if let Some(form) = body.and_then(|b| crate::exec::atomic::atomic_form(self.t, *kind, b)) {
                    self.atomic_word_update(&form, loc)?;
                } else if let Some(b) = body {
                    let outer = std::mem::replace(&mut self.in_atomic, true);
                    let code = self.sub_code(std::slice::from_ref(b), true);
                    self.in_atomic = outer;
                    let code = code?;
                    self.emit(
                        Op::Expr(Box::new(move |m| {
                            // Nested atomics are a compile error; a routine called in an atomic's
                            // expression that runs an atomic itself would wait for the lock its
                            // own thread holds (issue 14): stop at it instead.
                            if let Some(outer) = m.acc.atomic_held {
                                return Err(rt::atomic_in_atomic(outer, loc));
                            }
                            let lock = m.acc.atomic_lock.clone();
                            let _held = lock.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                            m.acc.atomic_held = Some(loc);
                            let ran = super::super::machine::run_code(m, &code).map(|_| 0);
                            m.acc.atomic_held = None;
                            ran
                        })),
                        loc,
                        false,
                    );
                }
            }
            // Orphaned loops in host code (a routine called from the host) run sequentially;
            // routine and cache have no run-time effect here.
            AccKind::Loop | AccKind::Cache(_) | AccKind::Routine(_) => {
                if let Some(b) = body {
                    self.stmt_inner(b, sub)?;
                }
            }
        }
        Ok(())
    }

    /// Compile OpenACC statement `key` (whose body is `body`) once more into instruction lists
    /// of its own, for a native-code engine that runs the rest of the function
    /// ([`crate::exec::machine::code::CFunc::acc_sites`]): a data or compute construct as its entry and its
    /// exit (the body, compiled inline by the interpreter, is the engine's to run in between),
    /// any other statement whole. Orphaned `loop`, `cache` and `routine` directives are not
    /// recorded: they only run their body. An executable compiled for checking records them too
    /// (in their checking form): `accsim check` runs host functions as native code
    /// ([`crate::exec::observed_host`]).
    pub(super) fn record_acc_site(&mut self, key: crate::exec::machine::code::AccSiteKey, body: Option<&Stmt>, sub: bool, loc: Loc) -> R<()> {
        use crate::exec::machine::code::AccSiteKey;
        let saved_code = std::mem::take(&mut self.code);
        let saved_labels = std::mem::take(&mut self.labels);
        let saved_body = self.acc_body.take();
        let compiled = match key {
            AccSiteKey::Launch(k) => self.acc_launch(KernelId(k), loc).map(|()| true),
            AccSiteKey::Directive(d) => match self.p.acc.get(d as usize).and_then(Option::as_ref).map(|x| &x.kind) {
                Some(AccKind::Loop | AccKind::Cache(_) | AccKind::Routine(_)) | None => Ok(false),
                Some(AccKind::Data | AccKind::Parallel | AccKind::Kernels | AccKind::ParallelLoop | AccKind::KernelsLoop | AccKind::HostData) => {
                    self.acc_stmt(DirectiveId(d), None, sub, loc).map(|()| true)
                }
                Some(_) => self.acc_stmt(DirectiveId(d), body, sub, loc).map(|()| true),
            },
        };
        let split = self.acc_body.take().map(|b| b.start);
        let ops = self.finish();
        self.code = saved_code;
        self.labels = saved_labels;
        self.acc_body = saved_body;
        if !compiled? {
            return Ok(());
        }
        let mut enter = ops?;
        let exit = split.map(|at| enter.split_off(at.min(enter.len())));
        self.acc_sites.push(crate::exec::machine::code::AccSite { key, loc, enter, exit });
        Ok(())
    }

    /// Compile a kernel launch (inside its compute construct).
    pub(super) fn acc_launch(&mut self, k: KernelId, loc: Loc) -> R<()> {
        let Some(kernel) = self.p.kernels.get(k.0 as usize) else {
            return Err(Diagnostic::internal("unknown kernel", Some(loc)));
        };
        let kernel = kernel.clone();
        let num = |cx: &mut Self, e: &Option<Expr>| -> R<Option<ExprFn>> {
            Ok(match e {
                Some(e) => Some(cx.expr(e)?.into_fn()),
                None => None,
            })
        };
        let ng = num(self, &kernel.num_gangs)?;
        let nw = num(self, &kernel.num_workers)?;
        let nv = num(self, &kernel.vector_length)?;
        // The default gang count's reads are not the program's: no checker sees them
        // (`kernel::gang_count`).
        let gang_loop_iterations = match &kernel.gang_loop {
            Some(g) if kernel.num_gangs.is_none() => {
                let checking = std::mem::replace(&mut self.checking, false);
                let f = self.expr(&g.iterations).map(|e| e.into_fn());
                self.checking = checking;
                Some(f?)
            }
            _ => None,
        };
        struct CapPlan {
            size_fn: Option<ExprFn>,
            section: Option<VarPlan>,
            mode: CaptureMode,
            value: ExprFn,
            size: u64,
            kind: Kind,
            is_pointer: bool,
            name: String,
            mapped_part: bool,
            implicit_pointer: bool,
            elem_size: u64,
        }
        let mut caps = Vec::new();
        // A compute construct inside `host_data` captures its variables' host addresses (an
        // error below fails the whole compilation: nothing to restore then).
        let device_arrays = std::mem::take(&mut self.use_device_arrays);
        for c in &kernel.captures {
            let t = self.t;
            let pty = t.pointee(c.ty).map(|_| c.ty);
            let is_pointer = pty.is_some();
            let long = self.t.size_of(c.ty).unwrap_or(8);
            // The value (register captures) or the address of the host object.
            let e = match (c.source, c.mode) {
                (CaptureSource::Local(l), CaptureMode::Value) => Expr { kind: ExprKind::Local(l), ty: c.ty, loc },
                (CaptureSource::Local(l), _) => {
                    let is_reg = self.p.functions[self.fid as usize].locals.get(l.0 as usize).is_some_and(|x| x.storage == Storage::Register);
                    if is_reg {
                        Expr { kind: ExprKind::Local(l), ty: c.ty, loc }
                    } else {
                        Expr { kind: ExprKind::LocalAddr(l), ty: c.ty, loc }
                    }
                }
                (CaptureSource::Global(g), _) => Expr { kind: ExprKind::GlobalAddr(g), ty: c.ty, loc },
                (CaptureSource::Deref(l), _) => {
                    let ty = self.p.functions[self.fid as usize].locals.get(l.0 as usize).map_or(c.ty, |x| x.ty);
                    Expr { kind: ExprKind::Local(l), ty, loc }
                }
            };
            let value = self.expr(&e)?.into_fn();
            let section = match &c.subarray {
                Some(v) => Some(self.var_plan(v)?),
                None => None,
            };
            let size_fn = match self.t.get(c.ty) {
                Type::Vla(..) => Some(self.size_of(c.ty, loc)?.into_fn()),
                _ => None,
            };
            // The element a pointer points at (`void *`: bytes), for the subarray an implicit copy names.
            let elem_size = t.pointee(c.ty).and_then(|e| t.size_of(e)).filter(|&n| n > 0).unwrap_or(1);
            caps.push(CapPlan { size_fn, section, mode: c.mode, value, size: long, kind: Kind::of(t, c.ty), is_pointer, name: c.name.clone(), mapped_part: c.mapped_part, implicit_pointer: c.implicit_pointer, elem_size });
        }
        self.use_device_arrays = device_arrays;
        let fid = kernel.func.0;
        let single = kernel.single;
        let cray_vector = crate::dialect::cray_info::launch_checked_vector_length(&kernel);
        self.emit(
            Op::Expr(Box::new(move |m| {
                let cfg = m.acc.config.clone();
                let gangs = match &ng {
                    Some(f) if !single => Some(f(m)?),
                    _ if single => Some(1),
                    // Decided below, from the vector length (§2.5.6).
                    _ => cfg.gangs,
                };
                let workers = match &nw {
                    Some(f) if !single => f(m)?,
                    _ if single => 1,
                    _ => cfg.workers,
                };
                let vector = match &nv {
                    Some(f) if !single => f(m)?,
                    _ if single => 1,
                    _ => cfg.vector_length,
                };
                let gangs = match gangs {
                    Some(n) => n,
                    None => {
                        // A pure expression of register locals (`kernel::gang_count`).
                        let iterations = match &gang_loop_iterations {
                            Some(f) => Some(f(m)? as i64),
                            None => None,
                        };
                        crate::kernel::gang_count::default_gangs(iterations, vector)
                    }
                };
                if let Some((vloc, with_workers)) = cray_vector.filter(|_| !single) {
                    rt::cray_vector_length_at_launch(m, vector, with_workers, vloc);
                }
                let mut args = Vec::with_capacity(caps.len());
                for c in &caps {
                    let v = (c.value)(m)?;
                    let section = match &c.section {
                        Some(plan) => plan.ranges(m)?.into_iter().next().map(|r| r.range),
                        None => None,
                    };
                    let size = match &c.size_fn {
                        Some(f) => f(m)?,
                        None => c.size,
                    };
                    args.push(CaptureArg { mode: c.mode, host: v, size, kind: c.kind, is_pointer: c.is_pointer, name: c.name.clone(), section, mapped_part: c.mapped_part, implicit_pointer: c.implicit_pointer, elem_size: c.elem_size });
                }
                rt::launch(m, fid, gangs, workers, vector, &args, loc)?;
                Ok(0)
            })),
            loc,
            true,
        );
        Ok(())
    }
}

/// The `wait` clauses of a construct (§2.13.2): the queues of every list, in order, or every
/// queue for a clause without a list.
struct WaitClauses {
    all: bool,
    queues: Vec<ExprFn>,
}

impl WaitClauses {
    /// Wait for the queues: the host waits (`waiter` `None`), or, on a construct with
    /// `async(r)`, queue r waits and the host goes on (§2.13.2: "Another legal implementation is
    /// for the local thread to enqueue the compute or update operation in such a way that the
    /// operation will not start until the operations enqueued on the associated asynchronous
    /// device activity queues have completed").
    fn run(&self, m: &mut Machine, waiter: Option<i64>, loc: Loc) -> Result<(), Trap> {
        // The arguments are evaluated even when all queues are waited for.
        let mut queues = Vec::with_capacity(self.queues.len());
        for f in &self.queues {
            queues.push(f(m)? as i32 as i64);
        }
        let wait = |m: &mut Machine, on: Option<i64>| match waiter {
            Some(w) => rt::queue_wait(m, on, w, loc),
            None => rt::wait_queues(m, on),
        };
        if self.all {
            return wait(m, None);
        }
        for q in queues {
            wait(m, Some(q))?;
        }
        Ok(())
    }
}
