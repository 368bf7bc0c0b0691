//! Modules, declarations and module items (including generate constructs, functions and
//! tasks, VIS `typedef enum`).

use crate::ast::{
    Connection, Decl, Declarator, Dir, EnumTypedef, FuncDecl, Gate, GateKind, GenBlock, GenFor,
    Instance, Item, Module, NetKind, ParamDecl, ParamOverride, PortHeader, Range, Sensitivity,
    Stmt,
};
use crate::error::{DResult, Diag};
use crate::lexer::Tok;

use super::{join, Parser};

/// Net type keywords (all treated as plain wires).
const NET_WORDS: &[&str] = &[
    "wire", "tri", "tri0", "tri1", "wand", "wor", "supply0", "supply1", "uwire", "triand", "trior",
    "trireg",
];

impl Parser<'_> {
    /// `module name [#(params)] [(ports)]; items endmodule`.
    pub(super) fn module(&mut self) -> DResult<Module> {
        self.bump();
        let name = self.ident()?;
        let mut header_params = Vec::new();
        if self.eat_sym("#").is_some() {
            self.expect_sym("(")?;
            if self.eat_sym(")").is_none() {
                loop {
                    let pstart = self.peek().span;
                    let local = self.eat_word("localparam").is_some();
                    if !local {
                        self.eat_word("parameter");
                    }
                    let mut decl = self.param_type(local, pstart)?;
                    let n = self.ident()?;
                    self.expect_sym("=")?;
                    let v = self.expr()?;
                    decl.span = join(pstart, v.span);
                    decl.assigns.push((n, v));
                    header_params.push(decl);
                    if self.eat_sym(",").is_none() {
                        break;
                    }
                }
                self.expect_sym(")")?;
            }
        }
        let mut ports = Vec::new();
        if self.eat_sym("(").is_some() && self.eat_sym(")").is_none() {
            loop {
                let t = self.peek();
                if t.is_word("input") || t.is_word("output") || t.is_word("inout") {
                    let d = self.decl_head()?;
                    let n = self.ident()?;
                    ports.push(PortHeader::Ansi(Box::new(Decl {
                        span: join(d.span, n.span),
                        names: vec![Declarator {
                            name: n,
                            dims: vec![],
                            init: None,
                        }],
                        ..d
                    })));
                } else if t.is_sym(".") {
                    self.bump();
                    let port = self.ident()?;
                    self.expect_sym("(")?;
                    if !self.at_ident() || !self.peek_at(1).is_sym(")") {
                        return Err(Diag::new(
                            self.peek().span,
                            "only plain names are supported in port expressions `.port(name)`",
                        ));
                    }
                    let inner = self.ident()?;
                    self.expect_sym(")")?;
                    ports.push(PortHeader::Renamed(port, inner));
                } else {
                    let n = self.ident()?;
                    // An ANSI port without direction inherits the previous declaration.
                    match ports.last() {
                        Some(PortHeader::Ansi(prev)) => {
                            let prev = (**prev).clone();
                            ports.push(PortHeader::Ansi(Box::new(Decl {
                                span: n.span,
                                names: vec![Declarator {
                                    name: n,
                                    dims: vec![],
                                    init: None,
                                }],
                                ..prev
                            })));
                        }
                        _ => ports.push(PortHeader::Name(n)),
                    }
                }
                if self.eat_sym(",").is_none() {
                    break;
                }
            }
            self.expect_sym(")")?;
        }
        self.expect_sym(";")?;
        let mut items = Vec::new();
        while !self.at_word("endmodule") {
            if self.peek().tok == Tok::Eof {
                return Err(Diag::new(
                    name.span,
                    format!("module `{}` has no `endmodule`", name.name),
                ));
            }
            self.item(&mut items)?;
        }
        self.bump();
        Ok(Module {
            name,
            header_params,
            ports,
            items,
            implicit_nets: true,
        })
    }

    /// The type part of a parameter declaration (after `parameter`).
    fn param_type(&mut self, local: bool, start: hypermut_ir::Span) -> DResult<ParamDecl> {
        let mut decl = ParamDecl {
            local,
            signed: false,
            range: None,
            integer: false,
            assigns: Vec::new(),
            span: start,
        };
        loop {
            if self.eat_word("signed").is_some() {
                decl.signed = true;
            } else if self.eat_word("unsigned").is_some() {
            } else if self.eat_word("integer").is_some() {
                decl.integer = true;
                decl.signed = true;
            } else if self.at_word("real") || self.at_word("realtime") {
                return Err(Diag::new(
                    self.peek().span,
                    "real parameters are not supported",
                ));
            } else if self.peek().is_sym("[") {
                decl.range = Some(self.range()?);
            } else {
                return Ok(decl);
            }
        }
    }

    /// `[msb:lsb]`.
    pub(super) fn range(&mut self) -> DResult<Range> {
        let open = self.expect_sym("[")?;
        let msb = self.expr()?;
        self.expect_sym(":")?;
        let lsb = self.expr()?;
        let close = self.expect_sym("]")?;
        Ok(Range {
            msb,
            lsb,
            span: join(open, close),
        })
    }

    /// Direction, kind, `signed` and range of a declaration (no names yet).
    pub(super) fn decl_head(&mut self) -> DResult<Decl> {
        let start = self.peek().span;
        let dir = if self.eat_word("input").is_some() {
            Some(Dir::Input)
        } else if self.eat_word("output").is_some() {
            Some(Dir::Output)
        } else if self.eat_word("inout").is_some() {
            Some(Dir::Inout)
        } else {
            None
        };
        let mut kind = None;
        let t = self.peek();
        if let Tok::Ident(w) = &t.tok {
            if NET_WORDS.contains(&w.as_str()) {
                self.bump();
                kind = Some(NetKind::Wire);
            } else if w == "reg" || w == "logic" {
                self.bump();
                kind = Some(NetKind::Reg);
            } else if w == "integer" {
                self.bump();
                kind = Some(NetKind::Integer);
            } else if w == "time" {
                self.bump();
                kind = Some(NetKind::Time);
            } else if w == "genvar" {
                self.bump();
                kind = Some(NetKind::Genvar);
            } else if self.typedefs.contains(w) {
                let id = self.ident()?;
                // `loc reg x` (vl2mv order) or `loc x`.
                self.eat_word("reg");
                self.eat_word("wire");
                kind = Some(NetKind::Enum(id));
            }
        }
        let mut signed = false;
        loop {
            if self.eat_word("signed").is_some() {
                signed = true;
            } else if ["unsigned", "vectored", "scalared"]
                .iter()
                .all(|w| self.eat_word(w).is_none())
            {
                break;
            }
        }
        // Drive strength `(strong0, weak1)` on nets.
        if kind == Some(NetKind::Wire)
            && self.peek().is_sym("(")
            && matches!(&self.peek_at(1).tok, Tok::Ident(w) if w.ends_with('0') || w.ends_with('1') || w.starts_with("high"))
        {
            while self.peek().tok != Tok::Eof && self.eat_sym(")").is_none() {
                self.bump();
            }
        }
        let range = if self.peek().is_sym("[") {
            Some(self.range()?)
        } else {
            None
        };
        self.skip_delay()?;
        Ok(Decl {
            dir,
            kind,
            signed,
            range,
            names: Vec::new(),
            span: start,
        })
    }

    /// `#delay` (ignored): a number, an identifier or a parenthesised list.
    pub(super) fn skip_delay(&mut self) -> DResult<()> {
        if self.eat_sym("#").is_none() {
            return Ok(());
        }
        let t = self.peek();
        match &t.tok {
            Tok::Number(_) | Tok::Real(_) | Tok::Ident(_) | Tok::Escaped(_) => {
                self.bump();
                if matches!(self.peek().tok, Tok::Based(_)) && matches!(t.tok, Tok::Number(_)) {
                    self.bump();
                }
            }
            Tok::Sym("(") => {
                let mut depth = 0usize;
                loop {
                    let t = self.bump();
                    match &t.tok {
                        Tok::Sym("(") => depth += 1,
                        Tok::Sym(")") => {
                            depth = depth.saturating_sub(1);
                            if depth == 0 {
                                break;
                            }
                        }
                        Tok::Eof => return Err(self.unexpected("`)`")),
                        _ => {}
                    }
                }
            }
            _ => return Err(self.unexpected("a delay value")),
        }
        Ok(())
    }

    /// The declarators of a declaration, up to and including `;`.
    pub(super) fn declarators(&mut self, mut d: Decl) -> DResult<Decl> {
        loop {
            let name = self.ident()?;
            let mut dims = Vec::new();
            while self.peek().is_sym("[") {
                dims.push(self.range()?);
            }
            let init = if self.eat_sym("=").is_some() {
                Some(self.expr()?)
            } else {
                None
            };
            d.names.push(Declarator { name, dims, init });
            if self.eat_sym(",").is_none() {
                break;
            }
        }
        let end = self.expect_sym(";")?;
        d.span = join(d.span, end);
        Ok(d)
    }

    /// `parameter …;` / `localparam …;` (the keyword is next).
    pub(super) fn param_decl(&mut self) -> DResult<ParamDecl> {
        let start = self.peek().span;
        let local = self.bump().is_word("localparam");
        let mut decl = self.param_type(local, start)?;
        loop {
            let n = self.ident()?;
            self.expect_sym("=")?;
            let v = self.expr()?;
            decl.assigns.push((n, v));
            if self.eat_sym(",").is_none() {
                break;
            }
        }
        let end = self.expect_sym(";")?;
        decl.span = join(start, end);
        Ok(decl)
    }

    /// `typedef enum [type] {A [= v], …} name;`.
    pub(super) fn typedef(&mut self) -> DResult<EnumTypedef> {
        self.bump();
        self.expect_word("enum")?;
        // SystemVerilog base type (`enum logic [1:0] {…}`): skipped.
        while !self.peek().is_sym("{") && self.peek().tok != Tok::Eof {
            if self.peek().is_sym("[") {
                self.range()?;
            } else {
                self.bump();
            }
        }
        self.expect_sym("{")?;
        let mut values = Vec::new();
        loop {
            let n = self.ident()?;
            let v = if self.eat_sym("=").is_some() {
                Some(self.expr()?)
            } else {
                None
            };
            values.push((n, v));
            if self.eat_sym(",").is_none() {
                break;
            }
        }
        self.expect_sym("}")?;
        let name = self.ident()?;
        self.expect_sym(";")?;
        self.typedefs.insert(name.name.clone());
        Ok(EnumTypedef { name, values })
    }

    /// One module item (appended to `out`; `generate` regions are flattened).
    pub(super) fn item(&mut self, out: &mut Vec<Item>) -> DResult<()> {
        self.nested(|p| p.item_inner(out))
    }

    fn item_inner(&mut self, out: &mut Vec<Item>) -> DResult<()> {
        let t = self.peek();
        let word = match &t.tok {
            Tok::Sym(";") => {
                self.bump();
                return Ok(());
            }
            Tok::Ident(w) => w.as_str(),
            Tok::Escaped(_) => "",
            _ => return Err(self.unexpected("a module item")),
        };
        match word {
            "input" | "output" | "inout" | "reg" | "logic" | "integer" | "time" | "genvar" => {
                let d = self.decl_head()?;
                out.push(Item::Decl(self.declarators(d)?));
            }
            w if NET_WORDS.contains(&w) => {
                let d = self.decl_head()?;
                out.push(Item::Decl(self.declarators(d)?));
            }
            w if self.typedefs.contains(w) => {
                let d = self.decl_head()?;
                out.push(Item::Decl(self.declarators(d)?));
            }
            "real" | "realtime" | "event" => {
                return Err(Diag::new(
                    t.span,
                    format!("`{word}` declarations are not supported"),
                ));
            }
            "parameter" | "localparam" => out.push(Item::Param(self.param_decl()?)),
            "defparam" => {
                return Err(Diag::new(
                    t.span,
                    "`defparam` is not supported: use `#(…)` parameter overrides",
                ))
            }
            "assign" => {
                self.bump();
                if self.peek().is_sym("(") {
                    return Err(Diag::new(
                        self.peek().span,
                        "drive strengths on `assign` are not supported",
                    ));
                }
                self.skip_delay()?;
                loop {
                    let lhs = self.primary()?;
                    self.expect_sym("=")?;
                    let rhs = self.expr()?;
                    let span = join(lhs.span, rhs.span);
                    out.push(Item::Assign { lhs, rhs, span });
                    if self.eat_sym(",").is_none() {
                        break;
                    }
                }
                self.expect_sym(";")?;
            }
            "always" | "always_ff" | "always_comb" | "always_latch" => {
                self.bump();
                let sens = if word == "always_comb" || word == "always_latch" {
                    Sensitivity::Star
                } else if self.peek().is_sym("@") {
                    self.sensitivity()?
                } else {
                    Sensitivity::None
                };
                let body = self.stmt()?;
                out.push(Item::Always {
                    sens,
                    body,
                    span: t.span,
                });
            }
            "initial" => {
                self.bump();
                let body = self.stmt()?;
                out.push(Item::Initial { body, span: t.span });
            }
            "function" => out.push(Item::Function(self.subroutine("endfunction")?)),
            "task" => out.push(Item::Task(self.subroutine("endtask")?)),
            "generate" => {
                self.bump();
                while !self.at_word("endgenerate") {
                    if self.peek().tok == Tok::Eof {
                        return Err(Diag::new(t.span, "`generate` without `endgenerate`"));
                    }
                    self.item(out)?;
                }
                self.bump();
            }
            "for" => out.push(self.gen_for()?),
            "if" => out.push(self.gen_if()?),
            "case" => out.push(self.gen_case()?),
            "begin" => out.push(Item::GenBlock(self.gen_block()?)),
            "typedef" => {
                let td = self.typedef()?;
                out.push(Item::Typedef(td));
            }
            "specify" => {
                while !self.at_word("endspecify") {
                    if self.peek().tok == Tok::Eof {
                        return Err(Diag::new(t.span, "`specify` without `endspecify`"));
                    }
                    self.bump();
                }
                self.bump();
            }
            w if GateKind::from_word(w).is_some() => {
                let kind = GateKind::from_word(w).unwrap_or(GateKind::Buf);
                self.bump();
                self.gates(kind, out)?;
            }
            "assert" | "assume" | "cover" | "restrict" => out.push(self.assertion(None)?),
            _ if self.at_ident() && self.peek_at(1).is_sym(":") => {
                let label = self.ident()?;
                self.bump();
                out.push(self.assertion(Some(label))?);
            }
            _ if self.at_ident() => out.push(self.instances()?),
            _ => return Err(self.unexpected("a module item")),
        }
        Ok(())
    }

    /// `assert property (e);` (other assertion kinds and unparsable properties are skipped).
    fn assertion(&mut self, label: Option<crate::ast::Ident>) -> DResult<Item> {
        let start = self.peek().span;
        let kind = self.bump();
        let word = match &kind.tok {
            Tok::Ident(w) => w.clone(),
            _ => return Err(Diag::new(kind.span, "expected `assert`")),
        };
        if !matches!(word.as_str(), "assert" | "assume" | "cover" | "restrict") {
            return Err(Diag::new(
                kind.span,
                "expected `assert`, `assume` or `cover` after the label",
            ));
        }
        self.eat_word("property");
        let save = self.pos;
        let parsed = (|| -> DResult<crate::ast::Expr> {
            self.expect_sym("(")?;
            let e = self.expr()?;
            self.expect_sym(")")?;
            self.expect_sym(";")?;
            Ok(e)
        })();
        match parsed {
            Ok(expr) if word == "assert" => Ok(Item::Assert {
                label,
                expr,
                span: join(start, self.prev_span()),
            }),
            _ => {
                self.pos = save;
                let mut depth = 0usize;
                loop {
                    let t = self.bump();
                    match &t.tok {
                        Tok::Eof => return Err(Diag::new(start, "unterminated assertion")),
                        Tok::Sym("(") => depth += 1,
                        Tok::Sym(")") => depth = depth.saturating_sub(1),
                        Tok::Sym(";") if depth == 0 => break,
                        _ => {}
                    }
                }
                Ok(Item::Ignored {
                    what: format!("`{word}` statement"),
                    span: join(start, self.prev_span()),
                })
            }
        }
    }

    /// `@(…)` / `@*` of an always block.
    pub(super) fn sensitivity(&mut self) -> DResult<Sensitivity> {
        self.expect_sym("@")?;
        if self.eat_sym("*").is_some() {
            return Ok(Sensitivity::Star);
        }
        if !self.peek().is_sym("(") {
            let e = self.primary()?;
            return Ok(Sensitivity::List(vec![(crate::ast::Edge::Level, e)]));
        }
        self.bump();
        if self.eat_sym("*").is_some() {
            self.expect_sym(")")?;
            return Ok(Sensitivity::Star);
        }
        let mut events = Vec::new();
        loop {
            let edge = if self.eat_word("posedge").is_some() {
                crate::ast::Edge::Pos
            } else if self.eat_word("negedge").is_some() {
                crate::ast::Edge::Neg
            } else {
                crate::ast::Edge::Level
            };
            events.push((edge, self.expr()?));
            if self.eat_word("or").is_none() && self.eat_sym(",").is_none() {
                break;
            }
        }
        self.expect_sym(")")?;
        Ok(Sensitivity::List(events))
    }

    /// `function …endfunction` or `task … endtask` (the keyword is next).
    fn subroutine(&mut self, end_word: &str) -> DResult<FuncDecl> {
        let start = self.bump().span;
        self.eat_word("automatic");
        let mut signed = false;
        let mut integer = false;
        let mut range = None;
        loop {
            if self.eat_word("signed").is_some() {
                signed = true;
            } else if self.eat_word("integer").is_some() {
                integer = true;
                signed = true;
            } else if self.eat_word("reg").is_some() || self.eat_word("logic").is_some() {
            } else if self.peek().is_sym("[") {
                range = Some(self.range()?);
            } else {
                break;
            }
        }
        let name = self.ident()?;
        let mut decls = Vec::new();
        let mut params = Vec::new();
        if self.eat_sym("(").is_some() && self.eat_sym(")").is_none() {
            let mut cur: Option<Decl> = None;
            loop {
                let t = self.peek();
                if t.is_word("input") || t.is_word("output") || t.is_word("inout") {
                    if let Some(d) = cur.take() {
                        decls.push(d);
                    }
                    cur = Some(self.decl_head()?);
                }
                let n = self.ident()?;
                match cur.as_mut() {
                    Some(d) => d.names.push(Declarator {
                        name: n,
                        dims: vec![],
                        init: None,
                    }),
                    None => {
                        return Err(Diag::new(
                            n.span,
                            "expected `input`, `output` or `inout` before the argument",
                        ))
                    }
                }
                if self.eat_sym(",").is_none() {
                    break;
                }
            }
            if let Some(d) = cur {
                decls.push(d);
            }
            self.expect_sym(")")?;
        }
        self.expect_sym(";")?;
        let mut stmts = Vec::new();
        loop {
            let t = self.peek();
            match &t.tok {
                Tok::Eof => {
                    return Err(Diag::new(
                        name.span,
                        format!("`{}` has no `{end_word}`", name.name),
                    ))
                }
                Tok::Ident(w) if w == end_word => break,
                Tok::Ident(w)
                    if matches!(
                        w.as_str(),
                        "input" | "output" | "inout" | "reg" | "integer" | "time" | "logic"
                    ) =>
                {
                    let d = self.decl_head()?;
                    decls.push(self.declarators(d)?);
                }
                Tok::Ident(w) if w == "parameter" || w == "localparam" => {
                    params.push(self.param_decl()?)
                }
                _ => stmts.push(self.stmt()?),
            }
        }
        let end = self.bump().span;
        let span = join(start, end);
        let body = if stmts.len() == 1 {
            stmts.pop().unwrap_or(Stmt::Null(span))
        } else {
            Stmt::Block {
                label: None,
                decls: vec![],
                params: vec![],
                stmts,
                span,
            }
        };
        Ok(FuncDecl {
            name,
            range,
            signed,
            integer,
            decls,
            params,
            body,
        })
    }

    /// Gate instances after the gate keyword.
    fn gates(&mut self, kind: GateKind, out: &mut Vec<Item>) -> DResult<()> {
        if self.peek().is_sym("(")
            && matches!(&self.peek_at(1).tok, Tok::Ident(w) if w.ends_with('0') || w.ends_with('1'))
        {
            while self.peek().tok != Tok::Eof && self.eat_sym(")").is_none() {
                self.bump();
            }
        }
        self.skip_delay()?;
        loop {
            let start = self.peek().span;
            if self.at_ident() {
                self.ident()?;
                if self.peek().is_sym("[") {
                    return Err(Diag::new(
                        self.peek().span,
                        "arrays of gate instances are not supported",
                    ));
                }
            }
            self.expect_sym("(")?;
            let mut terms = vec![self.expr()?];
            while self.eat_sym(",").is_some() {
                terms.push(self.expr()?);
            }
            let close = self.expect_sym(")")?;
            out.push(Item::Gate(Gate {
                kind,
                terms,
                span: join(start, close),
            }));
            if self.eat_sym(",").is_none() {
                break;
            }
        }
        self.expect_sym(";")?;
        Ok(())
    }

    /// `mod [#(…)] inst (…), inst2 (…);`.
    fn instances(&mut self) -> DResult<Item> {
        let module = self.ident()?;
        let mut params = Vec::new();
        if self.eat_sym("#").is_some() {
            if self.eat_sym("(").is_some() {
                if self.eat_sym(")").is_none() {
                    loop {
                        if self.eat_sym(".").is_some() {
                            let n = self.ident()?;
                            self.expect_sym("(")?;
                            let v = if self.peek().is_sym(")") {
                                None
                            } else {
                                Some(self.expr()?)
                            };
                            self.expect_sym(")")?;
                            params.push(ParamOverride::Named(n, v));
                        } else {
                            params.push(ParamOverride::Positional(self.expr()?));
                        }
                        if self.eat_sym(",").is_none() {
                            break;
                        }
                    }
                    self.expect_sym(")")?;
                }
            } else {
                params.push(ParamOverride::Positional(self.primary()?));
            }
        }
        let mut insts = Vec::new();
        loop {
            let name = self.ident()?;
            let array = if self.peek().is_sym("[") {
                Some(self.range()?)
            } else {
                None
            };
            self.expect_sym("(")?;
            let mut conns = Vec::new();
            if self.eat_sym(")").is_none() {
                loop {
                    if self.peek().is_sym(".") {
                        let dot = self.bump().span;
                        if self.eat_sym("*").is_some() {
                            conns.push(Connection::Wildcard(dot));
                        } else {
                            let n = self.ident()?;
                            self.expect_sym("(")?;
                            let v = if self.peek().is_sym(")") {
                                None
                            } else {
                                Some(self.expr()?)
                            };
                            self.expect_sym(")")?;
                            conns.push(Connection::Named(n, v));
                        }
                    } else if self.peek().is_sym(",") || self.peek().is_sym(")") {
                        conns.push(Connection::Positional(None));
                    } else {
                        conns.push(Connection::Positional(Some(self.expr()?)));
                    }
                    if self.eat_sym(",").is_none() {
                        break;
                    }
                }
                self.expect_sym(")")?;
            }
            let span = join(name.span, self.prev_span());
            insts.push(Instance {
                name,
                array,
                conns,
                span,
            });
            if self.eat_sym(",").is_none() {
                break;
            }
        }
        self.expect_sym(";")?;
        Ok(Item::Instances {
            module,
            params,
            insts,
        })
    }

    /// A generate block: `begin [: label] items end`, or a single item.
    fn gen_block(&mut self) -> DResult<GenBlock> {
        let start = self.peek().span;
        if self.eat_word("begin").is_none() {
            let mut items = Vec::new();
            self.item(&mut items)?;
            return Ok(GenBlock {
                label: None,
                items,
                span: join(start, self.prev_span()),
            });
        }
        let label = if self.eat_sym(":").is_some() {
            Some(self.ident()?)
        } else {
            None
        };
        let mut items = Vec::new();
        while !self.at_word("end") {
            if self.peek().tok == Tok::Eof {
                return Err(Diag::new(start, "`begin` without `end`"));
            }
            self.item(&mut items)?;
        }
        let end = self.bump().span;
        if self.eat_sym(":").is_some() {
            self.ident()?;
        }
        Ok(GenBlock {
            label,
            items,
            span: join(start, end),
        })
    }

    /// `for (i = a; cond; i = step) block` at module level.
    fn gen_for(&mut self) -> DResult<Item> {
        let start = self.bump().span;
        self.expect_sym("(")?;
        self.eat_word("genvar");
        let v = self.ident()?;
        self.expect_sym("=")?;
        let init = self.expr()?;
        self.expect_sym(";")?;
        let cond = self.expr()?;
        self.expect_sym(";")?;
        let sv = self.ident()?;
        self.expect_sym("=")?;
        let step = self.expr()?;
        self.expect_sym(")")?;
        let block = self.gen_block()?;
        Ok(Item::GenFor(GenFor {
            init: (v, init),
            cond,
            step: (sv, step),
            label: block.label,
            items: block.items,
            span: join(start, block.span),
        }))
    }

    /// `if (cond) block [else block]` at module level.
    fn gen_if(&mut self) -> DResult<Item> {
        self.bump();
        self.expect_sym("(")?;
        let cond = self.expr()?;
        self.expect_sym(")")?;
        let then = self.gen_block()?;
        let els = if self.eat_word("else").is_some() {
            Some(self.gen_block()?)
        } else {
            None
        };
        Ok(Item::GenIf { cond, then, els })
    }

    /// `case (expr) labels: block … endcase` at module level.
    fn gen_case(&mut self) -> DResult<Item> {
        let start = self.bump().span;
        self.expect_sym("(")?;
        let expr = self.expr()?;
        self.expect_sym(")")?;
        let mut arms = Vec::new();
        while !self.at_word("endcase") {
            if self.peek().tok == Tok::Eof {
                return Err(Diag::new(start, "`case` without `endcase`"));
            }
            let mut labels = Vec::new();
            if self.eat_word("default").is_some() {
                self.eat_sym(":");
            } else {
                loop {
                    labels.push(self.expr()?);
                    if self.eat_sym(",").is_none() {
                        break;
                    }
                }
                self.expect_sym(":")?;
            }
            arms.push((labels, self.gen_block()?));
        }
        self.bump();
        Ok(Item::GenCase { expr, arms })
    }
}
