//! The word-level transition system that every hypermut front-end lowers to.
//!
//! A [`System`] has typed variables (inputs, state with optional init expression, frozen),
//! named outputs, explicit nondeterministic [`ExprKind::Choice`] nodes, and init / invariant /
//! transition constraints. Expressions live in a hash-consed DAG ([`ExprPool`]) whose nodes keep
//! the source [`Span`] they came from. [`interp`] steps a system given inputs and choice values.

pub mod diag;
pub mod expr;
pub mod interp;
pub mod language;
pub mod range;
pub mod source;
pub mod system;
pub mod types;
pub mod value;

pub use diag::{Diagnostic, Severity};
pub use expr::{BinOp, ChoiceId, ExprId, ExprKind, ExprNode, ExprPool, UnOp};
pub use interp::{EvalError, Frame, Interpreter, Trace};
pub use language::Language;
pub use range::RangeObligation;
pub use source::{FileId, SourceFile, SourceMap, Span};
pub use system::{Constraint, ConstraintKind, Output, Property, Role, System, Var, VarId};
pub use types::{EnumId, EnumType, Type, TypeError};
pub use value::Value;
