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
}

/// The submission in the folder `dir` of `student`.
pub(super) fn in_folder(student: &str, dir: &Path, wanted: &Wanted<'_>) -> Submission {
    let walked = walk(dir, wanted);
    let mut sub = Submission::empty(student);
    if !by_name(&mut sub, dir, &walked.candidates, wanted) {
        by_definition(&mut sub, dir, &walked, wanted);
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
    };
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

/// Chooses the file by its name: an exact name in the order of preference
/// (the chosen language first), else one in another case. Whether one was
/// found.
fn by_name(
    sub: &mut Submission,
    dir: &Path,
    candidates: &[Candidate],
    wanted: &Wanted<'_>,
) -> bool {
    let exact: Vec<&Candidate> = wanted
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
                rel(dir, &first.0)
            ));
        }
        if let Some(other) = exact
            .iter()
            .find(|(p, _)| name_of(p) != name_of(&first.0))
            .filter(|_| !wanted.chosen)
        {
            sub.warnings.push(format!(
                "both `{}` and `{}` are here; graded `{}` (pass `--language` to choose)",
                rel(dir, &first.0),
                rel(dir, &other.0),
                rel(dir, &first.0)
            ));
        }
        choose(sub, dir, first);
        return true;
    }
    if let Some(near) = candidates
        .iter()
        .find(|(p, _)| is_wanted(wanted, &name_of(p), false))
    {
        sub.warnings.push(format!(
            "graded `{}`: the file should be named {}",
            rel(dir, &near.0),
            wanted.named()
        ));
        choose(sub, dir, near);
        return true;
    }
    false
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
