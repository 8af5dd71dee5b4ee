//! Choosing the assignment and its cases: `--assignment`, what the files
//! point to, a case file, or generation; and the `KEY=VALUE` options.

use std::path::Path;

use anyhow::{Context, anyhow, bail};
use salgrade_reference::{CaseFile, Options};

use crate::assignment::{self, Assignment};
use crate::cli::{AssignmentArg, CaseArgs};
use crate::engine;
use crate::infer;

/// The assignment named on the command line, or the default.
pub(super) fn named(arg: &AssignmentArg) -> anyhow::Result<&'static dyn Assignment> {
    Ok(assignment::by_id(
        arg.assignment.as_deref().unwrap_or(assignment::DEFAULT),
    )?)
}

/// `KEY=VALUE` options, validated by the assignment, defaults filled in.
pub(super) fn options(assignment: &dyn Assignment, given: &[String]) -> anyhow::Result<Options> {
    let mut raw = Options::new();
    for item in given {
        let Some((key, value)) = item.split_once('=') else {
            bail!("`--option {item}` is not `KEY=VALUE`");
        };
        raw.insert(key.trim().to_owned(), serde_json::json!(value.trim()));
    }
    assignment
        .options(&raw)
        .map_err(|e| anyhow!("`--option` for assignment `{}`: {e}", assignment.id()))
}

/// What the files to be graded say about their assignment (see
/// [`crate::infer`]), and the folder their names are shown relative to.
pub(super) struct Evidence<'a> {
    pointers: infer::Pointers,
    root: &'a Path,
}

impl Evidence<'_> {
    pub(super) fn of_file(file: &Path) -> Evidence<'_> {
        Evidence {
            pointers: infer::of_file(file),
            root: file.parent().unwrap_or(Path::new("")),
        }
    }

    pub(super) fn of_folder(root: &Path) -> Evidence<'_> {
        Evidence {
            pointers: infer::of_folder(root),
            root,
        }
    }

    fn describe(&self) -> String {
        self.pointers.describe(self.root)
    }
}

/// The assignment to grade when no case file names one: `--assignment`,
/// else the one the files point to (said in one line), else the default.
/// Files pointing to different assignments are refused: grading them all as
/// one would score the others zero.
pub(super) fn chosen_assignment(
    arg: &AssignmentArg,
    evidence: &Evidence<'_>,
) -> anyhow::Result<&'static dyn Assignment> {
    if let Some(name) = &arg.assignment {
        let assignment = assignment::by_id(name)?;
        if !evidence.pointers.by_assignment.is_empty() && !evidence.pointers.includes(name) {
            eprintln!(
                "warning: grading as `{name}` (`--assignment`), but the files point to {}",
                evidence.describe()
            );
        }
        return Ok(assignment);
    }
    if let Some((assignment, clue, file)) = evidence.pointers.single() {
        let file = file.strip_prefix(evidence.root).unwrap_or(file).display();
        let how = match clue {
            infer::Clue::Name => format!("the file name `{file}`"),
            infer::Clue::Definitions => format!("the functions `{file}` defines"),
        };
        eprintln!(
            "note: assignment `{}`, inferred from {how} (pass `--assignment` to choose)",
            assignment.id()
        );
        return Ok(assignment);
    }
    if evidence.pointers.by_assignment.is_empty() {
        return Ok(assignment::by_id(assignment::DEFAULT)?);
    }
    bail!(
        "the files point to different assignments: {}; pass `--assignment NAME` to grade one of them (`salgrade assignments` lists them)",
        evidence.describe()
    )
}

/// The assignment a case file (`origin`, as a message names it) is for;
/// an `--assignment` naming another is an error.
pub(super) fn case_file_assignment(
    asked: &AssignmentArg,
    file: &CaseFile,
    origin: &str,
) -> anyhow::Result<&'static dyn Assignment> {
    let assignment = assignment::by_id(&file.assignment).with_context(|| origin.to_owned())?;
    if let Some(asked) = asked
        .assignment
        .as_deref()
        .filter(|a| *a != file.assignment)
    {
        bail!(
            "`--assignment {asked}` contradicts {origin}, which is for `{}`; drop `--assignment`, or use a case file for `{asked}` (`salgrade gen --assignment {asked}`)",
            file.assignment
        );
    }
    Ok(assignment)
}

/// The assignment and its cases: a case file names its own assignment, and
/// an `--assignment` that contradicts it is an error, as are files that
/// point only to other assignments (they would fail at import, and the
/// student would be blamed); otherwise the chosen assignment generates them.
pub(super) fn cases(
    args: &CaseArgs,
    evidence: &Evidence<'_>,
) -> anyhow::Result<(&'static dyn Assignment, CaseFile)> {
    let Some(path) = &args.cases_file else {
        let assignment = chosen_assignment(&args.assignment, evidence)?;
        let options = options(assignment, &args.options)?;
        note_long_generation(args.cases);
        let seed = match &args.seed_file {
            Some(path) => crate::secrets::read_seed(path)?,
            None => args.seed,
        };
        return Ok((assignment, assignment.generate(seed, args.cases, &options)));
    };
    let file = engine::read_case_file(path)?;
    let assignment = case_file_assignment(
        &args.assignment,
        &file,
        &format!("case file `{}`", path.display()),
    )?;
    if args.assignment.assignment.is_none()
        && !evidence.pointers.by_assignment.is_empty()
        && !evidence.pointers.includes(&file.assignment)
    {
        bail!(
            "case file `{}` is for `{}`, but the files to grade point to {}; use a case file for their assignment, or pass `--assignment {}` if they really are `{}` submissions",
            path.display(),
            file.assignment,
            evidence.describe(),
            file.assignment,
            file.assignment
        );
    }
    Ok((assignment, engine::check_case_file(assignment, file, path)?))
}

/// Who reads what a run shows of its cases.
#[derive(Clone, Copy)]
pub(super) enum Audience {
    /// `grade`: the instructor runs it, students read its feedback.
    Grade,
    /// `check`: the student runs it, and a case file given to it is theirs.
    Check,
}

/// The ids of the run's cases that students are not shown (see
/// `Report::for_students`): none with `--hidden-cases show`, or, by
/// default, when the seed is public or published (`--public-seed`), or the
/// student gave `check` the case file; otherwise those whose function and
/// input the public seed's case set (with the run's options and count; a
/// case file's, the default count) does not hold: what a student could
/// not see for themselves.
pub(super) fn hidden_cases(
    engine: &crate::engine::Engine,
    args: &CaseArgs,
    (public_seed, policy): (bool, Option<crate::cli::HiddenCases>),
    audience: Audience,
) -> Vec<String> {
    use crate::cli::HiddenCases;
    let cases = &engine.case_file;
    let public = match &args.cases_file {
        Some(_) => matches!(audience, Audience::Check),
        None => cases.seed == Some(salgrade_reference::case::PUBLIC_SEED),
    };
    let hide = match policy {
        Some(HiddenCases::Show) => false,
        Some(HiddenCases::Hide) => true,
        None => !(public_seed || public),
    };
    if !hide {
        return Vec::new();
    }
    let count = if args.cases_file.is_some() {
        salgrade_reference::case::DEFAULT_RANDOM_CASES
    } else {
        args.cases
    };
    let public =
        engine
            .assignment
            .generate(salgrade_reference::case::PUBLIC_SEED, count, &cases.options);
    let known: std::collections::HashSet<(&str, String)> = public
        .cases
        .iter()
        .map(|c| (c.function.as_str(), c.input.to_string()))
        .collect();
    cases
        .cases
        .iter()
        .filter(|c| !known.contains(&(c.function.as_str(), c.input.to_string())))
        .map(|c| c.id.clone())
        .collect()
}

/// Generation is quick at the default size; a big one says why it is slow.
pub(super) fn note_long_generation(random_per_function: usize) {
    if random_per_function > 200 {
        eprintln!("generating {random_per_function} random cases per function; this takes a while");
    }
}

/// Names where the cases came from, for messages.
pub(super) fn cases_origin(args: &CaseArgs) -> String {
    match &args.cases_file {
        Some(p) => format!("case file `{}`", p.display()),
        None => "the generated case set".to_owned(),
    }
}
