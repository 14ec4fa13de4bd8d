//! Expression parsing over one statement's tokens (Fortran 2003 §7.1.2 precedence, lowest first):
//! `.eqv. .neqv.` < `.or.` < `.and.` < `.not.` < relational < `//` < `+ -` < `* /` < `**`
//! (right-associative; a unary sign applies to the whole `*`/`**` term after it).

use crate::ast::{Arg, Expr};
use crate::lexer::{Tok, Token};

pub type PResult<T> = Result<T, (usize, String)>;

/// A cursor over one statement's tokens.
pub struct Cursor<'a> {
    pub toks: &'a [Token],
    pub pos: usize,
    /// Column to report at the end of the statement.
    pub end_col: usize,
}

impl<'a> Cursor<'a> {
    pub fn new(toks: &'a [Token], end_col: usize) -> Self {
        Cursor { toks, pos: 0, end_col }
    }
    pub fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }
    pub fn peek_at(&self, n: usize) -> Option<&Tok> {
        self.toks.get(self.pos + n).map(|t| &t.tok)
    }
    pub fn col(&self) -> usize {
        self.toks.get(self.pos).map(|t| t.col).unwrap_or(self.end_col)
    }
    pub fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }
    pub fn is_p(&self, p: &str) -> bool {
        matches!(self.peek(), Some(Tok::P(q)) if *q == p)
    }
    pub fn eat_p(&mut self, p: &str) -> bool {
        if self.is_p(p) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    pub fn expect_p(&mut self, p: &str) -> PResult<()> {
        if self.eat_p(p) {
            Ok(())
        } else {
            Err((self.col(), format!("expected `{p}`{}", self.found())))
        }
    }
    pub fn found(&self) -> String {
        match self.peek() {
            None => " at the end of the statement".into(),
            Some(t) => format!(", found {}", describe(t)),
        }
    }
    pub fn is_name(&self, n: &str) -> bool {
        matches!(self.peek(), Some(Tok::Name(m)) if m == n)
    }
    pub fn eat_name(&mut self, n: &str) -> bool {
        if self.is_name(n) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    pub fn name(&mut self) -> PResult<String> {
        match self.peek() {
            Some(Tok::Name(n)) => {
                let n = n.clone();
                self.pos += 1;
                Ok(n)
            }
            _ => Err((self.col(), format!("expected a name{}", self.found()))),
        }
    }
    pub fn expect_end(&self) -> PResult<()> {
        if self.at_end() {
            Ok(())
        } else {
            Err((self.col(), format!("unexpected {} after the statement", describe(self.peek().unwrap_or(&Tok::P("?"))))))
        }
    }

    pub fn expr(&mut self) -> PResult<Expr> {
        self.equiv()
    }

    /// `(e1, e2, …)` to the end of the statement: the object list of `nullify` and
    /// `deallocate`.
    pub fn parenthesized_list_statement(&mut self) -> PResult<Vec<Expr>> {
        self.expect_p("(")?;
        let mut items = Vec::new();
        loop {
            items.push(self.expr()?);
            if self.eat_p(")") {
                break;
            }
            self.expect_p(",")?;
        }
        self.expect_end()?;
        Ok(items)
    }

    fn equiv(&mut self) -> PResult<Expr> {
        let mut l = self.or()?;
        loop {
            let op = match self.peek() {
                Some(Tok::Dot(d)) if d == "eqv" => ".eqv.",
                Some(Tok::Dot(d)) if d == "neqv" => ".neqv.",
                _ => return Ok(l),
            };
            self.pos += 1;
            let r = self.or()?;
            l = Expr::Binary(op, Box::new(l), Box::new(r));
        }
    }
    fn or(&mut self) -> PResult<Expr> {
        let mut l = self.and()?;
        while matches!(self.peek(), Some(Tok::Dot(d)) if d == "or") {
            self.pos += 1;
            let r = self.and()?;
            l = Expr::Binary(".or.", Box::new(l), Box::new(r));
        }
        Ok(l)
    }
    fn and(&mut self) -> PResult<Expr> {
        let mut l = self.not()?;
        while matches!(self.peek(), Some(Tok::Dot(d)) if d == "and") {
            self.pos += 1;
            let r = self.not()?;
            l = Expr::Binary(".and.", Box::new(l), Box::new(r));
        }
        Ok(l)
    }
    fn not(&mut self) -> PResult<Expr> {
        if matches!(self.peek(), Some(Tok::Dot(d)) if d == "not") {
            self.pos += 1;
            let e = self.not()?;
            return Ok(Expr::Unary(".not.", Box::new(e)));
        }
        self.rel()
    }
    fn rel(&mut self) -> PResult<Expr> {
        let l = self.concat()?;
        let op = match self.peek() {
            Some(Tok::P("==")) => "==",
            Some(Tok::P("/=")) => "/=",
            Some(Tok::P("<")) => "<",
            Some(Tok::P("<=")) => "<=",
            Some(Tok::P(">")) => ">",
            Some(Tok::P(">=")) => ">=",
            Some(Tok::Dot(d)) => match d.as_str() {
                "eq" => "==",
                "ne" => "/=",
                "lt" => "<",
                "le" => "<=",
                "gt" => ">",
                "ge" => ">=",
                _ => return Ok(l),
            },
            _ => return Ok(l),
        };
        self.pos += 1;
        let r = self.concat()?;
        Ok(Expr::Binary(op, Box::new(l), Box::new(r)))
    }
    fn concat(&mut self) -> PResult<Expr> {
        let mut l = self.add()?;
        while self.eat_p("//") {
            let r = self.add()?;
            l = Expr::Binary("//", Box::new(l), Box::new(r));
        }
        Ok(l)
    }
    fn add(&mut self) -> PResult<Expr> {
        let mut l = if self.is_p("-") || self.is_p("+") {
            let neg = self.is_p("-");
            self.pos += 1;
            let t = self.mul()?;
            if neg {
                Expr::Unary("-", Box::new(t))
            } else {
                t
            }
        } else {
            self.mul()?
        };
        loop {
            let op = if self.is_p("+") {
                "+"
            } else if self.is_p("-") {
                "-"
            } else {
                return Ok(l);
            };
            self.pos += 1;
            let r = self.mul()?;
            l = Expr::Binary(op, Box::new(l), Box::new(r));
        }
    }
    fn mul(&mut self) -> PResult<Expr> {
        let mut l = self.pow()?;
        loop {
            let op = if self.is_p("*") {
                "*"
            } else if self.is_p("/") {
                "/"
            } else {
                return Ok(l);
            };
            self.pos += 1;
            let r = self.pow()?;
            l = Expr::Binary(op, Box::new(l), Box::new(r));
        }
    }
    fn pow(&mut self) -> PResult<Expr> {
        let base = self.primary()?;
        if self.eat_p("**") {
            // gfortran accepts a signed exponent (`x**-1`).
            let e = if self.is_p("-") {
                self.pos += 1;
                Expr::Unary("-", Box::new(self.pow()?))
            } else {
                self.pow()?
            };
            return Ok(Expr::Binary("**", Box::new(base), Box::new(e)));
        }
        Ok(base)
    }
    fn primary(&mut self) -> PResult<Expr> {
        let col = self.col();
        let t = self.peek().cloned().ok_or((col, "expected an expression at the end of the statement".to_string()))?;
        self.pos += 1;
        match t {
            Tok::Int(d, k) => Ok(Expr::Int(d, k)),
            Tok::Real(r) => Ok(Expr::Real(r)),
            Tok::Str(s) => Ok(Expr::Str(s)),
            Tok::Dot(d) if d == "true" => Ok(Expr::Logical(true)),
            Tok::Dot(d) if d == "false" => Ok(Expr::Logical(false)),
            Tok::Name(n) => {
                let mut e = if self.is_p("(") {
                    self.pos += 1;
                    let args = self.args(")")?;
                    Expr::Apply(n, args)
                } else {
                    Expr::Name(n)
                };
                // Structure components (Fortran 2003 §6.1.2): `a(i)%b%c(j)`.
                while self.eat_p("%") {
                    let part = self.name()?;
                    let args = if self.eat_p("(") { Some(self.args(")")?) } else { None };
                    e = Expr::Component(Box::new(e), part, args);
                }
                // A substring of an array element or component (§6.1.1): `names(i)(1:3)`.
                if matches!(e, Expr::Apply(..) | Expr::Component(_, _, Some(_))) && self.is_p("(") {
                    let col = self.col();
                    self.pos += 1;
                    match self.args(")")?.as_slice() {
                        [Arg::Range(lo, hi, None)] => e = Expr::Substring(Box::new(e), lo.clone().map(Box::new), hi.clone().map(Box::new)),
                        _ => return Err((col, "expected a substring range `(lo:hi)`".into())),
                    }
                }
                Ok(e)
            }
            Tok::P("(/") => {
                let items = self.items("/)")?;
                Ok(Expr::Constructor(items))
            }
            Tok::P("[") => {
                let items = self.items("]")?;
                Ok(Expr::Constructor(items))
            }
            Tok::P("(") => {
                let first = self.expr()?;
                if self.eat_p(",") {
                    // A complex constant `(re, im)` or an implied-do `(x, i = 1, n)`.
                    let mut rest = vec![first];
                    loop {
                        if let (Some(Tok::Name(_)), Some(Tok::P("="))) = (self.peek(), self.peek_at(1)) {
                            return self.implied_do_tail(rest);
                        }
                        rest.push(self.expr()?);
                        if !self.eat_p(",") {
                            break;
                        }
                    }
                    self.expect_p(")")?;
                    if rest.len() == 2 {
                        let im = rest.pop().unwrap_or(Expr::Int("0".into(), None));
                        let re = rest.pop().unwrap_or(Expr::Int("0".into(), None));
                        return Ok(Expr::Complex(Box::new(re), Box::new(im)));
                    }
                    return Err((col, "expected `)`".into()));
                }
                self.expect_p(")")?;
                Ok(Expr::Paren(Box::new(first)))
            }
            other => Err((col, format!("expected an expression, found {}", describe(&other)))),
        }
    }

    /// After `(items,` with the cursor at `var =`: the rest of an implied-do.
    fn implied_do_tail(&mut self, items: Vec<Expr>) -> PResult<Expr> {
        let var = self.name()?;
        self.expect_p("=")?;
        let lo = self.expr()?;
        self.expect_p(",")?;
        let hi = self.expr()?;
        let step = if self.eat_p(",") { Some(Box::new(self.expr()?)) } else { None };
        self.expect_p(")")?;
        Ok(Expr::ImpliedDo { items, var, lo: Box::new(lo), hi: Box::new(hi), step })
    }

    /// Items of a constructor or I/O list up to `close` (consumed).
    fn items(&mut self, close: &str) -> PResult<Vec<Expr>> {
        let mut v = Vec::new();
        if self.eat_p(close) {
            return Ok(v);
        }
        loop {
            v.push(self.expr()?);
            if self.eat_p(close) {
                return Ok(v);
            }
            self.expect_p(",")?;
        }
    }

    /// Actual arguments or subscripts up to `close` (consumed).
    pub fn args(&mut self, close: &str) -> PResult<Vec<Arg>> {
        let mut v = Vec::new();
        if self.eat_p(close) {
            return Ok(v);
        }
        loop {
            v.push(self.arg()?);
            if self.eat_p(close) {
                return Ok(v);
            }
            self.expect_p(",")?;
        }
    }

    fn arg(&mut self) -> PResult<Arg> {
        if let (Some(Tok::Name(n)), Some(Tok::P("="))) = (self.peek(), self.peek_at(1)) {
            let n = n.clone();
            self.pos += 2;
            return Ok(Arg::Keyword(n, self.expr()?));
        }
        let lo = if self.is_p(":") { None } else { Some(self.expr()?) };
        if !self.eat_p(":") {
            return Ok(Arg::Value(lo.ok_or((self.col(), "expected an expression".to_string()))?));
        }
        let hi = if self.is_p(":") || self.is_p(",") || self.is_p(")") { None } else { Some(self.expr()?) };
        let stride = if self.eat_p(":") { Some(self.expr()?) } else { None };
        Ok(Arg::Range(lo, hi, stride))
    }
}

pub fn describe(t: &Tok) -> String {
    match t {
        Tok::Name(n) => format!("`{n}`"),
        Tok::Int(d, _) => format!("`{d}`"),
        Tok::Real(r) => format!("`{r}`"),
        Tok::Str(s) => format!("'{s}'"),
        Tok::Dot(d) => format!("`.{d}.`"),
        Tok::P(p) => format!("`{p}`"),
    }
}
