//! Cubes over latch literals and the delta-encoded frame sequence of IC3.
//!
//! A lemma (blocked cube `c`, clause `¬c`) is stored once, at the highest level `k` where it
//! is known to hold: it belongs to every frame `F_1 … F_k`. So `F_k` is the union of
//! `levels[k..]`, and `F_k = F_{k+1}` exactly when `levels[k]` is empty.
//!
//! Lemmas known to be invariants (an inductive set holding initially, seeded or found) sit
//! at the infinite level: they belong to every frame `F_k`, `k ≥ 1`, and are never
//! propagated again.

use hypermut_aig::Lit;

/// A conjunction of latch literals, sorted by literal, without duplicates.
pub type Cube = Vec<Lit>;

/// Whether every literal of `a` is in `b` (both sorted): `a ⊆ b`, so the clause `¬a`
/// implies `¬b`.
pub fn subsumes(a: &[Lit], b: &[Lit]) -> bool {
    if a.len() > b.len() {
        return false;
    }
    let mut j = 0;
    for &x in a {
        while j < b.len() && b[j] < x {
            j += 1;
        }
        if j == b.len() || b[j] != x {
            return false;
        }
        j += 1;
    }
    true
}

/// Lemmas per level (index 0 is unused: `F_0` is the initial states), and the lemmas of the
/// infinite level.
#[derive(Clone, Debug, Default)]
pub struct Frames {
    levels: Vec<Vec<Cube>>,
    inf: Vec<Cube>,
}

impl Frames {
    /// Frames `0..=top`, all empty.
    pub fn new(top: usize) -> Self {
        Frames {
            levels: vec![Vec::new(); top + 1],
            inf: Vec::new(),
        }
    }

    /// The highest level that exists.
    pub fn top(&self) -> usize {
        self.levels.len() - 1
    }

    /// Adds an empty level above the top.
    pub fn push_level(&mut self) {
        self.levels.push(Vec::new());
    }

    /// The lemmas stored exactly at `level`.
    pub fn at(&self, level: usize) -> &[Cube] {
        &self.levels[level]
    }

    /// Adds `cube` at `level`, removing the lemmas at levels `1..=level` that it subsumes.
    /// Returns how many were removed.
    pub fn add(&mut self, level: usize, cube: Cube) -> usize {
        let mut removed = 0;
        for l in self.levels[1..=level].iter_mut() {
            let before = l.len();
            l.retain(|d| !subsumes(&cube, d));
            removed += before - l.len();
        }
        self.levels[level].push(cube);
        removed
    }

    /// Adds `cube` at the infinite level, removing the lemmas of every finite level that it
    /// subsumes. Returns how many were removed.
    pub fn add_inf(&mut self, cube: Cube) -> usize {
        let mut removed = 0;
        for l in self.levels.iter_mut().skip(1) {
            let before = l.len();
            l.retain(|d| !subsumes(&cube, d));
            removed += before - l.len();
        }
        self.inf.push(cube);
        removed
    }

    /// The lemmas of the infinite level.
    pub fn inf(&self) -> &[Cube] {
        &self.inf
    }

    /// Whether a lemma of the infinite level subsumes `cube` (so no frame contains it).
    pub fn blocked_forever(&self, cube: &[Lit]) -> bool {
        self.inf.iter().any(|d| subsumes(d, cube))
    }

    /// Removes one occurrence of `cube` from `level`; whether it was there.
    pub fn remove(&mut self, level: usize, cube: &[Lit]) -> bool {
        match self.levels[level].iter().position(|d| d == cube) {
            Some(i) => {
                self.levels[level].swap_remove(i);
                true
            }
            None => false,
        }
    }

    /// Whether some lemma at a level `>= level` (or at the infinite level) subsumes `cube`
    /// (so `cube` is excluded from `F_level` syntactically).
    pub fn blocked(&self, level: usize, cube: &[Lit]) -> bool {
        self.from_level(level).any(|d| subsumes(d, cube))
    }

    /// The highest level `>= level` holding a lemma that subsumes `cube`, if any: `cube` is
    /// then excluded from every frame up to that level.
    pub fn blocked_up_to(&self, level: usize, cube: &[Lit]) -> Option<usize> {
        (level.max(1)..self.levels.len())
            .rev()
            .find(|&k| self.levels[k].iter().any(|d| subsumes(d, cube)))
    }

    /// All lemmas at levels `>= level` and at the infinite level: the clauses of `F_level`.
    pub fn from_level(&self, level: usize) -> impl Iterator<Item = &Cube> {
        self.levels[level.max(1)..]
            .iter()
            .flatten()
            .chain(&self.inf)
    }

    /// Number of lemmas per level, then at the infinite level, for statistics.
    pub fn sizes(&self) -> Vec<usize> {
        let mut s: Vec<usize> = self.levels.iter().map(Vec::len).collect();
        s.push(self.inf.len());
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(v: &[u32]) -> Cube {
        v.iter().map(|&x| Lit(x)).collect()
    }

    #[test]
    fn subsumption_of_sorted_cubes() {
        assert!(subsumes(&c(&[]), &c(&[2, 5])));
        assert!(subsumes(&c(&[2, 7]), &c(&[2, 5, 7])));
        assert!(!subsumes(&c(&[3]), &c(&[2, 5, 7])));
        assert!(!subsumes(&c(&[2, 5, 7]), &c(&[2, 7])));
        assert!(!subsumes(&c(&[8]), &c(&[2, 5, 7])));
    }

    #[test]
    fn adding_removes_subsumed_lemmas_below() {
        let mut f = Frames::new(3);
        f.add(1, c(&[2, 4, 6]));
        f.add(3, c(&[2, 4, 8]));
        f.add(2, c(&[4, 10]));
        assert_eq!(f.add(2, c(&[4])), 2);
        assert_eq!(f.sizes(), vec![0, 0, 1, 1, 0]);
        assert!(f.blocked(2, &c(&[4, 12])));
        assert!(f.blocked(3, &c(&[2, 4, 8, 12])));
        assert!(!f.blocked(3, &c(&[4, 12])));
        assert_eq!(f.blocked_up_to(1, &c(&[4, 12])), Some(2));
        assert_eq!(f.blocked_up_to(3, &c(&[4, 12])), None);
        assert_eq!(f.from_level(2).count(), 2);
        assert!(f.remove(3, &c(&[2, 4, 8])));
        assert!(!f.remove(3, &c(&[2, 4, 8])));
    }

    #[test]
    fn the_infinite_level_belongs_to_every_frame() {
        let mut f = Frames::new(3);
        f.add(1, c(&[2, 6]));
        f.add(3, c(&[4, 8]));
        f.add(2, c(&[10]));
        assert_eq!(f.add_inf(c(&[4])), 1);
        assert_eq!(f.sizes(), vec![0, 1, 1, 0, 1]);
        assert!(f.blocked_forever(&c(&[4, 12])));
        assert!(!f.blocked_forever(&c(&[2, 6])));
        assert!(f.blocked(3, &c(&[4, 12])));
        // Finite levels do not report it: it is at no finite level.
        assert_eq!(f.blocked_up_to(1, &c(&[4, 12])), None);
        assert_eq!(f.from_level(3).count(), 1);
        assert_eq!(f.from_level(1).count(), 3);
        assert_eq!(f.inf(), &[c(&[4])]);
    }
}
