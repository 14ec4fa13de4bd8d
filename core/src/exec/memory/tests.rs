//! Unit tests of [`Memory`]: stores, copies, views and the native engine's spans.

use super::*;

fn alloc(m: &mut Memory, size: u64, space: Space) -> u64 {
    m.alloc(size, AllocKind::Heap, space, Loc::default()).unwrap()
}

fn pattern(len: usize, seed: u8) -> Vec<u8> {
    (0..len).map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed)).collect()
}

/// `memmove` between every pair of host and device stores, at unaligned offsets and over
/// more than one staging chunk, gives the bytes a byte-by-byte copy gives.
#[test]
fn copy_between_stores_moves_exactly_the_range() {
    let len = 3 * CHUNK + 13;
    for from in [Space::Host, Space::Device] {
        for to in [Space::Host, Space::Device] {
            let mut m = Memory::new(1 << 30);
            let src = alloc(&mut m, len as u64 + 16, from);
            let dst = alloc(&mut m, len as u64 + 16, to);
            let before = pattern(len + 16, 7);
            let data = pattern(len + 16, 99);
            m.write_bytes(src, &data).unwrap();
            m.write_bytes(dst, &before).unwrap();
            m.copy(dst + 5, src + 3, len as u64).unwrap();
            let got = m.read_bytes(dst, len as u64 + 16).unwrap().into_owned();
            let mut want = before.clone();
            want[5..5 + len].copy_from_slice(&data[3..3 + len]);
            assert_eq!(got, want, "{from:?} -> {to:?}");
        }
    }
}

/// Overlapping moves inside one allocation are `memmove`s on both sides (C11 7.24.2.2).
#[test]
fn copy_within_one_allocation_allows_overlap() {
    for space in [Space::Host, Space::Device] {
        let mut m = Memory::new(1 << 30);
        let p = alloc(&mut m, 64, space);
        let data = pattern(64, 1);
        m.write_bytes(p, &data).unwrap();
        m.copy(p + 3, p, 40).unwrap();
        let mut want = data.clone();
        want.copy_within(0..40, 3);
        assert_eq!(m.read_bytes(p, 64).unwrap().into_owned(), want, "{space:?}");
    }
}

#[test]
fn copy_faults_name_the_side_that_fails() {
    let mut m = Memory::new(1 << 30);
    let host = alloc(&mut m, 16, Space::Host);
    let dev = alloc(&mut m, 16, Space::Device);
    let past_source = m.copy(host, dev + 8, 9).unwrap_err();
    assert_eq!((past_source.kind, past_source.write), (FaultKind::OutOfBounds, false));
    let past_target = m.copy(dev + 8, host, 9).unwrap_err();
    assert_eq!((past_target.kind, past_target.write), (FaultKind::OutOfBounds, true));
    let lit = m.alloc_init(b"abc\0", AllocKind::StringLiteral(0), true, Loc::default()).unwrap();
    assert_eq!(m.copy(lit, host, 4).unwrap_err().kind, FaultKind::ReadOnly);
    m.copy(dev, lit, 4).unwrap();
    assert_eq!(m.read_bytes(dev, 4).unwrap().into_owned(), b"abc\0");
    m.free_heap(host, Loc::default()).unwrap();
    assert_eq!(m.copy(dev, host, 1).unwrap_err().kind, FaultKind::UseAfterFree);
    let live = alloc(&mut m, 16, Space::Host);
    let mut view = m.device_view(&[], false);
    assert_eq!(view.copy(dev, live, 1).unwrap_err().kind, FaultKind::HostMemory);
}

/// A string in device memory reads as in host memory: up to its NUL, or `max` bytes, or a
/// fault one past the end of the allocation.
#[test]
fn c_strings_read_alike_from_host_and_device_memory() {
    let len = 2 * CHUNK + 5;
    for space in [Space::Host, Space::Device] {
        let mut m = Memory::new(1 << 30);
        let p = alloc(&mut m, len as u64, space);
        m.fill(p, b'x', len as u64).unwrap();
        m.store_u8(p + CHUNK as u64 + 3, 0).unwrap();
        let s = m.read_c_string(p + 2, None).unwrap();
        assert_eq!(s.len(), CHUNK + 1, "{space:?}");
        assert_eq!(m.read_c_string(p, Some(7)).unwrap(), b"xxxxxxx", "{space:?}");
        assert_eq!(m.read_c_string(p + len as u64, Some(7)).unwrap_err().ptr, p + len as u64);
        let past = m.read_c_string(p + CHUNK as u64 + 4, None).unwrap_err();
        assert_eq!((past.kind, past.ptr), (FaultKind::OutOfBounds, p + len as u64), "{space:?}");
        assert_eq!(m.read_c_string(p + CHUNK as u64 + 4, Some(CHUNK + 1)).unwrap().len(), CHUNK + 1);
        assert_eq!(m.read_c_string(p + CHUNK as u64 + 4, Some(CHUNK + 2)).unwrap_err().kind, FaultKind::OutOfBounds);
    }
}

#[test]
fn fill_of_device_memory_sets_only_the_range() {
    let mut m = Memory::new(1 << 30);
    let len = CHUNK + 9;
    let dev = alloc(&mut m, len as u64 + 8, Space::Device);
    m.fill(dev + 3, 0xab, len as u64).unwrap();
    let got = m.read_bytes(dev, len as u64 + 8).unwrap().into_owned();
    let mut want = vec![0; len + 8];
    want[3..3 + len].fill(0xab);
    assert_eq!(got, want);
}

/// The device views of a launch share the host memory's table (one `Arc`, not a copy each,
/// whatever the number of host allocations), and the host memory gets it back whole.
#[test]
fn device_views_share_the_lent_table() {
    let mut m = Memory::new(1 << 30);
    let host: Vec<u64> = (0..1000).map(|_| alloc(&mut m, 4, Space::Host)).collect();
    let n = m.next_id();
    let views: Vec<Memory> = (0..8).map(|_| m.device_view(&[], false)).collect();
    for v in &views {
        assert!(Arc::ptr_eq(&v.base, &views[0].base));
        assert!(v.allocs.is_empty());
        assert_eq!(v.next_id(), n);
    }
    assert_eq!(Arc::strong_count(&views[0].base), 9);
    drop(views);
    m.take_back();
    assert_eq!((m.base_len, m.allocs.len() as u32), (0, n));
    m.store_u32(host[999], 7).unwrap();
    assert_eq!(m.load_u32(host[999]).unwrap(), 7);
}

/// What device code sees through a view (§1.3: separate memories): device memory, shared
/// with the other views; read-only host data; no other host memory; freed blocks as freed,
/// with their origin and free site; a mapped global's id names its device copy (§2.13); its
/// own allocations above the lent ids. An inspected view shows host bytes. All as before the
/// table was shared.
#[test]
fn device_view_addresses_device_memory_only() {
    let at = |line| Loc { file: crate::diag::FileId(0), line, col: 1 };
    let mut m = Memory::new(1 << 30);
    let g = m.alloc(8, AllocKind::Global(0), Space::Host, at(1)).unwrap();
    m.store_u64(g, 11).unwrap();
    let gdev = alloc(&mut m, 8, Space::Device);
    m.store_u64(gdev, 22).unwrap();
    let host = alloc(&mut m, 4, Space::Host);
    m.store_u32(host, 5).unwrap();
    let freed = m.alloc(4, AllocKind::Heap, Space::Host, at(2)).unwrap();
    m.free_heap(freed, at(3)).unwrap();
    let lit = m.alloc_init(b"hi\0", AllocKind::StringLiteral(0), true, at(4)).unwrap();
    let dev = alloc(&mut m, 8, Space::Device);
    let n = m.next_id();
    let globals = [((g >> 32) as u32, (gdev >> 32) as u32)];
    let mut v = m.device_view(&globals, true);
    let plain = m.device_view(&globals, false);

    assert_eq!(v.load_u32(host).unwrap_err().kind, FaultKind::HostMemory);
    assert_eq!(v.store_u32(host, 1).unwrap_err().kind, FaultKind::HostMemory);
    assert_eq!(v.read_bytes(host, 4).unwrap_err().kind, FaultKind::HostMemory);
    assert_eq!(v.free_heap(host, at(5)).unwrap_err().kind, FaultKind::HostMemory);
    assert_eq!(v.read_c_string(lit, None).unwrap(), b"hi");
    let uaf = v.load_u32(freed).unwrap_err();
    assert_eq!(uaf.kind, FaultKind::UseAfterFree);
    let a = v.allocation(uaf.alloc.unwrap()).unwrap();
    assert_eq!((a.origin(), a.freed_at()), (at(2), Some(at(3))));
    assert_eq!(v.load_u64(g).unwrap(), 22);
    v.store_u64(g, 23).unwrap();
    assert_eq!(plain.load_u64(gdev).unwrap(), 23);
    v.store_u64(dev, 9).unwrap();
    assert_eq!(plain.load_u64(dev).unwrap(), 9);

    let frame = v.alloc(8, AllocKind::Local(0, 0), Space::Host, at(6)).unwrap();
    assert_eq!(frame >> 32, n as u64);
    v.store_u64(frame, 3).unwrap();
    v.copy(dev, frame, 8).unwrap();
    assert_eq!(plain.load_u64(dev).unwrap(), 3);
    v.store_u64(dev, 4).unwrap();
    v.copy(frame, dev, 8).unwrap();
    assert_eq!(v.load_u64(frame).unwrap(), 4);
    assert_eq!(plain.load_u64(frame).unwrap_err().kind, FaultKind::Wild);
    // A view of a view cannot address the first one's frames.
    let nested = v.device_view(&globals, false);
    assert_eq!(nested.load_u64(frame).unwrap_err().kind, FaultKind::HostMemory);
    assert_eq!(nested.load_u64(dev).unwrap(), 4);

    assert_eq!(v.inspect_bytes(host, 4), Some(5u32.to_le_bytes().to_vec()));
    assert_eq!(v.inspect_bytes(g, 8), Some(11u64.to_le_bytes().to_vec()));
    assert_eq!(plain.inspect_bytes(host, 4), None);

    drop((v, plain, nested));
    m.take_back();
    assert_eq!(m.next_id(), n);
    assert_eq!(m.load_u64(g).unwrap(), 11);
    assert_eq!(m.load_u64(gdev).unwrap(), 23);
    assert_eq!(m.load_u32(host).unwrap(), 5);
    assert_eq!(m.load_u32(freed).unwrap_err().kind, FaultKind::UseAfterFree);
}

/// The resident set of this process in bytes (Linux: `/proc/self/statm`, pages of 4 KiB).
#[cfg(target_os = "linux")]
fn resident_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap();
    statm.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap() * 4096
}

/// Device memory is zeroed lazily (issue 14): a 1 GiB device block costs no resident memory
/// until written, reads of untouched words are zero, what is written reads back, and the
/// whole size counts against the limit from the start.
#[cfg(target_os = "linux")]
#[test]
fn device_memory_costs_nothing_until_touched() {
    let size = 1u64 << 30;
    let mut m = Memory::new(size + (1 << 20));
    let before = resident_bytes();
    let dev = alloc(&mut m, size, Space::Device);
    let grown = resident_bytes().saturating_sub(before);
    // Other tests of this process allocate at the same time: a wide margin, far below 1 GiB.
    assert!(grown < size / 4, "a 1 GiB device block made {grown} bytes resident");
    assert_eq!(m.live_bytes(), size);
    assert_eq!(m.alloc(2 << 20, AllocKind::Heap, Space::Host, Loc::default()).unwrap_err().kind, FaultKind::MemoryLimit);
    let middle = dev + (size / 2);
    m.store_f64(middle, 2.5).unwrap();
    assert_eq!(m.load_f64(middle).unwrap(), 2.5);
    assert_eq!(m.load_u64(dev).unwrap(), 0);
    assert_eq!(m.load_u64(dev + size - 8).unwrap(), 0);
    assert_eq!(m.read_bytes(middle - 4, 16).unwrap().iter().filter(|&&b| b != 0).count(), 2);
    assert_eq!(m.load_u8(dev + size).unwrap_err().kind, FaultKind::OutOfBounds);
    // A size that is not a multiple of 8: its last word is there, bounds are the size's.
    let mut small = Memory::new(1 << 20);
    let odd = alloc(&mut small, 13, Space::Device);
    small.store_u8(odd + 12, 7).unwrap();
    assert_eq!(small.load_u8(odd + 12).unwrap(), 7);
    assert_eq!(small.load_u32(odd + 12).unwrap_err().kind, FaultKind::OutOfBounds);
}

/// A device view's span ids ([`Memory::span_ids`]) name every id whose span is not empty:
/// device blocks made before and after more host blocks were freed than wait in quarantine
/// (a later one taking a freed id), a global whose host id names its device copy while lent, and the view's own blocks;
/// not a freed device block. Launch after launch (the table lent and taken back).
#[test]
fn a_views_span_ids_name_every_addressable_id() {
    let id = |p: u64| (p >> 32) as u32;
    let mut host = Memory::new(1 << 30);
    let early = alloc(&mut host, 64, Space::Device);
    for _ in 0..QUARANTINE + 16 {
        let b = alloc(&mut host, 16, Space::Host);
        host.free_heap(b, Loc::default()).unwrap();
    }
    let (global_host, global_dev) = (alloc(&mut host, 32, Space::Host), alloc(&mut host, 32, Space::Device));
    let gone = alloc(&mut host, 8, Space::Device);
    host.free_heap(gone, Loc::default()).unwrap();
    let made = host.table_len() as u32;
    let late: Vec<u64> = (0..3).map(|_| alloc(&mut host, 128, Space::Device)).collect();
    assert!(late.iter().any(|&p| id(p) < made), "a late device block takes a freed id");
    assert!(host.span_ids().is_none(), "a host memory may address any id");
    for _launch in 0..2 {
        let mut v = host.device_view(&[(id(global_host), id(global_dev))], false);
        let own = v.alloc(24, AllocKind::Heap, Space::Device, Loc::default()).unwrap();
        let named: std::collections::HashSet<u32> = v.span_ids().expect("a view names its ids").collect();
        for i in 0..v.table_len() as u32 {
            if v.host_span(i) != HostSpan::default() {
                assert!(named.contains(&i), "id {i} has a span and is not named");
            }
        }
        for p in [early, global_host, global_dev, own].into_iter().chain(late.iter().copied()) {
            assert!(named.contains(&id(p)) && v.host_span(id(p)) != HostSpan::default(), "id {} named and addressable", id(p));
        }
        assert!(!named.contains(&id(gone)) || v.host_span(id(gone)) == HostSpan::default());
        assert!(named.len() <= 8, "not the freed host ids: {}", named.len());
        drop(v);
        host.take_back();
    }
}
