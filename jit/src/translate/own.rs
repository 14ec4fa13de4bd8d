//! The words of a function's own in its code: its id and the base of its location words
//! (`runtime::Ctx::loc`). In a function that may have a twin (`shared::twinned`) they are
//! symbols the engine writes in when it defines the function's code (`crate::shared`), so that
//! functions that are the same code up to their id and source locations have the same
//! Cranelift IR and share one generation of machine code (issues 15 and 16); elsewhere
//! constants.

use cranelift_codegen::ir::immediates::Imm64;
use cranelift_codegen::ir::{types, ExternalName, GlobalValue, GlobalValueData, InstBuilder, UserExternalName, Value};

use accsim_core::diag::Loc;

use super::Translator;

/// The namespace of the symbols that stand for words of the function's own in its Cranelift IR
/// ([`Translator::own_word`]); namespace 0 is the module's functions, 1 its data.
pub const OWN_NAMESPACE: u32 = 9;
/// The function's id in the high 32 bits, 0 in the low ones: the base of its location words
/// (`runtime::Ctx::loc`).
pub const OWN_LOC_BASE: u32 = 0;
/// The function's id.
pub const OWN_ID: u32 = 1;

impl Translator<'_, '_> {
    /// The index of `loc` in the function's own table of locations (`locs`).
    pub(super) fn loc_index(&mut self, loc: Loc) -> u64 {
        match self.loc_index.get(&loc) {
            Some(&i) => i,
            None => {
                let i = self.locs.len() as u64;
                self.locs.push(loc);
                self.loc_index.insert(loc, i);
                i
            }
        }
    }

    /// The word native code passes to helpers for `loc`: the function id in the high 32 bits,
    /// the index in the function's own table (`locs`) in the low ones (`runtime::Ctx::loc`), so
    /// that functions are translated apart. The id comes from the function's own word
    /// ([`Translator::own_word`]), so the IR does not depend on it.
    pub(super) fn loc(&mut self, loc: Loc) -> Value {
        let i = self.loc_index(loc);
        self.loc_word(i)
    }

    /// The word of location index `i` ([`Translator::loc`]), a word of the function's own
    /// ([`Translator::own_word`]). Cranelift's optimiser merges equal pure values and hoists
    /// those with no operands out of loops, where the constants it rematerialises at each use
    /// were free: outside loops each use gets a symbol of its own, made where it is used (one
    /// shared value would live from the entry's use to the return's: calltree's frames, 0.8% of
    /// its instructions, kept it in a callee-saved register); inside a loop the function's one
    /// base, hoisted once, plus `i`, which Cranelift makes again at each use (its `remat`
    /// rules), in the cold paths that pass locations (a symbol per location would hold a
    /// register or a spill slot each from the loop's entry).
    pub(super) fn loc_word(&mut self, i: u64) -> Value {
        if !self.twinned {
            return self.iconst((u64::from(self.loc_fid) << 32) | i);
        }
        if self.loops.is_empty() {
            return self.own_word(OWN_LOC_BASE, i as i64);
        }
        let base = match self.own_base {
            Some(gv) => gv,
            None => {
                let gv = self.own_symbol(OWN_LOC_BASE, 0);
                self.own_base = Some(gv);
                gv
            }
        };
        let base = self.b.ins().symbol_value(types::I64, base);
        if i == 0 {
            return base;
        }
        self.b.ins().iadd_imm_s(base, i as i64)
    }

    /// The function's id: frames and OpenACC sites name it.
    pub(super) fn own_id(&mut self) -> Value {
        if !self.twinned {
            return self.iconst(u64::from(self.fid));
        }
        self.own_word(OWN_ID, 0)
    }

    /// Word `which` of the function's own ([`OWN_NAMESPACE`]) plus `offset`, from a symbol of
    /// its own: the engine writes its value into the machine code when it defines the function
    /// (`crate::shared`), so that functions whose code is the same up to their id and source
    /// locations have the same Cranelift IR and share one generation of machine code (issues
    /// 15 and 16). Cranelift materialises it as it would a constant (`movabs` with an absolute
    /// relocation; `is_pic` is off).
    pub(super) fn own_word(&mut self, which: u32, offset: i64) -> Value {
        let gv = self.own_symbol(which, offset);
        self.b.ins().symbol_value(types::I64, gv)
    }

    /// A new symbol for word `which` of the function's own plus `offset` ([`Translator::own_word`]).
    pub(super) fn own_symbol(&mut self, which: u32, offset: i64) -> GlobalValue {
        let name = self.b.func.declare_imported_user_function(UserExternalName::new(OWN_NAMESPACE, which));
        self.b.create_global_value(GlobalValueData::Symbol {
            name: ExternalName::user(name),
            offset: Imm64::new(offset),
            colocated: false,
            tls: false,
        })
    }
}
