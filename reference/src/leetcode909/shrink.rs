//! Smaller boards, for shrinking a failing case to a minimal one.
//!
//! The measure is lexicographic: (side n, number of jumps, total jump
//! length), where a jump's length is `|destination - source|`. [`size`]
//! packs it into one `u64` that orders the same way, so "strictly smaller"
//! is well founded (the minimum is the empty 2 x 2 board). Every candidate is
//! valid, and they come boldest first: smaller boards (n = 2 first; the
//! jumps that fit, then every jump with a run of plain squares closed up), then
//! fewer jumps (all, halves, one at a time), then shorter jumps (never into
//! a self-jump: no candidate has one its input lacks).

use super::input::{Input, Label, MIN_N};

/// The shrinking measure as one number: `n << 40 | jumps << 20 | length`.
/// Fits: jumps <= 398 < 2^20 and length <= 398 * 399 < 2^20.
pub fn size(input: &Input) -> u64 {
    let jumps = input.jumps();
    let length: u64 = jumps.iter().map(|&(s, d)| u64::from(s.abs_diff(d))).sum();
    ((input.n() as u64) << 40) | ((jumps.len() as u64) << 20) | length
}

/// Boards strictly smaller than `input` by [`size`], boldest first. At most
/// a few thousand candidates (a 20 x 20 board has at most 398 jumps, and a
/// run closed up needs a gap between squares that matter as long as the
/// squares removed, so few sides have many), so they are built eagerly.
pub fn shrink(input: &Input) -> impl Iterator<Item = Input> + use<> {
    let n = input.n();
    let pairs = input.jumps();
    let mut out = Vec::new();

    // A smaller side keeps the jumps that fit, with a jump to the old last
    // square kept as a jump to the new one (a ladder to the end stays one).
    // Then the same side with every jump kept: a run of plain squares
    // between two squares that matter is closed up and the squares after it
    // renumbered down, so ladder 2 -> 45 and ladder 45 -> 49 on a 7 x 7
    // board become 2 -> 12 and 12 -> 16 on a 4 x 4 one. Without this a far
    // jump pins the side where it is. Renumbering keeps distinct squares
    // distinct, so it makes no self-jump and no chain.
    let ends = endpoints(input);
    for smaller in MIN_N..n {
        let last = (smaller * smaller) as Label;
        let kept: Vec<(Label, Label)> = pairs
            .iter()
            .map(|&(s, d)| (s, if d == input.last() { last } else { d }))
            .filter(|&(s, d)| s > 1 && s < last && d <= last)
            .collect();
        out.extend(Input::from_jumps(smaller, &kept).ok());
        let removed = input.last() - last;
        for gap in ends.windows(2) {
            let (before, after) = (gap[0], gap[1]);
            if after - before - 1 < removed {
                continue;
            }
            let down = |l: Label| if l > before { l - removed } else { l };
            let closed: Vec<(Label, Label)> =
                pairs.iter().map(|&(s, d)| (down(s), down(d))).collect();
            out.extend(Input::from_jumps(smaller, &closed).ok());
        }
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

    // Shorter jumps: halve the distance, then one square less, but never
    // to nothing. A self-jump (3 -> 3) is legal and moves no one, so a
    // counterexample built of them teaches the wrong lesson; removing the
    // jump (above) is the clean way to make it shorter still.
    for i in 0..k {
        let (s, d) = pairs[i];
        let length = s.abs_diff(d);
        let mut seen = Vec::new();
        for shorter in [length / 2, length.saturating_sub(1)] {
            if shorter == 0 || shorter >= length || seen.contains(&shorter) {
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

/// The squares that matter, in order and without repeats: the first, the
/// last, and every jump's source and destination. Between two neighbours
/// lie only plain squares.
fn endpoints(input: &Input) -> Vec<Label> {
    let mut ends: Vec<Label> = input
        .jumps()
        .into_iter()
        .flat_map(|(s, d)| [s, d])
        .chain([1, input.last()])
        .collect();
    ends.sort_unstable();
    ends.dedup();
    ends
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

        // A smaller side may renumber squares, so self-jumps are counted,
        // not named: no candidate has more than its input.
        #[test]
        fn no_candidate_has_a_self_jump_its_input_lacks(input in arb_input(8)) {
            let own = self_jumps(&input);
            for c in shrink(&input) {
                prop_assert!(self_jumps(&c) <= own, "{:?} has a self-jump {:?} lacks", c, input);
            }
        }

        #[test]
        fn only_the_empty_two_by_two_board_is_minimal(input in arb_input(4)) {
            let minimal = input.n() == 2 && input.jumps().is_empty();
            prop_assert_eq!(shrink(&input).next().is_none(), minimal);
        }
    }

    fn self_jumps(input: &Input) -> usize {
        input.jumps().into_iter().filter(|(s, d)| s == d).count()
    }

    #[test]
    fn a_jump_of_one_square_is_removed_never_shortened() {
        // Snakes 4 -> 3 and 7 -> 2 on a 3 x 3 board: 7 -> 2 shortens to
        // 7 -> 5 and 7 -> 3; 4 -> 3 has nothing shorter but the self-jump.
        let input = Input::from_jumps(3, &[(4, 3), (7, 2)]).unwrap();
        let same_count: Vec<Vec<(Label, Label)>> = shrink(&input)
            .filter(|c| c.n() == 3 && c.jumps().len() == 2)
            .map(|c| c.jumps())
            .collect();
        assert_eq!(same_count, vec![vec![(4, 3), (7, 5)], vec![(4, 3), (7, 3)]]);
    }

    #[test]
    fn a_smaller_side_closes_a_run_of_plain_squares() {
        // 42 plain squares lie between 2 and 45: closing up 40 or 33 of
        // them gives a 3 x 3 or a 4 x 4 board with both ladders.
        let input = Input::from_jumps(7, &[(2, 45), (45, 49)]).unwrap();
        let c: Vec<Input> = shrink(&input).collect();
        assert!(c.contains(&Input::from_jumps(3, &[(2, 5), (5, 9)]).unwrap()));
        assert!(c.contains(&Input::from_jumps(4, &[(2, 12), (12, 16)]).unwrap()));
        // Gaps shorter than the squares to remove are left alone: 2 and 3
        // plain squares, and a 2 x 2 board needs 5 fewer.
        let three = Input::from_jumps(3, &[(2, 5), (5, 9)]).unwrap();
        assert!(shrink(&three).all(|c| c.n() == 3 || c.jumps().len() < 2));
    }

    #[test]
    fn boldest_first_and_the_ladder_to_the_end_survives() {
        let input = Input::from_jumps(6, &[(2, 36), (20, 3)]).unwrap();
        let c: Vec<Input> = shrink(&input).collect();
        assert_eq!(c[0], Input::from_jumps(2, &[(2, 4)]).unwrap());
        assert_eq!(c.last().map(|l| l.jumps()), Some(vec![(2, 36), (20, 4)]));
    }
}
