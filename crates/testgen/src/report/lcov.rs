//! The mutation coverage of a run as an lcov tracefile, the text format `geninfo` writes and
//! `genhtml` reads (`docs/formats.md` §13.3): a line holding mutants is covered when none of
//! them survives, and each mutant is one branch of its line.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::place::{Placed, Status};

/// The tracefile of `placed` under the test name `test` (made of letters, digits and `_`
/// here, as lcov wants test names). One record per file with a path on disk ([`super::place::ShownFile::path`]),
/// in the order of the files; mutants in other files (a preprocessor's output, a Verilog
/// macro's text) have no place in it.
pub fn tracefile(test: &str, placed: &Placed) -> String {
    let name: String = test
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let mut t = format!("TN:{name}\n");
    for (k, file) in placed.files.iter().enumerate() {
        let Some(path) = &file.path else {
            continue;
        };
        // line → (mutant id, status), by line and then id.
        let mut lines: BTreeMap<usize, Vec<(usize, Status)>> = BTreeMap::new();
        for m in placed.marks.iter().filter(|m| m.file == k) {
            lines.entry(m.line).or_default().push((m.id, m.status));
        }
        let _ = writeln!(t, "SF:{}", path.display());
        let (mut brf, mut brh) = (0, 0);
        for (line, mutants) in &mut lines {
            mutants.sort_unstable();
            for (id, status) in mutants.iter() {
                let taken = match status {
                    s if s.killed() => "1",
                    Status::Survived => "0",
                    _ => "-",
                };
                let _ = writeln!(t, "BRDA:{line},0,{id},{taken}");
                brf += 1;
                brh += usize::from(taken == "1");
            }
        }
        let _ = writeln!(t, "BRF:{brf}\nBRH:{brh}");
        let (mut lf, mut lh) = (0, 0);
        for (line, mutants) in &lines {
            let Some(count) = line_count(mutants.iter().map(|(_, s)| *s)) else {
                continue;
            };
            let _ = writeln!(t, "DA:{line},{count}");
            lf += 1;
            lh += usize::from(count > 0);
        }
        let _ = writeln!(t, "LH:{lh}\nLF:{lf}\nend_of_record");
    }
    t
}

/// The execution count of a line holding mutants of these statuses: `None` (no `DA` line)
/// when there is nothing to kill there (every mutant equivalent or invalid), 0 when one
/// survives, else the number of killed mutants.
pub fn line_count(statuses: impl IntoIterator<Item = Status>) -> Option<usize> {
    let mut killed = 0;
    let mut survived = false;
    for s in statuses {
        killed += usize::from(s.killed());
        survived |= s == Status::Survived;
    }
    match (survived, killed) {
        (true, _) => Some(0),
        (false, 0) => None,
        (false, n) => Some(n),
    }
}

#[cfg(test)]
mod tests {
    use super::super::place::{Mark, ShownFile};
    use super::*;
    use std::path::PathBuf;

    fn mark(id: usize, file: usize, line: usize, status: Status) -> Mark {
        Mark {
            id,
            file,
            start: 0,
            end: 1,
            line,
            column: 1,
            status,
        }
    }

    fn file(name: &str, on_disk: bool) -> ShownFile {
        ShownFile {
            name: name.into(),
            text: "x\n".repeat(10),
            preprocessed: false,
            path: on_disk.then(|| PathBuf::from(format!("/src/{name}"))),
        }
    }

    #[test]
    fn counts_per_line_and_branches_per_mutant() {
        use Status::*;
        let placed = Placed {
            files: vec![file("a.smv", true), file("<define W>", false)],
            marks: vec![
                // Line 3: two kills → covered twice.
                mark(4, 0, 3, Definite),
                mark(2, 0, 3, Controlled),
                // Line 5: a kill and a survivor → not covered.
                mark(7, 0, 5, Potential),
                mark(6, 0, 5, Survived),
                // Line 6: a kill and an equivalent mutant → covered once.
                mark(8, 0, 6, Unclassified),
                mark(9, 0, 6, Equivalent),
                // Line 8: nothing to kill → a branch, but no line count.
                mark(10, 0, 8, Invalid),
                mark(11, 0, 8, Equivalent),
                // A mutant in a macro's text: not in the tracefile.
                mark(12, 1, 1, Survived),
            ],
        };
        let got = tracefile("hypermut beverage.smv", &placed);
        let want = "TN:hypermut_beverage_smv\n\
                    SF:/src/a.smv\n\
                    BRDA:3,0,2,1\nBRDA:3,0,4,1\n\
                    BRDA:5,0,6,0\nBRDA:5,0,7,1\n\
                    BRDA:6,0,8,1\nBRDA:6,0,9,-\n\
                    BRDA:8,0,10,-\nBRDA:8,0,11,-\n\
                    BRF:8\nBRH:4\n\
                    DA:3,2\nDA:5,0\nDA:6,1\n\
                    LH:2\nLF:3\n\
                    end_of_record\n";
        assert_eq!(got, want);
    }

    #[test]
    fn line_counts_from_random_statuses() {
        let mut rng = hypermut_mutate::SplitMix64::new(5);
        for _ in 0..500 {
            let n = (rng.next() % 5) as usize;
            let statuses: Vec<Status> = (0..n)
                .map(|_| Status::ALL[rng.next() as usize % Status::ALL.len()])
                .collect();
            let kills = statuses
                .iter()
                .filter(|s| {
                    matches!(
                        s,
                        Status::Definite
                            | Status::Potential
                            | Status::Controlled
                            | Status::Unclassified
                    )
                })
                .count();
            let survivors = statuses.contains(&Status::Survived);
            let want = if survivors {
                Some(0)
            } else if kills == 0 {
                None
            } else {
                Some(kills)
            };
            assert_eq!(line_count(statuses.iter().copied()), want, "{statuses:?}");
        }
    }

    #[test]
    fn a_file_without_mutants_has_an_empty_record() {
        let placed = Placed {
            files: vec![file("b.v", true)],
            marks: vec![],
        };
        assert_eq!(
            tracefile("t", &placed),
            "TN:t\nSF:/src/b.v\nBRF:0\nBRH:0\nLH:0\nLF:0\nend_of_record\n"
        );
    }
}
