//! Expressions: sizes, places, loads and stores, calls, atomics, casts and literals, as CUDA C.
//! Part of [`crate::emit`], whose module documentation states the model.

use super::text::*;
use super::*;

impl<'p> Emitter<'p> {
    // ------------------------------------------------------------------ expressions

    /// The size in bytes of `ty` as an `unsigned long` expression: the product of a variably
    /// modified type's count locals (captured by the kernel, or set in a routine's prologue) and
    /// its element size; a constant for any other type.
    pub(super) fn vm_size(&mut self, fx: &FuncCx<'_>, ty: TypeId, loc: Loc) -> String {
        match self.p.types.get(ty).clone() {
            Type::Vla(e, count) => {
                let inner = self.vm_size(fx, e, loc);
                let n = self.local_ref(fx, count);
                format!("({inner} * {n})")
            }
            Type::Array(e, Some(n)) if self.p.types.is_variably_modified(e) => {
                let inner = self.vm_size(fx, e, loc);
                format!("({inner} * {n}UL)")
            }
            _ => match self.p.types.size_of(ty) {
                Some(n) => format!("{n}UL"),
                None => self.unsupported("the size of an incomplete type in device code", loc),
            },
        }
    }

    pub(super) fn local_ref(&self, fx: &FuncCx<'_>, l: LocalId) -> String {
        let n = &fx.names[l.0 as usize];
        match fx.homes.get(l.0 as usize) {
            Some(Home::Worker) => format!("{n}[threadIdx.y]"),
            _ => n.clone(),
        }
    }

    pub(super) fn int_lit(&mut self, v: u64, ty: TypeId) -> String {
        match self.p.types.get(ty) {
            Type::Int(IntType { bytes, signed: true }) => {
                let x = match bytes {
                    1 => v as i8 as i64,
                    2 => v as i16 as i64,
                    4 => v as i32 as i64,
                    _ => v as i64,
                };
                let suffix = if *bytes == 8 { "L" } else { "" };
                if x == i64::MIN {
                    "(-9223372036854775807L - 1)".into()
                } else if *bytes == 4 && x == i32::MIN as i64 {
                    "(-2147483647 - 1)".into()
                } else if x < 0 {
                    format!("({x}{suffix})")
                } else {
                    format!("{x}{suffix}")
                }
            }
            Type::Int(IntType { bytes, signed: false }) => {
                let x = match bytes {
                    1 => v as u8 as u64,
                    2 => v as u16 as u64,
                    4 => v as u32 as u64,
                    _ => v,
                };
                if *bytes == 8 { format!("{x}UL") } else { format!("{x}u") }
            }
            Type::Bool => format!("{}", (v != 0) as u8),
            _ => {
                let t = self.ty(ty, Loc::default());
                if v == 0 { format!("({t})0") } else { format!("({t}){v:#x}UL") }
            }
        }
    }

    pub(super) fn expr(&mut self, fx: &mut FuncCx<'_>, e: &Expr) -> String {
        let text = self.expr_inner(fx, e);
        match &fx.assumed {
            Some(r) if *r == text => "__assumed".into(),
            _ => text,
        }
    }

    pub(super) fn place(&mut self, fx: &mut FuncCx<'_>, p: &Place, ty: TypeId, loc: Loc) -> String {
        match p {
            Place::Local(l) => self.local_ref(fx, *l),
            Place::Mem(a) => self.deref(fx, a, ty, loc),
        }
    }

    /// `*(T *)(a)`, or `p[i]` when `a` is `p + i` with `p` already a `T *`.
    pub(super) fn deref(&mut self, fx: &mut FuncCx<'_>, a: &Expr, ty: TypeId, loc: Loc) -> String {
        if let Some((base, m, false)) = self.member_of(fx, a) {
            return format!("{base}->{m}");
        }
        if let ExprKind::PtrAdd { ptr, index, elem } = &a.kind {
            if *elem == ty && self.p.types.pointee(ptr.ty) == Some(ty) {
                let p = self.expr(fx, ptr);
                let i = self.expr(fx, index);
                return format!("{p}[{i}]");
            }
        }
        if let ExprKind::LocalAddr(l) = &a.kind {
            if fx.func.locals.get(l.0 as usize).is_some_and(|x| x.ty == ty && x.storage != Storage::VlaAddress) {
                return self.local_ref(fx, *l);
            }
        }
        let at = self.expr(fx, a);
        if self.p.types.pointee(a.ty) == Some(ty) {
            format!("(*{at})")
        } else {
            let t = self.ty(ty, loc);
            format!("(*({t} *)({at}))")
        }
    }

    pub(super) fn expr_inner(&mut self, fx: &mut FuncCx<'_>, e: &Expr) -> String {
        let loc = e.loc;
        match &e.kind {
            ExprKind::Int(v) => self.int_lit(*v, e.ty),
            ExprKind::Float(f) => float_lit(*f, self.p.types.get(e.ty)),
            ExprKind::Str(s) => {
                let lit = c_string(self.p.strings.get(s.0 as usize).map(|v| v.as_slice()).unwrap_or(b""));
                // A literal used as a pointer has the IR's `char` type, which this translation
                // writes `signed char` (a routine's `const char *s` parameter, the Fortran
                // translation's character routines): C converts `char *` to it implicitly,
                // C++ (NVRTC) only with the cast.
                match self.p.types.get(e.ty) {
                    Type::Pointer(_) => {
                        let t = self.value_ty(e.ty, loc);
                        format!("(({t}){lit})")
                    }
                    _ => lit,
                }
            }
            ExprKind::LocalAddr(l) | ExprKind::Local(l) if fx.func.locals.get(l.0 as usize).is_some_and(|x| x.storage == Storage::VlaAddress) => {
                // A variable-length array: the address of its heap storage.
                let r = self.local_ref(fx, *l);
                let t = self.value_ty(e.ty, loc);
                format!("(({t}){r}.p)")
            }
            ExprKind::Local(l) => {
                let r = self.local_ref(fx, *l);
                // The expression may be typed differently from the local (an array capture's
                // address used as a pointer to its first row).
                if fx.func.locals.get(l.0 as usize).is_some_and(|x| x.ty != e.ty) {
                    let t = self.value_ty(e.ty, loc);
                    format!("(({t}){r})")
                } else {
                    r
                }
            }
            ExprKind::LocalAddr(l) => {
                let r = self.local_ref(fx, *l);
                let lt = fx.func.locals.get(l.0 as usize).map(|x| x.ty);
                if lt.is_some_and(|t| self.p.types.pointee(e.ty) == Some(t)) || lt.is_some_and(|t| t == e.ty) {
                    format!("&{r}")
                } else {
                    let t = self.value_ty(e.ty, loc);
                    format!("(({t})&{r})")
                }
            }
            ExprKind::GlobalAddr(g) => {
                // A global reached without a capture (a `declare`d global used by a routine): a
                // `__device__` variable of the module, which the device fills by name.
                self.globals.insert(g.0);
                let n = self.p.globals.get(g.0 as usize).map(|g| sanitize(&g.name)).unwrap_or_default();
                let t = self.value_ty(e.ty, loc);
                format!("(({t})&{n})")
            }
            ExprKind::FuncAddr(f) => format!("&{}", sanitize(&self.p.functions[f.0 as usize].name)),
            ExprKind::ExternAddr(x) => {
                let n = self.p.externs.get(x.0 as usize).map(|x| x.name.clone()).unwrap_or_default();
                self.unsupported(format!("the address of library function or object `{n}` in device code"), loc)
            }
            ExprKind::Load(a) => {
                if self.is_aggregate(e.ty) {
                    // A record or complex value is its address.
                    let at = self.expr(fx, a);
                    let t = self.value_ty(e.ty, loc);
                    if self.p.types.pointee(a.ty) == Some(e.ty) || a.ty == e.ty { at } else { format!("(({t})({at}))") }
                } else {
                    self.deref(fx, a, e.ty, loc)
                }
            }
            ExprKind::Unary(op, x) => {
                let x = self.expr(fx, x);
                let o = match op {
                    UnOp::Neg => "-",
                    UnOp::BitNot => "~",
                    UnOp::Not => "!",
                };
                format!("{o}{x}")
            }
            ExprKind::Binary(op, a, b) => {
                let a = self.expr(fx, a);
                let b = self.expr(fx, b);
                format!("({a} {} {b})", binop(*op))
            }
            ExprKind::Cast(x) => {
                if let Some((base, m, decays)) = self.member_of(fx, e) {
                    return if decays { format!("{base}->{m}") } else { format!("&{base}->{m}") };
                }
                let t = self.value_ty(e.ty, loc);
                let xs = self.expr(fx, x);
                if matches!(self.p.types.get(x.ty), Type::Int(IntType { bytes: 8, .. })) && matches!(self.p.types.get(e.ty), Type::Pointer(_)) {
                    // An integer made a pointer: it may be a device address that host code took
                    // (`acc_deviceptr`, `host_data use_device`, §2.8, §3.2.28) and passed in
                    // copied data; such an address names a device block of accsim's (prelude
                    // `device_address`).
                    self.prelude.insert("device_address");
                    return format!("(({t})accsim_device_address((unsigned long long)({xs})))");
                }
                format!("(({t}){xs})")
            }
            ExprKind::PtrAdd { ptr, index, elem } if self.p.types.is_variably_modified(*elem) => {
                // A row of a variable-length array (`V + i` on `float V[n][p]`): its size is
                // known at run time only, so the step is in bytes (C11 6.5.6p8 with 6.7.6.2p5).
                let p = self.expr(fx, ptr);
                let i = self.expr(fx, index);
                let size = self.vm_size(fx, *elem, loc);
                let t = self.value_ty(e.ty, loc);
                format!("(({t})((char *)({p}) + (long)({i}) * (long){size}))")
            }
            ExprKind::PtrDiff { lhs, rhs, elem } if self.p.types.is_variably_modified(*elem) => {
                let a = self.expr(fx, lhs);
                let b = self.expr(fx, rhs);
                let size = self.vm_size(fx, *elem, loc);
                format!("(long)(((char *)({a}) - (char *)({b})) / (long){size})")
            }
            ExprKind::PtrAdd { ptr, index, elem } => {
                let p = self.expr(fx, ptr);
                let i = self.expr(fx, index);
                let sum = if self.p.types.pointee(ptr.ty) == Some(*elem) {
                    format!("({p} + {i})")
                } else {
                    let t = self.decl(*elem, "*", loc);
                    format!("(({t})({p}) + {i})")
                };
                // The sum is an `elem *`; the IR may type it otherwise (a row decayed to its
                // first element).
                if self.p.types.pointee(e.ty) == Some(*elem) {
                    sum
                } else {
                    let t = self.value_ty(e.ty, loc);
                    format!("(({t}){sum})")
                }
            }
            ExprKind::PtrDiff { lhs, rhs, elem } => {
                let t = self.decl(*elem, "*", loc);
                let a = self.expr(fx, lhs);
                let b = self.expr(fx, rhs);
                format!("(long)(({t})({a}) - ({t})({b}))")
            }
            ExprKind::Assign { place, value } => {
                let v = self.expr(fx, value);
                let register = matches!(place, Place::Local(l) if fx.func.locals.get(l.0 as usize).is_some_and(|x| x.storage == Storage::Register));
                match self.p.types.get(e.ty).clone() {
                    Type::Record(_) | Type::Complex(_) if register => {
                        let pl = self.place(fx, place, e.ty, loc);
                        format!("({pl} = {v})")
                    }
                    Type::Record(_) | Type::Complex(_) => {
                        let t = self.ty(e.ty, loc);
                        let dst = match place {
                            Place::Mem(a) => self.expr(fx, a),
                            Place::Local(l) => format!("&{}", self.local_ref(fx, *l)),
                        };
                        format!("(*({t} *)({dst}) = *({t} *)({v}), ({t} *)({dst}))")
                    }
                    Type::Array(..) => {
                        let n = self.p.types.size_of(e.ty).unwrap_or(0);
                        let dst = match place {
                            Place::Mem(a) => self.expr(fx, a),
                            Place::Local(l) => self.local_ref(fx, *l),
                        };
                        format!("memcpy({dst}, {v}, {n})")
                    }
                    _ if fx.store_guard.is_some() && self.stores_shared(fx, place) => {
                        let g = fx.store_guard.unwrap_or_default();
                        let pl = self.place(fx, place, e.ty, loc);
                        let t = self.ty(e.ty, loc);
                        format!("(({g}) ? ({pl} = {v}) : ({t})({v}))")
                    }
                    _ => {
                        let pl = self.place(fx, place, e.ty, loc);
                        format!("({pl} = {v})")
                    }
                }
            }
            ExprKind::CompoundAssign { op, place, value, .. } => {
                let pl = self.place(fx, place, e.ty, loc);
                let v = self.expr(fx, value);
                format!("({pl} {}= {v})", binop(*op))
            }
            ExprKind::IncDec { place, delta, post } => {
                let pl = self.place(fx, place, e.ty, loc);
                let op = if *delta > 0 { "++" } else { "--" };
                if *post { format!("{pl}{op}") } else { format!("{op}{pl}") }
            }
            ExprKind::Cond(c, a, b) => {
                let c = self.expr(fx, c);
                let a = self.expr(fx, a);
                let b = self.expr(fx, b);
                format!("({c} ? {a} : {b})")
            }
            ExprKind::LogicalAnd(a, b) => {
                let a = self.expr(fx, a);
                let b = self.expr(fx, b);
                format!("({a} && {b})")
            }
            ExprKind::LogicalOr(a, b) => {
                let a = self.expr(fx, a);
                let b = self.expr(fx, b);
                format!("({a} || {b})")
            }
            ExprKind::Comma(a, b) => {
                let a = self.expr(fx, a);
                let b = self.expr(fx, b);
                format!("({a}, {b})")
            }
            ExprKind::Call { callee, args, result } => {
                let mut a = Vec::new();
                for x in args {
                    let t = self.expr(fx, x);
                    if self.is_aggregate(x.ty) {
                        let ct = self.ty(x.ty, loc);
                        a.push(format!("*({ct} *)({t})"));
                    } else {
                        a.push(t);
                    }
                }
                let c = match callee {
                    Callee::Direct(f) => sanitize(&self.p.functions[f.0 as usize].name),
                    Callee::Extern(x) => {
                        let n = self.p.externs.get(x.0 as usize).map(|x| x.name.clone()).unwrap_or_default();
                        if n == ACC_ON_DEVICE {
                            // §3.2.14 on the GPU: true for its type, not_host and default; false
                            // for acc_device_host (2) and acc_device_none (0).
                            let [t] = a.as_slice() else {
                                return self.unsupported("`acc_on_device` with other than one argument", loc);
                            };
                            return format!("((((int){t}) != 2) && (((int){t}) != 0))");
                        }
                        if n == LAUNCH_DIM_FN {
                            let [t] = a.as_slice() else {
                                return self.unsupported(format!("`{n}` with other than one argument"), loc);
                            };
                            return format!("((long)(({t}) == 0 ? blockIdx.y * gridDim.x + blockIdx.x : ({t}) == 1 ? gridDim.x * gridDim.y : 1))");
                        }
                        if COMPLEX_LIB.contains(&n.as_str()) {
                            self.prelude.insert("complex_lib");
                            n
                        } else if DEVICE_LIBC.contains(&n.as_str()) {
                            n
                        } else {
                            return self.unsupported(format!("calling `{n}` on the GPU (no device version)"), loc);
                        }
                    }
                    Callee::Indirect(f) => {
                        let f = self.expr(fx, f);
                        format!("(*{f})")
                    }
                };
                let call = format!("{c}({})", a.join(", "));
                match result {
                    Some(r) => {
                        let t = self.ty(e.ty, loc);
                        let r = self.local_ref(fx, *r);
                        format!("(*({t} *)&{r} = {call}, ({t} *)&{r})")
                    }
                    None => call,
                }
            }
            ExprKind::SizeOfDynamic(t) => self.vm_size(fx, *t, loc),
            ExprKind::ComplexBinary { op, lhs, rhs, dst } => {
                self.prelude.insert("complex");
                let f = match op {
                    BinOp::Add => "accsim_cadd",
                    BinOp::Sub => "accsim_csub",
                    BinOp::Mul => "accsim_cmul",
                    BinOp::Div => "accsim_cdiv",
                    _ => return self.unsupported("this complex operator", loc),
                };
                let a = self.expr(fx, lhs);
                let b = self.expr(fx, rhs);
                let d = self.local_ref(fx, *dst);
                format!("{f}(&{d}, {a}, {b})")
            }
            ExprKind::ComplexNeg { value, dst } => {
                self.prelude.insert("complex");
                let a = self.expr(fx, value);
                let d = self.local_ref(fx, *dst);
                format!("accsim_cneg(&{d}, {a})")
            }
            ExprKind::ComplexMake { re, im, dst } => {
                self.prelude.insert("complex");
                let a = self.expr(fx, re);
                let b = self.expr(fx, im);
                let d = self.local_ref(fx, *dst);
                format!("accsim_cmake(&{d}, {a}, {b})")
            }
            ExprKind::ComplexCompare { op, lhs, rhs } => {
                self.prelude.insert("complex");
                let a = self.expr(fx, lhs);
                let b = self.expr(fx, rhs);
                let not = if *op == BinOp::Ne { "!" } else { "" };
                format!("{not}accsim_ceq({a}, {b})")
            }
            ExprKind::WithInit { init, value } | ExprKind::StmtExpr { body: init, value: Some(value) } => {
                let mut s = String::from("({ ");
                for st in init {
                    let mut o = String::new();
                    self.stmt(fx, st, 0, Threads::ALL, &mut o);
                    s.push_str(&one_line(&o));
                    s.push(' ');
                }
                let v = self.expr(fx, value);
                let _ = write!(s, "{v}; }})");
                s
            }
            ExprKind::StmtExpr { body, value: None } => {
                let mut s = String::from("({ ");
                for st in body {
                    let mut o = String::new();
                    self.stmt(fx, st, 0, Threads::ALL, &mut o);
                    s.push_str(&one_line(&o));
                    s.push(' ');
                }
                s.push_str("})");
                s
            }
            ExprKind::VaStart(_) | ExprKind::VaArg(_) | ExprKind::VaCopy(..) => self.unsupported("variable arguments (`va_*`) in device code", loc),
        }
    }
}
