//! Grading: pure functions from raw outcomes to verdicts, per-function
//! tallies and points under a rubric. No processes, no files.

pub(crate) mod clusters;
pub(crate) mod judge;
pub(crate) mod lint;
pub(crate) mod rubric;
pub(crate) mod shrink;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use crate::assignment::Assignment;
use crate::outcome::RawOutcome;
use crate::verdict::Verdict;
use rubric::Rubric;
use salgrade_reference::Case;

/// One case's judged result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub(crate) struct CaseResult {
    // Shared by every student's result for the case (see `shared`): a
    // cohort of a thousand keeps one copy of each id, not a thousand.
    pub case_id: Arc<str>,
    pub function: Arc<str>,
    #[serde(flatten)]
    pub verdict: Verdict,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wall_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_ms: Option<f64>,
}

/// One function's score.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub(crate) struct FunctionScore {
    pub passed: u32,
    pub total: u32,
    pub points: f64,
    pub max_points: f64,
    /// The smallest failing case, shown to the student.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub smallest_failure: Option<Failure>,
    /// The smallest failure shrunk further against the student's code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counterexample: Option<shrink::Counterexample>,
    /// What the shown failure's verdict means, in the assignment's words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// Remarks on the shown failure (an accepted ambiguity, a common cause).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// A failing case as a student sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub(crate) struct Failure {
    pub case_id: String,
    pub label: String,
    pub input: String,
    #[serde(flatten)]
    pub verdict: Verdict,
}

/// One copy of each case id and function name for the whole run.
pub(crate) fn shared(text: &str) -> Arc<str> {
    static SEEN: Mutex<BTreeSet<Arc<str>>> = Mutex::new(BTreeSet::new());
    let Ok(mut seen) = SEEN.lock() else {
        return Arc::from(text);
    };
    if let Some(found) = seen.get(text) {
        return Arc::clone(found);
    }
    let made: Arc<str> = Arc::from(text);
    seen.insert(Arc::clone(&made));
    made
}

/// Judges every outcome of a submission.
pub(crate) fn judge_all(
    assignment: &dyn Assignment,
    cases: &[Case],
    outcomes: &[RawOutcome],
) -> Vec<CaseResult> {
    cases
        .iter()
        .zip(outcomes)
        .map(|(case, outcome)| {
            let verdict = judge::judge(assignment, case, outcome);
            let (wall_ms, cpu_ms) = match outcome {
                RawOutcome::Answered { reply, wall_ms, .. } => (Some(*wall_ms), reply.cpu_ms),
                _ => (None, None),
            };
            CaseResult {
                case_id: shared(&case.id),
                function: shared(&case.function),
                verdict,
                wall_ms,
                cpu_ms,
            }
        })
        .collect()
}

/// The index of `function`'s smallest failing case, by the assignment's
/// measure of size: the one shown to the student and shrunk further.
pub(crate) fn smallest_failing(
    assignment: &dyn Assignment,
    cases: &[Case],
    results: &[CaseResult],
    function: &str,
) -> Option<usize> {
    results
        .iter()
        .zip(cases)
        .enumerate()
        .filter(|(_, (r, _))| *r.function == *function && !r.verdict.passed())
        // A case failing in a call of its own function is shown first (a
        // game scenario of `move`'s can fail in a `play` call), then size.
        .min_by_key(|(_, (r, c))| {
            (
                !assignment.fails_in_own_call(function, &r.verdict),
                assignment.case_size(c),
            )
        })
        .map(|(i, _)| i)
}

/// A student's tally under a rubric.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Tally {
    pub functions: BTreeMap<String, FunctionScore>,
    pub score: f64,
    pub max_score: f64,
    pub penalty: f64,
}

/// Tallies per function and applies the rubric's points and penalties.
pub(crate) fn score(
    assignment: &dyn Assignment,
    rubric: &Rubric,
    cases: &[Case],
    results: &[CaseResult],
    offending_functions: usize,
) -> Tally {
    let mut functions = BTreeMap::new();
    for &f in assignment.functions() {
        let mine: Vec<&CaseResult> = results.iter().filter(|r| *r.function == *f).collect();
        let total = mine.len() as u32;
        let passed = mine.iter().filter(|r| r.verdict.passed()).count() as u32;
        let max_points = rubric.points_for(f);
        let points = rubric.partial_credit.points(max_points, passed, total);
        let smallest_failure = smallest_failing(assignment, cases, results, f)
            .map(|i| (&results[i], &cases[i]))
            .map(|(r, c)| Failure {
                case_id: r.case_id.to_string(),
                label: c.label.clone(),
                input: assignment.describe_input(c),
                verdict: r.verdict.clone(),
            });
        functions.insert(
            f.to_owned(),
            FunctionScore {
                passed,
                total,
                points,
                max_points,
                smallest_failure,
                counterexample: None,
                hint: None,
                notes: Vec::new(),
            },
        );
    }
    let max: f64 = functions.values().map(|f| f.max_points).sum();
    let earned: f64 = functions.values().map(|f| f.points).sum();
    let penalty = rubric.penalty(offending_functions);
    Tally {
        score: round2((earned - penalty).max(0.0)),
        max_score: round2(max),
        functions,
        penalty,
    }
}

pub(crate) fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}
