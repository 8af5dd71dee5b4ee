//! `salgrade merge`: shard reports combined into one.

use anyhow::bail;

use super::exit_code;
use super::outputs::{Output, check_layout, read_report, rendered};
use crate::cli::MergeArgs;
use crate::report::{self, StudentReport};

/// `salgrade merge`: shard reports read, checked against each other and
/// combined into one report in the format asked for.
pub(crate) fn merge(args: MergeArgs) -> anyhow::Result<u8> {
    let roster = check_layout(args.format, args.csv_layout, args.roster.as_deref())?;
    let output = Output::open(args.output.as_deref())?;
    let mut reports = Vec::new();
    for path in &args.reports {
        let report = read_report(path)?;
        reports.push((path.display().to_string(), report));
    }
    let merged = report::merge::merge(reports)?;
    for w in &merged.warnings {
        eprintln!("warning: {w}");
    }
    let report = merged.report;
    if args.format.single_submission() && report.students.len() != 1 {
        bail!(
            "`--format {}` reports one submission, but the reports hold {}",
            args.format.name(),
            report.students.len()
        );
    }
    let all_full = report.students.iter().all(StudentReport::full_marks);
    output.write(&rendered(
        &report,
        args.format,
        args.csv_layout,
        roster.as_ref(),
    )?)?;
    Ok(exit_code(all_full))
}
