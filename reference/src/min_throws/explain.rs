//! Words and pictures for a minimum-throws case: a one-line description, a
//! shortest sequence of throws (or why the last cell cannot be reached) in a
//! few lines, and small boards drawn as a strip of cells.

use super::input::{Cell, Input};
use super::solve::{Search, Step};

/// Boards up to this many cells are drawn.
pub const DRAW_MAX_CELLS: usize = 60;
/// Cells per line of the drawing.
const DRAW_PER_LINE: usize = 10;
/// Descriptions stop listing jumps after about this many characters.
const DESCRIBE_BUDGET: usize = 240;
/// A path longer than this many throws is shown as its start and its end.
const EXPLAIN_THROWS: usize = 18;

fn jump_word(source: Cell, destination: Cell) -> &'static str {
    if destination > source {
        "ladder"
    } else {
        "snake"
    }
}

/// One line: the number of cells and the jumps as `source->destination`,
/// cut short with a count of the rest (under ~300 characters for any board).
pub fn describe(input: &Input) -> String {
    let jumps = input.jumps();
    let mut out = format!("{} cell(s), ", input.len());
    if jumps.is_empty() {
        out.push_str("no snakes or ladders");
        return out;
    }
    out.push_str(&format!("{} snake(s) or ladder(s): ", jumps.len()));
    for (i, (s, d)) in jumps.iter().enumerate() {
        let item = format!("{s}->{d}");
        if out.len() + item.len() > DESCRIBE_BUDGET {
            out.push_str(&format!("... and {} more", jumps.len() - i));
            return out;
        }
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&item);
    }
    out
}

fn step_line(number: usize, step: &Step, last: Cell) -> String {
    let mut line = format!("throw {number}: {} -> {}", step.from, step.landed);
    if step.to != step.landed {
        line.push_str(&format!(
            ", {} to {}",
            jump_word(step.landed, step.to),
            step.to
        ));
    }
    if step.to == last {
        line.push_str(" (the last cell)");
    }
    line
}

/// A shortest sequence of throws in words, or why the last cell cannot be
/// reached; at most about 20 lines.
pub fn explain(input: &Input) -> Vec<String> {
    let last = input.last();
    let search = Search::run(input);
    let Some(path) = search.path_to(last) else {
        return unreachable_reason(input, &search);
    };
    if path.is_empty() {
        return vec![
            "The answer is 0: the board has one cell, so the player starts on the last cell."
                .to_owned(),
        ];
    }
    let mut lines = vec![format!(
        "The answer is {}: a shortest way from cell 0 to cell {last}:",
        path.len()
    )];
    let shown: Vec<usize> = if path.len() <= EXPLAIN_THROWS {
        (0..path.len()).collect()
    } else {
        let half = EXPLAIN_THROWS / 2;
        (0..half).chain(path.len() - half..path.len()).collect()
    };
    for (j, &i) in shown.iter().enumerate() {
        if j > 0 && shown[j - 1] + 1 != i {
            lines.push(format!("... ({} throws not shown)", i - shown[j - 1] - 1));
        }
        lines.push(step_line(i + 1, &path[i], last));
    }
    lines
}

fn unreachable_reason(input: &Input, search: &Search) -> Vec<String> {
    let last = input.last();
    let reached: Vec<Cell> = search.reached().collect();
    let furthest = reached.iter().copied().max().unwrap_or(0);
    let landings: Vec<String> = (furthest + 1..=(furthest + 6).min(last))
        .map(|c| match input.jump(c) {
            Some(d) => format!("{c} ({} to {d})", jump_word(c, d)),
            None => c.to_string(),
        })
        .collect();
    vec![
        format!("The answer is -1: cell {last} cannot be reached."),
        format!(
            "Only {} cell(s) can ever be stood on; the furthest is {furthest}.",
            reached.len()
        ),
        format!(
            "From {furthest} a throw lands on {}: each leads back to a cell already reachable, so no throw gets past {furthest}.",
            landings.join(", ")
        ),
    ]
}

/// The board as a strip of cells, ten to a line, each showing its index and,
/// if it has one, where its snake or ladder leads (`2→21`). `None` above
/// [`DRAW_MAX_CELLS`] cells.
pub fn draw(input: &Input) -> Option<String> {
    if input.len() > DRAW_MAX_CELLS {
        return None;
    }
    let cells: Vec<String> = (0..input.len() as Cell)
        .map(|c| match input.jump(c) {
            Some(d) => format!("{c}→{d}"),
            None => c.to_string(),
        })
        .collect();
    let width = cells.iter().map(|c| c.chars().count()).max().unwrap_or(1);
    let mut out = String::new();
    for line in cells.chunks(DRAW_PER_LINE) {
        out.push('|');
        for cell in line {
            let pad = width - cell.chars().count();
            out.push_str(&format!(" {cell}{} |", " ".repeat(pad)));
        }
        out.push('\n');
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
