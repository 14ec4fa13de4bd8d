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
//! region does not write, which is what the 1.3 program sees.
//!
//! Only arrays are decided here: names declared with an array declarator of known size (locals,
//! parameters declared as arrays, file-scope arrays) and not declared inside the region. Scalars
//! keep 2.0's implicit `copy` (§2.5.2), which gives the same values; pointers keep accsim's
//! implicit pointer copies (inferred from the kernel's accesses). A name that is declared both as
//! an array and as something else in the unit is left to 2.0's rules. An array passed whole to a
//! function, or whose address is taken, counts as read and written.

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

/// For each region marker id in `regions`, the data clauses its implicit analysis adds (text to
/// append to the 2.0 directive), leaving out the names in `named` (the region's own clauses).
pub fn implicit_clauses(unit: &ast::TranslationUnit, regions: &HashMap<u32, Vec<String>>) -> HashMap<u32, String> {
    let mut arrays = ArrayNames::default();
    arrays.visit_translation_unit(unit);
    let mut finder = Regions { wanted: regions, arrays: &arrays.kinds, out: HashMap::new() };
    finder.visit_translation_unit(unit);
    finder.out
}

/// Every declared name, and whether each of its declarations is an array of known size.
#[derive(Default)]
struct ArrayNames {
    kinds: HashMap<String, bool>,
}

fn declares_array(d: &ast::Declarator) -> bool {
    match d.derived.first().map(|x| &x.node) {
        Some(ast::DerivedDeclarator::Array(a)) => !matches!(a.node.size, ast::ArraySize::Unknown | ast::ArraySize::VariableUnknown),
        _ => false,
    }
}

impl<'ast> Visit<'ast> for ArrayNames {
    fn visit_declarator(&mut self, d: &'ast ast::Declarator, span: &'ast Span) {
        if let Some(name) = crate::lower::declarator_name(d) {
            let array = declares_array(d);
            let e = self.kinds.entry(name.to_string()).or_insert(array);
            *e = *e && array;
        }
        visit::visit_declarator(self, d, span)
    }
}

struct Regions<'a> {
    wanted: &'a HashMap<u32, Vec<String>>,
    arrays: &'a HashMap<String, bool>,
    out: HashMap<u32, String>,
}

impl<'ast> Visit<'ast> for Regions<'_> {
    fn visit_labeled_statement(&mut self, l: &'ast ast::LabeledStatement, span: &'ast Span) {
        if let ast::Label::Identifier(i) = &l.label.node {
            if let Some(named) = label_marker_id(&i.node.name).and_then(|id| self.wanted.get(&id).map(|n| (id, n))) {
                let (id, named) = named;
                let mut uses = Uses::default();
                uses.visit_statement(&l.statement.node, &l.statement.span);
                let mut copyin = Vec::new();
                let mut copy = Vec::new();
                for (name, u) in &uses.order {
                    if named.contains(name) || uses.declared.contains(name) || self.arrays.get(name) != Some(&true) {
                        continue;
                    }
                    match u {
                        Use::Read => copyin.push(name.as_str()),
                        Use::Write | Use::ReadWrite => copy.push(name.as_str()),
                    }
                }
                let mut clauses = Vec::new();
                if !copyin.is_empty() {
                    clauses.push(format!("copyin({})", copyin.join(", ")));
                }
                if !copy.is_empty() {
                    clauses.push(format!("copy({})", copy.join(", ")));
                }
                if !clauses.is_empty() {
                    self.out.insert(id, clauses.join(" "));
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
            // A name used whole in any other expression (an array passed to a function, or
            // decaying to a pointer): read and write.
            Expression::Identifier(i) => self.record(&i.node.name, Use::ReadWrite),
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
        regions.insert(0, named.iter().map(|s| s.to_string()).collect());
        implicit_clauses(&p.unit, &regions).remove(&0)
    }

    #[test]
    fn read_arrays_copy_in_written_arrays_copy() {
        let src = "float g[8];\nvoid f(int n, float *p) { float a[8], b[8], c[8][8]; int s = 0;\n__acc_pragma_0: for (int i = 0; i < 8; i++) { float t = a[i] + g[i]; b[i] = t; c[i][0] += s; p[i] = t; } }\n";
        assert_eq!(clauses(src, &[]).as_deref(), Some("copyin(a, g) copy(b, c)"));
        assert_eq!(clauses(src, &["a", "b"]).as_deref(), Some("copyin(g) copy(c)"));
        let src = "void h(float *x);\nvoid f(void) { float a[8];\n__acc_pragma_0: { h(a); } }\n";
        assert_eq!(clauses(src, &[]).as_deref(), Some("copy(a)"));
        let src = "void f(void) {\n__acc_pragma_0: { float a[8]; a[0] = 1; } }\n";
        assert_eq!(clauses(src, &[]), None);
    }
}
