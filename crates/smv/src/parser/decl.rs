//! Declarations: variable sections, DEFINEs, assignments and types.

use hypermut_ir::Span;

use crate::ast::{
    Assign, AssignKind, DefineBody, DefineDecl, EnumItem, Expr, ExprKind, Ident, Section, Suffix,
    TypeKind, TypeSpec, VarDecl, VarKind,
};
use crate::error::Diag;
use crate::lexer::Tok;

use super::Parser;

/// Type keywords of infinite or timed types, rejected during elaboration.
const UNSUPPORTED_TYPES: &[&str] = &["integer", "real", "clock"];

impl Parser<'_> {
    /// `name : type;` declarations up to the next section keyword.
    pub(super) fn var_section(&mut self, kind: VarKind) -> Result<Section, Diag> {
        let mut decls = Vec::new();
        while !self.peek().is_section_start() {
            let (name, suffix) = self.decl_name(&format!(
                "a variable name in the {} section",
                kind.keyword()
            ))?;
            self.expect_sym(":")?;
            let ty = self.type_spec()?;
            if kind != VarKind::Var {
                if let TypeKind::Module { .. } = ty.kind {
                    return Err(Diag::new(
                        ty.span,
                        format!(
                            "module instances must be declared in a VAR section, not in {}",
                            kind.keyword()
                        ),
                    ));
                }
            }
            self.expect_sym(";")?;
            decls.push(VarDecl { name, suffix, ty });
        }
        Ok(Section::Vars(kind, decls))
    }

    /// `name := expr;` / `name := [e, …];` declarations up to the next section keyword.
    pub(super) fn define_section(&mut self) -> Result<Section, Diag> {
        let mut decls = Vec::new();
        while !self.peek().is_section_start() {
            let (name, suffix) = self.decl_name("a DEFINE name")?;
            self.expect_sym(":=")?;
            let body = self.define_body()?;
            self.expect_sym(";")?;
            decls.push(DefineDecl { name, suffix, body });
        }
        Ok(Section::Defines(decls))
    }

    /// A declared name: an identifier followed by `.name`, `.k` or `[k]` components; the
    /// returned identifier spans the whole name.
    fn decl_name(&mut self, what: &str) -> Result<(Ident, Vec<Suffix>), Diag> {
        let first = self.ident(what)?;
        let mut suffix = Vec::new();
        let mut end = first.span;
        loop {
            if self.eat_sym(".").is_some() {
                let t = self.peek();
                match &t.tok {
                    Tok::Ident(n) | Tok::Int(n) => {
                        suffix.push(Suffix::Field(n.clone()));
                        end = self.bump().span;
                    }
                    _ => return Err(self.unexpected("a name after `.`")),
                }
            } else if self.eat_sym("[").is_some() {
                let (k, _) = self.signed_int()?;
                suffix.push(Suffix::Index(k));
                end = self.expect_sym("]")?;
            } else {
                break;
            }
        }
        let span = self.join(first.span, end);
        Ok((
            Ident {
                name: first.name,
                span,
            },
            suffix,
        ))
    }

    /// An expression or an array expression `[b, …]`.
    fn define_body(&mut self) -> Result<DefineBody, Diag> {
        if !self.peek().is_sym("[") {
            return Ok(DefineBody::Expr(self.expr()?));
        }
        self.nested(|p| {
            let open = p.bump().span;
            let mut items = Vec::new();
            loop {
                items.push(p.define_body()?);
                if p.eat_sym(",").is_some() {
                    continue;
                }
                let close = p.expect_sym("]")?;
                return Ok(DefineBody::Array(items, p.join(open, close)));
            }
        })
    }

    /// `init(x) := e;`, `next(x) := e;` and `x := e;` up to the next section keyword.
    pub(super) fn assign_section(&mut self) -> Result<Section, Diag> {
        let mut assigns = Vec::new();
        while !self.peek().is_section_start() {
            let start = self.peek().span;
            let kind = if self.peek().is_kw("init") {
                AssignKind::Init
            } else if self.peek().is_kw("next") {
                AssignKind::Next
            } else {
                AssignKind::Invariant
            };
            let target = if kind == AssignKind::Invariant {
                self.var_id("`init(…)`, `next(…)` or a variable name")?
            } else {
                self.bump();
                self.expect_sym("(")?;
                let id = self.var_id("a variable name")?;
                self.expect_sym(")")?;
                id
            };
            let lhs_span = self.join(start, self.toks[self.pos.saturating_sub(1)].span);
            self.expect_sym(":=")?;
            let rhs = self.expr()?;
            self.expect_sym(";")?;
            assigns.push(Assign {
                kind,
                target,
                lhs_span,
                rhs,
            });
        }
        Ok(Section::Assigns(assigns))
    }

    /// A variable reference on an assignment's left: `x`, `self`, `a.b`, `a[e]`.
    fn var_id(&mut self, what: &str) -> Result<Expr, Diag> {
        let t = self.peek();
        let mut e = if t.is_kw("self") {
            self.bump();
            Expr {
                kind: ExprKind::SelfRef,
                span: t.span,
            }
        } else {
            let id = self.ident(what)?;
            Expr {
                span: id.span,
                kind: ExprKind::Ident(id.name),
            }
        };
        loop {
            if self.eat_sym(".").is_some() {
                let f = self.ident("a member name after `.`")?;
                let span = self.join(e.span, f.span);
                e = Expr {
                    kind: ExprKind::Field(Box::new(e), f),
                    span,
                };
            } else if self.eat_sym("[").is_some() {
                let i = self.expr()?;
                let close = self.expect_sym("]")?;
                let span = self.join(e.span, close);
                e = Expr {
                    kind: ExprKind::Index(Box::new(e), Box::new(i)),
                    span,
                };
            } else {
                return Ok(e);
            }
        }
    }

    /// A type: `boolean`, `{v, …}`, `lo..hi`, `[unsigned|signed] word[N]`,
    /// `array lo..hi of T`, a module name with optional arguments, `process M(…)`.
    pub(super) fn type_spec(&mut self) -> Result<TypeSpec, Diag> {
        self.nested(|p| p.type_spec_inner())
    }

    fn type_spec_inner(&mut self) -> Result<TypeSpec, Diag> {
        let t = self.peek();
        let start = t.span;
        let simple = |kind| Ok(TypeSpec { kind, span: start });
        match &t.tok {
            Tok::Kw("boolean") => {
                self.bump();
                return simple(TypeKind::Boolean);
            }
            Tok::Kw(k) if UNSUPPORTED_TYPES.contains(k) => {
                self.bump();
                return simple(TypeKind::Unsupported(k));
            }
            Tok::Kw("word") | Tok::Kw("signed") | Tok::Kw("unsigned") => {
                let signed = t.is_kw("signed");
                if !t.is_kw("word") {
                    self.bump();
                    if !self.peek().is_kw("word") {
                        return Err(self.unexpected("`word`"));
                    }
                }
                self.bump();
                self.expect_sym("[")?;
                let width = self.expr()?;
                let close = self.expect_sym("]")?;
                return Ok(TypeSpec {
                    kind: TypeKind::Word {
                        signed,
                        width: Box::new(width),
                    },
                    span: self.join(start, close),
                });
            }
            Tok::Kw("array") => {
                self.bump();
                let lo = self.bound_expr()?;
                self.expect_sym("..")?;
                let hi = self.bound_expr()?;
                if !self.peek().is_kw("of") {
                    return Err(self.unexpected("`of`"));
                }
                self.bump();
                let elem = self.type_spec()?;
                let span = self.join(start, elem.span);
                return Ok(TypeSpec {
                    kind: TypeKind::Array(Box::new(lo), Box::new(hi), Box::new(elem)),
                    span,
                });
            }
            Tok::Kw("process") => {
                self.bump();
                let m = self.ident("a module name after `process`")?;
                let (args, end) = self.module_args(m.span)?;
                return Ok(TypeSpec {
                    kind: TypeKind::Module {
                        name: m,
                        args,
                        process: true,
                    },
                    span: self.join(start, end),
                });
            }
            Tok::Sym("{") => return self.enum_type(),
            Tok::Ident(_) if !self.peek2().is_sym("..") && !self.starts_bound_expr() => {
                let m = self.ident("a type")?;
                let (args, end) = self.module_args(m.span)?;
                return Ok(TypeSpec {
                    kind: TypeKind::Module {
                        name: m,
                        args,
                        process: false,
                    },
                    span: self.join(start, end),
                });
            }
            _ => {}
        }
        let lo = self.bound_expr()?;
        if !self.peek().is_sym("..") {
            return Err(self.unexpected("a type"));
        }
        self.bump();
        let hi = self.bound_expr()?;
        let span = self.join(start, hi.span);
        Ok(TypeSpec {
            kind: TypeKind::Range(Box::new(lo), Box::new(hi)),
            span,
        })
    }

    /// Whether an identifier at the cursor starts a range bound expression (`N + 1..M`)
    /// rather than a module type: it is followed by an arithmetic operator.
    fn starts_bound_expr(&self) -> bool {
        let t = self.peek2();
        ["+", "-", "*", "/", "<<", ">>"].iter().any(|s| t.is_sym(s)) || t.is_kw("mod")
    }

    /// Optional `(args)` of a module type; returns them and the span of the last token.
    fn module_args(&mut self, name: Span) -> Result<(Vec<Expr>, Span), Diag> {
        if self.eat_sym("(").is_none() {
            return Ok((Vec::new(), name));
        }
        let mut args = Vec::new();
        if let Some(close) = self.eat_sym(")") {
            return Ok((args, close));
        }
        loop {
            args.push(self.expr()?);
            if self.eat_sym(",").is_some() {
                continue;
            }
            let close = self.expect_sym(")")?;
            return Ok((args, close));
        }
    }

    /// `{v, …}` with symbolic, integer and `TRUE`/`FALSE` values.
    fn enum_type(&mut self) -> Result<TypeSpec, Diag> {
        let start = self.bump().span;
        let mut items = Vec::new();
        loop {
            let t = self.peek();
            let item = match &t.tok {
                Tok::Ident(name) => {
                    let span = self.bump().span;
                    (EnumItem::Symbol(name.clone()), span)
                }
                Tok::Int(_) => {
                    let (v, span) = self.signed_int()?;
                    (EnumItem::Int(v), span)
                }
                _ if t.is_sym("-") || t.is_sym("+") => {
                    let (v, span) = self.signed_int()?;
                    (EnumItem::Int(v), span)
                }
                Tok::Kw("TRUE") | Tok::Kw("FALSE") => {
                    return Err(Diag::new(
                        t.span,
                        "TRUE and FALSE cannot be values of an enumeration; use `boolean`",
                    ))
                }
                _ => return Err(self.unexpected("an enumeration value")),
            };
            items.push(item);
            if self.eat_sym(",").is_some() {
                continue;
            }
            if self.peek().is_sym("}") {
                break;
            }
            return Err(self.unexpected("`,` or `}` in the enumeration type"));
        }
        let end = self.bump().span;
        Ok(TypeSpec {
            kind: TypeKind::Enum(items),
            span: self.join(start, end),
        })
    }

    /// A signed integer literal; returns the value and its span.
    fn signed_int(&mut self) -> Result<(i64, Span), Diag> {
        let start = self.peek().span;
        let neg = self.eat_sym("-").is_some();
        if !neg {
            self.eat_sym("+");
        }
        let t = self.peek();
        let Tok::Int(digits) = &t.tok else {
            return Err(self.unexpected("an integer"));
        };
        self.bump();
        let span = self.join(start, t.span);
        let v = parse_int(digits, neg).ok_or_else(|| {
            Diag::new(
                span,
                format!("integer constant `{}` is out of range", self.text_of(span)),
            )
        })?;
        Ok((v, span))
    }
}

/// The value of decimal `digits`, negated when `neg`, if it fits in an `i64`.
pub(super) fn parse_int(digits: &str, neg: bool) -> Option<i64> {
    let v: i128 = digits.parse().ok()?;
    i64::try_from(if neg { -v } else { v }).ok()
}
