//! Smaller boards, for shrinking a failing case to a minimal one.
//!
//! The measure is lexicographic: (cells n, number of jumps, total jump
//! length), a jump's length being `|destination - source|`; the minimum is
//! the one-cell board. Candidates are strictly smaller by [`measure`], every
//! one valid, boldest first: blocks of cells removed (halves, quarters, ...,
//! single cells, later cells renumbered down), then fewer jumps (all,
//! halves, one at a time), then shorter jumps. A 100,000-cell board has
//! hundreds of thousands of candidates, so they are listed as cheap edits
//! and built lazily; a search usually keeps one of the first few.

use super::input::{Cell, Input};

/// The shrinking measure: (cells, jumps, total jump length).
pub fn measure(input: &Input) -> (usize, usize, u64) {
    let jumps = input.jumps();
    let length = jumps.iter().map(|&(s, d)| u64::from(s.abs_diff(d))).sum();
    (input.len(), jumps.len(), length)
}

/// The measure as one number for choosing the smallest failing case:
/// `cells << 40 | jumps << 20 | length`, the length capped at `2^20 - 1`
/// (so the order is exact except between boards that differ only in total
/// jump lengths above about a million).
pub fn size(input: &Input) -> u64 {
    let (cells, jumps, length) = measure(input);
    ((cells as u64) << 40) | ((jumps as u64) << 20) | length.min((1 << 20) - 1)
}

#[derive(Debug, Clone, Copy)]
enum Edit {
    /// Remove cells `start..start + len` (never cell 0).
    RemoveCells { start: usize, len: usize },
    /// Keep only jumps `from..to`, by position in source order.
    KeepJumps { from: usize, to: usize },
    /// Remove the jump at this position.
    RemoveJump(usize),
    /// Move jump `index`'s destination to `destination`.
    Shorten { index: usize, destination: Cell },
}

/// Boards strictly smaller than `input` by [`measure`], boldest first.
pub fn shrink(input: &Input) -> impl Iterator<Item = Input> + use<> {
    let n = input.len();
    let pairs = input.jumps();
    let mut edits = Vec::new();
    // Block lengths (n-1)/2 rounded up, then halving down to 1; blocks
    // never include cell 0.
    let mut len = (n - 1).div_ceil(2);
    while len >= 1 {
        let mut start = 1;
        while start + len <= n {
            edits.push(Edit::RemoveCells { start, len });
            start += len;
        }
        len = if len == 1 { 0 } else { len / 2 };
    }
    let k = pairs.len();
    if k > 0 {
        edits.push(Edit::KeepJumps { from: 0, to: 0 });
    }
    if k > 2 {
        edits.push(Edit::KeepJumps { from: 0, to: k / 2 });
        edits.push(Edit::KeepJumps { from: k / 2, to: k });
    }
    if k > 1 {
        edits.extend((0..k).map(Edit::RemoveJump));
    }
    for (index, &(s, d)) in pairs.iter().enumerate() {
        let length = s.abs_diff(d);
        let mut seen = Vec::new();
        for shorter in [length / 2, length - 1] {
            if shorter == 0 || shorter >= length || seen.contains(&shorter) {
                continue;
            }
            seen.push(shorter);
            let destination = if d > s { s + shorter } else { s - shorter };
            edits.push(Edit::Shorten { index, destination });
        }
    }
    edits
        .into_iter()
        .filter_map(move |edit| apply(n, &pairs, edit))
}

fn apply(n: usize, pairs: &[(Cell, Cell)], edit: Edit) -> Option<Input> {
    match edit {
        Edit::RemoveCells { start, len } => {
            let m = n - len;
            let (start, len) = (start as Cell, len as Cell);
            let renumber = |c: Cell| -> Option<Cell> {
                if c < start {
                    Some(c)
                } else if c >= start + len {
                    Some(c - len)
                } else {
                    None
                }
            };
            let kept: Vec<(Cell, Cell)> = pairs
                .iter()
                .filter_map(|&(s, d)| Some((renumber(s)?, renumber(d)?)))
                .filter(|&(s, _)| (s as usize) + 1 < m)
                .collect();
            Input::from_jumps(m, &kept).ok()
        }
        Edit::KeepJumps { from, to } => Input::from_jumps(n, &pairs[from..to]).ok(),
        Edit::RemoveJump(i) => {
            let mut fewer = pairs.to_vec();
            fewer.remove(i);
            Input::from_jumps(n, &fewer).ok()
        }
        Edit::Shorten { index, destination } => {
            let mut moved = pairs.to_vec();
            moved[index].1 = destination;
            Input::from_jumps(n, &moved).ok()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::min_throws::solve::tests::arb_input;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn candidates_are_valid_and_strictly_smaller(input in arb_input(40)) {
            for c in shrink(&input) {
                prop_assert!(measure(&c) < measure(&input), "{:?} is not smaller than {:?}", c, input);
                prop_assert!(size(&c) < size(&input));
                prop_assert!(Input::new(&c.moves()).is_ok());
            }
        }

        #[test]
        fn only_the_one_cell_board_is_minimal(input in arb_input(12)) {
            prop_assert_eq!(shrink(&input).next().is_none(), input.len() == 1);
        }
    }

    #[test]
    fn removing_a_block_renumbers_and_drops_what_it_touches() {
        // 10 cells, ladder 2 -> 8, snake 5 -> 3, snake 8 -> 1; remove 4..=6.
        let input = Input::from_jumps(10, &[(2, 8), (5, 3), (8, 1)]).unwrap();
        let pairs = input.jumps();
        let smaller = apply(10, &pairs, Edit::RemoveCells { start: 4, len: 3 }).unwrap();
        assert_eq!(smaller, Input::from_jumps(7, &[(2, 5), (5, 1)]).unwrap());
        let first = shrink(&input).next().unwrap();
        assert_eq!(first.len(), 5);
    }
}
