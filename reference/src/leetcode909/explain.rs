//! Words and pictures for a LeetCode 909 case: a one-line description, a
//! shortest path (or why n² cannot be reached) in a few lines, and the board
//! drawn as students see it.

use super::input::{Input, Label, cell_of};
use super::solve::{Search, Step};

/// Boards up to this side are drawn; a 10 x 10 board is 100 cells, about as
/// much as a terminal shows at once.
pub const DRAW_MAX_N: usize = 10;
/// Descriptions stop listing jumps after about this many characters.
const DESCRIBE_BUDGET: usize = 240;
/// A path longer than this many moves is shown as its start and its end.
const EXPLAIN_MOVES: usize = 18;

fn jump_word(source: Label, destination: Label) -> &'static str {
    match destination.cmp(&source) {
        std::cmp::Ordering::Greater => "ladder",
        std::cmp::Ordering::Less => "snake",
        std::cmp::Ordering::Equal => "a jump back to itself",
    }
}

/// One line: the side, and the jumps as `source->destination` (cut short
/// with a count of the rest, so even a full 20 x 20 board stays under ~300
/// characters).
pub fn describe(input: &Input) -> String {
    let n = input.n();
    let jumps = input.jumps();
    let mut out = format!("n = {n} ({} squares), ", n * n);
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

fn step_line(number: usize, step: &Step, last: Label) -> String {
    let mut line = format!("move {number}: {} -> {}", step.from, step.landed);
    if step.to != step.landed {
        line.push_str(&format!(
            ", {} to {}",
            jump_word(step.landed, step.to),
            step.to
        ));
    }
    if step.to == last {
        line.push_str(" (the last square)");
    }
    line
}

/// A shortest path in words, or why n² cannot be reached; at most about 20
/// lines.
pub fn explain(input: &Input) -> Vec<String> {
    let last = input.last();
    let search = Search::run(input);
    match search.path_to(last) {
        Some(path) => {
            let mut lines = vec![format!(
                "The answer is {}: a shortest way from square 1 to square {last}:",
                path.len()
            )];
            let shown: Vec<usize> = if path.len() <= EXPLAIN_MOVES {
                (0..path.len()).collect()
            } else {
                let half = EXPLAIN_MOVES / 2;
                (0..half).chain(path.len() - half..path.len()).collect()
            };
            for (j, &i) in shown.iter().enumerate() {
                if j > 0 && shown[j - 1] + 1 != i {
                    lines.push(format!("... ({} moves not shown)", i - shown[j - 1] - 1));
                }
                lines.push(step_line(i + 1, &path[i], last));
            }
            lines
        }
        None => unreachable_reason(input, &search),
    }
}

fn unreachable_reason(input: &Input, search: &Search) -> Vec<String> {
    let last = input.last();
    let reached: Vec<Label> = search.reached().collect();
    let furthest = reached.iter().copied().max().unwrap_or(1);
    let mut lines = vec![
        format!("The answer is -1: square {last} cannot be reached."),
        format!(
            "Only {} square(s) can ever be stood on; the furthest is {furthest}.",
            reached.len()
        ),
    ];
    let landings: Vec<String> = (furthest + 1..=(furthest + 6).min(last))
        .map(|l| match input.jump(l) {
            Some(d) => format!("{l} ({} to {d})", jump_word(l, d)),
            None => l.to_string(),
        })
        .collect();
    lines.push(format!(
        "From {furthest} a roll lands on {}: each leads back to a square already reachable, so no move gets past {furthest}.",
        landings.join(", ")
    ));
    lines
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
        grid[row][col] = match input.jump(label) {
            Some(d) => format!("{label}→{d}"),
            None => label.to_string(),
        };
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
        out.push('|');
        for cell in row {
            let pad = width - cell.chars().count();
            out.push_str(&format!(" {cell}{} |", " ".repeat(pad)));
        }
        out.push('\n');
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
