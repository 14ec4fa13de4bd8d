//! The kinds of finding: what `accsim check` (its checkers, simulator/src/check), the run's
//! runtime checks and the compiler's analyses report about a program's use of OpenACC, each with
//! the rule of the specification it rests on.
//!
//! A finding is a [`Diagnostic`] whose `kind` is the [`FindingKind::name`] of its kind: the
//! name is what text, JSON and SARIF output show and what tests match on (serialised as that
//! string, unchanged). Other diagnostics (syntax errors, traps, the data-environment errors of
//! the runtime) keep their own kind words.

use crate::diag::{Diagnostic, Loc, Severity};

/// A kind of finding (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FindingKind {
    /// Two threads of one kernel touch one device location, one writing, unordered.
    DataRace,
    /// The host or another queue touches data of work still pending on an activity queue.
    AsyncRace,
    /// The host reads a value whose newest copy is on the device (or was discarded there).
    StaleHostRead,
    /// Device code reads a value whose newest copy is on the host.
    StaleDeviceRead,
    /// Device code reads bytes of a device copy never written on the device.
    UninitDeviceRead,
    /// A copy-in the device never reads, a copy-out of data the device never writes.
    RedundantTransfer,
    /// Host code dereferences a device pointer, or a clause maps device memory as host memory.
    HostDerefDevicePtr,
    /// Device code dereferences a host pointer.
    DeviceDerefHostPtr,
    /// A write in a compute region that the host never sees (a firstprivate or private copy).
    LostWrite,
    /// Where compilers read a program differently, what accsim did.
    Portability,
}

impl FindingKind {
    /// Every kind, in the order of the documentation.
    pub const ALL: [FindingKind; 10] = [
        FindingKind::DataRace,
        FindingKind::AsyncRace,
        FindingKind::StaleHostRead,
        FindingKind::StaleDeviceRead,
        FindingKind::UninitDeviceRead,
        FindingKind::RedundantTransfer,
        FindingKind::HostDerefDevicePtr,
        FindingKind::DeviceDerefHostPtr,
        FindingKind::LostWrite,
        FindingKind::Portability,
    ];

    /// The kind word of the finding's diagnostic (`data-race`), as output and tests show it.
    pub const fn name(self) -> &'static str {
        match self {
            FindingKind::DataRace => "data-race",
            FindingKind::AsyncRace => "async-race",
            FindingKind::StaleHostRead => "stale-host-read",
            FindingKind::StaleDeviceRead => "stale-device-read",
            FindingKind::UninitDeviceRead => "uninit-device-read",
            FindingKind::RedundantTransfer => "redundant-transfer",
            FindingKind::HostDerefDevicePtr => "host-deref-device-ptr",
            FindingKind::DeviceDerefHostPtr => "device-deref-host-ptr",
            FindingKind::LostWrite => "lost-write",
            FindingKind::Portability => "portability",
        }
    }

    /// The sections of the OpenACC 2.0 specification the rule rests on.
    pub const fn section(self) -> &'static str {
        match self {
            FindingKind::DataRace => "§1.2, §1.3, §2.12",
            FindingKind::AsyncRace => "§2.13, §2.14, §3.2.11",
            FindingKind::StaleHostRead | FindingKind::StaleDeviceRead => "§1.3, §2.6, §2.10.1",
            FindingKind::UninitDeviceRead => "§1.3, §2.6.5",
            FindingKind::RedundantTransfer => "§2.6.5",
            FindingKind::HostDerefDevicePtr => "§1.3, §2.6.5.1",
            FindingKind::DeviceDerefHostPtr => "§1.3, §2.6",
            FindingKind::LostWrite => "§2.5.1, §2.6.1",
            FindingKind::Portability => "§2.5.1, §2.6",
        }
    }

    /// The rule, in one sentence.
    pub const fn rule(self) -> &'static str {
        match self {
            FindingKind::DataRace => {
                "two threads of one kernel access one device location, at least one writing and not both atomic, with no synchronisation point between them"
            }
            FindingKind::AsyncRace => {
                "the host, or work on another queue, accesses data that work still pending on an activity queue reads or writes, one of the two writing, with no wait between"
            }
            FindingKind::StaleHostRead => "the host reads data whose newest value was written on the device and not copied back",
            FindingKind::StaleDeviceRead => "device code reads data whose newest value was written on the host and not copied to the device",
            FindingKind::UninitDeviceRead => "device code reads a device copy created without the host values and never written on the device",
            FindingKind::RedundantTransfer => "a transfer copies data the other side never uses during that lifetime of the device copy",
            FindingKind::HostDerefDevicePtr => "host code cannot address device memory: a device pointer is dereferenced on the host, or mapped as host memory",
            FindingKind::DeviceDerefHostPtr => "device code cannot address host memory: a host pointer is dereferenced in device code",
            FindingKind::LostWrite => "a write in a compute region goes to a private or firstprivate copy, which the host never sees",
            FindingKind::Portability => "OpenACC 2.0 and the compilers in use read the program differently; accsim says which reading it ran",
        }
    }

    /// The kind whose name is `name`.
    pub fn named(name: &str) -> Option<FindingKind> {
        FindingKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The kind of a diagnostic, when it is a finding.
    pub fn of(d: &Diagnostic) -> Option<FindingKind> {
        FindingKind::named(d.kind)
    }

    /// A finding of this kind with the given severity and message at `loc`.
    pub fn diagnostic(self, severity: Severity, message: impl Into<String>, loc: Loc) -> Diagnostic {
        let mut d = Diagnostic::error(self.name(), message, loc);
        d.severity = severity;
        d
    }
}

impl std::fmt::Display for FindingKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_distinct_and_round_trip() {
        for k in FindingKind::ALL {
            assert_eq!(FindingKind::named(k.name()), Some(k));
            assert!(k.section().starts_with('§'), "{k} cites its section");
        }
        let mut names: Vec<&str> = FindingKind::ALL.iter().map(|k| k.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), FindingKind::ALL.len());
        assert_eq!(FindingKind::named("syntax"), None);
    }

    #[test]
    fn a_finding_carries_its_kind_word() {
        let d = FindingKind::LostWrite.diagnostic(Severity::Warning, "x", Loc::default());
        assert_eq!(d.kind, "lost-write");
        assert_eq!(d.severity, Severity::Warning);
        assert_eq!(FindingKind::of(&d), Some(FindingKind::LostWrite));
    }
}
