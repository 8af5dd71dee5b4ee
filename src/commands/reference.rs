//! `salgrade ref`: the reference's answer to one question about an input.

use anyhow::{Context, anyhow, bail};

use salgrade_reference::CaseFile;

use super::SUCCESS;
use super::choose::{case_file_assignment, named, options};
use crate::assignment::Assignment;
use crate::cli::RefArgs;

/// The input `ref` asks about: a file or JSON on the command line.
fn ref_input(args: &RefArgs) -> anyhow::Result<(serde_json::Value, String)> {
    match (&args.board, &args.board_json) {
        (Some(path), _) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read board file `{}`", path.display()))?;
            let value = serde_json::from_str(&text)
                .with_context(|| format!("board file `{}` is not JSON", path.display()))?;
            Ok((value, format!("board file `{}`", path.display())))
        }
        (None, Some(json)) => Ok((
            serde_json::from_str(json).context("`--board-json` is not JSON")?,
            "`--board-json`".to_owned(),
        )),
        (None, None) => bail!("give a board with `--board FILE` or `--board-json JSON`"),
    }
}

/// A case file given as the board (`ref --board cases.json`): its
/// assignment, which wins over the default, and its one case's input.
fn from_case_file(
    args: &RefArgs,
    value: serde_json::Value,
    origin: &str,
) -> anyhow::Result<(&'static dyn Assignment, serde_json::Value)> {
    let is_case_file = value
        .get("assignment")
        .is_some_and(serde_json::Value::is_string)
        && value.get("cases").is_some_and(serde_json::Value::is_array);
    if !is_case_file {
        return Ok((named(&args.assignment)?, value));
    }
    let file: CaseFile =
        serde_json::from_value(value).with_context(|| format!("{origin} is not a case file"))?;
    let assignment = case_file_assignment(&args.assignment, &file, origin)?;
    match file.cases.as_slice() {
        [one] => Ok((assignment, one.input.clone())),
        cases => bail!(
            "{origin} is a case file for `{}` with {} cases; `ref` answers about one input: give a case file with one case (as `check` writes for a counterexample), or its `input` with `--board-json`",
            file.assignment,
            cases.len()
        ),
    }
}

pub(crate) fn reference(args: RefArgs) -> anyhow::Result<u8> {
    let (input, origin) = ref_input(&args)?;
    let (assignment, input) = from_case_file(&args, input, &origin)?;
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
    let options = options(assignment, &args.options)?;
    let text = assignment
        .ask(&args.question, &input, &args.args, &options)
        .map_err(|e| anyhow!("{origin}: {e}"))?;
    println!("{text}");
    Ok(SUCCESS)
}
