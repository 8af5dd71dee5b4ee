//! The snakes-and-ladders board: its model, its validation and its JSON form.
//!
//! A [`Board`] can only be built through validation, so every other module may
//! assume the handout's restrictions hold. Validation reports every problem it
//! finds, each naming the square(s) involved, so an instructor fixing a
//! hand-written board sees all mistakes at once.
//!
//! This module is pure: no files, no processes.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

/// A square number, 1-based as in the handout.
pub type Square = u32;

/// A link from `source` to `destination`: a snake when it goes down, a ladder
/// when it goes up. The handout calls both a *snadder*.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Snadder {
    pub source: Square,
    pub destination: Square,
}

/// A valid board: `squares >= 1`, snadders sorted by source.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RawBoard", into = "RawBoard")]
pub struct Board {
    squares: Square,
    snadders: Vec<Snadder>,
}

/// The JSON form, before validation: `{"squares": 16, "snadders": [[2, 11], [10, 7]]}`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawBoard {
    pub squares: u64,
    #[serde(default)]
    pub snadders: Vec<(u64, u64)>,
}

/// One reason a board is not valid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardProblem {
    /// The board has no squares at all.
    NoSquares,
    /// The board is larger than this tool supports.
    TooManySquares { squares: u64 },
    /// A snadder names a square outside `1..=n`.
    OutOfRange {
        source: u64,
        destination: u64,
        square: u64,
        squares: u64,
    },
    /// A snadder starts or ends on the last square.
    TouchesLastSquare {
        source: u64,
        destination: u64,
        last: u64,
    },
    /// A snadder links a square to itself.
    SelfLoop { square: u64 },
    /// A square is the source of more than one snadder.
    DuplicateSource { square: u64 },
    /// A square is the destination of more than one snadder.
    DuplicateDestination { square: u64 },
}

impl fmt::Display for BoardProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            BoardProblem::NoSquares => write!(f, "a board needs at least 1 square"),
            BoardProblem::TooManySquares { squares } => {
                write!(
                    f,
                    "{squares} squares is more than the {} supported",
                    Square::MAX
                )
            }
            BoardProblem::OutOfRange {
                source,
                destination,
                square,
                squares,
            } => write!(
                f,
                "snadder {source} -> {destination} names square {square}, outside 1..={squares}"
            ),
            BoardProblem::TouchesLastSquare {
                source,
                destination,
                last,
            } => write!(
                f,
                "snadder {source} -> {destination} touches the last square {last}, which may not be a source or destination"
            ),
            BoardProblem::SelfLoop { square } => {
                write!(f, "snadder {square} -> {square} links a square to itself")
            }
            BoardProblem::DuplicateSource { square } => {
                write!(f, "square {square} is the source of more than one snadder")
            }
            BoardProblem::DuplicateDestination { square } => {
                write!(
                    f,
                    "square {square} is the destination of more than one snadder"
                )
            }
        }
    }
}

/// Every problem found in a board that failed validation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid board: {}", join_problems(.problems))]
pub struct InvalidBoard {
    pub problems: Vec<BoardProblem>,
}

fn join_problems(problems: &[BoardProblem]) -> String {
    problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

impl Board {
    /// Validates and builds a board. Every problem is reported, not just the first.
    pub fn new(squares: u64, snadders: &[(u64, u64)]) -> Result<Board, InvalidBoard> {
        let mut problems = Vec::new();
        if squares == 0 {
            problems.push(BoardProblem::NoSquares);
        }
        if squares > u64::from(Square::MAX) {
            problems.push(BoardProblem::TooManySquares { squares });
        }
        let mut sources: BTreeMap<u64, usize> = BTreeMap::new();
        let mut destinations: BTreeMap<u64, usize> = BTreeMap::new();
        for &(source, destination) in snadders {
            let mut in_range = true;
            for square in [source, destination] {
                if square == 0 || square > squares {
                    problems.push(BoardProblem::OutOfRange {
                        source,
                        destination,
                        square,
                        squares,
                    });
                    in_range = false;
                    break;
                }
            }
            if in_range && (source == squares || destination == squares) {
                problems.push(BoardProblem::TouchesLastSquare {
                    source,
                    destination,
                    last: squares,
                });
            }
            if source == destination {
                problems.push(BoardProblem::SelfLoop { square: source });
            }
            *sources.entry(source).or_default() += 1;
            *destinations.entry(destination).or_default() += 1;
        }
        for (&square, &count) in &sources {
            if count > 1 {
                problems.push(BoardProblem::DuplicateSource { square });
            }
        }
        for (&square, &count) in &destinations {
            if count > 1 {
                problems.push(BoardProblem::DuplicateDestination { square });
            }
        }
        if !problems.is_empty() {
            return Err(InvalidBoard { problems });
        }
        // Validation above guarantees every value fits in a `Square`.
        let mut snadders: Vec<Snadder> = snadders
            .iter()
            .map(|&(s, d)| Snadder {
                source: s as Square,
                destination: d as Square,
            })
            .collect();
        snadders.sort_unstable();
        Ok(Board {
            squares: squares as Square,
            snadders,
        })
    }

    /// A board with no snadders.
    pub fn empty(squares: Square) -> Board {
        Board {
            squares: squares.max(1),
            snadders: Vec::new(),
        }
    }

    /// The number of squares, `n`.
    pub fn squares(&self) -> Square {
        self.squares
    }

    /// The snadders, sorted by source.
    pub fn snadders(&self) -> &[Snadder] {
        &self.snadders
    }

    /// The snadders as `(source, destination)` pairs, sorted by source: the
    /// form [`Board::new`] takes.
    pub fn pairs(&self) -> Vec<(u64, u64)> {
        self.snadders
            .iter()
            .map(|s| (u64::from(s.source), u64::from(s.destination)))
            .collect()
    }

    /// The destination of the snadder starting on `square`, if any (binary search).
    pub fn destination_of(&self, square: Square) -> Option<Square> {
        self.snadders
            .binary_search_by_key(&square, |s| s.source)
            .ok()
            .map(|i| self.snadders[i].destination)
    }

    /// The board with every snadder reversed: the handout's *dual*.
    ///
    /// Because no square is the destination of two snadders, the dual is valid
    /// whenever the board is.
    pub fn dual(&self) -> Board {
        let mut snadders: Vec<Snadder> = self
            .snadders
            .iter()
            .map(|s| Snadder {
                source: s.destination,
                destination: s.source,
            })
            .collect();
        snadders.sort_unstable();
        Board {
            squares: self.squares,
            snadders,
        }
    }

    /// The most snadders a board of `squares` squares can hold: each uses two
    /// distinct squares (a destination may be another snadder's source, so
    /// this is the bound the generator's "full" boards aim at, not a hard one).
    pub fn full_count(squares: Square) -> Square {
        squares.saturating_sub(1) / 2
    }
}

impl TryFrom<RawBoard> for Board {
    type Error = InvalidBoard;

    fn try_from(raw: RawBoard) -> Result<Board, InvalidBoard> {
        Board::new(raw.squares, &raw.snadders)
    }
}

impl From<Board> for RawBoard {
    fn from(board: Board) -> RawBoard {
        RawBoard {
            squares: u64::from(board.squares),
            snadders: board.pairs(),
        }
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} square{}",
            self.squares,
            if self.squares == 1 { "" } else { "s" }
        )?;
        if self.snadders.is_empty() {
            return write!(f, ", no snadders");
        }
        write!(f, ", snadders ")?;
        for (i, s) in self.snadders.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{}->{}", s.source, s.destination)?;
        }
        Ok(())
    }
}

/// O(1) lookup of a square's snadder in O(n) bits: a bitset of sources with a
/// rank directory, indexing into the destinations in source order.
///
/// A `Vec<Option<u32>>` indexed by square would be simpler but costs 8 bytes a
/// square; on a 10,000,000-square board the bitset and directory take about
/// 1.9 MB instead of 80 MB, and the hot loop stays in cache.
pub(crate) struct SourceIndex<'b> {
    bits: Vec<u64>,
    /// Number of sources in all words before word `i`.
    rank: Vec<u32>,
    board: &'b Board,
}

impl<'b> SourceIndex<'b> {
    pub(crate) fn new(board: &'b Board) -> SourceIndex<'b> {
        let words = (board.squares as usize / 64) + 1;
        let mut bits = vec![0u64; words];
        for s in &board.snadders {
            bits[s.source as usize / 64] |= 1 << (s.source % 64);
        }
        let mut rank = Vec::with_capacity(words);
        let mut total = 0u32;
        for w in &bits {
            rank.push(total);
            total += w.count_ones();
        }
        SourceIndex { bits, rank, board }
    }

    #[inline]
    pub(crate) fn destination(&self, square: Square) -> Option<Square> {
        let word = square as usize / 64;
        let bit = square % 64;
        let w = self.bits[word];
        if w & (1 << bit) == 0 {
            return None;
        }
        let below = (w & ((1u64 << bit) - 1)).count_ones();
        let i = self.rank[word] + below;
        Some(self.board.snadders[i as usize].destination)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_board_is_sorted_by_source() {
        let b = Board::new(16, &[(10, 7), (2, 11)]).unwrap();
        assert_eq!(
            b.snadders()[0],
            Snadder {
                source: 2,
                destination: 11
            }
        );
        assert_eq!(b.destination_of(10), Some(7));
        assert_eq!(b.destination_of(3), None);
    }

    #[test]
    fn every_problem_is_reported() {
        let err = Board::new(
            10,
            &[(0, 3), (10, 2), (4, 4), (5, 6), (5, 7), (8, 6), (11, 1)],
        )
        .unwrap_err();
        let text = err.to_string();
        assert!(text.contains("names square 0"), "{text}");
        assert!(text.contains("touches the last square 10"), "{text}");
        assert!(text.contains("4 -> 4"), "{text}");
        assert!(
            text.contains("square 5 is the source of more than one"),
            "{text}"
        );
        assert!(
            text.contains("square 6 is the destination of more than one"),
            "{text}"
        );
        assert!(text.contains("names square 11"), "{text}");
        assert_eq!(
            Board::new(0, &[]).unwrap_err().problems,
            vec![BoardProblem::NoSquares]
        );
    }

    #[test]
    fn destination_may_be_another_source() {
        assert!(Board::new(10, &[(3, 6), (6, 2)]).is_ok());
    }

    #[test]
    fn json_round_trip_and_rejection() {
        let b: Board =
            serde_json::from_str(r#"{"squares": 16, "snadders": [[2, 11], [10, 7]]}"#).unwrap();
        assert_eq!(
            serde_json::to_string(&b).unwrap(),
            r#"{"squares":16,"snadders":[[2,11],[10,7]]}"#
        );
        let err =
            serde_json::from_str::<Board>(r#"{"squares": 4, "snadders": [[4, 1]]}"#).unwrap_err();
        assert!(err.to_string().contains("last square 4"), "{err}");
        assert!(serde_json::from_str::<Board>(r#"{"squares": 4, "ladders": []}"#).is_err());
    }

    #[test]
    fn source_index_agrees_with_binary_search() {
        let b = Board::new(
            200,
            &[(1, 100), (63, 64), (64, 65), (127, 2), (128, 3), (199, 5)],
        )
        .unwrap();
        let idx = SourceIndex::new(&b);
        for sq in 1..=200 {
            assert_eq!(idx.destination(sq), b.destination_of(sq), "square {sq}");
        }
    }
}
