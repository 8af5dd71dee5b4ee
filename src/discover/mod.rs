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
//!
//! One file per layout: `folder` (a student's folder or repository),
//! `flat` (a file per student, Canvas's names among them); `identity`
//! gives every entry its identifier.

mod flat;
mod folder;
mod identity;
mod kinds;
pub(crate) mod siblings;

use std::fs::FileType;
use std::path::{Path, PathBuf};

use unicode_normalization::UnicodeNormalization;

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
    /// The student's other source files beside `file`, in a student's
    /// folder, and a Canvas download's student's other uploads (never
    /// another flat file, which is another student's): the engine gives
    /// the run those its language can use.
    pub siblings: Vec<siblings::Sibling>,
}

impl Submission {
    /// A student with nothing found yet.
    fn empty(student: &str) -> Submission {
        Submission {
            student: student.to_owned(),
            file: None,
            warnings: vec![],
            problem: None,
            siblings: vec![],
        }
    }
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
    #[error(
        "`{root}` holds one folder, `{inner}`, which holds {students} student folders: it is the export wrapped in one more folder; grade that folder: `salgrade grade {}`",
        root.join(inner).display()
    )]
    Wrapped {
        root: PathBuf,
        inner: String,
        students: usize,
    },
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

/// One entry of the submissions folder before identifiers are assigned.
struct Entry {
    /// The entry's name as found (`alice.py`, `alice`).
    name: String,
    /// The student name it maps to (`alice`).
    stem: String,
    sub: Submission,
    /// Whether it is a regular file in the submissions folder itself (the
    /// flat layout), not a folder or a symbolic link.
    flat: bool,
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

/// Every student's submission in `root`, in the layout it is in.
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
        if kind.is_dir() && crate::output::is_salgrade_output(&path) {
            notes.push(format!(
                "skipped `{name}`: it is salgrade's own output (it holds `{}`)",
                crate::output::OUTPUT_MARKER
            ));
        } else {
            entries.extend(entry_of(name, path, kind, wanted));
        }
    }
    if entries.is_empty() {
        return Err(DiscoverError::Empty(root.to_owned()));
    }
    if let [only] = entries.as_slice() {
        let inner = root.join(&only.name);
        let students = folders_with_submissions(&inner, wanted);
        if inner.is_dir() && !inner.is_symlink() && students > 1 {
            return Err(DiscoverError::Wrapped {
                root: root.to_owned(),
                inner: only.name.clone(),
                students,
            });
        }
    }
    flat::canvas_layout(&mut entries, wanted);
    // One name typed on two systems can arrive as two byte sequences (macOS
    // writes `Zoë` decomposed, NFD; most others composed, NFC): identities
    // are NFC, so both look and sort the same, and a folder holding both
    // is a collision, warned about below.
    for e in &mut entries {
        e.stem = e.stem.nfc().collect();
        e.sub.student = e.sub.student.nfc().collect();
    }
    let warnings = identity::assign_identities(&mut entries)
        .into_iter()
        .map(|w| crate::shown::one_line(&w).into_owned())
        .collect();
    // Names come from the file system, where a folder may be called
    // anything (an escape sequence, a newline): escaped once, here, so the
    // table, the progress lines and every report show them on one line.
    let mut submissions: Vec<Submission> = entries
        .into_iter()
        .map(|e| {
            let one_line = |s: &str| crate::shown::one_line(s).into_owned();
            let mut sub = e.sub;
            sub.student = one_line(&sub.student);
            sub.warnings = sub.warnings.iter().map(|w| one_line(w)).collect();
            sub.problem = sub.problem.as_deref().map(one_line);
            sub
        })
        .collect();
    for sub in &mut submissions {
        refuse_unreadable(root, sub);
    }
    submissions.sort_by(|a, b| a.student.cmp(&b.student));
    Ok(Discovered {
        submissions,
        warnings,
        notes,
    })
}

/// Makes a chosen file that cannot be read (its permissions, a file gone
/// since the folder was listed) that student's problem, with the reason,
/// so the row says why and every other student is still graded.
fn refuse_unreadable(root: &Path, sub: &mut Submission) {
    use std::io::Read as _;
    let Some(file) = sub.file.as_ref().filter(|_| sub.problem.is_none()) else {
        return;
    };
    let read = std::fs::File::open(file).and_then(|mut f| f.read(&mut [0_u8; 1]));
    if let Err(e) = read {
        sub.problem = Some(format!(
            "`{}` cannot be read ({}), so nothing could be graded: make it readable to the user running salgrade and grade again",
            file.strip_prefix(root).unwrap_or(file).display(),
            io_reason(&e)
        ));
    }
}

/// An I/O error in a few words, for a student's row.
pub(crate) fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        std::io::ErrorKind::NotFound => "it no longer exists".to_owned(),
        _ => e.to_string(),
    }
}

/// How many folders directly inside `dir` hold a file of a wanted name
/// (in any case) as deep as a student's folder may: more than one means
/// `dir` is a folder of students, not one student's folder.
fn folders_with_submissions(dir: &Path, wanted: &Wanted<'_>) -> usize {
    let Ok(read) = std::fs::read_dir(dir) else {
        return 0;
    };
    read.filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter(|e| !hidden(&e.file_name().to_string_lossy()))
        .filter(|e| {
            walkdir::WalkDir::new(e.path())
                .max_depth(MAX_FOLDERS_DOWN + 1)
                .into_iter()
                .filter_map(Result::ok)
                .any(|f| {
                    f.file_type().is_file() && {
                        let name = f.file_name().to_string_lossy();
                        wanted.names.iter().any(|w| name.eq_ignore_ascii_case(w))
                    }
                })
        })
        .count()
}

/// One entry of the submissions folder in its layout: a symbolic link
/// (refused, never followed), a student's folder or repository, or a flat
/// file; `None` for anything else.
fn entry_of(name: String, path: PathBuf, kind: FileType, wanted: &Wanted<'_>) -> Option<Entry> {
    if kind.is_symlink() {
        let to_folder = std::fs::metadata(&path).is_ok_and(|m| m.is_dir());
        let stem = match source_stem(&name, wanted.extensions) {
            Some(stem) if !to_folder => stem,
            _ if to_folder => name.as_str(),
            _ => return None,
        };
        let mut sub = Submission::empty(stem);
        sub.problem = Some(format!(
            "`{name}` is a symbolic link{}; submissions must be regular files inside the submissions folder, so it was not followed",
            if to_folder { " to a folder" } else { "" }
        ));
        Some(Entry {
            stem: stem.to_owned(),
            name,
            sub,
            flat: false,
        })
    } else if kind.is_dir() {
        let sub = folder::in_folder(&name, &path, wanted);
        Some(Entry {
            stem: name.clone(),
            name,
            sub,
            flat: false,
        })
    } else {
        flat::file_entry(name, path, kind.is_file(), wanted)
    }
}

#[cfg(test)]
mod tests {
    use super::identity::{assign_identities, identity_key};
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
    fn an_export_wrapped_in_one_more_folder_is_refused() {
        let t = tempfile::tempdir().unwrap();
        let r = t.path();
        write(&r.join("A2/ann/a2/solution.py"), "");
        write(&r.join("A2/ben/a2/solution.py"), "");
        write(&r.join("A2/cat/solution.py"), "");
        let e = discover(r, &py(&["solution.py"], &[])).unwrap_err();
        assert!(
            matches!(&e, DiscoverError::Wrapped { inner, students: 3, .. } if inner == "A2"),
            "{e:?}"
        );
        let text = e.to_string();
        assert!(
            text.contains("salgrade grade") && text.contains("A2"),
            "{text}"
        );
        // One student's folder holding the file twice (a copy in `old/`) is
        // still one student.
        let t = tempfile::tempdir().unwrap();
        write(&t.path().join("ann/solution.py"), "");
        write(&t.path().join("ann/old/solution.py"), "");
        let d = discover(t.path(), &py(&["solution.py"], &[])).unwrap();
        assert_eq!(d.submissions.len(), 1);
    }

    #[test]
    fn the_shallowest_file_is_graded_and_the_plainest_of_equals() {
        let t = tempfile::tempdir().unwrap();
        let r = t.path();
        // The old copy sorts first by name; the submission is shallower.
        write(&r.join("ann/backup/salbLLfunctions.py"), "old");
        write(&r.join("ann/salbLLfunctions.py"), "new");
        // Two equally shallow: the one without a copy marker.
        write(&r.join("bob/archive/salbLLfunctions.py"), "old");
        write(&r.join("bob/src/salbLLfunctions.py"), "new");
        // A shallower file in another case beats a deeper exact name.
        write(&r.join("cat/old/salbLLfunctions.py"), "old");
        write(&r.join("cat/SalbLLfunctions.py"), "new");
        let d = discover(r, &py(&["salbLLfunctions.py"], &[])).unwrap();
        let graded: Vec<String> = d
            .submissions
            .iter()
            .map(|s| {
                let f = s.file.as_ref().unwrap();
                f.strip_prefix(r).unwrap().display().to_string()
            })
            .collect();
        assert_eq!(
            graded,
            [
                "ann/salbLLfunctions.py",
                "bob/src/salbLLfunctions.py",
                "cat/SalbLLfunctions.py"
            ]
        );
        let ann = d.submissions[0].warnings.join("\n");
        assert!(
            ann.contains("not `backup/salbLLfunctions.py` deeper"),
            "{ann}"
        );
        let bob = d.submissions[1].warnings.join("\n");
        assert!(
            bob.contains("2 files named `salbLLfunctions.py` are equally shallow")
                && bob.contains("graded `src/salbLLfunctions.py`, the plainest path"),
            "{bob}"
        );
    }

    #[test]
    fn plainness_counts_copy_markers_then_the_higher_version_then_length() {
        use super::folder::plainness;
        assert!(plainness("v2/solution.py") < plainness("v1/solution.py"));
        assert!(plainness("v10/solution.py") < plainness("v9/solution.py"));
        assert!(plainness("attempt_3/solution.py") < plainness("attempt_2/solution.py"));
        assert!(plainness("version3/solution.py") < plainness("version2/solution.py"));
        // A plain path still comes before any version.
        assert!(plainness("solution.py") < plainness("v3/solution.py"));
        assert!(plainness("src/solution.py") < plainness("archive/solution.py"));
        assert!(plainness("a/solution.py") < plainness("src/solution.py"));
        for marked in [
            "Copy of src/x.py",
            "src - Copy/x.py",
            "src (2)/x.py",
            "x (2).py",
            "x-1.py",
            "solutionOld/x.py",
            "v2/x.py",
            "old_version/x.py",
            "BACKUP/x.py",
        ] {
            assert_eq!(plainness(marked).0, 1, "{marked}");
        }
        for plain in [
            "hw-2/x.py",
            "a1/src/x.py",
            "salbLLfunctions.py",
            "vault/x.py",
        ] {
            assert_eq!(plainness(plain).0, 0, "{plain}");
        }
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
        // The two names look the same; the warning shows how they differ.
        assert!(
            d.warnings[0].contains("(composed: Zo\\u{eb})")
                && d.warnings[0].contains("(decomposed: Zoe\\u{308})"),
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
        assert_eq!(names(&d), ["alice", "carol", "smithbob_123"]);
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
    fn a_canvas_students_other_sources_go_beside_the_graded_one_as_uploaded() {
        let t = tempfile::tempdir().unwrap();
        for name in [
            "smithbob_123_4567_salbLLfunctions.py",
            "smithbob_123_4560_helpers.py",
            "smithbob_123_4568_helpers-1.py",
            "smithbob_123_4569_notes.txt",
        ] {
            write(&t.path().join(name), "");
        }
        let d = discover(t.path(), &py(&["salbLLfunctions.py"], &[])).unwrap();
        assert_eq!(names(&d), ["smithbob_123"]);
        let bob = &d.submissions[0];
        let given: Vec<(String, String)> = bob
            .siblings
            .iter()
            .map(|s| {
                let file = s.path.file_name().unwrap().to_string_lossy().into_owned();
                (file, s.name.clone())
            })
            .collect();
        assert_eq!(
            given,
            [(
                "smithbob_123_4568_helpers-1.py".to_owned(),
                "helpers.py".to_owned()
            )]
        );
        let said = bob.warnings.join("\n");
        assert!(said.contains("`smithbob_123_4560_helpers.py` was also submitted under the same name as `smithbob_123_4568_helpers-1.py`"), "{said}");
        assert!(
            said.contains("`smithbob_123_4569_notes.txt` was also submitted and is not graded"),
            "{said}"
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
                    siblings: vec![],
                },
                flat: false,
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
