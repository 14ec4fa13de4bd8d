//! accsim-cuda: accsim's real-GPU device.
//!
//! # The crate (DESIGN.md, "Real GPU")
//!
//! A source-to-source back-end, as OpenUH does it. Each compute region of a *validated* program
//! becomes a readable CUDA C kernel: gang → block, worker → `threadIdx.y`, vector lane →
//! `threadIdx.x` by default (OpenUH's Map2/Map3 mappings selectable). Gang-redundant code runs
//! redundantly with guarded stores, reductions become block reductions, and activity queues
//! (spec §2.13) become CUDA streams. NVRTC compiles the kernels at run time and `CudaDevice`
//! implements core's `Device` trait through cudarc: it only moves bytes and launches kernels; the
//! present table (spec §2.6) stays in core. `accsim validate` runs a program on the simulator
//! and on this device and compares every transfer back to the host.
//!
//! # Modules
//!
//! [`emit`]: the source-to-source half. [`emit::program`] turns every kernel of a program into a
//! readable `extern "C" __global__` CUDA C function, with the routines it calls as `__device__`
//! functions (`accsim emit-cuda FILE.c`).
//!
//! [`device`]: [`CudaDevice`], which compiles that module with NVRTC (PTX cached on disk),
//! allocates and copies with the driver API, and launches the kernels (`accsim run --device cuda`).
//!
//! [`probe`]: finds the CUDA driver and NVRTC, and describes device 0. cudarc is used with
//! dynamic loading, so this crate builds and its tests run on machines without CUDA; there,
//! [`probe`] returns [`CudaError::NoDriver`] ("no CUDA driver found") or [`CudaError::NoNvrtc`]
//! instead of cudarc's panic on a missing library.
//!
//! # Unsafe code
//!
//! This is the one crate of the workspace allowed to use `unsafe` (FFI into the CUDA driver and
//! NVRTC). Every `unsafe` block carries a `// SAFETY:` note.
#![allow(unsafe_code)]

mod barrier;
mod broadcast;
pub mod device;
pub mod emit;
mod liveness;
pub mod loopmap;
mod prelude;
pub mod probe;

pub use device::CudaDevice;

pub use probe::{probe, CudaError, GpuInfo};
