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

/// The waveform (VCD) of mutant `id`'s test, relative to the results directory
/// (`docs/formats.md` §2.6).
pub fn waveform_file(id: usize) -> String {
    format!("waveforms/mutant-{id}.vcd")
}

/// The certificate file of mutant `id`, relative to the results directory.
pub fn certificate_file(id: usize) -> String {
    format!("certificates/mutant-{id}.aig")
}

/// Files a record refers to, relative to its results directory (the witness and the
/// waveform may be absent).
pub fn record_files(r: &MutantRecord) -> Vec<String> {
    let mut files: Vec<String> = r.test.iter().chain(r.certificate.iter()).cloned().collect();
    files.push(witness_file(r.id));
    if r.test.is_some() {
        files.push(waveform_file(r.id));
    }
    files
}

/// Whether a file [`record_files`] names may be absent (a witness or a waveform).
pub fn optional_file(rel: &str) -> bool {
    rel.starts_with("witnesses/") || rel.starts_with("waveforms/")
}
