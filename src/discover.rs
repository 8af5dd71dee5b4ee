//! Finding one submission per student in a folder, in the layouts course
//! tools export: MarkUs (a folder per student or group, the file possibly
//! one level down), GitHub Classroom (a cloned repository per student) and
//! flat (`alice.py`, `bob.py`).

use std::path::{Path, PathBuf};

use walkdir::WalkDir;

/// One student's entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Submission {
    pub student: String,
    /// The file to grade, if one was found.
    pub file: Option<PathBuf>,
    /// Why the file is a near miss (graded anyway), for the report.
    pub warnings: Vec<String>,
    /// Why nothing could be graded (score 0).
    pub problem: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub(crate) enum DiscoverError {
    #[error("`{0}` does not exist or is not a folder")]
    NotAFolder(PathBuf),
    #[error("`{0}` holds no submissions (no student folders and no .py files)")]
    Empty(PathBuf),
    #[error("cannot read `{path}`")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// How deep below a student's folder the file may sit (MarkUs nests one
/// level; repositories sometimes keep it in `src/`).
const MAX_DEPTH: usize = 3;

fn hidden(name: &str) -> bool {
    name.starts_with('.') || name == "__pycache__" || name == "__MACOSX"
}

pub(crate) fn discover(
    root: &Path,
    wanted: &str,
    markers: &[String],
) -> Result<Vec<Submission>, DiscoverError> {
    if !root.is_dir() {
        return Err(DiscoverError::NotAFolder(root.to_owned()));
    }
    let entries = std::fs::read_dir(root).map_err(|source| DiscoverError::Read {
        path: root.to_owned(),
        source,
    })?;
    let mut out = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|source| DiscoverError::Read {
            path: root.to_owned(),
            source,
        })?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        if hidden(&name) {
            continue;
        }
        if path.is_dir() {
            out.push(in_folder(&name, &path, wanted, markers));
        } else if name.ends_with(".py") {
            let student = name.trim_end_matches(".py").to_owned();
            out.push(Submission {
                student,
                file: Some(path),
                warnings: vec![],
                problem: None,
            });
        }
    }
    if out.is_empty() {
        return Err(DiscoverError::Empty(root.to_owned()));
    }
    out.sort_by(|a, b| a.student.cmp(&b.student));
    Ok(out)
}

fn in_folder(student: &str, dir: &Path, wanted: &str, markers: &[String]) -> Submission {
    let files: Vec<PathBuf> = WalkDir::new(dir)
        .max_depth(MAX_DEPTH)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !hidden(&e.file_name().to_string_lossy()))
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.file_name().to_string_lossy().ends_with(".py"))
        .map(|e| e.into_path())
        .collect();
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

    let exact: Vec<&PathBuf> = files.iter().filter(|p| name_of(p) == wanted).collect();
    if let Some(first) = exact.first() {
        sub.file = Some((*first).clone());
        if exact.len() > 1 {
            sub.warnings.push(format!(
                "{} files named `{wanted}`; graded `{}`",
                exact.len(),
                rel(first)
            ));
        }
        return sub;
    }
    if let Some(near) = files
        .iter()
        .find(|p| name_of(p).eq_ignore_ascii_case(wanted))
    {
        sub.warnings.push(format!(
            "graded `{}`: the file should be named `{wanted}`",
            rel(near)
        ));
        sub.file = Some(near.clone());
        return sub;
    }
    let defining: Vec<&PathBuf> = files
        .iter()
        .filter(|p| {
            std::fs::read_to_string(p)
                .map(|t| markers.iter().any(|m| t.contains(m.as_str())))
                .unwrap_or(false)
        })
        .collect();
    match defining.as_slice() {
        [one] => {
            sub.warnings.push(format!(
                "graded `{}`, which defines the functions: the file should be named `{wanted}`",
                rel(one)
            ));
            sub.file = Some((*one).clone());
        }
        [] if files.is_empty() => {
            sub.problem = Some(format!("no `{wanted}` and no Python file in the folder"))
        }
        [] => {
            sub.problem = Some(format!(
                "no `{wanted}`, and no Python file in the folder defines the functions"
            ))
        }
        many => {
            sub.problem = Some(format!(
                "no `{wanted}`, and {} Python files define the functions; rename the one to grade",
                many.len()
            ))
        }
    }
    sub
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let subs = discover(r, "salbLLfunctions.py", &["def willfinish(".to_owned()]).unwrap();
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
            discover(t.path(), "x.py", &[]),
            Err(DiscoverError::Empty(_))
        ));
        assert!(matches!(
            discover(&t.path().join("nope"), "x.py", &[]),
            Err(DiscoverError::NotAFolder(_))
        ));
    }
}
