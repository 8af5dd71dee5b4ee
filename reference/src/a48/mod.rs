//! The reference semantics of CSC A48 Assignment 1 (the circular linked list
//! board): when a player finishes, who wins, and the dual board.
//!
//! The rules, exactly as salgrade grades them (docs/a48.md
//! repeats them for students and instructors):
//!
//! * A move of step size `s` from square `p` lands on `((p + s - 1) mod n) + 1`;
//!   if that square is a snadder source the move ends on its destination. One
//!   hop only: a destination that is itself a source is not followed again.
//! * A player's start is one move of size `s` from square `n`.
//! * `finish_time(board, s)` is the number of the first move that ends on
//!   square `n`, counting the start as move 1, or `None` if no move ever does.
//! * Player 1 moves first in every round, so player 1 wins if it finishes no
//!   later than player 2 (or player 2 never finishes); otherwise player 2 wins,
//!   also when neither finishes.
//!
//! This module is pure: no files, no processes.

use std::fmt;

use serde::{Deserialize, Serialize};

pub mod board;
pub mod case;
pub mod explain;
pub mod generate;
pub mod python;
pub mod shrink;

use board::{Board, SourceIndex, Square};

/// How a student may read "the first player to end a move on the last square"
/// when a player's start already lands there (`s` a multiple of `n`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Reading {
    /// The start is move 1; a start on square `n` finishes at once.
    Counts,
    /// The start is not a move; moves are counted after it.
    Separate,
    /// Accept the answer of either reading.
    #[default]
    Either,
}

impl Reading {
    /// The concrete readings this option accepts.
    pub fn concrete(self) -> &'static [Reading] {
        match self {
            Reading::Counts => &[Reading::Counts],
            Reading::Separate => &[Reading::Separate],
            Reading::Either => &[Reading::Counts, Reading::Separate],
        }
    }
}

impl fmt::Display for Reading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reading::Counts => "counts",
            Reading::Separate => "separate",
            Reading::Either => "either",
        })
    }
}

/// Player 1 or player 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(into = "u8", try_from = "u8")]
pub enum Player {
    One,
    Two,
}

impl From<Player> for u8 {
    fn from(p: Player) -> u8 {
        match p {
            Player::One => 1,
            Player::Two => 2,
        }
    }
}

impl TryFrom<u8> for Player {
    type Error = String;
    fn try_from(v: u8) -> Result<Player, String> {
        match v {
            1 => Ok(Player::One),
            2 => Ok(Player::Two),
            other => Err(format!("a player is 1 or 2, not {other}")),
        }
    }
}

/// The square a move of `step` from `from` lands on, before any snadder.
#[inline]
pub fn land(squares: Square, from: Square, step: u64) -> Square {
    let n = u64::from(squares);
    ((u64::from(from) - 1 + step % n) % n + 1) as Square
}

/// A board prepared for many questions: the source index is built once.
pub struct Game<'b> {
    board: &'b Board,
    index: SourceIndex<'b>,
}

impl<'b> Game<'b> {
    pub fn new(board: &'b Board) -> Game<'b> {
        Game {
            board,
            index: SourceIndex::new(board),
        }
    }

    /// Where a move of `step` from `from` ends, following at most one snadder.
    #[inline]
    pub fn step(&self, from: Square, step: u64) -> Square {
        let landed = land(self.board.squares(), from, step);
        self.index.destination(landed).unwrap_or(landed)
    }

    /// See [`finish_time`].
    pub fn finish_time(&self, step: u64) -> Option<u64> {
        assert!(step >= 1, "step sizes are positive");
        let n = self.board.squares();
        // The positions before the first return to `n` are pairwise distinct
        // (a repeat would be a cycle that never reaches `n`), so if the player
        // finishes at all it does so within `n` moves. No visited set needed.
        let mut at = n;
        for t in 1..=u64::from(n) {
            at = self.step(at, step);
            if at == n {
                return Some(t);
            }
        }
        None
    }
}

/// The number of the first move that ends on the last square, counting the
/// start as move 1; `None` when the player never gets there.
///
/// O(n) time and O(n) bits: at most `n` moves of O(1) each.
pub fn finish_time(board: &Board, step: u64) -> Option<u64> {
    Game::new(board).finish_time(step)
}

/// The finish time under a concrete reading, from the "counts" finish time.
pub fn finish_time_under(counts: Option<u64>, reading: Reading) -> Option<u64> {
    match (reading, counts) {
        (Reading::Separate, Some(1)) => Some(1),
        (Reading::Separate, Some(t)) => Some(t - 1),
        (_, t) => t,
    }
}

/// Whether a player with this step size ever ends a move on the last square.
/// The same under every reading.
pub fn willfinish(board: &Board, step: u64) -> bool {
    finish_time(board, step).is_some()
}

/// The winner under one concrete reading (`Either` is treated as `Counts`).
pub fn whowins(board: &Board, step1: u64, step2: u64, reading: Reading) -> Player {
    let game = Game::new(board);
    winner(game.finish_time(step1), game.finish_time(step2), reading)
}

/// The winner from the two players' "counts" finish times.
pub fn winner(t1: Option<u64>, t2: Option<u64>, reading: Reading) -> Player {
    let t1 = finish_time_under(t1, reading);
    let t2 = finish_time_under(t2, reading);
    match (t1, t2) {
        (Some(a), Some(b)) if a <= b => Player::One,
        (Some(_), None) => Player::One,
        _ => Player::Two,
    }
}

/// Every answer to `whowins` that the reading option accepts, sorted.
pub fn accepted_winners(board: &Board, step1: u64, step2: u64, reading: Reading) -> Vec<Player> {
    let game = Game::new(board);
    let (t1, t2) = (game.finish_time(step1), game.finish_time(step2));
    let mut out: Vec<Player> = reading
        .concrete()
        .iter()
        .map(|&r| winner(t1, t2, r))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The dual board: same squares, every snadder reversed.
pub fn dualboard(board: &Board) -> Board {
    board.dual()
}

/// One move of a player's walk, for explanations.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Move {
    /// 1 for the start.
    pub number: u64,
    pub from: Square,
    /// Where the step landed before any snadder.
    pub landed: Square,
    /// Whether the step passed square `n` and continued at square 1.
    pub wrapped: bool,
    /// Where the move ended (differs from `landed` when a snadder was taken).
    pub to: Square,
}

/// How a walk ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WalkEnd {
    /// Move `at_move` ended on the last square.
    Finished { at_move: u64 },
    /// Move `at_move` ended on a square first reached by move `first_seen`:
    /// from then on the player repeats the same squares forever.
    Loops {
        at_move: u64,
        first_seen: u64,
        square: Square,
    },
    /// The trace was cut at `max_moves` before either happened.
    Truncated,
}

/// The moves of one player, for feedback: stops on finishing, on the first
/// repeated square, or after `max_moves`.
pub fn walk(board: &Board, step: u64, max_moves: u64) -> (Vec<Move>, WalkEnd) {
    let game = Game::new(board);
    let n = board.squares();
    let mut seen: std::collections::HashMap<Square, u64> = std::collections::HashMap::new();
    let mut moves = Vec::new();
    let mut at = n;
    for number in 1..=max_moves {
        let landed = land(n, at, step);
        let wrapped = u64::from(at) + step > u64::from(n);
        let to = game.step(at, step);
        moves.push(Move {
            number,
            from: at,
            landed,
            wrapped,
            to,
        });
        if to == n {
            return (moves, WalkEnd::Finished { at_move: number });
        }
        if let Some(&first_seen) = seen.get(&to) {
            return (
                moves,
                WalkEnd::Loops {
                    at_move: number,
                    first_seen,
                    square: to,
                },
            );
        }
        seen.insert(to, number);
        at = to;
    }
    (moves, WalkEnd::Truncated)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::{HashMap, HashSet};

    fn board(n: u64, s: &[(u64, u64)]) -> Board {
        Board::new(n, s).unwrap()
    }

    /// The obvious simulator: walks square by square, remembers every
    /// position, and stops on the last square or the first repeat.
    fn brute_finish_time(b: &Board, step: u64) -> Option<u64> {
        let n = b.squares();
        let links: HashMap<Square, Square> = b
            .snadders()
            .iter()
            .map(|s| (s.source, s.destination))
            .collect();
        let mut at = n;
        let mut seen = HashSet::new();
        for t in 1.. {
            for _ in 0..step {
                at = if at == n { 1 } else { at + 1 };
            }
            if let Some(&d) = links.get(&at) {
                at = d;
            }
            if at == n {
                return Some(t);
            }
            if !seen.insert(at) {
                return None;
            }
        }
        unreachable!()
    }

    /// Round-by-round play of the two players, as the handout describes it.
    fn brute_whowins(b: &Board, s1: u64, s2: u64, reading: Reading) -> Player {
        let n = b.squares();
        let game = Game::new(b);
        let (mut p1, mut p2) = (game.step(n, s1), game.step(n, s2));
        if reading == Reading::Counts {
            if p1 == n {
                return Player::One;
            }
            if p2 == n {
                return Player::Two;
            }
        }
        // Both players' states repeat within n rounds; 2n + 2 rounds is ample.
        for _ in 0..(2 * u64::from(n) + 2) {
            p1 = game.step(p1, s1);
            if p1 == n {
                return Player::One;
            }
            p2 = game.step(p2, s2);
            if p2 == n {
                return Player::Two;
            }
        }
        Player::Two
    }

    fn arb_board() -> impl Strategy<Value = Board> {
        (1u64..40).prop_flat_map(|n| {
            let pairs = proptest::collection::vec((1..n.max(2), 1..n.max(2)), 0..(n as usize));
            pairs.prop_map(move |pairs| {
                // Keep the first snadder for each source and each destination,
                // skipping the ones that would make the board invalid.
                let mut used_s = HashSet::new();
                let mut used_d = HashSet::new();
                let kept: Vec<(u64, u64)> = pairs
                    .into_iter()
                    .filter(|&(s, d)| s != d && s < n && d < n)
                    .filter(|&(s, d)| used_s.insert(s) & used_d.insert(d))
                    .collect();
                Board::new(n, &kept).unwrap()
            })
        })
    }

    #[test]
    fn handout_example_wraps() {
        // n = 100, s = 5, from 97 lands on 2; a ladder 2 -> 25 ends the move on 25.
        let b = board(100, &[(2, 25)]);
        assert_eq!(land(100, 97, 5), 2);
        assert_eq!(Game::new(&b).step(97, 5), 25);
    }

    #[test]
    fn start_follows_a_snadder_on_the_start_square() {
        let b = board(10, &[(3, 9)]);
        assert_eq!(Game::new(&b).step(10, 3), 9);
        // 9, 2, 5, 8, 1, 4, 7, 10: the eighth move ends on the last square.
        assert_eq!(finish_time(&b, 3), Some(8));
        assert_eq!(finish_time(&b, 3), brute_finish_time(&b, 3));
    }

    #[test]
    fn one_square_board_always_finishes_at_once() {
        let b = board(1, &[]);
        for s in 1..5 {
            assert_eq!(finish_time(&b, s), Some(1));
            assert_eq!(whowins(&b, s, 1, Reading::Separate), Player::One);
        }
    }

    #[test]
    fn nobody_finishes_means_player_two() {
        // Step 1 on 6 squares: 1..5, and 5 sends the player back to 1.
        let b = board(6, &[(5, 1)]);
        assert_eq!(finish_time(&b, 1), None);
        assert_eq!(whowins(&b, 1, 1, Reading::Counts), Player::Two);
    }

    #[test]
    fn readings_differ_only_when_one_start_lands_on_the_last_square() {
        // s1 = 2 reaches 4 at its 2nd move; s2 = 4 starts on 4.
        let b = board(4, &[]);
        assert_eq!(finish_time(&b, 2), Some(2));
        assert_eq!(finish_time(&b, 4), Some(1));
        assert_eq!(whowins(&b, 2, 4, Reading::Counts), Player::Two);
        assert_eq!(whowins(&b, 2, 4, Reading::Separate), Player::One);
        assert_eq!(
            accepted_winners(&b, 2, 4, Reading::Either),
            vec![Player::One, Player::Two]
        );
        assert_eq!(
            accepted_winners(&b, 2, 4, Reading::Counts),
            vec![Player::Two]
        );
    }

    #[test]
    fn walk_explains_a_loop() {
        let b = board(6, &[(5, 1)]);
        let (moves, end) = walk(&b, 1, 100);
        assert_eq!(moves[0].to, 1);
        assert!(moves[0].wrapped);
        assert_eq!(
            end,
            WalkEnd::Loops {
                at_move: 5,
                first_seen: 1,
                square: 1
            }
        );
        let (_, end) = walk(&board(6, &[]), 2, 100);
        assert_eq!(end, WalkEnd::Finished { at_move: 3 });
    }

    proptest! {
        #[test]
        fn dual_of_dual_is_the_board(b in arb_board()) {
            prop_assert_eq!(b.dual().dual(), b);
        }

        #[test]
        fn dual_is_valid(b in arb_board()) {
            let d = b.dual();
            let raw: Vec<(u64, u64)> = d.snadders().iter().map(|s| (s.source.into(), s.destination.into())).collect();
            prop_assert!(Board::new(d.squares().into(), &raw).is_ok());
            prop_assert_eq!(d.squares(), b.squares());
            prop_assert_eq!(d.snadders().len(), b.snadders().len());
        }

        #[test]
        fn finish_time_matches_brute_force(b in arb_board(), k in 0u64..4, r in 1u64..50, mult in any::<bool>()) {
            let n = u64::from(b.squares());
            // Half the time a multiple of n (including s = n and s > n), else anything up to 3n.
            let step = if mult { n * (k + 1) } else { r % (3 * n + 4) + 1 };
            prop_assert_eq!(finish_time(&b, step), brute_finish_time(&b, step));
        }

        #[test]
        fn whowins_matches_round_by_round_play(b in arb_board(), s1 in 1u64..90, s2 in 1u64..90) {
            for reading in [Reading::Counts, Reading::Separate] {
                prop_assert_eq!(whowins(&b, s1, s2, reading), brute_whowins(&b, s1, s2, reading));
            }
        }

        #[test]
        fn willfinish_is_the_same_under_both_readings(b in arb_board(), s in 1u64..90) {
            let t = finish_time(&b, s);
            prop_assert_eq!(
                finish_time_under(t, Reading::Counts).is_some(),
                finish_time_under(t, Reading::Separate).is_some()
            );
        }

        #[test]
        fn walk_agrees_with_finish_time(b in arb_board(), s in 1u64..90) {
            let (_, end) = walk(&b, s, u64::from(b.squares()) + 1);
            match end {
                WalkEnd::Finished { at_move } => prop_assert_eq!(finish_time(&b, s), Some(at_move)),
                WalkEnd::Loops { .. } => prop_assert_eq!(finish_time(&b, s), None),
                WalkEnd::Truncated => prop_assert!(false, "a walk of n + 1 moves always ends"),
            }
        }
    }
}
