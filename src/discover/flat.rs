//! The flat layout: one source file per student in the submissions folder
//! (`alice.py`), including a Canvas download's names
//! (`alice_12345_678901_solution.py`).

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::{Entry, Submission, Wanted, source_stem};

/// A flat file (`alice.py`) as an entry: a regular source file, its stem
/// the student.
pub(super) fn file_entry(
    name: String,
    path: PathBuf,
    regular: bool,
    wanted: &Wanted<'_>,
) -> Option<Entry> {
    let stem = source_stem(&name, wanted.extensions).filter(|_| regular)?;
    let mut sub = Submission::empty(stem);
    sub.file = Some(path);
    Some(Entry {
        stem: stem.to_owned(),
        name,
        sub,
    })
}

/// Whether `stem` (a flat file's name without its extension) is a Canvas
/// download's name for the wanted file: `alice_salbLLfunctions`,
/// `smithjohn_12345_678901_solution`, `alice_LATE_1_2_solution-1` (Canvas
/// numbers a resubmission). Returns the student, the part before the first
/// `_`.
fn canvas_student<'s>(stem: &'s str, wanted_stems: &[String]) -> Option<&'s str> {
    let (student, rest) = stem.split_once('_')?;
    let rest = rest.to_lowercase();
    let rest = match rest.rsplit_once('-') {
        Some((head, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => head,
        _ => rest.as_str(),
    };
    let named = wanted_stems
        .iter()
        .any(|w| rest == *w || rest.ends_with(&format!("_{w}")));
    (named && !student.is_empty()).then_some(student)
}

/// A Canvas-style flat download (`alice_salbLLfunctions.py`,
/// `alice_helpers.py`): the files named for the assignment are the
/// students' submissions, under the name before the first `_`, and a
/// student's other files are named on that student's row rather than
/// listed as students of their own with score 0.
pub(super) fn canvas_layout(entries: &mut Vec<Entry>, wanted: &Wanted<'_>) {
    let wanted_stems: Vec<String> = wanted
        .names
        .iter()
        .filter_map(|n| source_stem(n, wanted.extensions))
        .map(str::to_lowercase)
        .collect();
    let flat = |e: &Entry| e.sub.file.is_some() && e.stem != e.name;
    // Student (lower-cased) -> the entry name of their graded file.
    let mut students: BTreeMap<String, String> = BTreeMap::new();
    for e in entries.iter_mut().filter(|e| flat(e)) {
        if let Some(student) = canvas_student(&e.stem, &wanted_stems) {
            let student = student.to_owned();
            students.insert(student.to_lowercase(), e.name.clone());
            e.sub.student.clone_from(&student);
            e.stem = student;
        }
    }
    if students.is_empty() {
        return;
    }
    let mut extras: Vec<(String, String)> = Vec::new();
    entries.retain(|e| {
        let owner = e
            .stem
            .split_once('_')
            .and_then(|(s, _)| students.get(&s.to_lowercase()));
        match owner {
            Some(graded) if flat(e) => {
                extras.push((graded.clone(), e.name.clone()));
                false
            }
            _ => true,
        }
    });
    for (graded, extra) in extras {
        if let Some(e) = entries.iter_mut().find(|e| e.name == graded) {
            e.sub.warnings.push(format!(
                "`{extra}` was also submitted and is not graded: only `{graded}` is (a file it imports is not put beside it)"
            ));
        }
    }
}
