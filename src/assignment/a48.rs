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

use std::collections::BTreeSet;

use salgrade_reference::case::a48_case;
use salgrade_reference::case::a48_expected;
use salgrade_reference::python::{MODEL_SOLUTION_PY, SALBNODE_PY, SALBOARD_PY};
use salgrade_reference::{
    A48Expected, A48Function, A48Input, Board, Case, CaseFile, Reading, explain, generate, shrink,
};

use super::{Assignment, GenSettings};
use crate::grading::verdict::{Verdict, VerdictKind};
use crate::runner::ContainerRule;

pub(crate) struct A48;

const FUNCTIONS: &[&str] = &["salb2salbLL", "willfinish", "whowins", "dualboard"];

fn input_of(case: &Case) -> Option<A48Input> {
    serde_json::from_value(case.input.clone()).ok()
}

fn expected_of(case: &Case) -> Option<A48Expected> {
    serde_json::from_value(case.expected.clone()).ok()
}

fn words(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::Bool(true) => "True".to_owned(),
        serde_json::Value::Bool(false) => "False".to_owned(),
        serde_json::Value::Null => "None".to_owned(),
        other => other.to_string(),
    }
}

/// How the driver described a returned plain value, in Python words.
fn got_words(outcome: &serde_json::Value) -> String {
    let ty = outcome["type"].as_str().unwrap_or("?");
    if let Some(r) = outcome["repr"].as_str() {
        return format!("{r} ({})", crate::words::a(ty));
    }
    let v = &outcome["value"];
    match ty {
        "str" => format!("{v} (a str)"),
        "NoneType" => "None".to_owned(),
        _ => format!("{} ({})", words(v), crate::words::a(ty)),
    }
}

impl A48 {
    fn judge_value(
        &self,
        function: A48Function,
        accepted: &[serde_json::Value],
        outcome: &serde_json::Value,
    ) -> Verdict {
        let ty = outcome["type"].as_str().unwrap_or("");
        let expected = accepted.iter().map(words).collect::<Vec<_>>().join(" or ");
        let type_ok = match function {
            A48Function::Willfinish => ty == "bool",
            A48Function::Whowins => ty == "int",
            _ => false,
        };
        if !type_ok {
            let want = if function == A48Function::Willfinish {
                "True or False (a bool)"
            } else {
                "1 or 2 (an int)"
            };
            return Verdict::wrong(VerdictKind::WrongType, want, got_words(outcome));
        }
        if accepted.contains(&outcome["value"]) {
            Verdict::pass()
        } else {
            Verdict::wrong(VerdictKind::WrongAnswer, expected, words(&outcome["value"]))
        }
    }

    fn judge_list(
        &self,
        function: A48Function,
        board: &Board,
        outcome: &serde_json::Value,
    ) -> Verdict {
        if outcome["kind"] != "list" {
            return Verdict::wrong(
                VerdictKind::WrongType,
                "the first SALBnode of a circular list",
                got_words(outcome),
            );
        }
        let n = u64::from(board.squares());
        let length = outcome["length"].as_u64().unwrap_or(0);
        let end = &outcome["end"];
        let structural = match end["kind"].as_str() {
            Some("circular") if length == n => None,
            Some("circular") => Some(format!(
                "the list is a circle of {}; the board has {}",
                crate::words::count(length, "node", "nodes"),
                crate::words::count(n, "square", "squares")
            )),
            Some("open") => Some(format!(
                "the list is not circular: node {length}'s next is None (the last square must link back to the first)"
            )),
            Some("loops_back") => Some(format!(
                "node {length}'s next points back to node {}, not to the first node",
                end["to"].as_u64().unwrap_or(0) + 1
            )),
            Some("too_long") => Some(format!(
                "the list goes on past {} without returning to the first",
                crate::words::count(n, "node", "nodes")
            )),
            Some("not_a_node") => Some(format!(
                "node {length}'s next is {}, not a SALBnode",
                crate::words::a(end["type"].as_str().unwrap_or("value"))
            )),
            _ => Some("the driver could not read the returned list".to_owned()),
        };
        if let Some(reason) = structural {
            return Verdict::detail(VerdictKind::InvalidStructure, reason);
        }
        let outside = outcome["outside"].as_array().cloned().unwrap_or_default();
        if let Some(first) = outside.first() {
            let square = first[0].as_u64().unwrap_or(0) + 1;
            return match first[1].as_str() {
                Some("input") => Verdict::detail(
                    VerdictKind::SharesInput,
                    format!("square {square}'s snadder points to a node of the input list"),
                ),
                Some("not_a_node") => Verdict::detail(
                    VerdictKind::InvalidStructure,
                    format!("square {square}'s snadder is not a SALBnode"),
                ),
                _ => Verdict::detail(
                    VerdictKind::InvalidStructure,
                    format!("square {square}'s snadder points to a node outside the returned list"),
                ),
            };
        }
        let shared = outcome["shares_input"].as_u64().unwrap_or(0);
        if shared > 0 && function == A48Function::Dualboard {
            return Verdict::detail(
                VerdictKind::SharesInput,
                format!("{shared} node(s) of the returned list belong to the input list"),
            );
        }
        let got: BTreeSet<(u64, u64)> = outcome["snadders"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|p| {
                        (
                            p[0].as_u64().unwrap_or(0) + 1,
                            p[1].as_u64().unwrap_or(0) + 1,
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        let want = pairs(board);
        if got == want {
            return Verdict::pass();
        }
        let missing: Vec<String> = want
            .difference(&got)
            .map(|(s, d)| format!("{s}->{d}"))
            .take(5)
            .collect();
        let extra: Vec<String> = got
            .difference(&want)
            .map(|(s, d)| format!("{s}->{d}"))
            .take(5)
            .collect();
        let mut detail = Vec::new();
        let got_pairs: Vec<(u32, u32)> = got.iter().map(|&(s, d)| (s as u32, d as u32)).collect();
        if let Some((square, want, have)) = explain::first_wrong_node(board, &got_pairs) {
            let says = |d: Option<u32>| match d {
                Some(d) => format!("a snadder to square {d}"),
                None => "no snadder".to_owned(),
            };
            detail.push(format!(
                "first wrong node: node {square} should have {}, but has {}",
                says(want),
                says(have)
            ));
        }
        if !missing.is_empty() {
            detail.push(format!("missing {}", missing.join(", ")));
        }
        if !extra.is_empty() {
            detail.push(format!("unexpected {}", extra.join(", ")));
        }
        Verdict {
            detail: Some(detail.join("; ")),
            ..Verdict::wrong(
                VerdictKind::WrongAnswer,
                snadder_words(&want),
                snadder_words(&got),
            )
        }
    }
}

fn indent(line: String) -> String {
    format!("  {line}")
}

fn pairs(board: &Board) -> BTreeSet<(u64, u64)> {
    board.pairs().into_iter().collect()
}

fn snadder_words(set: &BTreeSet<(u64, u64)>) -> String {
    if set.is_empty() {
        return "no snadders".to_owned();
    }
    let mut parts: Vec<String> = set
        .iter()
        .take(12)
        .map(|(s, d)| format!("{s}->{d}"))
        .collect();
    if set.len() > 12 {
        parts.push(format!("... ({} in all)", set.len()));
    }
    format!("snadders {}", parts.join(", "))
}

impl Assignment for A48 {
    fn id(&self) -> &'static str {
        "a48"
    }

    fn functions(&self) -> &'static [&'static str] {
        FUNCTIONS
    }

    fn student_file(&self) -> &'static str {
        "salbLLfunctions.py"
    }

    fn support_files(&self) -> Vec<(&'static str, &'static str)> {
        vec![("salboard.py", SALBOARD_PY), ("salbnode.py", SALBNODE_PY)]
    }

    fn model_solution(&self) -> &'static str {
        MODEL_SOLUTION_PY
    }

    fn generate(&self, s: GenSettings) -> CaseFile {
        generate(salgrade_reference::GenOptions {
            seed: s.seed,
            random_per_function: s.random_per_function,
            reading: s.reading,
        })
    }

    fn check_cases(&self, file: &CaseFile) -> Vec<String> {
        let mut problems = Vec::new();
        let mut ids = BTreeSet::new();
        for case in &file.cases {
            if !ids.insert(case.id.as_str()) {
                problems.push(format!("case `{}`: the id is used twice", case.id));
            }
            let Some(function) = A48Function::from_name(&case.function) else {
                problems.push(format!(
                    "case `{}`: unknown function `{}` (expected one of {})",
                    case.id,
                    case.function,
                    FUNCTIONS.join(", ")
                ));
                continue;
            };
            let input: A48Input = match serde_json::from_value(case.input.clone()) {
                Ok(i) => i,
                Err(e) => {
                    problems.push(format!("case `{}`: bad input: {e}", case.id));
                    continue;
                }
            };
            let expected = match a48_expected(function, &input, file.reading) {
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

    fn request(&self, case: &Case) -> serde_json::Value {
        serde_json::json!({
            "type": "call",
            "case": case.id,
            "function": case.function,
            "board": case.input["board"],
            "args": case.input["args"],
        })
    }

    fn judge_answer(&self, case: &Case, message: &serde_json::Value) -> Verdict {
        let (Some(function), Some(expected)) =
            (A48Function::from_name(&case.function), expected_of(case))
        else {
            return Verdict::detail(
                VerdictKind::ProcessDied,
                "salgrade could not read this case (a bug in the case file)",
            );
        };
        let outcome = &message["outcome"];
        let verdict = match (&expected, function) {
            (A48Expected::OneOf(accepted), A48Function::Willfinish | A48Function::Whowins) => {
                self.judge_value(function, accepted, outcome)
            }
            (A48Expected::Board(board), A48Function::Salb2salbLL | A48Function::Dualboard) => {
                self.judge_list(function, board, outcome)
            }
            _ => Verdict::detail(
                VerdictKind::ProcessDied,
                "the case's expected answer does not fit its function",
            ),
        };
        if verdict.passed() {
            if let Some(what) = message["input_changed"].as_str() {
                return Verdict::detail(VerdictKind::ChangedInput, what);
            }
        }
        verdict
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
        reading: Reading,
    ) -> Box<dyn Iterator<Item = Case> + 'a> {
        let (Some(function), Some(input)) =
            (A48Function::from_name(&case.function), input_of(case))
        else {
            return Box::new(std::iter::empty());
        };
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
                    crate::words::count(u64::from(board.squares()), "node", "nodes"),
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

    fn container_rule(&self) -> Option<ContainerRule> {
        Some(ContainerRule {
            checked: &["willfinish", "whowins", "dualboard"],
            exempt: &["salb2salbLL"],
            summary: "The handout forbids lists, tuples, sets and dicts in every function but `salb2salbLL`, and in every helper the other three call.",
        })
    }
}
