//! The machine's seams: the traits of the services the machine holds and calls without knowing
//! them (issue 13: the machine sits below every runtime service, and the services take the
//! machine).
//! - [`Device`]: the accelerator (`exec/device.rs` has the modeled one, the simulator crate
//!   SimDevice, cuda-backend CudaDevice), given a [`DeviceCtx`], never the machine.
//! - [`Observer`]: called before every statement with a [`MachineView`] (read in
//!   `exec/inspect.rs`).
//! - [`NativeCode`]: an engine's compiled functions (`exec/native.rs`, the jit crate).
//! - [`Sink`]: where program output goes ([`Capture`] keeps it in memory).

use std::io::Write;
use std::sync::{Arc, Mutex};

use super::super::gang::CaptureArg;
use super::super::memory::{AllocId, AllocKind, MemFault, Memory, Space};
use super::{DeviceFork, Machine, Trap};
use crate::diag::Loc;

/// One kernel launch, as the engine asks for it.
pub struct KernelLaunch<'a> {
    /// The outlined kernel function (its parameters: gang, num_gangs, num_workers,
    /// vector_length, then one per capture).
    pub fid: u32,
    pub gangs: u64,
    pub workers: u64,
    pub vector: u64,
    /// What the kernel captures and how (§2.5.1, §2.6.1).
    pub caps: &'a [CaptureArg],
    /// For `Value` and `Present` captures, the value the kernel gets: a scalar, or the device
    /// address of mapped data (pointers already translated). 0 for per-gang captures.
    pub shared: &'a [u64],
    /// The compute construct.
    pub loc: Loc,
    /// The activity queue (`async`), `None` for synchronous launches.
    pub queue: Option<i64>,
    /// `if(false)` or the host device: the region runs on the host with host addresses. The
    /// engine runs such launches with [`SequentialDevice`] itself; a device never sees them.
    pub on_host: bool,
}

/// An accelerator behind the engine.
pub trait Device: Send + Sync {
    /// A short name for messages (`simulated`, `cuda`).
    fn name(&self) -> &'static str;

    /// `acc_get_num_devices` for this device type.
    fn count(&self) -> u64 {
        1
    }

    /// Allocate `len` bytes of device memory; the pointer word of its first byte.
    fn alloc(&self, cx: &mut DeviceCtx<'_, '_>, len: u64, what: &'static str, loc: Loc) -> Result<u64, Trap> {
        cx.mem_mut().alloc(len, AllocKind::Runtime(what), Space::Device, loc).map_err(|f| cx.fault(f, loc))
    }

    /// Free the device block that `dev` points into.
    fn free(&self, cx: &mut DeviceCtx<'_, '_>, dev: u64, loc: Loc) {
        cx.mem_mut().release(AllocId((dev >> 32) as u32), loc);
    }

    /// Copy `len` bytes from host address `host` to device address `dev`.
    fn upload(&self, cx: &mut DeviceCtx<'_, '_>, dev: u64, host: u64, len: u64, loc: Loc) -> Result<(), Trap> {
        cx.mem_mut().copy(dev, host, len).map_err(|f| cx.fault(f, loc))
    }

    /// Copy `len` bytes from device address `dev` to host address `host`.
    fn download(&self, cx: &mut DeviceCtx<'_, '_>, host: u64, dev: u64, len: u64, loc: Loc) -> Result<(), Trap> {
        cx.mem_mut().copy(host, dev, len).map_err(|f| cx.fault(f, loc))
    }

    /// Store the device pointer `value` at device address `dev` (attaching a row of `a[0:n][0:m]`).
    fn write_pointer(&self, cx: &mut DeviceCtx<'_, '_>, dev: u64, value: u64, loc: Loc) -> Result<(), Trap> {
        cx.mem_mut().store_u64(dev, value).map_err(|f| cx.fault(f, loc))
    }

    /// Run a kernel (the engine's queue scheduler decides when). A device with real queues may
    /// return before the kernel ends when `k.queue` is set; [`Device::wait`] then waits for it.
    fn launch(&self, cx: &mut DeviceCtx<'_, '_>, k: &KernelLaunch<'_>) -> Result<(), Trap>;

    /// Wait until the device's own work on activity queue `queue` (every queue when `None`) has
    /// finished (§2.14.1, §3.2.11). Devices that finish work when it is issued have nothing to do.
    fn wait(&self, cx: &mut DeviceCtx<'_, '_>, queue: Option<i64>) -> Result<(), Trap> {
        let _ = (cx, queue);
        Ok(())
    }

    /// Has the device's own work on `queue` (every queue when `None`) finished (`acc_async_test`)?
    fn queue_idle(&self, queue: Option<i64>) -> bool {
        let _ = queue;
        true
    }

    /// The length of the device block `dev` points into, where the bytes are the device's own
    /// (a GPU keeps them; the interpreter's memory holds only an empty placeholder), for the
    /// runtime's argument checks (`acc_map_data`, §3.2.25); `None` for no live device block.
    fn block_len(&self, mem: &Memory, dev: u64) -> Option<u64> {
        mem.allocation(AllocId((dev >> 32) as u32)).filter(|a| a.live).map(|a| a.size())
    }

    /// The 8 bytes at device address `dev`, read without a transfer event (launch-time values
    /// of the access plans, `kernel::footprint`: a scalar's device copy); `None` if unreadable.
    fn peek_u64(&self, mem: &Memory, dev: u64) -> Option<u64> {
        mem.load_u64(dev).ok()
    }

    /// The native stream behind activity queue `queue` (`acc_get_cuda_stream`, §6.2.1); 0 when
    /// the device has none.
    fn native_stream(&self, queue: i64) -> u64 {
        let _ = queue;
        0
    }

    /// Make device `n` of this type the current one (`acc_set_device_num`, §3.2.4).
    fn set_device_num(&self, n: u64) -> Result<(), String> {
        if n == 0 {
            Ok(())
        } else {
            Err(format!("the {} accelerator has one device, number 0", self.name()))
        }
    }
}

/// The device a run uses (shared with the threads it starts); `device::SequentialDevice` by
/// default (its `Default`).
#[derive(Clone)]
pub struct DeviceHandle(pub Arc<dyn Device>);


impl std::ops::Deref for DeviceHandle {
    type Target = dyn Device;
    fn deref(&self) -> &(dyn Device + 'static) {
        &*self.0
    }
}

/// What a device method may use of the engine (see the module documentation): the memories,
/// the present table's translations, the activity queue of the operation, the flushing of
/// program output, and for the modeled accelerator the gang runner ([`DeviceCtx::device_fork`])
/// and whether something observes every step.
pub struct DeviceCtx<'a, 'e> {
    pub(crate) m: &'a mut Machine<'e>,
}

impl<'e> Machine<'e> {
    /// The context a device method gets.
    pub(crate) fn device_ctx(&mut self) -> DeviceCtx<'_, 'e> {
        DeviceCtx { m: self }
    }
}

impl<'e> DeviceCtx<'_, 'e> {
    /// The allocation table: host memory, and the device memory of every device (a GPU's
    /// blocks are placeholders there, see [`Device::block_len`]).
    pub fn mem(&self) -> &Memory {
        &self.m.mem
    }

    pub fn mem_mut(&mut self) -> &mut Memory {
        &mut self.m.mem
    }

    /// The diagnostic of a memory fault at `loc` (naming the allocation as the program does).
    pub fn fault(&self, f: MemFault, loc: Loc) -> Trap {
        self.m.fault(f, loc)
    }

    /// The activity queue of the operation under way (`async`), `None` when synchronous.
    pub fn queue(&self) -> Option<i64> {
        self.m.acc.queue
    }

    /// The device address of host address `host` when it is present (§2.6).
    pub fn translate(&self, host: u64) -> Option<u64> {
        self.m.acc.translate(host)
    }

    /// The device pointer a host pointer value stands for on the device: into the device copy of
    /// the data it points into (also outside the mapped bytes of that block), if any.
    pub fn translate_pointer(&self, host_ptr: u64) -> Option<u64> {
        self.m.acc.translate_pointer(host_ptr)
    }

    /// Write the program's buffered stdout (before device output, which goes straight out).
    pub fn flush_stdout(&mut self) {
        self.m.flush_stdout();
    }

    /// Something observes every step (a stepping GUI, the checkers' access and thread events, a
    /// memory model): gangs must run on the interpreter thread, one after another
    /// ([`SequentialDevice`]).
    pub fn observed(&self) -> bool {
        self.m.observer.is_some() || self.m.events.wants_device_events() || self.m.memory_model.is_some()
    }

    /// The fast-share variant of kernel function `fid` (or `fid`), which an unobserved run may
    /// use (same results for a race-free program, `kernel::schedule`).
    pub fn fast_kernel(&self, fid: u32) -> u32 {
        self.m.exe.fast_kernels.get(&fid).copied().unwrap_or(fid)
    }

    /// A machine for a device thread: shares the device memory, nothing of the host's.
    pub fn device_fork(&mut self) -> DeviceFork<'e> {
        self.m.device_fork()
    }

    /// Take back the forks' memory views, output and step counts, in fork order.
    pub fn join_device_forks(&mut self, forks: Vec<DeviceFork<'e>>, loc: Loc) -> Result<(), Trap> {
        self.m.join_device_forks(forks, loc)
    }
}

/// What the observer tells the interpreter.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Control {
    Continue,
    Stop,
}

/// Called before every statement (and every loop test) is executed.
pub trait Observer: Send {
    /// `depth` is the C call depth (1 in `main`).
    fn on_step(&mut self, loc: Loc, depth: usize) -> Control;

    /// The same hook with a read-only view of the machine (registers of the running call,
    /// memories, present table, model clock), for tools that show the state (the GUI). The
    /// interpreter calls this one; by default it forwards to [`Observer::on_step`].
    fn on_step_inspect(&mut self, view: &MachineView<'_>) -> Control {
        self.on_step(view.loc(), view.depth())
    }
}

/// The machine as it is before the statement at [`MachineView::loc`] runs; what it shows is
/// read in `exec/inspect.rs`.
pub struct MachineView<'a> {
    pub(crate) m: &'a Machine<'a>,
    pub(crate) loc: Loc,
}

impl<'a> MachineView<'a> {
    pub(crate) fn new(m: &'a Machine<'a>, loc: Loc) -> Self {
        MachineView { m, loc }
    }
}

/// An engine's compiled functions.
pub trait NativeCode: Send + Sync {
    /// Whether function `fid` (an index of [`super::Executable::funcs`]) runs as native code
    /// for this call, whose argument words are `args`: an engine may leave calls whose counted
    /// work is small to the interpreter (`accsim_jit`'s tiers); the results are the same.
    fn compiled(&self, fid: u32, args: &[u64]) -> bool;

    /// Run function `fid`, which [`NativeCode::compiled`] said has native code, with `args`
    /// (the interpreter's value words of its parameters) on `m`; `loc` is the call site. The
    /// caller has checked the call depth and counts the call in `m.depth`.
    fn call(&self, m: &mut Machine, fid: u32, args: &[u64], loc: Loc) -> Result<u64, Trap>;

    /// Generate, now, the code of function `fid` and of every function its code may call
    /// (transitively): a launch asks for its kernel's before the device threads start, so
    /// that no thread's call finds another thread generating code (issue 15: a call that finds
    /// a callee's code not generated yet takes the interpreter's call path, which counts its
    /// steps differently, and which one it takes would depend on the threads' timing). An
    /// engine that generates everything up front does nothing.
    fn prepare(&self, _fid: u32) {}

    /// [`NativeCode::prepare`] for a launch (`launch`), or `false` when the whole launch (its
    /// gangs and every function they call) runs in the interpreter: an engine may leave a
    /// launch of little counted work to the interpreter, and generate quicker, slower code for
    /// a kernel that runs little (`accsim_jit`'s tiers). The results are the same.
    fn prepare_launch(&self, launch: &LaunchShape) -> bool {
        self.prepare(launch.fid);
        true
    }

    /// The interpreter, running function `fid` (whose frame is `m`'s current one), is at its
    /// `k`th `for` statement ([`crate::ir::visit::for_statements`]), before the
    /// initialisation; `loc` is the statement's. An engine may run the whole loop as native
    /// code on the frame's values, writing back the locals it assigns
    /// ([`Machine::native_local_word`]), or leave it to the interpreter: an engine that runs a
    /// function called once (`main`) in the interpreter and compiles only its loops that
    /// pay (`accsim_jit`'s tiers). The results are the same.
    fn run_loop(&self, _m: &mut Machine, _fid: u32, _k: u32, _loc: Loc) -> Result<LoopRun, Trap> {
        Ok(LoopRun::Interpret)
    }
}

/// What [`NativeCode::run_loop`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopRun {
    /// Nothing: the interpreter runs the loop.
    Interpret,
    /// It ran the loop to its end.
    Ended,
    /// A `return` in the loop ran, returning this word from the function.
    Returned(u64),
}

/// A launch as a native engine sees it before the device threads start
/// ([`NativeCode::prepare_launch`]): what its work depends on.
#[derive(Clone, Copy, Debug)]
pub struct LaunchShape<'a> {
    /// The kernel function (its parameters: gang, num_gangs, num_workers, vector_length, then
    /// one per capture).
    pub fid: u32,
    pub gangs: u64,
    pub workers: u64,
    pub vector: u64,
    /// By capture: the word the kernel's parameter gets, when it is the same for every gang
    /// (`None`: a per-gang copy).
    pub captures: &'a [Option<u64>],
}

/// A shared handle on an engine's code, given to a run in [`super::RunOptions::native`].
pub type NativeHandle = Arc<dyn NativeCode>;

/// An output stream of the program.
pub type Sink = Box<dyn Write + Send>;

/// A cloneable in-memory sink, for tests and tools that capture a program's output.
#[derive(Clone, Default, Debug)]
pub struct Capture(pub Arc<Mutex<Vec<u8>>>);

impl Capture {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn sink(&self) -> Sink {
        Box::new(self.clone())
    }
    pub fn bytes(&self) -> Vec<u8> {
        self.0.lock().map(|b| b.clone()).unwrap_or_default()
    }
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes()).into_owned()
    }
}

impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Ok(mut b) = self.0.lock() {
            b.extend_from_slice(buf);
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

