//! rand
