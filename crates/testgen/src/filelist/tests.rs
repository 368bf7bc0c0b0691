//! The file-list reader: words, comments, relative paths, include folders, macros, nesting,
//! and located errors.

use std::path::{Path, PathBuf};

use super::*;

/// A folder with the files `names` (each holding a one-line module), for lists to name.
fn folder(names: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for n in names {
        let p = dir.path().join(n);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(&p, "module m; endmodule\n").expect("write");
    }
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
    std::fs::write(&p, text).expect("write");
    p
}

#[test]
fn comments_blank_lines_and_paths_relative_to_the_list() {
    let d = folder(&[
        "rtl/a.v",
        "rtl/b.sv",
        "rtl/sub/c.v",
        "abs.v",
        "rtl/with space.v",
    ]);
    let abs = d.path().join("abs.v");
    let list = write(
        d.path(),
        "rtl/design.f",
        &format!(
            "// the design\n\n# sources\na.v   // first\n  b.sv\n/* a block\n   comment */ sub/c.v\n{}\n\"with space.v\"\n",
            abs.display()
        ),
    );
    let got = read_file_list(&list).expect("reads");
    let rtl = d.path().join("rtl");
    assert_eq!(
        got.files,
        [
            rtl.join("a.v"),
            rtl.join("b.sv"),
            rtl.join("sub/c.v"),
            abs,
            rtl.join("with space.v")
        ]
    );
    assert!(got.include_dirs.is_empty() && got.defines.is_empty());
    // An empty list (only comments) names nothing.
    let empty = parse_file_list("e.f", "// nothing\n# here\n\n", d.path()).expect("reads");
    assert_eq!(empty, DesignFiles::default());
}

#[test]
fn include_folders_and_macros() {
    let d = folder(&["a.v"]);
    let text = "+incdir+inc+../common+\n-I x\n-Iy\n+define+A+B=2\n-D C=3\n-DD_E=\"s\"\na.v\n";
    let got = parse_file_list("l.f", text, d.path()).expect("reads");
    let p = d.path();
    assert_eq!(
        got.include_dirs,
        [p.join("inc"), p.join("../common"), p.join("x"), p.join("y")]
    );
    assert_eq!(got.defines, ["A", "B=2", "C=3", "D_E=\"s\""]);
    assert_eq!(got.files, [p.join("a.v")]);
}

#[test]
fn nested_lists_are_read_in_place_relative_to_their_folder() {
    let d = folder(&["top.v", "ip/x.v", "ip/y.v", "last.v"]);
    write(d.path(), "ip/ip.f", "+incdir+include\nx.v\n-F more.f\n");
    write(d.path(), "ip/more.f", "y.v\n+define+IP\n");
    let list = write(d.path(), "all.f", "top.v\n-f ip/ip.f\nlast.v\n");
    let got = read_file_list(&list).expect("reads");
    let p = d.path();
    assert_eq!(
        got.files,
        [
            p.join("top.v"),
            p.join("ip/x.v"),
            p.join("ip/y.v"),
            p.join("last.v")
        ]
    );
    assert_eq!(got.include_dirs, [p.join("ip/include")]);
    assert_eq!(got.defines, ["IP"]);
}

#[test]
fn command_line_sources_keep_their_order() {
    let d = folder(&["a.v", "b.v"]);
    let list = write(d.path(), "l.f", "b.v\n");
    let sources = [
        ModelSource::File(PathBuf::from("first.v")),
        ModelSource::List(list.clone()),
        ModelSource::File(PathBuf::from("last.v")),
    ];
    let got = DesignFiles::expand(&sources).expect("reads");
    assert_eq!(
        got.files,
        [
            PathBuf::from("first.v"),
            d.path().join("b.v"),
            PathBuf::from("last.v")
        ]
    );
    assert_eq!(sources[1].describe(), format!("-f {}", list.display()));
    assert_eq!(sources[0].describe(), "first.v");
    // A list that cannot be read, named on the command line: not located, says which.
    let e = read_file_list(&d.path().join("none.f")).expect_err("missing");
    assert!(e.diagnostic().is_none());
    assert!(
        e.to_string().contains("none.f: cannot read file list"),
        "{e}"
    );
}

#[test]
fn errors_are_located_with_a_caret() {
    let d = folder(&["a.v", "m.smv", "notes.txt", "sub/b.v"]);
    write(d.path(), "loop.f", "a.v\n-f loop2.f\n");
    write(d.path(), "loop2.f", "-f loop.f\n");
    // (list text, expected `line:col`, phrase)
    let cases: &[(&str, &str, &str)] = &[
        ("a.v\n  missing.v\n", "2:3", "does not exist"),
        ("sub\n", "1:1", "is a folder"),
        ("a.v -v lib.v\n", "1:5", "unsupported option `-v`"),
        ("+libext+.v\n", "1:1", "unsupported option `+libext+.v`"),
        ("a.v\n-I\n", "2:1", "`-I` needs a folder"),
        ("-D\n", "1:1", "`-D` needs a macro"),
        ("-f\n", "1:1", "`-f` needs a file list"),
        ("+incdir+\n", "1:1", "`+incdir+` names no folder"),
        ("+define++\n", "1:1", "`+define+` names no macro"),
        ("+define+9X=1\n", "1:1", "`9X` is not a macro name"),
        ("-D A-B\n", "1:4", "`A-B` is not a macro name"),
        ("a.v /* open\n", "1:5", "unterminated block comment"),
        ("\"a.v\n", "1:1", "unterminated quoted path"),
        ("m.smv\n", "1:1", "an SMV model is one file"),
        ("notes.txt\n", "1:1", "not a Verilog file"),
        ("# fine\n-f nowhere.f\n", "2:4", "cannot read file list"),
        ("-f loop.f\n", "1:4", "file list includes itself"),
    ];
    let mut failures = Vec::new();
    for (text, line_col, phrase) in cases {
        match parse_file_list("list.f", text, d.path()) {
            Ok(got) => failures.push(format!("{text:?}: accepted: {got:?}")),
            Err(e) => {
                let shown = e.to_string();
                let first = shown.lines().next().unwrap_or("");
                let located = e.diagnostic().is_some();
                if !(located && shown.contains('^') && shown.contains(" | ")) {
                    failures.push(format!("{text:?}: not located with a caret:\n{shown}"));
                }
                // The loop is reported in the list that closes it.
                let at = if phrase.contains("includes itself") {
                    format!("{}:1:4: error: ", d.path().join("loop2.f").display())
                } else {
                    format!("list.f:{line_col}: error: ")
                };
                if !first.starts_with(&at) || !first.contains(phrase) {
                    failures.push(format!(
                        "{text:?}: expected `{at}… {phrase}`, got `{first}`"
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_include_loop_names_the_chain() {
    let d = folder(&[]);
    let a = write(d.path(), "a.f", "-f b.f\n");
    write(d.path(), "b.f", "\n-f a.f\n");
    let e = read_file_list(&a).expect_err("a loop");
    let shown = e.to_string();
    let b = d.path().join("b.f");
    assert!(
        shown.starts_with(&format!(
            "{}:2:4: error: file list includes itself: {} -> {} -> {}\n",
            b.display(),
            a.display(),
            b.display(),
            a.display()
        )),
        "{shown}"
    );
}
