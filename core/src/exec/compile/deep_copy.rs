//! Cray CCE's `deep_copy` (seeds/003, the CCE man page, `-h acc_model` option set 3: "Look
//! inside of derived type objects and recreate the derived type on the accelerator recursively.
//! A derived type object that contains an allocatable member will have memory allocated on the
//! device for the member"), in accsim's C reading ([`crate::dialect::cray`]): a data clause on a
//! struct (or an array of structs) with pointer members also maps, with the same clause, the
//! heap or stack block each non-null pointer member points into (from the pointer to the
//! block's end: C does not say how many elements a member points to, the allocation does), and
//! attaches the member of the device copy to it; recursively, to [`MAX_DEPTH`] levels. When
//! the data leaves, each device member gets its host pointer back first (a detach), so that the
//! struct copied home keeps its host pointers. Without `deep_copy` (CCE's default) the device
//! struct holds the host's pointers, and device code that follows one is reported.
//!
//! `update host(s)` / `update device(s)` of such a struct ([`deep_update`]) follow the members
//! the same way: the struct's bytes move, each side keeps its own pointers (the host struct its
//! host pointers, the device struct the device copies' addresses), and what each member points
//! to is updated in the same direction, recursively.
//!
//! A member that points outside any live host allocation (a dangling or integer-made pointer)
//! is left as it is.

use std::sync::Arc;

use crate::data::present::{DataLifetime, Presence};
use crate::exec::machine::{Machine, Trap};
use crate::exec::memory::{AllocId, Space};
use crate::exec::openacc::{self as rt, HostRange};
use crate::ir::acc::DataClause;
use crate::ir::types::{Type, TypeId, TypeTable};

/// How deep `deep_copy` follows pointer members (a linked list is followed this far).
pub const MAX_DEPTH: usize = 8;

/// Elements examined per mapped range (a bound on the work of one clause).
const MAX_ELEMENTS: u64 = 1 << 20;

/// The pointer members of an element type, and what each points to.
#[derive(Debug)]
pub struct DeepLayout {
    /// Bytes per element (a struct's size).
    elem_size: u64,
    /// (byte offset in the element, member name, the pointee's layout: `None` when it has no
    /// pointer members of its own).
    pointers: Vec<(u64, String, Option<Arc<DeepLayout>>)>,
}

impl DeepLayout {
    /// The layout of the data a clause on a variable of type `ty` maps: a struct, an array of
    /// structs, or what a pointer named whole points to. `None` without pointer members.
    pub fn of_data(t: &TypeTable, ty: TypeId) -> Option<Arc<DeepLayout>> {
        let mut ty = ty;
        while let Type::Array(e, _) | Type::Vla(e, _) | Type::Pointer(e) = t.get(ty) {
            ty = *e;
        }
        Self::of_element(t, ty, 0)
    }

    fn of_element(t: &TypeTable, ty: TypeId, depth: usize) -> Option<Arc<DeepLayout>> {
        let Type::Record(r) = t.get(ty) else { return None };
        let rec = t.record(*r);
        if rec.is_union || !rec.complete || depth >= MAX_DEPTH {
            return None;
        }
        let mut pointers = Vec::new();
        Self::collect(t, ty, 0, "", depth, &mut pointers);
        (!pointers.is_empty()).then(|| Arc::new(DeepLayout { elem_size: rec.size, pointers }))
    }

    /// The pointer members of record `ty` at `base` (nested struct members included).
    fn collect(t: &TypeTable, ty: TypeId, base: u64, prefix: &str, depth: usize, out: &mut Vec<(u64, String, Option<Arc<DeepLayout>>)>) {
        let Type::Record(r) = t.get(ty) else { return };
        for m in &t.record(*r).members {
            let name = format!("{prefix}{}", m.name.as_deref().unwrap_or(""));
            match t.get(m.ty) {
                Type::Pointer(p) if !matches!(t.get(*p), Type::Function(_)) => {
                    out.push((base + m.offset, name, Self::of_element(t, *p, depth + 1)));
                }
                Type::Record(_) if m.bits.is_none() => Self::collect(t, m.ty, base + m.offset, &format!("{name}."), depth, out),
                _ => {}
            }
        }
    }
}

/// The host block `target` points into, from `target` to its end, if it is a live host
/// allocation.
fn pointee_extent(m: &Machine, target: u64) -> Option<u64> {
    let a = m.mem.allocation(AllocId((target >> 32) as u32))?;
    let offset = target & 0xffff_ffff;
    (a.live && a.space == Space::Host && offset < a.size()).then(|| a.size() - offset)
}

/// The element addresses of `range` and their names (`s`, `s[3]`).
fn elements(layout: &DeepLayout, range: &HostRange) -> Vec<(u64, String)> {
    let len = range.range.end.saturating_sub(range.range.start);
    let count = len.checked_div(layout.elem_size).unwrap_or(0).min(MAX_ELEMENTS);
    (0..count).map(move |k| {
        let name = if count == 1 { range.name.clone() } else { format!("{}[{k}]", range.name) };
        (range.range.start + k * layout.elem_size, name)
    })
    .collect()
}

/// The variable a member's pointee belongs to, for findings: `s.data` of a whole struct `s`,
/// else (an element of a subarray, `a[0:4][1].data`) the subarray's variable `a`.
fn member_var(range: &HostRange, elem_name: &str, member: &str) -> String {
    if elem_name == range.var {
        format!("{elem_name}.{member}")
    } else {
        range.var.clone()
    }
}

/// The clause a member's pointee is mapped with: the struct's, in its present-or form. The
/// member's mapping is the deep copy's, not a clause the program wrote: a block two members
/// point to (or one the program mapped itself) is shared, as CCE's recreated object shares it,
/// even under `--strict-2.0`, where a second mapping of the struct itself is still the error
/// 2.0 makes it (§2.6.5: `copy` of present data).
fn member_clause(dc: DataClause) -> DataClause {
    match dc {
        DataClause::Copy => DataClause::PresentOrCopy,
        DataClause::CopyIn => DataClause::PresentOrCopyIn,
        DataClause::CopyOut => DataClause::PresentOrCopyOut,
        DataClause::Create => DataClause::PresentOrCreate,
        other => other,
    }
}

/// After `range` was mapped with clause `dc`: map what its pointer members point to, with the
/// same clause and lifetime, and attach the device members to the device copies.
pub fn deep_enter(m: &mut Machine, layout: &DeepLayout, range: &HostRange, dc: DataClause, lifetime: DataLifetime) -> Result<(), Trap> {
    deep_enter_at(m, layout, range, dc, lifetime, 0)
}

fn deep_enter_at(m: &mut Machine, layout: &DeepLayout, range: &HostRange, dc: DataClause, lifetime: DataLifetime, depth: usize) -> Result<(), Trap> {
    if depth >= MAX_DEPTH {
        return Ok(());
    }
    let loc = range.loc;
    for (elem, elem_name) in elements(layout, range) {
        for (offset, member, sub) in &layout.pointers {
            let slot = elem + offset;
            let target = m.mem.load_u64(slot).map_err(|f| m.fault(f, loc))?;
            let Some(extent) = pointee_extent(m, target) else { continue };
            let pointee = HostRange { range: target..target + extent, name: format!("{elem_name}.{member}"), var: member_var(range, &elem_name, member), loc };
            rt::map(m, member_clause(dc), &pointee, lifetime)?;
            if let (Some(dev_slot), Some(dev_target)) = (rt::translate(m, slot), rt::translate_pointer(m, target)) {
                rt::attach_pointer(m, dev_slot, dev_target, loc)?;
                if lifetime == DataLifetime::Structured {
                    // Detached before the construct's data leaves (the struct goes home with
                    // its host pointer).
                    rt::detach_at_region_exit(m, dev_slot, target);
                }
            }
            if let Some(sub) = sub {
                deep_enter_at(m, sub, &pointee, dc, lifetime, depth + 1)?;
            }
        }
    }
    Ok(())
}

/// Before `range` leaves with `exit data` (`copy_out`: copyout, else delete): give each
/// device member its host pointer back, and let what it points to leave the same way.
pub fn deep_exit(m: &mut Machine, layout: &DeepLayout, range: &HostRange, copy_out: bool) -> Result<(), Trap> {
    deep_exit_at(m, layout, range, copy_out, 0)
}

fn deep_exit_at(m: &mut Machine, layout: &DeepLayout, range: &HostRange, copy_out: bool, depth: usize) -> Result<(), Trap> {
    if depth >= MAX_DEPTH {
        return Ok(());
    }
    let loc = range.loc;
    for (elem, elem_name) in elements(layout, range) {
        for (offset, member, sub) in &layout.pointers {
            let slot = elem + offset;
            let target = m.mem.load_u64(slot).map_err(|f| m.fault(f, loc))?;
            let Some(extent) = pointee_extent(m, target) else { continue };
            // Only what `enter data` mapped leaves with `exit data`.
            if m.acc.present.containing(target).is_none_or(|e| e.dynamic == 0) {
                continue;
            }
            let pointee = HostRange { range: target..target + extent, name: format!("{elem_name}.{member}"), var: member_var(range, &elem_name, member), loc };
            if let Some(sub) = sub {
                deep_exit_at(m, sub, &pointee, copy_out, depth + 1)?;
            }
            if let Some(dev_slot) = rt::translate(m, slot) {
                rt::attach_pointer(m, dev_slot, target, loc)?;
            }
            rt::exit_data(m, &pointee, copy_out, false)?;
        }
    }
    Ok(())
}

/// `update host(range)` / `update device(range)` (`to_device`) under `deep_copy`: the struct's
/// bytes move, then each pointer member gets back the pointer its side holds (the host's, read
/// before the move; on the device, the address of the member's device copy), and what each
/// member points to is updated the same way, if `deep_enter` mapped it.
pub fn deep_update(m: &mut Machine, layout: &DeepLayout, range: &HostRange, to_device: bool) -> Result<(), Trap> {
    deep_update_at(m, layout, range, to_device, 0)
}

fn deep_update_at(m: &mut Machine, layout: &DeepLayout, range: &HostRange, to_device: bool, depth: usize) -> Result<(), Trap> {
    let loc = range.loc;
    // The host's pointer members, before the struct's bytes move.
    let mut members = Vec::new();
    for (elem, elem_name) in elements(layout, range) {
        for (offset, member, sub) in &layout.pointers {
            let slot = elem + offset;
            let target = m.mem.load_u64(slot).map_err(|f| m.fault(f, loc))?;
            members.push((slot, target, elem_name.clone(), member, sub));
        }
    }
    rt::update(m, range, to_device)?;
    for (slot, target, elem_name, member, sub) in members {
        if to_device {
            if let (Some(dev_slot), Some(dev_target)) = (rt::translate(m, slot), rt::translate_pointer(m, target)) {
                rt::attach_pointer(m, dev_slot, dev_target, loc)?;
            }
        } else {
            m.mem.store_u64(slot, target).map_err(|f| m.fault(f, loc))?;
        }
        let Some(extent) = pointee_extent(m, target) else { continue };
        if depth + 1 >= MAX_DEPTH || !matches!(m.acc.present.lookup(target..target + extent), Presence::Present(_)) {
            continue;
        }
        let pointee = HostRange { range: target..target + extent, name: format!("{elem_name}.{member}"), var: member_var(range, &elem_name, member), loc };
        match sub {
            Some(sub) => deep_update_at(m, sub, &pointee, to_device, depth + 1)?,
            None => rt::update(m, &pointee, to_device)?,
        }
    }
    Ok(())
}
