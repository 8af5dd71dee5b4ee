//! The flat layout: one file per student in the submissions folder
//! (`alice.py`), including a Canvas download's names.
//!
//! Canvas names each file of a download `NAME_[LATE_]USERID_FILEID_ORIGINAL`
//! (`smithjohn_50011_123456_min_throws.py`), where ORIGINAL is the name the
//! student uploaded, with `-N` before the extension when they submitted
//! more than once; a browser that saved the same file twice adds ` (N)`.
//! Every file so named belongs to the student `NAME_USERID`
//! (`smithjohn_50011`): the user id keeps two John Smiths apart and is the
//! key Canvas's gradebook import matches (`--csv-layout canvas`). Each such
//! student gets one row: the file named as the assignment asks (else their
//! one source file, with a warning); their other source files are its
//! siblings under the names they were uploaded as (the latest upload of
//! each name), given to the run as a folder's would be, and their other
//! files are named on the row; a
//! student who submitted no source file at all (a notebook, an archive,
//! `min_throws.py.txt`) gets a row with 0 and the reason naming the files.
//! An older form without ids (`alice_salbLLfunctions.py`) is read too, by
//! the part before the first `_`, when the rest is the assignment's name.
//!
//! Outside those names, a flat file is a student when it is a source file
//! (`alice.py`) or plainly a submission in another form (a notebook, a
//! source file of another language, `alice.py.txt`); other files (a
//! README, a spreadsheet, the download's own zip) are not students.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::siblings::Sibling;
use super::{Entry, Submission, Wanted, kinds, source_stem};

/// A flat regular file as an entry: a source file (graded, its stem the
/// student), a Canvas download's file of any kind, or a submission in
/// another form (a row with the reason); `None` for anything else.
pub(super) fn file_entry(
    name: String,
    path: PathBuf,
    regular: bool,
    wanted: &Wanted<'_>,
) -> Option<Entry> {
    if !regular {
        return None;
    }
    if let Some(stem) = source_stem(&name, wanted.extensions) {
        let mut sub = Submission::empty(stem);
        sub.file = Some(path);
        return Some(Entry {
            stem: stem.to_owned(),
            name,
            sub,
            flat: true,
        });
    }
    if CanvasName::of(&name).is_none() && !kinds::submission_like(&name, wanted) {
        return None;
    }
    let stem = kinds::without_extensions(&name, wanted.extensions);
    let mut sub = Submission::empty(stem);
    sub.problem = Some(kinds::submitted(&[name.as_str()], wanted));
    Some(Entry {
        stem: stem.to_owned(),
        name,
        sub,
        flat: true,
    })
}

/// A Canvas download's file name, split.
#[derive(Debug, Clone, PartialEq, Eq)]
struct CanvasName {
    /// `smithjohn_50011`: the student.
    student: String,
    /// Canvas's id of the file: a later upload has a larger one.
    file_id: u64,
    /// The name the student uploaded, without Canvas's `-N` or a browser's
    /// ` (N)`: `min_throws.py`.
    original: String,
}

impl CanvasName {
    fn of(name: &str) -> Option<CanvasName> {
        let (who, rest) = name.split_once('_')?;
        // Canvas writes `LATE_`; a renamed or re-zipped download may not keep the case.
        let rest = match rest.get(..5) {
            Some(late) if late.eq_ignore_ascii_case("late_") => &rest[5..],
            _ => rest,
        };
        let (user, rest) = rest.split_once('_')?;
        let (file, original) = rest.split_once('_')?;
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if who.is_empty() || !digits(user) || !digits(file) || original.is_empty() {
            return None;
        }
        Some(CanvasName {
            student: format!("{who}_{user}"),
            file_id: file.parse().ok()?,
            original: without_copy_number(original),
        })
    }
}

/// `min_throws-1.py` and `min_throws (2).py` as `min_throws.py`.
fn without_copy_number(name: &str) -> String {
    let (stem, ext) = match name.find('.') {
        Some(dot) if dot > 0 => name.split_at(dot),
        _ => (name, ""),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let stem = match stem.rsplit_once('-') {
        Some((head, n)) if !head.is_empty() && digits(n) => head,
        _ => match stem.strip_suffix(')').and_then(|s| s.rsplit_once(" (")) {
            Some((head, n)) if !head.is_empty() && digits(n) => head,
            _ => stem,
        },
    };
    format!("{stem}{ext}")
}

/// Whether `stem` (a flat file's name without its extensions) is an older
/// Canvas download's name for the wanted file: `alice_salbLLfunctions`,
/// `alice_LATE_solution-1`. Returns the student, the part before the
/// first `_`.
fn old_canvas_student<'s>(stem: &'s str, wanted_stems: &[String]) -> Option<&'s str> {
    let (student, rest) = stem.split_once('_')?;
    let rest = without_copy_number(&rest.to_lowercase());
    let named = wanted_stems
        .iter()
        .any(|w| rest == *w || rest.ends_with(&format!("_{w}")));
    (named && !student.is_empty()).then_some(student)
}

/// A Canvas-style flat download: each student's files gathered on one row
/// (see the module's documentation); then any other file whose student
/// already has a row is named on it rather than given a row of its own.
pub(super) fn canvas_layout(entries: &mut Vec<Entry>, wanted: &Wanted<'_>) {
    let mut groups: BTreeMap<String, Vec<(Entry, CanvasName)>> = BTreeMap::new();
    let mut rest = Vec::new();
    for e in entries.drain(..) {
        match CanvasName::of(&e.name).filter(|_| e.flat) {
            Some(c) => groups.entry(c.student.clone()).or_default().push((e, c)),
            None => rest.push(e),
        }
    }
    *entries = rest;
    for (student, files) in groups {
        entries.push(one_row(student, files, wanted));
    }
    older_canvas_names(entries, wanted);
    fold_other_forms(entries);
}

/// The one row of a Canvas download's student, from all their files.
fn one_row(student: String, mut files: Vec<(Entry, CanvasName)>, wanted: &Wanted<'_>) -> Entry {
    // The latest upload first, so it is graded when two carry the name.
    files.sort_by_key(|f| std::cmp::Reverse(f.1.file_id));
    let sources: Vec<usize> = (0..files.len())
        .filter(|&i| files[i].0.sub.file.is_some())
        .collect();
    let mut warnings = Vec::new();
    let Some(chosen) = chosen_upload(&files, &sources, wanted, &mut warnings) else {
        return nothing_graded(student, &files, &sources, wanted);
    };
    let graded = files[chosen].0.name.clone();
    let mut siblings: Vec<Sibling> = Vec::new();
    for (i, (e, c)) in files.iter().enumerate() {
        if i == chosen {
            continue;
        }
        let same = |other: &str| c.original.eq_ignore_ascii_case(other);
        if same(&files[chosen].1.original) {
            warnings.push(format!(
                "`{}` was also submitted under the same name and is not graded: only `{graded}`, the latest upload, is",
                e.name
            ));
        } else if let Some(given) = siblings.iter().find(|s| same(&s.name)) {
            warnings.push(format!(
                "`{}` was also submitted under the same name as `{}`, the latest upload, which is put beside `{graded}`",
                e.name,
                given.path.file_name().unwrap_or_default().to_string_lossy()
            ));
        } else if let Some(path) = e.sub.file.clone() {
            // The student's other source files (`helpers.py`), the latest
            // of each name first, go beside the graded one under the names
            // they were uploaded as, so `import helpers` works as it did
            // for the student; the engine decides which a run is given.
            siblings.push(Sibling {
                path,
                name: c.original.clone(),
            });
        } else {
            warnings.push(format!(
                "`{}` was also submitted and is not graded: only `{graded}` is",
                e.name
            ));
        }
    }
    let (mut entry, _) = files.swap_remove(chosen);
    entry.sub.student.clone_from(&student);
    entry.sub.siblings = siblings;
    entry.sub.warnings.extend(warnings);
    entry.stem = student;
    entry
}

/// Which of a student's uploads (`sources`: those that are source files)
/// is graded: the one named as wanted (exactly, then in any case), else
/// the only one, or the only one that defines the functions (warned of).
fn chosen_upload(
    files: &[(Entry, CanvasName)],
    sources: &[usize],
    wanted: &Wanted<'_>,
    warnings: &mut Vec<String>,
) -> Option<usize> {
    let named = |exact: bool| {
        wanted.names.iter().find_map(|w| {
            sources.iter().copied().find(|&i| {
                let o = &files[i].1.original;
                if exact {
                    o == w
                } else {
                    o.eq_ignore_ascii_case(w)
                }
            })
        })
    };
    named(true).or_else(|| named(false)).or_else(|| {
        let defining: Vec<usize> = if sources.len() == 1 {
            sources.to_vec()
        } else {
            sources
                .iter()
                .copied()
                .filter(|&i| {
                    files[i]
                        .0
                        .sub
                        .file
                        .as_ref()
                        .is_some_and(|p| kinds::defines(p, wanted))
                })
                .collect()
        };
        let [one] = defining.as_slice() else {
            return None;
        };
        warnings.push(format!(
            "graded `{}`: the file should be named {}",
            files[*one].0.name,
            wanted.named()
        ));
        Some(*one)
    })
}

/// The row of a student none of whose uploads can be graded, saying what
/// they submitted.
fn nothing_graded(
    student: String,
    files: &[(Entry, CanvasName)],
    sources: &[usize],
    wanted: &Wanted<'_>,
) -> Entry {
    let names: Vec<&str> = files.iter().map(|(e, _)| e.name.as_str()).collect();
    let mut sub = Submission::empty(&student);
    sub.problem = Some(if sources.is_empty() {
        kinds::submitted(&names, wanted)
    } else {
        format!(
            "submitted {} {} files ({}) and none is named {} or is the one that defines the functions; rename the one to grade",
            sources.len(),
            wanted.kinds,
            sources
                .iter()
                .map(|&i| format!("`{}`", files[i].0.name))
                .collect::<Vec<_>>()
                .join(", "),
            wanted.named()
        )
    });
    Entry {
        name: names.first().copied().unwrap_or_default().to_owned(),
        stem: student,
        sub,
        flat: true,
    }
}

/// The older Canvas names without ids (`alice_salbLLfunctions.py`): the
/// files named for the assignment are the students' (a source file before
/// any other form), under the name before the first `_`, and a student's
/// other files are named on that student's row.
fn older_canvas_names(entries: &mut Vec<Entry>, wanted: &Wanted<'_>) {
    let wanted_stems: Vec<String> = wanted
        .names
        .iter()
        .filter_map(|n| source_stem(n, wanted.extensions))
        .map(str::to_lowercase)
        .collect();
    let older = |e: &Entry| e.flat && CanvasName::of(&e.name).is_none();
    // Student (lower-cased) -> the entry name of their row.
    let mut students: BTreeMap<String, String> = BTreeMap::new();
    for sources in [true, false] {
        for e in entries.iter_mut().filter(|e| older(e)) {
            if e.sub.file.is_some() != sources {
                continue;
            }
            if let Some(student) = old_canvas_student(&e.stem, &wanted_stems) {
                let student = student.to_owned();
                if students.contains_key(&student.to_lowercase()) {
                    continue;
                }
                students.insert(student.to_lowercase(), e.name.clone());
                e.sub.student.clone_from(&student);
                e.stem = student;
            }
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
            Some(row) if older(e) && *row != e.name => {
                extras.push((row.clone(), e.name.clone()));
                false
            }
            _ => true,
        }
    });
    name_extras(entries, extras);
}

/// A file in another form (`bob.ipynb`) beside a student's source file
/// (`bob.py`) is named on that student's row, not given one of its own.
fn fold_other_forms(entries: &mut Vec<Entry>) {
    let key = |e: &Entry| super::identity::identity_key(&e.stem);
    let graded: BTreeMap<String, String> = entries
        .iter()
        .filter(|e| e.flat && e.sub.file.is_some())
        .map(|e| (key(e), e.name.clone()))
        .collect();
    let mut extras = Vec::new();
    entries.retain(|e| {
        let row = graded
            .get(&key(e))
            .filter(|_| e.flat && e.sub.file.is_none());
        match row {
            Some(row) if *row != e.name => {
                extras.push((row.clone(), e.name.clone()));
                false
            }
            _ => true,
        }
    });
    name_extras(entries, extras);
}

/// Names each extra file on the row of the entry `row` names.
fn name_extras(entries: &mut [Entry], extras: Vec<(String, String)>) {
    for (row, extra) in extras {
        if let Some(e) = entries.iter_mut().find(|e| e.name == row) {
            let what = match &e.sub.file {
                Some(_) => format!("only `{row}` is (a file it imports is not put beside it)"),
                None => "nothing of theirs could be".to_owned(),
            };
            e.sub.warnings.push(format!(
                "`{extra}` was also submitted and is not graded: {what}"
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canvas_names_are_split_into_student_and_upload() {
        let c = CanvasName::of("smithjohn_50011_123456_min_throws-1.py").unwrap();
        assert_eq!(c.student, "smithjohn_50011");
        assert_eq!(c.file_id, 123_456);
        assert_eq!(c.original, "min_throws.py");
        let c = CanvasName::of("leeann_LATE_7_8_min_throws (2).py").unwrap();
        assert_eq!(
            (c.student.as_str(), c.original.as_str()),
            ("leeann_7", "min_throws.py")
        );
        let c = CanvasName::of("leeann_late_7_8_min_throws.py").unwrap();
        assert_eq!(c.student, "leeann_7");
        let c = CanvasName::of("leeann_7_8_min_throws.py.txt").unwrap();
        assert_eq!(c.original, "min_throws.py.txt");
        for not in [
            "alice_salbLLfunctions.py",
            "a_b_c_d.py",
            "_1_2_x.py",
            "x_1_2_",
        ] {
            assert_eq!(CanvasName::of(not), None, "{not}");
        }
    }

    #[test]
    fn copy_numbers_are_stripped() {
        assert_eq!(without_copy_number("min_throws (2).py"), "min_throws.py");
        assert_eq!(without_copy_number("min_throws-12.cpp"), "min_throws.cpp");
        assert_eq!(without_copy_number("a-b.py"), "a-b.py");
        assert_eq!(without_copy_number("(2).py"), "(2).py");
        assert_eq!(without_copy_number("notes"), "notes");
    }
}
