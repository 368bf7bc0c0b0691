//! Canonical AIGER writer: renumbers into binary order and lets flussab do the encoding.

use std::borrow::Cow;
use std::collections::HashSet;

use flussab::DeferredWriter;
use flussab_aiger::aig::{OrderedAig, OrderedAndGate, OrderedLatch, Symbol, SymbolTarget};
use flussab_aiger::{ascii, binary};

use super::legacy::legacy_aig;
use crate::{Aig, Lit, Node};

/// AIGER encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AigerFormat {
    /// `aag`, text.
    Ascii,
    /// `aig`, binary deltas (the only format ABC reads).
    Binary,
}

/// How to write a circuit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WriteOptions {
    /// Text or binary.
    pub format: AigerFormat,
    /// Old 5-field format for tools without AIGER 1.9 support (py-aiger, old checkers): the
    /// circuit of [`legacy_aig`] — safety properties become the outputs, constraints are
    /// folded in with one extra latch, justice and fairness are dropped. Implies
    /// [`name_all`](Self::name_all).
    pub legacy: bool,
    /// Give every input, latch, output, bad property and constraint a symbol, inventing
    /// unique names (`in<k>`, `lat<k>`, `out<k>`, `bad<k>`, `cons<k>`) for unnamed or
    /// duplicate ones. py-aiger needs this: it names unnamed objects randomly.
    pub name_all: bool,
}

impl WriteOptions {
    /// Plain AIGER 1.9 in `format`, symbols only for named objects.
    pub fn new(format: AigerFormat) -> Self {
        WriteOptions {
            format,
            legacy: false,
            name_all: false,
        }
    }
}

/// Writes `aig` as canonical AIGER 1.9 in `format` (see [`write_aiger_with`]).
pub fn write_aiger(aig: &Aig, format: AigerFormat) -> Vec<u8> {
    write_aiger_with(aig, &WriteOptions::new(format))
}

/// Writes `aig` as canonical AIGER: inputs, latches, then every AND gate in variable order
/// (which is topological), `M = I + L + A`, operands sorted, a reset field only when it is
/// not 0, the header without an all-zero `B C J F` suffix, symbols for every named input,
/// latch, output, bad property and constraint (in that order), the comment section and a
/// final newline. ASCII uses the same numbering.
///
/// # Panics
/// If `aig` breaks the [`Aig`] invariants (a literal of a variable that does not exist, an
/// AND operand that does not precede its gate); readers and builders never produce that.
pub fn write_aiger_with(aig: &Aig, options: &WriteOptions) -> Vec<u8> {
    if options.legacy {
        return write_plain(&legacy_aig(aig), options.format, true);
    }
    write_plain(aig, options.format, options.name_all)
}

fn write_plain(aig: &Aig, format: AigerFormat, name_all: bool) -> Vec<u8> {
    let ordered = ordered(aig, name_all);
    let mut buf = Vec::new();
    {
        let mut out = DeferredWriter::from_write(&mut buf);
        match format {
            AigerFormat::Binary => {
                let mut w = binary::Writer::<u32>::new(out);
                w.write_ordered_aig(&ordered);
                w.flush_defer_err();
            }
            AigerFormat::Ascii => {
                ascii::Writer::<u32>::new(&mut out).write_ordered_aig(&ordered);
                out.flush_defer_err();
            }
        }
    }
    // flussab writes an empty comment as "c\n\n"; we write "c\n" so that such files survive
    // a round trip byte for byte.
    if let Some(c) = &aig.comment {
        buf.extend_from_slice(b"c\n");
        if !c.is_empty() {
            buf.extend_from_slice(c.as_bytes());
            buf.push(b'\n');
        }
    }
    buf
}

/// Renumbers `aig` into binary order as a flussab [`OrderedAig`] (without the comment).
fn ordered(aig: &Aig, name_all: bool) -> OrderedAig<u32> {
    const NONE: u32 = u32::MAX;
    let mut map = vec![NONE; aig.num_vars() as usize];
    map[0] = 0;
    let mut next = 1u32;
    for l in aig
        .inputs
        .iter()
        .map(|i| i.lit)
        .chain(aig.latches.iter().map(|l| l.lit))
    {
        let slot = map
            .get_mut(l.var() as usize)
            .expect("Aig invariant: input and latch literals are variables of the AIG");
        *slot = next;
        next += 1;
    }
    let mut ands = Vec::new();
    let tr = |map: &[u32], l: Lit| -> u32 {
        let v = map.get(l.var() as usize).copied().unwrap_or(NONE);
        assert!(
            v != NONE,
            "Aig invariant: literal {l:?} refers to a defined variable"
        );
        (v << 1) | l.is_neg() as u32
    };
    for (v, node) in aig.nodes().iter().enumerate() {
        if let Node::And(a, b) = *node {
            let (a, b) = (tr(&map, a), tr(&map, b));
            assert!(
                a < 2 * next && b < 2 * next,
                "Aig invariant: AND operands precede their gate"
            );
            ands.push(OrderedAndGate {
                inputs: [a.max(b), a.min(b)],
            });
            map[v] = next;
            next += 1;
        }
    }
    let lits = |ls: &mut dyn Iterator<Item = Lit>| ls.map(|l| tr(&map, l)).collect::<Vec<_>>();
    OrderedAig {
        max_var_index: next as usize - 1,
        input_count: aig.inputs.len(),
        latches: aig
            .latches
            .iter()
            .map(|l| OrderedLatch {
                next_state: tr(&map, l.next),
                initialization: l.reset.value(),
            })
            .collect(),
        outputs: lits(&mut aig.outputs.iter().map(|n| n.lit)),
        bad_state_properties: lits(&mut aig.bad.iter().map(|n| n.lit)),
        invariant_constraints: lits(&mut aig.constraints.iter().map(|n| n.lit)),
        justice_properties: aig
            .justice
            .iter()
            .map(|j| lits(&mut j.iter().copied()))
            .collect(),
        fairness_constraints: lits(&mut aig.fairness.iter().copied()),
        and_gates: ands,
        symbols: symbols(aig, name_all),
        comment: None,
    }
}

/// The symbol table: named objects only, or every object with invented unique names.
fn symbols(aig: &Aig, name_all: bool) -> Vec<Symbol<'static>> {
    type Target = fn(usize) -> SymbolTarget;
    let sections: [(Target, &str, Vec<&str>); 5] = [
        (
            SymbolTarget::Input,
            "in",
            aig.inputs.iter().map(|x| x.name.as_str()).collect(),
        ),
        (
            SymbolTarget::Latch,
            "lat",
            aig.latches.iter().map(|x| x.name.as_str()).collect(),
        ),
        (
            SymbolTarget::Output,
            "out",
            aig.outputs.iter().map(|x| x.name.as_str()).collect(),
        ),
        (
            SymbolTarget::BadStateProperty,
            "bad",
            aig.bad.iter().map(|x| x.name.as_str()).collect(),
        ),
        (
            SymbolTarget::InvariantConstraint,
            "cons",
            aig.constraints.iter().map(|x| x.name.as_str()).collect(),
        ),
    ];
    // Inputs, latches and outputs share one name space (py-aiger keys them all by name).
    let mut used: HashSet<String> = HashSet::new();
    let mut out = Vec::new();
    for (section, (target, base, names)) in sections.into_iter().enumerate() {
        if section == 3 {
            used.clear();
        }
        for (k, name) in names.into_iter().enumerate() {
            let name = sanitize(name);
            let name = if !name_all {
                if name.is_empty() {
                    continue;
                }
                name.into_owned()
            } else if name.is_empty() || used.contains(name.as_ref()) {
                fresh(&used, &format!("{base}{k}"))
            } else {
                name.into_owned()
            };
            if name_all {
                used.insert(name.clone());
            }
            out.push(Symbol {
                target: target(k),
                name: Cow::Owned(name),
            });
        }
    }
    out
}

/// Symbol names end at the end of the line: replace line breaks.
fn sanitize(name: &str) -> Cow<'_, str> {
    if name.contains('\n') {
        Cow::Owned(name.replace('\n', " "))
    } else {
        Cow::Borrowed(name)
    }
}

/// `base`, or `base_<n>` for the smallest `n` that is not used yet.
fn fresh(used: &HashSet<String>, base: &str) -> String {
    if !used.contains(base) {
        return base.to_string();
    }
    (1..)
        .map(|n| format!("{base}_{n}"))
        .find(|c| !used.contains(c))
        .expect("an unbounded range has an unused name")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aiger::read_aiger;
    use crate::{Named, Reset};

    #[test]
    fn symbols_only_for_named_objects_unless_name_all() {
        let mut g = Aig::new();
        let a = g.add_input("x");
        let _ = g.add_input("");
        let _ = g.add_input("in1"); // taken by the name invented for input 1
        let l = g.add_latch("x", Reset::One); // duplicate of input 0's name
        g.outputs.push(Named {
            lit: a,
            name: "two\nlines".into(),
        });
        g.bad.push(Named {
            lit: l,
            name: String::new(),
        });
        let plain = String::from_utf8(write_aiger(&g, AigerFormat::Ascii)).expect("ASCII");
        assert!(
            plain.ends_with("i0 x\ni2 in1\nl0 x\no0 two lines\n"),
            "{plain}"
        );
        let all = write_aiger_with(
            &g,
            &WriteOptions {
                format: AigerFormat::Ascii,
                legacy: false,
                name_all: true,
            },
        );
        let all = String::from_utf8(all).expect("ASCII");
        assert!(
            all.ends_with("i0 x\ni1 in1\ni2 in2\nl0 lat0\no0 two lines\nb0 bad0\n"),
            "{all}"
        );
        // Reading it back keeps every name.
        let back = read_aiger(all.as_bytes(), "t").expect("readable");
        assert_eq!(back.inputs[2].name, "in2");
        assert_eq!(back.latches[0].reset, Reset::One);
    }

    #[test]
    fn ands_are_written_in_topological_variable_order() {
        // Variables: input, AND, latch, AND using the latch: the latch moves before both ANDs.
        let mut g = Aig::new();
        let i = g.add_input("i");
        let x = g.add_raw_and(i, !i);
        let l = g.add_latch("l", Reset::Zero);
        let y = g.add_raw_and(l, x);
        g.set_next(l, y);
        g.outputs.push(Named {
            lit: !y,
            name: "o".into(),
        });
        let text = String::from_utf8(write_aiger(&g, AigerFormat::Ascii)).expect("ASCII");
        assert_eq!(
            text,
            "aag 4 1 1 1 2\n2\n4 8\n9\n6 3 2\n8 6 4\ni0 i\nl0 l\no0 o\n"
        );
    }
}
