//! `accsim validate`: run a program on two devices (the simulator and the GPU) and compare what
//! each device gave back to the host, PCAST-style (NVIDIA's `-gpu=autocompare`).
//!
//! **What is compared.** Every copy from device to host — the copy-out at the end of a data
//! lifetime, `update host/self`, `exit data copyout`, `acc_copyout`, `acc_update_self`,
//! `acc_memcpy_from_device` — is recorded by a [`Recorder`] wrapped around each run's device:
//! the source line, the host bytes written, and the variable (from the transfer's event). The
//! two runs' transfers are compared pairwise, in order, and at the end the program's standard
//! output and exit status. Integers (and bytes of unknown type) must be equal; floating-point
//! elements may differ within the `--abs`, `--rel` and `--ulp` tolerances (an element passes
//! when it is within any given tolerance; with none, bits must be equal; NaN equals NaN).
//!
//! **Element types** come from the host object the bytes land in: a global or a local has its
//! declared type; a heap block takes the type a pointer variable of the transfer's name points
//! to. Otherwise elements are bytes.
//!
//! **Limits.** A program whose transfers depend on timing (racy programs, `acc_async_test`
//! polling) can differ in its transfer sequence; that is reported as a difference, as it should.

use std::sync::{Arc, Mutex};

use accsim_core::diag::{Loc, SourceMap};
use accsim_core::exec::device::{Device, DeviceCtx, DeviceHandle, KernelLaunch};
use accsim_core::exec::memory::{AllocId, AllocKind, Memory};
use accsim_core::exec::Trap;
use accsim_core::ir::types::{FloatKind, Type};
use accsim_core::ir::{Program, TypeId};

/// One copy from device to host, as the host received it.
#[derive(Clone, Debug)]
pub struct Transfer {
    pub loc: Loc,
    /// Host address of the first byte.
    pub host: u64,
    pub bytes: Vec<u8>,
    /// The variable named by the clause or routine (from its event), if any.
    pub var: Option<String>,
    /// What the host block is (for the element type).
    pub block: Option<AllocKind>,
}

/// The transfers of one run.
pub type TransferLog = Arc<Mutex<Vec<Transfer>>>;

/// A device that records every download of the device it wraps.
pub struct Recorder {
    pub inner: DeviceHandle,
    pub log: TransferLog,
}

impl Device for Recorder {
    fn name(&self) -> &'static str {
        self.inner.name()
    }
    fn count(&self) -> u64 {
        self.inner.count()
    }
    fn alloc(&self, cx: &mut DeviceCtx<'_, '_>, len: u64, what: &'static str, loc: Loc) -> Result<u64, Trap> {
        self.inner.alloc(cx, len, what, loc)
    }
    fn free(&self, cx: &mut DeviceCtx<'_, '_>, dev: u64, loc: Loc) {
        self.inner.free(cx, dev, loc)
    }
    fn upload(&self, cx: &mut DeviceCtx<'_, '_>, dev: u64, host: u64, len: u64, loc: Loc) -> Result<(), Trap> {
        self.inner.upload(cx, dev, host, len, loc)
    }
    fn download(&self, cx: &mut DeviceCtx<'_, '_>, host: u64, dev: u64, len: u64, loc: Loc) -> Result<(), Trap> {
        self.inner.download(cx, host, dev, len, loc)?;
        let bytes = cx.mem().read_bytes(host, len).map(|b| b.into_owned()).unwrap_or_default();
        let block = cx.mem().allocation(AllocId((host >> 32) as u32)).map(|a| a.kind());
        if let Ok(mut v) = self.log.lock() {
            v.push(Transfer { loc, host, bytes, var: None, block });
        }
        Ok(())
    }
    fn write_pointer(&self, cx: &mut DeviceCtx<'_, '_>, dev: u64, value: u64, loc: Loc) -> Result<(), Trap> {
        self.inner.write_pointer(cx, dev, value, loc)
    }
    fn launch(&self, cx: &mut DeviceCtx<'_, '_>, k: &KernelLaunch<'_>) -> Result<(), Trap> {
        self.inner.launch(cx, k)
    }
    fn wait(&self, cx: &mut DeviceCtx<'_, '_>, queue: Option<i64>) -> Result<(), Trap> {
        self.inner.wait(cx, queue)
    }
    fn queue_idle(&self, queue: Option<i64>) -> bool {
        self.inner.queue_idle(queue)
    }
    fn block_len(&self, mem: &Memory, dev: u64) -> Option<u64> {
        self.inner.block_len(mem, dev)
    }
    fn peek_u64(&self, mem: &Memory, dev: u64) -> Option<u64> {
        self.inner.peek_u64(mem, dev)
    }
    fn native_stream(&self, queue: i64) -> u64 {
        self.inner.native_stream(queue)
    }
    fn set_device_num(&self, n: u64) -> Result<(), String> {
        self.inner.set_device_num(n)
    }
}

/// Name the last unnamed transfer at `loc` of `len` bytes (called with each `Download` event).
pub fn name_transfer(log: &TransferLog, loc: Loc, len: u64, var: &str) {
    if let Ok(mut v) = log.lock() {
        if let Some(t) = v.iter_mut().rev().find(|t| t.var.is_none() && t.loc == loc && t.bytes.len() as u64 == len) {
            t.var = Some(var.to_string());
        }
    }
}

/// Floating-point tolerances (PCAST's `abs`, `rel`, `ulp`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Tolerance {
    pub abs: Option<f64>,
    pub rel: Option<f64>,
    pub ulp: Option<u64>,
}

/// How the bytes of a transfer are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    Int { bytes: u8, signed: bool },
    F32,
    F64,
    Byte,
}

impl Elem {
    fn size(self) -> usize {
        match self {
            Elem::Int { bytes, .. } => bytes as usize,
            Elem::F32 => 4,
            Elem::F64 => 8,
            Elem::Byte => 1,
        }
    }

    fn show(self, b: &[u8]) -> String {
        let mut w = [0u8; 8];
        w[..b.len().min(8)].copy_from_slice(&b[..b.len().min(8)]);
        let v = u64::from_le_bytes(w);
        match self {
            Elem::Int { bytes, signed: true } => {
                let sh = 64 - 8 * bytes as u32;
                format!("{}", ((v << sh) as i64) >> sh)
            }
            Elem::Int { .. } => format!("{v}"),
            Elem::F32 => format!("{:e}", f32::from_bits(v as u32)),
            Elem::F64 => format!("{:e}", f64::from_bits(v)),
            Elem::Byte => format!("{v:#04x}"),
        }
    }
}

/// The scalar element type of `ty` (through arrays), or `None` for records and others.
fn scalar(p: &Program, mut ty: TypeId) -> Option<Elem> {
    loop {
        match p.types.get(ty) {
            Type::Array(e, _) | Type::Vla(e, _) => ty = *e,
            Type::Int(i) => return Some(Elem::Int { bytes: i.bytes, signed: i.signed }),
            Type::Bool => return Some(Elem::Int { bytes: 1, signed: false }),
            Type::Float(FloatKind::F32) | Type::Complex(FloatKind::F32) => return Some(Elem::F32),
            Type::Float(FloatKind::F64) | Type::Complex(FloatKind::F64) => return Some(Elem::F64),
            Type::Pointer(_) => return Some(Elem::Int { bytes: 8, signed: false }),
            _ => return None,
        }
    }
}

/// The element type of a transfer's bytes.
pub fn element(p: &Program, t: &Transfer) -> Elem {
    let by_block = match t.block {
        Some(AllocKind::Global(g)) => p.globals.get(g as usize).and_then(|g| scalar(p, g.ty)),
        Some(AllocKind::Local(f, l)) => p.functions.get(f as usize).and_then(|f| f.locals.get(l as usize)).and_then(|l| scalar(p, l.ty)),
        _ => None,
    };
    if let Some(e) = by_block {
        return e;
    }
    // A heap block: the pointee of a pointer variable with the transfer's name (`a[0:n]` → `a`).
    let name = t.var.as_deref().unwrap_or("");
    let base: String = name.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    if base.is_empty() {
        return Elem::Byte;
    }
    let pointee = |ty: TypeId| match p.types.get(ty) {
        Type::Pointer(e) => scalar(p, *e),
        _ => None,
    };
    let globals = p.globals.iter().filter(|g| g.name == base).map(|g| g.ty);
    let locals = p.functions.iter().flat_map(|f| f.locals.iter()).filter(|l| l.name == base).map(|l| l.ty);
    globals.chain(locals).find_map(pointee).unwrap_or(Elem::Byte)
}

/// Do two elements agree?
fn agree(e: Elem, a: &[u8], b: &[u8], tol: Tolerance) -> bool {
    if a == b {
        return true;
    }
    let (x, y, ulps) = match e {
        Elem::F32 => {
            let (x, y) = (f32::from_le_bytes(a.try_into().unwrap_or([0; 4])), f32::from_le_bytes(b.try_into().unwrap_or([0; 4])));
            (x as f64, y as f64, ulp_distance(x.to_bits() as i32 as i64, y.to_bits() as i32 as i64, i32::MIN as i64))
        }
        Elem::F64 => {
            let (x, y) = (f64::from_le_bytes(a.try_into().unwrap_or([0; 8])), f64::from_le_bytes(b.try_into().unwrap_or([0; 8])));
            (x, y, ulp_distance(x.to_bits() as i64, y.to_bits() as i64, i64::MIN))
        }
        _ => return false,
    };
    if x.is_nan() && y.is_nan() {
        return true;
    }
    let d = (x - y).abs();
    tol.abs.is_some_and(|t| d <= t) || tol.rel.is_some_and(|t| d <= t * x.abs().max(y.abs())) || tol.ulp.is_some_and(|t| ulps <= t) || d == 0.0
}

/// Units in the last place between two floating-point elements, or `None` for other elements
/// and NaNs.
fn float_ulps(e: Elem, a: &[u8], b: &[u8]) -> Option<u64> {
    match e {
        Elem::F32 => {
            let (x, y) = (f32::from_le_bytes(a.try_into().ok()?), f32::from_le_bytes(b.try_into().ok()?));
            (!x.is_nan() && !y.is_nan()).then(|| ulp_distance(x.to_bits() as i32 as i64, y.to_bits() as i32 as i64, i32::MIN as i64))
        }
        Elem::F64 => {
            let (x, y) = (f64::from_le_bytes(a.try_into().ok()?), f64::from_le_bytes(b.try_into().ok()?));
            (!x.is_nan() && !y.is_nan()).then(|| ulp_distance(x.to_bits() as i64, y.to_bits() as i64, i64::MIN))
        }
        _ => None,
    }
}

/// Units in the last place between two floats given as sign-magnitude bit patterns
/// (sign-extended to i64; `min` is the pattern of -0.0: `i32::MIN` or `i64::MIN`).
fn ulp_distance(a: i64, b: i64, min: i64) -> u64 {
    // Map sign-magnitude to a monotonic integer line.
    let key = |v: i64| if v < 0 { min.wrapping_sub(v) } else { v };
    let (ka, kb) = (key(a), key(b));
    (ka as i128 - kb as i128).unsigned_abs().min(u64::MAX as u128) as u64
}

/// The comparison of two runs.
#[derive(Default, Debug)]
pub struct Report {
    pub lines: Vec<String>,
    pub transfers: usize,
    pub differing_transfers: usize,
    pub differing_elements: usize,
    pub output_differs: bool,
    /// When the runs differ only in floating-point elements of the same copies (same sequence,
    /// same output): the largest distance between two such elements, in units in the last place.
    /// Rounding differs between devices (a reduction combines in another order, the GPU's math
    /// library rounds differently; NVRTC does not contract `a * b + c`), which `--ulp` accepts.
    pub rounding_only: Option<u64>,
}

impl Report {
    pub fn agree(&self) -> bool {
        self.differing_transfers == 0 && !self.output_differs
    }
}

/// The outcome of one run, for [`compare`].
pub struct RunResult {
    pub device: String,
    pub transfers: Vec<Transfer>,
    pub stdout: String,
    pub exit: i32,
}

/// How many differing elements are listed per transfer.
const SHOWN: usize = 5;

/// Compare run `a` (the reference) with run `b`.
pub fn compare(p: &Program, map: &SourceMap, a: &RunResult, b: &RunResult, tol: Tolerance) -> Report {
    let mut r = Report { transfers: a.transfers.len().max(b.transfers.len()), ..Default::default() };
    // The largest ulp distance of differing elements while every one is floating point.
    let mut rounding: Option<u64> = Some(0);
    let place = |l: Loc| format!("{}:{}", map.name(l.file), l.line);
    for (i, (x, y)) in a.transfers.iter().zip(&b.transfers).enumerate() {
        let var = x.var.clone().unwrap_or_else(|| "(unnamed)".into());
        if x.loc != y.loc || x.bytes.len() != y.bytes.len() {
            r.differing_transfers += 1;
            rounding = None;
            r.lines.push(format!(
                "transfer {}: {} copied {} bytes of `{var}` at {}, {} copied {} bytes of `{}` at {}",
                i + 1,
                a.device,
                x.bytes.len(),
                place(x.loc),
                b.device,
                y.bytes.len(),
                y.var.as_deref().unwrap_or("(unnamed)"),
                place(y.loc)
            ));
            continue;
        }
        let e = element(p, x);
        let size = e.size();
        let first = (x.host & 0xffff_ffff) as usize / size;
        let mut bad = 0usize;
        let mut shown = Vec::new();
        for (j, (ea, eb)) in x.bytes.chunks(size).zip(y.bytes.chunks(size)).enumerate() {
            if !agree(e, ea, eb, tol) {
                bad += 1;
                rounding = rounding.zip(float_ulps(e, ea, eb)).map(|(m, u)| m.max(u));
                if shown.len() < SHOWN {
                    shown.push(format!("    `{var}` element {}: {} {}, {} {}", first + j, a.device, e.show(ea), b.device, e.show(eb)));
                }
            }
        }
        if bad > 0 {
            r.differing_transfers += 1;
            r.differing_elements += bad;
            r.lines.push(format!("{}: copy to the host of `{var}` ({} bytes): {bad} element(s) differ", place(x.loc), x.bytes.len()));
            r.lines.extend(shown);
            if bad > SHOWN {
                r.lines.push(format!("    … and {} more", bad - SHOWN));
            }
        }
    }
    if a.transfers.len() != b.transfers.len() {
        r.differing_transfers += 1;
        r.lines.push(format!("{} made {} copies to the host, {} made {}", a.device, a.transfers.len(), b.device, b.transfers.len()));
    }
    if a.stdout != b.stdout {
        r.output_differs = true;
        let (la, lb): (Vec<&str>, Vec<&str>) = (a.stdout.lines().collect(), b.stdout.lines().collect());
        let n = la.iter().zip(&lb).take_while(|(x, y)| x == y).count();
        r.lines.push(format!(
            "standard output differs at line {}: {} printed {:?}, {} printed {:?}",
            n + 1,
            a.device,
            la.get(n).copied().unwrap_or("(end of output)"),
            b.device,
            lb.get(n).copied().unwrap_or("(end of output)")
        ));
    }
    if a.exit != b.exit {
        r.output_differs = true;
        r.lines.push(format!("exit status: {} {}, {} {}", a.device, a.exit, b.device, b.exit));
    }
    if a.transfers.len() != b.transfers.len() || r.output_differs {
        rounding = None;
    }
    r.rounding_only = rounding.filter(|_| !r.agree());
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tolerances() {
        let f = |x: f64| x.to_le_bytes();
        assert!(agree(Elem::F64, &f(1.0), &f(1.0), Tolerance::default()));
        assert!(!agree(Elem::F64, &f(1.0), &f(1.0 + 1e-12), Tolerance::default()));
        assert!(agree(Elem::F64, &f(1.0), &f(1.0 + 1e-12), Tolerance { abs: Some(1e-9), ..Default::default() }));
        assert!(agree(Elem::F64, &f(100.0), &f(100.0001), Tolerance { rel: Some(1e-5), ..Default::default() }));
        assert!(!agree(Elem::F64, &f(100.0), &f(100.01), Tolerance { rel: Some(1e-5), ..Default::default() }));
        let next = f64::from_bits(1.0f64.to_bits() + 2);
        assert!(agree(Elem::F64, &f(1.0), &f(next), Tolerance { ulp: Some(2), ..Default::default() }));
        assert!(!agree(Elem::F64, &f(1.0), &f(next), Tolerance { ulp: Some(1), ..Default::default() }));
        assert!(agree(Elem::F64, &f(f64::NAN), &f(f64::NAN), Tolerance::default()));
        // Integers are exact whatever the tolerance.
        assert!(!agree(Elem::Int { bytes: 4, signed: true }, &1i32.to_le_bytes(), &2i32.to_le_bytes(), Tolerance { abs: Some(10.0), ..Default::default() }));
    }

    #[test]
    fn ulps_across_zero() {
        let z = 0.0f32.to_bits() as i32 as i64;
        let nz = (-0.0f32).to_bits() as i32 as i64;
        assert_eq!(ulp_distance(z, nz, i32::MIN as i64), 0);
        let tiny = f32::from_bits(1).to_bits() as i32 as i64;
        let ntiny = (-f32::from_bits(1)).to_bits() as i32 as i64;
        assert_eq!(ulp_distance(tiny, ntiny, i32::MIN as i64), 2);
    }

    #[test]
    fn rounding_differences_are_measured_in_ulps() {
        let next = f64::from_bits(3.0f64.to_bits() + 3);
        assert_eq!(float_ulps(Elem::F64, &3.0f64.to_le_bytes(), &next.to_le_bytes()), Some(3));
        assert_eq!(float_ulps(Elem::F32, &1.0f32.to_le_bytes(), &f32::from_bits(1.0f32.to_bits() - 1).to_le_bytes()), Some(1));
        assert_eq!(float_ulps(Elem::F64, &f64::NAN.to_le_bytes(), &1.0f64.to_le_bytes()), None);
        assert_eq!(float_ulps(Elem::Int { bytes: 4, signed: true }, &1i32.to_le_bytes(), &2i32.to_le_bytes()), None, "integers are never rounding");
    }

    #[test]
    fn elements_show_their_values() {
        assert_eq!(Elem::Int { bytes: 4, signed: true }.show(&(-3i32).to_le_bytes()), "-3");
        assert_eq!(Elem::F64.show(&2.5f64.to_le_bytes()), "2.5e0");
    }
}
