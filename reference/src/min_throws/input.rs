//! The minimum-throws board: its validated type, its JSON form and its
//! problems.
//!
//! An [`Input`] can only be built through [`Input::new`], which reports every
//! problem it finds (up to [`MAX_PROBLEMS`]), each naming the cell.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::dice_line::{Line, Problems, join_problems};

/// The most cells a board may have.
pub const MAX_CELLS: usize = 100_000;
pub use crate::dice_line::MAX_PROBLEMS;

/// A cell index, `0..n`.
pub type Cell = u32;

/// A valid board: cell `i` is the line's square `i`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RawInput", into = "RawInput")]
pub struct Input {
    line: Line,
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
        let mut problems = Problems::new();
        if n == 0 {
            problems.push(Problem::Empty);
        }
        if n > MAX_CELLS {
            problems.push(Problem::TooLong { n });
        }
        for (cell, &value) in moves.iter().enumerate() {
            if value == -1 {
                continue;
            }
            if cell == 0 || cell + 1 == n {
                problems.push(Problem::JumpOnEndpoint { cell, value });
            }
            if value < 0 || value >= n as i64 {
                problems.push(Problem::OutOfRange { cell, value, n });
            } else if value == cell as i64 {
                problems.push(Problem::SelfJump { cell });
            }
        }
        problems
            .finish(|count| Problem::More { count })
            .map_err(|problems| InvalidInput { problems })?;
        // Validation above guarantees at least one cell and every value -1
        // or below n <= MAX_CELLS.
        Ok(Input {
            line: Line::new(
                moves
                    .iter()
                    .map(|&v| (v != -1).then_some(v as Cell))
                    .collect(),
            ),
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
        self.line.len()
    }

    /// Always false: a valid board has at least one cell.
    pub fn is_empty(&self) -> bool {
        self.line.len() == 0
    }

    /// The last cell, `n - 1`.
    pub fn last(&self) -> Cell {
        self.line.last()
    }

    /// The destination of the snake or ladder on `cell`, if any.
    pub fn jump(&self, cell: Cell) -> Option<Cell> {
        self.line.jump(cell)
    }

    /// Where landing on `cell` leaves the player. One hop, never more.
    pub fn settle(&self, cell: Cell) -> Cell {
        self.line.settle(cell)
    }

    /// Every `(source, destination)`, by source.
    pub fn jumps(&self) -> Vec<(Cell, Cell)> {
        self.line.jumps()
    }

    /// The `move` list: -1 or a destination per cell.
    pub fn moves(&self) -> Vec<i64> {
        (0..self.len() as Cell)
            .map(|c| self.jump(c).map_or(-1, i64::from))
            .collect()
    }

    /// The line the player walks: cell `i` is square `i`.
    pub(crate) fn line(&self) -> &Line {
        &self.line
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
