//! Diagnostics: locations, the three classes (program bug, unsupported, internal), rendering.
