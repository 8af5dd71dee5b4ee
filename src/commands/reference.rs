//! `salgrade ref`: the reference's answer to one question about an input.

use anyhow::{Context, anyhow, bail};

use super::SUCCESS;
use super::choose::{named, options};
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

pub(crate) fn reference(args: RefArgs) -> anyhow::Result<u8> {
    let assignment = named(&args.assignment)?;
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
    let (input, origin) = ref_input(&args)?;
    let text = assignment
        .ask(&args.question, &input, &args.args, &options)
        .map_err(|e| anyhow!("{origin}: {e}"))?;
    println!("{text}");
    Ok(SUCCESS)
}
