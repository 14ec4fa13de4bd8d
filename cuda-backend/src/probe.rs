//! Finding the CUDA driver and NVRTC, and describing the GPU.
//!
//! cudarc loads `libcuda` and `libnvrtc` lazily on the first call into them and panics when a
//! library is missing. [`probe`] checks for both libraries first, so a machine without CUDA gets
//! [`CudaError::NoDriver`] or [`CudaError::NoNvrtc`], never a panic. A panic raised inside cudarc
//! afterwards (a library too old to export a symbol cudarc binds) is caught and reported as
//! [`CudaError::Internal`].

use std::fmt;
use std::panic::{self, AssertUnwindSafe};

use cudarc::driver::result as cu;
use cudarc::driver::sys::CUdevice_attribute;
use cudarc::nvrtc::sys as nvrtc_sys;

/// Why the GPU cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CudaError {
    /// `libcuda` (the driver library) could not be loaded.
    #[error("no CUDA driver found")]
    NoDriver,
    /// `libnvrtc` (the run-time compiler) could not be loaded.
    #[error("no NVRTC library found")]
    NoNvrtc,
    /// The driver loaded but reports no CUDA device.
    #[error("the CUDA driver reports no device")]
    NoDevice,
    /// A driver call failed; `call` names it, `message` is the driver's description.
    #[error("CUDA driver call {call} failed: {message}")]
    Driver { call: &'static str, message: String },
    /// An NVRTC call failed.
    #[error("NVRTC call {call} failed: {message}")]
    Nvrtc { call: &'static str, message: String },
    /// cudarc panicked; this is a bug in accsim or a library mismatch, not in the user's program.
    #[error("internal error in the CUDA back-end: {0}")]
    Internal(String),
}

/// Compute capability `major.minor` of a device.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct ComputeCapability {
    pub major: u32,
    pub minor: u32,
}

impl fmt::Display for ComputeCapability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// A version as CUDA reports it, e.g. driver 13.0 or NVRTC 12.8.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct CudaVersion {
    pub major: u32,
    pub minor: u32,
}

impl fmt::Display for CudaVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// What [`probe`] found: the driver, the number of devices, and device 0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GpuInfo {
    /// The CUDA version the driver supports (`cuDriverGetVersion`).
    pub driver_version: CudaVersion,
    /// Number of CUDA devices; at least 1.
    pub device_count: u32,
    /// Name of device 0, e.g. "NVIDIA H100 80GB HBM3".
    pub name: String,
    pub compute_capability: ComputeCapability,
    /// Total global memory of device 0, in bytes.
    pub total_memory: u64,
    /// Version of the NVRTC library that will compile kernels.
    pub nvrtc_version: CudaVersion,
}

impl fmt::Display for GpuInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (compute capability {}, {} MiB), {} device(s), driver CUDA {}, NVRTC {}",
            self.name,
            self.compute_capability,
            self.total_memory / (1024 * 1024),
            self.device_count,
            self.driver_version,
            self.nvrtc_version,
        )
    }
}

/// Is the CUDA driver library loadable?
pub fn driver_present() -> bool {
    // SAFETY: `is_culib_present` dlopens candidate names of libcuda and drops the handle; loading
    // the NVIDIA driver library runs no initialisation that conflicts with this process.
    unsafe { cudarc::driver::sys::is_culib_present() }
}

/// Is the NVRTC library loadable?
pub fn nvrtc_present() -> bool {
    // SAFETY: as for `driver_present`, with libnvrtc.
    unsafe { nvrtc_sys::is_culib_present() }
}

/// Finds the CUDA driver and NVRTC, initialises the driver, and describes device 0.
///
/// Never panics: missing libraries are [`CudaError::NoDriver`] / [`CudaError::NoNvrtc`].
pub fn probe() -> Result<GpuInfo, CudaError> {
    if !driver_present() {
        return Err(CudaError::NoDriver);
    }
    if !nvrtc_present() {
        return Err(CudaError::NoNvrtc);
    }
    match panic::catch_unwind(AssertUnwindSafe(probe_loaded)) {
        Ok(result) => result,
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "cudarc panicked".to_owned());
            Err(CudaError::Internal(message))
        }
    }
}

/// [`probe`] once both libraries are known to be loadable.
fn probe_loaded() -> Result<GpuInfo, CudaError> {
    let driver = |call: &'static str| {
        move |e: cu::DriverError| CudaError::Driver {
            call,
            message: e.to_string(),
        }
    };

    cu::init().map_err(driver("cuInit"))?;
    let driver_version = driver_version().map_err(driver("cuDriverGetVersion"))?;
    let count = cu::device::get_count().map_err(driver("cuDeviceGetCount"))?;
    let device_count = u32::try_from(count).unwrap_or(0);
    if device_count == 0 {
        return Err(CudaError::NoDevice);
    }
    let dev = cu::device::get(0).map_err(driver("cuDeviceGet"))?;
    let name = cu::device::get_name(dev).map_err(driver("cuDeviceGetName"))?;
    // SAFETY: `dev` was returned by `cuDeviceGet` after a successful `cuInit`.
    let total_memory = unsafe { cu::device::total_mem(dev) }.map_err(driver("cuDeviceTotalMem"))?;
    let attribute = |attr| {
        // SAFETY: `dev` was returned by `cuDeviceGet` after a successful `cuInit`.
        unsafe { cu::device::get_attribute(dev, attr) }
            .map(|v| u32::try_from(v).unwrap_or(0))
            .map_err(driver("cuDeviceGetAttribute"))
    };
    let compute_capability = ComputeCapability {
        major: attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?,
        minor: attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?,
    };
    let nvrtc_version = nvrtc_version()?;
    Ok(GpuInfo {
        driver_version,
        device_count,
        name,
        compute_capability,
        total_memory: total_memory as u64,
        nvrtc_version,
    })
}

fn driver_version() -> Result<CudaVersion, cu::DriverError> {
    let mut version: std::ffi::c_int = 0;
    // SAFETY: `version` is a valid, writable c_int for the duration of the call.
    unsafe { cudarc::driver::sys::cuDriverGetVersion(&mut version) }.result()?;
    // The driver encodes 13.0 as 13000 and 12.8 as 12080.
    let v = u32::try_from(version).unwrap_or(0);
    Ok(CudaVersion {
        major: v / 1000,
        minor: (v % 1000) / 10,
    })
}

fn nvrtc_version() -> Result<CudaVersion, CudaError> {
    let (mut major, mut minor): (std::ffi::c_int, std::ffi::c_int) = (0, 0);
    // SAFETY: both pointers are valid, writable c_ints for the duration of the call.
    unsafe { nvrtc_sys::nvrtcVersion(&mut major, &mut minor) }
        .result()
        .map_err(|e| CudaError::Nvrtc {
            call: "nvrtcVersion",
            message: e.to_string(),
        })?;
    Ok(CudaVersion {
        major: u32::try_from(major).unwrap_or(0),
        minor: u32::try_from(minor).unwrap_or(0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_messages_are_fixed() {
        assert_eq!(CudaError::NoDriver.to_string(), "no CUDA driver found");
        assert_eq!(CudaError::NoNvrtc.to_string(), "no NVRTC library found");
    }

    /// On a machine without the driver library, `probe` reports `NoDriver` rather than panicking.
    /// On a GPU machine it must describe a real device.
    #[test]
    fn probe_reports_missing_driver_or_a_device() {
        let result = probe();
        if driver_present() {
            match result {
                Ok(info) => {
                    assert!(info.device_count >= 1);
                    assert!(!info.name.is_empty());
                    assert!(info.compute_capability.major >= 3, "{info}");
                    assert!(info.total_memory > 0);
                    eprintln!("probe: {info}");
                }
                // A driver without a usable device, or without NVRTC, is still not a panic.
                Err(e) => eprintln!("probe: {e}"),
            }
        } else {
            assert_eq!(result, Err(CudaError::NoDriver));
            assert_eq!(
                result.map_err(|e| e.to_string()),
                Err("no CUDA driver found".to_owned())
            );
        }
    }

    #[test]
    fn versions_display() {
        let cc = ComputeCapability { major: 9, minor: 0 };
        assert_eq!(cc.to_string(), "9.0");
        let v = CudaVersion {
            major: 12,
            minor: 8,
        };
        assert_eq!(v.to_string(), "12.8");
    }
}
