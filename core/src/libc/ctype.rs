//! ctype
