//! Words and pictures for a LeetCode 909 case: a one-line description, a
//! shortest path (or why n² cannot be reached) in a few lines, and the board
//! drawn as students see it.

use super::input::{Input, cell_of};
use crate::dice_line::{self, Terms, cell_text, draw_row};

/// Boards up to this side are drawn; a 10 x 10 board is 100 cells, about as
/// much as a terminal shows at once.
pub const DRAW_MAX_N: usize = 10;

/// Squares are labelled from 1, and the player rolls to move.
const TERMS: Terms = Terms {
    first: 1,
    place: "square",
    unit: "move",
    roll: "roll",
};

/// One line: the side, and the jumps as `source->destination` (cut short
/// with a count of the rest, so even a full 20 x 20 board stays under ~300
/// characters).
pub fn describe(input: &Input) -> String {
    let n = input.n();
    dice_line::describe(format!("n = {n} ({} squares), ", n * n), &input.jumps())
}

/// A shortest path in words, or why n² cannot be reached; at most about 20
/// lines.
pub fn explain(input: &Input) -> Vec<String> {
    dice_line::explain(input.line(), &TERMS)
}

/// The board as LeetCode draws it, top row first: each cell shows its label
/// and, if it has one, where its snake or ladder leads (`15→27`). `None`
/// when n is above [`DRAW_MAX_N`].
pub fn draw(input: &Input) -> Option<String> {
    let n = input.n();
    if n > DRAW_MAX_N {
        return None;
    }
    let mut grid = vec![vec![String::new(); n]; n];
    for label in 1..=input.last() {
        let (row, col) = cell_of(n, label);
        grid[row][col] = cell_text(label, input.jump(label));
    }
    let width = grid
        .iter()
        .flatten()
        .map(|c| c.chars().count())
        .max()
        .unwrap_or(1);
    let rule = format!("+{}\n", format!("{}+", "-".repeat(width + 2)).repeat(n));
    let mut out = rule.clone();
    for row in &grid {
        draw_row(&mut out, row, width);
    }
    out.push_str(&rule);
    out.push_str(&format!(
        "Square 1 is bottom left, square {} is the end; a→b: landing on a moves you to b.\n",
        input.last()
    ));
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leetcode909::Label;
    use crate::leetcode909::generate::seed_examples;

    #[test]
    fn the_first_example_in_words() {
        let [(_, ex1), _] = seed_examples();
        let lines = explain(&ex1);
        assert_eq!(
            lines[0],
            "The answer is 4: a shortest way from square 1 to square 36:"
        );
        assert_eq!(lines[1], "move 1: 1 -> 2, ladder to 15");
        assert_eq!(lines.len(), 5);
        assert!(lines[4].ends_with("(the last square)"), "{lines:?}");
    }

    #[test]
    fn unreachable_says_why() {
        let input =
            Input::from_jumps(3, &[(2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1)]).unwrap();
        let lines = explain(&input);
        assert!(lines[0].contains("-1"), "{lines:?}");
        assert!(lines[2].contains("2 (snake to 1)"), "{lines:?}");
    }

    #[test]
    fn long_paths_and_big_boards_stay_short() {
        let empty = Input::from_jumps(20, &[]).unwrap();
        assert!(explain(&empty).len() <= 21);
        let full: Vec<(Label, Label)> = (2..400).map(|s| (s, 401 - s)).collect();
        let full = Input::from_jumps(20, &full).unwrap();
        assert!(describe(&full).len() <= 300, "{}", describe(&full));
        assert!(draw(&full).is_none());
        assert!(draw(&Input::from_jumps(10, &[]).unwrap()).is_some());
    }

    #[test]
    fn the_second_example_drawn() {
        let [_, (_, ex2)] = seed_examples();
        let text = draw(&ex2).unwrap();
        assert!(
            text.starts_with(
                "\
+-----+-----+
| 4   | 3   |
| 1   | 2→3 |
+-----+-----+
"
            ),
            "{text}"
        );
    }
}
