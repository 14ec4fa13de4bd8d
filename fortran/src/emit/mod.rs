//! Translation of parsed Fortran into C. Each Fortran line's C is preceded by a line marker
//! (`# N "file.f90"`), so every location downstream (diagnostics, `check` findings, the GUI)
//! names the Fortran file and line.
//!
//! The mapping (gfortran's semantics):
//! - scalars are C scalars of the kind's C type; `logical` is `int` 0/1;
//! - arrays are stored column-major in one C block: a constant-shape array is a C array, any
//!   other (allocatable, automatic, dummy) a pointer with `long` bound variables `NAME_lbK`/`NAME_nK`;
//!   `a(i,j)` is `a[(i - lb1) + n1 * (j - lb2)]`;
//! - procedures pass arguments by reference: a scalar dummy is copied in at entry and copied back
//!   at return (copy-in/copy-out, Fortran 2003 §12.4.1.2 allows it); an explicit-shape or
//!   assumed-size array dummy is a pointer to the first element; an assumed-shape dummy is the
//!   pointer plus one extent per dimension;
//! - module variables and the variables of a main program with contained procedures are C globals.

mod acc;
mod array_intrinsics;
mod bounds;
mod call;
mod derived;
mod expr;
mod format;
mod io;
mod pointer;
mod print_helpers;
mod stmt;
pub mod types;

use std::collections::HashMap;
use std::fmt::Write;

use crate::ast::*;
use types::*;

/// A translation error at a Fortran line.
#[derive(Debug, Clone)]
pub struct FortranError {
    pub line: u32,
    pub col: u32,
    pub message: String,
    /// The program is valid Fortran that accsim does not support (not a bug in the program).
    pub unsupported: bool,
}

pub type TResult<T> = Result<T, FortranError>;

pub fn unsupported<T>(line: u32, what: impl Into<String>) -> TResult<T> {
    Err(FortranError { line, col: 0, message: what.into(), unsupported: true })
}

pub fn error<T>(line: u32, what: impl Into<String>) -> TResult<T> {
    Err(FortranError { line, col: 0, message: what.into(), unsupported: false })
}

/// A procedure's interface, as callers need it.
#[derive(Debug, Clone)]
pub struct Proc {
    pub cname: String,
    pub function: bool,
    pub result: Option<(Ty, i64)>,
    pub dummies: Vec<DummyInfo>,
    pub line: u32,
    /// An external procedure (not a module's, not contained): its callers see an implicit
    /// interface (Fortran 2003 §12.3.1), so gfortran's `-fallow-argument-mismatch` applies.
    pub external: bool,
}

#[derive(Debug, Clone)]
pub struct DummyInfo {
    pub name: String,
    pub ty: Ty,
    pub char_len: i64,
    pub rank: usize,
    pub assumed_shape: bool,
    pub intent: Option<String>,
    /// An `optional` dummy (Fortran 2003 §12.4.1.6): an absent one is passed as a null pointer.
    pub optional: bool,
    /// An `allocatable` or `pointer` dummy (Fortran 2003 §12.4.1.2, §12.4.1.3): the caller
    /// passes its variable's element pointer and bound variables by reference, and the
    /// procedure's allocation, deallocation or pointer assignment is the caller's.
    pub allocatable: bool,
    pub pointer: bool,
}

/// The line a `return` outside OpenACC constructs is written as until the procedure's epilogue
/// is known (then replaced by it and the C `return`).
pub const RETURN_IN_PLACE: &str = "_f_return_in_place;";

/// Per-procedure translation state.
#[derive(Default)]
pub struct FnState {
    pub scope: Scope,
    /// Declaration order of the scope's local names.
    pub order: Vec<String>,
    pub implicit_none: bool,
    /// `do` loops open around the current statement: (construct name, break label, continue label).
    pub loops: Vec<(Option<String>, String, String)>,
    /// The C variable of each loop open around the current statement, innermost last (`None`
    /// for `do while` and `do` without control): array element offsets put the terms that do
    /// not change in the innermost loop first ([`Translator::offset`]).
    pub do_vars: Vec<Option<String>>,
    pub tmp: usize,
    /// Compute constructs open around the current statement.
    pub in_compute: usize,
    /// `kernels` constructs (and PGI 1.3 `region`s) open around the current statement.
    pub in_kernels: usize,
    /// The result variable of a function.
    pub result: Option<String>,
    /// Statements to run before and after the call being translated (temporaries for sections
    /// that are not contiguous).
    pub call_pre: Vec<String>,
    pub call_post: Vec<String>,
    /// Inside `!$acc atomic`: the C text of the variable the current assignment updates.
    pub atomic_lhs: Option<String>,
    pub in_atomic: bool,
    pub line: u32,
    /// The `optional` dummies of the procedure translated now.
    pub optional: Vec<String>,
    /// Translating the clauses of a `!$acc declare` (where subarrays are not allowed, §2.10).
    pub in_declare: bool,
    /// The arrays of the `mirror` clauses of the PGI 1.3 data regions open around the current
    /// statement (Fortran names): their device copies follow `allocate` and `deallocate`
    /// ([`Translator::mirror_enter`]).
    pub mirrored: Vec<String>,
    /// The common blocks the procedure declares: name and member (Fortran) names, for
    /// `/name/` in data clauses (OpenACC 2.0 §2.7).
    pub commons: Vec<(String, Vec<String>)>,
    /// The C labels some `goto` of this procedure jumps to. Only these are written: the native
    /// engine runs no function with a label (it falls back to the interpreter), so a label
    /// nothing jumps to would slow the whole procedure down for nothing.
    pub jump_targets: std::collections::HashSet<String>,
    /// The procedure has `!$acc routine` (its code may run on the device).
    pub acc_routine: bool,
    /// OpenACC constructs open around the current statement (a `return` inside one jumps to the
    /// end of the procedure; outside, it returns in place).
    pub in_acc_construct: usize,
    /// The named loops open around the current statement that an `exit`/`cycle` in a loop
    /// nested in them names: (construct name, the C flag variable that carries the jump out of
    /// the inner loops, [`Translator::loop_with_flag`]).
    pub loop_flags: Vec<(String, String)>,
}

pub struct Translator {
    pub file: String,
    pub procs: HashMap<String, Proc>,
    pub modules: HashMap<String, (Scope, Vec<String>, bool)>,
    pub globals: String,
    pub protos: String,
    pub bodies: String,
    pub f: FnState,
    /// The main program's variables when they are globals (it has contained procedures).
    pub host: Option<Scope>,
    pub host_implicit_none: bool,
    /// What the Fortran program calls the translation's variables and clause sections, for
    /// messages in Fortran terms ([`crate::names`]).
    pub names: crate::names::FortranNames,
    /// The derived types defined so far, by Fortran name (Fortran 2003 §4.5).
    pub derived: HashMap<String, DerivedType>,
    /// Their C struct definitions, in definition order (before every other declaration).
    pub types_c: String,
    /// The common blocks met so far: the layout of their variables and the line of the first
    /// `common` statement naming them.
    pub commons: HashMap<String, (String, u32)>,
    /// The C globals of the common blocks.
    pub commons_c: String,
    /// The output statements' helper routines (`print_helpers.rs`), runtime text placed after
    /// the runtime's routines, and the name of each by its parameters and body (statements
    /// that write the same way share one).
    pub print_helpers: String,
    pub print_helper_names: HashMap<String, String>,
}

/// C string literal of `s`.
pub fn c_str(s: &str) -> String {
    let mut o = String::from("\"");
    for b in s.bytes() {
        match b {
            b'"' => o.push_str("\\\""),
            b'\\' => o.push_str("\\\\"),
            b'\n' => o.push_str("\\n"),
            0x20..=0x7e => o.push(b as char),
            _ => {
                let _ = write!(o, "\\{b:03o}");
            }
        }
    }
    o.push('"');
    o
}

impl Translator {
    pub fn marker(&self, line: u32) -> String {
        format!("# {} {}\n", line.max(1), c_str(&self.file))
    }

    /// Integer value of a named constant visible now.
    pub fn const_of(&self, name: &str) -> Option<i64> {
        self.lookup(name).and_then(|v| v.int_value)
    }

    pub fn lookup(&self, name: &str) -> Option<&Var> {
        self.f.scope.get(name).or_else(|| self.host.as_ref().and_then(|h| h.get(name)))
    }

    /// Fold an integer constant expression with the visible named constants.
    pub fn fold(&self, e: &Expr) -> Option<i64> {
        fold_int(e, &|n| self.const_of(n))
    }

    /// Import a module's public entities into the current scope (`use m [, only: …]`).
    fn import(&mut self, u: &Use) -> TResult<()> {
        let Some((scope, procs, _)) = self.modules.get(&u.module) else {
            if u.module == "openacc" {
                // The Fortran `openacc` module (§3.1): device types, kinds and special async values.
                let consts: [(&str, &str, Option<i64>); 11] = [
                    ("acc_device_none", "acc_device_none", None),
                    ("acc_device_default", "acc_device_default", None),
                    ("acc_device_host", "acc_device_host", None),
                    ("acc_device_not_host", "acc_device_not_host", None),
                    ("acc_device_nvidia", "acc_device_nvidia", None),
                    ("acc_device_kind", "4", Some(4)),
                    ("acc_handle_kind", "4", Some(4)),
                    ("acc_async_noval", "(-1)", Some(-1)),
                    ("acc_async_sync", "(-2)", Some(-2)),
                    ("openacc_version", "201306", Some(201306)),
                    ("acc_async_kind", "4", Some(4)),
                ];
                for (name, c, v) in consts {
                    if u.only.as_ref().is_some_and(|o| !o.iter().any(|x| x == name)) {
                        continue;
                    }
                    self.f.scope.insert(
                        name.to_string(),
                        Var { ty: Ty::Int(4), char_len: 0, cname: name.to_string(), shape: None, param: Some(c.to_string()), int_value: v, dummy: None, intent: None, allocatable: false, pointer: false, global: true, line: u.line },
                    );
                }
                return Ok(());
            }
            return unsupported(u.line, format!("module `{}` is not defined in this file (accsim reads one Fortran file per program; `use openacc` is built in)", u.module));
        };
        let scope = scope.clone();
        let _ = procs;
        for (name, var) in scope {
            if u.only.as_ref().is_some_and(|o| !o.contains(&name)) {
                continue;
            }
            self.f.scope.insert(name, var);
        }
        Ok(())
    }

    /// Build the variables of a unit's specification part into `self.f.scope`. `global`: they are
    /// C globals (module or host program); `emit_decls`: write their C declarations into `out`.
    fn declare(&mut self, unit: &Unit, global: bool, out: &mut String, prologue: &mut String) -> TResult<()> {
        for u in &unit.uses {
            self.import(u)?;
        }
        self.f.implicit_none = unit.implicit_none || (self.host.is_some() && self.host_implicit_none && unit.kind != UnitKind::Program);
        // Variables given initial values by `data` statements are saved (Fortran 2003 §5.1.2.13).
        let data_names: Vec<&String> = unit
            .data
            .iter()
            .flat_map(|d| d.objects.iter())
            .filter_map(|o| match o {
                Expr::Name(n) | Expr::Apply(n, _) => Some(n),
                _ => None,
            })
            .collect();
        // Variables in `common` blocks: block and the array spec the `common` statement gives.
        let mut common_of: HashMap<String, (String, Option<Vec<Dim>>)> = HashMap::new();
        for b in &unit.commons {
            for (name, dims) in &b.members {
                if common_of.insert(name.clone(), (b.name.clone(), dims.clone())).is_some() {
                    return error(b.line, format!("`{name}` is in a common block twice"));
                }
            }
        }
        let mut in_common: Vec<String> = Vec::new();
        for (i, d) in unit.decls.iter().enumerate() {
            for td in unit.types.iter().filter(|t| t.after_decls == i) {
                self.define_type(td)?;
            }
            let base = self.decl_type(d)?;
            if matches!(base, Ty::Derived(_)) && d.attrs.parameter {
                return unsupported(d.line, "named constants of a derived type");
            }
            for ent in &d.entities {
                let dummy = unit.args.iter().position(|a| a == &ent.name);
                if d.attrs.optional {
                    if dummy.is_none() {
                        return error(d.line, format!("`{}` is `optional` but not a dummy argument", ent.name));
                    }
                    self.f.optional.push(ent.name.clone());
                }
                let len_spec = ent.len.as_ref().or(d.ty.len.as_ref());
                let char_len = if base == Ty::Char {
                    match len_spec {
                        None => 1,
                        Some(LenSpec::Expr(e)) => match self.fold(e) {
                            Some(v) => v,
                            None => return unsupported(d.line, "a character length that is not a constant"),
                        },
                        // `character(len=*), parameter :: s = '…'` takes the literal's length.
                        Some(LenSpec::Star) if d.attrs.parameter => match &ent.init {
                            Some(Expr::Str(s)) => s.len() as i64,
                            _ => return unsupported(d.line, "a character named constant whose value is not a literal"),
                        },
                        // A scalar dummy takes its actual argument's length (Fortran 2003
                        // §5.1.1.5), passed as a hidden argument (`Var::len_c`).
                        Some(LenSpec::Star) if dummy.is_some() && ent.dims.is_none() && d.attrs.dims.is_none() => -1,
                        Some(LenSpec::Star) => return unsupported(d.line, "assumed-length character (`len=*`) other than a scalar dummy argument"),
                    }
                } else {
                    0
                };
                let mut cname = c_name(&ent.name);
                if global && unit.kind == UnitKind::Module {
                    match self.modules.get(&unit.name) {
                        // Translating a module collected before: the names chosen then.
                        Some((own, _, _)) => {
                            if let Some(v) = own.get(&ent.name) {
                                cname = v.cname.clone();
                            }
                        }
                        // A variable of an earlier module has this name: prefix the module's.
                        None if self.modules.values().any(|(s, _, _)| s.contains_key(&ent.name)) => cname = format!("{}_{}", unit.name, ent.name),
                        None => {}
                    }
                }
                let dims = ent.dims.as_ref().or(d.attrs.dims.as_ref());
                let mut var = Var {
                    ty: base,
                    char_len,
                    cname: cname.clone(),
                    shape: None,
                    param: None,
                    int_value: None,
                    dummy,
                    intent: d.attrs.intent.clone(),
                    allocatable: d.attrs.allocatable,
                    pointer: d.attrs.pointer,
                    global: global || (d.attrs.save || ent.init.is_some() || data_names.contains(&&ent.name)) && unit.kind != UnitKind::Program && !d.attrs.parameter,
                    line: d.line,
                };
                if let Some((block, common_dims)) = common_of.get(&ent.name) {
                    if d.attrs.parameter || d.attrs.allocatable || d.attrs.pointer || dummy.is_some() || ent.init.is_some() {
                        return error(d.line, format!("`{}` is in common block /{block}/: it cannot be a named constant, allocatable, a dummy argument or initialized in its declaration", ent.name));
                    }
                    if dims.is_some() && common_dims.is_some() {
                        return error(d.line, format!("the bounds of `{}` are given twice (in its declaration and in the `common` statement)", ent.name));
                    }
                    let dims = dims.or(common_dims.as_ref()).cloned();
                    self.common_member(&mut var, &ent.name, block, dims.as_deref(), d.line)?;
                    in_common.push(ent.name.clone());
                    self.f.scope.insert(ent.name.clone(), var);
                    self.f.order.push(ent.name.clone());
                    continue;
                }
                // A character named constant is a variable holding the literal (the translation
                // never assigns it; Fortran forbids it).
                let char_constant = d.attrs.parameter && base == Ty::Char && dims.is_none() && matches!(ent.init, Some(Expr::Str(_)));
                if d.attrs.parameter && !char_constant {
                    let Some(init) = &ent.init else { return error(d.line, format!("named constant `{}` has no value", ent.name)) };
                    if dims.is_some() {
                        return unsupported(d.line, "array named constants (`parameter` arrays)");
                    }
                    if let Some(v) = self.fold(init) {
                        if matches!(base, Ty::Int(_)) {
                            var.int_value = Some(v);
                            var.param = Some(if base == Ty::Int(8) { format!("{v}L") } else { v.to_string() });
                        }
                    }
                    if var.param.is_none() {
                        let ce = self.expr(init, None, d.line)?;
                        var.param = Some(format!("(({})({}))", base.c(), ce.c));
                        if base == Ty::Char {
                            return unsupported(d.line, "character named constants");
                        }
                    }
                    self.f.scope.insert(ent.name.clone(), var);
                    self.f.order.push(ent.name.clone());
                    continue;
                }
                // A character array stores its elements one after another, `char_len` characters
                // each (array element order, Fortran 2003 §6.2.2.2).
                if base == Ty::Char && dims.is_some() && ent.init.is_some() {
                    return unsupported(d.line, "an initializer of a character array (assign the array instead)");
                }
                let mut bound_inits = Vec::new();
                if let Some(dims) = dims {
                    let deferred = dims.iter().any(|x| matches!(x, Dim::Colon(_)));
                    if d.attrs.allocatable || d.attrs.pointer {
                        if !dims.iter().all(|x| matches!(x, Dim::Colon(None))) {
                            return error(d.line, format!("{} array `{}` must have a deferred shape (`(:)`)", if d.attrs.pointer { "pointer" } else { "allocatable" }, ent.name));
                        }
                        let r = dims.len();
                        // A local array every `allocate` of which gives the same constant bounds
                        // has those bounds whenever it is allocated (no other unit can allocate
                        // it: it is not global, and allocatable dummies are not supported), so
                        // its elements are addressed with constants, not the bound variables.
                        let constant = if global || dummy.is_some() || d.attrs.pointer { None } else { self.constant_allocation(&unit.body, &ent.name, r) };
                        let (lbs, exts): (Vec<String>, Vec<String>) = match constant {
                            Some(bounds) => bounds.iter().map(|(lb, n)| (lb.to_string(), n.to_string())).unzip(),
                            None => ((1..=r).map(|k| format!("{cname}_lb{k}")).collect(), (1..=r).map(|k| format!("{cname}_n{k}")).collect()),
                        };
                        var.shape = Some(Shape {
                            lbs,
                            exts,
                            fixed: false,
                            assumed_shape: false,
                            assumed_size: false,
                        });
                    } else {
                        if deferred && dummy.is_none() {
                            return error(d.line, format!("array `{}` has a deferred shape but is neither allocatable nor a dummy argument", ent.name));
                        }
                        let consts = |n: &str| self.const_of(n);
                        let mut pending = Vec::new();
                        let (lbs, exts, all_const) = {
                            let mut bound = |e: &Expr| -> Result<String, String> {
                                pending.push(e.clone());
                                Ok(format!("\u{1}{}", pending.len() - 1))
                            };
                            dims_to_shape(dims, &cname, &consts, &mut bound).or_else(|m| unsupported(d.line, m))?
                        };
                        // Substitute the translated bound expressions.
                        let mut translated = Vec::new();
                        for e in &pending {
                            translated.push(self.expr(e, None, d.line)?.c);
                        }
                        let subst = |s: &str| {
                            let mut s = s.to_string();
                            for (i, t) in translated.iter().enumerate().rev() {
                                s = s.replace(&format!("\u{1}{i}"), t);
                            }
                            s
                        };
                        let assumed_size = matches!(dims.last(), Some(Dim::Star(_)));
                        let mut lbs: Vec<String> = lbs.iter().map(|s| subst(s)).collect();
                        let mut exts: Vec<String> = exts.iter().map(|s| subst(s)).collect();
                        let fixed = all_const && dummy.is_none();
                        if !fixed {
                            for k in 0..lbs.len() {
                                if lbs[k].parse::<i64>().is_err() {
                                    bound_inits.push((format!("{cname}_lb{}", k + 1), lbs[k].clone()));
                                    lbs[k] = format!("{cname}_lb{}", k + 1);
                                }
                                let is_param_ext = exts[k] == format!("{cname}_n{}", k + 1);
                                if !is_param_ext && exts[k].parse::<i64>().is_err() && !(assumed_size && k + 1 == exts.len()) {
                                    bound_inits.push((format!("{cname}_n{}", k + 1), exts[k].clone()));
                                    exts[k] = format!("{cname}_n{}", k + 1);
                                }
                            }
                        }
                        if assumed_size {
                            if let Some(last) = exts.last_mut() {
                                *last = "1".into();
                            }
                        }
                        var.shape = Some(Shape { lbs, exts, fixed, assumed_shape: deferred, assumed_size });
                    }
                }
                // C declaration.
                let ct = base.c();
                let storage = if var.global && unit.kind != UnitKind::Module && self.host.is_none() { "static " } else { "" };
                let storage = if unit.kind == UnitKind::Program && global { "" } else { storage };
                let decl_line = self.marker(d.line);
                match &var.shape {
                    _ if dummy.is_some() && (var.allocatable || var.pointer) => {
                        // An allocatable or pointer dummy: a local copy of the caller's element
                        // pointer and bounds, copied in at entry and back at return (the
                        // epilogue), as scalar dummies are. An `intent(out)` allocatable is
                        // deallocated at entry (Fortran 2003 §5.1.2.7).
                        let guard = if d.attrs.optional { format!("if ({cname}_arg) ") } else { String::new() };
                        let _ = writeln!(out, "{decl_line}{ct} *{cname};");
                        let mut copy_in = format!("{cname} = *{cname}_arg;");
                        if let Some(sh) = &var.shape {
                            for (lb, n) in sh.lbs.iter().zip(&sh.exts) {
                                let _ = writeln!(out, "{decl_line}long {lb}, {n};");
                                let _ = write!(copy_in, " {lb} = *{lb}_arg; {n} = *{n}_arg;");
                            }
                        }
                        let _ = writeln!(prologue, "{decl_line}{guard}{{ {copy_in} }}");
                        if var.allocatable && var.intent.as_deref() == Some("out") {
                            let components = self.free_components_of(&var);
                            let _ = writeln!(prologue, "{decl_line}if ({cname}) {{ {components}free({cname}); {cname} = 0; }}");
                        }
                    }
                    _ if dummy.is_some() => {
                        // Declared by the function header; scalars get their copy-in local here
                        // (not a character scalar: the header's `char *` is the actual's
                        // storage, passed by reference as gfortran does).
                        if var.shape.is_none() && base != Ty::Char {
                            let _ = writeln!(out, "{decl_line}{ct} {cname};");
                            if var.intent.as_deref() != Some("out") {
                                // An absent optional dummy has no value to copy in.
                                let guard = if d.attrs.optional { format!("if ({cname}_arg) ") } else { String::new() };
                                let _ = writeln!(prologue, "{decl_line}{guard}{cname} = *{cname}_arg;");
                            } else {
                                // An `intent(out)` dummy's allocated allocatable components are
                                // deallocated at entry (Fortran 2003 §5.1.2.7), and it starts with
                                // none allocated.
                                let actual = format!("(*{cname}_arg)");
                                let free = self.free_components(base, &actual);
                                if !free.is_empty() {
                                    let guard = if d.attrs.optional { format!("if ({cname}_arg) ") } else { String::new() };
                                    let _ = writeln!(prologue, "{decl_line}{guard}{{ {free}}}");
                                    let _ = writeln!(prologue, "{decl_line}memset(&{cname}, 0, sizeof({cname}));");
                                }
                                if let Some(init) = self.derived_default(base) {
                                    // An `intent(out)` dummy of a type with defaults becomes its
                                    // default at entry (Fortran 2003 §5.1.2.7).
                                    let _ = writeln!(prologue, "{decl_line}{cname} = ({ct}){init};");
                                }
                            }
                        } else if let Some(sh) = &var.shape {
                            for (bv, e) in &bound_inits {
                                let _ = writeln!(out, "{decl_line}long {bv};");
                                let _ = writeln!(prologue, "{decl_line}{bv} = {e};");
                            }
                            let _ = sh;
                        }
                    }
                    // A scalar pointer: the address of its target, null until `=>` or
                    // `allocate` (Fortran 2003 §5.1.2.11); references read through it.
                    None if var.pointer => {
                        if base == Ty::Char || ent.init.is_some() || d.attrs.allocatable {
                            return unsupported(d.line, format!("pointer `{}`: a character pointer, an initialized or allocatable pointer", ent.name));
                        }
                        let _ = writeln!(out, "{decl_line}{storage}{ct} *{cname} = 0;");
                    }
                    None if base == Ty::Char => {
                        let init = match &ent.init {
                            Some(Expr::Str(s)) => {
                                let mut b: Vec<u8> = s.bytes().collect();
                                b.resize(char_len as usize, b' ');
                                format!(" = {}", c_str(&String::from_utf8_lossy(&b)))
                            }
                            Some(_) => return unsupported(d.line, "a character initializer that is not a literal"),
                            None => String::new(),
                        };
                        let _ = writeln!(out, "{decl_line}{storage}char {cname}[{}]{init};", char_len.max(1));
                    }
                    None => {
                        let init = match &ent.init {
                            Some(e) => {
                                let c = self.expr(e, None, d.line)?.c;
                                if is_c_constant(&c) || !var.global {
                                    format!(" = {c}")
                                } else {
                                    // gfortran evaluates intrinsic calls in initializers at compile
                                    // time; here the first entry does, once (the variable is saved).
                                    let flag = format!("_finit_{cname}");
                                    let _ = writeln!(out, "{decl_line}static int {flag};");
                                    let _ = writeln!(prologue, "{decl_line}if (!{flag}) {{ {cname} = {c}; {flag} = 1; }}");
                                    String::new()
                                }
                            }
                            // A derived type's component defaults (Fortran 2003 §4.5.3.4).
                            None => self.derived_default(base).map(|d| format!(" = {d}")).unwrap_or_default(),
                        };
                        let _ = writeln!(out, "{decl_line}{storage}{ct} {cname}{init};");
                    }
                    Some(sh) if sh.fixed => {
                        let init = match &ent.init {
                            Some(Expr::Constructor(items)) => {
                                let mut v = Vec::new();
                                for it in items {
                                    v.push(self.expr(it, None, d.line)?.c);
                                }
                                format!(" = {{{}}}", v.join(", "))
                            }
                            Some(e) => {
                                let c = self.expr(e, None, d.line)?.c;
                                let n: i64 = sh.exts.iter().map(|x| x.parse::<i64>().unwrap_or(0)).product();
                                format!(" = {{{}}}", vec![c; n.max(1) as usize].join(", "))
                            }
                            None if var.global => match self.derived_default(base) {
                                Some(d) => {
                                    let n: i64 = sh.exts.iter().map(|x| x.parse::<i64>().unwrap_or(0)).product();
                                    format!(" = {{{}}}", vec![d; n.max(1) as usize].join(", "))
                                }
                                None => String::new(),
                            },
                            None => {
                                if let Some(fill) = self.default_fill(base, &cname, &sh.total()) {
                                    let _ = writeln!(prologue, "{decl_line}{fill}");
                                }
                                String::new()
                            }
                        };
                        let total: i64 = sh.exts.iter().map(|x| x.parse::<i64>().unwrap_or(0)).product();
                        let slots = if base == Ty::Char { total * char_len.max(1) } else { total };
                        let _ = writeln!(out, "{decl_line}{storage}{ct} {cname}[{}]{init};", slots.max(1));
                    }
                    Some(sh) => {
                        if ent.init.is_some() {
                            return error(d.line, format!("`{}` cannot have an initializer", ent.name));
                        }
                        if var.allocatable || var.pointer {
                            let _ = writeln!(out, "{decl_line}{storage}{ct} *{cname} = 0;");
                            for k in 1..=sh.rank() {
                                let _ = writeln!(out, "{decl_line}{storage}long {cname}_lb{k} = 1, {cname}_n{k} = 0;");
                            }
                        } else {
                            // An automatic array: its bounds and storage are made at entry.
                            let _ = writeln!(out, "{decl_line}{ct} *{cname};");
                            for (bv, e) in &bound_inits {
                                let _ = writeln!(out, "{decl_line}long {bv};");
                                let _ = writeln!(prologue, "{decl_line}{bv} = {e};");
                            }
                            let _ = writeln!(prologue, "{decl_line}{cname} = ({ct} *)malloc({});", allocation_bytes(&sh.total(), &element_size(base, char_len)));
                            if let Some(fill) = self.default_fill(base, &cname, &sh.total()) {
                                let _ = writeln!(prologue, "{decl_line}{fill}");
                            }
                        }
                    }
                }
                self.f.scope.insert(ent.name.clone(), var);
                self.f.order.push(ent.name.clone());
            }
        }
        for td in unit.types.iter().filter(|t| t.after_decls >= unit.decls.len()) {
            self.define_type(td)?;
        }
        self.common_blocks(unit, &in_common)?;
        // Dummies without a declaration are implicitly typed scalars.
        for (i, a) in unit.args.iter().enumerate() {
            if self.f.scope.contains_key(a) {
                continue;
            }
            if self.f.implicit_none {
                return error(unit.line, format!("dummy argument `{a}` has no type (`implicit none` is in effect)"));
            }
            let ty = implicit_type(a);
            let cname = c_name(a);
            let m = self.marker(unit.line);
            let _ = writeln!(out, "{m}{} {cname};", ty.c());
            let _ = writeln!(prologue, "{m}{cname} = *{cname}_arg;");
            self.f.scope.insert(
                a.clone(),
                Var { ty, char_len: 0, cname, shape: None, param: None, int_value: None, dummy: Some(i), intent: None, allocatable: false, pointer: false, global: false, line: unit.line },
            );
        }
        Ok(())
    }

    /// A variable in common block `block` (Fortran 2003 §5.5.2): a C global named after the block
    /// and the variable, `_fc_BLOCK_NAME`, so that every unit declaring the block reaches the
    /// same storage. Arrays in common have constant bounds (§5.5.2: C589 forbids automatic and
    /// allocatable objects there).
    fn common_member(&self, var: &mut Var, name: &str, block: &str, dims: Option<&[Dim]>, line: u32) -> TResult<()> {
        if matches!(var.ty, Ty::Derived(_)) {
            return unsupported(line, format!("`{name}`: variables of a derived type in a common block"));
        }
        var.global = true;
        var.cname = format!("_fc_{block}_{name}");
        if let Some(dims) = dims {
            let consts = |n: &str| self.const_of(n);
            let mut not_constant = |_: &Expr| -> Result<String, String> { Err(String::new()) };
            let (lbs, exts, all_const) = dims_to_shape(dims, &var.cname, &consts, &mut not_constant).unwrap_or_default();
            if !all_const || lbs.is_empty() {
                return error(line, format!("array `{name}` in common block /{block}/ must have constant bounds"));
            }
            var.shape = Some(Shape { lbs, exts, fixed: true, assumed_shape: false, assumed_size: false });
        }
        Ok(())
    }

    /// The common blocks of `unit`: implicitly typed members, then each block's C globals,
    /// defined by the first unit that declares the block. Every unit must declare a block with
    /// the same variables (names, types, shapes) — storage association of differently laid out
    /// blocks is not supported.
    fn common_blocks(&mut self, unit: &Unit, in_common: &[String]) -> TResult<()> {
        for b in &unit.commons {
            let members = b.members.iter().map(|(name, _)| name.clone());
            match self.f.commons.iter_mut().find(|(name, _)| name == &b.name) {
                Some((_, known)) => known.extend(members),
                None => self.f.commons.push((b.name.clone(), members.collect())),
            }
            for (name, dims) in &b.members {
                if in_common.contains(name) {
                    continue;
                }
                if self.f.implicit_none {
                    return error(b.line, format!("`{name}` in common block /{}/ has no type (`implicit none` is in effect)", b.name));
                }
                let mut var = Var { ty: implicit_type(name), char_len: 0, cname: String::new(), shape: None, param: None, int_value: None, dummy: None, intent: None, allocatable: false, pointer: false, global: true, line: b.line };
                self.common_member(&mut var, name, &b.name, dims.as_deref(), b.line)?;
                self.f.scope.insert(name.clone(), var);
                self.f.order.push(name.clone());
            }
        }
        let mut blocks: Vec<&str> = Vec::new();
        for b in &unit.commons {
            if !blocks.contains(&b.name.as_str()) {
                blocks.push(&b.name);
            }
        }
        for block in blocks {
            let mut layout = String::new();
            let mut definition = String::new();
            for b in unit.commons.iter().filter(|b| b.name == block) {
                for (name, _) in &b.members {
                    let Some(v) = self.f.scope.get(name) else { continue };
                    let total = v.shape.as_ref().map(|sh| sh.exts.iter().map(|e| e.parse::<i64>().unwrap_or(0)).product::<i64>().max(1));
                    let _ = write!(layout, "{name}:{}:{}:{:?};", v.ty.name(), v.char_len, v.shape.as_ref().map(|sh| (&sh.lbs, &sh.exts)));
                    let slots = match (total, v.ty) {
                        (Some(t), Ty::Char) => format!("[{}]", t * v.char_len.max(1)),
                        (Some(t), _) => format!("[{t}]"),
                        (None, Ty::Char) => format!("[{}]", v.char_len.max(1)),
                        (None, _) => String::new(),
                    };
                    let _ = writeln!(definition, "{}{} {}{slots};", self.marker(b.line), v.ty.c(), v.cname);
                }
            }
            match self.commons.get(block) {
                Some((known, first_line)) if *known != layout => {
                    let shown = if block.is_empty() { "blank common".to_string() } else { format!("common block /{block}/") };
                    let line = unit.commons.iter().find(|b| b.name == block).map_or(unit.line, |b| b.line);
                    return unsupported(line, format!("{shown} is declared with other variables than at line {first_line} (storage association of differently declared blocks)"));
                }
                Some(_) => {}
                None => {
                    let line = unit.commons.iter().find(|b| b.name == block).map_or(unit.line, |b| b.line);
                    self.commons.insert(block.to_string(), (layout, line));
                    self.commons_c.push_str(&definition);
                }
            }
        }
        Ok(())
    }

    /// The type a declaration names: an intrinsic type, or a derived type defined before.
    fn decl_type(&self, d: &Decl) -> TResult<Ty> {
        if let Some(name) = &d.ty.derived {
            if !self.derived.contains_key(name) {
                return error(d.line, format!("type `{name}` is not defined (define it with `type {name}` … `end type` before declaring variables of it)"));
            }
            return Ok(Ty::Derived(derived_c_type(name)));
        }
        let consts = |n: &str| self.const_of(n);
        type_of_spec(&d.ty, &consts).or_else(|m| unsupported(d.line, m))
    }

    /// A derived-type definition (Fortran 2003 §4.5.1): a C struct with one member per
    /// component, in order. Components are scalars or arrays of constant shape of an intrinsic
    /// type, or of a derived type defined before. A unit translated twice meets its definitions
    /// twice: the same definition again is no new type.
    fn define_type(&mut self, td: &TypeDef) -> TResult<()> {
        let mut components: Vec<(String, Var)> = Vec::new();
        let mut defaults: Vec<Option<String>> = Vec::new();
        let ct = derived_c_type(&td.name);
        let mut c_definition = format!("{} {{\n", ct);
        for d in &td.components {
            // A pointer component may point at a value of the type being defined (a linked
            // list's `next`, Fortran 2003 C438): C allows a pointer to the incomplete struct.
            let own = d.attrs.pointer && d.ty.derived.as_deref() == Some(td.name.as_str());
            let ty = if own { Ty::Derived(ct) } else { self.decl_type(d)? };
            if ty == Ty::Derived(ct) && !own {
                return error(d.line, format!("type `{}` has a component of its own type (only a pointer component could)", td.name));
            }
            if d.attrs.parameter || d.attrs.intent.is_some() || d.attrs.optional || d.attrs.save {
                return error(d.line, format!("a component of type `{}` cannot have this attribute", td.name));
            }
            for ent in &d.entities {
                if components.iter().any(|(n, _)| n == &ent.name) {
                    return error(d.line, format!("type `{}` has two components named `{}`", td.name, ent.name));
                }
                let char_len = if ty == Ty::Char {
                    match ent.len.as_ref().or(d.ty.len.as_ref()) {
                        None => 1,
                        Some(LenSpec::Expr(e)) => match self.fold(e) {
                            Some(v) => v.max(0),
                            None => return unsupported(d.line, "a character component whose length is not a constant"),
                        },
                        Some(LenSpec::Star) => return error(d.line, format!("component `{}` cannot have an assumed length (`len=*`)", ent.name)),
                    }
                } else {
                    0
                };
                let cname = c_name(&ent.name);
                if d.attrs.pointer {
                    // A pointer component (Fortran 2003 §4.5.3, §5.1.2.11): a scalar one is the
                    // address of its target; an array one has an allocatable component's layout
                    // (element pointer, `NAME_lbK`/`NAME_nK`). A new value has it disassociated
                    // (the `=> null()` default; gfortran leaves it undefined without one). The
                    // value's deallocation does not free its target (§6.3.3.1).
                    if ty == Ty::Char || d.attrs.allocatable {
                        return unsupported(d.line, format!("pointer component `{}` of character type or allocatable", ent.name));
                    }
                    let dims = ent.dims.as_ref().or(d.attrs.dims.as_ref());
                    let var = match dims {
                        None => {
                            let _ = writeln!(c_definition, "    {} *{cname};", ty.c());
                            defaults.push(Some("0".into()));
                            Var { ty, char_len, cname, shape: None, param: None, int_value: None, dummy: None, intent: None, allocatable: false, pointer: true, global: false, line: d.line }
                        }
                        Some(dims) => {
                            if !dims.iter().all(|x| matches!(x, Dim::Colon(None))) {
                                return error(d.line, format!("pointer component `{}` must have a deferred shape (`(:)`)", ent.name));
                            }
                            let (shape, default) = deferred_shape_component(&mut c_definition, ty.c(), &cname, dims.len());
                            defaults.push(Some(default));
                            Var { ty, char_len, cname, shape: Some(shape), param: None, int_value: None, dummy: None, intent: None, allocatable: false, pointer: true, global: false, line: d.line }
                        }
                    };
                    components.push((ent.name.clone(), var));
                    continue;
                }
                if d.attrs.allocatable {
                    // An allocatable component (Fortran 2003 §4.5.3): the C struct holds the
                    // element pointer and the bounds, `NAME_lbK`/`NAME_nK`, as an allocatable
                    // variable's C globals are; a new value of the type has it unallocated.
                    let Some(dims) = ent.dims.as_ref().or(d.attrs.dims.as_ref()) else {
                        return unsupported(d.line, format!("allocatable scalar component `{}`", ent.name));
                    };
                    if !dims.iter().all(|x| matches!(x, Dim::Colon(None))) {
                        return error(d.line, format!("allocatable component `{}` must have a deferred shape (`(:)`)", ent.name));
                    }
                    if ty == Ty::Char || matches!(ty, Ty::Derived(_)) || ent.init.is_some() {
                        return unsupported(d.line, format!("allocatable component `{}` of character or derived type, or with a default", ent.name));
                    }
                    let (shape, default) = deferred_shape_component(&mut c_definition, ty.c(), &cname, dims.len());
                    let var = Var { ty, char_len, cname, shape: Some(shape), param: None, int_value: None, dummy: None, intent: None, allocatable: true, pointer: false, global: false, line: d.line };
                    defaults.push(Some(default));
                    components.push((ent.name.clone(), var));
                    continue;
                }
                let shape = match ent.dims.as_ref().or(d.attrs.dims.as_ref()) {
                    None => None,
                    Some(dims) => {
                        if ty == Ty::Char {
                            return unsupported(d.line, "character array components");
                        }
                        let consts = |n: &str| self.const_of(n);
                        let mut not_constant = |_: &Expr| -> Result<String, String> { Err(String::new()) };
                        let (lbs, exts, all_const) = dims_to_shape(dims, &cname, &consts, &mut not_constant).unwrap_or_default();
                        if !all_const || lbs.is_empty() {
                            return unsupported(d.line, format!("component `{}`: array components need constant bounds (allocatable components are not supported)", ent.name));
                        }
                        Some(Shape { lbs, exts, fixed: true, assumed_shape: false, assumed_size: false })
                    }
                };
                let slots = match (&shape, ty) {
                    (Some(sh), _) => format!("[{}]", sh.exts.iter().map(|e| e.parse::<i64>().unwrap_or(0)).product::<i64>().max(1)),
                    (None, Ty::Char) => format!("[{}]", char_len.max(1)),
                    (None, _) => String::new(),
                };
                let _ = writeln!(c_definition, "    {} {cname}{slots};", ty.c());
                let var = Var { ty, char_len, cname, shape, param: None, int_value: None, dummy: None, intent: None, allocatable: false, pointer: false, global: false, line: d.line };
                defaults.push(match &ent.init {
                    Some(init) => Some(self.component_default(init, &var, d.line)?),
                    None => None,
                });
                components.push((ent.name.clone(), var));
            }
        }
        if components.is_empty() {
            return unsupported(td.line, format!("type `{}` has no components", td.name));
        }
        c_definition.push_str("};\n");
        if let Some(known) = self.derived.get(&td.name) {
            if known.c_definition == c_definition {
                return Ok(());
            }
            return unsupported(td.line, format!("a second derived type named `{}` with other components", td.name));
        }
        let _ = write!(self.types_c, "{}{c_definition}", self.marker(td.line));
        let default_init = self.type_default(&components, &defaults);
        self.derived.insert(td.name.clone(), DerivedType { name: td.name.clone(), components, c_definition, defaults, default_init });
        Ok(())
    }

    /// The interface of a procedure unit (its dummies' declarations evaluated in `self.f`).
    fn interface(&self, unit: &Unit, cname: String) -> TResult<Proc> {
        let mut dummies = Vec::new();
        for a in &unit.args {
            let v = self.f.scope.get(a).ok_or_else(|| FortranError { line: unit.line, col: 0, message: format!("dummy `{a}` undeclared"), unsupported: false })?;
            if (v.allocatable || v.pointer) && v.ty == Ty::Char {
                return unsupported(v.line, "allocatable and pointer character dummy arguments");
            }
            if v.allocatable && v.shape.is_none() {
                return unsupported(v.line, "allocatable scalar dummy arguments");
            }
            // A character array dummy is the address of its first character (elements of a
            // constant length one after another); a scalar one is the address of its first
            // character, with its length passed after it when assumed (`len=*`).
            dummies.push(DummyInfo {
                name: a.clone(),
                ty: v.ty,
                char_len: v.char_len,
                rank: v.rank(),
                assumed_shape: v.shape.as_ref().is_some_and(|s| s.assumed_shape),
                intent: v.intent.clone(),
                optional: self.f.optional.contains(a),
                allocatable: v.allocatable,
                pointer: v.pointer,
            });
        }
        let result = match &unit.kind {
            UnitKind::Function { result, prefix_type } => {
                let rname = result.clone().unwrap_or_else(|| unit.name.clone());
                let ty = match (self.f.scope.get(&rname), prefix_type) {
                    (Some(v), _) => {
                        if v.shape.is_some() {
                            return unsupported(unit.line, "array-valued functions");
                        }
                        v.ty
                    }
                    (None, Some(t)) => self.decl_type(&Decl { ty: t.clone(), attrs: Attrs::default(), entities: Vec::new(), line: unit.line })?,
                    (None, None) if !self.f.implicit_none => implicit_type(&rname),
                    (None, None) => return error(unit.line, format!("function result `{rname}` has no type")),
                };
                if ty == Ty::Char {
                    return unsupported(unit.line, "character functions");
                }
                Some((ty, 0))
            }
            _ => None,
        };
        Ok(Proc { cname, function: result.is_some(), result, dummies, line: unit.line, external: false })
    }

    /// Register every procedure's interface (module procedures, contained ones, external units).
    fn collect(&mut self, units: &[Unit]) -> TResult<()> {
        for u in units {
            match u.kind {
                UnitKind::Module => {
                    let saved = std::mem::take(&mut self.f);
                    let mut out = String::new();
                    let mut pro = String::new();
                    self.declare(u, true, &mut out, &mut pro)?;
                    let scope = self.f.scope.clone();
                    self.f = saved;
                    let names: Vec<String> = u.contains.iter().map(|c| c.name.clone()).collect();
                    self.modules.insert(u.name.clone(), (scope.clone(), names, u.implicit_none));
                    for c in &u.contains {
                        self.register(c, Some(&scope))?;
                    }
                    self.modules.remove(&u.name);
                    self.modules.insert(u.name.clone(), (scope, u.contains.iter().map(|c| c.name.clone()).collect(), u.implicit_none));
                }
                UnitKind::Program => {
                    // Contained procedures see the program's variables (host association).
                    let saved = std::mem::take(&mut self.f);
                    let mut out = String::new();
                    let mut pro = String::new();
                    self.declare(u, true, &mut out, &mut pro)?;
                    let scope = self.f.scope.clone();
                    self.f = saved;
                    for c in &u.contains {
                        self.register(c, Some(&scope))?;
                    }
                }
                _ => self.register(u, None)?,
            }
        }
        Ok(())
    }

    fn register(&mut self, u: &Unit, module_scope: Option<&Scope>) -> TResult<()> {
        if !u.contains.is_empty() {
            return unsupported(u.line, "procedures contained in a subroutine or function");
        }
        let saved = std::mem::take(&mut self.f);
        if let Some(s) = module_scope {
            self.f.scope = s.clone();
        }
        let mut out = String::new();
        let mut pro = String::new();
        let r = self.declare(u, false, &mut out, &mut pro).and_then(|_| self.interface(u, format!("{}_", u.name)));
        self.f = saved;
        let mut p = r?;
        p.external = module_scope.is_none();
        if self.procs.insert(u.name.clone(), p).is_some() {
            return error(u.line, format!("procedure `{}` is defined twice", u.name));
        }
        Ok(())
    }

    /// Translate one procedure (or the main program) into C.
    fn unit(&mut self, u: &Unit, module_scope: Option<&Scope>) -> TResult<()> {
        self.f = FnState::default();
        if let Some(s) = module_scope {
            self.f.scope = s.clone();
        }
        let is_main = u.kind == UnitKind::Program;
        let global = is_main && !u.contains.is_empty();
        let mut decls = String::new();
        let mut prologue = String::new();
        self.declare(u, global, &mut decls, &mut prologue)?;
        if is_main && global {
            self.globals.push_str(&decls);
            decls.clear();
            self.host = Some(self.f.scope.clone());
            self.host_implicit_none = u.implicit_none;
        }
        let mut m = self.marker(u.line);
        let header = if is_main {
            "int main(void)".to_string()
        } else {
            let p = self.procs.get(&u.name).cloned().ok_or_else(|| FortranError { line: u.line, col: 0, message: "procedure not registered".into(), unsupported: false })?;
            let mut params = Vec::new();
            for d in &p.dummies {
                let v = &self.f.scope[&d.name];
                if d.rank == 0 && d.ty == Ty::Char {
                    params.push(format!("char *{}", v.cname));
                    if d.char_len < 0 {
                        params.push(format!("long {}_len", v.cname));
                    }
                } else if d.rank == 0 && d.pointer {
                    params.push(format!("{} **{}_arg", d.ty.c(), v.cname));
                } else if d.rank == 0 {
                    params.push(format!("{} *{}_arg", d.ty.c(), v.cname));
                } else if d.allocatable || d.pointer {
                    // The caller's element pointer and bound variables (`descriptor_params`).
                    params.push(format!("{} **{}_arg", d.ty.c(), v.cname));
                    if let Some(sh) = &v.shape {
                        for (lb, n) in sh.lbs.iter().zip(&sh.exts) {
                            params.push(format!("long *{lb}_arg, long *{n}_arg"));
                        }
                    }
                } else {
                    params.push(format!("{} *{}", d.ty.c(), v.cname));
                    if d.assumed_shape {
                        for k in 1..=d.rank {
                            params.push(format!("long {}_n{k}", v.cname));
                        }
                    }
                }
            }
            let ret = p.result.map(|(t, _)| t.c()).unwrap_or("void");
            let params = if params.is_empty() { "void".to_string() } else { params.join(", ") };
            let routine: Vec<&(u32, String)> = u.spec_directives.iter().filter(|(_, t)| t.trim_start().to_ascii_lowercase().starts_with("routine")).collect();
            // `!$acc routine` inside the procedure: the unnamed C form before the prototype. The
            // C rule is positional (the directive precedes the declaration it applies to), so the
            // prototype and definition are placed on the line after the directive.
            for (line, text) in &routine {
                let c = self.acc_directive_text(text, *line, &[])?;
                let _ = writeln!(self.protos, "{}#pragma acc {c}", self.marker(*line));
            }
            if let Some(last) = routine.iter().map(|(l, _)| *l).max() {
                m = self.marker(last + 1);
            }
            self.f.acc_routine = !routine.is_empty();
            let _ = writeln!(self.protos, "{m}{ret} {}({params});", p.cname);
            format!("{ret} {}({params})", p.cname)
        };
        // The function result variable.
        if let UnitKind::Function { result, .. } = &u.kind {
            let rname = result.clone().unwrap_or_else(|| u.name.clone());
            let ty = self.procs[&u.name].result.map(|r| r.0).unwrap_or(Ty::Int(4));
            if !self.f.scope.contains_key(&rname) {
                let cname = c_name(&format!("{rname}_result"));
                let _ = writeln!(decls, "{m}{} {cname};", ty.c());
                self.f.scope.insert(
                    rname.clone(),
                    Var { ty, char_len: 0, cname, shape: None, param: None, int_value: None, dummy: None, intent: None, allocatable: false, pointer: false, global: false, line: u.line },
                );
            }
            self.f.result = Some(rname);
        }
        // Specification-part directives (`declare`). A procedure's or the main program's
        // `declare` makes data for "the implicit data region of a function, subroutine or
        // program" (OpenACC 2.0 §2.10): its data clauses become a data construct around the
        // body (which also maps the data of arrays behind pointers: dummies, automatic and
        // allocatable arrays); `device_resident` and `link` stay `declare`s.
        let mut spec_acc = String::new();
        let mut region_clauses: Vec<(u32, String)> = Vec::new();
        for (line, text) in &u.spec_directives {
            if text.trim_start().to_ascii_lowercase().starts_with("declare") {
                self.f.in_declare = true;
                let c = self.acc_directive_text(text, *line, &[]);
                self.f.in_declare = false;
                let c = c?;
                let clauses = c.trim_start().strip_prefix("declare").unwrap_or(&c).trim().to_string();
                if clauses.contains("device_resident(") || clauses.contains("link(") || clauses.is_empty() {
                    let _ = writeln!(spec_acc, "{}#pragma acc {c}", self.marker(*line));
                } else {
                    region_clauses.push((*line, clauses));
                }
            }
        }
        self.data_init(u, &mut prologue)?;
        self.f.line = u.line;
        let mut body = String::new();
        self.block(&u.body, &mut body)?;
        // Implicitly typed locals found while translating the body.
        let mut implicit = String::new();
        for name in self.f.order.clone() {
            let v = &self.f.scope[&name];
            if v.line == 0 {
                let _ = writeln!(implicit, "{m}{} {};", v.ty.c(), v.cname);
            }
        }
        // Epilogue: copy scalar dummies back, free automatic and local allocatable arrays.
        let mut epilogue = String::new();
        let end = self.marker(u.end_line);
        for name in &self.f.order.clone() {
            let v = &self.f.scope[name];
            if v.dummy.is_some() && v.shape.is_none() && v.ty != Ty::Char && v.intent.as_deref() != Some("in") {
                let guard = if self.f.optional.contains(name) { format!("if ({}_arg) ", v.cname) } else { String::new() };
                let _ = writeln!(epilogue, "{end}{guard}*{}_arg = {};", v.cname, v.cname);
            }
            if v.dummy.is_some() && v.shape.is_some() && (v.allocatable || v.pointer) && v.intent.as_deref() != Some("in") {
                let guard = if self.f.optional.contains(name) { format!("if ({}_arg) ", v.cname) } else { String::new() };
                let mut copy_out = format!("*{c}_arg = {c};", c = v.cname);
                if let Some(sh) = &v.shape {
                    for (lb, n) in sh.lbs.iter().zip(&sh.exts) {
                        let _ = write!(copy_out, " *{lb}_arg = {lb}; *{n}_arg = {n};");
                    }
                }
                let _ = writeln!(epilogue, "{end}{guard}{{ {copy_out} }}");
            }
            // A pointer does not own its target (Fortran 2003 §6.3.3.1: only allocatables are
            // deallocated at return). An unsaved local of a type with allocatable components
            // loses them at return (§6.3.3.1), as gfortran frees them; not the result of a
            // function, which the caller receives, nor the main program's variables.
            let local = v.dummy.is_none() && !v.global && !v.pointer;
            if local && !is_main && self.f.result.as_deref() != Some(name.as_str()) {
                let v = v.clone();
                let components = self.free_components_of(&v);
                if !components.is_empty() {
                    let _ = writeln!(epilogue, "{end}{components}");
                }
            }
            let v = &self.f.scope[name];
            if v.dummy.is_none() && !v.global && !v.pointer && v.shape.as_ref().is_some_and(|s| !s.fixed) {
                if v.allocatable {
                    let _ = writeln!(epilogue, "{end}if ({c}) free({c});", c = v.cname);
                } else {
                    let _ = writeln!(epilogue, "{end}free({});", v.cname);
                }
            }
        }
        let ret = if is_main {
            "return 0;".to_string()
        } else if let Some(r) = &self.f.result {
            format!("return {};", self.f.scope[r].cname)
        } else {
            "return;".to_string()
        };
        // The implicit data region of the `declare`s: the body, up to the return label.
        let (mut region_open, mut region_close) = (String::new(), String::new());
        for (line, clauses) in &region_clauses {
            let _ = write!(region_open, "{}#pragma acc data {clauses}\n{}{{\n", self.marker(*line), self.marker(*line));
            let _ = writeln!(region_close, "{end}}}");
        }
        // A `return` outside OpenACC constructs returns in place, after the epilogue (a jump to
        // the end would keep the procedure out of the native engine); inside the implicit data
        // region of `declare`s it jumps to the end, which closes the region.
        let in_place = if region_clauses.is_empty() {
            format!("{{\n{epilogue}{end}{ret}\n{end}}}\n")
        } else {
            self.f.jump_targets.insert("_f_return".to_string());
            "goto _f_return;\n".to_string()
        };
        let body: String = body.split_inclusive('\n').map(|line| if line.trim_end() == RETURN_IN_PLACE { in_place.as_str() } else { line }).collect();
        let mut body = self.drop_unused_labels(&body);
        let return_label = if self.f.jump_targets.contains("_f_return") { format!("{end}_f_return: ;\n") } else { String::new() };
        self.drop_unread_bounds(&mut decls, &mut body, &[&implicit, &spec_acc, &prologue, &region_open, &region_close, &epilogue, &return_label]);
        let _ = write!(self.bodies, "{m}{header} {{\n{decls}{implicit}{spec_acc}{prologue}{region_open}{body}{return_label}{region_close}{epilogue}{end}{ret}\n{end}}}\n");
        self.record_names((u.line, u.end_line));
        Ok(())
    }

    /// The bounds `(lower bound, extent)` per dimension that every `allocate` of `name` in
    /// `body` gives, when all give the same constant ones (Fortran 2003 §6.3.1: an extent below
    /// zero is zero); `None` when one is not constant, two differ, or there is none.
    fn constant_allocation(&self, body: &[Stmt], name: &str, rank: usize) -> Option<Vec<(i64, i64)>> {
        fn each_allocation<'a>(stmts: &'a [Stmt], out: &mut Vec<&'a Expr>) {
            for s in stmts {
                match &s.kind {
                    StmtKind::Allocate(items) => out.extend(items),
                    StmtKind::If { arms, otherwise } => {
                        arms.iter().for_each(|(_, b)| each_allocation(b, out));
                        if let Some(b) = otherwise {
                            each_allocation(b, out);
                        }
                    }
                    StmtKind::Do { body, .. } | StmtKind::DoWhile { body, .. } | StmtKind::DoForever { body, .. } => each_allocation(body, out),
                    StmtKind::Select { cases, default, .. } => {
                        cases.iter().for_each(|(_, b)| each_allocation(b, out));
                        if let Some(b) = default {
                            each_allocation(b, out);
                        }
                    }
                    StmtKind::Where { then, otherwise, .. } => {
                        each_allocation(then, out);
                        each_allocation(otherwise, out);
                    }
                    StmtKind::Acc { body: Some(b), .. } => each_allocation(b, out),
                    _ => {}
                }
            }
        }
        // An array a procedure may allocate with other bounds (passed to an allocatable or
        // pointer dummy in a `call`) has them only in its bound variables.
        if self.passed_to_descriptor(body, name) {
            return None;
        }
        let mut items = Vec::new();
        each_allocation(body, &mut items);
        let mut found: Option<Vec<(i64, i64)>> = None;
        for it in items {
            let Expr::Apply(n, dims) = it else { continue };
            if n != name {
                continue;
            }
            if dims.len() != rank {
                return None;
            }
            let mut bounds = Vec::new();
            for d in dims {
                bounds.push(match d {
                    Arg::Value(h) => (1, self.fold(h)?.max(0)),
                    Arg::Range(Some(l), Some(h), None) => {
                        let (l, h) = (self.fold(l)?, self.fold(h)?);
                        (l, (h - l + 1).max(0))
                    }
                    _ => return None,
                });
            }
            match &found {
                Some(f) if *f != bounds => return None,
                _ => found = Some(bounds),
            }
        }
        found
    }

    /// Whether a `call` in `stmts` passes variable `name` to an allocatable or pointer dummy.
    fn passed_to_descriptor(&self, stmts: &[Stmt], name: &str) -> bool {
        stmts.iter().any(|s| match &s.kind {
            StmtKind::Call(p, args) => self.procs.get(p).is_some_and(|p| {
                args.iter().enumerate().any(|(i, a)| match a {
                    Arg::Value(Expr::Name(n)) => n == name && p.dummies.get(i).is_some_and(|d| d.allocatable || d.pointer),
                    Arg::Keyword(k, Expr::Name(n)) => n == name && p.dummies.iter().any(|d| &d.name == k && (d.allocatable || d.pointer)),
                    _ => false,
                })
            }),
            StmtKind::If { arms, otherwise } => arms.iter().any(|(_, b)| self.passed_to_descriptor(b, name)) || otherwise.as_ref().is_some_and(|b| self.passed_to_descriptor(b, name)),
            StmtKind::Do { body, .. } | StmtKind::DoWhile { body, .. } | StmtKind::DoForever { body, .. } => self.passed_to_descriptor(body, name),
            StmtKind::Select { cases, default, .. } => cases.iter().any(|(_, b)| self.passed_to_descriptor(b, name)) || default.as_ref().is_some_and(|b| self.passed_to_descriptor(b, name)),
            StmtKind::Acc { body: Some(b), .. } => self.passed_to_descriptor(b, name),
            _ => false,
        })
    }

    /// `body` without the lines that are a label (`_floop3_cycle: ;`, `_f_label10: ;`) no `goto`
    /// of the procedure jumps to ([`FnState::jump_targets`]; a `goto` may come after its label,
    /// so this runs once the whole body is written).
    fn drop_unused_labels(&self, body: &str) -> String {
        let mut kept = String::with_capacity(body.len());
        for line in body.split_inclusive('\n') {
            let label = line.trim_end().strip_suffix(": ;").filter(|l| l.starts_with("_f") && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
            if label.is_some_and(|l| !self.f.jump_targets.contains(l)) {
                continue;
            }
            kept.push_str(line);
        }
        kept
    }

    /// The `data` statements of unit `u` (Fortran 2003 §5.2.5): the values, repeat counts
    /// expanded, go to the objects in order, a whole array taking as many as it has elements
    /// in array element order. The variables are saved, so a procedure assigns them on its
    /// first call only (a main program runs once).
    fn data_init(&mut self, u: &Unit, out: &mut String) -> TResult<()> {
        if u.data.is_empty() {
            return Ok(());
        }
        let mut code = String::new();
        for d in &u.data {
            let m = self.marker(d.line);
            let mut values = Vec::new();
            for (r, v) in &d.values {
                let ce = self.expr(v, None, d.line)?;
                for _ in 0..*r {
                    values.push(ce.clone());
                }
            }
            let mut next = values.into_iter();
            let mut take = |what: &str| next.next().ok_or_else(|| FortranError { line: d.line, col: 0, message: format!("the `data` statement has fewer values than objects (at {what})"), unsupported: false });
            for o in &d.objects {
                match o {
                    Expr::Name(n) => {
                        let v = self.var(n, d.line)?;
                        if v.ty == Ty::Char {
                            return unsupported(d.line, "character variables in `data` statements");
                        }
                        match &v.shape {
                            None => {
                                let val = take(n)?;
                                let _ = writeln!(code, "{m}{} = {};", v.cname, expr::unparen(&Self::convert(&val, v.ty)));
                            }
                            Some(sh) if sh.fixed => {
                                let total: i64 = sh.exts.iter().map(|x| x.parse::<i64>().unwrap_or(0)).product();
                                for k in 0..total {
                                    let val = take(n)?;
                                    let _ = writeln!(code, "{m}{}[{k}] = {};", v.cname, expr::unparen(&Self::convert(&val, v.ty)));
                                }
                            }
                            Some(_) => return unsupported(d.line, format!("`data` for `{n}`, whose size is not constant")),
                        }
                    }
                    Expr::Apply(n, _) => {
                        let lhs = self.expr(o, None, d.line)?;
                        let val = take(n)?;
                        let _ = writeln!(code, "{m}{} = {};", lhs.c, expr::unparen(&Self::convert(&val, lhs.ty)));
                    }
                    _ => return error(d.line, "a `data` object must be a variable or an array element"),
                }
            }
            if next.next().is_some() {
                return error(d.line, "the `data` statement has more values than its objects take");
            }
        }
        if u.kind == UnitKind::Program {
            out.push_str(&code);
        } else {
            let flag = self.tmp("data");
            let m = self.marker(u.line);
            let _ = write!(out, "{m}static int {flag};\n{m}if (!{flag}) {{\n{code}{m}{flag} = 1;\n{m}}}\n");
        }
        Ok(())
    }

    /// Record the variables visible in the unit translated now (lines `lines`) in [`Self::names`].
    fn record_names(&mut self, lines: (u32, u32)) {
        let scopes = [Some(&self.f.scope), self.host.as_ref()];
        for (fname, v) in scopes.into_iter().flatten().flat_map(|s| s.iter()) {
            if v.param.is_some() {
                continue;
            }
            let (lbs, exts) = match &v.shape {
                Some(sh) => (sh.lbs.iter().map(|x| x.parse().ok()).collect(), sh.exts.iter().map(|x| x.parse().ok()).collect()),
                None => (Vec::new(), Vec::new()),
            };
            let lines = if v.global { (0, u32::MAX) } else { lines };
            let entry = crate::names::VarName { cname: v.cname.clone(), fname: fname.clone(), lines, lbs, exts };
            if v.dummy.is_some() && v.shape.is_none() {
                self.names.add_var(crate::names::VarName { cname: format!("{}_arg", v.cname), ..entry.clone() });
            }
            self.names.add_var(entry);
        }
    }

    /// A fresh C temporary name.
    pub fn tmp(&mut self, what: &str) -> String {
        self.f.tmp += 1;
        format!("_f{what}{}", self.f.tmp)
    }

    /// Look up a variable, declaring it implicitly when the rules allow.
    pub fn var(&mut self, name: &str, line: u32) -> TResult<Var> {
        if let Some(v) = self.lookup(name) {
            return Ok(v.clone());
        }
        if self.f.implicit_none {
            return error(line, format!("`{name}` has no type (`implicit none` is in effect)"));
        }
        let ty = implicit_type(name);
        let v = Var { ty, char_len: 0, cname: c_name(name), shape: None, param: None, int_value: None, dummy: None, intent: None, allocatable: false, pointer: false, global: false, line: 0 };
        self.f.scope.insert(name.to_string(), v.clone());
        self.f.order.push(name.to_string());
        Ok(v)
    }
}

/// The C size of one array element of type `ty` (a character element is `char_len` characters).
pub fn element_size(ty: Ty, char_len: i64) -> String {
    if ty == Ty::Char {
        format!("{}", char_len.max(1))
    } else {
        format!("sizeof({})", ty.c())
    }
}

/// Whether C text is a literal constant (a number, possibly negative, with a suffix).
fn is_c_constant(c: &str) -> bool {
    let t = c.trim_start_matches(['(', '-']).trim_end_matches(')');
    !t.is_empty() && t.chars().all(|ch| ch.is_ascii_digit() || matches!(ch, '.' | 'e' | 'E' | 'f' | 'L' | '+' | '-'))
}

/// Translate a whole Fortran file into C.
pub fn translate_units(units: &[Unit], file: &str) -> TResult<String> {
    translate_units_named(units, file).map(|(c, _)| c)
}

/// [`translate_units`], with the side table that words messages in Fortran ([`crate::names`]).
pub fn translate_units_named(units: &[Unit], file: &str) -> TResult<(String, crate::names::FortranNames)> {
    let mut t = Translator {
        file: file.to_string(),
        procs: HashMap::new(),
        modules: HashMap::new(),
        globals: String::new(),
        protos: String::new(),
        bodies: String::new(),
        f: FnState::default(),
        host: None,
        host_implicit_none: false,
        names: Default::default(),
        derived: HashMap::new(),
        types_c: String::new(),
        commons: HashMap::new(),
        commons_c: String::new(),
        print_helpers: String::new(),
        print_helper_names: HashMap::new(),
    };
    t.collect(units)?;
    let mut main_count = 0;
    for u in units {
        match u.kind {
            UnitKind::Module => {
                if let Some(d) = u.data.first() {
                    return unsupported(d.line, "`data` statements in a module (give the values as initializers)");
                }
                t.f = FnState::default();
                let mut out = String::new();
                let mut pro = String::new();
                // Re-declare to write the globals (the module scope was collected already).
                t.declare(u, true, &mut out, &mut pro)?;
                let scope = t.f.scope.clone();
                t.globals.push_str(&out);
                for (line, text) in &u.spec_directives {
                    let c = t.acc_directive_text(text, *line, &[])?;
                    let _ = writeln!(t.globals, "{}#pragma acc {c}", t.marker(*line));
                }
                for c in &u.contains {
                    t.unit(c, Some(&scope))?;
                }
            }
            UnitKind::Program => {
                main_count += 1;
                if main_count > 1 {
                    return error(u.line, "a second main program");
                }
                t.host = None;
                t.unit(u, None)?;
                let host = t.host.clone();
                for c in &u.contains {
                    t.unit(c, host.as_ref())?;
                }
                t.host = None;
            }
            _ => t.unit(u, None)?,
        }
    }
    if main_count == 0 {
        return error(1, "no main program in the file");
    }
    t.names.apply_allocations();
    let program = format!("{}\n{}\n{}\n{}\n{}", t.types_c, t.commons_c, t.globals, t.protos, t.bodies);
    // Only the runtime routines the program reaches (runtime.rs): the C front-end and the native
    // engine then spend nothing on the others. The output statements' helpers follow them, still
    // in the runtime's file (they carry no line marker of their own).
    let helpers = t.print_helpers;
    let runtime = crate::runtime::used_by(&format!("{helpers}\n{program}"));
    Ok((format!("{runtime}\n{helpers}\n{program}"), t.names))
}

/// A deferred-shape (`(:)`) component of rank `r`, pointer or allocatable (Fortran 2003 §4.5.3):
/// its C fields — the element pointer and each dimension's `NAME_lbK`/`NAME_nK`, as an
/// allocatable variable's C globals are — written to the type's `c_definition`; gives its shape
/// and the initialiser of a new value of the type (no target, bounds 1 and extents 0).
fn deferred_shape_component(c_definition: &mut String, c_ty: &str, cname: &str, r: usize) -> (Shape, String) {
    let _ = write!(c_definition, "    {c_ty} *{cname};");
    for k in 1..=r {
        let _ = write!(c_definition, " long {cname}_lb{k}, {cname}_n{k};");
    }
    c_definition.push('\n');
    let shape = Shape {
        lbs: (1..=r).map(|k| format!("{cname}_lb{k}")).collect(),
        exts: (1..=r).map(|k| format!("{cname}_n{k}")).collect(),
        fixed: false,
        assumed_shape: false,
        assumed_size: false,
    };
    (shape, format!("0{}", ", 1, 0".repeat(r)))
}
