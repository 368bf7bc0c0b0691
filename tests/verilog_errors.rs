//! Malformed Verilog through the command line: `hypermut aiger bad.v -o out.aag` must fail
//! with exit status 1 (not a panic), print `file:line:col: error: …` with the source line and
//! a caret under the reported column, and write no output file.
//!
//! The expected positions were chosen by reading each design (the token a reader would be
//! pointed at), not copied from the tool's output.

use std::path::Path;
use std::process::Command;

/// One malformed design.
struct Case {
    /// What is wrong.
    what: &'static str,
    /// Files written to a fresh folder: `(relative path, text)`; the first is the model.
    files: &'static [(&'static str, &'static str)],
    /// Further arguments after the model.
    args: &'static [&'static str],
    /// Expected `file:line:col` of the error.
    at: &'static str,
    /// A phrase the message must contain.
    phrase: &'static str,
}

/// A case whose only file is `bad.v`.
const fn one(
    what: &'static str,
    text: &'static [(&'static str, &'static str)],
    at: &'static str,
    phrase: &'static str,
) -> Case {
    Case {
        what,
        files: text,
        args: &[],
        at,
        phrase,
    }
}

const CASES: &[Case] = &[
    // --- syntax -------------------------------------------------------------------------
    one(
        "missing semicolon after the port list",
        &[("bad.v", "module m(input a, output y)\n  assign y = a;\nendmodule\n")],
        "bad.v:2:3",
        "expected `;`",
    ),
    one(
        "missing endmodule",
        &[("bad.v", "module m(input a, output y);\n  assign y = a;\n")],
        "bad.v:1:8",
        "has no `endmodule`",
    ),
    one(
        "unbalanced parentheses",
        &[("bad.v", "module m(input a, output y);\n  assign y = (a & (a | a);\nendmodule\n")],
        "bad.v:2:26",
        "expected `)`",
    ),
    one(
        "two operators in a row",
        &[("bad.v", "module m(input a, output y);\n  assign y = a +* a;\nendmodule\n")],
        "bad.v:2:17",
        "expected an expression",
    ),
    one(
        "keyword used as a name",
        &[("bad.v", "module m(input a, output y);\n  wire module;\n  assign y = a;\nendmodule\n")],
        "bad.v:2:8",
        "expected an identifier",
    ),
    one(
        "begin without end",
        &[("bad.v", "module m(input clk, output reg q);\n  always @(posedge clk) begin\n    q <= ~q;\nendmodule\n")],
        "bad.v:4:1",
        "expected `end` for the `begin` at bad.v:2:25",
    ),
    one(
        "case closed by end",
        &[("bad.v", "module m(input [1:0] s, output reg y);\n  always @* case (s)\n    0: y = 0;\n    default: y = 1;\n  end\nendmodule\n")],
        "bad.v:5:3",
        "expected `endcase` for the `case` at bad.v:2:13",
    ),
    one(
        "else without if",
        &[("bad.v", "module m(input clk, input a, output reg q);\n  always @(posedge clk)\n    else q <= a;\nendmodule\n")],
        "bad.v:3:5",
        "expected a statement",
    ),
    one(
        "unterminated block comment",
        &[("bad.v", "module m(input a, output y);\n  /* the output\n  assign y = a;\nendmodule\n")],
        "bad.v:2:3",
        "unterminated block comment",
    ),
    one(
        "unterminated string",
        &[("bad.v", "module m(input a, output y);\n  initial $display(\"hello);\n  assign y = a;\nendmodule\n")],
        "bad.v:2:20",
        "unterminated string",
    ),
    one(
        "character outside the language",
        &[("bad.v", "module m(input a, output y);\n  assign y = a \u{a7} a;\nendmodule\n")],
        "bad.v:2:16",
        "unexpected character",
    ),
    one(
        "invalid digit in a binary literal",
        &[("bad.v", "module m(output [3:0] y);\n  assign y = 4'b10z2;\nendmodule\n")],
        "bad.v:2:15",
        "invalid digit",
    ),
    one(
        "literal size out of range",
        &[("bad.v", "module m(output y);\n  assign y = 100000000'b1;\nendmodule\n")],
        "bad.v:2:14",
        "out of range",
    ),
    one(
        "real number",
        &[("bad.v", "module m(output y);\n  assign y = 0.5;\nendmodule\n")],
        "bad.v:2:14",
        "real numbers are not supported",
    ),
    one(
        "empty design",
        &[("bad.v", "// nothing but a comment\n")],
        "bad.v:1:1",
        "contains no module",
    ),
    // --- names and declarations -----------------------------------------------------------
    one(
        "undeclared name in an assign",
        &[("bad.v", "module m(input a, output y);\n  assign y = a & b;\nendmodule\n")],
        "bad.v:2:18",
        "`b` is not declared",
    ),
    one(
        "undeclared name in an always block",
        &[("bad.v", "module m(input clk, output reg q);\n  always @(posedge clk)\n    q <= d;\nendmodule\n")],
        "bad.v:3:10",
        "`d` is not declared",
    ),
    one(
        "implicit net under default_nettype none",
        &[("bad.v", "`default_nettype none\nmodule m(input wire a, output wire y);\n  assign z = a;\n  assign y = a;\nendmodule\n")],
        "bad.v:3:10",
        "`z` is not declared",
    ),
    one(
        "declared twice",
        &[("bad.v", "module m(input a, output y);\n  wire w;\n  reg w;\n  assign y = a;\nendmodule\n")],
        "bad.v:3:7",
        "declared twice",
    ),
    one(
        "port declared twice",
        &[("bad.v", "module m(input a, input a, output y);\n  assign y = a;\nendmodule\n")],
        "bad.v:1:25",
        "declared twice",
    ),
    one(
        "non-ANSI port without a direction",
        &[("bad.v", "module m(a, y);\n  input a;\n  assign y = a;\nendmodule\n")],
        "bad.v:1:13",
        "port `y` has no direction",
    ),
    one(
        "direction for a name outside the port list",
        &[("bad.v", "module m(a);\n  input a;\n  output y;\n  assign y = a;\nendmodule\n")],
        "bad.v:3:10",
        "not in the port list",
    ),
    one(
        "module defined twice",
        &[("bad.v", "module m(input a, output y);\n  assign y = a;\nendmodule\nmodule m(input a, output y);\n  assign y = ~a;\nendmodule\n")],
        "bad.v:4:8",
        "defined twice",
    ),
    one(
        "several candidate top modules",
        &[("bad.v", "module a(output y);\n  assign y = 1;\nendmodule\nmodule b(output y);\n  assign y = 0;\nendmodule\n")],
        "bad.v:1:8",
        "choose one with --top",
    ),
    Case {
        what: "--top names no module",
        files: &[("bad.v", "module m(input a, output y);\n  assign y = a;\nendmodule\n")],
        args: &["--top", "nosuch"],
        at: "bad.v:1:8",
        phrase: "top module `nosuch` not found",
    },
    one(
        "call of an undeclared function",
        &[("bad.v", "module m(input a, output y);\n  assign y = g(a);\nendmodule\n")],
        "bad.v:2:14",
        "`g` is not declared",
    ),
    one(
        "call of an undeclared task",
        &[("bad.v", "module m(input clk, output reg q);\n  always @(posedge clk) begin\n    q <= 1;\n    tick(q);\n  end\nendmodule\n")],
        "bad.v:4:5",
        "`tick` is not a task",
    ),
    // --- ports, parameters, widths ----------------------------------------------------------
    one(
        "unknown module",
        &[("bad.v", "module m(input a, output y);\n  inv u0 (.i(a), .o(y));\nendmodule\n")],
        "bad.v:2:3",
        "unknown module `inv`",
    ),
    one(
        "unknown port in a named connection",
        &[("bad.v", "module inv(input i, output o);\n  assign o = ~i;\nendmodule\nmodule m(input a, output y);\n  inv u0 (.in(a), .o(y));\nendmodule\n")],
        "bad.v:5:12",
        "has no port `in`",
    ),
    one(
        "too many positional connections",
        &[("bad.v", "module inv(input i, output o);\n  assign o = ~i;\nendmodule\nmodule m(input a, output y);\n  inv u0 (a, y, a);\nendmodule\n")],
        "bad.v:5:7",
        "2 port(s) but 3 connection(s)",
    ),
    one(
        "unknown parameter in an override",
        &[("bad.v", "module inv(input i, output o);\n  parameter W = 1;\n  assign o = ~i;\nendmodule\nmodule m(input a, output y);\n  inv #(.WIDTH(2)) u0 (a, y);\nendmodule\n")],
        "bad.v:6:10",
        "has no parameter `WIDTH`",
    ),
    one(
        "defparam",
        &[("bad.v", "module inv(input i, output o);\n  parameter W = 1;\n  assign o = ~i;\nendmodule\nmodule m(input a, output y);\n  inv u0 (a, y);\n  defparam u0.W = 2;\nendmodule\n")],
        "bad.v:7:3",
        "`defparam` is not supported",
    ),
    one(
        "input port driven inside the module",
        &[("bad.v", "module m(input a, output y);\n  assign a = 1'b0;\n  assign y = a;\nendmodule\n")],
        "bad.v:2:10",
        "input port `a` is driven",
    ),
    one(
        "assignment to a parameter",
        &[("bad.v", "module m(input a, output y);\n  parameter P = 1;\n  assign P = a;\n  assign y = a;\nendmodule\n")],
        "bad.v:3:10",
        "cannot assign to a parameter",
    ),
    one(
        "vector too wide",
        &[("bad.v", "module m(input a, output y);\n  wire [100000000:0] w;\n  assign y = a;\nendmodule\n")],
        "bad.v:2:8",
        "too wide",
    ),
    one(
        "part select with variable bounds",
        &[("bad.v", "module m(input [3:0] a, input [1:0] s, output [1:0] y);\n  assign y = a[s+1:s];\nendmodule\n")],
        "bad.v:2:16",
        "expected a constant",
    ),
    one(
        "replication by zero",
        &[("bad.v", "module m(input a, output [1:0] y);\n  assign y = {0{a}};\nendmodule\n")],
        "bad.v:2:14",
        "replication count must be positive",
    ),
    one(
        "memory read without an index",
        &[("bad.v", "module m(input a, output [3:0] y);\n  reg [3:0] mem [0:3];\n  assign y = mem;\nendmodule\n")],
        "bad.v:3:14",
        "must be indexed",
    ),
    one(
        "function called with too many arguments",
        &[("bad.v", "module m(input a, output y);\n  function f;\n    input x;\n    f = ~x;\n  endfunction\n  assign y = f(a, a);\nendmodule\n")],
        "bad.v:6:14",
        "takes 1 argument(s), 2 given",
    ),
    one(
        "gate without inputs",
        &[("bad.v", "module m(input a, output y);\n  and g1 (y);\nendmodule\n")],
        "bad.v:2:7",
        "a gate needs an output and an input",
    ),
    // --- constructs that cannot be synthesised ------------------------------------------
    one(
        "forever",
        &[("bad.v", "module m(input clk, output reg q);\n  always @(posedge clk)\n    forever q <= ~q;\nendmodule\n")],
        "bad.v:3:5",
        "`forever` cannot be synthesised",
    ),
    one(
        "wait",
        &[("bad.v", "module m(input clk, input a, output reg q);\n  always @(posedge clk) begin\n    wait (a) q <= 1;\n  end\nendmodule\n")],
        "bad.v:3:5",
        "`wait` cannot be synthesised",
    ),
    one(
        "fork/join",
        &[("bad.v", "module m(input clk, output reg q);\n  always @(posedge clk)\n    fork\n      q <= 1;\n    join\nendmodule\n")],
        "bad.v:3:5",
        "`fork … join` cannot be synthesised",
    ),
    one(
        "event control inside a statement",
        &[("bad.v", "module m(input clk, output reg q);\n  always @(posedge clk) begin\n    @(negedge clk) q <= ~q;\n  end\nendmodule\n")],
        "bad.v:3:5",
        "event control inside a statement",
    ),
    one(
        "$random",
        &[("bad.v", "module m(input clk, output reg q);\n  always @(posedge clk) q <= $random;\nendmodule\n")],
        "bad.v:2:30",
        "`$random` is not supported",
    ),
    one(
        "edge and level events mixed",
        &[("bad.v", "module m(input clk, input r, output reg q);\n  always @(posedge clk or r) q <= ~q;\nendmodule\n")],
        "bad.v:2:3",
        "mixing edge and level events",
    ),
    one(
        "three edges and no reset test",
        &[("bad.v", "module m(input clk, input r, input s, output reg q);\n  always @(posedge clk or posedge r or posedge s) q <= ~q;\nendmodule\n")],
        "bad.v:2:3",
        "cannot tell the clock",
    ),
    one(
        "loop bound not constant",
        &[("bad.v", "module m(input [3:0] n, output reg [3:0] y);\n  integer i;\n  always @* begin\n    y = 0;\n    for (i = 0; i < n; i = i + 1) y = y + 1;\n  end\nendmodule\n")],
        "bad.v:5:17",
        "loop condition does not reduce to a constant",
    ),
    one(
        "loop that never ends",
        &[("bad.v", "module m(output reg y);\n  always @* begin\n    y = 0;\n    while (1) y = ~y;\n  end\nendmodule\n")],
        "bad.v:4:5",
        "loop runs more than",
    ),
    one(
        "generate condition not constant",
        &[("bad.v", "module m(input a, output y);\n  generate if (a) begin : g\n    assign y = a;\n  end endgenerate\nendmodule\n")],
        "bad.v:2:16",
        "`a` is not a constant",
    ),
    one(
        "power with a variable exponent",
        &[("bad.v", "module m(input [1:0] a, output [3:0] y);\n  assign y = 2 ** a;\nendmodule\n")],
        "bad.v:2:14",
        "`**` is only supported on constants",
    ),
    one(
        "multi-dimensional array",
        &[("bad.v", "module m(input a, output y);\n  reg [1:0] r [0:1][0:1];\n  assign y = a;\nendmodule\n")],
        "bad.v:2:20",
        "multi-dimensional arrays are not supported",
    ),
    one(
        "recursive module",
        &[("bad.v", "module m(input a, output y);\n  m u0 (a, y);\nendmodule\nmodule top(input a, output y);\n  m u0 (a, y);\nendmodule\n")],
        "bad.v:2:5",
        "recursive module",
    ),
    // --- preprocessor -------------------------------------------------------------------
    one(
        "undefined macro",
        &[("bad.v", "module m(input a, output y);\n  assign y = `INVERT(a);\nendmodule\n")],
        "bad.v:2:14",
        "undefined macro",
    ),
    one(
        "macro with the wrong number of arguments",
        &[("bad.v", "`define AND2(x, y) ((x) & (y))\nmodule m(input a, output y);\n  assign y = `AND2(a);\nendmodule\n")],
        "bad.v:3:14",
        "takes 2 argument(s), 1 given",
    ),
    one(
        "macros expanding each other forever",
        &[("bad.v", "`define A `B\n`define B `A\nmodule m(input a, output y);\n  assign y = `A;\nendmodule\n")],
        "bad.v:2:11",
        "recursive macro",
    ),
    one(
        "ifdef without endif",
        &[("bad.v", "`ifdef FAST\nmodule m(input a, output y);\n  assign y = a;\nendmodule\n")],
        "bad.v:1:8",
        "without a matching `endif",
    ),
    one(
        "endif without ifdef",
        &[("bad.v", "module m(input a, output y);\n  assign y = a;\nendmodule\n`endif\n")],
        "bad.v:4:1",
        "`endif without `ifdef",
    ),
    one(
        "include file not found",
        &[("bad.v", "`include \"defs.vh\"\nmodule m(input a, output y);\n  assign y = a;\nendmodule\n")],
        "bad.v:1:10",
        "cannot find include file `defs.vh`",
    ),
    one(
        "file including itself",
        &[("bad.v", "`include \"bad.v\"\nmodule m(input a, output y);\n  assign y = a;\nendmodule\n")],
        "bad.v:1:10",
        "recursive include",
    ),
    Case {
        what: "syntax error inside an included file (found through -I)",
        files: &[
            ("bad.v", "`include \"defs.vh\"\nmodule m(input a, output y);\n  assign y = `INV(a);\nendmodule\n"),
            ("inc/defs.vh", "// helpers\n`define INV(x) (~(x))\nmodule h(input a, output y);\n  assign y = a +;\nendmodule\n"),
        ],
        args: &["-I", "inc"],
        at: "defs.vh:4:17",
        phrase: "expected an expression",
    },
    Case {
        what: "error in a further design file",
        files: &[
            ("bad.v", "module m(input a, output y);\n  sub u0 (a, y);\nendmodule\n"),
            ("lib.v", "module sub(input i, output o);\n  assign o = ~j;\nendmodule\n"),
        ],
        args: &["--lib-file", "lib.v"],
        at: "lib.v:2:15",
        phrase: "`j` is not declared",
    },
    Case {
        what: "macro defined on the command line breaks an expression",
        files: &[("bad.v", "module m(input a, output [`W:0] y);\n  assign y = a;\nendmodule\n")],
        args: &["-D", "W=3+"],
        at: "bad.v:1:29",
        phrase: "expected an expression",
    },
    one(
        "memory data file missing",
        &[(
            "bad.v",
            "module m(input [1:0] a, output [7:0] y);\n  reg [7:0] rom [0:3];\n  initial $readmemh(\"rom.hex\", rom);\n  assign y = rom[a];\nendmodule\n",
        )],
        "bad.v:3:21",
        "cannot find memory file `rom.hex`",
    ),
    // --- drivers and loops --------------------------------------------------------------
    one(
        "combinational loop through assigns",
        &[("bad.v", "module m(input a, output y);\n  wire p, q;\n  assign p = q | a;\n  assign q = p & a;\n  assign y = q;\nendmodule\n")],
        "bad.v:4:10",
        "combinational loop",
    ),
    one(
        "combinational loop through always blocks",
        &[("bad.v", "module m(input a, output y);\n  reg p, q;\n  always @* p = q | a;\n  always @* q = p & a;\n  assign y = q;\nendmodule\n")],
        "bad.v:4:3",
        "combinational loop",
    ),
    one(
        "register written by two always blocks",
        &[("bad.v", "module m(input clk, input a, output reg q);\n  always @(posedge clk) q <= a;\n  always @(posedge clk) q <= ~a;\nendmodule\n")],
        "bad.v:3:25",
        "driven by more than one process",
    ),
    one(
        "register also driven by an assign",
        &[("bad.v", "module m(input clk, input a, output reg q);\n  always @(posedge clk) q <= a;\n  assign q = ~a;\nendmodule\n")],
        "bad.v:3:10",
        "driven by more than one process",
    ),
    one(
        "wire driven by two assigns",
        &[("bad.v", "module m(input a, output y);\n  assign y = a;\n  assign y = ~a;\nendmodule\n")],
        "bad.v:3:10",
        "driven by more than one process",
    ),
];

/// The column at which the caret line of a rendered diagnostic starts its `^` run, relative
/// to the source text (1-based).
fn caret_column(stderr: &str) -> Option<usize> {
    stderr.lines().find_map(|l| {
        let (_, rest) = l.split_once(" | ")?;
        let col = rest.find('^')?;
        rest[..col].chars().all(|c| c == ' ').then_some(col + 1)
    })
}

fn write_files(dir: &Path, files: &[(&str, &str)]) {
    for (rel, text) in files {
        let p = dir.join(rel);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).expect("create folder");
        }
        std::fs::write(p, text).expect("write design file");
    }
}

#[test]
fn malformed_verilog_gives_located_errors_exit_1_and_no_output() {
    assert!(CASES.len() >= 30, "the suite must keep at least 30 cases");
    let mut failures = Vec::new();
    for case in CASES {
        let dir = tempfile::tempdir().expect("temp dir");
        write_files(dir.path(), case.files);
        let model = case.files[0].0;
        let o = Command::new(env!("CARGO_BIN_EXE_hypermut"))
            .arg("aiger")
            .arg(model)
            .args(case.args)
            .args(["-o", "out.aag"])
            .current_dir(dir.path())
            .output()
            .expect("the hypermut binary runs");
        let err = String::from_utf8_lossy(&o.stderr);
        let what = case.what;
        let mut problems = Vec::new();
        if o.status.code() != Some(1) {
            problems.push(format!(
                "exit status {:?} (a panic exits with 101)",
                o.status.code()
            ));
        }
        let header = format!("{}: error: ", case.at);
        match err.lines().find(|l| l.contains(": error: ")) {
            Some(line) if line.starts_with(&header) || line.contains(&format!("/{header}")) => {
                if !line.contains(case.phrase) {
                    problems.push(format!("message lacks `{}`", case.phrase));
                }
            }
            Some(line) => problems.push(format!("expected `{header}…`, got `{line}`")),
            None => problems.push("no `error:` line".into()),
        }
        let col: usize = case
            .at
            .rsplit(':')
            .next()
            .and_then(|c| c.parse().ok())
            .expect("column in the expected position");
        if caret_column(&err) != Some(col) {
            problems.push(format!("caret not under column {col}"));
        }
        if dir.path().join("out.aag").exists() {
            problems.push("an output file was written".into());
        }
        if !problems.is_empty() {
            failures.push(format!("{what}: {}\n{err}", problems.join("; ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_bad_design_never_replaces_an_existing_output_file() {
    // The output is written only after the whole design was lowered: an old file survives.
    let dir = tempfile::tempdir().expect("temp dir");
    write_files(
        dir.path(),
        &[(
            "bad.v",
            "module m(input a, output y);\n  assign y = a &;\nendmodule\n",
        )],
    );
    std::fs::write(dir.path().join("out.aag"), "old").expect("write old output");
    let o = Command::new(env!("CARGO_BIN_EXE_hypermut"))
        .args(["aiger", "bad.v", "-o", "out.aag"])
        .current_dir(dir.path())
        .output()
        .expect("the hypermut binary runs");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("out.aag")).expect("old output"),
        "old"
    );
}
