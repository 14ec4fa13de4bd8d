//! Front-end: system preprocessor, `#pragma acc` extraction, lang-c parse.
