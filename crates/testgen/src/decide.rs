//! Deciding one mutant (`docs/method.md` §7): the validity checks, the product, the engine
//! schedule within the time budget, and the checked evidence of the verdict. No file I/O:
//! the result is a [`Decision`] value that the store writes.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use hypermut_aig::blast::{blast, BlastOptions};
use hypermut_aig::{Aig, Lit, Witness};
use hypermut_hyper::{agreement, extract_test, range_check, HyperError, MutantProduct, RangeCheck};
use hypermut_ir::{System, VarId};
use hypermut_mutate::{make_controllable, Mutant};
use hypermut_prove::bmc::{check_bound, check_bound_fixed, BmcError};
use hypermut_prove::{witness_circuit, Certificate, Limits, Schedule, Verdict};
use hypermut_smv::SmvOptions;

use crate::error::{Error, Result};
use crate::layout;
use crate::load::Model;
use crate::record::{KillClass, MutantRecord, MutantVerdict, ProductSize};
use crate::select::location;
use crate::testfile::TestFile;

/// How much effort one mutant gets.
#[derive(Clone, Debug, PartialEq)]
pub struct DecideOptions {
    /// BMC bound: the deepest frame searched before IC3.
    pub bound: usize,
    /// Time limit per mutant, for BMC and IC3 together.
    pub timeout: Duration,
    /// Whether to run IC3 after BMC (to prove equivalence or find deeper tests).
    pub prove: bool,
}

impl Default for DecideOptions {
    fn default() -> Self {
        DecideOptions {
            bound: 20,
            timeout: Duration::from_secs(60),
            prove: true,
        }
    }
}

/// What deciding one mutant produced: its record and the evidence to store with it.
#[derive(Clone, Debug)]
pub struct Decision {
    /// The record (its `test` and `certificate` fields name the files of the evidence).
    pub record: MutantRecord,
    /// The killing test, for a killed mutant.
    pub test: Option<TestFile>,
    /// The product's counterexample, for a killed mutant.
    pub witness: Option<Witness>,
    /// The certificate circuit (Certifaiger), for a mutant IC3 proved equivalent.
    pub certificate: Option<Aig>,
}

/// Decides mutants of one model (what does not change from mutant to mutant).
#[derive(Clone, Debug)]
pub struct Decider<'a> {
    model: &'a Model,
    options: DecideOptions,
    schedule: Schedule,
    ands_orig: Option<usize>,
    smv_recheck: Option<SmvOptions>,
}

impl<'a> Decider<'a> {
    /// A decider for the mutants of `model`.
    pub fn new(model: &'a Model, options: &DecideOptions) -> Self {
        Decider {
            model,
            options: options.clone(),
            schedule: Schedule::bmc_then_ic3(options.bound, options.prove),
            ands_orig: original_ands(&model.system).ok(),
            smv_recheck: model.smv_recheck(),
        }
    }

    /// Decides mutant `m`. Failures become the verdicts `invalid` or `error` with the reason.
    pub fn decide(&self, m: &Mutant) -> Decision {
        let start = Instant::now();
        let mut d = Decision {
            record: MutantRecord {
                ands_orig: self.ands_orig,
                ..MutantRecord::undecided(
                    m.id,
                    m.operator.name(),
                    &location(&self.model.system, m),
                    &m.original,
                    &m.replacement,
                )
            },
            test: None,
            witness: None,
            certificate: None,
        };
        if let Err(e) = self.decide_inner(m, &mut d, start) {
            d.record.outcome = match &e {
                Error::Hyper(HyperError::InvalidMutant(_)) => MutantVerdict::Invalid,
                _ => MutantVerdict::Error,
            };
            d.record.reason = e.to_string();
            d.test = None;
            d.witness = None;
            d.certificate = None;
        }
        d.record.millis = start.elapsed().as_millis() as u64;
        d
    }

    /// Why the SMV front-end rejects the mutant's edited source, if it does (NuSMV would
    /// reject that model too, e.g. a `case` left without a branch for some values).
    fn rejected_source(&self, m: &Mutant) -> Option<String> {
        let options = self.smv_recheck.as_ref()?;
        let src = hypermut_mutate::mutant_source(&self.model.system, m).ok()?;
        match hypermut_smv::parse_smv_with(&src.name, &src.text, options) {
            Ok(_) => None,
            Err(e) => Some(format!(
                "the mutated source is not a valid model: {}",
                e.to_string().lines().next().unwrap_or("")
            )),
        }
    }

    fn decide_inner(&self, m: &Mutant, d: &mut Decision, start: Instant) -> Result<()> {
        let rec = &mut d.record;
        if let Some(reason) = self.rejected_source(m) {
            rec.outcome = MutantVerdict::Invalid;
            rec.engine = Some("static".into());
            rec.reason = reason;
            return Ok(());
        }
        let mp = MutantProduct::build(&self.model.system, m)?;
        let p = &mp.product;
        rec.product = ProductSize {
            inputs: p.aig.inputs.len(),
            latches: p.aig.latches.len(),
            shared_latches: p.shared_latches,
            duplicated_latches: p.duplicated_latches,
            ands: p.aig.num_ands(),
        };
        rec.ands_cm = Some(mp.blasted.aig.num_ands());
        if let Some(var) = out_of_range(&mp)? {
            rec.outcome = MutantVerdict::Invalid;
            rec.engine = Some("range".into());
            rec.reason = format!(
                "the mutant can assign a value outside the range of {var} (NuSMV rejects such models)"
            );
            return Ok(());
        }
        if !p.observable || p.aig.bad.first().map(|b| b.lit) == Some(Lit::FALSE) {
            rec.outcome = MutantVerdict::Equivalent;
            rec.engine = Some("static".into());
            rec.reason =
                "the mutation leaves the circuit unchanged or reaches no output (structural check)"
                    .into();
            return Ok(());
        }
        let limits = Limits {
            deadline: Some(start + self.options.timeout),
            stop: Vec::new(),
        };
        let run = self.schedule.run(&p.aig, &limits);
        rec.engine = self.schedule.stage_name(run.stage).map(str::to_string);
        match run.verdict {
            Verdict::Unsafe(w) => {
                let mut test =
                    extract_test(&mp.conditional, &mp.nd, &mp.blasted, &w).map_err(|e| {
                        Error::from(e)
                            .context("the counterexample does not replay on the word-level model")
                    })?;
                let class = classify(&mp, &w, test.depth, limits.deadline)?;
                test.requires_nd_control = class == KillClass::Controlled;
                rec.outcome = MutantVerdict::Killed;
                rec.depth = Some(test.depth);
                rec.kill_class = Some(class);
                rec.requires_nd_control = test.requires_nd_control;
                rec.test = Some(layout::test_file(m.id));
                rec.reason = format!(
                    "counterexample at depth {}, replayed on the model",
                    w.depth()
                );
                let location = rec.location.clone();
                d.test = Some(TestFile::new(
                    &self.model.name,
                    &self.model.hash,
                    m,
                    &location,
                    &mp,
                    test,
                    class,
                ));
                d.witness = Some(w);
            }
            Verdict::Safe(cert) => {
                rec.outcome = MutantVerdict::Equivalent;
                rec.reason = match &cert {
                    Certificate::Invariant { clauses } => {
                        d.certificate = Some(witness_circuit(&p.aig, &cert)?);
                        rec.certificate = Some(layout::certificate_file(m.id));
                        format!(
                            "IC3: inductive invariant of {} clauses, re-checked by a separate SAT solver",
                            clauses.len()
                        )
                    }
                    Certificate::Trivial => "the kill property is constant false".into(),
                    Certificate::KInduction { k, .. } => format!("k-induction at depth {k}"),
                };
            }
            Verdict::Unknown(r) => {
                rec.outcome = MutantVerdict::Unknown;
                rec.reason = r;
            }
        }
        Ok(())
    }
}

/// How the killing test of `w` (first difference in frame `depth`) kills the mutant of `mp`
/// when the tester applies only its inputs (`docs/method.md` §4.2). Without nd inputs the
/// test is definite as it is. Otherwise, on the agreement circuit (the copies choose their
/// nd values apart), with the test's inputs fixed: if no original behaviour and no mutant
/// behaviour answer alike up to `depth`, definite; else, if none answers like the mutant
/// with the test's nd values, potential; else controlled. A check stopped by the deadline
/// counts as failed (the weaker class).
fn classify(
    mp: &MutantProduct,
    w: &Witness,
    depth: usize,
    deadline: Option<Instant>,
) -> Result<KillClass> {
    let c = &mp.blasted;
    let nd_vars: HashSet<VarId> = mp.nd.iter().map(|n| n.var).collect();
    let mut private = vec![false; c.aig.inputs.len()];
    for vb in c.inputs.iter().filter(|vb| nd_vars.contains(&vb.var)) {
        for i in vb.bits.iter().filter_map(|b| c.aig.input_index(*b)) {
            private[i] = true;
        }
    }
    if !private.contains(&true) {
        return Ok(KillClass::Definite);
    }
    let ag = agreement(c, mp.selector, &private)?;
    // The product's inputs are the conditional mutant's, in the same order.
    let fixed = |mutant_nd: bool| -> Vec<Vec<Option<bool>>> {
        (0..=depth)
            .map(|k| {
                let mut v = vec![None; ag.aig.inputs.len()];
                for (i, (a, b)) in ag.inputs.iter().enumerate() {
                    let value = w.inputs.get(k).and_then(|f| f.get(i).copied().flatten());
                    let value = Some(value.unwrap_or(false));
                    if !private[i] {
                        v[*a] = value;
                    } else if mutant_nd {
                        v[*b] = value;
                    }
                }
                v
            })
            .collect()
    };
    let answered_alike = |mutant_nd: bool| -> Result<bool> {
        match check_bound_fixed(&ag.aig, depth, &fixed(mutant_nd), deadline) {
            Ok(found) => Ok(found.is_some()),
            Err(BmcError::Interrupted) => Ok(true),
            Err(e) => Err(e.into()),
        }
    };
    Ok(if !answered_alike(false)? {
        KillClass::Definite
    } else if !answered_alike(true)? {
        KillClass::Potential
    } else {
        KillClass::Controlled
    })
}

/// AND gates of the model's circuit after the nd transformation (the base of ΔGates).
pub fn original_ands(sys: &System) -> Result<usize> {
    let mut s = sys.clone();
    make_controllable(&mut s, &[])?;
    let b = blast(&s, &BlastOptions::default())?;
    Ok(b.aig.num_ands())
}

/// The first assignment (`next(x)`, `init(x)`) that the mutant can drive out of range in some
/// state while the original cannot.
fn out_of_range(mp: &MutantProduct) -> Result<Option<String>> {
    let Some(mutant) = range_check(&mp.conditional, true)? else {
        return Ok(None);
    };
    let original = range_check(&mp.conditional, false)?;
    for (k, b) in mutant.aig.bad.iter().enumerate() {
        let violates = |rc: &RangeCheck| -> Result<bool> {
            let Some(g) = rc
                .aig
                .bad
                .iter()
                .position(|x| x.name == b.name)
                .and_then(|i| rc.property(i))
            else {
                return Ok(false);
            };
            Ok(check_bound(&g, 0)?.is_some())
        };
        let orig_violates = match &original {
            Some(o) => violates(o)?,
            None => false,
        };
        if !orig_violates && mutant.property(k).is_some() && violates(&mutant)? {
            return Ok(Some(b.name.clone()));
        }
    }
    Ok(None)
}
