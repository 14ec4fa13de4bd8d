//! What the GUI knows about a program before it runs: for every kernel function, its scheduled
//! loops and, for every statement location, the loops that enclose it — the execution mode the
//! statement runs in (§1.2: gang-redundant or gang-partitioned, worker-single or
//! worker-partitioned, vector-single or vector-partitioned).
//!
//! Loop scheduling (`accsim_core::kernel::schedule`) turns every `loop` directive into explicit IR
//! loops and records their temporaries in [`LoopTemps`]; here the kernel body is walked, and a
//! statement is inside loop `L` when it is in the body of the `for` over `L`'s iteration index.
//! The statements scheduling generates carry the directive's location and run outside the
//! iteration loop, so a location seen both inside and outside a loop is taken as outside: stopped
//! on a loop directive, the threads are still in the enclosing mode.

use std::collections::HashMap;

use accsim_core::diag::Loc;
use accsim_core::ir::acc::{CaptureMode, KernelId, LoopTemps};
use accsim_core::kernel::ProgramInfo;
use accsim_core::ir::{ExprKind, Place, Program, Stmt, StmtKind};

/// A location as a map key (file, line, column).
pub type LocKey = (u32, u32, u32);

pub fn loc_key(loc: Loc) -> LocKey {
    (loc.file.0, loc.line, loc.col)
}

/// One scheduled loop of a kernel.
#[derive(Clone, Debug)]
pub struct LoopLayout {
    /// The `loop` directive's line.
    pub line: u32,
    pub gang: bool,
    pub worker: bool,
    pub vector: bool,
    pub temps: LoopTemps,
}

impl LoopLayout {
    /// "gang vector", or "seq".
    pub fn levels(&self) -> String {
        let mut v = Vec::new();
        if self.gang {
            v.push("gang");
        }
        if self.worker {
            v.push("worker");
        }
        if self.vector {
            v.push("vector");
        }
        if v.is_empty() {
            "seq".into()
        } else {
            v.join(" ")
        }
    }
}

/// A kernel function (one compute construct, or one loop nest of a kernels construct).
#[derive(Clone, Debug)]
pub struct KernelLayout {
    pub name: String,
    /// The compute construct's line.
    pub line: u32,
    pub loops: Vec<LoopLayout>,
    /// Indices into `loops` of the loops enclosing each statement, outermost first.
    pub stacks: HashMap<LocKey, Vec<usize>>,
    /// Name and data attribute of each capture (kernel parameter 4 + i).
    pub captures: Vec<(String, CaptureMode)>,
}

impl KernelLayout {
    /// The loops enclosing `loc`, outermost first (empty: outside every loop).
    pub fn stack(&self, loc: Loc) -> &[usize] {
        self.stacks.get(&loc_key(loc)).map_or(&[], Vec::as_slice)
    }
}

/// Kernel layouts by function index, from the program and its side table (the loop schedules).
pub fn kernels(p: &Program, info: &ProgramInfo) -> HashMap<u32, KernelLayout> {
    let mut out = HashMap::new();
    for (i, k) in p.kernels.iter().enumerate() {
        let Some(f) = p.functions.get(k.func.0 as usize) else {
            continue;
        };
        let loops: Vec<LoopLayout> = info
            .loops(KernelId(i as u32))
            .iter()
            .filter_map(|l| {
                Some(LoopLayout {
                    line: l.loc.line,
                    gang: l.gang,
                    worker: l.worker,
                    vector: l.vector,
                    temps: l.temps?,
                })
            })
            .collect();
        let mut stacks = HashMap::new();
        walk(&f.body, &mut Vec::new(), &loops, &mut stacks);
        out.insert(
            k.func.0,
            KernelLayout {
                name: f.name.clone(),
                line: k.loc.line,
                loops,
                stacks,
                captures: k.captures.iter().map(|c| (c.name.clone(), c.mode)).collect(),
            },
        );
    }
    out
}

fn record(loc: Loc, stack: &[usize], out: &mut HashMap<LocKey, Vec<usize>>) {
    out.entry(loc_key(loc))
        .and_modify(|s| {
            if stack.len() < s.len() {
                *s = stack.to_vec();
            }
        })
        .or_insert_with(|| stack.to_vec());
}

fn walk(s: &Stmt, stack: &mut Vec<usize>, loops: &[LoopLayout], out: &mut HashMap<LocKey, Vec<usize>>) {
    record(s.loc, stack, out);
    match &s.kind {
        StmtKind::Block(v) => v.iter().for_each(|x| walk(x, stack, loops, out)),
        StmtKind::If(c, t, e) => {
            record(c.loc, stack, out);
            // A share visited round by round: `k = round + w*NV + v; if (k < iterations) body`.
            let guarded = match &c.kind {
                ExprKind::Binary(_, a, _) => match a.kind {
                    ExprKind::Local(l) => loops.iter().position(|x| x.temps.iteration == l),
                    _ => None,
                },
                _ => None,
            };
            if let Some(i) = guarded {
                stack.push(i);
                walk(t, stack, loops, out);
                stack.pop();
                return;
            }
            walk(t, stack, loops, out);
            if let Some(e) = e {
                walk(e, stack, loops, out);
            }
        }
        StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
            record(c.loc, stack, out);
            walk(b, stack, loops, out);
        }
        StmtKind::For {
            init,
            cond,
            step,
            body,
        } => {
            if let Some(init) = init {
                walk(init, stack, loops, out);
            }
            for e in cond.iter().chain(step.iter()) {
                record(e.loc, stack, out);
            }
            let counter = init.as_deref().and_then(assigned_local);
            match counter.and_then(|l| loops.iter().position(|x| x.temps.iteration.0 == l)) {
                Some(i) => {
                    stack.push(i);
                    walk(body, stack, loops, out);
                    stack.pop();
                }
                None => walk(body, stack, loops, out),
            }
        }
        StmtKind::Switch { body, .. } => walk(body, stack, loops, out),
        StmtKind::Acc { body: Some(b), .. } => walk(b, stack, loops, out),
        // The threads of a worker or vector partition: their shares are the loops above.
        StmtKind::Partition(p) => {
            record(p.count.loc, stack, out);
            walk(&p.body, stack, loops, out);
        }
        _ => {}
    }
}

/// The register local a statement `l = e;` assigns.
fn assigned_local(s: &Stmt) -> Option<u32> {
    match &s.kind {
        StmtKind::Expr(e) => match &e.kind {
            ExprKind::Assign {
                place: Place::Local(l),
                ..
            } => Some(l.0),
            _ => None,
        },
        _ => None,
    }
}
