//! The answer: the shared breadth-first search of [`crate::dice_line`] on
//! the board's line, where cell `i` is square `i`.
//!
//! From cell `v` a throw of `k` (1..=6) lands on `v + k` if `v + k <= n - 1`
//! and the player ends on `settle(v + k)`. Every throw costs one, so BFS from
//! cell 0 gives the least number of throws, in O(n): a 100,000-cell board is
//! about 600,000 steps.

use super::input::Input;
use crate::dice_line;

/// How the player first came to stand on a cell.
pub use crate::dice_line::Step;

/// The least number of throws from cell 0 to cell n-1, or `None`.
pub fn throws(input: &Input) -> Option<u32> {
    dice_line::moves(input.line())
}

/// The graded answer: the least number of throws, or -1.
pub fn answer(input: &Input) -> i64 {
    dice_line::answer(input.line())
}

/// A shortest sequence of throws, or `None` when n-1 cannot be reached.
pub fn shortest_path(input: &Input) -> Option<Vec<Step>> {
    dice_line::shortest_path(input.line())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::min_throws::input::Cell;
    use proptest::prelude::*;

    /// The answer by relaxation, reading the raw `move` list.
    pub(crate) fn brute_answer(moves: &[i64]) -> i64 {
        dice_line::relaxation(moves.len(), |c| {
            if moves[c] == -1 { c } else { moves[c] as usize }
        })
    }

    /// A random valid board of 1..=max_n cells, up to half of them jumps to
    /// anywhere but their own cell.
    pub(crate) fn arb_input(max_n: usize) -> impl Strategy<Value = Input> {
        (1usize..=max_n, 0u32..=100).prop_flat_map(|(n, density)| {
            proptest::collection::vec((0u32..100, 0..n as u32), n..=n).prop_map(move |draws| {
                let pairs: Vec<(Cell, Cell)> = draws
                    .into_iter()
                    .enumerate()
                    .filter(|&(s, (p, d))| p < density / 2 && s > 0 && s + 1 < n && d as usize != s)
                    .map(|(s, (_, d))| (s as Cell, d))
                    .collect();
                Input::from_jumps(n, &pairs).unwrap()
            })
        })
    }

    #[test]
    fn the_seed_board_takes_three_throws() {
        let input = crate::min_throws::seed_example();
        assert_eq!(answer(&input), 3);
        assert_eq!(shortest_path(&input).map(|p| p.len()), Some(3));
    }

    #[test]
    fn tiny_boards() {
        assert_eq!(answer(&Input::new(&[-1]).unwrap()), 0);
        for n in 2..=7 {
            assert_eq!(answer(&Input::new(&vec![-1; n]).unwrap()), 1, "n = {n}");
        }
        assert_eq!(answer(&Input::new(&[-1; 8]).unwrap()), 2);
    }

    proptest! {
        #[test]
        fn bfs_matches_relaxation(input in arb_input(120)) {
            prop_assert_eq!(answer(&input), brute_answer(&input.moves()));
        }

        #[test]
        fn bfs_matches_relaxation_on_tiny_boards(input in arb_input(12)) {
            prop_assert_eq!(answer(&input), brute_answer(&input.moves()));
        }
    }
}
