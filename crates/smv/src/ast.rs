//! Syntax tree of an SMV program. Every node keeps the [`Span`] of its source text.

use hypermut_ir::{BinOp, ConstraintKind, Span, UnOp};

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

/// The expression forms of the supported subset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    /// An integer literal (a literal directly preceded by unary `-` is folded into it).
    Int(i64),
    /// `TRUE` / `FALSE`.
    Bool(bool),
    /// A variable, DEFINE or symbolic constant.
    Ident(String),
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
    /// `{e1, e2, …}`: a nondeterministic choice.
    Set(Vec<Expr>),
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

/// A bound of an integer range type: a literal or the name of a constant DEFINE.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// An integer literal.
    Int(i64),
    /// A DEFINE whose body is an integer literal.
    Name(String),
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
    /// `lo..hi`, each bound with its span.
    Range((Bound, Span), (Bound, Span)),
    /// A module name, optionally with arguments (a module instance).
    Named(Ident),
}

/// A type with its source range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeSpec {
    /// The type.
    pub kind: TypeKind,
    /// Its source range.
    pub span: Span,
}

/// `name : type;` in a variable section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarDecl {
    /// Declared name.
    pub name: Ident,
    /// Declared type.
    pub ty: TypeSpec,
}

/// `name := expr;` in a DEFINE section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefineDecl {
    /// Defined name.
    pub name: Ident,
    /// The macro body.
    pub body: Expr,
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
    /// The assigned variable.
    pub target: Ident,
    /// The whole left-hand side (`next(x)`).
    pub lhs_span: Span,
    /// The assigned expression.
    pub rhs: Expr,
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
    /// A specification or fairness section that is parsed over and ignored.
    Skipped(Ident),
}

/// A module declaration. Only `main` has its body parsed; other bodies are skipped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Module {
    /// Module name.
    pub name: Ident,
    /// Formal parameters.
    pub params: Vec<Ident>,
    /// The sections, in source order (empty for skipped modules).
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
    /// Whether the expression contains a set (a choice site) anywhere.
    pub fn contains_set(&self) -> bool {
        let mut stack = vec![self];
        while let Some(e) = stack.pop() {
            match &e.kind {
                ExprKind::Set(_) => return true,
                ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Ident(_) => {}
                ExprKind::Next(a) | ExprKind::Unary(_, a) => stack.push(a),
                ExprKind::Chain { first, rest, .. } => {
                    stack.push(first);
                    stack.extend(rest.iter().map(|(_, e)| e));
                }
                ExprKind::Ite(c, a, b) => stack.extend([&**c, &**a, &**b]),
                ExprKind::Case(bs) => {
                    for b in bs {
                        stack.push(&b.cond);
                        stack.push(&b.value);
                    }
                }
            }
        }
        false
    }
}
