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

/// The regular source and header files in `file`'s folder other than
/// `file`, by name; symbolic links and hidden files are left out.
pub(crate) fn beside(file: &Path) -> Vec<PathBuf> {
    let Some(dir) = file.parent() else {
        return Vec::new();
    };
    let Ok(read) = std::fs::read_dir(dir) else {
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
        .filter(|p| p.file_name() != file.file_name())
        .collect();
    found.sort();
    found
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
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["helpers.py", "util.h"]);
    }
}
