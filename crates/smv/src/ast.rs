//! Syntax tree of an SMV program. Every node keeps the [`Span`] of its source text.

use hypermut_ir::{ConstraintKind, Span, UnOp};

use crate::lexer::WordLit;

/// A name and where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    /// The identifier text.
    pub name: String,
    /// Its source range.
    pub span: Span,
}

/// An expression with its source range (a parenthesised expression spans its parentheses).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Its source range.
    pub span: Span,
}

/// One `cond : value;` branch of a `case`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaseBranch {
    /// The guard.
    pub cond: Expr,
    /// The value when the guard is the first true one.
    pub value: Expr,
}

/// Binary operators as written in the source (more than the IR has: `xnor`, `in`, `union`,
/// temporal operators).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `&`
    And,
    /// `|`
    Or,
    /// `xor`
    Xor,
    /// `xnor`
    Xnor,
    /// `->`
    Implies,
    /// `<->`
    Iff,
    /// `=`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `mod`
    Mod,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `::`
    Concat,
    /// `in`
    In,
    /// `union`
    Union,
    /// LTL `U`
    Until,
    /// LTL `S`
    Since,
    /// LTL `V`
    Releases,
    /// LTL `T`
    Triggered,
}

impl BinOp {
    /// Source spelling.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::And => "&",
            BinOp::Or => "|",
            BinOp::Xor => "xor",
            BinOp::Xnor => "xnor",
            BinOp::Implies => "->",
            BinOp::Iff => "<->",
            BinOp::Eq => "=",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "mod",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Concat => "::",
            BinOp::In => "in",
            BinOp::Union => "union",
            BinOp::Until => "U",
            BinOp::Since => "S",
            BinOp::Releases => "V",
            BinOp::Triggered => "T",
        }
    }

    /// Whether this is a temporal (LTL) operator.
    pub fn is_temporal(self) -> bool {
        matches!(
            self,
            BinOp::Until | BinOp::Since | BinOp::Releases | BinOp::Triggered
        )
    }
}

/// Temporal operators of CTL and LTL specifications.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TempOp {
    /// CTL `EX`, `AX`, `EF`, `AF`, `EG`, `AG`.
    Ex,
    /// `AX`
    Ax,
    /// `EF`
    Ef,
    /// `AF`
    Af,
    /// `EG`
    Eg,
    /// `AG`
    Ag,
    /// CTL `E [ p U q ]` (two operands).
    Eu,
    /// CTL `A [ p U q ]` (two operands).
    Au,
    /// Bounded CTL (`EBF`, `ABF`, `EBG`, `ABG`, `BU`): kept only to be skipped.
    Bounded,
    /// LTL `X`
    X,
    /// LTL `G`
    G,
    /// LTL `F`
    F,
    /// LTL `Y`
    Y,
    /// LTL `Z`
    Z,
    /// LTL `H`
    H,
    /// LTL `O`
    O,
}

/// Unary temporal operators by their keyword.
pub const TEMPORAL_PREFIX: &[(&str, TempOp)] = &[
    ("EX", TempOp::Ex),
    ("AX", TempOp::Ax),
    ("EF", TempOp::Ef),
    ("AF", TempOp::Af),
    ("EG", TempOp::Eg),
    ("AG", TempOp::Ag),
    ("X", TempOp::X),
    ("G", TempOp::G),
    ("F", TempOp::F),
    ("Y", TempOp::Y),
    ("Z", TempOp::Z),
    ("H", TempOp::H),
    ("O", TempOp::O),
];

/// Built-in functions `name(args)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    /// `bool(e)`
    Bool,
    /// `toint(e)`
    ToInt,
    /// `word1(e)`
    Word1,
    /// `signed(w)`
    Signed,
    /// `unsigned(w)`
    Unsigned,
    /// `extend(w, n)`
    Extend,
    /// `resize(w, n)`
    Resize,
    /// `uwconst(v, n)`
    Uwconst,
    /// `swconst(v, n)`
    Swconst,
    /// `sizeof(w)`
    Sizeof,
    /// `count(b1, …)`
    Count,
    /// `abs(x)`
    Abs,
    /// `max(a, b)`
    Max,
    /// `min(a, b)`
    Min,
}

/// Built-in function names, their meaning and arity (`None`: one or more arguments).
pub const BUILTINS: &[(&str, Builtin, Option<usize>)] = &[
    ("bool", Builtin::Bool, Some(1)),
    ("toint", Builtin::ToInt, Some(1)),
    ("word1", Builtin::Word1, Some(1)),
    ("signed", Builtin::Signed, Some(1)),
    ("unsigned", Builtin::Unsigned, Some(1)),
    ("extend", Builtin::Extend, Some(2)),
    ("resize", Builtin::Resize, Some(2)),
    ("uwconst", Builtin::Uwconst, Some(2)),
    ("swconst", Builtin::Swconst, Some(2)),
    ("sizeof", Builtin::Sizeof, Some(1)),
    ("count", Builtin::Count, None),
    ("abs", Builtin::Abs, Some(1)),
    ("max", Builtin::Max, Some(2)),
    ("min", Builtin::Min, Some(2)),
];

/// The expression forms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    /// An integer literal (a literal directly preceded by unary `-` is folded into it).
    Int(i64),
    /// `TRUE` / `FALSE`.
    Bool(bool),
    /// A word constant (`0ud8_5`).
    Word(WordLit),
    /// A variable, DEFINE, parameter, instance or symbolic constant.
    Ident(String),
    /// `self`: the current module instance.
    SelfRef,
    /// `a.b`: a member of a module instance.
    Field(Box<Expr>, Ident),
    /// `a[i]`: an array element.
    Index(Box<Expr>, Box<Expr>),
    /// `w[h:l]`: a bit selection.
    BitSelect(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `next(e)`.
    Next(Box<Expr>),
    /// `!e` or `-e`.
    Unary(UnOp, Box<Expr>),
    /// Operands joined by operators of one precedence level: `first op1 e1 op2 e2 …`. Left
    /// chains group as `((first op1 e1) op2 e2)`, right chains (`->`) as
    /// `first op1 (e1 op2 e2)`. Kept flat so that long chains do not nest deeply.
    Chain {
        /// The first operand.
        first: Box<Expr>,
        /// The following operators and operands.
        rest: Vec<(BinOp, Expr)>,
        /// Whether the operators associate to the right.
        right_assoc: bool,
    },
    /// `c ? a : b`.
    Ite(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `case … esac`.
    Case(Vec<CaseBranch>),
    /// `{e1, e2, …}`: a set (a nondeterministic choice where a value is expected).
    Set(Vec<Expr>),
    /// `a..b` inside an expression: the set of integers from a to b.
    Range(Box<Expr>, Box<Expr>),
    /// A built-in function application; the identifier is the function name.
    Call(Builtin, Ident, Vec<Expr>),
    /// A temporal operator applied to its operands (specifications only).
    Temporal(TempOp, Vec<Expr>),
}

/// The flavour of a variable section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarKind {
    /// `VAR`.
    Var,
    /// `IVAR`.
    IVar,
    /// `FROZENVAR`.
    Frozen,
}

impl VarKind {
    /// The section keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            VarKind::Var => "VAR",
            VarKind::IVar => "IVAR",
            VarKind::Frozen => "FROZENVAR",
        }
    }
}

/// One value of an enumeration type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EnumItem {
    /// A symbolic constant.
    Symbol(String),
    /// An integer.
    Int(i64),
}

/// A declared type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeKind {
    /// `boolean`.
    Boolean,
    /// `{v1, v2, …}`, each value with its span.
    Enum(Vec<(EnumItem, Span)>),
    /// `lo..hi` (constant expressions).
    Range(Box<Expr>, Box<Expr>),
    /// `word[N]`, `unsigned word[N]`, `signed word[N]`.
    Word {
        /// Whether it is `signed`.
        signed: bool,
        /// The width (a constant expression).
        width: Box<Expr>,
    },
    /// `array lo..hi of T`.
    Array(Box<Expr>, Box<Expr>, Box<TypeSpec>),
    /// A module instance (`process` instance when `process`).
    Module {
        /// The module name.
        name: Ident,
        /// The actual parameters.
        args: Vec<Expr>,
        /// Whether declared with `process`.
        process: bool,
    },
    /// `integer`, `real`, `clock`: infinite or timed types, rejected during elaboration.
    Unsupported(&'static str),
}

/// A type with its source range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeSpec {
    /// The type.
    pub kind: TypeKind,
    /// Its source range.
    pub span: Span,
}

/// A component after the first identifier of a declared name (`a.b`, `a[3]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Suffix {
    /// `.name`
    Field(String),
    /// `[k]`
    Index(i64),
}

/// `name : type;` in a variable section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarDecl {
    /// Declared name: its first identifier, spanning the whole declared name.
    pub name: Ident,
    /// Further components of a hierarchical declared name (NuSMV's `decl_var_id`).
    pub suffix: Vec<Suffix>,
    /// Declared type.
    pub ty: TypeSpec,
}

/// The body of a DEFINE: an expression or an array `[e1, e2, …]` (possibly nested).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DefineBody {
    /// `name := expr;`
    Expr(Expr),
    /// `name := [b0, b1, …];` with the span of the brackets.
    Array(Vec<DefineBody>, Span),
}

/// `name := body;` in a DEFINE section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefineDecl {
    /// Defined name: its first identifier, spanning the whole declared name.
    pub name: Ident,
    /// Further components of a hierarchical defined name (`above.token-in`).
    pub suffix: Vec<Suffix>,
    /// The macro body.
    pub body: DefineBody,
}

/// The left-hand side form of an assignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignKind {
    /// `init(x) := e`.
    Init,
    /// `next(x) := e`.
    Next,
    /// `x := e` (invariant assignment).
    Invariant,
}

/// One assignment of an ASSIGN section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assign {
    /// Which form.
    pub kind: AssignKind,
    /// The assigned variable (an identifier, `a.b`, `a[3]` or `self.x`).
    pub target: Expr,
    /// The whole left-hand side (`next(x)`).
    pub lhs_span: Span,
    /// The assigned expression.
    pub rhs: Expr,
}

/// Which kind of specification.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpecKind {
    /// `INVARSPEC`.
    Invar,
    /// `SPEC` / `CTLSPEC`.
    Ctl,
    /// `LTLSPEC`.
    Ltl,
}

impl SpecKind {
    /// The section keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            SpecKind::Invar => "INVARSPEC",
            SpecKind::Ctl => "CTLSPEC",
            SpecKind::Ltl => "LTLSPEC",
        }
    }
}

/// A specification section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// Invariant, CTL or LTL.
    pub kind: SpecKind,
    /// `NAME n :=`, if given.
    pub name: Option<Ident>,
    /// The formula.
    pub expr: Expr,
    /// The section keyword.
    pub keyword: Span,
}

/// Fairness-like sections.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FairKind {
    /// `FAIRNESS p` / `JUSTICE p`.
    Justice,
    /// `COMPASSION (p, q)`.
    Compassion,
}

/// A section of a module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Section {
    /// VAR / IVAR / FROZENVAR declarations.
    Vars(VarKind, Vec<VarDecl>),
    /// DEFINE declarations.
    Defines(Vec<DefineDecl>),
    /// ASSIGN assignments.
    Assigns(Vec<Assign>),
    /// INIT / INVAR / TRANS constraint.
    Constraint(ConstraintKind, Expr),
    /// A specification.
    Spec(Spec),
    /// FAIRNESS / JUSTICE / COMPASSION with its keyword and expressions.
    Fairness(FairKind, Ident, Vec<Expr>),
    /// `CONSTANTS a, b;`
    Constants(Vec<Ident>),
    /// `ISA Module`.
    Isa(Ident),
    /// A section that is parsed over and ignored (PSLSPEC, COMPUTE).
    Skipped(Ident),
}

/// A module declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Module {
    /// Module name.
    pub name: Ident,
    /// Formal parameters.
    pub params: Vec<Ident>,
    /// The sections, in source order.
    pub sections: Vec<Section>,
}

/// A whole SMV file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// The modules, in source order.
    pub modules: Vec<Module>,
    /// Span of the end of the file.
    pub eof: Span,
}

impl Expr {
    /// The direct sub-expressions.
    pub fn children(&self) -> Vec<&Expr> {
        match &self.kind {
            ExprKind::Int(_)
            | ExprKind::Bool(_)
            | ExprKind::Word(_)
            | ExprKind::Ident(_)
            | ExprKind::SelfRef => vec![],
            ExprKind::Field(a, _) | ExprKind::Next(a) | ExprKind::Unary(_, a) => vec![a],
            ExprKind::Index(a, b) | ExprKind::Range(a, b) => vec![a, b],
            ExprKind::BitSelect(a, b, c) | ExprKind::Ite(a, b, c) => vec![a, b, c],
            ExprKind::Chain { first, rest, .. } => std::iter::once(&**first)
                .chain(rest.iter().map(|(_, e)| e))
                .collect(),
            ExprKind::Case(bs) => bs.iter().flat_map(|b| [&b.cond, &b.value]).collect(),
            ExprKind::Set(xs) | ExprKind::Call(_, _, xs) | ExprKind::Temporal(_, xs) => {
                xs.iter().collect()
            }
        }
    }

    /// Whether `pred` holds for some node of the expression (iteratively, no recursion).
    pub fn any(&self, pred: impl Fn(&Expr) -> bool) -> bool {
        let mut stack = vec![self];
        while let Some(e) = stack.pop() {
            if pred(e) {
                return true;
            }
            stack.extend(e.children());
        }
        false
    }

    /// Whether the expression contains a temporal operator.
    pub fn has_temporal(&self) -> bool {
        self.any(|e| match &e.kind {
            ExprKind::Temporal(..) => true,
            ExprKind::Chain { rest, .. } => rest.iter().any(|(op, _)| op.is_temporal()),
            _ => false,
        })
    }
}
