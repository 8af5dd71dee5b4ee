//! The answer: the shared breadth-first search of [`crate::dice_line`] on
//! the board's line, where the square labelled `l` is square `l - 1`.
//!
//! A player *stands on* a square after each move; the squares *landed on*
//! (before a snake or ladder is taken) are never positions. From `curr`
//! there is an edge to `settle(next)` for each `next` in
//! `curr+1..=min(curr+6, n²)`, every edge costs one move, and BFS from
//! square 1 gives the least number of moves in O(n²).

use super::input::Input;
use crate::dice_line;

/// How the player first came to stand on a square: from which square, and
/// which square the roll landed on (all three as labels).
pub use crate::dice_line::Step;

/// The least number of moves from square 1 to square n², or `None`.
pub fn moves(input: &Input) -> Option<u32> {
    dice_line::moves(input.line())
}

/// LeetCode's answer: the least number of moves, or -1.
pub fn answer(input: &Input) -> i64 {
    dice_line::answer(input.line())
}

/// A shortest path as steps, or `None` when n² cannot be reached.
pub fn shortest_path(input: &Input) -> Option<Vec<Step>> {
    dice_line::shortest_path(input.line())
        .map(|path| path.into_iter().map(|s| s.renumber(|q| q + 1)).collect())
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

    /// The answer by relaxation, reading the raw rows through
    /// `walk_labels` (the line's square `s` is label `s + 1`).
    pub(crate) fn brute_answer(board: &[Vec<i64>]) -> i64 {
        let n = board.len();
        let cells = walk_labels(n);
        dice_line::relaxation(n * n, |s| {
            let (r, c) = cells[s + 1];
            if board[r][c] == -1 {
                s
            } else {
                board[r][c] as usize - 1
            }
        })
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
        let [(_, ex1), (_, ex2)] = crate::leetcode909::seed_examples();
        assert_eq!(answer(&ex1), 4);
        let path: Vec<(u32, u32, u32)> = shortest_path(&ex1)
            .unwrap()
            .iter()
            .map(|s| (s.from, s.landed, s.to))
            .collect();
        assert_eq!(path.len(), 4);
        assert_eq!(path[0], (1, 2, 15));
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
