//! Proving that a mutant only narrows the original's choices (docs/method.md §4.6).
//!
//! φ1 on the nd-transformed conditional mutant cannot prove such a mutant equivalent: the
//! shared nd input fixes how the original resolves its choice, so the original loses the
//! freedom to answer the mutant's behaviour with the alternative the mutant took (§6.3).
//! [`mimic_system`] gives that freedom back in the one way that matters: at each mutated
//! choice site the original copy takes the value the mutant computes, if that value is one
//! of its own alternatives, and an extra output reports every frame in which it is not.
//! An unreachable `kill` in the φ1 product of the returned system then proves that every
//! behaviour of the mutant is a behaviour of the original.

use std::collections::HashSet;

use hypermut_ir::{BinOp, ChoiceId, ExprId, ExprKind, Output, System, TypeError, UnOp, VarId};

use crate::conditional::ConditionalMutant;

/// Name of the output [`mimic_system`] adds (with `_1`, `_2`, … if the name is taken).
pub const MEMBER_FAIL: &str = "incl.member_fail";

/// One mutated site of a conditional mutant: the node `mut ? e′ : e` and its parts.
#[derive(Clone, Copy, Debug)]
struct Site {
    /// The node `mut ? e′ : e`.
    node: ExprId,
    /// `mut`.
    sel: ExprId,
    /// The mutant's expression `e′`.
    mutated: ExprId,
    /// The original choice `e`.
    original: ExprId,
    /// The choice site of `e`.
    choice: ChoiceId,
}

/// The system of `cm` rewritten so that its φ1 product decides whether every behaviour of
/// the mutant is one of the original (docs/method.md §4.6), or `None` when the mutant is not
/// of the form the rewrite needs:
///
/// * every mutated node `mut ? e′ : e` has a choice `e` (an SMV set, a Verilog `$ND`) as its
///   original expression (a mutation of a constant, even into a choice, gives `None`);
/// * `e′` may read anything: the original copy computes it in its own state, and whatever
///   it yields there, if it is one of the alternatives, is a choice the original may make;
/// * the choice site of each `e` is read nowhere else (two uses of one site must agree in a
///   frame, and only the mutated one is redirected).
///
/// Each site becomes `mut ? e′ : (member ? e′ : e)` with `member = (e′ = a1) | … |
/// (e′ = an)` over the alternatives `ai` of `e`, where `e′` is the same node in both
/// branches (so it keeps its choice sites and nd inputs). The returned conditional mutant
/// has the same selector and mutant, and one more output, the last one, named
/// [`MEMBER_FAIL`]: `!mut & !member`, or-ed over the sites. It is checked in every frame,
/// also where the site's value is not used, which can only make the proof fail, never hold
/// wrongly.
pub fn mimic_system(cm: &ConditionalMutant) -> Option<ConditionalMutant> {
    let sys = &cm.system;
    let sites = mutated_sites(sys, cm.mut_var)?;
    let ids: Vec<ChoiceId> = sites.iter().map(|s| s.choice).collect();
    let unique: HashSet<ChoiceId> = ids.iter().copied().collect();
    if unique.len() != ids.len() || read_elsewhere(sys, &sites, &unique) {
        return None;
    }
    let mut s = sys.clone();
    let mut fails = Vec::new();
    let mut replaced = Vec::new();
    for site in &sites {
        let (node, fail) = mimic_site(&mut s, site).ok()?;
        replaced.push((site.node, node));
        fails.push(fail);
    }
    s.rewrite(|_, orig, rebuilt| {
        Ok(replaced
            .iter()
            .find(|(old, _)| *old == orig)
            .map_or(rebuilt, |(_, new)| *new))
    })
    .ok()?;
    let mut any_fail = *fails.first()?;
    for f in &fails[1..] {
        any_fail = s.mk(ExprKind::Binary(BinOp::Or, any_fail, *f), None).ok()?;
    }
    let name = fresh_output(&s, MEMBER_FAIL);
    s.outputs.push(Output {
        name,
        expr: any_fail,
    });
    Some(ConditionalMutant {
        system: s,
        mut_var: cm.mut_var,
        mutant: cm.mutant.clone(),
    })
}

/// The nodes `mut ? e′ : e` of `sys` (reachable from its roots), if every one has a choice
/// `e`; `None` otherwise or when there is none.
fn mutated_sites(sys: &System, mut_var: VarId) -> Option<Vec<Site>> {
    let mut sites = Vec::new();
    for id in sys.exprs.cone(sys.roots()) {
        let ExprKind::Ite(c, t, f) = sys.exprs.node(id).kind else {
            continue;
        };
        if sys.exprs.node(c).kind != ExprKind::Var(mut_var) {
            continue;
        }
        let ExprKind::Choice { id: choice, .. } = sys.exprs.node(f).kind else {
            return None;
        };
        sites.push(Site {
            node: id,
            sel: c,
            mutated: t,
            original: f,
            choice,
        });
    }
    (!sites.is_empty()).then_some(sites)
}

/// Whether a choice site of `ids` is read outside the mutated sites: by a node reachable
/// from the roots without passing through a node `mut ? e′ : e`.
fn read_elsewhere(sys: &System, sites: &[Site], ids: &HashSet<ChoiceId>) -> bool {
    let stops: HashSet<ExprId> = sites.iter().map(|s| s.node).collect();
    let mut seen: HashSet<ExprId> = HashSet::new();
    let mut stack = sys.roots();
    while let Some(e) = stack.pop() {
        if stops.contains(&e) || !seen.insert(e) {
            continue;
        }
        let kind = &sys.exprs.node(e).kind;
        if let ExprKind::Choice { id, .. } = kind {
            if ids.contains(id) {
                return true;
            }
        }
        stack.extend(kind.children());
    }
    false
}

/// The rewritten site `mut ? e′ : (member ? e′ : e)` and its failure flag `!mut & !member`.
fn mimic_site(s: &mut System, site: &Site) -> Result<(ExprId, ExprId), TypeError> {
    let ExprKind::Choice { options, .. } = s.exprs.node(site.original).kind.clone() else {
        return Err(TypeError::Width("internal: the site is no choice".into()));
    };
    let mut member: Option<ExprId> = None;
    for alt in options {
        let eq = s.mk(ExprKind::Binary(BinOp::Eq, site.mutated, alt), None)?;
        member = Some(match member {
            None => eq,
            Some(m) => s.mk(ExprKind::Binary(BinOp::Or, m, eq), None)?,
        });
    }
    let member = member.ok_or_else(|| TypeError::Width("empty choice".into()))?;
    let mimic = s.mk(ExprKind::Ite(member, site.mutated, site.original), None)?;
    let node = s.mk(ExprKind::Ite(site.sel, site.mutated, mimic), None)?;
    let original_copy = s.mk(ExprKind::Unary(UnOp::Not, site.sel), None)?;
    let outside = s.mk(ExprKind::Unary(UnOp::Not, member), None)?;
    let fail = s.mk(ExprKind::Binary(BinOp::And, original_copy, outside), None)?;
    Ok((node, fail))
}

/// `base`, or `base_1`, `base_2`, … : a name no output and no variable has.
fn fresh_output(s: &System, base: &str) -> String {
    let taken = |n: &str| s.outputs.iter().any(|o| o.name == n) || s.var_by_name(n).is_some();
    let mut name = base.to_string();
    let mut k = 0;
    while taken(&name) {
        k += 1;
        name = format!("{base}_{k}");
    }
    name
}
