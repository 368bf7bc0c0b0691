//! Flattening: module instances, parameters, declarations, generate constructs and the
//! collection of processes.

use std::collections::HashMap;

use hypermut_ir::Span;

use crate::ast::{
    Connection, Decl, Dir, Expr, Item, Module, NetKind, ParamDecl, ParamOverride, PortHeader,
    Range, Stmt,
};
use crate::error::{DResult, Diag};

use super::elaborator::{Elab, MAX_DEPTH};
use super::env::ProcState;
use super::scope::{
    Binding, Proc, ProcKind, Scope, ScopeId, SigId, SigKind, Signal, Source, Target,
};
use super::value::{MAX_WIDTH, V};

/// A parameter value given to an instance.
pub(crate) enum OverrideVal {
    /// By position.
    Pos(V, Span),
    /// By name.
    Named(String, V, Span),
}

/// Looks up the override of a parameter by name and position.
type OverrideFn<'f> = dyn FnMut(&str, usize) -> Option<(V, Span)> + 'f;

/// Most words of a memory (each word is a state variable).
pub const MAX_WORDS: u32 = 1 << 16;

/// Most iterations of a generate or procedural loop.
pub const MAX_LOOP: u32 = 1 << 16;

/// Everything known about one name declared as port and/or net/variable.
#[derive(Clone, Debug, Default)]
struct DeclInfo {
    dir: Option<Dir>,
    kind: Option<NetKind>,
    signed: bool,
    range: Option<Range>,
    dims: Vec<Range>,
    span: Option<Span>,
}

impl<'a> Elab<'a> {
    /// A fresh scope.
    pub(crate) fn new_scope(&mut self, parent: Option<ScopeId>, prefix: String) -> ScopeId {
        let implicit_nets = parent.is_none_or(|p| self.scopes[p.0 as usize].implicit_nets);
        self.scopes.push(Scope {
            parent,
            prefix,
            names: HashMap::new(),
            genblk: 0,
            implicit_nets,
        });
        ScopeId(self.scopes.len() as u32 - 1)
    }

    /// Binds `name` in `scope`, refusing redeclarations.
    pub(crate) fn bind(
        &mut self,
        scope: ScopeId,
        name: &str,
        b: Binding<'a>,
        span: Span,
    ) -> DResult<()> {
        let names = &mut self.scopes[scope.0 as usize].names;
        if names.contains_key(name) {
            return Err(Diag::new(span, format!("`{name}` is declared twice")));
        }
        names.insert(name.to_string(), b);
        Ok(())
    }

    /// Evaluates a constant expression (parameters, genvars) in `scope`.
    pub(crate) fn const_expr(&mut self, e: &Expr, scope: ScopeId) -> DResult<V> {
        let mut st = ProcState::constant(scope);
        let v = self.rvalue(&mut st, e, None)?;
        if !self.is_const(v.e) {
            return Err(Diag::new(e.span, "expected a constant expression"));
        }
        Ok(v)
    }

    /// A constant expression as an integer.
    pub(crate) fn const_int_expr(&mut self, e: &Expr, scope: ScopeId) -> DResult<i64> {
        let v = self.const_expr(e, scope)?;
        self.const_i64(v)
            .ok_or_else(|| Diag::new(e.span, "constant does not fit in 64 bits"))
    }

    /// Width, signedness and bounds of a packed range.
    pub(crate) fn eval_range(&mut self, r: &Range, scope: ScopeId) -> DResult<(i64, i64, u32)> {
        let msb = self.const_int_expr(&r.msb, scope)?;
        let lsb = self.const_int_expr(&r.lsb, scope)?;
        let w = (msb - lsb).unsigned_abs().saturating_add(1);
        if w > MAX_WIDTH as u64 {
            return Err(Diag::new(r.span, format!("range of {w} bits is too wide")));
        }
        Ok((msb, lsb, w as u32))
    }

    /// Instantiates module `m` with hierarchical `prefix` and parameter `overrides`.
    pub(crate) fn instantiate(
        &mut self,
        m: &'a Module,
        prefix: String,
        overrides: Vec<OverrideVal>,
        span: Span,
        depth: u32,
    ) -> DResult<ScopeId> {
        if depth > MAX_DEPTH {
            return Err(Diag::new(
                span,
                format!("instances nested more than {MAX_DEPTH} levels deep (recursive module?)"),
            ));
        }
        let scope = self.new_scope(None, prefix);
        self.scopes[scope.0 as usize].implicit_nets = m.implicit_nets;
        // File-level VIS enumerations are visible everywhere.
        for td in self.typedefs.clone() {
            self.bind_enum(scope, td)?;
        }
        self.params(m, scope, overrides, span)?;
        self.module_decls(m, scope)?;
        self.items(&m.items, scope, depth)?;
        Ok(scope)
    }

    /// Binds a VIS `typedef enum`: its constants become parameters of ⌈log2 n⌉ bits.
    fn bind_enum(&mut self, scope: ScopeId, td: &'a crate::ast::EnumTypedef) -> DResult<()> {
        let n = td.values.len().max(1) as u64;
        let w = hypermut_ir::types::bits_for(n);
        let mut next: i64 = 0;
        for (name, val) in &td.values {
            if let Some(v) = val {
                next = self.const_int_expr(v, scope)?;
            }
            let c = self.small_const(w, next as u64, name.span);
            self.bind(scope, &name.name, Binding::Param(c), name.span)?;
            next += 1;
        }
        self.bind(scope, &td.name.name, Binding::Type(w), td.name.span)
    }

    /// Evaluates a parameter declaration's values and binds them.
    fn param_decl(
        &mut self,
        d: &ParamDecl,
        scope: ScopeId,
        over: &mut OverrideFn<'_>,
        index: &mut usize,
    ) -> DResult<()> {
        for (name, value) in &d.assigns {
            let given = if d.local {
                None
            } else {
                over(&name.name, *index)
            };
            if !d.local {
                *index += 1;
            }
            let v = match given {
                Some((v, _)) => v,
                None => self.const_expr(value, scope)?,
            };
            let v = if let Some(r) = &d.range {
                let (_, _, w) = self.eval_range(r, scope)?;
                let mut r = self.resize(v, w, v.signed, value.span)?;
                r.signed = d.signed;
                r
            } else if d.integer {
                let mut r = self.resize(v, 32, v.signed, value.span)?;
                r.signed = true;
                r
            } else {
                let mut r = self.as_bits(v, value.span)?;
                r.signed = r.signed || d.signed;
                r
            };
            self.bind(scope, &name.name, Binding::Param(v), name.span)?;
        }
        Ok(())
    }

    /// Header and body parameters of a module, with overrides applied.
    fn params(
        &mut self,
        m: &'a Module,
        scope: ScopeId,
        overrides: Vec<OverrideVal>,
        at: Span,
    ) -> DResult<()> {
        let mut by_pos: Vec<Option<(V, Span)>> = Vec::new();
        let mut by_name: HashMap<String, (V, Span)> = HashMap::new();
        for o in overrides {
            match o {
                OverrideVal::Pos(v, s) => by_pos.push(Some((v, s))),
                OverrideVal::Named(n, v, s) => {
                    by_name.insert(n, (v, s));
                }
            }
        }
        let mut used: HashMap<String, bool> = by_name.keys().map(|k| (k.clone(), false)).collect();
        let npos = by_pos.len();
        let mut over = |name: &str, i: usize| -> Option<(V, Span)> {
            if let Some(v) = by_name.get(name) {
                used.insert(name.to_string(), true);
                return Some(*v);
            }
            by_pos.get_mut(i).and_then(|x| x.take())
        };
        let mut index = 0;
        for d in &m.header_params {
            self.param_decl(d, scope, &mut over, &mut index)?;
        }
        for it in &m.items {
            if let Item::Param(d) = it {
                self.param_decl(d, scope, &mut over, &mut index)?;
            }
        }
        if npos > index {
            return Err(Diag::new(
                at,
                format!(
                    "module `{}` has {index} parameter(s) but {npos} positional value(s) were given",
                    m.name.name
                ),
            ));
        }
        if let Some((n, _)) = used.iter().find(|(_, u)| !**u) {
            let span = by_name.get(n).map(|(_, s)| *s).unwrap_or(m.name.span);
            return Err(Diag::new(
                span,
                format!("module `{}` has no parameter `{n}`", m.name.name),
            ));
        }
        Ok(())
    }

    /// Declares a signal in `scope`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn declare(
        &mut self,
        scope: ScopeId,
        name: &crate::ast::Ident,
        kind: Option<&NetKind>,
        signed: bool,
        range: Option<&Range>,
        dims: &[Range],
        local: bool,
    ) -> DResult<SigId> {
        let (mut msb, mut lsb, mut width) = (0i64, 0i64, 1u32);
        let mut signed = signed;
        match kind {
            Some(NetKind::Integer) => {
                (msb, lsb, width) = (31, 0, 32);
                signed = true;
            }
            Some(NetKind::Time) => (msb, lsb, width) = (63, 0, 64),
            Some(NetKind::Enum(t)) => {
                let st = ProcState::constant(scope);
                match self.lookup(&st, std::slice::from_ref(t))? {
                    Binding::Type(w) => {
                        (msb, lsb, width) = (w as i64 - 1, 0, w);
                    }
                    _ => return Err(Diag::new(t.span, format!("`{}` is not a type", t.name))),
                }
            }
            _ => {}
        }
        if let Some(r) = range {
            (msb, lsb, width) = self.eval_range(r, scope)?;
        }
        let mem = match dims {
            [] => None,
            [d] => {
                let (a, b, n) = self.eval_range(d, scope)?;
                if n > MAX_WORDS {
                    return Err(Diag::new(
                        d.span,
                        format!("memories of more than {MAX_WORDS} words are not supported"),
                    ));
                }
                Some((a.min(b), n))
            }
            [_, second, ..] => {
                return Err(Diag::new(
                    second.span,
                    "multi-dimensional arrays are not supported",
                ))
            }
        };
        let prefix = self.scopes[scope.0 as usize].prefix.clone();
        let sig_kind = if local {
            SigKind::Local
        } else if matches!(kind, Some(NetKind::Wire) | None) {
            SigKind::Net
        } else {
            SigKind::Var
        };
        self.sigs.push(Signal {
            name: format!("{prefix}{}", name.name),
            width,
            signed,
            msb,
            lsb,
            mem,
            kind: sig_kind,
            span: name.span,
        });
        let id = SigId(self.sigs.len() as u32 - 1);
        if !local {
            self.bind(scope, &name.name, Binding::Sig(id), name.span)?;
        }
        Ok(id)
    }

    /// Port and net declarations of a module (merging non-ANSI `input x; reg x;`).
    fn module_decls(&mut self, m: &'a Module, scope: ScopeId) -> DResult<()> {
        let mut order: Vec<String> = Vec::new();
        let mut infos: HashMap<String, DeclInfo> = HashMap::new();
        let mut port_names: Vec<(String, String, Span)> = Vec::new();
        let add = |d: &Decl,
                   order: &mut Vec<String>,
                   infos: &mut HashMap<String, DeclInfo>|
         -> DResult<()> {
            for n in &d.names {
                let info = infos.entry(n.name.name.clone()).or_insert_with(|| {
                    order.push(n.name.name.clone());
                    DeclInfo::default()
                });
                if d.dir.is_some() {
                    if info.dir.is_some() {
                        return Err(Diag::new(
                            n.name.span,
                            format!("port `{}` is declared twice", n.name.name),
                        ));
                    }
                    info.dir = d.dir;
                }
                if let Some(k) = &d.kind {
                    if matches!(k, NetKind::Genvar) {
                        continue;
                    }
                    if info.kind.is_some() && d.dir.is_none() {
                        return Err(Diag::new(
                            n.name.span,
                            format!("`{}` is declared twice", n.name.name),
                        ));
                    }
                    info.kind = Some(k.clone());
                }
                info.signed |= d.signed;
                if d.range.is_some() {
                    info.range = d.range.clone();
                }
                if !n.dims.is_empty() {
                    info.dims = n.dims.clone();
                }
                if info.span.is_none() || d.dir.is_none() {
                    info.span = Some(n.name.span);
                }
            }
            Ok(())
        };
        for p in &m.ports {
            match p {
                PortHeader::Name(n) => port_names.push((n.name.clone(), n.name.clone(), n.span)),
                PortHeader::Renamed(p, n) => {
                    port_names.push((p.name.clone(), n.name.clone(), p.span))
                }
                PortHeader::Ansi(d) => {
                    for n in &d.names {
                        port_names.push((n.name.name.clone(), n.name.name.clone(), n.name.span));
                    }
                    add(d, &mut order, &mut infos)?;
                }
            }
        }
        for it in &m.items {
            if let Item::Decl(d) = it {
                if d.kind == Some(NetKind::Genvar) {
                    continue;
                }
                add(d, &mut order, &mut infos)?;
            }
        }
        let mut sig_of: HashMap<String, SigId> = HashMap::new();
        for name in &order {
            let info = &infos[name];
            let span = info.span.unwrap_or(m.name.span);
            let id = self.declare(
                scope,
                &crate::ast::Ident {
                    name: name.clone(),
                    span,
                },
                info.kind.as_ref(),
                info.signed,
                info.range.as_ref(),
                &info.dims,
                false,
            )?;
            sig_of.insert(name.clone(), id);
        }
        let mut ports = Vec::new();
        let internal: std::collections::HashSet<String> =
            port_names.iter().map(|(_, n, _)| n.clone()).collect();
        for (pname, name, span) in port_names {
            let Some(info) = infos.get(&name) else {
                return Err(Diag::new(
                    span,
                    format!("port `{name}` has no direction declaration"),
                ));
            };
            let Some(dir) = info.dir else {
                return Err(Diag::new(
                    span,
                    format!("port `{name}` has no `input`/`output` declaration"),
                ));
            };
            ports.push((pname, sig_of[&name], dir, span));
        }
        for (name, info) in &infos {
            if info.dir.is_some() && !internal.contains(name) {
                return Err(Diag::new(
                    info.span.unwrap_or(m.name.span),
                    format!("`{name}` is declared as a port but is not in the port list"),
                ));
            }
        }
        self.ports.insert(scope, ports);
        Ok(())
    }

    /// The items of a module body or generate block in `scope`.
    fn items(&mut self, items: &'a [Item], scope: ScopeId, depth: u32) -> DResult<()> {
        // Functions and tasks first: they may be called before their declaration.
        for it in items {
            match it {
                Item::Function(f) => {
                    self.bind(scope, &f.name.name, Binding::Func(f, scope), f.name.span)?
                }
                Item::Task(t) => {
                    self.bind(scope, &t.name.name, Binding::Task(t, scope), t.name.span)?
                }
                _ => {}
            }
        }
        for it in items {
            match it {
                Item::Decl(d) => {
                    for n in &d.names {
                        if let Some(init) = &n.init {
                            let sig = match self.scopes[scope.0 as usize].names.get(&n.name.name) {
                                Some(Binding::Sig(s)) => *s,
                                _ => continue,
                            };
                            let kind = if self.sigs[sig.0 as usize].kind == SigKind::Net {
                                ProcKind::Assign {
                                    target: Target::Sig(sig),
                                    source: Source::Expr(init, scope),
                                }
                            } else {
                                ProcKind::RegInit { sig, expr: init }
                            };
                            self.procs.push(Proc {
                                kind,
                                scope,
                                span: init.span,
                            });
                        }
                    }
                }
                Item::Param(_) | Item::Function(_) | Item::Task(_) => {}
                Item::Assert { label, expr, span } => {
                    let name = match label {
                        Some(l) => format!("{}{}", self.scopes[scope.0 as usize].prefix, l.name),
                        None => {
                            let loc = self.sys.sources.location(*span);
                            format!("assert@{}:{}", loc.line, loc.column)
                        }
                    };
                    self.asserts.push((name, expr, scope, *span));
                }
                Item::Ignored { what, span } => {
                    self.warn(*span, format!("{what} ignored"));
                }
                Item::Typedef(td) => self.bind_enum(scope, td)?,
                Item::Assign { lhs, rhs, span } => {
                    self.implicit_net(lhs, scope)?;
                    self.procs.push(Proc {
                        kind: ProcKind::Assign {
                            target: Target::Expr(lhs, scope),
                            source: Source::Expr(rhs, scope),
                        },
                        scope,
                        span: *span,
                    });
                }
                Item::Always { sens, body, span } => {
                    if matches!(sens, crate::ast::Sensitivity::None) {
                        self.warn(
                            *span,
                            "`always` without an event control is read as `always @*`",
                        );
                    }
                    self.block_decls(body, scope)?;
                    self.procs.push(Proc {
                        kind: ProcKind::Always { sens, body },
                        scope,
                        span: *span,
                    });
                }
                Item::Initial { body, span } => {
                    self.block_decls(body, scope)?;
                    self.procs.push(Proc {
                        kind: ProcKind::Initial { body },
                        scope,
                        span: *span,
                    });
                }
                Item::Gate(g) => {
                    let outputs = match g.kind {
                        crate::ast::GateKind::Not | crate::ast::GateKind::Buf => {
                            g.terms.len().saturating_sub(1).max(1)
                        }
                        _ => 1,
                    };
                    if g.terms.len() < 2 {
                        return Err(Diag::new(g.span, "a gate needs an output and an input"));
                    }
                    for out in &g.terms[..outputs] {
                        self.implicit_net(out, scope)?;
                        self.procs.push(Proc {
                            kind: ProcKind::Assign {
                                target: Target::Expr(out, scope),
                                source: crate::elab::scope::Source::Gate(g, scope),
                            },
                            scope,
                            span: g.span,
                        });
                    }
                }
                Item::Instances {
                    module,
                    params,
                    insts,
                } => self.instances(module, params, insts, scope, depth)?,
                Item::GenFor(g) => {
                    let base = self.gen_name(scope, g.label.as_ref());
                    let mut st = ProcState::constant(scope);
                    let mut i = self.rvalue(&mut st, &g.init.1, None)?;
                    let mut count = 0;
                    let mut seen = std::collections::HashSet::new();
                    loop {
                        let Some(iv) = self.const_i64(i) else {
                            return Err(Diag::new(g.init.1.span, "genvar value is not constant"));
                        };
                        if !seen.insert(iv) {
                            return Err(Diag::new(
                                g.step.1.span,
                                format!("generate loop does not terminate (genvar `{}` returns to {iv})", g.init.0.name),
                            ));
                        }
                        let prefix =
                            format!("{}{base}[{iv}].", self.scopes[scope.0 as usize].prefix);
                        let child = self.new_scope(Some(scope), prefix);
                        let c = self.int_const(iv, g.init.0.span);
                        self.bind(child, &g.init.0.name, Binding::Param(c), g.init.0.span)?;
                        let cond = self.const_expr(&g.cond, child)?;
                        if self.const_bits(cond).is_none_or_zero() {
                            break;
                        }
                        count += 1;
                        if count > MAX_LOOP {
                            return Err(Diag::new(g.span, "generate loop runs too long"));
                        }
                        self.gen_items(&g.items, child, depth)?;
                        if g.step.0.name != g.init.0.name {
                            return Err(Diag::new(
                                g.step.0.span,
                                "the loop step must assign the genvar",
                            ));
                        }
                        i = self.const_expr(&g.step.1, child)?;
                    }
                }
                Item::GenIf {
                    cond, then, els, ..
                } => {
                    let c = self.const_expr(cond, scope)?;
                    let chosen = if !self.const_bits(c).is_none_or_zero() {
                        Some(then)
                    } else {
                        els.as_ref()
                    };
                    let name = self.gen_name(scope, None);
                    if let Some(b) = chosen {
                        let label = b.label.as_ref().map(|l| l.name.clone()).unwrap_or(name);
                        let prefix = format!("{}{label}.", self.scopes[scope.0 as usize].prefix);
                        let child = self.new_scope(Some(scope), prefix);
                        self.gen_items(&b.items, child, depth)?;
                    }
                }
                Item::GenCase { expr, arms, .. } => {
                    let sel = self.const_expr(expr, scope)?;
                    let sel = self.const_int(sel);
                    let name = self.gen_name(scope, None);
                    let mut chosen = None;
                    'arms: for (labels, block) in arms {
                        if labels.is_empty() {
                            if chosen.is_none() {
                                chosen = Some(block);
                            }
                            continue;
                        }
                        for l in labels {
                            let v = self.const_expr(l, scope)?;
                            if self.const_int(v) == sel {
                                chosen = Some(block);
                                break 'arms;
                            }
                        }
                    }
                    if let Some(b) = chosen {
                        let label = b.label.as_ref().map(|l| l.name.clone()).unwrap_or(name);
                        let prefix = format!("{}{label}.", self.scopes[scope.0 as usize].prefix);
                        let child = self.new_scope(Some(scope), prefix);
                        self.gen_items(&b.items, child, depth)?;
                    }
                }
                Item::GenBlock(b) => {
                    let name = self.gen_name(scope, b.label.as_ref());
                    let prefix = format!("{}{name}.", self.scopes[scope.0 as usize].prefix);
                    let child = self.new_scope(Some(scope), prefix);
                    if let Some(l) = &b.label {
                        self.bind(scope, &l.name, Binding::Scope(child), l.span)?;
                    }
                    self.gen_items(&b.items, child, depth)?;
                }
            }
        }
        Ok(())
    }

    /// The name of a generate block: its label or `genblk<n>`.
    fn gen_name(&mut self, scope: ScopeId, label: Option<&crate::ast::Ident>) -> String {
        let mut root = scope;
        while let Some(p) = self.scopes[root.0 as usize].parent {
            root = p;
        }
        let s = &mut self.scopes[root.0 as usize];
        s.genblk += 1;
        match label {
            Some(l) => l.name.clone(),
            None => format!("genblk{}", s.genblk),
        }
    }

    /// The items of a generate block: parameters and declarations first.
    fn gen_items(&mut self, items: &'a [Item], scope: ScopeId, depth: u32) -> DResult<()> {
        for it in items {
            match it {
                Item::Param(d) => {
                    let mut none = |_: &str, _: usize| None;
                    let mut idx = 0;
                    self.param_decl(d, scope, &mut none, &mut idx)?;
                }
                Item::Decl(d) => {
                    if d.kind == Some(NetKind::Genvar) {
                        continue;
                    }
                    if d.dir.is_some() {
                        return Err(Diag::new(
                            d.span,
                            "port declarations are not allowed in generate blocks",
                        ));
                    }
                    for n in &d.names {
                        self.declare(
                            scope,
                            &n.name,
                            d.kind.as_ref(),
                            d.signed,
                            d.range.as_ref(),
                            &n.dims,
                            false,
                        )?;
                    }
                }
                _ => {}
            }
        }
        self.items(items, scope, depth)
    }

    /// Declares the locals of named statement blocks inside an `always`/`initial` body.
    fn block_decls(&mut self, s: &'a Stmt, scope: ScopeId) -> DResult<()> {
        match s {
            Stmt::Block {
                label,
                decls,
                params,
                stmts,
                span,
            } => {
                let inner = if !decls.is_empty() || !params.is_empty() {
                    let name = match label {
                        Some(l) => l.name.clone(),
                        None => self.gen_name(scope, None),
                    };
                    let prefix = format!("{}{name}.", self.scopes[scope.0 as usize].prefix);
                    let child = self.new_scope(Some(scope), prefix);
                    for p in params {
                        let mut none = |_: &str, _: usize| None;
                        let mut idx = 0;
                        self.param_decl(p, child, &mut none, &mut idx)?;
                    }
                    for d in decls {
                        for n in &d.names {
                            self.declare(
                                child,
                                &n.name,
                                d.kind.as_ref(),
                                d.signed,
                                d.range.as_ref(),
                                &n.dims,
                                false,
                            )?;
                        }
                    }
                    self.block_scopes.insert((scope, *span), child);
                    child
                } else {
                    scope
                };
                for s in stmts {
                    self.block_decls(s, inner)?;
                }
            }
            Stmt::If { then, els, .. } => {
                self.block_decls(then, scope)?;
                if let Some(e) = els {
                    self.block_decls(e, scope)?;
                }
            }
            Stmt::Case { arms, default, .. } => {
                for (_, s) in arms {
                    self.block_decls(s, scope)?;
                }
                if let Some(d) = default {
                    self.block_decls(d, scope)?;
                }
            }
            Stmt::For { body, .. } | Stmt::While { body, .. } | Stmt::Repeat { body, .. } => {
                self.block_decls(body, scope)?
            }
            _ => {}
        }
        Ok(())
    }

    /// Declares an implicit 1-bit net for an undeclared identifier on the left of a
    /// continuous assignment or gate output.
    fn implicit_net(&mut self, lhs: &Expr, scope: ScopeId) -> DResult<()> {
        if let crate::ast::ExprKind::Ident(path) = &lhs.kind {
            if path.len() == 1 && self.find_name(scope, &path[0].name).is_none() {
                if !self.scopes[scope.0 as usize].implicit_nets {
                    return Err(Diag::new(
                        path[0].span,
                        format!(
                            "`{}` is not declared (`default_nettype none: no implicit nets)",
                            path[0].name
                        ),
                    ));
                }
                self.declare(
                    scope,
                    &path[0],
                    Some(&NetKind::Wire),
                    false,
                    None,
                    &[],
                    false,
                )?;
            }
        }
        if let crate::ast::ExprKind::Concat(items) = &lhs.kind {
            for it in items {
                self.implicit_net(it, scope)?;
            }
        }
        Ok(())
    }

    /// The binding of a plain name visible from `scope`.
    pub(crate) fn find_name(&self, scope: ScopeId, name: &str) -> Option<&Binding<'a>> {
        let mut s = Some(scope);
        while let Some(sc) = s {
            let sc = &self.scopes[sc.0 as usize];
            if let Some(b) = sc.names.get(name) {
                return Some(b);
            }
            s = sc.parent;
        }
        None
    }

    /// Module instances and their port connections.
    fn instances(
        &mut self,
        module: &'a crate::ast::Ident,
        params: &'a [ParamOverride],
        insts: &'a [crate::ast::Instance],
        scope: ScopeId,
        depth: u32,
    ) -> DResult<()> {
        let Some(m) = self.modules.get(&module.name).copied() else {
            return Err(Diag::new(
                module.span,
                format!("unknown module `{}`", module.name),
            ));
        };
        for inst in insts {
            if let Some(r) = &inst.array {
                return Err(Diag::new(r.span, "arrays of instances are not supported"));
            }
            let mut overrides = Vec::new();
            for p in params {
                match p {
                    ParamOverride::Positional(e) => {
                        let v = self.const_expr(e, scope)?;
                        overrides.push(OverrideVal::Pos(v, e.span));
                    }
                    ParamOverride::Named(n, Some(e)) => {
                        let v = self.const_expr(e, scope)?;
                        overrides.push(OverrideVal::Named(n.name.clone(), v, n.span));
                    }
                    ParamOverride::Named(_, None) => {}
                }
            }
            let prefix = format!(
                "{}{}.",
                self.scopes[scope.0 as usize].prefix, inst.name.name
            );
            let child = self.instantiate(m, prefix, overrides, inst.span, depth + 1)?;
            self.bind(
                scope,
                &inst.name.name,
                Binding::Scope(child),
                inst.name.span,
            )?;
            let ports = self.ports.get(&child).cloned().unwrap_or_default();
            let mut conns: Vec<(usize, &'a Expr, Span)> = Vec::new();
            let positional = inst
                .conns
                .iter()
                .all(|c| matches!(c, Connection::Positional(_)));
            if positional {
                if inst.conns.len() > ports.len() {
                    return Err(Diag::new(
                        inst.span,
                        format!(
                            "module `{}` has {} port(s) but {} connection(s) were given",
                            m.name.name,
                            ports.len(),
                            inst.conns.len()
                        ),
                    ));
                }
                for (k, c) in inst.conns.iter().enumerate() {
                    if let Connection::Positional(Some(e)) = c {
                        conns.push((k, e, e.span));
                    }
                }
            } else {
                for c in &inst.conns {
                    match c {
                        Connection::Named(n, e) => {
                            let Some(k) = ports.iter().position(|p| p.0 == n.name) else {
                                return Err(Diag::new(
                                    n.span,
                                    format!("module `{}` has no port `{}`", m.name.name, n.name),
                                ));
                            };
                            if let Some(e) = e {
                                conns.push((k, e, n.span));
                            }
                        }
                        Connection::Positional(_) => {
                            return Err(Diag::new(
                                inst.span,
                                "cannot mix positional and named port connections",
                            ))
                        }
                        Connection::Wildcard(s) => {
                            return Err(Diag::new(*s, "`.*` port connections are not supported"))
                        }
                    }
                }
            }
            for (k, e, span) in conns {
                let (pname, psig, dir, _) = ports[k].clone();
                match dir {
                    Dir::Input | Dir::Inout => {
                        if dir == Dir::Inout {
                            self.warn(
                                span,
                                format!("inout port `{pname}` is connected as an input"),
                            );
                        }
                        self.procs.push(Proc {
                            kind: ProcKind::Assign {
                                target: Target::Sig(psig),
                                source: Source::Expr(e, scope),
                            },
                            scope,
                            span: e.span,
                        });
                    }
                    Dir::Output => {
                        self.implicit_net(e, scope)?;
                        self.procs.push(Proc {
                            kind: ProcKind::Assign {
                                target: Target::Expr(e, scope),
                                source: Source::Sig(psig),
                            },
                            scope,
                            span: e.span,
                        });
                    }
                }
            }
        }
        Ok(())
    }
}

/// Helper: whether an optional constant is absent or zero.
trait ZeroTest {
    fn is_none_or_zero(&self) -> bool;
}

impl ZeroTest for Option<num_bigint::BigUint> {
    fn is_none_or_zero(&self) -> bool {
        self.as_ref().is_none_or(num_traits::Zero::is_zero)
    }
}
