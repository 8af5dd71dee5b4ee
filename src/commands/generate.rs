//! `salgrade gen`: a case file generated from a seed.

use super::SUCCESS;
use super::choose::{named, note_long_generation, options};
use super::outputs::Output;
use crate::cli::GenArgs;

pub(crate) fn generate(args: GenArgs) -> anyhow::Result<u8> {
    let assignment = named(&args.assignment)?;
    let options = options(assignment, &args.options)?;
    let output = Output::open(args.output.as_deref())?;
    note_long_generation(args.cases);
    let file = assignment.generate(args.seed, args.cases, &options);
    let mut bytes = serde_json::to_vec_pretty(&file)?;
    bytes.push(b'\n');
    output.write(&bytes)?;
    Ok(SUCCESS)
}
