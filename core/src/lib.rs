//! accsim-core: the front-end (preprocessor, directive extraction, lang-c parse), the OpenACC
//! directive parser, lowering to accsim's typed IR, the host interpreter with its C library shim,
//! the data environment and the `Device` seam. See `docs/DESIGN.md` for the pipeline.
//!
//! Nothing downstream of [`lower`] looks at lang-c's AST: the IR in [`ir`] is the contract.

pub mod data;
pub mod diag;
pub mod dialect;
pub mod directive;
pub mod driver;
pub mod exec;
pub mod finding;
pub mod frontend;
pub mod ir;
pub mod kernel;
pub mod libc;
pub mod lower;
pub mod phase;
