//! AIGER 1.9 reading and writing (`docs/formats.md` §9).
//!
//! Tokens and the binary delta coding are handled by the `flussab-aiger` crate; this module
//! converts between its representation and our [`Aig`], checks the structure
//! (undefined and doubly defined literals, cycles), sorts ASCII AND gates topologically and
//! parses the header line and the symbol table itself, working around two bugs of
//! `flussab-aiger` 0.1.1: it bounds the counts B, C, J, F by `M − I − L` (rejecting e.g.
//! `cnt1.aag`), and bounds `b`/`c`/`j`/`f` symbol indices by the latch count (rejecting valid
//! files, and panicking in debug builds on files without latches).
//!
//! Justice and fairness symbols are checked but dropped: [`Aig`] has no names for
//! them, so files with such symbols are not reproduced byte for byte.
//!
//! * [`read_aiger`] accepts `aag` and `aig`, 5- and 9-field headers, latch resets 0, 1 and
//!   "own literal" (uninitialised, [`Reset::Free`](crate::Reset::Free)); general resets are
//!   rejected. The file's AND gates are kept as they are (no folding, no hashing), so reading
//!   and writing is an identity on canonical binary files.
//! * [`write_aiger`] / [`write_aiger_with`] write canonical files: inputs, latches, then the
//!   AND gates in topological order, `M = I + L + A`, symbols for named objects, the comment
//!   section and a final newline. [`WriteOptions::legacy`] writes the old 5-field format for
//!   tools without 1.9 support (see [`legacy_aig`]).

mod header;
mod legacy;
mod properties;
mod read;
mod trailer;
mod write;

pub use legacy::{legacy_aig, LEGACY_CONSTRAINT_LATCH};
pub use properties::{safety_properties, single_property, PropertyError};
pub use read::read_aiger;
pub use write::{write_aiger, write_aiger_with, AigerFormat, WriteOptions};

#[cfg(test)]
mod corpus_tests;
#[cfg(test)]
mod malformed_tests;
#[cfg(test)]
mod oracle_tests;
#[cfg(test)]
pub(crate) mod test_support;
