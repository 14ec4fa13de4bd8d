//! Cold helper calls that overwrite no register (issue 16: a loop's float sums in stack slots).
//!
//! Native code calls a few helpers on cold paths only ([`Helper::cold`]): the checked slow path
//! of a load or a store, fuel running out or drawn from the pool at a counted loop's entry, an
//! arithmetic trap, a stack overflow. They are Rust functions of the platform's C convention,
//! which may overwrite every float register and nine integer ones. Called directly, each such
//! call in a cold block was a point where no float value survives in a register, and every
//! value live across it had to be split there. Cranelift's register allocator (regalloc2)
//! splits a value's live range at most twice (`MAX_SPLITS_PER_SPILLSET`); after that it keeps
//! the value in a stack slot and loads and stores it around each use. A float accumulator
//! carried around a loop nest (`s = s + a(j, i)`), live across the cold calls of the nest's
//! checked version and of its fuel checks, was therefore loaded and stored back on every
//! iteration of the direct version too (`movdqu`/`vaddsd`/`movdqu`), in C and Fortran host code
//! alike, once a function had more than two such calls.
//!
//! So native code calls each cold helper through a stub of Cranelift's `preserve_all`
//! convention: the stub saves the registers the helper may overwrite, calls it, leaves its
//! result (if any) in the context's `cold_result` word (the convention returns nothing;
//! [`crate::runtime::OFF_COLD_RESULT`]) and restores the registers. A cold call then overwrites
//! no register; the saves cost on the cold path only. Results, faults, fuel and steps are the
//! helper's own, so both engines still compute the same words.

use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData, UserFuncName};
use cranelift_codegen::isa::CallConv;
use cranelift_codegen::Context;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::JITModule;
use cranelift_module::{Linkage, Module};

use accsim_core::exec::value::Kind;
use accsim_core::ir::{ExprKind, Function, Place, Program, StmtKind};

use crate::runtime::OFF_COLD_RESULT;
use crate::translate::Helper;

/// Whether a loop of `f` assigns a float local kept in a register (`in_memory` is false for it):
/// a value a loop carries (a sum, a running maximum), live across the cold calls of the loop's
/// versions. Only such a function calls cold helpers through the stubs. In the others the C
/// convention's calls stay: no float value they carry crosses a call, and the split points the
/// calls give the allocator keep its choices for integer values as they were (measured: without
/// that rule, a kernel without float locals, acc/jacobi.c's, lost 10-20% to reloads of its loop
/// invariants from the stack in its innermost loop).
pub(crate) fn loops_carry_floats(p: &Program, f: &Function, in_memory: &[bool]) -> bool {
    let float_register = |l: u32| {
        !in_memory.get(l as usize).copied().unwrap_or(true)
            && f.locals.get(l as usize).is_some_and(|x| matches!(Kind::of(&p.types, x.ty), Kind::F64 | Kind::F32))
    };
    let carried = std::cell::Cell::new(false);
    accsim_core::kernel::outline::walk_stmt(&f.body, &mut |_| {}, &mut |s| {
        if carried.get() || !matches!(s.kind, StmtKind::While(..) | StmtKind::DoWhile(..) | StmtKind::For { .. }) {
            return;
        }
        accsim_core::kernel::outline::walk_stmt(
            s,
            &mut |e| match &e.kind {
                ExprKind::Assign { place: Place::Local(l), .. }
                | ExprKind::CompoundAssign { place: Place::Local(l), .. }
                | ExprKind::IncDec { place: Place::Local(l), .. }
                    if float_register(l.0) =>
                {
                    carried.set(true)
                }
                _ => {}
            },
            &mut |_| {},
        );
    });
    carried.get()
}

/// The address of each cold helper's stub, by helper (0 for the others).
pub struct ColdStubs([i64; Helper::ALL.len()]);

impl ColdStubs {
    /// The address of `h`'s stub (`h` is cold).
    pub(crate) fn address(&self, h: Helper) -> i64 {
        self.0[h as usize]
    }

    /// Define the stubs in `module` (whose functions use `call_conv`) and finalize them.
    pub(crate) fn define(
        module: &mut JITModule,
        cctx: &mut Context,
        fctx: &mut FunctionBuilderContext,
        call_conv: CallConv,
    ) -> Result<ColdStubs, String> {
        let target = module.target_config();
        let mut ids = Vec::new();
        for h in Helper::ALL.into_iter().filter(|h| h.cold()) {
            let id = module
                .declare_function(&format!("cold{}", h as usize), Linkage::Local, &h.cold_signature())
                .map_err(|e| e.to_string())?;
            cctx.func.signature = h.cold_signature();
            cctx.func.name = UserFuncName::user(2, id.as_u32());
            {
                let mut b = FunctionBuilder::new(&mut cctx.func, fctx);
                let block = b.create_block();
                b.append_block_params_for_function_params(block);
                b.switch_to_block(block);
                let args = b.block_params(block).to_vec();
                let sig = b.import_signature(h.signature(call_conv));
                let code = b.ins().iconst(types::I64, h.address());
                let call = b.ins().call_indirect(sig, code, &args);
                if let Some(&r) = b.inst_results(call).first() {
                    // Every cold helper's first argument is the context.
                    b.ins().store(MemFlagsData::trusted(), r, args[0], OFF_COLD_RESULT);
                }
                b.ins().return_(&[]);
                b.seal_all_blocks();
                b.finalize(target);
            }
            module.define_function(id, cctx).map_err(|e| format!("{e:?}"))?;
            module.clear_context(cctx);
            ids.push((h, id));
        }
        module.finalize_definitions().map_err(|e| e.to_string())?;
        let mut stubs = [0; Helper::ALL.len()];
        for (h, id) in ids {
            stubs[h as usize] = module.get_finalized_function(id) as i64;
        }
        Ok(ColdStubs(stubs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`ColdStubs`] is indexed by the helper's discriminant: `Helper::ALL` lists them in order.
    #[test]
    fn the_helper_list_is_in_discriminant_order() {
        for (i, h) in Helper::ALL.into_iter().enumerate() {
            assert_eq!(h as usize, i);
        }
    }

    /// A cold stub takes the helper's parameters and returns nothing (`preserve_all` has no
    /// return values); the helper's result comes back through the context.
    #[test]
    fn a_cold_stub_returns_nothing() {
        for h in Helper::ALL.into_iter().filter(|h| h.cold()) {
            let s = h.cold_signature();
            assert_eq!(s.call_conv, CallConv::PreserveAll);
            assert!(s.returns.is_empty());
            assert_eq!(s.params.len(), h.params_and_result().0.len());
            assert!(h.params_and_result().0.iter().all(|&t| t == types::I64), "{:?}: a cold helper takes words", h as usize);
        }
    }
}
