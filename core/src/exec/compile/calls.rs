//! Calls: arguments evaluated right to left into new word-stack slots (as gcc does on x86-64),
//! direct, indirect and C-library calls.

use super::*;

/// Evaluate call arguments right to left, as gcc does on x86-64, into new slots on top of the
/// word stack; returns where they start.
#[inline]
pub(super) fn push_args(m: &mut Machine, args: &[ExprFn]) -> Result<usize, Trap> {
    let base = m.regs.len();
    m.regs.resize(base + args.len(), 0);
    for (i, a) in args.iter().enumerate().rev() {
        let v = a(m)?;
        m.regs[base + i] = v;
    }
    Ok(base)
}

impl<'a> Cx<'a> {

    pub(super) fn args(&mut self, args: &[Expr]) -> R<Vec<ExprFn>> {
        args.iter().map(|a| Ok(self.expr(a)?.into_fn())).collect()
    }

    /// The slot holding the address of a call's or complex operation's result local.
    pub(super) fn result_dest(&mut self, result: Option<LocalId>, loc: Loc) -> R<Option<usize>> {
        match result {
            None => Ok(None),
            Some(l) => match self.homes.get(l.0 as usize) {
                Some(Home::Mem(slot)) => Ok(Some(*slot)),
                _ => Err(Diagnostic::internal(
                    "call result local is not in memory",
                    Some(loc),
                )),
            },
        }
    }

    pub(super) fn call(&mut self, callee: &Callee, args: &[Expr], result: Option<LocalId>, loc: Loc) -> R<Ce> {
        let dest = self.result_dest(result, loc)?;
        match callee {
            Callee::Direct(f) => {
                let fid = f.0;
                if fid as usize >= self.p.functions.len() {
                    return Err(Diagnostic::internal(
                        "call of a function that does not exist",
                        Some(loc),
                    ));
                }
                let argf = self.args(args)?;
                Ok(Ce::Dyn(match dest {
                    None => ef(move |m| {
                        let base = push_args(m, &argf)?;
                        call_function(m, fid, base, 0, loc)
                    }),
                    Some(off) => ef(move |m| {
                        let base = push_args(m, &argf)?;
                        let d = m.regs[m.bp + off];
                        call_function(m, fid, base, d, loc)?;
                        Ok(d)
                    }),
                }))
            }
            Callee::Extern(x) => {
                let shim = match self.bindings.get(x.0 as usize) {
                    Some(Binding::Function(s)) => *s,
                    _ => return Err(self.undefined(x.0, loc)),
                };
                let kinds: Vec<Kind> = args.iter().map(|a| self.kind(a.ty)).collect();
                let argf = self.args(args)?;
                Ok(Ce::Dyn(libc_shim::compile_call(
                    shim, argf, &kinds, dest, loc,
                )))
            }
            Callee::Indirect(fe) => {
                let fp = self.expr(fe)?.into_fn();
                let argf = self.args(args)?;

                Ok(Ce::Dyn(ef(move |m| {
                    let target = fp(m)?;
                    let base = push_args(m, &argf)?;
                    let d = dest.map(|slot| m.regs[m.bp + slot]).unwrap_or(0);
                    let r = call_indirect(m, target, base, d, loc)?;
                    Ok(if dest.is_some() { d } else { r })
                })))
            }
        }
    }
}
