//! The OpenACC 2.0 directive parser: the text of one directive after `#pragma acc` (or inside
//! `_Pragma("acc ...")`) to a typed [`Directive`] with byte spans, or a [`DirectiveError`] with
//! a span and help.
//!
//! Implements spec chapter 2 for C: the directive format (§2.1), `device_type` groups (§2.4),
//! the compute constructs (§2.5), the data constructs, directives and clauses with their
//! abbreviations (§2.6), `loop` (§2.7), `cache` (§2.8), the combined directives (§2.9),
//! `declare` (§2.10), `update`, `wait`, `enter data`, `exit data` (§2.11, §2.13), `routine`
//! (§2.12) and `atomic` (ratified 2.0). [`rules`] says where each clause may appear and where the
//! seed draft and the ratified 2.0 text differ.
//!
//! Layout: `lexer` (tokens) → `parse` (names, arguments, var-lists) → `check` (restrictions
//! across clauses); `ast` holds the types, `display` the names and the normalized printing,
//! `suggest` the "did you mean" help.
//!
//! Limits:
//! - C expressions in clauses are kept as text ([`ExprSrc`]) and split only at top-level commas
//!   and colons; they are parsed and type-checked by the lowering, in scope. So are the rules
//!   that need types or constant values (`collapse` must be a positive constant, var-list items
//!   must be variables of the right kind, `deviceptr` takes pointers …).
//! - Restrictions that depend on where the directive appears (nesting, `gang` inside `gang`,
//!   `routine` levels at call sites) are checked by the validator.
//! - Fortran forms and the PGI Accelerator 1.3 dialect are not parsed here.
//! - The first error ends parsing; there is no recovery.
//!
//! No input makes it panic: all indexing is checked (see the garbling test in `tests`).

mod ast;
mod check;
mod display;
mod lexer;
mod parse;
pub mod rules;
mod suggest;

#[cfg(test)]
mod tests;

pub use ast::*;
pub use parse::parse_directive;
pub use rules::ClauseName;
