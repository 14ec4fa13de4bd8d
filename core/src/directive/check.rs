//! Restrictions of chapter 2 that involve several clauses of one directive, checked after
//! parsing: "at most one" clauses, required clauses, exclusive loop/routine levels, and one data
//! attribute per variable.
//!
//! Restrictions that need the program (nesting, variable types, constant values) belong to the
//! validation of the lowered program, not here.

use super::ast::{Clause, ClauseKind, Directive, DirectiveError, DirectiveKind};
use super::rules::{ClauseName, AT_MOST_ONCE};

/// `groups[i]` is the `device_type` group of `d.clauses[i]` (0 before any `device_type`).
pub(crate) fn check_directive(d: &Directive, groups: &[usize]) -> Result<(), DirectiveError> {
    let clauses: Vec<(&Clause, usize)> = d.clauses.iter().zip(groups.iter().copied()).collect();
    at_most_once(d, &clauses)?;
    required_clauses(d)?;
    match d.kind {
        DirectiveKind::Loop | DirectiveKind::ParallelLoop | DirectiveKind::KernelsLoop => {
            seq_is_exclusive(d, &clauses)?;
        }
        DirectiveKind::Routine(_) => routine_level(&clauses)?,
        _ => {}
    }
    one_attribute_per_variable(d, &clauses)?;
    if d.kind == DirectiveKind::Declare {
        declare_whole_variables(d)?;
    }
    if d.kind == DirectiveKind::ParallelLoop {
        parallel_loop_arguments(d)?;
    }
    Ok(())
}

pub(crate) fn clause_name(kind: &ClauseKind) -> ClauseName {
    use ClauseName as C;
    match kind {
        ClauseKind::If(_) => C::If,
        ClauseKind::Async(_) => C::Async,
        ClauseKind::Wait(_) => C::Wait,
        ClauseKind::NumGangs(_) => C::NumGangs,
        ClauseKind::NumWorkers(_) => C::NumWorkers,
        ClauseKind::VectorLength(_) => C::VectorLength,
        ClauseKind::Reduction { .. } => C::Reduction,
        ClauseKind::Data(d, _) => C::Data(*d),
        ClauseKind::Private(_) => C::Private,
        ClauseKind::FirstPrivate(_) => C::FirstPrivate,
        ClauseKind::DefaultNone => C::Default,
        ClauseKind::Collapse(_) => C::Collapse,
        ClauseKind::Gang(_) => C::Gang,
        ClauseKind::Worker(_) => C::Worker,
        ClauseKind::Vector(_) => C::Vector,
        ClauseKind::Seq => C::Seq,
        ClauseKind::Auto => C::Auto,
        ClauseKind::Independent => C::Independent,
        ClauseKind::Tile(_) => C::Tile,
        ClauseKind::UseDevice(_) => C::UseDevice,
        ClauseKind::Host(..) => C::Host,
        ClauseKind::Device(_) => C::Device,
        ClauseKind::Bind(_) => C::Bind,
        ClauseKind::NoHost => C::NoHost,
    }
}

/// §2.5.1, §2.5.2, §2.6.3.1, §2.11.1: "At most one if clause may appear (per device type)";
/// likewise for the single-valued clauses in [`AT_MOST_ONCE`].
fn at_most_once(d: &Directive, clauses: &[(&Clause, usize)]) -> Result<(), DirectiveError> {
    for (i, (c, group)) in clauses.iter().enumerate() {
        let name = clause_name(&c.kind);
        if !AT_MOST_ONCE.contains(&name) {
            continue;
        }
        let earlier = clauses[..i]
            .iter()
            .any(|(e, g)| g == group && clause_name(&e.kind) == name);
        if earlier {
            let scope = if c.device_types.is_some() {
                " per `device_type`"
            } else {
                ""
            };
            return Err(DirectiveError::new(
                format!(
                    "at most one `{}` clause may appear on `{}`{scope}",
                    name.canonical(),
                    d.kind.name()
                ),
                c.span.clone(),
            )
            .with_help(format!("remove this `{}` or the earlier one", c.spelling)));
        }
    }
    Ok(())
}

/// Directives whose syntax has a non-optional clause-list or that need a particular clause.
fn required_clauses(d: &Directive) -> Result<(), DirectiveError> {
    let has = |f: &dyn Fn(&ClauseKind) -> bool| d.clauses.iter().any(|c| f(&c.kind));
    let (ok, message, help) = match d.kind {
        // §2.11.1: "At least one local, host or device clause must appear."
        DirectiveKind::Update => (
            has(&|k| matches!(k, ClauseKind::Host(..) | ClauseKind::Device(_))),
            "`update` requires at least one `host`, `self` or `device` clause",
            "add `host(var-list)` to copy to the host or `device(var-list)` to copy to the device (§2.11.1)",
        ),
        // §2.6.4: `enter data clause-list`; without a data clause it does nothing.
        DirectiveKind::EnterData => (
            has(&|k| matches!(k, ClauseKind::Data(..))),
            "`enter data` requires at least one data clause",
            "add `copyin(var-list)`, `create(var-list)`, `present_or_copyin(...)` or `present_or_create(...)` (§2.6.4)",
        ),
        DirectiveKind::ExitData => (
            has(&|k| matches!(k, ClauseKind::Data(..))),
            "`exit data` requires at least one data clause",
            "add `copyout(var-list)` or `delete(var-list)` (§2.6.4)",
        ),
        // §2.6.6: `host_data clause-list`, whose only clause is `use_device`.
        DirectiveKind::HostData => (
            has(&|k| matches!(k, ClauseKind::UseDevice(_))),
            "`host_data` requires a `use_device` clause",
            "write `host_data use_device(var-list)` (§2.6.6)",
        ),
        // §2.10: `declare clause-list`.
        DirectiveKind::Declare => (
            !d.clauses.is_empty(),
            "`declare` requires at least one data clause",
            "for example `declare create(var-list)` (§2.10)",
        ),
        _ => (true, "", ""),
    };
    if ok {
        return Ok(());
    }
    Err(DirectiveError::new(message, d.span.clone()).with_help(help))
}

/// A `seq` loop is not partitioned: it cannot also be `gang`, `worker`, `vector` or `auto`
/// (§2.7.5, §2.7.6; stated as a restriction from OpenACC 2.5 on). Checked within each
/// `device_type` group, since a device-specific clause replaces the general one.
fn seq_is_exclusive(d: &Directive, clauses: &[(&Clause, usize)]) -> Result<(), DirectiveError> {
    let conflicts = |k: &ClauseKind| {
        matches!(
            k,
            ClauseKind::Gang(_) | ClauseKind::Worker(_) | ClauseKind::Vector(_) | ClauseKind::Auto
        )
    };
    for (i, (c, group)) in clauses.iter().enumerate() {
        let earlier = clauses[..i]
            .iter()
            .filter(|(_, g)| g == group)
            .map(|(e, _)| *e);
        let clash = if matches!(c.kind, ClauseKind::Seq) {
            earlier.into_iter().find(|e| conflicts(&e.kind))
        } else if conflicts(&c.kind) {
            earlier
                .into_iter()
                .find(|e| matches!(e.kind, ClauseKind::Seq))
        } else {
            None
        };
        if let Some(other) = clash {
            return Err(DirectiveError::new(
                format!(
                    "`{}` cannot be combined with `{}` on `{}`",
                    c.spelling,
                    other.spelling,
                    d.kind.name()
                ),
                c.span.clone(),
            )
            .with_help("`seq` runs the loop sequentially; remove `seq` or the gang/worker/vector/auto clauses (§2.7.5)"));
        }
    }
    Ok(())
}

/// §2.12.1.1–4: "Only one of gang, worker, vector and seq may be specified", per `device_type`
/// group; on `routine` these clauses take no argument.
fn routine_level(clauses: &[(&Clause, usize)]) -> Result<(), DirectiveError> {
    let is_level = |k: &ClauseKind| {
        matches!(
            k,
            ClauseKind::Gang(_) | ClauseKind::Worker(_) | ClauseKind::Vector(_) | ClauseKind::Seq
        )
    };
    for (i, (c, group)) in clauses.iter().enumerate() {
        let has_argument = match &c.kind {
            ClauseKind::Gang(args) => !args.is_empty(),
            ClauseKind::Worker(a) | ClauseKind::Vector(a) => a.is_some(),
            _ => false,
        };
        if has_argument {
            return Err(DirectiveError::new(
                format!("`{}` on `routine` takes no argument", c.spelling),
                c.span.clone(),
            )
            .with_help(format!("write `routine {}` (§2.12.1)", c.spelling)));
        }
        if !is_level(&c.kind) {
            continue;
        }
        let earlier = clauses[..i]
            .iter()
            .find(|(e, g)| g == group && is_level(&e.kind));
        if let Some((other, _)) = earlier {
            return Err(DirectiveError::new(
                format!(
                    "only one of `gang`, `worker`, `vector` and `seq` may appear on `routine`; found `{}` and `{}`",
                    other.spelling, c.spelling
                ),
                c.span.clone(),
            )
            .with_help("keep the outermost level of parallelism the routine contains (§2.12.1.1)"));
        }
    }
    Ok(())
}

/// §2.7.2–2.7.3: in a parallel region "only the static argument is allowed" on `gang` and "no
/// argument is allowed" on `worker`; the `vector` length comes from the parallel construct
/// (§2.7.4). A `parallel loop` is a loop in a parallel region (§2.9).
fn parallel_loop_arguments(d: &Directive) -> Result<(), DirectiveError> {
    for c in &d.clauses {
        let (bad, help) = match &c.kind {
            ClauseKind::Gang(args) => (
                args.num.is_some(),
                "set the number of gangs with `num_gangs(n)`",
            ),
            ClauseKind::Worker(arg) => (
                arg.is_some(),
                "set the number of workers with `num_workers(n)`",
            ),
            ClauseKind::Vector(arg) => (
                arg.is_some(),
                "set the vector length with `vector_length(n)`",
            ),
            _ => (false, ""),
        };
        if bad {
            let what = if matches!(c.kind, ClauseKind::Gang(_)) {
                "gang count"
            } else {
                "argument"
            };
            return Err(DirectiveError::new(
                format!("`{}` takes no {what} in a parallel region", c.spelling),
                c.span.clone(),
            )
            .with_help(format!("{help} (§2.7.2–2.7.4)")));
        }
    }
    Ok(())
}

/// §2.10: "Subarrays are not allowed in declare directives" (and §2.10.1 for
/// `device_resident`): each item is a whole variable or array. Compilers (gcc, nvc) and the V&V
/// suite's 2.0 tests accept a subarray that names a whole array from its start (`a[0:n]`,
/// `a[:n]`), so that spelling is accepted; other subarrays and elements are errors.
fn declare_whole_variables(d: &Directive) -> Result<(), DirectiveError> {
    let from_start = |v: &crate::directive::VarRef| {
        v.sections.len() == 1
            && matches!(&v.sections[0], crate::directive::Section::Range { lower, length: Some(_), .. }
                if lower.as_ref().is_none_or(|l| l.text.trim() == "0"))
    };
    for c in &d.clauses {
        let ClauseKind::Data(_, vars) = &c.kind else {
            continue;
        };
        if let Some(v) = vars.iter().find(|v| !v.sections.is_empty() && !from_start(v)) {
            return Err(DirectiveError::new(
                format!("subarrays and array elements are not allowed in `declare`: `{v}`"),
                v.span.clone(),
            )
            .with_help(format!("name the whole variable `{}` (§2.10)", v.base)));
        }
    }
    Ok(())
}

/// A variable's role in one clause, for [`one_attribute_per_variable`].
#[derive(Copy, Clone, PartialEq, Eq)]
enum Role {
    /// A data clause (§2.6.5) or `deviceptr`.
    Data,
    Private,
    FirstPrivate,
    Reduction,
}

/// §2.6: on one construct a variable has one data attribute, so it may appear in only one
/// clause that gives it one: not in two data clauses (`copyin(a) copyout(a)`: use `copy(a)`), not
/// in a data clause and in `private`/`firstprivate`, not in `reduction` and in
/// `private`/`firstprivate` (§2.5.11, §2.7.11: the reduction gives each thread its private
/// copy), not twice in one of these. A data clause together with `reduction` is allowed (the
/// reduction result goes to the variable that the data clause maps), and so are `private` and
/// `firstprivate` of one variable on a combined `parallel loop`/`kernels loop`, where
/// `firstprivate` belongs to the compute construct and `private` to the loop (§2.10).
/// Variables are compared by the expression they start with (`a`, `s.x`, `p->y`): two subarrays
/// of one array in two data clauses are one variable in two clauses, as gcc also rejects.
/// Clauses of different `device_type` groups are never compared (only one group applies).
fn one_attribute_per_variable(d: &Directive, clauses: &[(&Clause, usize)]) -> Result<(), DirectiveError> {
    use super::ast::VarRef;
    let combined = matches!(d.kind, DirectiveKind::ParallelLoop | DirectiveKind::KernelsLoop);
    let mut seen: Vec<(String, Role, &'static str, &VarRef, usize)> = Vec::new();
    for (c, group) in clauses {
        let (role, vars): (Role, &[VarRef]) = match &c.kind {
            ClauseKind::Data(_, vars) => (Role::Data, vars),
            ClauseKind::Private(vars) => (Role::Private, vars),
            ClauseKind::FirstPrivate(vars) => (Role::FirstPrivate, vars),
            ClauseKind::Reduction { vars, .. } => (Role::Reduction, vars),
            _ => continue,
        };
        for v in vars {
            let name: String = v.base.text.chars().filter(|ch| !ch.is_whitespace()).collect();
            for (other, other_role, other_spelling, other_var, other_group) in &seen {
                if *other != name || other_group != group {
                    continue;
                }
                let allowed = match (role, *other_role) {
                    (Role::Data, Role::Reduction) | (Role::Reduction, Role::Data) => true,
                    (Role::Private, Role::FirstPrivate) | (Role::FirstPrivate, Role::Private) => combined,
                    _ => false,
                };
                if allowed {
                    continue;
                }
                let help = match (role, *other_role) {
                    (Role::Data, Role::Data) => "give the variable one data clause for the whole construct: `copy` moves it both ways".to_string(),
                    (Role::Reduction, _) | (_, Role::Reduction) => "a reduction variable is already private to each thread; remove it from the other clause".to_string(),
                    _ => "keep the variable in one of the two clauses".to_string(),
                };
                return Err(DirectiveError::new(
                    format!("`{name}` appears in `{}` and in `{other_spelling}` on `{}`: a variable may have only one data attribute on a construct (§2.6)", c.spelling, d.kind.name()),
                    v.span.clone(),
                )
                .with_related(other_var.span.clone(), format!("`{name}` is in `{other_spelling}` here"))
                .with_help(help));
            }
            seen.push((name, role, c.spelling, v, *group));
        }
    }
    Ok(())
}
