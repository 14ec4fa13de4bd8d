//! Bound variables nothing reads. A local allocatable array that every `allocate` gives the same
//! constant bounds is addressed with those constants (`Translator::constant_allocation`), but its
//! bound variables (`a_lb1`, `a_n1`, …) are still declared and set at each `allocate`, for the
//! uses that need them (a `call` passing the array to an allocatable dummy, `size`, pointer
//! association, …). Where the procedure's text reads none of them, the declaration and the
//! `allocate` lines that set them are dropped: they are locals the run never observes, yet each
//! OpenACC statement of the procedure stores and reloads every local around its run-site, and
//! the native engine translates all of it (issue 16: the Fortran Jacobi's two arrays cost its
//! `main` 316 of 2,601 Cranelift instructions). `lbound`/`size` in the GUI's memory view come
//! from the constant bounds the translation records (`crate::names`) for such arrays.

use super::*;

/// Occurrences of the identifier `name` in `text` (not as part of a longer identifier).
fn count_identifier(text: &str, name: &str) -> usize {
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let bytes = text.as_bytes();
    text.match_indices(name)
        .filter(|(i, _)| {
            let before = *i == 0 || !ident(bytes[i - 1]);
            let end = i + name.len();
            let after = end >= bytes.len() || !ident(bytes[end]);
            before && after
        })
        .count()
}

impl Translator {
    /// Drop the bound variables of the procedure's constant-bound allocatable arrays that its text
    /// (`decls`, `body` and the `other` pieces) does not read: their declaration in `decls` and
    /// the lines of `body` that set them at an `allocate`.
    pub(super) fn drop_unread_bounds(&self, decls: &mut String, body: &mut String, other: &[&str]) {
        let mut arrays: Vec<(String, usize)> = Vec::new();
        for name in &self.f.order {
            let Some(v) = self.f.scope.get(name) else { continue };
            let Some(sh) = &v.shape else { continue };
            let constant = sh.lbs.iter().chain(&sh.exts).all(|b| b.parse::<i64>().is_ok());
            if v.allocatable && !v.global && v.dummy.is_none() && !v.pointer && constant {
                arrays.push((v.cname.clone(), sh.rank()));
            }
        }
        for (c, rank) in arrays {
            let declaration: Vec<String> = (1..=rank).map(|k| format!("long {c}_lb{k} = 1, {c}_n{k} = 0;")).collect();
            let sets = |k: usize| format!("{c}_lb{k} = ");
            let mut unread = true;
            for k in 1..=rank {
                let (lb, n) = (format!("{c}_lb{k}"), format!("{c}_n{k}"));
                let allocates = body.lines().filter(|l| l.trim_start().starts_with(&sets(k))).count();
                let declared = decls.lines().filter(|l| l.trim_start().starts_with(&declaration[k - 1])).count();
                let count = |name: &str| count_identifier(decls, name) + count_identifier(body, name) + other.iter().map(|t| count_identifier(t, name)).sum::<usize>();
                // Declared once, and each `allocate` line names `lb` once and `n` three times.
                if declared != 1 || count(&lb) != 1 + allocates || count(&n) != 1 + 3 * allocates {
                    unread = false;
                    break;
                }
            }
            if !unread {
                continue;
            }
            let keep = |l: &&str| {
                let t = l.trim_start();
                !declaration.iter().any(|d| t.starts_with(d.as_str())) && !(1..=rank).any(|k| t.starts_with(&sets(k)))
            };
            *decls = decls.split_inclusive('\n').filter(keep).collect();
            *body = body.split_inclusive('\n').filter(keep).collect();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::count_identifier;

    #[test]
    fn identifiers_are_counted_whole() {
        let text = "a_n1 = 3; xa_n1 = a_n1 + a_n10; if (a_n1 < 0) a_n1 = 0;";
        assert_eq!(count_identifier(text, "a_n1"), 4);
        assert_eq!(count_identifier(text, "xa_n1"), 1);
        assert_eq!(count_identifier("", "a_n1"), 0);
    }
}
