//! `salgrade merge`: shard reports combined into one.

use std::collections::BTreeMap;

use anyhow::bail;

use super::exit_code;
use super::outputs::{Output, check_layout, format_for, read_report, rendered};
use crate::cli::MergeArgs;
use crate::grading::round2;
use crate::grading::rubric::PartialCredit;
use crate::report::{self, StudentReport};

/// `salgrade merge`: shard reports read, checked against each other and
/// combined into one report in the format asked for.
pub(crate) fn merge(args: MergeArgs) -> anyhow::Result<u8> {
    let format = format_for(args.format, args.output.as_deref())?;
    let roster = check_layout(
        format,
        args.csv_layout,
        args.roster.as_deref(),
        &args.canvas,
    )?;
    let output = Output::open(args.output.as_deref())?;
    let mut reports = Vec::new();
    let mut max_points = BTreeMap::new();
    for path in &args.reports {
        let report = read_report(path)?;
        for s in &report.students {
            if let Err(why) = adds_up(s, &mut max_points) {
                bail!(
                    "report `{}`: the scores of student `{}` do not add up ({why}); it was edited or damaged: grade that shard again",
                    path.display(),
                    s.student
                );
            }
        }
        reports.push((path.display().to_string(), report));
    }
    let merged = report::merge::merge(reports, args.allow_different_builds)?;
    for w in &merged.warnings {
        eprintln!("warning: {w}");
    }
    let report = merged.report;
    if format.single_submission() && report.students.len() != 1 {
        bail!(
            "`--format {}` reports one submission, but the reports hold {}",
            format.name(),
            report.students.len()
        );
    }
    let all_full = report.students.iter().all(StudentReport::full_marks);
    let width = output.width();
    output.write(&rendered(
        &report,
        format,
        args.csv_layout,
        roster.as_ref(),
        width,
    )?)?;
    Ok(exit_code(all_full || format.exits_zero()))
}

/// Whether a shard's student adds up, as `--resume` checks a journal
/// record: each function's tally is what the student's own case verdicts
/// count, its points what a partial-credit mode gives that tally, its
/// maximum the one every other student of the merge has (`max_points`
/// collects them; the shards' rubric is the same, checked by fingerprint),
/// and the score the points less the penalty. A report holds the rubric
/// only as a fingerprint, so the mode and the penalty per violation are
/// not re-derived; a score edited by hand still fails.
fn adds_up(s: &StudentReport, max_points: &mut BTreeMap<String, f64>) -> Result<(), String> {
    let mut wrong = Vec::new();
    if let Some(stray) = s
        .cases
        .iter()
        .find(|c| !s.functions.contains_key(&*c.function))
    {
        wrong.push(format!(
            "case `{}` is for `{}`, which it has no score for",
            stray.case_id, stray.function
        ));
    }
    let mut earned = 0.0;
    let mut max = 0.0;
    for (f, score) in &s.functions {
        let mine = s.cases.iter().filter(|c| *c.function == **f);
        let total = mine.clone().count();
        let passed = mine.filter(|c| c.verdict.passed()).count();
        if (score.passed as usize, score.total as usize) != (passed, total) {
            wrong.push(format!(
                "`{f}` says {}/{} passed where its cases say {passed}/{total}",
                score.passed, score.total
            ));
        }
        let first = *max_points.entry(f.clone()).or_insert(score.max_points);
        if score.max_points != first || !score.max_points.is_finite() {
            wrong.push(format!(
                "`{f}` is out of {} where other students' are out of {first}",
                score.max_points
            ));
        }
        let modes = [PartialCredit::Proportional, PartialCredit::AllOrNothing];
        if !modes
            .iter()
            .any(|m| m.points(score.max_points, score.passed, score.total) == score.points)
        {
            wrong.push(format!(
                "`{f}` has {} points, which {}/{} passed cases do not earn",
                score.points, score.passed, score.total
            ));
        }
        earned += score.points;
        max += score.max_points;
    }
    let penalty_ok =
        s.penalty.is_finite() && s.penalty >= 0.0 && (s.penalty == 0.0 || !s.violations.is_empty());
    if !penalty_ok {
        wrong.push(format!("a penalty of {} without its violations", s.penalty));
    }
    let score = round2((earned - s.penalty).max(0.0));
    if s.score != score {
        wrong.push(format!(
            "score {} where its functions earn {score}",
            s.score
        ));
    }
    if s.max_score != round2(max) {
        wrong.push(format!(
            "maximum {} where its functions add up to {}",
            s.max_score,
            round2(max)
        ));
    }
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(wrong.join("; "))
    }
}
