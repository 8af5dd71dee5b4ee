//! Finding one submission per student in a folder, in the layouts course
//! tools export: MarkUs (a folder per student or group, the file possibly
//! nested), GitHub Classroom (a cloned repository per student) and flat
//! (`alice.py`, `bob.py`).
//!
//! Symbolic links, in every layout: a submission is a regular file inside
//! the submissions folder. A symlinked `NAME.py`, a symlinked student folder,
//! or a symlink where the file to grade would be, is listed with score 0 and
//! the reason; it is never followed, so a link to `/etc/passwd` is never read.
//!
//! Identities: each entry of the submissions folder is one row. Entries
//! whose names map to the same student (`alice/` and `alice.py`, `Alice` and
//! `alice`, `a b` and `a_b`, equal once made safe for a file name on a
//! case-insensitive filesystem) all keep their rows, under identifiers with
//! a suffix derived from the entry's own name, so the same folder gives the
//! same identifiers whatever order the filesystem lists it in. Every such
//! collision is named in a warning. Names are compared, and identifiers
//! written, in Unicode NFC, so a composed `Zoë` and a decomposed one are
//! the same student (and, both present, a collision).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use unicode_normalization::UnicodeNormalization;
use walkdir::WalkDir;

/// One student's entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Submission {
    /// Unique within the run, and unique as a file name (see [`file_stem`]).
    pub student: String,
    /// The file to grade, if one was found.
    pub file: Option<PathBuf>,
    /// Why the file is a near miss (graded anyway), for the report.
    pub warnings: Vec<String>,
    /// Why nothing could be graded (score 0).
    pub problem: Option<String>,
}

/// The submissions found and the warnings about the folder as a whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Discovered {
    pub submissions: Vec<Submission>,
    pub warnings: Vec<String>,
    /// Entries skipped on purpose (salgrade's own output folders), in words.
    pub notes: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub(crate) enum DiscoverError {
    #[error("`{0}` does not exist or is not a folder")]
    NotAFolder(PathBuf),
    #[error(
        "`{0}` is a file, not a folder of submissions; to grade one file, run `salgrade check {0}`"
    )]
    IsAFile(PathBuf),
    #[error("`{0}` holds no submissions (no student folders and no .py files)")]
    Empty(PathBuf),
    #[error("cannot read `{path}`")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// How many folders below a student's folder the file may sit (MarkUs nests
/// one level; repositories sometimes keep it in `src/`): `alice/a1/src/x.py`
/// is two folders down.
pub(crate) const MAX_FOLDERS_DOWN: usize = 2;

/// How far below the limit a misplaced file is still looked for, to name it.
const LOOK_FURTHER: usize = 6;

pub(crate) fn hidden(name: &str) -> bool {
    name.starts_with('.') || name == "__pycache__" || name == "__MACOSX"
}

/// `NAME.py`, with any case of the extension.
/// The stem of a source file with one of `extensions` (`alice.py`).
fn source_stem<'n>(name: &'n str, extensions: &[&str]) -> Option<&'n str> {
    extensions.iter().find_map(|ext| {
        let cut = name.len().checked_sub(ext.len())?;
        let (stem, tail) = (name.get(..cut)?, name.get(cut..)?);
        (tail.eq_ignore_ascii_case(ext) && !stem.is_empty()).then_some(stem)
    })
}

/// What to look for: the exact file names an assignment takes (one per
/// language, the preferred first), the source extensions of its languages,
/// and text that shows a file defines the functions.
pub(crate) struct Wanted<'a> {
    pub names: &'a [&'a str],
    pub extensions: &'a [&'a str],
    pub markers: &'a [String],
    /// The languages in words, for messages ("Python", "Python or C++").
    pub kinds: &'a str,
    /// The instructor chose the language (`--language`): a folder holding
    /// both files is then graded in it without a warning.
    pub chosen: bool,
}

impl Wanted<'_> {
    fn named(&self) -> String {
        self.names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(" or ")
    }
}

/// The name a student's files (feedback) are written under: safe on any
/// filesystem. Identifiers are unique under this mapping, lower-cased.
pub(crate) fn file_stem(student: &str) -> String {
    student
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// What two names must differ in to be told apart by every consumer: the
/// table, and a case-insensitive filesystem holding feedback files.
fn identity_key(name: &str) -> String {
    file_stem(name).to_lowercase()
}

/// FNV-1a of an entry name: a short, stable, order-independent suffix.
fn name_hash(name: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// One entry of the submissions folder before identifiers are assigned.
struct Entry {
    /// The entry's name as found (`alice.py`, `alice`).
    name: String,
    /// The student name it maps to (`alice`).
    stem: String,
    sub: Submission,
}

/// Refuses a submissions path that is not a folder, saying what it is.
pub(crate) fn check_root(root: &Path) -> Result<(), DiscoverError> {
    if root.is_file() {
        return Err(DiscoverError::IsAFile(root.to_owned()));
    }
    if !root.is_dir() {
        return Err(DiscoverError::NotAFolder(root.to_owned()));
    }
    Ok(())
}

pub(crate) fn discover(root: &Path, wanted: &Wanted<'_>) -> Result<Discovered, DiscoverError> {
    check_root(root)?;
    let read_err = |source| DiscoverError::Read {
        path: root.to_owned(),
        source,
    };
    let mut entries = Vec::new();
    let mut notes = Vec::new();
    for entry in std::fs::read_dir(root).map_err(read_err)? {
        let entry = entry.map_err(read_err)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        if hidden(&name) {
            continue;
        }
        // `file_type` does not follow a symlink; `metadata` would.
        let kind = entry.file_type().map_err(read_err)?;
        let student = |stem: &str| Submission {
            student: stem.to_owned(),
            file: None,
            warnings: vec![],
            problem: None,
        };
        if kind.is_symlink() {
            let to_folder = std::fs::metadata(&path).is_ok_and(|m| m.is_dir());
            let stem = match source_stem(&name, wanted.extensions) {
                Some(stem) if !to_folder => stem,
                _ if to_folder => name.as_str(),
                _ => continue,
            };
            let mut sub = student(stem);
            sub.problem = Some(format!(
                "`{name}` is a symbolic link{}; submissions must be regular files inside the submissions folder, so it was not followed",
                if to_folder { " to a folder" } else { "" }
            ));
            entries.push(Entry {
                stem: stem.to_owned(),
                name,
                sub,
            });
        } else if kind.is_dir() && crate::output::is_salgrade_output(&path) {
            notes.push(format!(
                "skipped `{name}`: it is salgrade's own output (it holds `{}`)",
                crate::output::OUTPUT_MARKER
            ));
        } else if kind.is_dir() {
            let sub = in_folder(&name, &path, wanted);
            entries.push(Entry {
                stem: name.clone(),
                name,
                sub,
            });
        } else if let Some(stem) = source_stem(&name, wanted.extensions).filter(|_| kind.is_file())
        {
            let mut sub = student(stem);
            sub.file = Some(path);
            entries.push(Entry {
                stem: stem.to_owned(),
                name,
                sub,
            });
        }
    }
    if entries.is_empty() {
        return Err(DiscoverError::Empty(root.to_owned()));
    }
    canvas_layout(&mut entries, wanted);
    // One name typed on two systems can arrive as two byte sequences (macOS
    // writes `Zoë` decomposed, NFD; most others composed, NFC): identities
    // are NFC, so both look and sort the same, and a folder holding both
    // is a collision, warned about below.
    for e in &mut entries {
        e.stem = e.stem.nfc().collect();
        e.sub.student = e.sub.student.nfc().collect();
    }
    let warnings = assign_identities(&mut entries);
    let mut submissions: Vec<Submission> = entries.into_iter().map(|e| e.sub).collect();
    submissions.sort_by(|a, b| a.student.cmp(&b.student));
    Ok(Discovered {
        submissions,
        warnings,
        notes,
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
fn canvas_layout(entries: &mut Vec<Entry>, wanted: &Wanted<'_>) {
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

/// Gives every entry an identifier unique under [`identity_key`]; entries
/// that collide get `-` and a suffix from their own name, and a warning.
fn assign_identities(entries: &mut [Entry]) -> Vec<String> {
    let mut groups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, e) in entries.iter().enumerate() {
        groups.entry(identity_key(&e.stem)).or_default().push(i);
    }
    let mut warnings = Vec::new();
    for members in groups.values().filter(|m| m.len() > 1) {
        let mut members = members.clone();
        members.sort_by(|&a, &b| entries[a].name.cmp(&entries[b].name));
        for &i in &members {
            let e = &mut entries[i];
            e.sub.student = format!("{}-{:06x}", e.stem, name_hash(&e.name) & 0xff_ffff);
        }
        let named: Vec<String> = members
            .iter()
            .map(|&i| format!("`{}` as `{}`", entries[i].name, entries[i].sub.student))
            .collect();
        let warning = format!(
            "{} entries map to the same student `{}`; each is graded on its own row: {}",
            members.len(),
            entries[members[0]].stem,
            named.join(", ")
        );
        for &i in &members {
            entries[i].sub.warnings.push(warning.clone());
        }
        warnings.push(warning);
    }
    // A suffixed name can, in a pathological folder, equal another entry's
    // own name; the full hash then separates them.
    // Entries are taken in name order, so which one is renamed does not
    // depend on the order the filesystem lists them in.
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    let mut seen = std::collections::BTreeSet::new();
    for e in entries.iter_mut() {
        if !seen.insert(identity_key(&e.sub.student)) {
            e.sub.student = format!("{}-{:016x}", e.stem, name_hash(&e.name));
            seen.insert(identity_key(&e.sub.student));
        }
    }
    warnings
}

fn in_folder(student: &str, dir: &Path, wanted: &Wanted<'_>) -> Submission {
    let named = wanted.named();
    let is_wanted = |name: &str, exact: bool| {
        wanted.names.iter().any(|w| {
            if exact {
                name == *w
            } else {
                name.eq_ignore_ascii_case(w)
            }
        })
    };
    // Walked without following links. Files are candidates when they are
    // regular or symlinks (a symlink is then refused, never read).
    let mut candidates: Vec<(PathBuf, bool)> = Vec::new();
    let mut too_deep: Vec<PathBuf> = Vec::new();
    let mut linked_folders: Vec<PathBuf> = Vec::new();
    for e in WalkDir::new(dir)
        .max_depth(MAX_FOLDERS_DOWN + 1 + LOOK_FURTHER)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !hidden(&e.file_name().to_string_lossy()))
        .filter_map(Result::ok)
    {
        let name = e.file_name().to_string_lossy();
        let link = e.path_is_symlink();
        if link && e.depth() > 0 && std::fs::metadata(e.path()).is_ok_and(|m| m.is_dir()) {
            linked_folders.push(e.path().to_owned());
            continue;
        }
        if !(e.file_type().is_file() || link) || source_stem(&name, wanted.extensions).is_none() {
            continue;
        }
        if e.depth() > MAX_FOLDERS_DOWN + 1 {
            if is_wanted(&name, false) && !link {
                too_deep.push(e.into_path());
            }
        } else {
            candidates.push((e.into_path(), link));
        }
    }
    let rel = |p: &Path| p.strip_prefix(dir).unwrap_or(p).display().to_string();
    let name_of = |p: &Path| {
        p.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let mut sub = Submission {
        student: student.to_owned(),
        file: None,
        warnings: vec![],
        problem: None,
    };
    let choose = |sub: &mut Submission, (path, link): &(PathBuf, bool)| {
        if *link {
            sub.problem = Some(format!(
                "`{}` is a symbolic link; submissions must be regular files inside the submissions folder, so it was not followed",
                rel(path)
            ));
        } else {
            sub.file = Some(path.clone());
        }
    };

    // Exact names in the order of preference (the chosen language first).
    let exact: Vec<&(PathBuf, bool)> = wanted
        .names
        .iter()
        .flat_map(|w| candidates.iter().filter(move |(p, _)| name_of(p) == *w))
        .collect();
    if let Some(first) = exact.first() {
        let same_name = exact
            .iter()
            .filter(|(p, _)| name_of(p) == name_of(&first.0))
            .count();
        if same_name > 1 {
            sub.warnings.push(format!(
                "{same_name} files named `{}`; graded `{}`",
                name_of(&first.0),
                rel(&first.0)
            ));
        }
        if let Some(other) = exact
            .iter()
            .find(|(p, _)| name_of(p) != name_of(&first.0))
            .filter(|_| !wanted.chosen)
        {
            sub.warnings.push(format!(
                "both `{}` and `{}` are here; graded `{}` (pass `--language` to choose)",
                rel(&first.0),
                rel(&other.0),
                rel(&first.0)
            ));
        }
        choose(&mut sub, first);
        return sub;
    }
    if let Some(near) = candidates
        .iter()
        .find(|(p, _)| is_wanted(&name_of(p), false))
    {
        sub.warnings.push(format!(
            "graded `{}`: the file should be named {named}",
            rel(&near.0)
        ));
        choose(&mut sub, near);
        return sub;
    }
    let regular: Vec<&PathBuf> = candidates
        .iter()
        .filter(|(_, link)| !link)
        .map(|(p, _)| p)
        .collect();
    let defining: Vec<&PathBuf> = regular
        .iter()
        .copied()
        .filter(|p| {
            std::fs::read(p)
                .map(|t| {
                    let t = String::from_utf8_lossy(&t);
                    wanted.markers.iter().any(|m| t.contains(m.as_str()))
                })
                .unwrap_or(false)
        })
        .collect();
    let mut why_not = Vec::new();
    if let Some(deep) = too_deep.first() {
        why_not.push(format!(
            "`{}` is more than {MAX_FOLDERS_DOWN} folders below the student's folder; move it up",
            rel(deep)
        ));
    }
    for link in candidates.iter().filter(|(_, link)| *link).map(|(p, _)| p) {
        why_not.push(format!(
            "`{}` is a symbolic link and was not followed",
            rel(link)
        ));
    }
    for link in &linked_folders {
        why_not.push(format!(
            "`{}` is a symbolic link to a folder and was not followed",
            rel(link)
        ));
    }
    let why_not = if why_not.is_empty() {
        String::new()
    } else {
        format!(" ({})", why_not.join("; "))
    };
    match defining.as_slice() {
        [one] => {
            sub.warnings.push(format!(
                "graded `{}`, which defines the functions: the file should be named {named}",
                rel(one)
            ));
            sub.file = Some((*one).clone());
        }
        [] if regular.is_empty() => {
            sub.problem = Some(format!(
                "no {named} and no {} file in the student's folder or up to {MAX_FOLDERS_DOWN} folders below it{why_not}",
                wanted.kinds
            ))
        }
        [] => {
            sub.problem = Some(format!(
                "no {named}, and no other {} file in the folder defines the functions{why_not}",
                wanted.kinds
            ))
        }
        many => {
            sub.problem = Some(format!(
                "no {named}, and {} {} files define the functions; rename the one to grade",
                many.len(),
                wanted.kinds
            ))
        }
    }
    sub
}

#[cfg(test)]
mod tests {
    use super::*;

    fn py<'a>(name: &'a [&'a str], markers: &'a [String]) -> Wanted<'a> {
        Wanted {
            names: name,
            extensions: &[".py"],
            markers,
            kinds: "Python",
            chosen: false,
        }
    }

    fn write(p: &Path, text: &str) {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    #[test]
    fn layouts_and_near_misses() {
        let t = tempfile::tempdir().unwrap();
        let r = t.path();
        write(&r.join("ann/salbLLfunctions.py"), "");
        write(&r.join("bob/a1/salbLLfunctions.py"), "");
        write(&r.join("cat/salbLlfunctions.py"), "");
        write(&r.join("dan/mine.py"), "def willfinish(a, b):\n    pass\n");
        std::fs::create_dir_all(r.join("eve")).unwrap();
        write(&r.join("fay.py"), "");
        write(&r.join(".git/x.py"), "");
        let subs = discover(
            r,
            &py(&["salbLLfunctions.py"], &["def willfinish(".to_owned()]),
        )
        .unwrap()
        .submissions;
        let names: Vec<&str> = subs.iter().map(|s| s.student.as_str()).collect();
        assert_eq!(names, ["ann", "bob", "cat", "dan", "eve", "fay"]);
        assert!(
            subs[1]
                .file
                .as_ref()
                .unwrap()
                .ends_with("a1/salbLLfunctions.py")
        );
        assert!(subs[2].warnings[0].contains("should be named"));
        assert!(subs[3].warnings[0].contains("defines the functions"));
        assert!(subs[4].problem.is_some());
        assert!(subs[5].file.is_some());
    }

    #[test]
    fn empty_and_missing_folders_are_errors() {
        let t = tempfile::tempdir().unwrap();
        assert!(matches!(
            discover(t.path(), &py(&["x.py"], &[])),
            Err(DiscoverError::Empty(_))
        ));
        assert!(matches!(
            discover(&t.path().join("nope"), &py(&["x.py"], &[])),
            Err(DiscoverError::NotAFolder(_))
        ));
        let file = t.path().join("alice.py");
        write(&file, "");
        let e = discover(&file, &py(&["x.py"], &[])).unwrap_err();
        assert!(matches!(e, DiscoverError::IsAFile(_)));
        assert!(e.to_string().contains("salgrade check"), "{e}");
    }

    #[test]
    fn names_are_normalised_and_composed_and_decomposed_twins_collide() {
        let t = tempfile::tempdir().unwrap();
        let (nfc, nfd) = ("Zo\u{eb}", "Zoe\u{308}");
        write(&t.path().join(nfd).join("x.py"), "");
        let d = discover(t.path(), &py(&["x.py"], &[])).unwrap();
        assert_eq!(names(&d), [nfc], "an identity is NFC");
        write(&t.path().join(nfc).join("x.py"), "");
        let d = discover(t.path(), &py(&["x.py"], &[])).unwrap();
        assert_eq!(d.submissions.len(), 2);
        assert!(names(&d).iter().all(|n| n.starts_with(&format!("{nfc}-"))));
        assert!(
            d.warnings[0].contains("map to the same student"),
            "{:?}",
            d.warnings
        );
    }

    #[test]
    fn a_canvas_download_grades_each_students_file_and_names_their_others() {
        let t = tempfile::tempdir().unwrap();
        write(&t.path().join("alice_salbLLfunctions.py"), "");
        write(&t.path().join("alice_helpers.py"), "");
        write(&t.path().join("smithbob_123_4567_salbLLfunctions-1.py"), "");
        write(&t.path().join("carol.py"), "");
        let d = discover(t.path(), &py(&["salbLLfunctions.py"], &[])).unwrap();
        assert_eq!(names(&d), ["alice", "carol", "smithbob"]);
        assert!(
            d.submissions[0].warnings[0].contains("`alice_helpers.py` was also submitted"),
            "{:?}",
            d.submissions[0].warnings
        );
        assert!(
            d.submissions[0]
                .file
                .as_ref()
                .is_some_and(|f| f.ends_with("alice_salbLLfunctions.py"))
        );
    }

    #[test]
    fn salgrade_output_folders_are_skipped_with_a_note() {
        let t = tempfile::tempdir().unwrap();
        write(&t.path().join("alice/x.py"), "");
        write(&t.path().join("feedback/alice.md"), "");
        crate::output::mark_as_output(&t.path().join("feedback")).unwrap();
        let d = discover(t.path(), &py(&["x.py"], &[])).unwrap();
        assert_eq!(names(&d), ["alice"]);
        assert!(d.notes[0].contains("`feedback`"), "{:?}", d.notes);
    }

    fn names(d: &Discovered) -> Vec<&str> {
        d.submissions.iter().map(|s| s.student.as_str()).collect()
    }

    #[test]
    fn colliding_names_keep_their_rows_under_stable_identifiers() {
        let t = tempfile::tempdir().unwrap();
        let r = t.path();
        write(&r.join("alice/salbLLfunctions.py"), "");
        write(&r.join("alice.py"), "");
        write(&r.join("Bob.py"), "");
        write(&r.join("bob.py"), "");
        write(&r.join("a b.py"), "");
        write(&r.join("a_b.py"), "");
        write(&r.join("carol.py"), "");
        let d = discover(r, &py(&["salbLLfunctions.py"], &[])).unwrap();
        let ids = names(&d);
        assert_eq!(ids.len(), 7, "{ids:?}");
        let keys: std::collections::BTreeSet<String> =
            ids.iter().map(|i| identity_key(i)).collect();
        assert_eq!(keys.len(), 7, "feedback file names collide: {ids:?}");
        assert!(ids.contains(&"carol"), "{ids:?}");
        assert_eq!(d.warnings.len(), 3, "{:?}", d.warnings);
        assert!(
            d.warnings
                .iter()
                .any(|w| w.contains("`alice.py`") && w.contains("`alice`"))
        );
        // The same folder gives the same identifiers, whatever the listing order.
        let again = discover(r, &py(&["salbLLfunctions.py"], &[])).unwrap();
        assert_eq!(names(&again), ids);
        let mut entries: Vec<Entry> = ["alice", "alice.py"]
            .iter()
            .rev()
            .map(|n| Entry {
                name: (*n).to_owned(),
                stem: "alice".to_owned(),
                sub: Submission {
                    student: "alice".to_owned(),
                    file: None,
                    warnings: vec![],
                    problem: None,
                },
            })
            .collect();
        assign_identities(&mut entries);
        let mut reversed: Vec<String> = entries.into_iter().map(|e| e.sub.student).collect();
        reversed.sort();
        let mut alices: Vec<String> = ids
            .iter()
            .filter(|i| i.starts_with("alice"))
            .map(|i| (*i).to_owned())
            .collect();
        alices.sort();
        assert_eq!(reversed, alices);
    }

    #[test]
    fn symlinks_are_listed_never_followed() {
        use std::os::unix::fs::symlink;
        let t = tempfile::tempdir().unwrap();
        let r = t.path().join("subs");
        let outside = t.path().join("outside");
        write(&outside.join("salbLLfunctions.py"), "secret");
        write(&r.join("ann/real.txt"), "");
        symlink("/etc/passwd", r.join("mallory.py")).unwrap();
        symlink(&outside, r.join("trudy")).unwrap();
        symlink(
            outside.join("salbLLfunctions.py"),
            r.join("ann/salbLLfunctions.py"),
        )
        .unwrap();
        std::fs::create_dir_all(r.join("eve")).unwrap();
        symlink(&outside, r.join("eve/src")).unwrap();
        let d = discover(
            &r,
            &py(&["salbLLfunctions.py"], &["def willfinish(".to_owned()]),
        )
        .unwrap();
        assert_eq!(names(&d), ["ann", "eve", "mallory", "trudy"]);
        for s in &d.submissions {
            assert_eq!(s.file, None, "{s:?}");
            let why = s.problem.as_deref().unwrap_or_default();
            assert!(why.contains("symbolic link"), "{s:?}");
        }
    }

    #[test]
    fn misplaced_files_are_named() {
        let t = tempfile::tempdir().unwrap();
        let r = t.path();
        write(&r.join("deep/a/b/c/salbLLfunctions.py"), "");
        write(&r.join("upper/SALBLLFUNCTIONS.PY"), "");
        write(&r.join("ok/a/b/salbLLfunctions.py"), "");
        let d = discover(r, &py(&["salbLLfunctions.py"], &[])).unwrap();
        let s = &d.submissions;
        assert!(
            s[0].problem
                .as_deref()
                .unwrap()
                .contains("`a/b/c/salbLLfunctions.py` is more than 2 folders below"),
            "{:?}",
            s[0]
        );
        assert!(s[1].file.is_some(), "{:?}", s[1]);
        assert!(s[2].warnings[0].contains("should be named"), "{:?}", s[2]);
    }
}
