//! The PGI Accelerator 1.3 loop rules that need the C statement a directive is on (the dialect
//! layer, [`crate::dialect::pgi13`], translates one directive at a time):
//!
//! - **`host` loops** (1.3 §2.4.1.1: "The `host` clause tells the compiler to execute this loop
//!   sequentially on the host processor"). A `host` loop of a compute region, at any depth,
//!   splits the region there: the region becomes a `data` construct with its data
//!   clauses, holding a `kernels` construct for each device part, and between them the loop
//!   (and the blocks, loops and `if`s of the region around it, which run on the host too),
//!   run on the host, with `update host` of the device copies it uses before it and `update
//!   device` of those it writes after it (the data movement 1.3 §2.3.1 leaves to the compiler:
//!   "This may require data to move back and forth between the host and device"). The lowering
//!   ([`crate::lower`]) builds the constructs from the sites made here; `accsim info` shows them.
//! - **`kernel` loops** (§2.4.3: "Loop mapping directives must not appear on any loop contained
//!   within the `kernel` loop"): a loop directive inside one is an error.

use std::collections::HashMap;

use lang_c::ast;
use lang_c::span::Span;
use lang_c::visit::{self, Visit};

use super::pragma::{directive_name, label_marker_id, ExtractedDirective, MarkerKind, RegionSplit};
use super::region_data::HostLoopData;
use crate::dialect::pgi13;

/// Split each region of `host_loops` (by region marker id: its block's host loops and their
/// data, [`super::region_data`]) into the sites of its parts ([`RegionSplit`]).
pub fn split_regions(sites: &mut Vec<ExtractedDirective>, host_loops: &HashMap<u32, Vec<HostLoopData>>) {
    let mut regions: Vec<u32> = host_loops.keys().copied().collect();
    regions.sort_unstable();
    for region in regions {
        let loops = &host_loops[&region];
        let Some(site) = sites.get(region as usize) else { continue };
        let is_region = site.text == "kernels" || (site.text.starts_with("kernels ") && !site.text.starts_with("kernels loop"));
        if !is_region || loops.is_empty() {
            continue;
        }
        let split = pgi13::host_split_directives(&site.text);
        let kernels: Vec<u32> = (0..=loops.len()).map(|_| derived_site(sites, region, split.kernels.clone())).collect();
        let mut lines = Vec::new();
        for l in loops {
            let (before, after) = pgi13::host_loop_updates(&split, &l.to_host, &l.to_device);
            let before: Vec<u32> = before.into_iter().map(|t| derived_site(sites, l.marker, t)).collect();
            let after: Vec<u32> = after.into_iter().map(|t| derived_site(sites, l.marker, t)).collect();
            if let Some(h) = sites.get_mut(l.marker as usize) {
                h.before = before;
                h.after = after;
                h.on_host = true;
                lines.push(h.loc.line.to_string());
            }
        }
        let site = &mut sites[region as usize];
        site.dialect_notes.push(format!(
            "the `host` loop{} at line{} {} run{} on the host (§2.4.1.1): the region is split there, `{}` around a `#pragma acc {}` for each device part, the loop between them with the updates `accsim info` shows on it",
            if lines.len() == 1 { "" } else { "s" },
            if lines.len() == 1 { "" } else { "s" },
            lines.join(", "),
            if lines.len() == 1 { "s" } else { "" },
            split.data,
            split.kernels,
        ));
        site.text = split.data;
        site.name = "data".into();
        site.split = Some(RegionSplit { kernels, host_loops: loops.iter().map(|l| l.marker).collect() });
    }
}

/// A new site for a 2.0 directive the split adds, at the place of site `from` (no marker of its
/// own: the lowering places it).
fn derived_site(sites: &mut Vec<ExtractedDirective>, from: u32, text: String) -> u32 {
    let id = sites.len() as u32;
    let mut s = sites[from as usize].clone();
    s.id = id;
    s.name = directive_name(&text);
    s.text = text;
    s.marker = MarkerKind::StaticAssert;
    s.dialect_text = None;
    s.before.clear();
    s.after.clear();
    s.dialect_error = None;
    s.dialect_notes.clear();
    s.implicit_data = None;
    s.host_loop = false;
    s.kernel_loop = false;
    s.split = None;
    s.on_host = false;
    sites.push(s);
    id
}

/// §2.4.3: a loop directive inside a `kernel` loop is an error (reported at that directive).
pub fn check_kernel_loops(unit: &ast::TranslationUnit, sites: &mut [ExtractedDirective]) {
    if !sites.iter().any(|s| s.kernel_loop) {
        return;
    }
    let mut nest = KernelNest { sites: &*sites, inside: Vec::new(), found: Vec::new() };
    nest.visit_translation_unit(unit);
    let found = nest.found;
    for (inner, outer) in found {
        let outer_line = sites[outer as usize].loc.line;
        let site = &mut sites[inner as usize];
        let len = site.dialect_text.as_ref().unwrap_or(&site.text).len();
        site.dialect_error = Some(pgi13::Pgi13Error {
            message: format!(
                "a loop mapping directive inside the `kernel` loop at line {outer_line}: the loops a `kernel` loop contains run sequentially on the accelerator, and must not carry loop mapping directives (1.3 §2.4.3)"
            ),
            span: 0..len.max(1),
            help: Some("remove this directive, or the `kernel` clause (then each loop may have its own schedule)".into()),
        });
    }
}

/// The loop directives inside `kernel` loops: (inner marker, kernel loop marker).
struct KernelNest<'s> {
    sites: &'s [ExtractedDirective],
    inside: Vec<u32>,
    found: Vec<(u32, u32)>,
}

impl<'ast> Visit<'ast> for KernelNest<'_> {
    fn visit_labeled_statement(&mut self, l: &'ast ast::LabeledStatement, span: &'ast Span) {
        let marker = match &l.label.node {
            ast::Label::Identifier(i) => label_marker_id(&i.node.name).filter(|m| (*m as usize) < self.sites.len()),
            _ => None,
        };
        if let Some(m) = marker {
            let site = &self.sites[m as usize];
            let is_loop = site.marker == MarkerKind::Label && (site.text == "loop" || site.text.starts_with("loop "));
            if let Some(&outer) = self.inside.last() {
                if is_loop {
                    self.found.push((m, outer));
                }
            }
            if site.kernel_loop {
                self.inside.push(m);
                visit::visit_labeled_statement(self, l, span);
                self.inside.pop();
                return;
            }
        }
        visit::visit_labeled_statement(self, l, span)
    }
}
