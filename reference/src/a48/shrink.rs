//! Smaller versions of a board and its step sizes, for shrinking a failing
//! case to a minimal counterexample (as property-testing tools do).
//!
//! [`candidates`] lists inputs strictly smaller than the given one, boldest
//! first: drop blocks of squares (halves, quarters, ... single squares), drop
//! snadders (all, halves, single ones), then make step sizes smaller. Every
//! candidate is a valid board. The search that keeps the first candidate that
//! still fails lives in the harness; this module only says what "smaller" is.

use super::board::Board;

/// An input to shrink: a board and the step sizes (none for `dualboard`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    pub board: Board,
    pub args: Vec<u64>,
}

impl Input {
    /// The order shrinking descends: squares, then snadders, then steps.
    pub fn size(&self) -> (u32, usize, u64) {
        (
            self.board.squares(),
            self.board.snadders().len(),
            self.args.iter().sum(),
        )
    }
}

/// One way to make an input smaller; cheap to list, applied lazily.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Edit {
    /// Remove squares `start..start + len`.
    RemoveSquares { start: u64, len: u64 },
    /// Keep only snadders `from..to` (by position in the sorted list).
    KeepSnadders { from: usize, to: usize },
    /// Remove the snadder at this position.
    RemoveSnadder(usize),
    /// Set argument `index` to `value`.
    Step { index: usize, value: u64 },
}

/// Inputs strictly smaller than `input` (by [`Input::size`]), boldest first.
/// Lazy: a 6,000-square board has thousands of candidates, and a search
/// usually keeps one of the first few.
pub fn candidates(input: Input) -> impl Iterator<Item = Input> {
    let pairs = input.board.pairs();
    edits(&input, pairs.len())
        .into_iter()
        .filter_map(move |edit| apply(&input, &pairs, edit))
}

fn edits(input: &Input, snadders: usize) -> Vec<Edit> {
    let mut out = Vec::new();
    let n = u64::from(input.board.squares());
    // Fewer squares: remove a block for len = n/2, n/4, ... 1.
    let mut len = n / 2;
    while len >= 1 {
        let mut start = 1;
        while start + len - 1 <= n {
            out.push(Edit::RemoveSquares { start, len });
            start += len;
        }
        len /= 2;
    }
    // Fewer snadders: all, then each half, then one at a time.
    if snadders > 0 {
        out.push(Edit::KeepSnadders { from: 0, to: 0 });
        if snadders > 2 {
            let half = snadders / 2;
            out.push(Edit::KeepSnadders {
                from: half,
                to: snadders,
            });
            out.push(Edit::KeepSnadders { from: 0, to: half });
        }
        if snadders > 1 {
            out.extend((0..snadders).map(Edit::RemoveSnadder));
        }
    }
    // Smaller steps, one argument at a time.
    for (index, &s) in input.args.iter().enumerate().filter(|(_, s)| **s >= 1) {
        // The same move modulo n (what a correct solution does with it),
        // then halving, then one less.
        let smaller = [1, (s - 1) % n + 1, s / 2, s.saturating_sub(1)];
        let mut seen = Vec::new();
        for value in smaller {
            if value >= 1 && value < s && !seen.contains(&value) {
                seen.push(value);
                out.push(Edit::Step { index, value });
            }
        }
    }
    out
}

fn apply(input: &Input, pairs: &[(u64, u64)], edit: Edit) -> Option<Input> {
    let n = u64::from(input.board.squares());
    let with_board = |board: Board| Input {
        board,
        args: input.args.clone(),
    };
    match edit {
        Edit::RemoveSquares { start, len } => without_squares(n, pairs, start, len).map(with_board),
        Edit::KeepSnadders { from, to } => Board::new(n, &pairs[from..to]).ok().map(with_board),
        Edit::RemoveSnadder(i) => {
            let mut fewer = pairs.to_vec();
            fewer.remove(i);
            Board::new(n, &fewer).ok().map(with_board)
        }
        Edit::Step { index, value } => {
            let mut args = input.args.clone();
            args[index] = value;
            Some(Input {
                board: input.board.clone(),
                args,
            })
        }
    }
}

/// The board without squares `start..start+len`, later squares renumbered
/// down; snadders that touch a removed square, or the new last square, go.
fn without_squares(n: u64, pairs: &[(u64, u64)], start: u64, len: u64) -> Option<Board> {
    let m = n - len;
    if m == 0 {
        return None;
    }
    let renumber = |q: u64| -> Option<u64> {
        if q < start {
            Some(q)
        } else if q >= start + len {
            Some(q - len)
        } else {
            None
        }
    };
    let kept: Vec<(u64, u64)> = pairs
        .iter()
        .filter_map(|&(s, d)| Some((renumber(s)?, renumber(d)?)))
        .filter(|&(s, d)| s != m && d != m)
        .collect();
    Board::new(m, &kept).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn arb_input() -> impl Strategy<Value = Input> {
        (1u64..40)
            .prop_flat_map(|n| {
                let pairs = proptest::collection::vec((1..=n, 1..=n), 0..8);
                (Just(n), pairs, proptest::collection::vec(1u64..100, 0..3))
            })
            .prop_filter_map("valid board", |(n, pairs, args)| {
                let mut used = std::collections::BTreeSet::new();
                let mut kept = Vec::new();
                for (s, d) in pairs {
                    if s != d && s != n && d != n && used.insert(s) && used.insert(d) {
                        kept.push((s, d));
                    }
                }
                Board::new(n, &kept).ok().map(|board| Input { board, args })
            })
    }

    proptest! {
        #[test]
        fn every_candidate_is_valid_and_strictly_smaller(input in arb_input()) {
            for c in candidates(input.clone()) {
                prop_assert!(c.size() < input.size(), "{:?} is not smaller than {:?}", c, input);
                prop_assert_eq!(c.args.len(), input.args.len());
                prop_assert!(c.args.iter().all(|&a| a >= 1));
                // Valid by construction: rebuilding it succeeds.
                prop_assert!(Board::new(u64::from(c.board.squares()), &c.board.pairs()).is_ok());
            }
        }

        #[test]
        fn only_the_one_square_board_with_unit_steps_is_minimal(input in arb_input()) {
            let minimal = input.board.squares() == 1 && input.args.iter().all(|&a| a == 1);
            prop_assert_eq!(candidates(input.clone()).next().is_none(), minimal);
        }
    }

    #[test]
    fn removing_a_block_renumbers_and_drops_what_it_touches() {
        let b = Board::new(10, &[(2, 8), (5, 3), (9, 1)]).unwrap();
        // Remove squares 4..=6: 8 -> 5, 9 -> 6; 5->3 touched square 5 and goes.
        let pairs = b.pairs();
        let smaller = without_squares(10, &pairs, 4, 3).unwrap();
        assert_eq!(smaller, Board::new(7, &[(2, 5), (6, 1)]).unwrap());
        // Removing the last square drops snadders onto the new last square.
        let smaller = without_squares(10, &pairs, 10, 1).unwrap();
        assert_eq!(smaller, Board::new(9, &[(2, 8), (5, 3)]).unwrap());
    }

    #[test]
    fn bold_reductions_come_first() {
        let input = Input {
            board: Board::new(8, &[(2, 5)]).unwrap(),
            args: vec![6],
        };
        let c: Vec<Input> = candidates(input.clone()).collect();
        assert_eq!(c[0].board.squares(), 4);
        assert_eq!(c.last().unwrap().args, vec![5]);
    }
}
