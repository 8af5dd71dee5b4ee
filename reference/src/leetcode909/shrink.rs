//! Smaller boards, for shrinking a failing case to a minimal one.
//!
//! The measure is lexicographic: (side n, number of jumps, total jump
//! length), where a jump's length is `|destination - source|`. [`size`]
//! packs it into one `u64` that orders the same way, so "strictly smaller"
//! is well founded (the minimum is the empty 2 x 2 board). Every candidate is
//! valid, and they come boldest first: smaller boards (n = 2 first), then
//! fewer jumps (all, halves, one at a time), then shorter jumps.

use super::input::{Input, Label, MIN_N};

/// The shrinking measure as one number: `n << 40 | jumps << 20 | length`.
/// Fits: jumps <= 398 < 2^20 and length <= 398 * 399 < 2^20.
pub fn size(input: &Input) -> u64 {
    let jumps = input.jumps();
    let length: u64 = jumps.iter().map(|&(s, d)| u64::from(s.abs_diff(d))).sum();
    ((input.n() as u64) << 40) | ((jumps.len() as u64) << 20) | length
}

/// Boards strictly smaller than `input` by [`size`], boldest first. At most
/// a few hundred candidates (a 20 x 20 board has at most 398 jumps), so they
/// are built eagerly.
pub fn shrink(input: &Input) -> impl Iterator<Item = Input> + use<> {
    let n = input.n();
    let pairs = input.jumps();
    let mut out = Vec::new();

    // A smaller side keeps the jumps that fit, with a jump to the old last
    // square kept as a jump to the new one (a ladder to the end stays one).
    for smaller in MIN_N..n {
        let last = (smaller * smaller) as Label;
        let kept: Vec<(Label, Label)> = pairs
            .iter()
            .map(|&(s, d)| (s, if d == input.last() { last } else { d }))
            .filter(|&(s, d)| s > 1 && s < last && d <= last)
            .collect();
        out.extend(Input::from_jumps(smaller, &kept).ok());
    }

    let k = pairs.len();
    if k > 0 {
        out.extend(Input::from_jumps(n, &[]).ok());
    }
    if k > 2 {
        out.extend(Input::from_jumps(n, &pairs[..k / 2]).ok());
        out.extend(Input::from_jumps(n, &pairs[k / 2..]).ok());
    }
    if k > 1 {
        for i in 0..k {
            let mut fewer = pairs.clone();
            fewer.remove(i);
            out.extend(Input::from_jumps(n, &fewer).ok());
        }
    }

    // Shorter jumps: halve the distance, then one square less.
    for i in 0..k {
        let (s, d) = pairs[i];
        let length = s.abs_diff(d);
        let mut seen = Vec::new();
        for shorter in [length / 2, length.saturating_sub(1)] {
            if shorter >= length || seen.contains(&shorter) {
                continue;
            }
            seen.push(shorter);
            let d2 = if d > s { s + shorter } else { s - shorter };
            let mut moved = pairs.clone();
            moved[i] = (s, d2);
            out.extend(Input::from_jumps(n, &moved).ok());
        }
    }
    out.into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leetcode909::solve::tests::arb_input;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn candidates_are_valid_and_strictly_smaller(input in arb_input(8)) {
            for c in shrink(&input) {
                prop_assert!(size(&c) < size(&input), "{:?} is not smaller than {:?}", c, input);
                prop_assert!(Input::new(&c.rows()).is_ok());
            }
        }

        #[test]
        fn only_the_empty_two_by_two_board_is_minimal(input in arb_input(4)) {
            let minimal = input.n() == 2 && input.jumps().is_empty();
            prop_assert_eq!(shrink(&input).next().is_none(), minimal);
        }
    }

    #[test]
    fn boldest_first_and_the_ladder_to_the_end_survives() {
        let input = Input::from_jumps(6, &[(2, 36), (20, 3)]).unwrap();
        let c: Vec<Input> = shrink(&input).collect();
        assert_eq!(c[0], Input::from_jumps(2, &[(2, 4)]).unwrap());
        assert_eq!(c.last().map(|l| l.jumps()), Some(vec![(2, 36), (20, 4)]));
    }
}
