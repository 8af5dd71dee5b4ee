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
mod generate;
mod rules;
mod scenario;
mod seed_board;

pub use compare::{
    AfterSeen, Built, CallSeen, Class, MalformedTranscript, Mismatch, Observed, Plain, Raised,
    Wrong, compare, state_words, transcript,
};
pub use expected::{Construct, Expected, Outcome, Raises, Run, State, Step, expected, run};
pub use generate::{GENERATED_PLAYERS, GENERATED_SIZES, Kind, generate};
pub use rules::{Broken, Finish, Game, InvalidGame, MIN_SIZE, Refused, Turn, jump_words};
pub use scenario::{
    Call, CallName, DEFAULT_MAX_ROUNDS, InvalidScenario, MAX_CALLS, MAX_FINISH_LEN, MAX_INT,
    MAX_JUMPS, MAX_PLAYERS, MAX_PROBLEMS, MAX_ROLLS, MAX_SIZE, ParseError, Problem, RawCall,
    RawScenario, Scenario, parse, short_rolls,
};

/// Seed 004's 100-house board: its 11 snakes then its 11 ladders.
pub use seed_board::JUMPS as SEED_JUMPS;

/// The graded units, in report order.
pub const UNITS: [&str; 3] = ["Game", "move", "play"];

/// A model solution: `class Game` in `snakes_game.py`.
pub const MODEL_SOLUTION_PY: &str = include_str!("../../python/game/snakes_game.py");

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
