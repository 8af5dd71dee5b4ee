//! The LeetCode 909 board: its validated type, its JSON form and the
//! label ↔ cell numbering.
//!
//! An [`Input`] can only be built through [`Input::new`], which reports every
//! problem it finds (up to [`MAX_PROBLEMS`]), each naming the cell as
//! `board[row][col]` and, where the board is square, the square's label.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::dice_line::{Line, Problems, Square, join_problems};

/// The smallest board side LeetCode allows.
pub const MIN_N: usize = 2;
/// The largest board side LeetCode allows.
pub const MAX_N: usize = 20;
pub use crate::dice_line::MAX_PROBLEMS;

/// A square's label, `1..=n²`.
pub type Label = u32;

/// A valid LeetCode 909 board.
///
/// Stored as the line the player walks: the square labelled `l` is the
/// line's square `l - 1`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RawInput", into = "RawInput")]
pub struct Input {
    n: usize,
    line: Line,
}

/// The line's square for `label` (labels start at 1, squares at 0).
fn to_square(label: Label) -> Option<Square> {
    label.checked_sub(1)
}

/// The label of the line's `square`.
fn to_label(square: Square) -> Label {
    square + 1
}

/// The JSON form before validation: `{"board": [[-1, ...], ...]}`, rows
/// exactly as LeetCode's `board` (top row first).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawInput {
    pub board: Vec<Vec<i64>>,
}

/// One reason a board is not valid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// The number of rows is outside `MIN_N..=MAX_N`.
    Side { n: usize },
    /// A row's length differs from the number of rows.
    NotSquare { row: usize, len: usize, n: usize },
    /// A cell holds neither -1 nor a label in `1..=max`. `label` is known
    /// when the board is square.
    OutOfRange {
        row: usize,
        col: usize,
        label: Option<Label>,
        value: i64,
        max: u64,
    },
    /// Square 1 or square n² holds a snake or ladder.
    JumpOnEndpoint {
        row: usize,
        col: usize,
        label: Label,
        value: i64,
    },
    /// A `(source, destination)` pair names a source that is not a square
    /// (only [`Input::from_jumps`] takes pairs).
    NoSuchSquare { source: Label, squares: Label },
    /// More problems were found than are listed.
    More { count: usize },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Problem::Side { n } => write!(
                f,
                "the board has {n} row{}, but n must be between {MIN_N} and {MAX_N}",
                if n == 1 { "" } else { "s" }
            ),
            Problem::NotSquare { row, len, n } => write!(
                f,
                "row {row} has {len} cell{} but the board has {n} rows (it must be n x n)",
                if len == 1 { "" } else { "s" }
            ),
            Problem::OutOfRange {
                row,
                col,
                label,
                value,
                max,
            } => {
                write!(f, "board[{row}][{col}]")?;
                if let Some(label) = label {
                    write!(f, " (square {label})")?;
                }
                write!(
                    f,
                    " is {value}, but a cell holds -1 or a square in 1..={max}"
                )
            }
            Problem::JumpOnEndpoint {
                row,
                col,
                label,
                value,
            } => write!(
                f,
                "board[{row}][{col}] is square {label}, which may not hold a snake or ladder, but it leads to {value}"
            ),
            Problem::NoSuchSquare { source, squares } => write!(
                f,
                "a snake or ladder starts on square {source}, outside 1..={squares}"
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

/// Why a JSON value is not a LeetCode 909 input.
#[derive(Debug, thiserror::Error)]
pub enum ParseError {
    /// The value does not have the shape `{"board": [[integer, ...], ...]}`.
    #[error("the input is not of the form {{\"board\": [[-1, ...], ...]}}")]
    Shape(#[source] serde_json::Error),
    /// The shape is right but the board breaks the rules.
    #[error(transparent)]
    Invalid(#[from] InvalidInput),
}

/// The `(row, col)` of the square labelled `label` on an `n x n` board, row 0
/// at the top as in LeetCode's `board`. Labels run left to right along the
/// bottom row, right to left along the row above, and so on.
///
/// `label` must be in `1..=n²`.
pub fn cell_of(n: usize, label: Label) -> (usize, usize) {
    let i = label as usize - 1;
    let from_bottom = i / n;
    let along = i % n;
    let col = if from_bottom.is_multiple_of(2) {
        along
    } else {
        n - 1 - along
    };
    (n - 1 - from_bottom, col)
}

/// The label of the square at `board[row][col]` (the inverse of [`cell_of`]).
pub fn label_of(n: usize, row: usize, col: usize) -> Label {
    let from_bottom = n - 1 - row;
    let along = if from_bottom.is_multiple_of(2) {
        col
    } else {
        n - 1 - col
    };
    (from_bottom * n + along + 1) as Label
}

impl Input {
    /// Validates LeetCode's `board` (top row first) and builds the input.
    /// Every problem is reported, not just the first.
    pub fn new(board: &[Vec<i64>]) -> Result<Input, InvalidInput> {
        let mut problems = Problems::new();
        let n = board.len();
        if !(MIN_N..=MAX_N).contains(&n) {
            problems.push(Problem::Side { n });
        }
        let mut square = true;
        for (row, cells) in board.iter().enumerate() {
            if cells.len() != n {
                square = false;
                problems.push(Problem::NotSquare {
                    row,
                    len: cells.len(),
                    n,
                });
            }
        }
        let max = (n as u64) * (n as u64);
        for (row, cells) in board.iter().enumerate() {
            for (col, &value) in cells.iter().enumerate() {
                let label = (square && n <= MAX_N).then(|| label_of(n, row, col));
                if value != -1 && !(1..=max as i64).contains(&value) {
                    problems.push(Problem::OutOfRange {
                        row,
                        col,
                        label,
                        value,
                        max,
                    });
                }
            }
        }
        if square && (MIN_N..=MAX_N).contains(&n) {
            for label in [1, max as Label] {
                let (row, col) = cell_of(n, label);
                let value = board[row][col];
                if value != -1 {
                    problems.push(Problem::JumpOnEndpoint {
                        row,
                        col,
                        label,
                        value,
                    });
                }
            }
        }
        problems
            .finish(|count| Problem::More { count })
            .map_err(|problems| InvalidInput { problems })?;
        // Validation above guarantees a square board with every value -1 or
        // a label in 1..=n² (which fits a `Label` since n <= MAX_N).
        let mut jumps = vec![None; n * n];
        for (row, cells) in board.iter().enumerate() {
            for (col, &value) in cells.iter().enumerate() {
                if value != -1 {
                    jumps[label_of(n, row, col) as usize - 1] = to_square(value as Label);
                }
            }
        }
        Ok(Input {
            n,
            line: Line::new(jumps),
        })
    }

    /// Builds a board from `(source, destination)` label pairs, validated
    /// exactly as [`Input::new`] validates rows (a later pair for the same
    /// source replaces an earlier one). The generator and the shrinker build
    /// boards this way.
    pub fn from_jumps(n: usize, pairs: &[(Label, Label)]) -> Result<Input, InvalidInput> {
        if !(MIN_N..=MAX_N).contains(&n) {
            return Err(InvalidInput {
                problems: vec![Problem::Side { n }],
            });
        }
        let squares = (n * n) as Label;
        let mut board = vec![vec![-1i64; n]; n];
        let mut problems = Problems::new();
        for &(source, destination) in pairs {
            if !(1..=squares).contains(&source) {
                problems.push(Problem::NoSuchSquare { source, squares });
                continue;
            }
            let (row, col) = cell_of(n, source);
            board[row][col] = i64::from(destination);
        }
        problems
            .finish(|count| Problem::More { count })
            .map_err(|problems| InvalidInput { problems })?;
        Input::new(&board)
    }

    /// The side of the board.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The last square's label, n².
    pub fn last(&self) -> Label {
        (self.n * self.n) as Label
    }

    /// The destination of the snake or ladder on `label`, if any.
    pub fn jump(&self, label: Label) -> Option<Label> {
        to_square(label)
            .and_then(|s| self.line.jump(s))
            .map(to_label)
    }

    /// Where landing on `label` leaves the player: the destination of its
    /// snake or ladder, or `label` itself. One hop, never more.
    pub fn settle(&self, label: Label) -> Label {
        self.jump(label).unwrap_or(label)
    }

    /// Every `(source, destination)`, by source.
    pub fn jumps(&self) -> Vec<(Label, Label)> {
        self.line
            .jumps()
            .into_iter()
            .map(|(s, d)| (to_label(s), to_label(d)))
            .collect()
    }

    /// LeetCode's `board`: top row first.
    pub fn rows(&self) -> Vec<Vec<i64>> {
        let mut board = vec![vec![-1i64; self.n]; self.n];
        for (source, destination) in self.jumps() {
            let (row, col) = cell_of(self.n, source);
            board[row][col] = i64::from(destination);
        }
        board
    }

    /// The line the player walks: the square labelled `l` is square `l - 1`.
    pub(crate) fn line(&self) -> &Line {
        &self.line
    }
}

impl TryFrom<RawInput> for Input {
    type Error = InvalidInput;

    fn try_from(raw: RawInput) -> Result<Input, InvalidInput> {
        Input::new(&raw.board)
    }
}

impl From<Input> for RawInput {
    fn from(input: Input) -> RawInput {
        RawInput {
            board: input.rows(),
        }
    }
}

/// Parses a case's `input`, naming the problem when it is not a valid board.
pub fn parse(value: &serde_json::Value) -> Result<Input, ParseError> {
    let raw = RawInput::deserialize(value).map_err(ParseError::Shape)?;
    Ok(Input::new(&raw.board)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_run_boustrophedon_from_the_bottom_left() {
        // The 6 x 6 picture from the problem statement, top row first.
        let picture = [
            [36, 35, 34, 33, 32, 31],
            [25, 26, 27, 28, 29, 30],
            [24, 23, 22, 21, 20, 19],
            [13, 14, 15, 16, 17, 18],
            [12, 11, 10, 9, 8, 7],
            [1, 2, 3, 4, 5, 6],
        ];
        for (row, labels) in picture.iter().enumerate() {
            for (col, &label) in labels.iter().enumerate() {
                assert_eq!(label_of(6, row, col), label);
                assert_eq!(cell_of(6, label), (row, col));
            }
        }
        for n in MIN_N..=MAX_N {
            for label in 1..=(n * n) as Label {
                let (r, c) = cell_of(n, label);
                assert_eq!(label_of(n, r, c), label, "n = {n}");
            }
        }
    }

    #[test]
    fn every_problem_is_reported_with_its_cell() {
        let err = Input::new(&[vec![5, -1, 10], vec![-1, 0, -1], vec![7, -1, -1]]).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("board[0][2] (square 9) is 10"), "{text}");
        assert!(text.contains("board[1][1] (square 5) is 0"), "{text}");
        assert!(text.contains("board[2][0] is square 1"), "{text}");
        assert!(text.contains("board[0][2] is square 9"), "{text}");
        assert_eq!(err.problems.len(), 4, "{text}");

        let err = Input::new(&[vec![-1, -1], vec![-1]]).unwrap_err();
        assert_eq!(
            err.problems,
            vec![Problem::NotSquare {
                row: 1,
                len: 1,
                n: 2
            }]
        );
        let err = Input::new(&[vec![-1]]).unwrap_err();
        assert!(err.to_string().contains("between 2 and 20"), "{err}");
        let err = Input::new(&[]).unwrap_err();
        assert_eq!(err.problems, vec![Problem::Side { n: 0 }]);
    }

    #[test]
    fn problems_are_capped() {
        let board = vec![vec![1000i64; 21]; 21];
        let err = Input::new(&board).unwrap_err();
        assert_eq!(err.problems.len(), MAX_PROBLEMS + 1);
        assert!(matches!(err.problems.last(), Some(Problem::More { .. })));
    }

    #[test]
    fn a_cell_may_point_to_itself() {
        let input = Input::from_jumps(3, &[(4, 4)]).unwrap();
        assert_eq!(input.settle(4), 4);
    }

    #[test]
    fn json_round_trip_and_typed_errors() {
        let value = serde_json::json!({"board": [[-1, -1], [-1, 3]]});
        let input = parse(&value).unwrap();
        assert_eq!(input.jump(2), Some(3));
        assert_eq!(serde_json::to_value(&input).unwrap(), value);
        assert!(matches!(
            parse(&serde_json::json!({"board": [[-1, 4], [3, -1]]})),
            Err(ParseError::Invalid(_))
        ));
        assert!(matches!(
            parse(&serde_json::json!({"grid": []})),
            Err(ParseError::Shape(_))
        ));
        assert!(matches!(
            parse(&serde_json::json!({"board": [[-1, 1.5], [-1, -1]]})),
            Err(ParseError::Shape(_))
        ));
    }
}
