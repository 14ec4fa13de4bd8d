//! Interpreter tests on hand-built IR (the lowering is tested separately). A small builder keeps
//! the programs readable; each statement carries the line number the observer test checks.

use std::sync::{Arc, Mutex};

use super::*;
use crate::diag::{FileId, Loc};
use crate::ir::*;

fn at(line: u32) -> Loc {
    Loc {
        file: FileId(0),
        line,
        col: 1,
    }
}

/// Program builder.
struct B {
    p: Program,
    int: TypeId,
    uint: TypeId,
    long: TypeId,
    ulong: TypeId,
    char_: TypeId,
    dbl: TypeId,
    flt: TypeId,
    void: TypeId,
    charp: TypeId,
    printf: Option<ExternId>,
}

/// Function builder.
struct F {
    name: String,
    ret: TypeId,
    params: Vec<LocalId>,
    locals: Vec<Local>,
}

impl F {
    fn local(&mut self, name: &str, ty: TypeId, storage: Storage) -> LocalId {
        self.locals.push(Local {
            role: LocalRole::Program,
            name: name.into(),
            ty,
            storage,
            loc: at(1),
            copy_of: None,
            declared_in: None,
        });
        LocalId(self.locals.len() as u32 - 1)
    }
    fn reg(&mut self, name: &str, ty: TypeId) -> LocalId {
        self.local(name, ty, Storage::Register)
    }
    fn param(&mut self, name: &str, ty: TypeId) -> LocalId {
        let l = self.reg(name, ty);
        self.params.push(l);
        l
    }
}

fn ex(kind: ExprKind, ty: TypeId, line: u32) -> Expr {
    Expr {
        kind,
        ty,
        loc: at(line),
    }
}
fn bx(e: Expr) -> Box<Expr> {
    Box::new(e)
}
fn st(kind: StmtKind, line: u32) -> Stmt {
    Stmt {
        kind,
        loc: at(line),
    }
}
fn es(e: Expr) -> Stmt {
    let line = e.loc.line;
    st(StmtKind::Expr(e), line)
}
fn block(v: Vec<Stmt>) -> Stmt {
    st(StmtKind::Block(v), 1)
}

impl B {
    fn new() -> B {
        let mut t = TypeTable::new();
        let int = t.int(IntType::INT);
        let uint = t.int(IntType::UINT);
        let long = t.int(IntType::LONG);
        let ulong = t.int(IntType::ULONG);
        let char_ = t.int(IntType::CHAR);
        let dbl = t.intern(Type::Float(FloatKind::F64));
        let flt = t.intern(Type::Float(FloatKind::F32));
        let void = t.void();
        let charp = t.pointer_to(char_);
        B {
            p: Program {
                types: t,
                ..Default::default()
            },
            int,
            uint,
            long,
            ulong,
            char_,
            dbl,
            flt,
            void,
            charp,
            printf: None,
        }
    }
    fn ptr(&mut self, t: TypeId) -> TypeId {
        self.p.types.pointer_to(t)
    }
    fn func_ty(&mut self, ret: TypeId, params: Vec<TypeId>, variadic: bool) -> TypeId {
        self.p.types.intern(Type::Function(FuncSig {
            ret,
            params,
            variadic,
            unprototyped: false,
        }))
    }
    fn f(&self, name: &str, ret: TypeId) -> F {
        F {
            name: name.into(),
            ret,
            params: Vec::new(),
            locals: Vec::new(),
        }
    }
    /// Add a function; returns its id (declare before use by reserving with `reserve`).
    fn add(&mut self, f: F, body: Vec<Stmt>) -> FuncId {
        let ptys: Vec<TypeId> = f.params.iter().map(|p| f.locals[p.0 as usize].ty).collect();
        let ty = self.func_ty(f.ret, ptys, false);
        let func = Function {
            name: f.name.clone(),
            ty,
            ret: f.ret,
            params: f.params,
            locals: f.locals,
            body: block(body),
            variadic: false,
            loc: at(1),
            origin: FunctionOrigin::Program,
        };
        if f.name == "main" {
            self.p.main = Some(FuncId(self.p.functions.len() as u32));
        }
        self.p.functions.push(func);
        FuncId(self.p.functions.len() as u32 - 1)
    }
    fn ext(&mut self, name: &str, ret: TypeId, params: Vec<TypeId>, variadic: bool) -> ExternId {
        let ty = self.func_ty(ret, params, variadic);
        self.p.externs.push(Extern {
            name: name.into(),
            ty,
            loc: at(1),
        });
        ExternId(self.p.externs.len() as u32 - 1)
    }
    fn str(&mut self, s: &str) -> Expr {
        let mut b = s.as_bytes().to_vec();
        b.push(0);
        self.p.strings.push(b);
        ex(
            ExprKind::Str(StrId(self.p.strings.len() as u32 - 1)),
            self.charp,
            1,
        )
    }
    fn int(&self, v: i64) -> Expr {
        ex(ExprKind::Int(v as u64), self.int, 1)
    }
    fn long(&self, v: i64) -> Expr {
        ex(ExprKind::Int(v as u64), self.long, 1)
    }
    fn printf(&mut self, line: u32, fmt: &str, args: Vec<Expr>) -> Stmt {
        let pf = match self.printf {
            Some(p) => p,
            None => {
                let charp = self.charp;
                let int = self.int;
                let p = self.ext("printf", int, vec![charp], true);
                self.printf = Some(p);
                p
            }
        };
        let mut a = vec![self.str(fmt)];
        a.extend(args);
        es(ex(
            ExprKind::Call {
                callee: Callee::Extern(pf),
                args: a,
                result: None,
            },
            self.int,
            line,
        ))
    }
}

fn local(f: &F, l: LocalId) -> Expr {
    ex(ExprKind::Local(l), f.locals[l.0 as usize].ty, 1)
}
fn set(f: &F, l: LocalId, v: Expr, line: u32) -> Stmt {
    let ty = f.locals[l.0 as usize].ty;
    es(ex(
        ExprKind::Assign {
            place: Place::Local(l),
            value: bx(v),
        },
        ty,
        line,
    ))
}
fn bin(op: BinOp, a: Expr, b: Expr, ty: TypeId) -> Expr {
    ex(ExprKind::Binary(op, bx(a), bx(b)), ty, 1)
}
fn cast(a: Expr, ty: TypeId) -> Expr {
    ex(ExprKind::Cast(bx(a)), ty, 1)
}
fn load(a: Expr, ty: TypeId, line: u32) -> Expr {
    ex(ExprKind::Load(bx(a)), ty, line)
}
fn ret(v: Expr, line: u32) -> Stmt {
    st(StmtKind::Return(Some(v)), line)
}
fn index(p: Expr, i: Expr, elem: TypeId, pty: TypeId) -> Expr {
    ex(
        ExprKind::PtrAdd {
            ptr: bx(p),
            index: bx(i),
            elem,
        },
        pty,
        1,
    )
}
fn inc(l: LocalId, ty: TypeId, line: u32) -> Expr {
    ex(
        ExprKind::IncDec {
            place: Place::Local(l),
            delta: 1,
            post: true,
        },
        ty,
        line,
    )
}

/// `for (l = from; l < to; l++) body`
fn for_lt(b: &B, f: &F, l: LocalId, from: Expr, to: Expr, body: Vec<Stmt>, line: u32) -> Stmt {
    let ty = f.locals[l.0 as usize].ty;
    let mut cond = bin(BinOp::Lt, local(f, l), to, b.int);
    cond.loc = at(line);
    st(
        StmtKind::For {
            init: Some(Box::new(set(f, l, from, line))),
            cond: Some(cond),
            step: Some(inc(l, ty, line)),
            body: Box::new(block(body)),
        },
        line,
    )
}

struct Run {
    outcome: RunOutcome,
    stdout: String,
    stderr: String,
}

fn run_with(p: &Program, mut opts: RunOptions) -> Run {
    let out = Capture::new();
    let err = Capture::new();
    opts.stdout = Some(out.sink());
    opts.stderr = Some(err.sink());
    let exe = match compile(p, &crate::kernel::ProgramInfo::without_kernels()) {
        Ok(e) => e,
        Err(d) => panic!(
            "compile failed: {:?}",
            d.0.iter().map(|d| d.message.clone()).collect::<Vec<_>>()
        ),
    };
    let outcome = exe.run(opts, vec!["prog".into()]);
    Run {
        outcome,
        stdout: out.text(),
        stderr: err.text(),
    }
}

fn run_prog(p: &Program) -> Run {
    run_with(p, RunOptions::default())
}

fn expect_trap(r: &Run, kind: &str, line: u32) -> Diagnostic {
    match &r.outcome {
        RunOutcome::Trapped(d) | RunOutcome::Limit(d) => {
            assert_eq!(d.kind, kind, "diagnostic: {}", d.message);
            assert_eq!(
                d.primary.map(|l| l.line),
                Some(line),
                "diagnostic: {}",
                d.message
            );
            d.clone()
        }
        o => panic!("expected a {kind} trap, got {o:?} (stdout {:?})", r.stdout),
    }
}

#[test]
fn exec_integer_wrap_promotion_and_return_code() {
    let mut b = B::new();
    let (int, uint, char_) = (b.int, b.uint, b.char_);
    let mut f = b.f("main", int);
    let x = f.reg("x", int);
    let u = f.reg("u", uint);
    let c = f.reg("c", char_);
    let body = vec![
        set(&f, x, b.int(i32::MAX as i64), 2),
        set(&f, x, bin(BinOp::Add, local(&f, x), b.int(1), int), 3),
        set(&f, u, cast(b.int(-1), uint), 4),
        set(&f, c, cast(b.int(200), char_), 5),
        {
            let args = vec![
                local(&f, x),
                local(&f, u),
                cast(local(&f, c), int),
                bin(BinOp::Div, b.int(-7), b.int(2), int),
                bin(BinOp::Rem, b.int(-7), b.int(2), int),
                bin(BinOp::Shr, cast(b.int(-16), int), b.int(2), int),
                bin(BinOp::Shr, local(&f, u), b.int(28), uint),
                bin(BinOp::Lt, cast(b.int(-1), uint), b.int(1), int),
            ];
            b.printf(6, "%d %u %d %d %d %d %u %d\n", args)
        },
        ret(b.int(300), 7),
    ];
    b.add(f, body);
    let r = run_prog(&b.p);
    assert_eq!(r.stdout, "-2147483648 4294967295 -56 -3 -1 -4 15 0\n");
    assert_eq!(r.outcome.exit_code(), 300 & 0xff);
}

#[test]
fn exec_float_is_single_precision_double_is_double() {
    let mut b = B::new();
    let (int, flt, dbl) = (b.int, b.flt, b.dbl);
    let mut f = b.f("main", int);
    let x = f.reg("x", flt);
    let y = f.reg("y", dbl);
    let i = f.reg("i", int);
    let big = f.reg("big", dbl);
    let fc = |v: f64, ty| ex(ExprKind::Float(v), ty, 1);
    let body = vec![
        set(&f, x, bin(BinOp::Add, fc(0.1, flt), fc(0.2, flt), flt), 2),
        set(&f, y, bin(BinOp::Add, fc(0.1, dbl), fc(0.2, dbl), dbl), 3),
        set(&f, big, fc(3.0e10, dbl), 4),
        // At run time x86's cvttsd2si gives INT_MIN; gcc folds a constant's conversion saturating.
        set(&f, i, cast(local(&f, big), int), 4),
        {
            let a = vec![
                cast(local(&f, x), dbl),
                local(&f, y),
                local(&f, i),
                cast(fc(-2.7, dbl), int),
                cast(fc(3.0e10, dbl), int),
                cast(fc(-1.0, dbl), b.uint),
            ];
            b.printf(5, "%.10f %.17f %d %d %d %u\n", a)
        },
        ret(b.int(0), 6),
    ];
    b.add(f, body);
    let r = run_prog(&b.p);
    assert_eq!(
        r.stdout,
        "0.3000000119 0.30000000000000004 -2147483648 -2 2147483647 0\n"
    );
}

/// `int *a = malloc(n * 4); for i: a[i] = i*i; sum; free(a);` plus a final use after free.
fn heap_program(b: &mut B, bad: &str) {
    let (int, long, void) = (b.int, b.long, b.void);
    let vp = b.ptr(void);
    let ip = b.ptr(int);
    let malloc = b.ext("malloc", vp, vec![b.ulong], false);
    let free = b.ext("free", void, vec![vp], false);
    let mut f = b.f("main", int);
    let a = f.reg("a", ip);
    let i = f.reg("i", int);
    let s = f.reg("s", int);
    let elem = |f: &F, i: Expr| index(local(f, a), cast(i, long), int, ip);
    let mut body = vec![
        set(
            &f,
            a,
            cast(
                ex(
                    ExprKind::Call {
                        callee: Callee::Extern(malloc),
                        args: vec![b.long(40)],
                        result: None,
                    },
                    vp,
                    2,
                ),
                ip,
            ),
            2,
        ),
        for_lt(
            b,
            &f,
            i,
            b.int(0),
            b.int(10),
            vec![es(ex(
                ExprKind::Assign {
                    place: Place::Mem(bx(elem(&f, local(&f, i)))),
                    value: bx(bin(BinOp::Mul, local(&f, i), local(&f, i), int)),
                },
                int,
                4,
            ))],
            3,
        ),
        set(&f, s, b.int(0), 5),
        for_lt(
            b,
            &f,
            i,
            b.int(0),
            b.int(10),
            vec![set(
                &f,
                s,
                bin(
                    BinOp::Add,
                    local(&f, s),
                    load(elem(&f, local(&f, i)), int, 7),
                    int,
                ),
                7,
            )],
            6,
        ),
        {
            let end = index(local(&f, a), b.long(10), int, ip);
            let d = ex(
                ExprKind::PtrDiff {
                    lhs: bx(end),
                    rhs: bx(local(&f, a)),
                    elem: int,
                },
                long,
                8,
            );
            b.printf(8, "%d %ld\n", vec![local(&f, s), d])
        },
        es(ex(
            ExprKind::Call {
                callee: Callee::Extern(free),
                args: vec![cast(local(&f, a), vp)],
                result: None,
            },
            void,
            9,
        )),
    ];
    match bad {
        "uaf" => body.push(b.printf(10, "%d\n", vec![load(elem(&f, b.int(3)), int, 10)])),
        "double" => body.push(es(ex(
            ExprKind::Call {
                callee: Callee::Extern(free),
                args: vec![cast(local(&f, a), vp)],
                result: None,
            },
            void,
            10,
        ))),
        "oob" => {
            body.insert(
                5,
                b.printf(10, "%d\n", vec![load(elem(&f, b.int(10)), int, 10)]),
            );
        }
        "under" => {
            body.insert(
                5,
                b.printf(10, "%d\n", vec![load(elem(&f, b.int(-1)), int, 10)]),
            );
        }
        _ => {}
    }
    body.push(ret(b.int(0), 11));
    b.add(f, body);
}

#[test]
fn exec_heap_pointers_and_loops() {
    let mut b = B::new();
    heap_program(&mut b, "");
    let r = run_prog(&b.p);
    assert_eq!(r.stdout, "285 10\n");
    assert_eq!(r.outcome.exit_code(), 0);
}

#[test]
fn exec_use_after_free_is_caught_with_both_locations() {
    let mut b = B::new();
    heap_program(&mut b, "uaf");
    let r = run_prog(&b.p);
    let d = expect_trap(&r, "use-after-free", 10);
    assert!(
        d.related
            .iter()
            .any(|(l, m)| l.line == 2 && m.contains("allocated")),
        "{:?}",
        d.related
    );
    assert!(
        d.related
            .iter()
            .any(|(l, m)| l.line == 9 && m.contains("freed")),
        "{:?}",
        d.related
    );
    assert_eq!(r.stdout, "285 10\n", "output before the fault is flushed");
    assert_eq!(r.outcome.exit_code(), 3);
}

#[test]
fn exec_double_free_out_of_bounds_and_underflow() {
    let mut b = B::new();
    heap_program(&mut b, "double");
    expect_trap(&run_prog(&b.p), "double-free", 10);
    let mut b = B::new();
    heap_program(&mut b, "oob");
    let d = expect_trap(&run_prog(&b.p), "out-of-bounds", 10);
    assert!(d.message.contains("offset 40"), "{}", d.message);
    let mut b = B::new();
    heap_program(&mut b, "under");
    let d = expect_trap(&run_prog(&b.p), "out-of-bounds", 10);
    assert!(d.message.contains("4 bytes before"), "{}", d.message);
}

#[test]
fn exec_null_deref_and_division_by_zero() {
    let mut b = B::new();
    let int = b.int;
    let ip = b.ptr(int);
    let mut f = b.f("main", int);
    let z = f.reg("z", int);
    let body = vec![
        set(&f, z, b.int(0), 2),
        ret(bin(BinOp::Div, b.int(1), local(&f, z), int), 3),
    ];
    b.add(f, body);
    let d = expect_trap(&run_prog(&b.p), "division-by-zero", 1);
    assert!(d.message.contains("division by zero"));

    let mut b = B::new();
    let mut f = b.f("main", int);
    let p = f.reg("p", ip);
    let body = vec![
        set(&f, p, ex(ExprKind::Int(0), ip, 2), 2),
        ret(load(local(&f, p), int, 3), 3),
    ];
    b.add(f, body);
    expect_trap(&run_prog(&b.p), "null-deref", 3);

    // INT_MIN / -1 faults on x86.
    let mut b = B::new();
    let mut f = b.f("main", int);
    let z = f.reg("z", int);
    let body = vec![
        set(&f, z, b.int(-1), 2),
        ret(
            bin(BinOp::Div, b.int(i32::MIN as i64), local(&f, z), int),
            3,
        ),
    ];
    b.add(f, body);
    expect_trap(&run_prog(&b.p), "division-by-zero", 1);
}

/// `int fib(int n) { if (n < 2) return n; return fib(n-1) + fib(n-2); }`
fn fib(b: &mut B) -> FuncId {
    let int = b.int;
    let mut f = b.f("fib", int);
    let n = f.param("n", int);
    let me = FuncId(b.p.functions.len() as u32);
    let call = |arg: Expr| {
        ex(
            ExprKind::Call {
                callee: Callee::Direct(me),
                args: vec![arg],
                result: None,
            },
            int,
            3,
        )
    };
    let body = vec![
        st(
            StmtKind::If(
                bin(BinOp::Lt, local(&f, n), b.int(2), int),
                Box::new(ret(local(&f, n), 2)),
                None,
            ),
            2,
        ),
        ret(
            bin(
                BinOp::Add,
                call(bin(BinOp::Sub, local(&f, n), b.int(1), int)),
                call(bin(BinOp::Sub, local(&f, n), b.int(2), int)),
                int,
            ),
            3,
        ),
    ];
    b.add(f, body)
}

#[test]
fn exec_calls_and_recursion() {
    let mut b = B::new();
    let int = b.int;
    let fib = fib(&mut b);
    let f = b.f("main", int);
    let call = ex(
        ExprKind::Call {
            callee: Callee::Direct(fib),
            args: vec![b.int(20)],
            result: None,
        },
        int,
        5,
    );
    let body = vec![b.printf(5, "fib %d\n", vec![call]), ret(b.int(0), 6)];
    b.add(f, body);
    assert_eq!(run_prog(&b.p).stdout, "fib 6765\n");
}

#[test]
fn exec_unbounded_recursion_is_a_stack_overflow() {
    let mut b = B::new();
    let int = b.int;
    let mut f = b.f("down", int);
    let n = f.param("n", int);
    let me = FuncId(0);
    let body = vec![ret(
        ex(
            ExprKind::Call {
                callee: Callee::Direct(me),
                args: vec![bin(BinOp::Add, local(&f, n), b.int(1), int)],
                result: None,
            },
            int,
            2,
        ),
        2,
    )];
    b.add(f, body);
    let f = b.f("main", int);
    let body = vec![ret(
        ex(
            ExprKind::Call {
                callee: Callee::Direct(me),
                args: vec![b.int(0)],
                result: None,
            },
            int,
            4,
        ),
        4,
    )];
    b.add(f, body);
    let r = run_prog(&b.p);
    let d = expect_trap(&r, "stack overflow", 2);
    assert!(matches!(r.outcome, RunOutcome::Limit(_)));
    assert!(d.message.contains("stack overflow"));
}

#[test]
fn exec_goto_loop_and_switch() {
    let mut b = B::new();
    let int = b.int;
    let mut f = b.f("main", int);
    let i = f.reg("i", int);
    let s = f.reg("s", int);
    let top = LabelId(0);
    let (c1, c2, dflt) = (LabelId(1), LabelId(2), LabelId(3));
    // switch (i) { case 1: s += 10; case 2: s += 100; break; default: s += 1; }
    let sw = st(
        StmtKind::Switch {
            cond: local(&f, i),
            body: Box::new(block(vec![
                st(StmtKind::Label(c1), 5),
                set(&f, s, bin(BinOp::Add, local(&f, s), b.int(10), int), 5),
                st(StmtKind::Label(c2), 6),
                set(&f, s, bin(BinOp::Add, local(&f, s), b.int(100), int), 6),
                st(StmtKind::Break, 6),
                st(StmtKind::Label(dflt), 7),
                set(&f, s, bin(BinOp::Add, local(&f, s), b.int(1), int), 7),
            ])),
            cases: vec![(1, c1), (2, c2)],
            default: Some(dflt),
        },
        4,
    );
    let body = vec![
        set(&f, i, b.int(0), 2),
        set(&f, s, b.int(0), 2),
        st(StmtKind::Label(top), 3),
        sw,
        es(inc(i, int, 8)),
        st(
            StmtKind::If(
                bin(BinOp::Lt, local(&f, i), b.int(4), int),
                Box::new(st(StmtKind::Goto(top), 9)),
                None,
            ),
            9,
        ),
        ret(local(&f, s), 10),
    ];
    b.add(f, body);
    // i=0: +1, i=1: +110, i=2: +100, i=3: +1 → 212
    assert_eq!(run_prog(&b.p).outcome.exit_code(), 212);
}

#[test]
fn exec_records_copy_by_value() {
    let mut b = B::new();
    let (int, dbl) = (b.int, b.dbl);
    let rec = RecordId(b.p.types.records.len() as u32);
    b.p.types.records.push(Record {
        name: Some("pt".into()),
        is_union: false,
        // The interpreter only needs the layout; members are the lowering's business.
        members: Vec::new(),
        size: 16,
        align: 8,
        complete: true,
    });
    let sty = b.p.types.intern(Type::Record(rec));
    let sp = b.ptr(sty);
    let ip = b.ptr(int);
    let dp = b.ptr(dbl);
    let mut f = b.f("main", int);
    let s1 = f.local("s1", sty, Storage::Memory);
    let s2 = f.local("s2", sty, Storage::Memory);
    let addr = |l| ex(ExprKind::LocalAddr(l), sp, 1);
    let field = |l, off: i64, ty, pty| {
        index(
            cast(addr(l), pty),
            ex(ExprKind::Int(off as u64), b.long, 1),
            ty,
            pty,
        )
    };
    let store = |p: Expr, v: Expr, ty| {
        es(ex(
            ExprKind::Assign {
                place: Place::Mem(bx(p)),
                value: bx(v),
            },
            ty,
            2,
        ))
    };
    let body = vec![
        store(field(s1, 0, int, ip), b.int(7), int),
        store(field(s1, 1, dbl, dp), ex(ExprKind::Float(2.5), dbl, 1), dbl),
        es(ex(
            ExprKind::Assign {
                place: Place::Mem(bx(addr(s2))),
                value: bx(load(addr(s1), sty, 3)),
            },
            sty,
            3,
        )),
        store(field(s1, 0, int, ip), b.int(9), int),
        b.printf(
            4,
            "%d %.1f %d\n",
            vec![
                load(field(s2, 0, int, ip), int, 4),
                load(field(s2, 1, dbl, dp), dbl, 4),
                load(field(s1, 0, int, ip), int, 4),
            ],
        ),
        ret(b.int(0), 5),
    ];
    b.add(f, body);
    assert_eq!(run_prog(&b.p).stdout, "7 2.5 9\n");
}

#[test]
fn exec_fuel_limit_stops_an_infinite_loop() {
    let mut b = B::new();
    let int = b.int;
    let mut f = b.f("main", int);
    let i = f.reg("i", int);
    let body = vec![
        st(StmtKind::While(b.int(1), Box::new(es(inc(i, int, 3)))), 2),
        ret(b.int(0), 4),
    ];
    b.add(f, body);
    let r = run_with(
        &b.p,
        RunOptions {
            max_steps: Some(1000),
            ..Default::default()
        },
    );
    match &r.outcome {
        RunOutcome::Limit(d) => assert_eq!(d.kind, "max-steps"),
        o => panic!("{o:?}"),
    }
    assert_eq!(r.outcome.exit_code(), 4);
}

struct Recorder(Arc<Mutex<Vec<(u32, usize)>>>);
impl Observer for Recorder {
    fn on_step(&mut self, loc: Loc, depth: usize) -> Control {
        let mut v = self.0.lock().unwrap();
        v.push((loc.line, depth));
        if v.len() > 100 {
            Control::Stop
        } else {
            Control::Continue
        }
    }
}

#[test]
fn exec_observer_sees_statement_lines_in_order() {
    let mut b = B::new();
    let int = b.int;
    let mut f = b.f("twice", int);
    let x = f.param("x", int);
    let tw = b.add(
        f,
        vec![ret(bin(BinOp::Mul, local_of(x, int), b.int(2), int), 2)],
    );
    let mut f = b.f("main", int);
    let i = f.reg("i", int);
    let s = f.reg("s", int);
    let call = ex(
        ExprKind::Call {
            callee: Callee::Direct(tw),
            args: vec![local(&f, i)],
            result: None,
        },
        int,
        6,
    );
    let body = vec![
        set(&f, s, b.int(0), 4),
        for_lt(
            &b,
            &f,
            i,
            b.int(0),
            b.int(2),
            vec![set(&f, s, bin(BinOp::Add, local(&f, s), call, int), 6)],
            5,
        ),
        ret(local(&f, s), 7),
    ];
    b.add(f, body);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let r = run_with(
        &b.p,
        RunOptions {
            observer: Some(Box::new(Recorder(seen.clone()))),
            ..Default::default()
        },
    );
    assert_eq!(r.outcome.exit_code(), 2);
    let seen = seen.lock().unwrap().clone();
    assert_eq!(
        seen,
        vec![
            (4, 1),
            (5, 1),
            (5, 1),
            (6, 1),
            (2, 2),
            (5, 1),
            (6, 1),
            (2, 2),
            (5, 1),
            (7, 1)
        ]
    );
}

fn local_of(l: LocalId, ty: TypeId) -> Expr {
    ex(ExprKind::Local(l), ty, 1)
}

#[test]
fn exec_observer_can_stop() {
    let mut b = B::new();
    let int = b.int;
    let mut f = b.f("main", int);
    let i = f.reg("i", int);
    let body = vec![st(
        StmtKind::While(b.int(1), Box::new(es(inc(i, int, 3)))),
        2,
    )];
    b.add(f, body);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let r = run_with(
        &b.p,
        RunOptions {
            observer: Some(Box::new(Recorder(seen))),
            ..Default::default()
        },
    );
    assert!(matches!(r.outcome, RunOutcome::Stopped));
}

#[test]
fn exec_undefined_function_is_a_link_error_only_when_called() {
    let mut b = B::new();
    let int = b.int;
    let unused = b.ext("never_called", int, vec![], false);
    let used = b.ext("frobnicate", int, vec![], false);
    let _ = unused;
    let f = b.f("main", int);
    b.add(
        f,
        vec![ret(
            ex(
                ExprKind::Call {
                    callee: Callee::Extern(used),
                    args: vec![],
                    result: None,
                },
                int,
                3,
            ),
            3,
        )],
    );
    let err = compile(&b.p, &crate::kernel::ProgramInfo::without_kernels()).err().expect("link error");
    assert_eq!(err.0.len(), 1);
    assert_eq!(err.0[0].kind, "link");
    assert!(err.0[0]
        .message
        .contains("undefined reference to `frobnicate`"));
}

#[test]
fn exec_qsort_is_stable_and_calls_back() {
    // Sort pairs (key, tag) by key only; equal keys keep their order (glibc 2.36 merge sort).
    let mut b = B::new();
    let (int, long, void) = (b.int, b.long, b.void);
    let vp = b.ptr(void);
    let ip = b.ptr(int);
    let arr = b.p.types.intern(Type::Array(int, Some(12)));
    let cmp_ty = b.func_ty(int, vec![vp, vp], false);
    let cmp_ptr = b.ptr(cmp_ty);
    let qsort = b.ext("qsort", void, vec![vp, b.ulong, b.ulong, cmp_ptr], false);
    // int cmp(const void *a, const void *b) { return *(int*)a - *(int*)b; }
    let mut f = b.f("cmp", int);
    let pa = f.param("a", vp);
    let pb = f.param("b", vp);
    let body = vec![ret(
        bin(
            BinOp::Sub,
            load(cast(local(&f, pa), ip), int, 2),
            load(cast(local(&f, pb), ip), int, 2),
            int,
        ),
        2,
    )];
    let cmp = b.add(f, body);
    let mut f = b.f("main", int);
    let a = f.local("a", arr, Storage::Memory);
    let i = f.reg("i", int);
    let base = ex(ExprKind::LocalAddr(a), ip, 1);
    let data = [3, 0, 1, 1, 3, 2, 2, 3, 1, 4, 0, 5];
    let mut body = Vec::new();
    for (k, v) in data.iter().enumerate() {
        body.push(es(ex(
            ExprKind::Assign {
                place: Place::Mem(bx(index(base.clone(), b.long(k as i64), int, ip))),
                value: bx(b.int(*v)),
            },
            int,
            3,
        )));
    }
    body.push(es(ex(
        ExprKind::Call {
            callee: Callee::Extern(qsort),
            args: vec![
                cast(base.clone(), vp),
                b.long(6),
                b.long(8),
                ex(ExprKind::FuncAddr(cmp), cmp_ptr, 4),
            ],
            result: None,
        },
        void,
        4,
    )));
    let elt = |k: Expr| load(index(base.clone(), cast(k, long), int, ip), int, 5);
    let pr = b.printf(5, "%d ", vec![elt(local(&f, i))]);
    body.push(for_lt(&b, &f, i, b.int(0), b.int(12), vec![pr], 5));
    body.push(ret(b.int(0), 6));
    b.add(f, body);
    assert_eq!(run_prog(&b.p).stdout, "0 5 1 1 1 4 2 3 3 0 3 2 ");
}

#[test]
fn exec_assert_fail_prints_like_glibc_and_aborts() {
    let mut b = B::new();
    let (int, uint, void, charp) = (b.int, b.uint, b.void, b.charp);
    let af = b.ext(
        "__assert_fail",
        void,
        vec![charp, charp, uint, charp],
        false,
    );
    let f = b.f("main", int);
    let args = vec![
        b.str("x > 0"),
        b.str("t.c"),
        ex(ExprKind::Int(12), uint, 1),
        b.str("main"),
    ];
    let body = vec![
        b.printf(2, "before\n", vec![]),
        es(ex(
            ExprKind::Call {
                callee: Callee::Extern(af),
                args,
                result: None,
            },
            void,
            3,
        )),
        ret(b.int(0), 4),
    ];
    b.add(f, body);
    let r = run_prog(&b.p);
    assert!(matches!(r.outcome, RunOutcome::Aborted));
    assert_eq!(r.outcome.exit_code(), 134);
    assert_eq!(r.stderr, "prog: t.c:12: main: Assertion `x > 0' failed.\n");
    assert_eq!(r.stdout, "before\n");
}

#[test]
fn exec_string_literals_are_read_only() {
    let mut b = B::new();
    let (int, char_, charp) = (b.int, b.char_, b.charp);
    let f = b.f("main", int);
    let s = b.str("abc");
    let body = vec![
        es(ex(
            ExprKind::Assign {
                place: Place::Mem(bx(s)),
                value: bx(ex(ExprKind::Int(b'x' as u64), char_, 2)),
            },
            char_,
            2,
        )),
        ret(b.int(0), 3),
    ];
    let _ = charp;
    b.add(f, body);
    expect_trap(&run_prog(&b.p), "read-only", 2);
}

/// `double a[n*n], b[n*n], c[n*n]` on the heap; c = a × b with the classic i-j-k loop.
fn matmul_program(n: i64) -> Program {
    let mut b = B::new();
    let (int, long, dbl, void) = (b.int, b.long, b.dbl, b.void);
    let vp = b.ptr(void);
    let dp = b.ptr(dbl);
    let malloc = b.ext("malloc", vp, vec![b.ulong], false);
    let mut f = b.f("main", int);
    let pa = f.reg("a", dp);
    let pb = f.reg("b", dp);
    let pc = f.reg("c", dp);
    let (i, j, k) = (f.reg("i", int), f.reg("j", int), f.reg("k", int));
    let s = f.reg("s", dbl);
    let nn = b.int(n);
    let alloc = |l, f: &F| {
        set(
            f,
            l,
            cast(
                ex(
                    ExprKind::Call {
                        callee: Callee::Extern(malloc),
                        args: vec![b.long(n * n * 8)],
                        result: None,
                    },
                    vp,
                    2,
                ),
                dp,
            ),
            2,
        )
    };
    let at2 = |f: &F, p, r: LocalId, c: LocalId| {
        index(
            local(f, p),
            cast(
                bin(
                    BinOp::Add,
                    bin(BinOp::Mul, local(f, r), nn.clone(), int),
                    local(f, c),
                    int,
                ),
                long,
            ),
            dbl,
            dp,
        )
    };
    let fill = |f: &F, p, v: Expr| {
        es(ex(
            ExprKind::Assign {
                place: Place::Mem(bx(at2(f, p, i, j))),
                value: bx(v),
            },
            dbl,
            3,
        ))
    };
    let body = vec![
        alloc(pa, &f),
        alloc(pb, &f),
        alloc(pc, &f),
        for_lt(
            &b,
            &f,
            i,
            b.int(0),
            nn.clone(),
            vec![for_lt(
                &b,
                &f,
                j,
                b.int(0),
                nn.clone(),
                vec![
                    fill(
                        &f,
                        pa,
                        cast(bin(BinOp::Add, local(&f, i), local(&f, j), int), dbl),
                    ),
                    fill(
                        &f,
                        pb,
                        cast(bin(BinOp::Sub, local(&f, i), local(&f, j), int), dbl),
                    ),
                ],
                3,
            )],
            3,
        ),
        for_lt(
            &b,
            &f,
            i,
            b.int(0),
            nn.clone(),
            vec![for_lt(
                &b,
                &f,
                j,
                b.int(0),
                nn.clone(),
                vec![
                    set(&f, s, ex(ExprKind::Float(0.0), dbl, 5), 5),
                    for_lt(
                        &b,
                        &f,
                        k,
                        b.int(0),
                        nn.clone(),
                        vec![es(ex(
                            ExprKind::CompoundAssign {
                                op: BinOp::Add,
                                place: Place::Local(s),
                                value: bx(bin(
                                    BinOp::Mul,
                                    load(at2(&f, pa, i, k), dbl, 7),
                                    load(at2(&f, pb, k, j), dbl, 7),
                                    dbl,
                                )),
                                op_ty: dbl,
                            },
                            dbl,
                            7,
                        ))],
                        6,
                    ),
                    fill(&f, pc, local(&f, s)),
                ],
                5,
            )],
            4,
        ),
        b.printf(
            9,
            "%.1f\n",
            vec![load(
                index(local(&f, pc), b.long(n * n - 1), dbl, dp),
                dbl,
                9,
            )],
        ),
        ret(b.int(0), 10),
    ];
    let _ = void;
    b.add(f, body);
    b.p
}

#[test]
fn exec_matmul_small() {
    let p = matmul_program(4);
    // c[3][3] = sum_k (3+k)(k-3) = sum k^2 - 9*4 = 14 - 36
    assert_eq!(run_prog(&p).stdout, "-22.0\n");
}

#[test]
#[ignore = "benchmark: run with --release --ignored --nocapture"]
fn exec_bench_matmul_512() {
    let n = std::env::var("ACCSIM_BENCH_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(512);
    let p = matmul_program(n);
    let t = std::time::Instant::now();
    let r = run_prog(&p);
    let dt = t.elapsed();
    assert_eq!(r.outcome.exit_code(), 0);
    let iters = (n * n * n) as f64;
    println!(
        "matmul {n}: {:.2?}, {:.2} ns per inner iteration",
        dt,
        dt.as_nanos() as f64 / iters
    );
}

#[test]
fn exec_rand_matches_glibc_and_sprintf_strtol() {
    let mut b = B::new();
    let (int, long, charp, ulong) = (b.int, b.long, b.charp, b.ulong);
    let rand = b.ext("rand", int, vec![], false);
    let snprintf = b.ext("snprintf", int, vec![charp, ulong, charp], true);
    let charpp = b.ptr(charp);
    let strtol = b.ext("strtol", long, vec![charp, charpp, int], false);
    let chars = b.p.types.intern(Type::Array(b.char_, Some(16)));
    let mut f = b.f("main", int);
    let buf = f.local("buf", chars, Storage::Memory);
    let n = f.reg("n", int);
    let call = |x, args: Vec<Expr>, ty, line| {
        ex(
            ExprKind::Call {
                callee: Callee::Extern(x),
                args,
                result: None,
            },
            ty,
            line,
        )
    };
    let bufp = ex(ExprKind::LocalAddr(buf), charp, 1);
    let body = vec![
        b.printf(
            2,
            "%d %d %d\n",
            vec![
                call(rand, vec![], int, 2),
                call(rand, vec![], int, 2),
                call(rand, vec![], int, 2),
            ],
        ),
        set(
            &f,
            n,
            call(
                snprintf,
                vec![
                    bufp.clone(),
                    b.long(6),
                    b.str("%d-%s"),
                    b.int(12345),
                    b.str("xyz"),
                ],
                int,
                3,
            ),
            3,
        ),
        b.printf(4, "[%s] %d\n", vec![bufp.clone(), local(&f, n)]),
        {
            let (s1, s2) = (b.str("  -0x1fz"), b.str("99999999999999999999"));
            let args = vec![
                call(
                    strtol,
                    vec![s1, ex(ExprKind::Int(0), charpp, 5), b.int(0)],
                    long,
                    5,
                ),
                call(
                    strtol,
                    vec![s2, ex(ExprKind::Int(0), charpp, 5), b.int(10)],
                    long,
                    5,
                ),
            ];
            b.printf(5, "%ld %ld\n", args)
        },
        ret(b.int(0), 6),
    ];
    b.add(f, body);
    assert_eq!(
        run_prog(&b.p).stdout,
        // Arguments are evaluated right to left, as gcc does: the third rand() runs first.
        "1681692777 846930886 1804289383\n[12345] 9\n-31 9223372036854775807\n"
    );
}

#[test]
fn exec_pointer_to_dead_local_is_use_after_free() {
    let mut b = B::new();
    let int = b.int;
    let ip = b.ptr(int);
    let mut f = b.f("leak", ip);
    let x = f.local("x", int, Storage::Memory);
    let body = vec![
        es(ex(
            ExprKind::Assign {
                place: Place::Local(x),
                value: bx(b.int(5)),
            },
            int,
            2,
        )),
        ret(ex(ExprKind::LocalAddr(x), ip, 3), 3),
    ];
    let leak = b.add(f, body);
    let f = b.f("main", int);
    let call = ex(
        ExprKind::Call {
            callee: Callee::Direct(leak),
            args: vec![],
            result: None,
        },
        ip,
        6,
    );
    b.add(f, vec![ret(load(call, int, 6), 6)]);
    let d = expect_trap(&run_prog(&b.p), "use-after-free", 6);
    assert!(
        d.message.contains("local variable `x` of `leak`"),
        "{}",
        d.message
    );
    assert!(
        d.message.contains("after its function returned"),
        "{}",
        d.message
    );
}

#[test]
fn exec_exit_runs_atexit_handlers_in_reverse_and_flushes() {
    let mut b = B::new();
    let (int, void) = (b.int, b.void);
    let h_ty = b.func_ty(void, vec![], false);
    let hp = b.ptr(h_ty);
    let atexit = b.ext("atexit", int, vec![hp], false);
    let exit = b.ext("exit", void, vec![int], false);
    let f = b.f("h1", void);
    let pr = b.printf(2, "h1\n", vec![]);
    let h1 = b.add(f, vec![pr]);
    let f = b.f("h2", void);
    let pr = b.printf(3, "h2\n", vec![]);
    let h2 = b.add(f, vec![pr]);
    let f = b.f("main", int);
    let reg = |h| {
        es(ex(
            ExprKind::Call {
                callee: Callee::Extern(atexit),
                args: vec![ex(ExprKind::FuncAddr(h), hp, 5)],
                result: None,
            },
            int,
            5,
        ))
    };
    let body = vec![
        reg(h1),
        reg(h2),
        b.printf(6, "main\n", vec![]),
        es(ex(
            ExprKind::Call {
                callee: Callee::Extern(exit),
                args: vec![b.int(7)],
                result: None,
            },
            void,
            7,
        )),
        ret(b.int(0), 8),
    ];
    b.add(f, body);
    let r = run_prog(&b.p);
    assert_eq!(r.stdout, "main\nh2\nh1\n");
    assert_eq!(r.outcome.exit_code(), 7);
}

#[test]
fn exec_memory_limit_stops_the_run() {
    let mut b = B::new();
    let (int, void) = (b.int, b.void);
    let vp = b.ptr(void);
    let malloc = b.ext("malloc", vp, vec![b.ulong], false);
    let f = b.f("main", int);
    let body = vec![
        st(
            StmtKind::While(
                b.int(1),
                Box::new(es(ex(
                    ExprKind::Call {
                        callee: Callee::Extern(malloc),
                        args: vec![b.long(1 << 20)],
                        result: None,
                    },
                    vp,
                    3,
                ))),
            ),
            2,
        ),
        ret(b.int(0), 4),
    ];
    b.add(f, body);
    let r = run_with(
        &b.p,
        RunOptions {
            max_memory: Some(64 << 20),
            ..Default::default()
        },
    );
    let d = expect_trap(&r, "memory limit", 3);
    assert!(matches!(r.outcome, RunOutcome::Limit(_)), "{}", d.message);
}

#[test]
fn exec_variadic_function_and_vla_and_indirect_call() {
    // long sum(int n, ...) { va_list ap; va_start(ap, n); long s = 0; for (i..n) s += va_arg(ap, long); return s; }
    let mut b = B::new();
    let (int, long, dbl) = (b.int, b.long, b.dbl);
    let va_list = b.p.types.intern(Type::Array(b.ulong, Some(3)));
    let ulp = b.ptr(b.ulong);
    let sum_ty = b.func_ty(long, vec![int], true);
    let sum_ptr = b.ptr(sum_ty);
    let mut f = b.f("sum", long);
    let n = f.param("n", int);
    let ap = f.local("ap", va_list, Storage::Memory);
    let s = f.reg("s", long);
    let i = f.reg("i", int);
    let app = ex(ExprKind::LocalAddr(ap), ulp, 1);
    let body = vec![
        es(ex(ExprKind::VaStart(bx(app.clone())), b.void, 2)),
        set(&f, s, b.long(0), 3),
        for_lt(
            &b,
            &f,
            i,
            b.int(0),
            local(&f, n),
            vec![set(
                &f,
                s,
                bin(
                    BinOp::Add,
                    local(&f, s),
                    ex(ExprKind::VaArg(bx(app.clone())), long, 5),
                    long,
                ),
                5,
            )],
            4,
        ),
        ret(local(&f, s), 6),
    ];
    let sum = b.add(f, body);
    b.p.functions[sum.0 as usize].variadic = true;
    b.p.functions[sum.0 as usize].ty = sum_ty;

    // main: int m = 5; double v[m]; v[i] = i * 0.5; total via sum through a function pointer.
    let dp = b.ptr(dbl);
    let mut f = b.f("main", int);
    let cnt = f.reg("cnt", long);
    let vla_ty = b.p.types.intern(Type::Vla(dbl, cnt));
    let v = f.local("v", vla_ty, Storage::VlaAddress);
    let i = f.reg("i", int);
    let fp = f.reg("fp", sum_ptr);
    let vp = ex(ExprKind::LocalAddr(v), dp, 1);
    let body = vec![
        set(&f, cnt, b.long(5), 2),
        st(StmtKind::VlaAlloc(v), 2),
        for_lt(
            &b,
            &f,
            i,
            b.int(0),
            b.int(5),
            vec![es(ex(
                ExprKind::Assign {
                    place: Place::Mem(bx(index(vp.clone(), cast(local(&f, i), long), dbl, dp))),
                    value: bx(bin(
                        BinOp::Mul,
                        cast(local(&f, i), dbl),
                        ex(ExprKind::Float(0.5), dbl, 3),
                        dbl,
                    )),
                },
                dbl,
                3,
            ))],
            3,
        ),
        set(&f, fp, ex(ExprKind::FuncAddr(sum), sum_ptr, 4), 4),
        b.printf(
            5,
            "%ld %.2f %lu\n",
            vec![
                ex(
                    ExprKind::Call {
                        callee: Callee::Indirect(bx(local(&f, fp))),
                        args: vec![b.int(3), b.long(10), b.long(20), b.long(30)],
                        result: None,
                    },
                    long,
                    5,
                ),
                load(index(vp.clone(), b.long(4), dbl, dp), dbl, 5),
                ex(ExprKind::SizeOfDynamic(vla_ty), b.ulong, 5),
            ],
        ),
        b.printf(
            6,
            "%f\n",
            vec![load(index(vp.clone(), b.long(5), dbl, dp), dbl, 6)],
        ),
        ret(b.int(0), 7),
    ];
    b.add(f, body);
    let r = run_prog(&b.p);
    assert_eq!(r.stdout, "60 2.00 40\n");
    let d = expect_trap(&r, "out-of-bounds", 6);
    assert!(
        d.message.contains("variable-length array `v` of `main`"),
        "{}",
        d.message
    );
}

#[test]
fn exec_complex_multiply_and_divide() {
    let mut b = B::new();
    let (int, dbl) = (b.int, b.dbl);
    let cty = b.p.types.intern(Type::Complex(FloatKind::F64));
    let cp = b.ptr(cty);
    let creal = b.ext("creal", dbl, vec![cty], false);
    let cimag = b.ext("cimag", dbl, vec![cty], false);
    let mut f = b.f("main", int);
    let (t1, t2, t3, t4) = (
        f.local("t1", cty, Storage::Memory),
        f.local("t2", cty, Storage::Memory),
        f.local("t3", cty, Storage::Memory),
        f.local("t4", cty, Storage::Memory),
    );
    let fl = |v| ex(ExprKind::Float(v), dbl, 1);
    let mk = |re, im, dst| {
        ex(
            ExprKind::ComplexMake {
                re: bx(fl(re)),
                im: bx(fl(im)),
                dst,
            },
            cty,
            2,
        )
    };
    let prod = ex(
        ExprKind::ComplexBinary {
            op: BinOp::Mul,
            lhs: bx(mk(1.0, 2.0, t1)),
            rhs: bx(mk(3.0, -1.0, t2)),
            dst: t3,
        },
        cty,
        2,
    );
    let quot = ex(
        ExprKind::ComplexBinary {
            op: BinOp::Div,
            lhs: bx(prod),
            rhs: bx(mk(0.0, 1.0, t2)),
            dst: t4,
        },
        cty,
        2,
    );
    let _ = cp;
    let call = |x, arg| {
        ex(
            ExprKind::Call {
                callee: Callee::Extern(x),
                args: vec![arg],
                result: None,
            },
            dbl,
            3,
        )
    };
    let body = vec![
        es(quot),
        b.printf(
            3,
            "%.1f %.1f\n",
            vec![
                call(creal, ex(ExprKind::LocalAddr(t4), cty, 3)),
                call(cimag, ex(ExprKind::LocalAddr(t4), cty, 3)),
            ],
        ),
        ret(b.int(0), 4),
    ];
    b.add(f, body);
    // (1+2i)(3-i) = 5+5i; / i = 5-5i
    assert_eq!(run_prog(&b.p).stdout, "5.0 -5.0\n");
}

#[test]
fn exec_overflow_into_a_neighbouring_local_is_caught() {
    // int a[2]; int b; a[2] = 1;  (a and b are both in memory)
    let mut b = B::new();
    let (int, long) = (b.int, b.long);
    let ip = b.ptr(int);
    let arr = b.p.types.intern(Type::Array(int, Some(2)));
    let mut f = b.f("main", int);
    let a = f.local("a", arr, Storage::Memory);
    let x = f.local("b", int, Storage::Memory);
    let body = vec![
        es(ex(
            ExprKind::Assign {
                place: Place::Local(x),
                value: bx(b.int(3)),
            },
            int,
            2,
        )),
        es(ex(
            ExprKind::Assign {
                place: Place::Mem(bx(index(
                    ex(ExprKind::LocalAddr(a), ip, 3),
                    ex(ExprKind::Int(2), long, 3),
                    int,
                    ip,
                ))),
                value: bx(b.int(1)),
            },
            int,
            3,
        )),
        ret(b.int(0), 4),
    ];
    b.add(f, body);
    let d = expect_trap(&run_prog(&b.p), "out-of-bounds", 3);
    assert!(
        d.message.contains("local variable `a` of `main`"),
        "{}",
        d.message
    );
}

#[test]
fn exec_many_calls_with_local_arrays_reuse_ids_after_quarantine() {
    let mut mem = memory::Memory::new(1 << 30);
    let first = mem.next_id();
    for _ in 0..(memory::QUARANTINE + 10) {
        let p = mem
            .alloc(
                16,
                memory::AllocKind::Heap,
                memory::Space::Host,
                Loc::default(),
            )
            .unwrap();
        mem.free_heap(p, Loc::default()).unwrap();
    }
    assert!(mem.next_id() - first <= memory::QUARANTINE as u32 + 2);
}

#[test]
fn exec_fuel_is_counted_inside_counted_loops() {
    // for (i = 0; i < 1000; i++) s++;  costs 2 steps per iteration plus init and first test.
    let run_steps = |steps: u64| {
        let mut b = B::new();
        let int = b.int;
        let mut f = b.f("main", int);
        let i = f.reg("i", int);
        let s = f.reg("s", int);
        let body = vec![
            set(&f, s, b.int(0), 2),
            for_lt(
                &b,
                &f,
                i,
                b.int(0),
                b.int(1000),
                vec![es(inc(s, int, 4))],
                3,
            ),
            ret(local(&f, s), 5),
        ];
        b.add(f, body);
        run_with(
            &b.p,
            RunOptions {
                max_steps: Some(steps),
                ..Default::default()
            },
        )
        .outcome
    };
    // s = 0; i = 0; test; 1000 × (body, step+test); return
    let exact = 1 + 1 + 1 + 2000 + 1;
    assert_eq!(run_steps(exact).exit_code(), 1000 & 0xff);
    assert!(matches!(run_steps(exact - 1), RunOutcome::Limit(_)));
    assert!(matches!(run_steps(1001), RunOutcome::Limit(_)));
}
