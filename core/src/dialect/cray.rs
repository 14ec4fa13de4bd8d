//! Cray CCE's execution and memory model, `-h acc_model=option[:option]` (seeds/003, the CCE
//! man page): "There are three option sets. Only one member of a set may be used at a time;
//! however, all three sets may be used together."
//!
//! - Set 1, asynchrony: `auto_async_none` ("Execute kernels and updates synchronously, unless
//!   there is an async clause present on the kernels or update directive"), `auto_async_kernel`
//!   (CCE's default: "Execute all kernels asynchronously ensuring program order is maintained"),
//!   `auto_async_all` ("Execute all kernels and data transfers asynchronously, ensuring program
//!   order is maintained").
//! - Set 2, addressing: `fast_addr` (CCE's default: "Attempt to use 32 bit integers in all
//!   addressing to improve performance. This optimization may result in incorrect behavior for
//!   some codes"), `no_fast_addr`.
//! - Set 3, `no_deep_copy` (CCE's default: "Do not look inside of an object type to transfer
//!   sub-objects") and `deep_copy` ("Look inside of derived type objects and recreate the
//!   derived type on the accelerator recursively").
//!
//! **How accsim runs them** (the man page fixes the behaviour, not the mechanism):
//! - Auto-async work goes on one implicit activity queue, [`AUTO_ASYNC_QUEUE`], shown as
//!   `async(auto)` in `--notify`, `--trace`, `CRAY_ACC_DEBUG` and the GUI. "Program order is
//!   maintained" among the device's operations: they all go on that one queue, and under
//!   `auto_async_kernel` a data transfer or release of a directive without `async` first waits
//!   for it (so does an explicit `wait`, and the program's end). The host does not wait after a
//!   kernel: host code that reads what queued work writes before such a wait — work of another
//!   queue (`update host(a) async(1)` after an auto-async kernel that writes `a`), or under
//!   `auto_async_all` the copy-out of a construct or an `update host` — is racy, and
//!   `accsim check` reports it as an `async-race` naming the model.
//! - `fast_addr`: addresses are computed with 32-bit integers, so a device copy of 2 GiB or
//!   more cannot be addressed correctly: a `cray-limit` warning finding (`check`, the GUI) at
//!   the clause that maps it, before it is allocated. accsim itself addresses it correctly.
//! - `deep_copy`: the man page's rule is for Fortran derived types with allocatable members;
//!   accsim's C reading of it is a struct with pointer members: mapping the struct maps the
//!   heap block each pointer member points into (from the pointer to the block's end) with the
//!   same clause and attaches the member on the device, recursively. Without it (CCE's
//!   default) the device struct holds the host pointers.

/// The implicit activity queue of auto-async work: distinct from every async-argument a program
/// can write (`async(n)` takes an `int`, and the runtime's special values are -1 and -2).
pub const AUTO_ASYNC_QUEUE: i64 = i64::MIN + 1;

/// How a queue is written in messages and traces: `auto` for [`AUTO_ASYNC_QUEUE`].
pub fn queue_name(q: i64) -> String {
    if q == AUTO_ASYNC_QUEUE {
        "auto".into()
    } else {
        q.to_string()
    }
}

/// Option set 1: which work goes on the implicit queue without an `async` clause.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum AutoAsync {
    /// Only what an `async` clause puts on a queue (OpenACC 2.0; accsim's default).
    #[default]
    None,
    /// Kernels of compute constructs (CCE's default).
    Kernel,
    /// Kernels, and the transfers of data constructs, `update`, `enter data` and `exit data`.
    All,
}

/// CCE's `-h acc_model=…`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct AccModel {
    pub auto_async: AutoAsync,
    pub fast_addr: bool,
    pub deep_copy: bool,
}

impl AccModel {
    /// CCE's default, `auto_async_kernel:fast_addr:no_deep_copy` (what `--cray` selects).
    pub const CRAY_DEFAULT: AccModel = AccModel { auto_async: AutoAsync::Kernel, fast_addr: true, deep_copy: false };

    /// The option names, set by set.
    pub const OPTIONS: [&'static str; 7] =
        ["auto_async_none", "auto_async_kernel", "auto_async_all", "fast_addr", "no_fast_addr", "deep_copy", "no_deep_copy"];

    /// Apply `option[:option…]` to `self` (the options not named keep their value); an unknown
    /// option, or two of one set, is an error naming it.
    pub fn with_options(mut self, text: &str) -> Result<AccModel, String> {
        let mut seen = [None::<&str>; 3];
        for option in text.split(':').map(str::trim) {
            let set = match option {
                "auto_async_none" => {
                    self.auto_async = AutoAsync::None;
                    0
                }
                "auto_async_kernel" => {
                    self.auto_async = AutoAsync::Kernel;
                    0
                }
                "auto_async_all" => {
                    self.auto_async = AutoAsync::All;
                    0
                }
                "fast_addr" | "no_fast_addr" => {
                    self.fast_addr = option == "fast_addr";
                    1
                }
                "deep_copy" | "no_deep_copy" => {
                    self.deep_copy = option == "deep_copy";
                    2
                }
                _ => return Err(format!("unknown acc_model option `{option}`: expected one of {}", Self::OPTIONS.join(", "))),
            };
            if let Some(other) = seen[set].replace(option) {
                return Err(format!("`{other}` and `{option}` are of one option set: only one member of a set may be used at a time"));
            }
        }
        Ok(self)
    }

    /// The member of option set 1 in force (`auto_async_kernel`).
    pub fn auto_async_name(&self) -> &'static str {
        match self.auto_async {
            AutoAsync::None => "auto_async_none",
            AutoAsync::Kernel => "auto_async_kernel",
            AutoAsync::All => "auto_async_all",
        }
    }

    /// The model as CCE writes it (`auto_async_kernel:fast_addr:no_deep_copy`).
    pub fn name(&self) -> String {
        let a = self.auto_async_name();
        let f = if self.fast_addr { "fast_addr" } else { "no_fast_addr" };
        let d = if self.deep_copy { "deep_copy" } else { "no_deep_copy" };
        format!("{a}:{f}:{d}")
    }

    /// Does a kernel of a compute construct without `async` go on the implicit queue?
    pub fn kernels_async(&self) -> bool {
        self.auto_async != AutoAsync::None
    }

    /// Do the transfers of a directive without `async` go on the implicit queue?
    pub fn transfers_async(&self) -> bool {
        self.auto_async == AutoAsync::All
    }
}

/// Addresses `fast_addr` computes with 32-bit integers: a device copy this large or larger.
pub const FAST_ADDR_LIMIT: u64 = 1 << 31;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_parse_by_set() {
        let m = AccModel::default().with_options("auto_async_all:deep_copy").unwrap_or_default();
        assert_eq!(m, AccModel { auto_async: AutoAsync::All, fast_addr: false, deep_copy: true });
        assert_eq!(AccModel::CRAY_DEFAULT.name(), "auto_async_kernel:fast_addr:no_deep_copy");
        let m = AccModel::CRAY_DEFAULT.with_options("no_fast_addr").unwrap_or_default();
        assert_eq!(m.name(), "auto_async_kernel:no_fast_addr:no_deep_copy");
        assert!(AccModel::default().with_options("auto_async_none:auto_async_all").is_err());
        assert!(AccModel::default().with_options("fast").is_err());
        assert_eq!(queue_name(AUTO_ASYNC_QUEUE), "auto");
        assert_eq!(queue_name(3), "3");
    }
}
