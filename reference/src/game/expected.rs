//! The reference's play-through of a scenario and the expected answers in a
//! case's form:
//!
//! ```json
//! {"construct": "ok", "calls": [{"returns": 7}, {"raises": "ValueError"}],
//!  "after": [{"positions": [7, 1], "winner": 0}, {"positions": [7, 1], "winner": 0}]}
//! ```
//!
//! `construct` is `"ok"` or `"ValueError"`; there is one `calls` and one
//! `after` entry per call (the state after the call, whether it returned or
//! raised); a construction that raises has no calls.

use serde::{Deserialize, Serialize};

use super::rules::{Game, InvalidGame, Refused, Turn};
use super::scenario::{Call, Scenario};

/// How the construction ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Construct {
    #[serde(rename = "ok")]
    Ok,
    ValueError,
}

/// The one exception the rules raise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Raises {
    ValueError,
}

/// A call's expected result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Returns(i64),
    Raises(Raises),
}

/// Every player's house (player 1 first) and the winner (0 for none).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    pub positions: Vec<u32>,
    pub winner: u32,
}

/// A case's `expected`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expected {
    pub construct: Construct,
    pub calls: Vec<Outcome>,
    pub after: Vec<State>,
}

/// One call as the reference made it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub call: Call,
    /// The value returned, or why `ValueError` is raised.
    pub result: Result<i64, Refused>,
    /// The turns the call took (one for a `move`, any number for `play`).
    pub turns: Vec<Turn>,
    pub before: State,
    pub after: State,
}

/// The whole play-through: the construction's outcome, then each call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// The fresh game, or every rule the construction breaks.
    pub game: Result<Game, InvalidGame>,
    pub steps: Vec<Step>,
}

fn state(game: &Game) -> State {
    State {
        positions: game.positions().to_vec(),
        winner: game.winner(),
    }
}

/// Plays a scenario through the reference.
pub fn run(scenario: &Scenario) -> Run {
    let fresh = scenario.game();
    let Ok(mut game) = fresh.clone() else {
        return Run {
            game: fresh,
            steps: Vec::new(),
        };
    };
    let mut steps = Vec::with_capacity(scenario.calls().len());
    for call in scenario.calls() {
        let before = state(&game);
        let (result, turns) = match call {
            Call::Move { player, roll } => match game.step(*player, *roll) {
                Ok(turn) => (Ok(i64::from(turn.to)), vec![turn]),
                Err(e) => (Err(e), Vec::new()),
            },
            Call::Play { rolls, max_rounds } => match game.play(rolls, Call::rounds(*max_rounds)) {
                Ok((winner, turns)) => (Ok(i64::from(winner)), turns),
                Err(e) => (Err(e), Vec::new()),
            },
            Call::Position { player } => (game.position(*player).map(i64::from), Vec::new()),
            Call::Winner => (Ok(i64::from(game.winner())), Vec::new()),
        };
        steps.push(Step {
            call: call.clone(),
            result,
            turns,
            before,
            after: state(&game),
        });
    }
    Run { game: fresh, steps }
}

impl Run {
    /// The answers in a case's form.
    pub fn expected(&self) -> Expected {
        Expected {
            construct: if self.game.is_ok() {
                Construct::Ok
            } else {
                Construct::ValueError
            },
            calls: self
                .steps
                .iter()
                .map(|s| match s.result {
                    Ok(v) => Outcome::Returns(v),
                    Err(_) => Outcome::Raises(Raises::ValueError),
                })
                .collect(),
            after: self.steps.iter().map(|s| s.after.clone()).collect(),
        }
    }
}

/// The expected answers for a scenario.
pub fn expected(scenario: &Scenario) -> Expected {
    run(scenario).expected()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_case_form() {
        let s = Scenario::new(
            10,
            vec![(7, 2)],
            2,
            "bounce".into(),
            vec![
                Call::Move { player: 1, roll: 6 },
                Call::Move { player: 1, roll: 7 },
                Call::Play {
                    rolls: vec![6, 3, 4],
                    max_rounds: None,
                },
            ],
        )
        .unwrap();
        assert_eq!(
            serde_json::to_value(expected(&s)).unwrap(),
            json!({"construct": "ok",
                   "calls": [{"returns": 2}, {"raises": "ValueError"}, {"returns": 0}],
                   "after": [{"positions": [2, 1], "winner": 0}, {"positions": [2, 1], "winner": 0},
                             {"positions": [8, 4], "winner": 0}]})
        );
        let bad = Scenario::new(6, vec![], 2, "bounce".into(), vec![]).unwrap();
        assert_eq!(
            serde_json::to_value(expected(&bad)).unwrap(),
            json!({"construct": "ValueError", "calls": [], "after": []})
        );
        let e: Expected =
            serde_json::from_value(serde_json::to_value(expected(&s)).unwrap()).unwrap();
        assert_eq!(e, expected(&s));
    }
}
