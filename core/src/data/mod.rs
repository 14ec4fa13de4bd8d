//! The data environment (OpenACC 2.0 §2.6): the present table and the data-clause actions above
//! the `Device` seam.

pub mod present;
