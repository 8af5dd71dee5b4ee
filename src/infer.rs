//! Which assignment a file or a folder of submissions is for, when the
//! command line does not say: the file names each assignment's students
//! submit (`solution.py` is LeetCode 909's, `snakes_game.cpp` the game's),
//! and, for a file named otherwise, the definitions its text holds (only one
//! assignment's `def salb2salbLL(`).
//!
//! This module reads file names and, for files no name explains, their
//! text; it never runs anything and never decides a verdict. The caller
//! turns what it finds into a choice, a refusal (a folder pointing to two
//! assignments) or an error (a case file for another assignment).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use crate::assignment::{self, Assignment};
use crate::discover::MAX_FOLDERS_DOWN;
use crate::runner::Language;

/// How a file points to an assignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Clue {
    /// Its name is the assignment's file name.
    Name,
    /// It defines the assignment's functions and no other assignment's.
    Definitions,
}

/// The assignments a set of files points to, each with the files that
/// point to it (in the order found) and how the first one does.
#[derive(Debug, Default)]
pub(crate) struct Pointers {
    pub by_assignment: BTreeMap<&'static str, (Clue, Vec<PathBuf>)>,
}

impl Pointers {
    /// The one assignment every clue points to, if they agree, with the
    /// shallowest file that points to it (the first found among equals): the
    /// one a note names, which should be a graded file, not an old copy in
    /// a `backup/` folder that sorts first.
    pub(crate) fn single(&self) -> Option<(&'static dyn Assignment, Clue, &Path)> {
        let [(id, (clue, files))] = self.by_assignment.iter().collect::<Vec<_>>()[..] else {
            return None;
        };
        let assignment = assignment::by_id(id).ok()?;
        let file = files.iter().min_by_key(|f| f.components().count())?;
        Some((assignment, *clue, file.as_path()))
    }

    /// Whether any file points to `id`.
    pub(crate) fn includes(&self, id: &str) -> bool {
        self.by_assignment.contains_key(id)
    }

    fn add(&mut self, id: &'static str, clue: Clue, file: PathBuf) {
        self.by_assignment
            .entry(id)
            .or_insert_with(|| (clue, Vec::new()))
            .1
            .push(file);
    }

    /// Every assignment pointed to, in words: "`a48` (`alice/salbLLfunctions.py`
    /// and 3 more), `leetcode909` (`bob/solution.py`)".
    pub(crate) fn describe(&self, root: &Path) -> String {
        self.by_assignment
            .iter()
            .map(|(id, (_, files))| {
                let first = files
                    .first()
                    .map(|f| f.strip_prefix(root).unwrap_or(f).display().to_string())
                    .unwrap_or_default();
                let more = match files.len() {
                    0 | 1 => String::new(),
                    n => format!(" and {} more", n - 1),
                };
                format!("`{id}` (`{first}`{more})")
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The assignment whose student file, in any of its languages, is named
/// `name` (ignoring case, as discovery does).
pub(crate) fn by_file_name(name: &str) -> Option<&'static dyn Assignment> {
    by_name(name, |name, file| name == file)
}

/// The same, for a file as a Canvas flat download names it
/// (`alice_solution.py`, `smithbob_12_34_min_throws-1.py`): looked for only
/// where such downloads put files (the submissions folder itself, or the
/// one file `check` is given), since `bob/test_solution.py` inside a
/// student's folder is just a file of bob's.
pub(crate) fn by_canvas_name(name: &str) -> Option<&'static dyn Assignment> {
    by_name(name, names)
}

fn by_name(name: &str, matches: fn(&str, &str) -> bool) -> Option<&'static dyn Assignment> {
    let name = name.to_lowercase();
    assignment::ALL.iter().copied().find(|a| {
        a.languages().iter().any(|&l| {
            student_names(*a, l)
                .iter()
                .any(|file| matches(&name, &file.to_lowercase()))
        })
    })
}

/// Every name a student's file for `assignment` in `language` may have: the
/// harness's file (`solution.cpp`) with each of the language's extensions
/// (`solution.cc`, `solution.cxx`), the harness's own first. The build
/// copies the source under the harness's name, so any of them builds.
pub(crate) fn student_names(assignment: &dyn Assignment, language: Language) -> Vec<String> {
    let Some(file) = assignment::file_for(assignment, language) else {
        return Vec::new();
    };
    let stem = file.rsplit_once('.').map_or(file, |(stem, _)| stem);
    let mut names = vec![file.to_owned()];
    for ext in language.extensions() {
        let name = format!("{stem}{ext}");
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// Whether the (lower-cased) `name` is `file`, or a Canvas download's name
/// for it: `PREFIX_file`, with `-N` before the extension on a resubmission
/// (or ` (N)`, a browser's second copy).
fn names(name: &str, file: &str) -> bool {
    if name == file {
        return true;
    }
    let Some((stem, ext)) = file.rsplit_once('.') else {
        return false;
    };
    let Some(rest) = name.strip_suffix(&format!(".{ext}")) else {
        return false;
    };
    let digits = |n: &str| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit());
    let rest = match rest.rsplit_once('-') {
        Some((head, n)) if digits(n) => head,
        // A browser's second copy: `min_throws (2).py`.
        _ => match rest.strip_suffix(')').and_then(|r| r.rsplit_once(" (")) {
            Some((head, n)) if digits(n) => head,
            _ => rest,
        },
    };
    rest.strip_suffix(stem)
        .is_some_and(|prefix| prefix.len() > 1 && prefix.ends_with('_'))
}

/// The one assignment whose definitions `text`, a file in `language`,
/// holds, if exactly one's do. The assignments' markers are
/// Python's (`def get_min_dice_throws(`, `class Game`); in C++ a function
/// is defined by its name and `(` after a return type
/// (`int getMinDiceThrows(int move[], int n)`), so there the name followed
/// by `(` counts, and a C++ file points only to an assignment that takes
/// C++.
pub(crate) fn by_definitions_in(text: &str, language: Language) -> Option<&'static dyn Assignment> {
    let mut found = assignment::ALL.iter().copied().filter(|a| {
        a.languages().contains(&language)
            && a.definition_markers().iter().any(|m| match language {
                Language::Python => text.contains(m.as_str()),
                Language::Cpp => defines_in_cpp(text, m),
            })
    });
    let one = found.next()?;
    found.next().is_none().then_some(one)
}

/// Whether C++ `text` defines what the Python `marker` names: `class X`
/// as it is, `def f(` as `f` (whole word) followed by `(`.
pub(crate) fn defines_in_cpp(text: &str, marker: &str) -> bool {
    let Some(name) = marker
        .strip_prefix("def ")
        .and_then(|m| m.strip_suffix('('))
    else {
        return text.contains(marker);
    };
    let word = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].trim_start().chars().next();
        !before.is_some_and(word) && after == Some('(')
    })
}

/// Most of a source file that is read to look for definitions: enough for
/// any real submission, and a huge file is not read whole.
const READ_AT_MOST: u64 = 1 << 20;

fn definitions_in(path: &Path) -> Option<&'static dyn Assignment> {
    use std::io::Read;
    let mut text = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(READ_AT_MOST)
        .read_to_end(&mut text)
        .ok()?;
    let language = Language::of_file(&path.file_name()?.to_string_lossy())?;
    by_definitions_in(&String::from_utf8_lossy(&text), language)
}

fn is_source(name: &str) -> bool {
    Language::of_file(name).is_some()
}

/// What one file points to: its name, else its definitions.
pub(crate) fn of_file(path: &Path) -> Pointers {
    let mut pointers = Pointers::default();
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if let Some(a) = by_canvas_name(&name) {
        pointers.add(a.id(), Clue::Name, path.to_owned());
    } else if let Some(a) = definitions_in(path) {
        pointers.add(a.id(), Clue::Definitions, path.to_owned());
    }
    pointers
}

/// What a submissions folder points to: the source files named as an
/// assignment's, as deep as discovery looks; when none is, the
/// definitions in the source files. Hidden entries, symbolic links and
/// salgrade's own output folders are skipped, as discovery skips them.
pub(crate) fn of_folder(root: &Path) -> Pointers {
    let mut named = Pointers::default();
    let mut others = Vec::new();
    let walk = WalkDir::new(root)
        .max_depth(MAX_FOLDERS_DOWN + 2)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            e.depth() == 0
                || (!crate::discover::hidden(&e.file_name().to_string_lossy())
                    && !crate::output::is_salgrade_output(e.path()))
        });
    for e in walk.filter_map(Result::ok) {
        if !e.file_type().is_file() {
            continue;
        }
        let name = e.file_name().to_string_lossy();
        let flat = e.depth() == 1;
        let by_name = if flat {
            by_canvas_name(&name)
        } else {
            by_file_name(&name)
        };
        if let Some(a) = by_name {
            named.add(a.id(), Clue::Name, e.into_path());
        } else if is_source(&name) {
            others.push(e.into_path());
        }
    }
    if !named.by_assignment.is_empty() {
        return named;
    }
    let mut defined = Pointers::default();
    for path in others {
        if let Some(a) = definitions_in(&path) {
            defined.add(a.id(), Clue::Definitions, path);
        }
    }
    defined
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_point_to_their_assignment() {
        let id = |n: &str| by_file_name(n).map(|a| a.id());
        assert_eq!(id("salbLLfunctions.py"), Some("a48"));
        assert_eq!(id("solution.py"), Some("leetcode909"));
        assert_eq!(id("Solution.cpp"), Some("leetcode909"));
        assert_eq!(id("min_throws.cpp"), Some("min-throws"));
        assert_eq!(id("snakes_game.py"), Some("game"));
        assert_eq!(id("alice.py"), None);
        // Every C++ extension docs/cpp.md promises, not `.cpp` alone.
        assert_eq!(id("solution.cc"), Some("leetcode909"));
        assert_eq!(id("min_throws.cxx"), Some("min-throws"));
        assert_eq!(id("snakes_game.CC"), Some("game"));
        assert_eq!(id("salbLLfunctions.cc"), None);
        let canvas = |n: &str| by_canvas_name(n).map(|a| a.id());
        assert_eq!(id("alice_solution.py"), None);
        assert_eq!(canvas("alice_solution.py"), Some("leetcode909"));
        assert_eq!(
            canvas("smithbob_12_34_min_throws-1.cpp"),
            Some("min-throws")
        );
        assert_eq!(canvas("solution.py"), Some("leetcode909"));
        assert_eq!(canvas("_solution.py"), None);
        assert_eq!(canvas("resolution.py"), None);
        assert_eq!(canvas("bob_min_throws.cc"), Some("min-throws"));
        assert_eq!(canvas("bob_12_34_solution-2.cxx"), Some("leetcode909"));
        assert_eq!(canvas("bob_12_34_min_throws (2).py"), Some("min-throws"));
    }

    #[test]
    fn the_note_names_the_shallowest_file_not_a_backup_that_sorts_first() {
        let t = tempfile::tempdir().unwrap();
        for file in ["alice/backup/min_throws.py", "alice/min_throws.py"] {
            let path = t.path().join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, "").unwrap();
        }
        let pointers = of_folder(t.path());
        let (assignment, clue, file) = pointers.single().unwrap();
        assert_eq!((assignment.id(), clue), ("min-throws", Clue::Name));
        assert_eq!(file, t.path().join("alice/min_throws.py"));
    }

    #[test]
    fn definitions_point_only_when_one_assignment_matches() {
        let id = |t: &str| by_definitions_in(t, Language::Python).map(|a| a.id());
        assert_eq!(
            id("def snakesAndLadders(self, board):"),
            Some("leetcode909")
        );
        assert_eq!(id("class Game:\n"), Some("game"));
        assert_eq!(id("print('hello')"), None);
        assert_eq!(id("class Game:\ndef snakesAndLadders(self, b):"), None);
        let cpp = |t: &str| by_definitions_in(t, Language::Cpp).map(|a| a.id());
        assert_eq!(
            cpp("int getMinDiceThrows(int move[], int n) {"),
            Some("min-throws")
        );
        assert_eq!(
            cpp("class Solution {\n int snakesAndLadders (vector<vector<int>>& b) {"),
            Some("leetcode909")
        );
        assert_eq!(cpp("class Game {\n};"), Some("game"));
        // A longer name that merely contains the function's is not it.
        assert_eq!(cpp("int my_getMinDiceThrows2(int n);"), None);
        // a48 takes Python only.
        assert_eq!(cpp("bool willfinish(int a) {"), None);
    }

    #[test]
    fn a_folder_points_to_each_assignment_its_files_name() {
        let dir = tempfile::tempdir().unwrap();
        let write = |rel: &str, text: &str| {
            let p = dir.path().join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        };
        write("alice/snakes_game.py", "");
        write("bob/a1/src/snakes_game.cpp", "");
        let found = of_folder(dir.path());
        let (a, clue, _) = found.single().unwrap();
        assert_eq!((a.id(), clue), ("game", Clue::Name));
        write("carol/solution.py", "");
        write(".hidden/min_throws.py", "");
        // A file of a student's that merely ends like another's name.
        write("alice/test_min_throws.py", "");
        let found = of_folder(dir.path());
        assert!(found.single().is_none());
        assert_eq!(
            found.describe(dir.path()),
            "`game` (`alice/snakes_game.py` and 1 more), `leetcode909` (`carol/solution.py`)"
        );
    }

    #[test]
    fn a_flat_folder_points_by_definitions() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("alice.py"),
            "def get_min_dice_throws(b, n):\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("notes.txt"), "class Game").unwrap();
        let found = of_folder(dir.path());
        let (a, clue, _) = found.single().unwrap();
        assert_eq!((a.id(), clue), ("min-throws", Clue::Definitions));
        // A Canvas download names the assignment's file after the student's.
        std::fs::write(dir.path().join("bob_12_34_snakes_game.py"), "").unwrap();
        let (a, clue, _) = of_folder(dir.path()).single().unwrap();
        assert_eq!((a.id(), clue), ("game", Clue::Name));
    }
}
