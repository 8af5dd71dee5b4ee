//! The two-player game (seed 004): `snakes_game.py` with `class Game`,
//! graded by scenarios, not single calls. The rules, the scenario format and
//! the judging of a transcript are the reference's
//! (`salgrade_reference::game`); this is its student side: the adapter that
//! plays a scenario on the student's class and reports what happened, and
//! the mapping of the first wrong call to a verdict.

use salgrade_reference::game::{self as reference, Class, Mismatch, Scenario};
use salgrade_reference::{Case, CaseFile, Options};

use super::{Assignment, Question};
use crate::runner::cxx::CxxHarness;
use crate::runner::{Harness, Language};
use crate::verdict::{Verdict, VerdictKind};

pub(crate) struct Game;

fn scenario(case: &Case) -> Option<Scenario> {
    reference::parse(&case.input).ok()
}

/// A generated or shrunk case: the scenario, its unit and its answers.
fn case_of(id: String, label: String, s: &Scenario) -> Option<Case> {
    Some(Case {
        id,
        function: reference::unit_of(s).to_owned(),
        label,
        input: serde_json::to_value(s).ok()?,
        expected: reference::expected_json(s),
    })
}

impl Assignment for Game {
    fn id(&self) -> &'static str {
        "game"
    }

    fn title(&self) -> &'static str {
        "The two-player game (seed 004): `snakes_game.py` with class Game(size, jumps, players, finish), graded by scenarios of calls (Game, move, play)"
    }

    fn functions(&self) -> &'static [&'static str] {
        &reference::UNITS
    }

    fn student_file(&self) -> &'static str {
        "snakes_game.py"
    }

    fn definition_markers(&self) -> Vec<String> {
        vec!["class Game".to_owned()]
    }

    fn languages(&self) -> &'static [Language] {
        &[Language::Python, Language::Cpp]
    }

    fn harness(&self, language: Language) -> Option<Harness> {
        Some(super::python_or_cpp(
            language,
            (self.student_file(), include_str!("adapter.py")),
            CxxHarness {
                student_file: "snakes_game.cpp",
                wrapper: include_str!("student.cpp"),
                adapter: include_str!("adapter.cpp"),
            },
        ))
    }

    fn model_solution(&self, language: Language) -> Option<&'static str> {
        Some(super::by_language(
            language,
            reference::MODEL_SOLUTION_PY,
            reference::MODEL_SOLUTION_CPP,
        ))
    }

    fn naive_solution(&self, language: Language) -> Option<&'static str> {
        Some(super::by_language(
            language,
            reference::NAIVE_SOLUTION_PY,
            reference::NAIVE_SOLUTION_CPP,
        ))
    }

    fn options(&self, given: &Options) -> Result<Options, String> {
        super::no_options(self.id(), given)
    }

    fn generate(&self, seed: u64, random_per_function: usize, _options: &Options) -> CaseFile {
        CaseFile {
            assignment: self.id().to_owned(),
            seed: Some(seed),
            options: Options::new(),
            cases: reference::generate(seed, random_per_function),
        }
    }

    fn check_cases(&self, file: &CaseFile) -> Vec<String> {
        let mut problems = Vec::new();
        for case in &file.cases {
            let s = match reference::parse(&case.input) {
                Ok(s) => s,
                Err(e) => {
                    problems.push(format!("case `{}`: {e}", case.id));
                    continue;
                }
            };
            let want = reference::expected_json(&s);
            if case.expected != want {
                problems.push(format!(
                    "case `{}`: expected {} but the reference says {want}",
                    case.id, case.expected
                ));
            }
        }
        problems
    }

    fn judge_answer(&self, case: &Case, answer: &serde_json::Value) -> Verdict {
        let (Some(s), Ok(expected)) = (
            scenario(case),
            serde_json::from_value(case.expected.clone()),
        ) else {
            return Verdict::harness("salgrade could not read this case (a bug in the case file)");
        };
        match reference::compare(&s, &expected, answer) {
            Ok(()) => Verdict::pass(),
            Err(Mismatch::Wrong(w)) => {
                let kind = match &w.class {
                    Class::WrongAnswer | Class::MissingValueError => VerdictKind::WrongAnswer,
                    Class::WrongType => VerdictKind::WrongType,
                    Class::UnexpectedException { .. } => VerdictKind::Exception,
                };
                Verdict {
                    detail: Some(w.message.clone()),
                    ..Verdict::wrong(kind, w.expected.clone(), w.got.clone())
                }
            }
            Err(e) => Verdict::harness(e.to_string()),
        }
    }

    fn case_size(&self, case: &Case) -> u64 {
        scenario(case).map_or(u64::MAX, |s| reference::size(&s))
    }

    fn describe_input(&self, case: &Case) -> String {
        scenario(case).map_or_else(
            || "(unreadable scenario)".to_owned(),
            |s| reference::describe(&s),
        )
    }

    fn shrink_candidates<'a>(
        &'a self,
        case: &'a Case,
        _options: &'a Options,
    ) -> Box<dyn Iterator<Item = Case> + 'a> {
        let Some(s) = scenario(case) else {
            return Box::new(std::iter::empty());
        };
        let root = case.id.split('~').next().unwrap_or(&case.id).to_owned();
        Box::new(reference::shrink(&s).filter_map(move |smaller| {
            case_of(
                format!("{root}~shrunk"),
                format!("shrunk from {root}"),
                &smaller,
            )
        }))
    }

    fn explain(&self, case: &Case, _verdict: &Verdict) -> (Vec<String>, Option<String>) {
        match scenario(case) {
            Some(s) => (reference::explain(&s), reference::draw(&s)),
            None => (Vec::new(), None),
        }
    }

    fn figure(&self, case: &Case, verdict: &Verdict) -> Option<crate::figure::Figure> {
        let s = scenario(case)?;
        let run = reference::run(&s);
        let calls = run
            .steps
            .iter()
            .map(|step| {
                let result = match &step.result {
                    Ok(v) => format!("returns {v}"),
                    Err(e) => format!("raises ValueError: {e}"),
                };
                (step.call.to_string(), result)
            })
            .collect();
        // The judge names the failing call as `call N of M` (1-based).
        let failing = verdict
            .detail
            .as_deref()
            .and_then(|d| d.split(", call ").nth(1))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse::<usize>().ok())
            .and_then(|n| n.checked_sub(1));
        let state_before = failing
            .and_then(|i| run.steps.get(i))
            .map(|step| vec![reference::state_words(&step.before)])
            .unwrap_or_default();
        Some(crate::figure::Figure::Calls(crate::figure::Calls {
            setting: s.construction_text(),
            calls,
            failing,
            state_before,
        }))
    }

    fn hint(&self, kind: VerdictKind) -> Option<&'static str> {
        match kind {
            VerdictKind::WrongAnswer => Some(
                "a call returned something else, raised no ValueError where the rules call for one, or left a player on the wrong house",
            ),
            VerdictKind::Exception => Some("a call raised an exception the rules do not call for"),
            VerdictKind::MissingFunction => Some("the module has no class `Game` with this method"),
            _ => None,
        }
    }

    /// A scenario fails in one call: a smaller scenario counts as the same
    /// failure only when it fails in a call of the same method, so the
    /// `move` cases' counterexample does not end up failing in `play`.
    fn same_failure(&self, original: &Verdict, candidate: &Verdict) -> bool {
        original.kind == candidate.kind && failing_method(original) == failing_method(candidate)
    }

    fn fails_in_own_call(&self, function: &str, verdict: &Verdict) -> bool {
        failing_method(verdict).is_none_or(|m| m == function)
    }

    fn notes(&self, function: &str, verdict: &Verdict) -> Vec<String> {
        match failing_method(verdict) {
            Some(method) if method != function => vec![format!(
                "This scenario is one of `{function}`'s cases, but the call that fails is `{method}`: look there first."
            )],
            _ => Vec::new(),
        }
    }

    /// The scenario as Python: the game built, then each call in order
    /// (the adapter makes the same calls; see `adapter.py`).
    fn literal_call(&self, case: &Case, language: Language) -> Option<String> {
        if language != Language::Python {
            return None;
        }
        let input = &case.input;
        let jumps: Vec<String> = input
            .get("jumps")?
            .as_array()?
            .iter()
            .map(|j| Some(format!("{}: {}", j.get(0)?.as_i64()?, j.get(1)?.as_i64()?)))
            .collect::<Option<_>>()?;
        let mut lines = vec![format!(
            "g = Game({}, {{{}}}, {}, {})",
            input.get("size")?.as_i64()?,
            jumps.join(", "),
            input.get("players")?.as_i64()?,
            input.get("finish")?
        )];
        for call in input.get("calls")?.as_array()? {
            let args: Vec<String> = call
                .get("args")
                .and_then(|a| a.as_array())
                .map(|a| a.iter().map(python_literal).collect())
                .unwrap_or_default();
            lines.push(format!(
                "g.{}({})",
                call.get("call")?.as_str()?,
                args.join(", ")
            ));
        }
        Some(lines.join("\n"))
    }

    fn questions(&self) -> &'static [Question] {
        &[
            Question {
                name: "expected",
                help: "the expected results of a scenario: each call's return or ValueError, then every position and the winner (no args)",
            },
            Question {
                name: "explain",
                help: "the scenario as the reference plays it, turn by turn (no args)",
            },
            Question {
                name: "draw",
                help: "the board drawn, for up to 100 houses (no args)",
            },
        ]
    }

    fn ask(
        &self,
        question: &str,
        input: &serde_json::Value,
        args: &[u64],
        _options: &Options,
    ) -> Result<String, String> {
        if !args.is_empty() {
            return Err(format!("`{question}` takes no arguments"));
        }
        let s = reference::parse(input).map_err(|e| e.to_string())?;
        Ok(match question {
            "expected" => reference::expected_json(&s).to_string(),
            "explain" => reference::explain(&s).join("\n"),
            "draw" => reference::draw(&s).ok_or("the board is too large to draw")?,
            other => return Err(format!("`game` has no question `{other}`")),
        })
    }
}

/// A JSON value as a Python literal (the scenario's arguments are numbers,
/// lists and strings, written alike in both but for spacing and `null`).
fn python_literal(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Array(items) => format!(
            "[{}]",
            items
                .iter()
                .map(python_literal)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        serde_json::Value::Null => "None".to_owned(),
        serde_json::Value::Bool(b) => if *b { "True" } else { "False" }.to_owned(),
        other => other.to_string(),
    }
}

/// The method whose call a failure's detail names: the reference's message
/// begins with the call (`play([2, 2], 4), call 1 of 2 ...`, see
/// `Context::head` in `reference/src/game/compare.rs`) or the construction
/// (`Game(7, {}, 2, "bounce") should build ...`).
fn failing_method(verdict: &Verdict) -> Option<&str> {
    let detail = verdict.detail.as_deref()?;
    let (name, _) = detail.split_once('(')?;
    reference::UNITS
        .iter()
        .chain(&["position", "winner"])
        .find(|u| **u == name)
        .copied()
}

#[cfg(test)]
mod failing_method_tests {
    use super::*;

    #[test]
    fn the_failing_call_is_read_from_the_reference_message() {
        let v = |d: &str| Verdict {
            detail: Some(d.to_owned()),
            ..Verdict::wrong(VerdictKind::WrongAnswer, "2".to_owned(), "6".to_owned())
        };
        let play =
            v("play([2, 2, 3], 4), call 1 of 2 (before it: players on 1, 1; no winner): ...");
        let moved = v("move(5, 1), call 2 of 2 (before it: ...): should raise ValueError");
        assert_eq!(failing_method(&play), Some("play"));
        assert_eq!(failing_method(&moved), Some("move"));
        assert!(!Game.same_failure(&moved, &play));
        assert!(Game.same_failure(&moved, &moved));
        assert_eq!(Game.notes("move", &play).len(), 1);
        assert!(!Game.fails_in_own_call("move", &play));
        assert!(Game.fails_in_own_call("move", &moved));
        assert!(Game.notes("play", &play).is_empty());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::figure::Figure;

    #[test]
    fn the_figure_is_the_calls_with_the_failing_one_and_the_state_before_it() {
        let case: Case = serde_json::from_value(serde_json::json!({
            "id": "edge/no-chain-1~shrunk",
            "function": "move",
            "input": {"size": 30, "jumps": [[5, 29], [29, 30]], "players": 1, "finish": "bounce",
                      "calls": [{"call": "move", "args": [1, 3]}, {"call": "move", "args": [1, 1]}]},
            "expected": {"construct": "ok", "calls": [{"returns": 4}, {"returns": 29}],
                         "after": [{"positions": [4], "winner": 0}, {"positions": [29], "winner": 0}]}
        }))
        .unwrap();
        let verdict = Verdict {
            detail: Some(
                "move(1, 1), call 2 of 2 (before it: player 1 on 4; no winner): should return 29, but returned 30".into(),
            ),
            ..Verdict::wrong(VerdictKind::WrongAnswer, "29", "30")
        };
        let Some(Figure::Calls(calls)) = Game.figure(&case, &verdict) else {
            panic!("the game's figure is its calls");
        };
        assert_eq!(calls.calls.len(), 2);
        assert_eq!(
            calls.calls[1],
            ("move(1, 1)".to_owned(), "returns 29".to_owned())
        );
        assert_eq!(calls.failing, Some(1));
        assert_eq!(
            calls.state_before,
            vec!["player 1 on 4; no winner".to_owned()]
        );
    }
}
