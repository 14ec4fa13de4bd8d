//! Coherence of host and device copies (§1.3 "separate memories", §2.6 data environment,
//! §2.10.1 `update`): the missing-`update` checker.
//!
//! **Rule.** With separate memories, a mapped variable has two copies, and only the data
//! clauses and `update` make them agree. A read must see the newest value the program wrote:
//! - `stale-host-read`: the host reads bytes whose newest value was written by the device and
//!   not yet copied back (`update host`, copy-out), or whose device copy was released without a
//!   copy-out after the device wrote it (`copyin` where `copy` was meant);
//! - `stale-device-read`: device code reads bytes the host wrote after they were last copied
//!   to the device (missing `update device`);
//! - `uninit-device-read`: device code reads bytes of a device copy that was created without
//!   the host values (`create`, `copyout`) and never written on the device;
//! - `redundant-transfer` (note): a copy-in whose data the device never read, or a copy-out of
//!   data the device never wrote, during that lifetime of the device copy.
//!
//! **State.** Per host allocation that was ever mapped, a 32-bit cell per byte: which copy
//! is newest (in sync, host, device, device never written, device result discarded) and the
//! interned site of the write that made it so (source location, gang, kernel), kept as runs of
//! equal cells ([`super::runs::Runs`]; "in sync" is not stored). Device copies mirror host
//! offsets (`exec::openacc`), so a device byte and its host byte share a cell; a table maps
//! device blocks to their host allocation. Transfers set the cells they copy to "in sync";
//! accesses look up and update the cells they touch.
//!
//! **Cost.** One run per stretch of bytes last written by one site (one gang of one kernel, or
//! one host statement): a whole-array transfer or a gang's block of a kernel is one run.
//! O(log runs) per access, transfer and release.
//!
//! **False positives: none by design.** A state is only entered through an event the program
//! caused, and every transfer or overwrite clears it. Data the checker cannot follow is left
//! alone (its cells stay "in sync"): copies the runtime makes itself (reduction results,
//! private copies), `acc_map_data` blocks, and the C library's reads and writes (`memcpy`,
//! `fread` into mapped data) — so it can *miss* a stale read through those.

use std::collections::HashMap;
use std::ops::Range;

use accsim_core::diag::{Diagnostic, Loc, Severity};
use accsim_core::finding::FindingKind;
use accsim_core::exec::check::Access;
use accsim_core::exec::events::Event;
use accsim_core::kernel::footprint::WriteRun;

use super::report::{element, finding};
use super::runs::Runs;
use super::{DeviceLoc, Kernel, Thread};

/// Which copy of a byte is newest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Both copies agree, or there is no device copy (or nothing is known).
    Synced = 0,
    /// The host wrote it after the last transfer.
    HostNewer = 1,
    /// The device wrote it after the last transfer.
    DeviceNewer = 2,
    /// The device copy was created without the host values and not written since.
    DeviceUninit = 3,
    /// The device wrote it, then its copy was released without a copy-out.
    Discarded = 4,
}

/// The state is the top three bits of a cell: its [`super::runs::class`].
const STATE_SHIFT: u32 = 29;
const SITE_MASK: u32 = (1 << STATE_SHIFT) - 1;

fn cell(state: State, site: u32) -> u32 {
    ((state as u32) << STATE_SHIFT) | (site & SITE_MASK)
}

fn state_of(c: u32) -> State {
    match c >> STATE_SHIFT {
        1 => State::HostNewer,
        2 => State::DeviceNewer,
        3 => State::DeviceUninit,
        4 => State::Discarded,
        _ => State::Synced,
    }
}

/// Which copy of mapped bytes holds their newest value ([`Coherence::newest`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Newest {
    /// Both copies agree (or the bytes have no device copy).
    InSync,
    /// The host wrote them after the last transfer.
    Host,
    /// The device wrote them after the last transfer.
    Device,
    /// The device copy was created without the host values and not written since.
    DeviceUninitialised,
    /// The device wrote them, then its copy was released without a copy-out.
    Discarded,
}

/// Where a copy was last written (or created, or discarded).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Site {
    loc: Loc,
    /// The device thread's gang and its kernel, for device writes.
    gang: Option<(u32, Loc)>,
    /// Where the device copy was released (for discarded results).
    released: Option<Loc>,
}

/// One lifetime of a device copy of part of a host allocation.
#[derive(Debug)]
struct Mapping {
    range: Range<u32>,
    device: u32,
    name: String,
    /// The copy-in made when the device copy was created.
    copied_in: Option<Loc>,
    /// The last copy-out.
    copied_out: Option<Loc>,
    device_read: bool,
    device_written: bool,
}

#[derive(Default, Debug)]
struct HostShadow {
    cells: Runs,
    maps: Vec<Mapping>,
}

impl Mapping {
    /// Does this lifetime's range share a byte with `r`?
    fn overlaps(&self, r: &Range<u32>) -> bool {
        self.range.start < r.end && r.start < self.range.end
    }
}

impl HostShadow {
    fn mapping_mut(&mut self, off: u32) -> Option<&mut Mapping> {
        self.maps.iter_mut().find(|m| m.range.contains(&off))
    }
}

#[derive(Default)]
pub struct Coherence {
    /// By host allocation id.
    hosts: Vec<Option<Box<HostShadow>>>,
    /// Device allocation id → host allocation id, for live device copies.
    dev_to_host: HashMap<u32, u32>,
    sites: Vec<Site>,
    site_ids: rustc_hash::FxHashMap<Site, u32>,
    /// The site interned last (host statements and device writes repeat it).
    last_site: Option<(Site, u32)>,
    /// Names and mapped lengths of data by host allocation (kept after release, for messages).
    names: HashMap<u32, String>,
    lens: HashMap<u32, u64>,
}

fn off_range(addr: u64, len: u64) -> Range<u32> {
    let s = addr as u32;
    s..s.saturating_add(len.min(u32::MAX as u64) as u32)
}

impl Coherence {
    /// The host allocation a device block is the copy of.
    pub fn host_of(&self, dev: u32) -> Option<u32> {
        self.dev_to_host.get(&dev).copied()
    }

    /// Does host allocation `id` have a live device copy?
    pub fn is_mapped(&self, id: u32) -> bool {
        self.shadow(id).is_some_and(|s| !s.maps.is_empty())
    }

    /// Whether a host access of allocation `id` can find something or change what a later access
    /// finds ([`Coherence::host_access`]): it has a device copy, or bytes whose state is not "in
    /// sync" (a newer value on the host or the device, a discarded device result). Only a data
    /// event makes an allocation so (a device write needs a device copy).
    pub fn follows_host(&self, id: u32) -> bool {
        self.shadow(id).is_some_and(|s| !s.maps.is_empty() || !s.cells.is_empty())
    }

    /// The variable name of host allocation `id`, if it was ever mapped.
    pub fn name_of(&self, id: u32) -> Option<&str> {
        self.names.get(&id).map(String::as_str)
    }

    fn shadow(&self, id: u32) -> Option<&HostShadow> {
        self.hosts.get(id as usize).and_then(|s| s.as_deref())
    }

    fn shadow_mut(&mut self, id: u32) -> &mut HostShadow {
        let i = id as usize;
        if self.hosts.len() <= i {
            self.hosts.resize_with(i + 1, || None);
        }
        self.hosts[i].get_or_insert_with(Default::default)
    }

    fn site(&mut self, s: Site) -> u32 {
        if let Some((last, i)) = self.last_site {
            if last == s {
                return i;
            }
        }
        let i = match self.site_ids.get(&s) {
            Some(&i) => i,
            None => {
                let i = self.sites.len() as u32 & SITE_MASK;
                self.sites.push(s);
                self.site_ids.insert(s, i);
                i
            }
        };
        self.last_site = Some((s, i));
        i
    }

    fn site_of(&self, c: u32) -> Option<Site> {
        self.sites.get((c & SITE_MASK) as usize).copied()
    }

    /// Do the host bytes `addr..addr+len` of host allocation `id` hold what their device copy
    /// holds (no write on either side since the last transfer)? A copy to the host of them then
    /// stores the bytes that are already there.
    pub fn in_sync(&self, id: u32, addr: u64, len: u64) -> bool {
        self.shadow(id).is_none_or(|sh| sh.cells.find(off_range(addr, len), |c| state_of(c) != State::Synced).is_none())
    }

    /// Which copy of the host bytes `addr..addr+len` is newest, as this model knows it (the
    /// first byte that is not in sync decides): what a tool shows while the run pauses (the
    /// GUI's memory panel colours each element by it).
    pub fn newest(&self, addr: u64, len: u64) -> Newest {
        let cell = self.shadow((addr >> 32) as u32).and_then(|sh| sh.cells.find(off_range(addr, len), |c| state_of(c) != State::Synced));
        match cell.map(state_of) {
            None | Some(State::Synced) => Newest::InSync,
            Some(State::HostNewer) => Newest::Host,
            Some(State::DeviceNewer) => Newest::Device,
            Some(State::DeviceUninit) => Newest::DeviceUninitialised,
            Some(State::Discarded) => Newest::Discarded,
        }
    }

    /// Does an access of `size` bytes cover all of host allocation `id`'s mapped data?
    pub fn whole(&self, id: u32, size: u64) -> bool {
        self.lens.get(&id).is_none_or(|&l| l <= size)
    }

    fn describe(&self, id: u32, off: u32, size: u64) -> String {
        let name = self.names.get(&id).map(String::as_str).unwrap_or("");
        element(name, off, size, self.whole(id, size))
    }

    /// A host load or store of host allocation `id`.
    pub fn host_access(&mut self, id: u32, a: &Access, found: &mut Vec<Diagnostic>) {
        let Some(sh) = self.hosts.get(id as usize).and_then(|s| s.as_deref()) else { return };
        let r = off_range(a.addr, a.size);
        if !a.write {
            let newer = |c| matches!(state_of(c), State::DeviceNewer | State::Discarded);
            if !sh.cells.has_class(State::DeviceNewer as usize) && !sh.cells.has_class(State::Discarded as usize) {
                return;
            }
            let Some(bad) = sh.cells.find(r.clone(), newer) else { return };
            let Some(site) = self.site_of(bad) else { return };
            let what = self.describe(id, r.start, a.size);
            let name = self.names.get(&id).cloned().unwrap_or_default();
            let mut d;
            if state_of(bad) == State::Discarded {
                d = finding(FindingKind::StaleHostRead, Severity::Error, format!("the host reads {what}, but its newest value was written on the device and discarded: the device copy was released without a copy-out"), a.loc);
                d = d.with_related(site.loc, device_write_note(&site));
                if let Some(rel) = site.released {
                    d = d.with_related(rel, format!("the device copy of `{name}` was released here without being copied out"));
                }
                d = d.with_help(format!("map `{name}` with `copy` or `copyout` instead of `copyin`/`create`, or add `#pragma acc update host({name})` before the end of its data lifetime (§2.6.5, §2.10.1)"));
            } else {
                d = finding(FindingKind::StaleHostRead, Severity::Error, format!("the host reads {what}, but its newest value is on the device (no `update host` or copy-out since the device wrote it)"), a.loc);
                d = d.with_related(site.loc, device_write_note(&site));
                if let Some((_, k)) = site.gang {
                    d = d.with_related(k, format!("no `update host({name})` between this kernel and the host read"));
                }
                d = d.with_help(format!("add `#pragma acc update host({name})` after the kernel, before the host reads it (§2.10.1)"));
            }
            found.push(d);
            return;
        }
        // A host write: the host copy becomes the newest where a device copy exists.
        let newer = if sh.maps.iter().any(|m| m.overlaps(&r)) {
            Some(self.site(Site { loc: a.loc, gang: None, released: None }))
        } else {
            None
        };
        let sh = self.shadow_mut(id);
        if let Some(s) = newer.filter(|_| sh.maps.iter().any(|m| m.range.start <= r.start && r.end <= m.range.end)) {
            // Inside one device copy (the common case): one fill.
            sh.cells.fill(r, cell(State::HostNewer, s));
            return;
        }
        sh.cells.fill(r.clone(), 0);
        let Some(s) = newer else { return };
        for i in 0..sh.maps.len() {
            let m = &sh.maps[i].range;
            let both = r.start.max(m.start)..r.end.min(m.end);
            sh.cells.fill(both, cell(State::HostNewer, s));
        }
    }

    /// A load or store by device code of device location `at`.
    pub fn device_access(&mut self, at: DeviceLoc, a: &Access, t: &Thread, k: &Kernel, found: &mut Vec<Diagnostic>) {
        let Some(hid) = at.host else { return };
        let r = at.offset..at.offset.saturating_add(a.size as u32);
        let Some(sh) = self.hosts.get(hid as usize).and_then(|s| s.as_deref()) else { return };
        if !a.write {
            let bad = if sh.cells.has_class(State::HostNewer as usize) || sh.cells.has_class(State::DeviceUninit as usize) {
                sh.cells.find(r.clone(), |c| matches!(state_of(c), State::HostNewer | State::DeviceUninit))
            } else {
                None
            };
            if sh.maps.iter().any(|m| m.range.contains(&r.start) && !m.device_read) {
                if let Some(m) = self.shadow_mut(hid).mapping_mut(r.start) {
                    m.device_read = true;
                }
            }
            let Some(bad) = bad else { return };
            let Some(site) = self.site_of(bad) else { return };
            let what = self.describe(hid, r.start, a.size);
            let name = self.names.get(&hid).cloned().unwrap_or_default();
            let who = t.describe();
            let d = if state_of(bad) == State::HostNewer {
                finding(FindingKind::StaleDeviceRead, Severity::Error, format!("device code ({who}) reads {what}, but its newest value is on the host (no `update device` since the host wrote it)"), a.loc)
                    .with_related(site.loc, "the host copy was last written here")
                    .with_related(k.loc, format!("no `update device({name})` between the host write and this kernel"))
                    .with_help(format!("add `#pragma acc update device({name})` after the host writes it (§2.10.1)"))
            } else {
                finding(FindingKind::UninitDeviceRead, Severity::Error, format!("device code ({who}) reads {what}, which was never written on the device: its device copy was created without the host values"), a.loc)
                    .with_related(site.loc, format!("the device copy of `{name}` was created here (`create`/`copyout` copy nothing in)"))
                    .with_help(format!("use `copyin({name})` or `copy({name})` if the device needs the host values, or write them on the device first (§2.6.5)"))
            };
            found.push(d);
            return;
        }
        let s = self.site(Site { loc: a.loc, gang: Some((t.gang, k.loc)), released: None });
        let sh = self.shadow_mut(hid);
        if let Some(m) = sh.mapping_mut(r.start) {
            m.device_written = true;
        }
        sh.cells.fill(r, cell(State::DeviceNewer, s));
    }

    /// A kernel proven race-free at its launch (`accsim_core::kernel::footprint`) reads the
    /// bytes `reads` (host allocation, offsets, whether the site surely runs, whether the kernel
    /// wrote every byte of it first, in the reading thread) and writes the runs
    /// `writes` (host allocation, offsets, site, gang), in program order. If no read can find
    /// anything — the bytes hold no newer host value and no uninitialised device value — apply
    /// what the accesses would have done to the state and answer `true`; otherwise change
    /// nothing and answer `false` (the kernel is then checked access by access).
    ///
    /// What the per-access path would do, exactly: a read marks its mapping read on the device
    /// (a site that may not run is accepted only when that changes nothing); a write makes its
    /// bytes the device's newest, written by its site and gang, and marks its mapping written.
    ///
    /// A read's hull `r` may cover bytes the site never reads (the border columns of a
    /// stencil's rows, left uninitialised in a `create`d array): when the hull holds such a
    /// byte, `exact(i)` lists read `i`'s bytes run by run, and the kernel is refused only when
    /// one of those holds one (`None`: they cannot be listed, refuse).
    ///
    /// `writes`: per write site, the host allocation its device block copies, its location and
    /// its runs (device addresses, whose offsets are the host's) with the writing gang.
    pub fn proven_launch(&mut self, reads: &[(u32, Range<u32>, bool, bool)], exact: &dyn Fn(usize) -> Option<Vec<Range<u32>>>, writes: &[(u32, Loc, &[WriteRun])], k: &Kernel) -> bool {
        for (i, (hid, r, executed, written_first)) in reads.iter().enumerate() {
            let Some(sh) = self.shadow(*hid) else { continue };
            let stale = |r: Range<u32>| sh.cells.find(r, |c| matches!(state_of(c), State::HostNewer | State::DeviceUninit)).is_some();
            if !written_first && (sh.cells.has_class(State::HostNewer as usize) || sh.cells.has_class(State::DeviceUninit as usize)) && stale(r.clone()) {
                match exact(i) {
                    Some(runs) if !runs.iter().any(|r| stale(r.clone())) => {}
                    _ => return false,
                }
            }
            if !executed && sh.maps.iter().any(|m| m.overlaps(r) && !m.device_read) {
                return false;
            }
        }
        for (hid, r, executed, _) in reads {
            if !executed || self.shadow(*hid).is_none() {
                continue;
            }
            for m in self.shadow_mut(*hid).maps.iter_mut().filter(|m| m.overlaps(r)) {
                m.device_read = true;
            }
        }
        // A strided run's pieces one by one (device addresses; the low half is the offset).
        let pieces = writes.iter().flat_map(|(hid, loc, runs)| runs.iter().flat_map(move |run| run.pieces().map(move |p| (*hid, p.start as u32..(p.start as u32).saturating_add((p.end - p.start) as u32), *loc, run.gang))));
        self.device_writes(pieces, k);
        true
    }

    /// What the atomic counter updates of a proven kernel wrote, known once it ran: per run, the
    /// host allocation, the offsets, the update's site and the gang that wrote it last.
    pub fn proven_atomic_writes(&mut self, writes: &[(u32, Range<u32>, Loc, u32)], k: &Kernel) {
        self.device_writes(writes.iter().cloned(), k);
    }

    /// Device writes of a proven kernel: (host allocation, offsets, site, gang).
    fn device_writes(&mut self, writes: impl Iterator<Item = (u32, Range<u32>, Loc, u32)>, k: &Kernel) {
        // Runs alternate between a few sites (a site × the gangs): intern each once.
        let mut interned: rustc_hash::FxHashMap<(Loc, u32), u32> = Default::default();
        for (hid, r, loc, gang) in writes {
            if self.shadow(hid).is_none() {
                continue;
            }
            let s = match interned.get(&(loc, gang)) {
                Some(&s) => s,
                None => {
                    let s = self.site(Site { loc, gang: Some((gang, k.loc)), released: None });
                    interned.insert((loc, gang), s);
                    s
                }
            };
            let sh = self.shadow_mut(hid);
            for m in sh.maps.iter_mut().filter(|m| m.overlaps(&r)) {
                m.device_written = true;
            }
            sh.cells.fill(r, cell(State::DeviceNewer, s));
        }
    }

    /// A data-environment event.
    pub fn data(&mut self, _queue: Option<i64>, e: &Event<'_>, found: &mut Vec<Diagnostic>) {
        match e {
            Event::Created { host, device, var: name, loc, .. } => {
                let hid = (host.start >> 32) as u32;
                let r = off_range(host.start, host.end - host.start);
                self.dev_to_host.insert((device >> 32) as u32, hid);
                self.names.insert(hid, name.to_string());
                self.lens.insert(hid, host.end - host.start);
                let s = self.site(Site { loc: *loc, gang: None, released: None });
                let sh = self.shadow_mut(hid);
                sh.cells.fill(r.clone(), cell(State::DeviceUninit, s));
                sh.maps.push(Mapping {
                    range: r,
                    device: (device >> 32) as u32,
                    name: name.to_string(),
                    copied_in: None,
                    copied_out: None,
                    device_read: false,
                    device_written: false,
                });
            }
            Event::Upload { device, host, len, loc, .. } => {
                let hid = (host >> 32) as u32;
                if self.dev_to_host.get(&((device >> 32) as u32)) != Some(&hid) {
                    // Bytes from elsewhere written into a device copy (`acc_memcpy_to_device`,
                    // §3.2.26): the device copy is written, and now newer than its host copy.
                    if let Some(mirror) = self.host_of((device >> 32) as u32) {
                        let s = self.site(Site { loc: *loc, gang: None, released: None });
                        let r = off_range(*device, *len);
                        let sh = self.shadow_mut(mirror);
                        if let Some(m) = sh.mapping_mut(r.start) {
                            m.device_written = true;
                        }
                        sh.cells.fill(r, cell(State::DeviceNewer, s));
                    }
                    return;
                }
                let r = off_range(*host, *len);
                let sh = self.shadow_mut(hid);
                sh.cells.fill(r.clone(), 0);
                if let Some(m) = sh.mapping_mut(r.start) {
                    if m.copied_in.is_none() && !m.device_read && !m.device_written && m.range == r {
                        m.copied_in = Some(*loc);
                    }
                }
            }
            Event::Download { host, device, len, loc, .. } => {
                let hid = (host >> 32) as u32;
                if self.dev_to_host.get(&((device >> 32) as u32)) != Some(&hid) {
                    return;
                }
                let r = off_range(*host, *len);
                let sh = self.shadow_mut(hid);
                sh.cells.fill(r.clone(), 0);
                if let Some(m) = sh.mapping_mut(r.start) {
                    m.copied_out = Some(*loc);
                }
            }
            Event::PointerAttached { device, .. } => {
                if let Some(hid) = self.host_of((device >> 32) as u32) {
                    let r = off_range(*device, 8);
                    self.shadow_mut(hid).cells.fill(r, 0);
                }
            }
            Event::Released { host, device, loc, .. } => {
                let hid = (host.start >> 32) as u32;
                let dev = (device >> 32) as u32;
                self.dev_to_host.remove(&dev);
                let r = off_range(host.start, host.end - host.start);
                let sh = self.shadow_mut(hid);
                let Some(i) = sh.maps.iter().position(|m| m.device == dev) else { return };
                let m = sh.maps.remove(i);
                let old: Vec<(Range<u32>, u32)> = sh.cells.iter(r.clone()).collect();
                let mut new = Vec::with_capacity(old.len());
                for (c, v) in old {
                    // Device results become discarded ones (same write site, plus the release);
                    // everything else is in sync again.
                    let v = match state_of(v) {
                        State::DeviceNewer => match self.site_of(v) {
                            Some(s) => cell(State::Discarded, self.site(Site { released: Some(*loc), ..s })),
                            None => v,
                        },
                        State::Discarded => v,
                        _ => 0,
                    };
                    new.push((c, v));
                }
                let sh = self.shadow_mut(hid);
                sh.cells.fill(r, 0);
                for (c, v) in new {
                    sh.cells.fill(c, v);
                }
                let name = m.name.clone();
                if let Some(at) = m.copied_in.filter(|_| !m.device_read) {
                    found.push(
                        finding(FindingKind::RedundantTransfer, Severity::Note, format!("`{name}` is copied to the device, but device code never reads it"), at)
                            .with_related(*loc, "its device copy is released here")
                            .with_help(format!("`create({name})` (or `copyout`) allocates it without the transfer")),
                    );
                }
                if let Some(at) = m.copied_out.filter(|_| !m.device_written) {
                    found.push(
                        finding(FindingKind::RedundantTransfer, Severity::Note, format!("`{name}` is copied back to the host, but device code never writes it"), at)
                            .with_help(format!("`copyin({name})` (or `create`) does not copy it back")),
                    );
                }
            }
            _ => {}
        }
    }
}

fn device_write_note(site: &Site) -> String {
    match site.gang {
        Some((g, k)) => format!("the device copy was last written here, by gang {g} in the kernel at line {}", k.line),
        None => "the device copy was last written here".to_string(),
    }
}
