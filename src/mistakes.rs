//! The common mistakes of a graded cohort: the groups of
//! `grading::clusters`, with the re-runs that make them robust run on the
//! engine, a few students at a time. Orchestration only; the grouping rules
//! live in `grading::clusters`.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::discover::Submission;
use crate::engine::Engine;
use crate::grading::clusters::{self, Answers, Cluster};
use crate::report::Report;

/// The report's common mistakes, largest first. `subs` are the graded
/// submissions (a student not among them is asked nothing, which keeps
/// their groups apart); `jobs` students are re-run at once.
pub(crate) fn find(
    engine: &Engine,
    report: &Report,
    subs: &[Submission],
    jobs: usize,
) -> Vec<Cluster> {
    let mut groups = clusters::initial(report);
    // A group shown its smallest failing case (no counterexample) gets that
    // case from the case file, so it can be re-run and drawn too.
    for g in &mut groups {
        if g.case.is_none()
            && let Some(id) = &g.from_case
        {
            g.case = engine.case_file.cases.iter().find(|c| c.id == *id).cloned();
        }
    }
    let asks = clusters::cross_checks(&groups);
    let by_name: BTreeMap<&str, &Submission> =
        subs.iter().map(|s| (s.student.as_str(), s)).collect();
    let work: Vec<(&String, &Vec<usize>)> = asks
        .iter()
        .filter(|(s, _)| by_name.contains_key(s.as_str()))
        .collect();
    let answers = Mutex::new(Answers::new());
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for slot in 0..jobs.clamp(1, work.len().max(1)) {
            let (work, next, answers, by_name, groups) =
                (&work, &next, &answers, &by_name, &groups);
            scope.spawn(move || {
                while let Some((student, asked)) = work.get(next.fetch_add(1, Ordering::SeqCst)) {
                    let boards: Vec<(&salgrade_reference::Case, &str)> = asked
                        .iter()
                        .filter_map(|&g| {
                            let group = &groups[g];
                            Some((group.case.as_ref()?, group.from_case.as_deref()?))
                        })
                        .collect();
                    // Every asked group has a board and its origin (only
                    // such groups are paired), so the answers line up.
                    let got = match by_name.get(student.as_str()) {
                        Some(sub) if boards.len() == asked.len() => {
                            engine.rerun(sub, slot + 1, &boards)
                        }
                        _ => vec![None; asked.len()],
                    };
                    if let Ok(mut answers) = answers.lock() {
                        answers.insert((*student).clone(), got);
                    }
                }
            });
        }
    });
    let answers = answers.into_inner().unwrap_or_default();
    let mut merged = clusters::merge(groups, &asks, &answers);
    crate::report::mistake::in_report_order(report, &mut merged);
    merged
}
