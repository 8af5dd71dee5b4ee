//! `salgrade gen`: a case file generated from a seed.

use super::SUCCESS;
use super::choose::{named, note_long_generation, options};
use super::outputs::{Output, json_output};
use crate::cli::GenArgs;

pub(crate) fn generate(args: GenArgs) -> anyhow::Result<u8> {
    let assignment = named(&args.assignment)?;
    let options = options(assignment, &args.options)?;
    json_output(args.output.as_deref(), "a case file")?;
    let output = Output::open(args.output.as_deref())?;
    note_long_generation(args.cases);
    let mut file = assignment.generate(args.seed, args.cases, &options);
    if !args.only.is_empty() {
        file.cases = only(file.cases, &args.only, args.seed, args.cases)?;
    }
    let mut bytes = serde_json::to_vec_pretty(&file)?;
    bytes.push(b'\n');
    output.write(&bytes)?;
    Ok(SUCCESS)
}

/// The cases named by `ids`, in the order given; an id the seed and count
/// did not make is an error naming the ones they did.
fn only(
    cases: Vec<salgrade_reference::Case>,
    ids: &[String],
    seed: u64,
    count: usize,
) -> anyhow::Result<Vec<salgrade_reference::Case>> {
    let mut kept = Vec::new();
    for id in ids {
        let Some(case) = cases.iter().find(|c| c.id == *id) else {
            let function = id.split('/').next().unwrap_or_default();
            let same: Vec<&str> = cases
                .iter()
                .filter(|c| c.function == function)
                .map(|c| c.id.as_str())
                .collect();
            let made = match (same.first(), same.last()) {
                (Some(first), Some(last)) => {
                    format!("its `{function}` cases are `{first}` to `{last}`")
                }
                _ => format!("it has no `{function}` case"),
            };
            anyhow::bail!(
                "seed {seed} with `--cases {count}` makes no case `{id}` ({made}); give the `--seed`, `--cases` and `--option`s of the run that named it"
            );
        };
        if !kept.contains(case) {
            kept.push(case.clone());
        }
    }
    Ok(kept)
}
