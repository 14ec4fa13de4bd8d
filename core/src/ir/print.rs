//! A readable C-like listing of the IR (`accsim dump-ir`), for debugging and golden tests.

use std::fmt::Write;

use super::*;

/// Print a whole program.
pub fn program(p: &Program) -> String {
    let mut out = String::new();
    for (i, g) in p.globals.iter().enumerate() {
        let init = match &g.init {
            Some(si) if si.relocs.is_empty() => format!(" = {} bytes", si.bytes.len()),
            Some(si) => format!(" = {} bytes, {} relocations", si.bytes.len(), si.relocs.len()),
            None => String::new(),
        };
        let _ = writeln!(out, "global g{i} {}: {}{init}", g.name, p.types.display(g.ty));
    }
    for (i, e) in p.externs.iter().enumerate() {
        let _ = writeln!(out, "extern e{i} {}: {}", e.name, p.types.display(e.ty));
    }
    for (i, f) in p.functions.iter().enumerate() {
        let params: Vec<String> = f.params.iter().map(|l| format!("l{}", l.0)).collect();
        let _ = writeln!(out, "\nfn f{i} {}({}) -> {}", f.name, params.join(", "), p.types.display(f.ret));
        for (j, l) in f.locals.iter().enumerate() {
            let _ = writeln!(out, "  local l{j} {}: {} {:?}", l.name, p.types.display(l.ty), l.storage);
        }
        stmt(p, &f.body, 1, &mut out);
    }
    out
}

fn stmt(p: &Program, s: &Stmt, depth: usize, out: &mut String) {
    let pad = "  ".repeat(depth);
    match &s.kind {
        StmtKind::Empty => {}
        StmtKind::Expr(e) => {
            let _ = writeln!(out, "{pad}{};", expr(p, e));
        }
        StmtKind::Block(v) => {
            let _ = writeln!(out, "{pad}{{");
            for x in v {
                stmt(p, x, depth + 1, out);
            }
            let _ = writeln!(out, "{pad}}}");
        }
        StmtKind::If(c, t, e) => {
            let _ = writeln!(out, "{pad}if ({})", expr(p, c));
            stmt(p, t, depth + 1, out);
            if let Some(e) = e {
                let _ = writeln!(out, "{pad}else");
                stmt(p, e, depth + 1, out);
            }
        }
        StmtKind::While(c, b) => {
            let _ = writeln!(out, "{pad}while ({})", expr(p, c));
            stmt(p, b, depth + 1, out);
        }
        StmtKind::DoWhile(b, c) => {
            let _ = writeln!(out, "{pad}do");
            stmt(p, b, depth + 1, out);
            let _ = writeln!(out, "{pad}while ({});", expr(p, c));
        }
        StmtKind::For { init, cond, step, body } => {
            let _ = writeln!(out, "{pad}for");
            if let Some(i) = init {
                stmt(p, i, depth + 2, out);
            }
            let c = cond.as_ref().map(|c| expr(p, c)).unwrap_or_default();
            let st = step.as_ref().map(|c| expr(p, c)).unwrap_or_default();
            let _ = writeln!(out, "{pad}  ; {c}; {st}");
            stmt(p, body, depth + 1, out);
        }
        StmtKind::Switch { cond, body, cases, default } => {
            let cs: Vec<String> = cases.iter().map(|(v, l)| format!("{}=>L{}", *v as i64, l.0)).collect();
            let d = default.map(|l| format!(" default=>L{}", l.0)).unwrap_or_default();
            let _ = writeln!(out, "{pad}switch ({}) [{}]{d}", expr(p, cond), cs.join(" "));
            stmt(p, body, depth + 1, out);
        }
        StmtKind::Label(l) => {
            let _ = writeln!(out, "{pad}L{}:", l.0);
        }
        StmtKind::Goto(l) => {
            let _ = writeln!(out, "{pad}goto L{};", l.0);
        }
        StmtKind::Break => {
            let _ = writeln!(out, "{pad}break;");
        }
        StmtKind::Continue => {
            let _ = writeln!(out, "{pad}continue;");
        }
        StmtKind::Return(e) => {
            let v = e.as_ref().map(|e| format!(" {}", expr(p, e))).unwrap_or_default();
            let _ = writeln!(out, "{pad}return{v};");
        }
        StmtKind::ZeroFill { addr, size } => {
            let _ = writeln!(out, "{pad}zero({}, {size});", expr(p, addr));
        }
        StmtKind::VlaAlloc(l) => {
            let _ = writeln!(out, "{pad}vla_alloc l{};", l.0);
        }
        StmtKind::AccLaunch(k) => {
            let f = p.kernels.get(k.0 as usize).and_then(|k| p.functions.get(k.func.0 as usize)).map(|f| f.name.as_str()).unwrap_or("?");
            let _ = writeln!(out, "{pad}launch {f};");
        }
        StmtKind::Partition(part) => {
            let _ = writeln!(out, "{pad}partition {:?} l{} < {} (schedule {})", part.level, part.var.0, expr(p, &part.count), part.schedule);
            stmt(p, &part.body, depth + 1, out);
        }
        StmtKind::Acc { directive, body } => {
            let text = p.directives.get(directive.0 as usize).map(|d| d.text.as_str()).unwrap_or("?");
            let _ = writeln!(out, "{pad}#pragma acc {text}");
            if let Some(b) = body {
                stmt(p, b, depth + 1, out);
            }
        }
    }
}

fn place(p: &Program, pl: &Place) -> String {
    match pl {
        Place::Local(l) => format!("l{}", l.0),
        Place::Mem(a) => format!("*{}", expr(p, a)),
    }
}

/// One expression, fully parenthesized, with its type on loads and casts.
pub fn expr(p: &Program, e: &Expr) -> String {
    let t = || p.types.display(e.ty);
    match &e.kind {
        ExprKind::Int(v) => {
            if matches!(p.types.get(e.ty), Type::Int(IntType { signed: true, .. })) {
                format!("{}", *v as i64)
            } else {
                format!("{v}")
            }
        }
        ExprKind::Float(f) => format!("{f:?}"),
        ExprKind::Str(s) => format!("str{}", s.0),
        ExprKind::Local(l) => format!("l{}", l.0),
        ExprKind::LocalAddr(l) => format!("&l{}", l.0),
        ExprKind::GlobalAddr(g) => format!("&g{}", g.0),
        ExprKind::FuncAddr(f) => format!("&f{}", f.0),
        ExprKind::ExternAddr(x) => format!("&{}", p.externs.get(x.0 as usize).map(|e| e.name.as_str()).unwrap_or("?")),
        ExprKind::Load(a) => format!("load<{}>({})", t(), expr(p, a)),
        ExprKind::Unary(op, x) => format!("({op:?} {})", expr(p, x)),
        ExprKind::Binary(op, a, b) => format!("({} {op:?} {})", expr(p, a), expr(p, b)),
        ExprKind::Cast(x) => format!("({}){}", t(), expr(p, x)),
        ExprKind::PtrAdd { ptr, index, elem } => format!("({} +[{}] {})", expr(p, ptr), p.types.display(*elem), expr(p, index)),
        ExprKind::PtrDiff { lhs, rhs, .. } => format!("({} -p {})", expr(p, lhs), expr(p, rhs)),
        ExprKind::Assign { place: pl, value } => format!("({} = {})", place(p, pl), expr(p, value)),
        ExprKind::CompoundAssign { op, place: pl, value, .. } => format!("({} {op:?}= {})", place(p, pl), expr(p, value)),
        ExprKind::IncDec { place: pl, delta, post } => {
            let op = if *delta > 0 { "++" } else { "--" };
            if *post { format!("({}{op})", place(p, pl)) } else { format!("({op}{})", place(p, pl)) }
        }
        ExprKind::Cond(c, a, b) => format!("({} ? {} : {})", expr(p, c), expr(p, a), expr(p, b)),
        ExprKind::LogicalAnd(a, b) => format!("({} && {})", expr(p, a), expr(p, b)),
        ExprKind::LogicalOr(a, b) => format!("({} || {})", expr(p, a), expr(p, b)),
        ExprKind::Comma(a, b) => format!("({}, {})", expr(p, a), expr(p, b)),
        ExprKind::Call { callee, args, .. } => {
            let c = match callee {
                Callee::Direct(f) => p.functions.get(f.0 as usize).map(|f| f.name.clone()).unwrap_or_else(|| format!("f{}", f.0)),
                Callee::Extern(x) => p.externs.get(x.0 as usize).map(|e| e.name.clone()).unwrap_or_default(),
                Callee::Indirect(x) => format!("(*{})", expr(p, x)),
            };
            let a: Vec<String> = args.iter().map(|a| expr(p, a)).collect();
            format!("{c}({})", a.join(", "))
        }
        ExprKind::SizeOfDynamic(ty) => format!("sizeof({})", p.types.display(*ty)),
        ExprKind::ComplexBinary { op, lhs, rhs, dst } => format!("(l{} = {} c{op:?} {})", dst.0, expr(p, lhs), expr(p, rhs)),
        ExprKind::ComplexNeg { value, dst } => format!("(l{} = -{})", dst.0, expr(p, value)),
        ExprKind::ComplexMake { re, im, dst } => format!("(l{} = complex({}, {}))", dst.0, expr(p, re), expr(p, im)),
        ExprKind::ComplexCompare { op, lhs, rhs } => format!("({} c{op:?} {})", expr(p, lhs), expr(p, rhs)),
        ExprKind::WithInit { init, value } => format!("(init[{}]; {})", init.len(), expr(p, value)),
        ExprKind::StmtExpr { body, value } => {
            format!("({{{} stmts; {}}})", body.len(), value.as_ref().map(|v| expr(p, v)).unwrap_or_default())
        }
        ExprKind::VaStart(a) => format!("va_start({})", expr(p, a)),
        ExprKind::VaArg(a) => format!("va_arg({}, {})", expr(p, a), t()),
        ExprKind::VaCopy(a, b) => format!("va_copy({}, {})", expr(p, a), expr(p, b)),
    }
}
