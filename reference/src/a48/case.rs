//! The A48 assignment's typed view of a case: its functions, its input (a
//! board and step sizes) and its accepted answers, with the reference
//! answer for each question.

use serde::{Deserialize, Serialize};

use super::board::Board;
use super::{self as a48, Reading};
use crate::case::{Case, Options};

/// A48's options: how `whowins` reads a start on the last square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct A48Options {
    #[serde(default)]
    pub reading: Reading,
}

impl A48Options {
    /// Reads the options of a case file (or of the command line); an unknown
    /// key or value is an error naming it.
    pub fn from_options(options: &Options) -> Result<A48Options, serde_json::Error> {
        serde_json::from_value(serde_json::Value::Object(options.clone()))
    }

    pub fn to_options(self) -> Options {
        let mut o = Options::new();
        o.insert("reading".to_owned(), serde_json::json!(self.reading));
        o
    }
}

/// The four functions of the A48 assignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum A48Function {
    #[serde(rename = "salb2salbLL")]
    Salb2salbLL,
    #[serde(rename = "willfinish")]
    Willfinish,
    #[serde(rename = "whowins")]
    Whowins,
    #[serde(rename = "dualboard")]
    Dualboard,
}

impl A48Function {
    pub const ALL: [A48Function; 4] = [
        A48Function::Salb2salbLL,
        A48Function::Willfinish,
        A48Function::Whowins,
        A48Function::Dualboard,
    ];

    pub fn name(self) -> &'static str {
        match self {
            A48Function::Salb2salbLL => "salb2salbLL",
            A48Function::Willfinish => "willfinish",
            A48Function::Whowins => "whowins",
            A48Function::Dualboard => "dualboard",
        }
    }

    pub fn from_name(name: &str) -> Option<A48Function> {
        A48Function::ALL.into_iter().find(|f| f.name() == name)
    }

    /// How many step-size arguments the function takes after the board.
    pub fn arity(self) -> usize {
        match self {
            A48Function::Salb2salbLL | A48Function::Dualboard => 0,
            A48Function::Willfinish => 1,
            A48Function::Whowins => 2,
        }
    }
}

/// The A48 input: a board and the step sizes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct A48Input {
    pub board: Board,
    #[serde(default)]
    pub args: Vec<u64>,
}

/// The A48 accepted answers: a set of plain values, or one board (for the
/// two functions that return a linked list).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum A48Expected {
    OneOf(Vec<serde_json::Value>),
    Board(Board),
}

/// Why an A48 input cannot be asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadInput {
    #[error("`{function}` takes {expected} step size(s), the case gives {given}")]
    Arity {
        function: &'static str,
        expected: usize,
        given: usize,
    },
    #[error("step sizes are positive integers, the case gives 0")]
    ZeroStep,
}

impl A48Input {
    pub fn check(&self, function: A48Function) -> Result<(), BadInput> {
        if self.args.len() != function.arity() {
            return Err(BadInput::Arity {
                function: function.name(),
                expected: function.arity(),
                given: self.args.len(),
            });
        }
        if self.args.contains(&0) {
            return Err(BadInput::ZeroStep);
        }
        Ok(())
    }
}

/// The reference answer(s) for an A48 question.
pub fn a48_expected(
    function: A48Function,
    input: &A48Input,
    reading: Reading,
) -> Result<A48Expected, BadInput> {
    input.check(function)?;
    let b = &input.board;
    Ok(match function {
        A48Function::Salb2salbLL => A48Expected::Board(b.clone()),
        A48Function::Dualboard => A48Expected::Board(a48::dualboard(b)),
        A48Function::Willfinish => A48Expected::OneOf(vec![serde_json::Value::Bool(
            a48::willfinish(b, input.args[0]),
        )]),
        A48Function::Whowins => A48Expected::OneOf(
            a48::accepted_winners(b, input.args[0], input.args[1], reading)
                .into_iter()
                .map(|p| serde_json::Value::from(u8::from(p)))
                .collect(),
        ),
    })
}

/// Builds a complete A48 case, expected answers included.
pub fn a48_case(
    id: String,
    label: String,
    function: A48Function,
    input: A48Input,
    reading: Reading,
) -> Result<Case, BadInput> {
    let expected = a48_expected(function, &input, reading)?;
    Ok(Case {
        id,
        function: function.name().to_owned(),
        label,
        input: serde_json::to_value(&input).unwrap_or_default(),
        expected: serde_json::to_value(&expected).unwrap_or_default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_json_shape_is_stable() {
        let input = A48Input {
            board: Board::new(4, &[(3, 1)]).unwrap(),
            args: vec![1],
        };
        let case = a48_case(
            "w/1".into(),
            "x".into(),
            A48Function::Willfinish,
            input,
            Reading::Either,
        )
        .unwrap();
        assert_eq!(
            serde_json::to_string(&case).unwrap(),
            r#"{"id":"w/1","function":"willfinish","label":"x","input":{"board":{"squares":4,"snadders":[[3,1]]},"args":[1]},"expected":{"one_of":[false]}}"#
        );
    }

    #[test]
    fn arity_and_zero_steps_are_rejected() {
        let input = A48Input {
            board: Board::empty(4),
            args: vec![],
        };
        assert!(a48_expected(A48Function::Willfinish, &input, Reading::Either).is_err());
        let input = A48Input {
            board: Board::empty(4),
            args: vec![0, 1],
        };
        assert_eq!(
            a48_expected(A48Function::Whowins, &input, Reading::Either),
            Err(BadInput::ZeroStep)
        );
    }
}
