//! Which functions a case set covers. A hand-written case file may hold
//! cases for some functions only (a reproduction of one failure, say):
//! `check` and `grade` then score just those, out of their points only, and
//! say which functions were not tested, so neither "0/0 cases" nor a failing
//! exit code comes from a function nobody asked about.

use salgrade_reference::CaseFile;

use super::{Report, StudentReport};
use crate::grading::round2;

/// The functions of `functions` that no case of `file` asks about.
pub(crate) fn untested<'a>(file: &CaseFile, functions: &[&'a str]) -> Vec<&'a str> {
    functions
        .iter()
        .copied()
        .filter(|f| !file.cases.iter().any(|c| c.function == *f))
        .collect()
}

/// The sentence naming the functions left out.
pub(crate) fn warning(untested: &[&str], origin: &str) -> String {
    format!(
        "not tested: {} ({origin} has no cases for them); scores and the exit code count only the functions tested",
        crate::words::code_list(untested)
    )
}

/// Drops `untested` functions from the report: they leave the function list,
/// each student's functions, and the maximum score, so the score and the
/// exit code count only what was asked. The penalty already charged stays.
pub(crate) fn only_tested(report: &mut Report, untested: &[&str]) {
    if untested.is_empty() {
        return;
    }
    report.functions.retain(|f| !untested.contains(&f.as_str()));
    for s in &mut report.students {
        restrict(s, untested);
    }
}

fn restrict(s: &mut StudentReport, untested: &[&str]) {
    s.functions.retain(|f, _| !untested.contains(&f.as_str()));
    let max: f64 = s.functions.values().map(|f| f.max_points).sum();
    let earned: f64 = s.functions.values().map(|f| f.points).sum();
    s.max_score = round2(max);
    s.score = round2((earned - s.penalty).max(0.0));
}
