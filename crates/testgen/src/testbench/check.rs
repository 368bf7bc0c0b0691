//! The Verilog that judges one step of a test in the testbench: the rule of
//! [`crate::allowed::judge`] (`docs/method.md` §4.1.1, `docs/formats.md` §2.1) written out
//! for a simulator. The step's whole output valuation is judged, as `judge` does: the test's
//! outputs go on; another valuation the original allows (or any other, when its list is
//! capped) makes the test inconclusive; anything else fails it. Values are compared with
//! `===`, so an output with an `x` or `z` bit is none of the listed values: it fails the test
//! unless the list is capped.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::ident::ident;

/// One output valuation as Verilog literals (`4'h3`), by output name.
pub(super) type Literals = BTreeMap<String, String>;

/// What the original allows at a step, as the testbench reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Allowed {
    /// These valuations and no others (a step without a list allows the test's outputs only).
    Listed(Vec<Literals>),
    /// The list is capped: any valuation may be allowed.
    Capped,
}

/// `signal` as a `$display` argument list and format: `q=%h y=%h`.
fn shown(dut: &str, names: &[&String]) -> (String, String) {
    let format: Vec<String> = names
        .iter()
        .map(|n| format!("{}=%h", display_text(n)))
        .collect();
    let args: Vec<String> = names.iter().map(|n| signal(dut, n)).collect();
    (format.join(" "), args.join(", "))
}

/// The output `name` of the instance `dut`.
fn signal(dut: &str, name: &str) -> String {
    format!("{dut}.{}", ident(name))
}

/// `text` inside a `$display` string: quotes and backslashes escaped, `%` doubled.
pub(super) fn display_text(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('%', "%%")
}

/// The condition that the outputs of `dut` are exactly `values` (`===`: an `x` bit matches
/// nothing).
fn exactly(dut: &str, values: &Literals) -> String {
    let terms: Vec<String> = values
        .iter()
        .map(|(n, lit)| format!("{} === {lit}", signal(dut, n)))
        .collect();
    format!("({})", terms.join(" && "))
}

/// The Verilog statements that judge step `k` of the test of mutant `id` on instance `dut`,
/// whose expected outputs are `expected`: while the test's verdict register `bad` is 0 (going
/// on), a valuation other than `expected` sets it to 2 (inconclusive, with an
/// `INCONCLUSIVE mutant-N step k: …` line) or 1 (fail, `FAIL mutant-N step k: …`). Nothing
/// when the step names no output.
pub(super) fn judge_step(
    dut: &str,
    id: usize,
    k: usize,
    expected: &Literals,
    allowed: &Allowed,
) -> String {
    if expected.is_empty() {
        return String::new();
    }
    let names: Vec<&String> = expected.keys().collect();
    let (format, args) = shown(dut, &names);
    let wanted: Vec<String> = expected
        .iter()
        .map(|(n, lit)| format!("{}={lit}", display_text(n)))
        .collect();
    let what = format!("{format}, expected {}", wanted.join(" "));
    let inconclusive = |why: &str| {
        format!("bad = 2; $display(\"INCONCLUSIVE mutant-{id} step {k}: {what} ({why})\", {args});")
    };
    let fail = format!("bad = 1; $display(\"FAIL mutant-{id} step {k}: {what}\", {args});");
    // The valuations other than the test's (those cannot match here).
    let others: Vec<String> = match allowed {
        Allowed::Capped => Vec::new(),
        Allowed::Listed(values) => values
            .iter()
            .filter(|v| *v != expected)
            .map(|v| exactly(dut, v))
            .collect(),
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "    if (bad == 0 && !{}) begin",
        exactly(dut, expected)
    );
    match allowed {
        Allowed::Capped => {
            let why = "not the test's outputs; the original's list of allowed outputs is capped";
            let _ = writeln!(out, "      {}", inconclusive(why));
        }
        Allowed::Listed(_) if others.is_empty() => {
            let _ = writeln!(out, "      {fail}");
        }
        Allowed::Listed(_) => {
            let why = "other outputs the original allows";
            let _ = writeln!(
                out,
                "      if ({}) begin {} end\n      else begin {fail} end",
                others.join(" || "),
                inconclusive(why)
            );
        }
    }
    out.push_str("    end\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lits(pairs: &[(&str, &str)]) -> Literals {
        pairs
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn a_step_compares_the_whole_valuation() {
        let expected = lits(&[("q", "4'h3"), ("y", "1'h0")]);
        let others = [
            lits(&[("q", "4'h1"), ("y", "1'h1")]),
            lits(&[("q", "4'h3"), ("y", "1'h1")]),
        ];
        let allowed = Allowed::Listed(vec![others[0].clone(), expected.clone(), others[1].clone()]);
        let code = judge_step("t0_dut", 7, 2, &expected, &allowed);
        assert!(
            code.starts_with(
                "    if (bad == 0 && !(t0_dut.q === 4'h3 && t0_dut.y === 1'h0)) begin\n"
            ),
            "{code}"
        );
        // Each other allowed valuation is one conjunction over every output.
        assert!(
            code.contains(
                "      if ((t0_dut.q === 4'h1 && t0_dut.y === 1'h1) || \
                 (t0_dut.q === 4'h3 && t0_dut.y === 1'h1)) begin bad = 2; \
                 $display(\"INCONCLUSIVE mutant-7 step 2: q=%h y=%h, expected q=4'h3 y=1'h0 \
                 (other outputs the original allows)\", t0_dut.q, t0_dut.y); end\n"
            ),
            "{code}"
        );
        assert!(code.contains(
            "      else begin bad = 1; $display(\"FAIL mutant-7 step 2: q=%h y=%h, expected q=4'h3 y=1'h0\", t0_dut.q, t0_dut.y); end\n"
        ), "{code}");
        assert!(code.ends_with("    end\n"));
    }

    #[test]
    fn capped_lists_and_lists_of_the_tests_outputs_only() {
        let expected = lits(&[("q", "4'h3")]);
        let capped = judge_step("d", 1, 0, &expected, &Allowed::Capped);
        assert!(
            capped.contains("\n      bad = 2; $display(\"INCONCLUSIVE"),
            "{capped}"
        );
        assert!(!capped.contains("FAIL"), "{capped}");
        for list in [vec![], vec![expected.clone()]] {
            let only = judge_step("d", 1, 0, &expected, &Allowed::Listed(list));
            assert!(only.contains("\n      bad = 1; $display(\"FAIL"), "{only}");
            assert!(!only.contains("INCONCLUSIVE"), "{only}");
        }
        assert_eq!(
            judge_step("d", 1, 0, &Literals::new(), &Allowed::Capped),
            ""
        );
    }

    #[test]
    fn display_text_is_escaped() {
        assert_eq!(display_text(r#"a"b\c%d"#), r#"a\"b\\c%%d"#);
        assert_eq!(signal("d", "a.b[3]"), "d.\\a.b[3] ");
    }
}
