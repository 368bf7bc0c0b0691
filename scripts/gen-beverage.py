#!/usr/bin/env python3
"""The parametrised beverage machine and its bounded definite-killing query for Z3.

    scripts/gen-beverage.py --capacity C --smv FILE.smv
    scripts/gen-beverage.py --capacity C --smt FILE.smt2 --bound K [--get-model]

`--smv` writes the beverage machine of models/smv/beverage.smv with tank capacity C
(`wtr : 0..C`, `init(wtr) := C`, a fill of the empty tank refills C units). For C = 2 it is
that model. `--smt` writes an SMT-LIB 2 file whose satisfiability says whether a linear test of
K + 1 steps (frames 0..K) definitely kills the refill mutant: the machine that refills C - 1
units instead of C (hypermut's `const-1` mutant of the refill constant). Both may be given at
once; `-` writes to stdout.

The encoding (docs/method.md §4.7, the bounded encoding φ_dk of definite killing):

    ∃ i[0..K] ∈ {none, req, fill}.
      ∀ o[0..K], w[0..K] (original), o'[0..K], w'[0..K] (mutant).
        (α(o[0], w[0]) ∧ ⋀_{n<K} δ_C(i[n], o[n], w[n], o[n+1], w[n+1])
         ∧ α(o'[0], w'[0]) ∧ ⋀_{n<K} δ_{C-1}(i[n], o'[n], w'[n], o'[n+1], w'[n+1]))
        → ⋁_{n≤K} o[n] ≠ o'[n]

with α(o, w) = (o = none ∧ w = C) and δ_R the machine's transition relation with refill value R:
a request with water serves coffee or tea (either value of o[n+1]) and takes one unit, a fill of
the empty tank sets w[n+1] = R, and otherwise o[n+1] = none and w[n+1] = w[n]. The outputs are
the universally quantified `o` variables, so the nondeterministic choice is the adversary's, as
in the paper's relational encoding over the STS theory.

Choices made here, and why:

* Sorts: integers (`Int`), as the paper's STS theory; the enumerations are numbered
  none = 0, req = 1, fill = 2 (input) and none = 0, coff = 1, tea = 2 (output).
* The outputs must differ in *some* frame 0..K, not in frame K exactly as the paper writes it:
  hypermut's agreement property asks for equal outputs in every frame 0..K, and the benchmark
  asks both tools the same question. (For this machine the two readings agree: a test can
  wait with `none` inputs before its last requests, so the difference can be moved to frame K.)
* Frames 0..K of the states, not 0..K + 1: the output is registered, so frame K + 1 is never
  compared, and δ is total, so dropping the last transition does not change the answer.
* The input of frame K is declared (the test has K + 1 steps) though nothing reads it.

By hand: the two machines differ only once the tank has been drained (C requests), filled
(1 step) and drained again (C requests); the mutant's missing drink shows in the next frame.
So a definite test of depth K exists iff K ≥ 2C + 1 (for C = 2: depth 5, the paper's
⟨req, req, fill, req, req⟩ plus the step that observes the result).
"""

import argparse
import sys

INP = {"none": 0, "req": 1, "fill": 2}
OUT = {"none": 0, "coff": 1, "tea": 2}


def smv(capacity):
    """The SMV model with tank capacity `capacity`."""
    c = capacity
    return f"""-- The beverage machine of "Mutation testing with hyperproperties" (Fellner et al.) with
-- tank capacity {c}, written by scripts/gen-beverage.py (models/smv/beverage.smv is capacity 2).
-- A request serves coffee or tea (chosen nondeterministically) while there is water;
-- filling an empty tank refills {c} units. Only `out` is observed.
-- @output out
MODULE main
IVAR
  inp : {{none, req, fill}};
VAR
  wtr : 0..{c};
  out : {{none, coff, tea}};
ASSIGN
  init(wtr) := {c};
  init(out) := none;
  next(out) := case
      inp = req & wtr > 0 : {{coff, tea}};
      TRUE : none;
    esac;
  next(wtr) := case
      inp = req & wtr > 0 : wtr - 1;
      inp = fill & wtr = 0 : {c};
      TRUE : wtr;
    esac;
"""


def initial(o, w, capacity):
    """α: the initial state."""
    return f"(= {o}0 {OUT['none']}) (= {w}0 {capacity})"


def step(n, o, w, refill):
    """δ_n of one copy: frame n to frame n + 1 under input i{n}."""
    serve = f"(and (= i{n} {INP['req']}) (> {w}{n} 0))"
    fill = f"(and (= i{n} {INP['fill']}) (= {w}{n} 0))"
    out = (
        f"(ite {serve} (or (= {o}{n + 1} {OUT['coff']}) (= {o}{n + 1} {OUT['tea']})) "
        f"(= {o}{n + 1} {OUT['none']}))"
    )
    wtr = f"(= {w}{n + 1} (ite {serve} (- {w}{n} 1) (ite {fill} {refill} {w}{n})))"
    return f"{out}\n      {wtr}"


def smt(capacity, bound, get_model):
    """φ_dk for the refill mutant (refill capacity - 1) at depth `bound`."""
    c, k = capacity, bound
    frames = range(k + 1)
    lines = [
        f"; Definite killing of the refill mutant (refill {c - 1} instead of {c}) of the",
        f"; beverage machine with capacity {c}, by a test of {k + 1} steps (frames 0..{k}).",
        "; Written by scripts/gen-beverage.py; sat iff such a test exists.",
    ]
    for n in frames:
        lines.append(f"(declare-const i{n} Int)")
    for n in frames:
        lines.append(f"(assert (and (<= 0 i{n}) (<= i{n} 2)))")
    bound_vars = " ".join(
        f"({v}{n} Int)" for v in ("o", "w", "p", "x") for n in frames
    )
    # Original: outputs o, water w. Mutant: outputs p, water x.
    premise = [initial("o", "w", c), initial("p", "x", c)]
    for n in range(k):
        premise.append(step(n, "o", "w", c))
        premise.append(step(n, "p", "x", c - 1))
    differ = " ".join(f"(not (= o{n} p{n}))" for n in frames)
    lines.append(f"(assert (forall ({bound_vars})")
    lines.append("  (=> (and")
    lines.extend(f"      {p}" for p in premise)
    lines.append("    )")
    lines.append(f"    (or {differ}))))")
    lines.append("(check-sat)")
    if get_model:
        lines.append(f"(get-value ({' '.join(f'i{n}' for n in frames)}))")
    return "\n".join(lines) + "\n"


def write(path, text):
    """Writes `text` to `path` (`-`: stdout)."""
    if path == "-":
        sys.stdout.write(text)
    else:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--capacity", type=int, required=True, help="tank capacity C >= 1")
    ap.add_argument("--smv", metavar="FILE", help="write the SMV model")
    ap.add_argument("--smt", metavar="FILE", help="write the SMT-LIB query (needs --bound)")
    ap.add_argument("--bound", type=int, help="depth K >= 0: the test has K + 1 steps")
    ap.add_argument(
        "--get-model",
        action="store_true",
        help="ask Z3 for the inputs after check-sat (an error message when unsat)",
    )
    a = ap.parse_args()
    if a.capacity < 1:
        ap.error("--capacity must be at least 1 (the mutant refills capacity - 1 units)")
    if not a.smv and not a.smt:
        ap.error("nothing to write: give --smv and/or --smt")
    if a.smt and (a.bound is None or a.bound < 0):
        ap.error("--smt needs --bound K with K >= 0")
    if a.smv:
        write(a.smv, smv(a.capacity))
    if a.smt:
        write(a.smt, smt(a.capacity, a.bound, a.get_model))


if __name__ == "__main__":
    main()
