//! A small sum of products for a BDD: the irredundant prime cover of Minato and Morreale
//! (`docs/method.md` §7.9), used to write the unreachable states as few cubes, and so the
//! reachable ones as few clauses.

use biodivine_lib_bdd::{Bdd, BddVariable, BddVariableSet};
use rustc_hash::FxHashMap;

/// A conjunction of literals: each variable with the value it must have.
pub(crate) type Cube = Vec<(BddVariable, bool)>;

/// Cubes (over `vars`) whose disjunction is `f`, each prime and none redundant; `None` when
/// more than `max` are needed or `stop` says so first.
pub(crate) fn sum_of_products(
    vars: &BddVariableSet,
    f: &Bdd,
    max: usize,
    stop: &dyn Fn() -> bool,
) -> Option<Vec<Cube>> {
    let mut isop = Isop {
        vars,
        memo: FxHashMap::default(),
        max,
        stop,
    };
    isop.cover(f, f).map(|(cubes, _)| cubes)
}

/// The state of one cover computation: covers already computed per interval.
struct Isop<'a> {
    vars: &'a BddVariableSet,
    memo: FxHashMap<(Bdd, Bdd), (Vec<Cube>, Bdd)>,
    max: usize,
    stop: &'a dyn Fn() -> bool,
}

impl Isop<'_> {
    /// An irredundant prime cover of some function between `lower` and `upper` (`lower`
    /// implies `upper`), with that function.
    fn cover(&mut self, lower: &Bdd, upper: &Bdd) -> Option<(Vec<Cube>, Bdd)> {
        if lower.is_false() {
            return Some((Vec::new(), lower.clone()));
        }
        if upper.is_true() {
            return Some((vec![Vec::new()], upper.clone()));
        }
        let key = (lower.clone(), upper.clone());
        if let Some(known) = self.memo.get(&key) {
            return Some(known.clone());
        }
        if (self.stop)() {
            return None;
        }
        // Neither is constant here (an upper bound of a satisfiable lower one is not false).
        let v = [lower, upper].into_iter().filter_map(top_variable).min()?;
        let (l0, l1) = (lower.var_restrict(v, false), lower.var_restrict(v, true));
        let (u0, u1) = (upper.var_restrict(v, false), upper.var_restrict(v, true));
        // Cubes that need v = 0, cubes that need v = 1, then cubes without v for the rest.
        let (c0, f0) = self.cover(&l0.and_not(&u1), &u0)?;
        let (c1, f1) = self.cover(&l1.and_not(&u0), &u1)?;
        let rest = l0.and_not(&f0).or(&l1.and_not(&f1));
        let (cd, fd) = self.cover(&rest, &u0.and(&u1))?;
        if c0.len() + c1.len() + cd.len() > self.max {
            return None;
        }
        let mut cubes = Vec::with_capacity(c0.len() + c1.len() + cd.len());
        for (part, value) in [(c0, Some(false)), (c1, Some(true)), (cd, None)] {
            for mut cube in part {
                if let Some(value) = value {
                    cube.push((v, value));
                }
                cubes.push(cube);
            }
        }
        let f = Bdd::if_then_else(&self.vars.mk_var(v), &f1, &f0).or(&fd);
        self.memo.insert(key, (cubes.clone(), f.clone()));
        Some((cubes, f))
    }
}

/// The variable at the root of `f`, `None` for a constant.
fn top_variable(f: &Bdd) -> Option<BddVariable> {
    (!f.is_true() && !f.is_false()).then(|| f.var_of(f.root_pointer()))
}
