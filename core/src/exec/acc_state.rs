//! The OpenACC runtime's state in one run ([`AccState`]: the present table, the open
//! constructs and their releases, the queues' delayed work, the device configuration), held by
//! the machine; the runtime that changes it is [`super::openacc`].

use std::ops::Range;

use crate::data::present::PresentTable;
use crate::diag::Loc;

use super::gang::CaptureArg;

/// Launch defaults and modes (command-line flags).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceConfig {
    /// `--gangs N`: the gang count of every construct without `num_gangs`. `None`: the count
    /// follows the construct's gang loop ([`crate::kernel::gang_count`], §2.5.6).
    pub gangs: Option<u64>,
    pub workers: u64,
    pub vector_length: u64,
    /// OpenACC 2.0's strict copy semantics: mapping present data with copy/copyin/copyout/create
    /// is an error (§2.6.5 without the present-or behaviour).
    pub strict_2_0: bool,
    /// `--schedule seed:N`: delay `async` work as long as the specification allows (§2.13: until
    /// a wait on its queue), to expose missing waits. With N = 0 everything is delayed; another N
    /// seeds a choice per operation between running at once and being delayed. `None`: queued
    /// work runs when it is issued (deterministic default).
    pub schedule: Option<u64>,
    /// `accsim explore`: the sequential device runs the gangs of each launch in an order drawn
    /// from this seed (gangs are unordered, §1.2), so that a program relying on gang order
    /// (atomic slot numbers, device `printf` order) shows it. `None`: gang 0 first.
    pub gang_order: Option<u64>,
    /// `accsim explore`, `run --thread-order N`: the checking executable runs the workers of a
    /// gang and the lanes of a worker in an order drawn from this seed (they are unordered,
    /// §1.2; `exec::compile`'s `thread_order`). `None`: worker 0 and lane 0 first.
    pub thread_order: Option<u64>,
    /// Cray CCE's `-h acc_model` (`--acc-model`, `--cray`; [`crate::dialect::cray`]): which work
    /// goes on the implicit auto-async queue, 32-bit addressing, deep copy of struct members.
    pub acc_model: crate::dialect::cray::AccModel,
    /// `--cray` (or `--acc-model`): CCE's limits on values known only at launch are checked
    /// there ([`crate::dialect::cray_info`]).
    pub cray: bool,
}

impl Default for DeviceConfig {
    fn default() -> Self {
        DeviceConfig { gangs: None, workers: 1, vector_length: 32, strict_2_0: false, schedule: None, gang_order: None, thread_order: None, acc_model: Default::default(), cray: false }
    }
}

/// Work waiting on an activity queue (adversarial schedule only).
pub(crate) enum Deferred {
    Update { range: HostRange, to_device: bool },
    Launch { fid: u32, gangs: u64, workers: u64, vector: u64, caps: Vec<CaptureArg>, loc: Loc },
    RegionExit { region: Region, loc: Loc },
    /// `exit data copyout/delete … async(q)` (§2.6.4.2, §2.13.1): the copy-out and release run
    /// in order after the work queued before them, the kernel that computes the data included.
    ExitData { range: HostRange, copy_out: bool, finalize: bool },
}

/// Per-run OpenACC state.
#[derive(Default)]
pub struct AccState {
    /// PGI Accelerator 1.3 §4.3: `ACC_NOTIFY` set to a nonzero integer prints a one-line message
    /// on the program's standard output whenever a kernel is executed (read off the
    /// [`Event::Launched`] events by [`emit`], which can write into the program's output in order).
    pub pgi_notify: bool,
    /// Cray CCE's debug level and prefixes (`cray_acc_set_debug_*`, `CRAY_ACC_DEBUG`).
    pub cray_debug: std::sync::Arc<super::cray_debug::CrayDebugControl>,
    /// Model-clock nanoseconds spent in transfers and allocations so far.
    pub(crate) extra_ns: u64,
    /// Fuel at the start of the run (steps run = fuel_start - fuel).
    pub fuel_start: u64,
    /// The activity queue of the directive being executed (`async(n)`; -1 for `async`).
    pub queue: Option<i64>,
    pub present: PresentTable,
    pub config: DeviceConfig,
    pub(crate) regions: Vec<Region>,
    /// `acc_set_device_type(acc_device_host)` / `ACC_DEVICE_TYPE=host`: run compute regions on the host.
    pub on_host: bool,
    /// This state belongs to a device thread (a gang of a kernel running on the accelerator), not
    /// to the host thread: what `acc_on_device` answers there (§3.2.14).
    pub device_thread: bool,
    pub device_num: u64,
    /// A device type was selected (PGI 1.3 §3.2.3): by `acc_set_device`/`acc_init`, the
    /// environment, or the program's first accelerator region.
    pub device_selected: bool,
    /// Kernels launched so far (for `--time`-style summaries and tests).
    pub launches: u64,
    /// Work went on the implicit auto-async queue ([`crate::dialect::cray::AUTO_ASYNC_QUEUE`])
    /// since the host last waited for it.
    pub(crate) auto_async_busy: bool,
    /// Work delayed on each activity queue (adversarial schedule), in issue order.
    pub(crate) deferred: std::collections::BTreeMap<i64, Vec<Deferred>>,
    /// State of the schedule's choice generator.
    pub(crate) schedule_state: u64,
    /// Held by an `atomic` statement without a word form while it runs (word forms update `x`
    /// with a compare-and-swap instead, [`super::atomic`]); shared by all device threads of the
    /// run.
    pub atomic_lock: std::sync::Arc<std::sync::Mutex<()>>,
    /// The `atomic` statement this thread runs now (a lock-path one holds
    /// [`AccState::atomic_lock`]).
    pub atomic_held: Option<Loc>,
    /// The value of `x` an atomic word update (`exec::atomic`) captured, on its way to `v`.
    pub atomic_captured: u64,
    /// Pointers a data clause named whole whose target it could not map (extent unknown, not
    /// present): the clause mapped the 8-byte pointer alone. By the allocation the pointer
    /// pointed into: (pointer's name, clause location), for the help of a device access there.
    pub pointers_mapped_alone: std::collections::BTreeMap<u32, (String, Loc)>,
    /// Pointers that no clause names, whose target was not present at the launch of the kernel
    /// running now and was not copied implicitly ([`implicit_pointer_data`]): by the allocation
    /// they point into, why, for the help of a device access there.
    pub implicit_pointers_unmapped: std::collections::BTreeMap<u32, UnmappedPointer>,
    /// `vector_length` values CCE does not accept already reported at launch, by clause.
    pub(crate) cray_vector_warned: std::collections::BTreeSet<(Loc, u64)>,
}

/// A pointer no clause names whose target the launch did not copy ([`implicit_pointer_data`]).
#[derive(Clone, Debug)]
pub struct UnmappedPointer {
    pub name: String,
    /// The compute construct.
    pub construct: Loc,
    /// The clause that maps what the kernel accesses, when known (`copy(y[0:1000])`).
    pub accessed: Option<String>,
    /// Why nothing was copied: `--strict-2.0`, or why the range is not known.
    pub why: String,
}

#[derive(Default)]
pub(crate) struct Region {
    /// A function-scope `declare`: released when the call at this depth returns (§2.13).
    pub(crate) function_depth: Option<usize>,
    pub(crate) releases: Vec<Release>,
    /// `if(false)`: the construct runs on the host, with the host's data.
    pub(crate) on_host: bool,
    /// `host_data use_device`: pointer variables to restore (address, host value).
    pub(crate) restore: Vec<(u64, u64)>,
    /// Cray `deep_copy`: device pointer members to give their host value back (device
    /// address, host value) before the construct's data leaves.
    pub(crate) detach: Vec<(u64, u64)>,
    /// The activity queue the construct's work goes to (`async`), for events.
    pub(crate) queue: Option<i64>,
    /// A `host_data` construct: not a data region (§3.2.4's restriction does not name it).
    pub(crate) host_data: bool,
    /// The data this compute construct copied for pointers no clause names
    /// ([`implicit_pointer_data`]): a later kernel of the construct may widen them.
    pub(crate) implicit_pointer_data: Vec<ImplicitCopy>,
}

/// A copy [`implicit_pointer_data`] made for a pointer no clause names.
pub(crate) struct ImplicitCopy {
    /// The host start of its present entry.
    pub(crate) start: u64,
    pub(crate) name: String,
    /// The pointer's value and element size (for the subarray in the note).
    pub(crate) pointer: u64,
    pub(crate) elem_size: u64,
}

pub(crate) struct Release {
    pub(crate) host_start: u64,
    pub(crate) copy_out: bool,
}

/// One host range named by a clause.
#[derive(Clone, Debug)]
pub struct HostRange {
    pub range: Range<u64>,
    /// As the clause or routine call names it (`a[0:n]`).
    pub name: String,
    /// The variable it belongs to (`a`), for findings.
    pub var: String,
    pub loc: Loc,
}

impl AccState {
    /// No construct or `declare` is active (the common case: nothing to do at a return).
    #[inline]
    pub fn is_idle(&self) -> bool {
        self.regions.is_empty()
    }

    /// The state a device thread needs (see `Machine::device_fork`): configuration and device,
    /// no constructs, queues or observers.
    ///
    /// Every field is written out: a launch makes one state per device thread, and
    /// `..Default::default()` made (and dropped) a lock and a present table for the fields that
    /// are then copied from the host (issue 15: per-launch costs at 16 threads).
    pub fn for_device_thread(host: &AccState) -> Self {
        AccState {
            pgi_notify: false,
            cray_debug: Default::default(),
            extra_ns: host.extra_ns,
            fuel_start: host.fuel_start,
            queue: None,
            // For inspection (the GUI's memory panel while a kernel runs) and the clock; its
            // entries are shared with the host's until one side changes them.
            present: host.present.clone(),
            config: host.config.clone(),
            regions: Vec::new(),
            on_host: false,
            device_thread: true,
            device_num: host.device_num,
            device_selected: false,
            launches: host.launches,
            auto_async_busy: false,
            deferred: Default::default(),
            schedule_state: 0,
            atomic_lock: host.atomic_lock.clone(),
            atomic_held: None,
            atomic_captured: 0,
            pointers_mapped_alone: host.pointers_mapped_alone.clone(),
            implicit_pointers_unmapped: host.implicit_pointers_unmapped.clone(),
            cray_vector_warned: Default::default(),
        }
    }

    /// The device address of host address `h`, if `h` is inside mapped data.
    pub fn translate(&self, h: u64) -> Option<u64> {
        self.present.containing(h).map(|e| e.to_device(h))
    }

    /// Translate a pointer *value* to the device: inside mapped data, or into an allocation part
    /// of which is mapped (an array's start when only `a[lo:len]` is mapped: the virtual base).
    pub fn translate_pointer(&self, h: u64) -> Option<u64> {
        if let Some(d) = self.translate(h) {
            return Some(d);
        }
        // A pointer into a mapped allocation but outside the mapped bytes: the same offset in the
        // mirroring device block.
        let id = h >> 32;
        self.present.entries().find(|e| e.host.start >> 32 == id).map(|e| (e.device_start & !0xffff_ffff) | (h & 0xffff_ffff))
    }

    /// The model clock (see [`super::events`]) when `fuel` steps are left.
    pub fn now_ns(&self, fuel: u64) -> u64 {
        self.fuel_start.saturating_sub(fuel) + self.extra_ns
    }
}
