//! Checked versions of counted loops, made when they first run (issue 15's compile time).
//!
//! A counted loop runs in a direct version when its entry checks pass ([`crate::loops`]) and in
//! its checked version — the loop as it is, each access checked — when they fail: a loop that
//! may fault, a guarded `if (i > 0) a[i - 1]`, too little fuel left. Most loops of most runs
//! pass them, yet the checked versions were about a quarter of the code generation (blur: 23%
//! of `Engine::generate`). So where it can be, the checked version is a function of its own,
//! translated and generated the first time it runs: the loop's code calls it through a slot of
//! the engine's table ([`Outlines::code`]), which holds 0 until then; the call then asks the
//! engine for the code first ([`runtime::jit_outline_code`]).
//!
//! **The call.** The locals the loop may read or write ([`crate::site_locals::stmt_locals`])
//! go to a frame on the caller's stack, one word each, but those private to the loop (declared
//! in its body and assigned before any read, [`private_locals`]); the checked version takes the
//! frame's address as its one argument, with the context, the fuel left and the caller's call
//! depth (a loop is not a call: its calls are one deeper than the loop's function, as in the
//! direct version). Its convention is `preserve_all` ([`signature`]): the call overwrites no
//! register of its caller, so the values live across it stay where they are, as around a cold
//! helper's stub ([`crate::cold`]). It runs the loop from the counter's value at hand (the
//! `for`'s initialisation ran before the entry checks), stores the locals it may assign back
//! into the frame and leaves the fuel left in the context and how it left ([`ENDED`],
//! [`RETURNED`], [`TRAPPED`]) in the context's `cold_result` word; a `return` in the loop stores
//! the returned word after the locals, and the caller returns it from its own code (freeing
//! its frame). After a trap the caller leaves by its trap path. The location words of the code
//! name a table of their own (the function count plus the slot, [`Outlines::loc_table`]), filled
//! when the code is made. The output, faults, fuel and steps are those of the checked version
//! translated in place: the same translation of the same loop, on the same values.
//!
//! **Where.** Only a checked version translated where nothing of an enclosing version is in
//! play: not inside a direct or vector version (whose biases, held elements, frozen values and
//! prepaid fuel are values of the enclosing code), not in an inlined call's body, not in a
//! function that may share its code with a twin ([`crate::shared`]: the slot is the
//! function's). Nor a loop with an OpenACC statement (its sites are counted in the order the
//! function's translation meets them), a `goto` or a label, or a partitioned loop. Elsewhere the
//! checked version is translated in place, as before.
//!
//! **Slots.** Each `for` statement of each function has a slot, numbered in the pre-order of
//! the function's statements ([`for_statements`]), so that the code of a function names the same
//! slot whichever thread translates it, and the checked version's translation finds its loop
//! again from the function and the number.

use crate::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use accsim_core::ir::visit::{for_statements, walk};
use accsim_core::ir::{ExprKind, Function, Place, Program, Stmt, StmtKind, Storage};
use cranelift_codegen::ir::{types, AbiParam, Block, InstBuilder, MemFlagsData, Signature, StackSlotData, StackSlotKind, Type, UserFuncName, Value};
use cranelift_codegen::isa::CallConv;
use cranelift_codegen::Context;
use cranelift_module::{Linkage, Module};

use crate::runtime::{OFF_COLD_RESULT, OFF_FUEL};
use crate::translate::{Helper, Translator, R};
use crate::{dump_wanted, report_cost, shared, Lazy};

/// How a checked version left, in the context's `cold_result` word: the loop ended.
pub(crate) const ENDED: u64 = 0;
/// A `return` in the loop ran; the word it returns is in the frame after the locals.
pub(crate) const RETURNED: u64 = 1;
/// A trap (recorded in the context).
pub(crate) const TRAPPED: u64 = 2;

/// The signature of a loop's code of its own ([`Part`]): the context, the fuel left, the call
/// depth and the frame's address, returning nothing: the fuel left comes back in the context's
/// fuel word and how it left in its `cold_result` word. A checked version's convention is
/// `preserve_all` (a call of it overwrites no register of its caller, whose values live across
/// the call stay where they are, as around a cold helper's stub, [`crate::cold`]); a loop
/// entry's is the platform's C convention (`runtime::enter_loop` calls it from Rust).
pub(crate) fn signature(call_conv: CallConv) -> Signature {
    let mut s = Signature::new(call_conv);
    s.params.extend([AbiParam::new(types::I64); 4]);
    s
}

/// The slots of the checked versions of a program's `for` statements (see the module docs).
pub(crate) struct Outlines {
    /// By function id: the slot of its first `for` statement.
    first: Vec<u32>,
    /// By function id: how many `for` statements its body has.
    count: Vec<u32>,
    /// By slot: the address of the checked version's code, 0 until it is made.
    code: Box<[AtomicU64]>,
    /// By slot: the address of the loop's code as a whole, entered from the interpreter
    /// ([`crate::loop_entry`]), 0 until it is made.
    entries: Box<[AtomicU64]>,
    /// The number of functions: slot `s`'s location words name table `functions + s`.
    functions: u32,
}

impl Outlines {
    /// The slots of program `p`'s `for` statements.
    pub(crate) fn new(p: &Program) -> Self {
        let (mut first, mut count) = (Vec::with_capacity(p.functions.len()), Vec::with_capacity(p.functions.len()));
        let mut next = 0u32;
        for f in &p.functions {
            let n = for_statements(&f.body).len() as u32;
            first.push(next);
            count.push(n);
            next = next.saturating_add(n);
        }
        let cells = || (0..next).map(|_| AtomicU64::new(0)).collect();
        Outlines { first, count, code: cells(), entries: cells(), functions: p.functions.len() as u32 }
    }

    /// How many slots there are.
    pub(crate) fn len(&self) -> usize {
        self.code.len()
    }

    /// The slot of the `k`th `for` statement of function `fid`.
    pub(crate) fn slot(&self, fid: u32, k: u32) -> Option<u32> {
        (k < *self.count.get(fid as usize)?).then(|| self.first[fid as usize] + k)
    }

    /// The function and the number of the `for` statement of `slot`.
    pub(crate) fn of_slot(&self, slot: u32) -> Option<(u32, u32)> {
        let fid = self.first.partition_point(|&f| f <= slot).checked_sub(1)?;
        let k = slot - self.first[fid];
        (k < self.count[fid]).then_some((fid as u32, k))
    }

    /// The part of `slot`: its checked version, or (`entry`) the whole loop.
    pub(crate) fn part(&self, slot: u32, entry: bool) -> Option<Part> {
        self.of_slot(slot).map(|(_, k)| Part { k, slot, entry })
    }

    /// The table of source locations the code of `part` names (`runtime::Ctx::loc`): after the
    /// functions', the checked versions' by slot, then the loop entries' by slot.
    pub(crate) fn loc_table(&self, part: Part) -> u32 {
        let entries = if part.entry { self.code.len() as u32 } else { 0 };
        self.functions + entries + part.slot
    }

    /// The code of `part`, 0 until it is made.
    pub(crate) fn code(&self, part: Part) -> Option<&AtomicU64> {
        if part.entry { &self.entries } else { &self.code }.get(part.slot as usize)
    }

    /// The address of `slot`'s word in the table, which native code reads.
    fn code_address(&self, slot: u32) -> Option<u64> {
        self.code.get(slot as usize).map(|c| c.as_ptr() as u64)
    }
}

/// Whether the checked version of loop `s` can be a function of its own (see the module docs,
/// "Where"), as far as its statements go.
pub(crate) fn outlinable_statements(s: &Stmt) -> bool {
    let mut ok = true;
    walk(
        s,
        true,
        &mut |x| {
            ok &= !matches!(x.kind, StmtKind::Acc { .. } | StmtKind::AccLaunch(_) | StmtKind::Goto(_) | StmtKind::Label(_) | StmtKind::Partition(_));
        },
        &mut |_| {},
    );
    ok
}

/// A loop's code of its own: the checked version of the `k`th `for` statement of a function,
/// in slot `slot`, or (`entry`) the whole loop, entered from the interpreter
/// ([`crate::loop_entry`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Part {
    pub k: u32,
    pub slot: u32,
    pub entry: bool,
}

/// The locals of function `f` that loop `s` may read or write, but those private to it
/// ([`private_locals`]), in the order of its checked version's frame
/// ([`crate::site_locals::stmt_locals`]), each with whether the loop may assign it
/// ([`crate::site_locals::stmt_assigned_locals`]): only those come back, so that the caller's
/// variables the loop only reads keep their one value (a value coming back from the frame
/// would join the direct version's at the loop's exit).
pub(crate) fn frame_locals(p: &Program, f: &Function, s: &Stmt, facts: &Facts) -> Vec<(usize, bool)> {
    let assigned = crate::site_locals::stmt_assigned_locals(f, s);
    let private = private_locals(p, f, s, facts);
    crate::site_locals::stmt_locals(p, f, s)
        .iter()
        .enumerate()
        .filter(|&(i, &named)| named && !private.get(i).copied().unwrap_or(false))
        .map(|(i, _)| (i, assigned.get(i).copied().unwrap_or(true)))
        .collect()
}

/// By local of `f`: whether it is private to loop `s` (a `for` statement): a register local
/// named nowhere else in the function, not a VLA's count, not named by the loop's condition or
/// step, and assigned by a statement at the top of the body (or an inner `for`'s
/// initialisation) before any statement of the body names it — a local declared in the body
/// with an initialiser (`float s = 0.0f;`, an inner `for (int dy = -2; …)`). Every iteration
/// assigns it before it is read (a `continue` goes to the step and the condition, which do not
/// name it), and nothing reads it after the loop, so its values at the loop's entry and exit
/// matter to nothing and it is not in the frame (a memory local's variable holds its address,
/// set at the function's entry: always passed). Passing it made its entry value live around
/// the loop's enclosing loops (blur's kernel: `s`, `dy` and `dx` carried around the gang loop
/// spilled its vector registers in the direct version, 18% more instructions).
fn private_locals(p: &Program, f: &Function, s: &Stmt, facts: &Facts) -> Vec<bool> {
    use crate::site_locals::{expr_named_locals, local_occurrences, stmt_named_locals};
    let n = f.locals.len();
    let StmtKind::For { cond, step, body, .. } = &s.kind else {
        return vec![false; n];
    };
    let mut read = vec![false; n];
    let mut killed = vec![false; n];
    /// Mark the locals of `named` read.
    fn mark(read: &mut [bool], named: Vec<bool>) {
        read.iter_mut().zip(named).for_each(|(r, x)| *r |= x);
    }
    for e in [cond, step].into_iter().flatten() {
        mark(&mut read, expr_named_locals(p, f, e));
    }
    // The statements at the top of the body, in order: a block's, and an inner `for`'s
    // initialisation, run on every path through an iteration.
    fn top(st: &Stmt, p: &Program, f: &Function, read: &mut [bool], killed: &mut [bool]) {
        match &st.kind {
            StmtKind::Block(ss) => {
                for x in ss {
                    top(x, p, f, read, killed);
                }
                return;
            }
            StmtKind::Expr(e) => {
                if let ExprKind::Assign { place: Place::Local(x), value } = &e.kind {
                    mark(read, expr_named_locals(p, f, value));
                    if let (Some(false), Some(k)) = (read.get(x.0 as usize).copied(), killed.get_mut(x.0 as usize)) {
                        *k = true;
                    }
                }
            }
            StmtKind::For { init: Some(i), .. } => top(i, p, f, read, killed),
            _ => {}
        }
        mark(read, stmt_named_locals(p, f, st));
    }
    top(body, p, f, &mut read, &mut killed);
    let (inside, everywhere, counts) = (local_occurrences(f, s), &facts.occurrences, &facts.vla_counts);
    let register = |l: usize| f.locals.get(l).is_some_and(|x| x.storage == Storage::Register);
    (0..n).map(|l| killed[l] && inside[l] == everywhere[l] && !counts[l] && register(l)).collect()
}

/// What the outlining of a function's loops asks of the whole function, worked out once per
/// translation ([`Translator::outline_facts`]).
pub(crate) struct Facts {
    /// By `for` statement: its number ([`for_statements`]).
    numbers: HashMap<*const Stmt, u32>,
    /// By local: how many expressions and statements of the function name it.
    occurrences: Vec<u32>,
    /// By local: whether a type of the function names it (a VLA's count).
    vla_counts: Vec<bool>,
}

impl Facts {
    pub(crate) fn of(p: &Program, f: &Function) -> Facts {
        Facts {
            numbers: for_statements(&f.body).into_iter().enumerate().map(|(k, x)| (x as *const Stmt, k as u32)).collect(),
            occurrences: crate::site_locals::local_occurrences(f, &f.body),
            vla_counts: crate::site_locals::vla_count_locals(p, f),
        }
    }
}

/// Whether `s` has a `return` statement.
fn returns(s: &Stmt) -> bool {
    let mut found = false;
    walk(s, true, &mut |x| found |= matches!(x.kind, StmtKind::Return(_)), &mut |_| {});
    found
}

impl Translator<'_, '_> {
    /// The checked version of counted loop `s` (a `for` statement whose initialisation ran),
    /// leaving to `exit`: a call of its code, made on first need, where it can be one (see the
    /// module docs); else translated here, the loops in it not unrolled
    /// ([`Translator::rolled`]).
    pub(crate) fn checked_version(&mut self, s: &Stmt, exit: Block) -> R<()> {
        let StmtKind::For { cond, step, body, .. } = &s.kind else {
            return Err("internal: not a `for` statement".into());
        };
        match self.outline_slot(s) {
            Some(slot) => self.call_checked_version(slot, s, exit),
            None => self.rolled(|t| t.plain_for(cond.as_ref(), step.as_ref(), body, s.loc, exit)),
        }
    }

    /// The function's [`Facts`], worked out when first wanted.
    fn outline_facts(&mut self) -> &Facts {
        let (p, func) = (self.p, self.func);
        self.outline_facts.get_or_insert_with(|| Facts::of(p, func))
    }

    /// The slot of loop `s`'s checked version when it can be a function of its own here.
    fn outline_slot(&mut self, s: &Stmt) -> Option<u32> {
        let outlines = self.outlines?;
        let enclosed = !self.direct.is_empty()
            || !self.direct_locals.is_empty()
            || !self.frozen.is_empty()
            || !self.held.is_empty()
            || !self.prepaid.is_empty()
            || !self.inline_args.is_empty()
            || self.inline_fuel_at_hand
            || self.lane_at.is_some()
            || !self.lane_streams.is_empty();
        if enclosed || self.twinned || !outlinable_statements(s) {
            return None;
        }
        let k = *self.outline_facts().numbers.get(&(s as *const Stmt))?;
        outlines.slot(self.fid, k)
    }

    /// Call the checked version of loop `s` in `slot` (see the module docs, "The call"), then
    /// go on at `exit` (or return what a `return` in the loop returned).
    fn call_checked_version(&mut self, slot: u32, s: &Stmt, exit: Block) -> R<()> {
        let outlines = self.outlines.ok_or("internal: no slots of checked versions")?;
        let address = outlines.code_address(slot).ok_or("internal: no such slot")?;
        let (p, func) = (self.p, self.func);
        let locals = frame_locals(p, func, s, self.outline_facts());
        // The checked version runs where the entry checks failed: out of the hot path.
        if let Some(here) = self.b.current_block() {
            self.b.set_cold_block(here);
        }
        let frame = self.b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, (8 * (locals.len() + 1)) as u32, 3));
        let mut kinds = Vec::with_capacity(locals.len());
        for (k, &(i, _)) in locals.iter().enumerate() {
            let v = self.b.use_var(self.vars[i]);
            let ty = self.b.func.dfg.value_type(v);
            kinds.push(ty);
            self.b.ins().stack_store(types::I64, v, frame, (8 * k) as i32);
        }

        // The code, made on first need.
        let at = self.iconst(address);
        let code = self.b.ins().load(types::I64, MemFlagsData::trusted(), at, 0);
        let (make, run) = (self.b.create_block(), self.b.create_block());
        let code_param = self.b.append_block_param(run, types::I64);
        self.b.ins().brif(code, run, &[code.into()], make, &[]);
        self.b.switch_to_block(make);
        self.b.set_cold_block(make);
        let n = self.iconst(u64::from(slot));
        let made = self.helper(Helper::OutlineCode, &[self.ctx, n]).ok_or("internal: no code of a checked version")?;
        self.check_trap();
        self.b.ins().jump(run, &[made.into()]);

        self.b.switch_to_block(run);
        self.b.set_cold_block(run);
        let sig = self.b.import_signature(signature(CallConv::PreserveAll));
        let fuel = self.b.use_var(self.fuel);
        let words = self.b.ins().stack_addr(types::I64, frame, 0);
        self.b.ins().call_indirect(sig, code_param, &[self.ctx, fuel, self.depth, words]);
        self.reload_fuel();
        self.check_trap();
        self.reload_table();
        for (k, (&(i, assigned), &ty)) in locals.iter().zip(&kinds).enumerate() {
            if assigned {
                let v = self.b.ins().stack_load(types::I64, ty, frame, (8 * k) as i32);
                self.b.def_var(self.vars[i], v);
            }
        }
        if returns(s) {
            let returned = self.b.create_block();
            let status = self.b.ins().load(types::I64, MemFlagsData::trusted(), self.ctx, OFF_COLD_RESULT);
            self.b.ins().brif(status, returned, &[], exit, &[]);
            self.b.switch_to_block(returned);
            let w = self.b.ins().stack_load(types::I64, types::I64, frame, (8 * locals.len()) as i32);
            self.ret(w);
        } else {
            self.b.ins().jump(exit, &[]);
        }
        Ok(())
    }

    /// The body of the checked version of the function's `for` statement `s`, whose frame is
    /// at `frame` (see the module docs), the function's variables of types `var_types`: the
    /// locals from the frame, the loop as the caller's checked version would run it, the locals
    /// back into the frame, and 0 with the fuel left.
    pub(crate) fn checked_version_body(&mut self, s: &Stmt, frame: Value, var_types: &[Type]) -> R<()> {
        let func = self.func;
        let StmtKind::For { cond, step, body, .. } = &s.kind else {
            return Err("internal: not a `for` statement".into());
        };
        let p = self.p;
        let locals = frame_locals(p, func, s, self.outline_facts());
        for (j, &(i, _)) in locals.iter().enumerate() {
            let ty = *var_types.get(i).ok_or("internal: unknown local")?;
            let v = self.b.ins().load(ty, MemFlagsData::trusted(), frame, (8 * j) as i32);
            self.b.def_var(self.vars[i], v);
        }
        self.outlined = Some((frame, locals.len()));
        let exit = self.b.create_block();
        self.rolled(|t| t.plain_for(cond.as_ref(), step.as_ref(), body, s.loc, exit))?;
        self.b.switch_to_block(exit);
        for (j, &(i, assigned)) in locals.iter().enumerate() {
            if assigned {
                let v = self.b.use_var(self.vars[i]);
                self.b.ins().store(MemFlagsData::trusted(), v, frame, (8 * j) as i32);
            }
        }
        self.leave_checked_version(ENDED);
        Ok(())
    }

    /// The body of a loop entry ([`crate::loop_entry`]): the function's `for` statement `s`
    /// as a whole (its initialisation, its versions, its checked version made on first need),
    /// on the words of the interpreter's frame at `frame` (as [`frame_locals`] orders them, a
    /// returned word after them; the locals of `constants` with those words), the locals it may
    /// assign back into the frame as words, and the fuel left and how it left in the context,
    /// as a checked version leaves.
    pub(crate) fn loop_entry_body(&mut self, s: &Stmt, frame: Value, constants: &[(usize, u64)]) -> R<()> {
        let func = self.func;
        let p = self.p;
        let locals = frame_locals(p, func, s, self.outline_facts());
        for (j, &(i, _)) in locals.iter().enumerate() {
            // A local of one constant value ([`crate::loop_entry`]): its word, known here as the
            // function's own translation knows it (a divisor, a row's length).
            let w = match constants.iter().find(|&&(l, _)| l == i) {
                Some(&(_, word)) => self.iconst(word),
                None => self.b.ins().load(types::I64, MemFlagsData::trusted(), frame, (8 * j) as i32),
            };
            let v = self.word_for_local(i, w);
            self.b.def_var(self.vars[i], v);
        }
        self.outlined = Some((frame, locals.len()));
        self.stmt(s)?;
        for (j, &(i, assigned)) in locals.iter().enumerate() {
            if assigned {
                let v = self.b.use_var(self.vars[i]);
                let w = self.word_of(v);
                self.b.ins().store(MemFlagsData::trusted(), w, frame, (8 * j) as i32);
            }
        }
        self.leave_checked_version(ENDED);
        Ok(())
    }

    /// Return from a checked version's code ([`signature`]) that left as `how`: the fuel left
    /// and `how` in the context.
    pub(crate) fn leave_checked_version(&mut self, how: u64) {
        let fuel = self.b.use_var(self.fuel);
        self.b.ins().store(MemFlagsData::trusted(), fuel, self.ctx, OFF_FUEL);
        let how = self.iconst(how);
        self.b.ins().store(MemFlagsData::trusted(), how, self.ctx, OFF_COLD_RESULT);
        self.b.ins().return_(&[]);
    }
}

impl crate::Engine<'_> {
    /// The code of `part` ([`crate::outline`], [`crate::loop_entry`]), made now if it has none
    /// (one thread makes it, the others wait for it); 0 when it cannot be made.
    pub(crate) fn part_code(&self, slot: u32, entry: bool) -> u64 {
        let Some(part) = self.outlines.part(slot, entry) else { return 0 };
        let Some(cell) = self.outlines.code(part) else { return 0 };
        let made = cell.load(Ordering::Acquire);
        if made != 0 {
            return made;
        }
        let Ok(mut lazy) = self.lazy.lock() else { return 0 };
        let made = cell.load(Ordering::Acquire);
        if made != 0 {
            return made;
        }
        let start = std::time::Instant::now();
        let code = self.make_part(&mut lazy, part).unwrap_or(0);
        cell.store(code, Ordering::Release);
        drop(lazy);
        if let Ok(mut s) = self.seconds.lock() {
            *s += start.elapsed().as_secs_f64();
        }
        code
    }

    /// Translate and generate `part` ([`crate::outline`], [`crate::loop_entry`]), define it in
    /// the module and give its address.
    fn make_part(&self, lazy: &mut Lazy, part: Part) -> Result<u64, String> {
        self.define_cold_stubs(lazy)?;
        let fid = self.outlines.of_slot(part.slot).ok_or("no such slot")?.0;
        let f = self.p.functions.get(fid as usize).ok_or("no such function")?;
        let (label, what, signature) = match part.entry {
            false => ("loop", "optimised (a loop's checked version, made when it first ran)", signature(CallConv::PreserveAll)),
            true => ("entry", "optimised (a loop of a function the interpreter runs)", signature(self.call_conv)),
        };
        let name = format!("{}${label}{}", self.names.get(fid as usize).map_or("", String::as_str), part.k);
        let id = lazy.module.declare_function(&format!("{}{}", &label[..1], part.slot), Linkage::Local, &signature).map_err(|e| e.to_string())?;
        let started = std::time::Instant::now();
        let (mut fctx, mut cctx) = (std::mem::take(&mut lazy.fctx), std::mem::replace(&mut lazy.cctx, Context::new()));
        let translated = self.translate_from(fid, None, false, Some(part), f, signature, &mut fctx, &mut cctx);
        (lazy.fctx, lazy.cctx) = (fctx, cctx);
        let (mut func, locs) = translated?;
        let took = started.elapsed();
        self.translate_nanos.fetch_add(took.as_nanos() as u64, Ordering::Relaxed);
        func.name = UserFuncName::user(0, id.as_u32());
        let isa = lazy.isa.clone();
        let (code, dump) = shared::compile(&mut lazy.codegen, &*isa, func, id, &name, dump_wanted(&name))?;
        let g = code.instantiate(fid, id, dump, code.seconds)?;
        report_cost(&name, what, &g, took.as_secs_f64());
        if let Some(l) = self.locs.get(self.outlines.loc_table(part) as usize) {
            let _ = l.set(locs);
        }
        let code = lazy.define_alone(id, &g, &name)?;
        if let Some(text) = &g.dump {
            eprintln!("accsim: native code of `{name}`:\n{text}");
        }
        Ok(code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The program of `src`, compiled by the front end.
    fn program(src: &str) -> accsim_core::driver::Compiled {
        let mut map = accsim_core::diag::SourceMap::new();
        accsim_core::driver::compile_preprocessed("outline.c", src.to_string(), &mut map).expect("the test program compiles")
    }

    /// Function `name` of `p` and its `k`th `for` statement.
    fn loop_of<'p>(p: &'p Program, name: &str, k: usize) -> (&'p Function, &'p Stmt) {
        let f = p.functions.iter().find(|f| f.name == name).expect("the function");
        (f, for_statements(&f.body)[k])
    }

    /// The names of the locals of `f` marked in `marks`.
    fn names(f: &Function, marks: &[bool]) -> Vec<String> {
        f.locals.iter().zip(marks).filter(|(_, &m)| m).map(|(l, _)| l.name.clone()).collect()
    }

    /// Every `for` statement has a slot, numbered function by function in pre-order; a slot
    /// names its function and statement back, and its location table comes after the
    /// functions'.
    #[test]
    fn slots_number_the_for_statements_of_each_function() {
        let c = program(
            "static int none(int x) { return x + 1; }\n\
             static int two(int n) { int s = 0; for (int i = 0; i < n; i++) for (int j = 0; j < i; j++) s += j; return s; }\n\
             int main(void) { int t = none(2); for (int k = 0; k < 3; k++) t += two(k); return t; }\n",
        );
        let p = &c.program;
        let o = Outlines::new(p);
        let total: usize = p.functions.iter().map(|f| for_statements(&f.body).len()).sum();
        assert_eq!(o.len(), total);
        let mut seen = 0;
        for (fid, f) in p.functions.iter().enumerate() {
            for k in 0..for_statements(&f.body).len() as u32 {
                let slot = o.slot(fid as u32, k).expect("a slot");
                assert_eq!(slot as usize, seen, "slots in order");
                assert_eq!(o.of_slot(slot), Some((fid as u32, k)));
                assert_eq!(o.loc_table(Part { k, slot, entry: false }), p.functions.len() as u32 + slot);
                assert_eq!(o.loc_table(Part { k, slot, entry: true }), (p.functions.len() + total) as u32 + slot);
                seen += 1;
            }
            assert_eq!(o.slot(fid as u32, for_statements(&f.body).len() as u32), None, "one past the last loop");
        }
        assert_eq!(o.of_slot(total as u32), None);
        for entry in [false, true] {
            assert!(o.code(Part { k: 0, slot: 0, entry }).is_some_and(|c| c.load(Ordering::Relaxed) == 0), "no code until made");
        }
    }

    /// Locals declared in the body and assigned before any read stay out of the frame; a
    /// local read after the loop, one read before its assignment, one the condition names and
    /// an address-taken one are passed.
    #[test]
    fn private_locals_are_declared_in_the_body_and_assigned_first() {
        let c = program(
            "static void g(int *q) { *q += 1; }\n\
             static int f(const float *a, int n) {\n\
               int after = 0, carried = 1, bound = n; float t = 0.0f;\n\
               for (int i = 0; i < bound; i++) {\n\
                 float s = 0.0f; int mine;\n\
                 mine = i * 2; carried = carried + mine; after = i;\n\
                 for (int d = -1; d <= 1; d++) s += a[i + d];\n\
                 int taken = 3; g(&taken);\n\
                 t += s;\n\
               }\n\
               return after + carried + (int)t;\n\
             }\n\
             int main(void) { float a[8] = {0}; return f(a + 1, 6); }\n",
        );
        let (f, s) = loop_of(&c.program, "f", 0);
        let facts = Facts::of(&c.program, f);
        let private = names(f, &private_locals(&c.program, f, s, &facts));
        for x in ["s", "mine", "d"] {
            assert!(private.contains(&x.to_string()), "{x} is private: {private:?}");
        }
        for x in ["after", "carried", "bound", "t", "i", "n", "a", "taken"] {
            assert!(!private.contains(&x.to_string()), "{x} is passed: {private:?}");
        }
        // The frame: every named local but the private ones; those the loop assigns come back.
        let frame: Vec<(String, bool)> = frame_locals(&c.program, f, s, &facts).into_iter().map(|(i, a)| (f.locals[i].name.clone(), a)).collect();
        assert!(frame.contains(&("after".to_string(), true)));
        assert!(frame.contains(&("a".to_string(), false)), "{frame:?}");
        assert!(frame.iter().all(|(x, _)| x != "s" && x != "mine" && x != "d"));
    }
}
