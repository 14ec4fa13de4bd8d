//! The memory-model seam (the weak-coherence store buffers of `accsim run --coherence weak`,
//! §1.3): a [`MemoryModel`] is no observer, it may change what an access sees, so the checking
//! hooks ([`super::check`]) call it *before* each access and at each device-thread change, with
//! the memory the device code runs on.

use super::events::{Access, ThreadEvent};
use super::memory::Memory;

/// A memory model: changes what the accesses of device code see (the store buffers of weak
/// coherence, §1.3). Called only by an executable compiled for checking.
pub trait MemoryModel: Send {
    /// Called before an access is made, with the memory it will use. A read-modify-write calls
    /// it once, with `write` set.
    fn before_access(&mut self, mem: &mut Memory, a: &Access);

    /// Called at every [`ThreadEvent`] with the memory the device code runs on, before the
    /// event is delivered to the subscribers: a memory model switches between the threads'
    /// views here.
    fn thread(&mut self, mem: &mut Memory, e: ThreadEvent);

    /// A kernel starts (`on_host`: it runs on the host with host data, `if(false)`).
    fn launch(&mut self, on_host: bool);
}

