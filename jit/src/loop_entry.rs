//! The loops of a function that runs once, compiled one by one (issue 15's compile time).
//!
//! A program's `main` runs once, and most of its code runs once: allocations, a small table
//! filled in a few iterations, the host side of data constructs and launches, the error paths,
//! the final `printf`. Compiled as a whole, all of it was generated (blur's `main`: 1,166 IR
//! instructions, 2.3 ms, a third of its compile) for the two loops that run long. So where it
//! can, the engine leaves such a function to the interpreter and compiles only its loops whose
//! work pays, each the first time the interpreter reaches it, as a function of its own:
//!
//! - **Which function.** One the engine may compile that nothing in the program calls, takes
//!   the address of or launches ([`crate::Engine`]'s `runs_once`: `main`), not a library
//!   routine, when every loop of it
//!   can be entered so ([`Loops::of`]): each `for` statement is *enterable* (no OpenACC
//!   statement, `goto`, label or partitioned loop in it), or holds an OpenACC
//!   statement (a host loop around launches and data constructs, whose own time is the
//!   runtime's and the kernels') and only such loops; no `goto` and no loop in an expression
//!   outside them. Otherwise the function is compiled as a whole, as before.
//! - **Which loop.** The interpreter reaches a `for` statement of such a function
//!   ([`accsim_core::exec::machine::code::Op::NativeLoop`], before the initialisation) and asks
//!   the engine ([`crate::Engine::run_loop`]). A loop whose work, counted from the frame's
//!   values ([`crate::work::stmt_estimate`]), is below [`tiers::INTERPRET_BELOW_WORK`] runs in
//!   the interpreter, until the work the interpreter ran of it reaches
//!   [`tiers::INTERPRETED_WORK_LIMIT`]; any other, and one whose work cannot be counted, is
//!   compiled then, once, and runs as native code from then on. Under `check` the checking
//!   executable asks too: the loops' native code reports the accesses the checkers follow, as
//!   the whole function's did.
//! - **The code.** The loop as the function's own translation would have it (its entry checks,
//!   direct and vector versions, its checked version made on first need, [`crate::outline`]),
//!   taking the frame's words of the locals it names ([`crate::outline::frame_locals`]: a
//!   register local's value, a memory local's address, as
//!   [`accsim_core::exec::Machine::native_local_word`] reads them; the value of a memory local
//!   native code keeps in a variable, [`crate::promote`], read from its memory before and
//!   stored there after), and giving back those it may assign. It leaves as a checked version leaves (fuel and how it left in the context), so a
//!   `return` in the loop returns its word from the function, and a trap is the trap of the
//!   interpreter's call. A local initialised once by a constant (`const int n = N;`) is that
//!   constant in the code, as in the function's own translation ([`constant_locals`]).
//!
//! The choices depend on the program and its values only, so a run makes the same ones every
//! time; with `ACCSIM_JIT=eager` every function is compiled as a whole at its first call, as
//! before. Output, faults and findings are those of either engine (the steps `--max-steps`
//! counts depend on which engine ran each part, as for the tiers' calls).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;

use accsim_core::diag::Loc;
use accsim_core::exec::native::LoopRun;
use accsim_core::exec::value::Kind;
use accsim_core::exec::{Machine, Trap};
use accsim_core::ir::visit::{for_statements, walk};
use accsim_core::ir::{Function, FunctionOrigin, Program, Stmt, StmtKind};
use cranelift_codegen::isa::CallConv;

use crate::outline::{frame_locals, outlinable_statements, Facts, ENDED, RETURNED};
use crate::{runtime, tiers, work};

/// The loops of a function the interpreter runs, by `for` statement number
/// ([`for_statements`]).
pub(crate) struct Loops<'p> {
    stmts: Vec<&'p Stmt>,
    /// By local: a memory local native code keeps in a variable ([`crate::promote`]).
    promoted: Vec<bool>,
    /// Whether the loop can be entered as code of its own (see the module docs); cleared when
    /// its code could not be made.
    enterable: Vec<AtomicBool>,
    /// The loop's frame ([`frame_locals`]), worked out when first wanted.
    frames: Vec<OnceLock<Vec<(usize, bool)>>>,
    /// The counted work the interpreter ran of the loop.
    interpreted_work: Vec<AtomicU64>,
    /// By local: an integer register local whose one assignment in the function is its
    /// initialisation by a constant (`const int n = N;`), see [`constant_locals`].
    constant: Vec<bool>,
    /// By loop: the locals its code takes as constants, with their words (set when the code is
    /// made; an entry whose frame holds other words runs in the interpreter).
    constants: Vec<OnceLock<Vec<(usize, u64)>>>,
}

impl<'p> Loops<'p> {
    /// The frame of loop `k` of `f` ([`frame_locals`]), as the translation of its code has it:
    /// of `f` as the translator sees it ([`crate::promote::translated_form`], `promote` the
    /// engine's).
    fn frame(p: &Program, f: &Function, k: u32, promote: bool) -> Vec<(usize, bool)> {
        let (_, rewritten) = crate::promote::translated_form(p, f, promote);
        let form = rewritten.as_ref().unwrap_or(f);
        match for_statements(&form.body).get(k as usize) {
            Some(s) => frame_locals(p, form, s, &Facts::of(p, form)),
            None => Vec::new(),
        }
    }

    /// The loops of `f`, when the engine may run it loop by loop (see the module docs).
    pub(crate) fn of(p: &'p Program, f: &'p Function, promote: bool) -> Option<Loops<'p>> {
        if f.origin == FunctionOrigin::SystemHeader || f.variadic {
            return None;
        }
        let stmts = for_statements(&f.body);
        let enterable: Vec<bool> = stmts.iter().map(|s| outlinable_statements(s)).collect();
        let entered = |s: &Stmt| stmts.iter().zip(&enterable).any(|(&x, &ok)| ok && std::ptr::eq(x, s));
        if !fits(&f.body, &entered) {
            return None;
        }
        Some(Loops {
            constant: constant_locals(p, f),
            constants: stmts.iter().map(|_| OnceLock::new()).collect(),
            promoted: crate::promote::promoted(p, f, promote),
            frames: stmts.iter().map(|_| OnceLock::new()).collect(),
            interpreted_work: stmts.iter().map(|_| AtomicU64::new(0)).collect(),
            enterable: enterable.into_iter().map(AtomicBool::new).collect(),
            stmts,
        })
    }
}

/// By local of `f`: an integer register local, not a parameter, whose one assignment in the
/// function is an assignment of an integer constant (`const int n = N;`, `int n = 1024;`). The
/// function's own translation knows its value at each use (Cranelift's SSA form); a loop entry's
/// code, made apart, takes it as a constant too (`% n`, `A[i][j]` of `double (*A)[n]`: a
/// division and a row length by a constant; mvt's initialisation ran 1.7% more instructions
/// when it came from the frame). The entry still compares the frame's word with the constant.
fn constant_locals(p: &Program, f: &Function) -> Vec<bool> {
    use accsim_core::ir::{ExprKind, Place};
    let n = f.locals.len();
    let assignments = std::cell::RefCell::new(vec![0u32; n]);
    let mut by_constant = vec![false; n];
    let count = |l: accsim_core::ir::LocalId, times: u32| {
        if let Some(a) = assignments.borrow_mut().get_mut(l.0 as usize) {
            *a += times;
        }
    };
    walk(
        &f.body,
        true,
        &mut |st| {
            if let StmtKind::VlaAlloc(l) = st.kind {
                count(l, 2);
            }
        },
        &mut |x| {
            let Some(l) = crate::site_locals::assigned_local(x) else { return };
            count(l, 1);
            if let (ExprKind::Assign { place: Place::Local(_), value }, Some(c)) = (&x.kind, by_constant.get_mut(l.0 as usize)) {
                let mut v = &**value;
                while let ExprKind::Cast(inner) = &v.kind {
                    v = inner;
                }
                *c = matches!(v.kind, ExprKind::Int(_));
            }
        },
    );
    let mut assignments = assignments.into_inner();
    for l in &f.params {
        if let Some(a) = assignments.get_mut(l.0 as usize) {
            *a += 2;
        }
    }
    (0..n)
        .map(|l| {
            assignments[l] == 1
                && by_constant[l]
                && f.locals[l].storage == accsim_core::ir::Storage::Register
                && Kind::of(&p.types, f.locals[l].ty).is_int()
        })
        .collect()
}

/// Whether statement `s` of a function run loop by loop leaves no long-running loop to the
/// interpreter: every loop in it is `entered` (compiled on its own) or holds an OpenACC
/// statement and fits in turn; no `goto`, and no loop inside an expression outside those.
fn fits(s: &Stmt, entered: &dyn Fn(&Stmt) -> bool) -> bool {
    if entered(s) {
        return true;
    }
    let holds_acc = |x: &Stmt| {
        let mut acc = false;
        walk(x, true, &mut |y| acc |= matches!(y.kind, StmtKind::Acc { .. } | StmtKind::AccLaunch(_)), &mut |_| {});
        acc
    };
    // Statements inside this statement's own expressions (a statement expression's loop).
    let mut own = Vec::new();
    accsim_core::ir::visit::stmt_parts(s, &mut |part| {
        if let accsim_core::ir::visit::Part::Expr(e) = part {
            accsim_core::ir::visit::walk_expr(e, true, &mut |x| own.push(x), &mut |_| {});
        }
    });
    let loops_in_expressions = own.iter().any(|x| matches!(x.kind, StmtKind::For { .. } | StmtKind::While(..) | StmtKind::DoWhile(..) | StmtKind::Goto(_) | StmtKind::Partition(_)));
    if loops_in_expressions {
        return false;
    }
    match &s.kind {
        StmtKind::Goto(_) | StmtKind::Partition(_) => false,
        StmtKind::For { .. } | StmtKind::While(..) | StmtKind::DoWhile(..) if !holds_acc(s) => false,
        _ => {
            let mut ok = true;
            accsim_core::ir::visit::stmt_parts(s, &mut |part| {
                if let accsim_core::ir::visit::Part::Stmt(x) = part {
                    ok &= fits(x, entered);
                }
            });
            ok
        }
    }
}

/// The engine's loops entered from the interpreter, by function id.
pub(crate) struct LoopEntries<'p> {
    by_function: Vec<Option<Loops<'p>>>,
    /// Loops compiled, and entries the interpreter ran by counted work.
    compiled: AtomicU64,
    interpreted: AtomicU64,
}

impl<'p> LoopEntries<'p> {
    /// The functions of `p` run loop by loop: those the engine may compile (`may_be_native`)
    /// that run once (`runs_once`, by function id), not kernels, whose loops all fit (see the
    /// module docs); none with `eager` or where native code cannot be called from Rust.
    pub(crate) fn new(p: &'p Program, may_be_native: &[bool], runs_once: &[bool], is_kernel: &[bool], eager: bool, call_conv: CallConv, promote: bool) -> Self {
        let by_function = p
            .functions
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let candidate = !eager
                    && crate::enter::c_compatible(call_conv)
                    && may_be_native.get(i).copied().unwrap_or(false)
                    && runs_once.get(i).copied().unwrap_or(false)
                    && !is_kernel.get(i).copied().unwrap_or(true);
                candidate.then(|| Loops::of(p, f, promote)).flatten()
            })
            .collect();
        LoopEntries { by_function, compiled: AtomicU64::new(0), interpreted: AtomicU64::new(0) }
    }

    /// The locals loop `k` of function `fid` takes as constants, with their words (none before
    /// its code is made).
    pub(crate) fn constants(&self, fid: u32, k: u32) -> &[(usize, u64)] {
        match self.by_function.get(fid as usize) {
            Some(Some(loops)) => loops.constants.get(k as usize).and_then(OnceLock::get).map_or(&[], Vec::as_slice),
            _ => &[],
        }
    }

    /// Whether function `fid` runs in the interpreter, its loops compiled one by one.
    pub(crate) fn runs_by_loop(&self, fid: u32) -> bool {
        self.by_function.get(fid as usize).is_some_and(Option::is_some)
    }

    /// What the tiers did with loops (`ACCSIM_PHASE_TIMES`).
    pub(crate) fn summary(&self) -> String {
        format!(
            "accsim: loops: {} functions run loop by loop; {} loops compiled, {} loop runs interpreted by counted work",
            self.by_function.iter().filter(|l| l.is_some()).count(),
            self.compiled.load(Ordering::Relaxed),
            self.interpreted.load(Ordering::Relaxed)
        )
    }
}

impl crate::Engine<'_> {
    /// [`accsim_core::exec::NativeCode::run_loop`]: the `k`th `for` statement of function
    /// `fid`, which the interpreter runs on `m` (see the module docs).
    pub(crate) fn run_loop(&self, m: &mut Machine, fid: u32, k: u32, loc: Loc) -> Result<LoopRun, Trap> {
        let (Some(Some(loops)), Some(f)) = (self.loop_entries.by_function.get(fid as usize), self.p.functions.get(fid as usize)) else {
            return Ok(LoopRun::Interpret);
        };
        let (Some(&s), Some(enterable), Some(slot)) = (loops.stmts.get(k as usize), loops.enterable.get(k as usize), self.outlines.slot(fid, k)) else {
            return Ok(LoopRun::Interpret);
        };
        if !enterable.load(Ordering::Acquire) {
            return Ok(LoopRun::Interpret);
        }
        let frame = loops.frames[k as usize].get_or_init(|| Loops::frame(self.p, f, k, self.promote));
        let mut words: Vec<u64> = frame.iter().map(|&(i, _)| m.native_local_word(fid, i)).collect();
        // The word a `return` in the loop returns.
        words.push(0);
        let made = self.outlines.part(slot, true).and_then(|part| self.outlines.code(part)).map_or(0, |c| c.load(Ordering::Acquire));
        let code = if made != 0 {
            let constants = loops.constants[k as usize].get().map_or(&[][..], Vec::as_slice);
            let same = constants.iter().all(|&(i, w)| m.native_local_word(fid, i) == w);
            if !same {
                // Made for other values of its constant locals (a `switch` jumped past an
                // initialisation): the interpreter runs it.
                return Ok(LoopRun::Interpret);
            }
            made
        } else {
            let mut known = vec![None; f.locals.len()];
            for (&(i, _), &w) in frame.iter().zip(&words) {
                known[i] = Some(w);
            }
            if let Some(w) = work::stmt_estimate(self.p, f, s, &known) {
                let spent = loops.interpreted_work[k as usize].load(Ordering::Relaxed);
                if w < tiers::INTERPRET_BELOW_WORK && spent.saturating_add(w) <= tiers::INTERPRETED_WORK_LIMIT {
                    loops.interpreted_work[k as usize].store(spent + w, Ordering::Relaxed);
                    self.loop_entries.interpreted.fetch_add(1, Ordering::Relaxed);
                    return Ok(LoopRun::Interpret);
                }
            }
            let constants: Vec<(usize, u64)> = frame
                .iter()
                .zip(&words)
                .filter(|&(&(i, assigned), _)| !assigned && loops.constant.get(i).copied().unwrap_or(false))
                .map(|(&(i, _), &w)| (i, w))
                .collect();
            let _ = loops.constants[k as usize].set(constants);
            let code = self.part_code(slot, true);
            if code == 0 {
                // Its translation failed: the interpreter runs it (as a function the engine
                // cannot compile).
                enterable.store(false, Ordering::Release);
                return Ok(LoopRun::Interpret);
            }
            self.loop_entries.compiled.fetch_add(1, Ordering::Relaxed);
            code
        };
        // Promoted locals: their values, from their memory (`words` holds their addresses).
        let promoted: Vec<(usize, u64, Kind)> = frame
            .iter()
            .enumerate()
            .filter(|&(_, &(i, _))| loops.promoted.get(i).copied().unwrap_or(false))
            .map(|(j, &(i, _))| (j, words[j], Kind::of(&self.p.types, f.locals[i].ty)))
            .collect();
        for &(j, address, kind) in &promoted {
            words[j] = m.load_kind(kind, address).map_err(|e| m.fault(e, loc))?;
        }
        let outliner = runtime::Outliner { engine: self as *const Self as *const (), make: crate::outliner_make };
        let how = runtime::enter_loop(m, code as usize as *const u8, &mut words, &self.locs, &self.names, loc, outliner)?;
        for (&(i, assigned), &w) in frame.iter().zip(&words) {
            if assigned {
                m.native_set_local_word(fid, i, w);
            }
        }
        if how == ENDED {
            for &(j, address, kind) in &promoted {
                if frame[j].1 {
                    m.store_kind(kind, address, words[j]).map_err(|e| m.fault(e, loc))?;
                }
            }
        }
        match how {
            ENDED => Ok(LoopRun::Ended),
            RETURNED => Ok(LoopRun::Returned(words[frame.len()])),
            _ => Err(Trap::error(accsim_core::diag::Diagnostic::internal("a loop's native code left in an unknown way", Some(loc)))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The program of `src`, compiled by the front end.
    fn program(src: &str) -> accsim_core::driver::Compiled {
        let mut map = accsim_core::diag::SourceMap::new();
        accsim_core::driver::compile_preprocessed("loops.c", src.to_string(), &mut map).expect("the test program compiles")
    }

    /// Whether `main` of `src` runs loop by loop (the function-level rule, with promotion as
    /// the engine has it).
    fn by_loop(src: &str) -> bool {
        let c = program(src);
        // `main`, the program's first function (kernels outlined from it come after it).
        let f = c.program.functions.first().expect("main");
        Loops::of(&c.program, f, true).is_some()
    }

    /// `main` runs loop by loop when each of its loops can be entered or holds an OpenACC
    /// statement (and only such loops); a `while` without one, a `goto` or a loop in a
    /// statement expression leaves it compiled whole.
    #[test]
    fn main_runs_loop_by_loop_only_when_every_loop_fits() {
        let head = "int a[100];\nint main(void) {\n  int s = 0;\n";
        let fits = [
            "for (int i = 0; i < 100; i++) a[i] = i;\n",
            "for (int r = 0; r < 3; r++) {\n#pragma acc parallel loop\n for (int i = 0; i < 100; i++) a[i] += r;\n for (int i = 0; i < 100; i++) s += a[i];\n}\n",
            "while (s < 10) {\n#pragma acc update self(a)\n s++;\n}\n",
        ];
        let unfit = [
            "while (s < 10) s++;\n",
            "do s++; while (s < 10);\n",
            "again: s++; if (s < 10) goto again;\n",
            "s = ({ int t = 0; for (int i = 0; i < 5; i++) t += i; t; });\n",
            "for (int r = 0; r < 3; r++) {\n#pragma acc parallel loop\n for (int i = 0; i < 100; i++) a[i] += r;\n while (s < 10) s++;\n}\n",
        ];
        for body in fits {
            assert!(by_loop(&format!("{head}{body}  return s;\n}}\n")), "{body}");
        }
        for body in unfit {
            assert!(!by_loop(&format!("{head}{body}  return s;\n}}\n")), "{body}");
        }
    }

    /// A local is a constant for a loop's code when its one assignment is its initialisation by
    /// an integer constant: not a local assigned again, a parameter, a float or one initialised
    /// by a computed value.
    #[test]
    fn constant_locals_are_initialised_once_by_an_integer_constant() {
        let c = program(
            "int main(int argc, char **argv) {\n\
               const int n = 600; int w = 37; long neg = -3; int twice = 5; twice = 11;\n\
               double d = 2.0; int computed = argc * 2;\n\
               (void)argv;\n\
               return n + w + (int)neg + twice + (int)d + computed;\n\
             }\n",
        );
        // `main`, the program's first function (kernels outlined from it come after it).
        let f = c.program.functions.first().expect("main");
        let constant = constant_locals(&c.program, f);
        let is = |name: &str| f.locals.iter().position(|l| l.name == name).is_some_and(|i| constant[i]);
        for x in ["n", "w", "neg"] {
            assert!(is(x), "{x} is a constant");
        }
        for x in ["twice", "d", "computed", "argc", "argv"] {
            assert!(!is(x), "{x} is not a constant");
        }
    }
}
