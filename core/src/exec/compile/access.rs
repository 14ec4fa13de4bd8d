//! Addresses, loads and stores: the shapes a load or store fuses (register base and polynomial
//! index, register-held addresses) and the closures generated per scalar kind.

use super::*;

// ---------------------------------------------------------------------------------------------
// Loads and stores.

macro_rules! gen_load {
    ($k:expr, $loc:expr, |$m:ident| $addr:expr) => {{
        let loc = $loc;
        match $k {
            Kind::I8 => ef(move |$m| {
                let a = $addr;
                $m.mem
                    .load_u8(a)
                    .map(|v| v as i8 as i64 as u64)
                    .map_err(|f| $m.fault(f, loc))
            }),
            Kind::U8 | Kind::Bool => ef(move |$m| {
                let a = $addr;
                $m.mem
                    .load_u8(a)
                    .map(|v| v as u64)
                    .map_err(|f| $m.fault(f, loc))
            }),
            Kind::I16 => ef(move |$m| {
                let a = $addr;
                $m.mem
                    .load_u16(a)
                    .map(|v| v as i16 as i64 as u64)
                    .map_err(|f| $m.fault(f, loc))
            }),
            Kind::U16 => ef(move |$m| {
                let a = $addr;
                $m.mem
                    .load_u16(a)
                    .map(|v| v as u64)
                    .map_err(|f| $m.fault(f, loc))
            }),
            Kind::I32 => ef(move |$m| {
                let a = $addr;
                $m.mem
                    .load_u32(a)
                    .map(|v| v as i32 as i64 as u64)
                    .map_err(|f| $m.fault(f, loc))
            }),
            Kind::U32 | Kind::F32 => ef(move |$m| {
                let a = $addr;
                $m.mem
                    .load_u32(a)
                    .map(|v| v as u64)
                    .map_err(|f| $m.fault(f, loc))
            }),
            Kind::I64 | Kind::U64 | Kind::F64 | Kind::Ptr => ef(move |$m| {
                let a = $addr;
                $m.mem.load_u64(a).map_err(|f| $m.fault(f, loc))
            }),
            Kind::LongDouble => ef(move |$m| {
                let a = $addr;
                $m.load_kind(Kind::LongDouble, a)
                    .map_err(|f| $m.fault(f, loc))
            }),
            Kind::Void | Kind::Aggregate => ef(move |$m| {
                let _ = &$m;
                Ok($addr)
            }),
        }
    }};
}

macro_rules! gen_store {
    ($k:expr, $loc:expr, |$m:ident, $v:ident| $addr:expr, $val:expr) => {{
        let loc = $loc;
        match $k {
            Kind::I8 | Kind::U8 | Kind::Bool => ef(move |$m| {
                let $v = $val;
                let a = $addr;
                $m.mem.store_u8(a, $v as u8).map_err(|f| $m.fault(f, loc))?;
                Ok($v)
            }),
            Kind::I16 | Kind::U16 => ef(move |$m| {
                let $v = $val;
                let a = $addr;
                $m.mem
                    .store_u16(a, $v as u16)
                    .map_err(|f| $m.fault(f, loc))?;
                Ok($v)
            }),
            Kind::I32 | Kind::U32 | Kind::F32 => ef(move |$m| {
                let $v = $val;
                let a = $addr;
                $m.mem
                    .store_u32(a, $v as u32)
                    .map_err(|f| $m.fault(f, loc))?;
                Ok($v)
            }),
            _ => ef(move |$m| {
                let $v = $val;
                let a = $addr;
                $m.store_kind($k, a, $v).map_err(|f| $m.fault(f, loc))?;
                Ok($v)
            }),
        }
    }};
}

/// The bytes a scalar of kind `k` occupies in memory.
pub(super) fn kind_size(k: Kind) -> u64 {
    match k {
        Kind::Bool | Kind::U8 | Kind::I8 => 1,
        Kind::U16 | Kind::I16 => 2,
        Kind::U32 | Kind::I32 | Kind::F32 => 4,
        Kind::LongDouble => 16,
        _ => 8,
    }
}

/// A compiled address, with the shapes loads and stores fuse.
pub(super) enum Addr {
    /// `base + index * size`.
    Index(Ce, Ce, u64),
    /// `base + index * size` with a polynomial index of register locals.
    Affine(Ce, IndexF, u64),
    Any(Ce),
}

/// A closure over a [`CAddr`]: binds `$v` to `$pre` (evaluated first, as the ordinary stores
/// evaluate the value before the address), then `$a` to the address, then runs `$body`.
macro_rules! with_caddr {
    ($ca:expr, |$m:ident, $v:pat = $pre:expr, $a:ident| $body:expr) => {
        match $ca {
            CAddr::Fused(base, ix, sz) => ef(move |$m| {
                let $v = $pre;
                let $a = base.eval($m)?.wrapping_add(ix.eval($m).wrapping_mul(sz));
                $body
            }),
            CAddr::Reg(s) => ef(move |$m| {
                let $v = $pre;
                let $a = $m.regs[$m.bp + s];
                $body
            }),
            CAddr::Fn(f) => ef(move |$m| {
                let $v = $pre;
                let $a = f($m)?;
                $body
            }),
        }
    };
}

/// The address of a checked access (checking mode), in the shapes the ordinary loads fuse
/// ([`Ce::Load`]), so that the access's one closure computes it inline.
pub(super) enum CAddr {
    /// `base + index * size`.
    Fused(Base, IndexF, u64),
    /// The word in a register slot (the address of a memory local).
    Reg(usize),
    Fn(ExprFn),
}

impl CAddr {
    pub(super) fn new(a: Addr) -> CAddr {
        match a {
            Addr::Any(Ce::Reg(s)) => CAddr::Reg(s),
            Addr::Affine(Ce::Reg(b), ix, sz) => CAddr::Fused(Base::Reg(b), ix, sz),
            Addr::Affine(Ce::Deref(b, bl), ix, sz) => CAddr::Fused(Base::Ind(b, bl), ix, sz),
            Addr::Index(Ce::Reg(b), Ce::Reg(i), sz) => {
                CAddr::Fused(Base::Reg(b), IndexF::T1(Term { a: i, b: None, c: 1 }, 0, false), sz)
            }
            a => CAddr::Fn(Cx::addr_fn(a)),
        }
    }

    pub(super) fn into_fn(self) -> ExprFn {
        with_caddr!(self, |_m, () = (), a| Ok(a))
    }
}

impl<'a> Cx<'a> {
    pub(super) fn local_value(&mut self, l: LocalId, loc: Loc) -> R<Ce> {
        match self.homes.get(l.0 as usize) {
            Some(Home::Reg(s)) | Some(Home::Vla(s)) => Ok(Ce::Reg(*s)),
            Some(Home::Mem(slot)) => {
                let slot = *slot;
                let ty = self.p.functions[self.fid as usize].locals[l.0 as usize].ty;
                let k = self.kind(ty);
                if self.checking {
                    return Ok(self.checked_load(k, CAddr::Reg(slot), loc));
                }
                if matches!(k, Kind::F64 | Kind::I64 | Kind::U64 | Kind::Ptr) {
                    return Ok(Ce::Deref(slot, loc));
                }
                Ok(Ce::Dyn(gen_load!(k, loc, |m| m.regs[m.bp + slot])))
            }
            None => Err(Diagnostic::internal(
                "reference to an unknown local",
                Some(loc),
            )),
        }
    }

    /// Inside `host_data use_device(a)` on an array `a`: `a`'s address is that of its device
    /// copy, found in the present table when it is used (§2.8).
    pub(super) fn use_device_address(&self, e: &Expr) -> Option<Ce> {
        use crate::ir::acc::VarRoot;
        let (root, host) = match &e.kind {
            ExprKind::LocalAddr(l) => match self.homes.get(l.0 as usize) {
                Some(Home::Mem(slot)) => (VarRoot::Local(*l), Ce::Reg(*slot)),
                _ => return None,
            },
            ExprKind::GlobalAddr(g) => (VarRoot::Global(*g), Ce::Const(Executable::global_ptr(g.0))),
            _ => return None,
        };
        let name = self.use_device_arrays.iter().rev().find(|(r, _)| *r == root).map(|(_, n)| n.clone())?;
        let host = host.into_fn();
        let loc = e.loc;
        Some(Ce::Dyn(ef(move |m| {
            let h = host(m)?;
            crate::exec::openacc::use_device_array(m, h, &name, loc)
        })))
    }

    pub(super) fn addr(&mut self, e: &Expr) -> R<Addr> {
        if let Some(d) = self.use_device_address(e) {
            return Ok(Addr::Any(d));
        }
        match &e.kind {
            ExprKind::LocalAddr(l) => {
                if let Some(Home::Mem(slot)) = self.homes.get(l.0 as usize) {
                    return Ok(Addr::Any(Ce::Reg(*slot)));
                }
            }
            ExprKind::PtrAdd { ptr, index, elem } => {
                if let Some(size) = self
                    .t
                    .size_of(*elem)
                    .filter(|_| !matches!(self.t.get(*elem), Type::Vla(..)))
                {
                    let b = self.expr(ptr)?;
                    if let Some(ix) = self.index_poly(index) {
                        return Ok(Addr::Affine(b, ix, size));
                    }
                    let i = self.expr(index)?;
                    return Ok(match i {
                        Ce::Const(c) => {
                            Addr::Index(b, Ce::Const(0), 0).with_offset(c.wrapping_mul(size))
                        }
                        i => Addr::Index(b, i, size),
                    });
                }
            }
            _ => {}
        }
        Ok(Addr::Any(self.expr(e)?))
    }

    pub(super) fn load(&mut self, k: Kind, addr: Addr, loc: Loc) -> Ce {
        if self.checking {
            return self.checked_load(k, CAddr::new(addr), loc);
        }
        let inline = matches!(
            k,
            Kind::F64 | Kind::I64 | Kind::U64 | Kind::Ptr | Kind::I32 | Kind::U32 | Kind::F32
        );
        let addr = match addr {
            Addr::Any(Ce::Reg(s)) if matches!(k, Kind::F64 | Kind::I64 | Kind::U64 | Kind::Ptr) => {
                return Ce::Deref(s, loc);
            }
            Addr::Affine(Ce::Reg(b), ix, size) if inline => {
                return Ce::Load(LoadS {
                    kind: k,
                    base: Base::Reg(b),
                    ix,
                    size,
                    loc,
                });
            }
            Addr::Affine(Ce::Deref(b, bl), ix, size) if inline => {
                return Ce::Load(LoadS {
                    kind: k,
                    base: Base::Ind(b, bl),
                    ix,
                    size,
                    loc,
                });
            }
            Addr::Index(Ce::Reg(b), Ce::Reg(i), size) if inline => {
                let ix = IndexF::T1(
                    Term {
                        a: i,
                        b: None,
                        c: 1,
                    },
                    0,
                    false,
                );
                return Ce::Load(LoadS {
                    kind: k,
                    base: Base::Reg(b),
                    ix,
                    size,
                    loc,
                });
            }
            a => a,
        };
        Ce::Dyn(match addr {
            Addr::Any(Ce::Const(c)) => gen_load!(k, loc, |m| c),
            Addr::Any(Ce::Reg(s)) => gen_load!(k, loc, |m| m.regs[m.bp + s]),
            Addr::Any(Ce::Dyn(f)) => gen_load!(k, loc, |m| f(m)?),
            Addr::Any(Ce::Load(l)) => gen_load!(k, loc, |m| l.eval(m)?),
            Addr::Any(Ce::Deref(s, dl)) => gen_load!(k, loc, |m| deref(m, s, dl)?),
            Addr::Index(Ce::Reg(b), Ce::Reg(i), sz) => {
                gen_load!(k, loc, |m| m.regs[m.bp + b]
                    .wrapping_add(m.regs[m.bp + i].wrapping_mul(sz)))
            }
            Addr::Affine(Ce::Reg(b), ix, sz) => {
                gen_load!(k, loc, |m| m.regs[m.bp + b]
                    .wrapping_add(ix.eval(m).wrapping_mul(sz)))
            }
            Addr::Affine(b, ix, sz) => {
                let b = b.into_fn();
                gen_load!(k, loc, |m| b(m)?.wrapping_add(ix.eval(m).wrapping_mul(sz)))
            }
            Addr::Index(Ce::Reg(b), Ce::Dyn(i), sz) => {
                gen_load!(k, loc, |m| m.regs[m.bp + b]
                    .wrapping_add(i(m)?.wrapping_mul(sz)))
            }
            Addr::Index(b, i, sz) => {
                let (b, i) = (b.into_fn(), i.into_fn());
                gen_load!(k, loc, |m| b(m)?.wrapping_add(i(m)?.wrapping_mul(sz)))
            }
        })
    }

    pub(super) fn store(&mut self, k: Kind, addr: Addr, val: Ce, loc: Loc) -> ExprFn {
        let val = val.into_fn();
        if self.checking {
            let (atomic, size) = (self.in_atomic, kind_size(k));
            return with_caddr!(CAddr::new(addr), |m, v = val(m)?, a| {
                crate::exec::check::before_access(m, a, size, true, atomic, loc);
                m.store_kind(k, a, v).map_err(|f| m.fault(f, loc))?;
                crate::exec::check::access(m, a, size, true, atomic, loc);
                Ok(v)
            });
        }
        match addr {
            Addr::Any(Ce::Reg(s)) => gen_store!(k, loc, |m, v| m.regs[m.bp + s], val(m)?),
            Addr::Any(a) => {
                let a = a.into_fn();
                gen_store!(k, loc, |m, v| a(m)?, val(m)?)
            }
            Addr::Index(Ce::Reg(b), Ce::Reg(i), sz) => gen_store!(
                k,
                loc,
                |m, v| m.regs[m.bp + b].wrapping_add(m.regs[m.bp + i].wrapping_mul(sz)),
                val(m)?
            ),
            Addr::Index(b, i, sz) => {
                let (b, i) = (b.into_fn(), i.into_fn());
                gen_store!(
                    k,
                    loc,
                    |m, v| b(m)?.wrapping_add(i(m)?.wrapping_mul(sz)),
                    val(m)?
                )
            }
            Addr::Affine(Ce::Reg(b), ix, sz) => {
                gen_store!(
                    k,
                    loc,
                    |m, v| m.regs[m.bp + b].wrapping_add(ix.eval(m).wrapping_mul(sz)),
                    val(m)?
                )
            }
            Addr::Affine(Ce::Deref(b, bl), ix, sz) => {
                gen_store!(
                    k,
                    loc,
                    |m, v| deref(m, b, bl)?.wrapping_add(ix.eval(m).wrapping_mul(sz)),
                    val(m)?
                )
            }
            Addr::Affine(b, ix, sz) => {
                let b = b.into_fn();
                gen_store!(
                    k,
                    loc,
                    |m, v| b(m)?.wrapping_add(ix.eval(m).wrapping_mul(sz)),
                    val(m)?
                )
            }
        }
    }

    pub(super) fn place(&mut self, p: &Place, ty: TypeId) -> R<Result<usize, Addr>> {
        match p {
            Place::Local(l) => match self.homes.get(l.0 as usize) {
                Some(Home::Reg(s)) | Some(Home::Vla(s)) => Ok(Ok(*s)),
                Some(Home::Mem(slot)) => Ok(Err(Addr::Any(Ce::Reg(*slot)))),
                None => Err(Diagnostic::internal("assignment to an unknown local", None)),
            },
            Place::Mem(a) => {
                let _ = ty;
                Ok(Err(self.addr(a)?))
            }
        }
    }

    pub(super) fn addr_fn(a: Addr) -> ExprFn {
        match a {
            Addr::Any(c) => c.into_fn(),
            Addr::Index(b, i, sz) => BinaryV::go(b, i, Loc::default(), move |x, y| {
                Ok(x.wrapping_add(y.wrapping_mul(sz)))
            })
            .into_fn(),
            Addr::Affine(b, ix, sz) => {
                let b = b.into_fn();
                ef(move |m| Ok(b(m)?.wrapping_add(ix.eval(m).wrapping_mul(sz))))
            }
        }
    }

}

impl Addr {
    pub(super) fn with_offset(self, off: u64) -> Addr {
        match self {
            Addr::Index(b, _, _) => {
                Addr::Any(BinaryV::go(b, Ce::Const(off), Loc::default(), |x, y| {
                    Ok(x.wrapping_add(y))
                }))
            }
            a => a,
        }
    }
}
