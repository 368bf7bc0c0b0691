//! The shared corpus (`../shared/corpus`): on every model the front-ends accept, the
//! enumeration keeps its invariants, sampled conditional mutants build, and for Verilog the
//! sampled mutants' edited sources are accepted by the front-end again. Skipped with a
//! message when the corpus is absent.

use std::collections::HashSet;

use hypermut_testkit::corpus;

use super::all;
use crate::conditional::conditional;
use crate::sample::sample;
use crate::text::normalise;

/// Models up to this size are checked (keeps the test fast).
const MAX_BYTES: u64 = 15_000;
/// Mutants sampled per model.
const PER_MODEL: usize = 12;

#[test]
fn corpus_models_keep_the_invariants() {
    let Some(root) = corpus::dir("") else {
        return;
    };
    let mut paths = corpus::files(&root.join("smv"), &["smv"]);
    paths.extend(corpus::files(&root.join("verilog"), &["v"]));
    paths.sort();
    let mut checked = 0;
    for path in paths {
        if std::fs::metadata(&path).map_or(true, |m| m.len() > MAX_BYTES) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let name = path.display().to_string();
        let verilog = name.ends_with(".v");
        let sys = if verilog {
            match hypermut_verilog::parse_verilog(&[(&name, &text)], &Default::default()) {
                Ok(l) => l.system,
                Err(_) => continue,
            }
        } else {
            match hypermut_smv::parse_smv(&name, &text) {
                Ok(s) => s,
                Err(_) => continue,
            }
        };
        let ms = all(&sys);
        let mut texts = HashSet::new();
        for (i, m) in ms.iter().enumerate() {
            assert_eq!(m.id, i, "{name}");
            assert_eq!(sys.sources.snippet(m.span), m.original, "{name}: {m:?}");
            assert_ne!(
                normalise(&m.original),
                normalise(&m.replacement),
                "{name}: {m:?}"
            );
            assert!(
                texts.insert((m.span, normalise(&m.replacement))),
                "{name}: {m:?}"
            );
        }
        for m in sample(&ms, PER_MODEL, 11) {
            if let Err(e) = conditional(&sys, &m) {
                panic!("{name}: no conditional mutant for {m:?}: {e}");
            }
            // The SMV front-end also checks case exhaustiveness and array bounds on the
            // edited text, which the IR mutant cannot see; only Verilog is checked here.
            let in_model = sys
                .sources
                .file(m.span.file)
                .is_some_and(|f| f.name == name);
            if verilog && in_model {
                let (s, e) = (m.span.start as usize, m.span.end as usize);
                let src = format!("{}{}{}", &text[..s], m.replacement, &text[e..]);
                if let Err(err) =
                    hypermut_verilog::parse_verilog(&[(&name, &src)], &Default::default())
                {
                    panic!("{name}: the edited source of {m:?} is rejected: {err}");
                }
            }
        }
        checked += 1;
    }
    assert!(checked > 20, "only {checked} corpus models were checked");
}
