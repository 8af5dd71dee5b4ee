//! Words and pictures for a case, generated from the reference semantics:
//! a player's walk square by square ([`narrate_walk`]), the reason for a
//! `whowins` answer, a list's first wrong node ([`first_wrong_node`]), and the
//! board drawn as text ([`draw`]) when it is small enough to read.

use super::board::{Board, Square};
use super::{self as a48, Move, WalkEnd};

/// Boards up to this many squares are drawn.
pub const DRAW_LIMIT: u32 = 100;
/// Walks are narrated up to this many moves.
const NARRATE_MOVES: u64 = 24;

/// `ladder`, `snake` or nothing, by direction.
fn snadder_word(from: Square, to: Square) -> &'static str {
    if to > from { "ladder" } else { "snake" }
}

fn move_line(n: Square, step: u64, m: &Move) -> String {
    let start = if m.number == 1 {
        format!("move 1 (the start, a move of {step} from square {n}, the last square)")
    } else {
        format!("move {}: from square {}, moving {step},", m.number, m.from)
    };
    let mut s = format!("{start} lands on square {}", m.landed);
    if m.wrapped && m.number > 1 {
        s.push_str(&format!(" (past square {n}, so counting on from square 1)"));
    }
    if m.to != m.landed {
        s.push_str(&format!(
            ", whose {} leads to square {}",
            snadder_word(m.landed, m.to),
            m.to
        ));
    }
    if m.to == n {
        s.push_str(": the last square");
    }
    s
}

/// One player's walk in words, ending with whether and when it finishes.
pub fn narrate_walk(board: &Board, step: u64) -> Vec<String> {
    let n = board.squares();
    let (moves, end) = a48::walk(board, step, NARRATE_MOVES);
    let mut lines: Vec<String> = moves.iter().map(|m| move_line(n, step, m)).collect();
    lines.push(match end {
        WalkEnd::Finished { at_move } => {
            format!("The player with step size {step} reaches square {n} on move {at_move}.")
        }
        WalkEnd::Loops {
            at_move,
            first_seen,
            square,
        } => format!(
            "Move {at_move} ends on square {square}, where move {first_seen} already ended: from there the same moves repeat forever, so the player with step size {step} never reaches square {n}."
        ),
        WalkEnd::Truncated => format!("(the first {NARRATE_MOVES} moves are shown)"),
    });
    lines
}

/// Why `whowins` has the answer it has, from the two finish times.
pub fn whowins_reason(board: &Board, step1: u64, step2: u64) -> String {
    let t1 = a48::finish_time(board, step1);
    let t2 = a48::finish_time(board, step2);
    let when = |t: Option<u64>| match t {
        Some(t) => format!("finishes on move {t}"),
        None => "never finishes".to_owned(),
    };
    let verdict = match (t1, t2) {
        (Some(a), Some(b)) if a <= b => {
            "player 1 wins: it finishes no later, and it moves first in every round"
        }
        (Some(_), None) => "player 1 wins: only it finishes",
        (Some(_), Some(_)) => "player 2 wins: it finishes sooner",
        (None, Some(_)) => "player 2 wins: only it finishes",
        (None, None) => "player 2 wins: the handout gives player 2 the game when nobody finishes",
    };
    format!(
        "Player 1 (step {step1}) {}; player 2 (step {step2}) {}; so {verdict}.",
        when(t1),
        when(t2)
    )
}

/// The first square (in list order) whose snadder differs between the
/// expected board and the one returned: `(square, expected, got)`.
pub fn first_wrong_node(
    expected: &Board,
    got: &[(Square, Square)],
) -> Option<(Square, Option<Square>, Option<Square>)> {
    (1..=expected.squares()).find_map(|q| {
        let want = expected.destination_of(q);
        let have = got.iter().find(|(s, _)| *s == q).map(|(_, d)| *d);
        (want != have).then_some((q, want, have))
    })
}

/// The board as a text grid, numbered like a printed board (square 1 bottom
/// left, rows alternating direction), or `None` above [`DRAW_LIMIT`] squares.
/// A cell reads `7^12` for a ladder from 7 to 12, `9v3` for a snake from 9 to
/// 3, and the last square is marked `*`.
pub fn draw(board: &Board) -> Option<String> {
    let n = board.squares();
    if n > DRAW_LIMIT {
        return None;
    }
    let width = match n {
        0..=4 => n,
        5..=16 => 4,
        17..=36 => 6,
        37..=64 => 8,
        _ => 10,
    } as usize;
    let label = |q: Square| -> String {
        match board.destination_of(q) {
            Some(d) if d > q => format!("{q}^{d}"),
            Some(d) => format!("{q}v{d}"),
            None if q == n => format!("{q}*"),
            None => q.to_string(),
        }
    };
    let cell = (1..=n).map(|q| label(q).len()).max().unwrap_or(1);
    let rows = (n as usize).div_ceil(width);
    let rule = format!("+{}\n", format!("{}+", "-".repeat(cell + 2)).repeat(width));
    let mut out = rule.clone();
    for r in (0..rows).rev() {
        let mut cells: Vec<String> = (0..width)
            .map(|c| {
                let q = (r * width + c + 1) as Square;
                if q <= n { label(q) } else { String::new() }
            })
            .collect();
        if r % 2 == 1 {
            cells.reverse();
        }
        out.push('|');
        for c in cells {
            out.push_str(&format!(" {c:<cell$} |"));
        }
        out.push('\n');
    }
    out.push_str(&rule);
    out.push_str(&format!(
        "{n} {}; after square {n} (*) play continues at square 1. a^b: ladder, avb: snake.\n",
        if n == 1 { "square" } else { "squares" }
    ));
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_board_is_drawn_like_a_printed_one() {
        let b = Board::new(6, &[(2, 5), (4, 1)]).unwrap();
        let text = draw(&b).unwrap();
        let expected = "\
+-----+-----+-----+-----+
|     |     | 6*  | 5   |
| 1   | 2^5 | 3   | 4v1 |
+-----+-----+-----+-----+
";
        assert!(text.starts_with(expected), "{text}");
        assert!(draw(&Board::empty(101)).is_none());
        assert!(draw(&Board::empty(100)).is_some());
    }

    #[test]
    fn a_walk_says_where_it_wraps_climbs_and_repeats() {
        // 4 squares, ladder 1 -> 3, step 2: start lands on 2, then 4... finishes.
        let b = Board::new(4, &[(1, 3)]).unwrap();
        let lines = narrate_walk(&b, 2);
        assert_eq!(
            lines[0],
            "move 1 (the start, a move of 2 from square 4, the last square) lands on square 2"
        );
        assert_eq!(
            lines[1],
            "move 2: from square 2, moving 2, lands on square 4: the last square"
        );
        assert!(lines[2].contains("reaches square 4 on move 2"));
        // Step 1 on 4 squares with a snake 3 -> 1: 1, 2, 3->1, 2, ... never.
        let b = Board::new(4, &[(3, 1)]).unwrap();
        let lines = narrate_walk(&b, 1);
        assert!(
            lines[2].contains("whose snake leads to square 1"),
            "{lines:?}"
        );
        assert!(
            lines.last().unwrap().contains("never reaches square 4"),
            "{lines:?}"
        );
        // Wrapping past the last square.
        let b = Board::new(5, &[]).unwrap();
        let lines = narrate_walk(&b, 3);
        assert!(lines[1].contains("past square 5"), "{lines:?}");
    }

    #[test]
    fn whowins_reasons_and_first_wrong_node() {
        let b = Board::new(4, &[(3, 1)]).unwrap();
        assert!(whowins_reason(&b, 1, 4).contains("player 2 wins: only it finishes"));
        assert!(whowins_reason(&b, 1, 1).contains("nobody finishes"));
        let dual = b.dual();
        assert_eq!(first_wrong_node(&dual, &[(1, 3)]), None);
        assert_eq!(first_wrong_node(&dual, &[(3, 1)]), Some((1, Some(3), None)));
        assert_eq!(
            first_wrong_node(&dual, &[(1, 3), (2, 4)]),
            Some((2, None, Some(4)))
        );
    }
}
