//! A student's folder (MarkUs) or cloned repository (GitHub Classroom):
//! the file to grade may sit up to [`MAX_FOLDERS_DOWN`] folders below it.
//! Chosen in order: an exact name (the preferred language first), a name in
//! another case, then the one file that defines the functions.

use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use super::{LOOK_FURTHER, MAX_FOLDERS_DOWN, Submission, Wanted, hidden, source_stem};

/// A source file under the folder, and whether it is a symbolic link.
type Candidate = (PathBuf, bool);

/// What a walk of the student's folder found.
struct Walked {
    /// Source files within reach, regular or symbolic links (a symlink is
    /// then refused, never read).
    candidates: Vec<Candidate>,
    /// Files with the wanted name, too deep to be graded, to name them.
    too_deep: Vec<PathBuf>,
    /// Symbolic links to folders, never followed.
    linked_folders: Vec<PathBuf>,
    /// Folders (the student's own among them) that could not be read, and
    /// why.
    unreadable: Vec<(PathBuf, String)>,
}

/// The submission in the folder `dir` of `student`.
pub(super) fn in_folder(student: &str, dir: &Path, wanted: &Wanted<'_>) -> Submission {
    let walked = walk(dir, wanted);
    let mut sub = Submission::empty(student);
    if let Some((_, why)) = walked.unreadable.iter().find(|(p, _)| p == dir) {
        sub.problem = Some(format!(
            "the student's folder cannot be read ({why}), so nothing in it could be graded: make it readable to the user running salgrade and grade again"
        ));
        return sub;
    }
    if !by_name(&mut sub, dir, &walked.candidates, wanted) {
        by_definition(&mut sub, dir, &walked, wanted);
    }
    if sub.file.is_some() && !walked.unreadable.is_empty() {
        sub.warnings.push(format!(
            "not looked in, as {} cannot be read: {}",
            if walked.unreadable.len() == 1 {
                "it"
            } else {
                "they"
            },
            unreadable_list(dir, &walked.unreadable)
        ));
    }
    if let Some(file) = &sub.file {
        sub.siblings = super::siblings::beside(file);
    }
    sub
}

/// Whether `name` is one of the wanted names, exactly or in any case.
fn is_wanted(wanted: &Wanted<'_>, name: &str, exact: bool) -> bool {
    wanted.names.iter().any(|w| {
        if exact {
            name == *w
        } else {
            name.eq_ignore_ascii_case(w)
        }
    })
}

fn name_of(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// `p` relative to the student's folder, for messages.
fn rel(dir: &Path, p: &Path) -> String {
    p.strip_prefix(dir).unwrap_or(p).display().to_string()
}

/// The folder walked without following links, hidden entries skipped.
fn walk(dir: &Path, wanted: &Wanted<'_>) -> Walked {
    let mut walked = Walked {
        candidates: Vec::new(),
        too_deep: Vec::new(),
        linked_folders: Vec::new(),
        unreadable: Vec::new(),
    };
    for e in WalkDir::new(dir)
        .max_depth(MAX_FOLDERS_DOWN + 1 + LOOK_FURTHER)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !hidden(&e.file_name().to_string_lossy()))
    {
        let e = match e {
            Ok(e) => e,
            Err(err) => {
                if let Some(path) = err.path() {
                    let why = err
                        .io_error()
                        .map_or_else(|| err.to_string(), super::io_reason);
                    walked.unreadable.push((path.to_owned(), why));
                }
                continue;
            }
        };
        let name = e.file_name().to_string_lossy();
        let link = e.path_is_symlink();
        if link && e.depth() > 0 && std::fs::metadata(e.path()).is_ok_and(|m| m.is_dir()) {
            walked.linked_folders.push(e.path().to_owned());
            continue;
        }
        if !(e.file_type().is_file() || link) || source_stem(&name, wanted.extensions).is_none() {
            continue;
        }
        if e.depth() > MAX_FOLDERS_DOWN + 1 {
            if is_wanted(wanted, &name, false) && !link {
                walked.too_deep.push(e.into_path());
            }
        } else {
            walked.candidates.push((e.into_path(), link));
        }
    }
    walked
}

/// Grades `candidate`, or refuses it when it is a symbolic link.
fn choose(sub: &mut Submission, dir: &Path, (path, link): &Candidate) {
    if *link {
        sub.problem = Some(format!(
            "`{}` is a symbolic link; submissions must be regular files inside the submissions folder, so it was not followed",
            rel(dir, path)
        ));
    } else {
        sub.file = Some(path.clone());
    }
}

/// Chooses the file by its name: the shallowest file of a wanted name (in
/// any case) is the submission, an older copy lives deeper (`backup/`,
/// `archive/`); among files equally shallow, the preferred language's, an
/// exact name before another case, then the plainest path (see
/// [`plainness`]). Whether one was found.
fn by_name(
    sub: &mut Submission,
    dir: &Path,
    candidates: &[Candidate],
    wanted: &Wanted<'_>,
) -> bool {
    let language = |p: &Path| {
        let name = name_of(p);
        wanted
            .names
            .iter()
            .position(|w| name.eq_ignore_ascii_case(w))
    };
    let mut named: Vec<&Candidate> = candidates
        .iter()
        .filter(|(p, _)| language(p).is_some())
        .collect();
    // The instructor's `--language` outranks depth; otherwise a shallower
    // file of the other language wins, with the warning below.
    named.sort_by_cached_key(|(p, _)| {
        let rel = rel(dir, p);
        let rank = language(p).unwrap_or(usize::MAX);
        (
            if wanted.chosen { rank } else { 0 },
            depth(&rel),
            rank,
            !is_wanted(wanted, &name_of(p), true),
            plainness(&rel),
            rel,
        )
    });
    let Some(&first) = named.first() else {
        return false;
    };
    warn_of_others(sub, dir, &named, wanted, language);
    choose(sub, dir, first);
    true
}

/// The warnings on the file chosen, `named[0]`: a name in another case,
/// other files of its name (equally shallow, or deeper), and a file of the
/// other language when the instructor did not choose one.
fn warn_of_others(
    sub: &mut Submission,
    dir: &Path,
    named: &[&Candidate],
    wanted: &Wanted<'_>,
    language: impl Fn(&Path) -> Option<usize>,
) {
    let first = named[0];
    let chosen = rel(dir, &first.0);
    if !is_wanted(wanted, &name_of(&first.0), true) {
        sub.warnings.push(format!(
            "graded `{chosen}`: the file should be named {}",
            wanted.named()
        ));
    }
    let same_language: Vec<String> = named[1..]
        .iter()
        .filter(|(p, _)| language(p) == language(&first.0))
        .map(|(p, _)| rel(dir, p))
        .collect();
    let (level, deeper): (Vec<&String>, Vec<&String>) = same_language
        .iter()
        .partition(|r| depth(r) == depth(&chosen));
    if !level.is_empty() {
        sub.warnings.push(format!(
            "{} files named `{}` are equally shallow ({}); graded `{chosen}`, the plainest path (the fewest copy, backup, old or version markers, then the highest version, then the shortest)",
            level.len() + 1,
            name_of(&first.0),
            std::iter::once(&chosen)
                .chain(level.iter().copied())
                .map(|r| format!("`{r}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if !deeper.is_empty() {
        sub.warnings.push(format!(
            "graded `{chosen}`, the shallowest; not {} deeper in the folder",
            deeper
                .iter()
                .map(|r| format!("`{r}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if let Some(other) = named
        .iter()
        .find(|(p, _)| language(p) != language(&first.0))
        .filter(|_| !wanted.chosen)
    {
        sub.warnings.push(format!(
            "both `{chosen}` and `{}` are here; graded `{chosen}` (pass `--language` to choose)",
            rel(dir, &other.0),
        ));
    }
}

/// How many folders below the student's folder a file is (`a1/x.py`: 1).
fn depth(rel: &str) -> usize {
    Path::new(rel).components().count().saturating_sub(1)
}

/// Words in a file or folder name that mark a copy rather than the
/// submission (`backup/`, `solution_old.py`, `Copy of x`, `v2`).
const COPY_MARKERS: [&str; 22] = [
    "copy",
    "backup",
    "backups",
    "bak",
    "old",
    "older",
    "orig",
    "original",
    "archive",
    "archived",
    "previous",
    "prev",
    "draft",
    "drafts",
    "tmp",
    "temp",
    "version",
    "versions",
    "attempt",
    "unused",
    "deprecated",
    "trash",
];

/// How far from plain a path in the student's folder is, smaller first:
/// the number of its parts (folders and the file's name) that carry a copy
/// marker, that is a word of [`COPY_MARKERS`], a version word (`v2`), or a
/// browser's or file manager's duplicate number (`src (2)/`, `x (2).py`,
/// and for a file `x-1.py`, as Canvas renames a resubmission); then the
/// higher version first (`v2/` before `v1/`, `v10/` before `v9/`: a
/// student numbers versions as they write them); then its length in
/// characters.
pub(super) fn plainness(rel: &str) -> (usize, std::cmp::Reverse<u64>, usize) {
    let parts: Vec<String> = Path::new(rel)
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let last = parts.len().saturating_sub(1);
    let marked = parts
        .iter()
        .enumerate()
        .filter(|(i, part)| is_marked(part, *i == last))
        .count();
    let version = parts
        .iter()
        .filter_map(|p| version_of(p))
        .max()
        .unwrap_or(0);
    (marked, std::cmp::Reverse(version), rel.chars().count())
}

/// The version a name carries, if any: `v2`, `version_3`, `version3`,
/// `attempt 4`, `try5` (the largest, when it names several).
fn version_of(part: &str) -> Option<u64> {
    const WORDS: [&str; 4] = ["version", "attempt", "try", "v"];
    let number = |s: &str| {
        (!s.is_empty() && s.len() <= 9 && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<u64>().ok())
            .flatten()
    };
    let words: Vec<String> = split_words(part).collect();
    let mut found = None;
    for (i, w) in words.iter().enumerate() {
        let here = WORDS
            .iter()
            .find_map(|v| w.strip_prefix(v).and_then(number));
        let after = WORDS
            .contains(&w.as_str())
            .then(|| words.get(i + 1).and_then(|n| number(n)))
            .flatten();
        found = found.max(here).max(after);
    }
    found
}

fn is_marked(part: &str, file: bool) -> bool {
    let stem = if file {
        part.rsplit_once('.').map_or(part, |(stem, _)| stem)
    } else {
        part
    };
    let digits = |n: &str| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit());
    let numbered = stem
        .strip_suffix(')')
        .and_then(|s| s.rsplit_once('('))
        .is_some_and(|(_, n)| digits(n))
        || (file && stem.rsplit_once('-').is_some_and(|(_, n)| digits(n)));
    numbered
        || split_words(stem).any(|w| {
            COPY_MARKERS.contains(&w.as_str())
                || (w.len() > 1 && w.starts_with('v') && w[1..].bytes().all(|b| b.is_ascii_digit()))
        })
}

/// The words of a name, lower-cased: split at anything not a letter or a
/// digit, and where a lower-case letter meets an upper-case one
/// (`solutionOld`).
fn split_words(name: &str) -> impl Iterator<Item = String> + '_ {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut last_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            last_lower = false;
            continue;
        }
        if c.is_uppercase() && last_lower && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        last_lower = c.is_lowercase();
        word.extend(c.to_lowercase());
    }
    if !word.is_empty() {
        words.push(word);
    }
    words.into_iter()
}

/// With no file of the wanted name: the one regular file that defines the
/// functions, else the problem, saying what was seen and not taken.
fn by_definition(sub: &mut Submission, dir: &Path, walked: &Walked, wanted: &Wanted<'_>) {
    let named = wanted.named();
    let regular: Vec<&PathBuf> = walked
        .candidates
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
                    let cpp = crate::runner::Language::of_file(&name_of(p))
                        == Some(crate::runner::Language::Cpp);
                    wanted.markers.iter().any(|m| {
                        if cpp {
                            crate::infer::defines_in_cpp(&t, m)
                        } else {
                            t.contains(m.as_str())
                        }
                    })
                })
                .unwrap_or(false)
        })
        .collect();
    let why_not = why_not(dir, walked);
    match defining.as_slice() {
        [one] => {
            sub.warnings.push(format!(
                "graded `{}`, which defines the functions: the file should be named {named}",
                rel(dir, one)
            ));
            sub.file = Some((*one).clone());
        }
        [] if regular.is_empty() => {
            sub.problem = Some(format!(
                "no {named} and no {} file in the student's folder or up to {MAX_FOLDERS_DOWN} folders below it{why_not}.{}",
                wanted.kinds,
                super::kinds::holds(dir)
            ))
        }
        [] => {
            sub.problem = Some(format!(
                "no {named}, and no other {} file in the folder defines the functions{why_not}.{}",
                wanted.kinds,
                super::kinds::holds(dir)
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
}

/// What the walk saw and did not take (a file too deep, symbolic links), in
/// parentheses, or nothing.
fn why_not(dir: &Path, walked: &Walked) -> String {
    let mut why_not = Vec::new();
    if let Some(deep) = walked.too_deep.first() {
        why_not.push(format!(
            "`{}` is more than {MAX_FOLDERS_DOWN} folders below the student's folder; move it up",
            rel(dir, deep)
        ));
    }
    for link in walked
        .candidates
        .iter()
        .filter(|(_, link)| *link)
        .map(|(p, _)| p)
    {
        why_not.push(format!(
            "`{}` is a symbolic link and was not followed",
            rel(dir, link)
        ));
    }
    if !walked.unreadable.is_empty() {
        why_not.push(format!(
            "{} cannot be read",
            unreadable_list(dir, &walked.unreadable)
        ));
    }
    for link in &walked.linked_folders {
        why_not.push(format!(
            "`{}` is a symbolic link to a folder and was not followed",
            rel(dir, link)
        ));
    }
    if why_not.is_empty() {
        String::new()
    } else {
        format!(" ({})", why_not.join("; "))
    }
}

/// Unreadable folders named, each with why (`` `old/` (permission denied) ``).
fn unreadable_list(dir: &Path, unreadable: &[(PathBuf, String)]) -> String {
    unreadable
        .iter()
        .map(|(p, why)| format!("`{}/` ({why})", rel(dir, p)))
        .collect::<Vec<_>>()
        .join(", ")
}
