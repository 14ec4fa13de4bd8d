//! One generation of machine code for functions that are the same code (issues 15 and 16).
//!
//! Programs launch kernels that are the same code up to their source locations: a loop written
//! twice, the same loop in two functions, a Jacobi sweep's two halves once their parameters are
//! in the same order. The translator keeps the function's own words (its id, the base of its
//! location words) out of the Cranelift IR: they are symbols ([`crate::translate::OWN_NAMESPACE`])
//! whose values are written into the machine code when a function's code is defined (an
//! absolute relocation Cranelift leaves in the code, patched here). Two
//! functions whose IR is then the same (the same stencil and names, for the same tier) share one
//! generation: the second function's code is the first one's bytes with its own words written in,
//! so its faults, traps and location reports name its own source lines (each function keeps its
//! own table of locations, `runtime::Ctx::loc`). The code of a function is the same whether it
//! was generated or shared, so runs stay deterministic whatever the order of batches.

use crate::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;

use cranelift_codegen::binemit::Reloc;
use cranelift_codegen::control::ControlPlane;
use cranelift_codegen::ir::{ExternalName, Function};
use cranelift_codegen::isa::TargetIsa;
use cranelift_codegen::{Context, FinalizedRelocTarget};
use cranelift_module::{FuncId as ClifFuncId, ModuleReloc, ModuleRelocTarget};

use accsim_core::ir::{Expr, Program, Stmt};

use crate::translate::{OWN_ID, OWN_LOC_BASE, OWN_NAMESPACE};
use crate::{Generated, Tier};

/// Machine code as Cranelift made it, before a function's own words are written in.
pub(crate) struct Code {
    bytes: Vec<u8>,
    align: u64,
    /// Where the code holds one of its function's own words: the byte offset of the 8-byte
    /// absolute word, which word, and what is added to it.
    own: Vec<(usize, u32, i64)>,
    /// The other relocations, made for function `made_for` (a reference to an offset in the
    /// function itself names it).
    relocs: Vec<ModuleReloc>,
    made_for: ClifFuncId,
    /// The Cranelift IR instructions it was generated from and the seconds it took.
    pub insts: usize,
    pub seconds: f64,
    /// The name of the function it was generated for (`ACCSIM_PHASE_TIMES`).
    pub first: String,
}

/// Generate the machine code of `func` (of module function `id`, named `name`) on `isa`; with
/// `dump`, also the optimised IR and machine code as text. A failure of the code generator is
/// a bug of accsim's: it comes back as an error, and the function then runs in the interpreter
/// rather than stopping the program.
pub(crate) fn compile(cctx: &mut Context, isa: &dyn TargetIsa, func: Function, id: ClifFuncId, name: &str, dump: bool) -> Result<(Code, Option<String>), String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| compile_unguarded(cctx, isa, func, id, name, dump))).unwrap_or_else(|_| {
        // Cranelift stopped half-way: its context is not reused.
        *cctx = Context::new();
        Err("the code generator failed (an accsim bug)".into())
    })
}

/// [`compile`], a panic of Cranelift's unwinding through it.
fn compile_unguarded(cctx: &mut Context, isa: &dyn TargetIsa, func: Function, id: ClifFuncId, name: &str, dump: bool) -> Result<(Code, Option<String>), String> {
    let start = std::time::Instant::now();
    let insts = func.dfg.num_insts();
    cctx.clear();
    cctx.func = func;
    cctx.set_disasm(dump);
    if let Err(e) = cctx.compile(isa, &mut ControlPlane::default()) {
        return Err(format!("{:?}", e.inner));
    }
    let compiled = cctx.compiled_code().ok_or("no code was generated")?;
    let mut own = Vec::new();
    let mut relocs = Vec::new();
    for r in compiled.buffer.relocs() {
        if let FinalizedRelocTarget::ExternalName(ExternalName::User(reff)) = r.target {
            let name = &cctx.func.params.user_named_funcs()[reff];
            if name.namespace == OWN_NAMESPACE {
                if r.kind != Reloc::Abs8 {
                    return Err(format!("the function's own word came out as a {:?} relocation", r.kind));
                }
                own.push((r.offset as usize, name.index, r.addend));
                continue;
            }
        }
        relocs.push(ModuleReloc::from_mach_reloc(r, &cctx.func, id));
    }
    let dump = dump.then(|| {
        let vcode = compiled.vcode.clone().unwrap_or_default();
        format!("{}\n{vcode}", cctx.func.display())
    });
    let code = Code {
        bytes: compiled.code_buffer().to_vec(),
        align: compiled.buffer.alignment as u64,
        own,
        relocs,
        made_for: id,
        insts,
        seconds: start.elapsed().as_secs_f64(),
        first: name.to_string(),
    };
    Ok((code, dump))
}

impl Code {
    /// The code of function `fid`, module function `id`: its own words written in, the
    /// relocations to the function itself retargeted.
    pub(crate) fn instantiate(&self, fid: u32, id: ClifFuncId, dump: Option<String>, seconds: f64) -> Result<Generated, String> {
        let mut bytes = self.bytes.clone();
        for &(at, which, addend) in &self.own {
            let base = match which {
                OWN_LOC_BASE => u64::from(fid) << 32,
                OWN_ID => u64::from(fid),
                _ => return Err(format!("unknown own word {which}")),
            };
            let word = base.wrapping_add(addend as u64).to_le_bytes();
            bytes.get_mut(at..at + 8).ok_or("an own word past the code's end")?.copy_from_slice(&word);
        }
        let relocs = self
            .relocs
            .iter()
            .map(|r| ModuleReloc {
                name: match &r.name {
                    ModuleRelocTarget::FunctionOffset(f, off) if *f == self.made_for => ModuleRelocTarget::FunctionOffset(id, *off),
                    other => other.clone(),
                },
                ..r.clone()
            })
            .collect();
        Ok(Generated { bytes, align: self.align, relocs, dump, insts: self.insts, seconds })
    }
}

/// The machine code generated so far, by tier and Cranelift IR (`Engine::generate`).
#[derive(Default)]
pub(crate) struct CodeCache {
    by_hash: HashMap<u64, Vec<(Tier, Function, Arc<Code>)>>,
}

/// The key [`CodeCache`] files `func` under for `tier`: equal IR, equal key. The sizes of the
/// IR's tables, not a hash of the whole stencil (which cost 1.7M instructions for a 1,200-
/// instruction kernel, as much as a tenth of its generation): functions of the same key are
/// compared whole ([`same`]), and different IR differs early.
pub(crate) fn key(tier: Tier, func: &Function) -> u64 {
    let mut h = DefaultHasher::new();
    tier.hash(&mut h);
    let dfg = &func.dfg;
    (dfg.num_insts(), dfg.num_blocks(), dfg.num_values(), func.sized_stack_slots.len(), func.signature.params.len()).hash(&mut h);
    h.finish()
}

/// Whether `a` and `b` generate the same machine code (their names aside).
pub(crate) fn same(a: &Function, b: &Function) -> bool {
    a.stencil == b.stencil && a.params == b.params
}

impl CodeCache {
    /// The code generated for IR `func` in `tier` (filed under `key`), if any.
    pub(crate) fn get(&self, key: u64, tier: Tier, func: &Function) -> Option<Arc<Code>> {
        self.by_hash.get(&key)?.iter().find(|(t, f, _)| *t == tier && same(f, func)).map(|(_, _, c)| c.clone())
    }

    pub(crate) fn insert(&mut self, key: u64, tier: Tier, func: Function, code: Arc<Code>) {
        self.by_hash.entry(key).or_default().push((tier, func, code));
    }

    /// How many machine codes were generated.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.by_hash.values().map(Vec::len).sum()
    }
}

/// By function id: whether another function of `p` may be the same code, its parameters and
/// locals reordered ([`crate::canon`]): the same number of parameters, the same local types
/// (as a multiset), the same number of statements and expressions. Only those name their own
/// words through symbols: the symbols cost a function without a twin 0.3–0.6% of its kernels'
/// instructions (a register held across loops for the base of its location words, the
/// constants Cranelift rematerialises made values of their own) and 3% more IR to generate.
pub(crate) fn twinned(p: &Program) -> Vec<bool> {
    let shape = |f: &accsim_core::ir::Function| {
        let (mut stmts, mut exprs) = (0usize, 0usize);
        accsim_core::ir::visit::walk(&f.body, true, &mut |_: &Stmt| stmts += 1, &mut |_: &Expr| exprs += 1);
        let mut types: Vec<u32> = f.locals.iter().map(|l| l.ty.0).collect();
        types.sort_unstable();
        let mut h = DefaultHasher::new();
        (f.params.len(), f.ret.0, types, stmts, exprs).hash(&mut h);
        h.finish()
    };
    let shapes: Vec<u64> = p.functions.iter().map(shape).collect();
    let mut count: HashMap<u64, usize> = HashMap::default();
    for &s in &shapes {
        *count.entry(s).or_default() += 1;
    }
    shapes.iter().map(|s| count.get(s).is_some_and(|&c| c > 1)).collect()
}
