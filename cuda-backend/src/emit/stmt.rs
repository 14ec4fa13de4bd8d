//! Statements and their effects: how the emitter writes a kernel's statements (thread loops and
//! their barriers, guarded single code, reduction combines, control expressions) and which
//! expressions store to memory the block's threads share. Part of [`crate::emit`], whose module
//! documentation states the model.

use super::schedule::*;
use super::text::*;
use super::*;

impl<'p> Emitter<'p> {
    // ------------------------------------------------------------------ statements

    pub(super) fn stmt(&mut self, fx: &mut FuncCx<'_>, s: &Stmt, depth: usize, th: Threads, out: &mut String) {
        let pad = "    ".repeat(depth);
        if let Some(ml) = fx.mapped.get(&(s as *const Stmt)).cloned() {
            self.mapped_loop(fx, ml, depth, out);
            return;
        }
        if fx.kernel && !fx.first_worker_only && self.first_worker_only(fx, s, th) {
            // Worker-single code inside a vector loop: the workers of a lane run it redundantly
            // and only the first has effects (every store there is guarded so); no partitioned
            // loop, and so no barrier, can be inside a vector loop (§2.7). A statement whose
            // control expression stores to shared memory, which cannot be broadcast without a
            // barrier among those workers, is run by the first worker alone.
            let _ = writeln!(out, "{pad}if (threadIdx.y == 0) // worker-single code in a vector loop: the first worker alone runs this statement, whose control stores to memory the block shares");
            let _ = writeln!(out, "{pad}{{");
            fx.first_worker_only = true;
            self.stmt(fx, s, depth + 1, th, out);
            fx.first_worker_only = false;
            let _ = writeln!(out, "{pad}}}");
            return;
        }
        match &s.kind {
            StmtKind::Empty => {}
            StmtKind::Expr(e) if fx.kernel && th.depth() > 0 && self.gang_reduction_update(fx, e).is_some() => {
                let guard = th.guard().map(|g| format!("if ({g}) ")).unwrap_or_default();
                match self.gang_reduction_update(fx, e) {
                    Some(Ok(text)) => {
                        let _ = writeln!(out, "{pad}// update of the gang's reduction copy by the threads of a partitioned loop: atomic");
                        let _ = writeln!(out, "{pad}{guard}{text}");
                    }
                    Some(Err(why)) => {
                        let u = self.unsupported(format!("this update of a reduction variable ({why})"), e.loc);
                        let _ = writeln!(out, "{pad}// {u}");
                    }
                    None => {}
                }
            }
            StmtKind::Expr(e) if fx.kernel && !fx.first_worker_only && fx.broadcasts.contains(&(s as *const Stmt)) => {
                // The other threads read what the one thread stores before the next partitioned
                // loop's barrier ([`crate::broadcast`]).
                let text = self.expr(fx, e);
                let text = strip_parens(&text).to_string();
                let sync = self.context_barrier(th);
                let _ = writeln!(out, "{pad}{sync}; // the threads read this store of single code to shared memory before the next partitioned loop");
                self.guarded(&text, true, depth, th, out);
                let _ = writeln!(out, "{pad}{sync};");
            }
            StmtKind::Expr(e) => {
                let text = self.expr(fx, e);
                let text = strip_parens(&text);
                let effect = self.has_shared_effect(fx, e);
                self.guarded(text, effect, depth, th, out);
            }
            StmtKind::Block(v) => {
                let _ = writeln!(out, "{pad}{{");
                self.block_items(fx, v, depth + 1, th, out);
                let _ = writeln!(out, "{pad}}}");
            }
            StmtKind::If(c, t, e) => {
                let c = self.control_expr(fx, c, th);
                let _ = writeln!(out, "{pad}if ({c})");
                self.sub_stmt(fx, t, depth, th, out);
                if let Some(e) = e {
                    let _ = writeln!(out, "{pad}else");
                    self.sub_stmt(fx, e, depth, th, out);
                }
            }
            StmtKind::While(c, b) => {
                let c = self.control_expr(fx, c, th);
                let _ = writeln!(out, "{pad}while ({c})");
                self.sub_stmt(fx, b, depth, th, out);
            }
            StmtKind::DoWhile(b, c) => {
                let _ = writeln!(out, "{pad}do");
                self.sub_stmt(fx, b, depth, th, out);
                let c = self.control_expr(fx, c, th);
                let _ = writeln!(out, "{pad}while ({c});");
            }
            StmtKind::Partition(p) => match thread_loop(s) {
                Some((tl, body)) if fx.kernel => self.thread_loop(fx, s, tl, body, depth, th, out),
                // In a device function (a `routine worker|vector`), the calling thread runs the
                // level's threads one after the other.
                _ => {
                    let var_ty = fx.func.locals.get(p.var.0 as usize).map_or(p.count.ty, |l| l.ty);
                    let as_loop = p.sequential_loop(&self.p.types, var_ty, s.loc);
                    self.stmt(fx, &as_loop, depth, th, out);
                }
            },
            StmtKind::For { init, cond, step, body } => {
                if fx.kernel && fx.barriers.is_rounds(s) && fx.rounds != Some(s as *const Stmt) {
                    // The rounds of one partitioned loop are iterations of that loop: no
                    // barrier between them (§1.2); those the loop needs go around it.
                    let outer = fx.rounds.replace(s);
                    let why = fx.barriers.before(s).map(str::to_string);
                    self.barrier(why, true, depth, th, out);
                    let _ = writeln!(out, "{pad}// partitioned loop, round by round (no barrier between rounds)");
                    self.stmt(fx, s, depth, th, out);
                    let why = fx.barriers.after(s).map(str::to_string);
                    self.barrier(why, false, depth, th, out);
                    fx.rounds = outer;
                    return;
                }
                let init = match init.as_deref() {
                    None => String::new(),
                    Some(Stmt { kind: StmtKind::Expr(e), .. }) => self.control_expr(fx, e, th),
                    Some(Stmt { kind: StmtKind::Block(v), .. }) if v.iter().all(|x| matches!(x.kind, StmtKind::Expr(_))) => {
                        let mut parts = Vec::new();
                        for x in v {
                            if let StmtKind::Expr(e) = &x.kind {
                                parts.push(self.control_expr(fx, e, th));
                            }
                        }
                        parts.join(", ")
                    }
                    Some(other) => {
                        // Declarations with initializers that are not expressions: run them first.
                        let _ = writeln!(out, "{pad}{{");
                        self.stmt(fx, other, depth + 1, th, out);
                        let inner = Stmt { kind: StmtKind::For { init: None, cond: cond.clone(), step: step.clone(), body: body.clone() }, loc: s.loc };
                        self.stmt(fx, &inner, depth + 1, th, out);
                        let _ = writeln!(out, "{pad}}}");
                        return;
                    }
                };
                let c = cond.as_ref().map(|c| self.control_expr(fx, c, th)).unwrap_or_default();
                let st = step.as_ref().map(|c| self.control_expr(fx, c, th)).unwrap_or_default();
                let (init, c, st) = (strip_parens(&init), strip_parens(&c), strip_parens(&st));
                let _ = writeln!(out, "{pad}for ({init}; {c}; {st})");
                self.sub_stmt(fx, body, depth, th, out);
            }
            StmtKind::Switch { cond, body, cases, default } => {
                let c = self.control_expr(fx, cond, th);
                let mut map: HashMap<LabelId, (Vec<u64>, bool, TypeId)> = HashMap::new();
                for (v, l) in cases {
                    map.entry(*l).or_insert_with(|| (Vec::new(), false, cond.ty)).0.push(*v);
                }
                if let Some(d) = default {
                    map.entry(*d).or_insert_with(|| (Vec::new(), false, cond.ty)).1 = true;
                }
                fx.cases.push(map);
                let _ = writeln!(out, "{pad}switch ({c})");
                self.sub_stmt(fx, body, depth, th, out);
                fx.cases.pop();
            }
            StmtKind::Label(l) => {
                if let Some((vals, dflt, ty)) = fx.cases.last().and_then(|m| m.get(l)).cloned() {
                    for v in vals {
                        let lit = self.int_lit(v, ty);
                        let _ = writeln!(out, "{pad}case {lit}:");
                    }
                    if dflt {
                        let _ = writeln!(out, "{pad}default:");
                    }
                    let _ = writeln!(out, "{pad};");
                } else {
                    let _ = writeln!(out, "{pad}L{}:;", l.0);
                }
            }
            StmtKind::Goto(l) => {
                let _ = writeln!(out, "{pad}goto L{};", l.0);
            }
            StmtKind::Break => {
                let _ = writeln!(out, "{pad}break;");
            }
            StmtKind::Continue => {
                let _ = writeln!(out, "{pad}continue;");
            }
            StmtKind::Return(e) => match e {
                None => {
                    let _ = writeln!(out, "{pad}return;");
                }
                Some(e) => {
                    let v = self.expr(fx, e);
                    let v = if self.is_aggregate(e.ty) {
                        let t = self.ty(e.ty, e.loc);
                        format!("*({t} *)({v})")
                    } else {
                        v
                    };
                    let _ = writeln!(out, "{pad}return {v};");
                }
            },
            StmtKind::ZeroFill { addr, size } => {
                let a = self.expr(fx, addr);
                let private = self.is_private_addr(fx, addr);
                self.guarded(&format!("memset({a}, 0, {size})"), !private, depth, th, out);
            }
            StmtKind::VlaAlloc(l) => match fx.func.locals.get(l.0 as usize) {
                Some(local) if fx.homes[l.0 as usize] == Home::Thread => {
                    let size = self.vm_size(fx, local.ty, s.loc);
                    let name = fx.names[l.0 as usize].clone();
                    let _ = writeln!(out, "{pad}{name}.alloc({size}, {}); // this thread's `{}`", s.loc.line, local.name);
                }
                _ => {
                    let u = self.unsupported("a variable-length array shared by the threads of a gang in device code", s.loc);
                    let _ = writeln!(out, "{pad}// {u}");
                }
            },
            StmtKind::AccLaunch(_) => {
                let u = self.unsupported("a compute construct inside device code", s.loc);
                let _ = writeln!(out, "{pad}// {u}");
            }
            StmtKind::Acc { directive, body } => {
                let d = self.p.acc.get(directive.0 as usize).and_then(|d| d.as_ref());
                let text = self.p.directives.get(directive.0 as usize).map(|d| d.text.clone()).unwrap_or_default();
                match (d.map(|d| &d.kind), body) {
                    (Some(AccKind::Atomic(_)), Some(b)) => self.atomic(fx, &text, b, depth, th, out),
                    (_, Some(b)) => {
                        let _ = writeln!(out, "{pad}// #pragma acc {text}");
                        self.stmt(fx, b, depth, th, out);
                    }
                    (_, None) => {
                        let _ = writeln!(out, "{pad}// #pragma acc {text}");
                    }
                }
            }
        }
    }

    /// An expression that controls a statement (condition, `for` clauses). Every thread of the
    /// block evaluates it; when it stores to memory the threads share (or calls the C library)
    /// in code that one thread runs (gang-redundant, worker-single or vector-single), that thread
    /// alone evaluates it and the others take its value: a barrier of the threads that run the
    /// code redundantly (all of the block's, or the worker's lanes) before the store (so that
    /// none still reads what it overwrites), the store by the one thread into a shared slot, a
    /// barrier, and every thread reads the slot (`[&] { … }()`, a C++ lambda, so that it stays
    /// an expression in a `for` clause). The workers of one vector lane (a vector loop outside
    /// worker loops, whose code is worker-single) have no barrier of their own: not supported.
    pub(super) fn control_expr(&mut self, fx: &mut FuncCx<'_>, e: &Expr, th: Threads) -> String {
        let Some(guard) = th.guard() else { return self.expr(fx, e) };
        if !self.has_shared_effect(fx, e) || fx.first_worker_only {
            return self.expr(fx, e);
        }
        let sync = match (th.worker, th.vector) {
            (false, false) => "__syncthreads()",
            (true, false) => {
                self.prelude.insert("sync_worker");
                self.worker_barriers = true;
                "accsim_sync_worker()"
            }
            _ if self.only_plain_shared_stores(fx, e) => {
                // No barrier for the workers of one lane: every thread evaluates the expression
                // and the first worker alone stores (`g ? (p = v) : v`); the value is `v` either
                // way.
                let outer = fx.store_guard.replace(guard);
                let text = self.expr(fx, e);
                fx.store_guard = outer;
                return text;
            }
            _ => {
                // `first_worker_only` runs such statements in the first worker alone.
                let u = self.unsupported("a store to shared memory (or a library call) inside a condition or `for` clause of worker-single code in a vector loop (its workers have no barrier of their own)", e.loc);
                let text = self.expr(fx, e);
                return format!("{u} {text}");
            }
        };
        let text = self.expr(fx, e);
        if matches!(self.p.types.get(e.ty), Type::Void) {
            return format!("[&] {{ {sync}; if ({guard}) {text}; {sync}; }}()");
        }
        if self.is_aggregate(e.ty) {
            let u = self.unsupported("a store to shared memory inside a condition or `for` clause whose value is a struct or union", e.loc);
            return format!("{u} {text}");
        }
        let t = self.ty(e.ty, e.loc);
        let (name, slot, decl) = if th.worker {
            let n = format!("__ctl_w_{}", sanitize(&t));
            (n.clone(), format!("{n}[threadIdx.y]"), format!("__shared__ {}", self.decl(e.ty, &format!("{n}[{MAX_WORKERS}]"), e.loc)))
        } else {
            let n = format!("__ctl_{}", sanitize(&t));
            (n.clone(), n.clone(), format!("__shared__ {}", self.decl(e.ty, &n, e.loc)))
        };
        fx.control_slots.entry(name).or_insert((decl, th.worker));
        format!("[&]() -> {t} {{ {sync}; if ({guard}) {slot} = {text}; {sync}; return {slot}; }}()")
    }

    /// A nested statement of a control statement, always in braces.
    pub(super) fn sub_stmt(&mut self, fx: &mut FuncCx<'_>, s: &Stmt, depth: usize, th: Threads, out: &mut String) {
        if matches!(s.kind, StmtKind::Block(_)) {
            self.stmt(fx, s, depth, th, out);
        } else {
            let pad = "    ".repeat(depth);
            let _ = writeln!(out, "{pad}{{");
            self.stmt(fx, s, depth + 1, th, out);
            let _ = writeln!(out, "{pad}}}");
        }
    }

    /// Block items; the statements after a thread's share of a partitioned loop (the loop over
    /// `__chunk_start`) are the reduction combines.
    pub(super) fn block_items(&mut self, fx: &mut FuncCx<'_>, v: &[Stmt], depth: usize, th: Threads, out: &mut String) {
        let mut combining = false;
        for x in v {
            if combining && fx.kernel && th.depth() > 0 {
                // The combine is wrapped in the `atomic update` the scheduler adds (§2.7.11).
                let x = match &x.kind {
                    StmtKind::Acc { body: Some(b), .. } => b.as_ref(),
                    _ => x,
                };
                if let StmtKind::Expr(Expr { kind: ExprKind::Assign { place, value }, ty, loc }) = &x.kind {
                    self.combine(fx, place, value, *ty, *loc, depth, th, out);
                    continue;
                }
            }
            self.stmt(fx, x, depth, th, out);
            if fx.kernel && is_share_loop(fx.func, x) {
                combining = true;
            }
        }
    }

    pub(super) fn guarded(&mut self, text: &str, effect: bool, depth: usize, th: Threads, out: &mut String) {
        let pad = "    ".repeat(depth);
        match th.guard() {
            Some(g) if effect => {
                let _ = writeln!(out, "{pad}if ({g}) {text};");
            }
            _ => {
                let _ = writeln!(out, "{pad}{text};");
            }
        }
    }

    /// A worker or lane loop of the scheduler: each thread of the block (or of the worker) runs
    /// its own share. Its barriers are those [`crate::barrier`] keeps, of the kind of the
    /// context: block-wide, or among one worker's lanes inside a worker loop.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn thread_loop(&mut self, fx: &mut FuncCx<'_>, s: &Stmt, tl: ThreadLoop, body: &Stmt, depth: usize, th: Threads, out: &mut String) {
        let pad = "    ".repeat(depth);
        let (inner_body, inner, group) = enter(&tl, body, th);
        let mut sets = Vec::new();
        let what = match tl {
            ThreadLoop::Worker(v) => {
                sets.push((v, "threadIdx.y"));
                match barrier::joined_vector_loop(body).and_then(thread_loop) {
                    Some((ThreadLoop::Vector(lane), _)) => {
                        sets.push((lane, "threadIdx.x"));
                        "worker- and vector"
                    }
                    _ => "worker",
                }
            }
            ThreadLoop::Vector(v) => {
                sets.push((v, "threadIdx.x"));
                "vector"
            }
        };
        let own = !fx.barriers.in_rounds(s);
        if own {
            let why = fx.barriers.before(s).map(str::to_string);
            self.barrier(why, true, depth, th, out);
        }
        let _ = writeln!(out, "{pad}{{ // {what}-partitioned: each thread runs its share");
        for (v, idx) in sets {
            let _ = writeln!(out, "{pad}    {} = {idx};", fx.names[v.0 as usize]);
        }
        let outer_group = fx.group.replace(group);
        match &inner_body.kind {
            StmtKind::Block(v) => self.block_items(fx, v, depth + 1, inner, out),
            _ => self.stmt(fx, inner_body, depth + 1, inner, out),
        }
        fx.group = outer_group;
        let _ = writeln!(out, "{pad}}}");
        if own {
            let why = fx.barriers.after(s).map(str::to_string);
            self.barrier(why, false, depth, th, out);
        }
    }

    /// A barrier that [`crate::barrier`] keeps (`why`), before or after a partitioned loop that
    /// runs in context `th`: among the block's threads, or among one worker's lanes.
    pub(super) fn barrier(&mut self, why: Option<String>, before: bool, depth: usize, th: Threads, out: &mut String) {
        let Some(why) = why else { return };
        let pad = "    ".repeat(depth);
        let sync = self.context_barrier(th);
        let side = if before { "before" } else { "after" };
        let _ = writeln!(out, "{pad}{sync}; // barrier {side} the partitioned loop: {why}");
    }

    /// The barrier of the threads that run code of context `th` redundantly: the block's, or
    /// one worker's lanes inside a worker loop.
    pub(super) fn context_barrier(&mut self, th: Threads) -> &'static str {
        if th.worker {
            self.prelude.insert("sync_worker");
            self.worker_barriers = true;
            "accsim_sync_worker()"
        } else {
            "__syncthreads()"
        }
    }

    /// One loop of a nest under a `--loop-map` ([`crate::loopmap`]): every thread of the grid
    /// runs the iterations of its index, with the mapping's stride; no barrier, since the nest is
    /// the whole kernel and has no per-thread state.
    pub(super) fn mapped_loop(&mut self, fx: &mut FuncCx<'_>, ml: MappedLoop<'_>, depth: usize, out: &mut String) {
        let pad = "    ".repeat(depth);
        let k = fx.names[ml.temps.iteration.0 as usize].clone();
        let n = fx.names[ml.temps.iterations.0 as usize].clone();
        let _ = writeln!(out, "{pad}// {}, loop {} of {} (line {}): iteration {} + i·({})", self.current_map, ml.level + 1, ml.depth, ml.line, ml.start, ml.stride);
        let _ = writeln!(out, "{pad}for ({k} = {}; {k} < {n}; {k} += {})", ml.start, ml.stride);
        self.sub_stmt(fx, ml.iteration, depth, Threads::ALL, out);
    }

    /// `*r = *r op v` or `*r op= v` where `r` points to the gang's copy of a reduction variable:
    /// the atomic read-modify-write, or `None` when `e` is no such update.
    pub(super) fn gang_reduction_update(&mut self, fx: &mut FuncCx<'_>, e: &Expr) -> Option<Result<String, String>> {
        let is_copy = |a: &Expr| matches!(a.strip_casts().kind, ExprKind::Local(l) if fx.gang_reductions.contains(&l));
        match &e.kind {
            ExprKind::Assign { place: Place::Mem(a), value } if is_copy(a) => {
                let (addr, read) = self.target(fx, &Place::Mem(a.clone()), e.ty, e.loc)?;
                let update = self.update_of_value(fx, value, e.ty, &read);
                Some(self.rmw(fx, &addr, &read, e.ty, update, None, e.loc))
            }
            ExprKind::CompoundAssign { op, place: Place::Mem(a), value, op_ty } if is_copy(a) && *op_ty == e.ty => {
                let (addr, read) = self.target(fx, &Place::Mem(a.clone()), e.ty, e.loc)?;
                Some(self.rmw(fx, &addr, &read, e.ty, Update::Op(*op, value), None, e.loc))
            }
            _ => None,
        }
    }

    /// `place = f(place, private)`: a thread's reduction copy combined into the variable of the
    /// enclosing context (§2.7.11). The threads of the loop first combine their copies by a
    /// block reduction (`accsim_reduce`: warp shuffles, then a tree in shared memory); then the
    /// group's first thread combines the result into the variable, atomically, since other
    /// groups (blocks, workers) may combine into it at the same time.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn combine(&mut self, fx: &mut FuncCx<'_>, place: &Place, value: &Expr, ty: TypeId, loc: Loc, depth: usize, th: Threads, out: &mut String) {
        let pad = "    ".repeat(depth);
        let target_local = match place {
            Place::Local(l) => Some(*l),
            Place::Mem(_) => None,
        };
        if let Some(l) = target_local {
            if fx.homes[l.0 as usize] == Home::Thread {
                let u = self.unsupported("a reduction into a thread-private register", loc);
                let _ = writeln!(out, "{pad}// {u}");
                return;
            }
        }
        let Some((addr, read)) = self.target(fx, place, ty, loc) else { return };
        let group = fx.group.unwrap_or(Group::Block);
        let leader = combine_threads(th, group);
        let guard = leader.guard().map(|g| format!("if ({g}) ")).unwrap_or_default();
        let t = self.ty(ty, loc);
        // Complex `+` and `*` (C's float/double _Complex, the two operators §2.5.11's table
        // allows on them): `+` adds the parts one by one, `*` multiplies as core's gang model
        // does (in double precision, rounded to the part type) with a compare-and-swap loop.
        let complex_part = match (&value.kind, self.p.types.get(ty)) {
            (ExprKind::ComplexBinary { op: op @ (BinOp::Add | BinOp::Mul), .. }, Type::Complex(FloatKind::F32)) => Some(("float", *op)),
            (ExprKind::ComplexBinary { op: op @ (BinOp::Add | BinOp::Mul), .. }, Type::Complex(FloatKind::F64)) => Some(("double", *op)),
            (ExprKind::ComplexBinary { op: op @ (BinOp::Add | BinOp::Mul), .. }, Type::Complex(FloatKind::LongDouble)) => Some(("long double", *op)),
            _ => None,
        };
        // The thread's copy: the local the combine reads besides the target (and its address).
        let mut in_target: HashSet<LocalId> = target_local.into_iter().collect();
        if let Place::Mem(a) = place {
            walk_expr(a, &mut |e| {
                if let ExprKind::Local(l) | ExprKind::LocalAddr(l) = &e.kind {
                    in_target.insert(*l);
                }
            });
        }
        // A thread's copy is a register, unless a nested partitioned loop with a reduction on
        // the same variable combines into it (`loop worker reduction(+:s)` around `loop vector
        // reduction(+:s)`): then it is the worker's (or block's) shared slot, which every
        // thread of the group reads after that inner combine.
        let mut mine = None;
        let mut shared_mine = None;
        walk_expr(value, &mut |e| {
            if let ExprKind::Local(l) | ExprKind::LocalAddr(l) = &e.kind {
                if !in_target.contains(l) {
                    let slot = if fx.homes[l.0 as usize] == Home::Thread { &mut mine } else { &mut shared_mine };
                    slot.get_or_insert(*l);
                }
            }
        });
        let Some(mine) = mine.or(shared_mine) else {
            let u = self.unsupported("this reduction combine (no thread copy found)", loc);
            let _ = writeln!(out, "{pad}// {u}");
            return;
        };
        let mine_name = fx.names[mine.0 as usize].clone();
        let mine_home = std::mem::replace(&mut fx.homes[mine.0 as usize], Home::Thread);
        // The final combine of the group's result `__r`, and the operator as a function of two values.
        let (last, op) = if let Some((part, complex_op)) = complex_part {
            if complex_op == BinOp::Mul {
                self.prelude.insert("reduce_complex_mul");
                if part == "long double" {
                    self.prelude.insert("reduce_complex_mul_ld");
                }
                (format!("accsim_cmul_atomic(({t} *)({addr}), __r);"), "return accsim_cmul_combine(__assumed, __mine);".to_string())
            } else {
                // A `long double` part is the double in the first 8 of its 16 bytes.
                let (part, im, cast) = if part == "long double" { ("double", 2, "(double)") } else { (part, 1, "") };
                let last = format!("{{ atomicAdd(&(({part} *)({addr}))[0], {cast}__r.re); atomicAdd(&(({part} *)({addr}))[{im}], {cast}__r.im); }}");
                (last, format!("{t} __s = {{__assumed.re + __mine.re, __assumed.im + __mine.im}}; return __s;"))
            }
        } else {
            fx.names[mine.0 as usize] = "__r".into();
            let update = self.update_of_value(fx, value, ty, &read);
            let last = self.rmw(fx, &addr, &read, ty, update, None, loc);
            fx.names[mine.0 as usize] = "__mine".into();
            fx.assumed = Some(read.clone());
            let op = self.expr(fx, value);
            fx.assumed = None;
            match last {
                Ok(last) => (last, format!("return {op};")),
                Err(why) => {
                    fx.names[mine.0 as usize] = mine_name;
                    fx.homes[mine.0 as usize] = mine_home;
                    let u = self.unsupported(format!("this reduction combine ({why})"), loc);
                    let _ = writeln!(out, "{pad}// {u}");
                    return;
                }
            }
        };
        fx.names[mine.0 as usize] = mine_name.clone();
        fx.homes[mine.0 as usize] = mine_home;
        let value_of_mine = if complex_part.is_some() { format!("*({t} *)(&{})", self.local_ref(fx, mine)) } else { self.local_ref(fx, mine) };
        self.prelude.insert("reduce");
        if let Some((part, _)) = complex_part {
            self.prelude.insert("reduce_complex");
            if part == "long double" {
                self.prelude.insert("reduce_complex_ld");
            }
        }
        let scratch = fx.scratch.entry(t.clone()).or_insert_with(|| format!("__scratch_{}", sanitize(&t))).clone();
        let (rank, count, stride, over) = match group {
            Group::Lanes => ("threadIdx.x", "blockDim.x", "1", "the worker's vector lanes"),
            Group::Workers => ("threadIdx.y", "blockDim.y", "blockDim.x", "the workers"),
            Group::Block => ("threadIdx.y * blockDim.x + threadIdx.x", "blockDim.x * blockDim.y", "1", "the workers and vector lanes"),
        };
        let sync = if th.worker && group == Group::Lanes {
            self.prelude.insert("sync_worker");
            self.worker_barriers = true;
            "accsim_sync_worker()"
        } else {
            "__syncthreads()"
        };
        let _ = writeln!(out, "{pad}// reduction combine (line {}): a block reduction over {over}, then one atomic combine by the first of them", loc.line);
        let _ = writeln!(out, "{pad}{{");
        let _ = writeln!(out, "{pad}    {t} __r = accsim_reduce({value_of_mine}, {scratch}, {rank}, {count}, {stride}, []({t} __assumed, {t} __mine) {{ {op} }}, [] {{ {sync}; }});");
        let _ = writeln!(out, "{pad}    {guard}{last}");
        let _ = writeln!(out, "{pad}}}");
    }

    /// The address of an atomic's or a combine's target and the text that reads it.
    pub(super) fn target(&mut self, fx: &mut FuncCx<'_>, place: &Place, ty: TypeId, loc: Loc) -> Option<(String, String)> {
        match place {
            Place::Mem(a) => {
                let a_text = self.expr(fx, a);
                let ld = Expr { kind: ExprKind::Load(a.clone()), ty, loc };
                Some((a_text, self.expr(fx, &ld)))
            }
            Place::Local(l) => {
                let r = self.local_ref(fx, *l);
                Some((format!("&{r}"), r))
            }
        }
    }

    /// `new = value`, where `value` reads the target (`read`): an operator with an operand when
    /// the value has that shape, else the whole expression.
    pub(super) fn update_of_value<'e>(&mut self, fx: &mut FuncCx<'_>, value: &'e Expr, ty: TypeId, read: &str) -> Update<'e> {
        let stripped = value.strip_casts();
        if let ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor), a, b) = &stripped.kind {
            if stripped.ty == ty {
                if self.expr(fx, a) == read {
                    return Update::Op(*op, b);
                }
                if *op != BinOp::Sub && self.expr(fx, b) == read {
                    return Update::Op(*op, a);
                }
            }
        }
        Update::Value(value)
    }

    /// One read-modify-write of the `ty` object at `addr` (whose read is `read`), as a statement:
    /// an `atomicAdd`/`atomicAnd`/`atomicOr`/`atomicXor` when the update is one, else a
    /// compare-and-swap loop. `capture`: store the old (`true`) or new value into this lvalue.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn rmw(&mut self, fx: &mut FuncCx<'_>, addr: &str, read: &str, ty: TypeId, update: Update<'_>, capture: Option<(String, bool)>, loc: Loc) -> Result<String, String> {
        let t = self.p.types.get(ty).clone();
        let (int, wide, small) = match t {
            Type::Int(IntType { bytes: 4, .. }) => (true, false, false),
            Type::Int(IntType { bytes: 8, .. }) => (true, true, false),
            Type::Float(FloatKind::F32) => (false, false, false),
            Type::Float(FloatKind::F64) => (false, true, false),
            // `long double`: the double in its first 8 bytes (prelude `ldouble`).
            Type::Float(FloatKind::LongDouble) => (false, true, false),
            // 1- and 2-byte objects: a compare-and-swap of the aligned word that holds them.
            Type::Int(IntType { bytes: 1 | 2, .. }) | Type::Bool => (true, false, true),
            _ => return Err(format!("atomic operations on `{}`: only integers, float and double", self.p.types.display(ty))),
        };
        let (addr, tn) = if matches!(t, Type::Float(FloatKind::LongDouble)) {
            (format!("((double *)({addr}))"), "double".to_string())
        } else {
            (addr.to_string(), self.ty(ty, loc))
        };
        let addr = addr.as_str();
        if small {
            self.prelude.insert("cas_small");
        }
        if let (Update::Op(op, operand), false) = (&update, small) {
            let f = match op {
                BinOp::Add | BinOp::Sub => Some("atomicAdd"),
                BinOp::BitAnd if int => Some("atomicAnd"),
                BinOp::BitOr if int => Some("atomicOr"),
                BinOp::BitXor if int => Some("atomicXor"),
                _ => None,
            };
            let new_capture = matches!(capture, Some((_, false)));
            if let (Some(f), false) = (f, new_capture) {
                let v = self.expr(fx, operand);
                let v = if *op == BinOp::Sub { format!("-({v})") } else { v };
                let call = if int && wide {
                    format!("{f}((unsigned long long *)({addr}), (unsigned long long)({v}))")
                } else {
                    format!("{f}({addr}, {v})")
                };
                return Ok(match capture {
                    Some((lhs, _)) => format!("{lhs} = ({tn}){call};"),
                    None => format!("{call};"),
                });
            }
        }
        self.prelude.insert("cas");
        fx.assumed = Some(read.to_string());
        let new = match update {
            Update::Op(op, operand) => {
                let v = self.expr(fx, operand);
                format!("(__assumed {} {v})", binop(op))
            }
            Update::Value(v) => self.expr(fx, v),
            Update::Text(t) => t,
        };
        fx.assumed = None;
        let capture = match capture {
            Some((lhs, true)) => format!(" {lhs} = __assumed;"),
            Some((lhs, false)) => format!(" {lhs} = __new;"),
            None => String::new(),
        };
        Ok(format!(
            "{{ {tn} *__p = {addr}, __old = *__p, __assumed, __new; do {{ __assumed = __old; __new = {new}; __old = accsim_cas(__p, __assumed, __new); }} while (!accsim_same_bits(__assumed, __old));{capture} }}"
        ))
    }

    pub(super) fn atomic(&mut self, fx: &mut FuncCx<'_>, text: &str, body: &Stmt, depth: usize, th: Threads, out: &mut String) {
        let pad = "    ".repeat(depth);
        let guard = th.guard().map(|g| format!("if ({g}) ")).unwrap_or_default();
        let _ = writeln!(out, "{pad}// #pragma acc {text}");
        let exprs: Vec<&Expr> = match &body.kind {
            StmtKind::Expr(e) => vec![e],
            StmtKind::Block(v) => v.iter().filter_map(|s| if let StmtKind::Expr(e) = &s.kind { Some(e) } else { None }).collect(),
            _ => Vec::new(),
        };
        if !exprs.is_empty() && exprs.iter().all(|e| self.atomic_on_own_copy(fx, e)) {
            // Only this thread's own copies are involved (a routine's reduction combine into its
            // local, which the one calling thread runs for each of its lanes): nothing is
            // shared, and CUDA atomics do not operate on a thread's local memory (an atomic
            // there is a launch failure), so the statement runs as written.
            self.stmt(fx, body, depth, th, out);
            return;
        }
        let result = match exprs.as_slice() {
            [e] => self.atomic_one(fx, e, None),
            // `{ v = x; x op= e; }` (old) or `{ x op= e; v = x; }` (new).
            [a, b] => match (assign_of_load(a), assign_of_load(b)) {
                (Some((vp, x)), _) => {
                    let lhs = self.place(fx, vp, a.ty, a.loc);
                    self.atomic_one(fx, b, Some((lhs, true, x)))
                }
                (None, Some((vp, x))) => {
                    let lhs = self.place(fx, vp, b.ty, b.loc);
                    self.atomic_one(fx, a, Some((lhs, false, x)))
                }
                _ => Err("this `atomic capture` block".into()),
            },
            _ => Err("this `atomic` body".into()),
        };
        match result {
            Ok(Some(t)) => {
                let _ = writeln!(out, "{pad}{guard}{t}");
            }
            Ok(None) => {
                // `read` and `write` of an aligned 4- or 8-byte object are single accesses.
                self.stmt(fx, body, depth, th, out);
            }
            Err(why) => {
                let u = self.unsupported(format!("{why} in an `atomic` construct"), body.loc);
                let _ = writeln!(out, "{pad}// {u}");
                self.stmt(fx, body, depth, th, out);
            }
        }
    }

    /// Whether the statement `e` of an `atomic` construct updates and reads only copies that
    /// belong to the running thread (registers, and memory locals of [`Home::Thread`]).
    pub(super) fn atomic_on_own_copy(&self, fx: &FuncCx<'_>, e: &Expr) -> bool {
        let own_place = |p: &Place| match p {
            Place::Local(l) => fx.homes.get(l.0 as usize) == Some(&Home::Thread),
            Place::Mem(a) => self.is_private_addr(fx, a),
        };
        // §2.12: the construct makes the accesses of `x` atomic; `v` and `expr` are ordinary.
        match &e.kind {
            ExprKind::IncDec { place, .. } | ExprKind::CompoundAssign { place, .. } => own_place(place),
            // A capture's `v = x` (or an atomic read): `x` is what is read.
            ExprKind::Assign { value, .. } if matches!(value.strip_casts().kind, ExprKind::Load(_)) => {
                matches!(&value.strip_casts().kind, ExprKind::Load(a) if self.is_private_addr(fx, a))
            }
            // `x = expr` (a write) or `x = x op expr`, or a capture's `v = x op= expr`.
            ExprKind::Assign { place, value } => own_place(place) && (!matches!(value.kind, ExprKind::IncDec { .. } | ExprKind::CompoundAssign { .. } | ExprKind::Assign { .. }) || self.atomic_on_own_copy(fx, value)),
            _ => false,
        }
    }

    /// One atomic update (with an optional capture: lvalue text, old value, and the address
    /// that the capture reads, which must be the updated one). `Ok(None)`: a plain read or write.
    pub(super) fn atomic_one(&mut self, fx: &mut FuncCx<'_>, e: &Expr, capture: Option<(String, bool, &Expr)>) -> Result<Option<String>, String> {
        let loc = e.loc;
        let same_target = |this: &mut Self, fx: &mut FuncCx<'_>, a: &Expr, c: &Option<(String, bool, &Expr)>| match c {
            Some((_, _, x)) => this.expr(fx, x) == this.expr(fx, a),
            None => true,
        };
        let cap = capture.as_ref().map(|(l, old, _)| (l.clone(), *old));
        match &e.kind {
            // `v = x++` and the like: capture of an update.
            // `v = x = x op e` (the value of an assignment is the new value).
            ExprKind::Assign { place: vp, value } if capture.is_none() && matches!(value.kind, ExprKind::IncDec { .. } | ExprKind::CompoundAssign { .. } | ExprKind::Assign { place: Place::Mem(_), .. }) => {
                let lhs = self.place(fx, vp, e.ty, loc);
                let old = matches!(value.kind, ExprKind::IncDec { post: true, .. });
                let (ExprKind::IncDec { place: Place::Mem(x), .. } | ExprKind::CompoundAssign { place: Place::Mem(x), .. } | ExprKind::Assign { place: Place::Mem(x), .. }) = &value.kind else {
                    return Err("a capture of a register".into());
                };
                self.atomic_one(fx, value, Some((lhs, old, x.as_ref())))
            }
            ExprKind::IncDec { place: Place::Mem(a), delta, .. } => {
                if !same_target(self, fx, a, &capture) {
                    return Err("a capture of another variable".into());
                }
                let one = if self.p.types.is_float(e.ty) { ExprKind::Float(1.0) } else { ExprKind::Int(1) };
                let one = Expr { kind: one, ty: e.ty, loc };
                let (read_addr, read) = self.target(fx, &Place::Mem(a.clone()), e.ty, loc).ok_or("no target")?;
                let op = if *delta > 0 { BinOp::Add } else { BinOp::Sub };
                self.rmw(fx, &read_addr, &read, e.ty, Update::Op(op, &one), cap, loc).map(Some)
            }
            ExprKind::CompoundAssign { op, place: Place::Mem(a), value, op_ty } => {
                if !same_target(self, fx, a, &capture) {
                    return Err("a capture of another variable".into());
                }
                let (addr, read) = self.target(fx, &Place::Mem(a.clone()), e.ty, loc).ok_or("no target")?;
                if *op_ty == e.ty {
                    self.rmw(fx, &addr, &read, e.ty, Update::Op(*op, value), cap, loc).map(Some)
                } else {
                    // Computed in `op_ty`, converted back (C11 6.5.16.2).
                    fx.assumed = None;
                    let v = self.expr(fx, value);
                    let ot = self.ty(*op_ty, loc);
                    let t = self.ty(e.ty, loc);
                    let text = format!("({t})(({ot})__assumed {} {v})", binop(*op));
                    self.rmw(fx, &addr, &read, e.ty, Update::Text(text), cap, loc).map(Some)
                }
            }
            ExprKind::Assign { place: Place::Mem(a), value } => {
                let (addr, read) = self.target(fx, &Place::Mem(a.clone()), e.ty, loc).ok_or("no target")?;
                let mut reads_target = false;
                let mut loads = Vec::new();
                walk_expr(value, &mut |x| {
                    if let ExprKind::Load(y) = &x.kind {
                        reads_target |= same_expr(y, a);
                        loads.push(y.as_ref().clone());
                    }
                });
                if !reads_target {
                    // Addresses the structural comparison does not cover (conversions, calls):
                    // the same C text is the same address.
                    let target = self.expr(fx, a);
                    reads_target = loads.iter().any(|y| self.expr(fx, y) == target);
                }
                if !reads_target && capture.is_none() {
                    return Ok(None); // atomic write
                }
                if !same_target(self, fx, a, &capture) {
                    return Err("a capture of another variable".into());
                }
                let update = self.update_of_value(fx, value, e.ty, &read);
                self.rmw(fx, &addr, &read, e.ty, update, cap, loc).map(Some)
            }
            // atomic read: `v = x`.
            ExprKind::Assign { value, .. } if capture.is_none() && matches!(value.kind, ExprKind::Load(_)) => Ok(None),
            // `v = x` where the IR keeps `x` in a register of the thread (a scalar it only reads):
            // nothing is shared, a plain copy.
            ExprKind::Assign { place: Place::Local(_), value } if capture.is_none() && matches!(value.strip_casts().kind, ExprKind::Local(_)) => Ok(None),
            _ => Err("this form".into()),
        }
    }

    // ------------------------------------------------------------------ effects

    /// Whether the expression stores to memory shared by the block's threads (or calls the C library).
    pub(super) fn has_shared_effect(&self, fx: &FuncCx<'_>, e: &Expr) -> bool {
        let mut found = false;
        walk_expr(e, &mut |x| {
            let place = match &x.kind {
                ExprKind::Assign { place, .. } | ExprKind::CompoundAssign { place, .. } | ExprKind::IncDec { place, .. } => Some(place),
                ExprKind::Call { callee: Callee::Extern(x), .. } => {
                    found |= extern_stores(self.p, *x);
                    None
                }
                ExprKind::Call { callee: Callee::Direct(f), .. } => {
                    found |= self.impure.contains(f);
                    None
                }
                ExprKind::Call { callee: Callee::Indirect(_), .. } => {
                    found = true;
                    None
                }
                _ => None,
            };
            match place {
                Some(Place::Local(l)) => found |= fx.homes[l.0 as usize] != Home::Thread,
                Some(Place::Mem(a)) => found |= !self.is_private_addr(fx, a),
                None => {}
            }
        });
        found
    }

    /// Whether statement `s`, in context `th`, is worker-single code inside a vector loop (guard
    /// `threadIdx.y == 0`) with a control expression that stores to shared memory other than by
    /// plain assignments (which `control_expr` guards one by one).
    pub(super) fn first_worker_only(&self, fx: &FuncCx<'_>, s: &Stmt, th: Threads) -> bool {
        if !th.vector || th.worker {
            return false;
        }
        let controls: Vec<&Expr> = match &s.kind {
            StmtKind::If(c, ..) | StmtKind::While(c, _) | StmtKind::DoWhile(_, c) | StmtKind::Switch { cond: c, .. } => vec![c],
            StmtKind::For { init, cond, step, .. } => {
                let mut v: Vec<&Expr> = cond.iter().chain(step.iter()).collect();
                match init.as_deref().map(|i| &i.kind) {
                    Some(StmtKind::Expr(e)) => v.push(e),
                    Some(StmtKind::Block(items)) => v.extend(items.iter().filter_map(|x| match &x.kind {
                        StmtKind::Expr(e) => Some(e),
                        _ => None,
                    })),
                    _ => {}
                }
                v
            }
            _ => return false,
        };
        controls.into_iter().any(|e| self.has_shared_effect(fx, e) && !self.only_plain_shared_stores(fx, e))
    }

    /// Does a store to `place` reach memory the block's threads share?
    pub(super) fn stores_shared(&self, fx: &FuncCx<'_>, place: &Place) -> bool {
        match place {
            Place::Local(l) => fx.homes[l.0 as usize] != Home::Thread,
            Place::Mem(a) => !self.is_private_addr(fx, a),
        }
    }

    /// Are the shared effects of `e` only plain assignments of scalars (`p = v`, no `+=`, `++`,
    /// or call with effects), whose value is `v` whether or not the store is made?
    pub(super) fn only_plain_shared_stores(&self, fx: &FuncCx<'_>, e: &Expr) -> bool {
        let mut plain = true;
        walk_expr(e, &mut |x| match &x.kind {
            ExprKind::Assign { place, .. } if self.stores_shared(fx, place) => plain &= matches!(self.p.types.get(x.ty), Type::Int(_) | Type::Bool | Type::Float(_) | Type::Pointer(_)),
            ExprKind::CompoundAssign { place, .. } | ExprKind::IncDec { place, .. } if self.stores_shared(fx, place) => plain = false,
            ExprKind::Call { .. } => plain &= !self.has_shared_effect(fx, x),
            _ => {}
        });
        plain
    }

    /// An address inside a thread-private local.
    pub(super) fn is_private_addr(&self, fx: &FuncCx<'_>, a: &Expr) -> bool {
        match &a.kind {
            ExprKind::LocalAddr(l) => fx.homes[l.0 as usize] == Home::Thread,
            ExprKind::Local(p) => fx.thread_cells.contains(p),
            ExprKind::Cast(x) => self.is_private_addr(fx, x),
            ExprKind::PtrAdd { ptr, .. } => self.is_private_addr(fx, ptr),
            _ => false,
        }
    }
}
