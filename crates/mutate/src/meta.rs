//! Meta-mutants: every mutant of a list in one system, selected by a frozen selector word
//! `mutsel` (0 = the original, `k` = the `k`-th mutant of the list, counting from 1), as
//! yosys `mutate -ctrl` does (`docs/method.md` §3.3). One bit-blast then serves every mutant;
//! each check fixes the selector.

use std::collections::HashMap;

use hypermut_ir::types::bits_for;
use hypermut_ir::{BinOp, ExprId, ExprKind, Role, System, Type, TypeError, Value, VarId};

use crate::conditional::fresh_name;
use crate::edit::{apply, Edit};
use crate::operators::Mutant;
use crate::MutateError;

/// Name of the selector variable (made unique if the model already uses it).
pub const MUTSEL_VAR: &str = "mutsel";

/// A system holding the original and all given mutants behind the selector `mutsel`.
#[derive(Clone, Debug)]
pub struct MetaMutant {
    /// The meta system.
    pub system: System,
    /// The selector: frozen, unsigned bit-vector, free initial value. Codes beyond the last
    /// mutant behave like the original.
    pub selector: VarId,
    /// The mutants; selector value `k` (≥ 1) selects `mutants[k - 1]`.
    pub mutants: Vec<Mutant>,
}

impl MetaMutant {
    /// Width of the selector word.
    pub fn width(&self) -> u32 {
        self.system.var(self.selector).ty.bv_width().unwrap_or(1)
    }

    /// The selector value for code `k` (0 = original, `k` = `mutants[k - 1]`).
    pub fn selector_value(&self, k: usize) -> Value {
        Value::bits(self.width(), k as u64)
    }

    /// The selector code of the mutant with id `id`, if it is in the list.
    pub fn code_of(&self, id: usize) -> Option<usize> {
        self.mutants.iter().position(|m| m.id == id).map(|i| i + 1)
    }
}

/// Builds the meta-mutant of `sys` for `mutants` (which must come from [`crate::enumerate`]
/// on the same system). Every mutated node `e` becomes
/// `mutsel = k1 ? e_k1 : (mutsel = k2 ? e_k2 : … e')`, where `e'` is `e` with the mutants
/// inside it applied the same way; with `mutsel = k` the system behaves exactly like the
/// conditional mutant of `mutants[k - 1]` with `mut = 1`.
pub fn meta_mutant(sys: &System, mutants: &[Mutant]) -> Result<MetaMutant, MutateError> {
    let mut s = sys.clone();
    let width = bits_for(mutants.len() as u64 + 1);
    let sel_ty = Type::ubv(width);
    let name = fresh_name(&s, MUTSEL_VAR);
    let selector = s.add_var(name, sel_ty, Role::Frozen, None);
    let mut by_site: HashMap<ExprId, Vec<usize>> = HashMap::new();
    for (i, m) in mutants.iter().enumerate() {
        for site in m.sites() {
            by_site.entry(site).or_default().push(i);
        }
    }
    let mut applied = vec![0usize; mutants.len()];
    let mut current: Option<usize> = None;
    let result = s.rewrite(|s, orig, rebuilt| {
        let Some(list) = by_site.get(&orig) else {
            return Ok(rebuilt);
        };
        let mut acc = rebuilt;
        for &i in list.iter().rev() {
            let m = &mutants[i];
            current = Some(m.id);
            let mutated = mutated_alone(s, orig, m)?;
            let sel = s.var_ref(selector, None);
            let code = s.bv_const(sel_ty, Value::bits(width, (i + 1) as u64), None);
            let is_k = s.mk(ExprKind::Binary(BinOp::Eq, sel, code), None)?;
            acc = s.mk(ExprKind::Ite(is_k, mutated, acc), None)?;
            applied[i] += 1;
        }
        current = None;
        Ok(acc)
    });
    if let Err(source) = result {
        return Err(match current {
            Some(id) => MutateError::IllTyped { id, source },
            None => MutateError::Type(source),
        });
    }
    for (m, n) in mutants.iter().zip(&applied) {
        if *n != m.sites().count() {
            return Err(MutateError::UnknownId(m.id));
        }
    }
    Ok(MetaMutant {
        system: s,
        selector,
        mutants: mutants.to_vec(),
    })
}

/// Node `site` (an original node) with mutant `m` applied to it and to every other site of
/// `m` below it, and no other mutant: what the conditional mutant computes there with
/// `mut = 1`.
fn mutated_alone(s: &mut System, site: ExprId, m: &Mutant) -> Result<ExprId, TypeError> {
    if m.extra_sites.is_empty() {
        return apply(s, site, &m.edit);
    }
    let sites: Vec<ExprId> = m.sites().collect();
    rebuild_with(s, site, &sites, &m.edit)
}

/// The subtree of `root` rebuilt bottom-up with `edit` applied at every node of `sites`.
fn rebuild_with(
    s: &mut System,
    root: ExprId,
    sites: &[ExprId],
    edit: &Edit,
) -> Result<ExprId, TypeError> {
    let mut map: HashMap<ExprId, ExprId> = HashMap::new();
    for id in s.exprs.cone([root]) {
        let node = s.exprs.node(id).clone();
        let old = node.kind.children();
        let kids: Vec<ExprId> = old.iter().map(|c| map[c]).collect();
        let rebuilt = if kids == old {
            id
        } else {
            s.mk(node.kind.with_children(&kids), node.span)?
        };
        let new = if sites.contains(&id) {
            apply(s, rebuilt, edit)?
        } else {
            rebuilt
        };
        map.insert(id, new);
    }
    Ok(map[&root])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conditional::conditional;
    use crate::enumerate;
    use crate::nd::make_controllable;
    use crate::operators::Operator;
    use hypermut_ir::{Frame, Interpreter, Trace};
    use hypermut_testkit::sim::random_value;
    use hypermut_testkit::{repo, SplitMix64};
    use std::collections::HashMap;

    const COUNTER: &str = "-- @output cnt, full
MODULE main
IVAR
  inc : boolean;
  reset : boolean;
VAR
  cnt : 0..7;
  parity : boolean;
DEFINE
  full := cnt = 7;
ASSIGN
  init(cnt) := 0;
  next(cnt) := case
      reset : 0;
      inc & cnt < 7 : cnt + 1;
      !inc & cnt > 0 : cnt - 1;
      TRUE : cnt;
    esac;
  init(parity) := FALSE;
  next(parity) := case
      inc & cnt < 7 : !parity;
      TRUE : parity;
    esac;
";

    fn load(text: &str) -> System {
        hypermut_smv::parse_smv("m.smv", text).expect("the test model loads")
    }

    /// A bundled SMV model, or `None` (with a `SKIPPED` message) when it cannot be read.
    fn bundled(name: &str) -> Option<System> {
        repo::model_text(&format!("smv/{name}")).map(|text| load(&text))
    }

    /// Outputs, constraint results and (named) state values of a run, so that runs of two
    /// systems with different variable numbering compare; the selector is left out.
    type Observed = (
        Vec<Vec<Value>>,
        Vec<bool>,
        Vec<Vec<(String, Option<Value>)>>,
    );

    fn observe(sys: &System, skip: VarId, t: Trace) -> Observed {
        let states = t
            .states
            .iter()
            .map(|st| {
                st.iter()
                    .enumerate()
                    .filter(|(i, v)| *i != skip.0 as usize && v.is_some())
                    .map(|(i, v)| (sys.vars[i].name.clone(), v.clone()))
                    .collect()
            })
            .collect();
        (t.outputs, t.constraints_ok, states)
    }

    /// For every mutant k: the meta-mutant with `mutsel = k` and the conditional mutant with
    /// `mut = 1` give the same outputs, constraints and states on random nd-controlled runs.
    fn agrees_with_conditionals(sys: &System, runs: usize, steps: usize) {
        let ms = enumerate(sys, &Operator::ALL);
        assert!(!ms.is_empty());
        let mut meta = meta_mutant(sys, &ms).expect("the meta-mutant builds");
        make_controllable(&mut meta.system, &[meta.selector]).expect("nd transformation");
        let mi = Interpreter::new(&meta.system);
        let mut rng = SplitMix64::new(7);
        for (k, m) in ms.iter().enumerate() {
            let mut cm = conditional(sys, m).expect("the conditional mutant builds");
            make_controllable(&mut cm.system, &[cm.mut_var]).expect("nd transformation");
            let ci = Interpreter::new(&cm.system);
            for _ in 0..runs {
                let mut cframes = Vec::new();
                let mut mframes = Vec::new();
                for _ in 0..steps {
                    let (mut cf, mut mf) = (Frame::default(), Frame::default());
                    for (i, v) in meta.system.vars.iter().enumerate() {
                        if v.role != Role::Input {
                            continue;
                        }
                        let val = random_value(&mut rng, &meta.system, v.ty);
                        mf.inputs.insert(VarId(i as u32), val.clone());
                        if let Some(c) = cm.system.var_by_name(&v.name) {
                            cf.inputs.insert(c, val);
                        }
                    }
                    cframes.push(cf);
                    mframes.push(mf);
                }
                let c = ci.run(&HashMap::from([(cm.mut_var, Value::Bool(true))]), &cframes);
                let mt = mi.run(
                    &HashMap::from([(meta.selector, meta.selector_value(k + 1))]),
                    &mframes,
                );
                match (c, mt) {
                    (Ok(c), Ok(mt)) => assert_eq!(
                        observe(&cm.system, cm.mut_var, c),
                        observe(&meta.system, meta.selector, mt),
                        "mutant {} ({} → {})",
                        m.id,
                        m.original,
                        m.replacement
                    ),
                    (Err(a), Err(b)) => assert_eq!(a, b, "mutant {}", m.id),
                    (a, b) => panic!("mutant {}: conditional {a:?}, meta {b:?}", m.id),
                }
            }
        }
        // Selector 0 is the original.
        let mut orig = sys.clone();
        make_controllable(&mut orig, &[]).expect("nd transformation");
        let oi = Interpreter::new(&orig);
        for _ in 0..runs {
            let mframes: Vec<Frame> = (0..steps)
                .map(|_| {
                    let mut f = Frame::default();
                    for (i, v) in meta.system.vars.iter().enumerate() {
                        if v.role == Role::Input {
                            let val = random_value(&mut rng, &meta.system, v.ty);
                            f.inputs.insert(VarId(i as u32), val);
                        }
                    }
                    f
                })
                .collect();
            let oframes: Vec<Frame> = mframes
                .iter()
                .map(|mf| Frame {
                    inputs: mf
                        .inputs
                        .iter()
                        .filter_map(|(v, val)| {
                            orig.var_by_name(&meta.system.var(*v).name)
                                .map(|o| (o, val.clone()))
                        })
                        .collect(),
                    ..Frame::default()
                })
                .collect();
            let o = oi
                .run(&HashMap::new(), &oframes)
                .expect("the original runs");
            let mt = mi
                .run(
                    &HashMap::from([(meta.selector, meta.selector_value(0))]),
                    &mframes,
                )
                .expect("the meta-mutant runs");
            assert_eq!(o.outputs, mt.outputs);
        }
    }

    #[test]
    fn meta_equals_each_conditional_mutant_on_counter() {
        agrees_with_conditionals(&load(COUNTER), 8, 12);
    }

    #[test]
    fn meta_equals_each_conditional_mutant_on_bundled_models() {
        for name in ["beverage.smv", "car_alarm.smv"] {
            if let Some(sys) = bundled(name) {
                agrees_with_conditionals(&sys, 4, 10);
            }
        }
    }

    #[test]
    fn selector_is_wide_enough_and_codes_start_at_one() {
        let sys = load(COUNTER);
        let ms = enumerate(&sys, &Operator::ALL);
        let meta = meta_mutant(&sys, &ms).expect("builds");
        assert!(1u128 << meta.width() > ms.len() as u128);
        assert_eq!(meta.system.var(meta.selector).role, Role::Frozen);
        assert!(meta.system.var(meta.selector).init.is_none());
        assert_eq!(meta.code_of(ms[0].id), Some(1));
        assert_eq!(meta.code_of(usize::MAX), None);
        // No mutants: only the original, behind a 1-bit selector.
        let empty = meta_mutant(&sys, &[]).expect("builds");
        assert_eq!(empty.width(), 1);
    }

    #[test]
    fn a_mutant_of_another_system_is_rejected() {
        let sys = load(COUNTER);
        let other =
            load("MODULE main\nVAR x : boolean;\nASSIGN init(x) := FALSE; next(x) := !x;\n");
        let ms = enumerate(&other, &Operator::ALL);
        let bogus: Vec<Mutant> = ms
            .into_iter()
            .map(|mut m| {
                m.site = ExprId(u32::MAX - 1);
                m
            })
            .take(1)
            .collect();
        assert!(bogus.len() == 1);
        assert!(matches!(
            meta_mutant(&sys, &bogus),
            Err(MutateError::UnknownId(_))
        ));
    }
}
