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

/// Creates an output folder and, when salgrade made it (or it is empty),
/// marks it as salgrade's own, so a later `grade` of the folder around it
/// skips it instead of grading it as a student. A folder that already held
/// other files is not marked: it may be anything.
pub(super) fn output_folder(dir: &Path, what: &str) -> anyhow::Result<()> {
    let fresh = std::fs::read_dir(dir).map_or(true, |mut d| d.next().is_none());
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create {what} `{}`", dir.display()))?;
    if fresh {
        output::mark_as_output(dir)?;
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
) -> anyhow::Result<Vec<u8>> {
    let (bytes, warnings) = match mapping {
        None => return report::render(report, format, layout),
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
