//! The HTML mutation report (`docs/formats.md` §13.1): one self-contained page (inline CSS,
//! no script, no external resource) with the summary, Tables 3 and 4 of the model, every
//! source file with its mutants marked, and a section per mutant.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::layout;
use crate::record::{Counts, KillClass, MutantRecord, MutantVerdict, Summary};
use crate::table::{row_cells, ModelRow, TABLES_NOTE};

use super::escape::html as esc;
use super::place::{Mark, Placed, ShownFile, Status};
use super::segment::segments;

/// What the page shows.
pub struct Page<'a> {
    /// The results (records sorted by id).
    pub summary: &'a Summary,
    /// The records placed in the source files; `placed.marks[k]` belongs to
    /// `summary.results[k]`.
    pub placed: &'a Placed,
    /// The model's row of Tables 3 and 4.
    pub row: &'a ModelRow,
    /// The `href` of a file of the results directory (a path relative to it, such as
    /// `tests/mutant-3.json`), or `None` when the file does not exist.
    pub link: &'a dyn Fn(&str) -> Option<String>,
}

const STYLE: &str = "
body{font-family:system-ui,sans-serif;margin:0 auto;max-width:1240px;padding:0 16px 40px;color:#1a1a1a;background:#fff}
h1{font-size:1.5em;margin:18px 0 4px}h2{border-bottom:2px solid #ccc;margin-top:32px}
nav a{margin-right:14px}code,pre,.code{font-family:ui-monospace,'DejaVu Sans Mono',monospace}
table{border-collapse:collapse}th,td{padding:2px 8px;text-align:left;vertical-align:top}
.counts td:last-child,.paper td{text-align:right}.paper{font-size:.85em}.counts,.paper{margin:0 24px 12px 0}
.counts th,.counts td,.paper th,.paper td{border:1px solid #ccc}caption{font-weight:bold;text-align:left;padding:4px 0}
.cols{display:flex;flex-wrap:wrap;align-items:flex-start}.wide{overflow-x:auto}
.note{font-size:.85em;color:#555}.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap}
.legend li{margin:0 16px 6px 0}.swatch{display:inline-block;width:1.4em;height:1em;vertical-align:middle;border:1px solid #999;margin-right:4px}
.src{font-size:13px;width:100%;border:1px solid #ddd}.src td{padding:0 6px}
.src .ln{color:#888;text-align:right;width:3.5em;user-select:none;border-right:1px solid #ddd}
.src .ln a{color:inherit;text-decoration:none}.code{white-space:pre;tab-size:4}
.src tr:target{outline:2px solid #4a7bd0}.src .code{width:1%}.bd{min-width:14em}
.badge{display:inline-block;font-size:11px;line-height:1.3;padding:0 4px;margin:1px 1px;border-radius:6px;border:1px solid #777;color:#000;text-decoration:none}
.mutant{border:1px solid #ccc;border-left-width:8px;margin:10px 0;padding:2px 10px}
.mutant:target{outline:2px solid #4a7bd0}.mutant h3{margin:6px 0;font-size:1.05em}
.fields th{font-weight:600;color:#444;width:14em}.fields td code{white-space:pre-wrap}
.s-survived{background:#f4a3a3}.s-unclassified{background:#f9c9a4}.s-controlled{background:#fdb874}
.s-potential{background:#fbe680}.s-definite{background:#a9e2a2}.s-equivalent{background:#d2d2d2}
.s-invalid{background:#efefef;color:#666}
.mutant.s-survived{border-left-color:#d9534f}.mutant.s-unclassified{border-left-color:#e8945a}
.mutant.s-controlled{border-left-color:#f0902a}.mutant.s-potential{border-left-color:#e2c014}
.mutant.s-definite{border-left-color:#4caf50}.mutant.s-equivalent{border-left-color:#999}
.mutant.s-invalid{border-left-color:#ccc}.mutant{background:#fff}
";

/// The whole page.
pub fn render(page: &Page) -> String {
    let s = page.summary;
    let mut t = String::new();
    let _ = write!(
        t,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>Mutation report: {model}</title>\n<link rel=\"icon\" href=\"data:,\">\n\
         <style>{STYLE}</style>\n</head>\n<body>\n<header>\n<h1>Mutation report: <code>{model}</code></h1>\n\
         <p>hypermut {version}; model hash <code>{hash}</code>, bound {bound}, {n} mutants.</p>\n\
         <nav><a href=\"#summary\">Summary</a><a href=\"#tables\">Tables 3 and 4</a>\
         <a href=\"#sources\">Sources</a><a href=\"#mutants\">Mutants</a></nav>\n</header>\n<main>\n",
        model = esc(&s.model),
        version = env!("CARGO_PKG_VERSION"),
        hash = esc(&s.model_hash),
        bound = s.bound,
        n = s.results.len(),
    );
    summary_section(&mut t, page);
    tables_section(&mut t, page.row);
    t.push_str("<section id=\"sources\">\n<h2>Sources</h2>\n");
    for (k, file) in page.placed.files.iter().enumerate() {
        source_file(&mut t, page, k, file);
    }
    t.push_str("</section>\n<section id=\"mutants\">\n<h2>Mutants</h2>\n");
    for (r, m) in s.results.iter().zip(&page.placed.marks) {
        mutant_section(&mut t, page, r, m);
    }
    t.push_str("</section>\n</main>\n</body>\n</html>\n");
    t
}

fn score(p: Option<f64>) -> String {
    p.map_or_else(|| "n/a".to_string(), |p| format!("{p:.1} %"))
}

fn summary_section(t: &mut String, page: &Page) {
    let s = page.summary;
    // Counted from the records, so that summaries written before the class counts existed
    // give them too.
    let c = Counts::of(&s.results);
    t.push_str("<section id=\"summary\">\n<h2>Summary</h2>\n<div class=\"cols\">\n");
    t.push_str(
        "<table class=\"counts\"><caption>Verdicts</caption>\n\
         <thead><tr><th>verdict</th><th>mutants</th></tr></thead>\n<tbody>\n",
    );
    for v in MutantVerdict::ALL {
        let _ = writeln!(t, "<tr><td>{}</td><td>{}</td></tr>", v.name(), c.get(v));
    }
    let _ = writeln!(
        t,
        "<tr><th>all</th><td>{}</td></tr>\n</tbody></table>",
        c.total()
    );
    t.push_str(
        "<table class=\"counts\"><caption>Kill classes</caption>\n\
         <thead><tr><th>class</th><th>killed mutants</th></tr></thead>\n<tbody>\n",
    );
    for k in KillClass::ALL {
        let _ = writeln!(
            t,
            "<tr><td>{}</td><td>{}</td></tr>",
            k.name(),
            c.kills_of(k)
        );
    }
    t.push_str("</tbody></table>\n");
    t.push_str(
        "<table class=\"counts\"><caption>Mutation score</caption>\n\
         <thead><tr><th>counting</th><th>score</th></tr></thead>\n<tbody>\n",
    );
    for (what, p) in [
        ("definite kills only", c.score_at_least(KillClass::Definite)),
        (
            "potential or better",
            c.score_at_least(KillClass::Potential),
        ),
        ("any kill", c.score()),
    ] {
        let _ = writeln!(t, "<tr><td>{what}</td><td>{}</td></tr>", score(p));
    }
    t.push_str(
        "</tbody></table>\n</div>\n<p class=\"note\">Scores are over the valid non-equivalent \
         mutants (docs/method.md §11.3).</p>\n<h3>Legend</h3>\n<ul class=\"legend\">\n",
    );
    for st in Status::ALL {
        let n = page.placed.marks.iter().filter(|m| m.status == st).count();
        let _ = writeln!(
            t,
            "<li><span class=\"swatch s-{}\"></span>{} ({n})</li>",
            st.name(),
            esc(st.meaning())
        );
    }
    t.push_str(
        "</ul>\n<p class=\"note\">Where mutants overlap, the text takes the colour of the \
         weakest status covering it (the order of the legend).</p>\n</section>\n",
    );
}

fn tables_section(t: &mut String, row: &ModelRow) {
    t.push_str("<section id=\"tables\">\n<h2>Tables 3 and 4</h2>\n");
    for (title, cells) in row_cells(row) {
        let _ = write!(
            t,
            "<div class=\"wide\"><table class=\"paper\"><caption>{}</caption>\n<thead><tr><th>model</th>",
            esc(title)
        );
        for (h, _) in &cells {
            let _ = write!(t, "<th>{}</th>", esc(h));
        }
        let _ = write!(t, "</tr></thead>\n<tbody><tr><td>{}</td>", esc(&row.model));
        for (_, v) in &cells {
            let _ = write!(t, "<td>{}</td>", esc(v));
        }
        t.push_str("</tr></tbody></table></div>\n");
    }
    let _ = writeln!(t, "<p class=\"note\">{}</p>\n</section>", esc(TABLES_NOTE));
}

/// The files of a record's evidence, relative to the results directory, with what each is:
/// the test, its waveform, the witness and the certificate (those the record can have; they
/// may be absent on disk).
pub fn evidence(r: &MutantRecord) -> Vec<(&'static str, String)> {
    let mut files = Vec::new();
    if let Some(test) = &r.test {
        files.push(("test", test.clone()));
        files.push(("waveform", layout::waveform_file(r.id)));
    }
    files.push(("witness", layout::witness_file(r.id)));
    if let Some(c) = &r.certificate {
        files.push(("certificate", c.clone()));
    }
    files
}

/// The anchor of line `line` of shown file `file`.
fn line_id(file: usize, line: usize) -> String {
    format!("f{file}-L{line}")
}

fn badge(m: &Mark, r: &MutantRecord) -> String {
    format!(
        "<a class=\"badge s-{st}\" href=\"#mutant-{id}\" title=\"mutant {id}: {op}, {st}\">{id}</a>",
        st = m.status.name(),
        id = m.id,
        op = esc(&r.operator),
    )
}

fn source_file(t: &mut String, page: &Page, k: usize, file: &ShownFile) {
    let marks: Vec<(&Mark, &MutantRecord)> = page
        .placed
        .marks
        .iter()
        .zip(&page.summary.results)
        .filter(|(m, _)| m.file == k)
        .collect();
    let _ = writeln!(
        t,
        "<section class=\"file\" id=\"file-{k}\">\n<h3><code>{}</code>{} ({} mutants)</h3>\n\
         <table class=\"src\"><tbody>",
        esc(&file.name),
        if file.preprocessed {
            " (preprocessed text)"
        } else {
            ""
        },
        marks.len()
    );
    let ranges: Vec<(usize, usize)> = marks.iter().map(|(m, _)| (m.start, m.end)).collect();
    let segs = segments(file.text.len(), &ranges);
    // The badges of each line, in record (id) order.
    let mut badges: BTreeMap<usize, Vec<(&Mark, &MutantRecord)>> = BTreeMap::new();
    for (m, r) in &marks {
        badges.entry(m.line).or_default().push((m, r));
    }
    let mut seg = 0;
    let mut line_start = 0;
    let mut lines: Vec<&str> = file.text.split('\n').collect();
    if file.text.ends_with('\n') {
        lines.pop();
    }
    for (n, line) in lines.iter().enumerate() {
        let number = n + 1;
        let line_end = line_start + line.len();
        let shown_end = line_end - usize::from(line.ends_with('\r'));
        let _ = write!(
            t,
            "<tr id=\"{id}\"><td class=\"ln\"><a href=\"#{id}\">{number}</a></td><td class=\"code\">",
            id = line_id(k, number)
        );
        while seg < segs.len() && segs[seg].end <= line_start {
            seg += 1;
        }
        let mut j = seg;
        while j < segs.len() && segs[j].start < shown_end {
            let s = &segs[j];
            let (a, b) = (s.start.max(line_start), s.end.min(shown_end));
            let text = esc(file.text.get(a..b).unwrap_or(""));
            match s.covering.iter().map(|&i| marks[i].0.status).min() {
                None => t.push_str(&text),
                Some(weakest) => {
                    let ids: Vec<String> = s
                        .covering
                        .iter()
                        .map(|&i| marks[i].0.id.to_string())
                        .collect();
                    let _ = write!(
                        t,
                        "<span class=\"s-{}\" title=\"mutants {}\">{text}</span>",
                        weakest.name(),
                        ids.join(", ")
                    );
                }
            }
            j += 1;
        }
        t.push_str("</td><td class=\"bd\">");
        for (m, r) in badges.remove(&number).unwrap_or_default() {
            t.push_str(&badge(m, r));
        }
        t.push_str("</td></tr>\n");
        line_start = line_end + 1;
    }
    // A mutant placed past the last line (at the very end of the text) still gets its row.
    for (number, rest) in badges {
        let _ = write!(
            t,
            "<tr id=\"{id}\"><td class=\"ln\"><a href=\"#{id}\">{number}</a></td><td class=\"code\"></td><td class=\"bd\">",
            id = line_id(k, number)
        );
        for (m, r) in rest {
            t.push_str(&badge(m, r));
        }
        t.push_str("</td></tr>\n");
    }
    t.push_str("</tbody></table>\n</section>\n");
}

fn mutant_section(t: &mut String, page: &Page, r: &MutantRecord, m: &Mark) {
    let opt = |v: Option<usize>| v.map_or_else(|| "–".to_string(), |d| d.to_string());
    let verdict = match (r.outcome, r.kill_class) {
        (MutantVerdict::Killed, Some(k)) => format!("killed ({})", k.name()),
        (v, _) => v.name().to_string(),
    };
    let _ = writeln!(
        t,
        "<section class=\"mutant s-{st}\" id=\"mutant-{id}\">\n\
         <h3><span class=\"badge s-{st}\">{id}</span> Mutant {id}: <code>{op}</code>, {verdict}</h3>\n\
         <table class=\"fields\"><tbody>",
        st = m.status.name(),
        id = r.id,
        op = esc(&r.operator),
    );
    let mut field = |name: &str, html: String| {
        let _ = writeln!(t, "<tr><th>{name}</th><td>{html}</td></tr>");
    };
    field(
        "location",
        format!(
            "<a href=\"#{}\">{}</a>",
            line_id(m.file, m.line),
            esc(&r.location)
        ),
    );
    field(
        "mutation",
        format!(
            "<code>{}</code> → <code>{}</code>",
            esc(&r.original),
            esc(&r.replacement)
        ),
    );
    field("verdict", esc(r.outcome.name()));
    field(
        "kill class",
        r.kill_class.map_or("–".into(), |k| k.name().into()),
    );
    field(
        "depth",
        match r.depth.filter(|_| r.outcome == MutantVerdict::Killed) {
            Some(d) => format!("{d} ({} steps)", d + 1),
            None => "–".into(),
        },
    );
    field("reason", esc(&r.reason));
    field("engine", esc(r.engine.as_deref().unwrap_or("–")));
    field("no definite test up to depth", opt(r.no_definite_up_to));
    field("no potential test up to depth", opt(r.no_potential_up_to));
    field("time", format!("{} ms", r.millis));
    let files: Vec<String> = evidence(r)
        .into_iter()
        .filter_map(|(what, rel)| {
            (page.link)(&rel).map(|href| {
                format!(
                    "<a href=\"{}\">{what}</a> <code>{}</code>",
                    esc(&href),
                    esc(&rel)
                )
            })
        })
        .collect();
    field(
        "files",
        if files.is_empty() {
            "–".into()
        } else {
            files.join("<br>")
        },
    );
    t.push_str("</tbody></table>\n</section>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::model_row;

    fn rec(id: usize, outcome: MutantVerdict, class: Option<KillClass>) -> MutantRecord {
        MutantRecord {
            outcome,
            kill_class: class,
            ..MutantRecord::undecided(id, "ror", "m.smv:1:1", "a<b", "a>=b")
        }
    }

    fn mark(id: usize, start: usize, end: usize, line: usize, status: Status) -> Mark {
        Mark {
            id,
            file: 0,
            start,
            end,
            line,
            column: 1,
            status,
        }
    }

    #[test]
    fn hand_made_text_is_escaped_split_and_anchored() {
        // Line 1: `x := a<b & "c";` with CRLF; mutant 0 covers `a<b & "c"`, mutant 1 `a<b`;
        // mutant 2 sits at the very end of the text, past the last line.
        let text = "x := a<b & \"c\";\r\ny := 'd';\n";
        let summary = Summary::new(
            "m<1>.smv",
            "h",
            5,
            vec![
                rec(0, MutantVerdict::Killed, Some(KillClass::Definite)),
                rec(1, MutantVerdict::Unknown, None),
                rec(2, MutantVerdict::Equivalent, None),
            ],
        );
        let placed = Placed {
            files: vec![ShownFile {
                name: "m<1>.smv".into(),
                text: text.into(),
                preprocessed: false,
                path: None,
            }],
            marks: vec![
                mark(0, 5, 14, 1, Status::Definite),
                mark(1, 5, 8, 1, Status::Survived),
                mark(2, text.len(), text.len(), 3, Status::Equivalent),
            ],
        };
        let row = model_row(&hypermut_ir::System::new("m"), 0, &summary);
        let link = |rel: &str| (rel == "tests/x.json").then(|| "../o/tests/x.json".to_string());
        let page = render(&Page {
            summary: &summary,
            placed: &placed,
            row: &row,
            link: &link,
        });
        assert!(page.contains(
            "<td class=\"code\">x := <span class=\"s-survived\" title=\"mutants 0, 1\">a&lt;b</span>\
             <span class=\"s-definite\" title=\"mutants 0\"> &amp; &quot;c&quot;</span>;</td>"
        ));
        assert!(page.contains("<td class=\"code\">y := &#39;d&#39;;</td>"));
        assert!(!page.contains('\r'));
        assert!(page.contains("<code>m&lt;1&gt;.smv</code>"));
        assert!(!page.contains("m<1>"));
        // Every mutant has its badge on its line's row, also the one past the last line.
        for (id, line) in [(0, 1), (1, 1), (2, 3)] {
            let row_start = page
                .find(&format!("<tr id=\"f0-L{line}\">"))
                .expect("the line's row");
            let row_end = row_start + page[row_start..].find("</tr>").expect("row end");
            assert!(
                page[row_start..row_end].contains(&format!("href=\"#mutant-{id}\"")),
                "mutant {id}"
            );
        }
        assert_eq!(page.matches("<tr id=\"f0-L").count(), 3);
        // No evidence exists: no file links.
        assert!(!page.contains("href=\"../"));
    }
}
