//! CSC A48 Assignment 1: `salb2salbLL`, `willfinish`, `whowins`, `dualboard`
//! over a circular linked list of `SALBnode`s.
//!
//! Accepted answer types, and why:
//! * `willfinish` must return a `bool`. `1` or `"True"` is a wrong type: the
//!   handout asks "whether", and a caller testing `is True` would break.
//! * `whowins` must return the `int` 1 or 2. `True` (which Python equates to
//!   1) is a wrong type, as is `"1"`.
//! * `salb2salbLL` and `dualboard` must return the first node of a circular
//!   list of exactly `n` nodes; `dualboard`'s nodes must all be new.

use salgrade_reference::a48::case::{
    A48Expected, A48Function, A48Input, A48Options, a48_case, a48_expected,
};
use salgrade_reference::a48::python::{
    MODEL_SOLUTION_PY, NAIVE_SOLUTION_PY, SALBNODE_PY, SALBOARD_PY,
};
use salgrade_reference::a48::{self, explain, generate, shrink};
use salgrade_reference::{Case, CaseFile, Options};
use serde::Deserialize;

use super::values::{Plain, python};
use super::{Assignment, ContainerRule, Question};
use crate::runner::{Harness, Language};
use crate::verdict::{Verdict, VerdictKind};
use crate::words;

mod list;
mod reference_questions;

use list::{judge_list, pairs, snadder_words};

pub(crate) struct A48;

const FUNCTIONS: &[&str] = &["salb2salbLL", "willfinish", "whowins", "dualboard"];

fn input_of(case: &Case) -> Option<A48Input> {
    serde_json::from_value(case.input.clone()).ok()
}

fn expected_of(case: &Case) -> Option<A48Expected> {
    serde_json::from_value(case.expected.clone()).ok()
}

/// The adapter's description of a returned value (`adapter.py`).
#[derive(Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Answer {
    /// A plain value, with its Python type.
    Value(Plain),
    /// A returned list of nodes, walked at most one node past the board.
    List {
        length: u64,
        end: ListEnd,
        /// 0-based (node, node) pairs inside the returned list.
        snadders: Vec<(u64, u64)>,
        /// Snadders leading out of the list: (node, "input" | "not_a_node" | "other").
        outside: Vec<(u64, String)>,
        shares_input: u64,
    },
}

#[derive(Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
enum ListEnd {
    Circular,
    Open,
    LoopsBack {
        to: u64,
    },
    TooLong,
    NotANode {
        #[serde(rename = "type")]
        ty: String,
    },
}

/// A returned value, in Python words.
fn got_words(answer: &Answer) -> String {
    match answer {
        Answer::Value(plain) => plain.words(),
        Answer::List { .. } => "a linked list of SALBnodes".to_owned(),
    }
}

fn judge_value(function: A48Function, accepted: &[serde_json::Value], answer: &Answer) -> Verdict {
    let type_ok = match (function, answer) {
        (A48Function::Willfinish, Answer::Value(v)) => v.ty == "bool",
        (A48Function::Whowins, Answer::Value(v)) => v.ty == "int",
        _ => false,
    };
    if !type_ok {
        let want = if function == A48Function::Willfinish {
            "True or False (a bool)"
        } else {
            "1 or 2 (an int)"
        };
        return Verdict::wrong(VerdictKind::WrongType, want, got_words(answer));
    }
    let Answer::Value(Plain { value, .. }) = answer else {
        unreachable!("type_ok holds only for values")
    };
    if accepted.contains(value) {
        Verdict::pass()
    } else {
        let expected = accepted.iter().map(python).collect::<Vec<_>>().join(" or ");
        Verdict::wrong(VerdictKind::WrongAnswer, expected, python(value))
    }
}

fn indent(line: String) -> String {
    format!("  {line}")
}

impl Assignment for A48 {
    fn id(&self) -> &'static str {
        "a48"
    }

    fn title(&self) -> &'static str {
        "CSC A48 Assignment 1: a snakes-and-ladders board as a circular linked list (`salbLLfunctions.py`: salb2salbLL, willfinish, whowins, dualboard)"
    }

    fn functions(&self) -> &'static [&'static str] {
        FUNCTIONS
    }

    fn student_file(&self) -> &'static str {
        "salbLLfunctions.py"
    }

    fn harness(&self, language: Language) -> Option<Harness> {
        (language == Language::Python).then(|| Harness::Python {
            student_file: self.student_file(),
            support: vec![
                ("salboard.py", SALBOARD_PY),
                ("salbnode.py", SALBNODE_PY),
                super::VALUES_FILE,
            ],
            adapter: ADAPTER_PY,
        })
    }

    fn model_solution(&self, language: Language) -> Option<&'static str> {
        (language == Language::Python).then_some(MODEL_SOLUTION_PY)
    }

    fn naive_solution(&self, language: Language) -> Option<&'static str> {
        (language == Language::Python).then_some(NAIVE_SOLUTION_PY)
    }

    fn option_help(&self) -> Option<&'static str> {
        Some(
            "`reading=either` (default) accepts either reading of a start on the last square in `whowins`; `reading=counts` counts the start as move 1; `reading=separate` does not",
        )
    }

    fn options(&self, given: &Options) -> Result<Options, String> {
        A48Options::from_options(given)
            .map(A48Options::to_options)
            .map_err(|e| format!("{e} (a48 takes `reading=counts|separate|either`)"))
    }

    fn generate(&self, seed: u64, random_per_function: usize, options: &Options) -> CaseFile {
        generate::generate(generate::GenOptions {
            seed,
            random_per_function,
            reading: reading(options),
        })
    }

    fn check_cases(&self, file: &CaseFile) -> Vec<String> {
        let mut problems = Vec::new();
        let options = match A48Options::from_options(&file.options) {
            Ok(o) => o,
            Err(e) => return vec![format!("bad options: {e}")],
        };
        for case in &file.cases {
            // Unknown functions are reported by the engine for every assignment.
            let Some(function) = A48Function::from_name(&case.function) else {
                continue;
            };
            let input: A48Input = match serde_json::from_value(case.input.clone()) {
                Ok(i) => i,
                Err(e) => {
                    problems.push(format!("case `{}`: bad input: {e}", case.id));
                    continue;
                }
            };
            let expected = match a48_expected(function, &input, options.reading) {
                Ok(e) => e,
                Err(e) => {
                    problems.push(format!("case `{}`: {e}", case.id));
                    continue;
                }
            };
            match expected_of(case) {
                Some(given) if given == expected => {}
                Some(given) => problems.push(format!(
                    "case `{}`: expected {} but the reference says {}",
                    case.id,
                    serde_json::to_string(&given).unwrap_or_default(),
                    serde_json::to_string(&expected).unwrap_or_default()
                )),
                None => problems.push(format!(
                    "case `{}`: `expected` is neither {{\"one_of\": [...]}} nor {{\"board\": ...}}",
                    case.id
                )),
            }
        }
        problems
    }

    fn judge_answer(&self, case: &Case, answer: &serde_json::Value) -> Verdict {
        let (Some(function), Some(expected)) =
            (A48Function::from_name(&case.function), expected_of(case))
        else {
            return Verdict::harness("salgrade could not read this case (a bug in the case file)");
        };
        let answer: Answer = match serde_json::from_value(answer.clone()) {
            Ok(a) => a,
            // The description was made in the student's process, by code
            // their value can subvert (a type whose `__name__` is not a
            // string): what cannot be decoded is their answer's fault.
            Err(e) => return crate::verdict::undescribable_answer(&e),
        };
        match (&expected, function) {
            (A48Expected::OneOf(accepted), A48Function::Willfinish | A48Function::Whowins) => {
                judge_value(function, accepted, &answer)
            }
            (A48Expected::Board(board), A48Function::Salb2salbLL | A48Function::Dualboard) => {
                judge_list(function, board, &answer)
            }
            _ => Verdict::harness("the case's expected answer does not fit its function"),
        }
    }

    fn squares(&self, case: &Case) -> Option<u64> {
        case.input["board"]["squares"].as_u64()
    }

    fn case_size(&self, case: &Case) -> u64 {
        input_of(case)
            .map(|i| {
                u64::from(i.board.squares()) * 1000
                    + i.board.snadders().len() as u64 * 10
                    + i.args.iter().sum::<u64>().min(9)
            })
            .unwrap_or(u64::MAX)
    }

    fn describe_input(&self, case: &Case) -> String {
        let Some(input) = input_of(case) else {
            return "(unreadable input)".to_owned();
        };
        let mut s = format!("board: {}", input.board);
        match input.args.as_slice() {
            [s1] => s.push_str(&format!("; stepsize {s1}")),
            [s1, s2] => s.push_str(&format!("; step1 {s1}, step2 {s2}")),
            _ => {}
        }
        s
    }

    fn shrink_candidates<'a>(
        &'a self,
        case: &'a Case,
        options: &'a Options,
    ) -> Box<dyn Iterator<Item = Case> + 'a> {
        let (Some(function), Some(input)) =
            (A48Function::from_name(&case.function), input_of(case))
        else {
            return Box::new(std::iter::empty());
        };
        let reading = reading(options);
        let root = case.id.split('~').next().unwrap_or(&case.id).to_owned();
        let start = shrink::Input {
            board: input.board,
            args: input.args,
        };
        Box::new(shrink::candidates(start).filter_map(move |c| {
            a48_case(
                format!("{root}~shrunk"),
                format!("shrunk from {root}"),
                function,
                A48Input {
                    board: c.board,
                    args: c.args,
                },
                reading,
            )
            .ok()
        }))
    }

    fn explain(&self, case: &Case, verdict: &Verdict) -> (Vec<String>, Option<String>) {
        let (Some(function), Some(input)) =
            (A48Function::from_name(&case.function), input_of(case))
        else {
            return (Vec::new(), None);
        };
        let board = &input.board;
        let mut lines = Vec::new();
        match (function, input.args.as_slice()) {
            (A48Function::Willfinish, [s]) => lines = explain::narrate_walk(board, *s),
            (A48Function::Whowins, [s1, s2]) => {
                lines.push(format!("Player 1, step size {s1}:"));
                lines.extend(explain::narrate_walk(board, *s1).into_iter().map(indent));
                lines.push(format!("Player 2, step size {s2}:"));
                lines.extend(explain::narrate_walk(board, *s2).into_iter().map(indent));
                lines.push(explain::whowins_reason(board, *s1, *s2));
            }
            (A48Function::Dualboard, _) => {
                lines.push(format!(
                    "The dual board reverses every snadder: {}.",
                    snadder_words(&pairs(&board.dual()))
                ));
            }
            (A48Function::Salb2salbLL, _) => {
                lines.push(format!(
                    "The list must have {} in a circle, node i for square i, with {}.",
                    words::count(u64::from(board.squares()), "node", "nodes"),
                    snadder_words(&pairs(board))
                ));
            }
            _ => {}
        }
        if verdict.kind == VerdictKind::ChangedInput {
            lines.push("Your function must leave the input list as it found it.".to_owned());
        }
        (lines, explain::draw(board))
    }

    fn figure(&self, case: &Case, verdict: &Verdict) -> Option<crate::figure::Figure> {
        let function = A48Function::from_name(&case.function)?;
        let input = input_of(case)?;
        let board = &input.board;
        let n = u64::from(board.squares());
        // Enough moves to finish or repeat a square (see `finish_time`).
        let walk_of = |step: u64, caption: String| {
            let (moves, end) = a48::walk(board, step, n + 1);
            let squares = std::iter::once(n)
                .chain(moves.iter().map(|m| u64::from(m.to)))
                .collect();
            (crate::figure::Walk { caption, squares }, end)
        };
        let settled = |end: &a48::WalkEnd, who: &str| match end {
            a48::WalkEnd::Finished { at_move } => {
                Some((n, format!("{who} finishes here after {at_move} move(s)")))
            }
            a48::WalkEnd::Loops { square, .. } => Some((
                u64::from(*square),
                format!("{who} comes back here, so never finishes"),
            )),
            a48::WalkEnd::Truncated => None,
        };
        let (walks, mut wrong_at) = match (function, input.args.as_slice()) {
            (A48Function::Willfinish, [step]) => {
                let (walk, end) = walk_of(*step, format!("step size {step}"));
                (vec![walk], settled(&end, "the player"))
            }
            (A48Function::Whowins, [s1, s2]) => {
                let (w1, e1) = walk_of(*s1, format!("player 1, step size {s1}"));
                let (w2, e2) = walk_of(*s2, format!("player 2, step size {s2}"));
                let second = verdict.expected.as_deref().is_some_and(|e| e.contains('2'));
                let at = if second {
                    settled(&e2, "player 2")
                } else {
                    settled(&e1, "player 1")
                };
                (vec![w1, w2], at)
            }
            _ => {
                // Structural answers name their first wrong node.
                let node = verdict
                    .detail
                    .as_deref()
                    .and_then(|d| d.split("first wrong node: node ").nth(1))
                    .and_then(|rest| rest.split_whitespace().next())
                    .and_then(|q| q.parse::<u64>().ok());
                (
                    Vec::new(),
                    node.map(|q| (q, "the first node that differs".to_owned())),
                )
            }
        };
        // Only an answer (or a returned list) can part from the reference
        // at a square; a crash or a timeout has none.
        if !matches!(
            verdict.kind,
            VerdictKind::WrongAnswer | VerdictKind::InvalidStructure
        ) {
            wrong_at = None;
        }
        Some(crate::figure::Figure::Board(crate::figure::Board {
            layout: crate::figure::Layout::Ring,
            squares: n,
            first: 1,
            jumps: board.pairs(),
            walks,
            wrong_at,
        }))
    }

    fn hint(&self, kind: VerdictKind) -> Option<&'static str> {
        match kind {
            VerdictKind::InvalidStructure => Some(
                "the list you returned is not a circular list with one node per square, or a snadder points outside it",
            ),
            VerdictKind::ChangedInput => {
                Some("the input must describe the same board when your function returns")
            }
            VerdictKind::SharesInput => {
                Some("the returned list must be made of new nodes, not nodes of the input list")
            }
            _ => None,
        }
    }

    fn notes(&self, function: &str, verdict: &Verdict) -> Vec<String> {
        let both = function == "whowins"
            && verdict
                .expected
                .as_deref()
                .is_some_and(|e| e.contains(" or "));
        if both {
            vec!["Both answers are accepted here: the handout can be read two ways when a start lands on the last square.".to_owned()]
        } else {
            Vec::new()
        }
    }

    fn container_rule(&self) -> Option<ContainerRule> {
        Some(ContainerRule {
            checked: &["willfinish", "whowins", "dualboard"],
            exempt: &["salb2salbLL", "salbnode.SALBnode", "salboard.SALboard"],
            summary: "The handout forbids lists, tuples, sets and dicts in every function but `salb2salbLL`, and in every helper the other three call.",
        })
    }

    /// The call in Python, with the board built by the course's `SALboard`
    /// (and, for the functions that take a list, the student's own
    /// `salb2salbLL`, as the handout's examples do).
    fn literal_call(&self, case: &Case, language: Language) -> Option<String> {
        if language != Language::Python {
            return None;
        }
        let input = input_of(case)?;
        let board = &input.board;
        let snadders: Vec<String> = board
            .pairs()
            .iter()
            .map(|(s, d)| format!("{s}: {d}"))
            .collect();
        let made = format!("SALboard({}, {{{}}})", board.squares(), snadders.join(", "));
        let first = if case.function == "salb2salbLL" {
            made
        } else {
            format!("salb2salbLL({made})")
        };
        let mut args = vec![first];
        args.extend(input.args.iter().map(ToString::to_string));
        Some(format!("{}({})", case.function, args.join(", ")))
    }

    fn questions(&self) -> &'static [Question] {
        reference_questions::QUESTIONS
    }

    fn ask(
        &self,
        question: &str,
        input: &serde_json::Value,
        args: &[u64],
        options: &Options,
    ) -> Result<String, String> {
        reference_questions::ask(question, input, args, reading(options))
    }
}

/// The adapter the driver loads for A48.
const ADAPTER_PY: &str = include_str!("adapter.py");

/// The validated reading of `options` (the engine validated them once).
fn reading(options: &Options) -> a48::Reading {
    A48Options::from_options(options)
        .map(|o| o.reading)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use salgrade_reference::a48::board::Board;

    use super::*;
    use crate::figure::{Figure, Layout};

    fn case(function: A48Function, squares: u64, snadders: &[(u64, u64)], args: &[u64]) -> Case {
        let input = A48Input {
            board: Board::new(squares, snadders).unwrap(),
            args: args.to_vec(),
        };
        a48_case(
            "t".into(),
            String::new(),
            function,
            input,
            a48::Reading::Either,
        )
        .unwrap()
    }

    fn board(figure: Option<Figure>) -> crate::figure::Board {
        match figure {
            Some(Figure::Board(b)) => b,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn willfinish_draws_the_walk_on_the_ring_and_rings_where_it_settles() {
        // 4 squares, a snake 2->1, step 2: 4 -> 2 (snake to 1) -> 3 -> 1, a loop.
        let c = case(A48Function::Willfinish, 4, &[(2, 1)], &[2]);
        let wrong = Verdict::wrong(VerdictKind::WrongAnswer, "False", "True");
        let b = board(A48.figure(&c, &wrong));
        assert_eq!(b.layout, Layout::Ring);
        assert_eq!((b.squares, b.first), (4, 1));
        assert_eq!(b.jumps, vec![(2, 1)]);
        assert_eq!(b.walks.len(), 1);
        assert_eq!(b.walks[0].squares, vec![4, 1, 3, 1]);
        let (square, why) = b.wrong_at.unwrap();
        assert_eq!(square, 1);
        assert!(why.contains("never finishes"), "{why}");
        let timeout = Verdict::new(VerdictKind::Timeout);
        assert!(board(A48.figure(&c, &timeout)).wrong_at.is_none());
    }

    #[test]
    fn whowins_draws_both_walks_and_a_list_its_first_wrong_node() {
        let c = case(A48Function::Whowins, 2, &[], &[2, 1]);
        let wrong = Verdict::wrong(VerdictKind::WrongAnswer, "1", "2");
        let b = board(A48.figure(&c, &wrong));
        assert_eq!(b.walks.len(), 2);
        assert_eq!(b.wrong_at.map(|(q, _)| q), Some(2));
        let c = case(A48Function::Dualboard, 3, &[(1, 2)], &[]);
        let wrong = Verdict {
            detail: Some("first wrong node: node 2 should have a snadder to square 1".into()),
            ..Verdict::new(VerdictKind::InvalidStructure)
        };
        let b = board(A48.figure(&c, &wrong));
        assert!(b.walks.is_empty());
        assert_eq!(b.wrong_at.map(|(q, _)| q), Some(2));
    }
}
