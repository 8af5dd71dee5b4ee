//! `salgrade-reference`: what is true about the snakes-and-ladders assignments.
//!
//! One folder per assignment holds its board model, reference semantics,
//! seeded generator, shrinker and explanations ([`a48`], [`leetcode909`],
//! [`min_throws`]); [`case`] is the
//! assignment-neutral case model every assignment fills. Everything here is
//! pure: no processes, no files, no clock, so the harness and the tests can
//! rely on it giving the same answer for the same input on every machine.
//!
//! The student-side files each assignment ships (the course API and a model
//! solution) live in `python/<assignment>/` beside this crate and are
//! embedded by the assignment's module.

pub mod a48;
pub mod case;
pub mod dice_line;
/// The two-player game (seed 004): a class driven through scenarios of calls; rules, judging, generator, shrinker, explanations.
pub mod game;
/// LeetCode 909, Snakes and Ladders: answer, generator, shrinker, explanations.
pub mod leetcode909;
/// Minimum dice throws on a 0-indexed board (seed 000): answer, generator, shrinker, explanations.
pub mod min_throws;

pub use case::{Case, CaseFile, Options};
