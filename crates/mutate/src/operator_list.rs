//! Reading a comma-separated list of operator names, as given on the command line.

use crate::error::MutateError;
use crate::operators::Operator;

impl Operator {
    /// Parses a comma-separated list of operator names (`ror,aor`; `all` = every operator),
    /// keeping the order of [`Operator::ALL`] and dropping repetitions.
    pub fn parse_list(list: &str) -> Result<Vec<Operator>, MutateError> {
        let mut chosen = Vec::new();
        for part in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            if part.eq_ignore_ascii_case("all") {
                chosen.extend(Operator::ALL);
                continue;
            }
            chosen.push(
                Operator::from_name(part)
                    .ok_or_else(|| MutateError::UnknownOperator(part.to_string()))?,
            );
        }
        if chosen.is_empty() {
            return Err(MutateError::UnknownOperator(list.to_string()));
        }
        chosen.sort();
        chosen.dedup();
        Ok(chosen)
    }
}
