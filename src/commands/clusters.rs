//! `salgrade clusters`: the common mistakes in a `report.json`.

use super::SUCCESS;
use super::outputs::{Output, read_report};
use crate::cli::ClustersArgs;
use crate::report;

/// `salgrade clusters`: every common mistake in a `report.json`.
pub(crate) fn clusters(args: ClustersArgs) -> anyhow::Result<u8> {
    let report = read_report(&args.report)?;
    Output::Stdout.write(report::clusters::render(&report).as_bytes())?;
    Ok(SUCCESS)
}
