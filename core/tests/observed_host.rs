//! `exec::observed_host` (issue 15, `accsim check` on native host code): the spans a native
//! engine reads for the host allocations a checker follows.

use accsim_core::diag::Loc;
use accsim_core::exec::memory::{AllocKind, Memory, Space};
use accsim_core::exec::observed_host::ObservedHost;

/// A followed allocation has an empty span from the next look at the changes on (native
/// code then takes the slow path, which reports its accesses); the others keep theirs; a
/// change of the followed set is a change of the whole table; following every access
/// empties every span.
#[test]
fn followed_allocations_have_empty_spans() {
    let mut m = Memory::new(1 << 20);
    let a = m.alloc(64, AllocKind::Heap, Space::Host, Loc::default()).unwrap();
    let b = m.alloc(64, AllocKind::Heap, Space::Host, Loc::default()).unwrap();
    let (ida, idb) = ((a >> 32) as u32, (b >> 32) as u32);
    m.track_changes();
    let observed = ObservedHost::new();
    m.follow_observed(observed.clone());
    assert!(m.take_changes(Vec::new()).all);
    assert_eq!(m.host_span(ida).readable, 64);
    observed.set(ida, true);
    let changes = m.take_changes(Vec::new());
    assert!(changes.all);
    assert_eq!((m.host_span(ida).readable, m.host_span(ida).writable), (0, 0));
    assert_eq!(m.host_span(idb).writable, 64);
    assert!(!m.take_changes(Vec::new()).all, "nothing changed since");
    observed.set_all(true);
    assert!(m.take_changes(Vec::new()).all);
    assert_eq!(m.host_span(idb).readable, 0);
    observed.set_all(false);
    observed.set(ida, false);
    assert!(m.take_changes(Vec::new()).all);
    assert_eq!(m.host_span(ida).readable, 64);
}
