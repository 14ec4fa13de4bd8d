//! Calls in native code: a compiled function directly (with the call-depth check, inlined
//! when the callee is a small pure expression), a math routine of the libc shim through its
//! Rust function or inline (`fmin`/`fmax`/`fabs`…), anything else through the interpreter's
//! call path (the `Call` helper), which keeps C's semantics and the run's traps.

use super::*;

/// What a native call calls: code whose address was read from the code table, or the calling
/// function's own code ([`Translator::own_code`]).
#[derive(Clone, Copy)]
enum NativeCallee {
    Code(Value),
    Own(cranelift_codegen::ir::FuncRef),
}

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
                let nparams = self.p.functions.get(f.0 as usize).map_or(usize::MAX, |g| g.params.len());
                if words.len() == nparams {
                    if let Some(e) = self.inlinable(f.0, self.inline_args.len()) {
                        return self.inline_call(f.0, e, &words, loc);
                    }
                }
                if !self.may_be_native.get(f.0 as usize).copied().unwrap_or(false) || words.len() != nparams {
                    let fptr = self.iconst(ptr_word(FUNC_ID, f.0));
                    return self.interp_call(fptr, &words, loc);
                }
                if let Some((c, e)) = self.early_return(f.0).filter(|_| !self.inline_fuel_at_hand) {
                    return self.guarded_call(f.0, c, e, &words, loc);
                }
                self.direct_call(f.0, &words, loc)
            }
            Callee::Extern(x) => {
                let shim = self.binding(x.0).and_then(|b| b.shim());
                let name = self.p.externs.get(x.0 as usize).map_or("", |x| x.name.as_str());
                if let Some(v) = self.integer_abs(shim, &words) {
                    return Ok(v);
                }
                if let Some(v) = self.math_call(name, shim, &words)? {
                    return Ok(v);
                }
                if let Some(v) = self.heap_call(shim, &words, loc) {
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

    /// A call of function `fid` that may run as native code, with its argument `words`: the
    /// callee's native code when it is compiled, the interpreter's call path (which compiles it)
    /// when not.
    fn direct_call(&mut self, fid: u32, words: &[Value], loc: Loc) -> R<Value> {
        if let Some(own) = self.own_code.filter(|_| fid == self.fid) {
            // A recursive call of this code, which runs: it is compiled.
            return self.native_call(NativeCallee::Own(own), fid, words, loc);
        }
        let fptr = self.iconst(ptr_word(FUNC_ID, fid));
        let entry = self.iconst((self.code_table + 8 * fid as i64) as u64);
        let code = self.b.ins().load(types::I64, MemFlagsData::trusted(), entry, 0);
        let (native, interp, join) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        let ty = self.result_type(fid);
        let r = self.b.append_block_param(join, ty);
        self.b.ins().brif(code, native, &[], interp, &[]);
        self.b.switch_to_block(interp);
        self.b.set_cold_block(interp);
        // The callee in the interpreter keeps the table as its native code would (the
        // interpreter's call path syncs it, to the same address, length and entries: see
        // `crate::keeps_table`), so that both paths join with the caller's table.
        let keeps = self.keeps_table.get(fid as usize).copied().unwrap_or(false);
        let v = self.call_through_interpreter(fptr, words, loc, !keeps)?;
        let v = self.word_as(ty, v);
        self.b.ins().jump(join, &[v.into()]);
        self.b.switch_to_block(native);
        let v = self.native_call(NativeCallee::Code(code), fid, words, loc)?;
        let v = self.word_as(ty, v);
        self.b.ins().jump(join, &[v.into()]);
        self.b.switch_to_block(join);
        Ok(self.word_of(r))
    }

    /// The type in which the results of calls of `fid` join ([`crate::translate::variable_type`]
    /// of its return type): a `double`'s in a float register, so that it stays there when the
    /// caller keeps it across its next call, and its sum with another needs no move from an
    /// integer register (issue 15: `tree_sum(t->left) + tree_sum(t->right)`).
    fn result_type(&self, fid: u32) -> Type {
        if !self.floats_join_as_floats() {
            return types::I64;
        }
        self.p.functions.get(fid as usize).map_or(types::I64, |g| variable_type(self.p, g.ret, false))
    }

    /// The test and result of function `fid`'s first statement when it is `if (C) return E;`
    /// (`E` absent in a `void` function), `C` and `E` reading only its parameters and unable to
    /// trap ([`Translator::pure`]), and the function has no memory locals (so no frame, whose
    /// allocation a call would make): a recursive function's base case (`if (t == NULL) return
    /// 0;`), which a call site then tests itself ([`Translator::guarded_call`]).
    fn early_return(&self, fid: u32) -> Option<(&'a Expr, Option<&'a Expr>)> {
        let p: &'a Program = self.p;
        let g = p.functions.get(fid as usize)?;
        if g.variadic || matches!(self.kind(g.ret), Kind::Aggregate | Kind::LongDouble) {
            return None;
        }
        if g.locals.iter().any(|l| l.storage != Storage::Register) {
            return None;
        }
        let mut body = &g.body;
        let (c, then) = loop {
            match &body.kind {
                StmtKind::Block(ss) if !ss.is_empty() => body = &ss[0],
                StmtKind::If(c, t, None) => break (c, &**t),
                _ => return None,
            }
        };
        let mut then = then;
        let e = loop {
            match &then.kind {
                StmtKind::Block(ss) if !ss.is_empty() => then = &ss[0],
                StmtKind::Return(e) => break e.as_ref(),
                _ => return None,
            }
        };
        let level = self.inline_args.len();
        let pure = self.pure(c, &g.params, level) && e.is_none_or(|e| self.pure(e, &g.params, level));
        let void = self.kind(g.ret) == Kind::Void;
        (pure && e.is_none() == void).then_some((c, e))
    }

    /// A call of a function whose first statement is `if (C) return E;` ([`Translator::
    /// early_return`]): `C` on the argument words here, and when it holds, `E` as an inlined
    /// call gives it ([`Translator::inline_call`]: the call's unit of fuel and its depth check,
    /// as the call would take them), without entering the callee; when not, the call. The callee
    /// tests `C` again (it cannot trap or change anything). Issue 15: half the calls of a
    /// recursion over a binary tree are its leaves' null children, each a call that only
    /// returns (calltree's `tree_sum` and `tree_free`).
    fn guarded_call(&mut self, fid: u32, c: &Expr, e: Option<&Expr>, words: &[Value], loc: Loc) -> R<Value> {
        let held = self.in_callee(fid, words, |t| t.cond(c))?;
        let (early, call, join) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        let ty = self.result_type(fid);
        let r = self.b.append_block_param(join, ty);
        self.b.ins().brif(held, early, &[], call, &[]);
        self.b.switch_to_block(early);
        let v = match e {
            Some(e) => self.inline_call(fid, e, words, loc)?,
            None => {
                self.inline_call_taken(fid, loc);
                self.iconst(0)
            }
        };
        let v = self.word_as(ty, v);
        self.b.ins().jump(join, &[v.into()]);
        self.b.switch_to_block(call);
        let v = self.direct_call(fid, words, loc)?;
        let v = self.word_as(ty, v);
        self.b.ins().jump(join, &[v.into()]);
        self.b.switch_to_block(join);
        Ok(self.word_of(r))
    }

    /// `abs`, `labs` and `llabs`, inline as the shim computes them (`Shim::Abs`: the argument's
    /// `int` value's wrapping absolute value, as a word; `Shim::Labs`: the `long`'s; the most
    /// negative value is its own absolute value in both), where they were calls through the
    /// interpreter's call path (issue 15: the two `abs` calls of blur's weight table were 14% of
    /// its code generation, each call a point every value live across it must survive).
    fn integer_abs(&mut self, shim: Option<Shim>, words: &[Value]) -> Option<Value> {
        match (shim?, words) {
            (Shim::Abs, &[w]) => {
                let x = self.b.ins().ireduce(types::I32, w);
                let a = self.b.ins().iabs(x);
                Some(self.b.ins().sextend(types::I64, a))
            }
            (Shim::Labs, &[w]) => Some(self.b.ins().iabs(w)),
            _ => None,
        }
    }

    /// The shim's math routines, called as the shim calls them (`Shim::Math1` …): the
    /// arguments as floats of the routine's width (`double` for `Math1`/`Math2`, `float` for
    /// `Math1F`/`Math2F`), the result back as a word. `sqrt`, `fabs`, `sqrtf` and `fabsf` are
    /// single IEEE operations (`f64::sqrt`, `f64::abs`, `f32::sqrt`, `f32::abs` in the shim) and
    /// are emitted inline — `fabs` in the float register (`andpd`), with no round trip through an
    /// integer register; `fmax`/`fmin` (and their `float` forms) inline where the answer is not
    /// in doubt ([`Self::min_max`]); the other routines call the shim's function.
    fn math_call(&mut self, name: &str, shim: Option<Shim>, words: &[Value]) -> R<Option<Value>> {
        let (routine, helper, ty) = match (shim, words.len()) {
            (Some(Shim::Math1(f)), 1) => (f as usize, Helper::Math1, types::F64),
            (Some(Shim::Math2(f)), 2) => (f as usize, Helper::Math2, types::F64),
            (Some(Shim::Math1F(f)), 1) => (f as usize, Helper::Math1F, types::F32),
            (Some(Shim::Math2F(f)), 2) => (f as usize, Helper::Math2F, types::F32),
            _ => return Ok(None),
        };
        let one_arg = matches!(helper, Helper::Math1 | Helper::Math1F);
        let args: Vec<Value> = words.iter().map(|&w| self.word_as(ty, w)).collect();
        let r = match (name, args.as_slice()) {
            ("sqrt" | "sqrtf", &[a]) if one_arg => self.b.ins().sqrt(a),
            ("fabs" | "fabsf", &[a]) if one_arg => self.b.ins().fabs(a),
            ("fmax" | "fmin", &[a, b]) if helper == Helper::Math2 => {
                let fp = self.iconst(routine as u64);
                self.min_max(name == "fmax", a, b, helper, fp, ty)?
            }
            ("fmaxf" | "fminf", &[a, b]) if helper == Helper::Math2F => {
                let fp = self.iconst(routine as u64);
                self.min_max(name == "fmaxf", a, b, helper, fp, ty)?
            }
            _ => {
                let fp = self.iconst(routine as u64);
                let mut call = vec![fp];
                call.extend(&args);
                self.helper(helper, &call).ok_or("no result of a math routine")?
            }
        };
        Ok(Some(self.word_of(r)))
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

    /// `malloc`, `calloc` and `free` of the shim, called through their own helpers
    /// ([`runtime::jit_malloc`] …): the shim's functions without the interpreter's call path
    /// (issue 15: a tree of small heap nodes built and freed). They read neither the fuel nor
    /// the call depth; a fault traps at the call as the shim's does.
    fn heap_call(&mut self, shim: Option<Shim>, words: &[Value], loc: Loc) -> Option<Value> {
        let (helper, ret) = match (shim?, words) {
            (Shim::Malloc, [_]) => (Helper::Malloc, true),
            (Shim::Calloc, [_, _]) => (Helper::Calloc, true),
            (Shim::Free, [_]) => (Helper::Free, false),
            _ => return None,
        };
        let l = self.loc(loc);
        let mut args = vec![self.ctx];
        args.extend_from_slice(words);
        args.push(l);
        let r = self.helper(helper, &args);
        self.check_trap();
        self.reload_table();
        Some(if ret { r? } else { self.iconst(0) })
    }

    /// The call-depth limit of a call of `fid` at `loc` (`inlined` calls deep in translated-inline
    /// code): past it, the interpreter's stack-overflow trap. Returns the function's depth
    /// ([`Translator::depth`], before `inlined` is added).
    fn call_depth_checked(&mut self, fid: u32, inlined: i64, loc: Loc) -> Value {
        let depth = self.depth;
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
        // The message names the depth of the call, as the interpreter's does (the trap unwinds
        // the entry, which puts the machine's depth back).
        self.b.ins().store(MemFlagsData::trusted(), at, self.ctx, OFF_DEPTH);
        let f = self.iconst(fid as u64);
        let l = self.loc(loc);
        self.helper(Helper::StackOverflow, &[self.ctx, f, l]);
        self.b.ins().jump(self.trap_exit, &[]);
        self.b.switch_to_block(ok);
        depth
    }

    /// A direct call of a compiled function: fuel, the call-depth limit, then the call, which
    /// takes the fuel left and its depth and gives back its result and the fuel left
    /// ([`native_signature`]).
    fn native_call(&mut self, callee: NativeCallee, fid: u32, words: &[Value], loc: Loc) -> R<Value> {
        self.burn_fuel(loc);
        let depth = self.call_depth_checked(fid, 0, loc);
        let d1 = self.b.ins().iadd_imm_s(depth, 1);
        if self.p.functions.get(fid as usize).is_some_and(has_frame) {
            // The callee allocates its frame: the call site is where a failed allocation faults.
            let l = self.loc(loc);
            self.b
                .ins()
                .store(MemFlagsData::trusted(), l, self.ctx, OFF_CALL_LOC);
        }
        let fuel = self.b.use_var(self.fuel);
        let mut args = vec![self.ctx, fuel, d1];
        args.extend_from_slice(words);
        let call = match callee {
            NativeCallee::Code(code) => {
                let sig = self.b.import_signature(native_signature(self.call_conv, words.len()));
                self.b.ins().call_indirect(sig, code, &args)
            }
            NativeCallee::Own(own) => self.b.ins().call(own, &args),
        };
        let (r, left) = (self.b.inst_results(call)[0], self.b.inst_results(call)[1]);
        self.b.def_var(self.fuel, left);
        self.check_callee_trap(left);
        if !self.keeps_table.get(fid as usize).copied().unwrap_or(false) {
            self.reload_table();
        }
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
                            || matches!((shim, args.len()), (Some(Shim::Abs | Shim::Labs), 1))
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
        self.inline_call_taken(fid, loc);
        self.in_callee(fid, words, |t| t.expr(e))
    }

    /// `translate` run on an expression of function `fid`'s body, its parameters bound to the
    /// argument `words` ([`Translator::inline_args`]).
    fn in_callee(&mut self, fid: u32, words: &[Value], translate: impl FnOnce(&mut Self) -> R<Value>) -> R<Value> {
        let g = self.p.functions.get(fid as usize).ok_or("internal: unknown function")?;
        let args = g.params.iter().zip(words).map(|(l, &w)| (l.0, w)).collect();
        self.inline_args.push(args);
        let r = translate(self);
        self.inline_args.pop();
        r
    }

    /// What a call of `fid` translated in place takes before its expression: its unit of fuel
    /// and its call-depth check ([`Translator::inline_call`]).
    fn inline_call_taken(&mut self, fid: u32, loc: Loc) {
        if self.inline_fuel_at_hand {
            // Its unit is at hand and the depth far from the limit (`Translator::unrolled_for`).
            let fuel = self.b.use_var(self.fuel);
            let left = self.b.ins().iadd_imm_s(fuel, -1);
            self.b.def_var(self.fuel, left);
        } else {
            self.burn_fuel(loc);
            let (check, go) = (self.b.create_block(), self.b.create_block());
            self.b.ins().brif(self.near_depth_limit, check, &[], go, &[]);
            self.b.set_cold_block(check);
            self.b.switch_to_block(check);
            self.call_depth_checked(fid, self.inline_args.len() as i64, loc);
            self.b.ins().jump(go, &[]);
            self.b.switch_to_block(go);
        }
    }

    /// The units of fuel that the calls in `s` burn, when every one of them is translated
    /// inline ([`Translator::inlinable`]) or is a math routine and `s` holds no loop, `goto` or
    /// OpenACC statement: an upper bound (a call in an arm of `?:` counts as if it ran). `None`
    /// when `s` may burn other fuel (a call of the interpreter or of native code, a loop).
    pub(crate) fn inline_call_units(&self, s: &Stmt) -> Option<u64> {
        let mut units = Some(0u64);
        let mut other = false;
        let level = self.inline_args.len();
        accsim_core::ir::visit::walk(
            s,
            true,
            &mut |st| other |= !matches!(st.kind, StmtKind::Empty | StmtKind::Expr(_) | StmtKind::Block(_) | StmtKind::If(..)),
            &mut |e| {
                if let ExprKind::Call { callee, args, .. } = &e.kind {
                    let n = self.call_units(callee, args.len(), level);
                    units = units.zip(n).map(|(a, b)| a.saturating_add(b));
                }
            },
        );
        units.filter(|_| !other)
    }

    /// The units of fuel one call burns when translated at inlining level `level`, with the
    /// calls its inlined expression makes; 0 for a math routine; `None` for any other call.
    fn call_units(&self, callee: &Callee, nargs: usize, level: usize) -> Option<u64> {
        match callee {
            Callee::Extern(x) => {
                // What `math_call` translates in place (other arities take the interpreter's path).
                let shim = self.binding(x.0).and_then(|b| b.shim());
                let math = matches!((shim, nargs), (Some(Shim::Math1(_) | Shim::Math1F(_)), 1) | (Some(Shim::Math2(_) | Shim::Math2F(_)), 2));
                math.then_some(0)
            }
            Callee::Direct(f) => {
                if self.p.functions.get(f.0 as usize).is_none_or(|g| g.params.len() != nargs) {
                    return None;
                }
                let e = self.inlinable(f.0, level)?;
                let mut units = Some(1u64);
                // The calls in the arguments are at `level` (the walk of the caller's expression
                // counts them); those of the callee's expression one level deeper.
                accsim_core::ir::visit::visit_exprs(e, &mut |x| {
                    if let ExprKind::Call { callee, args, .. } = &x.kind {
                        let n = self.call_units(callee, args.len(), level + 1);
                        units = units.zip(n).map(|(a, b)| a.saturating_add(b));
                    }
                });
                units
            }
            Callee::Indirect(_) => None,
        }
    }

    /// A call through the interpreter's call path ([`runtime::jit_call`]).
    fn interp_call(&mut self, fptr: Value, words: &[Value], loc: Loc) -> R<Value> {
        self.call_through_interpreter(fptr, words, loc, true)
    }

    /// [`Translator::interp_call`], the span table reloaded after it when `reload` (a callee that
    /// keeps it needs none: [`crate::keeps_table`]).
    fn call_through_interpreter(&mut self, fptr: Value, words: &[Value], loc: Loc, reload: bool) -> R<Value> {
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
        let r = self
            .helper(Helper::Call, &[self.ctx, fptr, p, nv, l])
            .ok_or("no result of the call helper")?;
        self.check_trap();
        if reload {
            self.reload_table();
        }
        Ok(r)
    }
}
