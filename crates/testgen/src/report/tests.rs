//! The report of hand-made results on real models: what the page shows is read back from
//! the HTML text by a small reader written apart from the generator and compared with the
//! mutants' own spans; the tracefile's counts are recomputed from the records.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::*;
use crate::layout;
use crate::load::FrontendOptions;
use crate::record::{KillClass, MutantRecord, MutantVerdict};
use crate::select::{all_mutants, Locator};

fn repo_model(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../models")
        .join(rel)
}

fn load(paths: &[PathBuf], options: &FrontendOptions) -> Model {
    Model::load(paths, options).expect("the model loads").0
}

/// The verdict and class of mutant `id`: every status occurs, in turn.
fn verdict_of(id: usize) -> (MutantVerdict, Option<KillClass>) {
    use KillClass::*;
    use MutantVerdict::*;
    [
        (Killed, Some(Definite)),
        (Unknown, None),
        (Killed, Some(Potential)),
        (Equivalent, None),
        (Killed, Some(Controlled)),
        (Invalid, None),
        (Killed, None),
        (Error, None),
    ][id % 8]
}

/// Records for every mutant of `model`, with the verdicts of [`verdict_of`].
fn summary_of(model: &Model) -> Summary {
    let locator = Locator::new(model);
    let records = all_mutants(&model.system)
        .iter()
        .map(|m| {
            let (outcome, kill_class) = verdict_of(m.id);
            let killed = outcome == MutantVerdict::Killed;
            MutantRecord {
                outcome,
                kill_class,
                depth: killed.then_some(m.id % 4),
                test: killed.then(|| layout::test_file(m.id)),
                certificate: (outcome == MutantVerdict::Equivalent)
                    .then(|| layout::certificate_file(m.id)),
                reason: format!("reason <{}> & \"{}\"", m.id, m.operator.name()),
                ..MutantRecord::undecided(
                    m.id,
                    m.operator.name(),
                    &locator.location(&model.system, m),
                    &m.original,
                    &m.replacement,
                )
            }
        })
        .collect();
    Summary::new(&model.name, &model.hash, 20, records)
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// A piece of a source line as the page shows it: its text, and for marked text the class
/// and the mutant ids of its title.
#[derive(Debug)]
struct Piece {
    text: String,
    class: Option<String>,
    ids: Vec<usize>,
}

/// The code cells of the page, in order, read into pieces.
fn code_lines(page: &str) -> Vec<Vec<Piece>> {
    let mut lines = Vec::new();
    for cell in page.split("<td class=\"code\">").skip(1) {
        let cell = &cell[..cell.find("</td>").expect("the cell ends")];
        let mut pieces = Vec::new();
        let mut rest = cell;
        while !rest.is_empty() {
            if let Some(tail) = rest.strip_prefix("<span ") {
                let open_end = tail.find('>').expect("the tag ends");
                let attrs = &tail[..open_end];
                let close = tail.find("</span>").expect("a closing tag");
                let class = attrs
                    .split("class=\"")
                    .nth(1)
                    .and_then(|a| a.split('"').next())
                    .map(str::to_string);
                let ids = attrs
                    .split("title=\"mutants ")
                    .nth(1)
                    .and_then(|a| a.split('"').next())
                    .map(|list| {
                        list.split(", ")
                            .map(|n| n.parse().expect("an id"))
                            .collect()
                    })
                    .unwrap_or_default();
                pieces.push(Piece {
                    text: unescape(&tail[open_end + 1..close]),
                    class,
                    ids,
                });
                rest = &tail[close + "</span>".len()..];
            } else {
                let end = rest.find('<').unwrap_or(rest.len());
                pieces.push(Piece {
                    text: unescape(&rest[..end]),
                    class: None,
                    ids: vec![],
                });
                rest = &rest[end..];
            }
        }
        lines.push(pieces);
    }
    lines
}

#[test]
fn the_page_shows_every_mutant_where_it_is() {
    let model = load(
        &[repo_model("smv/beverage.smv")],
        &FrontendOptions::default(),
    );
    let summary = summary_of(&model);
    let dir = tempfile::tempdir().expect("temp dir");
    let results = dir.path().join("out");
    // The evidence of every other killed mutant exists.
    let mut present = BTreeSet::new();
    for r in &summary.results {
        if let Some(t) = r.test.as_ref().filter(|_| r.id % 2 == 0) {
            std::fs::create_dir_all(results.join("tests")).expect("dir");
            std::fs::write(results.join(t), "{}").expect("write");
            present.insert(t.clone());
        }
    }
    std::fs::create_dir_all(&results).expect("dir");
    let html_path = dir.path().join("report/page.html");
    let files = ReportFiles::from_options(Some(&html_path), None);
    write_report(&model, &results, &summary, &files).expect("the report is written");
    let page = std::fs::read_to_string(&html_path).expect("the page");
    let lcov_text = std::fs::read_to_string(dir.path().join("report/page.info")).expect("lcov");
    assert!(!lcov_text.is_empty());

    // One section per mutant, and a badge for each in the source view.
    let (sources, mutants) = page
        .split_once("<section id=\"mutants\">")
        .expect("sections");
    for r in &summary.results {
        let anchor = format!("id=\"mutant-{}\"", r.id);
        assert_eq!(mutants.matches(&anchor).count(), 1, "{anchor}");
        assert_eq!(page.matches(&anchor).count(), 1, "{anchor}");
        let link = format!("href=\"#mutant-{}\"", r.id);
        assert_eq!(sources.matches(&link).count(), 1, "{link}");
    }
    // Links to the evidence that exists, relative to the page's folder, and to nothing else.
    for r in &summary.results {
        if let Some(t) = &r.test {
            let href = format!("href=\"../out/{t}\"");
            assert_eq!(page.contains(&href), present.contains(t), "{href}");
        }
        if let Some(c) = &r.certificate {
            assert!(!page.contains(&format!("../out/{c}")), "{c} does not exist");
        }
    }
    // The reasons are escaped.
    assert!(!page.contains("reason <"));
    assert!(page.contains("reason &lt;0&gt; &amp; &quot;"));

    // The code cells give back the file, and each marked piece names exactly the mutants
    // whose span covers it, coloured by the weakest of them.
    let text = &model.system.sources.files()[0].text;
    let lines = code_lines(sources);
    let wanted: Vec<&str> = text.trim_end_matches('\n').split('\n').collect();
    assert_eq!(lines.len(), wanted.len());
    let mutants = all_mutants(&model.system);
    let status = |id: usize| -> Status {
        let (outcome, kill_class) = verdict_of(id);
        let r = MutantRecord {
            outcome,
            kill_class,
            ..MutantRecord::undecided(id, "", "", "", "")
        };
        Status::of(&r)
    };
    let mut offset = 0;
    let mut marked = BTreeSet::new();
    for (pieces, want) in lines.iter().zip(&wanted) {
        let got: String = pieces.iter().map(|p| p.text.as_str()).collect();
        assert_eq!(&got, want);
        let mut at = offset;
        for p in pieces {
            let (a, b) = (at, at + p.text.len());
            let covering: Vec<usize> = mutants
                .iter()
                .filter(|m| (m.span.start as usize) <= a && b <= m.span.end as usize)
                .map(|m| m.id)
                .collect();
            let mut ids = p.ids.clone();
            ids.sort_unstable();
            assert_eq!(ids, covering, "{:?} at {a}..{b}", p.text);
            marked.extend(ids.iter().copied());
            let weakest = covering.iter().map(|&id| status(id)).min();
            assert_eq!(
                p.class.clone(),
                weakest.map(|s| format!("s-{}", s.name())),
                "{:?}",
                p.text
            );
            at = b;
        }
        offset += want.len() + 1;
    }
    // Every mutant with a non-empty span colours some text.
    let with_text: BTreeSet<usize> = mutants
        .iter()
        .filter(|m| m.span.start < m.span.end)
        .map(|m| m.id)
        .collect();
    assert_eq!(marked, with_text);
}

/// The `DA` and `BRDA` lines of a tracefile: line → count, and (line, id) → taken.
fn read_lcov(text: &str) -> (BTreeMap<usize, usize>, BTreeMap<(usize, usize), String>) {
    let mut da = BTreeMap::new();
    let mut brda = BTreeMap::new();
    for line in text.lines() {
        if let Some(v) = line.strip_prefix("DA:") {
            let (l, c) = v.split_once(',').expect("DA:line,count");
            da.insert(l.parse().expect("line"), c.parse().expect("count"));
        } else if let Some(v) = line.strip_prefix("BRDA:") {
            let f: Vec<&str> = v.split(',').collect();
            assert_eq!(f.len(), 4, "{line}");
            assert_eq!(f[1], "0", "{line}");
            brda.insert(
                (f[0].parse().expect("line"), f[2].parse().expect("id")),
                f[3].to_string(),
            );
        }
    }
    (da, brda)
}

#[test]
fn the_tracefile_counts_kills_per_line() {
    let model = load(
        &[repo_model("smv/beverage.smv")],
        &FrontendOptions::default(),
    );
    let summary = summary_of(&model);
    let dir = tempfile::tempdir().expect("temp dir");
    let lcov_path = dir.path().join("cov.info");
    let files = ReportFiles::from_options(None, Some(&lcov_path));
    write_report(&model, dir.path(), &summary, &files).expect("written");
    assert!(!dir.path().join("cov.html").exists());
    let text = std::fs::read_to_string(&lcov_path).expect("lcov");
    assert_eq!(text.matches("SF:").count(), 1);
    let sf = text
        .lines()
        .find_map(|l| l.strip_prefix("SF:"))
        .expect("SF");
    assert!(
        Path::new(sf).is_absolute() && Path::new(sf).is_file(),
        "{sf}"
    );
    // Recounted from the records' locations.
    let line_of = |r: &MutantRecord| -> usize {
        r.location
            .rsplit(':')
            .nth(1)
            .expect("a line")
            .parse()
            .expect("a number")
    };
    let mut per_line: BTreeMap<usize, Vec<&MutantRecord>> = BTreeMap::new();
    for r in &summary.results {
        per_line.entry(line_of(r)).or_default().push(r);
    }
    let mut want_da = BTreeMap::new();
    let mut want_brda = BTreeMap::new();
    for (line, rs) in &per_line {
        let killed = rs
            .iter()
            .filter(|r| r.outcome == MutantVerdict::Killed)
            .count();
        let survived = rs
            .iter()
            .any(|r| matches!(r.outcome, MutantVerdict::Unknown | MutantVerdict::Error));
        if survived {
            want_da.insert(*line, 0);
        } else if killed > 0 {
            want_da.insert(*line, killed);
        }
        for r in rs {
            let taken = match r.outcome {
                MutantVerdict::Killed => "1",
                MutantVerdict::Unknown | MutantVerdict::Error => "0",
                _ => "-",
            };
            want_brda.insert((*line, r.id), taken.to_string());
        }
    }
    let (da, brda) = read_lcov(&text);
    assert_eq!(da, want_da);
    assert_eq!(brda, want_brda);
    let field = |k: &str| -> usize {
        text.lines()
            .find_map(|l| l.strip_prefix(k))
            .expect(k)
            .parse()
            .expect("a number")
    };
    assert_eq!(field("LF:"), want_da.len());
    assert_eq!(field("LH:"), want_da.values().filter(|c| **c > 0).count());
    assert_eq!(field("BRF:"), want_brda.len());
    assert_eq!(
        field("BRH:"),
        want_brda.values().filter(|t| *t == "1").count()
    );
    assert!(text.starts_with("TN:hypermut_beverage\n") && text.ends_with("end_of_record\n"));
}

#[test]
fn results_of_another_model_are_refused_and_nothing_is_written() {
    let model = load(
        &[repo_model("smv/beverage.smv")],
        &FrontendOptions::default(),
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let files = ReportFiles::from_options(Some(&dir.path().join("r.html")), None);
    let good = summary_of(&model);
    let mut wrong_hash = good.clone();
    wrong_hash.model_hash = "0000000000000000".into();
    let mut moved = good.clone();
    moved.results[3].location = "models/smv/beverage.smv:1:1".into();
    let mut foreign = good.clone();
    foreign.results[0].id = 100_000;
    let mut edited = good.clone();
    edited.results[5].original = "something else".into();
    for (bad, phrase) in [
        (wrong_hash, "another model or front-end options"),
        (moved, "another version of the model"),
        (foreign, "mutant 100000 of the results is not a mutant"),
        (edited, "another version of the model"),
    ] {
        let e = write_report(&model, dir.path(), &bad, &files).unwrap_err();
        assert!(matches!(e, Error::OutDir(_)), "{e}");
        assert!(e.to_string().contains(phrase), "{e}");
        assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 0);
    }
    // Run from another folder, the same files have another name: still the same results.
    let mut renamed = good.clone();
    for r in &mut renamed.results {
        r.location = r
            .location
            .replacen(&model.name, "elsewhere/beverage.smv", 1);
    }
    write_report(&model, dir.path(), &renamed, &files).expect("accepted");
}

#[test]
fn options_summaries_and_test_names() {
    let f = ReportFiles::from_options(Some(Path::new("a/r.html")), None);
    assert_eq!(f.lcov.as_deref(), Some(Path::new("a/r.info")));
    let f = ReportFiles::from_options(Some(Path::new("r.html")), Some(Path::new("x.lcov")));
    assert_eq!(f.lcov.as_deref(), Some(Path::new("x.lcov")));
    let f = ReportFiles::from_options(None, Some(Path::new("x.lcov")));
    assert_eq!(f.html, None);
    assert!(ReportFiles::from_options(None, None).is_empty());
    assert_eq!(test_name("models/smv/beverage.smv"), "hypermut_beverage");
    assert_eq!(test_name("-f rtl/design.f"), "hypermut_design");
    assert_eq!(test_name("top.v leaf.v"), "hypermut_top");

    let dir = tempfile::tempdir().expect("temp dir");
    let e = read_summary(dir.path()).unwrap_err();
    assert!(e.to_string().contains("has no summary.json"), "{e}");
    std::fs::write(dir.path().join("summary.json"), "{").expect("write");
    assert!(matches!(
        read_summary(dir.path()).unwrap_err(),
        Error::Damaged { .. }
    ));
    let s = Summary::new("m.smv", "h", 3, vec![]);
    std::fs::write(
        dir.path().join("summary.json"),
        serde_json::to_string(&s).expect("json"),
    )
    .expect("write");
    assert_eq!(read_summary(dir.path()).expect("reads"), s);
}

#[test]
fn a_preprocessed_model_is_shown_in_the_files_the_user_wrote() {
    if std::process::Command::new("cpp")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("SKIPPED: cpp is not installed");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let model_text = "#define LIMIT 3\nMODULE main\nIVAR go : boolean;\nVAR x : 0..3;\n\
                      ASSIGN\n  init(x) := 0;\n  next(x) := go & x < LIMIT ? x + 1 : x;\n\
                      #include \"defs.smv\"\n-- @output x, high\n";
    std::fs::write(dir.path().join("m.smv"), model_text).expect("write");
    std::fs::write(dir.path().join("defs.smv"), "DEFINE high := x >= 2;\n").expect("write");
    let options = FrontendOptions {
        pre: vec![crate::load::Preprocessor::Cpp],
        ..FrontendOptions::default()
    };
    let model = load(&[dir.path().join("m.smv")], &options);
    let summary = summary_of(&model);
    let placed = place(&model, &summary).expect("placed");
    let names: Vec<&str> = placed.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names[0].ends_with("m.smv") && names[1].ends_with("defs.smv"));
    assert!(placed
        .files
        .iter()
        .all(|f| !f.preprocessed && f.path.is_some()));
    // Mutants in both files; each lies at its recorded line.
    let in_file: BTreeSet<usize> = placed.marks.iter().map(|m| m.file).collect();
    assert_eq!(in_file, BTreeSet::from([0, 1]));
    for (m, r) in placed.marks.iter().zip(&summary.results) {
        assert!(r.location.ends_with(&format!(":{}:{}", m.line, m.column)));
        assert!(r.location.starts_with(&placed.files[m.file].name));
    }
    // A mutant of `x < LIMIT` lies on the macro's use in the original text.
    let lt = placed
        .marks
        .iter()
        .zip(&summary.results)
        .find(|(_, r)| r.original == "x < 3")
        .map(|(m, _)| &placed.files[m.file].text[m.start..m.end])
        .expect("a mutant of x < 3");
    assert_eq!(lt, "x < LIMIT");
    let text = lcov::tracefile("t", &placed);
    assert_eq!(text.matches("SF:").count(), 2, "{text}");
}
