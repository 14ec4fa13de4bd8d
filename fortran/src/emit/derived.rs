//! Default initialization of derived-type components (Fortran 2003 §4.5.3.4): a component
//! declared `real :: x = 1.0` gives every variable of the type that value when the variable comes
//! into existence — at each entry of a procedure for its (unsaved) locals, once for saved and
//! module variables, after `allocate` for allocatable arrays, at entry for an `intent(out)`
//! dummy (§5.1.2.7) — and structure constructors may leave such components out (§4.5.9).
//! Components without a default are not initialized by Fortran; the C initializer gives them
//! zero.

use super::expr::unparen;
use super::types::*;
use super::*;

impl Translator {
    /// The C initializer text of component default `init` (a C constant expression, usable in a
    /// static initializer): a scalar's value, a character's blank-padded literal, an array's
    /// braced element list (a scalar broadcast or an array constructor), a derived component's
    /// braced structure constructor.
    pub(super) fn component_default(&mut self, init: &Expr, comp: &Var, line: u32) -> TResult<String> {
        let name = &comp.cname;
        let scalar = |t: &mut Self, e: &Expr| -> TResult<String> {
            if let Ty::Derived(ct) = comp.ty {
                let Expr::Apply(tname, args) = e else {
                    return unsupported(line, format!("default initialization of component `{name}` by other than a structure constructor"));
                };
                if derived_c_type(tname) != ct {
                    return error(line, format!("the default of component `{name}` is not a value of its type"));
                }
                return Ok(format!("{{{}}}", t.constructor_values(tname, args, line)?.join(", ")));
            }
            if comp.ty == Ty::Char {
                let Expr::Str(s) = e else { return unsupported(line, format!("default initialization of character component `{name}` by other than a literal")) };
                let mut b: Vec<u8> = s.bytes().collect();
                b.resize(comp.char_len.max(1) as usize, b' ');
                return Ok(c_str(&String::from_utf8_lossy(&b)));
            }
            let v = t.expr(e, None, line)?;
            let ok = match comp.ty {
                Ty::Int(_) | Ty::Real(_) | Ty::Complex(_) => v.ty.is_numeric(),
                other => v.ty == other,
            };
            if !ok {
                return error(line, format!("component `{name}` is {} but its default is {}", comp.ty.name(), v.ty.name()));
            }
            let c = Self::convert(&v, comp.ty);
            let bare = match c.strip_prefix('(').and_then(|r| r.split_once(')')) {
                Some((_, rest)) if c.starts_with(&format!("({})", comp.ty.c())) => rest.to_string(),
                _ => c.clone(),
            };
            if !is_c_constant(&unparen(&bare)) {
                return unsupported(line, format!("a default of component `{name}` that is not a literal constant"));
            }
            Ok(c)
        };
        match &comp.shape {
            None => scalar(self, init),
            Some(sh) => {
                let total: i64 = sh.exts.iter().map(|x| x.parse::<i64>().unwrap_or(0)).product();
                let values = match init {
                    Expr::Constructor(items) => {
                        let mut v = Vec::new();
                        for it in items {
                            v.push(scalar(self, it)?);
                        }
                        if v.len() as i64 != total {
                            return error(line, format!("the default of component `{name}` has {} values for {total} elements", v.len()));
                        }
                        v
                    }
                    e => vec![scalar(self, e)?; total.max(1) as usize],
                };
                Ok(format!("{{{}}}", values.join(", ")))
            }
        }
    }

    /// The braced C initializer of a whole value of derived type `ty` when any of its components
    /// (or of theirs) has a default; components without one get zero.
    pub fn derived_default(&self, ty: Ty) -> Option<String> {
        let Ty::Derived(ct) = ty else { return None };
        let dt = self.derived.get(ct.strip_prefix("struct _fty_").unwrap_or(ct))?;
        dt.default_init.clone()
    }

    /// The positional initializer of a type from its components' defaults (see
    /// [`Self::derived_default`]), `None` when no component has one.
    pub(super) fn type_default(&self, components: &[(String, Var)], defaults: &[Option<String>]) -> Option<String> {
        let mut any = false;
        let mut parts = Vec::new();
        for ((_, comp), d) in components.iter().zip(defaults) {
            let nested = if comp.shape.is_none() { self.derived_default(comp.ty) } else { None };
            let nested_array = match (&comp.shape, self.derived_default(comp.ty)) {
                (Some(sh), Some(one)) => {
                    let total: i64 = sh.exts.iter().map(|x| x.parse::<i64>().unwrap_or(0)).product();
                    Some(format!("{{{}}}", vec![one; total.max(1) as usize].join(", ")))
                }
                _ => None,
            };
            let part = d.clone().or(nested).or(nested_array);
            any |= part.is_some();
            parts.push(part.unwrap_or_else(|| if comp.shape.is_some() || matches!(comp.ty, Ty::Derived(_) | Ty::Char) { "{0}".into() } else { "0".into() }));
        }
        any.then(|| format!("{{{}}}", parts.join(", ")))
    }

    /// Statements giving each of the `count` elements at `base` the default of type `ty` (after
    /// `allocate`, for an automatic array, or for a local array of the type).
    pub fn default_fill(&mut self, ty: Ty, base: &str, count: &str) -> Option<String> {
        let init = self.derived_default(ty)?;
        let i = self.tmp("i");
        Some(format!("for (long {i} = 0; {i} < {count}; {i}++) {base}[{i}] = ({}){init};", ty.c()))
    }

    /// Whether values of type `ty` hold allocatable components (directly or in nested ones).
    pub fn has_allocatable_components(&self, ty: Ty) -> bool {
        let Ty::Derived(ct) = ty else { return false };
        let Some(dt) = self.derived.get(ct.strip_prefix("struct _fty_").unwrap_or(ct)) else { return false };
        // A pointer component's target is not part of the value (and may be of the same type).
        dt.components.iter().any(|(_, c)| c.allocatable || (!c.pointer && self.has_allocatable_components(c.ty)))
    }

    /// Statements deallocating the allocated allocatable components of `value` (a C lvalue of
    /// type `ty`), in nested components and elements of array components too: what Fortran does
    /// when the value's variable is deallocated or, unsaved, its procedure returns (Fortran 2003
    /// §6.3.3.1, "any allocated allocatable subobject is deallocated"; gfortran frees them).
    /// Empty when the type has none.
    pub fn free_components(&mut self, ty: Ty, value: &str) -> String {
        let Ty::Derived(ct) = ty else { return String::new() };
        let Some(dt) = self.derived.get(ct.strip_prefix("struct _fty_").unwrap_or(ct)).cloned() else { return String::new() };
        let mut out = String::new();
        for (_, c) in &dt.components {
            let member = format!("{value}.{}", c.cname);
            if c.allocatable {
                out.push_str(&format!("if ({member}) {{ free({member}); {member} = 0; }} "));
            } else if !c.pointer && self.has_allocatable_components(c.ty) {
                match &c.shape {
                    None => out.push_str(&self.free_components(c.ty, &member)),
                    Some(sh) => {
                        let i = self.tmp("i");
                        let inner = self.free_components(c.ty, &format!("{member}[{i}]"));
                        out.push_str(&format!("for (long {i} = 0; {i} < {}; {i}++) {{ {inner}}} ", sh.total()));
                    }
                }
            }
        }
        out
    }

    /// [`Self::free_components`] of every element of variable `v` (a scalar or an array of a
    /// type with allocatable components; an unallocated array has none).
    pub fn free_components_of(&mut self, v: &Var) -> String {
        if !self.has_allocatable_components(v.ty) {
            return String::new();
        }
        match &v.shape {
            None => self.free_components(v.ty, &v.cname),
            Some(sh) => {
                let i = self.tmp("i");
                let inner = self.free_components(v.ty, &format!("{}[{i}]", v.cname));
                let guard = if sh.fixed { String::new() } else { format!("if ({}) ", v.cname) };
                format!("{guard}for (long {i} = 0; {i} < {}; {i}++) {{ {inner}}} ", sh.total())
            }
        }
    }

    /// Intrinsic assignment of a type with allocatable components copies their data (Fortran
    /// 2003 §7.4.1.3: the variable's component is allocated like the expression's and gets its
    /// values); a C struct assignment would share them, so it is named unsupported.
    pub fn check_shallow_assignable(&self, ty: Ty, line: u32) -> TResult<()> {
        if self.has_allocatable_components(ty) {
            return unsupported(line, "intrinsic assignment of a whole value of a type with allocatable components (assign the components)");
        }
        Ok(())
    }
}
