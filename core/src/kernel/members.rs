//! Struct members in the data clauses of a compute region (OpenACC 2.0 §2.6.5, §2.7.1).
//!
//! A data clause may name a member of a struct variable, or a subarray of one (`copy(s.v[0:n])`,
//! `copyin(s.w)`, `present(s.in.x)`); the clause maps those bytes and nothing else. The region
//! still reaches the member through the struct (`s.v[i]`), and by §2.5.1/§2.5.2 a struct used
//! in a compute construct would be `present_or_copy` as a whole — which collides with the member
//! mappings (§2.6.4: partly present) and, for a pointer member, would give the device the host
//! address held in the struct. So, as nvc does, a struct some of whose members are mapped by the
//! construct or by an enclosing `data` construct is *split*: every member the region uses is
//! reached on its own, and the struct is never copied as a whole.
//!
//! - A pointer member whose target a clause maps (`copy(s.v[0:n])`), or a pointer member the
//!   region only reads and writes: the kernel gets the pointer's value, translated to the device
//!   copy of its target (firstprivate, as a pointer variable is, §2.5.1).
//! - A member a clause maps whole (`copyin(s.w)`, `present(s.x)`): the kernel gets the address of
//!   its device copy (present_or_copy at launch, so a present mapping is used as it is).
//! - A member array of which a clause maps a subarray (`copy(s.w[0:4])`): the kernel gets the
//!   device address of the member (translated as a pointer into mapped data).
//! - Any other member the region uses gets the implicit attribute of its own type: aggregates
//!   present_or_copy; scalars firstprivate in a parallel construct and copied in a kernels
//!   construct (§2.5.1, §2.5.2).
//!
//! Each member is reached through a host register temporary set just before the launches (its
//! address, or a pointer member's value); the kernel captures the temporary, so the data
//! environment sees exactly the member's bytes. Members are units of the struct's layout: a
//! member is split further only where a mapped member lies inside it (`s.in.v[0:n]` splits `s.in`).
//!
//! Limits: a region that uses the struct as a whole (`t = s`, `f(s)`, `&s`), or a member in a
//! way that crosses a mapped member, is not split; the struct is then `present_or_copy` as a
//! whole and the runtime reports the partly present data (§2.6.4). A struct named whole by a
//! clause (`copyin(s)`) stays whole; only its pointer members whose targets are mapped are read
//! on the host (the device copy of the struct holds host addresses). Members of a struct reached
//! through a pointer (`p->v`) are not allowed in clauses by §2.6.5 and are not split.

use std::collections::{HashMap, HashSet};

use crate::diag::Loc;
use crate::ir::acc::*;
use crate::ir::visit::visit_stmt_exprs_mut;
use crate::ir::*;

/// How the kernel reaches one member of a split struct.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum UnitKind {
    /// A pointer member, by value (translated to the device copy of its target).
    PointerValue,
    /// A member a clause maps whole: the address of its device copy.
    MappedWhole,
    /// A member array a clause maps part of: its address, translated to the device.
    MappedSection,
    /// A member no clause names: the implicit attribute of its type.
    Implicit,
}

/// One member of a split struct, reached through host register `temp`.
#[derive(Clone, Debug)]
pub(crate) struct MemberUnit {
    /// The struct variable and the member's byte offset in it.
    pub root_var: VarRoot,
    pub off: u64,
    /// The member's type.
    pub ty: TypeId,
    /// `s.in.v`.
    pub name: String,
    pub kind: UnitKind,
    /// The clause that maps it, as written (`copy(s.v[0:n])`).
    pub clause: Option<String>,
    /// The struct it belongs to.
    pub root: String,
    /// The host register holding the member's address (or a pointer member's value).
    pub temp: LocalId,
}

impl MemberUnit {
    /// The attribute decided, in words (`accsim info`); `implicit` is that of the member's type
    /// when no clause names it.
    pub fn attr(&self, implicit: &str) -> String {
        let of = &self.root;
        match (self.kind, &self.clause) {
            (UnitKind::PointerValue, Some(c)) => format!("firstprivate pointer member of `{of}` (by value): `{c}` maps its target, so it points at the device copy"),
            (UnitKind::PointerValue, None) => format!("firstprivate pointer member of `{of}` (by value, §2.5.1; it points at the device copy of its target where that is mapped)"),
            (UnitKind::MappedWhole, Some(c)) => format!("present: member of `{of}` mapped by `{c}`"),
            (UnitKind::MappedSection, Some(c)) => format!("present: member array of `{of}` of which `{c}` maps part (the kernel gets its device address)"),
            _ => format!("{implicit}: member of `{of}`, not copied whole because a clause maps members of it (§2.6.5)"),
        }
    }
}

/// A data clause variable visible at the construct, with its clause as written.
pub(crate) struct NamedVar {
    pub clause: String,
    pub var: AccVar,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    Load,
    Store,
    Addr,
}

struct Access {
    root: VarRoot,
    off: u64,
    /// Bytes touched from `off` (`None`: not known, e.g. `void *`).
    ext: Option<u64>,
    ctx: Ctx,
}

enum Rep {
    /// Replace a load (or the place of a store) by the register.
    Value(LocalId),
    /// Replace the address by this expression.
    Addr(Expr),
}

/// Is `t` a type whose expressions are addresses (pointers, and aggregates used as values: an
/// aggregate rvalue is its address, see `lower::expr::rvalue`)?
fn address_typed(t: TypeId, types: &TypeTable) -> bool {
    matches!(types.get(t), Type::Pointer(_) | Type::Record(_) | Type::Complex(_))
}

/// `e` as a constant byte offset from a variable's address: `(T *)((char *)&s + 16)`.
fn chain(e: &Expr, types: &TypeTable) -> Option<(VarRoot, u64)> {
    match &e.kind {
        ExprKind::LocalAddr(l) => Some((VarRoot::Local(*l), 0)),
        ExprKind::GlobalAddr(g) => Some((VarRoot::Global(*g), 0)),
        ExprKind::Cast(a) if address_typed(e.ty, types) && address_typed(a.ty, types) => chain(a, types),
        ExprKind::PtrAdd { ptr, index, elem } => {
            let ExprKind::Int(k) = index.kind else { return None };
            let (r, off) = chain(ptr, types)?;
            let o = (off as i64).checked_add((k as i64).checked_mul(types.size_of(*elem)? as i64)?)?;
            (o >= 0).then_some((r, o as u64))
        }
        _ => None,
    }
}

/// The variable and byte offset a member address expression designates (`&s.in.len`), if it is
/// one: a constant offset from a variable's address.
pub(crate) fn member_at(e: &Expr, types: &TypeTable) -> Option<(VarRoot, u64)> {
    chain(e, types)
}

/// Bytes an address expression of type `t` designates.
fn extent(t: TypeId, types: &TypeTable) -> Option<u64> {
    match types.get(t) {
        Type::Pointer(p) => types.size_of(*p).filter(|s| *s > 0),
        Type::Record(_) | Type::Complex(_) => types.size_of(t),
        _ => None,
    }
}

/// Visit the member accesses of the candidate `roots` in `s`: each maximal address chain once,
/// loads and stores of a whole chain as such. `f` may replace them.
fn visit_accesses(s: &mut Stmt, types: &TypeTable, roots: &HashSet<VarRoot>, f: &mut dyn FnMut(&Access, &Expr) -> Option<Rep>) {
    let of_root = |e: &Expr| chain(e, types).filter(|(r, _)| roots.contains(r));
    visit_stmt_exprs_mut(s, &mut |e| {
        if let ExprKind::Load(a) = &e.kind {
            if let Some((root, off)) = of_root(a) {
                let acc = Access { root, off, ext: types.size_of(e.ty), ctx: Ctx::Load };
                if let Some(Rep::Value(l)) = f(&acc, a) {
                    e.kind = ExprKind::Local(l);
                    return false;
                }
            }
        }
        if let ExprKind::Assign { place, .. } | ExprKind::CompoundAssign { place, .. } | ExprKind::IncDec { place, .. } = &mut e.kind {
            if let Place::Mem(a) = place {
                if let Some((root, off)) = of_root(a) {
                    let acc = Access { root, off, ext: extent(a.ty, types), ctx: Ctx::Store };
                    if let Some(Rep::Value(l)) = f(&acc, a) {
                        *place = Place::Local(l);
                    }
                }
            }
        }
        if let Some((root, off)) = of_root(e) {
            let acc = Access { root, off, ext: extent(e.ty, types), ctx: Ctx::Addr };
            if let Some(Rep::Addr(x)) = f(&acc, e) {
                *e = x;
            }
            return false;
        }
        true
    });
}

/// The member of the struct (type `ty`, at byte `base`) that holds `[off, off + ext)`, as deep as
/// needed to stay clear of `taken` (the mapped members): (offset, type, member path).
fn implicit_member(ty: TypeId, base: u64, off: u64, ext: u64, taken: &[(u64, u64)], types: &TypeTable) -> Option<(u64, TypeId, Vec<String>)> {
    let Type::Record(rid) = types.get(ty) else { return None };
    for m in &types.record(*rid).members {
        let start = base + m.offset;
        let Some(size) = types.size_of(m.ty) else { continue };
        if !(start <= off && off + ext <= start + size) {
            continue;
        }
        let overlaps = taken.iter().any(|&(s, n)| s < start + size && start < s + n);
        match &m.name {
            // The bit-fields sharing one storage unit are one member here: `s.{a,b}`.
            Some(_) if !overlaps && m.bits.is_some() => {
                let rec = types.record(*rid);
                let names: Vec<&str> = rec.members.iter().filter(|x| x.bits.is_some() && x.offset == m.offset && x.ty == m.ty).filter_map(|x| x.name.as_deref()).collect();
                let name = if names.len() == 1 { names[0].to_string() } else { format!("{{{}}}", names.join(",")) };
                return Some((start, m.ty, vec![name]));
            }
            Some(n) if !overlaps => return Some((start, m.ty, vec![n.clone()])),
            Some(n) => {
                let (o, t, mut path) = implicit_member(m.ty, start, off, ext, taken, types)?;
                path.insert(0, n.clone());
                return Some((o, t, path));
            }
            // An anonymous struct or union: its members are the struct's.
            None if matches!(types.get(m.ty), Type::Record(_)) => return implicit_member(m.ty, start, off, ext, taken, types),
            None => continue,
        }
    }
    None
}

fn overlap(a: (u64, u64), b: (u64, u64)) -> bool {
    a.0 < b.0 + b.1 && b.0 < a.0 + a.1
}

/// The member path of byte range `[off, off+size)` in a struct of type `ty` (for names).
fn member_path(ty: TypeId, off: u64, size: u64, types: &TypeTable) -> Vec<String> {
    implicit_member(ty, 0, off, size.max(1), &[], types).map(|(o, t, mut path)| {
        if o != off || types.size_of(t) != Some(size) {
            // A deeper member (`s.in.v` inside `s.in`).
            let mut rest = member_path(t, off - o, size, types);
            path.append(&mut rest);
        }
        path
    }).unwrap_or_default()
}

fn mk(kind: ExprKind, ty: TypeId, loc: Loc) -> Expr {
    Expr { kind, ty, loc }
}

/// `(T *)((char *)&root + off)` for a host variable `root`.
fn member_addr(root: VarRoot, root_ty: TypeId, off: u64, pty: TypeId, types: &mut TypeTable, loc: Loc) -> Option<Expr> {
    let rp = types.pointer_to(root_ty);
    let base = match root {
        VarRoot::Local(l) => mk(ExprKind::LocalAddr(l), rp, loc),
        VarRoot::Global(g) => mk(ExprKind::GlobalAddr(g), rp, loc),
        VarRoot::Other => return None,
    };
    Some(offset_expr(base, off, pty, types, loc))
}

/// `(T *)((char *)base + off)`.
fn offset_expr(base: Expr, off: u64, pty: TypeId, types: &mut TypeTable, loc: Loc) -> Expr {
    if off == 0 {
        return if base.ty == pty { base } else { mk(ExprKind::Cast(Box::new(base)), pty, loc) };
    }
    let ch = types.intern(Type::Int(IntType::CHAR));
    let cp = types.pointer_to(ch);
    let long = types.intern(Type::Int(IntType::LONG));
    let b = mk(ExprKind::Cast(Box::new(base)), cp, loc);
    let add = mk(ExprKind::PtrAdd { ptr: Box::new(b), index: Box::new(mk(ExprKind::Int(off), long, loc)), elem: ch }, cp, loc);
    mk(ExprKind::Cast(Box::new(add)), pty, loc)
}

/// The struct variables of a function and the program's globals, as the outliner sees them.
pub(crate) struct Vars<'a> {
    pub locals: &'a mut Vec<Local>,
    pub globals: &'a [Global],
}

impl Vars<'_> {
    fn ty(&self, r: VarRoot) -> Option<TypeId> {
        match r {
            VarRoot::Local(l) => self.locals.get(l.0 as usize).filter(|x| x.storage == Storage::Memory).map(|x| x.ty),
            VarRoot::Global(g) => self.globals.get(g.0 as usize).map(|x| x.ty),
            VarRoot::Other => None,
        }
    }
    fn name(&self, r: VarRoot) -> String {
        match r {
            VarRoot::Local(l) => self.locals.get(l.0 as usize).map(|x| x.name.clone()),
            VarRoot::Global(g) => self.globals.get(g.0 as usize).map(|x| x.name.clone()),
            VarRoot::Other => None,
        }
        .unwrap_or_default()
    }
    fn loc(&self, r: VarRoot) -> Loc {
        match r {
            VarRoot::Local(l) => self.locals.get(l.0 as usize).map(|x| x.loc),
            VarRoot::Global(g) => self.globals.get(g.0 as usize).map(|x| x.loc),
            VarRoot::Other => None,
        }
        .unwrap_or_default()
    }
}

/// A member of one struct, before it has its register.
struct Plan {
    off: u64,
    size: u64,
    ty: TypeId,
    kind: UnitKind,
    clause: Option<String>,
    used: bool,
}

/// Split the structs of the region `body` some of whose members `named` maps (see the module
/// doc). Rewrites `body`, adds the registers to `vars.locals`, and returns the members with the
/// host statements that set their registers (to run before the launches).
pub(crate) fn split_members(body: &mut Stmt, named: &[NamedVar], vars: Vars<'_>, types: &mut TypeTable, loc: Loc) -> Split {
    // The members the clauses name, per struct; structs named whole.
    let mut whole: HashSet<VarRoot> = HashSet::new();
    let mut plans: Vec<(VarRoot, Vec<Plan>)> = Vec::new();
    for n in named {
        let v = &n.var;
        if v.root != VarRoot::Other {
            whole.insert(v.root);
            continue;
        }
        let Some((root, off)) = v.addr.as_ref().and_then(|a| chain(a, types)) else { continue };
        let Some(rty) = vars.ty(root) else { continue };
        if !matches!(types.get(rty), Type::Record(_)) {
            continue;
        }
        let Some(size) = types.size_of(v.var_ty) else { continue };
        let kind = match (v.sections.is_empty(), types.get(v.var_ty)) {
            (true, _) => UnitKind::MappedWhole,
            (false, Type::Pointer(_)) => UnitKind::PointerValue,
            (false, Type::Array(..)) => UnitKind::MappedSection,
            _ => continue,
        };
        let at = match plans.iter().position(|(r, _)| *r == root) {
            Some(i) => i,
            None => {
                plans.push((root, Vec::new()));
                plans.len() - 1
            }
        };
        let list = &mut plans[at].1;
        if !list.iter().any(|p| p.off == off && p.size == size && p.kind == kind) {
            list.push(Plan { off, size, ty: v.var_ty, kind, clause: Some(n.clause.clone()), used: false });
        }
    }
    if plans.is_empty() {
        return Split::default();
    }
    let roots: HashSet<VarRoot> = plans.iter().map(|(r, _)| *r).collect();

    // Which member each access of the region goes to (implicit members are added as found); a
    // struct whose accesses do not all find one stays whole. Loads and stores that will read a
    // pointer member's register are not looked into further, as in the rewrite below.
    let mut failed: HashMap<VarRoot, Loc> = HashMap::new();
    let mut scan = body.clone();
    let placeholder = LocalId(u32::MAX);
    visit_accesses(&mut scan, types, &roots, &mut |a, e| {
        let root = a.root;
        let rty = vars.ty(root)?;
        let (_, list) = plans.iter_mut().find(|(r, _)| *r == root)?;
        let found = match resolve(list, a.off, a.ext, a.ctx) {
            Some(i) => Some(i),
            None if whole.contains(&root) => None, // reached through the struct's device copy
            None => {
                let taken: Vec<(u64, u64)> = list.iter().filter(|p| p.kind != UnitKind::Implicit).map(|p| (p.off, p.size)).collect();
                let member = a.ext.and_then(|ext| implicit_member(rty, 0, a.off, ext, &taken, types)).and_then(|(o, t, _)| Some((o, t, types.size_of(t)?)));
                match member {
                    Some((moff, mty, msize)) => {
                        let value = types.is_pointer(mty) && a.ctx != Ctx::Addr && moff == a.off && Some(msize) == a.ext;
                        let kind = if value { UnitKind::PointerValue } else { UnitKind::Implicit };
                        list.push(Plan { off: moff, size: msize, ty: mty, kind, clause: None, used: false });
                        resolve(list, a.off, a.ext, a.ctx)
                    }
                    None => None,
                }
            }
        };
        match found {
            Some(i) => {
                list[i].used = true;
                (list[i].kind == UnitKind::PointerValue && a.ctx != Ctx::Addr).then_some(Rep::Value(placeholder))
            }
            None => {
                if !whole.contains(&root) {
                    failed.entry(root).or_insert(e.loc);
                }
                None
            }
        }
    });
    // Two members of one struct reached separately must not overlap, except a pointer inside a
    // mapped member and mapped members inside each other (both device copies are present).
    for (root, list) in &plans {
        let used: Vec<&Plan> = list.iter().filter(|p| p.used).collect();
        for (i, a) in used.iter().enumerate() {
            for b in &used[i + 1..] {
                let fine = matches!((a.kind, b.kind), (UnitKind::MappedWhole | UnitKind::MappedSection, UnitKind::MappedWhole | UnitKind::MappedSection | UnitKind::PointerValue) | (UnitKind::PointerValue, UnitKind::MappedWhole | UnitKind::MappedSection));
                if overlap((a.off, a.size), (b.off, b.size)) && !fine {
                    failed.entry(*root).or_insert(loc);
                }
            }
        }
    }

    // Registers for the members used, and the statements that set them.
    let mut units = Vec::new();
    let mut inits = Vec::new();
    let mut temps: Vec<(VarRoot, Vec<Option<LocalId>>)> = Vec::new();
    for (root, list) in &plans {
        let split = !failed.contains_key(root);
        let mut regs = Vec::new();
        let Some(rty) = vars.ty(*root) else {
            temps.push((*root, regs));
            continue;
        };
        let rname = vars.name(*root);
        let rloc = vars.loc(*root);
        for p in list {
            // A struct that stays whole keeps only the values of pointer members whose targets are mapped.
            let keep = p.used && (split || (whole.contains(root) && p.kind == UnitKind::PointerValue && p.clause.is_some()));
            if !keep {
                regs.push(None);
                continue;
            }
            let path = member_path(rty, p.off, p.size, types);
            let name = if path.is_empty() { format!("{rname}+{}", p.off) } else { format!("{rname}.{}", path.join(".")) };
            let pty = types.pointer_to(p.ty);
            let Some(addr) = member_addr(*root, rty, p.off, pty, types, loc) else {
                regs.push(None);
                continue;
            };
            // A pointer member's register holds its value; any other member's, its address.
            let (reg_ty, value) = match p.kind {
                UnitKind::PointerValue => (p.ty, mk(ExprKind::Load(Box::new(addr)), p.ty, loc)),
                _ => (pty, addr),
            };
            let temp = LocalId(vars.locals.len() as u32);
            let (reg_name, role) = if p.kind == UnitKind::PointerValue { (name.clone(), LocalRole::Program) } else { (format!("&{name}"), LocalRole::CaptureAddress) };
            vars.locals.push(Local { name: reg_name, ty: reg_ty, storage: Storage::Register, loc: rloc, role, copy_of: None, declared_in: None });
            inits.push(Stmt { kind: StmtKind::Expr(mk(ExprKind::Assign { place: Place::Local(temp), value: Box::new(value) }, reg_ty, loc)), loc });
            units.push(MemberUnit { root_var: *root, off: p.off, ty: p.ty, name, kind: p.kind, clause: p.clause.clone(), root: rname.clone(), temp });
            regs.push(Some(temp));
        }
        temps.push((*root, regs));
    }
    let mut whole_structs: Vec<WholeStruct> = plans
        .iter()
        .filter_map(|(root, list)| {
            let at = *failed.get(root)?;
            let clause = list.iter().find_map(|p| p.clause.clone())?;
            Some(WholeStruct { root: *root, at, clause })
        })
        .collect();
    whole_structs.sort_by_key(|w| (w.at.line, w.at.col));
    if units.is_empty() {
        return Split { whole_structs, ..Split::default() };
    }

    // Rewrite the region.
    let vars_ro = &*vars.locals;
    let reg_ty = |l: LocalId| vars_ro.get(l.0 as usize).map(|x| x.ty);
    let mut tys = types.clone();
    visit_accesses(body, types, &roots, &mut |a, e| {
        let (_, list) = plans.iter().find(|(r, _)| *r == a.root)?;
        let (_, regs) = temps.iter().find(|(r, _)| *r == a.root)?;
        let i = resolve(list, a.off, a.ext, a.ctx)?;
        let reg = regs.get(i).copied().flatten()?;
        let p = &list[i];
        if p.kind == UnitKind::PointerValue && a.ctx != Ctx::Addr {
            return Some(Rep::Value(reg));
        }
        if p.kind == UnitKind::PointerValue {
            return None;
        }
        let rt = reg_ty(reg)?;
        Some(Rep::Addr(offset_expr(mk(ExprKind::Local(reg), rt, e.loc), a.off - p.off, e.ty, &mut tys, e.loc)))
    });
    *types = tys;
    Split { units, inits, whole_structs }
}

/// What [`split_members`] decided for a region.
#[derive(Default)]
pub(crate) struct Split {
    /// The members reached on their own.
    pub units: Vec<MemberUnit>,
    /// The host statements that set their registers (before the launches).
    pub inits: Vec<Stmt>,
    /// Structs a clause maps members of that the region still uses whole.
    pub whole_structs: Vec<WholeStruct>,
}

/// A struct some of whose members are mapped, used by the region as a whole (so copied whole).
pub(crate) struct WholeStruct {
    pub root: VarRoot,
    /// Where the region uses it other than member by member.
    pub at: Loc,
    /// A clause that maps a member of it.
    pub clause: String,
}

/// The member of `list` that access `[off, off+ext)` in context `ctx` goes to: the value of a
/// pointer member for its loads and stores, else the smallest mapped or implicit member holding
/// the bytes.
fn resolve(list: &[Plan], off: u64, ext: Option<u64>, ctx: Ctx) -> Option<usize> {
    let ext = ext?;
    if ctx != Ctx::Addr {
        if let Some(i) = list.iter().position(|p| p.kind == UnitKind::PointerValue && p.off == off && p.size == ext) {
            return Some(i);
        }
    }
    list.iter()
        .enumerate()
        .filter(|(_, p)| p.kind != UnitKind::PointerValue && p.off <= off && off + ext <= p.off + p.size)
        .min_by_key(|(_, p)| p.size)
        .map(|(i, _)| i)
}
