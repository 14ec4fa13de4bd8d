//! Statements: structured control flow compiled to a flat instruction list with resolved jump
//! targets (`goto`, `break`, `continue` and `switch` are jumps).

use super::*;

impl<'a> Cx<'a> {
    pub(super) fn stmt(&mut self, s: &Stmt) -> R<()> {
        self.stmt_inner(s, false)
    }

    pub(super) fn cond(&mut self, e: &Expr) -> R<ExprFn> {
        let k = self.kind(e.ty);
        let c = self.expr(e)?;
        if let ExprKind::Binary(op, _, _) = &e.kind {
            if op.is_comparison() {
                return Ok(c.into_fn());
            }
        }
        Ok(match (c, k) {
            (Ce::Reg(s), k) if !k.is_float() => ef(move |m| Ok((m.regs[m.bp + s] != 0) as u64)),
            (c, k) => {
                let f = c.into_fn();
                ef(move |m| Ok(truthy(k, f(m)?) as u64))
            }
        })
    }

    pub(super) fn stmt_inner(&mut self, s: &Stmt, sub: bool) -> R<()> {
        let loc = s.loc;
        match &s.kind {
            StmtKind::Empty => {}
            StmtKind::Expr(e) => {
                let f = self.expr(e)?;
                match f {
                    Ce::Dyn(f) => self.emit(Op::Expr(f), loc, true),
                    _ => self.emit(Op::Nop, loc, true),
                }
            }
            StmtKind::Block(ss) => {
                for s in ss {
                    self.stmt_inner(s, sub)?;
                }
            }
            StmtKind::If(c, t, e) => {
                let cf = self.cond(c)?;
                let l_else = self.new_label();
                self.emit(Op::JumpIfFalse(cf, l_else), loc, true);
                self.stmt_inner(t, sub)?;
                if let Some(e) = e {
                    let l_end = self.new_label();
                    self.emit(Op::Jump(l_end), loc, false);
                    self.place_label(l_else);
                    self.stmt_inner(e, sub)?;
                    self.place_label(l_end);
                } else {
                    self.place_label(l_else);
                }
            }
            StmtKind::While(c, body) => {
                let (l_body, l_cond, l_break) =
                    (self.new_label(), self.new_label(), self.new_label());
                self.emit(Op::Jump(l_cond), loc, false);
                self.place_label(l_body);
                self.loops.push((l_break, Some(l_cond)));
                self.stmt_inner(body, sub)?;
                self.loops.pop();
                self.place_label(l_cond);
                let cf = self.cond(c)?;
                self.emit(Op::JumpIfTrue(cf, l_body), c.loc, true);
                self.place_label(l_break);
            }
            StmtKind::DoWhile(body, c) => {
                let (l_body, l_cond, l_break) =
                    (self.new_label(), self.new_label(), self.new_label());
                self.place_label(l_body);
                self.loops.push((l_break, Some(l_cond)));
                self.stmt_inner(body, sub)?;
                self.loops.pop();
                self.place_label(l_cond);
                let cf = self.cond(c)?;
                self.emit(Op::JumpIfTrue(cf, l_body), c.loc, true);
                self.place_label(l_break);
            }
            StmtKind::For { .. } => {
                // A native-code engine may run the loop itself (`Op::NativeLoop`).
                let native_exit = match self.loop_numbers.get(&(s as *const Stmt)) {
                    Some(&k) if !sub && self.partition.is_none() => {
                        let l = self.new_label();
                        self.emit(Op::NativeLoop(k, l), loc, false);
                        Some(l)
                    }
                    _ => None,
                };
                self.for_stmt(s, sub)?;
                if let Some(l) = native_exit {
                    self.place_label(l);
                }
            }
            StmtKind::Switch {
                cond,
                body,
                cases,
                default,
            } => {
                let cf = self.expr(cond)?.into_fn();
                let l_break = self.new_label();
                let mut table: Vec<(u64, usize)> = cases
                    .iter()
                    .map(|(v, l)| (*v, self.prog_label(*l)))
                    .collect();
                table.sort_by_key(|&(v, _)| v);
                table.dedup_by_key(|&mut (v, _)| v);
                let dflt = match default {
                    Some(l) => self.prog_label(*l),
                    None => l_break,
                };
                self.emit(
                    Op::Switch(
                        cf,
                        Box::new(SwitchTable {
                            cases: table,
                            default: dflt,
                        }),
                    ),
                    loc,
                    true,
                );
                self.loops.push((l_break, None));
                self.stmt_inner(body, sub)?;
                self.loops.pop();
                self.place_label(l_break);
            }
            StmtKind::Label(l) => {
                let i = self.prog_label(*l);
                self.place_label(i);
            }
            StmtKind::Goto(l) => {
                let i = self.prog_label(*l);
                self.emit(Op::Jump(i), loc, true);
            }
            StmtKind::Break => match self.loops.last() {
                Some(&(b, _)) => self.emit(Op::Jump(b), loc, true),
                None => return unsupported("`break` out of a statement expression", loc),
            },
            StmtKind::Continue => match self.loops.iter().rev().find_map(|l| l.1) {
                Some(c) => self.emit(Op::Jump(c), loc, true),
                None => return unsupported("`continue` out of a statement expression", loc),
            },
            StmtKind::Return(v) => {
                if sub {
                    return unsupported("`return` inside a statement expression", loc);
                }
                match v {
                    None => self.emit(Op::ReturnVoid, loc, true),
                    Some(e) => {
                        let f = self.expr(e)?.into_fn();
                        if self.ret_kind == Kind::Aggregate {
                            let size = self.ret_size;
                            let r = ef(move |m| {
                                let src = f(m)?;
                                let dst = m.ret_dest;
                                if dst != 0 {
                                    m.mem.copy(dst, src, size).map_err(|x| m.fault(x, loc))?;
                                }
                                Ok(dst)
                            });
                            self.emit(Op::Return(r), loc, true);
                        } else {
                            self.emit(Op::Return(f), loc, true);
                        }
                    }
                }
            }
            StmtKind::ZeroFill { addr, size } => {
                let a = self.expr(addr)?.into_fn();
                let size = *size;
                let f = if self.checking {
                    ef(move |m| {
                        let p = a(m)?;
                        crate::exec::check::before_access(m, p, size, true, false, loc);
                        m.mem.fill(p, 0, size).map_err(|x| m.fault(x, loc))?;
                        crate::exec::check::access(m, p, size, true, false, loc);
                        Ok(0)
                    })
                } else {
                    ef(move |m| {
                        let p = a(m)?;
                        m.mem.fill(p, 0, size).map_err(|x| m.fault(x, loc))?;
                        Ok(0)
                    })
                };
                self.emit(Op::Expr(f), loc, false);
            }
            StmtKind::VlaAlloc(l) => {
                let Some(Home::Vla(slot)) = self.homes.get(l.0 as usize).copied() else {
                    return Err(Diagnostic::internal(
                        "VlaAlloc of a local that is not a VLA",
                        Some(loc),
                    ));
                };
                let size = self
                    .size_of(
                        self.p.functions[self.fid as usize].locals[l.0 as usize].ty,
                        loc,
                    )?
                    .into_fn();
                let (fid, lid) = (self.fid, l.0);
                let f = ef(move |m| {
                    let n = size(m)?;
                    if (n as i64) < 0 {
                        // C11 §6.7.6.2p5: the size "shall evaluate to a value greater than zero".
                        return Err(Trap::error(Diagnostic::error(
                            "vla-bound",
                            format!("variable-length array bound evaluates to a negative size ({} bytes)", n as i64),
                            loc,
                        )));
                    }
                    let old = m.regs[m.bp + slot];
                    if old != 0 {
                        m.mem
                            .release(crate::exec::memory::AllocId((old >> 32) as u32), loc);
                    }
                    let p = m
                        .mem
                        .alloc(n, AllocKind::Vla(fid, lid), crate::exec::memory::Space::Host, loc)
                        .map_err(|x| m.fault(x, loc))?;
                    m.frame_allocs.push(p);
                    m.regs[m.bp + slot] = p;
                    Ok(p)
                });
                self.emit(Op::Expr(f), loc, true);
            }
            StmtKind::Acc { directive, body } => {
                self.acc_stmt(*directive, body.as_deref(), sub, loc)?;
                self.record_acc_site(crate::exec::machine::code::AccSiteKey::Directive(directive.0), body.as_deref(), sub, loc)?;
            }
            StmtKind::AccLaunch(k) => {
                self.acc_launch(*k, loc)?;
                self.record_acc_site(crate::exec::machine::code::AccSiteKey::Launch(k.0), None, sub, loc)?;
            }
            StmtKind::Partition(part) => {
                // The level's threads one after the other (§1.2: they are unordered); in
                // checking mode the checker hears each thread's start and their rejoining.
                let Some(var) = self.p.functions[self.fid as usize].locals.get(part.var.0 as usize) else {
                    return Err(Diagnostic::internal("a partition's thread variable is not a local of its function", Some(loc)));
                };
                match self.partition_slot(part) {
                    Some(p) if self.checking && self.partition.is_none() => self.checked_partition(p, part, var.ty, loc, sub)?,
                    _ => self.stmt_inner(&part.sequential_loop(&self.p.types, var.ty, loc), sub)?,
                }
            }
        }
        Ok(())
    }

    /// A `for` statement (after its [`Op::NativeLoop`], if any).
    fn for_stmt(&mut self, s: &Stmt, sub: bool) -> R<()> {
        let loc = s.loc;
        let StmtKind::For { init, cond, step, body } = &s.kind else {
            return Err(Diagnostic::internal("not a `for` statement", Some(loc)));
        };
        if let Some(i) = init {
            self.stmt_inner(i, sub)?;
        }
        if let (Some(c), Some(st)) = (cond, step) {
            if let Some(fused) = self.fused_step(st, c)? {
                let (l_body, l_cont, l_break) =
                    (self.new_label(), self.new_label(), self.new_label());
                let cf = self.cond(c)?;
                self.emit(Op::JumpIfFalse(cf, l_break), c.loc, true);
                let nest = match self.counter(st, c) {
                    Some(ctr) if !self.checking && self.partition.is_none() => self.nest_loop(body, ctr)?,
                    _ => None,
                };
                let nest_at = self.code.len();
                if let Some(n) = nest {
                    self.emit(Op::VecNest(Box::new(n), l_break), body.loc, false);
                }
                self.place_label(l_body);
                self.loops.push((l_break, Some(l_cont)));
                self.partition_iteration(body.loc);
                self.stmt_inner(body, sub)?;
                // Out of fuel at the free instruction reads as out of fuel at the body's
                // first instruction that costs a step (not an inner loop's free
                // `Op::NativeLoop`), which would run next.
                let next = self.code.get(nest_at + 1..).and_then(|rest| rest.iter().find(|i| !matches!(i.op, Op::NativeLoop(..))));
                if let (Some(Instr { op: Op::VecNest(..), .. }), Some(next)) = (self.code.get(nest_at), next) {
                    let loc = next.loc;
                    self.code[nest_at].loc = loc;
                }
                self.loops.pop();
                self.place_label(l_cont);
                let body_start = self.labels[l_body].unwrap_or(usize::MAX);
                // A jump to the body (a label before its statement) still works: it
                // lands on the loop instruction, which runs the body then the step.
                // A straight-line body: expression statements only, and no label
                // inside it (a label at its end other than the step's would be skipped).
                let end = self.code.len();
                let straight = body_start < end
                    && self.code[body_start..].iter().all(|i| matches!(i.op, Op::Expr(_)))
                    && self.labels.iter().enumerate().all(|(i, l)| {
                        i == l_cont || !matches!(*l, Some(pc) if pc > body_start && pc <= end)
                    });
                if straight {
                    let body_ir: &Stmt = body;
                    let stmts: Vec<BodyStmt> = self
                        .code
                        .drain(body_start..)
                        .filter_map(|i| match i.op {
                            Op::Expr(f) => Some(BodyStmt { f, loc: i.loc, stmt: i.stmt }),
                            _ => None,
                        })
                        .collect();
                    if let Some(first) = stmts.first() {
                        let (body_loc, stmt) = (first.loc, first.stmt);
                        let counter = self.counter(st, c);
                        let mac = match (&counter, &body_stmt(body_ir).map(|b| &b.kind)) {
                            (Some(_), Some(StmtKind::Expr(e))) if stmts.len() == 1 => self.mac_loop(e)?.map(Box::new),
                            _ => None,
                        };
                        let vec = match (&counter, &mac) {
                            (Some(ctr), None) if !self.checking => self.vec_loop(body_ir, ctr)?.map(Box::new),
                            _ => None,
                        };
                        let mut lp = Loop1 {
                            cost: stmts.len() as u64 + 1,
                            body: stmts.into_boxed_slice(),
                            step_cond: fused,
                            counter,
                            cond_loc: c.loc,
                            stmt,
                            entry: None,
                            mac,
                            vec,
                        };
                        let mut loc0 = body_loc;
                        // Fold the preceding `init` and entry test into the loop when
                        // nothing but the loop's own label lands between them.
                        let n = self.code.len();
                        let foldable = init.is_some()
                            && n >= 2
                            && matches!(self.code[n - 1].op, Op::JumpIfFalse(_, t) if t == l_break)
                            && matches!(self.code[n - 2].op, Op::Expr(_))
                            && self.labels.iter().enumerate().all(|(i, l)| {
                                i == l_body || i == l_cont || !matches!(*l, Some(pc) if pc + 1 >= n)
                            })
                            && self.prog_labels.values().all(|&i| !matches!(self.labels[i], Some(pc) if pc + 1 >= n));
                        if foldable {
                            let test = self.code.pop();
                            let ini = self.code.pop();
                            if let (
                                Some(Instr { op: Op::JumpIfFalse(cond, _), loc: cond_loc, stmt: cond_stmt }),
                                Some(Instr { op: Op::Expr(init), loc: init_loc, stmt: init_stmt }),
                            ) = (test, ini)
                            {
                                loc0 = init_loc;
                                lp.entry = Some(Box::new(Entry {
                                    init,
                                    init_loc,
                                    init_stmt,
                                    cond,
                                    cond_loc,
                                    cond_stmt,
                                }));
                            }
                        }
                        self.code.push(Instr {
                            op: Op::Loop1(Box::new(lp)),
                            loc: loc0,
                            stmt: false,
                        });
                        self.place_label(l_break);
                        return Ok(());
                    }
                }
                self.emit(Op::JumpIfTrue(fused, l_body), c.loc, true);
                self.place_label(l_break);
                return Ok(());
            }
        }
        let (l_body, l_cont, l_cond, l_break) = (
            self.new_label(),
            self.new_label(),
            self.new_label(),
            self.new_label(),
        );
        self.emit(Op::Jump(l_cond), loc, false);
        self.place_label(l_body);
        self.loops.push((l_break, Some(l_cont)));
        self.partition_iteration(body.loc);
        self.stmt_inner(body, sub)?;
        self.loops.pop();
        self.place_label(l_cont);
        if let Some(st) = step {
            if let Ce::Dyn(f) = self.expr(st)? {
                self.emit(Op::Expr(f), st.loc, false);
            }
        }
        self.place_label(l_cond);
        match cond {
            Some(c) => {
                let cf = self.cond(c)?;
                self.emit(Op::JumpIfTrue(cf, l_body), c.loc, true);
            }
            None => self.emit(Op::Jump(l_body), loc, false),
        }
        self.place_label(l_break);
        Ok(())
    }
}
