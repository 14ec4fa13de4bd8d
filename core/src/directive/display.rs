//! Directive names and the normalized printing of a parsed directive (for `accsim info`).
//!
//! Normal form: the spec's long clause names (`present_or_copy` for `pcopy`, `device_type` for
//! `dtype`) except `host`/`self`/`local`, which keep the spelling written; one space between
//! clauses; expressions as written; a `device_type(...)` clause printed wherever the group
//! changes. Printing and parsing again gives the same directive (up to spans).

use std::fmt::{self, Display, Formatter};

use super::ast::*;
use super::check::clause_name;

impl DirectiveKind {
    /// The spec's spelling of the directive name: "parallel loop", "enter data", "atomic" …
    pub fn name(&self) -> &'static str {
        match self {
            DirectiveKind::Parallel => "parallel",
            DirectiveKind::Kernels => "kernels",
            DirectiveKind::Data => "data",
            DirectiveKind::EnterData => "enter data",
            DirectiveKind::ExitData => "exit data",
            DirectiveKind::HostData => "host_data",
            DirectiveKind::Loop => "loop",
            DirectiveKind::ParallelLoop => "parallel loop",
            DirectiveKind::KernelsLoop => "kernels loop",
            DirectiveKind::Cache(_) => "cache",
            DirectiveKind::Atomic(_) => "atomic",
            DirectiveKind::Update => "update",
            DirectiveKind::Wait(_) => "wait",
            DirectiveKind::Declare => "declare",
            DirectiveKind::Routine(_) => "routine",
        }
    }

    /// Whether the directive applies to the statement (structured block or loop) that follows:
    /// the constructs, as opposed to the executable and declarative directives.
    pub fn takes_statement(&self) -> bool {
        matches!(
            self,
            DirectiveKind::Parallel
                | DirectiveKind::Kernels
                | DirectiveKind::Data
                | DirectiveKind::HostData
                | DirectiveKind::Loop
                | DirectiveKind::ParallelLoop
                | DirectiveKind::KernelsLoop
                | DirectiveKind::Atomic(_)
        )
    }
}

impl Directive {
    /// See [`DirectiveKind::name`].
    pub fn name(&self) -> &'static str {
        self.kind.name()
    }

    /// See [`DirectiveKind::takes_statement`].
    pub fn takes_statement(&self) -> bool {
        self.kind.takes_statement()
    }
}

impl Clause {
    /// The clause independent of spelling and arguments, as used by [`super::rules`].
    pub fn name(&self) -> super::rules::ClauseName {
        clause_name(&self.kind)
    }
}

impl Display for ExprSrc {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(self.text.trim())
    }
}

impl Display for Section {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Section::Index(e) => write!(f, "[{e}]"),
            Section::Range { lower, length, .. } => {
                f.write_str("[")?;
                if let Some(l) = lower {
                    write!(f, "{l}")?;
                }
                f.write_str(":")?;
                if let Some(n) = length {
                    write!(f, "{n}")?;
                }
                f.write_str("]")
            }
        }
    }
}

impl Display for VarRef {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.base)?;
        self.sections.iter().try_for_each(|s| write!(f, "{s}"))
    }
}

impl Display for DeviceTypeName {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            DeviceTypeName::Any => f.write_str("*"),
            DeviceTypeName::Named(n) => f.write_str(n),
        }
    }
}

fn comma_list<T: Display>(f: &mut Formatter<'_>, items: &[T]) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{item}")?;
    }
    Ok(())
}

impl Display for ClauseKind {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let name = clause_name(self).canonical();
        let paren_list = |f: &mut Formatter<'_>, name: &str, vars: &[VarRef]| {
            write!(f, "{name}(")?;
            comma_list(f, vars)?;
            f.write_str(")")
        };
        match self {
            ClauseKind::If(e)
            | ClauseKind::NumGangs(e)
            | ClauseKind::NumWorkers(e)
            | ClauseKind::VectorLength(e)
            | ClauseKind::Collapse(e) => write!(f, "{name}({e})"),
            ClauseKind::Async(e) | ClauseKind::Worker(e) | ClauseKind::Vector(e) => match e {
                Some(e) => write!(f, "{name}({e})"),
                None => f.write_str(name),
            },
            ClauseKind::Wait(list) => match list {
                Some(list) => {
                    write!(f, "{name}(")?;
                    comma_list(f, list)?;
                    f.write_str(")")
                }
                None => f.write_str(name),
            },
            ClauseKind::Reduction { op, vars, .. } => {
                write!(f, "reduction({}:", op.as_str())?;
                comma_list(f, vars)?;
                f.write_str(")")
            }
            ClauseKind::Data(_, vars)
            | ClauseKind::Private(vars)
            | ClauseKind::FirstPrivate(vars)
            | ClauseKind::UseDevice(vars)
            | ClauseKind::Device(vars) => paren_list(f, name, vars),
            ClauseKind::Host(spelling, vars) => {
                let name = match spelling {
                    HostSpelling::Host => "host",
                    HostSpelling::SelfClause => "self",
                    HostSpelling::Local => "local",
                };
                paren_list(f, name, vars)
            }
            ClauseKind::DefaultNone => f.write_str("default(none)"),
            ClauseKind::Gang(args) => {
                f.write_str("gang")?;
                match (&args.num, &args.static_) {
                    (None, None) => Ok(()),
                    (Some(n), None) => write!(f, "({n})"),
                    (num, Some(s)) => {
                        f.write_str("(")?;
                        if let Some(n) = num {
                            write!(f, "num:{n}, ")?;
                        }
                        match s {
                            GangStatic::Any(_) => f.write_str("static:*)"),
                            GangStatic::Chunk(e) => write!(f, "static:{e})"),
                        }
                    }
                }
            }
            ClauseKind::Seq | ClauseKind::Auto | ClauseKind::Independent | ClauseKind::NoHost => {
                f.write_str(name)
            }
            ClauseKind::Tile(sizes) => {
                f.write_str("tile(")?;
                for (i, s) in sizes.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    match s {
                        TileSize::Any(_) => f.write_str("*")?,
                        TileSize::Size(e) => write!(f, "{e}")?,
                    }
                }
                f.write_str(")")
            }
            ClauseKind::Bind(BindName::Identifier { name, .. }) => write!(f, "bind({name})"),
            ClauseKind::Bind(BindName::String { value, .. }) => write!(f, "bind(\"{value}\")"),
        }
    }
}

impl Display for Clause {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind)
    }
}

impl Display for Directive {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind.name())?;
        match &self.kind {
            DirectiveKind::Atomic(kind) => write!(f, " {}", kind.as_str())?,
            DirectiveKind::Cache(vars) => {
                f.write_str("(")?;
                comma_list(f, vars)?;
                f.write_str(")")?;
            }
            DirectiveKind::Wait(Some(list)) => {
                f.write_str("(")?;
                comma_list(f, list)?;
                f.write_str(")")?;
            }
            DirectiveKind::Routine(Some(name)) => write!(f, "({})", name.name)?,
            _ => {}
        }
        let mut group: Option<&Vec<DeviceTypeName>> = None;
        for c in &self.clauses {
            if let Some(names) = &c.device_types {
                if group != Some(names) {
                    f.write_str(" device_type(")?;
                    comma_list(f, names)?;
                    f.write_str(")")?;
                    group = Some(names);
                }
            }
            write!(f, " {c}")?;
        }
        Ok(())
    }
}
