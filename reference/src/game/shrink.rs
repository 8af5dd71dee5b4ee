//! Smaller scenarios, for shrinking a failing case to a minimal one.
//!
//! The measure is lexicographic: (calls, the rolls' weight, size, jumps,
//! players), where the rolls' weight adds up every roll in `play` calls and
//! each `move`'s roll (a roll outside `1..6` weighs 7). [`size`] packs it into one `u64` that orders the same
//! way, so "strictly smaller" is well founded. [`shrink`] lists candidates
//! boldest first: fewer calls (all, most, one at a time), fewer rolls
//! (halves, then one at a time), smaller `move` rolls, a smaller board (size 7, half, one less;
//! jumps that no longer fit dropped, a jump to the old last house kept as a
//! jump to the new one), fewer jumps (all, halves, one at a time), fewer
//! players. Every candidate is a well-formed scenario about the same unit
//! ([`unit_of`]) and strictly smaller; they are built lazily, one at a time.

use super::rules::MIN_SIZE;
use super::scenario::{Call, MAX_PLAYERS, MAX_SIZE, Scenario};
use super::unit_of;

/// Rolls removed one at a time from each `play` call, at most this many.
const ROLLS_ONE_AT_A_TIME: usize = 64;

/// The shrinking measure as one number:
/// `calls << 54 | weight << 37 | (size + MAX_SIZE) << 22 | jumps << 8 | (players + MAX_PLAYERS)`.
/// Fits: calls <= 1,000 < 2^10, weight <= 6 * 10,000 + 7 * 1,000 < 2^17,
/// size + MAX_SIZE <= 20,000 < 2^15, jumps <= 10,000 < 2^14,
/// players + MAX_PLAYERS <= 200 < 2^8.
pub fn size(s: &Scenario) -> u64 {
    let calls = s.calls().len() as u64;
    let weight = weight(s);
    let board = (s.size() + MAX_SIZE) as u64;
    let jumps = s.jumps().len() as u64;
    let players = (s.players() + MAX_PLAYERS) as u64;
    (calls << 54) | (weight << 37) | (board << 22) | (jumps << 8) | players
}

fn weight(s: &Scenario) -> u64 {
    s.calls()
        .iter()
        .map(|c| match c {
            Call::Play { rolls, .. } => rolls.iter().map(|&r| u64::from(r)).sum(),
            Call::Move { roll, .. } if (1..=6).contains(roll) => *roll as u64,
            Call::Move { .. } => 7,
            _ => 0,
        })
        .sum()
}

/// One way to make a scenario smaller; cheap to list, applied lazily.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Edit {
    KeepCalls(usize),
    RemoveCall(usize),
    KeepRolls { call: usize, keep: usize },
    RemoveRoll { call: usize, roll: usize },
    MoveRoll { call: usize, roll: i64 },
    Size(i64),
    KeepJumps { from: usize, to: usize },
    RemoveJump(usize),
    Players(i64),
}

fn edits(s: &Scenario) -> Vec<Edit> {
    let mut out = Vec::new();
    let n = s.calls().len();
    let mut kept = Vec::new();
    for k in [0, n / 4, n / 2, 3 * n / 4, n.saturating_sub(1)] {
        if k < n && !kept.contains(&k) {
            kept.push(k);
            out.push(Edit::KeepCalls(k));
        }
    }
    out.extend((0..n).map(Edit::RemoveCall));
    for (call, c) in s.calls().iter().enumerate() {
        if let Call::Play { rolls, .. } = c {
            let len = rolls.len();
            if len > 0 {
                out.push(Edit::KeepRolls { call, keep: 0 });
            }
            if len / 2 > 0 {
                out.push(Edit::KeepRolls {
                    call,
                    keep: len / 2,
                });
            }
            out.extend(
                (0..len)
                    .rev()
                    .take(ROLLS_ONE_AT_A_TIME)
                    .map(|roll| Edit::RemoveRoll { call, roll }),
            );
        }
    }
    for (call, c) in s.calls().iter().enumerate() {
        if let Call::Move { roll, .. } = *c
            && (2..=6).contains(&roll)
        {
            out.push(Edit::MoveRoll { call, roll: 1 });
            if roll > 2 {
                out.push(Edit::MoveRoll {
                    call,
                    roll: roll - 1,
                });
            }
        }
    }
    let size = s.size();
    let mut sizes = Vec::new();
    for smaller in [MIN_SIZE, size / 2, size - 1] {
        if (MIN_SIZE..size).contains(&smaller) && !sizes.contains(&smaller) {
            sizes.push(smaller);
            out.push(Edit::Size(smaller));
        }
    }
    let k = s.jumps().len();
    if k > 0 {
        out.push(Edit::KeepJumps { from: 0, to: 0 });
    }
    if k > 2 {
        out.push(Edit::KeepJumps { from: 0, to: k / 2 });
        out.push(Edit::KeepJumps { from: k / 2, to: k });
    }
    if k > 1 {
        out.extend((0..k).map(Edit::RemoveJump));
    }
    let players = s.players();
    let mut fewer = Vec::new();
    for p in [1, players / 2, players - 1] {
        if (1..players).contains(&p) && !fewer.contains(&p) {
            fewer.push(p);
            out.push(Edit::Players(p));
        }
    }
    out
}

fn apply(s: &Scenario, edit: Edit) -> Option<Scenario> {
    let mut size = s.size();
    let mut jumps = s.jumps().to_vec();
    let mut players = s.players();
    let mut calls = s.calls().to_vec();
    match edit {
        Edit::KeepCalls(k) => calls.truncate(k),
        Edit::RemoveCall(i) => {
            calls.remove(i);
        }
        Edit::KeepRolls { call, keep } => {
            if let Call::Play { rolls, .. } = &mut calls[call] {
                rolls.truncate(keep);
            }
        }
        Edit::RemoveRoll { call, roll } => {
            if let Call::Play { rolls, .. } = &mut calls[call] {
                rolls.remove(roll);
            }
        }
        Edit::MoveRoll {
            call,
            roll: smaller,
        } => {
            if let Call::Move { roll, .. } = &mut calls[call] {
                *roll = smaller;
            }
        }
        Edit::Size(smaller) => {
            jumps = jumps
                .into_iter()
                .map(|(a, b)| (a, if b == size { smaller } else { b }))
                .filter(|&(a, b)| a < smaller && b <= smaller)
                .collect();
            size = smaller;
        }
        Edit::KeepJumps { from, to } => jumps = jumps[from..to].to_vec(),
        Edit::RemoveJump(i) => {
            jumps.remove(i);
        }
        Edit::Players(p) => players = p,
    }
    Scenario::new(size, jumps, players, s.finish().to_owned(), calls).ok()
}

/// Scenarios strictly smaller than `s` by [`size`], boldest first, each
/// about the same unit as `s`.
pub fn shrink(s: &Scenario) -> impl Iterator<Item = Scenario> + use<> {
    let original = s.clone();
    let unit = unit_of(s);
    let measure = size(s);
    edits(s)
        .into_iter()
        .filter_map(move |edit| apply(&original, edit))
        .filter(move |c| size(c) < measure && unit_of(c) == unit)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::game::generate::random_scenario;
    use crate::game::{SEED_JUMPS, generate, parse};

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn candidates_are_well_formed_smaller_and_about_the_same_unit(seed in any::<u64>()) {
            let (_, s) = random_scenario(&mut ChaCha8Rng::seed_from_u64(seed));
            for c in shrink(&s) {
                prop_assert!(size(&c) < size(&s));
                prop_assert_eq!(unit_of(&c), unit_of(&s));
                let back = serde_json::to_value(&c).unwrap();
                prop_assert_eq!(parse(&back).unwrap(), c);
            }
        }

        /// Shrinking a game the rules accept never makes one they refuse
        /// (a self-jump, a source or destination off the board, fewer than
        /// seven houses or one player): its scenario stays about its calls.
        #[test]
        fn a_game_the_rules_accept_shrinks_to_games_they_accept(seed in any::<u64>()) {
            let (_, s) = random_scenario(&mut ChaCha8Rng::seed_from_u64(seed));
            prop_assume!(s.game().is_ok());
            for c in shrink(&s) {
                prop_assert!(c.game().is_ok(), "{:?} shrank to {:?}", s, c);
            }
        }
    }

    #[test]
    fn every_generated_case_shrinks_well() {
        for case in generate(2, 5) {
            let s = parse(&case.input).unwrap();
            for c in shrink(&s) {
                assert!(size(&c) < size(&s), "{}", case.id);
                assert_eq!(unit_of(&c), case.function, "{}", case.id);
            }
        }
    }

    #[test]
    fn boldest_first() {
        let s = Scenario::new(
            100,
            SEED_JUMPS.to_vec(),
            3,
            "bounce".into(),
            vec![
                Call::Winner,
                Call::Move { player: 1, roll: 3 },
                Call::Play {
                    rolls: vec![1, 2, 3, 4],
                    max_rounds: None,
                },
            ],
        )
        .unwrap();
        let c: Vec<Scenario> = shrink(&s).collect();
        // Keeping no calls would make it a `Game` case; dropping the first
        // call keeps it about `play`.
        assert_eq!(c[0].calls().len(), 2);
        let board = c.iter().find(|c| c.size() == 7).unwrap();
        assert!(board.jumps().is_empty(), "{:?}", board.jumps());
        assert_eq!(c.last().unwrap().players(), 2);
        assert!(c.iter().any(|c| c.jumps().len() == 11));
    }

    #[test]
    fn a_ladder_to_the_end_stays_one() {
        let s = Scenario::new(50, vec![(40, 50), (45, 3)], 1, "bounce".into(), vec![]).unwrap();
        let c: Vec<Scenario> = shrink(&s).collect();
        assert!(c.iter().any(|c| c.size() == 25 && c.jumps().is_empty()));
        assert!(
            c.iter()
                .any(|c| c.size() == 49 && c.jumps() == [(40, 49), (45, 3)])
        );
    }
}
