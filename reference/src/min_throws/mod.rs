//! Minimum dice throws (seed 000): the reference answer, the seeded case
//! generator, shrinking and explanations.
//!
//! # Rules (exactly as graded)
//!
//! * The board is a 0-indexed list `move` of `n` cells, `1 <= n <= 100_000`.
//!   `move[i]` is `-1` or the cell a snake or ladder on cell `i` leads to: a
//!   cell in `0..n` other than `i` itself. Cells `0` and `n-1` hold no snake
//!   or ladder.
//! * The player starts on cell 0. A throw of `k` in `1..=6` moves the player
//!   from `v` to `v + k`, but only if `v + k <= n - 1`: no throw goes past
//!   the last cell, and there is no bounce.
//! * Landing on a cell with a snake or ladder takes it, and the throw ends on
//!   its destination. One hop only: if the destination holds a snake or
//!   ladder too, it is not followed in the same throw.
//! * The answer is the least number of throws that ends on cell `n-1`
//!   (0 when `n = 1`), or `-1` when no sequence of throws does.
//!
//! # Case format
//!
//! `function` is [`FUNCTION`], called as `get_min_dice_throws(move, n)`;
//! `input` is `{"move": [-1, 21, ...]}` (`n` is its length); `expected` is
//! `{"answer": N}`.
//!
//! This module is pure: no files, no processes, no clock.

mod explain;
mod generate;
mod input;
mod shrink;
mod solve;

pub use explain::{DRAW_MAX_CELLS, describe, draw, explain};
pub use generate::{Kind, generate, seed_example};
pub use input::{
    Cell, InvalidInput, MAX_CELLS, MAX_PROBLEMS, ParseError, Problem, RawInput, parse,
};
pub use shrink::{measure, shrink, size};
pub use solve::{Step, answer, shortest_path, throws};

/// A validated minimum-throws board (see the module's rules).
pub use input::Input;

/// The function a submission defines: `get_min_dice_throws(move, n)`.
pub const FUNCTION: &str = "get_min_dice_throws";

/// The seed's own name for the function, which the harness also accepts.
pub const SEED_FUNCTION: &str = "getMinDiceThrows";

/// A model solution: `min_throws.py` with `get_min_dice_throws`.
pub const MODEL_SOLUTION_PY: &str = include_str!("../../python/min_throws/min_throws.py");

/// The model solution in C++ (the same algorithm), for C++ submissions.
pub const MODEL_SOLUTION_CPP: &str = include_str!("../../cpp/min_throws/min_throws.cpp");
/// The slowest acceptable Python solution: deadlines are a multiple of its
/// CPU time, so every solution at least this good passes.
pub const NAIVE_SOLUTION_PY: &str = include_str!("../../python/min_throws/naive/min_throws.py");
/// The slowest acceptable C++ solution (see [`NAIVE_SOLUTION_PY`]).
pub const NAIVE_SOLUTION_CPP: &str = include_str!("../../cpp/min_throws/naive/min_throws.cpp");

/// The expected answer in a case's form: `{"answer": N}`.
pub fn expected_json(input: &Input) -> serde_json::Value {
    serde_json::json!({ "answer": answer(input) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::CaseFile;

    /// `fixtures/min-throws/seed-example.json`: the seed's board, re-derived.
    #[test]
    fn the_fixture_file_matches_the_reference() {
        let text = include_str!("../../../fixtures/min-throws/seed-example.json");
        let file: CaseFile = serde_json::from_str(text).unwrap();
        assert_eq!(file.assignment, "min-throws");
        assert_eq!(file.cases.len(), 1);
        let case = &file.cases[0];
        assert_eq!(case.function, FUNCTION);
        let input = parse(&case.input).unwrap();
        assert_eq!(input, seed_example());
        assert_eq!(case.expected, expected_json(&input));
        assert_eq!(case.expected, serde_json::json!({"answer": 3}));
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
            (1, 30, 12977773132068392050, 14326023913733109581),
            (7, 5, 11939807166466085861, 4640354533882963239),
        ];
        assert_eq!(
            got, pinned,
            "seed, random, hash of the cases, hash of the texts"
        );
    }

    #[test]
    fn the_model_solution_is_embedded() {
        assert!(MODEL_SOLUTION_PY.contains("def get_min_dice_throws(move, n)"));
    }
}
