//! Values written in tests (`Value::display`, or a plain number for nd selectors) read back.

use hypermut_ir::{EnumType, Type, Value};

/// Reads `text` as a value of type `ty`: `TRUE`/`FALSE`; an integer of the range; an
/// enumeration literal (or `#k`); a bit-vector as `0ud<w>_<n>`, `0sd<w>_<n>` or a plain
/// decimal number (taken modulo `2^w`). `None` if the text is no value of the type.
pub fn parse_value(text: &str, ty: Type, enums: &[EnumType]) -> Option<Value> {
    let t = text.trim();
    match ty {
        Type::Bool => match t {
            "TRUE" | "true" | "1" => Some(Value::Bool(true)),
            "FALSE" | "false" | "0" => Some(Value::Bool(false)),
            _ => None,
        },
        Type::Int { lo, hi } => {
            let v: i64 = t.parse().ok()?;
            (lo <= v && v <= hi).then_some(Value::Int(v))
        }
        Type::Enum(id) => {
            let values = &enums.get(id.0 as usize)?.values;
            let k = match t.strip_prefix('#') {
                Some(num) => num.parse::<u32>().ok()?,
                None => values.iter().position(|v| v == t)? as u32,
            };
            ((k as usize) < values.len()).then_some(Value::Enum(k))
        }
        Type::BitVec { width, .. } => {
            let number = match t.split_once('_') {
                Some((prefix, n)) => {
                    let w = prefix
                        .strip_prefix("0ud")
                        .or_else(|| prefix.strip_prefix("0sd"))?;
                    if w.parse::<u32>().ok()? != width {
                        return None;
                    }
                    n
                }
                None => t,
            };
            let (negative, digits) = match number.strip_prefix('-') {
                Some(d) => (true, d),
                None => (false, number),
            };
            let mut bits = decimal_bits(digits, width)?;
            if negative {
                twos_complement(&mut bits);
            }
            Some(Value::from_storage_bits(ty, &bits))
        }
    }
}

/// The lowest `width` bits (LSB first) of a decimal number of any length.
fn decimal_bits(digits: &str, width: u32) -> Option<Vec<bool>> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut num: Vec<u8> = digits.bytes().map(|b| b - b'0').collect();
    let mut bits = Vec::with_capacity(width as usize);
    while bits.len() < width as usize {
        let mut rem = 0u8;
        for d in num.iter_mut() {
            let cur = rem * 10 + *d;
            *d = cur / 2;
            rem = cur % 2;
        }
        bits.push(rem == 1);
    }
    Some(bits)
}

/// Negates a bit pattern (LSB first) modulo `2^len`.
fn twos_complement(bits: &mut [bool]) {
    let mut carry = true;
    for b in bits.iter_mut() {
        let inv = !*b;
        *b = inv ^ carry;
        carry = inv && carry;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hypermut_ir::EnumId;

    #[test]
    fn reads_back_what_display_writes() {
        let enums = vec![EnumType {
            name: "e".into(),
            values: vec!["idle".into(), "busy".into()],
        }];
        let cases = [
            (Type::Bool, Value::Bool(true)),
            (Type::Bool, Value::Bool(false)),
            (Type::Int { lo: -3, hi: 9 }, Value::Int(-2)),
            (Type::Enum(EnumId(0)), Value::Enum(1)),
            (Type::ubv(4), Value::bits(4, 13u32)),
            (Type::sbv(4), Value::bits(4, 14u32)),
            (Type::ubv(100), Value::bits(100, u64::MAX)),
        ];
        for (ty, v) in cases {
            let shown = v.display(ty, &enums);
            assert_eq!(parse_value(&shown, ty, &enums), Some(v), "{shown}");
        }
    }

    #[test]
    fn plain_numbers_and_rejections() {
        assert_eq!(
            parse_value("5", Type::ubv(3), &[]),
            Some(Value::bits(3, 5u32))
        );
        assert_eq!(
            parse_value("9", Type::ubv(3), &[]),
            Some(Value::bits(3, 1u32))
        );
        assert_eq!(
            parse_value("-1", Type::sbv(8), &[]),
            Some(Value::bits(8, 255u32))
        );
        assert_eq!(parse_value("0ud4_3", Type::ubv(3), &[]), None);
        assert_eq!(parse_value("x", Type::ubv(3), &[]), None);
        assert_eq!(parse_value("10", Type::Int { lo: 0, hi: 9 }, &[]), None);
        assert_eq!(parse_value("maybe", Type::Bool, &[]), None);
        assert_eq!(parse_value("#2", Type::Enum(EnumId(0)), &[]), None);
    }
}
