//! Cases and case files: the assignment-neutral shape every runner, grader and
//! report works with. Each assignment gives `input`, `expected` and `options`
//! their meaning (see its folder's `case` module).
//!
//! A case file is JSON:
//!
//! ```json
//! {
//!   "assignment": "a48",
//!   "seed": 1,
//!   "options": {"reading": "either"},
//!   "cases": [
//!     {"id": "willfinish/e001", "function": "willfinish", "label": "edge: one square",
//!      "input": {"board": {"squares": 1, "snadders": []}, "args": [1]},
//!      "expected": {"one_of": [true]}}
//!   ]
//! }
//! ```

use serde::{Deserialize, Serialize};

/// The public default seed: students self-check with it. Any other seed is
/// an instructor's secret until they say otherwise.
pub const PUBLIC_SEED: u64 = 1;
/// The default number of random cases per function, on top of each
/// assignment's fixed edge cases.
pub const DEFAULT_RANDOM_CASES: usize = 30;

/// An assignment's own parameters (A48's `reading`), recorded with the cases
/// they shaped. Each assignment validates and fills in its defaults.
pub type Options = serde_json::Map<String, serde_json::Value>;

/// One question put to a student's function, with the answers accepted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// Unique within its file, stable across runs with the same seed.
    pub id: String,
    /// The student's function (or, for a class, the call kind) graded.
    pub function: String,
    /// A short human description ("edge: one square", "random, 4213 squares").
    #[serde(default)]
    pub label: String,
    /// The assignment-specific input.
    pub input: serde_json::Value,
    /// The assignment-specific accepted answers.
    pub expected: serde_json::Value,
}

/// A set of cases with the settings that produced them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseFile {
    /// The assignment's id (`a48`, `leetcode909`, `min-throws`).
    pub assignment: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The assignment's options these cases were made with.
    #[serde(default, skip_serializing_if = "Options::is_empty")]
    pub options: Options,
    pub cases: Vec<Case>,
}
