//! `salgrade check`: one file graded, with feedback for its author and a
//! re-run command for each counterexample. It reuses `grade`'s steps: the
//! engine, the untested functions and the report.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::bail;
use salgrade_reference::CaseFile;

use super::choose::{Audience, Evidence, cases, hidden_cases};
use super::exit_code;
use super::grade::{Plan, Untested, assembled, engine_for};
use super::outputs::{Git, Output, output_folder, student_source};
use crate::cli::CheckArgs;
use crate::discover::{self, Submission};
use crate::engine;
use crate::grading::rubric::Rubric;
use crate::output;
use crate::report::{self, Report, StudentReport, feedback};
use crate::runner::Language;

pub(crate) fn check(args: CheckArgs) -> anyhow::Result<u8> {
    let language = student_file(&args.file)?;
    let (assignment, case_file) = cases(&args.cases, &Evidence::of_file(&args.file))?;
    let plan = Plan {
        assignment,
        case_file,
        rubric: Rubric::default_for(assignment.functions()),
        languages: vec![language],
    };
    let engine = engine_for(plan, &args.cases, &args.run, &[language])?;
    let student = args
        .file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let sub = Submission {
        student,
        file: Some(args.file.clone()),
        warnings: vec![],
        problem: None,
        siblings: discover::siblings::beside(&args.file),
    };
    let root = args.file.parent().unwrap_or(Path::new("."));
    let s = engine.grade(&sub, root, 1)?;
    let untested = Untested::of(&engine, &args.cases);
    let hidden = hidden_cases(
        &engine,
        &args.cases,
        (args.public_seed, args.hidden_cases),
        Audience::Check,
    );
    let mut report = assembled(&engine, vec![s], hidden);
    untested.leave_out(&mut report);
    // `check` speaks to the file's author (or a CI log they read): every
    // format it prints is what a student may see.
    let report = report.for_students();
    let full = report.students[0].full_marks();
    let text = match args.format {
        Some(format) => {
            if let Some(w) = untested.warning() {
                eprintln!("warning: {w}");
            }
            report::render_for(
                &report,
                format,
                report::csv::CsvLayout::default(),
                Output::Stdout.width(),
            )?
        }
        None => feedback_text(&report, &args, &untested).into_bytes(),
    };
    Output::Stdout.write(&text)?;
    Ok(exit_code(
        full || args.format.is_some_and(report::Format::exits_zero),
    ))
}

/// The language of the one student's file `check` and `lint` are given, or
/// why it cannot be one: it does not exist (naming a file of that name in
/// another case beside it), it is a folder (`grade` grades those), not a
/// regular file, a notebook or a renamed copy (`x.py.txt`), or not a
/// Python or C++ source file at all.
pub(super) fn student_file(file: &Path) -> anyhow::Result<Language> {
    let shown = file.display();
    let meta = match std::fs::metadata(file) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let near = other_case(file)
                .map(|n| format!(" (there is `{n}`: names are case-sensitive)"))
                .unwrap_or_default();
            bail!("`{shown}` does not exist{near}");
        }
        Err(e) => bail!("cannot read `{shown}`: {}", discover::io_reason(&e)),
    };
    if meta.is_dir() {
        bail!(
            "`{shown}` is a folder, not a file: to grade a folder of submissions, run `salgrade grade {shown}`"
        );
    }
    if !meta.is_file() {
        bail!("`{shown}` is not a regular file");
    }
    if let Some(language) = engine::language_of(file) {
        return Ok(language);
    }
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if name.to_ascii_lowercase().ends_with(".ipynb") {
        bail!(
            "`{shown}` is a Jupyter notebook, not a Python file: export it as one (`jupyter nbconvert --to script {shown}`, or File > Save and Export Notebook As > Executable Script) and give that"
        );
    }
    if let Some((stem, _)) = name.rsplit_once('.')
        && engine::language_of(Path::new(stem)).is_some()
    {
        bail!(
            "`{shown}` is not a source file (its name ends in more than `{stem}`): rename it to `{stem}`"
        );
    }
    bail!("`{shown}` is not a Python (`.py`) or C++ (`.cpp`, `.cc`, `.cxx`) file")
}

/// A file beside `file` whose name differs from its name only in case.
fn other_case(file: &Path) -> Option<String> {
    let name = file.file_name()?.to_string_lossy().into_owned();
    let dir = match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .find(|n| n.eq_ignore_ascii_case(&name) && *n != name)
}

/// The feedback on the one student of `report`, the untested functions and
/// a closing line on what to do next.
fn feedback_text(report: &Report, args: &CheckArgs, untested: &Untested) -> String {
    let s = &report.students[0];
    let all_pass = s.cases.iter().all(|c| c.verdict.passed());
    let clean = s.violations.is_empty();
    // A seed other than the public one is not printed unless asked for
    // (`check` runs in CI, whose logs students may read), but it is not
    // called the instructor's: whoever ran `check` chose it.
    let seed = match feedback::Seed::for_audience(report.seed, args.public_seed) {
        feedback::Seed::Hide => feedback::Seed::NotPrinted,
        seed => seed,
    };
    let reruns = counterexample_files(report, s, &args.file, Path::new(COUNTEREXAMPLE_DIR));
    let source = student_source(&args.file);
    let again = feedback::Again {
        reruns: &reruns,
        source: source.as_deref(),
        the_rest: "the same `salgrade check` with `--format json > report.json` lists them all",
    };
    let mut text = feedback::render(report, s, seed, &again);
    if let Some(w) = untested.warning() {
        text.push_str(&format!("\n{w}\n"));
    }
    let whole = report::whole_file::whole_file(report, s).is_some();
    text.push_str(match (all_pass, clean) {
        (false, _) if whole => "\nNo case could run: fix the problem above, then check again.\n",
        (true, true) => "\nAll cases pass.\n",
        (true, false) => "\nAll cases pass, but the code breaks the handout's rule (see above).\n",
        (false, _) => {
            "\nSome cases fail: the smallest failing case of each function is shown above.\n"
        }
    });
    text
}

/// Where `check` writes each shown counterexample as a case file (the
/// folder `grade` keeps its journal in, marked as salgrade's output).
const COUNTEREXAMPLE_DIR: &str = "salgrade-out";

/// Writes each function's shown counterexample to its own case file in
/// `dir` and returns, by function, the one command that re-runs it. A
/// folder that cannot be written costs the commands, not the check: it is
/// said in a note.
fn counterexample_files(
    report: &Report,
    s: &StudentReport,
    file: &Path,
    dir: &Path,
) -> BTreeMap<String, String> {
    let mut reruns = BTreeMap::new();
    let shown: Vec<(&String, &crate::grading::shrink::Counterexample)> = s
        .functions
        .iter()
        .filter_map(|(f, score)| score.counterexample.as_ref().map(|c| (f, c)))
        .collect();
    if shown.is_empty() {
        return reruns;
    }
    if let Err(e) = output_folder(dir, "folder", Git::Ignores) {
        eprintln!("note: the counterexamples were not written to case files: {e:#}");
        return reruns;
    }
    for (function, c) in shown {
        let path = dir.join(format!(
            "counterexample-{}.json",
            discover::file_stem(function)
        ));
        let case_file = CaseFile {
            assignment: report.assignment.clone(),
            seed: None,
            options: report.options.clone(),
            cases: vec![c.case.clone()],
        };
        let written = serde_json::to_vec_pretty(&case_file)
            .map_err(anyhow::Error::from)
            .and_then(|mut bytes| {
                bytes.push(b'\n');
                Ok(output::write(&path, &bytes)?)
            });
        match written {
            Ok(()) => {
                reruns.insert(
                    function.clone(),
                    format!(
                        "salgrade check {} --cases-file {}",
                        shell_word(&file.display().to_string()),
                        shell_word(&path.display().to_string())
                    ),
                );
            }
            Err(e) => eprintln!(
                "note: the counterexample of `{function}` was not written to `{}`: {e:#}",
                path.display()
            ),
        }
    }
    reruns
}

/// `word` quoted for a POSIX shell when it needs to be.
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:+@%".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}
