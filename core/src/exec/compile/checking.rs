//! Checking hooks (`accsim check`): accesses that report themselves to the run's checker, and
//! the thread events of partitioned loops (see [`crate::exec::check`]).

use super::*;

impl<'a> Cx<'a> {
    /// A load that reports itself to the checker (checking mode), its address computed inline
    /// in the shapes the ordinary loads fuse.
    pub(super) fn checked_load(&self, k: Kind, addr: CAddr, loc: Loc) -> Ce {
        if matches!(k, Kind::Void | Kind::Aggregate) {
            return Ce::Dyn(addr.into_fn());
        }
        let (atomic, size) = (self.in_atomic, kind_size(k));
        Ce::Dyn(with_caddr!(addr, |m, () = (), a| {
            crate::exec::check::before_access(m, a, size, false, atomic, loc);
            let v = m.load_kind(k, a).map_err(|f| m.fault(f, loc))?;
            crate::exec::check::access(m, a, size, false, atomic, loc);
            Ok(v)
        }))
    }

    /// The address of a read-modify-write (`x op= v`, `x++`): in checking mode it reports a
    /// read and a write of the place.
    pub(super) fn checked_rw(&self, addr: ExprFn, k: Kind, loc: Loc) -> ExprFn {
        if !self.checking {
            return addr;
        }
        let (atomic, size) = (self.in_atomic, kind_size(k));
        ef(move |m| {
            let a = addr(m)?;
            crate::exec::check::before_access(m, a, size, true, atomic, loc);
            crate::exec::check::access(m, a, size, false, atomic, loc);
            crate::exec::check::access(m, a, size, true, atomic, loc);
            Ok(a)
        })
    }

    /// The checker's level and the thread-index slot of a worker or vector partition of a
    /// kernel ([`crate::ir::acc::Partition`]).
    pub(super) fn partition_slot(&self, part: &crate::ir::acc::Partition) -> Option<(crate::exec::check::Level, usize)> {
        let level = match part.level {
            crate::ir::acc::Level::Worker => crate::exec::check::Level::Worker,
            crate::ir::acc::Level::Vector => crate::exec::check::Level::Vector,
            crate::ir::acc::Level::Gang => return None,
        };
        match self.homes.get(part.var.0 as usize) {
            Some(Home::Reg(s)) => Some((level, *s)),
            _ => None,
        }
    }

    /// A partition loop in checking mode: the checker hears where it begins, each thread's
    /// iteration, and where its threads rejoin. The loop counts its iterations in a spare slot
    /// of the frame and gives the thread index its value through [`thread_order`], so that
    /// `--thread-order N` runs the level's threads in another order (§1.2: they are unordered).
    pub(super) fn checked_partition(&mut self, p: (crate::exec::check::Level, usize), part: &crate::ir::acc::Partition, var_ty: TypeId, loc: Loc, sub: bool) -> R<()> {
        use crate::exec::check::{thread_event, ThreadEvent};
        let level = p.0;
        let (as_loop, counter) = match self.spare_slots.pop() {
            Some(slot) => {
                // The iteration counter: a local of this compilation only.
                let id = LocalId(self.homes.len() as u32);
                self.homes.push(Home::Reg(slot));
                let counted = crate::ir::acc::Partition { var: id, ..part.clone() };
                (counted.sequential_loop(&self.p.types, var_ty, loc), slot)
            }
            None => (part.sequential_loop(&self.p.types, var_ty, loc), p.1),
        };
        let count = self.expr(&part.count)?.into_fn();
        let key = (loc.line as u64) << 24 ^ (loc.col as u64) << 8 ^ matches!(level, crate::exec::check::Level::Vector) as u64;
        self.emit(Op::Expr(ef(move |m| {
            thread_event(m, ThreadEvent::PartitionBegin(level, loc));
            Ok(0)
        })), loc, false);
        self.partition = Some(PartitionThreads { level, var: p.1, counter, count: Some(count), key });
        let r = self.stmt_inner(&as_loop, sub);
        self.partition = None;
        r?;
        self.emit(Op::Expr(ef(move |m| {
            thread_event(m, ThreadEvent::PartitionEnd(level));
            Ok(0)
        })), loc, false);
        Ok(())
    }

    /// At the top of a partition loop's body: the thread whose iteration starts gets its index,
    /// and the checker hears of it.
    pub(super) fn partition_iteration(&mut self, loc: Loc) {
        if let Some(PartitionThreads { level, var, counter, count, key }) = self.partition.take() {
            self.emit(Op::Expr(ef(move |m| {
                let k = m.regs[m.bp + counter];
                let t = match (m.acc.config.thread_order, &count) {
                    (Some(seed), Some(count)) if counter != var => thread_order(seed, key, k, count(m)?),
                    _ => k,
                };
                m.regs[m.bp + var] = t;
                crate::exec::check::thread_event(m, crate::exec::check::ThreadEvent::Partition(level, t));
                Ok(0)
            })), loc, false);
        }
    }
}

/// A worker or vector partition whose body is being compiled (checking only): its level, the
/// register slots of its thread index and of its iteration counter, the number of its
/// threads, and the key of its order.
pub(super) struct PartitionThreads {
    level: crate::exec::check::Level,
    var: usize,
    counter: usize,
    count: Option<ExprFn>,
    key: u64,
}

/// The number of partitions in `s`: a checking executable reserves a frame slot for the
/// iteration counter of each ([`Cx::checked_partition`]).
pub(super) fn count_partitions(s: &Stmt) -> usize {
    let mut n = 0;
    crate::ir::visit::walk(s, true, &mut |x| n += matches!(x.kind, StmtKind::Partition(_)) as usize, &mut |_| {});
    n
}

/// The thread that runs iteration `k` of a partition of `n` threads under `--thread-order
/// seed` (`DeviceConfig::thread_order`, set by `accsim explore`): a permutation of `0..n` drawn
/// from the seed and the partition (`key`), deterministic for a seed. A keyed bijection of the
/// `b`-bit numbers (`2^b ≥ n`: multiplication by an odd number, an addition, an xor-shift, all
/// modulo `2^b`) walked until it lands below `n` (cycle walking: a bijection of `0..n`; fewer
/// than two steps on average). Any order is one the model allows: the threads of a level are
/// unordered (§1.2).
pub fn thread_order(seed: u64, key: u64, k: u64, n: u64) -> u64 {
    if n <= 1 || k >= n {
        return k;
    }
    let bits = 64 - (n - 1).leading_zeros();
    let mask = if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 };
    let mut h = seed ^ key.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^= h >> 31;
    let (mul, add, shift) = ((h | 1) & mask, (h >> 17) & mask, bits.div_ceil(2).max(1));
    let mut x = k;
    loop {
        x = x.wrapping_mul(mul).wrapping_add(add) & mask;
        x ^= x >> shift;
        if x < n {
            return x;
        }
    }
}

/// Where a local of a function with worker or vector partitions lives in a checking
/// executable, and whose variable it is ([`partition_shared_locals`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Sharing {
    /// Moved from a register to memory, where the checker sees it.
    pub moved: bool,
    /// Declared in the loop body of a worker or vector partition: one variable per worker or
    /// per lane (the frame holds it once; each thread's use is a variable of its own).
    pub declared_in: Option<crate::ir::acc::Level>,
    /// The threads of a partition share it (moved, or a memory local of the program declared
    /// outside a partition whose code takes its address): a footprint proof, which sees only
    /// the memory the kernel reaches through its captures, cannot vouch for the kernel.
    pub shared_by_threads: bool,
}

/// The register locals of `f` that the threads of one of its worker or vector partitions share
/// with the code around the partition, or with each other, which a checking executable keeps
/// in memory so the checker sees their accesses: those written inside a partition and
/// referenced outside it, and the program's variables declared outside a partition that are
/// both written and read inside it (a flag one lane sets and the others test, which no code
/// around the loop uses).
///
/// **Rule.** A variable of a `parallel`/`kernels` region's gang-level code (declared in a gang
/// loop's body, or a gang's private or firstprivate copy) is one variable per gang (§2.5.10,
/// §2.5.11, §2.7.10), shared by the gang's workers and vector lanes unless a clause of the
/// worker or vector loop makes it theirs (§2.7.10 `private`, §2.7.11 `reduction`); likewise a
/// variable declared in a worker loop's body is one per worker, shared by its lanes, and a
/// `routine worker`'s locals are shared by the lanes of its vector loops. In the ordinary
/// executable such a scalar is a register of the gang's frame, where the checker cannot see
/// it. A register local written only inside a partition (a lane's own temporary, a loop
/// counter, a private copy the lowering made) is not moved: it carries no value out of the
/// partition. A variable declared outside a partition is one variable for all its threads even
/// when only the partition uses it, so the program's own variables (and the thread copies of
/// gang-level `private` clauses) that a partition both writes and reads are moved too, unless
/// the partition's code writes it, unconditionally, before any read (a loop counter, a
/// temporary set at the top of the iteration): each thread then reads only its own value, and
/// compilers give each thread its own copy. Where a variable is declared is read from its
/// declaration's source location, inside or outside the source lines of a partition's loop
/// body. The checker decides which accesses of the moved locals are races
/// (`accsim::check::shared_frame`); a kernel with moved locals is checked access by access,
/// never on a footprint ([`Sharing::moved`]).
pub(super) fn partition_shared_locals(f: &Function, is_atomic: &dyn Fn(DirectiveId) -> bool) -> Vec<Sharing> {
    let n = f.locals.len();
    let mut shared = vec![Sharing { moved: false, declared_in: None, shared_by_threads: false }; n];
    if !contains_partition(&f.body) {
        return shared;
    }
    // Per local: the partitions (by number) with a write of it inside, and the chains of
    // enclosing partitions of each of its references.
    let mut written_in: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut read_in: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut refs: Vec<Vec<Vec<u32>>> = vec![Vec::new(); n];
    let mut thread_vars = vec![false; n];
    let mut set_first: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut addressed_in: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut plain_in_partition = vec![false; n];
    let model: Vec<bool> = f.locals.iter().map(|l| l.role.is_execution_model()).collect();
    let mut walker = RefWalker {
        stack: Vec::new(),
        next: 0,
        written_in: &mut written_in,
        read_in: &mut read_in,
        refs: &mut refs,
        thread_vars: &mut thread_vars,
        spans: Vec::new(),
        model: &model,
        branches: 0,
        entered_at: Vec::new(),
        seen_in: vec![Vec::new(); n],
        set_first: &mut set_first,
        addressed_in: &mut addressed_in,
        plain_in_partition: &mut plain_in_partition,
        is_atomic,
        atomic_depth: 0,
    };
    walker.stmt(&f.body);
    let spans = walker.spans;
    use crate::ir::acc::Level;
    for l in 0..n {
        if thread_vars[l] {
            continue;
        }
        let decl = f.locals[l].loc;
        let inside = |level: Level| spans.iter().any(|(lv, lo, hi)| *lv == level && lo.file == decl.file && (lo.line, lo.col) <= (decl.line, decl.col) && (decl.line, decl.col) <= (hi.line, hi.col));
        // A scheduler's copy belongs to the threads of its loop's level (it carries the
        // construct's location, not a declaration's).
        let copy_level = f.locals[l].copy_of.as_ref().map(|c| c.level);
        let declared_in = if let Some(level) = copy_level {
            (level != Level::Gang).then_some(level)
        } else if inside(Level::Vector) {
            Some(Level::Vector)
        } else if inside(Level::Worker) {
            Some(Level::Worker)
        } else {
            None
        };
        // A lane's own variable is never moved (the lowering may reuse it across the lane's
        // loops); neither is one the partitions that write it do not share with the code around.
        let register = f.locals[l].storage == Storage::Register && declared_in != Some(Level::Vector);
        let shared_outside = written_in[l].iter().any(|p| refs[l].iter().any(|chain| !chain.contains(p)));
        // A variable of the program declared outside a worker or vector partition that both
        // writes and reads it: the partition's threads share it (schedule variables and
        // launch parameters are the model's own), unless each thread writes it first.
        let declared_outside = |p: u32| {
            spans.get(p as usize - 1).is_some_and(|(level, lo, hi)| match copy_level {
                // A copy of a gang loop is outside every worker and vector partition, a
                // worker's copy outside the vector partitions.
                Some(owner) => *level != Level::Gang && (owner == Level::Gang || (owner == Level::Worker && *level == Level::Vector)),
                None => *level != Level::Gang && !(lo.file == decl.file && (lo.line, lo.col) <= (decl.line, decl.col) && (decl.line, decl.col) <= (hi.line, hi.col)),
            })
        };
        // The program's own variables, and the scheduler's copies of them.
        let variable = f.locals[l].role == crate::ir::LocalRole::Program && decl.line != 0;
        let program = variable || copy_level.is_some();
        let shared_inside = program && written_in[l].iter().any(|&p| read_in[l].contains(&p) && declared_outside(p) && !set_first[l].contains(&p));
        let moved = register && (shared_outside || shared_inside);
        // (Not a copy the scheduler made for a loop's clause: those carry the construct's
        // location, and a loop's own private array is its thread's.)
        let memory = f.locals[l].storage == Storage::Memory && variable && addressed_in[l].iter().any(|&p| declared_outside(p));
        // The threads of a partition that touch it only in `atomic` statements cannot race on
        // it (§2.12; the reduction combines of the scheduler are such statements), and the
        // gang's code around the partition is ordered with them (§1.2): a footprint proof can
        // vouch for the kernel.
        let races = moved && plain_in_partition[l];
        shared[l] = Sharing { moved, declared_in, shared_by_threads: races || memory };
    }
    shared
}

fn contains_partition(s: &Stmt) -> bool {
    let mut found = false;
    crate::ir::visit::walk(s, true, &mut |x| found |= matches!(x.kind, StmtKind::Partition(_)), &mut |_| {});
    found
}

/// The walk of [`partition_shared_locals`]: each reference of a local with the partitions
/// around it.
struct RefWalker<'w> {
    stack: Vec<u32>,
    next: u32,
    written_in: &'w mut Vec<Vec<u32>>,
    /// Per local, the partitions with a read of it inside.
    read_in: &'w mut Vec<Vec<u32>>,
    refs: &'w mut Vec<Vec<Vec<u32>>>,
    thread_vars: &'w mut Vec<bool>,
    /// Per partition, its level, its location and the last source location of its loop body
    /// (same file as the partition).
    spans: Vec<(crate::ir::acc::Level, Loc, Loc)>,
    /// Per local, a schedule variable or launch parameter (a branch on those alone is the
    /// scheduler's guard of an iteration, not a condition of the program).
    model: &'w [bool],
    /// The program's branches (`if`, `switch`) around the statement being walked.
    branches: u32,
    /// Per partition on `stack`, `branches` when it began.
    entered_at: Vec<u32>,
    /// Per local, the partitions in which a reference of it was seen.
    seen_in: Vec<Vec<u32>>,
    /// Per local, the partitions whose first reference of it is an unconditional plain write.
    set_first: &'w mut Vec<Vec<u32>>,
    /// Per local, the partitions in which its address is taken (a memory local's accesses).
    addressed_in: &'w mut Vec<Vec<u32>>,
    /// Per local, referenced inside a partition outside every `atomic` statement.
    plain_in_partition: &'w mut Vec<bool>,
    /// Whether a directive is an `atomic` construct.
    is_atomic: &'w dyn Fn(DirectiveId) -> bool,
    /// The `atomic` statements around the statement being walked.
    atomic_depth: u32,
}

impl RefWalker<'_> {
    fn stmt(&mut self, s: &Stmt) {
        if let StmtKind::Partition(p) = &s.kind {
            if let Some(t) = self.thread_vars.get_mut(p.var.0 as usize) {
                *t = true;
            }
            self.expr(&p.count);
            let mut locs = Vec::new();
            crate::ir::visit::walk(&p.body, true, &mut |x| locs.push(x.loc), &mut |_| {});
            crate::ir::visit::walk(&p.body, true, &mut |_| {}, &mut |e| locs.push(e.loc));
            let same_file = locs.into_iter().filter(|l| l.file == s.loc.file && l.line != 0);
            // From the loop (the partition's location) to the last location of its body (the
            // scheduler's own statements carry the construct's location, before the loop).
            let own: Vec<Loc> = same_file.filter(|l| (l.line, l.col) != (s.loc.line, s.loc.col)).collect();
            let lo = own.iter().copied().min_by_key(|l| (l.line, l.col)).unwrap_or(s.loc);
            let hi = own.iter().copied().max_by_key(|l| (l.line, l.col)).unwrap_or(s.loc);
            self.spans.push((p.level, lo, hi));
            self.next += 1;
            self.stack.push(self.next);
            self.entered_at.push(self.branches);
            self.stmt(&p.body);
            self.stack.pop();
            self.entered_at.pop();
            return;
        }
        if let StmtKind::Acc { directive, body: Some(body) } = &s.kind {
            if (self.is_atomic)(*directive) {
                self.atomic_depth += 1;
                self.stmt(body);
                self.atomic_depth -= 1;
                return;
            }
        }
        // A branch on a value of the program makes what it contains conditional.
        match &s.kind {
            StmtKind::If(cond, ..) | StmtKind::Switch { cond, .. } => {
                let mut guard = true;
                crate::ir::visit::visit_exprs(cond, &mut |x| match &x.kind {
                    ExprKind::Local(l) => guard &= self.model.get(l.0 as usize).copied().unwrap_or(false),
                    ExprKind::Int(_) | ExprKind::Unary(..) | ExprKind::Binary(..) | ExprKind::Cast(_) => {}
                    _ => guard = false,
                });
                if !guard {
                    self.expr(cond);
                    self.branches += 1;
                    crate::ir::visit::stmt_parts(s, &mut |part| match part {
                        crate::ir::visit::Part::Stmt(x) => self.stmt(x),
                        crate::ir::visit::Part::Expr(_) => {}
                    });
                    self.branches -= 1;
                    return;
                }
            }
            _ => {}
        }
        crate::ir::visit::stmt_parts(s, &mut |part| match part {
            crate::ir::visit::Part::Stmt(x) => self.stmt(x),
            crate::ir::visit::Part::Expr(e) => self.expr(e),
        });
    }

    fn expr(&mut self, e: &Expr) {
        // The value of an assignment is evaluated before the store: the stores of `e` come
        // after its reads.
        let mut stores = Vec::new();
        crate::ir::visit::visit_exprs(e, &mut |x| {
            match &x.kind {
                ExprKind::Local(l) => self.reference(*l, false, false),
                ExprKind::LocalAddr(l) => {
                    if let Some(within) = self.addressed_in.get_mut(l.0 as usize) {
                        for &p in &self.stack {
                            if !within.contains(&p) {
                                within.push(p);
                            }
                        }
                    }
                }
                ExprKind::Assign { place: Place::Local(l), .. } => stores.push(*l),
                ExprKind::CompoundAssign { place: Place::Local(l), .. } | ExprKind::IncDec { place: Place::Local(l), .. } => {
                    self.reference(*l, false, false);
                    self.reference(*l, true, false);
                }
                _ => {}
            }
        });
        for l in stores {
            self.reference(l, true, true);
        }
        // Statements inside expressions (initializers, statement expressions).
        let mut inner = Vec::new();
        crate::ir::visit::visit_exprs(e, &mut |x| inner.extend(crate::ir::visit::expr_stmts(x).iter()));
        for st in inner {
            self.stmt(st);
        }
    }

    /// A reference of local `l` (`plain`: a store of a whole new value).
    fn reference(&mut self, l: LocalId, write: bool, plain: bool) {
        let i = l.0 as usize;
        if i >= self.refs.len() {
            return;
        }
        if !self.stack.is_empty() && self.atomic_depth == 0 {
            self.plain_in_partition[i] = true;
        }
        for (k, &p) in self.stack.iter().enumerate() {
            if !self.seen_in[i].contains(&p) {
                self.seen_in[i].push(p);
                if write && plain && self.entered_at.get(k).is_some_and(|&b| b == self.branches) {
                    self.set_first[i].push(p);
                }
            }
        }
        let within = if write { &mut self.written_in[i] } else { &mut self.read_in[i] };
        for &p in &self.stack {
            if !within.contains(&p) {
                within.push(p);
            }
        }
        if !self.refs[i].contains(&self.stack) {
            self.refs[i].push(self.stack.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::thread_order;

    #[test]
    fn thread_orders_are_permutations_fixed_by_the_seed() {
        for n in [1u64, 2, 3, 5, 8, 31, 32, 33, 100, 1024] {
            for seed in [1u64, 2, 77] {
                let order: Vec<u64> = (0..n).map(|k| thread_order(seed, 5, k, n)).collect();
                let mut sorted = order.clone();
                sorted.sort_unstable();
                assert_eq!(sorted, (0..n).collect::<Vec<_>>(), "n {n} seed {seed}: {order:?}");
                assert_eq!(order, (0..n).map(|k| thread_order(seed, 5, k, n)).collect::<Vec<_>>());
            }
        }
        let a: Vec<u64> = (0..32).map(|k| thread_order(1, 5, k, 32)).collect();
        let b: Vec<u64> = (0..32).map(|k| thread_order(2, 5, k, 32)).collect();
        assert_ne!(a, b, "two seeds, two orders");
        assert_ne!(a, (0..32).collect::<Vec<_>>(), "a seed moves the lanes");
    }
}
