//! Where a command's results go: stdout or a file replaced whole on
//! success, opened before any work; salgrade's own output folders; the
//! report in the format and CSV layout asked for.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, bail};

use crate::output::{self, AtomicFile};
use crate::report::{self, Report};

/// An output opened before any work, so a bad path fails at once; a file is
/// replaced only when the run succeeds (see [`crate::output`]).
pub(super) enum Output {
    Stdout,
    File(AtomicFile),
}

impl Output {
    pub(super) fn open(path: Option<&Path>) -> anyhow::Result<Output> {
        match path {
            None => Ok(Output::Stdout),
            Some(p) if p.as_os_str() == "-" => Ok(Output::Stdout),
            Some(p) => Ok(Output::File(AtomicFile::create(p)?)),
        }
    }

    /// The columns text for a person is laid out in: a terminal's, when
    /// this is standard output and that is a terminal; else `None` (see
    /// [`crate::terminal`]).
    pub(super) fn width(&self) -> Option<usize> {
        match self {
            Output::Stdout => crate::terminal::stdout_width(),
            Output::File(_) => None,
        }
    }

    pub(super) fn write(self, bytes: &[u8]) -> anyhow::Result<()> {
        match self {
            Output::Stdout => {
                let mut out = std::io::stdout().lock();
                out.write_all(bytes)?;
                out.flush()?;
            }
            Output::File(f) => f.commit(bytes)?,
        }
        Ok(())
    }
}

/// The formats a file name's extension says it holds, the first the one
/// it is written in when `--format` is not given; `None` for an extension
/// that names no format salgrade writes.
fn formats_of_extension(ext: &str) -> Option<&'static [report::Format]> {
    use report::Format::{
        Classroom, Csv, Gradescope, Html, Json, Junit, Markdown, Markus, Prairielearn, Table,
    };
    Some(match ext {
        "csv" => &[Csv],
        "json" => &[Json, Gradescope, Classroom, Prairielearn, Markus],
        "jsonl" => &[Markus],
        "html" | "htm" => &[Html],
        "md" | "markdown" => &[Markdown],
        "xml" => &[Junit],
        "txt" | "text" => &[Table, Markdown],
        _ => return None,
    })
}

/// What a file with an extension holds, in words, for messages.
fn holds(ext: &str) -> &'static str {
    match ext {
        "csv" => "CSV",
        "json" => "JSON",
        "jsonl" => "JSON lines",
        "html" | "htm" => "an HTML page",
        "md" | "markdown" => "Markdown",
        "xml" => "XML (JUnit)",
        "txt" | "text" => "plain text",
        "toml" => "TOML",
        "xlsx" | "xls" | "ods" => "a spreadsheet",
        "pdf" => "a PDF",
        _ => "another format",
    }
}

/// `path`'s extension, lower-cased; `None` for stdout (`-`) or none.
fn extension(path: Option<&Path>) -> Option<String> {
    let path = path.filter(|p| p.as_os_str() != "-")?;
    Some(path.extension()?.to_string_lossy().to_ascii_lowercase())
}

/// The report format: `asked`, or the one `-o`'s extension names (a
/// `grades.csv` gets CSV, not the terminal's table), else `table`. A format
/// that contradicts the extension (`--format json -o grades.csv`), or an
/// extension that names no format when none is asked, is refused with what
/// to do instead.
pub(super) fn format_for(
    asked: Option<report::Format>,
    output: Option<&Path>,
) -> anyhow::Result<report::Format> {
    by_extension(
        asked,
        output,
        &Formats {
            table: report::Format::Table,
            of_extension: |ext| formats_of_extension(ext).map(<[_]>::to_vec),
            name: report::Format::name,
            words: format_words,
            extension: extension_of,
            names: "table, csv, json, markdown, html, junit, gradescope, classroom, markus, prairielearn",
            extensions: "`.csv`, `.json`, `.jsonl`, `.html`, `.md`, `.xml` or `.txt`",
        },
    )
}

/// `salgrade similar`'s format, by the same rule as [`format_for`].
pub(super) fn similar_format_for(
    asked: Option<crate::cli::SimilarFormat>,
    output: Option<&Path>,
) -> anyhow::Result<crate::cli::SimilarFormat> {
    use crate::cli::SimilarFormat::{Csv, Html, Json, Table};
    use clap::ValueEnum as _;
    by_extension(
        asked,
        output,
        &Formats {
            table: Table,
            of_extension: |ext| {
                Some(match ext {
                    "csv" => vec![Csv],
                    "json" => vec![Json],
                    "html" | "htm" => vec![Html],
                    "txt" | "text" => vec![Table],
                    _ => return None,
                })
            },
            name: |f| {
                f.to_possible_value()
                    .map(|v| v.get_name().to_owned())
                    .unwrap_or_default()
            },
            words: |f| match f {
                Table => "the terminal's table",
                Csv => "CSV",
                Json => "JSON",
                Html => "an HTML page",
            },
            extension: |f| match f {
                Table => "txt",
                Csv => "csv",
                Json => "json",
                Html => "html",
            },
            names: "table, csv, json, html",
            extensions: "`.csv`, `.json`, `.html` or `.txt`",
        },
    )
}

/// What [`by_extension`] needs to know of a command's formats.
struct Formats<F> {
    /// The terminal's format, the default.
    table: F,
    /// The formats a file with this (lower-case) extension holds, the
    /// first the one written when none is asked; `None` for an extension
    /// that names none of them.
    of_extension: fn(&str) -> Option<Vec<F>>,
    name: fn(F) -> String,
    words: fn(F) -> &'static str,
    extension: fn(F) -> &'static str,
    /// Every format's name, for a message.
    names: &'static str,
    /// The extensions that name a format, for a message.
    extensions: &'static str,
}

fn by_extension<F: Copy + PartialEq>(
    asked: Option<F>,
    output: Option<&Path>,
    formats: &Formats<F>,
) -> anyhow::Result<F> {
    let ext = extension(output);
    let shown = || output.map(|p| p.display().to_string()).unwrap_or_default();
    let (names, extensions) = (formats.names, formats.extensions);
    match (asked, ext) {
        (None, None) => Ok(formats.table),
        (Some(format), None) => Ok(format),
        (asked, Some(ext)) => match (asked, (formats.of_extension)(&ext)) {
            (None, Some(found)) => Ok(found[0]),
            (None, None) => bail!(
                "`-o {}`: the extension `.{ext}` names none of this command's formats ({names}); pass `--format`, or name the file {extensions}",
                shown()
            ),
            (Some(format), Some(found)) if !found.contains(&format) => bail!(
                "`-o {}` is named as {}, but `--format {}` writes {}; name the file `{}`, or pass `--format {}`",
                shown(),
                holds(&ext),
                (formats.name)(format),
                (formats.words)(format),
                output
                    .map(|p| p
                        .with_extension((formats.extension)(format))
                        .display()
                        .to_string())
                    .unwrap_or_default(),
                (formats.name)(found[0])
            ),
            (Some(format), _) => Ok(format),
        },
    }
}

/// What a format writes, in words.
fn format_words(format: report::Format) -> &'static str {
    use report::Format::{
        Classroom, Csv, Gradescope, Html, Json, Junit, Markdown, Markus, Prairielearn, Table,
    };
    match format {
        Table => "the terminal's table",
        Csv => "CSV",
        Json | Gradescope | Classroom | Prairielearn => "JSON",
        Markus => "JSON lines",
        Markdown => "Markdown",
        Junit => "JUnit XML",
        Html => "an HTML page",
    }
}

/// The extension a file of `format` is usually named with.
fn extension_of(format: report::Format) -> &'static str {
    use report::Format::{
        Classroom, Csv, Gradescope, Html, Json, Junit, Markdown, Markus, Prairielearn, Table,
    };
    match format {
        Table => "txt",
        Csv => "csv",
        Json | Gradescope | Classroom | Prairielearn => "json",
        Markus => "jsonl",
        Markdown => "md",
        Junit => "xml",
        Html => "html",
    }
}

/// Refuses an `-o` for a JSON file (a case file) whose extension names
/// another format (`gen -o cases.csv`).
pub(super) fn json_output(output: Option<&Path>, what: &str) -> anyhow::Result<()> {
    let Some(ext) = extension(output) else {
        return Ok(());
    };
    if ext != "json" && (formats_of_extension(&ext).is_some() || holds(&ext) != "another format") {
        bail!(
            "`-o {}` is named as {}, but {what} is JSON; name it `{}`",
            output.map(|p| p.display().to_string()).unwrap_or_default(),
            holds(&ext),
            output
                .map(|p| p.with_extension("json").display().to_string())
                .unwrap_or_default()
        );
    }
    Ok(())
}

/// A `report.json` written by `grade --out-dir`.
pub(super) fn read_report(path: &Path) -> anyhow::Result<Report> {
    let bytes =
        std::fs::read(path).with_context(|| format!("cannot read report `{}`", path.display()))?;
    serde_json::from_slice(&bytes).with_context(|| {
        format!(
            "`{}` is not a salgrade `report.json` (from `grade --out-dir`)",
            path.display()
        )
    })
}

/// Whether git should leave an output folder out of commits: salgrade's
/// working files (the journal, `check`'s counterexamples) are, the
/// feedback files (which an instructor may well commit) are not.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Git {
    Ignores,
    Tracks,
}

/// Creates an output folder and, when salgrade made it (or it is empty),
/// marks it as salgrade's own, so a later `grade` of the folder around it
/// skips it instead of grading it as a student; one git should ignore gets
/// a `.gitignore` of `*` (as Python's `venv` does), so `check` in a
/// student's repository leaves nothing to commit by mistake. A folder that
/// already held other files is not marked: it may be anything.
pub(super) fn output_folder(dir: &Path, what: &str, git: Git) -> anyhow::Result<()> {
    let fresh = std::fs::read_dir(dir).map_or(true, |mut d| d.next().is_none());
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create {what} `{}`", dir.display()))?;
    if fresh {
        output::mark_as_output(dir)?;
        if git == Git::Ignores {
            output::write(
                &dir.join(".gitignore"),
                b"# salgrade's working files: nothing here is meant to be committed.\n*\n",
            )?;
        }
    }
    Ok(())
}

/// Refuses an output `path` (`what`: "`-o`", "`--feedback` folder") that is
/// a submission or inside one: the student's entry in `root` (their folder,
/// or their file in a flat layout) holding a discovered submission's file.
/// Writing there would replace a student's code with the report, and the
/// next run would grade the report.
pub(super) fn refuse_inside_submissions(
    path: &Path,
    what: &str,
    root: &Path,
    files: &[&Path],
) -> anyhow::Result<()> {
    let Some(path) = absolute(path) else {
        return Ok(());
    };
    let Some(root) = absolute(root) else {
        return Ok(());
    };
    for file in files {
        let Some(file) = absolute(file) else { continue };
        let Ok(rel) = file.strip_prefix(&root) else {
            continue;
        };
        let Some(first) = rel.components().next() else {
            continue;
        };
        let entry = root.join(first);
        if path.starts_with(&entry) {
            bail!(
                "{what} `{}` is or is inside the submission `{}`; writing there would overwrite a student's files: choose a path outside the submissions",
                path.display(),
                entry.display()
            );
        }
    }
    Ok(())
}

/// `path` made absolute with its existing folders resolved (`..`, symbolic
/// links), its last parts kept as given when they do not exist yet.
fn absolute(path: &Path) -> Option<std::path::PathBuf> {
    let path = std::path::absolute(path).ok()?;
    let mut rest = Vec::new();
    let mut head = path.as_path();
    loop {
        if let Ok(real) = head.canonicalize() {
            return Some(rest.iter().rev().fold(real, |p, part| p.join(part)));
        }
        rest.push(head.file_name()?.to_owned());
        head = head.parent()?;
    }
}

/// What maps a report's students to a gradebook's rows: MarkUs's group
/// list, or Canvas's gradebook export with the assignment's column.
pub(super) enum Mapping {
    Markus(report::markus::Roster),
    Canvas(report::canvas::Gradebook, report::canvas::Missing),
}

/// Refuses a CSV option given with a format or layout it does not apply to,
/// and reads the roster (before any grading, so a bad one fails at once).
pub(super) fn check_layout(
    format: report::Format,
    layout: report::csv::CsvLayout,
    roster: Option<&Path>,
    canvas: &crate::cli::CanvasArgs,
) -> anyhow::Result<Option<Mapping>> {
    use report::csv::CsvLayout;
    if layout != CsvLayout::default() && format != report::Format::Csv {
        bail!(
            "`--csv-layout` applies to `--format csv`, not `--format {}`",
            format.name()
        );
    }
    let canvas_layout = format == report::Format::Csv && layout == CsvLayout::Canvas;
    for (given, flag) in [
        (canvas.canvas_assignment.is_some(), "--canvas-assignment"),
        (canvas.missing.is_some(), "--missing"),
    ] {
        if given && !canvas_layout {
            bail!("`{flag}` applies to `--format csv --csv-layout canvas`");
        }
    }
    if canvas_layout {
        let (Some(roster), Some(assignment)) = (roster, canvas.canvas_assignment.as_deref()) else {
            bail!(
                "`--csv-layout canvas` needs `--roster GRADEBOOK.csv` (the course's gradebook, from Canvas's Grades, Export) and `--canvas-assignment ID` (the assignment's ID or title, as a column of that export)"
            );
        };
        let gradebook = report::canvas::Gradebook::read(roster, assignment)?;
        return Ok(Some(Mapping::Canvas(
            gradebook,
            canvas.missing.unwrap_or_default(),
        )));
    }
    if roster.is_some() && (format != report::Format::Csv || layout != CsvLayout::Markus) {
        bail!("`--roster` applies to `--format csv --csv-layout markus` or `--csv-layout canvas`");
    }
    if roster.is_none() && layout == CsvLayout::Markus {
        eprintln!(
            "note: without `--roster`, each MarkUs row is keyed by the submission's name; MarkUs rejects (and lists) a row whose name is a group or a suffixed duplicate (`alice-3f09a1`) rather than a user name: pass `--roster` with MarkUs's group list to map them"
        );
    }
    Ok(roster
        .map(report::markus::Roster::read)
        .transpose()?
        .map(Mapping::Markus))
}

/// The report in `format`; a gradebook layout's rows keyed through
/// `mapping` when there is one, each row it leaves out printed as a
/// warning.
pub(super) fn rendered(
    report: &Report,
    format: report::Format,
    layout: report::csv::CsvLayout,
    mapping: Option<&Mapping>,
    width: Option<usize>,
) -> anyhow::Result<Vec<u8>> {
    let (bytes, warnings) = match mapping {
        None => return report::render_for(report, format, layout, width),
        Some(Mapping::Markus(roster)) => {
            let sheet = report::markus::render(report, Some(roster))?;
            (sheet.bytes, sheet.warnings)
        }
        Some(Mapping::Canvas(gradebook, missing)) => {
            let import = report::canvas::render(report, gradebook, *missing)?;
            (import.bytes, import.warnings)
        }
    };
    for w in &warnings {
        eprintln!("warning: {}", crate::shown::one_line(w));
    }
    Ok(bytes)
}

/// The most bytes of a student's file read for the feedback's calls.
const MAX_SOURCE_BYTES: u64 = 1 << 20;

/// The start of a student's file as text, for the feedback (the names it
/// defines); `None` when it cannot be read, which only costs the alias.
pub(super) fn student_source(path: &Path) -> Option<String> {
    use std::io::Read as _;
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(MAX_SOURCE_BYTES)
        .read_to_end(&mut bytes)
        .ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// Warns when the feedback folder holds feedback files this run did not
/// write (an earlier run's students, since renamed or gone; another
/// shard's): they are left alone, but handing the folder out as it is
/// would send them too.
pub(super) fn warn_of_other_feedback(
    dir: &Path,
    written: &std::collections::BTreeSet<String>,
    sharded: bool,
) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut others: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md") && n != "feedback.md" && !written.contains(n))
        .collect();
    if others.is_empty() {
        return;
    }
    others.sort();
    let shown: Vec<&String> = others.iter().take(5).collect();
    eprintln!(
        "warning: the feedback folder `{}` also holds {} feedback file(s) this run did not write ({}{}), {}; they were left as they are: remove them before handing the folder out",
        dir.display(),
        others.len(),
        crate::words::code_list(&shown),
        if others.len() > shown.len() {
            ", ..."
        } else {
            ""
        },
        if sharded {
            "another shard's or an earlier run's"
        } else {
            "from an earlier run"
        }
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Format;

    #[test]
    fn the_format_follows_the_output_files_extension_or_a_mismatch_is_refused() {
        let at = |p: &str| Some(Path::new(p).to_owned());
        let cases = [
            (None, None, Format::Table),
            (None, at("-"), Format::Table),
            (None, at("grades"), Format::Table),
            (None, at("grades.csv"), Format::Csv),
            (None, at("GRADES.CSV"), Format::Csv),
            (None, at("out/report.json"), Format::Json),
            (None, at("cohort.html"), Format::Html),
            (None, at("cohort.htm"), Format::Html),
            (None, at("grades.md"), Format::Markdown),
            (None, at("salgrade.xml"), Format::Junit),
            (None, at("table.txt"), Format::Table),
            (
                Some(Format::Gradescope),
                at("results.json"),
                Format::Gradescope,
            ),
            (Some(Format::Markdown), at("notes.txt"), Format::Markdown),
            (Some(Format::Csv), at("grades.dat"), Format::Csv),
        ];
        for (asked, path, want) in cases {
            assert_eq!(
                format_for(asked, path.as_deref()).unwrap(),
                want,
                "{asked:?} {path:?}"
            );
        }
        let e = format_for(Some(Format::Json), at("grades.csv").as_deref()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "`-o grades.csv` is named as CSV, but `--format json` writes JSON; name the file `grades.json`, or pass `--format csv`"
        );
        let e = format_for(None, at("grades.xlsx").as_deref()).unwrap_err();
        assert!(e.to_string().contains("pass `--format`"), "{e}");
        assert!(json_output(at("cases.csv").as_deref(), "a case file").is_err());
        assert!(json_output(at("cases.json").as_deref(), "a case file").is_ok());
        assert!(json_output(at("cases").as_deref(), "a case file").is_ok());
    }

    #[test]
    fn similars_format_follows_the_output_files_extension_by_the_same_rule() {
        use crate::cli::SimilarFormat::{Csv, Html, Json, Table};
        let at = |p: &str| Some(Path::new(p).to_owned());
        let cases = [
            (None, None, Table),
            (None, at("-"), Table),
            (None, at("pairs"), Table),
            (None, at("pairs.txt"), Table),
            (None, at("pairs.CSV"), Csv),
            (None, at("out/pairs.json"), Json),
            (None, at("similar.htm"), Html),
            (Some(Csv), at("pairs.dat"), Csv),
            (Some(Html), None, Html),
        ];
        for (asked, path, want) in cases {
            assert_eq!(
                similar_format_for(asked, path.as_deref()).unwrap(),
                want,
                "{asked:?} {path:?}"
            );
        }
        let e = similar_format_for(Some(Json), at("pairs.csv").as_deref()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "`-o pairs.csv` is named as CSV, but `--format json` writes JSON; name the file `pairs.json`, or pass `--format csv`"
        );
        // Markdown is a report format, not one of `similar`'s.
        let e = similar_format_for(None, at("pairs.md").as_deref()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "`-o pairs.md`: the extension `.md` names none of this command's formats (table, csv, json, html); pass `--format`, or name the file `.csv`, `.json`, `.html` or `.txt`"
        );
    }
}
