//! Expressions, by Verilog precedence (lowest first):
//! `?:` (right) · `||` · `&&` · `|` · `^ ~^ ^~` · `&` · `== != === !==` · `< <= > >=` ·
//! `<< >> <<< >>>` · `+ -` · `* / %` · `**` · unary operators · primaries.

use num_bigint::BigUint;
use num_traits::{One, Zero};

use crate::ast::{BinaryOp, Expr, ExprKind, Ident, Number, UnaryOp};
use crate::error::{DResult, Diag};
use crate::lexer::{Based, Tok};

use super::{join, Parser};

/// Widest literal accepted, in bits.
pub const MAX_LITERAL_WIDTH: u32 = 1 << 16;

/// Operators of one binary precedence level.
type Level = &'static [(&'static str, BinaryOp)];

/// The binary levels from lowest to highest precedence (below `?:`).
const LEVELS: &[Level] = &[
    &[("||", BinaryOp::LogOr)],
    &[("&&", BinaryOp::LogAnd)],
    &[("|", BinaryOp::Or)],
    &[
        ("^", BinaryOp::Xor),
        ("~^", BinaryOp::Xnor),
        ("^~", BinaryOp::Xnor),
    ],
    &[("&", BinaryOp::And)],
    &[
        ("==", BinaryOp::Eq),
        ("!=", BinaryOp::Ne),
        ("===", BinaryOp::Eq),
        ("!==", BinaryOp::Ne),
    ],
    &[
        ("<", BinaryOp::Lt),
        ("<=", BinaryOp::Le),
        (">", BinaryOp::Gt),
        (">=", BinaryOp::Ge),
    ],
    &[
        ("<<", BinaryOp::Shl),
        (">>", BinaryOp::Shr),
        ("<<<", BinaryOp::Shl),
        (">>>", BinaryOp::Ashr),
    ],
    &[("+", BinaryOp::Add), ("-", BinaryOp::Sub)],
    &[
        ("*", BinaryOp::Mul),
        ("/", BinaryOp::Div),
        ("%", BinaryOp::Mod),
    ],
    &[("**", BinaryOp::Pow)],
];

/// Unary operator tokens.
const UNARY: &[(&str, UnaryOp)] = &[
    ("+", UnaryOp::Plus),
    ("-", UnaryOp::Minus),
    ("!", UnaryOp::LogNot),
    ("~", UnaryOp::BitNot),
    ("&", UnaryOp::RedAnd),
    ("~&", UnaryOp::RedNand),
    ("|", UnaryOp::RedOr),
    ("~|", UnaryOp::RedNor),
    ("^", UnaryOp::RedXor),
    ("~^", UnaryOp::RedXnor),
    ("^~", UnaryOp::RedXnor),
];

impl Parser<'_> {
    /// A full expression.
    pub(crate) fn expr(&mut self) -> DResult<Expr> {
        self.nested(|p| {
            let cond = p.binary(0)?;
            if p.eat_sym("?").is_none() {
                return Ok(cond);
            }
            let then = p.expr()?;
            p.expect_sym(":")?;
            let els = p.expr()?;
            let span = join(cond.span, els.span);
            Ok(Expr {
                kind: ExprKind::Cond(Box::new(cond), Box::new(then), Box::new(els)),
                span,
            })
        })
    }

    /// Binary operators of `LEVELS[level..]`, left associative.
    fn binary(&mut self, level: usize) -> DResult<Expr> {
        let Some(ops) = LEVELS.get(level) else {
            return self.unary();
        };
        let mut lhs = self.binary(level + 1)?;
        loop {
            let t = self.peek();
            let Some((_, op)) = ops.iter().find(|(s, _)| t.is_sym(s)) else {
                return Ok(lhs);
            };
            self.bump();
            let rhs = self.nested(|p| p.binary(level + 1))?;
            let span = join(lhs.span, rhs.span);
            lhs = Expr {
                kind: ExprKind::Binary(*op, Box::new(lhs), Box::new(rhs)),
                span,
            };
        }
    }

    /// Unary operators, then a primary.
    fn unary(&mut self) -> DResult<Expr> {
        let t = self.peek();
        if let Some((_, op)) = UNARY.iter().find(|(s, _)| t.is_sym(s)) {
            self.bump();
            let arg = self.nested(|p| p.unary())?;
            let span = join(t.span, arg.span);
            return Ok(Expr {
                kind: ExprKind::Unary(*op, Box::new(arg)),
                span,
            });
        }
        self.primary()
    }

    /// A primary expression with its selects.
    pub(crate) fn primary(&mut self) -> DResult<Expr> {
        let t = self.peek();
        let base = match &t.tok {
            Tok::Number(digits) => {
                self.bump();
                if let Tok::Based(b) = &self.peek().tok {
                    let bt = self.bump();
                    let size = parse_size(digits).ok_or_else(|| {
                        Diag::new(t.span, format!("literal size `{digits}` is out of range"))
                    })?;
                    let span = join(t.span, bt.span);
                    let n = based_number(Some(size), b).map_err(|m| Diag::new(span, m))?;
                    Expr {
                        kind: ExprKind::Number(n),
                        span,
                    }
                } else {
                    let n = decimal_number(digits).map_err(|m| Diag::new(t.span, m))?;
                    Expr {
                        kind: ExprKind::Number(n),
                        span: t.span,
                    }
                }
            }
            Tok::Based(b) => {
                self.bump();
                let n = based_number(None, b).map_err(|m| Diag::new(t.span, m))?;
                Expr {
                    kind: ExprKind::Number(n),
                    span: t.span,
                }
            }
            Tok::Real(_) => {
                return Err(Diag::new(t.span, "real numbers are not supported"));
            }
            Tok::Str(s) => {
                self.bump();
                Expr {
                    kind: ExprKind::Str(s.clone()),
                    span: t.span,
                }
            }
            Tok::Sym("(") => {
                self.bump();
                let inner = self.expr()?;
                if self.peek().is_sym(":") {
                    return Err(Diag::new(
                        self.peek().span,
                        "min:typ:max expressions are not supported",
                    ));
                }
                let close = self.expect_sym(")")?;
                Expr {
                    kind: inner.kind,
                    span: join(t.span, close),
                }
            }
            Tok::Sym("{") => self.concat()?,
            Tok::System(name) => {
                self.bump();
                let id = Ident {
                    name: name.clone(),
                    span: t.span,
                };
                let mut args = Vec::new();
                let mut span = t.span;
                if self.eat_sym("(").is_some() {
                    if self.eat_sym(")").is_none() {
                        loop {
                            args.push(self.expr()?);
                            if self.eat_sym(",").is_none() {
                                break;
                            }
                        }
                        self.expect_sym(")")?;
                    }
                    span = join(t.span, self.prev_span());
                }
                Expr {
                    kind: ExprKind::SysCall(id, args),
                    span,
                }
            }
            Tok::Ident(_) | Tok::Escaped(_) if self.at_ident() => {
                let first = self.ident()?;
                if self.peek().is_sym("(") {
                    self.bump();
                    let mut args = Vec::new();
                    if self.eat_sym(")").is_none() {
                        loop {
                            args.push(self.expr()?);
                            if self.eat_sym(",").is_none() {
                                break;
                            }
                        }
                        self.expect_sym(")")?;
                    }
                    let span = join(first.span, self.prev_span());
                    return Ok(Expr {
                        kind: ExprKind::Call(first, args),
                        span,
                    });
                }
                let mut path = vec![first];
                while self.peek().is_sym(".")
                    && matches!(self.peek_at(1).tok, Tok::Ident(_) | Tok::Escaped(_))
                {
                    self.bump();
                    path.push(self.ident()?);
                }
                let span = join(path[0].span, path[path.len() - 1].span);
                Expr {
                    kind: ExprKind::Ident(path),
                    span,
                }
            }
            _ => return Err(self.unexpected("an expression")),
        };
        self.selects(base)
    }

    /// `[i]`, `[m:l]`, `[s+:w]`, `[s-:w]` after a primary.
    fn selects(&mut self, mut base: Expr) -> DResult<Expr> {
        while self.peek().is_sym("[") {
            self.bump();
            let first = self.expr()?;
            let kind = if self.eat_sym(":").is_some() {
                let lsb = self.expr()?;
                ExprKind::Range(Box::new(base), Box::new(first), Box::new(lsb))
            } else if self.eat_sym("+:").is_some() || self.peek_at(0).is_sym("-:") {
                let up = !self.peek().is_sym("-:");
                if !up {
                    self.bump();
                }
                let width = self.expr()?;
                ExprKind::IndexedRange {
                    base: Box::new(base),
                    start: Box::new(first),
                    width: Box::new(width),
                    up,
                }
            } else {
                ExprKind::Index(Box::new(base), Box::new(first))
            };
            let close = self.expect_sym("]")?;
            let start = match &kind {
                ExprKind::Range(b, ..) | ExprKind::Index(b, _) => b.span,
                ExprKind::IndexedRange { base, .. } => base.span,
                _ => close,
            };
            base = Expr {
                kind,
                span: join(start, close),
            };
        }
        Ok(base)
    }

    /// `{a, b}` or `{n{a, b}}`.
    fn concat(&mut self) -> DResult<Expr> {
        let open = self.expect_sym("{")?;
        let first = self.expr()?;
        if self.peek().is_sym("{") {
            self.bump();
            let mut items = vec![self.expr()?];
            while self.eat_sym(",").is_some() {
                items.push(self.expr()?);
            }
            self.expect_sym("}")?;
            let close = self.expect_sym("}")?;
            return Ok(Expr {
                kind: ExprKind::Repeat(Box::new(first), items),
                span: join(open, close),
            });
        }
        let mut items = vec![first];
        while self.eat_sym(",").is_some() {
            items.push(self.expr()?);
        }
        let close = self.expect_sym("}")?;
        Ok(Expr {
            kind: ExprKind::Concat(items),
            span: join(open, close),
        })
    }
}

/// The size before a based literal.
fn parse_size(digits: &str) -> Option<u32> {
    digits
        .parse::<u32>()
        .ok()
        .filter(|w| *w >= 1 && *w <= MAX_LITERAL_WIDTH)
}

/// An unsized decimal literal: 32-bit signed (wider if the value needs it).
pub(crate) fn decimal_number(digits: &str) -> Result<Number, String> {
    let value = BigUint::parse_bytes(digits.as_bytes(), 10)
        .ok_or_else(|| format!("invalid number `{digits}`"))?;
    let bits = value.bits() as u32;
    if bits > MAX_LITERAL_WIDTH {
        return Err(format!("number `{digits}` is too large"));
    }
    Ok(Number {
        width: None,
        signed: true,
        natural: bits.max(32),
        value,
        xmask: BigUint::zero(),
        zmask: BigUint::zero(),
    })
}

/// A based literal with an optional size.
pub(crate) fn based_number(size: Option<u32>, b: &Based) -> Result<Number, String> {
    let mut value = BigUint::zero();
    let mut xmask = BigUint::zero();
    let mut zmask = BigUint::zero();
    let digit_bits = match b.base {
        2 => 1,
        8 => 3,
        16 => 4,
        _ => 0,
    };
    let natural;
    // Whether the leftmost digit is x or z (it then pads the literal).
    let mut pad_x = false;
    let mut pad_z = false;
    if digit_bits == 0 {
        match b.digits.as_str() {
            "x" => pad_x = true,
            "z" | "?" => pad_z = true,
            d => {
                value = BigUint::parse_bytes(d.as_bytes(), 10)
                    .ok_or_else(|| format!("invalid decimal digits `{d}`"))?;
            }
        }
        natural = (value.bits() as u32).max(1);
    } else {
        let n = b.digits.len() as u64 * digit_bits as u64;
        if n > MAX_LITERAL_WIDTH as u64 * 4 {
            return Err("literal is too long".into());
        }
        natural = n as u32;
        let all = (BigUint::one() << digit_bits) - BigUint::one();
        for (k, c) in b.digits.chars().enumerate() {
            let shift = (b.digits.len() - 1 - k) as u32 * digit_bits;
            match c {
                'x' => {
                    xmask |= &all << shift;
                    if k == 0 {
                        pad_x = true;
                    }
                }
                'z' | '?' => {
                    zmask |= &all << shift;
                    if k == 0 {
                        pad_z = true;
                    }
                }
                c => {
                    let d = c.to_digit(b.base).unwrap_or(0);
                    value |= BigUint::from(d) << shift;
                }
            }
        }
    }
    let width = match size {
        Some(w) => w,
        None => natural.max(32),
    };
    if width > MAX_LITERAL_WIDTH {
        return Err("literal is too wide".into());
    }
    let mask = (BigUint::one() << width) - BigUint::one();
    if width > natural {
        let pad = &mask ^ ((BigUint::one() << natural) - BigUint::one());
        if pad_x {
            xmask |= &pad;
        }
        if pad_z {
            zmask |= &pad;
        }
    }
    if digit_bits == 0 && (pad_x || pad_z) {
        if pad_x {
            xmask = mask.clone();
        } else {
            zmask = mask.clone();
        }
    }
    Ok(Number {
        width: size,
        signed: b.signed,
        value: value & &mask,
        xmask: xmask & &mask,
        zmask: zmask & &mask,
        natural: width,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn based(size: Option<u32>, base: u32, digits: &str) -> Number {
        based_number(
            size,
            &Based {
                signed: false,
                base,
                digits: digits.into(),
            },
        )
        .unwrap()
    }

    #[test]
    fn based_literals_pad_and_truncate() {
        let n = based(Some(8), 16, "f");
        assert_eq!(n.value, BigUint::from(15u32));
        let n = based(Some(8), 2, "x1");
        assert_eq!(n.xmask, BigUint::from(0xfeu32));
        assert_eq!(n.value, BigUint::from(1u32));
        let n = based(Some(4), 16, "ff");
        assert_eq!(n.value, BigUint::from(15u32));
        let n = based(None, 2, "1");
        assert_eq!(n.natural, 32);
        let n = based(Some(4), 10, "z");
        assert_eq!(n.zmask, BigUint::from(15u32));
        let n = based(Some(3), 8, "7");
        assert_eq!(n.value, BigUint::from(7u32));
    }

    #[test]
    fn decimal_literals_are_signed_32_bit() {
        let n = decimal_number("5").unwrap();
        assert!(n.signed);
        assert_eq!(n.natural, 32);
        let big = decimal_number("12345678901234567890").unwrap();
        assert_eq!(big.natural, 64);
    }
}
