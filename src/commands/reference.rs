//! `salgrade ref`: the reference's answer to one question about an input.
//!
//! The input is a board (bare, or in the form its assignment's case files
//! write it), one case (`{"id", "function", "input", ...}`), or a case file:
//! the one `check` writes for a counterexample, a file cut from `gen`, or a
//! whole generated file with `--case ID` naming the case. A case file names
//! its assignment and options, which `ref` then uses; a case's own
//! arguments (a48's step sizes) are used when none are typed.

use anyhow::{Context, anyhow, bail};

use salgrade_reference::{Case, CaseFile, Options};

use super::SUCCESS;
use super::choose::{case_file_assignment, named, options};
use super::outputs::Output;
use crate::assignment::Assignment;
use crate::cli::RefArgs;

/// The input `ref` asks about: a file or JSON on the command line.
fn ref_input(args: &RefArgs) -> anyhow::Result<(serde_json::Value, String)> {
    match (&args.board, &args.board_json) {
        (Some(path), _) => {
            let text = crate::input::read_text(path)
                .with_context(|| format!("cannot read board file `{}`", path.display()))?;
            let value = serde_json::from_str(&text)
                .with_context(|| format!("board file `{}` is not JSON", path.display()))?;
            Ok((value, format!("board file `{}`", path.display())))
        }
        (None, Some(json)) => Ok((
            serde_json::from_str(crate::input::without_bom(json))
                .context("`--board-json` is not JSON")?,
            "`--board-json`".to_owned(),
        )),
        (None, None) => bail!("give a board with `--board FILE` or `--board-json JSON`"),
    }
}

/// What `ref` was given, read: the assignment, the input to ask about, the
/// case's options (a case file's) and the case it came from, if any.
struct Asked {
    assignment: &'static dyn Assignment,
    input: serde_json::Value,
    options: Options,
    case: Option<Case>,
}

/// Whether `value` is a case file (`{"assignment", "cases": [...]}`).
fn is_case_file(value: &serde_json::Value) -> bool {
    value
        .get("assignment")
        .is_some_and(serde_json::Value::is_string)
        && value.get("cases").is_some_and(serde_json::Value::is_array)
}

/// Whether `value` is one case (`{"id", "function", "input", ...}`), as a
/// case file lists them.
fn is_one_case(value: &serde_json::Value) -> bool {
    value
        .get("function")
        .is_some_and(serde_json::Value::is_string)
        && value.get("input").is_some()
        && value.get("id").is_some_and(serde_json::Value::is_string)
}

/// The input, its assignment and options, from a case file, one case, or a
/// board.
fn asked(args: &RefArgs, value: serde_json::Value, origin: &str) -> anyhow::Result<Asked> {
    if is_one_case(&value) {
        let case: Case =
            serde_json::from_value(value).with_context(|| format!("{origin} is not a case"))?;
        if let Some(id) = &args.case
            && *id != case.id
        {
            bail!("{origin} is the case `{}`, not `{id}`", case.id);
        }
        return Ok(Asked {
            assignment: named(&args.assignment)?,
            input: case.input.clone(),
            options: Options::new(),
            case: Some(case),
        });
    }
    if !is_case_file(&value) {
        if let Some(id) = &args.case {
            bail!("`--case {id}` picks a case of a case file, but {origin} is a board");
        }
        return Ok(Asked {
            assignment: named(&args.assignment)?,
            input: value,
            options: Options::new(),
            case: None,
        });
    }
    let file: CaseFile =
        serde_json::from_value(value).with_context(|| format!("{origin} is not a case file"))?;
    let assignment = case_file_assignment(&args.assignment, &file, origin)?;
    let case = match (&args.case, file.cases.as_slice()) {
        (Some(id), cases) => cases
            .iter()
            .find(|c| c.id == *id)
            .cloned()
            .ok_or_else(|| anyhow!("{origin} has no case `{id}`{}", near_ids(cases, id)))?,
        (None, [one]) => one.clone(),
        (None, cases) => bail!(
            "{origin} is a case file for `{}` with {} cases; `ref` answers about one: name it with `--case ID` (such as `--case {}`), or give a case file with one case (as `check` writes for a counterexample)",
            file.assignment,
            cases.len(),
            cases.first().map_or("ID", |c| c.id.as_str())
        ),
    };
    Ok(Asked {
        assignment,
        input: case.input.clone(),
        options: file.options,
        case: Some(case),
    })
}

/// The ids of `cases` of the function `id` names, for a case not found.
fn near_ids(cases: &[Case], id: &str) -> String {
    let function = id.split('/').next().unwrap_or_default();
    let near: Vec<&str> = cases
        .iter()
        .filter(|c| c.function == function)
        .map(|c| c.id.as_str())
        .collect();
    match near.as_slice() {
        [] => format!(
            " (its functions are {})",
            crate::words::code_list(
                &cases
                    .iter()
                    .map(|c| c.function.clone())
                    .collect::<std::collections::BTreeSet<_>>()
                    .into_iter()
                    .collect::<Vec<_>>()
            )
        ),
        [first, .., last] => format!(
            " (its `{function}` cases are `{first}` to `{last}`; was it made with the same `--seed` and `--cases`?)"
        ),
        [only] => format!(" (its `{function}` case is `{only}`)"),
    }
}

pub(crate) fn reference(args: RefArgs) -> anyhow::Result<u8> {
    let (value, origin) = ref_input(&args)?;
    let asked = asked(&args, value, &origin)?;
    let assignment = asked.assignment;
    let questions = assignment.questions();
    if !questions.iter().any(|q| q.name == args.question) {
        bail!(
            "assignment `{}` has no question `{}`; it answers {}",
            assignment.id(),
            args.question,
            questions
                .iter()
                .map(|q| format!("`{}`", q.name))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    // Typed options win; otherwise the case file's (a counterexample keeps
    // the reading it was graded under).
    let options = if args.options.is_empty() && !asked.options.is_empty() {
        assignment
            .options(&asked.options)
            .map_err(|e| anyhow!("{origin}: its options: {e}"))?
    } else {
        options(assignment, &args.options)?
    };
    let text = assignment
        .ask(&args.question, &asked.input, &args.args, &options)
        .map_err(|e| {
            let of_case = asked
                .case
                .as_ref()
                .map(|c| format!(" (case `{}`, of `{}`)", c.id, c.function))
                .unwrap_or_default();
            anyhow!("{origin}{of_case}: {e}")
        })?;
    Output::Stdout.write(format!("{text}\n").as_bytes())?;
    Ok(SUCCESS)
}
