//! Executable statements: assignment (scalar, character, whole-array and section, with the
//! right-hand side evaluated before any element is stored, Fortran 2003 §7.4.1.3), `do` loops with
//! the iteration count fixed at entry (§8.1.6.4.1), `if`, `select case`, `exit`/`cycle` of named
//! loops, `stop`, calls, `allocate`/`deallocate`, `where`.

use super::expr::{count, unparen};
use super::types::*;
use super::*;

impl Translator {
    pub fn block(&mut self, stmts: &[Stmt], out: &mut String) -> TResult<()> {
        for s in stmts {
            self.stmt(s, out)?;
        }
        Ok(())
    }

    fn stmt(&mut self, s: &Stmt, out: &mut String) -> TResult<()> {
        let m = self.marker(s.line);
        let line = s.line;
        match &s.kind {
            StmtKind::Assign(lhs, rhs) => self.assign(lhs, rhs, line, out)?,
            StmtKind::Print { unit, fmt, items, advance } => self.print(unit.as_ref(), fmt.as_ref(), items, *advance, line, out)?,
            StmtKind::Read { items, iostat } => self.read(items, iostat.as_ref(), line, out)?,
            StmtKind::Call(name, args) => {
                match name.as_str() {
                    "random_number" | "random_seed" | "cpu_time" | "system_clock" => return self.intrinsic_sub(name, args, line, out),
                    _ => {}
                }
                if let Some(ce) = self.acc_api(name, args, line)? {
                    let _ = writeln!(out, "{m}{};", ce.c);
                    return Ok(());
                }
                if (name == "exit" || name == "abort") && !self.procs.contains_key(name) {
                    // GNU extensions: `call exit(status)` ends the program with the status.
                    let code = match args.first() {
                        Some(Arg::Value(e)) if name == "exit" => super::expr::unparen(&self.expr(e, None, line)?.c),
                        _ if name == "abort" => "134".into(),
                        _ => "0".into(),
                    };
                    let _ = writeln!(out, "{m}fflush(stdout); exit((int)({code}));");
                    return Ok(());
                }
                let Some(p) = self.procs.get(name).cloned() else {
                    return unsupported(line, format!("subroutine `{name}` is not defined in this file"));
                };
                if p.function {
                    return error(line, format!("`{name}` is a function, not a subroutine"));
                }
                let a = self.actual_args(&p, name, args, line)?;
                let pre = std::mem::take(&mut self.f.call_pre);
                let post = std::mem::take(&mut self.f.call_post);
                if pre.is_empty() {
                    let _ = writeln!(out, "{m}{}({});", p.cname, a.join(", "));
                } else {
                    let _ = writeln!(out, "{m}{{ {} {}({}); {} }}", pre.join(" "), p.cname, a.join(", "), post.join(" "));
                }
            }
            StmtKind::If { arms, otherwise } => {
                if self.constant_if(arms, otherwise.as_deref(), line, out)? {
                    return Ok(());
                }
                for (i, (cond, body)) in arms.iter().enumerate() {
                    let c = self.expr(cond, None, line)?;
                    if c.ty != Ty::Logical {
                        return error(line, "the condition of `if` must be logical");
                    }
                    let kw = if i == 0 { "if" } else { "} else if" };
                    let _ = writeln!(out, "{m}{kw} ({}) {{", unparen(&c.c));
                    self.block(body, out)?;
                }
                if let Some(b) = otherwise {
                    let _ = writeln!(out, "{m}}} else {{");
                    self.block(b, out)?;
                }
                let _ = writeln!(out, "{m}}}");
            }
            StmtKind::Do { .. } | StmtKind::DoWhile { .. } | StmtKind::DoForever { .. } => {
                if self.wants_flag(s) {
                    self.loop_with_flag(s, out)?;
                } else {
                    self.stmt_loop(s, out)?;
                }
                if let StmtKind::Do { body, .. } | StmtKind::DoWhile { body, .. } | StmtKind::DoForever { body, .. } = &s.kind {
                    self.after_inner_loop(body, line, out);
                }
            }
            StmtKind::Exit(name) | StmtKind::Cycle(name) => {
                let exit = matches!(s.kind, StmtKind::Exit(_));
                let target = match name {
                    None => self.f.loops.last(),
                    Some(n) => self.f.loops.iter().rev().find(|(l, _, _)| l.as_deref() == Some(n.as_str())),
                };
                let Some((_, brk, cont)) = target.cloned() else {
                    return error(line, format!("`{}` outside a `do` loop{}", if exit { "exit" } else { "cycle" }, name.as_ref().map(|n| format!(" named `{n}`")).unwrap_or_default()));
                };
                let innermost = self.f.loops.last().map(|l| &l.1) == Some(&brk);
                // The innermost loop's own `break`/`continue`: every `do` form is one C loop whose
                // `continue` runs its increment (and trip count) as Fortran's `cycle` does (Fortran
                // 2003 §8.1.6.4.3); `select case` and `where` are written as `if`s, not `switch`
                // or loops around the statement. This keeps a compute construct's loop canonical
                // and a host procedure free of labels, which the native engine does not run.
                let flag = name.as_ref().and_then(|n| self.f.loop_flags.iter().rev().find(|(l, _)| l == n)).map(|(_, f)| f.clone());
                if innermost {
                    let _ = writeln!(out, "{m}{};", if exit { "break" } else { "continue" });
                } else if let Some(flag) = flag {
                    // An outer loop's `exit`/`cycle` without a label: the flag says which, and
                    // each loop in between breaks out when it sees it set (`after_inner_loop`).
                    let _ = writeln!(out, "{m}{flag} = {}; break;", if exit { 1 } else { 2 });
                } else {
                    let target = if exit { brk } else { cont };
                    let _ = writeln!(out, "{m}goto {target};");
                    self.f.jump_targets.insert(target);
                }
            }
            StmtKind::Select { selector, cases, default } => {
                let c = self.expr(selector, None, line)?;
                if !matches!(c.ty, Ty::Int(_) | Ty::Char | Ty::Logical) {
                    return error(line, "the selector of `select case` must be integer, character or logical");
                }
                let t = self.tmp("sel");
                let decl = if c.ty == Ty::Char { format!("const char *{t} = {}; long {t}_len = {};", c.c, c.len.clone().unwrap_or_default()) } else { format!("{} {t} = {};", c.ty.c(), unparen(&c.c)) };
                let _ = writeln!(out, "{m}{{ {decl}");
                let mut first = true;
                for (items, body) in cases {
                    let mut conds = Vec::new();
                    for it in items {
                        let cmp = |tr: &mut Self, e: &Expr, op: &str| -> TResult<String> {
                            let v = tr.expr(e, None, line)?;
                            Ok(if c.ty == Ty::Char { format!("_f_char_cmp({t}, {t}_len, {}, {}) {op} 0", v.c, v.len.unwrap_or_default()) } else { format!("{t} {op} {}", v.c) })
                        };
                        conds.push(match it {
                            CaseItem::Value(v) => cmp(self, v, "==")?,
                            CaseItem::Range(lo, hi) => {
                                let mut parts = Vec::new();
                                if let Some(l) = lo {
                                    parts.push(cmp(self, l, ">=")?);
                                }
                                if let Some(h) = hi {
                                    parts.push(cmp(self, h, "<=")?);
                                }
                                format!("({})", parts.join(" && "))
                            }
                        });
                    }
                    let _ = writeln!(out, "{m}{}if ({}) {{", if first { "" } else { "} else " }, conds.join(" || "));
                    first = false;
                    self.block(body, out)?;
                }
                if let Some(b) = default {
                    if first {
                        let _ = writeln!(out, "{m}{{");
                    } else {
                        let _ = writeln!(out, "{m}}} else {{");
                    }
                    self.block(b, out)?;
                    first = false;
                }
                if !first {
                    let _ = writeln!(out, "{m}}}");
                }
                let _ = writeln!(out, "{m}}}");
            }
            StmtKind::Stop { error: is_error, code } => {
                let call = match code {
                    None => format!("_f_stop({}, 0, 0, 0, 0)", *is_error as i32),
                    Some(e) => {
                        let c = self.expr(e, None, line)?;
                        match c.ty {
                            Ty::Int(_) => format!("_f_stop({}, 1, {}, 0, 0)", *is_error as i32, unparen(&c.c)),
                            Ty::Char => format!("_f_stop({}, 0, 0, {}, {})", *is_error as i32, c.c, c.len.unwrap_or_default()),
                            _ => return error(line, "a stop code must be integer or character"),
                        }
                    }
                };
                let _ = writeln!(out, "{m}{call};");
            }
            StmtKind::Return => {
                if self.f.in_acc_construct == 0 {
                    let _ = writeln!(out, "{m}{}", super::RETURN_IN_PLACE);
                } else {
                    let _ = writeln!(out, "{m}goto _f_return;");
                    self.f.jump_targets.insert("_f_return".to_string());
                }
            }
            StmtKind::Continue => {
                let _ = writeln!(out, "{m};");
            }
            StmtKind::Goto(l) => {
                let _ = writeln!(out, "{m}goto _f_label{l};");
                self.f.jump_targets.insert(format!("_f_label{l}"));
            }
            StmtKind::Label(l) => {
                let _ = writeln!(out, "{m}_f_label{l}: ;");
            }
            StmtKind::Allocate(items) => {
                for it in items {
                    // `allocate(a(n))`, or of an allocatable component `allocate(x%a(n))`.
                    // `allocate(p)` of a scalar pointer: a new target (Fortran 2003 §6.3.1).
                    if let Expr::Name(n) = it {
                        let v = self.var(n, line)?;
                        if v.pointer && v.shape.is_none() {
                            let _ = writeln!(out, "{m}{c} = ({t} *)malloc(_f_allocation_bytes(1, sizeof({t}), 0));", c = v.cname, t = v.ty.c());
                            if let Some(fill) = self.default_fill(v.ty, &v.cname, "1") {
                                let _ = writeln!(out, "{m}{fill}");
                            }
                            continue;
                        }
                    }
                    let (v, name, dims) = match it {
                        Expr::Apply(name, dims) => (self.var(name, line)?, name.clone(), dims),
                        Expr::Component(base, part, Some(dims)) if self.rank(base) == 0 => (self.component_of(base, part, line)?, crate::names::fortran_text(it), dims),
                        _ => return error(line, "`allocate` needs the bounds of each array (`allocate(a(n))`)"),
                    };
                    if !v.allocatable && !v.pointer {
                        return error(line, format!("`{name}` is not allocatable"));
                    }
                    if dims.len() != v.rank() {
                        return error(line, format!("`{name}` has rank {} but {} bounds are given", v.rank(), dims.len()));
                    }
                    let c = &v.cname;
                    // The constant bounds of this allocation, for messages ([`crate::names`]).
                    let mut consts = Vec::new();
                    for d in dims {
                        consts.push(match d {
                            Arg::Value(h) => (Some(1), self.fold(h)),
                            Arg::Range(Some(l), Some(h), None) => {
                                let (l, h) = (self.fold(l), self.fold(h));
                                (l, l.zip(h).map(|(l, h)| (h - l + 1).max(0)))
                            }
                            _ => (None, None),
                        });
                    }
                    self.names.note_allocation(c, &consts);
                    for (k, d) in dims.iter().enumerate() {
                        let k1 = k + 1;
                        let (lo, hi) = match d {
                            Arg::Value(h) => ("1".to_string(), self.expr(h, None, line)?.c),
                            Arg::Range(Some(l), Some(h), None) => (self.expr(l, None, line)?.c, self.expr(h, None, line)?.c),
                            _ => return error(line, format!("bad bounds for `{name}` in `allocate`")),
                        };
                        let _ = writeln!(out, "{m}{c}_lb{k1} = {lo}; {c}_n{k1} = {}; if ({c}_n{k1} < 0) {c}_n{k1} = 0;", count(&lo, &hi, None));
                    }
                    let sh = v.shape.as_ref().map(|s| s.total()).unwrap_or_default();
                    // A pointer may be allocated again (its old target stays, §6.3.1.2); an
                    // allocatable may not (§6.3.1.1).
                    if !v.pointer {
                        let _ = writeln!(out, "{m}if ({c} != 0) _f_already_allocated();");
                    }
                    let _ = writeln!(out, "{m}{c} = ({t} *)malloc({});", allocation_bytes(&sh, &super::element_size(v.ty, v.char_len)), t = v.ty.c());
                    // Elements of a type with component defaults get them (Fortran 2003 §4.5.3.4).
                    if let Some(fill) = self.default_fill(v.ty, c, &sh) {
                        let _ = writeln!(out, "{m}{fill}");
                    }
                    // A PGI 1.3 `mirror` array's device copy follows (1.3 §2.3.3.6).
                    if matches!(it, Expr::Apply(..)) && self.f.mirrored.contains(&name) {
                        self.mirror_enter(&name, line, out)?;
                    }
                }
            }
            StmtKind::Deallocate(items) => {
                for it in items {
                    let (v, n) = match it {
                        Expr::Name(n) => (self.var(n, line)?, n.clone()),
                        Expr::Component(base, part, None) if self.rank(base) == 0 => (self.component_of(base, part, line)?, crate::names::fortran_text(it)),
                        _ => return error(line, "`deallocate` takes allocatable variables and components"),
                    };
                    if !v.allocatable && !v.pointer {
                        return error(line, format!("`{n}` is not allocatable"));
                    }
                    // A PGI 1.3 `mirror` array's device copy goes first (1.3 §2.3.3.6).
                    if matches!(it, Expr::Name(_)) && self.f.mirrored.contains(&n) {
                        self.mirror_exit(&n, line, out)?;
                    }
                    // The value's allocatable components go with it (Fortran 2003 §6.3.3.1).
                    let components = self.free_components_of(&v);
                    // libgfortran names the variable a component belongs to; the name goes to
                    // the runtime as data (a `%` of `g%a` in a format string was a conversion).
                    let variable = n.split('%').next().unwrap_or(&n).trim().to_string();
                    let _ = write!(out, "{m}if (!{c}) _f_not_allocated({});\n{m}{components}free({c}); {c} = 0;\n", c_str(&variable), c = v.cname);
                }
            }
            StmtKind::Where { mask, then, otherwise } => {
                let Some(space) = self.space(mask, line)? else { return error(line, "the mask of `where` must be an array") };
                let ix: Vec<String> = (0..space.len()).map(|_| self.tmp("i")).collect();
                let mut head = String::new();
                for (k, n) in ix.iter().zip(&space).rev() {
                    let _ = write!(head, "for (long {k} = 0; {k} < {n}; {k}++) ");
                }
                let mc = self.expr(mask, Some(&ix), line)?;
                let _ = write!(out, "{m}{head}{{\n{m}if ({}) {{\n", unparen(&mc.c));
                for s in then {
                    self.where_assign(s, &ix, out)?;
                }
                let _ = writeln!(out, "{m}}} else {{");
                for s in otherwise {
                    self.where_assign(s, &ix, out)?;
                }
                let _ = write!(out, "{m}}}\n{m}}}\n");
            }
            StmtKind::Acc { text, body, end_line } => self.acc(text, body.as_deref(), *end_line, line, out)?,
            StmtKind::PointerAssign(lhs, rhs) => self.pointer_assign(lhs, rhs.as_ref(), line, out)?,
            StmtKind::Nullify(items) => self.nullify(items, line, out)?,
        }
        Ok(())
    }

    /// Whether loop statement `s` is named and an `exit` or `cycle` inside a loop nested in it
    /// names it: such a jump is written with a flag ([`Self::loop_with_flag`]).
    fn wants_flag(&self, s: &Stmt) -> bool {
        let (StmtKind::Do { name: Some(n), body, .. } | StmtKind::DoWhile { name: Some(n), body, .. } | StmtKind::DoForever { name: Some(n), body }) = &s.kind else {
            return false;
        };
        names_from_inner_loop(body, n, false)
    }

    /// A named loop that an `exit`/`cycle` of an inner loop names (Fortran 2003 §8.1.6.4.3,
    /// §8.1.6.4.4), written without a label: C has no `break` of an outer loop, so the
    /// statement sets the loop's flag (1 exit, 2 cycle) and breaks out of its own loop, and
    /// after each inner loop the enclosing loop breaks out too while the flag is set; the named
    /// loop then leaves (exit) or clears the flag and goes on with its next iteration (cycle,
    /// C `continue`, which runs the loop's increment and trip count). A label would make the
    /// whole procedure run in the interpreter (the native engine runs no function with one).
    /// The flag is declared in a block around the loop, so each thread running the loop in a
    /// compute construct has its own.
    fn loop_with_flag(&mut self, s: &Stmt, out: &mut String) -> TResult<()> {
        let m = self.marker(s.line);
        let name = match &s.kind {
            StmtKind::Do { name: Some(n), .. } | StmtKind::DoWhile { name: Some(n), .. } | StmtKind::DoForever { name: Some(n), .. } => n.clone(),
            _ => return error(s.line, "a loop without a name has no flag"),
        };
        let flag = self.tmp("jump");
        let _ = writeln!(out, "{m}{{ int {flag} = 0;");
        self.f.loop_flags.push((name, flag));
        let r = self.stmt_loop(s, out);
        self.f.loop_flags.pop();
        r?;
        let _ = writeln!(out, "{m}}}");
        Ok(())
    }

    /// The loop statement `s` (`do`, `do while`, `do`) translated as a C loop.
    fn stmt_loop(&mut self, s: &Stmt, out: &mut String) -> TResult<()> {
        let line = s.line;
        let m = self.marker(line);
        match &s.kind {
            StmtKind::Do { name, var, lo, hi, step, body } => self.do_loop(name.as_ref(), var, lo, hi, step.as_ref(), body, line, out, false)?,
            StmtKind::DoWhile { name, cond, body } => {
                let (brk, cont) = self.loop_labels();
                let c = self.expr(cond, None, line)?;
                if c.ty != Ty::Logical {
                    return error(line, "the condition of `do while` must be logical");
                }
                let _ = writeln!(out, "{m}while ({}) {{", unparen(&c.c));
                self.loop_body(name.as_ref(), &brk, &cont, None, body, out)?;
                let _ = write!(out, "{m}{cont}: ;\n{m}}}\n{m}{brk}: ;\n");
            }
            StmtKind::DoForever { name, body } => {
                let (brk, cont) = self.loop_labels();
                let _ = writeln!(out, "{m}for (;;) {{");
                self.loop_body(name.as_ref(), &brk, &cont, None, body, out)?;
                let _ = write!(out, "{m}{cont}: ;\n{m}}}\n{m}{brk}: ;\n");
            }
            _ => return error(line, "not a loop"),
        }
        Ok(())
    }

    /// After a loop whose body (`body`) jumps out of an enclosing flagged loop: the enclosing
    /// loop breaks out while the flag is set, and the flagged loop itself, when it is the one
    /// enclosing, ends (exit) or starts its next iteration (cycle).
    fn after_inner_loop(&mut self, body: &[Stmt], line: u32, out: &mut String) {
        let m = self.marker(line);
        let enclosing = self.f.loops.last().and_then(|l| l.0.clone());
        let flags: Vec<(String, String)> = self.f.loop_flags.iter().filter(|(n, _)| names_loop(body, n)).cloned().collect();
        for (name, flag) in flags.iter().rev() {
            if enclosing.as_deref() == Some(name.as_str()) {
                let _ = writeln!(out, "{m}if ({flag} == 1) break; if ({flag} == 2) {{ {flag} = 0; continue; }}");
            } else {
                let _ = writeln!(out, "{m}if ({flag}) break;");
            }
        }
    }

    fn where_assign(&mut self, s: &Stmt, ix: &[String], out: &mut String) -> TResult<()> {
        let StmtKind::Assign(l, r) = &s.kind else { return unsupported(s.line, "statements other than assignments inside `where`") };
        let lv = self.expr(l, Some(ix), s.line)?;
        let rv = self.expr(r, Some(ix), s.line)?;
        let _ = writeln!(out, "{}{} = {};", self.marker(s.line), lv.c, Self::convert(&rv, lv.ty));
        Ok(())
    }

    /// A loop's `body` between the loop's own lines: `exit` and `cycle` inside it find the loop
    /// `name` with its labels `brk` and `cont`, and a reference to the innermost `do` variable
    /// finds `do_var` (`None` for `do while` and `do` without a control).
    fn loop_body(&mut self, name: Option<&String>, brk: &str, cont: &str, do_var: Option<&str>, body: &[Stmt], out: &mut String) -> TResult<()> {
        self.f.loops.push((name.cloned(), brk.to_string(), cont.to_string()));
        self.f.do_vars.push(do_var.map(str::to_string));
        let emitted = self.block(body, out);
        self.f.loops.pop();
        self.f.do_vars.pop();
        emitted
    }

    fn loop_labels(&mut self) -> (String, String) {
        let n = self.tmp("loop");
        (format!("{n}_exit"), format!("{n}_cycle"))
    }

    /// `do var = lo, hi[, step]`. `acc_loop`: the loop follows an OpenACC loop directive, so it is
    /// written in the canonical C form the directive needs.
    pub fn do_loop(&mut self, name: Option<&String>, var: &str, lo: &Expr, hi: &Expr, step: Option<&Expr>, body: &[Stmt], line: u32, out: &mut String, acc_loop: bool) -> TResult<()> {
        let m = self.marker(line);
        let v = self.var(var, line)?;
        if !matches!(v.ty, Ty::Int(_)) || v.shape.is_some() || v.param.is_some() {
            return unsupported(line, format!("`do` variable `{var}` must be an integer scalar variable"));
        }
        let lo_c = self.expr(lo, None, line)?;
        let hi_c = self.expr(hi, None, line)?;
        let step_c = match step {
            Some(s) => Some(self.expr(s, None, line)?),
            None => None,
        };
        let (brk, cont) = self.loop_labels();
        let step_val = step_c.as_ref().map(|s| self.fold(step.unwrap_or(&Expr::Int("1".into(), None))).map(|v| (v, s.c.clone())));
        let i = &v.cname;
        let inside = self.f.in_compute > 0;
        let (cond_op, incr) = match step_val {
            None => ("<=", format!("{i}++")),
            Some(Some((1, _))) => ("<=", format!("{i}++")),
            Some(Some((v, c))) if v > 0 => ("<=", format!("{i} += {c}")),
            Some(Some((v, c))) if v < 0 => (">=", format!("{i} += {}", unparen(&c))),
            Some(Some(_)) => return error(line, "the step of a `do` loop must not be zero"),
            Some(None) => {
                if acc_loop {
                    return unsupported(line, "a loop directive on a `do` loop whose step is not a constant");
                }
                // Run-time step: iterate by trip count (Fortran 2003 §8.1.6.4.1).
                let t = self.tmp("trip");
                let s = self.tmp("step");
                let sc = step_c.map(|c| c.c).unwrap_or_default();
                let _ = writeln!(
                    out,
                    "{m}{{ long {s} = {sc}; long {t} = ({hi} - ({lo}) + {s}) / {s}; for ({i} = {lo}; {t} > 0; {t}--, {i} += {s}) {{",
                    hi = hi_c.c,
                    lo = lo_c.c
                );
                self.loop_body(name, &brk, &cont, Some(i), body, out)?;
                let _ = write!(out, "{m}{cont}: ;\n{m}}} }}\n{m}{brk}: ;\n");
                return Ok(());
            }
        };
        let hi_simple = hi_c.c.parse::<i64>().is_ok() || !hi_c.c.contains(['(', '[']) && hi_c.c.chars().all(|c| c.is_alphanumeric() || c == '_');
        if acc_loop || inside || hi_simple {
            // The bound is re-read each iteration; this equals Fortran's fixed count unless the
            // body assigns the bound's variable, which the checks below exclude for names.
            if let Expr::Name(hn) = hi {
                if assigns(body, hn) && !acc_loop {
                    return self.do_with_saved_bound(name, i, &lo_c.c, &hi_c, cond_op, &incr, body, line, out, &brk, &cont);
                }
            }
            let _ = writeln!(out, "{m}for ({i} = {}; {i} {cond_op} {}; {incr}) {{", unparen(&lo_c.c), unparen(&hi_c.c));
        } else {
            return self.do_with_saved_bound(name, i, &lo_c.c, &hi_c, cond_op, &incr, body, line, out, &brk, &cont);
        }
        self.loop_body(name, &brk, &cont, Some(i), body, out)?;
        if inside {
            let _ = writeln!(out, "{m}}}");
        } else {
            let _ = write!(out, "{m}{cont}: ;\n{m}}}\n{m}{brk}: ;\n");
        }
        Ok(())
    }

    fn do_with_saved_bound(&mut self, name: Option<&String>, i: &str, lo: &str, hi: &super::expr::CE, cond_op: &str, incr: &str, body: &[Stmt], line: u32, out: &mut String, brk: &str, cont: &str) -> TResult<()> {
        let m = self.marker(line);
        let b = self.tmp("hi");
        let _ = writeln!(out, "{m}{{ {} {b} = {}; for ({i} = {}; {i} {cond_op} {b}; {incr}) {{", hi.ty.c(), unparen(&hi.c), unparen(lo));
        self.loop_body(name, brk, cont, Some(i), body, out)?;
        let _ = write!(out, "{m}{cont}: ;\n{m}}} }}\n{m}{brk}: ;\n");
        Ok(())
    }

    fn assign(&mut self, lhs: &Expr, rhs: &Expr, line: u32, out: &mut String) -> TResult<()> {
        let m = self.marker(line);
        let lrank = self.rank(lhs);
        if let Expr::Name(n) = lhs {
            if self.lookup(n).is_some_and(|v| v.param.is_some()) {
                return error(line, format!("assignment to named constant `{n}`"));
            }
        }
        if lrank == 0 {
            let l = self.expr(lhs, None, line)?;
            if self.rank(rhs) > 0 {
                return error(line, "an array value is assigned to a scalar");
            }
            if l.ty == Ty::Char {
                let pieces = self.char_pieces(rhs, line)?;
                let t = self.tmp("cat");
                let mut s = format!("{{ char {t}[4096]; long {t}_n = 0; ");
                for (p, n) in &pieces {
                    let _ = write!(s, "{{ long _fl = {n}; if (_fl > 0) {{ memcpy({t} + {t}_n, {p}, (size_t)_fl); {t}_n += _fl; }} }} ");
                }
                let _ = write!(s, "_f_char_assign({}, {}, {t}, {t}_n); }}", l.c, l.len.clone().unwrap_or_default());
                let _ = writeln!(out, "{m}{s}");
                return Ok(());
            }
            if self.f.in_atomic {
                self.f.atomic_lhs = Some(unparen(&l.c));
            }
            let r = self.expr(rhs, None, line);
            self.f.atomic_lhs = None;
            let r = r?;
            check_assignable(l.ty, r.ty, line)?;
        self.check_shallow_assignable(l.ty, line)?;
            self.check_shallow_assignable(l.ty, line)?;
            let _ = writeln!(out, "{m}{} = {};", unparen(&l.c), Self::convert(&r, l.ty));
            return Ok(());
        }
        // Array assignment.
        let Some(space) = self.space(lhs, line)? else { return error(line, "bad array assignment") };
        if let Expr::Constructor(items) = rhs {
            if (items.iter().any(|i| matches!(i, Expr::ImpliedDo { .. }) || self.rank(i) > 0) || lrank != 1) && self.designator_type(lhs) != Some(Ty::Char) {
                return self.constructor_assign(lhs, items, line, out);
            }
        }
        let rrank = self.rank(rhs);
        if rrank != 0 && rrank != lrank {
            return error(line, format!("rank mismatch in array assignment ({lrank} and {rrank})"));
        }
        let ix: Vec<String> = (0..space.len()).map(|_| self.tmp("i")).collect();
        let l = self.expr(lhs, Some(&ix), line)?;
        if l.ty == Ty::Char {
            return self.char_array_assign(lhs, rhs, &l, &ix, &space, line, out);
        }
        let r = self.expr(rhs, Some(&ix), line)?;
        check_assignable(l.ty, r.ty, line)?;
        // The right-hand side is evaluated before any element is stored: when it reads the
        // assigned array other than at the same element, go through a temporary.
        let lname = root_name(lhs).unwrap_or_default().to_string();
        let overlap = mentions(rhs, &lname) && !same_element_only(lhs, rhs, &lname);
        let mut head = String::new();
        for (k, n) in ix.iter().zip(&space).rev() {
            let _ = write!(head, "for (long {k} = 0; {k} < {n}; {k}++) ");
        }
        if overlap {
            if self.f.in_compute > 0 {
                return unsupported(line, "an array assignment whose right-hand side overlaps the assigned array, inside a compute construct");
            }
            let t = self.tmp("tmp");
            let total = space.iter().map(|s| format!("({s})")).collect::<Vec<_>>().join(" * ");
            // Linear index of the counters.
            let mut lin = String::new();
            for k in (0..ix.len()).rev() {
                lin = if lin.is_empty() { ix[k].clone() } else { format!("{} + {} * ({lin})", ix[k], space[k]) };
            }
            let _ = writeln!(out, "{m}{{ {ty} *{t} = ({ty} *)malloc(_f_allocation_bytes({total}, sizeof({ty}), 0));", ty = l.ty.c());
            let _ = writeln!(out, "{m}{head}{t}[{lin}] = {};", Self::convert(&r, l.ty));
            let _ = write!(out, "{m}{head}{} = {t}[{lin}];\n{m}free({t}); }}\n", unparen(&l.c));
        } else {
            // In a `kernels` construct the element loops are marked `independent` (OpenACC 2.0
            // §2.7.9): the right-hand side does not overlap the assigned array (checked above),
            // and distinct Fortran arrays never share memory (Fortran 2003 §12.4.1.7 forbids
            // assigning an array a dummy argument aliases), which the C pointers cannot say.
            if self.f.in_kernels > 0 && !self.f.in_atomic {
                let collapse = if ix.len() > 1 { format!(" collapse({})", ix.len()) } else { String::new() };
                let _ = writeln!(out, "{m}#pragma acc loop independent{collapse}");
            }
            let _ = writeln!(out, "{m}{head}{} = {};", unparen(&l.c), Self::convert(&r, l.ty));
        }
        Ok(())
    }

    /// Assignment to a character array or section (Fortran 2003 §7.4.1.3): each element gets the
    /// value blank-padded or truncated to its length — one scalar value for every element, the
    /// items of a constructor in array element order, or the elements of a character array.
    #[allow(clippy::too_many_arguments)]
    fn char_array_assign(&mut self, lhs: &Expr, rhs: &Expr, l: &super::expr::CE, ix: &[String], space: &[String], line: u32, out: &mut String) -> TResult<()> {
        let m = self.marker(line);
        let llen = l.len.clone().unwrap_or_else(|| "1".into());
        let mut head = String::new();
        for (k, n) in ix.iter().zip(space).rev() {
            let _ = write!(head, "for (long {k} = 0; {k} < {n}; {k}++) ");
        }
        if let Expr::Constructor(items) = rhs {
            if space.len() != 1 || items.iter().any(|i| matches!(i, Expr::ImpliedDo { .. }) || self.rank(i) > 0) {
                return unsupported(line, "a character array constructor with implied-do loops or array items, or assigned to an array of rank > 1");
            }
            if space[0].parse::<usize>().is_ok_and(|n| n != items.len()) {
                return error(line, format!("the constructor has {} values but the array has {} elements", items.len(), space[0]));
            }
            for (k, item) in items.iter().enumerate() {
                let pieces = self.char_pieces(item, line)?;
                let [(p, n)] = pieces.as_slice() else { return unsupported(line, "a concatenation inside a character array constructor") };
                let elem = self.expr(lhs, Some(&[format!("{k}L")]), line)?.c;
                let _ = writeln!(out, "{m}_f_char_assign({elem}, {llen}, {p}, {n});");
            }
            return Ok(());
        }
        if mentions(rhs, root_name(lhs).unwrap_or_default()) && self.rank(rhs) > 0 && !same_element_only(lhs, rhs, root_name(lhs).unwrap_or_default()) {
            return unsupported(line, "a character array assignment whose right-hand side overlaps the assigned array");
        }
        if self.rank(rhs) == 0 {
            let pieces = self.char_pieces(rhs, line)?;
            let [(p, n)] = pieces.as_slice() else { return unsupported(line, "a concatenation assigned to a character array") };
            let _ = writeln!(out, "{m}{head}_f_char_assign({}, {llen}, {p}, {n});", l.c);
            return Ok(());
        }
        let r = self.expr(rhs, Some(ix), line)?;
        if r.ty != Ty::Char {
            return error(line, format!("cannot assign a {} value to a character variable", r.ty.name()));
        }
        let _ = writeln!(out, "{m}{head}_f_char_assign({}, {llen}, {}, {});", l.c, r.c, r.len.unwrap_or_else(|| "1".into()));
        Ok(())
    }

    /// `a = [items]` / `a = (/ (f(i), i = 1, n) /)`: store the items in array element order.
    fn constructor_assign(&mut self, lhs: &Expr, items: &[Expr], line: u32, out: &mut String) -> TResult<()> {
        let m = self.marker(line);
        let Expr::Name(n) = lhs else { return unsupported(line, "an array constructor assigned to a section") };
        let v = self.var(n, line)?;
        let k = self.tmp("k");
        let _ = writeln!(out, "{m}{{ long {k} = 0;");
        self.constructor_items(&v, items, &k, line, out)?;
        let _ = writeln!(out, "{m}}}");
        Ok(())
    }

    fn constructor_items(&mut self, v: &Var, items: &[Expr], k: &str, line: u32, out: &mut String) -> TResult<()> {
        let m = self.marker(line);
        for it in items {
            match it {
                Expr::ImpliedDo { items, var, lo, hi, step } => {
                    self.implied_do_header(var, lo, hi, step.as_deref(), line, out)?;
                    self.constructor_items(v, items, k, line, out)?;
                    let _ = writeln!(out, "{m}}}");
                }
                e if self.rank(e) == 0 => {
                    let c = self.expr(e, None, line)?;
                    let _ = writeln!(out, "{m}{}[{k}++] = {};", v.cname, Self::convert(&c, v.ty));
                }
                e => {
                    let Some(space) = self.space(e, line)? else { return error(line, "bad constructor item") };
                    let ix: Vec<String> = (0..space.len()).map(|_| self.tmp("i")).collect();
                    let c = self.expr(e, Some(&ix), line)?;
                    let mut head = String::new();
                    for (kk, n) in ix.iter().zip(&space).rev() {
                        let _ = write!(head, "for (long {kk} = 0; {kk} < {n}; {kk}++) ");
                    }
                    let _ = writeln!(out, "{m}{head}{}[{k}++] = {};", v.cname, Self::convert(&c, v.ty));
                }
            }
        }
        Ok(())
    }

    /// An `if` construct whose conditions are constant expressions (Fortran 2003 §7.1.7: named
    /// constants, literals, `mod`, comparisons and logical operators): only the block that runs
    /// is written, as gfortran compiles no other (a test of a named constant, such as the
    /// Jacobi's `mod(iters, 2) == 1` inside its checksum loop, would otherwise be code the
    /// native engine translates and runs at every iteration). The other blocks are still
    /// translated, for their diagnostics, and dropped. `false` (nothing written): some condition
    /// before the block that runs is not constant.
    fn constant_if(&mut self, arms: &[(Expr, Vec<Stmt>)], otherwise: Option<&[Stmt]>, line: u32, out: &mut String) -> TResult<bool> {
        let mut taken = None;
        for (i, (cond, _)) in arms.iter().enumerate() {
            match fold_logical(cond, &|n| self.const_of(n)) {
                Some(true) => {
                    taken = Some(i);
                    break;
                }
                Some(false) => {}
                None => return Ok(false),
            }
        }
        let m = self.marker(line);
        let mut dropped = String::new();
        for (i, (cond, body)) in arms.iter().enumerate() {
            let c = self.expr(cond, None, line)?;
            if c.ty != Ty::Logical {
                return error(line, "the condition of `if` must be logical");
            }
            if taken == Some(i) {
                let _ = writeln!(out, "{m}{{");
                self.block(body, out)?;
                let _ = writeln!(out, "{m}}}");
            } else {
                self.block(body, &mut dropped)?;
            }
        }
        if let Some(b) = otherwise {
            if taken.is_none() {
                let _ = writeln!(out, "{m}{{");
                self.block(b, out)?;
                let _ = writeln!(out, "{m}}}");
            } else {
                self.block(b, &mut dropped)?;
            }
        }
        Ok(true)
    }

    /// The pieces (pointer, length) of a character expression (concatenations flattened).
    pub fn char_pieces(&mut self, e: &Expr, line: u32) -> TResult<Vec<(String, String)>> {
        if let Expr::Binary("//", a, b) = e {
            let mut v = self.char_pieces(a, line)?;
            v.extend(self.char_pieces(b, line)?);
            return Ok(v);
        }
        let c = self.expr(e, None, line)?;
        if c.ty != Ty::Char {
            return error(line, format!("a {} value where a character value is needed", c.ty.name()));
        }
        Ok(vec![(c.c, c.len.unwrap_or_else(|| "1".into()))])
    }

    fn intrinsic_sub(&mut self, name: &str, args: &[Arg], line: u32, out: &mut String) -> TResult<()> {
        let m = self.marker(line);
        let arg = |i: usize| match args.get(i) {
            Some(Arg::Value(e)) | Some(Arg::Keyword(_, e)) => Some(e.clone()),
            _ => None,
        };
        match name {
            "random_seed" => {
                // random_seed([size=] | put= | get=) (Fortran 2003 §13.7.95), libgfortran's layout
                // (runtime.h): eight default integers, or four of kind 8.
                let keyword = |k: &str| {
                    args.iter().find_map(|a| match a {
                        Arg::Keyword(n, e) if n == k => Some(e.clone()),
                        _ => None,
                    })
                };
                let size = keyword("size").or_else(|| match args.first() {
                    Some(Arg::Value(e)) => Some(e.clone()),
                    _ => None,
                });
                if let Some(sz) = size {
                    let l = self.expr(&sz, None, line)?;
                    let n = if l.ty == Ty::Int(8) { 4 } else { 8 };
                    let _ = writeln!(out, "{m}{} = {n};", l.c);
                }
                for (which, e) in [("put", keyword("put")), ("get", keyword("get"))] {
                    let Some(e) = e else { continue };
                    let Expr::Name(n) = &e else { return unsupported(line, format!("`random_seed({which}=…)` of something other than a whole array")) };
                    let v = self.var(n, line)?;
                    let Some(sh) = v.shape.clone().filter(|s| s.rank() == 1) else { return error(line, format!("the `{which}` argument of `random_seed` must be an integer array of rank 1")) };
                    let kind = match v.ty {
                        Ty::Int(4) => 4,
                        Ty::Int(8) => 8,
                        _ => return error(line, format!("the `{which}` argument of `random_seed` must be a default or kind-8 integer array")),
                    };
                    let _ = writeln!(out, "{m}_f_random_seed_{which}{kind}({}, {});", v.cname, sh.total());
                }
            }
            "random_number" => {
                let Some(a) = arg(0) else { return error(line, "`random_number` needs an argument") };
                let draw = |t: Ty| if t == Ty::Real(8) { "_f_random8()" } else { "_f_random4()" };
                if let Some(space) = self.space(&a, line)? {
                    // Array element order, as libgfortran fills an array.
                    let ix: Vec<String> = (0..space.len()).map(|_| self.tmp("i")).collect();
                    let l = self.expr(&a, Some(&ix), line)?;
                    let mut head = String::new();
                    for (k, n) in ix.iter().zip(&space).rev() {
                        let _ = write!(head, "for (long {k} = 0; {k} < {n}; {k}++) ");
                    }
                    let _ = writeln!(out, "{m}{head}{} = {};", l.c, draw(l.ty));
                } else {
                    let l = self.expr(&a, None, line)?;
                    let _ = writeln!(out, "{m}{} = {};", l.c, draw(l.ty));
                }
            }
            "cpu_time" => {
                let Some(a) = arg(0) else { return error(line, "`cpu_time` needs an argument") };
                let l = self.expr(&a, None, line)?;
                // `(clock_t) 1000000` is glibc's CLOCKS_PER_SEC (POSIX XSI; libc.h has no macros).
                let _ = writeln!(out, "{m}{} = ({})clock() / ({})((clock_t) 1000000);", l.c, l.ty.c(), l.ty.c());
            }
            _ => {
                // system_clock(count[, count_rate[, count_max]])
                let names = ["count", "count_rate", "count_max"];
                for (i, what) in names.iter().enumerate() {
                    let e = args.iter().find_map(|a| match a {
                        Arg::Keyword(k, e) if k == what => Some(e.clone()),
                        _ => None,
                    });
                    let e = e.or_else(|| match args.get(i) {
                        Some(Arg::Value(e)) => Some(e.clone()),
                        _ => None,
                    });
                    if let Some(e) = e {
                        let l = self.expr(&e, None, line)?;
                        let v = match i {
                            0 => "(long)(clock() / (((clock_t) 1000000) / 1000))".to_string(),
                            1 => "1000".to_string(),
                            _ => "2147483647".to_string(),
                        };
                        let _ = writeln!(out, "{m}{} = ({}){v};", l.c, l.ty.c());
                    }
                }
            }
        }
        Ok(())
    }
}

fn check_assignable(to: Ty, from: Ty, line: u32) -> TResult<()> {
    let ok = match to {
        Ty::Int(_) | Ty::Real(_) | Ty::Complex(_) => from.is_numeric(),
        Ty::Logical => from == Ty::Logical,
        Ty::Char => from == Ty::Char,
        // Intrinsic assignment of a derived type (Fortran 2003 §7.4.1.2): the same type.
        Ty::Derived(_) => from == to,
    };
    if ok {
        Ok(())
    } else {
        error(line, format!("cannot assign a {} value to a {} variable", from.name(), to.name()))
    }
}

/// Whether `e` mentions the name `n`.
pub fn mentions(e: &Expr, n: &str) -> bool {
    match e {
        Expr::Name(m) => m == n,
        Expr::Apply(m, args) => {
            m == n
                || args.iter().any(|a| match a {
                    Arg::Value(x) | Arg::Keyword(_, x) => mentions(x, n),
                    Arg::Range(a, b, c) => [a, b, c].iter().any(|p| p.as_ref().is_some_and(|x| mentions(x, n))),
                })
        }
        Expr::Unary(_, x) | Expr::Paren(x) => mentions(x, n),
        Expr::Binary(_, a, b) | Expr::Complex(a, b) => mentions(a, n) || mentions(b, n),
        Expr::Constructor(items) => items.iter().any(|x| mentions(x, n)),
        Expr::ImpliedDo { items, lo, hi, step, .. } => items.iter().any(|x| mentions(x, n)) || mentions(lo, n) || mentions(hi, n) || step.as_ref().is_some_and(|s| mentions(s, n)),
        Expr::Component(b, _, args) => mentions(b, n) || args.as_ref().is_some_and(|a| mentions(&Expr::Apply(String::new(), a.clone()), n)),
        Expr::Substring(b, lo, hi) => mentions(b, n) || [lo, hi].iter().any(|x| x.as_ref().is_some_and(|e| mentions(e, n))),
        _ => false,
    }
}

/// The variable a designator starts with (`a` of `a(i)%b(j)`).
pub fn root_name(e: &Expr) -> Option<&str> {
    match e {
        Expr::Name(n) | Expr::Apply(n, _) => Some(n),
        Expr::Component(b, _, _) | Expr::Substring(b, _, _) => root_name(b),
        _ => None,
    }
}

/// Whether every reference to array `n` in `rhs` is the same designator as `lhs` (elementwise use).
fn same_element_only(lhs: &Expr, rhs: &Expr, n: &str) -> bool {
    match rhs {
        Expr::Name(m) | Expr::Apply(m, _) if m == n => rhs == lhs || matches!((lhs, rhs), (Expr::Name(_), Expr::Name(_))),
        Expr::Apply(_, args) => args.iter().all(|a| match a {
            Arg::Value(x) | Arg::Keyword(_, x) => same_element_only(lhs, x, n),
            Arg::Range(lo, hi, st) => [lo, hi, st].iter().all(|p| p.as_ref().is_none_or(|x| !mentions(x, n))),
        }),
        Expr::Unary(_, x) | Expr::Paren(x) => same_element_only(lhs, x, n),
        Expr::Binary(_, a, b) => same_element_only(lhs, a, n) && same_element_only(lhs, b, n),
        // A component of the element the left side is a component of (`a(i)%c = a(i)%a + a(i)%b`).
        Expr::Component(b, _, args) if args.is_none() => match lhs {
            Expr::Component(lb, _, None) if lb == b => true,
            _ => same_element_only(lhs, b, n),
        },
        _ => !mentions(rhs, n),
    }
}

/// Whether the statements assign the scalar `n` (directly).
/// Whether an `exit`/`cycle` in `stmts` names loop `name` (at any depth).
fn names_loop(stmts: &[Stmt], name: &str) -> bool {
    stmts.iter().any(|s| match &s.kind {
        StmtKind::Exit(Some(n)) | StmtKind::Cycle(Some(n)) => n == name,
        StmtKind::If { arms, otherwise } => arms.iter().any(|(_, b)| names_loop(b, name)) || otherwise.as_ref().is_some_and(|b| names_loop(b, name)),
        StmtKind::Do { body, .. } | StmtKind::DoWhile { body, .. } | StmtKind::DoForever { body, .. } => names_loop(body, name),
        StmtKind::Select { cases, default, .. } => cases.iter().any(|(_, b)| names_loop(b, name)) || default.as_ref().is_some_and(|b| names_loop(b, name)),
        StmtKind::Acc { body: Some(b), .. } => names_loop(b, name),
        _ => false,
    })
}

/// Whether an `exit`/`cycle` inside a loop nested in `stmts` (`in_loop`: `stmts` is such a
/// loop's body) names loop `name`.
fn names_from_inner_loop(stmts: &[Stmt], name: &str, in_loop: bool) -> bool {
    stmts.iter().any(|s| match &s.kind {
        StmtKind::Exit(Some(n)) | StmtKind::Cycle(Some(n)) => in_loop && n == name,
        StmtKind::If { arms, otherwise } => arms.iter().any(|(_, b)| names_from_inner_loop(b, name, in_loop)) || otherwise.as_ref().is_some_and(|b| names_from_inner_loop(b, name, in_loop)),
        StmtKind::Do { body, .. } | StmtKind::DoWhile { body, .. } | StmtKind::DoForever { body, .. } => names_from_inner_loop(body, name, true),
        StmtKind::Select { cases, default, .. } => cases.iter().any(|(_, b)| names_from_inner_loop(b, name, in_loop)) || default.as_ref().is_some_and(|b| names_from_inner_loop(b, name, in_loop)),
        StmtKind::Acc { body: Some(b), .. } => names_from_inner_loop(b, name, in_loop),
        _ => false,
    })
}

fn assigns(stmts: &[Stmt], n: &str) -> bool {
    stmts.iter().any(|s| match &s.kind {
        StmtKind::Assign(Expr::Name(m), _) => m == n,
        StmtKind::Call(..) | StmtKind::Read { .. } => true,
        StmtKind::If { arms, otherwise } => arms.iter().any(|(_, b)| assigns(b, n)) || otherwise.as_ref().is_some_and(|b| assigns(b, n)),
        StmtKind::Do { body, var, .. } => var == n || assigns(body, n),
        StmtKind::DoWhile { body, .. } | StmtKind::DoForever { body, .. } => assigns(body, n),
        StmtKind::Select { cases, default, .. } => cases.iter().any(|(_, b)| assigns(b, n)) || default.as_ref().is_some_and(|b| assigns(b, n)),
        StmtKind::Acc { body: Some(b), .. } => assigns(b, n),
        _ => false,
    })
}

/// The value of a constant logical expression: literals, comparisons of integer constant
/// expressions ([`fold_int`]) and the logical operators; `None` for anything else.
fn fold_logical(e: &Expr, consts: &dyn Fn(&str) -> Option<i64>) -> Option<bool> {
    Some(match e {
        Expr::Logical(b) => *b,
        Expr::Paren(x) => fold_logical(x, consts)?,
        Expr::Unary(".not.", x) => !fold_logical(x, consts)?,
        Expr::Binary(op @ (".and." | ".or." | ".eqv." | ".neqv."), a, b) => {
            let (a, b) = (fold_logical(a, consts)?, fold_logical(b, consts)?);
            match *op {
                ".and." => a && b,
                ".or." => a || b,
                ".eqv." => a == b,
                _ => a != b,
            }
        }
        Expr::Binary(op @ ("==" | "/=" | "<" | "<=" | ">" | ">="), a, b) => {
            let (a, b) = (fold_int(a, consts)?, fold_int(b, consts)?);
            match *op {
                "==" => a == b,
                "/=" => a != b,
                "<" => a < b,
                "<=" => a <= b,
                ">" => a > b,
                _ => a >= b,
            }
        }
        _ => return None,
    })
}
