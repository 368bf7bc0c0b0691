//! Syntax tree of the supported Verilog subset. Every node keeps the [`Span`] of its source
//! text (the span of the first token for nodes whose tokens come from different files).

use hypermut_ir::Span;
use num_bigint::BigUint;

/// A name and where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    /// The name (without the backslash of an escaped identifier).
    pub name: String,
    /// Its span.
    pub span: Span,
}

/// A whole design: modules and file-level `typedef enum`s, in source order.
#[derive(Clone, Debug, Default)]
pub struct Design {
    /// The modules.
    pub modules: Vec<Module>,
    /// VIS `typedef enum {…} name;` declarations at file level.
    pub typedefs: Vec<EnumTypedef>,
}

/// `typedef enum {A, B, …} name;` (VIS): the constants become parameters.
#[derive(Clone, Debug)]
pub struct EnumTypedef {
    /// The type name.
    pub name: Ident,
    /// The constants, with optional explicit values.
    pub values: Vec<(Ident, Option<Expr>)>,
}

/// Port direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// `input`.
    Input,
    /// `output`.
    Output,
    /// `inout`.
    Inout,
}

/// The kind of a declared object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetKind {
    /// `wire`, `tri`, `wand`, `wor`, `supply0/1` and implicit nets.
    Wire,
    /// `reg`.
    Reg,
    /// `integer` (32-bit signed variable).
    Integer,
    /// `time` (64-bit unsigned variable).
    Time,
    /// `genvar`.
    Genvar,
    /// A VIS enumeration type name used as a type (`loc reg x;`).
    Enum(Ident),
}

/// `[msb:lsb]`.
#[derive(Clone, Debug)]
pub struct Range {
    /// Left bound.
    pub msb: Expr,
    /// Right bound.
    pub lsb: Expr,
    /// The brackets' span.
    pub span: Span,
}

/// One declared name in a declaration.
#[derive(Clone, Debug)]
pub struct Declarator {
    /// The name.
    pub name: Ident,
    /// Unpacked dimensions (`reg [7:0] m [0:15]`): at most one is supported.
    pub dims: Vec<Range>,
    /// Initial value (`reg x = 0;`, `wire y = a & b;`).
    pub init: Option<Expr>,
}

/// A declaration of ports, nets, variables or genvars.
#[derive(Clone, Debug)]
pub struct Decl {
    /// Port direction, for port declarations.
    pub dir: Option<Dir>,
    /// The object kind (`None` for a port declaration without one).
    pub kind: Option<NetKind>,
    /// `signed` was given.
    pub signed: bool,
    /// The packed range.
    pub range: Option<Range>,
    /// The declared names.
    pub names: Vec<Declarator>,
    /// The whole declaration.
    pub span: Span,
}

/// `parameter` / `localparam` declarations.
#[derive(Clone, Debug)]
pub struct ParamDecl {
    /// `localparam` (cannot be overridden).
    pub local: bool,
    /// `signed` was given.
    pub signed: bool,
    /// Declared range.
    pub range: Option<Range>,
    /// `parameter integer` and similar: forces 32-bit signed.
    pub integer: bool,
    /// Names and values.
    pub assigns: Vec<(Ident, Expr)>,
    /// The whole declaration.
    pub span: Span,
}

/// A port in the module header.
#[derive(Clone, Debug)]
pub enum PortHeader {
    /// A plain name (non-ANSI style, declared in the body).
    Name(Ident),
    /// `.port(net)`: the port `port` is the body's net `net`.
    Renamed(Ident, Ident),
    /// An ANSI declaration (one name per entry).
    Ansi(Box<Decl>),
}

/// A module definition.
#[derive(Clone, Debug)]
pub struct Module {
    /// Its name.
    pub name: Ident,
    /// `#(parameter …)` in the header.
    pub header_params: Vec<ParamDecl>,
    /// The ports in header order.
    pub ports: Vec<PortHeader>,
    /// The body.
    pub items: Vec<Item>,
    /// Whether undeclared names get implicit nets (false after `` `default_nettype none ``).
    pub implicit_nets: bool,
}

/// Parameter values given to an instance: by position or by name.
#[derive(Clone, Debug)]
pub enum ParamOverride {
    /// `#(1, 2)`.
    Positional(Expr),
    /// `#(.W(8))`.
    Named(Ident, Option<Expr>),
}

/// A port connection of an instance.
#[derive(Clone, Debug)]
pub enum Connection {
    /// By position (`None` for an empty position).
    Positional(Option<Expr>),
    /// `.port(expr)` (`None` for `.port()`).
    Named(Ident, Option<Expr>),
    /// `.*` (SystemVerilog).
    Wildcard(Span),
}

/// One instance in a module instantiation.
#[derive(Clone, Debug)]
pub struct Instance {
    /// The instance name.
    pub name: Ident,
    /// Instance array range (unsupported; rejected during elaboration).
    pub array: Option<Range>,
    /// The connections.
    pub conns: Vec<Connection>,
    /// The instance's span.
    pub span: Span,
}

/// Built-in gate primitives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GateKind {
    /// `and`.
    And,
    /// `nand`.
    Nand,
    /// `or`.
    Or,
    /// `nor`.
    Nor,
    /// `xor`.
    Xor,
    /// `xnor`.
    Xnor,
    /// `not`.
    Not,
    /// `buf`.
    Buf,
}

impl GateKind {
    /// The gate for a keyword.
    pub fn from_word(w: &str) -> Option<GateKind> {
        Some(match w {
            "and" => GateKind::And,
            "nand" => GateKind::Nand,
            "or" => GateKind::Or,
            "nor" => GateKind::Nor,
            "xor" => GateKind::Xor,
            "xnor" => GateKind::Xnor,
            "not" => GateKind::Not,
            "buf" => GateKind::Buf,
            _ => return None,
        })
    }
}

/// One gate instance: `and g1 (out, a, b);`.
#[derive(Clone, Debug)]
pub struct Gate {
    /// The primitive.
    pub kind: GateKind,
    /// Terminals: outputs first (one for all but `not`/`buf`).
    pub terms: Vec<Expr>,
    /// The instance's span.
    pub span: Span,
}

/// An edge or level event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    /// `posedge`.
    Pos,
    /// `negedge`.
    Neg,
    /// Level (no edge keyword).
    Level,
}

/// The event control of an `always` block.
#[derive(Clone, Debug)]
pub enum Sensitivity {
    /// `@*` / `@(*)`.
    Star,
    /// `@(e1 or e2 …)`.
    List(Vec<(Edge, Expr)>),
    /// No event control at all.
    None,
}

/// A function or task argument / local declaration.
#[derive(Clone, Debug)]
pub struct FuncDecl {
    /// The name.
    pub name: Ident,
    /// `[range]` of the return value (functions).
    pub range: Option<Range>,
    /// `signed` return value.
    pub signed: bool,
    /// `function integer f`.
    pub integer: bool,
    /// Ports (inputs, outputs, inouts) and locals, in declaration order.
    pub decls: Vec<Decl>,
    /// Local parameters.
    pub params: Vec<ParamDecl>,
    /// The body.
    pub body: Stmt,
}

/// A generate `for` loop.
#[derive(Clone, Debug)]
pub struct GenFor {
    /// Loop variable and initial value.
    pub init: (Ident, Expr),
    /// Loop condition.
    pub cond: Expr,
    /// Loop variable and step value.
    pub step: (Ident, Expr),
    /// Block label.
    pub label: Option<Ident>,
    /// Body items.
    pub items: Vec<Item>,
    /// The whole loop.
    pub span: Span,
}

/// A generate block: label and items.
#[derive(Clone, Debug)]
pub struct GenBlock {
    /// Block label.
    pub label: Option<Ident>,
    /// Items.
    pub items: Vec<Item>,
    /// The block's span.
    pub span: Span,
}

/// A module item.
#[derive(Clone, Debug)]
pub enum Item {
    /// Port, net, variable or genvar declaration.
    Decl(Decl),
    /// `parameter` / `localparam`.
    Param(ParamDecl),
    /// `assign lhs = rhs;` (one per assignment).
    Assign {
        /// Left-hand side.
        lhs: Expr,
        /// Right-hand side.
        rhs: Expr,
        /// The assignment's span.
        span: Span,
    },
    /// `always …`.
    Always {
        /// Event control.
        sens: Sensitivity,
        /// Body.
        body: Stmt,
        /// The `always` keyword's span.
        span: Span,
    },
    /// `initial …`.
    Initial {
        /// Body.
        body: Stmt,
        /// The `initial` keyword's span.
        span: Span,
    },
    /// Module instantiation.
    Instances {
        /// The module name.
        module: Ident,
        /// Parameter overrides.
        params: Vec<ParamOverride>,
        /// The instances.
        insts: Vec<Instance>,
    },
    /// Gate primitive instances.
    Gate(Gate),
    /// `function … endfunction`.
    Function(FuncDecl),
    /// `task … endtask`.
    Task(FuncDecl),
    /// Generate `for`.
    GenFor(GenFor),
    /// Generate `if` (else branch optional).
    GenIf {
        /// Condition.
        cond: Expr,
        /// Then branch.
        then: GenBlock,
        /// Else branch.
        els: Option<GenBlock>,
    },
    /// Generate `case`.
    GenCase {
        /// The selector.
        expr: Expr,
        /// Items: labels (empty for `default`) and blocks.
        arms: Vec<(Vec<Expr>, GenBlock)>,
    },
    /// A plain generate block `begin : name … end`.
    GenBlock(GenBlock),
    /// A module-level `typedef enum`.
    Typedef(EnumTypedef),
    /// `assert property (expr);` (becomes a safety property).
    Assert {
        /// Label, if any.
        label: Option<Ident>,
        /// The condition.
        expr: Expr,
        /// The whole item.
        span: Span,
    },
    /// A construct parsed over and ignored (with a warning), e.g. `assume property`.
    Ignored {
        /// What it was.
        what: String,
        /// Where.
        span: Span,
    },
}

/// `case`, `casez` or `casex`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaseKind {
    /// `case`.
    Case,
    /// `casez` (`z`/`?` bits in items are wildcards).
    Casez,
    /// `casex` (`x`/`z`/`?` bits are wildcards).
    Casex,
}

/// A statement.
#[derive(Clone, Debug)]
pub enum Stmt {
    /// `;`.
    Null(Span),
    /// `begin [: label] … end`.
    Block {
        /// Label.
        label: Option<Ident>,
        /// Local declarations (named blocks).
        decls: Vec<Decl>,
        /// Local parameters.
        params: Vec<ParamDecl>,
        /// The statements.
        stmts: Vec<Stmt>,
        /// The block's span.
        span: Span,
    },
    /// `lhs = rhs;` or `lhs <= rhs;`.
    Assign {
        /// Non-blocking (`<=`).
        nonblocking: bool,
        /// Target.
        lhs: Expr,
        /// Value.
        rhs: Expr,
        /// The statement's span.
        span: Span,
    },
    /// `if (cond) then [else els]`.
    If {
        /// Condition.
        cond: Expr,
        /// Then branch.
        then: Box<Stmt>,
        /// Else branch.
        els: Option<Box<Stmt>>,
        /// The statement's span.
        span: Span,
    },
    /// `case (expr) … endcase`.
    Case {
        /// Which case.
        kind: CaseKind,
        /// Selector.
        expr: Expr,
        /// Items: labels and statements.
        arms: Vec<(Vec<Expr>, Stmt)>,
        /// `default:` statement.
        default: Option<Box<Stmt>>,
        /// The statement's span.
        span: Span,
    },
    /// `for (init; cond; step) body`.
    For {
        /// Initial assignment.
        init: Box<Stmt>,
        /// Condition.
        cond: Expr,
        /// Step assignment.
        step: Box<Stmt>,
        /// Body.
        body: Box<Stmt>,
        /// The statement's span.
        span: Span,
    },
    /// `while (cond) body` (unrolled like `for`).
    While {
        /// Condition.
        cond: Expr,
        /// Body.
        body: Box<Stmt>,
        /// The statement's span.
        span: Span,
    },
    /// `repeat (n) body`.
    Repeat {
        /// Count.
        count: Expr,
        /// Body.
        body: Box<Stmt>,
        /// The statement's span.
        span: Span,
    },
    /// A task enable `name(args);`.
    TaskCall {
        /// Task name.
        name: Ident,
        /// Arguments.
        args: Vec<Expr>,
        /// The statement's span.
        span: Span,
    },
    /// A system task `$display(…);` or an immediate assertion `assert (…) …;` (ignored with a
    /// warning).
    SysTask {
        /// Name with `$` (or `assert`, `assume`, `cover`).
        name: Ident,
        /// The arguments (empty positions left out; none kept for assertions).
        args: Vec<Expr>,
        /// The statement's span.
        span: Span,
    },
    /// A construct that parses but cannot be synthesised (`forever`, `wait`, `disable`,
    /// `force`, event controls inside statements …): rejected during elaboration if reached.
    Unsupported {
        /// What it is.
        what: String,
        /// Where.
        span: Span,
    },
}

impl Stmt {
    /// The statement's span.
    pub fn span(&self) -> Span {
        match self {
            Stmt::Null(s) => *s,
            Stmt::Block { span, .. }
            | Stmt::Assign { span, .. }
            | Stmt::If { span, .. }
            | Stmt::Case { span, .. }
            | Stmt::For { span, .. }
            | Stmt::While { span, .. }
            | Stmt::Repeat { span, .. }
            | Stmt::TaskCall { span, .. }
            | Stmt::SysTask { span, .. }
            | Stmt::Unsupported { span, .. } => *span,
        }
    }
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    /// `+`.
    Plus,
    /// `-`.
    Minus,
    /// `!`.
    LogNot,
    /// `~`.
    BitNot,
    /// `&`.
    RedAnd,
    /// `~&`.
    RedNand,
    /// `|`.
    RedOr,
    /// `~|`.
    RedNor,
    /// `^`.
    RedXor,
    /// `~^` / `^~`.
    RedXnor,
}

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/`.
    Div,
    /// `%`.
    Mod,
    /// `**`.
    Pow,
    /// `&`.
    And,
    /// `|`.
    Or,
    /// `^`.
    Xor,
    /// `~^` / `^~`.
    Xnor,
    /// `&&`.
    LogAnd,
    /// `||`.
    LogOr,
    /// `==` / `===`.
    Eq,
    /// `!=` / `!==`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// `<<` / `<<<`.
    Shl,
    /// `>>`.
    Shr,
    /// `>>>`.
    Ashr,
}

/// A literal number: value bits and the masks of `x` and `z` bits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Number {
    /// Width (`None` for unsized literals).
    pub width: Option<u32>,
    /// Signed literal (unsized decimals, or `'s` based ones).
    pub signed: bool,
    /// The 0/1 bits (x and z bits are 0 here).
    pub value: BigUint,
    /// Bits that are `x`.
    pub xmask: BigUint,
    /// Bits that are `z` or `?`.
    pub zmask: BigUint,
    /// Bits the literal itself spells (at least the digits given, or its width).
    pub natural: u32,
}

/// An expression.
#[derive(Clone, Debug)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Its source text.
    pub span: Span,
}

/// What an expression is.
#[derive(Clone, Debug)]
pub enum ExprKind {
    /// A literal.
    Number(Number),
    /// A string literal.
    Str(String),
    /// A (possibly hierarchical) name.
    Ident(Vec<Ident>),
    /// `base[index]`.
    Index(Box<Expr>, Box<Expr>),
    /// `base[msb:lsb]`.
    Range(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `base[start +: width]` (`up`) or `base[start -: width]`.
    IndexedRange {
        /// The vector.
        base: Box<Expr>,
        /// Start index.
        start: Box<Expr>,
        /// Constant width.
        width: Box<Expr>,
        /// `+:` (true) or `-:`.
        up: bool,
    },
    /// Unary operator.
    Unary(UnaryOp, Box<Expr>),
    /// Binary operator.
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `c ? a : b`.
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `{a, b, …}`.
    Concat(Vec<Expr>),
    /// `{n{a, b, …}}`.
    Repeat(Box<Expr>, Vec<Expr>),
    /// A function call `f(args)`.
    Call(Ident, Vec<Expr>),
    /// A system function call `$f(args)`.
    SysCall(Ident, Vec<Expr>),
}
