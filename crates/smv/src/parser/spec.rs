//! Specification, fairness and CONSTANTS sections.

use hypermut_ir::Span;

use crate::ast::{FairKind, Ident, Section, Spec, SpecKind};
use crate::error::Diag;
use crate::lexer::Tok;

use super::Parser;

impl Parser<'_> {
    /// `INVARSPEC|SPEC|CTLSPEC|LTLSPEC [NAME n :=] expr [;]`.
    pub(super) fn spec(&mut self, kind: SpecKind, keyword: Span) -> Result<Section, Diag> {
        let name = if self.peek().is_ident("NAME") && !self.peek2().is_sym(":=") {
            self.bump();
            let n = self.ident("a property name after NAME")?;
            self.expect_sym(":=")?;
            Some(n)
        } else {
            None
        };
        self.in_spec = kind != SpecKind::Invar;
        let e = self.expr();
        self.in_spec = false;
        let expr = e?;
        if self.peek().is_kw("in") || self.peek().is_ident("IN") {
            return Err(Diag::new(
                self.peek().span,
                "specifications with an `IN` context are not supported",
            ));
        }
        self.end_of_section()?;
        Ok(Section::Spec(Spec {
            kind,
            name,
            expr,
            keyword,
        }))
    }

    /// `FAIRNESS e`, `JUSTICE e`, `COMPASSION (p, q)`.
    pub(super) fn fairness(&mut self, kw: &str, kw_span: Span) -> Result<Section, Diag> {
        let ident = Ident {
            name: kw.to_string(),
            span: kw_span,
        };
        if kw == "COMPASSION" {
            self.expect_sym("(")?;
            let p = self.expr()?;
            self.expect_sym(",")?;
            let q = self.expr()?;
            self.expect_sym(")")?;
            self.end_of_section()?;
            return Ok(Section::Fairness(FairKind::Compassion, ident, vec![p, q]));
        }
        let e = self.expr()?;
        self.end_of_section()?;
        Ok(Section::Fairness(FairKind::Justice, ident, vec![e]))
    }

    /// `CONSTANTS a, b, …;`.
    pub(super) fn constants(&mut self) -> Result<Section, Diag> {
        let mut names = Vec::new();
        if self.eat_sym(";").is_some() {
            return Ok(Section::Constants(names));
        }
        loop {
            names.push(self.ident("a constant name")?);
            if self.eat_sym(",").is_some() {
                continue;
            }
            self.expect_sym(";")?;
            return Ok(Section::Constants(names));
        }
    }

    /// An optional `;` followed by the next section keyword (or the end of file).
    pub(super) fn end_of_section(&mut self) -> Result<(), Diag> {
        self.eat_sym(";");
        if !self.peek().is_section_start() {
            return Err(match self.peek().tok {
                Tok::Bad(_) => self.unexpected(""),
                _ => self.unexpected("`;` or a section keyword"),
            });
        }
        Ok(())
    }
}
