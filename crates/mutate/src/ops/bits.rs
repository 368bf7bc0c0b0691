//! Bit-index off-by-one (`bio`): a constant bit select `v[i]` or part select `v[h:l]` moved
//! one bit down or up, where the moved select stays inside the vector.

use hypermut_ir::{ExprId, ExprKind, Span, VarId};

use super::ctx::Ctx;
use crate::edit::Edit;
use crate::operators::Operator;
use crate::syntax::Syntax;
use crate::text::parse_int;

/// The select of a text ending in `[h:l]` or `[i]`: byte offset of `[` and the indices.
fn parse_select(text: &str) -> Option<(usize, i64, Option<i64>)> {
    let t = text.trim_end();
    let body = t.strip_suffix(']')?;
    let open = body.rfind('[')?;
    let inner = &body[open + 1..];
    match inner.split_once(':') {
        Some((h, l)) => Some((open, parse_int(h)?, Some(parse_int(l)?))),
        None => Some((open, parse_int(inner)?, None)),
    }
}

/// Whether a text is a constant bit or part select `v[i]` / `v[h:l]`.
pub(crate) fn is_select(text: &str) -> bool {
    parse_select(text).is_some()
}

/// The least significant index of a Verilog vector declared `[msb:lsb]` with `msb >= lsb`
/// (found in the declaration text before the variable's name); `None` for ascending or
/// unknown ranges.
fn verilog_lsb(cx: &Ctx, v: VarId) -> Option<i64> {
    let decl: Span = cx.sys.var(v).span?;
    let file = cx.file_text(decl);
    let mut before = file.get(..decl.start as usize)?.trim_end();
    // Skip earlier names of the same declaration: `[7:0] a, b, c`.
    while let Some(rest) = before.strip_suffix(',') {
        let rest = rest.trim_end();
        let cut = rest
            .char_indices()
            .rev()
            .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '$'))
            .map_or(0, |(k, c)| k + c.len_utf8());
        if cut == rest.len() {
            return None;
        }
        before = rest[..cut].trim_end();
    }
    let body = before.strip_suffix(']')?;
    let open = body.rfind('[')?;
    let (msb, lsb) = body[open + 1..].split_once(':')?;
    let (msb, lsb) = (parse_int(msb)?, parse_int(lsb)?);
    (msb >= lsb).then_some(lsb)
}

/// `bio` on node `id`.
pub(crate) fn visit(cx: &mut Ctx, id: ExprId) {
    if !cx.wants(Operator::Bio) {
        return;
    }
    let (Some(span), ExprKind::Extract { arg, hi, lo }) = (cx.span(id), cx.node(id).kind.clone())
    else {
        return;
    };
    let Some(width) = cx.ty(arg).bv_width() else {
        return;
    };
    let text = cx.text(span);
    let Some((open, th, tl)) = parse_select(text) else {
        return;
    };
    // Offset between written indices and bit positions.
    let offset = match cx.syntax(span) {
        Syntax::Smv => 0,
        Syntax::Verilog => {
            let ExprKind::Var(v) = cx.node(arg).kind else {
                return;
            };
            let Some(lsb) = verilog_lsb(cx, v) else {
                return;
            };
            lsb
        }
    };
    let tl_or_h = tl.unwrap_or(th);
    if th - offset != i64::from(hi) || tl_or_h - offset != i64::from(lo) {
        return;
    }
    for d in [-1i64, 1] {
        let (nh, nl) = (i64::from(hi) + d, i64::from(lo) + d);
        if nl < 0 || nh >= i64::from(width) {
            continue;
        }
        let sel = match tl {
            Some(l) => format!("[{}:{}]", th + d, l + d),
            None => format!("[{}]", th + d),
        };
        let replacement = format!("{}{sel}", &text[..open]);
        let edit = Edit::Extract {
            hi: nh as u32,
            lo: nl as u32,
        };
        cx.propose(Operator::Bio, id, span, replacement, edit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selects_parse() {
        assert_eq!(parse_select("w[3:0]"), Some((1, 3, Some(0))));
        assert_eq!(parse_select("d[ 2 ]"), Some((1, 2, None)));
        assert_eq!(parse_select("m[i]"), None);
        assert_eq!(parse_select("d + 1"), None);
    }
}
