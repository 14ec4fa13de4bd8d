//! OpenUH's loop mappings (`--loop-map`): how a 2- or 3-deep nest of partitioned loops is spread
//! over a 2-D grid of 1-, 2- or 3-D blocks (Tian et al., "Compiling a High-level Directive-Based
//! Programming Model for GPGPUs", §3, Figs. 6 and 7; seeds/002).
//!
//! # Model
//!
//! Each loop of the nest gets a start index and a stride built from CUDA's built-ins, and runs
//! `for (k = start; k < iterations; k += stride)` over its linear iteration index (the `__k` of
//! `kernel::schedule`). The paper's mappings, outermost loop first:
//!
//! | mapping | loops | grid | block |
//! |---|---|---|---|
//! | `map2_1` | `blockIdx.x` / `threadIdx.x` | x | x |
//! | `map2_2` | `blockIdx.x·blockDim.y + threadIdx.y` / `threadIdx.x` | x | x, y |
//! | `map2_3` | `blockIdx.y` / `blockIdx.x·blockDim.x + threadIdx.x` | x, y | x |
//! | `map2_4` | `blockIdx.y·blockDim.y + threadIdx.y` / `blockIdx.x·blockDim.x + threadIdx.x` | x, y | x, y |
//! | `map3_1` | `blockIdx.x` / `blockIdx.y·blockDim.y + threadIdx.y` / `threadIdx.x` | x, y | x, y |
//! | `map3_2` | `threadIdx.z` / `blockIdx.y·blockDim.y + threadIdx.y` / `blockIdx.x·blockDim.x + threadIdx.x` | x, y | x, y, z |
//! | `map3_3` | `threadIdx.x` / `blockIdx.y·blockDim.y + threadIdx.y` / `blockIdx.x` | x, y | x, y |
//!
//! The stride of a loop is the number of threads along its index (`gridDim.b·blockDim.t`,
//! `gridDim.b` or `blockDim.t`), so every thread of the grid runs each iteration of the nest's
//! space exactly once, whatever the launch shape.
//!
//! **Which nests fit.** The paper spells each mapping with OpenUH's clauses (a `gang` loop inside
//! a `gang` loop, which OpenACC 2.0 forbids, §2.7.2); accsim takes the mapping as a choice of which
//! thread runs which iteration, which the specification leaves to the implementation for
//! partitioned loops (§1.2, §2.7): a mapping `mapN_x` applies to a compute region whose kernel is
//! one *perfect* nest of exactly N partitioned loops (gang, worker or vector, in any combination;
//! `seq` loops only inside the innermost one), each without `collapse`, `tile`, `gang(static:…)`,
//! `private` or `reduction` clauses, with nothing but register assignments outside the innermost
//! body, and no variable that the gang's threads share. Such a nest has no code that runs between
//! its loops and no per-thread state, so any assignment of iterations to threads gives the same
//! result for a program without data races. A region that does not fit keeps the default mapping
//! (gang → `blockIdx.x`, worker → `threadIdx.y`, vector → `threadIdx.x`) and gets a diagnostic
//! saying why; a mapping that fits no region of the program is an error of the command line.
//!
//! **Launch shape.** From the region's `num_gangs` G, `num_workers` W and `vector_length` V (the
//! numbers the default launch uses): blocks of W·V threads — `(W·V)` for the one-dimensional
//! blocks, `(V, W)` for two, `(V, W/2, 2)` for `map3_2` when W is even (else `(V, W, 1)`); a grid of
//! G blocks — `(G)` in one dimension, `(⌈√G⌉, ⌊G/⌈√G⌉⌋)` in two. A gang is a block: the linear
//! block index (`blockIdx.y·gridDim.x + blockIdx.x` < G) indexes per-gang copies.

use std::collections::HashMap;

use accsim_core::diag::{Diagnostic, Loc, Severity};
use accsim_core::ir::acc::{KernelId, LoopInfo, LoopTemps};
use accsim_core::ir::*;
use accsim_core::kernel::ProgramInfo;

/// Under `--dialect openuh`: each kernel whose loops OpenUH's source spells as one of the
/// paper's nests (`loop gang` / `loop gang vector` …, [`accsim_core::dialect::openuh`]) gets
/// that mapping, by kernel function id. The levels are read from the directives as written
/// (the dialect runs such a nest with 2.0 levels on the simulator).
pub fn openuh_mappings(p: &Program, info: &ProgramInfo) -> std::collections::BTreeMap<u32, LoopMap> {
    use accsim_core::dialect::openuh::{paper_mapping, Named};
    let mut maps = std::collections::BTreeMap::new();
    for (i, k) in p.kernels.iter().enumerate() {
        let levels: Vec<Named> = info
            .loops(KernelId(i as u32))
            .iter()
            .filter_map(|l| p.directives.iter().find(|site| site.loc == l.loc))
            .map(|site| Named::of_text(&site.text))
            .filter(|n| n.gang || n.worker || n.vector)
            .collect();
        let map = match paper_mapping(&levels) {
            Some((2, 1)) => LoopMap::Map2_1,
            Some((2, 2)) => LoopMap::Map2_2,
            Some((2, 3)) => LoopMap::Map2_3,
            Some((2, 4)) => LoopMap::Map2_4,
            Some((3, 1)) => LoopMap::Map3_1,
            Some((3, 2)) => LoopMap::Map3_2,
            Some((3, 3)) => LoopMap::Map3_3,
            _ => continue,
        };
        maps.insert(k.func.0, map);
    }
    maps
}

/// A loop mapping of `--loop-map`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LoopMap {
    /// gang → `blockIdx.x`, worker → `threadIdx.y`, vector → `threadIdx.x`, each loop on its own.
    #[default]
    Default,
    Map2_1,
    Map2_2,
    Map2_3,
    Map2_4,
    Map3_1,
    Map3_2,
    Map3_3,
}

/// A CUDA dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dim {
    X,
    Y,
    Z,
}

impl Dim {
    fn name(self) -> &'static str {
        match self {
            Dim::X => "x",
            Dim::Y => "y",
            Dim::Z => "z",
        }
    }
}

/// How one loop of a mapped nest is indexed: by a grid dimension, a block dimension, or both
/// (`blockIdx.b * blockDim.t + threadIdx.t`).
#[derive(Clone, Copy, Debug)]
struct Axis {
    block: Option<Dim>,
    thread: Option<Dim>,
}

const fn ax(block: Option<Dim>, thread: Option<Dim>) -> Axis {
    Axis { block, thread }
}

use Dim::{X, Y, Z};

impl LoopMap {
    /// Every mapping, in the order of `--loop-map`'s help.
    pub const ALL: [LoopMap; 8] = [LoopMap::Default, LoopMap::Map2_1, LoopMap::Map2_2, LoopMap::Map2_3, LoopMap::Map2_4, LoopMap::Map3_1, LoopMap::Map3_2, LoopMap::Map3_3];

    /// The name on the command line (`default`, `map2_1`, …).
    pub fn name(self) -> &'static str {
        match self {
            LoopMap::Default => "default",
            LoopMap::Map2_1 => "map2_1",
            LoopMap::Map2_2 => "map2_2",
            LoopMap::Map2_3 => "map2_3",
            LoopMap::Map2_4 => "map2_4",
            LoopMap::Map3_1 => "map3_1",
            LoopMap::Map3_2 => "map3_2",
            LoopMap::Map3_3 => "map3_3",
        }
    }

    /// The mapping named `s` (case-insensitive; `Map2_1` as the paper writes it works too).
    pub fn parse(s: &str) -> Option<LoopMap> {
        let s = s.to_ascii_lowercase();
        LoopMap::ALL.into_iter().find(|m| m.name() == s)
    }

    /// The loops of the nest, outermost first (empty for the default mapping).
    fn axes(self) -> &'static [Axis] {
        const M2_1: [Axis; 2] = [ax(Some(X), None), ax(None, Some(X))];
        const M2_2: [Axis; 2] = [ax(Some(X), Some(Y)), ax(None, Some(X))];
        const M2_3: [Axis; 2] = [ax(Some(Y), None), ax(Some(X), Some(X))];
        const M2_4: [Axis; 2] = [ax(Some(Y), Some(Y)), ax(Some(X), Some(X))];
        const M3_1: [Axis; 3] = [ax(Some(X), None), ax(Some(Y), Some(Y)), ax(None, Some(X))];
        const M3_2: [Axis; 3] = [ax(None, Some(Z)), ax(Some(Y), Some(Y)), ax(Some(X), Some(X))];
        const M3_3: [Axis; 3] = [ax(None, Some(X)), ax(Some(Y), Some(Y)), ax(Some(X), None)];
        match self {
            LoopMap::Default => &[],
            LoopMap::Map2_1 => &M2_1,
            LoopMap::Map2_2 => &M2_2,
            LoopMap::Map2_3 => &M2_3,
            LoopMap::Map2_4 => &M2_4,
            LoopMap::Map3_1 => &M3_1,
            LoopMap::Map3_2 => &M3_2,
            LoopMap::Map3_3 => &M3_3,
        }
    }

    /// How many loops deep the nests are that this mapping applies to (0 for the default).
    pub fn depth(self) -> usize {
        self.axes().len()
    }

    fn uses(self, f: impl Fn(&Axis) -> Option<Dim>, d: Dim) -> bool {
        self.axes().iter().any(|a| f(a) == Some(d))
    }

    /// The launch shape for a region of `gangs` gangs, `workers` workers and `vector` lanes:
    /// (grid, block), each x, y, z.
    pub fn shape(self, gangs: u64, workers: u64, vector: u64) -> ([u64; 3], [u64; 3]) {
        let (g, w, v) = (gangs.max(1), workers.max(1), vector.max(1));
        if self == LoopMap::Default {
            return ([g, 1, 1], [v, w, 1]);
        }
        let grid = if self.uses(|a| a.block, Y) {
            let gx = (g as f64).sqrt().ceil() as u64;
            let gx = gx.max(1);
            [gx, (g / gx).max(1), 1]
        } else {
            [g, 1, 1]
        };
        let block = if self.uses(|a| a.thread, Z) {
            if w % 2 == 0 {
                [v, w / 2, 2]
            } else {
                [v, w, 1]
            }
        } else if self.uses(|a| a.thread, Y) {
            [v, w, 1]
        } else {
            [v.saturating_mul(w), 1, 1]
        };
        (grid, block)
    }

    /// The kernel's prologue values of the gang index and count (a gang is a block).
    pub(crate) fn gang_index(self) -> (&'static str, &'static str) {
        if self.uses(|a| a.block, Y) {
            ("blockIdx.y * gridDim.x + blockIdx.x", "gridDim.x * gridDim.y")
        } else {
            ("blockIdx.x", "gridDim.x")
        }
    }

    /// The launch shape in words, for the emitted kernel's header.
    pub(crate) fn describe_shape(self) -> String {
        let grid = if self.uses(|a| a.block, Y) { "(⌈√num_gangs⌉, ⌊num_gangs / ⌈√num_gangs⌉⌋)" } else { "(num_gangs)" };
        let block = if self.uses(|a| a.thread, Z) {
            "(vector_length, num_workers / 2, 2) (num_workers even; else (vector_length, num_workers, 1))"
        } else if self.uses(|a| a.thread, Y) {
            "(vector_length, num_workers)"
        } else {
            "(vector_length × num_workers)"
        };
        format!("grid = {grid}, block = {block}")
    }
}

impl std::fmt::Display for LoopMap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The diagnostics of emitting `module` under `map`: `Ok` with a warning per compute region the
/// mapping does not fit (those keep the default mapping), or `Err` with an error per region when
/// it fits none (the option cannot have been meant for this program).
pub fn report(map: LoopMap, module: &crate::emit::Module) -> Result<Vec<Diagnostic>, Vec<Diagnostic>> {
    let diag = |(loc, why): &(Loc, String)| Diagnostic::error("loop-map", format!("--loop-map {map} does not fit this compute region: {why}"), *loc);
    let all: Vec<Diagnostic> = module.map_misfits.iter().map(diag).collect();
    if map != LoopMap::Default && module.loop_maps.is_empty() {
        return Err(all);
    }
    Ok(all
        .into_iter()
        .map(|mut d| {
            d.severity = Severity::Warning;
            d.help = Some("this region keeps the default mapping (gang → blockIdx.x, worker → threadIdx.y, vector → threadIdx.x)".into());
            d
        })
        .collect())
}

/// One loop of a mapped nest, found in the scheduled kernel.
#[derive(Clone, Debug)]
pub(crate) struct MappedLoop<'f> {
    /// Outermost = 0.
    pub level: usize,
    pub depth: usize,
    pub temps: LoopTemps,
    /// One iteration: sets the loop variables from `temps.iteration`, then the body.
    pub iteration: &'f Stmt,
    pub line: u32,
    /// The first index and the stride, as CUDA C.
    pub start: String,
    pub stride: String,
}

/// The nest of a kernel (function `func`, its loops' schedules `loops`) under `map`: the
/// statement that runs each loop's share (keyed by address) → how to run it instead; `Err(why)`
/// when the mapping does not fit.
pub(crate) fn mapped_nest<'f>(map: LoopMap, loops: &[LoopInfo], func: &'f Function, shared_locals: bool) -> Result<HashMap<*const Stmt, MappedLoop<'f>>, String> {
    let axes = map.axes();
    let n = axes.len();
    let partitioned: Vec<_> = loops.iter().filter(|l| l.gang || l.worker || l.vector).collect();
    let name = map.name();
    if partitioned.len() != n {
        let lines: Vec<String> = partitioned.iter().map(|l| l.loc.line.to_string()).collect();
        let what = match partitioned.len() {
            0 => "no partitioned loop".to_string(),
            1 => format!("one partitioned loop (line {})", lines[0]),
            c => format!("{c} partitioned loops (lines {})", lines.join(", ")),
        };
        return Err(format!("`{name}` maps a nest of {n} partitioned loops; this region has {what}"));
    }
    for l in &partitioned {
        if l.collapse > 1 {
            return Err(format!("`{name}` maps {n} separate loops; the loop at line {} has `collapse`/`tile`", l.loc.line));
        }
    }
    if shared_locals {
        return Err(format!("`{name}`: a variable of this region is shared by the threads of a gang (written inside a partitioned loop and used outside it)"));
    }
    let mut out = HashMap::new();
    let mut at: &Stmt = &func.body;
    for (level, (info, axis)) in partitioned.iter().zip(axes).enumerate() {
        let Some(temps) = info.temps else {
            return Err(format!("`{name}`: the loop at line {} has no schedule", info.loc.line));
        };
        let share = find_share(at, temps).map_err(|why| format!("`{name}` maps a perfect nest; {why} (around the loop at line {})", info.loc.line))?;
        let iteration = iteration_of(share, temps).ok_or_else(|| {
            format!("`{name}`: the loop at line {} has a `private`, `reduction` or `gang(static:…)` clause (per-thread state or chunks), which a mapped nest cannot keep", info.loc.line)
        })?;
        let (start, stride) = index(*axis);
        out.insert(share as *const Stmt, MappedLoop { level, depth: n, temps, iteration, line: info.loc.line, start, stride });
        at = iteration;
    }
    Ok(out)
}

/// `start` and `stride` of one loop.
fn index(a: Axis) -> (String, String) {
    match (a.block, a.thread) {
        (Some(b), Some(t)) => {
            let (b, t) = (b.name(), t.name());
            (format!("blockIdx.{b} * blockDim.{t} + threadIdx.{t}"), format!("gridDim.{b} * blockDim.{t}"))
        }
        (Some(b), None) => (format!("blockIdx.{}", b.name()), format!("gridDim.{}", b.name())),
        (None, Some(t)) => (format!("threadIdx.{}", t.name()), format!("blockDim.{}", t.name())),
        (None, None) => ("0".into(), "1".into()),
    }
}

/// An assignment to a register local that calls nothing: code every thread may run.
fn is_plain(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Empty => true,
        StmtKind::Expr(Expr { kind: ExprKind::Assign { place: Place::Local(_), value }, .. }) => {
            let mut calls = false;
            crate::emit::walk_expr(value, &mut |e| calls |= matches!(e.kind, ExprKind::Call { .. } | ExprKind::Assign { .. } | ExprKind::CompoundAssign { .. } | ExprKind::IncDec { .. }));
            !calls
        }
        _ => false,
    }
}

/// The share statement of the scheduled loop with `temps` below `s`: the last statement of the
/// loop's setup block, after `__iters = …`, reached through blocks of plain statements only.
fn find_share(s: &Stmt, temps: LoopTemps) -> Result<&Stmt, String> {
    let StmtKind::Block(v) = &s.kind else {
        return Err("a statement other than the nested loop is between the loops".into());
    };
    if let [setup @ .., count, share] = v.as_slice() {
        let counts = matches!(&count.kind, StmtKind::Expr(Expr { kind: ExprKind::Assign { place: Place::Local(l), .. }, .. }) if *l == temps.iterations);
        if counts && setup.iter().all(is_plain) {
            return Ok(share);
        }
    }
    let mut path = v.iter().filter(|x| !is_plain(x));
    match (path.next(), path.next()) {
        (Some(one), None) => find_share(one, temps),
        (None, _) => Err("the nested loop is missing".into()),
        (Some(_), Some(_)) => Err("code other than the nested loop runs between the loops".into()),
    }
}

/// Inside a share: the statement that runs one iteration `k` — the body of
/// `if (k < bound)` (round by round) or of `for (k = t; k < bound; k += T)` (grid stride, only
/// when nothing comes before or after it: no private or reduction copies), where the bound is
/// the iteration count or the end of a gang's block of iterations.
fn iteration_of(share: &Stmt, temps: LoopTemps) -> Option<&Stmt> {
    // `k < iterations`, or `k < end of the gang's block` in a gang-partitioned loop.
    let is_bound = |c: &Expr| matches!(&c.kind, ExprKind::Binary(BinOp::Lt, a, b) if matches!(a.kind, ExprKind::Local(x) if x == temps.iteration) && matches!(b.kind, ExprKind::Local(_)));
    match &share.kind {
        StmtKind::If(c, t, None) if is_bound(c) => Some(t),
        StmtKind::For { cond: Some(c), body, .. } if is_bound(c) => Some(body),
        StmtKind::For { body, .. } => iteration_of(body, temps),
        StmtKind::Partition(p) => iteration_of(&p.body, temps),
        StmtKind::Block(v) => {
            // A grid-stride share is `{ t = …; T = …; for (k = t; …) … }`: three statements.
            let loops: Vec<&Stmt> = v.iter().filter(|x| !is_plain(x)).collect();
            match loops.as_slice() {
                [one] => {
                    let grid_stride = matches!(&one.kind, StmtKind::For { cond: Some(c), .. } if is_bound(c));
                    if grid_stride && v.len() != 3 {
                        return None;
                    }
                    iteration_of(one, temps)
                }
                _ => None,
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for m in LoopMap::ALL {
            assert_eq!(LoopMap::parse(m.name()), Some(m));
        }
        assert_eq!(LoopMap::parse("Map3_2"), Some(LoopMap::Map3_2));
        assert_eq!(LoopMap::parse("map4_1"), None);
    }

    #[test]
    fn shapes_keep_the_thread_count_and_at_most_the_gangs() {
        for m in LoopMap::ALL {
            for (g, w, v) in [(1, 1, 1), (8, 4, 32), (1000, 2, 128), (7, 3, 64)] {
                let (grid, block) = m.shape(g, w, v);
                assert!(grid.iter().product::<u64>() <= g && grid.iter().product::<u64>() >= 1, "{m} {g}");
                assert_eq!(block.iter().product::<u64>(), w * v, "{m} {w}×{v}");
            }
        }
        assert_eq!(LoopMap::Map3_2.shape(100, 4, 64), ([10, 10, 1], [64, 2, 2]));
        assert_eq!(LoopMap::Map2_1.shape(100, 4, 64), ([100, 1, 1], [256, 1, 1]));
        assert_eq!(LoopMap::Map2_2.shape(100, 4, 64), ([100, 1, 1], [64, 4, 1]));
    }

    #[test]
    fn indices_follow_the_paper() {
        let idx: Vec<(String, String)> = LoopMap::Map3_1.axes().iter().map(|a| index(*a)).collect();
        assert_eq!(idx[0], ("blockIdx.x".to_string(), "gridDim.x".to_string()));
        assert_eq!(idx[1], ("blockIdx.y * blockDim.y + threadIdx.y".to_string(), "gridDim.y * blockDim.y".to_string()));
        assert_eq!(idx[2], ("threadIdx.x".to_string(), "blockDim.x".to_string()));
        let idx: Vec<(String, String)> = LoopMap::Map2_2.axes().iter().map(|a| index(*a)).collect();
        assert_eq!(idx[0], ("blockIdx.x * blockDim.y + threadIdx.y".to_string(), "gridDim.x * blockDim.y".to_string()));
    }
}
