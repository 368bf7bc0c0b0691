//! Variable replacement (`vrr`) and next-state assignment deletion (`nad`).

use std::collections::HashSet;

use hypermut_ir::{ExprId, ExprKind, VarId};

use super::ctx::Ctx;
use crate::edit::Edit;
use crate::operators::Operator;
use crate::syntax::Syntax;

/// How many replacement variables `vrr` tries per site (the nearest in declaration order).
pub(crate) const VRR_PER_SITE: usize = 3;

/// `vrr` on node `id`: a variable reference replaced by one of the [`VRR_PER_SITE`]
/// variables nearest to it in declaration order that have the same type and scope.
pub(crate) fn visit(cx: &mut Ctx, id: ExprId) {
    if !cx.wants(Operator::Vrr) {
        return;
    }
    let (Some(span), ExprKind::Var(v)) = (cx.span(id), cx.node(id).kind.clone()) else {
        return;
    };
    if cx.var_ref(id) != Some(v) {
        return;
    }
    // Only names declared in the module the reference is written in are visible there
    // (a module parameter may alias a variable of another module).
    let here = cx.module_of(span);
    let visible = |w: VarId| cx.sys.var(w).span.map(|d| cx.module_of(d)) == Some(here);
    if !visible(v) {
        return;
    }
    let key = (cx.scope(v).to_string(), cx.sys.var(v).ty);
    let Some(peers) = cx.peers.get(&key) else {
        return;
    };
    // The nearest visible peers in declaration order: walk outwards from v's position.
    let at = peers.partition_point(|w| *w < v);
    let (mut lo, mut hi) = (at, at + usize::from(peers.get(at) == Some(&v)));
    let mut others: Vec<VarId> = Vec::new();
    while others.len() < VRR_PER_SITE && (lo > 0 || hi < peers.len()) {
        let below = lo.checked_sub(1).map(|k| peers[k]);
        let above = peers.get(hi).copied();
        let take_below = match (below, above) {
            (Some(b), Some(a)) => v.0.abs_diff(b.0) <= a.0.abs_diff(v.0),
            (Some(_), None) => true,
            _ => false,
        };
        let w = if take_below {
            lo -= 1;
            below
        } else {
            hi += 1;
            above
        };
        others.extend(w.filter(|w| visible(*w)));
    }
    others.sort_by_key(|w| (w.0.abs_diff(v.0), w.0));
    for w in others.into_iter().take(VRR_PER_SITE) {
        let name = cx.local_name(w).to_string();
        cx.propose(Operator::Vrr, id, span, name, Edit::Var(w));
    }
}

/// Whether the text before byte `at` is an assignment to `name`: SMV `next(name) :=`,
/// Verilog `name <=` or `name =`.
fn assigns(file: &str, at: usize, name: &str, syntax: Syntax) -> bool {
    let before = file.get(..at).unwrap_or("").trim_end();
    let ends_with_name = |t: &str| {
        t.strip_suffix(name).is_some_and(|rest| {
            rest.chars()
                .last()
                .is_none_or(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.')))
        })
    };
    match syntax {
        Syntax::Smv => before
            .strip_suffix(":=")
            .map(str::trim_end)
            .and_then(|t| t.strip_suffix(')'))
            .and_then(|t| t.rsplit_once('('))
            .is_some_and(|(head, inner)| inner.trim() == name && head.trim_end().ends_with("next")),
        Syntax::Verilog => {
            let lhs = before.strip_suffix("<=").or_else(|| {
                before
                    .strip_suffix('=')
                    .filter(|t| !t.ends_with(['=', '!', '<', '>']))
            });
            lhs.is_some_and(|t| ends_with_name(t.trim_end()))
        }
    }
}

/// The `ite` nodes of `root`'s `case`/`if` tree (through then/else branches).
fn tree(cx: &Ctx, root: ExprId) -> HashSet<ExprId> {
    let mut seen = HashSet::new();
    let mut stack = vec![root];
    while let Some(e) = stack.pop() {
        if let ExprKind::Ite(_, t, f) = cx.node(e).kind {
            if seen.insert(e) {
                stack.extend([t, f]);
            }
        }
    }
    seen
}

/// `nad`: a next-state assignment deleted, so the variable keeps its value. In SMV the
/// whole `next(x) := e` right-hand side becomes `x`; in Verilog each `x <= e` of a clocked
/// block does (the other assignments to `x` stay).
pub(crate) fn assignments(cx: &mut Ctx) {
    if !cx.wants(Operator::Nad) {
        return;
    }
    let sys = cx.sys;
    for (i, var) in sys.vars.iter().enumerate() {
        let v = VarId(i as u32);
        let Some(root) = var.next else { continue };
        let name = cx.local_name(v).to_string();
        let nodes = tree(cx, root);
        // Candidate right-hand sides: the root, and values reached through the tree.
        let mut rhs: Vec<ExprId> = vec![root];
        for n in &nodes {
            if let ExprKind::Ite(_, t, f) = cx.node(*n).kind {
                rhs.extend([t, f]);
            }
        }
        rhs.sort();
        rhs.dedup();
        for e in rhs {
            let Some(span) = cx.span(e) else { continue };
            let syntax = cx.syntax(span);
            if syntax == Syntax::Smv && e != root {
                continue;
            }
            if !assigns(cx.file_text(span), span.start as usize, &name, syntax)
                || matches!(cx.node(e).kind, ExprKind::Var(w) if w == v)
                || sys.unify(cx.ty(e), var.ty).is_none()
            {
                continue;
            }
            // The node must serve this assignment only.
            let exclusive =
                cx.parents(e).iter().all(|p| nodes.contains(p)) && (e == root || !cx.is_root(e));
            if exclusive {
                cx.propose(Operator::Nad, e, span, name.clone(), Edit::Var(v));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assignment_prefixes() {
        let smv = "next(x) := case";
        let at = smv.find("case").expect("text");
        assert!(assigns(smv, at, "x", Syntax::Smv));
        assert!(!assigns(smv, at, "y", Syntax::Smv));
        let smv = "init(x) := 2";
        assert!(!assigns(smv, smv.len() - 1, "x", Syntax::Smv));
        let v = "  gnt0 <= 1";
        assert!(assigns(v, v.len() - 1, "gnt0", Syntax::Verilog));
        assert!(!assigns(v, v.len() - 1, "nt0", Syntax::Verilog));
        let v = "if (a == 1";
        assert!(!assigns(v, v.len() - 1, "a", Syntax::Verilog));
        let v = "q = d";
        assert!(assigns(v, v.len() - 1, "q", Syntax::Verilog));
    }
}
