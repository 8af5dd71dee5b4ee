//! What a file that cannot be graded is, in words: a student who submitted
//! a notebook, an archive or `min_throws.py.txt` gets a row saying so
//! (never no row, or "no Python file"), and a folder without the file says
//! what it holds instead.

use std::path::Path;

use walkdir::WalkDir;

use super::{MAX_FOLDERS_DOWN, Wanted, hidden, source_stem};

/// A file's kind, with its article: `a notebook`, `an archive`.
pub(super) fn kind_of(name: &str) -> String {
    let lower = name.to_lowercase();
    let ext = lower.rsplit_once('.').map(|(_, e)| e).unwrap_or_default();
    let kind = match ext {
        "ipynb" => "a notebook",
        "zip" | "tar" | "gz" | "tgz" | "bz2" | "xz" | "7z" | "rar" => "an archive",
        "txt" | "text" | "rtf" => "a text file",
        "pdf" => "a PDF",
        "doc" | "docx" | "odt" | "pages" => "a document",
        "java" => "a Java file",
        "c" | "h" => "a C file",
        "js" | "ts" => "a JavaScript file",
        "py" | "pyw" => "a Python file",
        "cpp" | "cc" | "cxx" | "hpp" | "hh" => "a C++ file",
        "" => "a file without an extension",
        _ => return format!("a `.{ext}` file"),
    };
    kind.to_owned()
}

/// Whether a flat file not named as a Canvas download is plainly a
/// submission in another form: a notebook, a source file of another
/// language, or a source file saved as text (`alice.py.txt`).
pub(super) fn submission_like(name: &str, wanted: &Wanted<'_>) -> bool {
    let lower = name.to_lowercase();
    let Some((stem, ext)) = lower.rsplit_once('.') else {
        return false;
    };
    if stem.is_empty() {
        return false;
    }
    let saved_as_text =
        matches!(ext, "txt" | "text") && source_stem(stem, wanted.extensions).is_some();
    let other_language = matches!(
        ext,
        "ipynb" | "java" | "c" | "js" | "py" | "cpp" | "cc" | "cxx" | "pyw"
    );
    saved_as_text || other_language
}

/// `alice.py.txt` as `alice`, `bob.ipynb` as `bob`: the name without its
/// extension, and without a source extension under it.
pub(super) fn without_extensions<'n>(name: &'n str, extensions: &[&str]) -> &'n str {
    let stem = match name.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem,
        _ => name,
    };
    source_stem(stem, extensions).unwrap_or(stem)
}

/// Why a student who submitted only `files` (none of them gradable) gets 0:
/// `submitted a notebook: `x.ipynb`; ...`.
pub(super) fn submitted(files: &[&str], wanted: &Wanted<'_>) -> String {
    let listed = match files {
        [one] => format!("{}: `{one}`", kind_of(one)),
        many => many
            .iter()
            .map(|f| format!("{} (`{f}`)", kind_of(f)))
            .collect::<Vec<_>>()
            .join(", "),
    };
    let advice = match files.first().map(|f| kind_of(f)).as_deref() {
        Some("a notebook") => " (export the notebook as a script, so named)",
        Some("an archive") => " (salgrade does not open archives: submit the file itself)",
        Some("a text file") => " (rename it, so that its name ends in the language's extension)",
        _ => "",
    };
    format!(
        "submitted {listed}, and no {} file: salgrade grades {}{advice}",
        wanted.kinds,
        wanted.named()
    )
}

/// Whether the file at `path` defines the functions (one of `wanted`'s
/// markers; in C++, the function's name after a return type).
pub(super) fn defines(path: &Path, wanted: &Wanted<'_>) -> bool {
    let Ok(bytes) = std::fs::read(path) else {
        return false;
    };
    let text = String::from_utf8_lossy(&bytes);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let cpp = crate::runner::Language::of_file(&name) == Some(crate::runner::Language::Cpp);
    wanted.markers.iter().any(|m| {
        if cpp {
            crate::infer::defines_in_cpp(&text, m)
        } else {
            text.contains(m.as_str())
        }
    })
}

/// The most files a folder's listing names.
const MAX_LISTED: usize = 5;

/// What the student's folder `dir` holds, for a problem that says no file
/// could be graded: ` It holds a notebook (`a1.ipynb`) and a text file
/// (`notes.txt`).`, ` It is empty.`, or nothing when it cannot be read.
pub(super) fn holds(dir: &Path) -> String {
    let mut files: Vec<String> = WalkDir::new(dir)
        .min_depth(1)
        .max_depth(MAX_FOLDERS_DOWN + 1)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| !hidden(&e.file_name().to_string_lossy()))
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(dir).unwrap_or(e.path());
            let rel = rel.display().to_string();
            format!("{} (`{rel}`)", kind_of(&rel))
        })
        .collect();
    if std::fs::read_dir(dir).is_err() {
        return String::new();
    }
    if files.is_empty() {
        return " The folder holds no file.".to_owned();
    }
    let more = files.len().saturating_sub(MAX_LISTED);
    files.truncate(MAX_LISTED);
    let mut list = match files.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, init)) if more == 0 => format!("{} and {last}", init.join(", ")),
        _ => files.join(", "),
    };
    if more > 0 {
        list.push_str(&format!(" and {more} more"));
    }
    format!(" The folder holds {list}.")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn py<'a>(names: &'a [&'a str]) -> Wanted<'a> {
        Wanted {
            names,
            extensions: &[".py"],
            markers: &[],
            kinds: "Python",
            chosen: false,
        }
    }

    #[test]
    fn kinds_are_named() {
        assert_eq!(kind_of("x_min_throws.ipynb"), "a notebook");
        assert_eq!(kind_of("A.ZIP"), "an archive");
        assert_eq!(kind_of("min_throws.py.txt"), "a text file");
        assert_eq!(kind_of("Main.java"), "a Java file");
        assert_eq!(kind_of("x.weird"), "a `.weird` file");
        assert_eq!(kind_of("Makefile"), "a file without an extension");
    }

    #[test]
    fn only_plain_submissions_count_outside_canvas_names() {
        let w = py(&["min_throws.py"]);
        for yes in ["bob.ipynb", "bob.java", "min_throws.py.txt", "bob.cpp"] {
            assert!(submission_like(yes, &w), "{yes}");
        }
        for no in [
            "README.md",
            "grades.csv",
            "submissions.zip",
            "notes.txt",
            ".ipynb",
        ] {
            assert!(!submission_like(no, &w), "{no}");
        }
        assert_eq!(
            without_extensions("min_throws.py.txt", &[".py"]),
            "min_throws"
        );
        assert_eq!(without_extensions("bob.ipynb", &[".py"]), "bob");
    }

    #[test]
    fn the_reason_names_the_file_and_what_is_graded() {
        let w = py(&["min_throws.py"]);
        let why = submitted(&["martinezella_1_2_min_throws.ipynb"], &w);
        assert!(
            why.starts_with("submitted a notebook: `martinezella_1_2_min_throws.ipynb`"),
            "{why}"
        );
        assert!(why.contains("`min_throws.py`"), "{why}");
        let why = submitted(&["a.zip", "b.txt"], &w);
        assert!(
            why.contains("an archive (`a.zip`), a text file (`b.txt`)"),
            "{why}"
        );
    }

    #[test]
    fn a_folder_says_what_it_holds() {
        let t = tempfile::tempdir().unwrap();
        assert_eq!(holds(t.path()), " The folder holds no file.");
        std::fs::write(t.path().join("a1.ipynb"), "").unwrap();
        std::fs::create_dir(t.path().join("sub")).unwrap();
        std::fs::write(t.path().join("sub/notes.txt"), "").unwrap();
        assert_eq!(
            holds(t.path()),
            " The folder holds a notebook (`a1.ipynb`) and a text file (`sub/notes.txt`)."
        );
    }
}
