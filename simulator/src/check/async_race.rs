//! Races with queued work (§2.13 `async`, §2.14 `wait`, §3.2.11–§3.2.12).
//!
//! **Rule.** An operation put on activity queue `q` (`async(q)`: a transfer, a kernel, the
//! copy-out at the end of an async construct) may run at any time until the host waits for
//! `q` (`wait`, `acc_wait*`, or an `acc_async_test` that finds it idle). Until then, the host
//! — or work on another queue — touching memory that the operation reads or writes, one of the
//! two writing, is an `async-race`: the outcome depends on the schedule. Operations of one queue
//! are ordered among themselves; a queue that waits for another (`acc_wait_async(q, r)`,
//! `wait(q) async(r)`: §3.2.9, §2.13.3) orders its later work after the other's pending work,
//! but not the host's, until the host waits for it.
//!
//! **State.** Per queue, the operations issued since its last wait, each with the byte ranges
//! it reads and writes (host and device addresses): the ranges a transfer copies, the ranges
//! an async kernel's device code touched (coalesced as they are recorded).
//!
//! **Cost.** Nothing while no queue has pending work; otherwise a scan of the pending ranges
//! per host access.
//!
//! A copy to the host of bytes the device never changed (a scalar that a kernels construct
//! copies back, §2.5.2) stores what the host already holds: reading them races with nothing.
//!
//! **False positives: none** under the rule (a `wait` clause on a construct is treated as a
//! full wait, which can only hide races). **Misses:** with
//! `--schedule seed:N`, work the schedule delays is seen when it runs (at the wait), not when it
//! was issued; at most [`MAX_RANGES`] ranges are kept per kernel.

use std::collections::{BTreeMap, BTreeSet};

use accsim_core::diag::{Diagnostic, Loc, Severity};
use accsim_core::finding::FindingKind;
use accsim_core::exec::check::Access;
use accsim_core::exec::events::Event;
use accsim_core::exec::memory::Memory;

use accsim_core::dialect::cray::{queue_name, AccModel, AUTO_ASYNC_QUEUE};

use super::coherence::Coherence;
use super::report::{element, finding};

/// Ranges kept per pending kernel.
pub const MAX_RANGES: usize = 1 << 16;

#[derive(Debug)]
struct Pending {
    loc: Loc,
    what: &'static str,
    /// (start, end, writes) byte ranges of pointer words.
    ranges: Vec<(u64, u64, bool)>,
    /// Queues whose later work waits for this operation (they joined its queue after it).
    joined_by: BTreeSet<i64>,
    /// A copy to the host of bytes the host already holds (the device never wrote them): it
    /// changes nothing a reader sees, so only a host write (which it would undo) conflicts.
    same_bytes: bool,
}

impl Pending {
    fn add(&mut self, s: u64, e: u64, w: bool) {
        if let Some(last) = self.ranges.last_mut() {
            if last.2 == w && s <= last.1 && e >= last.0 {
                last.0 = last.0.min(s);
                last.1 = last.1.max(e);
                return;
            }
        }
        if self.ranges.len() < MAX_RANGES {
            self.ranges.push((s, e, w));
        }
    }
    /// Does an access of `s..e` (`w`: a write; `same`: a write of the bytes already there)
    /// conflict with this operation, and does the operation write?
    fn conflict(&self, s: u64, e: u64, w: bool, same: bool) -> Option<bool> {
        // Two accesses conflict when either changes the bytes: a write of what is already there
        // (on either side) changes nothing the other sees.
        let mine_changes = w && !same;
        self.ranges.iter().find(|r| r.0 < e && s < r.1 && (mine_changes || (r.2 && !self.same_bytes))).map(|r| r.2)
    }
}

#[derive(Default)]
pub struct AsyncRaces {
    pending: BTreeMap<i64, Vec<Pending>>,
    /// Cray's `acc_model`: what put work on the implicit queue [`AUTO_ASYNC_QUEUE`], for the
    /// findings it causes.
    model: AccModel,
}

impl AsyncRaces {
    /// The checker of a run under Cray's `acc_model` (`--acc-model`, `--cray`).
    pub fn for_acc_model(model: AccModel) -> AsyncRaces {
        AsyncRaces { model, ..Default::default() }
    }

    /// No queue has pending work.
    pub fn idle(&self) -> bool {
        self.pending.values().all(Vec::is_empty)
    }

    /// A pending operation of a queue other than `mine` that conflicts with an access.
    fn find(&self, mine: Option<i64>, s: u64, e: u64, w: bool, same: bool) -> Option<(i64, &Pending, bool)> {
        self.pending
            .iter()
            .filter(|(q, _)| Some(**q) != mine)
            .flat_map(|(q, ops)| ops.iter().map(move |p| (*q, p)))
            .filter(|(_, p)| !mine.is_some_and(|m| p.joined_by.contains(&m)))
            .find_map(|(q, p)| p.conflict(s, e, w, same).map(|pw| (q, p, pw)))
    }

    fn name(coh: &Coherence, addr: u64, size: u64) -> String {
        let id = (addr >> 32) as u32;
        let host = coh.host_of(id).unwrap_or(id);
        element(coh.name_of(host).unwrap_or(""), addr as u32, size, coh.whole(host, size))
    }

    #[allow(clippy::too_many_arguments)]
    fn report(&self, who: &str, mine: Option<i64>, (addr, size, w, same): (u64, u64, bool, bool), loc: Loc, coh: &Coherence, found: &mut Vec<Diagnostic>) {
        if let Some((q, p, pw)) = self.find(mine, addr, addr + size, w, same) {
            let what = Self::name(coh, addr, size);
            let verb = if w { "writes" } else { "reads" };
            let theirs = if pw { "writes" } else { "reads" };
            if q == AUTO_ASYNC_QUEUE {
                // No `async` clause put it there: Cray's auto-async model did (dialect::cray).
                let model = self.model.auto_async_name();
                let sync = if p.what == "kernel" { "kernels" } else { "data transfers" };
                found.push(
                    finding(
                        FindingKind::AsyncRace,
                        Severity::Error,
                        format!("{who} {verb} {what} while the {} that acc_model={model} runs asynchronously may still be running, and it {theirs} that data; there is no wait between", p.what),
                        loc,
                    )
                    .with_related(p.loc, format!("the {} was queued here on the implicit queue of acc_model={model}, which runs {sync} without an `async` clause asynchronously", p.what))
                    .with_help("add `#pragma acc wait` (or `acc_wait_all()`) before this access (§2.14), or run with `--acc-model auto_async_none`".to_string()),
                );
                return;
            }
            found.push(
                finding(
                    FindingKind::AsyncRace,
                    Severity::Error,
                    format!("{who} {verb} {what} while the {} queued on async({q}) may still be running, and it {theirs} that data; there is no wait between", p.what),
                    loc,
                )
                .with_related(p.loc, format!("the {} was queued here on async({q})", p.what))
                .with_help(format!("add `#pragma acc wait({q})` (or `acc_wait({q})`) before this access (§2.14)")),
            );
        }
    }

    #[inline(always)]
    pub fn host_access(&mut self, a: &Access, coh: &Coherence, found: &mut Vec<Diagnostic>) {
        if self.idle() {
            return;
        }
        self.report("the host", None, (a.addr, a.size, a.write, false), a.loc, coh, found);
    }

    #[inline(always)]
    pub fn device_access(&mut self, a: &Access, queue: Option<i64>, coh: &Coherence, found: &mut Vec<Diagnostic>) {
        if self.pending.is_empty() {
            // No queue has work (an async kernel's own queue has an entry while it runs).
            return;
        }
        if !self.idle() {
            // Device code of a synchronous kernel, or of another queue, touching pending data.
            let who = match queue {
                Some(q) => format!("device code on async({})", queue_name(q)),
                None => "device code".to_string(),
            };
            self.report(&who, queue, (a.addr, a.size, a.write, false), a.loc, coh, found);
        }
        if let Some(q) = queue {
            if let Some(p) = self.pending.get_mut(&q).and_then(|v| v.last_mut()) {
                p.add(a.addr, a.addr + a.size, a.write);
            }
        }
    }

    pub fn data(&mut self, _mem: &Memory, queue: Option<i64>, e: &Event<'_>, coh: &Coherence, found: &mut Vec<Diagnostic>) {
        match e {
            Event::Upload { device, host, len, loc, .. } | Event::Download { host, device, len, loc, .. } => {
                let up = matches!(e, Event::Upload { .. });
                let (src, dst) = if up { (*host, *device) } else { (*device, *host) };
                let who = match queue {
                    Some(q) => format!("the transfer on async({})", queue_name(q)),
                    None => "the host's transfer".to_string(),
                };
                let same_bytes = !up && coh.in_sync((*host >> 32) as u32, *host, *len);
                if !self.idle() {
                    self.report(&who, queue, (src, *len, false, false), *loc, coh, found);
                    self.report(&who, queue, (dst, *len, true, same_bytes), *loc, coh, found);
                }
                if let Some(q) = queue {
                    let what = if up { "copy to the device" } else { "copy to the host" };
                    let mut p = Pending { loc: *loc, what, ranges: Vec::new(), joined_by: BTreeSet::new(), same_bytes };
                    p.add(src, src + len, false);
                    p.add(dst, dst + len, true);
                    self.pending.entry(q).or_default().push(p);
                }
            }
            Event::LaunchBegin { loc, on_host: false, .. } => {
                if let Some(q) = queue {
                    self.pending.entry(q).or_default().push(Pending { loc: *loc, what: "kernel", ranges: Vec::new(), joined_by: BTreeSet::new(), same_bytes: false });
                }
            }
            Event::Waited { queue: Some(q), .. } => {
                // What `q` waited for is done too: the host's wait comes after `q`'s joins.
                self.pending.remove(q);
                for ops in self.pending.values_mut() {
                    ops.retain(|p| !p.joined_by.contains(q));
                }
                self.pending.retain(|_, ops| !ops.is_empty());
            }
            Event::QueueJoined { waiter, on, .. } => {
                // The pending work of `on` (of every other queue), and what `on` itself already
                // waits for, comes before `waiter`'s later work.
                for (q, ops) in self.pending.iter_mut() {
                    for p in ops.iter_mut() {
                        let joined = match on {
                            Some(r) => q == r || p.joined_by.contains(r),
                            None => q != waiter,
                        };
                        if joined {
                            p.joined_by.insert(*waiter);
                        }
                    }
                }
            }
            Event::Waited { queue: None, .. } => self.pending.clear(),
            _ => {}
        }
    }
}

impl super::Check for AsyncRaces {
    fn kinds(&self) -> &'static [FindingKind] {
        &[FindingKind::AsyncRace]
    }

    fn hooks(&self) -> super::Hooks {
        super::Hooks { device_access: true, host_access: true, data: true, gang_access: false }
    }

    fn device_access(&mut self, cx: &super::Context<'_>, _at: super::DeviceLoc, _private: bool, a: &Access, found: &mut Vec<Diagnostic>) {
        AsyncRaces::device_access(self, a, cx.kernel.and_then(|k| k.queue), cx.coherence, found);
    }

    fn host_access(&mut self, cx: &super::Context<'_>, a: &Access, found: &mut Vec<Diagnostic>) {
        AsyncRaces::host_access(self, a, cx.coherence, found);
    }

    fn data(&mut self, cx: &super::Context<'_>, mem: &Memory, queue: Option<i64>, e: &Event<'_>, found: &mut Vec<Diagnostic>) {
        AsyncRaces::data(self, mem, queue, e, cx.coherence, found);
    }

    /// Only while no queue has work: an asynchronous kernel's accesses are kept, as runs, and
    /// those must be exact.
    fn allows_footprint(&self) -> bool {
        self.idle()
    }

    /// While a queue has work, every host access may conflict with it.
    fn follows_all_host_accesses(&self) -> bool {
        !self.idle()
    }
}
