//! Words and pictures for a minimum-throws case: a one-line description, a
//! shortest sequence of throws (or why the last cell cannot be reached) in a
//! few lines, and small boards drawn as a strip of cells.

use super::input::{Cell, Input};
use crate::dice_line::{self, Terms, cell_text, draw_row};

/// Boards up to this many cells are drawn.
pub const DRAW_MAX_CELLS: usize = 60;
/// Cells per line of the drawing.
const DRAW_PER_LINE: usize = 10;

/// Cells are numbered from 0, and the player throws.
const TERMS: Terms = Terms {
    first: 0,
    place: "cell",
    unit: "throw",
    roll: "throw",
};

/// One line: the number of cells and the jumps as `source->destination`,
/// cut short with a count of the rest (under ~300 characters for any board).
pub fn describe(input: &Input) -> String {
    dice_line::describe(format!("{} cell(s), ", input.len()), &input.jumps())
}

/// A shortest sequence of throws in words, or why the last cell cannot be
/// reached; at most about 20 lines.
pub fn explain(input: &Input) -> Vec<String> {
    if input.len() == 1 {
        return vec![
            "The answer is 0: the board has one cell, so the player starts on the last cell."
                .to_owned(),
        ];
    }
    dice_line::explain(input.line(), &TERMS)
}

/// The board as a strip of cells, ten to a line, each showing its index and,
/// if it has one, where its snake or ladder leads (`2→21`). `None` above
/// [`DRAW_MAX_CELLS`] cells.
pub fn draw(input: &Input) -> Option<String> {
    if input.len() > DRAW_MAX_CELLS {
        return None;
    }
    let cells: Vec<String> = (0..input.len() as Cell)
        .map(|c| cell_text(c, input.jump(c)))
        .collect();
    let width = cells.iter().map(|c| c.chars().count()).max().unwrap_or(1);
    let mut out = String::new();
    for line in cells.chunks(DRAW_PER_LINE) {
        draw_row(&mut out, line, width);
    }
    out.push_str(&format!(
        "Start on cell 0, finish on cell {}; a→b: landing on a moves you to b.\n",
        input.last()
    ));
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::min_throws::generate::seed_example;

    #[test]
    fn the_seed_board_in_words_and_drawn() {
        let lines = explain(&seed_example());
        assert_eq!(
            lines[0],
            "The answer is 3: a shortest way from cell 0 to cell 29:"
        );
        assert_eq!(lines.len(), 4);
        assert!(lines[3].ends_with("(the last cell)"), "{lines:?}");
        let text = draw(&seed_example()).unwrap();
        assert!(text.starts_with("| 0     | 1     | 2→21  |"), "{text}");
        assert_eq!(text.lines().count(), 4);
    }

    #[test]
    fn one_cell_unreachable_and_big_boards() {
        assert!(explain(&Input::new(&[-1]).unwrap())[0].contains("answer is 0"));
        let blocked = Input::from_jumps(8, &(1..=6).map(|s| (s, 0)).collect::<Vec<_>>()).unwrap();
        let lines = explain(&blocked);
        assert!(lines[0].contains("-1"), "{lines:?}");
        assert!(lines[2].contains("1 (snake to 0)"), "{lines:?}");
        let long = Input::new(&vec![-1; 5000]).unwrap();
        assert!(explain(&long).len() <= 21);
        assert!(draw(&long).is_none());
        let dense: Vec<(Cell, Cell)> = (1..99_999).map(|s| (s, 0)).collect();
        let dense = Input::from_jumps(100_000, &dense).unwrap();
        assert!(describe(&dense).len() <= 300, "{}", describe(&dense));
    }
}
