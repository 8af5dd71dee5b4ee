//! The student's own other files beside the graded one (`helpers.py` beside
//! `solution.py`), in a student's folder or beside the file `check` is
//! given: a submission that imports its own second file is graded as the
//! student ran it. Listed here, read by the engine, which decides per
//! language and assignment which are given to the run (see
//! [`crate::engine::Engine::sibling_files`]).
//!
//! Never a symbolic link or a hidden file, never a file in a flat layout's
//! folder (those are other students' files), and never more than
//! [`MAX_SIBLINGS`] files of at most [`MAX_SIBLING_BYTES`] each.

use std::path::{Path, PathBuf};

/// The most sibling files given to a run.
pub(crate) const MAX_SIBLINGS: usize = 16;

/// The largest sibling file given to a run.
pub(crate) const MAX_SIBLING_BYTES: u64 = 256 * 1024;

/// Extensions of the files listed: sources and headers.
const LISTED: [&str; 7] = [".py", ".h", ".hpp", ".hh", ".cpp", ".cc", ".cxx"];

/// One of the student's other files: where it is, and the name the run
/// gives it (its own, or for a Canvas download the name the student
/// uploaded it under).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Sibling {
    pub path: PathBuf,
    pub name: String,
}

impl Sibling {
    /// The file at `path`, under its own name.
    pub(crate) fn at(path: PathBuf) -> Sibling {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        Sibling { path, name }
    }
}

/// The regular source and header files in `file`'s folder other than
/// `file`, by name; symbolic links and hidden files are left out.
///
/// The folder is the one Python would put first on `sys.path` for
/// `python3 FILE`: the file's own folder (`.` for a bare name such as
/// `solution.py`, whose parent is the empty path), and for a symbolic link
/// the folder of the file it names.
pub(crate) fn beside(file: &Path) -> Vec<Sibling> {
    let Some((dir, graded)) = home_of(file) else {
        return Vec::new();
    };
    let Ok(read) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = read
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter(|e| {
            let name = e.file_name().to_string_lossy().to_ascii_lowercase();
            !super::hidden(&name) && LISTED.iter().any(|ext| name.ends_with(ext))
        })
        .map(|e| e.path())
        .filter(|p| p.file_name() != Some(graded.as_os_str()))
        .collect();
    found.sort();
    found.into_iter().map(Sibling::at).collect()
}

/// The folder `file` is in and its name there: a symbolic link's target's,
/// else its own, with an empty parent read as `.`.
fn home_of(file: &Path) -> Option<(PathBuf, std::ffi::OsString)> {
    let real;
    let file = if std::fs::symlink_metadata(file).is_ok_and(|m| m.file_type().is_symlink()) {
        real = std::fs::canonicalize(file).ok()?;
        real.as_path()
    } else {
        file
    };
    let name = file.file_name()?.to_owned();
    let dir = match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    };
    Some((dir, name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_regular_source_files_beside_the_graded_one() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path();
        for name in [
            "solution.py",
            "helpers.py",
            "util.h",
            "notes.txt",
            ".hidden.py",
        ] {
            std::fs::write(d.join(name), "").unwrap();
        }
        std::fs::create_dir(d.join("sub")).unwrap();
        std::fs::write(d.join("sub/deeper.py"), "").unwrap();
        std::os::unix::fs::symlink("/etc/passwd", d.join("linked.py")).unwrap();
        let names: Vec<String> = beside(&d.join("solution.py"))
            .into_iter()
            .map(|s| s.name)
            .collect();
        assert_eq!(names, ["helpers.py", "util.h"]);
    }

    fn names(file: &Path) -> Vec<String> {
        beside(file).into_iter().map(|s| s.name).collect()
    }

    #[test]
    fn a_bare_file_name_is_in_the_working_folder_and_a_link_in_its_targets() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path().canonicalize().unwrap();
        std::fs::create_dir(d.join("real")).unwrap();
        std::fs::write(d.join("real/solution.py"), "").unwrap();
        std::fs::write(d.join("real/grid.py"), "").unwrap();
        std::fs::create_dir(d.join("elsewhere")).unwrap();
        std::os::unix::fs::symlink(d.join("real/solution.py"), d.join("elsewhere/solution.py"))
            .unwrap();
        // `..` and a link: the helpers beside the file the link names.
        let via_dots = d.join("elsewhere/../real/solution.py");
        assert_eq!(names(&via_dots), ["grid.py"]);
        assert_eq!(names(&d.join("elsewhere/solution.py")), ["grid.py"]);
        // The empty parent of a bare name is the working folder, `.` (the
        // command-line test runs `check solution.py` in the folder).
        assert_eq!(
            home_of(Path::new("solution.py")),
            Some((PathBuf::from("."), "solution.py".into()))
        );
    }
}
