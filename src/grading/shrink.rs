//! Shrinking a failing case to a minimal counterexample, as property-testing
//! tools do: keep the first smaller candidate (the assignment says what
//! "smaller" is) that still fails with the same verdict, until none does or
//! the budget is spent. The oracle that puts a case to the student's code is
//! passed in, so this module starts no process itself.

use std::time::Instant;

use salgrade_reference::{Case, Options};
use serde::{Deserialize, Serialize};

use crate::assignment::Assignment;
use crate::verdict::{Verdict, VerdictKind};

/// What a search may spend.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Budget {
    /// Stop trying candidates at this moment.
    pub until: Instant,
    /// And after this many tries.
    pub max_tries: u32,
}

/// The failing case shown to the student, smallest found, with its story.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Counterexample {
    /// The graded case it was shrunk from.
    pub from_case: String,
    /// The case itself: a case file holding it reproduces the failure.
    pub case: Case,
    /// The input described for a person.
    pub input: String,
    #[serde(flatten)]
    pub verdict: Verdict,
    /// What the reference does on this input, step by step.
    pub explanation: Vec<String>,
    /// The board drawn as text, when small enough.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drawing: Option<String>,
    /// Smaller cases accepted on the way, and candidates tried in all.
    pub shrink_steps: u32,
    pub tries: u32,
    /// Whether no smaller candidate fails (false when the budget ran out).
    pub minimal: bool,
    /// Whether the search stopped because its time (`--shrink-ms`) ran
    /// out: another run, on a busier or quieter machine, may stop on
    /// another board, so this counterexample (and the groups of common
    /// mistakes built from it) can differ between runs. The grade itself
    /// never depends on it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub timing_dependent: bool,
}

/// Whether a failure with this verdict is worth shrinking: not when no case
/// of the function can run at all.
pub(crate) fn worth_shrinking(kind: VerdictKind) -> bool {
    !matches!(
        kind,
        VerdictKind::Pass
            | VerdictKind::MissingFunction
            | VerdictKind::ImportFailed
            | VerdictKind::BuildFailed
    )
}

/// Shrinks `start` (which failed with `verdict`). `oracle` runs a case and
/// judges it; `None` stops the search (a harness failure).
pub(crate) fn shrink(
    assignment: &dyn Assignment,
    options: &Options,
    start: &Case,
    verdict: &Verdict,
    budget: Budget,
    oracle: &mut dyn FnMut(&Case) -> Option<Verdict>,
) -> Counterexample {
    let mut current = (start.clone(), verdict.clone());
    let (mut steps, mut tries) = (0, 0);
    let mut minimal = false;
    let mut out_of_time = false;
    'search: loop {
        let mut smaller = None;
        for candidate in assignment.shrink_candidates(&current.0, options) {
            if Instant::now() >= budget.until {
                out_of_time = true;
                break 'search;
            }
            if tries >= budget.max_tries {
                break 'search;
            }
            tries += 1;
            let Some(v) = oracle(&candidate) else {
                break 'search;
            };
            if assignment.same_failure(verdict, &v) {
                smaller = Some((candidate, v));
                break;
            }
        }
        match smaller {
            Some(next) => {
                current = next;
                steps += 1;
            }
            None => {
                minimal = true;
                break;
            }
        }
    }
    let (case, verdict) = current;
    let (explanation, drawing) = assignment.explain(&case, &verdict);
    Counterexample {
        from_case: start.id.clone(),
        input: assignment.describe_input(&case),
        case,
        verdict,
        explanation,
        drawing,
        shrink_steps: steps,
        tries,
        minimal,
        timing_dependent: out_of_time,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assignment::a48::A48;
    use salgrade_reference::a48::Reading;
    use salgrade_reference::a48::board::Board;
    use salgrade_reference::a48::case::{A48Function, A48Input, a48_case};

    fn case(squares: u64, snadders: &[(u64, u64)], step: u64) -> Case {
        let input = A48Input {
            board: Board::new(squares, snadders).unwrap(),
            args: vec![step],
        };
        a48_case(
            "willfinish/r001".into(),
            "random".into(),
            A48Function::Willfinish,
            input,
            Reading::Either,
        )
        .unwrap()
    }

    fn generous() -> Budget {
        Budget {
            until: Instant::now() + std::time::Duration::from_secs(60),
            max_tries: 10_000,
        }
    }

    #[test]
    fn finds_the_smallest_input_a_fake_bug_fails_on() {
        // The fake student fails whenever the board has a snake and 5+ squares.
        let mut oracle = |c: &Case| {
            let board: Board = serde_json::from_value(c.input["board"].clone()).unwrap();
            let snake = board.snadders().iter().any(|s| s.destination < s.source);
            Some(if snake && board.squares() >= 5 {
                Verdict::new(VerdictKind::WrongAnswer)
            } else {
                Verdict::pass()
            })
        };
        let start = case(60, &[(3, 40), (50, 7), (20, 10), (33, 2)], 17);
        let found = shrink(
            &A48,
            &Options::new(),
            &start,
            &Verdict::new(VerdictKind::WrongAnswer),
            generous(),
            &mut oracle,
        );
        let board: Board = serde_json::from_value(found.case.input["board"].clone()).unwrap();
        assert!(found.minimal);
        assert_eq!(board.squares(), 5, "{board}");
        assert_eq!(board.snadders().len(), 1, "{board}");
        assert_eq!(found.case.input["args"], serde_json::json!([1]));
        assert_eq!(found.from_case, "willfinish/r001");
        assert_eq!(found.case.id, "willfinish/r001~shrunk");
        assert!(found.shrink_steps > 0 && found.drawing.is_some());
    }

    #[test]
    fn keeps_the_verdict_class_and_respects_the_budget() {
        // Smaller inputs fail differently: they are not accepted.
        let mut oracle = |_: &Case| Some(Verdict::new(VerdictKind::Exception));
        let start = case(30, &[(3, 20)], 4);
        let found = shrink(
            &A48,
            &Options::new(),
            &start,
            &Verdict::new(VerdictKind::Timeout),
            generous(),
            &mut oracle,
        );
        assert_eq!(found.shrink_steps, 0);
        assert!(found.minimal);
        assert_eq!(found.case, start);
        let mut calls = 0;
        let mut counting = |_: &Case| {
            calls += 1;
            Some(Verdict::new(VerdictKind::Timeout))
        };
        let tight = Budget {
            until: Instant::now() + std::time::Duration::from_secs(60),
            max_tries: 3,
        };
        let found = shrink(
            &A48,
            &Options::new(),
            &start,
            &Verdict::new(VerdictKind::Timeout),
            tight,
            &mut counting,
        );
        assert_eq!((found.tries, found.minimal), (3, false));
        assert_eq!(calls, 3);
    }
}
