//! `salgrade init`: the default rubric of an assignment, written out.

use anyhow::bail;

use super::SUCCESS;
use super::choose::named;
use crate::cli::InitArgs;
use crate::grading::rubric;
use crate::output;

pub(crate) fn init(args: InitArgs) -> anyhow::Result<u8> {
    let assignment = named(&args.assignment)?;
    let text = rubric::default_toml(
        assignment.functions(),
        assignment.container_rule().map(|r| r.summary),
    );
    if args.rubric.as_os_str() == "-" {
        super::outputs::Output::Stdout.write(text.as_bytes())?;
        return Ok(SUCCESS);
    }
    if args.rubric.exists() && !args.force {
        bail!(
            "`{}` already exists; pass `--force` to overwrite it",
            args.rubric.display()
        );
    }
    output::write(&args.rubric, text.as_bytes())?;
    eprintln!(
        "wrote the default rubric for `{}` to `{}`",
        assignment.id(),
        args.rubric.display()
    );
    Ok(SUCCESS)
}
