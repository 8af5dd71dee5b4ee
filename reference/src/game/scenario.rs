//! A scenario: the construction arguments and the calls a case makes, in
//! its JSON form and as a validated type.
//!
//! A scenario may hold arguments the rules reject on purpose (`size` 6, a
//! roll of 7, a move after a win): those are data, and the expected outcome
//! is a `ValueError`. What a scenario must be is well formed: the shape
//! below, sizes bounded so a case stays small, integers that fit a C++
//! `int`, no jump source listed twice (Python's `dict` and C++'s `std::map`
//! would keep different ones), rolls inside `play` in `1..6` (the rules do
//! not say what `play` does with any other), and no calls after a
//! construction that must fail. [`Scenario::new`] reports every problem.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::rules::{Game, InvalidGame};

/// The largest board a scenario may build (and the most negative `size`).
pub const MAX_SIZE: i64 = 10_000;
/// The most players a scenario may ask for (and the most negative count).
pub const MAX_PLAYERS: i64 = 100;
/// The most jumps a scenario may list.
pub const MAX_JUMPS: usize = 10_000;
/// The most calls a scenario may make.
pub const MAX_CALLS: usize = 1_000;
/// The most rolls all of a scenario's `play` calls may hold together.
pub const MAX_ROLLS: usize = 10_000;
/// The longest `finish` argument.
pub const MAX_FINISH_LEN: usize = 40;
/// Every integer argument lies in `-MAX_INT..=MAX_INT`, inside a C++ `int`.
pub const MAX_INT: i64 = 1_000_000_000;
/// Validation stops listing problems after this many.
pub const MAX_PROBLEMS: usize = 20;
/// `play`'s default `max_rounds`.
pub const DEFAULT_MAX_ROUNDS: i64 = 150;

/// One call a scenario makes on its game.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Call {
    /// `move(player, roll)`.
    Move { player: i64, roll: i64 },
    /// `play(rolls)` or `play(rolls, max_rounds)`.
    Play {
        rolls: Vec<u8>,
        max_rounds: Option<i64>,
    },
    /// `position(player)`.
    Position { player: i64 },
    /// `winner()`.
    Winner,
}

impl Call {
    /// The method's name.
    pub fn name(&self) -> &'static str {
        match self {
            Call::Move { .. } => "move",
            Call::Play { .. } => "play",
            Call::Position { .. } => "position",
            Call::Winner => "winner",
        }
    }

    /// `max_rounds`, or its default.
    pub fn rounds(max_rounds: Option<i64>) -> i64 {
        max_rounds.unwrap_or(DEFAULT_MAX_ROUNDS)
    }
}

impl fmt::Display for Call {
    /// The call as Python source: `move(1, 6)`, `play([3, 4], 10)`. Long
    /// roll lists are cut after 12 rolls.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Call::Move { player, roll } => write!(f, "move({player}, {roll})"),
            Call::Play { rolls, max_rounds } => {
                write!(f, "play([{}]", short_rolls(rolls, 12))?;
                if let Some(r) = max_rounds {
                    write!(f, ", {r}")?;
                }
                write!(f, ")")
            }
            Call::Position { player } => write!(f, "position({player})"),
            Call::Winner => write!(f, "winner()"),
        }
    }
}

/// `3, 4, 5` or `3, 4, 5, ... (40 rolls)`.
pub fn short_rolls(rolls: &[u8], shown: usize) -> String {
    let mut out = rolls
        .iter()
        .take(shown)
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    if rolls.len() > shown {
        out.push_str(&format!(", ... ({} rolls)", rolls.len()));
    }
    out
}

/// A well-formed scenario. Built only through [`Scenario::new`] (or its
/// JSON form, which goes through it).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RawScenario", into = "RawScenario")]
pub struct Scenario {
    size: i64,
    jumps: Vec<(i64, i64)>,
    players: i64,
    finish: String,
    calls: Vec<Call>,
}

/// The JSON form: `{"size": 100, "jumps": [[4, 14], ...], "players": 2,
/// "finish": "bounce", "calls": [{"call": "move", "args": [1, 6]}, ...]}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawScenario {
    pub size: i64,
    pub jumps: Vec<(i64, i64)>,
    pub players: i64,
    pub finish: String,
    pub calls: Vec<RawCall>,
}

/// `{"call": "move", "args": [1, 6]}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCall {
    pub call: CallName,
    pub args: Vec<serde_json::Value>,
}

/// The methods a scenario may call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CallName {
    Move,
    Play,
    Position,
    Winner,
}

/// One reason a scenario is not well formed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// A number is outside the bounds a scenario keeps to.
    OutOfBounds {
        what: String,
        value: i64,
        low: i64,
        high: i64,
    },
    /// A list is longer than a scenario allows.
    TooMany {
        what: &'static str,
        count: usize,
        max: usize,
    },
    /// `finish` is longer than [`MAX_FINISH_LEN`].
    LongFinish { len: usize },
    /// Two jumps start on the same house.
    DuplicateSource { source: i64 },
    /// A call's arguments do not have the method's shape.
    Args {
        index: usize,
        expected: &'static str,
    },
    /// A roll inside `play` is outside `1..6`.
    PlayRoll { index: usize, roll: i64 },
    /// Calls follow a construction the rules reject.
    CallsAfterInvalid { count: usize },
    /// More problems were found than are listed.
    More { count: usize },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::OutOfBounds {
                what,
                value,
                low,
                high,
            } => write!(f, "{what} is {value}, outside {low}..={high}"),
            Problem::TooMany { what, count, max } => {
                write!(f, "{count} {what}, more than the {max} a scenario may hold")
            }
            Problem::LongFinish { len } => write!(
                f,
                "finish is {len} characters long, more than {MAX_FINISH_LEN}"
            ),
            Problem::DuplicateSource { source } => {
                write!(f, "two jumps start on house {source}")
            }
            Problem::Args { index, expected } => {
                write!(f, "call {index}: the args must be {expected}")
            }
            Problem::PlayRoll { index, roll } => write!(
                f,
                "call {index}: play's roll {roll} is outside 1..6 (the rules do not say what play does with it)"
            ),
            Problem::CallsAfterInvalid { count } => write!(
                f,
                "{count} call(s) follow a construction that must raise ValueError"
            ),
            Problem::More { count } => write!(f, "and {count} more problem(s)"),
        }
    }
}

/// Every problem found in a scenario that is not well formed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid scenario: {}", .problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
pub struct InvalidScenario {
    pub problems: Vec<Problem>,
}

/// Why a JSON value is not a scenario.
#[derive(Debug, thiserror::Error)]
pub enum ParseError {
    #[error(
        "the input is not of the form {{\"size\": N, \"jumps\": [[a, b], ...], \"players\": N, \"finish\": S, \"calls\": [{{\"call\": NAME, \"args\": [...]}}, ...]}}"
    )]
    Shape(#[source] serde_json::Error),
    #[error(transparent)]
    Invalid(#[from] InvalidScenario),
}

#[derive(Default)]
struct Problems {
    listed: Vec<Problem>,
    unlisted: usize,
}

impl Problems {
    fn push(&mut self, p: Problem) {
        if self.listed.len() < MAX_PROBLEMS {
            self.listed.push(p);
        } else {
            self.unlisted += 1;
        }
    }

    fn bound(&mut self, what: impl FnOnce() -> String, value: i64, low: i64, high: i64) {
        if !(low..=high).contains(&value) {
            self.push(Problem::OutOfBounds {
                what: what(),
                value,
                low,
                high,
            });
        }
    }

    fn finish(mut self) -> Result<(), InvalidScenario> {
        if self.unlisted > 0 {
            self.listed.push(Problem::More {
                count: self.unlisted,
            });
        }
        if self.listed.is_empty() {
            Ok(())
        } else {
            Err(InvalidScenario {
                problems: self.listed,
            })
        }
    }
}

impl Scenario {
    /// Checks that a scenario is well formed (see the module's doc),
    /// reporting every problem.
    pub fn new(
        size: i64,
        jumps: Vec<(i64, i64)>,
        players: i64,
        finish: String,
        calls: Vec<Call>,
    ) -> Result<Scenario, InvalidScenario> {
        let mut problems = Problems::default();
        problems.bound(|| "size".to_owned(), size, -MAX_SIZE, MAX_SIZE);
        problems.bound(|| "players".to_owned(), players, -MAX_PLAYERS, MAX_PLAYERS);
        if finish.chars().count() > MAX_FINISH_LEN {
            problems.push(Problem::LongFinish {
                len: finish.chars().count(),
            });
        }
        if jumps.len() > MAX_JUMPS {
            problems.push(Problem::TooMany {
                what: "jumps",
                count: jumps.len(),
                max: MAX_JUMPS,
            });
        }
        for (i, &(s, d)) in jumps.iter().enumerate() {
            problems.bound(|| format!("jump {i}'s source"), s, -MAX_INT, MAX_INT);
            problems.bound(|| format!("jump {i}'s destination"), d, -MAX_INT, MAX_INT);
        }
        let mut seen = std::collections::BTreeSet::new();
        let mut twice = std::collections::BTreeSet::new();
        for &(s, _) in &jumps {
            if !seen.insert(s) {
                twice.insert(s);
            }
        }
        for source in twice {
            problems.push(Problem::DuplicateSource { source });
        }
        if calls.len() > MAX_CALLS {
            problems.push(Problem::TooMany {
                what: "calls",
                count: calls.len(),
                max: MAX_CALLS,
            });
        }
        let mut rolls = 0;
        for (index, call) in calls.iter().enumerate() {
            match call {
                Call::Move { player, roll } => {
                    problems.bound(
                        || format!("call {index}'s player"),
                        *player,
                        -MAX_INT,
                        MAX_INT,
                    );
                    problems.bound(|| format!("call {index}'s roll"), *roll, -MAX_INT, MAX_INT);
                }
                Call::Position { player } => {
                    problems.bound(
                        || format!("call {index}'s player"),
                        *player,
                        -MAX_INT,
                        MAX_INT,
                    );
                }
                Call::Play {
                    rolls: r,
                    max_rounds,
                } => {
                    rolls += r.len();
                    for &roll in r {
                        if !(1..=6).contains(&roll) {
                            problems.push(Problem::PlayRoll {
                                index,
                                roll: i64::from(roll),
                            });
                        }
                    }
                    if let Some(m) = max_rounds {
                        problems.bound(
                            || format!("call {index}'s max_rounds"),
                            *m,
                            -MAX_INT,
                            MAX_INT,
                        );
                    }
                }
                Call::Winner => {}
            }
        }
        if rolls > MAX_ROLLS {
            problems.push(Problem::TooMany {
                what: "rolls",
                count: rolls,
                max: MAX_ROLLS,
            });
        }
        let scenario = Scenario {
            size,
            jumps,
            players,
            finish,
            calls,
        };
        // Only a bounded scenario may be built into a game.
        if problems.listed.is_empty() && !scenario.calls.is_empty() && scenario.game().is_err() {
            problems.push(Problem::CallsAfterInvalid {
                count: scenario.calls.len(),
            });
        }
        problems.finish()?;
        Ok(scenario)
    }

    pub fn size(&self) -> i64 {
        self.size
    }

    /// The jumps, in the order the scenario lists them.
    pub fn jumps(&self) -> &[(i64, i64)] {
        &self.jumps
    }

    pub fn players(&self) -> i64 {
        self.players
    }

    pub fn finish(&self) -> &str {
        &self.finish
    }

    pub fn calls(&self) -> &[Call] {
        &self.calls
    }

    /// A fresh game from the construction arguments, or every rule they break.
    pub fn game(&self) -> Result<Game, InvalidGame> {
        Game::new(self.size, &self.jumps, self.players, &self.finish)
    }

    /// The same construction with other calls (checked again).
    pub fn with_calls(&self, calls: Vec<Call>) -> Result<Scenario, InvalidScenario> {
        Scenario::new(
            self.size,
            self.jumps.clone(),
            self.players,
            self.finish.clone(),
            calls,
        )
    }

    /// The construction as Python source, the jumps elided when there are
    /// more than a few: `Game(100, {46: 15, ...22 jumps}, 2, "bounce")`.
    pub fn construction_text(&self) -> String {
        let jumps = if self.jumps.len() <= 4 {
            let items: Vec<String> = self
                .jumps
                .iter()
                .map(|(s, d)| format!("{s}: {d}"))
                .collect();
            format!("{{{}}}", items.join(", "))
        } else {
            format!("{{...{} jumps}}", self.jumps.len())
        };
        format!(
            "Game({}, {jumps}, {}, {:?})",
            self.size, self.players, self.finish
        )
    }
}

fn int(value: &serde_json::Value) -> Option<i64> {
    value.as_i64()
}

fn call_from_raw(index: usize, raw: RawCall) -> Result<Call, Problem> {
    let args = raw.args;
    let bad = |expected| Problem::Args { index, expected };
    match raw.call {
        CallName::Move => match args.as_slice() {
            [p, r] => match (int(p), int(r)) {
                (Some(player), Some(roll)) => Ok(Call::Move { player, roll }),
                _ => Err(bad("[player, roll], two integers")),
            },
            _ => Err(bad("[player, roll], two integers")),
        },
        CallName::Position => match args.as_slice() {
            [p] => int(p)
                .map(|player| Call::Position { player })
                .ok_or(bad("[player], one integer")),
            _ => Err(bad("[player], one integer")),
        },
        CallName::Winner if args.is_empty() => Ok(Call::Winner),
        CallName::Winner => Err(bad("[] (winner takes no arguments)")),
        CallName::Play => {
            const SHAPE: &str = "[rolls] or [rolls, max_rounds], rolls a list of integers 1..6";
            let (rolls, max_rounds) = match args.as_slice() {
                [rolls] => (rolls, None),
                [rolls, m] => (rolls, Some(int(m).ok_or(bad(SHAPE))?)),
                _ => return Err(bad(SHAPE)),
            };
            let rolls = rolls.as_array().ok_or(bad(SHAPE))?;
            let mut out = Vec::with_capacity(rolls.len());
            for r in rolls {
                let r = int(r).ok_or(bad(SHAPE))?;
                if !(1..=6).contains(&r) {
                    return Err(Problem::PlayRoll { index, roll: r });
                }
                out.push(r as u8);
            }
            Ok(Call::Play {
                rolls: out,
                max_rounds,
            })
        }
    }
}

impl From<&Call> for RawCall {
    fn from(call: &Call) -> RawCall {
        use serde_json::json;
        let (name, args) = match call {
            Call::Move { player, roll } => (CallName::Move, vec![json!(player), json!(roll)]),
            Call::Position { player } => (CallName::Position, vec![json!(player)]),
            Call::Winner => (CallName::Winner, vec![]),
            Call::Play { rolls, max_rounds } => {
                let mut args = vec![json!(rolls)];
                args.extend(max_rounds.map(|m| json!(m)));
                (CallName::Play, args)
            }
        };
        RawCall { call: name, args }
    }
}

impl TryFrom<RawScenario> for Scenario {
    type Error = InvalidScenario;

    fn try_from(raw: RawScenario) -> Result<Scenario, InvalidScenario> {
        if raw.calls.len() > MAX_CALLS {
            return Err(InvalidScenario {
                problems: vec![Problem::TooMany {
                    what: "calls",
                    count: raw.calls.len(),
                    max: MAX_CALLS,
                }],
            });
        }
        let mut problems = Problems::default();
        let mut calls = Vec::with_capacity(raw.calls.len());
        for (index, call) in raw.calls.into_iter().enumerate() {
            match call_from_raw(index, call) {
                Ok(c) => calls.push(c),
                Err(p) => problems.push(p),
            }
        }
        problems.finish()?;
        Scenario::new(raw.size, raw.jumps, raw.players, raw.finish, calls)
    }
}

impl From<Scenario> for RawScenario {
    fn from(s: Scenario) -> RawScenario {
        RawScenario {
            size: s.size,
            calls: s.calls.iter().map(RawCall::from).collect(),
            jumps: s.jumps,
            players: s.players,
            finish: s.finish,
        }
    }
}

/// Parses a case's `input`, naming every problem when it is not a scenario.
pub fn parse(value: &serde_json::Value) -> Result<Scenario, ParseError> {
    let raw = RawScenario::deserialize(value).map_err(ParseError::Shape)?;
    Ok(Scenario::try_from(raw)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn round_trip() {
        let value = json!({"size": 100, "jumps": [[4, 14], [17, 7]], "players": 2, "finish": "bounce",
            "calls": [{"call": "move", "args": [1, 6]}, {"call": "play", "args": [[3, 4, 5]]},
                      {"call": "play", "args": [[6, 6], 10]}, {"call": "position", "args": [3]},
                      {"call": "winner", "args": []}]});
        let s = parse(&value).unwrap();
        assert_eq!(s.calls().len(), 5);
        assert_eq!(s.calls()[2].to_string(), "play([6, 6], 10)");
        assert_eq!(serde_json::to_value(&s).unwrap(), value);
    }

    #[test]
    fn invalid_arguments_are_data_but_bad_shapes_are_not() {
        let ok = json!({"size": 6, "jumps": [[1, 1]], "players": 0, "finish": "x", "calls": []});
        assert!(parse(&ok).is_ok());
        let moves = json!({"size": 10, "jumps": [], "players": 2, "finish": "bounce",
            "calls": [{"call": "move", "args": [9, 7]}]});
        assert!(parse(&moves).is_ok());
        assert!(matches!(
            parse(&json!({"size": 10})),
            Err(ParseError::Shape(_))
        ));
        let bad = json!({"size": 20000, "jumps": [[3, 4], [3, 5]], "players": 2, "finish": "bounce",
            "calls": [{"call": "move", "args": [1]}, {"call": "play", "args": [[7]]},
                      {"call": "winner", "args": [true]}, {"call": "position", "args": [1.5]}]});
        let Err(ParseError::Invalid(e)) = parse(&bad) else {
            panic!("not invalid")
        };
        let text = e.to_string();
        assert_eq!(e.problems.len(), 4, "{text}");
        assert!(text.contains("call 1: play's roll 7"), "{text}");
        let bad = json!({"size": 20000, "jumps": [[3, 4], [3, 5]], "players": 2, "finish": "bounce",
            "calls": []});
        let text = parse(&bad).unwrap_err().to_string();
        assert!(text.contains("size is 20000"), "{text}");
        assert!(text.contains("two jumps start on house 3"), "{text}");
        let after = json!({"size": 6, "jumps": [], "players": 2, "finish": "bounce",
            "calls": [{"call": "winner", "args": []}]});
        assert!(
            parse(&after)
                .unwrap_err()
                .to_string()
                .contains("follow a construction")
        );
    }
}
