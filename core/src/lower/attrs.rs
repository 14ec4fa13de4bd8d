//! GNU attributes that change a type's layout (gcc manual, "Common Type Attributes", "Common
//! Variable Attributes"). Every other attribute (`nothrow`, `nonnull`, `format`, `unused`,
//! `deprecated`, `fallthrough` …) changes nothing a program can observe here and is ignored.
//!
//! - `aligned(N)` (or `aligned`: 16, the largest alignment on x86-64) on a struct or union
//!   member raises the member's alignment, and so its offset and the record's alignment and
//!   size; on a struct or union type (after its closing brace, or between `struct` and the tag,
//!   see [`crate::frontend::gnu_attr`]) it raises the record's alignment and rounds its size.
//!   As gcc, it never lowers an alignment. On other declarations it only places an object in
//!   memory, which accsim's allocator decides anyway: ignored.
//! - `packed` (on a struct, union, member or enum), `vector_size` and `scalar_storage_order`
//!   change layout or arithmetic in ways accsim does not model: "not supported" errors, never a
//!   silently different layout.
//! - `mode(M)` on an integer declarator gives it the integer type of that machine mode, keeping
//!   its signedness (glibc: `typedef int register_t __attribute__((__mode__(__word__)))`, a
//!   `long`): `QI`/`byte` 1 byte, `HI` 2, `SI` 4, `DI`/`word`/`pointer` 8. Other modes (`TI`,
//!   floating-point and vector modes) are "not supported" errors.

use lang_c::ast::{DeclarationSpecifier, Extension, SpecifierQualifier, TypeSpecifier};
use lang_c::span::Node;

use super::{LResult, Lowerer};
use crate::ir::{IntType, Type, TypeId};

/// The layout attributes of one declaration.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Layout {
    /// `aligned`: the alignment asked for, in bytes.
    pub aligned: Option<u64>,
}

/// The largest alignment x86-64 gcc uses for `aligned` without an argument.
const BIGGEST_ALIGNMENT: u64 = 16;

impl<'a> Lowerer<'a> {
    /// The layout attributes among `exts`; an error for the ones accsim does not support.
    pub(crate) fn layout_attributes(&mut self, exts: impl IntoIterator<Item = &'a Node<Extension>>) -> LResult<Layout> {
        let mut layout = Layout::default();
        for ext in exts {
            let Extension::Attribute(attr) = &ext.node else { continue };
            let name = attr.name.node.trim_matches('_');
            match name {
                "aligned" => {
                    let n = match attr.arguments.first() {
                        None => BIGGEST_ALIGNMENT,
                        Some(arg) => {
                            let e = self.expr(arg)?;
                            match self.const_int(&e) {
                                Some(n) if n.is_power_of_two() => n,
                                _ => return self.error("attribute", "the argument of `aligned` must be a constant power of two", arg.span),
                            }
                        }
                    };
                    layout.aligned = Some(layout.aligned.unwrap_or(1).max(n));
                }
                _ => self.refuse_unmodelled(ext)?,
            }
        }
        Ok(layout)
    }

    /// An error for an attribute whose layout accsim does not model (any declarator).
    pub(crate) fn refuse_unmodelled(&mut self, ext: &Node<Extension>) -> LResult<()> {
        let Extension::Attribute(attr) = &ext.node else { return Ok(()) };
        let name = attr.name.node.trim_matches('_');
        if matches!(name, "packed" | "vector_size" | "scalar_storage_order") {
            return self.unsupported(format!("the `{name}` attribute (a layout accsim does not model)"), attr.name.span);
        }
        Ok(())
    }

    /// The layout attributes of a struct member's specifier list.
    pub(crate) fn specifier_layout(&mut self, specs: &'a [Node<SpecifierQualifier>]) -> LResult<Layout> {
        self.layout_attributes(specs.iter().flat_map(|s| match &s.node {
            SpecifierQualifier::Extension(e) => e.as_slice(),
            _ => &[],
        }))
    }
}

impl<'a> Lowerer<'a> {
    /// Attributes after a struct or union definition in declaration specifiers apply to the type
    /// (`struct s { … } __attribute__((aligned(16))) v;`): apply them to `ty`.
    pub(crate) fn record_attributes(&mut self, specs: &'a [Node<DeclarationSpecifier>], ty: TypeId) -> LResult<()> {
        let Some(def) = specs.iter().position(|s| matches!(&s.node, DeclarationSpecifier::TypeSpecifier(t) if is_record_definition(&t.node))) else { return Ok(()) };
        let layout = self.layout_attributes(specs[def + 1..].iter().flat_map(|s| match &s.node {
            DeclarationSpecifier::Extension(e) => e.as_slice(),
            _ => &[],
        }))?;
        self.align_record(ty, layout);
        Ok(())
    }

    /// As [`Self::record_attributes`], for a specifier-qualifier list (members, type names).
    pub(crate) fn record_attributes_sq(&mut self, specs: &'a [Node<SpecifierQualifier>], ty: TypeId) -> LResult<()> {
        let Some(def) = specs.iter().position(|s| matches!(&s.node, SpecifierQualifier::TypeSpecifier(t) if is_record_definition(&t.node))) else { return Ok(()) };
        let layout = self.specifier_layout(&specs[def + 1..])?;
        self.align_record(ty, layout);
        Ok(())
    }

    fn align_record(&mut self, ty: TypeId, layout: Layout) {
        let Some(aligned) = layout.aligned else { return };
        let Type::Record(rid) = self.prog.types.get(ty).clone() else { return };
        let Some(rec) = self.prog.types.records.get_mut(rid.0 as usize) else { return };
        rec.align = rec.align.max(aligned);
        rec.size = rec.size.div_ceil(rec.align) * rec.align;
    }
}

/// A struct, union or enum definition (its attributes follow it; an enum's only matter when they
/// are unsupported: `packed` makes it narrower).
fn is_record_definition(t: &TypeSpecifier) -> bool {
    match t {
        TypeSpecifier::Struct(st) => st.node.declarations.is_some(),
        TypeSpecifier::Enum(et) => !et.node.enumerators.is_empty(),
        _ => false,
    }
}

impl<'a> Lowerer<'a> {
    /// `ty` as a `mode(M)` attribute among `exts` makes it (see the module docs); `ty` itself
    /// without one.
    pub(crate) fn apply_mode(&mut self, ty: TypeId, exts: &'a [Node<Extension>]) -> LResult<TypeId> {
        for ext in exts {
            let Extension::Attribute(attr) = &ext.node else { continue };
            if attr.name.node.trim_matches('_') != "mode" {
                continue;
            }
            let mode = attr.arguments.first().and_then(|a| match &a.node {
                lang_c::ast::Expression::Identifier(id) => Some(id.node.name.trim_matches('_').to_string()),
                _ => None,
            });
            let bytes = match mode.as_deref() {
                Some("QI" | "byte") => 1,
                Some("HI") => 2,
                Some("SI") => 4,
                Some("DI" | "word" | "pointer") => 8,
                _ => return self.unsupported(format!("the machine mode `{}` of a `mode` attribute", mode.unwrap_or_default()), attr.name.span),
            };
            let Type::Int(it) = self.prog.types.get(ty).clone() else {
                return self.unsupported("a `mode` attribute on a type that is not an integer", attr.name.span);
            };
            return Ok(self.prog.types.intern(Type::Int(IntType { bytes, signed: it.signed })));
        }
        Ok(ty)
    }
}
