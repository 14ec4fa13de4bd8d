//! Memory at a loop-invariant address held in a register by the direct version of a counted
//! loop (issue 15): `y[i] = y[i] + A[i][j] * x[j]` and `C[i][j] += A[i][k] * B[k][j]` over `j`
//! and `k` read and write one element every iteration, and `alpha * A[i][k]` reads one; the
//! direct version ([`crate::loops`]) reads the element once at entry, keeps it in a register
//! (loads read it, stores write it) and stores it once when the loop ends, so a reduction into
//! memory runs at the speed of one into a local.
//!
//! **Which accesses.** The accesses of the loop whose address does not move with the counter,
//! grouped by address expression (the same expression has the same value at every iteration:
//! its operands are loop-invariant, [`crate::loops`]), all of one kind, when every access of the
//! body is affine (checked at entry, so none faults and the bytes each touches over the whole
//! loop are known there). A group the loop writes also needs a body that cannot stop between
//! two iterations' stores (no integer division: the run would stop with the element's memory
//! behind its register) and leaves no iteration by a jump (`break`, `continue`, `return`: the
//! element is stored where the loop's test fails). A body with an `atomic` statement keeps every
//! element in memory (another thread's atomic may read or write it between two of this
//! thread's statements, §2.12).
//!
//! **When.** At entry, the preheader checks that a group's bytes lie apart from every other
//! access's bytes over the whole loop (from every store's, for a group the loop only reads): no
//! other access of the loop reads or writes the element, so every access of the group sees the
//! value the register holds, which is what memory would hold there. When the bytes overlap (a
//! recurrence through memory that nobody writes on purpose, or aliased pointers) the loop runs
//! its checked version, exactly as before. Nothing observes memory while the direct loop runs
//! (its fuel is taken at entry; the run cannot stop in it).

use crate::HashMap;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, Value};
use cranelift_frontend::Variable;

use accsim_core::exec::value::Kind;
use accsim_core::ir::Expr;

use crate::loops::CountedLoop;
use crate::translate::Translator;

/// The held accesses, by address expression: the variable and the element's kind.
pub type HeldAccesses = HashMap<*const Expr, (Variable, Kind)>;

/// A held element the loop writes: its variable, kind and host address.
pub type StoreBack = (Variable, Kind, Value);

/// Most groups held in registers by one loop (beyond them, accesses stay in memory).
const MAX_GROUPS: usize = 8;

/// The accesses of a loop at one loop-invariant address.
pub struct Group {
    /// Indices into the plan's accesses.
    members: Vec<usize>,
    kind: Kind,
    /// Some access of the group writes.
    writes: bool,
}

/// The type of the variable holding an element of kind `k`: a float's in a float register.
pub fn held_type(k: Kind) -> cranelift_codegen::ir::Type {
    match k {
        Kind::F64 => types::F64,
        Kind::F32 => types::F32,
        _ => types::I64,
    }
}

/// Whether the loop-invariant expressions `a` and `b` are the same computation (so have the
/// same value): the same operations on the same locals, constants and addresses, no loads.
fn same_expr(a: &Expr, b: &Expr) -> bool {
    a.same_computation(b, false)
}

impl<'a, 'b> Translator<'a, 'b> {
    /// The groups of `plan`'s accesses to hold in registers (see the module docs).
    pub fn invariant_groups(&self, plan: &CountedLoop<'_>) -> Vec<Group> {
        // An `atomic` statement: another thread's atomic may change an element between two
        // of this thread's reads (§2.12), so even the elements the loop only reads stay in memory.
        if !plan.all_direct || plan.atomic {
            return Vec::new();
        }
        let mut groups: Vec<Group> = Vec::new();
        let mut mixed = Vec::new();
        for (i, &(addr, k, _, writes)) in plan.accesses.iter().enumerate() {
            if self.depends(addr, plan.var, &plan.derived) {
                continue;
            }
            match groups.iter_mut().position(|g| same_expr(plan.accesses[g.members[0]].0, addr)) {
                Some(at) => {
                    let g = &mut groups[at];
                    if g.kind != k {
                        mixed.push(at);
                    }
                    g.members.push(i);
                    g.writes |= writes;
                }
                None => groups.push(Group { members: vec![i], kind: k, writes }),
            }
        }
        let write_ok = !plan.may_trap && !plan.jumps;
        groups
            .into_iter()
            .enumerate()
            .filter(|(at, g)| !mixed.contains(at) && (!g.writes || write_ok) && !matches!(g.kind, Kind::LongDouble | Kind::Aggregate | Kind::Void))
            .map(|(_, g)| g)
            .take(MAX_GROUPS)
            .collect()
    }

    /// Whether the bytes of each group lie apart from those of the accesses that could see or
    /// change its element (`ends`: each access's pointer words at the first and the last
    /// iteration).
    pub fn groups_apart(&mut self, plan: &CountedLoop<'_>, groups: &[Group], ends: &[(Value, Value)]) -> Value {
        let mut ok = self.yes();
        for g in groups {
            let first = ends[g.members[0]].0;
            let end = self.b.ins().iadd_imm_s(first, g.kind.bytes() as i64);
            for (x, &(_, xk, _, x_writes)) in plan.accesses.iter().enumerate() {
                if g.members.contains(&x) || (!g.writes && !x_writes) {
                    continue;
                }
                let (xf, xl) = ends[x];
                let lo = self.b.ins().umin(xf, xl);
                let hi = self.b.ins().umax(xf, xl);
                let x_end = self.b.ins().iadd_imm_s(hi, xk.bytes() as i64);
                let before = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, lo);
                let after = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, x_end, first);
                let apart = self.b.ins().bor(before, after);
                ok = self.b.ins().band(ok, apart);
            }
        }
        ok
    }

    /// At the direct version's entry: each group's element read into a fresh variable. Returns
    /// the variables by access (for [`Translator::held`]) and, for the groups the loop writes,
    /// the variable, kind and host address to store back.
    pub fn hold_groups(
        &mut self,
        plan: &CountedLoop<'_>,
        groups: &[Group],
        ends: &[(Value, Value)],
        direct: &HashMap<*const Expr, Value>,
    ) -> Result<(HeldAccesses, Vec<StoreBack>), String> {
        let mut held = HashMap::default();
        let mut back = Vec::new();
        for g in groups {
            let addr = plan.accesses[g.members[0]].0;
            let bias = *direct.get(&(addr as *const Expr)).ok_or("internal: a held access not checked at entry")?;
            let host = self.b.ins().iadd(ends[g.members[0]].0, bias);
            let w = self.load_in_place(g.kind, host);
            let ty = held_type(g.kind);
            let var = self.b.declare_var(ty);
            let v = self.word_as(ty, w);
            self.b.def_var(var, v);
            for &m in &g.members {
                held.insert(plan.accesses[m].0 as *const Expr, (var, g.kind));
            }
            if g.writes {
                back.push((var, g.kind, host));
            }
        }
        Ok((held, back))
    }

    /// Where the direct loop ends: the held elements the loop writes stored to memory.
    pub fn store_back(&mut self, back: &[StoreBack]) {
        for &(var, k, host) in back {
            let v = self.b.use_var(var);
            let w = self.word_of(v);
            self.store_in_place(k.bytes(), w, host);
        }
    }
}
