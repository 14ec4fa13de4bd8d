//! accsim's simulator crate: the modeled accelerator run in parallel ([`sim_device::SimDevice`])
//! and the `accsim` command built on it.

pub mod check;
pub mod explore;
pub mod fuzzing;
pub mod json;
pub mod limits;
pub mod outcome;
pub mod sim_device;
pub mod validate;
pub mod weak;
