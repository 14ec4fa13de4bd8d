//! Outlining compute constructs into kernels (OpenACC 2.0 §2.5, §1.2).
//!
//! Each `parallel` construct becomes one kernel function; a `kernels` construct becomes one kernel
//! per loop nest (§2.5.2). The host function keeps the construct, whose body becomes
//! [`StmtKind::AccLaunch`] statements; the data clauses stay on the construct and are executed by
//! the host around the launches.
//!
//! A kernel function is run once per gang. Its parameters are the gang index and the launch
//! configuration, then one per captured host variable ([`Capture`]): register scalars by value
//! (firstprivate), objects by the address of their device copy or of a per-gang private copy.
//! [`schedule`] then rewrites every `loop` directive into explicit loops over the iterations a
//! gang, worker or vector lane executes, so the whole execution model is plain IR that the
//! interpreter runs, the GUI steps through and the CUDA emitter can read back.

mod branches;
mod build;
pub mod device_code;
pub(crate) mod depend;
mod members;
pub mod outline;
mod promote;
pub mod placement;
pub mod routine;
pub mod info;
pub mod schedule;
pub mod footprint;
pub mod gang_count;

pub use outline::outline_program;

/// The side table of an outlined program: each kernel's access plan ([`footprint::AccessPlan`]),
/// loop schedules and fast-share variant.
pub type ProgramInfo = crate::ir::valid::ProgramInfo<footprint::AccessPlan>;

/// The side-table entry of one kernel.
pub type KernelInfo = crate::ir::valid::KernelInfo<footprint::AccessPlan>;
