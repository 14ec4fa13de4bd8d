//! A small builder for the IR that outlining and loop scheduling generate (long arithmetic on
//! fresh register locals).

use crate::diag::Loc;
use crate::ir::*;

pub(crate) struct Builder<'t> {
    pub types: &'t mut TypeTable,
    pub locals: &'t mut Vec<Local>,
    pub loc: Loc,
}

impl Builder<'_> {
    pub fn long_ty(&mut self) -> TypeId {
        self.types.intern(Type::Int(IntType::LONG))
    }
    pub fn int_ty(&mut self) -> TypeId {
        self.types.intern(Type::Int(IntType::INT))
    }
    pub fn expr(&self, kind: ExprKind, ty: TypeId) -> Expr {
        Expr { kind, ty, loc: self.loc }
    }
    pub fn stmt(&self, kind: StmtKind) -> Stmt {
        Stmt { kind, loc: self.loc }
    }
    /// A new register local.
    pub fn temp(&mut self, name: &str, ty: TypeId, role: LocalRole) -> LocalId {
        self.locals.push(Local { name: name.to_string(), ty, storage: Storage::Register, loc: self.loc, role, copy_of: None, declared_in: None });
        LocalId(self.locals.len() as u32 - 1)
    }
    /// A `long` variable of a loop schedule.
    pub fn long_temp(&mut self, name: &str) -> LocalId {
        self.schedule_var(name, ScheduleVar::Other)
    }
    /// A `long` variable of a loop schedule that consumers look for (`var`).
    pub fn schedule_var(&mut self, name: &str, var: ScheduleVar) -> LocalId {
        let t = self.long_ty();
        self.temp(name, t, LocalRole::Schedule(var))
    }
    /// A `long` launch parameter of a kernel function (gang index, counts).
    pub fn launch_param(&mut self, name: &str) -> LocalId {
        let t = self.long_ty();
        self.temp(name, t, LocalRole::LaunchParam)
    }
    pub fn c(&mut self, v: i64) -> Expr {
        let t = self.long_ty();
        self.expr(ExprKind::Int(v as u64), t)
    }
    pub fn get(&mut self, l: LocalId) -> Expr {
        let ty = self.locals[l.0 as usize].ty;
        self.expr(ExprKind::Local(l), ty)
    }
    pub fn bin(&mut self, op: BinOp, a: Expr, b: Expr) -> Expr {
        let ty = if op.is_comparison() { self.int_ty() } else { a.ty };
        self.expr(ExprKind::Binary(op, Box::new(a), Box::new(b)), ty)
    }
    pub fn cast(&mut self, e: Expr, ty: TypeId) -> Expr {
        if e.ty == ty {
            return e;
        }
        self.expr(ExprKind::Cast(Box::new(e)), ty)
    }
    /// `l = v;`
    pub fn set(&mut self, l: LocalId, v: Expr) -> Stmt {
        let ty = self.locals[l.0 as usize].ty;
        let v = self.cast(v, ty);
        let e = self.expr(ExprKind::Assign { place: Place::Local(l), value: Box::new(v) }, ty);
        self.stmt(StmtKind::Expr(e))
    }
    /// `for (l = from; l < to; l += step) body`
    pub fn count_loop(&mut self, l: LocalId, from: Expr, to: Expr, step: Expr, body: Stmt) -> Stmt {
        let init = self.set(l, from);
        let cur = self.get(l);
        let cond = self.bin(BinOp::Lt, cur, to);
        let ty = self.locals[l.0 as usize].ty;
        let stp = self.expr(ExprKind::CompoundAssign { op: BinOp::Add, place: Place::Local(l), value: Box::new(step), op_ty: ty }, ty);
        self.stmt(StmtKind::For { init: Some(Box::new(init)), cond: Some(cond), step: Some(stp), body: Box::new(body) })
    }
    pub fn block(&self, v: Vec<Stmt>) -> Stmt {
        self.stmt(StmtKind::Block(v))
    }
}
