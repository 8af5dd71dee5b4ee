//! The answer: breadth-first search over the squares a player can stand on.
//!
//! A player *stands on* a square after each move; the squares *landed on*
//! (before a snake or ladder is taken) are never positions. So the graph's
//! vertices are labels, and from `curr` there is an edge to
//! `settle(next)` for each `next` in `curr+1..=min(curr+6, n²)`. Every edge
//! costs one move, so BFS from square 1 gives the least number of moves.
//!
//! O(n²) time and space: each label is enqueued at most once (when first
//! stood on) and has at most six edges.

use std::collections::VecDeque;

use super::input::{Input, Label};

/// How the player first came to stand on a square: from which square, and
/// which square the roll landed on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    pub from: Label,
    pub landed: Label,
    pub to: Label,
}

/// The BFS tree: for each label, its distance and the step that first
/// reached it.
pub(crate) struct Search {
    /// Indexed by label; `None` when never stood on.
    reached: Vec<Option<(u32, Option<Step>)>>,
}

impl Search {
    pub(crate) fn run(input: &Input) -> Search {
        let last = input.last();
        let mut reached: Vec<Option<(u32, Option<Step>)>> = vec![None; last as usize + 1];
        reached[1] = Some((0, None));
        let mut queue = VecDeque::from([1 as Label]);
        while let Some(curr) = queue.pop_front() {
            let d = reached[curr as usize].map_or(0, |(d, _)| d);
            if curr == last {
                break;
            }
            for landed in curr + 1..=(curr + 6).min(last) {
                let to = input.settle(landed);
                if reached[to as usize].is_none() {
                    reached[to as usize] = Some((
                        d + 1,
                        Some(Step {
                            from: curr,
                            landed,
                            to,
                        }),
                    ));
                    queue.push_back(to);
                }
            }
        }
        Search { reached }
    }

    /// The least number of moves to stand on `label`, if it can be reached.
    pub(crate) fn distance(&self, label: Label) -> Option<u32> {
        self.reached
            .get(label as usize)
            .copied()
            .flatten()
            .map(|(d, _)| d)
    }

    /// The labels that can be stood on (those found before the search
    /// stopped; all of them when the last square is unreachable).
    pub(crate) fn reached(&self) -> impl Iterator<Item = Label> + '_ {
        self.reached
            .iter()
            .enumerate()
            .filter(|(_, r)| r.is_some())
            .map(|(l, _)| l as Label)
    }

    /// A shortest sequence of moves to `label`, first move first.
    pub(crate) fn path_to(&self, label: Label) -> Option<Vec<Step>> {
        let mut steps = Vec::new();
        let mut at = label;
        loop {
            let (_, step) = self.reached.get(at as usize).copied().flatten()?;
            match step {
                None => break,
                Some(step) => {
                    steps.push(step);
                    at = step.from;
                }
            }
        }
        steps.reverse();
        Some(steps)
    }
}

/// The least number of moves from square 1 to square n², or `None`.
pub fn moves(input: &Input) -> Option<u32> {
    Search::run(input).distance(input.last())
}

/// LeetCode's answer: the least number of moves, or -1.
pub fn answer(input: &Input) -> i64 {
    moves(input).map_or(-1, i64::from)
}

/// A shortest path as steps, or `None` when n² cannot be reached.
pub fn shortest_path(input: &Input) -> Option<Vec<Step>> {
    Search::run(input).path_to(input.last())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::leetcode909::input::MAX_N;
    use proptest::prelude::*;

    /// Labels by walking the board as a printed one is read: start at the
    /// bottom row, go along it, step up a row, turn round. Written without
    /// the arithmetic of `cell_of`, so the two cross-check each other.
    pub(crate) fn walk_labels(n: usize) -> Vec<(usize, usize)> {
        let mut cells = vec![(0, 0)]; // index 0 unused
        let mut leftwards = false;
        for row in (0..n).rev() {
            let cols: Vec<usize> = if leftwards {
                (0..n).rev().collect()
            } else {
                (0..n).collect()
            };
            for col in cols {
                cells.push((row, col));
            }
            leftwards = !leftwards;
        }
        cells
    }

    /// Bellman-Ford style: relax every move from every square until nothing
    /// changes. Reads the raw rows through `walk_labels`.
    pub(crate) fn brute_answer(board: &[Vec<i64>]) -> i64 {
        let n = board.len();
        let last = n * n;
        let cells = walk_labels(n);
        let settle = |l: usize| {
            let (r, c) = cells[l];
            if board[r][c] == -1 {
                l
            } else {
                board[r][c] as usize
            }
        };
        let mut dist = vec![u64::MAX; last + 1];
        dist[1] = 0;
        loop {
            let mut changed = false;
            for curr in 1..last {
                if dist[curr] == u64::MAX {
                    continue;
                }
                for next in curr + 1..=(curr + 6).min(last) {
                    let to = settle(next);
                    if dist[curr] + 1 < dist[to] {
                        dist[to] = dist[curr] + 1;
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        if dist[last] == u64::MAX {
            -1
        } else {
            dist[last] as i64
        }
    }

    /// A random valid board: side 2..=max_n, a random density of snakes and
    /// ladders with any destination (self-jumps and chains included).
    pub(crate) fn arb_input(max_n: usize) -> impl Strategy<Value = Input> {
        (2usize..=max_n, 0u32..=100).prop_flat_map(|(n, density)| {
            let last = (n * n) as u32;
            proptest::collection::vec(
                (0u32..100, 1..=last),
                (last as usize - 2)..=(last as usize - 2),
            )
            .prop_map(move |draws| {
                let pairs: Vec<(u32, u32)> = draws
                    .into_iter()
                    .enumerate()
                    .filter(|(_, (p, _))| *p < density / 2)
                    .map(|(i, (_, d))| (i as u32 + 2, d))
                    .collect();
                Input::from_jumps(n, &pairs).unwrap()
            })
        })
    }

    #[test]
    fn the_statement_examples() {
        let ex1 = Input::new(&[
            vec![-1, -1, -1, -1, -1, -1],
            vec![-1, -1, -1, -1, -1, -1],
            vec![-1, -1, -1, -1, -1, -1],
            vec![-1, 35, -1, -1, 13, -1],
            vec![-1, -1, -1, -1, -1, -1],
            vec![-1, 15, -1, -1, -1, -1],
        ])
        .unwrap();
        assert_eq!(answer(&ex1), 4);
        let path: Vec<(u32, u32, u32)> = shortest_path(&ex1)
            .unwrap()
            .iter()
            .map(|s| (s.from, s.landed, s.to))
            .collect();
        assert_eq!(path.len(), 4);
        assert_eq!(path[0], (1, 2, 15));
        let ex2 = Input::new(&[vec![-1, -1], vec![-1, 3]]).unwrap();
        assert_eq!(answer(&ex2), 1);
        // The statement's note: 2 -> 3 is taken, 3 -> 4 is not followed.
        let note = Input::new(&[vec![-1, 4], vec![-1, 3]]).unwrap();
        assert_eq!(answer(&note), 1);
    }

    #[test]
    fn walk_labels_agrees_with_cell_of() {
        for n in 2..=MAX_N {
            let cells = walk_labels(n);
            for label in 1..=(n * n) as u32 {
                assert_eq!(
                    crate::leetcode909::input::cell_of(n, label),
                    cells[label as usize]
                );
            }
        }
    }

    proptest! {
        #[test]
        fn bfs_matches_relaxation(input in arb_input(MAX_N)) {
            prop_assert_eq!(answer(&input), brute_answer(&input.rows()));
        }

        #[test]
        fn bfs_matches_relaxation_on_small_boards(input in arb_input(3)) {
            prop_assert_eq!(answer(&input), brute_answer(&input.rows()));
        }

        #[test]
        fn the_path_is_legal_and_as_long_as_the_answer(input in arb_input(8)) {
            match shortest_path(&input) {
                None => prop_assert_eq!(answer(&input), -1),
                Some(path) => {
                    prop_assert_eq!(path.len() as i64, answer(&input));
                    let mut at = 1;
                    for step in &path {
                        prop_assert_eq!(step.from, at);
                        prop_assert!(step.landed > at && step.landed <= at + 6);
                        prop_assert_eq!(step.to, input.settle(step.landed));
                        at = step.to;
                    }
                    prop_assert_eq!(at, input.last());
                }
            }
        }
    }
}
