//! The context every operator family works in: the system, facts about its nodes and
//! sources, and the candidates proposed so far ([`Ctx::propose`]).

use std::collections::{HashMap, HashSet};

use hypermut_ir::{ExprId, ExprKind, ExprNode, FileId, Span, System, Type, UnOp, VarId};

use crate::edit::{apply, Edit};
use crate::operators::Operator;
use crate::syntax::Syntax;
use crate::text::{
    accepted_tokens, fully_parenthesized, normalise, paren, precedence, spelling, top_tokens, SrcOp,
};

/// A proposed mutant before numbering.
#[derive(Clone, Debug)]
pub(crate) struct Candidate {
    /// The operator.
    pub op: Operator,
    /// The edited node.
    pub site: ExprId,
    /// The replaced source range.
    pub span: Span,
    /// Its text.
    pub original: String,
    /// The new text.
    pub replacement: String,
    /// The edit of the node.
    pub edit: Edit,
}

/// What source construct an `ite` node came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Branch {
    /// An SMV `case` arm `guard : value;` followed by the rest of the case.
    SmvCase,
    /// `c ? a : b`.
    Ternary,
    /// A Verilog `if (c) … else …` statement (one node per assigned register).
    VerilogIf,
    /// A Verilog `case` item with one label (`label: stmt`).
    VerilogArm,
}

/// Per-file facts.
#[derive(Clone, Copy, Debug)]
struct FileInfo {
    syntax: Syntax,
    /// Verilog file without any signed construct: every non-constant expression in it is
    /// unsigned, so `/` and `%` may be introduced without knowing the context.
    unsigned_only: bool,
}

/// Everything the families need to know about the system.
pub(crate) struct Ctx<'a> {
    /// The system being mutated.
    pub sys: &'a System,
    /// A copy in which candidate edits are built and type-checked.
    scratch: System,
    /// Reachable nodes, children first.
    pub order: Vec<ExprId>,
    /// Users of each reachable node.
    parents: HashMap<ExprId, Vec<ExprId>>,
    /// Nodes that are roots (init, next, output, constraint, property).
    roots: HashSet<ExprId>,
    /// Which variable a node is the `init` expression of.
    pub init_of: HashMap<ExprId, VarId>,
    /// Which variable a node is the `next` expression of.
    pub next_of: HashMap<ExprId, VarId>,
    /// Spans of variable declarations (a node carrying one is no source reference).
    decls: HashSet<Span>,
    /// Source variables by (scope, type), in declaration order (for `vrr`).
    pub peers: HashMap<(String, Type), Vec<VarId>>,
    /// The source construct of each `ite` node that is a branch.
    pub branches: HashMap<ExprId, Branch>,
    /// Offsets of the module keywords of each file.
    pub modules: Vec<Vec<usize>>,
    /// Regions no mutant may edit.
    pub protected: Vec<Span>,
    files: Vec<FileInfo>,
    operators: &'a [Operator],
    out: Vec<Candidate>,
    /// Candidates that would have been proposed but compute exactly what the original does
    /// ([`Ctx::drop_equivalent`]).
    dropped: Vec<Candidate>,
}

/// The textual shape of a binary operator node: `left TOKEN right`, possibly inside
/// parentheses.
#[derive(Clone, Debug)]
pub(crate) struct BinText {
    /// The operator as written.
    pub op: SrcOp,
    /// Text of the left operand (with its own parentheses).
    pub left: String,
    /// Text of the right operand.
    pub right: String,
    /// The operator token.
    pub token: String,
    /// Number of parenthesis pairs around the whole node text.
    pub layers: usize,
}

impl<'a> Ctx<'a> {
    /// The context of `sys`, without the branch classification, the module starts and the
    /// protected regions, which the enumeration driver fills in.
    pub fn new(sys: &'a System, operators: &'a [Operator]) -> Self {
        let roots_list = sys.roots();
        let order = sys.exprs.cone(roots_list.iter().copied());
        let mut parents: HashMap<ExprId, Vec<ExprId>> = HashMap::new();
        for &id in &order {
            for c in sys.exprs.node(id).kind.children() {
                let ps = parents.entry(c).or_default();
                if !ps.contains(&id) {
                    ps.push(id);
                }
            }
        }
        let mut init_of = HashMap::new();
        let mut next_of = HashMap::new();
        for (i, v) in sys.vars.iter().enumerate() {
            if let Some(e) = v.init {
                init_of.insert(e, VarId(i as u32));
            }
            if let Some(e) = v.next {
                next_of.insert(e, VarId(i as u32));
            }
        }
        let files = sys
            .sources
            .files()
            .iter()
            .map(|f| {
                let syntax = Syntax::of_file(&f.name);
                let unsigned_only = syntax == Syntax::Verilog
                    && !["signed", "integer", "'s", "'S", "real"]
                        .iter()
                        .any(|w| f.text.contains(w));
                FileInfo {
                    syntax,
                    unsigned_only,
                }
            })
            .collect();
        let decls = sys.vars.iter().filter_map(|v| v.span).collect();
        let mut cx = Ctx {
            sys,
            scratch: sys.clone(),
            decls,
            peers: HashMap::new(),
            branches: HashMap::new(),
            modules: Vec::new(),
            protected: Vec::new(),
            order,
            parents,
            roots: roots_list.into_iter().collect(),
            init_of,
            next_of,
            files,
            operators,
            out: Vec::new(),
            dropped: Vec::new(),
        };
        let mut peers: HashMap<(String, Type), Vec<VarId>> = HashMap::new();
        for (i, v) in sys.vars.iter().enumerate() {
            if v.span.is_some() {
                let id = VarId(i as u32);
                peers
                    .entry((cx.scope(id).to_string(), v.ty))
                    .or_default()
                    .push(id);
            }
        }
        cx.peers = peers;
        cx
    }

    /// The candidates proposed so far, in proposal order; leaves none behind.
    pub fn take_candidates(&mut self) -> Vec<Candidate> {
        std::mem::take(&mut self.out)
    }

    /// The candidates dropped as equivalent by construction so far; leaves none behind.
    pub fn take_dropped(&mut self) -> Vec<Candidate> {
        std::mem::take(&mut self.dropped)
    }

    /// Whether `op` was asked for.
    pub fn wants(&self, op: Operator) -> bool {
        self.operators.contains(&op)
    }

    /// Whether any of `ops` was asked for.
    pub fn wants_any(&self, ops: &[Operator]) -> bool {
        ops.iter().any(|o| self.wants(*o))
    }

    /// A node.
    pub fn node(&self, id: ExprId) -> &ExprNode {
        self.sys.exprs.node(id)
    }

    /// A node's type.
    pub fn ty(&self, id: ExprId) -> Type {
        self.sys.ty(id)
    }

    /// A node's span.
    pub fn span(&self, id: ExprId) -> Option<Span> {
        self.node(id).span
    }

    /// The users of a node.
    pub fn parents(&self, id: ExprId) -> &[ExprId] {
        self.parents.get(&id).map_or(&[], Vec::as_slice)
    }

    /// Whether a node is a root expression.
    pub fn is_root(&self, id: ExprId) -> bool {
        self.roots.contains(&id)
    }

    /// The text a span covers.
    pub fn text(&self, span: Span) -> &'a str {
        self.sys.sources.snippet(span)
    }

    /// The whole text of a span's file.
    pub fn file_text(&self, span: Span) -> &'a str {
        self.sys
            .sources
            .file(span.file)
            .map_or("", |f| f.text.as_str())
    }

    /// The language of a span's file.
    pub fn syntax(&self, span: Span) -> Syntax {
        self.files
            .get(span.file.0 as usize)
            .map_or(Syntax::Smv, |f| f.syntax)
    }

    /// Whether a span's file is Verilog without signed constructs.
    pub fn unsigned_only(&self, span: Span) -> bool {
        self.files
            .get(span.file.0 as usize)
            .is_some_and(|f| f.unsigned_only)
    }

    /// Whether `inner` lies within `outer` (same file).
    pub fn inside(inner: Span, outer: Span) -> bool {
        inner.file == outer.file && outer.start <= inner.start && inner.end <= outer.end
    }

    /// Whether `inner` lies strictly within `outer`.
    pub fn strictly_inside(inner: Span, outer: Span) -> bool {
        Ctx::inside(inner, outer) && inner != outer
    }

    /// The source span of operand `c` of a node spanning `parent`: casts inserted by the
    /// front-end (same span as the parent, or none) are looked through.
    pub fn operand_span(&self, mut c: ExprId, parent: Span) -> Option<Span> {
        loop {
            let n = self.node(c);
            match (n.span, &n.kind) {
                (Some(s), _) if s != parent => return Some(s),
                (_, ExprKind::Cast(x, _)) => c = *x,
                _ => return None,
            }
        }
    }

    /// The name a variable is written with inside its module (last hierarchical component).
    pub fn local_name(&self, v: VarId) -> &'a str {
        let name = self.sys.var(v).name.as_str();
        let mut depth = 0i32;
        let mut cut = 0;
        for (i, c) in name.char_indices() {
            match c {
                '[' => depth += 1,
                ']' => depth -= 1,
                '.' if depth == 0 => cut = i + 1,
                _ => {}
            }
        }
        &name[cut..]
    }

    /// The instance a variable belongs to (its name without the local part).
    pub fn scope(&self, v: VarId) -> &'a str {
        let name = self.sys.var(v).name.as_str();
        let local = self.local_name(v);
        &name[..name.len() - local.len()]
    }

    /// The variable a node reads, if the node is a reference to it as written in source
    /// (its text is the variable's name): `x`, or a boolean view `x != 0` of a vector `x`
    /// that the front-end made for a condition.
    pub fn var_ref(&self, id: ExprId) -> Option<VarId> {
        let n = self.node(id);
        let span = n.span?;
        if self.is_declaration(span) {
            return None;
        }
        match &n.kind {
            ExprKind::Var(v) if self.text(span).trim() == self.local_name(*v) => Some(*v),
            ExprKind::Cast(x, Type::Bool) if self.span(*x) == Some(span) => self.var_ref(*x),
            _ => None,
        }
    }

    /// The module (file and keyword offset) a span lies in.
    pub fn module_of(&self, span: Span) -> (FileId, Option<usize>) {
        let at = span.start as usize;
        let m = self
            .modules
            .get(span.file.0 as usize)
            .and_then(|s| s.partition_point(|k| *k <= at).checked_sub(1).map(|i| s[i]));
        (span.file, m)
    }

    /// Whether a span is a variable's declaration (e.g. a Verilog output port whose value
    /// the front-end observes through a node carrying the port's span).
    pub fn is_declaration(&self, span: Span) -> bool {
        self.decls.contains(&span)
    }

    /// Whether a node is a negation written in source (`!e`, `~e`), not an operator the
    /// front-end lowered to a negation (`xnor`, `!=` of enumerations).
    pub fn is_source_negation(&self, id: ExprId) -> bool {
        let n = self.node(id);
        let (Some(span), ExprKind::Unary(UnOp::Not, x)) = (n.span, &n.kind) else {
            return false;
        };
        let t = self.text(span).trim_start();
        (t.starts_with('!') || t.starts_with('~'))
            && !t.starts_with("!=")
            && self
                .operand_span(*x, span)
                .is_some_and(|s| Ctx::strictly_inside(s, span))
    }

    /// The textual shape of a binary operator node, if its text really is `a OP b` with the
    /// operator the node computes.
    pub fn bin_text(&self, id: ExprId) -> Option<BinText> {
        let n = self.node(id);
        let span = n.span?;
        let syntax = self.syntax(span);
        let (ir_op, a, b) = match &n.kind {
            ExprKind::Binary(op, a, b) => (SrcOp::Bin(*op), *a, *b),
            ExprKind::Unary(UnOp::Not, x) => match &self.node(*x).kind {
                ExprKind::Binary(hypermut_ir::BinOp::Xor, a, b)
                    if self.span(*x).is_none_or(|s| s == span) =>
                {
                    (SrcOp::Xnor, *a, *b)
                }
                _ => return None,
            },
            _ => return None,
        };
        // Strip parentheses around the whole text.
        let file = self.file_text(span);
        let (mut lo, mut hi) = (span.start as usize, span.end as usize);
        let mut layers = 0;
        loop {
            let t = file.get(lo..hi)?;
            let lead = t.len() - t.trim_start().len();
            let trail = t.len() - t.trim_end().len();
            lo += lead;
            hi -= trail;
            if fully_parenthesized(file.get(lo..hi)?) {
                lo += 1;
                hi -= 1;
                layers += 1;
            } else {
                break;
            }
        }
        let inner = file.get(lo..hi)?;
        let tokens = top_tokens(inner)?;
        let sa = self.operand_span(a, span);
        let sb = self.operand_span(b, span);
        let tok = match (sa, sb) {
            (Some(sa), Some(sb))
                if sa.file == span.file
                    && sb.file == span.file
                    && lo <= sa.start as usize
                    && sa.end <= sb.start
                    && sb.end as usize <= hi =>
            {
                let between: Vec<_> = tokens
                    .iter()
                    .filter(|t| {
                        let at = lo + t.start;
                        sa.end as usize <= at && at < sb.start as usize
                    })
                    .collect();
                match between.as_slice() {
                    [t] => (*t).clone(),
                    _ => return None,
                }
            }
            _ => match tokens.as_slice() {
                [t] => t.clone(),
                _ => return None,
            },
        };
        let op = match tok.text.as_str() {
            "xnor" | "~^" | "^~" => SrcOp::Xnor,
            _ => ir_op,
        };
        let accepted = accepted_tokens(op, syntax).contains(&tok.text.as_str())
            && (op == ir_op || (op == SrcOp::Xnor && ir_op == SrcOp::Bin(hypermut_ir::BinOp::Iff)));
        if !accepted {
            return None;
        }
        let left = inner[..tok.start].trim();
        let right = inner[tok.start + tok.text.len()..].trim();
        if left.is_empty() || right.is_empty() {
            return None;
        }
        Some(BinText {
            op,
            left: left.to_string(),
            right: right.to_string(),
            token: tok.text,
            layers,
        })
    }

    /// The text of node `id` (a binary operator shaped as `bt`) with its operator replaced
    /// by `new`: the token is swapped when both bind equally tightly, otherwise the operands
    /// and the whole are parenthesised as the new precedence requires.
    pub fn respell(&self, id: ExprId, bt: &BinText, new: SrcOp, boolean: bool) -> Option<String> {
        let span = self.span(id)?;
        let syntax = self.syntax(span);
        let tok = spelling(new, syntax, boolean);
        let old_p = precedence(&bt.token, syntax);
        let new_p = precedence(tok, syntax);
        let (l, r) = if new_p > old_p {
            (paren(&bt.left), paren(&bt.right))
        } else {
            (bt.left.clone(), bt.right.clone())
        };
        let core = format!("{l} {tok} {r}");
        Some(self.wrap_core(span, core, bt.layers, new_p < old_p))
    }

    /// Puts `core` back into `layers` parentheses; adds one more pair when `looser` (the new
    /// text binds less tightly than the old) and the position is not delimited.
    pub fn wrap_core(&self, span: Span, core: String, layers: usize, looser: bool) -> String {
        let needs = looser && layers == 0 && !self.delimited(span);
        let n = layers + usize::from(needs);
        format!("{}{core}{}", "(".repeat(n), ")".repeat(n))
    }

    /// Whether any expression may replace the text at `span` without parentheses.
    pub fn delimited(&self, span: Span) -> bool {
        crate::text::delimited(
            self.file_text(span),
            span.start as usize,
            span.end as usize,
            self.syntax(span),
        )
    }

    /// `text` as a replacement of the node text at `span`: parenthesised unless atomic or
    /// delimited.
    pub fn fit(&self, span: Span, text: &str) -> String {
        let whole = self.text(span);
        if crate::text::is_atomic(text) || self.delimited(span) || fully_parenthesized(whole) {
            text.to_string()
        } else {
            format!("({text})")
        }
    }

    /// Proposes a mutant: `site` edited by `edit`, shown as `span`'s text replaced by
    /// `replacement`. Ill-typed edits and unchanged texts are dropped; returns whether the
    /// mutant was kept.
    pub fn propose(
        &mut self,
        op: Operator,
        site: ExprId,
        span: Span,
        replacement: String,
        edit: Edit,
    ) -> bool {
        match self.admit(op, site, span, replacement, edit) {
            Some(c) => {
                self.out.push(c);
                true
            }
            None => false,
        }
    }

    /// Records a candidate that an exact check found equivalent to the original by
    /// construction, if [`Ctx::propose`] would have kept it; it is not proposed.
    pub fn drop_equivalent(
        &mut self,
        op: Operator,
        site: ExprId,
        span: Span,
        replacement: String,
        edit: Edit,
    ) {
        if let Some(c) = self.admit(op, site, span, replacement, edit) {
            self.dropped.push(c);
        }
    }

    /// The candidate of a proposal, if it passes the checks of [`Ctx::propose`].
    fn admit(
        &mut self,
        op: Operator,
        site: ExprId,
        span: Span,
        replacement: String,
        edit: Edit,
    ) -> Option<Candidate> {
        if !self.wants(op) {
            return None;
        }
        let original = self.text(span).to_string();
        if normalise(&original) == normalise(&replacement) {
            return None;
        }
        let replacement = crate::text::separated(
            self.file_text(span),
            span.start as usize,
            span.end as usize,
            &replacement,
        );
        let overlaps = |p: &Span| {
            p.file == span.file && p.start < span.end.max(span.start + 1) && span.start < p.end
        };
        if self.protected.iter().any(overlaps) {
            return None;
        }
        if apply(&mut self.scratch, site, &edit).is_err() {
            return None;
        }
        Some(Candidate {
            op,
            site,
            span,
            original,
            replacement,
            edit,
        })
    }
}
