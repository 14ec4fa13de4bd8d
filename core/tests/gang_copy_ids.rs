//! Issue 15 (per-gang costs): the runtime's gang copies (`private`, `firstprivate`, `reduction`,
//! §2.5.9–§2.5.11) live for one launch, so their freed ids are taken again at once, in the
//! order they were freed (`exec::memory`'s module documentation): a launch's gang `g` gets the
//! same ids at every launch, and the allocation table does not grow with launches × gangs.
//! Heap blocks keep waiting in the quarantine, so use after free stays caught there.

use accsim_core::diag::Loc;
use accsim_core::exec::memory::{AllocKind, Memory, Space, QUARANTINE};

const COPY: AllocKind = AllocKind::Runtime("gang-private copy");
const REDUCTION: AllocKind = AllocKind::Runtime("gang-private reduction copy");

/// One launch's copies as the launcher makes and frees them: in gang order.
fn launch(m: &mut Memory, gangs: usize) -> Vec<u32> {
    let ids: Vec<u32> = (0..gangs)
        .flat_map(|_| [COPY, REDUCTION])
        .map(|kind| (m.alloc(8, kind, Space::Device, Loc::default()).expect("gang copy") >> 32) as u32)
        .collect();
    for &id in &ids {
        m.release(accsim_core::exec::memory::AllocId(id), Loc::default());
    }
    ids
}

#[test]
fn gang_copies_take_the_same_ids_at_every_launch() {
    let mut m = Memory::new(1 << 30);
    let first = launch(&mut m, 64);
    let len = m.table_len();
    for _ in 0..100 {
        assert_eq!(launch(&mut m, 64), first, "gang g's copies get the same ids");
    }
    assert_eq!(m.table_len(), len, "the table does not grow with launches");
    // A launch of more gangs takes the freed ids first, then new ones.
    let wider = launch(&mut m, 80);
    assert_eq!(&wider[..first.len()], &first[..]);
    assert_eq!(m.table_len(), len + 2 * 16);
}

#[test]
fn heap_blocks_still_wait_in_the_quarantine() {
    let mut m = Memory::new(1 << 30);
    let copies = launch(&mut m, 4);
    let p = m.alloc(16, AllocKind::Heap, Space::Host, Loc::default()).expect("heap block");
    assert!(!copies.contains(&((p >> 32) as u32)), "a heap block never takes a gang copy's id");
    m.free_heap(p, Loc::default()).expect("free");
    let q = m.alloc(16, AllocKind::Heap, Space::Host, Loc::default()).expect("heap block");
    assert_ne!(p >> 32, q >> 32, "a freed heap id waits for {QUARANTINE} newer frees");
    assert!(m.free_heap(p, Loc::default()).is_err(), "the dangling pointer's double free is still caught");
}
