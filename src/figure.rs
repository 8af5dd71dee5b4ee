//! Figures: a failing case described for drawing, without any drawing.
//! Each assignment says what its board looks like (a ring, a grid read in
//! boustrophedon order, a line) and what the reference does on it (a walk);
//! the HTML report turns a figure into SVG. A leaf module, like `verdict`:
//! assignments make figures, reports read them.

/// How a board's squares are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    /// Squares on a circle, clockwise from the top (A48's ring).
    Ring,
    /// An `side` x `side` grid numbered from the bottom left, each row
    /// turning round (LeetCode 909), with row labels.
    Boustrophedon { side: u64 },
    /// A line of cells, wrapped into rows of ten read left to right.
    Line,
}

/// A board with the reference's walks on it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Board {
    pub layout: Layout,
    /// How many squares, and the label of the first (0 or 1).
    pub squares: u64,
    pub first: u64,
    /// Snakes and ladders, by square label: `(from, to)`.
    pub jumps: Vec<(u64, u64)>,
    /// The reference's walks, each a caption and the squares stood on in
    /// order, the start first.
    pub walks: Vec<Walk>,
    /// The square where the student's answer parts from the reference's,
    /// with why, when one can be named.
    pub wrong_at: Option<(u64, String)>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Walk {
    pub caption: String,
    pub squares: Vec<u64>,
}

/// A scenario of calls (the game), with the failing call marked.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Calls {
    /// The board the calls run on, in words.
    pub setting: String,
    /// Each call in words with what the reference returns.
    pub calls: Vec<(String, String)>,
    /// The index of the call where the student's code goes wrong, if known.
    pub failing: Option<usize>,
    /// The state before the failing call, in words.
    pub state_before: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Figure {
    Board(Board),
    Calls(Calls),
}
