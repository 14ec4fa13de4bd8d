//! Unit tests of the directive parser: every directive and clause, `device_type` groups,
//! abbreviations, subarrays, every error (message, span, help), printing, and no panics on
//! garbled input.

use std::ops::Range;

use super::*;

#[track_caller]
fn ok(text: &str) -> Directive {
    match parse_directive(text) {
        Ok(d) => d,
        Err(e) => panic!(
            "`{text}` failed: {} at {:?} ({:?})",
            e.message, e.span, e.help
        ),
    }
}

#[track_caller]
fn err(text: &str) -> DirectiveError {
    match parse_directive(text) {
        Ok(d) => panic!("`{text}` parsed, expected an error: {d}"),
        Err(e) => e,
    }
}

/// The text an error or item points at.
fn at<'a>(text: &'a str, span: &Range<usize>) -> &'a str {
    &text[span.clone()]
}

/// Asserts message, the text the span covers, and a substring of the help.
#[track_caller]
fn assert_err(text: &str, message: &str, pointed: &str, help: Option<&str>) {
    let e = err(text);
    assert_eq!(e.message, message, "message for `{text}`");
    assert_eq!(at(text, &e.span), pointed, "span for `{text}`");
    match help {
        None => assert_eq!(e.help, None, "help for `{text}`"),
        Some(h) => {
            let got = e.help.clone().unwrap_or_default();
            assert!(
                got.contains(h),
                "help for `{text}`: expected `{h}` in `{got}`"
            );
        }
    }
}

fn only_clause(text: &str) -> ClauseKind {
    let d = ok(text);
    assert_eq!(d.clauses.len(), 1, "`{text}`: {:?}", d.clauses);
    d.clauses
        .into_iter()
        .next()
        .map(|c| c.kind)
        .unwrap_or(ClauseKind::Seq)
}

fn expr_text(e: &ExprSrc) -> &str {
    &e.text
}

fn vars_text(vars: &[VarRef]) -> Vec<String> {
    vars.iter().map(|v| v.to_string()).collect()
}

// ------------------------------------------------------------------------ directives

#[test]
fn every_directive_kind_name_and_statement() {
    let cases: &[(&str, &str, bool, &str)] = &[
        ("parallel", "parallel", true, "parallel"),
        ("kernels", "kernels", true, "kernels"),
        ("data copy(a)", "data", true, "data"),
        ("enter data copyin(a)", "enter data", false, "enter data"),
        ("exit  data delete(a)", "exit data", false, "exit  data"),
        ("host_data use_device(a)", "host_data", true, "host_data"),
        ("loop", "loop", true, "loop"),
        ("parallel loop", "parallel loop", true, "parallel loop"),
        ("kernels   loop", "kernels loop", true, "kernels   loop"),
        ("cache(a[i:4])", "cache", false, "cache"),
        ("atomic", "atomic", true, "atomic"),
        ("update host(a)", "update", false, "update"),
        ("wait", "wait", false, "wait"),
        ("declare create(a)", "declare", false, "declare"),
        ("routine seq", "routine", false, "routine"),
    ];
    for (text, name, takes, span) in cases {
        let d = ok(text);
        assert_eq!(d.name(), *name, "{text}");
        assert_eq!(d.takes_statement(), *takes, "{text}");
        assert_eq!(at(text, &d.span), *span, "{text}");
    }
}

#[test]
fn directive_kinds() {
    assert_eq!(ok("parallel").kind, DirectiveKind::Parallel);
    assert_eq!(ok("kernels").kind, DirectiveKind::Kernels);
    assert_eq!(ok("data").kind, DirectiveKind::Data);
    assert_eq!(ok("enter data create(x)").kind, DirectiveKind::EnterData);
    assert_eq!(ok("exit data copyout(x)").kind, DirectiveKind::ExitData);
    assert_eq!(ok("host_data use_device(x)").kind, DirectiveKind::HostData);
    assert_eq!(ok("loop").kind, DirectiveKind::Loop);
    assert_eq!(ok("parallel loop").kind, DirectiveKind::ParallelLoop);
    assert_eq!(ok("kernels loop").kind, DirectiveKind::KernelsLoop);
    assert_eq!(ok("update device(x)").kind, DirectiveKind::Update);
    assert_eq!(ok("declare link(x)").kind, DirectiveKind::Declare);
}

#[test]
fn atomic_forms() {
    assert_eq!(ok("atomic").kind, DirectiveKind::Atomic(AtomicKind::Update));
    assert_eq!(
        ok("atomic read").kind,
        DirectiveKind::Atomic(AtomicKind::Read)
    );
    assert_eq!(
        ok("atomic write").kind,
        DirectiveKind::Atomic(AtomicKind::Write)
    );
    assert_eq!(
        ok("atomic update").kind,
        DirectiveKind::Atomic(AtomicKind::Update)
    );
    assert_eq!(
        ok("atomic capture").kind,
        DirectiveKind::Atomic(AtomicKind::Capture)
    );
    assert_eq!(ok("atomic capture").to_string(), "atomic capture");
    assert_err(
        "atomic raed",
        "expected `read`, `write`, `update` or `capture` after `atomic`, found `raed`",
        "raed",
        Some("did you mean `read`?"),
    );
    assert_err(
        "atomic read copy(a)",
        "the `atomic` directive takes no clauses, found `copy`",
        "copy",
        None,
    );
}

#[test]
fn cache_directive() {
    let text = "cache(a[i-1:3], b[j][0:4], c)";
    let d = ok(text);
    let DirectiveKind::Cache(vars) = &d.kind else {
        panic!("{d:?}")
    };
    assert_eq!(vars_text(vars), ["a[i-1:3]", "b[j][0:4]", "c"]);
    assert_eq!(at(text, &vars[1].span), "b[j][0:4]");
    assert!(d.clauses.is_empty());
    assert_err(
        "cache",
        "`cache` requires an argument in parentheses",
        "cache",
        Some("cache(a[lower:length], ...)"),
    );
    assert_err(
        "cache()",
        "empty argument list in `cache`",
        "()",
        Some("cache(var-list)"),
    );
    assert_err(
        "cache(a) async",
        "the `cache` directive takes no clauses, found `async`",
        "async",
        None,
    );
}

#[test]
fn wait_directive() {
    assert_eq!(ok("wait").kind, DirectiveKind::Wait(None));
    let text = "wait(1, q+2) async(3)";
    let d = ok(text);
    let DirectiveKind::Wait(Some(list)) = &d.kind else {
        panic!("{d:?}")
    };
    assert_eq!(list.iter().map(expr_text).collect::<Vec<_>>(), ["1", "q+2"]);
    assert_eq!(at(text, &list[1].span), "q+2");
    assert!(matches!(&d.clauses[0].kind, ClauseKind::Async(Some(e)) if e.text == "3"));
    assert_eq!(d.to_string(), "wait(1, q+2) async(3)");
    assert_err(
        "wait()",
        "empty argument list in `wait`",
        "()",
        Some("wait(int-expr-list)"),
    );
    assert_err(
        "wait(1) if(x)",
        "clause `if` is not allowed on the `wait` directive",
        "if(x)",
        Some("`wait` takes `async`"),
    );
}

#[test]
fn routine_directive() {
    assert_eq!(ok("routine seq").kind, DirectiveKind::Routine(None));
    let text = "routine(saxpy) vector bind(\"saxpy_dev\") nohost";
    let d = ok(text);
    let DirectiveKind::Routine(Some(name)) = &d.kind else {
        panic!("{d:?}")
    };
    assert_eq!(name.name, "saxpy");
    assert_eq!(at(text, &name.span), "saxpy");
    assert_eq!(d.clauses[0].kind, ClauseKind::Vector(None));
    let ClauseKind::Bind(BindName::String { value, span }) = &d.clauses[1].kind else {
        panic!()
    };
    assert_eq!(value, "saxpy_dev");
    assert_eq!(at(text, span), "\"saxpy_dev\"");
    assert_eq!(d.clauses[2].kind, ClauseKind::NoHost);
    let d = ok("routine gang bind(dev_f)");
    assert_eq!(d.clauses[0].kind, ClauseKind::Gang(GangArgs::default()));
    assert!(
        matches!(&d.clauses[1].kind, ClauseKind::Bind(BindName::Identifier { name, .. }) if name == "dev_f")
    );
    assert_eq!(
        ok("routine worker").clauses[0].kind,
        ClauseKind::Worker(None)
    );
    assert_err(
        "routine(a, b) seq",
        "expected a function name in `routine(name)`",
        "a, b",
        None,
    );
    assert_err(
        "routine() seq",
        "empty argument list in `routine`",
        "()",
        Some("routine(name)"),
    );
    assert_err(
        "routine bind(1+2)",
        "expected an identifier or a string literal in `bind`",
        "1+2",
        Some("bind(name)"),
    );
}

#[test]
fn the_brief_example() {
    let text = "parallel loop gang vector_length(128) copy(a[0:n][0:m], b) reduction(+:sum) \
                device_type(nvidia) num_workers(4)";
    let d = ok(text);
    assert_eq!(d.kind, DirectiveKind::ParallelLoop);
    assert_eq!(at(text, &d.span), "parallel loop");
    let kinds: Vec<&ClauseKind> = d.clauses.iter().map(|c| &c.kind).collect();
    assert_eq!(kinds.len(), 5);
    assert_eq!(kinds[0], &ClauseKind::Gang(GangArgs::default()));
    assert!(matches!(kinds[1], ClauseKind::VectorLength(e) if e.text == "128"));
    let ClauseKind::Data(DataClause::Copy, vars) = kinds[2] else {
        panic!("{:?}", kinds[2])
    };
    assert_eq!(vars.len(), 2);
    assert_eq!(vars[0].base.text, "a");
    assert_eq!(
        vars[0].sections,
        vec![
            Section::Range {
                lower: Some(ExprSrc {
                    text: "0".into(),
                    span: 45..46
                }),
                length: Some(ExprSrc {
                    text: "n".into(),
                    span: 47..48
                }),
                span: 44..49,
            },
            Section::Range {
                lower: Some(ExprSrc {
                    text: "0".into(),
                    span: 50..51
                }),
                length: Some(ExprSrc {
                    text: "m".into(),
                    span: 52..53
                }),
                span: 49..54,
            },
        ]
    );
    assert_eq!(at(text, &vars[0].span), "a[0:n][0:m]");
    assert_eq!(vars[1].base.text, "b");
    assert!(vars[1].sections.is_empty());
    let ClauseKind::Reduction { op, op_span, vars } = kinds[3] else {
        panic!()
    };
    assert_eq!(*op, ReductionOp::Add);
    assert_eq!(at(text, op_span), "+");
    assert_eq!(vars_text(vars), ["sum"]);
    assert!(matches!(kinds[4], ClauseKind::NumWorkers(e) if e.text == "4"));
    let spans: Vec<&str> = d.clauses.iter().map(|c| at(text, &c.span)).collect();
    assert_eq!(
        spans,
        [
            "gang",
            "vector_length(128)",
            "copy(a[0:n][0:m], b)",
            "reduction(+:sum)",
            "num_workers(4)"
        ]
    );
    assert_eq!(d.clauses[3].device_types, None);
    assert_eq!(
        d.clauses[4].device_types,
        Some(vec![DeviceTypeName::Named("nvidia".into())])
    );
    assert_eq!(
        d.to_string(),
        "parallel loop gang vector_length(128) copy(a[0:n][0:m], b) reduction(+:sum) \
         device_type(nvidia) num_workers(4)"
    );
}

// ------------------------------------------------------------------------ clauses

#[test]
fn if_async_wait_and_sizes() {
    let ClauseKind::If(e) = only_clause("parallel if(n > 100 && ok)") else {
        panic!()
    };
    assert_eq!(e.text, "n > 100 && ok");
    assert_eq!(e.span, 12..25);
    assert_eq!(only_clause("kernels async"), ClauseKind::Async(None));
    let ClauseKind::Async(Some(e)) = only_clause("parallel async(q[1])") else {
        panic!()
    };
    assert_eq!(e.text, "q[1]");
    assert_eq!(only_clause("parallel wait"), ClauseKind::Wait(None));
    let ClauseKind::Wait(Some(list)) = only_clause("parallel wait(1, f(2, 3), 4)") else {
        panic!()
    };
    assert_eq!(
        list.iter().map(expr_text).collect::<Vec<_>>(),
        ["1", "f(2, 3)", "4"]
    );
    let ClauseKind::NumGangs(e) = only_clause("parallel num_gangs(n/2)") else {
        panic!()
    };
    assert_eq!(e.text, "n/2");
    let ClauseKind::NumWorkers(e) = only_clause("parallel num_workers(8)") else {
        panic!()
    };
    assert_eq!(e.text, "8");
    let ClauseKind::VectorLength(e) = only_clause("parallel vector_length(VL)") else {
        panic!()
    };
    assert_eq!(e.text, "VL");
}

#[test]
fn reduction_operators() {
    let ops = [
        ("+", ReductionOp::Add),
        ("*", ReductionOp::Mul),
        ("max", ReductionOp::Max),
        ("min", ReductionOp::Min),
        ("&", ReductionOp::BitAnd),
        ("|", ReductionOp::BitOr),
        ("^", ReductionOp::BitXor),
        ("&&", ReductionOp::And),
        ("||", ReductionOp::Or),
    ];
    for (spelling, want) in ops {
        let text = format!("loop reduction({spelling}:x, y)");
        let d = ok(&text);
        let ClauseKind::Reduction { op, op_span, vars } = &d.clauses[0].kind else {
            panic!()
        };
        assert_eq!(*op, want);
        assert_eq!(&text[op_span.clone()], spelling);
        assert_eq!(vars_text(vars), ["x", "y"]);
        assert_eq!(d.to_string(), format!("loop reduction({spelling}:x, y)"));
    }
    // `-` is the older spelling of a sum reduction (gcc and nvc accept it).
    assert!(matches!(ok("loop reduction(-:x)").clauses[0].kind, ClauseKind::Reduction { op: ReductionOp::Add, .. }));
    assert_err(
        "loop reduction(maxx:x)",
        "unknown reduction operator `maxx`",
        "maxx",
        Some("did you mean `max`?"),
    );
    assert_err(
        "loop reduction(x)",
        "expected `operator:` in `reduction`",
        "x",
        Some("reduction(+:sum)"),
    );
    assert_err(
        "loop reduction(:x)",
        "missing reduction operator before `:`",
        ":",
        Some("max min"),
    );
    assert_err(
        "loop reduction(+:)",
        "empty argument list in `reduction`",
        ":)",
        Some("var-list"),
    );
}

#[test]
fn data_clauses_and_abbreviations() {
    let cases = [
        ("copy", DataClause::Copy),
        ("copyin", DataClause::CopyIn),
        ("copyout", DataClause::CopyOut),
        ("create", DataClause::Create),
        ("present_or_copy", DataClause::PresentOrCopy),
        ("pcopy", DataClause::PresentOrCopy),
        ("present_or_copyin", DataClause::PresentOrCopyIn),
        ("pcopyin", DataClause::PresentOrCopyIn),
        ("present_or_copyout", DataClause::PresentOrCopyOut),
        ("pcopyout", DataClause::PresentOrCopyOut),
        ("present_or_create", DataClause::PresentOrCreate),
        ("pcreate", DataClause::PresentOrCreate),
        ("present", DataClause::Present),
        ("deviceptr", DataClause::DevicePtr),
    ];
    for (spelling, want) in cases {
        let text = format!("data {spelling}(a, b[0:n])");
        let d = ok(&text);
        let c = &d.clauses[0];
        assert_eq!(c.spelling, spelling);
        let ClauseKind::Data(which, vars) = &c.kind else {
            panic!()
        };
        assert_eq!(*which, want);
        assert_eq!(vars_text(vars), ["a", "b[0:n]"]);
        assert_eq!(d.to_string(), format!("data {}(a, b[0:n])", want.as_str()));
        assert_eq!(c.name(), ClauseName::Data(want));
    }
    let d = ok("exit data delete(a) copyout(b)");
    assert!(
        matches!(&d.clauses[0].kind, ClauseKind::Data(DataClause::Delete, v) if v[0].base.text == "a")
    );
    let d = ok("declare device_resident(t) link(g)");
    assert!(matches!(
        &d.clauses[0].kind,
        ClauseKind::Data(DataClause::DeviceResident, _)
    ));
    assert!(matches!(
        &d.clauses[1].kind,
        ClauseKind::Data(DataClause::Link, _)
    ));
    assert_eq!(ok("enter data pcopyin(a) pcreate(b)").clauses.len(), 2);
}

#[test]
fn private_firstprivate_default_collapse() {
    let d = ok("parallel private(i, tmp[0:4]) firstprivate(n) default(none)");
    assert_eq!(d.clauses[0].kind, {
        let ClauseKind::Private(v) = &d.clauses[0].kind else {
            panic!()
        };
        assert_eq!(vars_text(v), ["i", "tmp[0:4]"]);
        d.clauses[0].kind.clone()
    });
    let ClauseKind::FirstPrivate(v) = &d.clauses[1].kind else {
        panic!()
    };
    assert_eq!(vars_text(v), ["n"]);
    assert_eq!(d.clauses[2].kind, ClauseKind::DefaultNone);
    let ClauseKind::Collapse(e) = only_clause("loop collapse(2)") else {
        panic!()
    };
    assert_eq!(e.text, "2");
    assert_err(
        "kernels default(present)",
        "`default(present)` is not OpenACC 2.0: the only form is `default(none)`",
        "present",
        Some("OpenACC 2.5"),
    );
    assert_err(
        "parallel default(shared)",
        "`default(shared)` is not OpenACC 2.0: the only form is `default(none)`",
        "shared",
        Some("default(none)"),
    );
}

#[test]
fn gang_worker_vector_forms() {
    let g = |text: &str| match only_clause(text) {
        ClauseKind::Gang(a) => a,
        other => panic!("{other:?}"),
    };
    assert_eq!(g("loop gang"), GangArgs::default());
    let a = g("loop gang(n)");
    assert_eq!(a.num.map(|e| e.text), Some("n".into()));
    assert_eq!(a.static_, None);
    let a = g("loop gang(num:n+1)");
    assert_eq!(a.num.map(|e| e.text), Some("n+1".into()));
    let a = g("loop gang(static:4)");
    assert_eq!(a.num, None);
    assert!(matches!(a.static_, Some(GangStatic::Chunk(e)) if e.text == "4"));
    let text = "loop gang(static:*)";
    let a = g(text);
    assert!(matches!(&a.static_, Some(GangStatic::Any(s)) if at(text, s) == "*"));
    let a = g("loop gang(num:8, static:c)");
    assert_eq!(a.num.as_ref().map(|e| e.text.as_str()), Some("8"));
    assert!(matches!(&a.static_, Some(GangStatic::Chunk(e)) if e.text == "c"));
    let a = g("loop gang(8, static:*)");
    assert_eq!(a.num.as_ref().map(|e| e.text.as_str()), Some("8"));
    assert_eq!(
        ok("loop gang(8, static:*)").to_string(),
        "loop gang(num:8, static:*)"
    );
    // `num` is an ordinary variable when no `:` follows.
    assert_eq!(g("loop gang(num)").num.map(|e| e.text), Some("num".into()));

    assert_eq!(only_clause("loop worker"), ClauseKind::Worker(None));
    assert!(matches!(only_clause("loop worker(4)"), ClauseKind::Worker(Some(e)) if e.text == "4"));
    assert!(
        matches!(only_clause("loop worker(num:w)"), ClauseKind::Worker(Some(e)) if e.text == "w")
    );
    assert_eq!(only_clause("loop vector"), ClauseKind::Vector(None));
    assert!(
        matches!(only_clause("loop vector(32)"), ClauseKind::Vector(Some(e)) if e.text == "32")
    );
    assert!(
        matches!(only_clause("kernels loop vector(length:v*2)"), ClauseKind::Vector(Some(e)) if e.text == "v*2")
    );

    assert_err(
        "loop gang(num:1, 2)",
        "duplicate `num` argument in `gang`",
        "2",
        Some("one `[num:]int-expr`"),
    );
    assert_err(
        "loop gang(static:1, static:2)",
        "duplicate `static:` argument in `gang`",
        "static:2",
        None,
    );
    assert_err(
        "loop gang(static:)",
        "expected a chunk size or `*` after `static:`",
        ")",
        None,
    );
    assert_err(
        "loop gang()",
        "empty argument list in `gang`",
        "()",
        Some("gang("),
    );
    assert_err(
        "loop worker(length:4)",
        "unknown argument keyword `length:` in `worker`",
        "length:",
        Some("worker(num:int-expr)"),
    );
    assert_err(
        "loop vector(1, 2)",
        "`vector` takes one argument, found a list",
        ", 2",
        Some("vector(int-expr)"),
    );
}

#[test]
fn seq_auto_independent_tile() {
    assert_eq!(only_clause("loop seq"), ClauseKind::Seq);
    assert_eq!(only_clause("loop auto"), ClauseKind::Auto);
    assert_eq!(only_clause("loop independent"), ClauseKind::Independent);
    let text = "loop tile(8, *, T)";
    let ClauseKind::Tile(sizes) = only_clause(text) else {
        panic!()
    };
    assert_eq!(sizes.len(), 3);
    assert!(matches!(&sizes[0], TileSize::Size(e) if e.text == "8"));
    assert!(matches!(&sizes[1], TileSize::Any(s) if *s == (13..14)));
    assert!(matches!(&sizes[2], TileSize::Size(e) if e.text == "T"));
    assert_eq!(ok(text).to_string(), "loop tile(8, *, T)");
    assert_err(
        "loop seq(1)",
        "`seq` takes no arguments",
        "(1)",
        Some("write `seq`"),
    );
    assert_err(
        "loop independent()",
        "`independent` takes no arguments",
        "()",
        Some("independent"),
    );
    assert_err(
        "loop tile(4,)",
        "empty item in the list of `tile`",
        ")",
        Some("a tile size"),
    );
}

#[test]
fn update_host_data_clauses() {
    let d = ok("update host(a[0:n]) self(b) local(c) device(d) if(go) async(1) wait(2)");
    let spellings: Vec<&str> = d.clauses.iter().map(|c| c.spelling).collect();
    assert_eq!(
        spellings,
        ["host", "self", "local", "device", "if", "async", "wait"]
    );
    assert!(
        matches!(&d.clauses[0].kind, ClauseKind::Host(HostSpelling::Host, v) if vars_text(v) == ["a[0:n]"])
    );
    assert!(
        matches!(&d.clauses[1].kind, ClauseKind::Host(HostSpelling::SelfClause, v) if vars_text(v) == ["b"])
    );
    assert!(matches!(
        &d.clauses[2].kind,
        ClauseKind::Host(HostSpelling::Local, _)
    ));
    assert!(matches!(&d.clauses[3].kind, ClauseKind::Device(v) if vars_text(v) == ["d"]));
    assert_eq!(
        d.to_string(),
        "update host(a[0:n]) self(b) local(c) device(d) if(go) async(1) wait(2)"
    );
    let d = ok("host_data use_device(p, q)");
    assert!(matches!(&d.clauses[0].kind, ClauseKind::UseDevice(v) if vars_text(v) == ["p", "q"]));
}

// ------------------------------------------------------------------------ device_type (§2.4)

#[test]
fn device_type_groups() {
    let text = "parallel num_gangs(1) device_type(nvidia, radeon) num_gangs(2) async \
                dtype(*) num_gangs(3)";
    let d = ok(text);
    let groups: Vec<Option<Vec<DeviceTypeName>>> =
        d.clauses.iter().map(|c| c.device_types.clone()).collect();
    let nv = Some(vec![
        DeviceTypeName::Named("nvidia".into()),
        DeviceTypeName::Named("radeon".into()),
    ]);
    assert_eq!(
        groups,
        vec![None, nv.clone(), nv, Some(vec![DeviceTypeName::Any])]
    );
    assert_eq!(
        d.clauses.len(),
        4,
        "device_type clauses are not in the list"
    );
    assert_eq!(
        d.to_string(),
        "parallel num_gangs(1) device_type(nvidia, radeon) num_gangs(2) async device_type(*) num_gangs(3)"
    );
    let d = ok("loop dtype(nvidia) gang vector(128) device_type(host) seq");
    assert_eq!(d.clauses[2].kind, ClauseKind::Seq);
    assert_eq!(
        d.clauses[2].device_types,
        Some(vec![DeviceTypeName::Named("host".into())])
    );
    let d = ok("routine device_type(nvidia) vector device_type(*) seq");
    assert_eq!(d.clauses.len(), 2);
}

#[test]
fn device_type_restrictions() {
    assert_err(
        "parallel device_type(nvidia) copy(a)",
        "`copy` may not follow a `device_type` clause on `parallel`",
        "copy(a)",
        Some("only `async`, `wait`, `num_gangs`, `num_workers` and `vector_length` may follow"),
    );
    assert_err(
        "kernels dtype(*) if(x)",
        "`if` may not follow a `device_type` clause on `kernels`",
        "if(x)",
        Some("only `async` and `wait`"),
    );
    assert_err(
        "loop device_type(nvidia) private(x)",
        "`private` may not follow a `device_type` clause on `loop`",
        "private(x)",
        Some("`collapse`, `gang`, `worker`, `vector`, `seq`, `auto`, `tile` and `independent`"),
    );
    assert_err(
        "routine device_type(nvidia) nohost",
        "`nohost` may not follow a `device_type` clause on `routine`",
        "nohost",
        Some("`gang`, `worker`, `vector`, `seq` and `bind`"),
    );
    // The combined construct takes the union of both lists (§2.9).
    let d = ok("parallel loop device_type(nvidia) num_gangs(4) gang worker");
    assert_eq!(d.clauses.len(), 3);
    assert_err(
        "data device_type(nvidia) copy(a)",
        "clause `device_type` is not allowed on the `data` directive",
        "device_type(nvidia)",
        Some("`data` takes `if`, `copy`"),
    );
    assert_err(
        "loop device_type()",
        "empty argument list in `device_type`",
        "()",
        Some("device_type("),
    );
    assert_err(
        "loop device_type(nvidia, *)",
        "`*` must be the only argument of `device_type`",
        "*",
        None,
    );
    assert_err(
        "loop dtype(1)",
        "expected a device type name or `*` in `dtype`",
        "1",
        None,
    );
    assert_err(
        "loop device_type gang",
        "`device_type` requires an argument in parentheses",
        "device_type",
        Some("device_type(nvidia)"),
    );
}

// ------------------------------------------------------------------------ var-lists (§2.6.5)

#[test]
fn subarray_forms() {
    let text = "data copy(a[lo:len], b[:n], c[2:], d[:], e[i], f[0:n][j][k:2], g[i][0:n])";
    let d = ok(text);
    let ClauseKind::Data(_, vars) = &d.clauses[0].kind else {
        panic!()
    };
    let range = |s: &Section| match s {
        Section::Range {
            lower,
            length,
            span,
        } => (
            lower.as_ref().map(|e| e.text.clone()),
            length.as_ref().map(|e| e.text.clone()),
            at(text, span).to_string(),
        ),
        Section::Index(e) => (Some(format!("index {}", e.text)), None, String::new()),
    };
    assert_eq!(
        range(&vars[0].sections[0]),
        (Some("lo".into()), Some("len".into()), "[lo:len]".into())
    );
    assert_eq!(
        range(&vars[1].sections[0]),
        (None, Some("n".into()), "[:n]".into())
    );
    assert_eq!(
        range(&vars[2].sections[0]),
        (Some("2".into()), None, "[2:]".into())
    );
    assert_eq!(range(&vars[3].sections[0]), (None, None, "[:]".into()));
    assert!(matches!(&vars[4].sections[..], [Section::Index(e)] if e.text == "i"));
    assert!(!vars[4].is_subarray());
    assert_eq!(vars[5].sections.len(), 3);
    assert!(matches!(&vars[5].sections[1], Section::Index(e) if e.text == "j"));
    assert_eq!(
        range(&vars[5].sections[2]),
        (Some("k".into()), Some("2".into()), "[k:2]".into())
    );
    assert!(vars[6].is_subarray());
    assert_eq!(
        vars_text(vars),
        [
            "a[lo:len]",
            "b[:n]",
            "c[2:]",
            "d[:]",
            "e[i]",
            "f[0:n][j][k:2]",
            "g[i][0:n]"
        ]
    );
}

#[test]
fn member_and_parenthesized_bases() {
    let text = "data copy(s.arr[0:n], p->x[1:m], (*p)[0:n], s.in.v, q->a.b[:4], a[i].x)";
    let d = ok(text);
    let ClauseKind::Data(_, vars) = &d.clauses[0].kind else {
        panic!()
    };
    let bases: Vec<&str> = vars.iter().map(|v| v.base.text.as_str()).collect();
    assert_eq!(
        bases,
        ["s.arr", "p->x", "(*p)", "s.in.v", "q->a.b", "a[i].x"]
    );
    assert_eq!(at(text, &vars[1].base.span), "p->x");
    assert_eq!(vars[2].sections.len(), 1);
    assert!(
        vars[5].sections.is_empty(),
        "an element's member is a plain lvalue"
    );
}

#[test]
fn colons_and_commas_inside_subscripts() {
    let text = "data copy(a[(x?1:2):n], b[x?1:2:n], c[f(i, j):g(k, l)], d[m[0]:m[1]])";
    let d = ok(text);
    let ClauseKind::Data(_, vars) = &d.clauses[0].kind else {
        panic!()
    };
    assert_eq!(vars.len(), 4);
    let parts = |v: &VarRef| match &v.sections[0] {
        Section::Range { lower, length, .. } => (
            lower.as_ref().map(|e| e.text.clone()).unwrap_or_default(),
            length.as_ref().map(|e| e.text.clone()).unwrap_or_default(),
        ),
        Section::Index(e) => (e.text.clone(), "<index>".into()),
    };
    assert_eq!(parts(&vars[0]), ("(x?1:2)".into(), "n".into()));
    assert_eq!(parts(&vars[1]), ("x?1:2".into(), "n".into()));
    assert_eq!(parts(&vars[2]), ("f(i, j)".into(), "g(k, l)".into()));
    assert_eq!(parts(&vars[3]), ("m[0]".into(), "m[1]".into()));
    // A conditional with no section colon is an index.
    let d = ok("cache(a[c?1:2])");
    let DirectiveKind::Cache(vars) = &d.kind else {
        panic!()
    };
    assert!(matches!(&vars[0].sections[0], Section::Index(e) if e.text == "c?1:2"));
}

#[test]
fn lists_split_only_at_top_level_commas() {
    let d = ok(r#"parallel wait(f(1, 2), g("a,b)"), ',', h[1, 2], (3, 4), s{5, 6})"#);
    let ClauseKind::Wait(Some(list)) = &d.clauses[0].kind else {
        panic!()
    };
    let texts: Vec<&str> = list.iter().map(expr_text).collect();
    assert_eq!(
        texts,
        [
            "f(1, 2)",
            r#"g("a,b)")"#,
            "','",
            "h[1, 2]",
            "(3, 4)",
            "s{5, 6}"
        ]
    );
}

#[test]
fn var_list_errors() {
    assert_err(
        "data copy()",
        "empty argument list in `copy`",
        "()",
        Some("copy(var-list)"),
    );
    assert_err(
        "data copy(a,,b)",
        "empty item in the list of `copy`",
        ",",
        Some("var-list"),
    );
    assert_err(
        "data copy(a,)",
        "empty item in the list of `copy`",
        ")",
        Some("var-list"),
    );
    assert_err(
        "data copy(a+b)",
        "expected a variable, member or array name, found `a+b`",
        "+",
        Some("§2.6.5"),
    );
    assert_err(
        "data copy(1)",
        "expected a variable, member or array name, found `1`",
        "1",
        Some("subarrays"),
    );
    assert_err(
        "data copy([0:n])",
        "expected a variable name before `[`",
        "[",
        Some("name[lower:length]"),
    );
    assert_err(
        "data copy(a[])",
        "empty subscript `[]`",
        "[]",
        Some("[lower:length]"),
    );
    assert_err(
        "data copy(a[0:n:2])",
        "a subarray has the form `[lower:length]`; found a second `:`",
        ":",
        Some("no stride"),
    );
    assert_err(
        "data copy(a[0:n].x)",
        "a member of a subarray may not be specified",
        ".x",
        Some("§2.6.5"),
    );
    assert_err(
        "data copy(a[0:n)",
        "mismatched `)`: expected `]`",
        ")",
        Some("close the `[` before this `)`"),
    );
    assert_err("data copy(a", "unclosed `(`", "(", Some("add `)`"));
    assert_err("data copy(a))", "expected a clause, found `)`", ")", None);
    assert_err(
        "data copy",
        "`copy` requires an argument in parentheses",
        "copy",
        Some("copy(var-list)"),
    );
}

#[test]
fn trailing_tokens_after_subscripts() {
    let d = ok("data copy(a[i].x, b[j]->y[2], c[k][1])");
    let ClauseKind::Data(_, vars) = &d.clauses[0].kind else {
        panic!()
    };
    assert_eq!(vars[0].base.text, "a[i].x");
    assert_eq!(vars[1].base.text, "b[j]->y[2]");
    assert!(vars[1].sections.is_empty());
    assert_eq!(vars[2].base.text, "c");
    assert_eq!(vars[2].sections.len(), 2);
    assert_err(
        "data copy(a[i]+1)",
        "expected a variable, member or array name, found `a[i]+1`",
        "+",
        Some("§2.6.5"),
    );
    assert_err(
        "data copy(s.)",
        "expected a variable, member or array name, found `s.`",
        ".",
        Some("§2.6.5"),
    );
    assert_err(
        "data copy(f(x)[0:n])",
        "expected a variable, member or array name, found `f(x)`",
        "(",
        Some("§2.6.5"),
    );
}

#[test]
fn stray_colons_in_expressions() {
    assert_err(
        "loop worker(num:w:)",
        "unexpected `:` in int-expr",
        ":",
        None,
    );
    assert_err(
        "parallel num_gangs(a:b)",
        "unexpected `:` in int-expr",
        ":",
        None,
    );
    assert_err(
        "parallel wait(1, x:y)",
        "unexpected `:` in int-expr-list",
        ":",
        None,
    );
    assert_err("loop tile(2:3)", "unexpected `:` in a tile size", ":", None);
    // A conditional is fine.
    let ClauseKind::If(e) = only_clause("parallel if(a ? b : c)") else {
        panic!()
    };
    assert_eq!(e.text, "a ? b : c");
}

#[test]
fn clause_not_allowed_wins_over_argument_errors() {
    assert_err(
        "loop num_gangs",
        "clause `num_gangs` is not allowed on the `loop` directive",
        "num_gangs",
        Some("`loop` takes"),
    );
    assert_err(
        "data device_type()",
        "clause `device_type` is not allowed on the `data` directive",
        "device_type",
        Some("`data` takes"),
    );
}

#[test]
fn declare_takes_whole_variables() {
    assert_err(
        "declare create(a[2:n])",
        "subarrays and array elements are not allowed in `declare`: `a[2:n]`",
        "a[2:n]",
        Some("name the whole variable `a` (§2.10)"),
    );
    assert_eq!(ok("declare create(a[0:n])").clauses.len(), 1);
    assert_err(
        "declare device_resident(t, u[2])",
        "subarrays and array elements are not allowed in `declare`: `u[2]`",
        "u[2]",
        Some("§2.10"),
    );
    let d = ok("declare copyin(s.v, t)");
    assert_eq!(d.clauses.len(), 1);
}

// ------------------------------------------------------------------------ lexing

#[test]
fn continuations_comments_and_optional_commas() {
    let text = "parallel copy(a), copyin(b) \\\n   copyout(c[0:\\\nn]) /* note */ create(d) // end";
    let d = ok(text);
    assert_eq!(d.clauses.len(), 4);
    let ClauseKind::Data(DataClause::CopyOut, vars) = &d.clauses[2].kind else {
        panic!()
    };
    let Section::Range {
        length: Some(len), ..
    } = &vars[0].sections[0]
    else {
        panic!()
    };
    assert_eq!(len.text, "n");
    assert_eq!(
        d.to_string(),
        "parallel copy(a) copyin(b) copyout(c[0:n]) create(d)"
    );
    // A continuation inside an expression becomes a space in its text.
    let d = ok("parallel if(a &&\\\nb)");
    let ClauseKind::If(e) = &d.clauses[0].kind else {
        panic!()
    };
    assert_eq!(e.text, "a && b");
    assert_eq!(e.span, 12..19);
    // Same directive with and without commas.
    assert_eq!(
        ok("data copy(a), copyin(b)").to_string(),
        ok("data copy(a) copyin(b)").to_string()
    );
}

#[test]
fn lexical_errors() {
    assert_err(
        "parallel if(a @ b)",
        "unexpected character `@` in directive",
        "@",
        None,
    );
    assert_err(
        "parallel if(é)",
        "unexpected character `é` in directive",
        "é",
        None,
    );
    assert_err(
        "routine bind(\"abc)",
        "unterminated string literal",
        "\"abc)",
        None,
    );
    assert_err(
        "parallel if(c == 'x)",
        "unterminated character literal",
        "'x)",
        None,
    );
    assert_err(
        "parallel \\ copy(a)",
        "stray `\\` in directive",
        "\\",
        Some("end a line"),
    );
    assert_err("parallel /* copy(a)", "unterminated comment", "/*", None);
    assert_err(
        "parallel, copy(a)",
        "expected a clause, found `,`",
        ",",
        None,
    );
    assert_err(
        "parallel copy(a),",
        "expected a clause after `,`",
        ",",
        None,
    );
}

// ------------------------------------------------------------------------ names and placement

#[test]
fn unknown_names_get_suggestions() {
    assert_err(
        "paralel loop",
        "unknown directive `paralel`",
        "paralel",
        Some("did you mean `parallel`?"),
    );
    assert_err(
        "hostdata use_device(a)",
        "unknown directive `hostdata`",
        "hostdata",
        Some("did you mean `host_data`?"),
    );
    assert_err(
        "PARALLEL",
        "unknown directive `PARALLEL`",
        "PARALLEL",
        Some("did you mean `parallel`? (names are case sensitive)"),
    );
    assert_err(
        "frobnicate",
        "unknown directive `frobnicate`",
        "frobnicate",
        Some("directives: parallel, kernels, data, enter data, exit data, host_data"),
    );
    assert_err(
        "loop gnag",
        "unknown clause `gnag` on `loop`",
        "gnag",
        Some("did you mean `gang`?"),
    );
    assert_err(
        "parallel num_gang(4)",
        "unknown clause `num_gang` on `parallel`",
        "num_gang",
        Some("did you mean `num_gangs`?"),
    );
    assert_err(
        "data pcopyinn(a)",
        "unknown clause `pcopyinn` on `data`",
        "pcopyinn",
        Some("did you mean `pcopyin`?"),
    );
    assert_err(
        "parallel vectorlength(4)",
        "unknown clause `vectorlength` on `parallel`",
        "vectorlength",
        Some("did you mean `vector_length`?"),
    );
    let e = err("parallel zzzzzz(1)");
    assert_eq!(e.message, "unknown clause `zzzzzz` on `parallel`");
    assert_eq!(e.help, None);
    assert_err(
        "enter copyin(a)",
        "expected `data` after `enter`, found `copyin`",
        "copyin",
        Some("`enter data`"),
    );
    assert_err(
        "exit",
        "expected `data` after `exit`, found the end of the directive",
        "",
        Some("`exit data`"),
    );
    assert_err(
        "",
        "expected a directive name after `#pragma acc`",
        "",
        Some("directives:"),
    );
    assert_err("(x)", "expected a directive name, found `(`", "(", None);
}

#[test]
fn clauses_not_allowed_on_directive() {
    assert_err(
        "loop num_gangs(4)",
        "clause `num_gangs` is not allowed on the `loop` directive",
        "num_gangs(4)",
        Some("`loop` takes `collapse`, `gang`"),
    );
    assert_err(
        "data collapse(2) copy(a)",
        "clause `collapse` is not allowed on the `data` directive",
        "collapse(2)",
        Some("`data` takes `if`, `copy`"),
    );
    assert_err(
        "kernels num_gangs(2)",
        "clause `num_gangs` is not allowed on the `kernels` directive",
        "num_gangs(2)",
        Some("`kernels` takes"),
    );
    assert_err(
        "kernels reduction(+:x)",
        "clause `reduction` is not allowed on the `kernels` directive",
        "reduction(+:x)",
        Some("takes"),
    );
    assert_err(
        "parallel delete(a)",
        "clause `delete` is not allowed on the `parallel` directive",
        "delete(a)",
        Some("takes"),
    );
    assert_err(
        "enter data copyout(a)",
        "clause `copyout` is not allowed on the `enter data` directive",
        "copyout(a)",
        Some("`present_or_create`"),
    );
    assert_err(
        "exit data pcopyin(a)",
        "clause `pcopyin` is not allowed on the `exit data` directive",
        "pcopyin(a)",
        Some("`copyout` and `delete`"),
    );
    assert_err(
        "host_data copy(a)",
        "clause `copy` is not allowed on the `host_data` directive",
        "copy(a)",
        Some("`use_device`"),
    );
    assert_err(
        "update copy(a)",
        "clause `copy` is not allowed on the `update` directive",
        "copy(a)",
        Some("`host`"),
    );
    assert_err(
        "declare if(x) create(a)",
        "clause `if` is not allowed on the `declare` directive",
        "if(x)",
        Some("`link`"),
    );
    assert_err(
        "routine async",
        "clause `async` is not allowed on the `routine` directive",
        "async",
        Some("`nohost`"),
    );
    assert_err(
        "parallel host(a)",
        "clause `host` is not allowed on the `parallel` directive",
        "host(a)",
        Some("takes"),
    );
    assert_err(
        "kernels loop num_workers(2)",
        "clause `num_workers` is not allowed on the `kernels loop` directive",
        "num_workers(2)",
        Some("takes"),
    );
    assert_err(
        "loop copy(a)",
        "clause `copy` is not allowed on the `loop` directive",
        "copy(a)",
        Some("takes"),
    );
    // The combined constructs take both lists (§2.9).
    let d = ok("kernels loop copy(a) independent collapse(2) async");
    assert_eq!(d.clauses.len(), 4);
    let d = ok("parallel loop num_gangs(2) firstprivate(x) private(y) tile(4) default(none)");
    assert_eq!(d.clauses.len(), 5);
}

// ------------------------------------------------------------------------ restrictions

#[test]
fn at_most_once() {
    assert_err(
        "parallel if(a) if(b)",
        "at most one `if` clause may appear on `parallel`",
        "if(b)",
        Some("remove this `if`"),
    );
    assert_err(
        "kernels default(none) default(none)",
        "at most one `default` clause may appear on `kernels`",
        "default(none)",
        Some("remove"),
    );
    let text = "loop collapse(2) gang collapse(3)";
    let e = err(text);
    assert_eq!(
        e.message,
        "at most one `collapse` clause may appear on `loop`"
    );
    assert_eq!(e.span, 22..33);
    assert_err(
        "loop device_type(nvidia) collapse(2) collapse(3)",
        "at most one `collapse` clause may appear on `loop` per `device_type`",
        "collapse(3)",
        Some("remove"),
    );
    assert_err(
        "parallel num_gangs(1) num_gangs(2)",
        "at most one `num_gangs` clause may appear on `parallel`",
        "num_gangs(2)",
        Some("remove"),
    );
    // One per device_type group is fine.
    let d = ok(
        "parallel num_gangs(1) device_type(nvidia) num_gangs(2) device_type(radeon) num_gangs(3)",
    );
    assert_eq!(d.clauses.len(), 3);
    // Data clauses may repeat (§2.1: clauses may be repeated unless otherwise specified).
    assert_eq!(
        ok("data copy(a) copy(b) copyin(c) copyin(d)").clauses.len(),
        4
    );
}

#[test]
fn required_clauses() {
    assert_err(
        "update",
        "`update` requires at least one `host`, `self` or `device` clause",
        "update",
        Some("§2.11.1"),
    );
    assert_err(
        "update if(x) async",
        "`update` requires at least one `host`, `self` or `device` clause",
        "update",
        Some("host(var-list)"),
    );
    assert_err(
        "enter data async(1)",
        "`enter data` requires at least one data clause",
        "enter data",
        Some("copyin(var-list)"),
    );
    assert_err(
        "exit data if(x)",
        "`exit data` requires at least one data clause",
        "exit data",
        Some("delete(var-list)"),
    );
    assert_err(
        "host_data",
        "`host_data` requires a `use_device` clause",
        "host_data",
        Some("§2.6.6"),
    );
    assert_err(
        "declare",
        "`declare` requires at least one data clause",
        "declare",
        Some("§2.10"),
    );
}

#[test]
fn seq_excludes_other_levels() {
    assert_err(
        "loop seq gang",
        "`gang` cannot be combined with `seq` on `loop`",
        "gang",
        Some("§2.7.5"),
    );
    assert_err(
        "loop vector(4) seq",
        "`seq` cannot be combined with `vector` on `loop`",
        "seq",
        Some("remove"),
    );
    assert_err(
        "parallel loop worker seq",
        "`seq` cannot be combined with `worker` on `parallel loop`",
        "seq",
        Some("remove"),
    );
    assert_err(
        "kernels loop seq auto",
        "`auto` cannot be combined with `seq` on `kernels loop`",
        "auto",
        Some("remove"),
    );
    // Different device_type groups: a device-specific choice replaces the general one.
    let d = ok("loop gang device_type(host) seq");
    assert_eq!(d.clauses.len(), 2);
    assert_eq!(ok("loop seq independent private(x)").clauses.len(), 3);
}

#[test]
fn routine_levels() {
    assert_err(
        "routine gang vector",
        "only one of `gang`, `worker`, `vector` and `seq` may appear on `routine`; found `gang` and `vector`",
        "vector",
        Some("§2.12.1.1"),
    );
    assert_err(
        "routine(f) seq worker",
        "only one of `gang`, `worker`, `vector` and `seq` may appear on `routine`; found `seq` and `worker`",
        "worker",
        Some("keep"),
    );
    assert_err(
        "routine gang(4)",
        "`gang` on `routine` takes no argument",
        "gang(4)",
        Some("write `routine gang`"),
    );
    assert_err(
        "routine vector(length:4)",
        "`vector` on `routine` takes no argument",
        "vector(length:4)",
        Some("routine vector"),
    );
    assert_eq!(
        ok("routine seq device_type(nvidia) vector").clauses.len(),
        2
    );
    assert_err(
        "routine bind(a) bind(b)",
        "at most one `bind` clause may appear on `routine`",
        "bind(b)",
        Some("remove"),
    );
}

#[test]
fn parallel_loop_argument_restrictions() {
    assert_err(
        "parallel loop gang(4)",
        "`gang` takes no gang count in a parallel region",
        "gang(4)",
        Some("num_gangs(n)"),
    );
    assert_err(
        "parallel loop worker(4)",
        "`worker` takes no argument in a parallel region",
        "worker(4)",
        Some("num_workers(n)"),
    );
    assert_err(
        "parallel loop vector(4)",
        "`vector` takes no argument in a parallel region",
        "vector(4)",
        Some("vector_length(n)"),
    );
    let d = ok("parallel loop gang(static:2) worker vector");
    assert_eq!(d.clauses.len(), 3);
    // In a kernels loop the arguments are allowed (§2.7.2).
    assert_eq!(
        ok("kernels loop gang(4) worker(2) vector(32)")
            .clauses
            .len(),
        3
    );
}

#[test]
fn single_expression_clauses_reject_lists_and_missing_args() {
    assert_err(
        "parallel num_gangs(1, 2)",
        "`num_gangs` takes one argument, found a list",
        ", 2",
        Some("num_gangs(int-expr)"),
    );
    assert_err(
        "parallel if()",
        "empty argument list in `if`",
        "()",
        Some("if(condition)"),
    );
    assert_err(
        "parallel if",
        "`if` requires an argument in parentheses",
        "if",
        Some("if(condition)"),
    );
    assert_err(
        "parallel num_workers",
        "`num_workers` requires an argument in parentheses",
        "num_workers",
        Some("num_workers(int-expr)"),
    );
    assert_err(
        "loop collapse()",
        "empty argument list in `collapse`",
        "()",
        Some("collapse(n)"),
    );
    assert_err(
        "parallel async()",
        "empty argument list in `async`",
        "()",
        Some("async(int-expr)"),
    );
}

// ------------------------------------------------------------------------ printing

const SAMPLES: &[&str] = &[
    "parallel loop gang vector_length(128) copy(a[0:n][0:m], b) reduction(+:sum) device_type(nvidia) num_workers(4)",
    "kernels loop pcopy(x[1:n-2]) pcopyin(s.v[:k]) independent gang(num:4, static:*) vector(length:64)",
    "data present_or_create(t[0:n]) if(use_gpu) deviceptr(d)",
    "enter data copyin(a[0:n]) create(b) async(2) wait(1, 3)",
    "exit data copyout(a[0:n]) delete(b) if(done)",
    "update self(a[i][0:m]) device(p->v[0:len]) async wait",
    "wait(q1, q2) async(q3)",
    "cache(tile[i-1:3][j])",
    "atomic capture",
    "routine(f) worker bind(\"f_dev\") dtype(radeon) seq",
    "declare create(g) device_resident(h) link(k)",
    "host_data use_device(p)",
    "loop collapse(2) private(t) reduction(max:m) tile(*, 8) device_type(*) auto",
    "parallel async(q) wait num_gangs(n) firstprivate(c) private(d) default(none) reduction(&&:ok)",
];

#[test]
fn display_round_trips() {
    for text in SAMPLES {
        let first = ok(text);
        let printed = first.to_string();
        let second = ok(&printed);
        assert_eq!(second.to_string(), printed, "round trip of `{text}`");
        assert_eq!(second.clauses.len(), first.clauses.len());
        assert_eq!(second.kind.name(), first.kind.name());
    }
    assert_eq!(
        ok("kernels loop pcopy(x[1:n-2])  dtype(nvidia)  gang").to_string(),
        "kernels loop present_or_copy(x[1:n-2]) device_type(nvidia) gang"
    );
}

// ------------------------------------------------------------------------ robustness

/// Every string of this file's inputs, truncated at every character, with every character
/// deleted, and with troublesome characters inserted everywhere: the parser returns, and every
/// span it gives is a valid range of the input.
#[test]
fn garbled_inputs_never_panic() {
    let mut inputs: Vec<String> = SAMPLES.iter().map(|s| s.to_string()).collect();
    inputs.extend(
        [
            "data copy(a[(x?1:2):n], b[x?1:2:n], c[f(i, j):g(k, l)], d[m[0]:m[1]])",
            r#"parallel wait(f(1, 2), g("a,b)"), ',', h[1, 2], (3, 4), s{5, 6})"#,
            "data copy(s.arr[0:n], p->x[1:m], (*p)[0:n], s.in.v, q->a.b[:4], a[i].x)",
            "parallel copy(a), copyin(b) \\\n   copyout(c[0:\\\nn]) /* note */ create(d) // end",
            "routine bind(\"a\\\"b\") seq",
            "loop gang(8, static:*) worker(num:w) vector(length:v)",
            "parallel if(é) copy(ü[0:1])",
        ]
        .map(String::from),
    );
    let inserts = [
        "(", ")", "[", "]", ":", ",", "?", "*", "\"", "'", "\\", "\\\n", "/*", "é", " ", "::", "->",
    ];
    let check = |s: &str| {
        let result = std::panic::catch_unwind(|| parse_directive(s));
        let Ok(result) = result else {
            panic!("panic on {s:?}")
        };
        let valid =
            |r: &Range<usize>| r.start <= r.end && r.end <= s.len() && s.get(r.clone()).is_some();
        match result {
            Ok(d) => {
                assert!(valid(&d.span), "{s:?}");
                for c in &d.clauses {
                    assert!(valid(&c.span), "{s:?}: {c:?}");
                }
                // Whatever parses prints to something that parses again.
                let printed = d.to_string();
                assert!(
                    parse_directive(&printed).is_ok(),
                    "{s:?} printed as {printed:?}"
                );
            }
            Err(e) => assert!(valid(&e.span), "{s:?}: {e:?}"),
        }
    };
    let mut count = 0;
    for input in &inputs {
        let boundaries: Vec<usize> = input
            .char_indices()
            .map(|(i, _)| i)
            .chain([input.len()])
            .collect();
        for &b in &boundaries {
            check(&input[..b]);
            check(&input[b..]);
            for ins in inserts {
                check(&format!("{}{ins}{}", &input[..b], &input[b..]));
                count += 1;
            }
        }
        for w in boundaries.windows(2) {
            check(&format!("{}{}", &input[..w[0]], &input[w[1]..]));
        }
    }
    assert!(count > 5000, "{count} garbled inputs");
}

/// §2.6: one data attribute per variable on a construct (issue 12): data clause pairs,
/// reduction with private/firstprivate, and the same clause twice are errors naming both
/// clauses; a data clause with a reduction, members of one struct, and private + firstprivate on
/// a combined construct are not.
#[test]
fn one_data_attribute_per_variable() {
    let text = "parallel loop copyin(a) copyout(a)";
    let e = err(text);
    assert_eq!(e.message, "`a` appears in `copyout` and in `copyin` on `parallel loop`: a variable may have only one data attribute on a construct (§2.6)");
    assert_eq!(at(text, &e.span), "a");
    assert_eq!(e.span.start, text.rfind('a').unwrap_or(0));
    assert_eq!(e.related.len(), 1);
    assert_eq!(e.related[0].0.start, text.find("(a)").unwrap_or(0) + 1);
    for bad in [
        "loop reduction(+:s) private(s)",
        "parallel reduction(+:s) firstprivate(s)",
        "data copy(a[0:n]) present(a[0:n])",
        "kernels copy(s.x) create(s.x)",
        "parallel private(t) firstprivate(t)",
        "parallel loop private(t, t)",
        "enter data copyin(p[0:n], p[0:n])",
        "declare create(g) copyin(g)",
    ] {
        assert!(err(bad).message.contains("only one data attribute"), "{bad}");
    }
    for good in [
        "parallel loop copy(sum) reduction(+:sum)",
        "parallel loop private(t) firstprivate(t)",
        "parallel copy(s.x) copyin(s.y)",
        "parallel copyin(a) copyout(b)",
        "parallel device_type(nvidia) num_gangs(2) device_type(host) num_gangs(1)",
        "update host(a[0:2]) host(a[4:2])",
    ] {
        ok(good);
    }
}
