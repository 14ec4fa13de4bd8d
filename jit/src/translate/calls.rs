//! Calls in native code: a compiled function directly (with the call-depth check, inlined
//! when the callee is a small pure expression), a math routine of the libc shim through its
//! Rust function or inline (`fmin`/`fmax`/`fabs`…), anything else through the interpreter's
//! call path (the `Call` helper), which keeps C's semantics and the run's traps.

use super::*;

impl<'a> Translator<'a, '_> {
    /// A call: a compiled function directly, a math routine of the shim through its Rust
    /// function, anything else through the interpreter's call path.
    pub(super) fn call(&mut self, callee: &Callee, args: &[Expr], loc: Loc) -> R<Value> {
        let mut words = Vec::with_capacity(args.len());
        if let Callee::Indirect(_) = callee {
            // The interpreter evaluates the callee after the arguments; so does this.
        }
        // Right to left, as the interpreter (exec/compile/calls.rs) and gcc on x86-64 evaluate
        // them: `printf("%d %d", f(1), f(2))` prints what f(2) prints first.
        for a in args.iter().rev() {
            if matches!(self.kind(a.ty), Kind::Aggregate | Kind::LongDouble) {
                return Err("a record or long double argument".into());
            }
            words.push(self.expr(a)?);
        }
        words.reverse();
        match callee {
            Callee::Direct(f) => {
                let fptr = self.iconst(ptr_word(FUNC_ID, f.0));
                let nparams = self.p.functions.get(f.0 as usize).map_or(usize::MAX, |g| g.params.len());
                if words.len() == nparams {
                    if let Some(e) = self.inlinable(f.0, self.inline_args.len()) {
                        return self.inline_call(f.0, e, &words, loc);
                    }
                }
                if !self.may_be_native.get(f.0 as usize).copied().unwrap_or(false) || words.len() != nparams {
                    return self.interp_call(fptr, &words, loc);
                }
                // The callee's native code when it is compiled, the interpreter's call path
                // (which compiles it) when not.
                let entry = self.iconst((self.code_table + 8 * f.0 as i64) as u64);
                let code = self.b.ins().load(types::I64, MemFlagsData::trusted(), entry, 0);
                let (native, interp, join) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
                let r = self.b.append_block_param(join, types::I64);
                self.b.ins().brif(code, native, &[], interp, &[]);
                self.b.switch_to_block(interp);
                self.b.set_cold_block(interp);
                let v = self.interp_call(fptr, &words, loc)?;
                self.b.ins().jump(join, &[v.into()]);
                self.b.switch_to_block(native);
                let v = self.native_call(code, f.0, &words, loc)?;
                self.b.ins().jump(join, &[v.into()]);
                self.b.switch_to_block(join);
                Ok(r)
            }
            Callee::Extern(x) => {
                let shim = self.binding(x.0).and_then(|b| b.shim());
                let name = self.p.externs.get(x.0 as usize).map_or("", |x| x.name.as_str());
                if let Some(v) = self.math_call(name, shim, &words)? {
                    return Ok(v);
                }
                if shim.is_none() {
                    return Err("a call of an undefined external".into());
                }
                let fptr = self.iconst(ptr_word(FUNC_ID, self.p.functions.len() as u32 + x.0));
                self.interp_call(fptr, &words, loc)
            }
            Callee::Indirect(fe) => {
                let fptr = self.expr(fe)?;
                self.interp_call(fptr, &words, loc)
            }
        }
    }

    /// The shim's math routines, called as the shim calls them (`Shim::Math1` …).
    /// `sqrt`, `fabs`, `sqrtf` and `fabsf` are single IEEE operations (`f64::sqrt`, `f64::abs`,
    /// `f32::sqrt`, `f32::abs` in the shim) and are emitted inline; the other routines call the
    /// shim's function.
    fn math_call(&mut self, name: &str, shim: Option<Shim>, words: &[Value]) -> R<Option<Value>> {
        let Some(shim) = shim else {
            return Ok(None);
        };
        Ok(Some(match (shim, words) {
            (Shim::Math1(_), [x]) if name == "sqrt" => {
                let a = self.word_as_f64(*x);
                let r = self.b.ins().sqrt(a);
                self.f64_as_word(r)
            }
            // The sign bit cleared, done in the float register (`andpd`): the operand and the
            // result stay floats, with no round trip through an integer register.
            (Shim::Math1(_), [x]) if name == "fabs" => {
                let a = self.word_as_f64(*x);
                let r = self.b.ins().fabs(a);
                self.f64_as_word(r)
            }
            (Shim::Math1F(_), [x]) if name == "fabsf" || name == "sqrtf" => {
                let a = self.word_as_f32(*x);
                let r = if name == "fabsf" { self.b.ins().fabs(a) } else { self.b.ins().sqrt(a) };
                self.f32_as_word(r)
            }
            (Shim::Math2(f), [x, y]) if name == "fmax" || name == "fmin" => {
                let (a, b) = (self.word_as_f64(*x), self.word_as_f64(*y));
                let fp = self.iconst(f as usize as u64);
                let r = self.min_max(name == "fmax", a, b, Helper::Math2, fp, types::F64)?;
                self.f64_as_word(r)
            }
            (Shim::Math2F(f), [x, y]) if name == "fmaxf" || name == "fminf" => {
                let (a, b) = (self.word_as_f32(*x), self.word_as_f32(*y));
                let fp = self.iconst(f as usize as u64);
                let r = self.min_max(name == "fmaxf", a, b, Helper::Math2F, fp, types::F32)?;
                self.f32_as_word(r)
            }
            (Shim::Math1(f), [x]) => {
                let a = self.word_as_f64(*x);
                let fp = self.iconst(f as usize as u64);
                let r = self
                    .helper(Helper::Math1, &[fp, a])
                    .ok_or("no result of a math routine")?;
                self.f64_as_word(r)
            }
            (Shim::Math2(f), [x, y]) => {
                let (a, b) = (self.word_as_f64(*x), self.word_as_f64(*y));
                let fp = self.iconst(f as usize as u64);
                let r = self
                    .helper(Helper::Math2, &[fp, a, b])
                    .ok_or("no result of a math routine")?;
                self.f64_as_word(r)
            }
            (Shim::Math1F(f), [x]) => {
                let a = self.word_as_f32(*x);
                let fp = self.iconst(f as usize as u64);
                let r = self
                    .helper(Helper::Math1F, &[fp, a])
                    .ok_or("no result of a math routine")?;
                self.f32_as_word(r)
            }
            (Shim::Math2F(f), [x, y]) => {
                let (a, b) = (self.word_as_f32(*x), self.word_as_f32(*y));
                let fp = self.iconst(f as usize as u64);
                let r = self
                    .helper(Helper::Math2F, &[fp, a, b])
                    .ok_or("no result of a math routine")?;
                self.f32_as_word(r)
            }
            _ => return Ok(None),
        }))
    }

    /// `fmax`/`fmin` (`max`: which) of `a` and `b` of type `ty`: when they are two different
    /// numbers the larger (smaller) one, the only result any implementation gives; otherwise
    /// (a NaN, or equal values such as `-0.0` and `0.0`) the shim's function `fp` through
    /// `helper`, so that the bits are the interpreter's.
    fn min_max(&mut self, max: bool, a: Value, b: Value, helper: Helper, fp: Value, ty: Type) -> R<Value> {
        let distinct = self.b.ins().fcmp(FloatCC::OrderedNotEqual, a, b);
        let (easy, hard, join) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        let r = self.b.append_block_param(join, ty);
        self.b.ins().brif(distinct, easy, &[], hard, &[]);
        self.b.switch_to_block(easy);
        let greater = self.b.ins().fcmp(FloatCC::GreaterThan, a, b);
        let v = if max {
            self.b.ins().select(greater, a, b)
        } else {
            self.b.ins().select(greater, b, a)
        };
        self.b.ins().jump(join, &[v.into()]);
        self.b.switch_to_block(hard);
        self.b.set_cold_block(hard);
        let v = self.helper(helper, &[fp, a, b]).ok_or("no result of a math routine")?;
        self.b.ins().jump(join, &[v.into()]);
        self.b.switch_to_block(join);
        Ok(r)
    }

    /// The call-depth limit of a call of `fid` at `loc` (`inlined` calls deep in translated-inline
    /// code): past it, the interpreter's stack-overflow trap. Returns the context's depth (before
    /// `inlined` is added).
    fn call_depth_checked(&mut self, fid: u32, inlined: i64, loc: Loc) -> Value {
        let depth = self
            .b
            .ins()
            .load(types::I64, MemFlagsData::trusted(), self.ctx, OFF_DEPTH);
        let at = if inlined == 0 { depth } else { self.b.ins().iadd_imm_s(depth, inlined) };
        let too_deep = self.b.ins().icmp_imm_s(
            IntCC::UnsignedGreaterThanOrEqual,
            at,
            accsim_core::exec::MAX_CALL_DEPTH as i64,
        );
        let (deep, ok) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(too_deep, deep, &[], ok, &[]);
        self.b.set_cold_block(deep);
        self.b.switch_to_block(deep);
        if inlined != 0 {
            // The message names the depth of the call, as the interpreter's does (an inlined
            // call does not count itself in the context; the trap unwinds the entry, which
            // puts the depth back).
            self.b.ins().store(MemFlagsData::trusted(), at, self.ctx, OFF_DEPTH);
        }
        let f = self.iconst(fid as u64);
        let l = self.loc(loc);
        let l = self.b.ins().iconst(types::I64, l);
        self.helper(Helper::StackOverflow, &[self.ctx, f, l]);
        self.b.ins().jump(self.trap_exit, &[]);
        self.b.switch_to_block(ok);
        depth
    }

    /// A direct call of a compiled function: fuel, the call-depth limit, then the call.
    fn native_call(&mut self, code: Value, fid: u32, words: &[Value], loc: Loc) -> R<Value> {
        self.burn_fuel(loc);
        let depth = self.call_depth_checked(fid, 0, loc);
        let d1 = self.b.ins().iadd_imm_s(depth, 1);
        self.b
            .ins()
            .store(MemFlagsData::trusted(), d1, self.ctx, OFF_DEPTH);
        if self.p.functions.get(fid as usize).is_some_and(has_frame) {
            // The callee allocates its frame: the call site is where a failed allocation faults.
            let l = self.loc(loc);
            let l = self.b.ins().iconst(types::I64, l);
            self.b
                .ins()
                .store(MemFlagsData::trusted(), l, self.ctx, OFF_CALL_LOC);
        }
        let mut args = vec![self.ctx];
        args.extend_from_slice(words);
        let sig = self.b.import_signature(native_signature(self.call_conv, words.len()));
        self.flush_fuel();
        let call = self.b.ins().call_indirect(sig, code, &args);
        let r = self.b.inst_results(call)[0];
        self.reload_fuel();
        let d = self
            .b
            .ins()
            .load(types::I64, MemFlagsData::trusted(), self.ctx, OFF_DEPTH);
        let d0 = self.b.ins().iadd_imm_s(d, -1);
        self.b
            .ins()
            .store(MemFlagsData::trusted(), d0, self.ctx, OFF_DEPTH);
        self.check_trap();
        self.reload_table();
        Ok(r)
    }

    /// The expression of function `fid` when a call of it is translated inline (at inlining
    /// level `level`): a function whose body starts with `return E;`, where `E` reads only its parameters
    /// and cannot trap (no memory access, no assignment, no integer division but by a constant
    /// other than 0 and -1, calls only of the math routines and of such functions, at most
    /// [`INLINE_LEVELS`] deep).
    pub(crate) fn inlinable(&self, fid: u32, level: usize) -> Option<&'a Expr> {
        if level >= INLINE_LEVELS {
            return None;
        }
        let p: &'a Program = self.p;
        let g = p.functions.get(fid as usize)?;
        if g.variadic || matches!(self.kind(g.ret), Kind::Aggregate | Kind::LongDouble | Kind::Void) {
            return None;
        }
        if g.locals.iter().any(|l| l.storage != Storage::Register) {
            return None;
        }
        let mut body = &g.body;
        let e = loop {
            match &body.kind {
                // What follows a `return` never runs (the lowering ends every function with one).
                StmtKind::Block(ss) if !ss.is_empty() => body = &ss[0],
                StmtKind::Return(Some(e)) => break e,
                _ => return None,
            }
        };
        self.pure(e, &g.params, level).then_some(e)
    }

    /// Whether `e`, an arm of `c ? a : b`, is a value at hand that costs an instruction at most
    /// and cannot trap or change anything: a constant, a register local (an inlined call's
    /// parameter), or one of those negated or complemented. Then both arms are computed and
    /// one selected, with no branch.
    pub(super) fn select_arm(&self, e: &Expr) -> bool {
        if matches!(self.kind(e.ty), Kind::Aggregate | Kind::LongDouble | Kind::Void) {
            return false;
        }
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Float(_) => true,
            ExprKind::Local(l) => !self.inline_args.is_empty() || !self.is_memory(*l),
            ExprKind::Unary(UnOp::Neg | UnOp::BitNot, a) => matches!(a.kind, ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Local(_)) && self.select_arm(a),
            _ => false,
        }
    }

    /// Whether `e` reads only the parameters `params` and cannot trap ([`Translator::inlinable`]).
    fn pure(&self, e: &Expr, params: &[LocalId], level: usize) -> bool {
        if matches!(self.kind(e.ty), Kind::Aggregate | Kind::LongDouble) {
            return false;
        }
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Float(_) => true,
            ExprKind::Local(l) => params.contains(l),
            ExprKind::Unary(_, a) | ExprKind::Cast(a) => self.pure(a, params, level),
            ExprKind::Binary(op, a, b) => {
                let integer_division = matches!(op, BinOp::Div | BinOp::Rem)
                    && !matches!(self.kind(e.ty), Kind::F32 | Kind::F64);
                if integer_division && !matches!(b.kind, ExprKind::Int(c) if c != 0 && c != u64::MAX && c != u32::MAX as u64) {
                    return false;
                }
                self.pure(a, params, level) && self.pure(b, params, level)
            }
            ExprKind::LogicalAnd(a, b) | ExprKind::LogicalOr(a, b) => self.pure(a, params, level) && self.pure(b, params, level),
            ExprKind::Cond(c, a, b) => self.pure(c, params, level) && self.pure(a, params, level) && self.pure(b, params, level),
            ExprKind::Call { callee, args, result: None } => {
                let callee_ok = match callee {
                    Callee::Extern(x) => {
                        let shim = self.binding(x.0).and_then(|b| b.shim());
                        matches!(shim, Some(Shim::Math1(_) | Shim::Math2(_) | Shim::Math1F(_) | Shim::Math2F(_)))
                    }
                    Callee::Direct(h) => {
                        self.p.functions.get(h.0 as usize).is_some_and(|g| g.params.len() == args.len())
                            && self.inlinable(h.0, level + 1).is_some()
                    }
                    Callee::Indirect(_) => false,
                };
                callee_ok && args.iter().all(|a| self.pure(a, params, level))
            }
            _ => false,
        }
    }

    /// A call of an inlinable function ([`Translator::inlinable`]) translated in place: the
    /// call's unit of fuel and its call-depth check, as [`Translator::native_call`] does them
    /// (the check only where the depth at entry is near the limit: `near_depth_limit`),
    /// then the callee's expression on the argument words (which cannot trap, read memory or
    /// call anything that looks at the call depth).
    fn inline_call(&mut self, fid: u32, e: &Expr, words: &[Value], loc: Loc) -> R<Value> {
        self.burn_fuel(loc);
        let (check, go) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(self.near_depth_limit, check, &[], go, &[]);
        self.b.set_cold_block(check);
        self.b.switch_to_block(check);
        self.call_depth_checked(fid, self.inline_args.len() as i64, loc);
        self.b.ins().jump(go, &[]);
        self.b.switch_to_block(go);
        let g = self.p.functions.get(fid as usize).ok_or("internal: unknown function")?;
        let args = g.params.iter().zip(words).map(|(l, &w)| (l.0, w)).collect();
        self.inline_args.push(args);
        let r = self.expr(e);
        self.inline_args.pop();
        r
    }

    /// A call through the interpreter's call path ([`runtime::jit_call`]).
    fn interp_call(&mut self, fptr: Value, words: &[Value], loc: Loc) -> R<Value> {
        let n = words.len();
        let slot = self.b.create_sized_stack_slot(StackSlotData::new(
            StackSlotKind::ExplicitSlot,
            (8 * n.max(1)) as u32,
            3,
        ));
        for (i, &w) in words.iter().enumerate() {
            self.b.ins().stack_store(types::I64, w, slot, (8 * i) as i32);
        }
        let p = self.b.ins().stack_addr(types::I64, slot, 0);
        let nv = self.iconst(n as u64);
        let l = self.loc(loc);
        let l = self.b.ins().iconst(types::I64, l);
        let r = self
            .helper(Helper::Call, &[self.ctx, fptr, p, nv, l])
            .ok_or("no result of the call helper")?;
        self.check_trap();
        self.reload_table();
        Ok(r)
    }
}
