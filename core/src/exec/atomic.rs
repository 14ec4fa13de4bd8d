//! Hardware atomics for the `atomic` construct (OpenACC 2.0 §2.12), shared by both engines.
//!
//! **The rule.** An `atomic` statement whose form is one of §2.12's on a scalar `x` in memory of
//! kind `int`, `unsigned`, `long`, `unsigned long`, `float` or `double` ([`atomic_form`]) is run
//! as one read-modify-write of `x` ([`update`]): `expr` is evaluated once, then the new value is
//! computed from the old one and stored with a compare-and-swap on the 8-byte word of device
//! memory that holds `x` ([`super::memory::Memory::atomic_word`]), retried until no other thread
//! changed the word in between. Every other atomic statement (another type or form, a struct or
//! complex target, a register local, a reduction's `max`/`min` combine) runs its body while
//! holding the run's one atomic lock ([`super::acc_state::AccState::atomic_lock`]), as before.
//!
//! **Why both mechanisms never touch one word at once.** The choice is made from the statement's
//! form and `x`'s type only, never from thread timing, and the interpreter and native code make
//! it with this one function, so every statement on a given `x` of an eligible type takes the
//! word path, in either engine. The one exception is a target that straddles two words (an
//! `int` at an offset that is 6 mod 8, only reachable through pointer casts): it is known from
//! the address alone, the same for every statement on that `x`, and [`update`] then takes the
//! lock too. A lock-holding statement writes a partial word with a compare-and-swap
//! ([`super::memory`]'s `shared_write`), so it never undoes a word update of a neighbouring
//! object. Memory that is not device memory (host bytes, a device thread's own frame) belongs
//! to one thread: a plain read-modify-write is atomic there.
//!
//! **Results.** The order in which the threads' updates of one `x` land was already thread
//! timing with the lock; integer updates commute, so their result is the same. The sequential
//! device, `explore` and `--threads 1` run one thread at a time: their order, and so a `float`
//! sum, is the program order, as before. Checking builds keep holding the lock around the word
//! update (the checkers hear the read and the write of `x` as one atomic access, in lock order).

use super::memory::MemFault;
use super::value::{apply, cast_fn, norm, Kind};
use super::{ArithFault, Machine};
use crate::diag::Loc;
use crate::directive::AtomicKind;
use crate::ir::{BinOp, Expr, ExprKind, Place, Stmt, StmtKind, TypeId, TypeTable};

/// How the new value of `x` is made from its old value and the operand (`expr`, evaluated once).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StepOp {
    /// `v = x;`: `x` stays.
    Read,
    /// `x = expr;`: the operand replaces `x`.
    Write,
    /// `x binop= expr`, `x = x binop expr`, `x++` …: `x binop expr` (or `expr binop x` when
    /// `reversed`), computed in the operation's kind and converted back (C11 6.5.16.2).
    Binary { op: BinOp, reversed: bool },
}

/// One atomic read-modify-write of a scalar of kind `x`, with the operation done in `op_kind`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub op: StepOp,
    pub x: Kind,
    pub op_kind: Kind,
}

/// The kinds of `x` that have a single-word compare-and-swap.
const WORD_KINDS: [Kind; 6] = [Kind::I32, Kind::U32, Kind::I64, Kind::U64, Kind::F32, Kind::F64];
/// The kinds an operation may be done in (the interpreter's operation classes).
const OP_KINDS: [Kind; 6] = WORD_KINDS;
const BIN_OPS: [BinOp; 10] = [BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div, BinOp::Rem, BinOp::Shl, BinOp::Shr, BinOp::BitAnd, BinOp::BitOr, BinOp::BitXor];

impl Step {
    /// The new value of `x` (a canonical word of kind `self.x`) from its old value `old` and the
    /// operand `y` (a word of kind `op_kind`, or of `x`'s kind for a write): the interpreter's own
    /// operation table and conversions, so that both engines compute what a plain statement does.
    pub fn apply(self, old: u64, y: u64) -> Result<u64, ArithFault> {
        match self.op {
            StepOp::Read => Ok(old),
            StepOp::Write => Ok(y),
            StepOp::Binary { op, reversed } => {
                let a = apply(cast_fn(self.x, self.op_kind), old);
                let (l, r) = if reversed { (y, a) } else { (a, y) };
                let v = super::arith::binary_now(op, self.op_kind, l, r)?;
                Ok(apply(cast_fn(self.op_kind, self.x), v))
            }
        }
    }

    /// The step as one word (native code passes it to its helper).
    pub fn encode(self) -> u64 {
        let kind = |k: Kind| WORD_KINDS.iter().position(|&w| w == k).unwrap_or(0) as u64;
        let op = match self.op {
            StepOp::Read => 0,
            StepOp::Write => 1,
            StepOp::Binary { op, reversed } => 2 + BIN_OPS.iter().position(|&b| b == op).unwrap_or(0) as u64 * 2 + reversed as u64,
        };
        op | kind(self.x) << 8 | kind(self.op_kind) << 16
    }

    /// The step [`Step::encode`] made `w` of.
    pub fn decode(w: u64) -> Option<Step> {
        let op = match w & 0xff {
            0 => StepOp::Read,
            1 => StepOp::Write,
            n => StepOp::Binary { op: *BIN_OPS.get(((n - 2) / 2) as usize)?, reversed: (n - 2) % 2 == 1 },
        };
        Some(Step { op, x: *WORD_KINDS.get((w >> 8 & 0xff) as usize)?, op_kind: *OP_KINDS.get((w >> 16 & 0xff) as usize)? })
    }
}

/// The operand of an atomic statement.
#[derive(Clone, Copy, Debug)]
pub enum Operand<'p> {
    /// `v = x;`: none.
    None,
    /// `expr`, evaluated once before the update (its value in the step's `op_kind`; in `x`'s
    /// kind for a write).
    Expr(&'p Expr),
    /// The ±1 of `x++`/`x--`, as a word of `x`'s kind.
    Const(u64),
}

/// Where an atomic capture stores the value of `x` (§2.12 `atomic capture`, and `atomic read`).
#[derive(Clone, Debug)]
pub struct Capture<'p> {
    /// `v`, and its type.
    pub place: &'p Place,
    pub ty: TypeId,
    /// The assignment to `v`.
    pub loc: Loc,
    /// The conversions from `x`'s kind to `v`'s, in order (the casts around the captured
    /// expression).
    pub casts: Vec<Kind>,
    /// The value of `x` before the update (`v = x++`, `{v = x; x += e;}`), or after it.
    pub old: bool,
}

impl Capture<'_> {
    /// `v`'s kind when `x` is of kind `from`.
    pub fn kind(&self, from: Kind) -> Kind {
        self.casts.last().copied().unwrap_or(from)
    }

    /// The conversions from `x`'s kind to `v`'s.
    pub fn conversion(&self) -> Conversion {
        Conversion(self.casts.clone())
    }
}

/// Conversions of a word, in order (C11 6.3, the interpreter's [`cast_fn`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conversion(pub Vec<Kind>);

impl Conversion {
    /// The word `w` of kind `from` converted.
    pub fn apply(&self, from: Kind, w: u64) -> u64 {
        let mut k = from;
        let mut v = w;
        for &to in &self.0 {
            v = apply(cast_fn(k, to), v);
            k = to;
        }
        v
    }
}

/// An atomic statement that is one read-modify-write of a word ([`atomic_form`]).
#[derive(Clone, Debug)]
pub struct AtomicForm<'p> {
    /// The address of `x` (evaluated once, after the operand).
    pub target: &'p Expr,
    pub step: Step,
    pub operand: Operand<'p>,
    pub capture: Option<Capture<'p>>,
    /// The expression that reads or writes `x` (its accesses and faults are reported there, as
    /// the plain statement's are).
    pub loc: Loc,
}

/// The word form of the body `body` of an `atomic kind` construct, when it has one (see the
/// module docs): `x` a scalar of a kind with a single-word compare-and-swap, in memory at an
/// address the statement computes (`Place::Mem`); `None` for every other statement, which keeps
/// the lock. The forms are §2.12's (the front end checked them on the source,
/// `lower/atomic.rs`); a statement the compiler made (a reduction's combine) is an `update`.
pub fn atomic_form<'p>(types: &TypeTable, kind: AtomicKind, body: &'p Stmt) -> Option<AtomicForm<'p>> {
    let exprs = statement_exprs(body)?;
    match (kind, exprs.as_slice()) {
        (AtomicKind::Read, [e]) => read(types, e),
        (AtomicKind::Write, [e]) => update_of(types, e, Writes::Only).map(|(f, _)| f),
        (AtomicKind::Update, [e]) => update_of(types, e, Writes::No).map(|(f, _)| f),
        (AtomicKind::Capture, [e]) => capture(types, e),
        (AtomicKind::Capture, [first, second]) => block(types, first, second),
        _ => None,
    }
}

/// Whether `x = expr` (a write) is the form looked for.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Writes {
    /// Only a write (`atomic write`).
    Only,
    /// An update or a write (the second statement of a capture block).
    Also,
    /// Only an update.
    No,
}

/// The expressions of a body of one or two expression statements.
fn statement_exprs(s: &Stmt) -> Option<Vec<&Expr>> {
    match &s.kind {
        StmtKind::Expr(e) => Some(vec![e]),
        StmtKind::Block(ss) => {
            let mut out = Vec::new();
            for s in ss {
                match &s.kind {
                    StmtKind::Empty => {}
                    StmtKind::Expr(e) => out.push(e),
                    _ => return None,
                }
            }
            Some(out)
        }
        _ => None,
    }
}

fn word_kind(types: &TypeTable, e: &Expr) -> Option<Kind> {
    let k = Kind::of(types, e.ty);
    WORD_KINDS.contains(&k).then_some(k)
}

/// The address of a memory place that native code and the interpreter compute alike (not a
/// memory local's own address: native code may keep such a local in a register).
fn target_of(place: &Place) -> Option<&Expr> {
    match place {
        Place::Mem(a) if !matches!(a.kind, ExprKind::LocalAddr(_)) => Some(a),
        _ => None,
    }
}

/// `e` without its conversions, and the kinds they convert to, innermost first.
fn uncast<'p>(types: &TypeTable, e: &'p Expr) -> (&'p Expr, Vec<Kind>) {
    let mut casts = Vec::new();
    let mut cur = e;
    while let ExprKind::Cast(inner) = &cur.kind {
        casts.push(Kind::of(types, cur.ty));
        cur = inner;
    }
    casts.reverse();
    (cur, casts)
}

/// An update or write of `x` as an expression (`x++`, `x += e`, `x = x * e`, `x = e`): its
/// form, and whether the expression's value is `x`'s old value.
fn update_of<'p>(types: &TypeTable, e: &'p Expr, writes: Writes) -> Option<(AtomicForm<'p>, bool)> {
    let x = word_kind(types, e)?;
    match &e.kind {
        ExprKind::IncDec { place, delta, post } if writes != Writes::Only => {
            let one = match x {
                Kind::F32 => (*delta as f32).to_bits() as u64,
                Kind::F64 => (*delta as f64).to_bits(),
                _ => norm(x, *delta as i64 as u64),
            };
            let step = Step { op: StepOp::Binary { op: BinOp::Add, reversed: false }, x, op_kind: x };
            Some((AtomicForm { target: target_of(place)?, step, operand: Operand::Const(one), capture: None, loc: e.loc }, *post))
        }
        ExprKind::CompoundAssign { op, place, value, op_ty } if writes != Writes::Only => {
            let op_kind = Kind::of(types, *op_ty);
            if !OP_KINDS.contains(&op_kind) || !BIN_OPS.contains(op) {
                return None;
            }
            let step = Step { op: StepOp::Binary { op: *op, reversed: false }, x, op_kind };
            Some((AtomicForm { target: target_of(place)?, step, operand: Operand::Expr(value), capture: None, loc: e.loc }, false))
        }
        ExprKind::Assign { place, value } => {
            let target = target_of(place)?;
            if writes != Writes::Only {
                if let Some(form) = binary_update(types, target, x, value, e.loc) {
                    return Some((form, false));
                }
            }
            // `x = expr` (`atomic write`, and the write of a capture block).
            if writes == Writes::No || Kind::of(types, value.ty) != x || reads_address(value, target) {
                return None;
            }
            let step = Step { op: StepOp::Write, x, op_kind: x };
            Some((AtomicForm { target, step, operand: Operand::Expr(value), capture: None, loc: e.loc }, false))
        }
        _ => None,
    }
}

/// `x = x binop expr` / `x = expr binop x` (`value` the right-hand side), with the conversions
/// of the usual arithmetic conversions around `x` and back (one each at most).
fn binary_update<'p>(types: &TypeTable, target: &'p Expr, x: Kind, value: &'p Expr, loc: Loc) -> Option<AtomicForm<'p>> {
    let (inner, back) = uncast(types, value);
    let ExprKind::Binary(op, l, r) = &inner.kind else { return None };
    let op_kind = Kind::of(types, inner.ty);
    let back_ok = (back.is_empty() && op_kind == x) || back == [x];
    if !back_ok || !OP_KINDS.contains(&op_kind) || !BIN_OPS.contains(op) {
        return None;
    }
    let reads_x = |side: &Expr| {
        let (load, casts) = uncast(types, side);
        let converted = match casts.as_slice() {
            [] => x == op_kind,
            [to] => *to == op_kind,
            _ => false,
        };
        converted && Kind::of(types, load.ty) == x && matches!(&load.kind, ExprKind::Load(a) if same_address(a, target))
    };
    let (operand, reversed) = if reads_x(l) {
        (&**r, false)
    } else if reads_x(r) {
        (&**l, true)
    } else {
        return None;
    };
    let shift = matches!(op, BinOp::Shl | BinOp::Shr);
    if reversed && shift || !shift && Kind::of(types, operand.ty) != op_kind || reads_address(operand, target) {
        return None;
    }
    let step = Step { op: StepOp::Binary { op: *op, reversed }, x, op_kind };
    Some(AtomicForm { target, step, operand: Operand::Expr(operand), capture: None, loc })
}

/// `v = x` (a read, and a capture block's capture): `v` and the conversions, with `x`'s address
/// and kind.
fn read_of<'p>(types: &TypeTable, e: &'p Expr) -> Option<(Capture<'p>, &'p Expr, Kind, Loc)> {
    let ExprKind::Assign { place, value } = &e.kind else { return None };
    let (load, casts) = uncast(types, value);
    let ExprKind::Load(a) = &load.kind else { return None };
    let x = word_kind(types, load)?;
    if matches!(a.kind, ExprKind::LocalAddr(_)) || place_is_address(place, a) {
        return None;
    }
    Some((Capture { place, ty: e.ty, loc: e.loc, casts, old: true }, a, x, load.loc))
}

/// `atomic read`: `v = x;`.
fn read<'p>(types: &TypeTable, e: &'p Expr) -> Option<AtomicForm<'p>> {
    let (capture, target, x, loc) = read_of(types, e)?;
    let step = Step { op: StepOp::Read, x, op_kind: x };
    Some(AtomicForm { target, step, operand: Operand::None, capture: Some(capture), loc })
}

/// `atomic capture` as one statement: `v = x++`, `v = x += e`, `v = x = x binop e` …
fn capture<'p>(types: &TypeTable, e: &'p Expr) -> Option<AtomicForm<'p>> {
    let ExprKind::Assign { place: v, value } = &e.kind else { return None };
    let (inner, casts) = uncast(types, value);
    let (mut form, post) = update_of(types, inner, Writes::No)?;
    if place_is_address(v, form.target) {
        return None;
    }
    form.capture = Some(Capture { place: v, ty: e.ty, loc: e.loc, casts, old: post });
    Some(form)
}

/// `{ v = x; update-or-write of x; }` or `{ update of x; v = x; }`.
fn block<'p>(types: &TypeTable, first: &'p Expr, second: &'p Expr) -> Option<AtomicForm<'p>> {
    if let Some((capture, a, x, _)) = read_of(types, first) {
        if let Some((mut form, _)) = update_of(types, second, Writes::Also) {
            if same_address(a, form.target) && form.step.x == x && !place_is_address(capture.place, form.target) && !operand_reads_place(&form, capture.place) {
                form.capture = Some(capture);
                return Some(form);
            }
        }
    }
    let (mut form, _) = update_of(types, first, Writes::No)?;
    let (capture, a, x, _) = read_of(types, second)?;
    if !same_address(a, form.target) || form.step.x != x || place_is_address(capture.place, form.target) {
        return None;
    }
    form.capture = Some(Capture { old: false, ..capture });
    Some(form)
}

/// Whether the operand of `{ v = x; x binop= expr; }` uses `v` (which the block assigned
/// first): then the operand is not evaluated before the capture, and the statement keeps the
/// lock.
fn operand_reads_place(form: &AtomicForm<'_>, v: &Place) -> bool {
    let Operand::Expr(e) = form.operand else { return false };
    let mut found = false;
    crate::ir::visit::visit_exprs(e, &mut |sub| {
        found |= match (v, &sub.kind) {
            (Place::Local(l), ExprKind::Local(m)) | (Place::Local(l), ExprKind::LocalAddr(m)) => l == m,
            (Place::Mem(a), ExprKind::Load(b)) => same_address(a, b),
            _ => false,
        };
    });
    found
}

/// Whether `v` is `x` itself (never a form; kept on the lock path).
fn place_is_address(v: &Place, x: &Expr) -> bool {
    matches!(v, Place::Mem(a) if same_address(a, x))
}

/// Whether `e` reads memory at address `x` (then `x = e` is not a plain write).
fn reads_address(e: &Expr, x: &Expr) -> bool {
    let mut found = false;
    crate::ir::visit::visit_exprs(e, &mut |sub| {
        if let ExprKind::Load(a) = &sub.kind {
            found |= same_address(a, x);
        }
    });
    found
}

/// Whether two address expressions are the same computation of pure operands (locals,
/// addresses of objects, constants, loads, arithmetic): the `x` a statement reads and writes.
pub fn same_address(a: &Expr, b: &Expr) -> bool {
    a.same_computation(b, true)
}

/// What an atomic word update failed on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum UpdateFault {
    Memory(MemFault),
    Arith(ArithFault),
}

/// Run `step` on `x` at `ptr` atomically (see the module docs) with operand `y`: the old and the
/// new value of `x`. A target within one word of device memory is updated with a
/// compare-and-swap loop; one straddling two words takes the run's atomic lock (unless the
/// caller holds it: `locked`); any other memory belongs to this thread alone and gets the plain
/// read-modify-write, with the interpreter's faults (a load's first, as a plain statement's).
pub fn update(m: &mut Machine<'_>, step: Step, ptr: u64, y: u64, locked: bool) -> Result<(u64, u64), UpdateFault> {
    let k = step.x;
    if let Some((cell, shift)) = m.mem.atomic_word(k, ptr) {
        use std::sync::atomic::Ordering::{AcqRel, Acquire};
        let bits = k.bytes() * 8;
        let mask = if bits == 64 { u64::MAX } else { ((1u64 << bits) - 1) << shift };
        let mut word = cell.load(Acquire);
        loop {
            let old = k.from_raw(word >> shift);
            let new = step.apply(old, y).map_err(UpdateFault::Arith)?;
            if step.op == StepOp::Read {
                return Ok((old, new));
            }
            let next = (word & !mask) | ((new << shift) & mask);
            match cell.compare_exchange_weak(word, next, AcqRel, Acquire) {
                Ok(_) => return Ok((old, new)),
                Err(now) => word = now,
            }
        }
    }
    let shared = m.mem.is_shared(ptr);
    let lock = (shared && !locked).then(|| m.acc.atomic_lock.clone());
    let _held = lock.as_ref().map(|l| l.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
    let old = m.load_kind(k, ptr).map_err(UpdateFault::Memory)?;
    let new = step.apply(old, y).map_err(UpdateFault::Arith)?;
    if step.op != StepOp::Read {
        m.store_kind(k, ptr, new).map_err(UpdateFault::Memory)?;
    }
    Ok((old, new))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_round_trip_through_their_word() {
        for &x in &WORD_KINDS {
            for &op_kind in &OP_KINDS {
                let mut ops = vec![StepOp::Read, StepOp::Write];
                for &op in &BIN_OPS {
                    ops.push(StepOp::Binary { op, reversed: false });
                    ops.push(StepOp::Binary { op, reversed: true });
                }
                for op in ops {
                    let s = Step { op, x, op_kind };
                    assert_eq!(Step::decode(s.encode()), Some(s));
                }
            }
        }
    }

    /// Types and expressions of the IR the front end makes of an atomic statement's body.
    struct Ir {
        t: TypeTable,
        int: TypeId,
        short: TypeId,
        dbl: TypeId,
        int_ptr: TypeId,
        short_ptr: TypeId,
    }

    impl Ir {
        fn new() -> Ir {
            use crate::ir::{FloatKind, IntType, Type};
            let mut t = TypeTable::new();
            let int = t.intern(Type::Int(IntType { bytes: 4, signed: true }));
            let short = t.intern(Type::Int(IntType { bytes: 2, signed: true }));
            let dbl = t.intern(Type::Float(FloatKind::F64));
            let int_ptr = t.intern(Type::Pointer(int));
            let short_ptr = t.intern(Type::Pointer(short));
            Ir { t, int, short, dbl, int_ptr, short_ptr }
        }
        fn e(&self, kind: ExprKind, ty: TypeId) -> Expr {
            Expr { kind, ty, loc: Loc::default() }
        }
        /// The address `p` (register local 0) of `x`.
        fn x_addr(&self, ty: TypeId) -> Expr {
            self.e(ExprKind::Local(crate::ir::LocalId(0)), ty)
        }
        fn load_x(&self) -> Expr {
            self.e(ExprKind::Load(Box::new(self.x_addr(self.int_ptr))), self.int)
        }
        fn operand(&self) -> Expr {
            self.e(ExprKind::Local(crate::ir::LocalId(1)), self.int)
        }
        fn stmt(&self, e: Expr) -> Stmt {
            Stmt { kind: StmtKind::Expr(e), loc: Loc::default() }
        }
        fn x_place(&self, ty: TypeId) -> Place {
            Place::Mem(Box::new(self.x_addr(ty)))
        }
    }

    #[test]
    fn word_forms_are_recognised_by_form_and_type() {
        let ir = Ir::new();
        // `*p += e`
        let compound = ir.stmt(ir.e(ExprKind::CompoundAssign { op: BinOp::Add, place: ir.x_place(ir.int_ptr), value: Box::new(ir.operand()), op_ty: ir.int }, ir.int));
        let f = atomic_form(&ir.t, AtomicKind::Update, &compound).expect("x += e is a word form");
        assert_eq!(f.step, Step { op: StepOp::Binary { op: BinOp::Add, reversed: false }, x: Kind::I32, op_kind: Kind::I32 });
        // `*p = e - *p`: the operand on the left.
        let rsub = ir.e(ExprKind::Binary(BinOp::Sub, Box::new(ir.operand()), Box::new(ir.load_x())), ir.int);
        let assign = ir.stmt(ir.e(ExprKind::Assign { place: ir.x_place(ir.int_ptr), value: Box::new(rsub) }, ir.int));
        let f = atomic_form(&ir.t, AtomicKind::Update, &assign).expect("x = e - x is a word form");
        assert_eq!(f.step.op, StepOp::Binary { op: BinOp::Sub, reversed: true });
        // The same statement under `atomic write` is not a write (it reads x).
        assert!(atomic_form(&ir.t, AtomicKind::Write, &assign).is_none());
        // `v = (double)(*p)++`: a capture of the old value, converted.
        let inc = ir.e(ExprKind::IncDec { place: ir.x_place(ir.int_ptr), delta: 1, post: true }, ir.int);
        let conv = ir.e(ExprKind::Cast(Box::new(inc)), ir.dbl);
        let capture = ir.stmt(ir.e(ExprKind::Assign { place: Place::Local(crate::ir::LocalId(4)), value: Box::new(conv) }, ir.dbl));
        let f = atomic_form(&ir.t, AtomicKind::Capture, &capture).expect("v = x++ is a word form");
        let c = f.capture.expect("a capture");
        assert!(c.old);
        assert_eq!(c.conversion().apply(Kind::I32, (-3i64) as u64), (-3.0f64).to_bits());
    }

    #[test]
    fn other_statements_keep_the_lock() {
        let ir = Ir::new();
        // A `short` has no word form of its own.
        let short_inc = ir.stmt(ir.e(ExprKind::IncDec { place: ir.x_place(ir.short_ptr), delta: 1, post: false }, ir.short));
        assert!(atomic_form(&ir.t, AtomicKind::Update, &short_inc).is_none());
        // A register local is no shared memory.
        let local_inc = ir.stmt(ir.e(ExprKind::IncDec { place: Place::Local(crate::ir::LocalId(1)), delta: 1, post: false }, ir.int));
        assert!(atomic_form(&ir.t, AtomicKind::Update, &local_inc).is_none());
        // `x = x < e ? e : x` (a max combine) is no binary operation.
        let cmp = ir.e(ExprKind::Binary(BinOp::Lt, Box::new(ir.load_x()), Box::new(ir.operand())), ir.int);
        let max = ir.e(ExprKind::Cond(Box::new(cmp), Box::new(ir.operand()), Box::new(ir.load_x())), ir.int);
        let assign = ir.stmt(ir.e(ExprKind::Assign { place: ir.x_place(ir.int_ptr), value: Box::new(max) }, ir.int));
        assert!(atomic_form(&ir.t, AtomicKind::Update, &assign).is_none());
        // `{ v = x; x = v + 1; }`: the operand reads the captured v, so it cannot be evaluated
        // before the update.
        let v = crate::ir::LocalId(1);
        let read = ir.stmt(ir.e(ExprKind::Assign { place: Place::Local(v), value: Box::new(ir.load_x()) }, ir.int));
        let one = ir.e(ExprKind::Int(1), ir.int);
        let v_plus_one = ir.e(ExprKind::Binary(BinOp::Add, Box::new(ir.operand()), Box::new(one)), ir.int);
        let write = ir.stmt(ir.e(ExprKind::Assign { place: ir.x_place(ir.int_ptr), value: Box::new(v_plus_one) }, ir.int));
        let block = Stmt { kind: StmtKind::Block(vec![read, write]), loc: Loc::default() };
        assert!(atomic_form(&ir.t, AtomicKind::Capture, &block).is_none());
    }

    #[test]
    fn steps_compute_what_c_computes() {
        let int_add = Step { op: StepOp::Binary { op: BinOp::Add, reversed: false }, x: Kind::I32, op_kind: Kind::I32 };
        // INT_MAX + 1 wraps, as the interpreter's plain `+=` does.
        assert_eq!(int_add.apply(i32::MAX as i64 as u64, 1), Ok(i32::MIN as i64 as u64));
        // `x = 10 - x` with x = 3: the operand on the left.
        let rsub = Step { op: StepOp::Binary { op: BinOp::Sub, reversed: true }, x: Kind::I64, op_kind: Kind::I64 };
        assert_eq!(rsub.apply(3, 10), Ok(7));
        // `int x; x += 2.5` is done in double and truncated back: 3 + 2.5 = 5.
        let mixed = Step { op: StepOp::Binary { op: BinOp::Add, reversed: false }, x: Kind::I32, op_kind: Kind::F64 };
        assert_eq!(mixed.apply(3, 2.5f64.to_bits()), Ok(5));
        let div = Step { op: StepOp::Binary { op: BinOp::Div, reversed: false }, x: Kind::U32, op_kind: Kind::U32 };
        assert_eq!(div.apply(7, 0), Err(ArithFault::DivZero));
        let fadd = Step { op: StepOp::Binary { op: BinOp::Add, reversed: false }, x: Kind::F32, op_kind: Kind::F32 };
        assert_eq!(fadd.apply(1.5f32.to_bits() as u64, 0.25f32.to_bits() as u64), Ok(1.75f32.to_bits() as u64));
    }
}
