//! Lowering: lang-c's AST of every translation unit → one linked, typed [`ir::Program`].
//!
//! C semantics are made explicit here (see [`crate::ir`]): implicit conversions become casts,
//! arrays decay, lvalues become places, and static initializers become bytes plus relocations.
//! Linking follows C11 6.2.2: names with external linkage are shared by all units; `static` names
//! stay in their unit; functions declared but defined nowhere become [`ir::Extern`]s that the C
//! library shim binds by name.
//!
//! Limits (each reported as "not supported", never silently wrong): bit-fields, K&R function
//! definitions, wide string literals, `_Atomic`, `_Thread_local`, inline assembly.

pub mod acc;
mod acc_rules;
mod atomic;
mod attrs;
mod builtins;
mod consteval;
mod decl;
pub use decl::declarator_name;
mod expr;
mod init;
mod literal;
mod stmt;
mod ty;

use std::collections::{HashMap, HashSet};

use lang_c::ast;

use crate::diag::{Diagnostic, Loc};
use crate::frontend::ParsedUnit;
use crate::ir::*;

/// Lower and link parsed translation units into one program.
pub fn lower_program(units: &[ParsedUnit]) -> Result<Program, Vec<Diagnostic>> {
    let mut cx = Lowerer::new(units);
    cx.collect_definitions();
    for i in 0..units.len() {
        cx.lower_unit(i);
    }
    cx.finish()
}

/// What a name denotes in a scope.
#[derive(Clone, Debug)]
pub(crate) enum Sym {
    Local(LocalId),
    Global(GlobalId),
    Func(FuncId),
    Extern(ExternId),
    EnumConst(i64, TypeId),
    Typedef(TypeId),
}

/// The symbol and its declared type.
#[derive(Clone, Debug)]
pub(crate) struct Binding {
    pub sym: Sym,
    pub ty: TypeId,
}

/// Per-function lowering state.
pub(crate) struct FnCx {
    pub locals: Vec<Local>,
    pub labels: HashMap<String, LabelId>,
    pub defined_labels: HashSet<String>,
    pub goto_uses: Vec<(String, Loc)>,
    pub next_label: u32,
    /// Names whose address is taken somewhere in the body (they get memory storage).
    pub addr_taken: HashSet<String>,
    /// Innermost switch's case table, while lowering its body.
    pub switches: Vec<SwitchCx>,
    pub loop_depth: u32,
    pub ret: TypeId,
    pub name: String,
    pub is_variadic: bool,
    /// Parameters declared with array type (`double C[NI][NJ]`, or a variable-length array
    /// `float C[n][p]`), by local: the outermost extent as declared, lost by the adjustment to a
    /// pointer (for data clauses that name the parameter whole).
    pub param_arrays: HashMap<LocalId, crate::ir::acc::DeclaredExtent>,
    /// Names declared `extern` in a block of the function (§2.10: such variables may appear only
    /// in some clauses of `declare`).
    pub block_externs: HashSet<String>,
    /// The variables of the function's `declare` directives so far, with the clause naming each
    /// (§2.10: at most once in all of them, and in no data clause of a construct after them).
    pub declared: Vec<(crate::ir::acc::VarRoot, String, Loc)>,
    /// The OpenACC constructs whose statements are being lowered, innermost last
    /// ([`crate::ir::Local::declared_in`]).
    pub constructs: Vec<DirectiveId>,
    /// The labels that open the lowered `host` loops of split PGI 1.3 regions (their updates and
    /// the loop, [`Lowerer::split_region`]): how the split finds them among the lowered
    /// statements.
    pub host_loop_units: HashSet<LabelId>,
}

pub(crate) struct SwitchCx {
    pub cond_ty: TypeId,
    pub cases: Vec<(u64, LabelId, Loc)>,
    pub default: Option<LabelId>,
}

/// The temporary a file-scope (constant) initializer asks for: never read or written (see
/// [`Lowerer::new_local`]).
pub(crate) const FILE_SCOPE_TEMP: LocalId = LocalId(u32::MAX);

pub(crate) struct Lowerer<'a> {
    pub units: &'a [ParsedUnit],
    pub prog: Program,
    pub diags: Vec<Diagnostic>,
    /// Names with external linkage: one entity per name across units.
    pub external: HashMap<String, Binding>,
    /// Function definitions found before lowering: (unit, name) for statics, name for externals.
    pub defined_funcs: HashMap<(Option<usize>, String), FuncId>,
    /// Names of objects defined (not just declared `extern`) somewhere in the program.
    pub defined_objects: HashSet<String>,
    /// Lexical scopes of the unit being lowered; `scopes[0]` is file scope.
    pub scopes: Vec<HashMap<String, Binding>>,
    /// struct/union/enum tags per scope.
    pub tags: Vec<HashMap<String, Tag>>,
    pub unit_index: usize,
    pub fcx: Option<FnCx>,
    /// Directive-id offset of the current unit in `prog.directives`.
    pub directive_base: u32,
    /// Bodies waiting for their FuncId slot (definitions are lowered in order).
    pub function_slots: Vec<Option<Function>>,
    pub string_ids: HashMap<Vec<u8>, StrId>,
    pub static_local_count: u32,
    /// Statements computing VLA sizes met while lowering the current statement; emitted before it.
    pub pending_vla_sizes: Vec<Stmt>,
    /// Lowering a function declarator's parameters at file scope (VLA sizes may name parameters).
    pub in_prototype: bool,
    /// Lowering a clause expression of a directive: its spans are in the synthetic text it was
    /// parsed from ([`crate::frontend::acc_exprs`]), and [`Lowerer::loc`] maps them into the
    /// directive's line (issue 17: an undeclared name in a clause was reported at whatever
    /// line of a system header the synthetic offset fell on).
    pub directive_expr: Option<DirectiveExprOrigin>,
}

/// Where a clause expression being lowered was written ([`Lowerer::directive_expr`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct DirectiveExprOrigin {
    /// The directive (id in the unit's sites).
    pub directive: u32,
    /// Where the expression's text starts in the synthetic parse.
    pub parsed_at: usize,
    /// Where it starts in the directive's text, and its length there.
    pub written_at: usize,
    pub len: usize,
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum Tag {
    Record(RecordId),
    Enum(TypeId),
}

/// A lowering failure already reported as a diagnostic.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Reported;
pub(crate) type LResult<T> = Result<T, Reported>;

impl<'a> Lowerer<'a> {
    fn new(units: &'a [ParsedUnit]) -> Self {
        let mut prog = Program::default();
        // Common types first so their ids are stable.
        for t in [Type::Void, Type::Int(IntType::INT)] {
            prog.types.intern(t);
        }
        Lowerer {
            units,
            prog,
            diags: Vec::new(),
            external: HashMap::new(),
            defined_funcs: HashMap::new(),
            defined_objects: HashSet::new(),
            scopes: Vec::new(),
            tags: Vec::new(),
            unit_index: 0,
            fcx: None,
            directive_base: 0,
            function_slots: Vec::new(),
            string_ids: HashMap::new(),
            static_local_count: 0,
            pending_vla_sizes: Vec::new(),
            in_prototype: false,
            directive_expr: None,
        }
    }

    /// Pass 1: the names of every function definition and object definition, so that calls and
    /// `extern` declarations can be bound before the defining unit is lowered.
    fn collect_definitions(&mut self) {
        let units = self.units;
        for (ui, unit) in units.iter().enumerate() {
            for ext in &unit.unit.0 {
                match &ext.node {
                    ast::ExternalDeclaration::FunctionDefinition(f) => {
                        let Some(name) = decl::declarator_name(&f.node.declarator.node) else { continue };
                        let is_static = decl::has_storage(&f.node.specifiers, ast::StorageClassSpecifier::Static);
                        let key = (is_static.then_some(ui), name.to_string());
                        if self.defined_funcs.contains_key(&key) {
                            continue; // reported as a redefinition when lowered
                        }
                        let id = FuncId(self.function_slots.len() as u32);
                        self.function_slots.push(None);
                        self.defined_funcs.insert(key, id);
                    }
                    ast::ExternalDeclaration::Declaration(d) => {
                        let specs = &d.node.specifiers;
                        if decl::has_storage(specs, ast::StorageClassSpecifier::Typedef) {
                            continue;
                        }
                        let is_extern = decl::has_storage(specs, ast::StorageClassSpecifier::Extern);
                        for id in &d.node.declarators {
                            if decl::is_function_declarator(&id.node.declarator.node) {
                                continue;
                            }
                            if !is_extern || id.node.initializer.is_some() {
                                if let Some(n) = decl::declarator_name(&id.node.declarator.node) {
                                    self.defined_objects.insert(n.to_string());
                                }
                            }
                        }
                    }
                    ast::ExternalDeclaration::StaticAssert(_) => {}
                }
            }
        }
    }

    fn lower_unit(&mut self, index: usize) {
        let units = self.units;
        let unit = &units[index];
        self.unit_index = index;
        self.scopes = vec![HashMap::new()];
        self.tags = vec![HashMap::new()];
        let va_list = self.va_list_type();
        self.bind("__builtin_va_list", Binding { sym: Sym::Typedef(va_list), ty: va_list });
        self.directive_base = self.prog.directives.len() as u32;
        for d in &unit.directives {
            self.prog.directives.push(DirectiveSite { text: d.text.clone(), loc: d.text_loc });
            self.prog.acc.push(None);
        }
        for ext in &unit.unit.0 {
            let _ = match &ext.node {
                ast::ExternalDeclaration::Declaration(d) => self.file_scope_declaration(d),
                ast::ExternalDeclaration::FunctionDefinition(f) => self.function_definition(f),
                ast::ExternalDeclaration::StaticAssert(sa) => self.static_assert(sa).map(|d| {
                    if let Some(d) = d {
                        self.check_file_scope_declare(d);
                        self.prog.file_scope_directives.push(d);
                    }
                }),
            };
        }
    }

    fn finish(mut self) -> Result<Program, Vec<Diagnostic>> {
        for (i, slot) in self.function_slots.drain(..).enumerate() {
            match slot {
                Some(f) => self.prog.functions.push(f),
                None if !self.diags.is_empty() => {}
                None => {
                    // Unreachable: every collected definition is lowered (possibly with errors).
                    self.diags.push(Diagnostic::internal(format!("function #{i} was never lowered"), None));
                }
            }
        }
        self.prog.main = self
            .external
            .get("main")
            .and_then(|b| if let Sym::Func(f) = b.sym { Some(f) } else { None });
        if self.diags.iter().any(|d| d.severity == crate::diag::Severity::Error) {
            return Err(self.diags);
        }
        if self.prog.main.is_none() {
            let loc = self.units.first().map(|u| Loc { file: u.lines.line_origin(0).map(|o| o.0).unwrap_or_default(), line: 0, col: 0 });
            return Err(vec![Diagnostic::error("link", "undefined reference to `main`", loc.unwrap_or_default())
                .with_note("a program needs a `main` function")]);
        }
        Ok(self.prog)
    }

    // ---- locations and diagnostics ----

    pub fn loc(&self, span: lang_c::span::Span) -> Loc {
        match self.directive_expr {
            Some(o) => {
                let within = span.start.saturating_sub(o.parsed_at).min(o.len);
                self.directive_loc(o.directive, o.written_at + within)
            }
            None => self.units[self.unit_index].loc(span.start),
        }
    }

    pub fn error<T>(&mut self, kind: &'static str, msg: impl Into<String>, span: lang_c::span::Span) -> LResult<T> {
        let loc = self.loc(span);
        let len = span.end.saturating_sub(span.start).max(1);
        self.diags.push(Diagnostic::error(kind, msg, loc).with_len(len));
        Err(Reported)
    }

    pub fn unsupported<T>(&mut self, msg: impl Into<String>, span: lang_c::span::Span) -> LResult<T> {
        let loc = self.loc(span);
        self.diags.push(Diagnostic::unsupported(msg, loc));
        Err(Reported)
    }

    pub fn report(&mut self, d: Diagnostic) -> Reported {
        self.diags.push(d);
        Reported
    }

    // ---- scopes ----

    pub fn push_scope(&mut self) {
        self.scopes.push(HashMap::new());
        self.tags.push(HashMap::new());
    }

    pub fn pop_scope(&mut self) {
        self.scopes.pop();
        self.tags.pop();
    }

    pub fn lookup(&self, name: &str) -> Option<&Binding> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    pub fn bind(&mut self, name: &str, b: Binding) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_string(), b);
        }
    }

    pub fn lookup_tag(&self, name: &str) -> Option<Tag> {
        self.tags.iter().rev().find_map(|s| s.get(name).copied())
    }

    // ---- function-local helpers ----

    /// A new local of the current function.
    ///
    /// At file scope, where only the initializers of static objects are lowered (C11 6.7.9p4:
    /// constant expressions), there is no function to hold a temporary: [`FILE_SCOPE_TEMP`]
    /// stands in. The constant evaluator reads a complex value's parts, never its temporary, and
    /// `static_init` rejects an initializer that needs a local (not a constant), so it is never
    /// read or written (a global `double _Complex z = 1.0;` was an internal error, found by
    /// fuzzing, issue 14).
    pub fn new_local(&mut self, name: &str, ty: TypeId, storage: Storage, loc: Loc) -> LocalId {
        let Some(f) = self.fcx.as_mut() else {
            return FILE_SCOPE_TEMP;
        };
        let declared_in = f.constructs.last().copied();
        f.locals.push(Local { name: name.to_string(), ty, storage, loc, role: LocalRole::Program, copy_of: None, declared_in });
        LocalId(f.locals.len() as u32 - 1)
    }

    /// Run `f` (lowering the statement of construct `d`) with `d` as the innermost construct
    /// that the locals it declares are declared in ([`Local::declared_in`]).
    pub fn in_construct<T>(&mut self, d: DirectiveId, f: impl FnOnce(&mut Self) -> T) -> T {
        if let Some(fcx) = self.fcx.as_mut() {
            fcx.constructs.push(d);
        }
        let out = f(self);
        if let Some(fcx) = self.fcx.as_mut() {
            fcx.constructs.pop();
        }
        out
    }

    /// A new local with no name in the source ([`LocalRole::Temporary`]), shown as `display`.
    pub fn new_temporary(&mut self, display: &str, ty: TypeId, storage: Storage, loc: Loc) -> LocalId {
        let l = self.new_local(display, ty, storage, loc);
        if let Some(local) = self.fcx.as_mut().and_then(|f| f.locals.get_mut(l.0 as usize)) {
            local.role = LocalRole::Temporary;
        }
        l
    }

    /// A hidden memory local (temporary for a record/complex value).
    pub fn temp_local(&mut self, ty: TypeId, loc: Loc) -> LocalId {
        self.new_temporary("<temp>", ty, Storage::Memory, loc)
    }

    pub fn label_id(&mut self, name: &str) -> LabelId {
        let f = self.fcx.as_mut().expect("labels only inside functions");
        if let Some(&l) = f.labels.get(name) {
            return l;
        }
        let l = LabelId(f.next_label);
        f.next_label += 1;
        f.labels.insert(name.to_string(), l);
        l
    }

    pub fn fresh_label(&mut self) -> LabelId {
        let f = self.fcx.as_mut().expect("labels only inside functions");
        let l = LabelId(f.next_label);
        f.next_label += 1;
        l
    }

    pub fn intern_string(&mut self, bytes: Vec<u8>) -> StrId {
        if let Some(&id) = self.string_ids.get(&bytes) {
            return id;
        }
        let id = StrId(self.prog.strings.len() as u32);
        self.prog.strings.push(bytes.clone());
        self.string_ids.insert(bytes, id);
        id
    }

    /// x86-64's `__builtin_va_list`: `struct __va_list_tag[1]` (24 bytes), so it decays to a
    /// pointer when passed, as in the ABI.
    fn va_list_type(&mut self) -> TypeId {
        let existing = self.prog.types.records.iter().position(|r| r.name.as_deref() == Some("__va_list_tag"));
        let rid = match existing {
            Some(i) => RecordId(i as u32),
            None => {
                let ulong = self.t_ulong();
                self.prog.types.records.push(Record {
                    name: Some("__va_list_tag".into()),
                    is_union: false,
                    members: (0..3).map(|i| Member { name: Some(format!("__word{i}")), ty: ulong, offset: 8 * i, bits: None }).collect(),
                    size: 24,
                    align: 8,
                    complete: true,
                });
                RecordId(self.prog.types.records.len() as u32 - 1)
            }
        };
        let rec = self.prog.types.intern(Type::Record(rid));
        self.prog.types.intern(Type::Array(rec, Some(1)))
    }

    // ---- common types ----
    pub fn t_void(&mut self) -> TypeId {
        self.prog.types.intern(Type::Void)
    }
    pub fn t_int(&mut self) -> TypeId {
        self.prog.types.intern(Type::Int(IntType::INT))
    }
    pub fn t_long(&mut self) -> TypeId {
        self.prog.types.intern(Type::Int(IntType::LONG))
    }
    pub fn t_ulong(&mut self) -> TypeId {
        self.prog.types.intern(Type::Int(IntType::ULONG))
    }
    pub fn t_char(&mut self) -> TypeId {
        self.prog.types.intern(Type::Int(IntType::CHAR))
    }
    pub fn t_double(&mut self) -> TypeId {
        self.prog.types.intern(Type::Float(FloatKind::F64))
    }
    pub fn t_ptr(&mut self, t: TypeId) -> TypeId {
        self.prog.types.intern(Type::Pointer(t))
    }
    pub fn ty(&self, t: TypeId) -> &Type {
        self.prog.types.get(t)
    }
}

