//! Mutation operators on IR expressions that came from source: the operator list and the
//! [`Mutant`] record. [`crate::enumerate`] runs every operator family and numbers the
//! result; [`Operator::parse_list`] reads a list of operator names.

use serde::{Deserialize, Serialize};

use hypermut_ir::{ExprId, Span};

pub use crate::edit::{Assoc, Edit, LogicOp};
pub use crate::syntax::Syntax;

/// A mutation operator. The declaration order is the order of mutants at one source
/// position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Operator {
    /// Relational operator replacement: one of `= != < <= > >=` by another.
    Ror,
    /// Integer or bit-vector constant replaced by itself plus one (no wrap-around).
    ConstPlusOne,
    /// Integer or bit-vector constant replaced by itself minus one (no wrap-around).
    ConstMinusOne,
    /// Arithmetic operator replacement among `+ - * / mod`.
    Aor,
    /// Logical / bitwise operator replacement among and, or, xor, xnor.
    Lor,
    /// Shift operator replacement (`<<` ↔ `>>`).
    Sor,
    /// Expression negation fault: a compound boolean sub-expression negated (or an existing
    /// negation of one dropped).
    Enf,
    /// Variable negation fault: a boolean variable reference negated (or its negation
    /// dropped).
    Vnf,
    /// Missing condition fault: one operand of a boolean and/or dropped.
    Mcf,
    /// A boolean sub-expression stuck at false.
    Sa0,
    /// A boolean sub-expression or a branch guard stuck at true.
    Sa1,
    /// Associative shift fault: the brackets of a nested binary expression moved.
    Asf,
    /// Constant replaced by zero.
    Const0,
    /// Constant replaced by the largest value of its type (context range for integers).
    ConstMax,
    /// Variable reference replaced by another in-scope variable of the same type.
    Vrr,
    /// Case-branch deletion: a `case` / `if` / `?:` branch removed, so the next one applies.
    Cbd,
    /// Next-state assignment deleted: the variable keeps its value.
    Nad,
    /// Reset / initial value change.
    Rvc,
    /// Bit-index off-by-one of a constant bit or part select.
    Bio,
    /// Choice alternative drop: one alternative of a nondeterministic choice (SMV set,
    /// Verilog `$ND`) removed; a single remaining alternative replaces the choice.
    Cad,
    /// Choice widening: a constant assigned to a variable becomes a choice between it and a
    /// neighbouring value of the variable's type.
    Cwd,
}

impl Operator {
    /// Every operator, in the order mutants are numbered.
    pub const ALL: [Operator; 21] = [
        Operator::Ror,
        Operator::ConstPlusOne,
        Operator::ConstMinusOne,
        Operator::Aor,
        Operator::Lor,
        Operator::Sor,
        Operator::Enf,
        Operator::Vnf,
        Operator::Mcf,
        Operator::Sa0,
        Operator::Sa1,
        Operator::Asf,
        Operator::Const0,
        Operator::ConstMax,
        Operator::Vrr,
        Operator::Cbd,
        Operator::Nad,
        Operator::Rvc,
        Operator::Bio,
        Operator::Cad,
        Operator::Cwd,
    ];

    /// Short name used in reports and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Operator::Ror => "ror",
            Operator::ConstPlusOne => "const+1",
            Operator::ConstMinusOne => "const-1",
            Operator::Aor => "aor",
            Operator::Lor => "lor",
            Operator::Sor => "sor",
            Operator::Enf => "enf",
            Operator::Vnf => "vnf",
            Operator::Mcf => "mcf",
            Operator::Sa0 => "sa0",
            Operator::Sa1 => "sa1",
            Operator::Asf => "asf",
            Operator::Const0 => "const0",
            Operator::ConstMax => "constmax",
            Operator::Vrr => "vrr",
            Operator::Cbd => "cbd",
            Operator::Nad => "nad",
            Operator::Rvc => "rvc",
            Operator::Bio => "bio",
            Operator::Cad => "cad",
            Operator::Cwd => "cwd",
        }
    }

    /// The operator with this short name (case-insensitive).
    pub fn from_name(name: &str) -> Option<Operator> {
        let n = name.trim();
        Operator::ALL
            .into_iter()
            .find(|o| o.name().eq_ignore_ascii_case(n))
    }
}

/// One first-order mutant: an edit of a single source expression.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mutant {
    /// Stable id (0-based, ordered by source position, then operator, then replacement).
    pub id: usize,
    /// The operator that produced it.
    pub operator: Operator,
    /// The mutated expression node (the first one if the source text elaborated to several).
    pub site: ExprId,
    /// Further nodes elaborated from the same source text (e.g. an unrolled loop body), all
    /// edited alike.
    #[serde(default)]
    pub extra_sites: Vec<ExprId>,
    /// Source range the textual edit replaces.
    pub span: Span,
    /// The original source text of that range.
    pub original: String,
    /// The replacement text (in the source language).
    pub replacement: String,
    /// The edit applied to each site.
    pub edit: Edit,
}

impl Mutant {
    /// Every node the mutant edits.
    pub fn sites(&self) -> impl Iterator<Item = ExprId> + '_ {
        std::iter::once(self.site).chain(self.extra_sites.iter().copied())
    }
}
