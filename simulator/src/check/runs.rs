//! Run-length shadow state: a value per byte of a range, stored as maximal runs of equal
//! non-zero values (absent bytes are 0). The top three bits of a value are its *class*; the
//! number of runs of each class is kept, so "is any byte of class c here?" is O(1).
//!
//! The coherence checker keeps one 32-bit cell per byte of mapped data; whole-array transfers
//! and whole-array kernel writes make long runs of one cell, so the state of an array is a few
//! runs instead of four bytes per byte. **Cost:** O(log r + k) per operation, for r runs and k
//! runs touched.

use std::collections::BTreeMap;
use std::ops::Range;

/// Values of byte offsets `0..u32::MAX`, 0 where nothing is stored.
#[derive(Default, Debug)]
pub struct Runs {
    /// start → (end, value); runs are disjoint, non-empty, non-zero, and adjacent runs have
    /// different values.
    map: BTreeMap<u32, (u32, u32)>,
    /// Runs by class.
    counts: [u32; 8],
    /// The run filled last, (start, end, value), and the start of the run after it
    /// (`u32::MAX` if none): element by element writes extend it without a search.
    last: Option<(u32, u32, u32, u32)>,
}

/// The class of a value (its top three bits).
pub const fn class(v: u32) -> usize {
    (v >> 29) as usize
}

impl Runs {
    /// Is every value 0 (nothing stored)?
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Is some run of class `c` stored?
    pub fn has_class(&self, c: usize) -> bool {
        self.counts[c] > 0
    }

    fn insert(&mut self, s: u32, e: u32, v: u32) {
        if let Some((_, old)) = self.map.insert(s, (e, v)) {
            self.counts[class(old)] -= 1;
        }
        self.counts[class(v)] += 1;
    }

    fn remove(&mut self, s: u32) {
        if let Some((_, old)) = self.map.remove(&s) {
            self.counts[class(old)] -= 1;
        }
    }

    /// The runs overlapping `r`, clipped to it, in address order.
    pub fn iter(&self, r: Range<u32>) -> impl Iterator<Item = (Range<u32>, u32)> + '_ {
        // The run containing r.start, if it starts before it.
        let before = self.map.range(..r.start).next_back().filter(|(_, &(e, _))| e > r.start);
        let end = r.end;
        let start = r.start;
        before
            .into_iter()
            .chain(self.map.range(r.start..r.end.max(r.start)))
            .map(move |(&s, &(e, v))| (s.max(start)..e.min(end), v))
            .filter(|(c, _)| c.start < c.end)
    }

    /// The value of the first byte of `r` (in address order) whose value satisfies `pred`.
    pub fn find(&self, r: Range<u32>, pred: impl Fn(u32) -> bool) -> Option<u32> {
        if let Some((s, e, v, next)) = self.last {
            if s <= r.start && r.end <= e {
                return Some(v).filter(|&v| pred(v));
            }
            if e <= r.start && r.end <= next {
                return None;
            }
        }
        self.iter(r).map(|(_, v)| v).find(|&v| pred(v))
    }

    /// Set every byte of `r` to `v`.
    pub fn fill(&mut self, r: Range<u32>, v: u32) {
        if r.start >= r.end {
            return;
        }
        // Fast path: `r` lies inside or just after the last run, with its value, before the
        // next run.
        if let Some((s, e, x, next)) = self.last {
            if x == v && s <= r.start && r.start <= e && r.end < next {
                if r.end > e {
                    if let Some(run) = self.map.get_mut(&s) {
                        run.0 = r.end;
                    }
                    self.last = Some((s, r.end, x, next));
                }
                return;
            }
        }
        self.last = None;
        // Fast path: `r` lies inside one run of the same value.
        if let Some((_, &(e, x))) = self.map.range(..=r.start).next_back() {
            if x == v && e >= r.end {
                return;
            }
        }
        // Split the run that straddles r.start.
        if let Some((&s, &(e, x))) = self.map.range(..r.start).next_back() {
            if e > r.start {
                self.insert(s, r.start, x);
                if e > r.end {
                    self.insert(r.end, e, x);
                }
            }
        }
        // Remove the runs that start inside `r`, keeping the tail of the last.
        let inside: Vec<(u32, (u32, u32))> = self.map.range(r.start..r.end).map(|(&s, &ex)| (s, ex)).collect();
        for (s, (e, x)) in inside {
            self.remove(s);
            if e > r.end {
                self.insert(r.end, e, x);
            }
        }
        if v == 0 {
            return;
        }
        let (mut start, mut end) = (r.start, r.end);
        // Merge with equal neighbours.
        if let Some((&s, &(e, x))) = self.map.range(..start).next_back() {
            if e == start && x == v {
                self.remove(s);
                start = s;
            }
        }
        if let Some(&(e, x)) = self.map.get(&end) {
            if x == v {
                self.remove(end);
                end = e;
            }
        }
        self.insert(start, end, v);
        let next = self.map.range(end..).next().map_or(u32::MAX, |(&s, _)| s);
        self.last = Some((start, end, v, next));
    }
}

#[cfg(test)]
mod tests {
    use super::Runs;

    fn dense(r: &Runs, n: u32) -> Vec<u32> {
        let mut v = vec![0; n as usize];
        for (c, x) in r.iter(0..n) {
            for i in c {
                v[i as usize] = x;
            }
        }
        v
    }

    #[test]
    fn fill_matches_a_dense_array() {
        let mut r = Runs::default();
        let mut d = vec![0u32; 64];
        // A deterministic mix of overlapping fills, zero fills and merges.
        let ops: &[(u32, u32, u32)] = &[(0, 64, 3), (8, 16, 5), (12, 20, 0), (20, 24, 3), (0, 4, 5), (4, 8, 5), (30, 31, 7), (31, 40, 7), (2, 62, 0), (10, 11, 9), (11, 12, 9), (9, 13, 9), (40, 48, 3 << 29 | 1), (44, 46, 0), (48, 50, 3 << 29 | 1), (50, 52, 3 << 29 | 1), (52, 53, 3 << 29 | 1), (53, 60, 6), (52, 53, 3 << 29 | 1)];
        for &(s, e, v) in ops {
            r.fill(s..e, v);
            d[s as usize..e as usize].fill(v);
            assert_eq!(dense(&r, 64), d, "after fill({s}..{e}, {v})");
        }
        // Runs stay maximal: 9 at 9..13 is one run.
        assert_eq!(r.iter(0..64).filter(|(_, v)| *v == 9).count(), 1);
        assert_eq!(r.find(0..64, |v| v == 9), Some(9));
        assert_eq!(r.find(13..64, |v| v == 9), None);
        for i in 0..64 {
            assert_eq!(r.find(i..i + 1, |_| true), Some(d[i as usize]).filter(|&v| v != 0), "find at {i}");
        }
        // Class counts follow the runs.
        for c in 0..8 {
            assert_eq!(r.has_class(c), r.iter(0..64).any(|(_, v)| super::class(v) == c), "class {c}");
        }
    }
}
