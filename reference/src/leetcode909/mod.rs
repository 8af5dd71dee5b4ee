//! LeetCode 909, *Snakes and Ladders*: the reference answer, the seeded case
//! generator, shrinking and explanations.
//!
//! # Rules (exactly as graded)
//!
//! * The board is `n x n` with `2 <= n <= 20`. Its squares are labelled
//!   `1..=n²` boustrophedon from the bottom left: `board[n-1][0]` is square
//!   1, the bottom row runs left to right, the row above it right to left,
//!   and so on, alternating.
//! * Each cell holds `-1` (no snake or ladder) or a destination label in
//!   `1..=n²`. Squares 1 and n² never hold a snake or ladder; validation
//!   rejects a board where they do. A cell whose destination is its own
//!   label is valid (LeetCode's constraints allow it) and behaves exactly
//!   like `-1`: taking it leaves the player where they landed.
//! * The player starts on square 1. A move from `curr` chooses `next` in
//!   `curr+1..=min(curr+6, n²)`. If `next` holds a snake or ladder the
//!   player must take it and ends the move on its destination, otherwise on
//!   `next`. One hop only: if the destination itself holds a snake or
//!   ladder, it is not followed in the same move.
//! * The answer is the least number of moves that ends on square n², or
//!   `-1` when no sequence of moves does.
//!
//! # Case format
//!
//! `function` is [`FUNCTION`]; `input` is `{"board": [[-1, ...], ...]}` with
//! the rows exactly as LeetCode's `board` (top row first); `expected` is
//! `{"answer": N}`.
//!
//! This module is pure: no files, no processes, no clock.

mod explain;
mod generate;
mod input;
mod shrink;
mod solve;

pub use explain::{DRAW_MAX_N, describe, draw, explain};
pub use generate::{Kind, generate, seed_examples};
pub use input::{
    InvalidInput, Label, MAX_N, MAX_PROBLEMS, MIN_N, ParseError, Problem, RawInput, cell_of,
    label_of, parse,
};
pub use shrink::{shrink, size};
pub use solve::{Step, answer, moves, shortest_path};

/// A validated LeetCode 909 board (see the module's rules).
pub use input::Input;

/// The function a submission defines: `Solution().snakesAndLadders(board)`.
pub const FUNCTION: &str = "snakesAndLadders";

/// A model solution: `class Solution` with `snakesAndLadders`.
pub const MODEL_SOLUTION_PY: &str = include_str!("../../python/leetcode909/solution.py");

/// The model solution in C++ (the same algorithm), for C++ submissions.
pub const MODEL_SOLUTION_CPP: &str = include_str!("../../cpp/leetcode909/solution.cpp");
/// The slowest acceptable Python solution: deadlines are a multiple of its
/// CPU time, so every solution at least this good passes.
pub const NAIVE_SOLUTION_PY: &str = include_str!("../../python/leetcode909/naive/solution.py");
/// The slowest acceptable C++ solution (see [`NAIVE_SOLUTION_PY`]).
pub const NAIVE_SOLUTION_CPP: &str = include_str!("../../cpp/leetcode909/naive/solution.cpp");

/// The expected answer in a case's form: `{"answer": N}`.
pub fn expected_json(input: &Input) -> serde_json::Value {
    serde_json::json!({ "answer": answer(input) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::CaseFile;

    /// `fixtures/leetcode909/seed-examples.json`: the statement's examples,
    /// re-derived here. Regenerate by hand from [`seed_examples`] if the
    /// examples ever change (they are LeetCode's, so they should not).
    #[test]
    fn the_fixture_file_matches_the_reference() {
        let text = include_str!("../../../fixtures/leetcode909/seed-examples.json");
        let file: serde_json::Value = serde_json::from_str(text).unwrap();
        assert_eq!(file["assignment"], "leetcode909");
        let cases = file["cases"].as_array().unwrap();
        assert_eq!(cases.len(), 2);
        for (case, (_, input)) in cases.iter().zip(seed_examples()) {
            assert_eq!(case["function"], FUNCTION);
            let parsed = parse(&case["input"]).unwrap();
            assert_eq!(parsed, input);
            assert_eq!(case["expected"], expected_json(&parsed));
        }
        let _: CaseFile = serde_json::from_str(text).unwrap();
    }

    /// Pins, byte for byte, the generated cases of two seeds and every text
    /// and number the harness shows for them (answer, size, description,
    /// explanation, drawing, the first shrink candidates). A change that
    /// moves either hash changes what students are graded on or told; if it
    /// is meant, print the new values and say why in the commit.
    #[test]
    fn generated_cases_and_their_texts_are_pinned() {
        let got = crate::dice_line::pinned_hashes(&[(1, 30), (7, 5)], generate, |case| {
            let input = parse(&case.input).unwrap();
            let mut texts = format!("{} {}\n", answer(&input), size(&input));
            texts.push_str(&describe(&input));
            texts.push_str(&explain(&input).join("\n"));
            texts.push_str(&draw(&input).unwrap_or_default());
            for smaller in shrink(&input).take(3) {
                texts.push_str(&describe(&smaller));
            }
            texts
        });
        let pinned = [
            (1, 30, 17747086155933786445, 16980334660344218792),
            (7, 5, 13270440091279090652, 5900940512134390846),
        ];
        assert_eq!(
            got, pinned,
            "seed, random, hash of the cases, hash of the texts"
        );
    }

    #[test]
    fn the_model_solution_is_embedded() {
        assert!(MODEL_SOLUTION_PY.contains("class Solution"));
        assert!(
            MODEL_SOLUTION_PY.contains("def snakesAndLadders(self, board: List[List[int]]) -> int")
        );
    }
}
