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

impl CaseFile {
    /// The order in which a submission is asked the cases: a permutation of
    /// their indices, shuffled with the file's seed (or, for a file without
    /// one, with a hash of its case ids), so that it is the same on every
    /// run of the same cases and says nothing of a case: counting one's
    /// calls tells no kind, no function and no expected answer. The
    /// shuffle's stream is its own, not the generator's.
    pub fn asking_order(&self) -> Vec<usize> {
        use rand::SeedableRng;
        use rand::seq::SliceRandom;
        /// Keeps the shuffle's stream apart from the generator's, which is
        /// seeded with the same number.
        const ORDER_STREAM: u64 = 0x6f72_6465_7220_6f66;
        let seed = self.seed.unwrap_or_else(|| {
            // FNV-1a over the ids: stable across runs and builds.
            self.cases.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, c| {
                c.id.bytes()
                    .chain([0])
                    .fold(h, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
            })
        });
        let mut order: Vec<usize> = (0..self.cases.len()).collect();
        order.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(
            seed ^ ORDER_STREAM,
        ));
        order
    }
}

/// The outcomes wanted of `count` random cases: the mix `pattern` gives
/// (one outcome per index, as `i % 2 == 0` alternates two), in an order
/// shuffled with `rng`. A generator steers its k-th random case towards the
/// k-th of these, so the share of each outcome is the pattern's but a case's
/// outcome says nothing of its place among the random cases: counting one's
/// calls, or reading a number in a case id, predicts nothing.
pub(crate) fn shuffled_outcomes<T>(
    rng: &mut rand_chacha::ChaCha8Rng,
    count: usize,
    pattern: impl Fn(usize) -> T,
) -> Vec<T> {
    use rand::seq::SliceRandom;
    let mut plan: Vec<T> = (0..count).map(pattern).collect();
    plan.shuffle(rng);
    plan
}

/// Test support: whether the outcome of random case `k` can be told from
/// `k` alone. `outcomes[s][k]` is the outcome of the k-th random case (of
/// one function) for the s-th seed tried; for each modulus 2, 3 and 4 and
/// each residue, the outcomes of the cases with that residue, over every
/// seed, must not all be the same (which a pattern such as "finishes iff k
/// is odd" would make them). Returns the first residue class found
/// constant.
#[cfg(test)]
pub(crate) fn predictable_from_index<T: PartialEq + std::fmt::Debug>(
    outcomes: &[Vec<T>],
) -> Option<String> {
    for modulus in [2usize, 3, 4] {
        for residue in 0..modulus {
            let mut class = outcomes
                .iter()
                .flat_map(|o| o.iter().enumerate())
                .filter(|(k, _)| k % modulus == residue)
                .map(|(_, outcome)| outcome);
            let Some(first) = class.next() else { continue };
            if class.all(|o| o == first) {
                return Some(format!(
                    "every random case k with k % {modulus} == {residue} has the outcome {first:?}"
                ));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(seed: Option<u64>, ids: &[&str]) -> CaseFile {
        CaseFile {
            assignment: "a48".to_owned(),
            seed,
            options: Options::new(),
            cases: ids
                .iter()
                .map(|id| Case {
                    id: (*id).to_owned(),
                    function: "f".to_owned(),
                    label: String::new(),
                    input: serde_json::Value::Null,
                    expected: serde_json::Value::Null,
                })
                .collect(),
        }
    }

    #[test]
    fn the_asking_order_is_a_reproducible_shuffle() {
        let ids: Vec<String> = (0..200).map(|i| format!("f/r{i:03}")).collect();
        let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
        let order = file(Some(7), &ids).asking_order();
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..200).collect::<Vec<_>>());
        assert_ne!(order, sorted, "not shuffled");
        assert_eq!(order, file(Some(7), &ids).asking_order());
        assert_ne!(order, file(Some(8), &ids).asking_order());
        let unseeded = file(None, &ids).asking_order();
        assert_eq!(unseeded, file(None, &ids).asking_order());
        assert_ne!(unseeded, sorted);
        assert!(file(None, &[]).asking_order().is_empty());
    }

    #[test]
    fn shuffled_outcomes_keep_the_mix_and_lose_the_order() {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let plan = shuffled_outcomes(&mut rng, 30, |i| i % 3);
        for outcome in 0..3 {
            assert_eq!(plan.iter().filter(|&&o| o == outcome).count(), 10);
        }
        let alternating: Vec<Vec<bool>> = (0..50)
            .map(|_| (0..30).map(|i| i % 2 == 0).collect())
            .collect();
        assert!(predictable_from_index(&alternating).is_some());
        let shuffled: Vec<Vec<bool>> = (0..50)
            .map(|_| shuffled_outcomes(&mut rng, 30, |i| i % 2 == 0))
            .collect();
        assert_eq!(predictable_from_index(&shuffled), None);
    }
}
