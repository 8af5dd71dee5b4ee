//! The answer: breadth-first search over the cells a player can stand on.
//!
//! From cell `v` a throw of `k` (1..=6) lands on `v + k` if `v + k <= n - 1`
//! and the player ends on `settle(v + k)`. Every throw costs one, so BFS from
//! cell 0 gives the least number of throws.
//!
//! O(n) time and space: each cell is enqueued at most once (when first stood
//! on) and has at most six edges, so a 100,000-cell board is about 600,000
//! steps.

use std::collections::VecDeque;

use super::input::{Cell, Input};

/// How the player first came to stand on a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    pub from: Cell,
    pub landed: Cell,
    pub to: Cell,
}

/// The BFS tree: for each cell, its distance and the step that first reached it.
pub(crate) struct Search {
    reached: Vec<Option<(u32, Option<Step>)>>,
}

impl Search {
    pub(crate) fn run(input: &Input) -> Search {
        let last = input.last();
        let mut reached: Vec<Option<(u32, Option<Step>)>> = vec![None; input.len()];
        reached[0] = Some((0, None));
        let mut queue = VecDeque::from([0 as Cell]);
        while let Some(v) = queue.pop_front() {
            if v == last {
                break;
            }
            let d = reached[v as usize].map_or(0, |(d, _)| d);
            for landed in v + 1..=(v + 6).min(last) {
                let to = input.settle(landed);
                if reached[to as usize].is_none() {
                    reached[to as usize] = Some((
                        d + 1,
                        Some(Step {
                            from: v,
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

    pub(crate) fn distance(&self, cell: Cell) -> Option<u32> {
        self.reached
            .get(cell as usize)
            .copied()
            .flatten()
            .map(|(d, _)| d)
    }

    pub(crate) fn reached(&self) -> impl Iterator<Item = Cell> + '_ {
        self.reached
            .iter()
            .enumerate()
            .filter(|(_, r)| r.is_some())
            .map(|(c, _)| c as Cell)
    }

    pub(crate) fn path_to(&self, cell: Cell) -> Option<Vec<Step>> {
        let mut steps = Vec::new();
        let mut at = cell;
        while let (_, Some(step)) = self.reached.get(at as usize).copied().flatten()? {
            steps.push(step);
            at = step.from;
        }
        steps.reverse();
        Some(steps)
    }
}

/// The least number of throws from cell 0 to cell n-1, or `None`.
pub fn throws(input: &Input) -> Option<u32> {
    Search::run(input).distance(input.last())
}

/// The graded answer: the least number of throws, or -1.
pub fn answer(input: &Input) -> i64 {
    throws(input).map_or(-1, i64::from)
}

/// A shortest sequence of throws, or `None` when n-1 cannot be reached.
pub fn shortest_path(input: &Input) -> Option<Vec<Step>> {
    Search::run(input).path_to(input.last())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Relax every throw from every cell until nothing changes, reading the
    /// raw `move` list.
    pub(crate) fn brute_answer(moves: &[i64]) -> i64 {
        let n = moves.len();
        let mut dist = vec![u64::MAX; n];
        dist[0] = 0;
        let mut changed = true;
        while changed {
            changed = false;
            for v in 0..n {
                if dist[v] == u64::MAX {
                    continue;
                }
                for k in 1..=6 {
                    if v + k > n - 1 {
                        break;
                    }
                    let to = if moves[v + k] == -1 {
                        v + k
                    } else {
                        moves[v + k] as usize
                    };
                    if dist[v] + 1 < dist[to] {
                        dist[to] = dist[v] + 1;
                        changed = true;
                    }
                }
            }
        }
        if dist[n - 1] == u64::MAX {
            -1
        } else {
            dist[n - 1] as i64
        }
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
        let input = Input::from_jumps(
            30,
            &[
                (2, 21),
                (4, 7),
                (10, 25),
                (19, 28),
                (26, 0),
                (20, 8),
                (16, 3),
                (18, 6),
            ],
        )
        .unwrap();
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

        #[test]
        fn the_path_is_legal_and_as_long_as_the_answer(input in arb_input(60)) {
            match shortest_path(&input) {
                None => prop_assert_eq!(answer(&input), -1),
                Some(path) => {
                    prop_assert_eq!(path.len() as i64, answer(&input));
                    let mut at = 0;
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
