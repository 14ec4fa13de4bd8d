//! Expressions: each IR expression compiled to a closure specialised by operation, type and
//! operand shape ([`Ce`]), with constants folded.

use super::*;

impl<'a> Cx<'a> {
    /// The size of a type, dynamic for VLAs.
    pub(super) fn size_of(&mut self, ty: TypeId, loc: Loc) -> R<Ce> {
        match self.t.get(ty) {
            Type::Vla(elem, count) => {
                let e = self.size_of(*elem, loc)?;
                let c = self.local_value(*count, loc)?;
                Ok(BinaryV::go(c, e, loc, |x, y| Ok(x.wrapping_mul(y))))
            }
            Type::Array(elem, Some(n)) => {
                let n = *n;
                let e = self.size_of(*elem, loc)?;
                Ok(BinaryV::go(e, Ce::Const(n), loc, |x, y| {
                    Ok(x.wrapping_mul(y))
                }))
            }
            Type::Void | Type::Function(_) => Ok(Ce::Const(1)),
            _ => Ok(Ce::Const(self.t.size_of(ty).unwrap_or(0))),
        }
    }

    pub(super) fn expr(&mut self, e: &Expr) -> R<Ce> {
        if let Some(d) = self.use_device_address(e) {
            return Ok(d);
        }
        let loc = e.loc;
        let k = self.kind(e.ty);
        Ok(match &e.kind {
            ExprKind::Int(v) => Ce::Const(if k.is_int() { norm(k, *v) } else { *v }),
            ExprKind::Float(f) => Ce::Const(match k {
                Kind::F32 => (*f as f32).to_bits() as u64,
                _ => f.to_bits(),
            }),
            ExprKind::Str(s) => Ce::Const(self.exe.string_ptr(s.0)),
            ExprKind::Local(l) => self.local_value(*l, loc)?,
            ExprKind::LocalAddr(l) => match self.homes.get(l.0 as usize) {
                Some(Home::Mem(slot)) => Ce::Reg(*slot),
                Some(Home::Vla(s)) | Some(Home::Reg(s)) => Ce::Reg(*s),
                None => {
                    return Err(Diagnostic::internal(
                        "address of an unknown local",
                        Some(loc),
                    ))
                }
            },
            ExprKind::GlobalAddr(g) => Ce::Const(Executable::global_ptr(g.0)),
            ExprKind::FuncAddr(f) => Ce::Const(ptr_word(FUNC_ID, f.0)),
            ExprKind::ExternAddr(x) => {
                let b = self.bindings.get(x.0 as usize);
                match b {
                    Some(Binding::Function(_)) => {
                        Ce::Const(ptr_word(FUNC_ID, self.p.functions.len() as u32 + x.0))
                    }
                    Some(Binding::Object(i)) => {
                        Ce::Const(ptr_word(self.exe.first_runtime_id() + *i, 0))
                    }
                    _ => return Err(self.undefined(x.0, loc)),
                }
            }
            ExprKind::Load(a) => {
                if k == Kind::Aggregate || k == Kind::Void {
                    self.expr(a)?
                } else {
                    let addr = self.addr(a)?;
                    self.load(k, addr, loc)
                }
            }
            ExprKind::Unary(op, a) => {
                let ak = self.kind(a.ty);
                let c = self.expr(a)?;
                match op {
                    UnOp::Not => {
                        let f = c.into_fn();
                        Ce::Dyn(ef(move |m| Ok(!truthy(ak, f(m)?) as u64)))
                    }
                    UnOp::Neg => match k {
                        Kind::F32 => self.map1(c, |v| v ^ 0x8000_0000),
                        Kind::F64 | Kind::LongDouble => self.map1(c, |v| v ^ (1 << 63)),
                        Kind::I32 => self.map1(c, |v| (v as i32).wrapping_neg() as i64 as u64),
                        Kind::U32 => self.map1(c, |v| (v as u32).wrapping_neg() as u64),
                        _ => {
                            let f = c.into_fn();
                            Ce::Dyn(ef(move |m| Ok(norm(k, f(m)?.wrapping_neg()))))
                        }
                    },
                    UnOp::BitNot => {
                        let f = c.into_fn();
                        Ce::Dyn(ef(move |m| Ok(norm(k, !f(m)?))))
                    }
                }
            }
            ExprKind::Binary(op, a, b) => {
                let opk = if op.is_comparison() {
                    self.kind(a.ty)
                } else {
                    k
                };
                if matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul) {
                    if let Some(ix) = self.pure_int(e) {
                        return Ok(Ce::Dyn(ef(move |m| Ok(ix.eval(m)))));
                    }
                }
                let (ca, cb) = (self.expr(a)?, self.expr(b)?);
                self.binary(*op, ca, cb, opk, loc)?
            }
            ExprKind::Cast(_) if self.pure_int(e).is_some() => {
                let ix = self.pure_int(e).expect("checked");
                Ce::Dyn(ef(move |m| Ok(ix.eval(m))))
            }
            ExprKind::Cast(a) => {
                let from = self.kind(a.ty);
                let c = self.expr(a)?;
                match cast_fn(from, k) {
                    None => c,
                    Some(f) => match c {
                        // gcc folds a constant's conversion at compile time, saturating (and NaN
                        // to 0) where the run-time cvttsd2si would give 0x80000000...
                        Ce::Const(v) if from.is_float() && k.is_int() => {
                            Ce::Const(fold_float_to_int(from, k, v))
                        }
                        Ce::Const(v) => Ce::Const(f(v)),
                        Ce::Reg(s) => Ce::Dyn(ef(move |m| Ok(f(m.regs[m.bp + s])))),
                        Ce::Dyn(g) => Ce::Dyn(ef(move |m| Ok(f(g(m)?)))),
                        Ce::Load(l) => Ce::Dyn(ef(move |m| Ok(f(l.eval(m)?)))),
                        Ce::Deref(s, dl) => Ce::Dyn(ef(move |m| Ok(f(deref(m, s, dl)?)))),
                    },
                }
            }
            ExprKind::PtrAdd { ptr, index, elem } => {
                let size = self.size_of(*elem, loc)?;
                let (p, i) = (self.expr(ptr)?, self.expr(index)?);
                match size {
                    Ce::Const(sz) => {
                        let off = BinaryV::go(i, Ce::Const(sz), loc, |x, y| Ok(x.wrapping_mul(y)));
                        BinaryV::go(p, off, loc, |x, y| Ok(x.wrapping_add(y)))
                    }
                    size => {
                        let off = BinaryV::go(i, size, loc, |x, y| Ok(x.wrapping_mul(y)));
                        BinaryV::go(p, off, loc, |x, y| Ok(x.wrapping_add(y)))
                    }
                }
            }
            ExprKind::PtrDiff { lhs, rhs, elem } => {
                let size = self.size_of(*elem, loc)?;
                let d = {
                    let (a, b) = (self.expr(lhs)?, self.expr(rhs)?);
                    BinaryV::go(a, b, loc, |x, y| Ok(x.wrapping_sub(y)))
                };
                BinaryV::go(d, size, loc, |x, y| {
                    Ok(if y == 0 {
                        x
                    } else {
                        (x as i64).wrapping_div(y as i64) as u64
                    })
                })
            }
            ExprKind::Assign { place, value } => {
                let v = self.expr(value)?;
                match self.place(place, e.ty)? {
                    Ok(slot) => Ce::Dyn(match v {
                        Ce::Const(c) => ef(move |m| {
                            m.regs[m.bp + slot] = c;
                            Ok(c)
                        }),
                        Ce::Reg(r) => ef(move |m| {
                            let v = m.regs[m.bp + r];
                            m.regs[m.bp + slot] = v;
                            Ok(v)
                        }),
                        Ce::Load(l) => ef(move |m| {
                            let v = l.eval(m)?;
                            m.regs[m.bp + slot] = v;
                            Ok(v)
                        }),
                        Ce::Deref(s, dl) => ef(move |m| {
                            let v = deref(m, s, dl)?;
                            m.regs[m.bp + slot] = v;
                            Ok(v)
                        }),
                        Ce::Dyn(f) => ef(move |m| {
                            let v = f(m)?;
                            m.regs[m.bp + slot] = v;
                            Ok(v)
                        }),
                    }),
                    Err(addr) if k == Kind::Aggregate => {
                        let size = self.size_of(e.ty, loc)?.into_fn();
                        let dst = Self::addr_fn(addr);
                        let src = v.into_fn();
                        let atomic = self.in_atomic;
                        if !self.checking {
                            return Ok(Ce::Dyn(ef(move |m| {
                                let s = src(m)?;
                                let d = dst(m)?;
                                let n = size(m)?;
                                m.mem.copy(d, s, n).map_err(|f| m.fault(f, loc))?;
                                Ok(d)
                            })));
                        }
                        Ce::Dyn(ef(move |m| {
                            let s = src(m)?;
                            let d = dst(m)?;
                            let n = size(m)?;
                            crate::exec::check::before_access(m, s, n, false, atomic, loc);
                            crate::exec::check::before_access(m, d, n, true, atomic, loc);
                            m.mem.copy(d, s, n).map_err(|f| m.fault(f, loc))?;
                            crate::exec::check::access(m, s, n, false, atomic, loc);
                            crate::exec::check::access(m, d, n, true, atomic, loc);
                            Ok(d)
                        }))
                    }
                    Err(addr) => Ce::Dyn(self.store(k, addr, v, loc)),
                }
            }
            ExprKind::CompoundAssign {
                op,
                place,
                value,
                op_ty,
            } => {
                let pk = k;
                if let Some(f) = self.multiply_accumulate(*op, place, value, *op_ty, k)? {
                    return Ok(Ce::Dyn(f));
                }
                let val = self.expr(value)?.into_fn();
                let pc = match self.place(place, e.ty)? {
                    Ok(s) => PlaceC::Reg(s),
                    Err(a) => PlaceC::Mem(self.checked_rw(Self::addr_fn(a), pk, loc), pk),
                };
                if pk == Kind::Ptr {
                    let elem = self.t.pointee(e.ty).unwrap_or(e.ty);
                    let size = self.size_of(elem, loc)?.into_fn();
                    let neg = *op == BinOp::Sub;
                    let step = ef(move |m| {
                        let n = val(m)?.wrapping_mul(size(m)?);
                        Ok(if neg { n.wrapping_neg() } else { n })
                    });
                    return Ok(Ce::Dyn(self.compound(
                        pc,
                        BinOp::Add,
                        Kind::U64,
                        Kind::U64,
                        step,
                        loc,
                    )?));
                }
                let ok = self.kind(*op_ty);
                Ce::Dyn(self.compound(pc, *op, pk, ok, val, loc)?)
            }
            ExprKind::IncDec { place, delta, post } => {
                let pc = match self.place(place, e.ty)? {
                    Ok(s) => PlaceC::Reg(s),
                    Err(a) => PlaceC::Mem(self.checked_rw(Self::addr_fn(a), k, loc), k),
                };
                self.incdec(pc, k, e.ty, *delta, *post, loc)?
            }
            ExprKind::Cond(c, a, b) if self.select(c, a, b).is_some() => {
                let (op, x, y, a, b) = self.select(c, a, b).expect("checked");
                let signed = op.1;
                macro_rules! sel {
                    ($cmp:tt) => {
                        ef(move |m| {
                            let (p, q) = (x.eval(m), y.eval(m));
                            let t = if signed { (p as i64) $cmp (q as i64) } else { p $cmp q };
                            Ok(if t { a.eval(m) } else { b.eval(m) })
                        })
                    };
                }
                Ce::Dyn(match op.0 {
                    BinOp::Lt => sel!(<),
                    BinOp::Le => sel!(<=),
                    BinOp::Gt => sel!(>),
                    BinOp::Ge => sel!(>=),
                    BinOp::Eq => sel!(==),
                    _ => sel!(!=),
                })
            }
            ExprKind::Cond(c, a, b) => {
                let c = self.cond(c)?;
                let (a, b) = (self.expr(a)?.into_fn(), self.expr(b)?.into_fn());
                Ce::Dyn(ef(move |m| if c(m)? != 0 { a(m) } else { b(m) }))
            }
            ExprKind::LogicalAnd(a, b) => {
                let (a, b) = (self.cond(a)?, self.cond(b)?);
                Ce::Dyn(ef(move |m| Ok((a(m)? != 0 && b(m)? != 0) as u64)))
            }
            ExprKind::LogicalOr(a, b) => {
                let (a, b) = (self.cond(a)?, self.cond(b)?);
                Ce::Dyn(ef(move |m| Ok((a(m)? != 0 || b(m)? != 0) as u64)))
            }
            ExprKind::Comma(a, b) => {
                let a = self.expr(a)?;
                let b = self.expr(b)?;
                match a {
                    Ce::Dyn(a) => {
                        let b = b.into_fn();
                        Ce::Dyn(ef(move |m| {
                            a(m)?;
                            b(m)
                        }))
                    }
                    _ => b,
                }
            }
            ExprKind::Call {
                callee,
                args,
                result,
            } => self.call(callee, args, *result, loc)?,
            ExprKind::SizeOfDynamic(ty) => self.size_of(*ty, loc)?,
            ExprKind::ComplexBinary { op, lhs, rhs, dst } => {
                let ek = self.complex_elem(lhs.ty);
                let (a, b) = (self.complex_operand(lhs, ek, loc)?, self.complex_operand(rhs, ek, loc)?);
                let dst = self.result_dest(Some(*dst), loc)?.unwrap_or(0);
                let op = *op;
                Ce::Dyn(ef(move |m| {
                    let (x, y) = (a(m)?, b(m)?);
                    let (ar, ai) = m.load_complex(ek, x).map_err(|f| m.fault(f, loc))?;
                    let (br, bi) = m.load_complex(ek, y).map_err(|f| m.fault(f, loc))?;
                    let (r, i) = if ek == Kind::F32 {
                        let (r, i) = complex_op(op, ar as f32, ai as f32, br as f32, bi as f32);
                        (r as f64, i as f64)
                    } else {
                        complex_op(op, ar, ai, br, bi)
                    };
                    let d = m.regs[m.bp + dst];
                    m.store_complex(ek, d, r, i).map_err(|f| m.fault(f, loc))?;
                    Ok(d)
                }))
            }
            ExprKind::ComplexNeg { value, dst } => {
                let ek = self.complex_elem(value.ty);
                let a = self.complex_operand(value, ek, loc)?;
                let dst = self.result_dest(Some(*dst), loc)?.unwrap_or(0);
                Ce::Dyn(ef(move |m| {
                    let x = a(m)?;
                    let (r, i) = m.load_complex(ek, x).map_err(|f| m.fault(f, loc))?;
                    let d = m.regs[m.bp + dst];
                    m.store_complex(ek, d, -r, -i)
                        .map_err(|f| m.fault(f, loc))?;
                    Ok(d)
                }))
            }
            ExprKind::ComplexMake { re, im, dst } => {
                let ek = self.complex_elem(e.ty);
                let (r, i) = (self.expr(re)?.into_fn(), self.expr(im)?.into_fn());
                let dst = self.result_dest(Some(*dst), loc)?.unwrap_or(0);
                Ce::Dyn(ef(move |m| {
                    let (r, i) = (r(m)?, i(m)?);
                    let d = m.regs[m.bp + dst];
                    m.store_kind(ek, d, r).map_err(|f| m.fault(f, loc))?;
                    m.store_kind(ek, d.wrapping_add(ek.bytes()), i)
                        .map_err(|f| m.fault(f, loc))?;
                    Ok(d)
                }))
            }
            ExprKind::ComplexCompare { op, lhs, rhs } => {
                let ek = self.complex_elem(lhs.ty);
                let (a, b) = (self.complex_operand(lhs, ek, loc)?, self.complex_operand(rhs, ek, loc)?);
                let ne = *op == BinOp::Ne;
                Ce::Dyn(ef(move |m| {
                    let (x, y) = (a(m)?, b(m)?);
                    let p = m.load_complex(ek, x).map_err(|f| m.fault(f, loc))?;
                    let q = m.load_complex(ek, y).map_err(|f| m.fault(f, loc))?;
                    let eq = p.0 == q.0 && p.1 == q.1;
                    Ok((eq != ne) as u64)
                }))
            }
            ExprKind::WithInit { init, value } => {
                let code = self.sub_code(init, false)?;
                let v = self.expr(value)?.into_fn();
                Ce::Dyn(ef(move |m| {
                    run_code(m, &code)?;
                    v(m)
                }))
            }
            ExprKind::StmtExpr { body, value } => {
                let code = self.sub_code(body, true)?;
                let v = match value {
                    Some(v) => self.expr(v)?.into_fn(),
                    None => ef(|_| Ok(0)),
                };
                Ce::Dyn(ef(move |m| {
                    run_code(m, &code)?;
                    v(m)
                }))
            }
            ExprKind::VaStart(ap) => {
                let ap = self.expr(ap)?.into_fn();
                let fid = self.fid;
                Ce::Dyn(ef(move |m| {
                    let a = ap(m)?;
                    let bytes: Vec<u8> = m.varargs.iter().flat_map(|w| w.to_le_bytes()).collect();
                    let p = m
                        .mem
                        .alloc_init(&bytes, AllocKind::VaArgs(fid), false, loc)
                        .map_err(|f| m.fault(f, loc))?;
                    m.frame_allocs.push(p);
                    m.mem.store_u64(a, p).map_err(|f| m.fault(f, loc))?;
                    Ok(0)
                }))
            }
            ExprKind::VaArg(ap) => {
                let ap = self.expr(ap)?.into_fn();
                Ce::Dyn(ef(move |m| {
                    let a = ap(m)?;
                    let p = m.mem.load_u64(a).map_err(|f| m.fault(f, loc))?;
                    let w = m.mem.load_u64(p).map_err(|f| m.fault(f, loc))?;
                    m.mem
                        .store_u64(a, p.wrapping_add(8))
                        .map_err(|f| m.fault(f, loc))?;
                    Ok(if k.is_int() { norm(k, w) } else { w })
                }))
            }
            ExprKind::VaCopy(d, s) => {
                let (d, s) = (self.expr(d)?.into_fn(), self.expr(s)?.into_fn());
                Ce::Dyn(ef(move |m| {
                    let (dp, sp) = (d(m)?, s(m)?);
                    let w = m.mem.load_u64(sp).map_err(|f| m.fault(f, loc))?;
                    m.mem.store_u64(dp, w).map_err(|f| m.fault(f, loc))?;
                    Ok(0)
                }))
            }
        })
    }

    pub(super) fn map1(&self, c: Ce, f: fn(u64) -> u64) -> Ce {
        match c {
            Ce::Const(v) => Ce::Const(f(v)),
            c => {
                let g = c.into_fn();
                Ce::Dyn(ef(move |m| Ok(f(g(m)?))))
            }
        }
    }

    /// A complex operand: its value is the address of its two parts, which the operation reads
    /// (reported to the checker in checking mode, as a load of both parts).
    pub(super) fn complex_operand(&mut self, e: &Expr, ek: Kind, loc: Loc) -> R<ExprFn> {
        let f = self.expr(e)?.into_fn();
        if !self.checking {
            return Ok(f);
        }
        let (atomic, size) = (self.in_atomic, 2 * ek.bytes());
        Ok(ef(move |m| {
            let a = f(m)?;
            crate::exec::check::before_access(m, a, size, false, atomic, loc);
            crate::exec::check::access(m, a, size, false, atomic, loc);
            Ok(a)
        }))
    }

    pub(super) fn complex_elem(&self, ty: TypeId) -> Kind {
        match self.t.get(ty) {
            Type::Complex(FloatKind::F32) => Kind::F32,
            Type::Complex(FloatKind::LongDouble) => Kind::LongDouble,
            _ => Kind::F64,
        }
    }

    pub(super) fn undefined(&self, x: u32, loc: Loc) -> Diagnostic {
        let name = self
            .p
            .externs
            .get(x as usize)
            .map(|e| e.name.as_str())
            .unwrap_or("?");
        let decl = self.p.externs.get(x as usize).map(|e| e.loc);
        let mut d = Diagnostic::error("link", format!("undefined reference to `{name}`"), loc);
        if let Some(l) = decl.filter(|l| l.line != 0) {
            d = d.with_related(l, "declared here");
        }
        d.with_note(
            "accsim's C library does not provide this function, and the program does not define it",
        )
    }

    pub(super) fn compound(
        &mut self,
        place: PlaceC,
        op: BinOp,
        pk: Kind,
        ok: Kind,
        val: ExprFn,
        loc: Loc,
    ) -> R<ExprFn> {
        let (cls, post) = class_of(ok, false);
        let cin = cast_fn(pk, ok);
        let cout = cast_fn(ok, pk);
        dispatch(
            op,
            cls,
            CompoundV {
                place,
                val,
                cin,
                cout,
                post,
                loc,
            },
        )
        .ok_or_else(|| {
            Diagnostic::internal(format!("no compound {op:?} for kind {ok:?}"), Some(loc))
        })
    }

    pub(super) fn incdec(
        &mut self,
        place: PlaceC,
        k: Kind,
        ty: TypeId,
        delta: i8,
        post: bool,
        loc: Loc,
    ) -> R<Ce> {
        // The new value as a function of the old one.
        let step: Box<dyn Fn(&mut Machine<'_>, u64) -> Result<u64, Trap> + Send + Sync> = match k {
            Kind::F32 => {
                let d = delta as f32;
                Box::new(move |_, v| Ok(bf32(f32b(v) + d)))
            }
            Kind::F64 | Kind::LongDouble => {
                let d = delta as f64;
                Box::new(move |_, v| Ok((f64b(v) + d).to_bits()))
            }
            Kind::Bool => {
                if delta > 0 {
                    Box::new(|_, _| Ok(1))
                } else {
                    Box::new(|_, v| Ok((v != 1) as u64))
                }
            }
            Kind::Ptr => {
                let elem = self.t.pointee(ty).unwrap_or(ty);
                match self.size_of(elem, loc)? {
                    Ce::Const(sz) => {
                        let d = (delta as i64 as u64).wrapping_mul(sz);
                        if let PlaceC::Reg(s) = place {
                            return Ok(Ce::Dyn(ef(move |m| {
                                let old = m.regs[m.bp + s];
                                let new = old.wrapping_add(d);
                                m.regs[m.bp + s] = new;
                                Ok(if post { old } else { new })
                            })));
                        }
                        Box::new(move |_, v| Ok(v.wrapping_add(d)))
                    }
                    size => {
                        let size = size.into_fn();
                        Box::new(move |m, v| {
                            Ok(v.wrapping_add((delta as i64 as u64).wrapping_mul(size(m)?)))
                        })
                    }
                }
            }
            _ => {
                let d = delta as i64 as u64;
                if let PlaceC::Reg(s) = place {
                    return Ok(Ce::Dyn(match k {
                        Kind::I32 => ef(move |m| {
                            let old = m.regs[m.bp + s];
                            let new = (old as i32).wrapping_add(d as i32) as i64 as u64;
                            m.regs[m.bp + s] = new;
                            Ok(if post { old } else { new })
                        }),
                        _ => ef(move |m| {
                            let old = m.regs[m.bp + s];
                            let new = norm(k, old.wrapping_add(d));
                            m.regs[m.bp + s] = new;
                            Ok(if post { old } else { new })
                        }),
                    }));
                }
                Box::new(move |_, v| Ok(norm(k, v.wrapping_add(d))))
            }
        };
        Ok(Ce::Dyn(match place {
            PlaceC::Reg(s) => ef(move |m| {
                let old = m.regs[m.bp + s];
                let new = step(m, old)?;
                m.regs[m.bp + s] = new;
                Ok(if post { old } else { new })
            }),
            PlaceC::Mem(addr, k) => ef(move |m| {
                let a = addr(m)?;
                let old = m.load_kind(k, a).map_err(|f| m.fault(f, loc))?;
                let new = step(m, old)?;
                m.store_kind(k, a, new).map_err(|f| m.fault(f, loc))?;
                Ok(if post { old } else { new })
            }),
        }))
    }
}
