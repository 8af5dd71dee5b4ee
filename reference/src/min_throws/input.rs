//! The minimum-throws board: its validated type, its JSON form and its
//! problems.
//!
//! An [`Input`] can only be built through [`Input::new`], which reports every
//! problem it finds (up to [`MAX_PROBLEMS`]), each naming the cell.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The most cells a board may have.
pub const MAX_CELLS: usize = 100_000;
/// Validation stops listing problems after this many.
pub const MAX_PROBLEMS: usize = 20;

/// A cell index, `0..n`.
pub type Cell = u32;

/// A valid board: `moves[i]` is the destination of the snake or ladder on
/// cell `i`, if any.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RawInput", into = "RawInput")]
pub struct Input {
    moves: Vec<Option<Cell>>,
}

/// The JSON form before validation: `{"move": [-1, 21, ...]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawInput {
    #[serde(rename = "move")]
    pub moves: Vec<i64>,
}

/// One reason a board is not valid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// The list is empty.
    Empty,
    /// The list is longer than [`MAX_CELLS`].
    TooLong { n: usize },
    /// `move[cell]` is neither -1 nor a cell in `0..n`.
    OutOfRange { cell: usize, value: i64, n: usize },
    /// `move[cell]` is `cell` itself.
    SelfJump { cell: usize },
    /// The first or the last cell holds a snake or ladder.
    JumpOnEndpoint { cell: usize, value: i64 },
    /// More problems were found than are listed.
    More { count: usize },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Problem::Empty => write!(f, "`move` is empty; a board has at least 1 cell"),
            Problem::TooLong { n } => {
                write!(
                    f,
                    "`move` has {n} cells, more than the {MAX_CELLS} supported"
                )
            }
            Problem::OutOfRange { cell, value, n } => write!(
                f,
                "move[{cell}] is {value}, but a cell holds -1 or a cell index in 0..{n}"
            ),
            Problem::SelfJump { cell } => {
                write!(
                    f,
                    "move[{cell}] is {cell}: a snake or ladder cannot lead to its own cell"
                )
            }
            Problem::JumpOnEndpoint { cell, value } => write!(
                f,
                "move[{cell}] is {value}, but the first and the last cell hold no snake or ladder"
            ),
            Problem::More { count } => write!(f, "and {count} more problem(s)"),
        }
    }
}

/// Every problem found in a board that failed validation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid board: {}", join_problems(.problems))]
pub struct InvalidInput {
    pub problems: Vec<Problem>,
}

fn join_problems(problems: &[Problem]) -> String {
    problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// Why a JSON value is not a minimum-throws input.
#[derive(Debug, thiserror::Error)]
pub enum ParseError {
    /// The value does not have the shape `{"move": [integer, ...]}`.
    #[error("the input is not of the form {{\"move\": [-1, ...]}}")]
    Shape(#[source] serde_json::Error),
    /// The shape is right but the board breaks the rules.
    #[error(transparent)]
    Invalid(#[from] InvalidInput),
}

impl Input {
    /// Validates `move` and builds the input. Every problem is reported, up
    /// to [`MAX_PROBLEMS`].
    pub fn new(moves: &[i64]) -> Result<Input, InvalidInput> {
        let n = moves.len();
        let mut problems = Vec::new();
        let mut unlisted = 0usize;
        let mut report = |p: Problem| {
            if problems.len() < MAX_PROBLEMS {
                problems.push(p);
            } else {
                unlisted += 1;
            }
        };
        if n == 0 {
            report(Problem::Empty);
        }
        if n > MAX_CELLS {
            report(Problem::TooLong { n });
        }
        for (cell, &value) in moves.iter().enumerate() {
            if value == -1 {
                continue;
            }
            if cell == 0 || cell + 1 == n {
                report(Problem::JumpOnEndpoint { cell, value });
            }
            if value < 0 || value >= n as i64 {
                report(Problem::OutOfRange { cell, value, n });
            } else if value == cell as i64 {
                report(Problem::SelfJump { cell });
            }
        }
        if unlisted > 0 {
            problems.push(Problem::More { count: unlisted });
        }
        if !problems.is_empty() {
            return Err(InvalidInput { problems });
        }
        // Validation above guarantees every value is -1 or below n <= MAX_CELLS.
        Ok(Input {
            moves: moves
                .iter()
                .map(|&v| (v != -1).then_some(v as Cell))
                .collect(),
        })
    }

    /// Builds a board of `n` cells from `(source, destination)` pairs,
    /// validated as [`Input::new`] validates a list (a later pair for the
    /// same source replaces an earlier one; a source outside `0..n` is
    /// reported as an out-of-range value on the last cell).
    pub fn from_jumps(n: usize, pairs: &[(Cell, Cell)]) -> Result<Input, InvalidInput> {
        if n > MAX_CELLS {
            return Err(InvalidInput {
                problems: vec![Problem::TooLong { n }],
            });
        }
        let mut moves = vec![-1i64; n];
        for &(s, d) in pairs {
            match moves.get_mut(s as usize) {
                Some(slot) => *slot = i64::from(d),
                None => {
                    return Err(InvalidInput {
                        problems: vec![Problem::OutOfRange {
                            cell: s as usize,
                            value: i64::from(d),
                            n,
                        }],
                    });
                }
            }
        }
        Input::new(&moves)
    }

    /// The number of cells, `n`.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Always false: a valid board has at least one cell.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The last cell, `n - 1`.
    pub fn last(&self) -> Cell {
        (self.moves.len() - 1) as Cell
    }

    /// The destination of the snake or ladder on `cell`, if any.
    pub fn jump(&self, cell: Cell) -> Option<Cell> {
        self.moves.get(cell as usize).copied().flatten()
    }

    /// Where landing on `cell` leaves the player. One hop, never more.
    pub fn settle(&self, cell: Cell) -> Cell {
        self.jump(cell).unwrap_or(cell)
    }

    /// Every `(source, destination)`, by source.
    pub fn jumps(&self) -> Vec<(Cell, Cell)> {
        self.moves
            .iter()
            .enumerate()
            .filter_map(|(s, d)| d.map(|d| (s as Cell, d)))
            .collect()
    }

    /// The `move` list: -1 or a destination per cell.
    pub fn moves(&self) -> Vec<i64> {
        self.moves.iter().map(|d| d.map_or(-1, i64::from)).collect()
    }
}

impl TryFrom<RawInput> for Input {
    type Error = InvalidInput;

    fn try_from(raw: RawInput) -> Result<Input, InvalidInput> {
        Input::new(&raw.moves)
    }
}

impl From<Input> for RawInput {
    fn from(input: Input) -> RawInput {
        RawInput {
            moves: input.moves(),
        }
    }
}

/// Parses a case's `input`, naming the problem when it is not a valid board.
pub fn parse(value: &serde_json::Value) -> Result<Input, ParseError> {
    let raw = RawInput::deserialize(value).map_err(ParseError::Shape)?;
    Ok(Input::new(&raw.moves)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_problem_is_reported_with_its_cell() {
        let err = Input::new(&[3, -1, 2, 9, -2, 0]).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("move[0] is 3, but the first"), "{text}");
        assert!(text.contains("move[2] is 2: a snake"), "{text}");
        assert!(text.contains("move[3] is 9, but a cell holds -1"), "{text}");
        assert!(text.contains("move[4] is -2"), "{text}");
        assert!(
            text.contains("move[5] is 0, but the first and the last"),
            "{text}"
        );
        assert_eq!(err.problems.len(), 5, "{text}");
        assert_eq!(Input::new(&[]).unwrap_err().problems, vec![Problem::Empty]);
        let err = Input::new(&vec![5000; 1000]).unwrap_err();
        assert_eq!(err.problems.len(), MAX_PROBLEMS + 1);
    }

    #[test]
    fn json_round_trip_and_typed_errors() {
        let value = serde_json::json!({"move": [-1, 3, -1, -1]});
        let input = parse(&value).unwrap();
        assert_eq!(input.jumps(), vec![(1, 3)]);
        assert_eq!(serde_json::to_value(&input).unwrap(), value);
        assert!(matches!(
            parse(&serde_json::json!({"move": [-1, 1, -1]})),
            Err(ParseError::Invalid(_))
        ));
        assert!(matches!(
            parse(&serde_json::json!({"moves": [-1]})),
            Err(ParseError::Shape(_))
        ));
        assert!(matches!(
            parse(&serde_json::json!({"move": "-1"})),
            Err(ParseError::Shape(_))
        ));
    }
}
