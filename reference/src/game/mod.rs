//! The two-player game (seed 004, issue 17): a class graded by driving it
//! through a scenario of calls. This module owns the rules, the scenario
//! format, the expected answers, the judging of a transcript, the seeded
//! generator, shrinking and explanations. It is pure: no files, no
//! processes, no clock.
//!
//! # Rules (exactly as graded)
//!
//! * `Game(size, jumps, players=2, finish="bounce")`; `jumps` maps a house
//!   to the house its snake or ladder leads to.
//! * Construction raises `ValueError` when `size < 7`, when `players < 1`,
//!   when `finish` is neither `"bounce"` nor `"reach"`, or when a jump's
//!   source is not in `2..size-1`, its destination is not in `1..size`, or
//!   it leads to itself.
//! * Every player starts on house 1.
//! * `move(player, roll)` raises `ValueError` when the player is not in
//!   `1..players`, when the roll is not in `1..6`, or when someone has
//!   already won; a refused move changes nothing. Otherwise
//!   `t = position + roll`; if `t > size`, `t = 2*size - t` under `bounce`
//!   and `t = size` under `reach`. Then, if `t` is a jump's source, `t`
//!   becomes its destination: one hop, never chained. The player is now on
//!   `t`, and wins if `t == size` (so a ladder to the last house wins). It
//!   returns `t`.
//! * `position(player)` returns the player's house; `ValueError` for a
//!   player not in `1..players`.
//! * `winner()` returns the winner, or 0 while nobody has won.
//! * `play(rolls, max_rounds=150)` raises `ValueError` when someone has
//!   already won. Otherwise it plays turns in the order 1, 2, ..., players,
//!   1, 2, ..., starting with player 1 whatever `move` calls came before,
//!   each turn using the next roll. It stops as soon as a player wins and
//!   returns that player (later players in the round do not move). It
//!   returns 0 after `max_rounds` full rounds (so at once when
//!   `max_rounds <= 0`), or when the rolls run out.
//!
//! # Case format
//!
//! A case is a scenario: `function` is the call kind it is about
//! ([`UNITS`], see [`unit_of`]); `input` is a [`Scenario`] in its JSON form
//! (see [`scenario`](self::Scenario)); `expected` is an [`Expected`]; the
//! adapter's answer is a transcript, judged by [`compare`].

mod compare;
mod expected;
mod explain;
mod generate;
mod rules;
mod scenario;
mod seed_board;
mod shrink;

pub use compare::{
    AfterSeen, Built, CallSeen, Class, MalformedTranscript, Mismatch, Observed, Plain, Raised,
    Wrong, compare, state_words, transcript,
};
pub use expected::{Construct, Expected, Outcome, Raises, Run, State, Step, expected, run};
pub use explain::{DRAW_MAX_SIZE, describe, draw, explain};
pub use generate::{GENERATED_PLAYERS, GENERATED_SIZES, Kind, generate};
pub use rules::{Broken, Finish, Game, InvalidGame, MIN_SIZE, Refused, Turn, jump_words};
pub use scenario::{
    Call, CallName, DEFAULT_MAX_ROUNDS, InvalidScenario, MAX_CALLS, MAX_FINISH_LEN, MAX_INT,
    MAX_JUMPS, MAX_PLAYERS, MAX_PROBLEMS, MAX_ROLLS, MAX_SIZE, ParseError, Problem, RawCall,
    RawScenario, Scenario, parse, short_rolls,
};
pub use shrink::{shrink, size};

/// Seed 004's 100-house board: its 11 snakes then its 11 ladders.
pub use seed_board::JUMPS as SEED_JUMPS;

/// The graded units, in report order.
pub const UNITS: [&str; 3] = ["Game", "move", "play"];

/// A model solution: `class Game` in `snakes_game.py`.
pub const MODEL_SOLUTION_PY: &str = include_str!("../../python/game/snakes_game.py");

/// The same class in C++ (`snakes_game.cpp`), for C++ submissions.
pub const MODEL_SOLUTION_CPP: &str = include_str!("../../cpp/game/snakes_game.cpp");
/// The slowest acceptable Python solution: deadlines are a multiple of its
/// CPU time, so every solution at least this good passes.
pub const NAIVE_SOLUTION_PY: &str = include_str!("../../python/game/naive/snakes_game.py");
/// The slowest acceptable C++ solution (see [`NAIVE_SOLUTION_PY`]).
pub const NAIVE_SOLUTION_CPP: &str = include_str!("../../cpp/game/naive/snakes_game.cpp");

/// The unit a scenario is about: `Game` when the construction must fail or
/// no `move` or `play` is called, otherwise the kind of the last `move` or
/// `play` call. The generator sets each case's `function` to this, and
/// every shrink candidate keeps it.
pub fn unit_of(scenario: &Scenario) -> &'static str {
    if scenario.game().is_err() {
        return "Game";
    }
    scenario
        .calls()
        .iter()
        .rev()
        .find_map(|c| match c {
            Call::Move { .. } => Some("move"),
            Call::Play { .. } => Some("play"),
            _ => None,
        })
        .unwrap_or("Game")
}

/// The expected answers as a case's `expected` JSON.
pub fn expected_json(scenario: &Scenario) -> serde_json::Value {
    serde_json::to_value(expected(scenario)).expect("expected answers serialize")
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::case::CaseFile;

    /// A random scenario from the generator's random boards.
    fn arb_scenario() -> impl Strategy<Value = Scenario> {
        any::<u64>()
            .prop_map(|seed| generate::random_scenario(&mut ChaCha8Rng::seed_from_u64(seed)).1)
    }

    /// A random valid game and a long run of moves (some invalid).
    fn arb_game_and_moves() -> impl Strategy<Value = (Game, Vec<(i64, i64)>)> {
        (
            arb_scenario(),
            prop::collection::vec((0i64..=7, 0i64..=7), 0..300),
        )
            .prop_map(|(s, moves)| (s.game().unwrap(), moves))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        #[test]
        fn a_move_never_leaves_the_board((mut game, moves) in arb_game_and_moves()) {
            for (player, roll) in moves {
                if let Ok(turn) = game.step(player, roll) {
                    prop_assert!((1..=game.size()).contains(&turn.to));
                    prop_assert!((1..=game.size()).contains(&turn.landed));
                }
                prop_assert!(game.positions().iter().all(|p| (1..=game.size()).contains(p)));
            }
        }

        #[test]
        fn the_winner_is_the_first_to_land_on_the_last_house((mut game, moves) in arb_game_and_moves()) {
            let mut first = 0;
            for (player, roll) in moves {
                let before = game.clone();
                match game.step(player, roll) {
                    Ok(turn) => {
                        prop_assert_eq!(first, 0, "a move after the win");
                        if turn.to == game.size() {
                            first = player as u32;
                        }
                    }
                    Err(_) => prop_assert_eq!(&game, &before, "a refused move changed the game"),
                }
                prop_assert_eq!(game.winner(), first);
            }
        }

        #[test]
        fn play_is_the_same_turns_made_with_move(
            (game, moves) in arb_game_and_moves(),
            rolls in prop::collection::vec(1u8..=6, 0..400),
            max_rounds in 0i64..40,
        ) {
            let mut game = game;
            for (player, roll) in moves.into_iter().take(20) {
                let _ = game.step(player, roll);
            }
            let mut by_play = game.clone();
            let mut by_move = game.clone();
            let played = by_play.play(&rolls, max_rounds);
            let players = i64::from(by_move.players());
            let mut returned = 0;
            if by_move.winner() != 0 {
                prop_assert!(played.is_err());
                return Ok(());
            }
            'rounds: for round in 0..max_rounds as usize {
                for p in 1..=players {
                    let Some(&roll) = rolls.get(round * players as usize + p as usize - 1) else {
                        break 'rounds;
                    };
                    if by_move.step(p, i64::from(roll)).unwrap().won {
                        returned = p as u32;
                        break 'rounds;
                    }
                }
            }
            prop_assert_eq!(played.unwrap().0, returned);
            prop_assert_eq!(by_play, by_move);
        }

        #[test]
        fn the_reference_s_own_transcript_passes(s in arb_scenario()) {
            let e = expected(&s);
            prop_assert!(compare(&s, &e, &transcript(&s)).is_ok());
            let back: Scenario = serde_json::from_value(serde_json::to_value(&s).unwrap()).unwrap();
            prop_assert_eq!(back, s);
        }
    }

    /// `fixtures/game/seed-board.json`: hand-made scenarios on seed 004's
    /// board. Each case's `expected` is re-derived here; after changing a
    /// scenario, print the new answer with
    /// `cargo test -p salgrade-reference game::tests -- --nocapture` and
    /// paste it in.
    #[test]
    fn the_seed_board_fixture_matches_the_reference() {
        let text = include_str!("../../../fixtures/game/seed-board.json");
        let file: CaseFile = serde_json::from_str(text).unwrap();
        assert_eq!(file.assignment, "game");
        assert!(file.cases.len() >= 4);
        for case in &file.cases {
            let s = parse(&case.input).unwrap();
            println!("{}: {}", case.id, expected_json(&s));
            assert_eq!(case.function, unit_of(&s), "{}", case.id);
            assert_eq!(case.expected, expected_json(&s), "{}", case.id);
            if s.game().is_ok() {
                assert_eq!(s.size(), 100, "{}", case.id);
                assert_eq!(s.jumps(), SEED_JUMPS, "{}", case.id);
            }
        }
    }

    #[test]
    fn the_model_solution_is_embedded() {
        assert!(MODEL_SOLUTION_PY.contains("class Game:"));
        assert!(MODEL_SOLUTION_PY.contains("def play(self, rolls, max_rounds=150):"));
    }
}
