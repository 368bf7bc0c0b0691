//! The top module when none is named: like yosys `hierarchy -auto-top`, the module whose
//! hierarchy of instances is the deepest. Only modules that no other module instantiates can
//! be the top (an instantiated module is always shallower than the one instantiating it).
//! Where yosys takes one of several equally deep candidates silently, a tie is reported here,
//! so that the user names the top with `--top`.

use std::collections::{HashMap, HashSet};

use crate::ast::{Item, Module};

/// The outcome of looking for the top module of a design.
#[derive(Debug)]
pub(crate) enum TopChoice<'a> {
    /// The deepest module nothing instantiates.
    Chosen {
        /// The top module.
        module: &'a Module,
        /// Levels of instances below it (0: it instantiates no module of the design).
        depth: usize,
        /// The other modules nothing instantiates, shallower than the top, in source order.
        others: Vec<&'a Module>,
    },
    /// Several modules nothing instantiates share the deepest hierarchy.
    Tie {
        /// Those modules, in source order.
        modules: Vec<&'a Module>,
        /// Their common depth.
        depth: usize,
    },
    /// Every module is instantiated by some module (instances form a cycle).
    NoRoot,
    /// The design has no module.
    Empty,
}

/// Chooses the top module among `modules` (names are unique: duplicates are rejected before).
pub(crate) fn choose_top(modules: &[Module]) -> TopChoice<'_> {
    if modules.is_empty() {
        return TopChoice::Empty;
    }
    let by_name: HashMap<&str, &Module> =
        modules.iter().map(|m| (m.name.name.as_str(), m)).collect();
    let mut used = HashSet::new();
    for m in modules {
        collect_instantiated(&m.items, &mut used);
    }
    let roots: Vec<&Module> = modules
        .iter()
        .filter(|m| !used.contains(&m.name.name))
        .collect();
    if roots.is_empty() {
        return TopChoice::NoRoot;
    }
    let mut memo = HashMap::new();
    let depths: Vec<usize> = roots
        .iter()
        .map(|m| depth(m, &by_name, &mut memo))
        .collect();
    let deepest = depths.iter().copied().max().unwrap_or(0);
    let at = |keep: fn(usize, usize) -> bool| -> Vec<&Module> {
        roots
            .iter()
            .zip(&depths)
            .filter(|(_, d)| keep(**d, deepest))
            .map(|(m, _)| *m)
            .collect()
    };
    let tops = at(|d, deepest| d == deepest);
    match tops.as_slice() {
        [module] => TopChoice::Chosen {
            module,
            depth: deepest,
            others: at(|d, deepest| d != deepest),
        },
        _ => TopChoice::Tie {
            modules: tops,
            depth: deepest,
        },
    }
}

/// Levels of instances below `m`: 0 when it instantiates no module of the design, else one
/// more than its deepest instantiated module. A module met again while its own depth is being
/// computed counts as 0 (as yosys does), so that a cycle of instances ends.
fn depth<'a>(
    m: &'a Module,
    by_name: &HashMap<&str, &'a Module>,
    memo: &mut HashMap<&'a str, usize>,
) -> usize {
    if let Some(d) = memo.get(m.name.name.as_str()) {
        return *d;
    }
    memo.insert(&m.name.name, 0);
    let mut children = HashSet::new();
    collect_instantiated(&m.items, &mut children);
    let mut names: Vec<&String> = children.iter().collect();
    names.sort();
    let mut d = 0;
    for name in names {
        if let Some(child) = by_name.get(name.as_str()) {
            d = d.max(depth(child, by_name, memo) + 1);
        }
    }
    memo.insert(&m.name.name, d);
    d
}

/// Names of the modules instantiated in `items` (including every generate branch).
fn collect_instantiated(items: &[Item], out: &mut HashSet<String>) {
    for it in items {
        match it {
            Item::Instances { module, .. } => {
                out.insert(module.name.clone());
            }
            Item::GenFor(g) => collect_instantiated(&g.items, out),
            Item::GenIf { then, els, .. } => {
                collect_instantiated(&then.items, out);
                if let Some(b) = els {
                    collect_instantiated(&b.items, out);
                }
            }
            Item::GenCase { arms, .. } => {
                for (_, b) in arms {
                    collect_instantiated(&b.items, out);
                }
            }
            Item::GenBlock(b) => collect_instantiated(&b.items, out),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::Design;
    use hypermut_ir::SourceMap;

    /// The parsed modules of `text`.
    fn design(text: &str) -> Design {
        let mut sources = SourceMap::new();
        let mut pre = crate::preproc::Preprocessor::new(&mut sources, Vec::new());
        pre.file("t.v", None, text).expect("preprocesses");
        let tokens = pre.finish().expect("preprocesses");
        crate::parser::parse_design(&tokens, &sources).expect("parses")
    }

    fn names(ms: &[&Module]) -> Vec<String> {
        ms.iter().map(|m| m.name.name.clone()).collect()
    }

    const LEAF: &str = "module leaf(input a, output y); assign y = ~a; endmodule\n";

    #[test]
    fn the_deepest_root_wins() {
        let d = design(&format!(
            "{LEAF}module mid(input a, output y); leaf u(a, y); endmodule
             module shallow(input a, output y); leaf u(a, y); endmodule
             module deep(input a, output y); mid u(a, y); endmodule"
        ));
        match choose_top(&d.modules) {
            TopChoice::Chosen {
                module,
                depth,
                others,
            } => {
                assert_eq!(module.name.name, "deep");
                assert_eq!(depth, 2);
                assert_eq!(names(&others), ["shallow"]);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_lone_module_and_a_single_root_are_chosen() {
        let d = design(LEAF);
        assert!(matches!(
            choose_top(&d.modules),
            TopChoice::Chosen { module, depth: 0, others } if module.name.name == "leaf" && others.is_empty()
        ));
        // Instances inside generate branches count; an unused module is shallower.
        let d = design(&format!(
            "module unused(input a, output y); assign y = a; endmodule
             {LEAF}module top(input a, output y);
               generate if (1) begin : g leaf u(a, y); end endgenerate
             endmodule"
        ));
        assert!(matches!(
            choose_top(&d.modules),
            TopChoice::Chosen { module, depth: 1, .. } if module.name.name == "top"
        ));
    }

    #[test]
    fn equally_deep_roots_are_a_tie() {
        let d = design(&format!(
            "{LEAF}module t1(input a, output y); leaf u(a, y); endmodule
             module t2(input a, output y); leaf u(a, y); endmodule"
        ));
        match choose_top(&d.modules) {
            TopChoice::Tie { modules, depth } => {
                assert_eq!(names(&modules), ["t1", "t2"]);
                assert_eq!(depth, 1);
            }
            other => panic!("{other:?}"),
        }
        // Two unrelated modules without instances tie at depth 0.
        let d = design(&format!(
            "{LEAF}module other(input a, output y); assign y = a; endmodule"
        ));
        assert!(matches!(
            choose_top(&d.modules),
            TopChoice::Tie { depth: 0, .. }
        ));
    }

    #[test]
    fn the_choice_is_a_note_and_a_tie_a_located_error() {
        let opts = crate::VerilogOptions::default();
        let text = format!(
            "{LEAF}module mid(input a, output y); leaf u(a, y); endmodule
module shallow(input a, output y); leaf u(a, y); endmodule
module deep(input a, output y); mid u(a, y); endmodule\n"
        );
        let l = crate::parse_verilog(&[("t.v", &text)], &opts).expect("loads");
        assert_eq!(l.system.name, "deep");
        let notes: Vec<String> = l
            .diagnostics
            .iter()
            .filter(|d| d.severity == hypermut_ir::Severity::Note)
            .map(|d| d.headline())
            .collect();
        assert_eq!(
            notes,
            [
                "t.v:4:8: note: top module `deep` chosen automatically: of the modules no other \
              module instantiates (deep, shallow), it has the deepest hierarchy (2 levels of \
              instances); choose another with --top"
            ]
        );
        // With `--top`, or with a single module, there is nothing to say.
        let named = crate::VerilogOptions {
            top: Some("shallow".into()),
            ..crate::VerilogOptions::default()
        };
        let l = crate::parse_verilog(&[("t.v", &text)], &named).expect("loads");
        assert_eq!(l.system.name, "shallow");
        assert!(l.diagnostics.is_empty(), "{:?}", l.diagnostics);
        let l = crate::parse_verilog(&[("t.v", LEAF)], &opts).expect("loads");
        assert!(l.diagnostics.is_empty(), "{:?}", l.diagnostics);

        let tie = format!(
            "{LEAF}module t1(input a, output y); leaf u(a, y); endmodule
module t2(input a, output y); leaf u(a, y); endmodule\n"
        );
        let e = crate::parse_verilog(&[("t.v", &tie)], &opts)
            .expect_err("a tie is refused")
            .to_string();
        assert!(
            e.starts_with(
                "t.v:2:8: error: several modules could be the top (t1, t2): no other module \
                 instantiates them and their hierarchies are equally deep (1 level of \
                 instances); choose one with --top\n"
            ),
            "{e}"
        );
        assert!(e.contains("2 | module t1") && e.contains('^'), "{e}");
    }

    #[test]
    fn cycles_and_unknown_modules_end() {
        let d = design(
            "module a(input i, output o); b u(i, o); endmodule
             module b(input i, output o); a u(i, o); endmodule",
        );
        assert!(matches!(choose_top(&d.modules), TopChoice::NoRoot));
        // A cycle below a root: the depth computation ends; unknown modules add no level.
        let d = design(
            "module a(input i, output o); b u(i, o); endmodule
             module b(input i, output o); a u(i, o); endmodule
             module top(input i, output o); a u(i, o); endmodule",
        );
        assert!(matches!(
            choose_top(&d.modules),
            TopChoice::Chosen { module, .. } if module.name.name == "top"
        ));
        let d = design(&format!(
            "{LEAF}module top(input i, output o); leaf u(i, o); blackbox v(i, o); endmodule"
        ));
        assert!(matches!(
            choose_top(&d.modules),
            TopChoice::Chosen { module, depth: 1, .. } if module.name.name == "top"
        ));
        assert!(matches!(choose_top(&[]), TopChoice::Empty));
    }
}
