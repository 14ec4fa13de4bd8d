//! The queues of freed ids waiting to be reused ([`super::QUARANTINE`], gang copies).
//!
//! A `Vec` read from a moving front instead of a `VecDeque` (issue 15: the deque's `push_back`
//! was an out-of-line call of 17 instructions on every `free` of calltree's million nodes): a
//! push is the `Vec`'s, a pop moves the front, and the ids already taken are dropped from the
//! front once they are half the vector, so each id is moved at most once on average.

/// Ids in the order they were freed.
#[derive(Debug, Default)]
pub(super) struct IdQueue {
    ids: Vec<u32>,
    /// The ids before this index were taken.
    head: usize,
}

/// Taken ids are dropped from the front once there are this many and they are half the vector.
const COMPACT_AFTER: usize = 1024;

impl IdQueue {
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.ids.len() - self.head
    }

    /// The oldest id.
    #[inline]
    pub(super) fn front(&self) -> Option<&u32> {
        self.ids.get(self.head)
    }

    /// Queue `id`; with no memory for the queue's next entry (a process under `ulimit -v`), the
    /// id is dropped instead, never made again (the allocation table's growth is checked).
    #[inline]
    pub(super) fn push_back(&mut self, id: u32) {
        if self.ids.len() == self.ids.capacity() && !self.grow() {
            return;
        }
        self.ids.push(id);
    }

    /// Room for one more id ([`IdQueue::push_back`]).
    #[cold]
    #[inline(never)]
    fn grow(&mut self) -> bool {
        super::advice::reserve_advised(&mut self.ids, 1)
    }

    /// Take the oldest id.
    #[inline]
    pub(super) fn pop_front(&mut self) -> Option<u32> {
        let id = *self.ids.get(self.head)?;
        self.head += 1;
        if self.head >= COMPACT_AFTER && self.head * 2 >= self.ids.len() {
            self.ids.drain(..self.head);
            self.head = 0;
        }
        Some(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// First in, first out across compactions, with pushes and pops interleaved.
    #[test]
    fn ids_come_out_in_the_order_they_went_in() {
        let mut q = IdQueue::default();
        let (mut pushed, mut popped) = (0u32, 0u32);
        for round in 0..20_000u32 {
            for _ in 0..(round % 3) {
                q.push_back(pushed);
                pushed += 1;
            }
            if round % 2 == 0 {
                if let Some(id) = q.pop_front() {
                    assert_eq!(id, popped);
                    popped += 1;
                }
            }
            assert_eq!(q.len(), (pushed - popped) as usize);
            assert_eq!(q.front().copied(), (popped < pushed).then_some(popped));
        }
        while let Some(id) = q.pop_front() {
            assert_eq!(id, popped);
            popped += 1;
        }
        assert_eq!((popped, q.len()), (pushed, 0));
    }
}
