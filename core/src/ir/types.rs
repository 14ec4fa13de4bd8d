//! C types as accsim models them: x86-64 System V sizes and alignment (gcc's), interned in a
//! [`TypeTable`] and referred to by [`TypeId`].
//!
//! Limits: `long double` is modeled as an IEEE double (sizeof 16, align 16, as gcc lays it out, but
//! computed with 53-bit precision); bit-fields are not supported (a diagnostic says so).

use std::collections::HashMap;

/// Index of an interned type in a [`TypeTable`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(pub u32);

/// Index of a struct or union definition in a [`TypeTable`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RecordId(pub u32);

/// An integer type: its width in bytes (1, 2, 4, 8) and signedness. `_Bool` is [`Type::Bool`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct IntType {
    pub bytes: u8,
    pub signed: bool,
}

impl IntType {
    pub const CHAR: IntType = IntType { bytes: 1, signed: true };
    pub const UCHAR: IntType = IntType { bytes: 1, signed: false };
    pub const SHORT: IntType = IntType { bytes: 2, signed: true };
    pub const USHORT: IntType = IntType { bytes: 2, signed: false };
    pub const INT: IntType = IntType { bytes: 4, signed: true };
    pub const UINT: IntType = IntType { bytes: 4, signed: false };
    pub const LONG: IntType = IntType { bytes: 8, signed: true };
    pub const ULONG: IntType = IntType { bytes: 8, signed: false };
    pub fn bits(self) -> u32 {
        self.bytes as u32 * 8
    }

    /// The 64-bit word `v` as a value of this type: its low bytes, sign- or zero-extended
    /// (C11 §6.3.1.3: conversion to an unsigned type is modulo 2^bits; to a signed type gcc
    /// wraps the same way).
    pub fn wrap(self, v: u64) -> u64 {
        match (self.bytes, self.signed) {
            (1, true) => v as i8 as i64 as u64,
            (1, false) => v as u8 as u64,
            (2, true) => v as i16 as i64 as u64,
            (2, false) => v as u16 as u64,
            (4, true) => v as i32 as i64 as u64,
            (4, false) => v as u32 as u64,
            _ => v,
        }
    }
}

/// Floating-point kinds. `LongDouble` computes as `f64` (see module docs).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FloatKind {
    F32,
    F64,
    LongDouble,
}

impl FloatKind {
    /// Storage size in bytes (long double: 16, as gcc on x86-64).
    pub fn bytes(self) -> u64 {
        match self {
            FloatKind::F32 => 4,
            FloatKind::F64 => 8,
            FloatKind::LongDouble => 16,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Void,
    Bool,
    Int(IntType),
    Float(FloatKind),
    /// `float _Complex` etc.: two floats, real then imaginary.
    Complex(FloatKind),
    Pointer(TypeId),
    /// A fixed-size array; `None` length = incomplete (`extern int a[];`, flexible member).
    Array(TypeId, Option<u64>),
    /// A variable-length array: the element count lives in a hidden local of the function that
    /// declared it (evaluated once, when the declaration is reached, C11 6.7.6.2).
    Vla(TypeId, LocalId),
    Record(RecordId),
    Function(FuncSig),
}

/// A function type. `params` are after adjustment (arrays and functions to pointers).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FuncSig {
    pub ret: TypeId,
    pub params: Vec<TypeId>,
    pub variadic: bool,
    /// `int f()` — no prototype: arguments get the default promotions.
    pub unprototyped: bool,
}

/// A struct or union layout. Members in declaration order with byte offsets.
#[derive(Clone, Debug)]
pub struct Record {
    pub name: Option<String>,
    pub is_union: bool,
    pub members: Vec<Member>,
    pub size: u64,
    pub align: u64,
    /// False until the closing brace is seen (`struct s;` forward declarations).
    pub complete: bool,
}

#[derive(Clone, Debug)]
pub struct Member {
    /// `None` for an anonymous struct/union member (its fields are found through it), and for an
    /// unnamed bit-field.
    pub name: Option<String>,
    pub ty: TypeId,
    /// Byte offset; for a bit-field, of the storage unit (of the declared type) that holds it.
    pub offset: u64,
    pub bits: Option<BitField>,
}

/// Where a bit-field lives inside its storage unit (gcc's x86-64 layout: little-endian, allocated
/// from the least significant bit, never straddling a unit of its declared type).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BitField {
    pub shift: u8,
    pub width: u8,
}

/// Interned types plus record definitions. Types are compared by id.
#[derive(Clone, Debug, Default)]
pub struct TypeTable {
    types: Vec<Type>,
    index: HashMap<Type, TypeId>,
    pub records: Vec<Record>,
}

/// Local variable / hidden slot of a function (see [`crate::ir::Function::locals`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LocalId(pub u32);

impl TypeTable {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn intern(&mut self, ty: Type) -> TypeId {
        if let Some(&id) = self.index.get(&ty) {
            return id;
        }
        let id = TypeId(self.types.len() as u32);
        self.types.push(ty.clone());
        self.index.insert(ty, id);
        id
    }

    pub fn get(&self, id: TypeId) -> &Type {
        &self.types[id.0 as usize]
    }

    /// The id of `ty` if it has been interned.
    pub fn lookup(&self, ty: &Type) -> Option<TypeId> {
        self.index.get(ty).copied()
    }

    pub fn record(&self, id: RecordId) -> &Record {
        &self.records[id.0 as usize]
    }

    pub fn void(&mut self) -> TypeId {
        self.intern(Type::Void)
    }
    pub fn int(&mut self, it: IntType) -> TypeId {
        self.intern(Type::Int(it))
    }
    pub fn pointer_to(&mut self, t: TypeId) -> TypeId {
        self.intern(Type::Pointer(t))
    }

    /// Size in bytes of a complete, fixed-size type. `None` for void, functions, incomplete arrays
    /// and records, and VLAs (whose size is only known at run time).
    pub fn size_of(&self, id: TypeId) -> Option<u64> {
        match self.get(id) {
            Type::Void | Type::Function(_) | Type::Vla(..) => None,
            Type::Bool => Some(1),
            Type::Int(i) => Some(i.bytes as u64),
            Type::Float(f) => Some(f.bytes()),
            Type::Complex(f) => Some(2 * f.bytes()),
            Type::Pointer(_) => Some(8),
            Type::Array(elem, Some(n)) => self.size_of(*elem).map(|s| s * n),
            Type::Array(_, None) => None,
            Type::Record(r) => {
                let rec = self.record(*r);
                rec.complete.then_some(rec.size)
            }
        }
    }

    /// Is this a variable-length array or an array of them (C11 6.7.6.2: "variably modified"),
    /// whose size is only known at run time (from its count locals)?
    pub fn is_variably_modified(&self, id: TypeId) -> bool {
        match self.get(id) {
            Type::Vla(..) => true,
            Type::Array(elem, _) => self.is_variably_modified(*elem),
            _ => false,
        }
    }

    /// Alignment in bytes (x86-64 SysV). VLAs and arrays align as their element.
    pub fn align_of(&self, id: TypeId) -> u64 {
        match self.get(id) {
            Type::Void | Type::Function(_) => 1,
            Type::Bool => 1,
            Type::Int(i) => i.bytes as u64,
            Type::Float(f) => f.bytes(),
            Type::Complex(f) => f.bytes(),
            Type::Pointer(_) => 8,
            Type::Array(elem, _) | Type::Vla(elem, _) => self.align_of(*elem),
            Type::Record(r) => self.record(*r).align,
        }
    }

    pub fn is_integer(&self, id: TypeId) -> bool {
        matches!(self.get(id), Type::Int(_) | Type::Bool)
    }
    pub fn is_float(&self, id: TypeId) -> bool {
        matches!(self.get(id), Type::Float(_))
    }
    pub fn is_arithmetic(&self, id: TypeId) -> bool {
        matches!(self.get(id), Type::Int(_) | Type::Bool | Type::Float(_) | Type::Complex(_))
    }
    pub fn is_pointer(&self, id: TypeId) -> bool {
        matches!(self.get(id), Type::Pointer(_))
    }
    pub fn is_scalar(&self, id: TypeId) -> bool {
        matches!(self.get(id), Type::Int(_) | Type::Bool | Type::Float(_) | Type::Pointer(_))
    }
    /// Pointee of a pointer type.
    pub fn pointee(&self, id: TypeId) -> Option<TypeId> {
        match self.get(id) {
            Type::Pointer(t) => Some(*t),
            _ => None,
        }
    }

    /// The C spelling of a type, for diagnostics and `accsim info` (`double *`, `int [10]`).
    pub fn display(&self, id: TypeId) -> String {
        match self.get(id) {
            Type::Void => "void".into(),
            Type::Bool => "_Bool".into(),
            Type::Int(i) => {
                let base = match i.bytes {
                    1 => "char",
                    2 => "short",
                    4 => "int",
                    _ => "long",
                };
                if i.signed {
                    if i.bytes == 1 { "signed char".into() } else { base.into() }
                } else {
                    format!("unsigned {base}")
                }
            }
            Type::Float(FloatKind::F32) => "float".into(),
            Type::Float(FloatKind::F64) => "double".into(),
            Type::Float(FloatKind::LongDouble) => "long double".into(),
            Type::Complex(k) => {
                let f = self.display_float(*k);
                format!("{f} _Complex")
            }
            Type::Pointer(t) => format!("{} *", self.display(*t)),
            Type::Array(..) | Type::Vla(..) => {
                // Dimensions outermost first, as C writes them: `int [6][10]`.
                let mut dims = String::new();
                let mut t = id;
                loop {
                    match self.get(t) {
                        Type::Array(_, Some(n)) => dims.push_str(&format!("[{n}]")),
                        Type::Array(_, None) => dims.push_str("[]"),
                        Type::Vla(..) => dims.push_str("[*]"),
                        _ => break,
                    }
                    t = match self.get(t) {
                        Type::Array(e, _) | Type::Vla(e, _) => *e,
                        _ => break,
                    };
                }
                format!("{} {dims}", self.display(t))
            }
            Type::Record(r) => {
                let rec = self.record(*r);
                let kw = if rec.is_union { "union" } else { "struct" };
                match &rec.name {
                    Some(n) => format!("{kw} {n}"),
                    None => format!("{kw} <anonymous>"),
                }
            }
            Type::Function(sig) => {
                let ps: Vec<String> = sig.params.iter().map(|p| self.display(*p)).collect();
                format!("{} ({})", self.display(sig.ret), ps.join(", "))
            }
        }
    }

    fn display_float(&self, k: FloatKind) -> &'static str {
        match k {
            FloatKind::F32 => "float",
            FloatKind::F64 => "double",
            FloatKind::LongDouble => "long double",
        }
    }
}
