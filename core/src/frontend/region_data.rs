//! PGI Accelerator 1.3's implicit data analysis of a compute region, for C (1.3 §2.3.1: "For each
//! variable or array used in the compute region that does not appear in any data clause, the
//! compiler will analyze all references to the variable or array and determine … whether the
//! value in host memory needs to be copied to the device memory; whether a value computed on the
//! accelerator will be needed again on the host").
//!
//! The analysis runs on the region's C statement and writes its result as 2.0 data clauses on
//! the translated `kernels` directive (so `accsim info` shows them as a user porting the program
//! would write them): an array the region only reads is `copyin`; an array it writes is `copy`.
//! 1.3 compilers copy out only the section they can prove written; accsim cannot prove that, and
//! `copy` (rather than `copyout` of the whole array) keeps the host's values of the elements the
//! region does not write, which is what the 1.3 program sees. A scalar the region only reads is
//! `copyin` too (2.0 would copy it back, §2.5.2).
//!
//! Decided here: arrays (names declared with an array declarator of known size: locals,
//! parameters declared as arrays, file-scope arrays) and scalars the region only reads (names
//! declared without pointer, array or function declarators), not declared inside the region.
//! Scalars the region writes keep 2.0's implicit `copy` (§2.5.2), which gives the same values;
//! pointers keep accsim's implicit pointer copies (inferred from the kernel's accesses); a name
//! declared as two kinds of thing in the unit is left to 2.0's rules. A variable that already has
//! a visible device copy — named by a declarative directive (`declare`, reflected, `device
//! present`) of the function or the file, or by an enclosing data region — is the region's as it
//! is (1.3 §2.6: it "may not appear in a data clause for any region where the declaration of the
//! variable is visible"). An array passed whole to a function, or whose address is taken, counts
//! as read and written.

use std::collections::{HashMap, HashSet};

use lang_c::ast::{self, BinaryOperator, Expression, UnaryOperator};
use lang_c::span::{Node, Span};
use lang_c::visit::{self, Visit};

use super::pragma::label_marker_id;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Use {
    Read,
    Write,
    ReadWrite,
}

/// A variable's name and the clause item that maps it (`a`, `a[0:n]`, `s.x`).
pub type Item = (String, String);

/// The directives that give variables a visible device copy, by marker id, with their items.
#[derive(Default)]
pub struct Mapped {
    /// `declare` directives (1.3 declarative data, reflected, `device present`): for the
    /// function they are in, or the file.
    pub declares: HashMap<u32, Vec<Item>>,
    /// Data constructs (1.3 data regions): for their statement.
    pub data: HashMap<u32, Vec<Item>>,
}

/// What the analysis of the compute regions found.
#[derive(Default, Debug)]
pub struct RegionAnalysis {
    /// By region marker id: the data clauses its implicit analysis adds (text to append to the
    /// 2.0 directive).
    pub clauses: HashMap<u32, String>,
    /// By region marker id: its `host` loops (1.3 §2.4.1.1), at any depth, in order, with the device copies each uses (`update host` before it) and writes (`update
    /// device` after it), as clause items.
    pub host_loops: HashMap<u32, Vec<HostLoopData>>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostLoopData {
    pub marker: u32,
    pub to_host: Vec<String>,
    pub to_device: Vec<String>,
}

/// For each region marker id in `regions`, the data clauses its implicit analysis adds, leaving
/// out the names in `named` (the region's own clause items) and those `mapped` gives a visible
/// device copy; and the data movement around the `host` loops (marker ids in `host_loops`) of
/// its block.
pub fn implicit_clauses(unit: &ast::TranslationUnit, regions: &HashMap<u32, Vec<Item>>, mapped: &Mapped, host_loops: &HashSet<u32>) -> RegionAnalysis {
    let mut arrays = ArrayNames::default();
    arrays.visit_translation_unit(unit);
    let mut file_scope = DeclaresIn { mapped, names: HashMap::new() };
    for d in &unit.0 {
        if let ast::ExternalDeclaration::StaticAssert(sa) = &d.node {
            file_scope.visit_static_assert(&sa.node, &sa.span);
        }
    }
    let mut finder = Regions { wanted: regions, mapped, arrays: &arrays.kinds, host_loops, visible: vec![file_scope.names], out: RegionAnalysis::default() };
    finder.visit_translation_unit(unit);
    finder.out
}

/// The names of the `declare` markers inside a function body (or at file scope).
struct DeclaresIn<'a> {
    mapped: &'a Mapped,
    names: HashMap<String, String>,
}

impl<'ast> Visit<'ast> for DeclaresIn<'_> {
    fn visit_static_assert(&mut self, sa: &'ast ast::StaticAssert, span: &'ast Span) {
        if let Some(names) = super::pragma::assert_marker_id(&sa.message.node.join("")).and_then(|id| self.mapped.declares.get(&id)) {
            self.names.extend(names.iter().cloned());
        }
        visit::visit_static_assert(self, sa, span)
    }
}

/// What a name is declared as (every declaration of it in the unit agreeing, else `Other`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Declared {
    /// An array of known size.
    Array,
    /// No pointer, array or function declarator.
    Scalar,
    Other,
}

/// Every declared name and what it is declared as.
#[derive(Default)]
struct ArrayNames {
    kinds: HashMap<String, Declared>,
}

fn declared(d: &ast::Declarator) -> Declared {
    match d.derived.first().map(|x| &x.node) {
        Some(ast::DerivedDeclarator::Array(a)) if !matches!(a.node.size, ast::ArraySize::Unknown | ast::ArraySize::VariableUnknown) => Declared::Array,
        None => Declared::Scalar,
        _ => Declared::Other,
    }
}

impl<'ast> Visit<'ast> for ArrayNames {
    fn visit_declarator(&mut self, d: &'ast ast::Declarator, span: &'ast Span) {
        if let Some(name) = crate::lower::declarator_name(d) {
            let kind = declared(d);
            let e = self.kinds.entry(name.to_string()).or_insert(kind);
            if *e != kind {
                *e = Declared::Other;
            }
        }
        visit::visit_declarator(self, d, span)
    }
}

struct Regions<'a> {
    wanted: &'a HashMap<u32, Vec<Item>>,
    mapped: &'a Mapped,
    arrays: &'a HashMap<String, Declared>,
    host_loops: &'a HashSet<u32>,
    /// The names with a visible device copy, per enclosing scope (file, function, data regions),
    /// with the clause item that maps each.
    visible: Vec<HashMap<String, String>>,
    out: RegionAnalysis,
}

impl Regions<'_> {
    /// The `host` loops of a region (1.3 §2.4.1.1), at any depth, with the data each moves
    /// (`device`: name → clause item of the names with a device copy): what it uses that the
    /// region's device code (everything but its host loops) writes is copied to the host before
    /// it; what it writes (or passes on whole) that the device code uses is copied back to the
    /// device after it.
    fn host_loop_data<'r>(&self, region: &'r ast::Statement, region_span: &'r Span, device: &HashMap<String, String>) -> Vec<HostLoopData> {
        let mut loops = HostLoopsIn { host_loops: self.host_loops, found: Vec::new() };
        loops.visit_statement(region, region_span);
        if loops.found.is_empty() {
            return Vec::new();
        }
        let mut on_device = Uses { skip: loops.found.iter().map(|(m, _)| *m).collect(), ..Uses::default() };
        on_device.visit_statement(region, region_span);
        let writes = |uses: &Uses, name: &str, u: Use| u != Use::Read || (uses.whole.contains(name) && self.arrays.get(name) != Some(&Declared::Scalar));
        let mut out = Vec::new();
        for (marker, stmt) in loops.found {
            let mut uses = Uses::default();
            uses.visit_statement(&stmt.node, &stmt.span);
            let (mut to_host, mut to_device) = (Vec::new(), Vec::new());
            for (name, u) in &uses.order {
                let Some(item) = device.get(name).filter(|_| !uses.declared.contains(name)) else { continue };
                let device_use = on_device.order.iter().find(|(n, _)| n == name).map(|(_, d)| *d);
                if device_use.is_some_and(|d| writes(&on_device, name, d)) {
                    to_host.push(item.clone());
                }
                if device_use.is_some() && writes(&uses, name, *u) {
                    to_device.push(item.clone());
                }
            }
            out.push(HostLoopData { marker, to_host, to_device });
        }
        out
    }
}

/// The `host` loops (marker ids in `host_loops`) anywhere in a statement, in order: the marker
/// and the loop.
struct HostLoopsIn<'a, 'ast> {
    host_loops: &'a HashSet<u32>,
    found: Vec<(u32, &'ast Node<ast::Statement>)>,
}

impl<'ast> Visit<'ast> for HostLoopsIn<'_, 'ast> {
    fn visit_labeled_statement(&mut self, l: &'ast ast::LabeledStatement, span: &'ast Span) {
        if let ast::Label::Identifier(i) = &l.label.node {
            if let Some(m) = label_marker_id(&i.node.name).filter(|m| self.host_loops.contains(m)) {
                self.found.push((m, &l.statement));
                return;
            }
        }
        visit::visit_labeled_statement(self, l, span)
    }
}

impl<'ast> Visit<'ast> for Regions<'_> {
    fn visit_function_definition(&mut self, f: &'ast ast::FunctionDefinition, span: &'ast Span) {
        let mut declares = DeclaresIn { mapped: self.mapped, names: HashMap::new() };
        declares.visit_statement(&f.statement.node, &f.statement.span);
        self.visible.push(declares.names);
        visit::visit_function_definition(self, f, span);
        self.visible.pop();
    }

    fn visit_labeled_statement(&mut self, l: &'ast ast::LabeledStatement, span: &'ast Span) {
        if let ast::Label::Identifier(i) = &l.label.node {
            if let Some(names) = label_marker_id(&i.node.name).and_then(|id| self.mapped.data.get(&id)) {
                self.visible.push(names.iter().cloned().collect());
                visit::visit_labeled_statement(self, l, span);
                self.visible.pop();
                return;
            }
            if let Some(named) = label_marker_id(&i.node.name).and_then(|id| self.wanted.get(&id).map(|n| (id, n))) {
                let (id, named) = named;
                let mut uses = Uses::default();
                uses.visit_statement(&l.statement.node, &l.statement.span);
                let mut copyin = Vec::new();
                let mut copy = Vec::new();
                for (name, u) in &uses.order {
                    let visible = self.visible.iter().any(|v| v.contains_key(name));
                    if visible || named.iter().any(|(n, _)| n == name) || uses.declared.contains(name) {
                        continue;
                    }
                    let passed_on = uses.whole.contains(name);
                    match (self.arrays.get(name), u) {
                        (Some(Declared::Array), Use::Read) if passed_on => copy.push(name.as_str()),
                        (Some(Declared::Array | Declared::Scalar), Use::Read) => copyin.push(name.as_str()),
                        (Some(Declared::Array), Use::Write | Use::ReadWrite) => copy.push(name.as_str()),
                        _ => {}
                    }
                }
                // What has a device copy in the region: its own clauses, what the analysis adds,
                // and what enclosing data regions and declarations map.
                let mut device: HashMap<String, String> = HashMap::new();
                for v in &self.visible {
                    device.extend(v.iter().map(|(n, i)| (n.clone(), i.clone())));
                }
                device.extend(named.iter().cloned());
                device.extend(copyin.iter().chain(copy.iter()).map(|n| (n.to_string(), n.to_string())));
                let loops = self.host_loop_data(&l.statement.node, &l.statement.span, &device);
                if !loops.is_empty() {
                    self.out.host_loops.insert(id, loops);
                }
                let mut clauses = Vec::new();
                if !copyin.is_empty() {
                    clauses.push(format!("copyin({})", copyin.join(", ")));
                }
                if !copy.is_empty() {
                    clauses.push(format!("copy({})", copy.join(", ")));
                }
                if !clauses.is_empty() {
                    self.out.clauses.insert(id, clauses.join(" "));
                }
            }
        }
        visit::visit_labeled_statement(self, l, span)
    }
}

/// The names a statement uses, in first-use order, with how; and the names it declares.
#[derive(Default)]
struct Uses {
    order: Vec<(String, Use)>,
    declared: HashSet<String>,
    /// Names used whole as values: a scalar read, or an array decaying to a pointer (passed on:
    /// read and written, as far as the analysis knows).
    whole: HashSet<String>,
    /// The markers of the statements left out (the region's `host` loops, when the uses are
    /// its device code's).
    skip: HashSet<u32>,
}

impl Uses {
    fn record(&mut self, name: &str, u: Use) {
        match self.order.iter_mut().find(|(n, _)| n == name) {
            Some((_, old)) if *old != u => *old = Use::ReadWrite,
            Some(_) => {}
            None => self.order.push((name.to_string(), u)),
        }
    }

    /// An lvalue used as `u`: an element `a[i][j]` of array `a` (its subscripts are read), or a
    /// whole name (an array named whole is passed on or has its address taken: read and write).
    fn place(&mut self, e: &Node<Expression>, u: Use) {
        match &e.node {
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                self.visit_expression(&b.node.rhs.node, &b.node.rhs.span);
                match &b.node.lhs.node {
                    Expression::Identifier(i) => self.record(&i.node.name, u),
                    _ => self.place(&b.node.lhs, u),
                }
            }
            Expression::Identifier(i) => self.record(&i.node.name, Use::ReadWrite),
            _ => self.visit_expression(&e.node, &e.span),
        }
    }
}

impl<'ast> Visit<'ast> for Uses {
    fn visit_labeled_statement(&mut self, l: &'ast ast::LabeledStatement, span: &'ast Span) {
        if let ast::Label::Identifier(i) = &l.label.node {
            if label_marker_id(&i.node.name).is_some_and(|m| self.skip.contains(&m)) {
                return;
            }
        }
        visit::visit_labeled_statement(self, l, span)
    }

    fn visit_declarator(&mut self, d: &'ast ast::Declarator, span: &'ast Span) {
        if let Some(name) = crate::lower::declarator_name(d) {
            self.declared.insert(name.to_string());
        }
        visit::visit_declarator(self, d, span)
    }

    fn visit_expression(&mut self, e: &'ast Expression, span: &'ast Span) {
        match e {
            Expression::BinaryOperator(b) => {
                let op = b.node.operator.node.clone();
                match op {
                    BinaryOperator::Index => {
                        self.visit_expression(&b.node.rhs.node, &b.node.rhs.span);
                        match &b.node.lhs.node {
                            Expression::Identifier(i) => self.record(&i.node.name, Use::Read),
                            _ => self.place(&b.node.lhs, Use::Read),
                        }
                    }
                    BinaryOperator::Assign => {
                        self.visit_expression(&b.node.rhs.node, &b.node.rhs.span);
                        self.place(&b.node.lhs, Use::Write);
                    }
                    BinaryOperator::AssignMultiply
                    | BinaryOperator::AssignDivide
                    | BinaryOperator::AssignModulo
                    | BinaryOperator::AssignPlus
                    | BinaryOperator::AssignMinus
                    | BinaryOperator::AssignShiftLeft
                    | BinaryOperator::AssignShiftRight
                    | BinaryOperator::AssignBitwiseAnd
                    | BinaryOperator::AssignBitwiseXor
                    | BinaryOperator::AssignBitwiseOr => {
                        self.visit_expression(&b.node.rhs.node, &b.node.rhs.span);
                        self.place(&b.node.lhs, Use::ReadWrite);
                    }
                    _ => visit::visit_expression(self, e, span),
                }
            }
            Expression::UnaryOperator(u)
                if matches!(
                    u.node.operator.node,
                    UnaryOperator::PreIncrement | UnaryOperator::PreDecrement | UnaryOperator::PostIncrement | UnaryOperator::PostDecrement | UnaryOperator::Address
                ) =>
            {
                self.place(&u.node.operand, Use::ReadWrite)
            }
            Expression::Identifier(i) => {
                self.record(&i.node.name, Use::Read);
                self.whole.insert(i.node.name.clone());
            }
            _ => visit::visit_expression(self, e, span),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clauses(src: &str, named: &[&str]) -> Option<String> {
        let config = lang_c::driver::Config::with_gcc();
        let p = lang_c::driver::parse_preprocessed(&config, src.to_string()).expect("parses");
        let mut regions = HashMap::new();
        regions.insert(0, named.iter().map(|s| (s.to_string(), s.to_string())).collect());
        implicit_clauses(&p.unit, &regions, &Mapped::default(), &HashSet::new()).clauses.remove(&0)
    }

    #[test]
    fn read_arrays_copy_in_written_arrays_copy() {
        let src = "float g[8];\nvoid f(int n, float *p) { float a[8], b[8], c[8][8]; int s = 0;\n__acc_pragma_0: for (int i = 0; i < 8; i++) { float t = a[i] + g[i]; b[i] = t; c[i][0] += s; p[i] = t; } }\n";
        assert_eq!(clauses(src, &[]).as_deref(), Some("copyin(a, g, s) copy(b, c)"));
        assert_eq!(clauses(src, &["a", "b"]).as_deref(), Some("copyin(g, s) copy(c)"));
        let src = "void h(float *x);\nvoid f(void) { float a[8];\n__acc_pragma_0: { h(a); } }\n";
        assert_eq!(clauses(src, &[]).as_deref(), Some("copy(a)"));
        let src = "void f(void) {\n__acc_pragma_0: { float a[8]; a[0] = 1; } }\n";
        assert_eq!(clauses(src, &[]), None);
    }

    #[test]
    fn arrays_with_a_visible_device_copy_are_left_alone() {
        let src = "float g[8];\n_Static_assert(1, \"__acc_pragma:1\");\nvoid f(void) { float a[8], b[8], c[8];\n_Static_assert(1, \"__acc_pragma:2\");\n__acc_pragma_3: { __acc_pragma_0: { a[0] = b[0] + c[0] + g[0]; } } }\n";
        let config = lang_c::driver::Config::with_gcc();
        let p = lang_c::driver::parse_preprocessed(&config, src.to_string()).expect("parses");
        let regions: HashMap<u32, Vec<Item>> = [(0, Vec::new())].into_iter().collect();
        let mut mapped = Mapped::default();
        let item = |n: &str| vec![(n.to_string(), n.to_string())];
        mapped.declares.insert(1, item("g"));
        mapped.declares.insert(2, item("a"));
        mapped.data.insert(3, item("b"));
        assert_eq!(implicit_clauses(&p.unit, &regions, &mapped, &HashSet::new()).clauses.remove(&0).as_deref(), Some("copyin(c)"));
    }

    #[test]
    fn host_loops_move_the_device_copies_they_use() {
        // Region 0 names `p[0:n]`; `a` and `w` get implicit clauses; `g` is mapped by data region 3.
        let src = "float g[8];\nvoid f(int n, float *p) { float a[8], w[8];\n__acc_pragma_3: { __acc_pragma_0: {\n__acc_pragma_1: for (int i = 0; i < 8; i++) a[i] = p[i] + g[i];\n__acc_pragma_2: for (int i = 1; i < 8; i++) { float t = a[i-1]; a[i] += t; w[i] = g[i]; }\n__acc_pragma_4: for (int i = 0; i < 8; i++) p[i] = a[i] + w[i]; } } }\n";
        let config = lang_c::driver::Config::with_gcc();
        let p = lang_c::driver::parse_preprocessed(&config, src.to_string()).expect("parses");
        let regions: HashMap<u32, Vec<Item>> = [(0, vec![("p".to_string(), "p[0:n]".to_string())])].into_iter().collect();
        let mut mapped = Mapped::default();
        mapped.data.insert(3, vec![("g".to_string(), "g".to_string())]);
        let host: HashSet<u32> = [2].into_iter().collect();
        let found = implicit_clauses(&p.unit, &regions, &mapped, &host);
        assert_eq!(found.clauses.get(&0).map(String::as_str), Some("copy(a, w)"));
        let strs = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        // `a` is written on both sides; `w` is written by the host loop and read by the last
        // kernel (it goes to the device only); `g` is only read.
        assert_eq!(found.host_loops.get(&0), Some(&vec![HostLoopData { marker: 2, to_host: strs(&["a"]), to_device: strs(&["a", "w"]) }]));
    }
}
