//! Minimum dice throws (seed 000): `min_throws.py` with
//! `get_min_dice_throws(move, n) -> int` (or the seed's `getMinDiceThrows`). The rules
//! and the reference are in `salgrade_reference::min_throws`; this is its
//! student side: the adapter that hands each call a fresh list and accepts
//! either name.

use salgrade_reference::Case;
use salgrade_reference::min_throws::{self as reference, Input};

use super::numeric::IntProblem;
use crate::runner::cxx::CxxHarness;
use crate::runner::{Harness, Language};

pub(crate) struct MinThrows;

impl IntProblem for MinThrows {
    type Input = Input;

    fn id(&self) -> &'static str {
        "min-throws"
    }

    fn title(&self) -> &'static str {
        "Minimum dice throws (BFS): the least number of throws from cell 0 to cell n-1 of a 0-indexed board, -1 when unreachable (`min_throws.py`: get_min_dice_throws)"
    }

    fn student_file(&self) -> &'static str {
        "min_throws.py"
    }

    fn functions(&self) -> &'static [&'static str] {
        &[reference::FUNCTION]
    }

    fn definition_markers(&self) -> Vec<String> {
        [reference::FUNCTION, reference::SEED_FUNCTION]
            .iter()
            .map(|f| format!("def {f}("))
            .collect()
    }

    fn harness(&self, language: Language) -> Option<Harness> {
        Some(super::python_or_cpp(
            language,
            (self.student_file(), include_str!("adapter.py")),
            CxxHarness {
                student_file: "min_throws.cpp",
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

    fn parse(&self, input: &serde_json::Value) -> Result<Input, String> {
        reference::parse(input).map_err(|e| e.to_string())
    }

    fn answer(&self, input: &Input) -> i64 {
        reference::answer(input)
    }

    fn generate(&self, seed: u64, random: usize) -> Vec<Case> {
        reference::generate(seed, random)
    }

    fn shrink(&self, input: &Input) -> Box<dyn Iterator<Item = Input>> {
        Box::new(reference::shrink(input))
    }

    fn size(&self, input: &Input) -> u64 {
        reference::size(input)
    }

    fn describe(&self, input: &Input) -> String {
        reference::describe(input)
    }

    fn explain(&self, input: &Input) -> Vec<String> {
        reference::explain(input)
    }

    fn draw(&self, input: &Input) -> Option<String> {
        reference::draw(input)
    }

    fn board(&self, input: &Input) -> crate::figure::Board {
        let walks = reference::shortest_path(input)
            .map(|steps| crate::figure::Walk {
                caption: "a shortest walk".to_owned(),
                squares: std::iter::once(0)
                    .chain(steps.iter().map(|s| u64::from(s.to)))
                    .collect(),
            })
            .into_iter()
            .collect();
        crate::figure::Board {
            layout: crate::figure::Layout::Line,
            squares: input.len() as u64,
            first: 0,
            jumps: input
                .jumps()
                .into_iter()
                .map(|(a, b)| (u64::from(a), u64::from(b)))
                .collect(),
            walks,
            wrong_at: None,
        }
    }

    fn board_key(&self) -> &'static str {
        "move"
    }

    fn literal_call(&self, input: &serde_json::Value, language: Language) -> Option<String> {
        let cells: Vec<String> = input
            .get("move")?
            .as_array()?
            .iter()
            .map(|c| c.as_i64().map(|c| c.to_string()))
            .collect::<Option<_>>()?;
        let n = cells.len();
        let cells = cells.join(", ");
        Some(match language {
            Language::Python => format!("{}([{cells}], {n})", reference::FUNCTION),
            Language::Cpp => format!(
                "int move[] = {{{cells}}};\n{}(move, {n});",
                reference::FUNCTION
            ),
        })
    }

    fn call_aliases(&self) -> &'static [(&'static str, &'static str)] {
        &[(reference::FUNCTION, reference::SEED_FUNCTION)]
    }

    fn signature(&self) -> &'static str {
        "Python `def get_min_dice_throws(move, n)` (or `getMinDiceThrows`); C++ `int get_min_dice_throws(int move[], int N)` (or `getMinDiceThrows`), not `static`"
    }
}
