//! gcc builtins that glibc's headers expand to (`isnan`, `HUGE_VAL`, `va_start`, …) and
//! `__builtin_X` spellings of library functions. Those with an IR form are lowered to it; the rest
//! become calls of externs with the right signature, bound by the C library shim.

use lang_c::ast::Expression as E;
use lang_c::span::{Node, Span};

use super::expr::mk;
use super::{Binding, LResult, Lowerer, Sym};
use crate::diag::Loc;
use crate::ir::*;

/// A compact type spelling for builtin signatures.
#[derive(Clone, Copy)]
enum T {
    V,
    I,
    U,
    L,
    Ul,
    D,
    F,
    Ld,
    P,
}

/// Signatures of builtins that are calls of a library routine (name without `__builtin_`).
fn library_sig(name: &str) -> Option<(T, &'static [T], bool)> {
    use T::*;
    Some(match name {
        "isinf_sign" | "isfinite" | "isinf" | "isnormal" | "signbit" | "signbitl" => (I, &[D], false),
        "signbitf" => (I, &[F], false),
        "fpclassify" => (I, &[I, I, I, I, I, D], false),
        "isgreater" | "isgreaterequal" | "isless" | "islessequal" | "islessgreater" | "isunordered" => (I, &[D, D], false),
        "fabs" | "sqrt" | "sin" | "cos" | "exp" | "log" | "floor" | "ceil" | "trunc" | "round" => (D, &[D], false),
        "fabsf" | "sqrtf" | "sinf" | "cosf" | "expf" | "logf" | "floorf" | "ceilf" | "truncf" | "roundf" => (F, &[F], false),
        "fabsl" | "sqrtl" => (Ld, &[Ld], false),
        "pow" | "fmod" | "copysign" | "fmax" | "fmin" | "atan2" => (D, &[D, D], false),
        "powf" | "fmodf" | "copysignf" | "fmaxf" | "fminf" => (F, &[F, F], false),
        "copysignl" => (Ld, &[Ld, Ld], false),
        "abs" => (I, &[I], false),
        "labs" | "llabs" => (L, &[L], false),
        "bswap16" => (U, &[U], false),
        "bswap32" => (U, &[U], false),
        "bswap64" => (Ul, &[Ul], false),
        "popcount" | "clz" | "ctz" | "ffs" | "parity" | "clrsb" => (I, &[U], false),
        "popcountl" | "popcountll" | "clzl" | "clzll" | "ctzl" | "ctzll" | "ffsl" | "ffsll" | "parityl" | "parityll" => {
            (I, &[Ul], false)
        }
        "memcpy" | "memmove" => (P, &[P, P, Ul], false),
        "memset" => (P, &[P, I, Ul], false),
        "memcmp" => (I, &[P, P, Ul], false),
        "strlen" => (Ul, &[P], false),
        "strcpy" | "strcat" => (P, &[P, P], false),
        "strcmp" => (I, &[P, P], false),
        "strncmp" => (I, &[P, P, Ul], false),
        "malloc" | "alloca" => (P, &[Ul], false),
        "calloc" => (P, &[Ul, Ul], false),
        "free" => (V, &[P], false),
        "printf" => (I, &[P], true),
        "sprintf" => (I, &[P, P], true),
        "snprintf" => (I, &[P, Ul, P], true),
        "puts" => (I, &[P], false),
        "putchar" => (I, &[I], false),
        "abort" | "trap" | "unreachable" => (V, &[], false),
        "exit" => (V, &[I], false),
        _ => return None,
    })
}

/// Builtins that are not also C library functions: the shim knows them by their `__builtin_` name
/// (`__builtin_popcount`, `__builtin_isinf_sign`…); the others are plain library calls (`fabs`).
fn is_classifier(short: &str) -> bool {
    short.starts_with("is")
        || short.starts_with("signbit")
        || short == "fpclassify"
        || ["bswap", "popcount", "clz", "ctz", "ffs", "parity", "clrsb", "trap", "unreachable"].iter().any(|p| short.starts_with(p))
}

impl<'a> Lowerer<'a> {
    fn t_of(&mut self, t: T) -> TypeId {
        match t {
            T::V => self.t_void(),
            T::I => self.t_int(),
            T::U => self.prog.types.intern(Type::Int(IntType::UINT)),
            T::L => self.t_long(),
            T::Ul => self.t_ulong(),
            T::D => self.t_double(),
            T::F => self.prog.types.intern(Type::Float(FloatKind::F32)),
            T::Ld => self.prog.types.intern(Type::Float(FloatKind::LongDouble)),
            T::P => {
                let v = self.t_void();
                self.t_ptr(v)
            }
        }
    }

    /// Lower a call of a builtin, or `None` when `name` is not one.
    pub fn builtin_call(&mut self, name: &str, args: &'a [Node<E>], span: Span, loc: Loc) -> LResult<Option<Expr>> {
        let Some(short) = name.strip_prefix("__builtin_") else { return Ok(None) };
        let want = |cx: &mut Self, n: usize| -> LResult<()> {
            if args.len() != n {
                return cx.error("call", format!("`{name}` takes {n} argument(s), {} given", args.len()), span);
            }
            Ok(())
        };
        let d = self.t_double();
        let int = self.t_int();
        let e = match short {
            "expect" | "expect_with_probability" => {
                want(self, if short == "expect" { 2 } else { 3 })?;
                let v = self.expr(&args[0])?;
                let long = self.t_long();
                self.convert(v, long)
            }
            "assume_aligned" => {
                let v = self.expr(&args[0])?;
                let v2 = self.t_void();
                let p = self.t_ptr(v2);
                self.convert(v, p)
            }
            "constant_p" => mk(ExprKind::Int(0), int, loc),
            "prefetch" => {
                let v = self.t_void();
                mk(ExprKind::Int(0), v, loc)
            }
            "huge_val" | "inf" => mk(ExprKind::Float(f64::INFINITY), d, loc),
            "huge_valf" | "inff" => {
                let f = self.t_of(T::F);
                mk(ExprKind::Float(f64::INFINITY), f, loc)
            }
            "huge_vall" | "infl" => {
                let f = self.t_of(T::Ld);
                mk(ExprKind::Float(f64::INFINITY), f, loc)
            }
            "nan" | "nanf" | "nanl" => {
                let t = match short {
                    "nanf" => self.t_of(T::F),
                    "nanl" => self.t_of(T::Ld),
                    _ => d,
                };
                mk(ExprKind::Float(f64::NAN), t, loc)
            }
            "isnan" => {
                want(self, 1)?;
                let v = self.expr(&args[0])?;
                if !self.prog.types.is_float(v.ty) {
                    mk(ExprKind::Int(0), int, loc)
                } else {
                    mk(ExprKind::Binary(BinOp::Ne, Box::new(v.clone()), Box::new(v)), int, loc)
                }
            }
            "complex" => {
                want(self, 2)?;
                let re = self.expr(&args[0])?;
                let im = self.expr(&args[1])?;
                let k = match self.ty(re.ty) {
                    Type::Float(k) => *k,
                    _ => FloatKind::F64,
                };
                let ft = self.prog.types.intern(Type::Float(k));
                let ct = self.prog.types.intern(Type::Complex(k));
                let re = self.convert(re, ft);
                let im = self.convert(im, ft);
                let dst = self.temp_local(ct, loc);
                mk(ExprKind::ComplexMake { re: Box::new(re), im: Box::new(im), dst }, ct, loc)
            }
            "va_start" => {
                if args.is_empty() {
                    return self.error("call", "`va_start` needs the `va_list`", span);
                }
                if !self.fcx.as_ref().is_some_and(|f| f.is_variadic) {
                    return self.error("call", "`va_start` used in a function with fixed arguments", span);
                }
                let ap = self.expr(&args[0])?;
                let v = self.t_void();
                mk(ExprKind::VaStart(Box::new(ap)), v, loc)
            }
            "va_end" => {
                want(self, 1)?;
                let ap = self.expr(&args[0])?;
                let v = self.t_void();
                mk(ExprKind::Cast(Box::new(ap)), v, loc)
            }
            "va_copy" => {
                want(self, 2)?;
                let dst = self.expr(&args[0])?;
                let src = self.expr(&args[1])?;
                let v = self.t_void();
                mk(ExprKind::VaCopy(Box::new(dst), Box::new(src)), v, loc)
            }
            _ => {
                // A library routine spelled `__builtin_X`: the declared `X` if there is one.
                let sym = match self.lookup(short).cloned() {
                    Some(Binding { sym: s @ (Sym::Func(_) | Sym::Extern(_)), ty }) => Some((s, ty)),
                    _ => None,
                };
                let (sym, fty) = match sym {
                    Some(x) => x,
                    None => {
                        let Some((ret, params, variadic)) = library_sig(short) else {
                            return self.unsupported(format!("the gcc builtin `{name}`"), span);
                        };
                        let ret = self.t_of(ret);
                        let params: Vec<TypeId> = params.iter().map(|t| self.t_of(*t)).collect();
                        let fty = self.prog.types.intern(Type::Function(FuncSig { ret, params, variadic, unprototyped: false }));
                        // The shim knows these by their `__builtin_` name (classification helpers) or
                        // by the plain name (library routines).
                        let ext_name = if is_classifier(short) { name.to_string() } else { short.to_string() };
                        (self.function_symbol(&ext_name, fty, false, loc), fty)
                    }
                };
                let Type::Function(sig) = self.ty(fty).clone() else {
                    return self.error("call", format!("`{short}` is not a function"), span);
                };
                if !sig.variadic && !sig.unprototyped && args.len() != sig.params.len() {
                    return self.error("call", format!("`{name}` takes {} argument(s), {} given", sig.params.len(), args.len()), span);
                }
                let mut lowered = Vec::new();
                for (i, a) in args.iter().enumerate() {
                    let v = self.expr(a)?;
                    let v = match sig.params.get(i) {
                        Some(&p) if !sig.unprototyped => self.assign_convert(v, p, a.span, "passing")?,
                        _ => self.default_promote(v),
                    };
                    lowered.push(v);
                }
                let callee = match sym {
                    Sym::Func(f) => Callee::Direct(f),
                    Sym::Extern(e) => Callee::Extern(e),
                    _ => return self.error("call", format!("`{short}` is not a function"), span),
                };
                mk(ExprKind::Call { callee, args: lowered, result: None }, sig.ret, loc)
            }
        };
        Ok(Some(e))
    }
}
