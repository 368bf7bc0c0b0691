//! Flattening: module instances, arrays, DEFINEs and variable declarations.
//!
//! * `main` is instance 0 with path `""`; an instance `a : M(x, y)` declared in an instance
//!   with path `p` gets path `p.a`, its names are `p.a.name`. Actual parameters are kept as
//!   expressions together with the instance they are written in (parameters by reference).
//! * `array lo..hi of T` declares the elements `name[lo]` … `name[hi]` (nested arrays
//!   `name[i][j]`, arrays of instances `name[i].x`).
//! * `ISA M` includes the sections of `M` in the current instance.
//! * `process M(…)` instances start a new process; everything declared below them belongs to
//!   it. With processes, `running` is defined in every process instance and in main.

use std::collections::{HashMap, HashSet};

use hypermut_ir::{Role, Span};

use crate::ast::{
    AssignKind, DefineBody, Expr, Ident, Module, Section, Suffix, TypeKind, TypeSpec, VarKind,
};
use crate::error::{Diag, LINE};

use super::common::{join, last_component};
use super::state::{DefineInfo, Elab, Inst, InstId, MacroState, Proc, Sym, VarInfo};

/// Most array elements one declaration may create.
const MAX_ARRAY_ELEMENTS: i64 = 100_000;

/// Most module instances a model may create.
const MAX_INSTANCES: usize = 100_000;

/// Most variables (array elements included) a model may declare.
const MAX_VARIABLES: usize = 1_000_000;

impl<'a> Elab<'a> {
    /// Indexes the modules by name, rejecting duplicates; finds `main`.
    pub(super) fn index_modules(&mut self) -> Result<(), Diag> {
        for m in &self.program.modules {
            if let Some(prev) = self.modules.insert(&m.name.name, m) {
                return Err(Diag::new(
                    m.name.span,
                    format!(
                        "duplicate module `{}` (first declared on {LINE})",
                        m.name.name
                    ),
                )
                .with_line_of(prev.name.span));
            }
        }
        let Some(main) = self.modules.get("main") else {
            return Err(Diag::new(self.program.eof, "no `MODULE main` found"));
        };
        if let Some(p) = main.params.first() {
            return Err(Diag::new(p.span, "`MODULE main` cannot have parameters"));
        }
        Ok(())
    }

    /// Instantiates `main` and everything below it.
    pub(super) fn instantiate_main(&mut self) -> Result<(), Diag> {
        let main = self.modules["main"];
        self.procs.push(Proc {
            name: "main".into(),
            running: None,
        });
        let mut stack = vec!["main"];
        self.instantiate(main, String::new(), HashMap::new(), 0, &mut stack)?;
        for (ctx, d) in std::mem::take(&mut self.deferred_defines) {
            let full = self.decl_full_name(ctx, &d.name, &d.suffix)?;
            self.declare_define(ctx, full, &d.body, d.name.span)?;
        }
        if self.procs.len() > 1 {
            self.declare_running("", 0, main.name.span)?;
        }
        self.check_constant_clashes()
    }

    /// Creates an instance of `module` at `path` and declares its contents.
    fn instantiate(
        &mut self,
        module: &'a Module,
        path: String,
        params: HashMap<&'a str, (&'a Expr, InstId)>,
        process: usize,
        stack: &mut Vec<&'a str>,
    ) -> Result<InstId, Diag> {
        if self.insts.len() >= MAX_INSTANCES {
            return Err(Diag::new(
                module.name.span,
                format!("more than {MAX_INSTANCES} module instances"),
            ));
        }
        let id = self.insts.len();
        let sections = self.sections_of(module)?;
        self.insts.push(Inst {
            path,
            params,
            process,
            sections,
        });
        // DEFINEs and constants first: type bounds may name DEFINEs declared further down.
        let sections = self.insts[id].sections.clone();
        for s in &sections {
            match s {
                Section::Defines(defs) => {
                    for d in defs {
                        let via_param = self.insts[id].params.contains_key(d.name.name.as_str());
                        if d.suffix.is_empty() && !via_param {
                            let full = self.full_name(id, &d.name.name);
                            self.declare_define(id, full, &d.body, d.name.span)?;
                        } else {
                            // `above.x := …` may name an instance that is not built yet.
                            self.deferred_defines.push((id, d));
                        }
                    }
                }
                Section::Constants(names) => {
                    for n in names {
                        self.consts
                            .entry(n.name.clone())
                            .or_insert_with(|| (Vec::new(), n.span));
                    }
                }
                _ => {}
            }
        }
        for s in &sections {
            if let Section::Vars(kind, decls) = s {
                for d in decls {
                    let full = self.decl_full_name(id, &d.name, &d.suffix)?;
                    self.declare_var(id, full, *kind, &d.ty, d.name.span, stack)?;
                }
            }
        }
        Ok(id)
    }

    /// The sections of `module` with `ISA` inclusions expanded (cycles rejected).
    fn sections_of(&self, module: &'a Module) -> Result<Vec<&'a Section>, Diag> {
        let mut out = Vec::new();
        let mut visiting = vec![module.name.name.as_str()];
        self.collect_sections(module, &mut visiting, &mut out)?;
        Ok(out)
    }

    fn collect_sections(
        &self,
        module: &'a Module,
        visiting: &mut Vec<&'a str>,
        out: &mut Vec<&'a Section>,
    ) -> Result<(), Diag> {
        for s in &module.sections {
            let Section::Isa(m) = s else {
                out.push(s);
                continue;
            };
            let Some(inc) = self.modules.get(m.name.as_str()).copied() else {
                return Err(Diag::new(m.span, format!("unknown module `{}`", m.name)));
            };
            if !inc.params.is_empty() {
                return Err(Diag::new(
                    m.span,
                    format!(
                        "`ISA {}`: the included module must not have parameters",
                        m.name
                    ),
                ));
            }
            if visiting.contains(&inc.name.name.as_str()) {
                return Err(Diag::new(
                    m.span,
                    format!("`ISA {}` includes itself", m.name),
                ));
            }
            visiting.push(&inc.name.name);
            self.collect_sections(inc, visiting, out)?;
            visiting.pop();
        }
        Ok(())
    }

    /// The hierarchical name of a declared name `first.suffix` in instance `ctx`. A first
    /// component that is a parameter bound to an instance declares inside that instance
    /// (NuSMV's `DEFINE above.token-in := …`).
    fn decl_full_name(
        &self,
        ctx: InstId,
        first: &Ident,
        suffix: &[Suffix],
    ) -> Result<String, Diag> {
        let mut name = match self.insts[ctx].params.get(first.name.as_str()) {
            Some((arg, caller)) => match self.actual_name(arg, *caller, 0) {
                Some(n) => n,
                None => {
                    return Err(Diag::new(
                        first.span,
                        format!(
                            "`{}` is a parameter bound to an expression that is not a name; \
                             it cannot be declared",
                            first.name
                        ),
                    ))
                }
            },
            None => self.full_name(ctx, &first.name),
        };
        for part in suffix {
            match part {
                Suffix::Field(f) => name = join(&name, f),
                Suffix::Index(k) => name = format!("{name}[{k}]"),
            }
        }
        Ok(name)
    }

    /// The hierarchical name an actual parameter spells (looking through parameters), if it
    /// is a name: NuSMV's "out parameters" declare the caller's name.
    fn actual_name(&self, arg: &Expr, caller: InstId, hops: u32) -> Option<String> {
        if hops > 10_000 {
            return None;
        }
        match &arg.kind {
            crate::ast::ExprKind::Ident(n) => {
                match self.insts.get(caller)?.params.get(n.as_str()) {
                    Some((a, c)) => self.actual_name(a, *c, hops + 1),
                    None => Some(self.full_name(caller, n)),
                }
            }
            crate::ast::ExprKind::SelfRef => Some(self.insts.get(caller)?.path.clone()),
            crate::ast::ExprKind::Field(b, f) => {
                Some(join(&self.actual_name(b, caller, hops + 1)?, &f.name))
            }
            crate::ast::ExprKind::Index(b, i) => match i.kind {
                crate::ast::ExprKind::Int(k) => {
                    Some(format!("{}[{k}]", self.actual_name(b, caller, hops + 1)?))
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// Registers a name, rejecting duplicates.
    pub(super) fn declare_sym(&mut self, full: String, sym: Sym, span: Span) -> Result<(), Diag> {
        if let Some((_, first)) = self.syms.get(&full) {
            let short = last_component(&full).to_string();
            return Err(Diag::new(
                span,
                format!("duplicate declaration of `{short}` (first declared on {LINE})"),
            )
            .with_line_of(*first));
        }
        self.syms.insert(full, (sym, span));
        Ok(())
    }

    /// Registers a DEFINE (array DEFINEs element by element).
    fn declare_define(
        &mut self,
        ctx: InstId,
        full: String,
        body: &'a DefineBody,
        span: Span,
    ) -> Result<(), Diag> {
        match body {
            DefineBody::Expr(e) => {
                let i = self.defines.len();
                self.defines.push(DefineInfo {
                    name: full.clone(),
                    body: e,
                    ctx,
                    used: false,
                });
                self.declare_sym(full, Sym::Define(i), span)
            }
            DefineBody::Array(items, _) => {
                let hi = items.len() as i64 - 1;
                self.declare_sym(full.clone(), Sym::Array { lo: 0, hi }, span)?;
                for (k, item) in items.iter().enumerate() {
                    self.declare_define(ctx, format!("{full}[{k}]"), item, span)?;
                }
                Ok(())
            }
        }
    }

    /// Declares a variable, array or instance named `full` in instance `ctx`.
    fn declare_var(
        &mut self,
        ctx: InstId,
        full: String,
        kind: VarKind,
        ty: &'a TypeSpec,
        span: Span,
        stack: &mut Vec<&'a str>,
    ) -> Result<(), Diag> {
        match &ty.kind {
            TypeKind::Module {
                name,
                args,
                process,
            } => {
                let Some(module) = self.modules.get(name.name.as_str()).copied() else {
                    return Err(Diag::new(
                        name.span,
                        format!("unknown type or module `{}`", name.name),
                    ));
                };
                if module.name.name == "main" {
                    return Err(Diag::new(name.span, "`main` cannot be instantiated"));
                }
                if module.params.len() != args.len() {
                    return Err(Diag::new(
                        ty.span,
                        format!(
                            "module `{}` takes {} parameter{}, found {}",
                            name.name,
                            module.params.len(),
                            if module.params.len() == 1 { "" } else { "s" },
                            args.len()
                        ),
                    ));
                }
                if stack.contains(&module.name.name.as_str()) {
                    return Err(Diag::new(
                        name.span,
                        format!("recursive instantiation of module `{}`", name.name),
                    ));
                }
                let mut seen = HashSet::new();
                let mut params = HashMap::new();
                for (formal, actual) in module.params.iter().zip(args) {
                    if !seen.insert(formal.name.as_str()) {
                        return Err(Diag::new(
                            formal.span,
                            format!("duplicate parameter `{}`", formal.name),
                        ));
                    }
                    params.insert(formal.name.as_str(), (actual, ctx));
                }
                let process_id = if *process {
                    self.procs.push(Proc {
                        name: full.clone(),
                        running: None,
                    });
                    self.procs.len() - 1
                } else {
                    self.insts[ctx].process
                };
                // Reserve the name before descending so that members see a clash early.
                self.declare_sym(full.clone(), Sym::Inst(usize::MAX), span)?;
                stack.push(&module.name.name);
                let id = self.instantiate(module, full.clone(), params, process_id, stack)?;
                stack.pop();
                if let Some(entry) = self.syms.get_mut(&full) {
                    entry.0 = Sym::Inst(id);
                }
                if *process {
                    self.declare_running(&full, process_id, span)?;
                }
                Ok(())
            }
            TypeKind::Array(lo, hi, elem) => {
                let lo_v = self.const_int(lo, ctx, "an array bound")?;
                let hi_v = self.const_int(hi, ctx, "an array bound")?;
                if lo_v > hi_v {
                    return Err(Diag::new(
                        ty.span,
                        format!("empty array range {lo_v}..{hi_v}"),
                    ));
                }
                if hi_v as i128 - lo_v as i128 + 1 > MAX_ARRAY_ELEMENTS as i128 {
                    return Err(Diag::new(
                        ty.span,
                        format!("arrays are limited to {MAX_ARRAY_ELEMENTS} elements"),
                    ));
                }
                self.declare_sym(full.clone(), Sym::Array { lo: lo_v, hi: hi_v }, span)?;
                for k in lo_v..=hi_v {
                    self.declare_var(ctx, format!("{full}[{k}]"), kind, elem, span, stack)?;
                }
                Ok(())
            }
            _ => {
                if self.decls.len() >= MAX_VARIABLES {
                    return Err(Diag::new(
                        span,
                        format!("more than {MAX_VARIABLES} variables (array elements included)"),
                    ));
                }
                let (ir_ty, domain) = self.var_type(ctx, &full, ty)?;
                let d = self.decls.len();
                self.decls.push(VarInfo {
                    name: full.clone(),
                    kind,
                    ty: ir_ty,
                    domain,
                    span,
                    var: None,
                    invariant: None,
                    macro_state: [MacroState::Pending; 2],
                });
                self.declare_sym(full, Sym::Var(d), span)
            }
        }
    }

    /// Defines `running` of process `p` in the instance at `path`.
    fn declare_running(&mut self, path: &str, p: usize, span: Span) -> Result<(), Diag> {
        let name = join(path, "running");
        if let Some((_, at)) = self.syms.get(&name) {
            return Err(Diag::new(
                *at,
                "`running` is predefined in process instances and cannot be declared",
            ));
        }
        self.syms.insert(name, (Sym::Running(p), span));
        Ok(())
    }

    /// Symbolic constants must not coincide with names declared in `main`.
    fn check_constant_clashes(&self) -> Result<(), Diag> {
        let mut clashes: Vec<(&String, Span)> = self
            .consts
            .iter()
            .filter(|(c, _)| matches!(self.syms.get(*c), Some((Sym::Var(_) | Sym::Define(_), _))))
            .map(|(c, (_, span))| (c, *span))
            .collect();
        clashes.sort_by_key(|(_, s)| (s.file, s.start));
        if let Some((c, span)) = clashes.first() {
            return Err(Diag::new(
                *span,
                format!("symbolic constant `{c}` has the same name as a variable or DEFINE"),
            ));
        }
        Ok(())
    }

    /// Phase 2a: finds the invariant assignments `x := e` and marks their variables.
    pub(super) fn mark_invariant_assignments(&mut self) -> Result<(), Diag> {
        for ctx in 0..self.insts.len() {
            let sections = self.insts[ctx].sections.clone();
            for s in sections {
                let Section::Assigns(assigns) = s else {
                    continue;
                };
                for a in assigns.iter().filter(|a| a.kind == AssignKind::Invariant) {
                    let d = self.assign_target(a, ctx)?;
                    if self.decls[d].invariant.is_some() {
                        return Err(Diag::new(
                            a.lhs_span,
                            format!(
                                "variable is assigned more than once: {}",
                                self.decls[d].name
                            ),
                        ));
                    }
                    if self.decls[d].kind == VarKind::IVar {
                        return Err(Diag::new(
                            a.lhs_span,
                            format!(
                                "illegal assignment of value to input variable \"{}\"",
                                self.decls[d].name
                            ),
                        ));
                    }
                    self.decls[d].invariant = Some((a, ctx));
                }
            }
        }
        Ok(())
    }

    /// Phase 2b: creates the IR variables (all but the invariant-assigned ones).
    pub(super) fn create_vars(&mut self) {
        for d in 0..self.decls.len() {
            let info = &self.decls[d];
            if info.invariant.is_some() {
                continue;
            }
            let role = match info.kind {
                VarKind::IVar => Role::Input,
                VarKind::Var => Role::State,
                VarKind::Frozen => Role::Frozen,
            };
            let (name, ty, span) = (info.name.clone(), info.ty, info.span);
            let v = self.st.sys.add_var(name, ty, role, Some(span));
            if let Some(dom) = &self.decls[d].domain {
                self.domains.insert(v, dom.clone());
            }
            self.decls[d].var = Some(v);
        }
    }
}
