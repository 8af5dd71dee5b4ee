//! `salgrade-reference`: what is true about the snakes-and-ladders assignments.
//!
//! The board model and its validation ([`board`]), each assignment's reference
//! semantics ([`a48`]), the case model ([`case`]) and the seeded generator
//! ([`generate`]). Everything here is pure: no processes, no files, no clock,
//! so the harness and the tests can rely on it giving the same answer for the
//! same input on every machine.
//!
//! The Python side of "what is true" (the course API and a model solution)
//! lives in `python/` beside this crate and is embedded through [`python`].

pub mod a48;
pub mod board;
pub mod case;
pub mod explain;
pub mod generate;
/// LeetCode 909, Snakes and Ladders: answer, generator, shrinker, explanations.
pub mod leetcode909;
/// Minimum dice throws on a 0-indexed board (seed 000): answer, generator, shrinker, explanations.
pub mod min_throws;
pub mod python;
pub mod shrink;

pub use a48::{Player, Reading};
pub use board::{Board, BoardProblem, InvalidBoard, Snadder, Square};
pub use case::{A48Expected, A48Function, A48Input, Case, CaseFile};
pub use generate::{GenOptions, generate};
