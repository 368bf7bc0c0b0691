//! The HTML report and the lcov tracefile (`docs/formats.md` §13) through the binary:
//! `testgen --report` on the beverage machine, then `hypermut report` on the same results
//! from another folder. The page is read by an independent parser (Python's html.parser):
//! its tags nest, every mutant of `summary.json` has one section and a link from the source
//! view, every in-page link has its target and every link to a file leads to one that
//! exists, and nothing is loaded from outside. The tracefile is read by `genhtml` (skipped,
//! with a message, without it) and its counts are recomputed from `summary.json`.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use common::{have, hypermut, hypermut_ok, root};

/// Reads the page `sys.argv[1]` and prints one JSON object: the mutant ids with a section,
/// those linked from the source view, and every problem found.
const CHECK: &str = r##"
import json, os, re, sys
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit

VOID = {"meta", "link", "br", "img", "hr", "input", "col", "wbr", "source", "area", "base"}

class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.ids, self.hrefs, self.problems = [], [], [], []
        self.sections, self.source_links = [], []
        self.in_sources = 0
        self.doctype = False
    def handle_decl(self, decl):
        self.doctype |= decl.lower() == "doctype html"
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag not in VOID:
            self.stack.append(tag)
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "section" and a.get("id") == "sources":
            self.in_sources = len(self.stack)
        if tag == "section" and re.fullmatch(r"mutant-\d+", a.get("id", "")):
            self.sections.append(int(a["id"][7:]))
        if tag == "script" or "src" in a or any(k.startswith("on") for k in a):
            self.problems.append(f"script or loaded resource: <{tag} {a}>")
        if "href" in a:
            self.hrefs.append(a["href"])
            m = re.fullmatch(r"#mutant-(\d+)", a["href"])
            if m and self.in_sources:
                self.source_links.append(int(m.group(1)))
    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()
    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1:]}")
            return
        self.stack.pop()
        if self.in_sources and len(self.stack) < self.in_sources:
            self.in_sources = 0

path = sys.argv[1]
p = Page()
p.feed(open(path, encoding="utf-8").read())
p.close()
if not p.doctype:
    p.problems.append("no <!DOCTYPE html>")
if p.stack:
    p.problems.append(f"unclosed: {p.stack}")
dup = sorted({i for i in p.ids if p.ids.count(i) > 1})
if dup:
    p.problems.append(f"duplicate ids: {dup}")
files = 0
for h in p.hrefs:
    u = urlsplit(h)
    if h.startswith("#"):
        if h[1:] not in p.ids:
            p.problems.append(f"no target for {h}")
    elif u.scheme == "data":
        pass
    elif u.scheme or u.netloc:
        p.problems.append(f"external link {h}")
    else:
        target = os.path.join(os.path.dirname(path), unquote(u.path))
        files += 1
        if not os.path.isfile(target):
            p.problems.append(f"{h} leads to no file ({target})")
print(json.dumps({"sections": p.sections, "source_links": p.source_links,
                  "file_links": files, "problems": p.problems}))
"##;

/// What the parser found in a page.
struct Found {
    sections: Vec<usize>,
    source_links: BTreeSet<usize>,
    file_links: usize,
}

fn check_page(page: &Path) -> Found {
    let out = Command::new("python3")
        .args(["-c", CHECK])
        .arg(page)
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(stdout.trim()).expect("JSON");
    let problems = v["problems"].as_array().expect("problems");
    assert!(problems.is_empty(), "{}: {problems:#?}", page.display());
    let ids = |k: &str| -> Vec<usize> {
        v[k].as_array()
            .expect(k)
            .iter()
            .map(|x| x.as_u64().expect("an id") as usize)
            .collect()
    };
    Found {
        sections: ids("sections"),
        source_links: ids("source_links").into_iter().collect(),
        file_links: v["file_links"].as_u64().expect("count") as usize,
    }
}

/// Checks a tracefile against the records of `summary.json`: per line, the count is 0 when a
/// mutant there survives, else the number of killed ones (no count when nothing there can
/// be killed); one branch per mutant. Runs genhtml on it when lcov is installed.
fn check_lcov(lcov: &Path, summary: &serde_json::Value, work: &Path) {
    let text = std::fs::read_to_string(lcov).expect("the tracefile");
    let records = summary["results"].as_array().expect("results");
    let mut want_da: BTreeMap<usize, usize> = BTreeMap::new();
    let mut want_brda: BTreeSet<String> = BTreeSet::new();
    let mut per_line: BTreeMap<usize, Vec<(u64, String)>> = BTreeMap::new();
    for r in records {
        let location = r["location"].as_str().expect("location");
        let line: usize = location
            .rsplit(':')
            .nth(1)
            .expect("line")
            .parse()
            .expect("n");
        let outcome = r["outcome"].as_str().expect("outcome").to_string();
        per_line
            .entry(line)
            .or_default()
            .push((r["id"].as_u64().expect("id"), outcome));
    }
    for (line, ms) in &per_line {
        let killed = ms.iter().filter(|(_, o)| o == "killed").count();
        if ms.iter().any(|(_, o)| o == "unknown" || o == "error") {
            want_da.insert(*line, 0);
        } else if killed > 0 {
            want_da.insert(*line, killed);
        }
        for (id, o) in ms {
            let taken = match o.as_str() {
                "killed" => "1",
                "unknown" | "error" => "0",
                _ => "-",
            };
            want_brda.insert(format!("{line},0,{id},{taken}"));
        }
    }
    let mut da = BTreeMap::new();
    let mut brda = BTreeSet::new();
    for l in text.lines() {
        if let Some(v) = l.strip_prefix("DA:") {
            let (a, b) = v.split_once(',').expect("DA:line,count");
            da.insert(
                a.parse::<usize>().expect("n"),
                b.parse::<usize>().expect("n"),
            );
        } else if let Some(v) = l.strip_prefix("BRDA:") {
            brda.insert(v.to_string());
        }
    }
    assert_eq!(da, want_da);
    assert_eq!(brda, want_brda);
    assert!(want_da.values().any(|c| *c == 0) && want_da.values().any(|c| *c > 0));
    let sf: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix("SF:")).collect();
    assert_eq!(sf.len(), 1);
    assert_eq!(
        Path::new(sf[0]),
        root()
            .join("models/smv/beverage.smv")
            .canonicalize()
            .expect("the model")
    );
    if !have("genhtml") {
        eprintln!("SKIPPED: genhtml on the tracefile (lcov is not installed)");
        return;
    }
    let out = Command::new("genhtml")
        .args(["--branch-coverage", "--quiet", "-o"])
        .arg(work.join("genhtml"))
        .arg(lcov)
        .output()
        .expect("genhtml runs");
    assert!(
        out.status.success(),
        "genhtml: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(work.join("genhtml/index.html").is_file());
}

#[test]
fn testgen_and_report_write_a_page_and_a_tracefile() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let page = dir.path().join("pages/beverage.html");
    let s = |p: &Path| p.to_str().expect("utf-8 path").to_string();
    // A small bound without proofs leaves some mutants unknown: every colour occurs.
    let stdout = hypermut_ok(&[
        "testgen",
        "models/smv/beverage.smv",
        "--out",
        &s(&out),
        "--bound",
        "2",
        "--no-prove",
        "--report",
        &s(&page),
    ]);
    let lcov = dir.path().join("pages/beverage.info");
    assert!(
        stdout.contains(&format!("report: {}", page.display())),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("lcov: {}", lcov.display())),
        "{stdout}"
    );
    let summary: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("summary.json")).expect("summary.json"),
    )
    .expect("JSON");
    let ids: Vec<usize> = summary["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["id"].as_u64().expect("id") as usize)
        .collect();
    let outcomes: BTreeSet<&str> = summary["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["outcome"].as_str().expect("outcome"))
        .collect();
    assert!(
        outcomes.contains("killed") && outcomes.contains("unknown"),
        "{outcomes:?}"
    );

    let found = check_page(&page);
    assert_eq!(found.sections, ids, "one section per mutant, in id order");
    assert_eq!(found.source_links, ids.iter().copied().collect());
    // Every killed mutant links at least its test.
    let tests = std::fs::read_dir(out.join("tests"))
        .expect("tests/")
        .count();
    assert!(found.file_links >= tests, "{} < {tests}", found.file_links);
    check_lcov(&lcov, &summary, dir.path());

    // `hypermut report` on the same results, from a page elsewhere, the tracefile named.
    let page2 = dir.path().join("elsewhere/deeper/r.html");
    let lcov2 = dir.path().join("cov/r.lcov");
    hypermut_ok(&[
        "report",
        "models/smv/beverage.smv",
        "--tests",
        &s(&out),
        "-o",
        &s(&page2),
        "--lcov",
        &s(&lcov2),
    ]);
    let again = check_page(&page2);
    assert_eq!(again.sections, ids);
    assert_eq!(again.file_links, found.file_links);
    assert!(!dir.path().join("elsewhere/deeper/r.info").exists());
    assert_eq!(
        std::fs::read_to_string(&lcov2).expect("lcov"),
        std::fs::read_to_string(&lcov).expect("lcov")
    );

    // Nothing to write, or results of another model: an error, and no file.
    let none = hypermut(&["report", "models/smv/beverage.smv", "--tests", &s(&out)]);
    assert!(!none.status.success());
    assert!(String::from_utf8_lossy(&none.stderr).contains("nothing to write"));
    let other = dir.path().join("other.html");
    let wrong = hypermut(&[
        "report",
        "models/smv/counter.smv",
        "--tests",
        &s(&out),
        "-o",
        &s(&other),
    ]);
    assert!(!wrong.status.success());
    let stderr = String::from_utf8_lossy(&wrong.stderr);
    assert!(stderr.contains("another model"), "{stderr}");
    assert!(!other.exists() && !dir.path().join("other.info").exists());
}
