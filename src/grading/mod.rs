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
                // salgrade's own clock, as the deadline counts (every
                // thread and child of the session), never the student's
                // process's account of itself.
                RawOutcome::Answered {
                    wall_ms,
                    process_cpu_us,
                    ..
                } => (Some(*wall_ms), process_cpu_us.map(|us| us as f64 / 1000.0)),
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

/// The hint for `function`'s shown failure (its counterexample, else its
/// smallest failing case), in the assignment's words; `None` when every
/// case passed.
///
/// A timeout is told apart by the student's own cases: when the same code
/// returns on a smaller board of the function, it is not known to loop
/// forever, only not to end in time on boards of this size, and the hint
/// says both ("loops, or is too slow for boards of N squares") rather than
/// sending a correct but slow student looking for an endless loop.
pub(crate) fn hint(
    assignment: &dyn Assignment,
    function: &str,
    score: &FunctionScore,
    cases: &[Case],
    results: &[CaseResult],
) -> Option<String> {
    let (verdict, case) = match (&score.counterexample, &score.smallest_failure) {
        (Some(c), _) => (&c.verdict, Some(&c.case)),
        (None, Some(f)) => (&f.verdict, cases.iter().find(|c| c.id == f.case_id)),
        (None, None) => return None,
    };
    let plain = crate::assignment::hint(assignment, verdict.kind).to_owned();
    if verdict.kind != crate::verdict::VerdictKind::Timeout {
        return Some(plain);
    }
    let Some(squares) = case.and_then(|c| assignment.board_squares(c)) else {
        return Some(plain);
    };
    let passes_smaller = results.iter().zip(cases).any(|(r, c)| {
        *r.function == *function
            && r.verdict.passed()
            && assignment.board_squares(c).is_some_and(|n| n < squares)
    });
    Some(if passes_smaller {
        timeout_hint(squares)
    } else {
        plain
    })
}

/// The hint for a timeout of code that returns on smaller boards.
pub(crate) fn timeout_hint(squares: u64) -> String {
    let boards = crate::words::count(squares, "square", "squares");
    format!(
        "your function did not return in time on a board of {boards}, though it returns on smaller ones: it loops, or is too slow for boards of {boards} (look for a loop that never ends, or for work repeated on every move)"
    )
}

pub(crate) fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::VerdictKind;

    fn case(id: &str, squares: u64) -> Case {
        Case {
            id: id.to_owned(),
            function: "whowins".to_owned(),
            label: String::new(),
            input: serde_json::json!({"board": {"squares": squares, "snadders": []}, "args": [1, 2]}),
            expected: serde_json::json!({"one_of": [1]}),
        }
    }

    fn result(id: &str, kind: VerdictKind) -> CaseResult {
        CaseResult {
            case_id: shared(id),
            function: shared("whowins"),
            verdict: Verdict::new(kind),
            wall_ms: None,
            cpu_ms: None,
        }
    }

    fn timing_out_on(id: &str) -> FunctionScore {
        FunctionScore {
            passed: 1,
            total: 2,
            points: 0.0,
            max_points: 25.0,
            smallest_failure: Some(Failure {
                case_id: id.to_owned(),
                label: String::new(),
                input: String::new(),
                verdict: Verdict::new(VerdictKind::Timeout),
            }),
            counterexample: None,
            hint: None,
            notes: Vec::new(),
        }
    }

    #[test]
    fn a_timeout_of_code_that_returns_on_smaller_boards_may_be_slowness() {
        let a48 = crate::assignment::by_id("a48").unwrap();
        let cases = [case("small", 3), case("large", 4000)];
        // Returns on 3 squares, times out on 4,000: loops or is too slow.
        let results = [
            result("small", VerdictKind::Pass),
            result("large", VerdictKind::Timeout),
        ];
        let said = hint(a48, "whowins", &timing_out_on("large"), &cases, &results).unwrap();
        assert!(
            said.contains("it loops, or is too slow for boards of 4000 squares"),
            "{said}"
        );
        // Times out on the smallest board it was given: a loop.
        let results = [
            result("small", VerdictKind::Timeout),
            result("large", VerdictKind::Pass),
        ];
        let said = hint(a48, "whowins", &timing_out_on("small"), &cases, &results).unwrap();
        assert_eq!(said, VerdictKind::Timeout.hint());
    }
}
