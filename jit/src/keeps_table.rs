//! Which functions leave the span table as their caller saw it (issue 15: a call's cost in a
//! recursion over a heap structure).
//!
//! Native code keeps the span table's address and length in variables and reloads them after
//! every helper that may change them (`Translator::reload_table`): the table changes only when
//! the memory's allocations do, which only the helpers that sync it after running the C
//! library's heap routines, a frame's allocation or release, an OpenACC statement or the
//! interpreter's call path can do ([`crate::runtime::sync_table`]). A function keeps the table
//! when running it, natively or in the interpreter, allocates and frees nothing: it has no
//! memory locals (so no frame), is not variadic, runs no OpenACC statement and no VLA
//! allocation, and calls only functions that keep the table (directly: a call through a pointer
//! may reach anything) and the C library's math routines. A call of such a function leaves the
//! table's address, length and entries as they were (the address moves only when the table
//! grows, which needs a new allocation), so the caller's lookups made before the call hold
//! after it and Cranelift merges them with the ones after it (`t->left` and `t->right` of a
//! tree node: one lookup).
//!
//! One exception: under `accsim check`, the entries of the allocations a checker follows are
//! empty ([`accsim_core::exec::observed_host`]), and a sync after the interpreter's call path
//! takes the checker's latest set. That set grows only at data events (OpenACC statements of
//! the host), which a function that keeps the table runs none of; an allocation the checker
//! stopped following keeps its empty entry here until the next reload, which only sends its
//! accesses to the checked path (a cost, never a missed access).

use accsim_core::exec::libc_shim::{self, Shim};
use accsim_core::ir::{visit, Callee, ExprKind, Program, StmtKind, Storage};

/// By function id: whether a call of it keeps the span table (see the module documentation).
pub fn keeps_table(p: &Program) -> Vec<bool> {
    let math = |x: u32, nargs: usize| {
        let shim = p.externs.get(x as usize).and_then(|e| libc_shim::bind(&e.name, &p.types, e.ty).shim());
        matches!((shim, nargs), (Some(Shim::Math1(_) | Shim::Math1F(_)), 1) | (Some(Shim::Math2(_) | Shim::Math2F(_)), 2))
    };
    // Each function's own verdict and the functions it calls directly.
    let mut callees: Vec<Vec<u32>> = Vec::with_capacity(p.functions.len());
    let mut keeps: Vec<bool> = Vec::with_capacity(p.functions.len());
    for f in &p.functions {
        let mut statements_ok = true;
        let mut exprs_ok = true;
        let mut calls = Vec::new();
        visit::walk(
            &f.body,
            true,
            &mut |s| statements_ok &= !matches!(s.kind, StmtKind::Acc { .. } | StmtKind::AccLaunch(_) | StmtKind::Partition(_) | StmtKind::VlaAlloc(_)),
            &mut |e| match &e.kind {
                ExprKind::Call { callee: Callee::Direct(g), args, result: None } => {
                    exprs_ok &= p.functions.get(g.0 as usize).is_some_and(|h| h.params.len() == args.len() && !h.variadic);
                    calls.push(g.0);
                }
                ExprKind::Call { callee: Callee::Extern(x), args, result: None } => exprs_ok &= math(x.0, args.len()),
                ExprKind::Call { .. } | ExprKind::VaStart(_) | ExprKind::VaArg(_) | ExprKind::VaCopy(..) => exprs_ok = false,
                _ => {}
            },
        );
        calls.sort_unstable();
        calls.dedup();
        callees.push(calls);
        keeps.push(statements_ok && exprs_ok && !f.variadic && f.locals.iter().all(|l| l.storage == Storage::Register));
    }
    // The greatest solution: a function keeps the table when it does and every function it
    // calls does (a recursion keeps it unless something in it does not).
    loop {
        let mut changed = false;
        for f in 0..keeps.len() {
            if keeps[f] && callees[f].iter().any(|&g| !keeps.get(g as usize).copied().unwrap_or(false)) {
                keeps[f] = false;
                changed = true;
            }
        }
        if !changed {
            return keeps;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdicts(src: &str) -> Vec<(String, bool)> {
        let mut map = accsim_core::diag::SourceMap::new();
        let compiled = accsim_core::driver::compile_preprocessed("keeps.c", src.to_string(), &mut map).expect("the test program compiles");
        let p = &compiled.program;
        let keeps = keeps_table(p);
        p.functions.iter().zip(keeps).map(|(f, k)| (f.name.clone(), k)).collect()
    }

    #[test]
    fn recursion_over_a_tree_keeps_the_table_allocation_does_not() {
        let v = verdicts(
            "void *malloc(unsigned long);\ndouble sqrt(double);\n\
             struct n { double v; struct n *l, *r; };\n\
             static double sum(const struct n *t) { return t ? sqrt(t->v) + sum(t->l) + sum(t->r) : 0; }\n\
             static struct n *make(int d) { struct n *t = malloc(sizeof *t); t->l = d ? make(d - 1) : 0; t->r = 0; t->v = d; return t; }\n\
             static double through(const struct n *t) { return sum(t) + (make(0) != 0); }\n\
             static int addr(int x) { int *p = &x; return *p; }\n\
             static int calls_addr(int x) { return addr(x); }\n\
             static double indirect(double (*f)(const struct n *), const struct n *t) { return f(t); }\n\
             int main(void) { struct n *t = make(3); return (int)(sum(t) + through(t) + calls_addr(1) + indirect(sum, t)); }\n",
        );
        let get = |name: &str| v.iter().find(|(n, _)| n == name).map(|(_, k)| *k);
        assert_eq!(get("sum"), Some(true));
        assert_eq!(get("make"), Some(false), "malloc");
        assert_eq!(get("through"), Some(false), "calls make");
        assert_eq!(get("addr"), Some(false), "a memory local: a frame");
        assert_eq!(get("calls_addr"), Some(false), "calls a function with a frame");
        assert_eq!(get("indirect"), Some(false), "a call through a pointer");
    }
}
