//! Judging a scenario: the adapter's transcript against the expected
//! answers, naming the first call that went wrong and the state before it.
//!
//! # The transcript (what the adapter reports)
//!
//! ```json
//! {"kind": "transcript",
//!  "construct": "ok",
//!  "calls": [{"returns": PLAIN}, {"raised": "ValueError", "message": "..."}],
//!  "after": [{"positions": [PLAIN, PLAIN], "winner": PLAIN},
//!            {"raised": "IndexError", "message": "...", "query": "position(2)"}]}
//! ```
//!
//! `construct` is `"ok"` or `{"raised": TYPE, "message": TEXT}`. PLAIN is
//! `values.py`'s `{"kind": "value", "type": T, "value": V[, "repr": R]}`, so
//! `True` is not taken for `1`. A `ValueError` subclass is reported as
//! `ValueError` (its class name leads the message). The adapter records one
//! `calls` entry per call made and one `after` entry per call (every
//! player's `position(p)`, then `winner()`); it stops early only after a
//! call raised something other than `ValueError` (that call has no `after`
//! entry) or a query raised (that `after` entry is the raise). Anything
//! else is a [`MalformedTranscript`], a harness error, never a student's.

use std::fmt;

use serde::Deserialize;

use super::expected::{Construct, Expected, Outcome, Run, State, Step, run};
use super::rules::{Finish, Game, Turn};
use super::scenario::{Call, Scenario, short_rolls};

/// A value as `values.py` describes it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Plain {
    Value {
        #[serde(rename = "type")]
        ty: String,
        value: serde_json::Value,
        #[serde(default)]
        repr: Option<String>,
    },
}

impl Plain {
    /// The value when it is a Python `int` (not a `bool`).
    fn int(&self) -> Option<Option<i64>> {
        let Plain::Value { ty, value, .. } = self;
        (ty == "int").then(|| value.as_i64())
    }

    /// The value as Python prints it, with its type: `True (a bool)`.
    fn words(&self, with_type: bool) -> String {
        let Plain::Value { ty, value, repr } = self;
        let text = match (repr, value) {
            (Some(r), _) => r.clone(),
            (None, serde_json::Value::Bool(b)) => if *b { "True" } else { "False" }.to_owned(),
            (None, serde_json::Value::Null) => "None".to_owned(),
            (None, v) => v.to_string(),
        };
        if with_type && ty != "NoneType" {
            let article = if ty.starts_with(['a', 'e', 'i', 'o', 'u']) {
                "an"
            } else {
                "a"
            };
            format!("{text} ({article} {ty})")
        } else {
            text
        }
    }
}

/// An exception the student's code raised.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Raised {
    pub raised: String,
    pub message: String,
}

impl Raised {
    fn is_value_error(&self) -> bool {
        self.raised == "ValueError"
    }
}

impl fmt::Display for Raised {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.message.is_empty() {
            write!(f, "{}", self.raised)
        } else {
            write!(f, "{}: {}", self.raised, self.message)
        }
    }
}

/// The construction's outcome as observed.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "serde_json::Value")]
pub enum Built {
    Ok,
    Raised(Raised),
}

impl TryFrom<serde_json::Value> for Built {
    type Error = String;

    fn try_from(v: serde_json::Value) -> Result<Built, String> {
        if v == "ok" {
            return Ok(Built::Ok);
        }
        Raised::deserialize(v).map(Built::Raised).map_err(|e| {
            format!("`construct` is neither \"ok\" nor {{\"raised\", \"message\"}}: {e}")
        })
    }
}

/// One call's result as observed.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "RawCallSeen")]
pub enum CallSeen {
    Returned(Plain),
    Raised(Raised),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCallSeen {
    returns: Option<Plain>,
    raised: Option<String>,
    message: Option<String>,
}

impl TryFrom<RawCallSeen> for CallSeen {
    type Error = &'static str;

    fn try_from(raw: RawCallSeen) -> Result<CallSeen, &'static str> {
        match raw {
            RawCallSeen {
                returns: Some(p),
                raised: None,
                message: None,
            } => Ok(CallSeen::Returned(p)),
            RawCallSeen {
                returns: None,
                raised: Some(raised),
                message: Some(message),
            } => Ok(CallSeen::Raised(Raised { raised, message })),
            _ => Err("a call is either {\"returns\"} or {\"raised\", \"message\"}"),
        }
    }
}

/// The state queried after a call, as observed.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "RawAfterSeen")]
pub enum AfterSeen {
    State {
        positions: Vec<Plain>,
        winner: Plain,
    },
    Raised {
        raised: Raised,
        query: String,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAfterSeen {
    positions: Option<Vec<Plain>>,
    winner: Option<Plain>,
    raised: Option<String>,
    message: Option<String>,
    query: Option<String>,
}

impl TryFrom<RawAfterSeen> for AfterSeen {
    type Error = &'static str;

    fn try_from(raw: RawAfterSeen) -> Result<AfterSeen, &'static str> {
        match raw {
            RawAfterSeen {
                positions: Some(positions),
                winner: Some(winner),
                raised: None,
                message: None,
                query: None,
            } => Ok(AfterSeen::State { positions, winner }),
            RawAfterSeen {
                positions: None,
                winner: None,
                raised: Some(raised),
                message: Some(message),
                query: Some(query),
            } => Ok(AfterSeen::Raised {
                raised: Raised { raised, message },
                query,
            }),
            _ => Err(
                "a state is either {\"positions\", \"winner\"} or {\"raised\", \"message\", \"query\"}",
            ),
        }
    }
}

/// The adapter's whole report on one scenario.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Observed {
    Transcript {
        construct: Built,
        calls: Vec<CallSeen>,
        after: Vec<AfterSeen>,
    },
}

/// A transcript the adapter should never have written: a harness bug.
#[derive(Debug, thiserror::Error)]
pub enum MalformedTranscript {
    #[error("it is not a transcript")]
    Decode(#[source] serde_json::Error),
    #[error("{0}")]
    Inconsistent(String),
}

/// Which verdict fits a wrong scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Class {
    /// A wrong return value, position or winner.
    WrongAnswer,
    /// A `bool`, `str` or anything but an `int` where an `int` is due.
    WrongType,
    /// An exception the rules do not call for (a `ValueError` where a value
    /// is due, or anything else anywhere).
    UnexpectedException { raised: String, message: String },
    /// A `ValueError` the rules call for did not come.
    MissingValueError,
}

/// The first thing a scenario got wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wrong {
    pub class: Class,
    /// The call (0-based) that went wrong, `None` for the construction.
    pub call: Option<usize>,
    /// The method that went wrong: `Game`, `move`, `play`, `position`, `winner`.
    pub method: &'static str,
    /// What was due and what came, briefly: `88`, `58`.
    pub expected: String,
    pub got: String,
    /// The whole story in one line, naming the call and the state before it.
    pub message: String,
}

/// Why a scenario does not pass.
#[derive(Debug, thiserror::Error)]
pub enum Mismatch {
    #[error("{}", .0.message)]
    Wrong(Box<Wrong>),
    #[error("the adapter's transcript is malformed: {0}")]
    Malformed(#[from] MalformedTranscript),
    /// The case's `expected` does not fit its scenario (a bad case file).
    #[error("the expected answer does not fit the scenario: {0}")]
    Case(String),
}

fn inconsistent(text: String) -> Mismatch {
    Mismatch::Malformed(MalformedTranscript::Inconsistent(text))
}

/// Judges the adapter's transcript against the expected answers.
pub fn compare(
    scenario: &Scenario,
    expected: &Expected,
    observed: &serde_json::Value,
) -> Result<(), Mismatch> {
    let Observed::Transcript {
        construct,
        calls,
        after,
    } = Observed::deserialize(observed).map_err(MalformedTranscript::Decode)?;
    let n = scenario.calls().len();
    if expected.calls.len() != n || expected.after.len() != n {
        return Err(Mismatch::Case(format!(
            "{n} calls, but {} expected results and {} expected states",
            expected.calls.len(),
            expected.after.len()
        )));
    }
    let reference = run(scenario);
    if (expected.construct == Construct::Ok) != reference.game.is_ok() {
        return Err(Mismatch::Case(
            "the construction's expected outcome is not the rules'".into(),
        ));
    }
    check_shape(scenario, &construct, &calls, &after)?;
    let ctor = scenario.construction_text();
    match (&construct, expected.construct) {
        (Built::Ok, Construct::Ok) => {}
        (Built::Raised(r), Construct::ValueError) if r.is_value_error() => return Ok(()),
        (Built::Ok, Construct::ValueError) => {
            return Err(wrong(
                Class::MissingValueError,
                None,
                "Game",
                "ValueError",
                "a game",
                format!(
                    "{ctor} should raise ValueError ({}), but built a game",
                    why_invalid(&reference)
                ),
            ));
        }
        (Built::Raised(r), Construct::ValueError) => {
            return Err(wrong(
                unexpected(r),
                None,
                "Game",
                "ValueError",
                &r.raised,
                format!(
                    "{ctor} should raise ValueError ({}), but raised {r}",
                    why_invalid(&reference)
                ),
            ));
        }
        (Built::Raised(r), Construct::Ok) => {
            return Err(wrong(
                unexpected(r),
                None,
                "Game",
                "a game",
                &r.raised,
                format!("{ctor} should build a game, but raised {r}"),
            ));
        }
    }
    let Ok(game) = &reference.game else {
        return Err(Mismatch::Case(
            "the construction's expected outcome is not the rules'".into(),
        ));
    };
    for (i, seen) in calls.iter().enumerate() {
        let step = &reference.steps[i];
        let context = Context {
            scenario,
            game,
            step,
            index: i,
        };
        check_call(&context, expected.calls[i], seen)?;
        let Some(state) = after.get(i) else {
            // check_shape allows this only after an unexpected exception,
            // which check_call has reported.
            return Err(inconsistent(format!("call {i} has no state")));
        };
        check_state(&context, &expected.after[i], state)?;
    }
    Ok(())
}

/// The transcript's own consistency: lengths, where it may stop, one
/// position per player.
fn check_shape(
    scenario: &Scenario,
    construct: &Built,
    calls: &[CallSeen],
    after: &[AfterSeen],
) -> Result<(), Mismatch> {
    let n = scenario.calls().len();
    if let Built::Raised(_) = construct {
        if !calls.is_empty() || !after.is_empty() {
            return Err(inconsistent(
                "calls follow a construction that raised".into(),
            ));
        }
        return Ok(());
    }
    if calls.len() > n || after.len() > calls.len() {
        return Err(inconsistent(format!(
            "{} call results and {} states for {n} calls",
            calls.len(),
            after.len()
        )));
    }
    let stopped_by_call = matches!(calls.last(), Some(CallSeen::Raised(r)) if !r.is_value_error());
    let stopped_by_query = matches!(after.last(), Some(AfterSeen::Raised { .. }));
    let complete = calls.len() == n && after.len() == n;
    let ok = if stopped_by_query {
        after.len() == calls.len()
    } else if stopped_by_call {
        after.len() + 1 == calls.len()
    } else {
        complete
    };
    if !ok {
        return Err(inconsistent(format!(
            "it stops after {} of {n} calls ({} states) without an exception to say why",
            calls.len(),
            after.len()
        )));
    }
    for (i, a) in after.iter().enumerate() {
        if matches!(a, AfterSeen::Raised { .. }) && i + 1 != after.len() {
            return Err(inconsistent(format!("it goes on after query {i} raised")));
        }
        if let AfterSeen::State { positions, .. } = a
            && positions.len() != scenario.players().max(0) as usize
        {
            return Err(inconsistent(format!(
                "{} positions for {} players after call {i}",
                positions.len(),
                scenario.players()
            )));
        }
    }
    Ok(())
}

fn wrong(
    class: Class,
    call: Option<usize>,
    method: &'static str,
    expected: &str,
    got: &str,
    message: String,
) -> Mismatch {
    Mismatch::Wrong(Box::new(Wrong {
        class,
        call,
        method,
        expected: expected.to_owned(),
        got: got.to_owned(),
        message,
    }))
}

fn unexpected(r: &Raised) -> Class {
    Class::UnexpectedException {
        raised: r.raised.clone(),
        message: r.message.clone(),
    }
}

fn why_invalid(reference: &Run) -> String {
    match &reference.game {
        Err(e) => e.to_string(),
        Ok(_) => "the arguments are valid".into(),
    }
}

/// "players on 49, 12; no winner".
pub fn state_words(state: &State) -> String {
    let houses: Vec<String> = state.positions.iter().map(u32::to_string).collect();
    let who = if state.positions.len() == 1 {
        format!("player 1 on {}", houses[0])
    } else {
        format!("players on {}", houses.join(", "))
    };
    match state.winner {
        0 => format!("{who}; no winner"),
        w => format!("{who}; player {w} has won"),
    }
}

struct Context<'a> {
    scenario: &'a Scenario,
    /// The reference's fresh game (the construction succeeded).
    game: &'a Game,
    step: &'a Step,
    index: usize,
}

impl Context<'_> {
    fn method(&self) -> &'static str {
        self.step.call.name()
    }

    /// "play([6, 2, 5]), call 3 of 5 (before it: players on 1, 49; no winner)".
    fn head(&self) -> String {
        format!(
            "{}, call {} of {} (before it: {})",
            self.step.call,
            self.index + 1,
            self.scenario.calls().len(),
            state_words(&self.step.before)
        )
    }

    fn fail(&self, class: Class, expected: &str, got: &str, detail: String) -> Mismatch {
        wrong(
            class,
            Some(self.index),
            self.method(),
            expected,
            got,
            format!("{}: {detail}", self.head()),
        )
    }

    fn size(&self) -> u32 {
        self.game.size()
    }

    fn finish(&self) -> Finish {
        self.game.finish()
    }

    /// Why the reference's answer is what it is, from the turns it took.
    fn because(&self, player: Option<u32>) -> String {
        let turns: Vec<&Turn> = self
            .step
            .turns
            .iter()
            .filter(|t| player.is_none_or(|p| t.player == p))
            .collect();
        match (turns.last(), player) {
            (Some(t), _) => format!(" ({})", t.words(self.size(), self.finish())),
            (None, Some(p)) if !self.step.turns.is_empty() => {
                format!(" (player {p} did not move in this call)")
            }
            _ => String::new(),
        }
    }

    /// "after rolls 6, 2, 5" for `play`, "after it" otherwise.
    fn after_words(&self) -> String {
        match &self.step.call {
            Call::Play { .. } if !self.step.turns.is_empty() => {
                let used: Vec<u8> = self.step.turns.iter().map(|t| t.roll as u8).collect();
                format!("after rolls {}", short_rolls(&used, 12))
            }
            _ => "after it".into(),
        }
    }
}

fn check_call(cx: &Context<'_>, due: Outcome, seen: &CallSeen) -> Result<(), Mismatch> {
    match (due, seen) {
        (Outcome::Returns(v), CallSeen::Returned(p)) => match p.int() {
            Some(Some(got)) if got == v => Ok(()),
            Some(_) => Err(cx.fail(
                Class::WrongAnswer,
                &v.to_string(),
                &p.words(false),
                format!(
                    "should return {v}, but returned {}{}",
                    p.words(false),
                    cx.because(None)
                ),
            )),
            None => Err(cx.fail(
                Class::WrongType,
                &format!("{v} (an int)"),
                &p.words(true),
                format!("should return {v} (an int), but returned {}", p.words(true)),
            )),
        },
        (Outcome::Returns(v), CallSeen::Raised(r)) => Err(cx.fail(
            unexpected(r),
            &v.to_string(),
            &r.raised,
            format!("should return {v}, but raised {r}"),
        )),
        (Outcome::Raises(_), CallSeen::Raised(r)) if r.is_value_error() => Ok(()),
        (Outcome::Raises(_), seen) => {
            let why = match &cx.step.result {
                Err(e) => e.to_string(),
                Ok(_) => String::from("the rules say so"),
            };
            let (class, got, what) = match seen {
                CallSeen::Returned(p) => (
                    Class::MissingValueError,
                    p.words(true),
                    format!("returned {}", p.words(false)),
                ),
                CallSeen::Raised(r) => (unexpected(r), r.raised.clone(), format!("raised {r}")),
            };
            Err(cx.fail(
                class,
                "ValueError",
                &got,
                format!("should raise ValueError ({why}), but {what}"),
            ))
        }
    }
}

fn check_state(cx: &Context<'_>, due: &State, seen: &AfterSeen) -> Result<(), Mismatch> {
    let (positions, winner) = match seen {
        AfterSeen::State { positions, winner } => (positions, winner),
        AfterSeen::Raised { raised, query } => {
            return Err(cx.fail(
                unexpected(raised),
                "a value",
                &raised.raised,
                format!("{}, {query} raised {raised}", cx.after_words()),
            ));
        }
    };
    for (p, (seen, &want)) in positions.iter().zip(&due.positions).enumerate() {
        let player = p as u32 + 1;
        match seen.int() {
            Some(Some(got)) if got == i64::from(want) => {}
            Some(_) => {
                return Err(cx.fail(
                    Class::WrongAnswer,
                    &want.to_string(),
                    &seen.words(false),
                    format!(
                        "{}: player {player} on {}, expected {want}{}",
                        cx.after_words(),
                        seen.words(false),
                        cx.because(Some(player))
                    ),
                ));
            }
            None => {
                return Err(cx.fail(
                    Class::WrongType,
                    &format!("{want} (an int)"),
                    &seen.words(true),
                    format!(
                        "{}: position({player}) is {}, expected {want} (an int)",
                        cx.after_words(),
                        seen.words(true)
                    ),
                ));
            }
        }
    }
    match winner.int() {
        Some(Some(got)) if got == i64::from(due.winner) => Ok(()),
        Some(_) => {
            let why = cx
                .step
                .turns
                .iter()
                .find(|t| t.won)
                .map(|t| format!(" ({})", t.words(cx.size(), cx.finish())))
                .unwrap_or_default();
            Err(cx.fail(
                Class::WrongAnswer,
                &due.winner.to_string(),
                &winner.words(false),
                format!(
                    "{}: winner() is {}, expected {}{why}",
                    cx.after_words(),
                    winner.words(false),
                    due.winner
                ),
            ))
        }
        None => Err(cx.fail(
            Class::WrongType,
            &format!("{} (an int)", due.winner),
            &winner.words(true),
            format!(
                "{}: winner() is {}, expected {} (an int)",
                cx.after_words(),
                winner.words(true),
                due.winner
            ),
        )),
    }
}

/// The reference's own transcript, in the adapter's form: what a correct
/// submission reports.
pub fn transcript(scenario: &Scenario) -> serde_json::Value {
    use serde_json::json;
    let int = |v: i64| json!({"kind": "value", "type": "int", "value": v});
    let reference = run(scenario);
    let construct = match &reference.game {
        Ok(_) => json!("ok"),
        Err(e) => json!({"raised": "ValueError", "message": e.to_string()}),
    };
    let calls: Vec<serde_json::Value> = reference
        .steps
        .iter()
        .map(|s| match &s.result {
            Ok(v) => json!({"returns": int(*v)}),
            Err(e) => json!({"raised": "ValueError", "message": e.to_string()}),
        })
        .collect();
    let after: Vec<serde_json::Value> = reference
        .steps
        .iter()
        .map(|s| {
            json!({
                "positions": s.after.positions.iter().map(|&p| int(i64::from(p))).collect::<Vec<_>>(),
                "winner": int(i64::from(s.after.winner)),
            })
        })
        .collect();
    json!({"kind": "transcript", "construct": construct, "calls": calls, "after": after})
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::game::{SEED_JUMPS, expected};

    fn seed(calls: Vec<Call>) -> Scenario {
        Scenario::new(100, SEED_JUMPS.to_vec(), 2, "bounce".into(), calls).unwrap()
    }

    #[track_caller]
    fn wrong_of(s: &Scenario, observed: &serde_json::Value) -> Wrong {
        match compare(s, &expected(s), observed) {
            Err(Mismatch::Wrong(w)) => *w,
            other => panic!("not a wrong answer: {other:?}"),
        }
    }

    fn int(v: i64) -> serde_json::Value {
        json!({"kind": "value", "type": "int", "value": v})
    }

    #[test]
    fn the_reference_passes() {
        let s = seed(vec![
            Call::Move { player: 2, roll: 6 },
            Call::Position { player: 3 },
            Call::Winner,
        ]);
        compare(&s, &expected(&s), &transcript(&s)).unwrap();
    }

    #[test]
    fn a_missed_ladder_names_the_rolls_and_the_ladder() {
        // Player 2 walks 1 -> 7 -> 13 -> 18 -> 24 -> 30 -> 35 -> 41 -> 47 ->
        // 49 by move (no jumps on the way), then play: player 1 rolls 6 (1 ->
        // 7), player 2 rolls 5 (49 -> 54, the ladder to 88).
        let mut calls: Vec<Call> = [6, 6, 5, 6, 6, 5, 6, 6, 2]
            .into_iter()
            .map(|roll| Call::Move { player: 2, roll })
            .collect();
        calls.push(Call::Play {
            rolls: vec![6, 5],
            max_rounds: None,
        });
        let s = seed(calls);
        let run = run(&s);
        assert_eq!(run.steps[8].after.positions, vec![1, 49]);
        let mut t = transcript(&s);
        t["after"][9]["positions"][1] = int(54);
        let w = wrong_of(&s, &t);
        assert_eq!(w.class, Class::WrongAnswer);
        assert_eq!((w.call, w.method), (Some(9), "play"));
        assert_eq!(
            w.message,
            "play([6, 5]), call 10 of 10 (before it: players on 1, 49; no winner): \
             after rolls 6, 5: player 2 on 54, expected 88 (player 2: 49 + 5 = 54, ladder 54 -> 88)"
        );
    }

    #[test]
    fn a_missing_value_error_says_which_rule() {
        let s = seed(vec![Call::Move { player: 1, roll: 7 }]);
        let mut t = transcript(&s);
        t["calls"][0] = json!({"returns": int(8)});
        let w = wrong_of(&s, &t);
        assert_eq!(w.class, Class::MissingValueError);
        assert!(
            w.message.ends_with(
                "move(1, 7), call 1 of 1 (before it: players on 1, 1; no winner): \
                 should raise ValueError (a roll is 1..6, not 7), but returned 8"
            ),
            "{}",
            w.message
        );
        let bad = Scenario::new(6, vec![], 2, "bounce".into(), vec![]).unwrap();
        let w = wrong_of(
            &bad,
            &json!({"kind": "transcript", "construct": "ok", "calls": [], "after": []}),
        );
        assert_eq!(w.class, Class::MissingValueError);
        assert_eq!(
            w.message,
            "Game(6, {}, 2, \"bounce\") should raise ValueError (size 6 < 7), but built a game"
        );
        let w = wrong_of(
            &bad,
            &json!({"kind": "transcript", "construct": {"raised": "TypeError", "message": "no"},
                    "calls": [], "after": []}),
        );
        assert!(
            matches!(w.class, Class::UnexpectedException { ref raised, .. } if raised == "TypeError")
        );
    }

    #[test]
    fn a_bool_is_not_an_int_and_exceptions_are_named() {
        let s = seed(vec![Call::Winner, Call::Move { player: 1, roll: 6 }]);
        let mut t = transcript(&s);
        t["calls"][0] = json!({"returns": {"kind": "value", "type": "bool", "value": false}});
        let w = wrong_of(&s, &t);
        assert_eq!(w.class, Class::WrongType);
        assert!(
            w.message
                .ends_with("should return 0 (an int), but returned False (a bool)"),
            "{}",
            w.message
        );

        let mut t = transcript(&s);
        t["calls"][1] = json!({"raised": "IndexError", "message": "list index out of range"});
        t["after"].as_array_mut().unwrap().pop();
        let w = wrong_of(&s, &t);
        assert_eq!(
            w.class,
            Class::UnexpectedException {
                raised: "IndexError".into(),
                message: "list index out of range".into()
            }
        );

        let mut t = transcript(&s);
        t["after"][1] = json!({"raised": "AttributeError", "message": "x", "query": "position(2)"});
        let w = wrong_of(&s, &t);
        assert!(
            w.message
                .ends_with("after it, position(2) raised AttributeError: x"),
            "{}",
            w.message
        );
    }

    #[test]
    fn malformed_transcripts_are_the_harness_s_problem() {
        let s = seed(vec![Call::Winner, Call::Winner]);
        let e = expected(&s);
        let mut t = transcript(&s);
        t["calls"][0] = json!({"returns": int(0), "raised": "ValueError"});
        assert!(matches!(
            compare(&s, &e, &t),
            Err(Mismatch::Malformed(MalformedTranscript::Decode(_)))
        ));
        let mut t = transcript(&s);
        t["after"].as_array_mut().unwrap().pop();
        t["calls"].as_array_mut().unwrap().pop();
        assert!(matches!(
            compare(&s, &e, &t),
            Err(Mismatch::Malformed(MalformedTranscript::Inconsistent(_)))
        ));
        let mut t = transcript(&s);
        t["after"][0]["positions"].as_array_mut().unwrap().pop();
        assert!(matches!(compare(&s, &e, &t), Err(Mismatch::Malformed(_))));
        assert!(matches!(
            compare(&s, &e, &json!({"kind": "value"})),
            Err(Mismatch::Malformed(_))
        ));
        let mut wrong_case = e.clone();
        wrong_case.calls.pop();
        assert!(matches!(
            compare(&s, &wrong_case, &transcript(&s)),
            Err(Mismatch::Case(_))
        ));
    }
}
