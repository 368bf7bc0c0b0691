//! Designs as engineers keep them: several Verilog files on the command line, `-f` file
//! lists, and the top module chosen as yosys `hierarchy -auto-top` chooses it.
//!
//! The corpus check runs the binary on every multi-file design of the shared corpus
//! (`tests/data/verilog/corpus-designs.txt`), without `--top`, once with the files named
//! positionally and once through a generated file list; both must give the same circuit, and
//! the top named in the note must be the one yosys picks. It prints `SKIPPED: …` and passes
//! without the corpus; without yosys it only compares with the design list.

mod common;

use std::path::{Component, Path, PathBuf};
use std::process::{Command, Output};

use common::hypermut;
use hypermut_testkit::corpus;
use hypermut_testkit::tools;

fn utf8(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
    std::fs::write(&p, text).expect("write");
    p
}

/// The top module hypermut's note names in `stderr`.
fn noted_top(stderr: &str) -> Option<String> {
    let rest = stderr.split("note: top module `").nth(1)?;
    Some(rest.split('`').next()?.to_string())
}

/// `to` written relative to the folder `from` (both absolute): up to the root, then down.
fn relative(from: &Path, to: &Path) -> PathBuf {
    let ups = from
        .components()
        .filter(|c| matches!(c, Component::Normal(_)))
        .count();
    let mut p = PathBuf::new();
    for _ in 0..ups {
        p.push("..");
    }
    for c in to.components() {
        if let Component::Normal(n) = c {
            p.push(n);
        }
    }
    p
}

/// The top yosys `hierarchy -auto-top` chooses for `files`, or why it could not say. A
/// `$readmemh` data file the corpus lacks is supplied empty in a scratch folder yosys runs in.
fn yosys_top(files: &[PathBuf], scratch: &Path) -> Result<String, String> {
    let list: Vec<&str> = files.iter().map(|f| utf8(f)).collect();
    let script = format!("read_verilog {}; hierarchy -auto-top", list.join(" "));
    for _ in 0..4 {
        let (ok, out) = tools::run(
            Command::new("yosys")
                .arg("-p")
                .arg(&script)
                .current_dir(scratch),
        );
        if ok {
            let line = out
                .lines()
                .find(|l| l.starts_with("Automatically selected "))
                .ok_or("yosys named no top")?;
            let name = line
                .trim_start_matches("Automatically selected ")
                .split(' ')
                .next()
                .unwrap_or("");
            return Ok(name.trim_start_matches("$abstract\\").to_string());
        }
        let missing = out
            .split("Can not open file `")
            .nth(1)
            .and_then(|r| r.split('`').next())
            .filter(|m| !m.contains('/'));
        match missing {
            Some(m) => std::fs::write(scratch.join(m), "").expect("write empty data file"),
            None => {
                let why = out
                    .lines()
                    .find(|l| l.contains("ERROR"))
                    .unwrap_or("failed");
                return Err(format!("yosys rejects the design: {why}"));
            }
        }
    }
    Err("yosys kept asking for data files".into())
}

#[test]
fn corpus_designs_by_files_and_by_file_list_choose_the_top_yosys_chooses() {
    let Some(dir) = corpus::dir("verilog") else {
        return;
    };
    let yosys = tools::have("yosys");
    let designs: Vec<corpus::Design> = corpus::verilog_designs()
        .into_iter()
        .filter(|d| d.files.len() > 1)
        .collect();
    assert!(designs.len() >= 10, "multi-file designs: {}", designs.len());
    let tmp = tempfile::tempdir().expect("temp dir");
    let mut table = vec![
        "| design | files | yosys `hierarchy -auto-top` | hypermut |".to_string(),
        "|---|---:|---|---|".to_string(),
    ];
    let mut failures = Vec::new();
    for (k, d) in designs.iter().enumerate() {
        let files = d.paths(&dir);
        let work = tmp.path().join(format!("d{k}"));
        std::fs::create_dir_all(&work).expect("mkdir");

        // The files as positional arguments. The circuits are compared as built (`--no-opt`):
        // what is checked is how the design is read, and optimising the largest designs
        // takes minutes in a debug build.
        let by_files = work.join("files.aag");
        let mut args = vec!["aiger", "--no-opt"];
        args.extend(files.iter().map(|f| utf8(f)));
        args.extend(["-o", utf8(&by_files)]);
        let o = hypermut(&args);
        let err = stderr(&o);
        if !o.status.success() {
            failures.push(format!("{}: positional files refused:\n{err}", d.name));
            continue;
        }
        let ours = noted_top(&err);

        // The same files through a file list in another folder, relative to it, with comments
        // and an include folder.
        let lists = work.join("lists");
        let mut text = format!("// {} without --top\n# generated\n\n", d.name);
        if let Some(parent) = files[0].parent() {
            text.push_str(&format!("+incdir+{}\n", relative(&lists, parent).display()));
        }
        for f in &files {
            text.push_str(&format!(
                "{}  // design file\n",
                relative(&lists, f).display()
            ));
        }
        let list = write(&work, "lists/design.f", &text);
        let by_list = work.join("list.aag");
        let o = hypermut(&["aiger", "--no-opt", "-f", utf8(&list), "-o", utf8(&by_list)]);
        let err = stderr(&o);
        if !o.status.success() {
            failures.push(format!("{}: file list refused:\n{err}", d.name));
            continue;
        }
        if noted_top(&err) != ours {
            failures.push(format!(
                "{}: the list chose {:?}, the files {ours:?}",
                d.name,
                noted_top(&err)
            ));
        }
        let read = |p: &Path| std::fs::read(p).expect("output written");
        if read(&by_files) != read(&by_list) {
            failures.push(format!("{}: the list gives another circuit", d.name));
        }

        let ours = ours.unwrap_or_else(|| "(no note)".into());
        let theirs = if yosys {
            yosys_top(&files, &work)
        } else {
            Err("yosys not installed".into())
        };
        match &theirs {
            Ok(t) if *t != ours => {
                failures.push(format!("{}: yosys chose {t}, hypermut {ours}", d.name))
            }
            Err(_) if ours != d.top => failures.push(format!(
                "{}: the design list names {}, hypermut chose {ours}",
                d.name, d.top
            )),
            _ => {}
        }
        table.push(format!(
            "| {} | {} | {} | {ours} |",
            d.name,
            files.len(),
            theirs.unwrap_or_else(|e| format!("— ({e})"))
        ));
    }
    eprintln!("{}", table.join("\n"));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A two-file design: `top` instantiates `leaf` (from `leaf.v`) and uses a macro of `defs.vh`.
fn small_design(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let defs = write(dir, "rtl/defs.vh", "`define W 4\n");
    let top = write(
        dir,
        "rtl/top.v",
        "module top(input clk, input [`W-1:0] a, output [`W-1:0] y);\n  reg [`W-1:0] r;\n  always @(posedge clk) r <= a + 1;\n  leaf u(r, y);\nendmodule\n",
    );
    let leaf = write(
        dir,
        "rtl/leaf.v",
        "module leaf(input [3:0] a, output [3:0] y);\n  assign y = ~a;\nendmodule\n",
    );
    (defs, top, leaf)
}

#[test]
fn files_lists_and_lib_files_give_the_same_model_in_command_line_order() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let (defs, top, leaf) = small_design(tmp.path());
    let list = write(tmp.path(), "rtl/defs.f", "# macros first\ndefs.vh\n");
    let aag = |name: &str, args: &[&str]| -> Vec<u8> {
        let out = tmp.path().join(name);
        let mut all = vec!["aiger"];
        all.extend_from_slice(args);
        all.extend(["-o", utf8(&out)]);
        let o = hypermut(&all);
        assert!(o.status.success(), "{all:?}:\n{}", stderr(&o));
        assert_eq!(noted_top(&stderr(&o)).as_deref(), Some("top"), "{all:?}");
        std::fs::read(&out).expect("written")
    };
    let positional = aag("a.aag", &[utf8(&defs), utf8(&top), utf8(&leaf)]);
    // `--lib-file` is the same as naming the file after the model.
    let lib = aag(
        "b.aag",
        &[utf8(&defs), utf8(&top), "--lib-file", utf8(&leaf)],
    );
    // The list comes first on the command line, so its header is read before `top.v`.
    let listed = aag("c.aag", &["-f", utf8(&list), utf8(&top), utf8(&leaf)]);
    assert_eq!(positional, lib);
    assert_eq!(positional, listed);
    // Named after `top.v`, the header comes too late: the macro is undefined there.
    let o = hypermut(&["aiger", utf8(&top), utf8(&leaf), "-f", utf8(&list)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("undefined macro"), "{}", stderr(&o));

    // The results name every file: the model as the command line gives it.
    let out = tmp.path().join("out");
    let o = hypermut(&[
        "testgen",
        "-f",
        utf8(&list),
        utf8(&top),
        utf8(&leaf),
        "--operators",
        "const+1",
        "--no-prove",
        "--bound",
        "3",
        "--out",
        utf8(&out),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let summary = std::fs::read_to_string(out.join("summary.json")).expect("summary");
    let named = format!("-f {} {} {}", list.display(), top.display(), leaf.display());
    assert!(
        summary.contains(&format!("\"model\": {}", serde_json::json!(named))),
        "{summary}"
    );
}

#[test]
fn merge_takes_the_design_files_before_the_shards() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let (defs, top, leaf) = small_design(tmp.path());
    let files = [utf8(&defs), utf8(&top), utf8(&leaf)];
    let mut shards = Vec::new();
    for i in 1..=2 {
        let out = tmp.path().join(format!("shard{i}"));
        let shard = format!("{i}/2");
        let mut args = vec!["testgen"];
        args.extend(files);
        args.extend([
            "--operators",
            "const+1",
            "--no-prove",
            "--bound",
            "3",
            "--shard",
            &shard,
            "--out",
            utf8(&out),
        ]);
        let o = hypermut(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        shards.push(out);
    }
    let merged = tmp.path().join("merged");
    let mut args = vec!["merge"];
    args.extend(files);
    args.extend(["--operators", "const+1", "--out", utf8(&merged)]);
    args.extend(shards.iter().map(|s| utf8(s)));
    let o = hypermut(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(merged.join("summary.json").is_file());
    // Through a file list, with no positional model file at all.
    let list = write(tmp.path(), "all.f", "rtl/defs.vh\nrtl/top.v\nrtl/leaf.v\n");
    let merged2 = tmp.path().join("merged2");
    let mut args = vec!["merge", "-f", utf8(&list)];
    args.extend(["--operators", "const+1", "--out", utf8(&merged2)]);
    args.extend(shards.iter().map(|s| utf8(s)));
    let o = hypermut(&args);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn table_takes_a_file_list_per_model() {
    let tmp = tempfile::tempdir().expect("temp dir");
    small_design(tmp.path());
    let list = write(tmp.path(), "design.f", "rtl/defs.vh rtl/top.v rtl/leaf.v\n");
    let o = hypermut(&[
        "table",
        utf8(&list),
        "models/smv/beverage.smv",
        "--operators",
        "const+1",
        "--no-prove",
        "--bound",
        "3",
        "--out",
        utf8(&tmp.path().join("tables")),
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.contains(&format!("| {} |", list.display())), "{out}");
    assert!(tmp.path().join("tables/design/summary.json").is_file());
}

#[test]
fn bad_combinations_and_bad_lists_are_clear_errors() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let (_, top, leaf) = small_design(tmp.path());
    let smv = "models/smv/beverage.smv";
    let bad = write(tmp.path(), "bad.f", "rtl/top.v\n\n  +libext+.v\n");
    let nested = write(tmp.path(), "outer.f", "-f missing.f\n");
    let tie = write(
        tmp.path(),
        "tie.v",
        "module a(input i, output o); assign o = i; endmodule\nmodule b(input i, output o); assign o = ~i; endmodule\n",
    );
    let none = tmp.path().join("none.f");
    // (arguments, phrases the message must contain, whether it must be located with a caret)
    let cases: Vec<(Vec<&str>, Vec<String>, bool)> = vec![
        (
            vec!["aiger", smv, smv],
            vec!["an SMV model is one file, but 2 were given".into()],
            false,
        ),
        (
            vec!["mutants", utf8(&top), smv],
            vec![format!("{smv} is SMV but {} is Verilog", top.display())],
            false,
        ),
        (
            vec!["aiger", smv, "--lib-file", utf8(&leaf)],
            vec!["a model is written in one language".into()],
            false,
        ),
        (
            vec!["aiger", "-f", utf8(&bad)],
            vec![
                format!(
                    "{}:3:3: error: unsupported option `+libext+.v`",
                    bad.display()
                ),
                "3 |   +libext+.v".into(),
            ],
            true,
        ),
        (
            vec!["aiger", "-f", utf8(&nested)],
            vec![format!(
                "{}:1:4: error: cannot read file list `{}`",
                nested.display(),
                tmp.path().join("missing.f").display()
            )],
            true,
        ),
        (
            vec!["aiger", "-f", utf8(&none)],
            vec!["none.f: cannot read file list".into()],
            false,
        ),
        (
            vec!["aiger", utf8(&tie)],
            vec![
                format!(
                    "{}:1:8: error: several modules could be the top (a, b)",
                    tie.display()
                ),
                "choose one with --top".into(),
            ],
            true,
        ),
    ];
    for (args, phrases, located) in cases {
        let o = hypermut(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}:\n{err}");
        for p in &phrases {
            assert!(err.contains(p.as_str()), "{args:?}: expected `{p}`:\n{err}");
        }
        assert_eq!(err.contains('^'), located, "{args:?}: caret:\n{err}");
    }
    // No model at all is a usage error, as before.
    let o = hypermut(&["aiger"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // With --top the tie is settled, and no note is printed.
    let o = hypermut(&["aiger", utf8(&tie), "--top", "b"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(noted_top(&stderr(&o)).is_none());
}
