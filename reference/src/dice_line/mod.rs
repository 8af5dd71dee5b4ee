//! A line of squares walked with a six-sided die: the problem LeetCode 909
//! ([`crate::leetcode909`]) and minimum throws ([`crate::min_throws`]) both
//! pose, solved and put into words once.
//!
//! # The line (exactly as both assignments grade it)
//!
//! * The squares are `0..len`, `len >= 1`. The player starts on square 0
//!   and finishes on square `len - 1`.
//! * A move chooses a face `k` in `1..=6` and lands on `v + k`, but only if
//!   `v + k <= len - 1`: no move goes past the end, and there is no bounce.
//! * Landing on a square with a jump (a snake or a ladder) takes it, and the
//!   move ends on its destination. One hop only: a jump from the
//!   destination is not followed in the same move.
//! * The answer is the least number of moves that ends on `len - 1`, or
//!   none.
//!
//! Each assignment keeps its own input type, validation, numbering and
//! wording, and converts: LeetCode 909's square labelled `l` is square
//! `l - 1` here (its boustrophedon grid is its own business), and a
//! minimum-throws cell is the square of the same number. What the two also
//! share lives here: the validation-problem collector and the sentences of
//! an explanation, with the nouns ([`Terms`]) left to the assignment.
//!
//! This module is pure: no files, no processes, no clock.

use std::collections::VecDeque;

mod generate;
mod problems;
mod words;

pub(crate) use generate::{
    CaseList, REACHED_BOTH_WAYS_LEN, SelfJumps, Side, detours, detours_len, kind_of_id,
    random_jumps, reached_both_ways, steer, unreachable_jumps,
};
#[cfg(test)]
pub(crate) use generate::{kinds_of, pinned_hashes};
pub use problems::MAX_PROBLEMS;
pub(crate) use problems::{Problems, join_problems};
pub(crate) use words::{Terms, cell_text, describe, draw_row, explain};

/// A square on the line, `0..len`.
pub type Square = u32;

/// The die's faces are `1..=FACES`.
const FACES: Square = 6;

/// A line of squares with one-hop jumps.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Line {
    /// `jumps[s]` is the destination of the jump on square `s`, if any.
    jumps: Vec<Option<Square>>,
}

impl Line {
    /// The line with these jumps, one entry per square. The assignment has
    /// validated them: at least one square, every destination on the line.
    pub(crate) fn new(jumps: Vec<Option<Square>>) -> Line {
        debug_assert!(!jumps.is_empty());
        debug_assert!(jumps.iter().flatten().all(|&d| (d as usize) < jumps.len()));
        Line { jumps }
    }

    /// The line of `len` squares with these `(source, destination)` jumps
    /// (a later pair for a source replaces an earlier one), all on the line.
    pub(crate) fn from_pairs(len: usize, pairs: &[(Square, Square)]) -> Line {
        let mut jumps = vec![None; len];
        for &(s, d) in pairs {
            jumps[s as usize] = Some(d);
        }
        Line::new(jumps)
    }

    /// The number of squares.
    pub(crate) fn len(&self) -> usize {
        self.jumps.len()
    }

    /// The last square, `len - 1`.
    pub(crate) fn last(&self) -> Square {
        (self.jumps.len() - 1) as Square
    }

    /// The destination of the jump on `square`, if any.
    pub(crate) fn jump(&self, square: Square) -> Option<Square> {
        self.jumps.get(square as usize).copied().flatten()
    }

    /// Where landing on `square` leaves the player. One hop, never more.
    pub(crate) fn settle(&self, square: Square) -> Square {
        self.jump(square).unwrap_or(square)
    }

    /// Every `(source, destination)`, by source.
    pub(crate) fn jumps(&self) -> Vec<(Square, Square)> {
        self.jumps
            .iter()
            .enumerate()
            .filter_map(|(s, d)| d.map(|d| (s as Square, d)))
            .collect()
    }
}

/// How the player first came to stand on a square: from which square, and
/// which square the move landed on before any jump. An assignment hands
/// these out in its own numbering (see [`Step::renumber`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    pub from: u32,
    pub landed: u32,
    pub to: u32,
}

impl Step {
    /// The same step with every square numbered by `number`.
    pub(crate) fn renumber(self, number: impl Fn(u32) -> u32) -> Step {
        Step {
            from: number(self.from),
            landed: number(self.landed),
            to: number(self.to),
        }
    }
}

/// Breadth-first search over the squares a player can stand on.
///
/// A player *stands on* a square after each move; the squares *landed on*
/// (before a jump is taken) are never positions. From `v` there is an edge
/// to `settle(v + k)` for each face `k` that stays on the line, and every
/// edge costs one move, so BFS from square 0 gives the least number of
/// moves. O(len) time and space: each square is enqueued at most once (when
/// first stood on) and has at most six edges, so a 100,000-square line is
/// about 600,000 steps.
pub(crate) struct Search {
    /// Indexed by square: its distance and the step that first reached it;
    /// `None` when never stood on.
    reached: Vec<Option<(u32, Option<Step>)>>,
}

impl Search {
    pub(crate) fn run(line: &Line) -> Search {
        let last = line.last();
        let mut reached: Vec<Option<(u32, Option<Step>)>> = vec![None; line.len()];
        reached[0] = Some((0, None));
        let mut queue = VecDeque::from([0 as Square]);
        while let Some(from) = queue.pop_front() {
            if from == last {
                break;
            }
            let d = reached[from as usize].map_or(0, |(d, _)| d);
            for landed in from + 1..=(from + FACES).min(last) {
                let to = line.settle(landed);
                if reached[to as usize].is_none() {
                    reached[to as usize] = Some((d + 1, Some(Step { from, landed, to })));
                    queue.push_back(to);
                }
            }
        }
        Search { reached }
    }

    /// The least number of moves to stand on `square`, if it can be reached.
    pub(crate) fn distance(&self, square: Square) -> Option<u32> {
        self.reached
            .get(square as usize)
            .copied()
            .flatten()
            .map(|(d, _)| d)
    }

    /// The squares that can be stood on (those found before the search
    /// stopped; all of them when the last square is unreachable).
    pub(crate) fn reached(&self) -> impl Iterator<Item = Square> + '_ {
        self.reached
            .iter()
            .enumerate()
            .filter(|(_, r)| r.is_some())
            .map(|(s, _)| s as Square)
    }

    /// A shortest sequence of moves to `square`, first move first.
    pub(crate) fn path_to(&self, square: Square) -> Option<Vec<Step>> {
        let mut steps = Vec::new();
        let mut at = square;
        while let (_, Some(step)) = self.reached.get(at as usize).copied().flatten()? {
            steps.push(step);
            at = step.from;
        }
        steps.reverse();
        Some(steps)
    }
}

/// The least number of moves from the first square to the last, or `None`.
pub(crate) fn moves(line: &Line) -> Option<u32> {
    Search::run(line).distance(line.last())
}

/// The graded answer: the least number of moves, or -1.
pub(crate) fn answer(line: &Line) -> i64 {
    moves(line).map_or(-1, i64::from)
}

/// A shortest sequence of moves, or `None` when the last square cannot be
/// reached.
pub(crate) fn shortest_path(line: &Line) -> Option<Vec<Step>> {
    Search::run(line).path_to(line.last())
}

/// The answer by brute force, for tests to check [`Search`] against:
/// Bellman-Ford style, relax every move from every square until nothing
/// changes. `settle` maps a square landed on to the square stood on, so
/// each assignment can read its raw input its own way.
#[cfg(test)]
pub(crate) fn relaxation(len: usize, settle: impl Fn(usize) -> usize) -> i64 {
    let last = len - 1;
    let mut dist = vec![u64::MAX; len];
    dist[0] = 0;
    let mut changed = true;
    while changed {
        changed = false;
        for from in 0..len {
            if dist[from] == u64::MAX {
                continue;
            }
            for landed in from + 1..=(from + FACES as usize).min(last) {
                let to = settle(landed);
                if dist[from] + 1 < dist[to] {
                    dist[to] = dist[from] + 1;
                    changed = true;
                }
            }
        }
    }
    if dist[last] == u64::MAX {
        -1
    } else {
        dist[last] as i64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A random line of 1..=max_len squares, up to half of them jumps to
    /// anywhere (self-jumps and chains included).
    fn arb_line(max_len: usize) -> impl Strategy<Value = Line> {
        (1usize..=max_len, 0u32..=100).prop_flat_map(|(len, density)| {
            proptest::collection::vec((0u32..100, 0..len as Square), len..=len).prop_map(
                move |draws| {
                    let last = len - 1;
                    Line::new(
                        draws
                            .into_iter()
                            .enumerate()
                            .map(|(s, (p, d))| (p < density / 2 && s > 0 && s < last).then_some(d))
                            .collect(),
                    )
                },
            )
        })
    }

    #[test]
    fn one_square_is_already_the_end() {
        let line = Line::new(vec![None]);
        assert_eq!(answer(&line), 0);
        assert_eq!(shortest_path(&line), Some(vec![]));
    }

    proptest! {
        #[test]
        fn bfs_matches_relaxation(line in arb_line(120)) {
            prop_assert_eq!(answer(&line), relaxation(line.len(), |s| line.settle(s as Square) as usize));
        }

        #[test]
        fn the_path_is_legal_and_as_long_as_the_answer(line in arb_line(60)) {
            match shortest_path(&line) {
                None => prop_assert_eq!(answer(&line), -1),
                Some(path) => {
                    prop_assert_eq!(path.len() as i64, answer(&line));
                    let mut at = 0;
                    for step in &path {
                        prop_assert_eq!(step.from, at);
                        prop_assert!(step.landed > at && step.landed <= at + FACES);
                        prop_assert_eq!(step.to, line.settle(step.landed));
                        at = step.to;
                    }
                    prop_assert_eq!(at, line.last());
                }
            }
        }
    }
}
