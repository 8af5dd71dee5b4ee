//! Words and pictures for a scenario: a one-line description, the game as
//! the reference plays it turn by turn (about 20 lines at most), and the
//! board drawn as a grid with its snakes and ladders.

use super::compare::state_words;
use super::expected::{Run, run};
use super::scenario::Scenario;

/// Boards up to this size are drawn (ten rows of ten).
pub const DRAW_MAX_SIZE: i64 = 100;
/// Descriptions stop listing after about this many characters.
const DESCRIBE_BUDGET: usize = 240;
/// Explanations longer than this are shown as their start and their end.
const EXPLAIN_LINES: usize = 20;
/// Houses per row in a drawing.
const ROW: i64 = 10;

/// Appends `items` to `out` separated by ", " while it fits the budget,
/// then says how many were left out.
fn push_list(out: &mut String, items: impl ExactSizeIterator<Item = String>) {
    let total = items.len();
    for (i, item) in items.enumerate() {
        if out.len() + item.len() > DESCRIBE_BUDGET {
            out.push_str(&format!("... and {} more", total - i));
            return;
        }
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&item);
    }
}

/// One line, at most about 300 characters: the board, the players, the
/// finish and the calls.
pub fn describe(s: &Scenario) -> String {
    let mut out = format!(
        "size {}, {} player(s), finish {:?}, ",
        s.size(),
        s.players(),
        s.finish()
    );
    if s.jumps().is_empty() {
        out.push_str("no jumps");
    } else {
        out.push_str(&format!("{} jump(s) ", s.jumps().len()));
        let budget = out.len() + 80;
        let mut jumps = String::new();
        for (i, (a, b)) in s.jumps().iter().enumerate() {
            if out.len() + jumps.len() > budget {
                jumps.push_str(&format!(", ... {} more", s.jumps().len() - i));
                break;
            }
            if i > 0 {
                jumps.push_str(", ");
            }
            jumps.push_str(&format!("{a}->{b}"));
        }
        out.push_str(&format!("({jumps})"));
    }
    if s.calls().is_empty() {
        out.push_str("; no calls");
        return out;
    }
    out.push_str(&format!("; {} call(s): ", s.calls().len()));
    push_list(&mut out, s.calls().iter().map(ToString::to_string));
    out
}

fn lines_of(s: &Scenario, reference: &Run) -> Vec<String> {
    let construction = s.construction_text();
    let game = match &reference.game {
        Ok(g) => g,
        Err(e) => return vec![format!("{construction} raises ValueError: {e}")],
    };
    let (size, finish) = (game.size(), game.finish());
    let mut lines = vec![format!(
        "{construction}: {}",
        state_words(&super::expected::State {
            positions: game.positions().to_vec(),
            winner: 0,
        })
    )];
    for step in &reference.steps {
        match &step.result {
            Err(e) => lines.push(format!("{} raises ValueError: {e}", step.call)),
            Ok(v) if step.turns.len() == 1 && matches!(step.call, super::Call::Move { .. }) => {
                lines.push(format!(
                    "{} returns {v}: {}",
                    step.call,
                    step.turns[0].words(size, finish)
                ));
            }
            Ok(v) if step.turns.is_empty() => {
                lines.push(format!("{} returns {v}", step.call));
            }
            Ok(v) => {
                lines.push(format!(
                    "{} returns {v} after {} turn(s):",
                    step.call,
                    step.turns.len()
                ));
                lines.extend(
                    step.turns
                        .iter()
                        .map(|t| format!("  {}", t.words(size, finish))),
                );
            }
        }
    }
    if let Some(last) = reference.steps.last() {
        lines.push(format!("In the end: {}.", state_words(&last.after)));
    }
    lines
}

/// The game as the reference plays it, turn by turn: at most about 20
/// lines (a long game is shown as its start and its end).
pub fn explain(s: &Scenario) -> Vec<String> {
    let lines = lines_of(s, &run(s));
    if lines.len() <= EXPLAIN_LINES {
        return lines;
    }
    let half = EXPLAIN_LINES / 2;
    let hidden = lines.len() - 2 * half;
    let mut out = lines[..half].to_vec();
    out.push(format!("... ({hidden} lines not shown)"));
    out.extend_from_slice(&lines[lines.len() - half..]);
    out
}

/// The board as rows of ten houses, the last row on top, each row running
/// the other way from the one below (as printed boards do); a house with a
/// snake or ladder shows where it leads (`54→88`). `None` for an invalid
/// construction or a board above [`DRAW_MAX_SIZE`].
pub fn draw(s: &Scenario) -> Option<String> {
    let game = s.game().ok()?;
    let size = i64::from(game.size());
    if size > DRAW_MAX_SIZE {
        return None;
    }
    let cell = |h: i64| match game.jump(h as u32) {
        Some(d) => format!("{h}→{d}"),
        None => h.to_string(),
    };
    let width = (1..=size)
        .map(|h| cell(h).chars().count())
        .max()
        .unwrap_or(1);
    let rows = (size + ROW - 1) / ROW;
    let mut out = String::new();
    for r in (0..rows).rev() {
        let first = r * ROW + 1;
        let last = ((r + 1) * ROW).min(size);
        let mut houses: Vec<i64> = (first..=last).collect();
        if r % 2 == 1 {
            houses.reverse();
        }
        let mut line = String::from("|");
        let pad_cells = ROW - houses.len() as i64;
        if r % 2 == 1 {
            for _ in 0..pad_cells {
                line.push_str(&format!(" {} |", " ".repeat(width)));
            }
        }
        for h in houses {
            let text = cell(h);
            let pad = width - text.chars().count();
            line.push_str(&format!(" {text}{} |", " ".repeat(pad)));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str(&format!(
        "House 1 is bottom left, house {size} is home; a→b: landing on a moves you to b ({}).\n",
        game.finish().name()
    ));
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Call, SEED_JUMPS, generate, parse};

    fn seed(calls: Vec<Call>) -> Scenario {
        Scenario::new(100, SEED_JUMPS.to_vec(), 2, "bounce".into(), calls).unwrap()
    }

    #[test]
    fn turn_by_turn() {
        let s = seed(vec![
            Call::Move { player: 2, roll: 7 },
            Call::Play {
                rolls: vec![6, 2],
                max_rounds: None,
            },
            Call::Position { player: 1 },
        ]);
        let lines = explain(&s);
        assert_eq!(
            lines,
            vec![
                "Game(100, {...22 jumps}, 2, \"bounce\"): players on 1, 1; no winner",
                "move(2, 7) raises ValueError: a roll is 1..6, not 7",
                "play([6, 2]) returns 0 after 2 turn(s):",
                "  player 1: 1 + 6 = 7",
                "  player 2: 1 + 2 = 3",
                "position(1) returns 7",
                "In the end: players on 7, 3; no winner.",
            ]
        );
        let bad = Scenario::new(6, vec![], 2, "bounce".into(), vec![]).unwrap();
        assert_eq!(
            explain(&bad),
            vec!["Game(6, {}, 2, \"bounce\") raises ValueError: size 6 < 7"]
        );
    }

    #[test]
    fn everything_stays_short() {
        for case in generate(3, 20) {
            let s = parse(&case.input).unwrap();
            assert!(explain(&s).len() <= EXPLAIN_LINES + 1, "{}", case.id);
            assert!(describe(&s).len() <= 340, "{}: {}", case.id, describe(&s));
            assert_eq!(draw(&s).is_some(), s.game().is_ok() && s.size() <= 100);
        }
    }

    #[test]
    fn the_seed_board_drawn() {
        let text = draw(&seed(vec![])).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 11);
        assert!(lines[0].starts_with("| 100   | 99    | 98→13 |"), "{text}");
        assert!(lines[9].starts_with("| 1     | 2     | 3     |"), "{text}");
        assert!(lines[9].contains("| 8→26  |"), "{text}");
        let small = Scenario::new(7, vec![(2, 7)], 1, "reach".into(), vec![]).unwrap();
        let text = draw(&small).unwrap();
        assert!(text.starts_with("| 1   | 2→7 | 3   |"), "{text}");
    }
}
