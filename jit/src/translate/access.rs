//! Memory in native code: sizes and scaled indices, loads and stores through pointer words
//! (`(alloc_id << 32) | offset`) with the inline span check and the slow path of the
//! interpreter's memory, addresses of places, and locals held in variables or in the frame.

use super::*;

impl Translator<'_, '_> {
    /// The size of a type as the interpreter computes it (exec/compile/expr.rs's `size_of`):
    /// a variable-length array's from its count local, read when the expression runs.
    pub(super) fn size(&mut self, ty: TypeId, loc: Loc) -> R<Size> {
        use accsim_core::ir::Type;
        Ok(match self.p.types.get(ty) {
            Type::Vla(elem, count) => {
                let (elem, count) = (*elem, *count);
                let e = self.size(elem, loc)?;
                let c = self.local_value(count, loc)?;
                Size::Dyn(match e {
                    Size::Const(e) => self.b.ins().imul_imm_s(c, e as i64),
                    Size::Dyn(e) => self.b.ins().imul(c, e),
                })
            }
            Type::Array(elem, Some(n)) => {
                let n = *n;
                match self.size(*elem, loc)? {
                    Size::Const(e) => Size::Const(e.wrapping_mul(n)),
                    Size::Dyn(e) => Size::Dyn(self.b.ins().imul_imm_s(e, n as i64)),
                }
            }
            Type::Void | Type::Function(_) => Size::Const(1),
            _ => Size::Const(self.p.types.size_of(ty).unwrap_or(0)),
        })
    }

    /// The size of `ty` ([`Translator::size`]), for the loop-entry checks.
    pub(crate) fn elem_size(&mut self, ty: TypeId, loc: Loc) -> R<Size> {
        self.size(ty, loc)
    }

    /// `i * size(elem)`, wrapping.
    pub(super) fn scaled(&mut self, i: Value, elem: TypeId, loc: Loc) -> R<Value> {
        Ok(match (self.size(elem, loc)?, self.known_const(i)) {
            // A constant index (an unrolled window's `w[7]`) is a constant offset.
            (Size::Const(sz), Some(c)) => self.iconst(c.wrapping_mul(sz as i64) as u64),
            (Size::Const(sz), None) => self.b.ins().imul_imm_s(i, sz as i64),
            (Size::Dyn(sz), _) => self.b.ins().imul(i, sz),
        })
    }

    // -----------------------------------------------------------------------------------------
    // Memory.

    /// Load a scalar of kind `k` at the pointer word `ptr`, computed from the pointer `root` (see
    /// [`Translator::in_place`]): the fast path in place, the checked slow path through the
    /// interpreter's access.
    pub(super) fn load(&mut self, k: Kind, ptr: Value, root: Value, direct: Option<Value>, loc: Loc) -> R<Value> {
        let code = kind_code(k).ok_or_else(|| format!("a load of kind {k:?}"))?;
        if k == Kind::LongDouble {
            return Err("a long double in memory".into());
        }
        if let Some(bias) = direct {
            let addr = self.b.ins().iadd(ptr, bias);
            return Ok(self.load_in_place(k, addr));
        }
        let size = k.bytes();
        let (fast, slow, done) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        // A float joins the two paths as a float (the fast path's register) where that pays
        // ([`Translator::floats_join_as_floats`]), so that its word is that float's
        // (`Translator::word_as_f64`): kept across a call, it is spilled and reloaded as a
        // float, not moved to an integer register and back (`t->value` of a tree node read
        // before the calls on its children, issue 15).
        let float = match k {
            Kind::F64 if self.floats_join_as_floats() => Some(types::F64),
            Kind::F32 if self.floats_join_as_floats() => Some(types::F32),
            _ => None,
        };
        let result = self.b.append_block_param(done, float.unwrap_or(types::I64));
        let addr = self.in_place(ptr, root, size, false, fast, slow);
        self.b.switch_to_block(fast);
        let v = self.load_in_place(k, addr);
        let v = match float {
            Some(ty) => self.word_as(ty, v),
            None => v,
        };
        self.b.ins().jump(done, &[v.into()]);
        self.b.switch_to_block(slow);
        self.b.set_cold_block(slow);
        let kc = self.b.ins().iconst(types::I64, code);
        let l = self.loc(loc);
        let v = self
            .helper(Helper::Load, &[self.ctx, ptr, kc, l])
            .ok_or("no result of the load helper")?;
        self.check_trap();
        let v = match float {
            Some(ty) => self.word_as(ty, v),
            None => v,
        };
        self.b.ins().jump(done, &[v.into()]);
        self.b.switch_to_block(done);
        Ok(self.word_of(result))
    }

    /// The canonical word of kind `k` at host address `addr` (known to be in bounds).
    pub(crate) fn load_in_place(&mut self, k: Kind, addr: Value) -> Value {
        let f = notrap();
        match k {
            Kind::Bool | Kind::U8 => self.b.ins().uload8(types::I64, f, addr, 0),
            Kind::I8 => self.b.ins().sload8(types::I64, f, addr, 0),
            Kind::U16 => self.b.ins().uload16(types::I64, f, addr, 0),
            Kind::I16 => self.b.ins().sload16(types::I64, f, addr, 0),
            Kind::U32 => self.b.ins().uload32(f, addr, 0),
            Kind::I32 => self.b.ins().sload32(f, addr, 0),
            Kind::F32 => {
                let x = self.b.ins().load(types::F32, f, addr, 0);
                self.f32_as_word(x)
            }
            Kind::F64 => {
                let d = self.b.ins().load(types::F64, f, addr, 0);
                self.f64_as_word(d)
            }
            _ => self.b.ins().load(types::I64, f, addr, 0),
        }
    }

    /// Store the `size`-byte word `v` at host address `addr` (known to be in bounds).
    pub(crate) fn store_in_place(&mut self, size: u64, v: Value, addr: Value) {
        let f = notrap();
        match size {
            1 => {
                self.b.ins().istore8(f, v, addr, 0);
            }
            2 => {
                self.b.ins().istore16(f, v, addr, 0);
            }
            4 => match self.float_of_word(v) {
                // A float's word is stored from the float's register.
                Some(x) => {
                    self.b.ins().store(f, x, addr, 0);
                }
                None => {
                    self.b.ins().istore32(f, v, addr, 0);
                }
            },
            _ => {
                // A double's word is stored from the double's register.
                let v = self.double_of_word(v).unwrap_or(v);
                self.b.ins().store(f, v, addr, 0);
            }
        }
    }

    /// Store the word `v` of kind `k` at `ptr`, computed from the pointer `root`.
    pub(super) fn store(&mut self, k: Kind, ptr: Value, root: Value, v: Value, direct: Option<Value>, loc: Loc) -> R<()> {
        let code = kind_code(k).ok_or_else(|| format!("a store of kind {k:?}"))?;
        if k == Kind::LongDouble {
            return Err("a long double in memory".into());
        }
        let size = k.bytes();
        if let Some(bias) = direct {
            let addr = self.b.ins().iadd(ptr, bias);
            self.store_in_place(size, v, addr);
            return Ok(());
        }
        let (fast, slow, done) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        let addr = self.in_place(ptr, root, size, true, fast, slow);
        self.b.switch_to_block(fast);
        self.store_in_place(size, v, addr);
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(slow);
        self.b.set_cold_block(slow);
        let kc = self.b.ins().iconst(types::I64, code);
        let l = self.loc(loc);
        self.helper(Helper::Store, &[self.ctx, ptr, v, kc, l]);
        self.check_trap();
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
        Ok(())
    }

    /// Whether `size` bytes at the pointer word `ptr` are readable (`write`: writable) in place:
    /// branches to `fast` when they are, to `slow` otherwise, and returns their host address
    /// (valid in `fast`).
    ///
    /// The allocation looked up is `root`'s, the pointer `ptr` was computed from by pointer
    /// arithmetic (`root` itself for any other address): `ptr` is in place when it lies in that
    /// allocation, `ptr - (root's id << 32)` being an offset under its limit, which is exactly
    /// when its own id is `root`'s and its offset is in bounds (the condition of the
    /// interpreter's fast path). The lookup depends on `root` alone, and its loads of the span
    /// table are free to move (an id outside the table reads entry 0 and a limit of 0, so they
    /// never read outside it; the table changes only in helpers, after which native code reads
    /// its address again), so Cranelift hoists the lookup of a loop-invariant `root` out of the
    /// loop: what is left per access is a subtraction, two comparisons and the access.
    pub(super) fn in_place(&mut self, ptr: Value, root: Value, size: u64, write: bool, fast: Block, slow: Block) -> Value {
        let id = self.b.ins().ushr_imm_s(root, 32);
        let len = self.read_var(self.table_len);
        let in_table = self.b.ins().icmp(IntCC::UnsignedLessThan, id, len);
        let zero = self.iconst(0);
        let slot = self.b.ins().select(in_table, id, zero);
        let table = self.read_var(self.table);
        let at = self.b.ins().ishl_imm_s(slot, SPAN_SHIFT);
        let entry = self.b.ins().iadd(table, at);
        // Plain `load`s with these flags are pure for Cranelift's e-graph (a `uload32` is not):
        // the lookups of one `root` with the same table are one lookup, where the first
        // dominates the others (a record's members; `t->left` and `t->right` around a call of
        // a function that keeps the table, `crate::keeps_table`).
        let movable = MemFlagsData::trusted().with_readonly().with_can_move();
        let limit = self
            .b
            .ins()
            .load(types::I32, movable, entry, if write { SPAN_WRITABLE } else { SPAN_READABLE });
        // An id outside the table reads entry 0, the null allocation's (never live, so its
        // span is empty: `Memory::host_span`), whose limit of 0 sends every access to the
        // checked path.
        let limit = self.b.ins().uextend(types::I64, limit);
        let base = self.b.ins().load(types::I64, movable, entry, 0);
        let addr_block = self.b.create_block();
        let addr = match self.offset_from_root(ptr, root).filter(|&c| (0..=i64::from(i32::MAX) - size as i64).contains(&c)) {
            Some(c) => {
                // `ptr` is `root + c`: its offset in `root`'s allocation is `root`'s own (its
                // low 32 bits, `root - (id << 32)`) plus `c`, under 2^33, so `off + size` cannot wrap and
                // `off + size <= limit` alone is the check (issue 15: the members of a record
                // through one pointer share `root`'s offset; each access adds its member's).
                // The check compares host addresses, `host + c + size <= base + limit` (no sum
                // wraps: `base` is a host address, the rest under 2^34), so that the host
                // address `host` of `root` is computed in the check's block (Cranelift places
                // a pure value at its first use): it then dominates the later accesses
                // through `root`, which share it instead of loading the entry again.
                let low = self.b.ins().ireduce(types::I32, root);
                let root_off = self.b.ins().uextend(types::I64, low);
                let host = self.b.ins().iadd(base, root_off);
                let host_limit = self.b.ins().iadd(base, limit);
                let end = self.b.ins().iadd_imm_s(host, c + size as i64);
                let ok = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, host_limit);
                self.b.ins().brif(ok, addr_block, &[], slow, &[]);
                self.b.switch_to_block(addr_block);
                self.b.ins().iadd_imm_s(host, c)
            }
            None => {
                let first = self.b.ins().ishl_imm_s(id, 32);
                let off = self.b.ins().isub(ptr, first);
                let end = self.b.ins().iadd_imm_s(off, size as i64);
                // `off < limit` keeps `off + size` from wrapping around.
                let starts = self.b.ins().icmp(IntCC::UnsignedLessThan, off, limit);
                let ends = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, limit);
                let ok = self.b.ins().band(starts, ends);
                self.b.ins().brif(ok, addr_block, &[], slow, &[]);
                self.b.switch_to_block(addr_block);
                self.b.ins().iadd(base, off)
            }
        };
        self.b.ins().jump(fast, &[]);
        addr
    }

    /// `c` when the pointer word `ptr` is `root + c` for a constant `c` (a chain of additions of
    /// constants: a member's offset, a constant index), as built by [`Translator::address`].
    fn offset_from_root(&self, ptr: Value, root: Value) -> Option<i64> {
        use cranelift_codegen::ir::{InstructionData, Opcode, ValueDef};
        if ptr == root {
            return Some(0);
        }
        let ValueDef::Result(inst, 0) = self.b.func.dfg.value_def(ptr) else { return None };
        match self.b.func.dfg.insts[inst] {
            InstructionData::Binary { opcode: Opcode::Iadd, args: [a, b] } => {
                let c = self.known_const(b)?;
                self.offset_from_root(a, root)?.checked_add(c)
            }
            _ => None,
        }
    }

    /// The value of the address expression `e` and the pointer it is computed from by pointer
    /// arithmetic (the innermost operand of its chain of `+`, looking through conversions that
    /// keep the word, such as `(char *)`; `e`'s value when it is not a sum), evaluated in the
    /// order of [`Translator::expr`]. A member `t->m` is `(M *)((char *)t + offset)`
    /// (`offset_address` in core's lowering): its root is `t`, so that the accesses of one
    /// record's members look up one span-table entry (issue 15: `t->value`, `t->left` and
    /// `t->right` of a tree node were three lookups).
    pub(super) fn address(&mut self, e: &Expr) -> R<(Value, Value)> {
        match &e.kind {
            ExprKind::PtrAdd { ptr, index, elem } => {
                let (p, root) = self.address(ptr)?;
                let i = self.expr(index)?;
                let off = self.scaled(i, *elem, e.loc)?;
                Ok((self.b.ins().iadd(p, off), root))
            }
            // The conversion of a word to its own kind is the word (`Translator::cast`).
            ExprKind::Cast(x) if self.kind(x.ty) == self.kind(e.ty) => self.address(x),
            _ => {
                let v = self.expr(e)?;
                Ok((v, v))
            }
        }
    }

    /// The host address of an access checked at loop entry ([`crate::loops`]): the value of
    /// the address expression `e` plus the `bias` from pointer word to host address, the bias
    /// added to the innermost operand of `e`'s chain of pointer additions (the same wrapping
    /// sum as adding it last, the operands evaluated in the same order), so that the host
    /// address of a loop-invariant base is itself loop-invariant and Cranelift computes it
    /// once, before the loop: the loop then keeps one host base per stream in a register
    /// rather than a pointer word and a bias.
    pub(crate) fn direct_address(&mut self, e: &Expr, bias: Value) -> R<Value> {
        match &e.kind {
            ExprKind::PtrAdd { ptr, index, elem } => {
                let p = self.direct_address(ptr, bias)?;
                let i = self.expr(index)?;
                let off = self.scaled(i, *elem, e.loc)?;
                Ok(self.b.ins().iadd(p, off))
            }
            _ => {
                let v = self.expr(e)?;
                Ok(self.b.ins().iadd(v, bias))
            }
        }
    }

    /// The bias of an address that is already a host address ([`Translator::direct_address`]).
    pub(super) fn zero_bias(&mut self) -> Value {
        self.iconst(0)
    }

    /// The Cranelift variable of local `l`: its value for a register local, its address for a
    /// memory local.
    pub(super) fn var(&self, l: LocalId) -> R<Variable> {
        self.vars.get(l.0 as usize).copied().ok_or_else(|| "internal: unknown local".into())
    }

    pub(super) fn is_memory(&self, l: LocalId) -> bool {
        self.in_memory.get(l.0 as usize).copied().unwrap_or(false)
    }

    /// The value of local `l` (a memory local's is loaded; an aggregate's is its address, as
    /// the interpreter's `local_value`).
    pub(super) fn local_value(&mut self, l: LocalId, loc: Loc) -> R<Value> {
        let v = self.var(l)?;
        let a = self.read_var(v);
        if !self.is_memory(l) {
            return Ok(self.word_of(a));
        }
        let ty = self
            .func
            .locals
            .get(l.0 as usize)
            .ok_or("internal: unknown local")?
            .ty;
        let k = self.kind(ty);
        if matches!(k, Kind::Aggregate | Kind::Void) {
            return Ok(a);
        }
        let direct = self.direct_locals.get(&l.0).copied();
        self.load(k, a, a, direct, loc)
    }

    /// Where an assignable place lives: its register variable, or memory at its address
    /// (computed once, for a read-modify-write).
    pub(super) fn slot(&mut self, place: &Place) -> R<Slot> {
        Ok(match place {
            Place::Local(l) if self.is_memory(*l) => {
                let v = self.var(*l)?;
                let a = self.read_var(v);
                Slot::Mem(a, a, self.direct_locals.get(&l.0).copied())
            }
            Place::Local(l) => Slot::Var(self.var(*l)?, l.0 as usize),
            Place::Mem(e) if self.held.contains_key(&(&**e as *const Expr)) => {
                let (var, k) = self.held[&(&**e as *const Expr)];
                Slot::Held(var, k)
            }
            Place::Mem(e) => match self.direct.get(&(&**e as *const Expr)).copied() {
                Some(bias) => {
                    let host = match self.stream_address(e)? {
                        Some((base, offset)) => self.b.ins().iadd_imm_s(base, i64::from(offset)),
                        None => self.direct_address(e, bias)?,
                    };
                    let zero = self.zero_bias();
                    Slot::Mem(host, host, Some(zero))
                }
                None => {
                    let (a, root) = self.place_addr(place)?;
                    Slot::Mem(a, root, None)
                }
            },
        })
    }

    pub(super) fn read_slot(&mut self, k: Kind, slot: Slot, loc: Loc) -> R<Value> {
        match slot {
            Slot::Var(v, _) => {
                let x = self.read_var(v);
                Ok(self.word_of(x))
            }
            Slot::Held(v, _) => {
                let x = self.b.use_var(v);
                Ok(self.word_of(x))
            }
            Slot::Mem(a, root, direct) => self.load(k, a, root, direct, loc),
        }
    }

    pub(super) fn write_slot(&mut self, k: Kind, slot: Slot, value: Value, loc: Loc) -> R<()> {
        match slot {
            Slot::Var(v, i) => {
                self.frozen.remove(&v.index());
                let value = self.word_for_local(i, value);
                self.b.def_var(v, value);
                Ok(())
            }
            Slot::Held(v, held_kind) => {
                // An assignment's value is the place kind's canonical word: what a store and
                // a load of the element give back.
                let value = self.word_as(crate::invariant::held_type(held_kind), value);
                self.b.def_var(v, value);
                Ok(())
            }
            Slot::Mem(a, root, direct) => self.store(k, a, root, value, direct, loc),
        }
    }

    /// The address a memory place denotes, and the pointer it is computed from
    /// ([`Translator::address`]).
    fn place_addr(&mut self, place: &Place) -> R<(Value, Value)> {
        match place {
            Place::Mem(a) => self.address(a),
            Place::Local(_) => Err("internal: a register place has no address".into()),
        }
    }
}
