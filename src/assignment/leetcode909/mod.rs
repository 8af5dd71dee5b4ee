//! LeetCode 909, Snakes and Ladders (seeds 002, 003): `solution.py` with
//! `class Solution` and `snakesAndLadders(self, board) -> int`. The rules
//! and the reference are in `salgrade_reference::leetcode909`; this is its
//! student side: the adapter that hands each call a fresh board and provides
//! the names LeetCode's runtime provides without an import.

use salgrade_reference::Case;
use salgrade_reference::leetcode909::{self as reference, Input};

use super::numeric::IntProblem;
use crate::runner::cxx::CxxHarness;
use crate::runner::{Harness, Language};

pub(crate) struct LeetCode909;

impl IntProblem for LeetCode909 {
    type Input = Input;

    fn id(&self) -> &'static str {
        "leetcode909"
    }

    fn title(&self) -> &'static str {
        "LeetCode 909, Snakes and Ladders: the least number of moves on an n x n boustrophedon board, -1 when unreachable (`solution.py`: class Solution, snakesAndLadders)"
    }

    fn student_file(&self) -> &'static str {
        "solution.py"
    }

    fn functions(&self) -> &'static [&'static str] {
        &[reference::FUNCTION]
    }

    fn definition_markers(&self) -> Vec<String> {
        vec![format!("def {}(", reference::FUNCTION)]
    }

    fn harness(&self, language: Language) -> Option<Harness> {
        Some(super::python_or_cpp(
            language,
            (self.student_file(), include_str!("adapter.py")),
            CxxHarness {
                student_file: "solution.cpp",
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
                squares: std::iter::once(1)
                    .chain(steps.iter().map(|s| u64::from(s.to)))
                    .collect(),
            })
            .into_iter()
            .collect();
        crate::figure::Board {
            layout: crate::figure::Layout::Boustrophedon {
                side: input.n() as u64,
            },
            squares: u64::from(input.last()),
            first: 1,
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
        "board"
    }

    fn literal_call(&self, input: &serde_json::Value, language: Language) -> Option<String> {
        let rows = input.get("board")?.as_array()?;
        let row = |r: &serde_json::Value, open: &str, close: &str| -> Option<String> {
            let cells: Vec<String> = r
                .as_array()?
                .iter()
                .map(|c| c.as_i64().map(|c| c.to_string()))
                .collect::<Option<_>>()?;
            Some(format!("{open}{}{close}", cells.join(", ")))
        };
        let (open, close) = match language {
            Language::Python => ("[", "]"),
            Language::Cpp => ("{", "}"),
        };
        let rows: Vec<String> = rows
            .iter()
            .map(|r| row(r, open, close))
            .collect::<Option<_>>()?;
        let board = format!("{open}{}{close}", rows.join(", "));
        Some(match language {
            Language::Python => format!("Solution().snakesAndLadders({board})"),
            Language::Cpp => {
                format!("vector<vector<int>> board = {board};\nSolution().snakesAndLadders(board);")
            }
        })
    }

    fn signature(&self) -> &'static str {
        "`class Solution` with Python `def snakesAndLadders(self, board)`, C++ `public: int snakesAndLadders(vector<vector<int>>& board)`"
    }
}
