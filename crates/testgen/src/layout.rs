//! Where a run's files live inside its results directory (`docs/formats.md` §1.1): the
//! names of a mutant's test, witness and certificate, relative to the directory.

use crate::record::MutantRecord;

/// The test file of mutant `id`, relative to the results directory.
pub fn test_file(id: usize) -> String {
    format!("tests/mutant-{id}.json")
}

/// The witness file of mutant `id`, relative to the results directory.
pub fn witness_file(id: usize) -> String {
    format!("witnesses/mutant-{id}.wit")
}

/// The certificate file of mutant `id`, relative to the results directory.
pub fn certificate_file(id: usize) -> String {
    format!("certificates/mutant-{id}.aig")
}

/// Files a record refers to, relative to its results directory (the witness may be absent).
pub fn record_files(r: &MutantRecord) -> Vec<String> {
    let mut files: Vec<String> = r.test.iter().chain(r.certificate.iter()).cloned().collect();
    files.push(witness_file(r.id));
    files
}
