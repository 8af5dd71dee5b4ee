//! The seeded case generator: a fixed catalogue of edge cases plus random
//! boards of many sizes, identical for the same seed on every machine
//! (ChaCha8 with an explicit seed; no platform-dependent randomness).
//!
//! Random cases are steered so that each function sees both answers: the
//! generator plans the outcomes it looks for (half finish and half never
//! do; a third each of player 1 winning, player 2 winning, nobody
//! finishing), in an order shuffled with the seed, and draws candidates
//! until one matches. So a student who always answers `False` cannot score
//! half marks by luck of the draw, and one who counts their calls learns
//! nothing from the count.
//!
//! This module is pure: no files, no processes.

use rand::seq::{IndexedRandom, SliceRandom};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::board::{Board, Square};
use super::case::{A48Function, A48Input, A48Options, a48_case};
use super::{self as a48, Game, Reading};
use crate::case::{Case, CaseFile, DEFAULT_RANDOM_CASES, PUBLIC_SEED, shuffled_outcomes};

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenOptions {
    pub seed: u64,
    /// Random cases per function, on top of the edge-case catalogue.
    pub random_per_function: usize,
    pub reading: Reading,
}

impl Default for GenOptions {
    fn default() -> GenOptions {
        GenOptions {
            seed: PUBLIC_SEED,
            random_per_function: DEFAULT_RANDOM_CASES,
            reading: Reading::Either,
        }
    }
}

/// Random boards come in three sizes; the large ones (several thousand
/// squares) make recursive and quadratic solutions show.
const SMALL: (Square, Square) = (2, 20);
const MEDIUM: (Square, Square) = (21, 300);
const LARGE: (Square, Square) = (2000, 6000);
/// On large boards step sizes stay dice-like, so that a natural solution that
/// walks `s` nodes a move stays linear in the board and is not timed out.
const LARGE_MAX_STEP: u64 = 12;
/// How many candidates to draw while looking for a wanted outcome.
const STEER_TRIES: usize = 60;

/// The edge-case catalogue: (label, board). Fixed, not random, except the
/// seeded "full" board.
fn catalogue(rng: &mut ChaCha8Rng) -> Vec<(&'static str, Board)> {
    let b = |n: u64, s: &[(u64, u64)]| Board::new(n, s).expect("catalogue boards are valid");
    vec![
        ("one square", b(1, &[])),
        ("two squares", b(2, &[])),
        ("three squares, ladder 1->2", b(3, &[(1, 2)])),
        ("three squares, snake 2->1", b(3, &[(2, 1)])),
        ("no snadders", b(10, &[])),
        ("snadder on square 1", b(10, &[(1, 5)])),
        (
            "chain: a destination is another source",
            b(12, &[(3, 6), (6, 2), (8, 11)]),
        ),
        ("nobody finishes with step 1", b(6, &[(5, 1)])),
        ("every step size loops", b(5, &[(1, 2), (2, 3), (3, 1)])),
        ("four squares (the readings differ here)", b(4, &[])),
        (
            "full board, 11 squares",
            b(11, &[(1, 7), (2, 9), (3, 4), (5, 10), (8, 6)]),
        ),
        ("full board, 31 squares", full_board(rng, 31)),
        (
            "a classic 100-square board",
            b(
                100,
                &[
                    (4, 14),
                    (9, 31),
                    (17, 7),
                    (20, 38),
                    (28, 84),
                    (40, 59),
                    (51, 67),
                    (54, 34),
                    (62, 19),
                    (63, 81),
                    (64, 60),
                    (71, 91),
                    (87, 24),
                    (93, 73),
                    (95, 75),
                    (99, 78),
                ],
            ),
        ),
    ]
}

/// Step sizes every edge board is tried with: 1, n-1, n, n+1, 2n+3.
fn edge_steps(n: Square) -> Vec<u64> {
    let n = u64::from(n);
    let mut steps: Vec<u64> = [1, n.saturating_sub(1), n, n + 1, 2 * n + 3]
        .into_iter()
        .filter(|&s| s >= 1)
        .collect();
    steps.sort_unstable();
    steps.dedup();
    steps
}

/// A board with floor((n-1)/2) snadders on distinct squares.
fn full_board(rng: &mut ChaCha8Rng, n: Square) -> Board {
    let mut squares: Vec<Square> = (1..n).collect();
    squares.shuffle(rng);
    let pairs: Vec<(u64, u64)> = squares
        .chunks_exact(2)
        .map(|p| (u64::from(p[0]), u64::from(p[1])))
        .take(Board::full_count(n) as usize)
        .collect();
    Board::new(u64::from(n), &pairs).expect("distinct squares below n make a valid board")
}

/// A random valid board with `k` snadders. Sources and destinations are drawn
/// independently, so chains (a destination that is another source) occur.
fn random_board(rng: &mut ChaCha8Rng, n: Square, k: usize) -> Board {
    let below: Vec<Square> = (1..n).collect();
    let k = k.min(below.len());
    if k == 0 || below.len() < 2 {
        return Board::empty(n);
    }
    let sources: Vec<Square> = below.sample(rng, k).copied().collect();
    let mut dests: Vec<Square> = below.sample(rng, k).copied().collect();
    // Break self-loops by rotating destinations; a rotation of distinct
    // values can leave a fixed point only when k == 1, handled below.
    for _ in 0..k {
        if sources.iter().zip(&dests).all(|(s, d)| s != d) {
            break;
        }
        dests.rotate_left(1);
    }
    let pairs: Vec<(u64, u64)> = sources
        .iter()
        .zip(&dests)
        .filter(|(s, d)| s != d)
        .map(|(&s, &d)| (u64::from(s), u64::from(d)))
        .collect();
    Board::new(u64::from(n), &pairs)
        .expect("distinct sources and destinations below n make a valid board")
}

fn random_size(rng: &mut ChaCha8Rng, class: (Square, Square)) -> Square {
    rng.random_range(class.0..=class.1)
}

fn random_step(rng: &mut ChaCha8Rng, n: Square) -> u64 {
    if n >= LARGE.0 {
        rng.random_range(1..=LARGE_MAX_STEP)
    } else {
        rng.random_range(1..=2 * u64::from(n) + 3)
    }
}

/// The size class of random case `i` of `count`: the last two are large.
fn class_of(rng: &mut ChaCha8Rng, i: usize, count: usize) -> (Square, Square) {
    if i + 2 >= count && count >= 3 {
        return LARGE;
    }
    if rng.random_range(0..10) < 6 {
        SMALL
    } else {
        MEDIUM
    }
}

fn random_board_of_class(rng: &mut ChaCha8Rng, class: (Square, Square)) -> Board {
    let n = random_size(rng, class);
    let k = rng.random_range(0..=Board::full_count(n) as usize);
    random_board(rng, n, k)
}

struct Builder {
    reading: Reading,
    cases: Vec<Case>,
}

impl Builder {
    fn push(
        &mut self,
        function: A48Function,
        kind: char,
        label: String,
        board: Board,
        args: Vec<u64>,
    ) {
        let number = self
            .cases
            .iter()
            .filter(|c| c.function == function.name() && c.id.contains(&format!("/{kind}")))
            .count()
            + 1;
        let id = format!("{}/{kind}{number:03}", function.name());
        let input = A48Input { board, args };
        let case = a48_case(id, label, function, input, self.reading)
            .expect("generated inputs are well-formed");
        self.cases.push(case);
    }
}

/// Generates the full case set for A48.
pub fn generate(opts: GenOptions) -> CaseFile {
    let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
    let mut out = Builder {
        reading: opts.reading,
        cases: Vec::new(),
    };
    let boards = catalogue(&mut rng);

    for f in [A48Function::Salb2salbLL, A48Function::Dualboard] {
        for (label, board) in &boards {
            out.push(f, 'e', format!("edge: {label}"), board.clone(), vec![]);
        }
    }
    for (label, board) in &boards {
        for s in edge_steps(board.squares()) {
            out.push(
                A48Function::Willfinish,
                'e',
                format!("edge: {label}, step {s}"),
                board.clone(),
                vec![s],
            );
        }
    }
    for (label, board) in &boards {
        for (s1, s2) in whowins_edge_pairs(board) {
            out.push(
                A48Function::Whowins,
                'e',
                format!("edge: {label}, steps {s1} and {s2}"),
                board.clone(),
                vec![s1, s2],
            );
        }
    }

    let count = opts.random_per_function;
    for i in 0..count {
        let class = class_of(&mut rng, i, count);
        let board = random_board_of_class(&mut rng, class);
        let label = format!("random, {} squares", board.squares());
        out.push(A48Function::Salb2salbLL, 'r', label, board, vec![]);
    }
    for i in 0..count {
        let class = class_of(&mut rng, i, count);
        let board = random_board_of_class(&mut rng, class);
        let label = format!("random, {} squares", board.squares());
        out.push(A48Function::Dualboard, 'r', label, board, vec![]);
    }
    // Half the willfinish cases finish, in a shuffled order (see
    // `shuffled_outcomes`): case k's answer is not k's parity.
    let wants = shuffled_outcomes(&mut rng, count, |i| i % 2 == 0);
    for (i, want_finish) in wants.into_iter().enumerate() {
        let class = class_of(&mut rng, i, count);
        let (board, s) = steer(&mut rng, class, 1, |b, steps| {
            a48::willfinish(b, steps[0]) == want_finish
        });
        let label = format!("random, {} squares, step {}", board.squares(), s[0]);
        out.push(A48Function::Willfinish, 'r', label, board, s);
    }
    // A third each: player 1 wins, player 2 wins after finishing, nobody
    // finishes (so player 2 wins); in a shuffled order.
    let wants = shuffled_outcomes(&mut rng, count, |i| i % 3);
    for (i, want) in wants.into_iter().enumerate() {
        let class = class_of(&mut rng, i, count);
        let (board, s) = steer(&mut rng, class, 2, |b, st| {
            let g = Game::new(b);
            let (t1, t2) = (g.finish_time(st[0]), g.finish_time(st[1]));
            match want {
                0 => t1.is_some() && a48::winner(t1, t2, Reading::Counts) == a48::Player::One,
                1 => t2.is_some() && a48::winner(t1, t2, Reading::Counts) == a48::Player::Two,
                _ => t1.is_none() && t2.is_none(),
            }
        });
        let label = format!(
            "random, {} squares, steps {} and {}",
            board.squares(),
            s[0],
            s[1]
        );
        out.push(A48Function::Whowins, 'r', label, board, s);
    }

    CaseFile {
        assignment: "a48".to_owned(),
        seed: Some(opts.seed),
        options: A48Options {
            reading: opts.reading,
        }
        .to_options(),
        cases: out.cases,
    }
}

/// Draws boards and step sizes until `wanted` holds (or tries run out, in
/// which case the last draw is kept: the outcome mix is a goal, not a law).
fn steer(
    rng: &mut ChaCha8Rng,
    class: (Square, Square),
    arity: usize,
    wanted: impl Fn(&Board, &[u64]) -> bool,
) -> (Board, Vec<u64>) {
    let mut last = None;
    for _ in 0..STEER_TRIES {
        let board = random_board_of_class(rng, class);
        let steps: Vec<u64> = (0..arity)
            .map(|_| random_step(rng, board.squares()))
            .collect();
        if wanted(&board, &steps) {
            return (board, steps);
        }
        last = Some((board, steps));
    }
    last.expect("STEER_TRIES is positive")
}

/// Step pairs for `whowins` on an edge board: equal steps (a tie goes to
/// player 1), the edge step sizes against 1, a tie between different step
/// sizes when the board has one, and the pair where the readings differ.
fn whowins_edge_pairs(board: &Board) -> Vec<(u64, u64)> {
    let n = u64::from(board.squares());
    let mut pairs = vec![(1, 1), (n, 1), (1, n), (n + 1, 2 * n + 3)];
    let game = Game::new(board);
    let small: Vec<u64> = (1..=2 * n + 1).collect();
    let times: Vec<Option<u64>> = small.iter().map(|&s| game.finish_time(s)).collect();
    'tie: for (i, a) in small.iter().enumerate() {
        for (j, b) in small.iter().enumerate().skip(i + 1) {
            if times[i].is_some() && times[i] == times[j] {
                pairs.push((*b, *a));
                break 'tie;
            }
        }
    }
    // Player 2 starts on the last square while player 1 needs two moves.
    if let Some(i) = times.iter().position(|&t| t == Some(2)) {
        pairs.push((small[i], n));
    }
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn same_seed_same_cases() {
        let a = generate(GenOptions {
            seed: 7,
            random_per_function: 5,
            reading: Reading::Either,
        });
        let b = generate(GenOptions {
            seed: 7,
            random_per_function: 5,
            reading: Reading::Either,
        });
        assert_eq!(a, b);
        let c = generate(GenOptions {
            seed: 8,
            random_per_function: 5,
            reading: Reading::Either,
        });
        assert_ne!(a, c);
    }

    #[test]
    fn catalogue_is_present_and_ids_are_unique() {
        let f = generate(GenOptions::default());
        let mut ids: Vec<&str> = f.cases.iter().map(|c| c.id.as_str()).collect();
        let total = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), total);
        for func in A48Function::ALL {
            let n = f
                .cases
                .iter()
                .filter(|c| c.function == func.name() && c.id.contains("/r"))
                .count();
            assert_eq!(n, DEFAULT_RANDOM_CASES, "{func:?}");
        }
        // The reading-divergent pair is in the catalogue and both answers are accepted.
        assert!(f.cases.iter().any(
            |c| c.function == "whowins" && c.expected == serde_json::json!({"one_of": [1, 2]})
        ));
        // Large boards are there.
        assert!(
            f.cases.iter().any(|c| c.label.contains("squares")
                && c.input["board"]["squares"].as_u64() >= Some(2000))
        );
    }

    #[test]
    fn random_outcomes_are_mixed() {
        let f = generate(GenOptions::default());
        let answers = |func: &str| -> Vec<String> {
            f.cases
                .iter()
                .filter(|c| c.function == func)
                .map(|c| c.expected.to_string())
                .collect()
        };
        let w = answers("willfinish");
        assert!(w.iter().filter(|a| a.contains("true")).count() >= 10);
        assert!(w.iter().filter(|a| a.contains("false")).count() >= 10);
        let ww = answers("whowins");
        assert!(
            ww.iter()
                .filter(|a| a.as_str() == r#"{"one_of":[1]}"#)
                .count()
                >= 10
        );
        assert!(
            ww.iter()
                .filter(|a| a.as_str() == r#"{"one_of":[2]}"#)
                .count()
                >= 10
        );
    }

    /// Issue 33: `willfinish/rNNN` used to finish iff NNN was odd, and
    /// `whowins/rNNN` to be player 1's iff NNN % 3 == 1, whatever the seed.
    #[test]
    fn a_random_cases_answer_is_not_told_by_its_number() {
        for function in ["willfinish", "whowins"] {
            let outcomes: Vec<Vec<String>> = (0..50)
                .map(|seed| {
                    generate(GenOptions {
                        seed,
                        random_per_function: DEFAULT_RANDOM_CASES,
                        reading: Reading::Either,
                    })
                    .cases
                    .iter()
                    .filter(|c| c.function == function && c.id.contains("/r"))
                    .map(|c| c.expected.to_string())
                    .collect()
                })
                .collect();
            assert_eq!(
                crate::case::predictable_from_index(&outcomes),
                None,
                "{function}"
            );
        }
    }

    proptest! {
        #[test]
        fn random_boards_are_valid_and_full_boards_full(seed in any::<u64>(), n in 2u32..200) {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let full = full_board(&mut rng, n);
            prop_assert_eq!(full.snadders().len() as u32, Board::full_count(n));
            let k = rng.random_range(0..=n as usize);
            let b = random_board(&mut rng, n, k);
            prop_assert!(b.snadders().len() <= k);
            prop_assert!(b.snadders().iter().all(|s| s.source < n && s.destination < n));
        }
    }
}
