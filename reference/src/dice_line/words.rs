//! The sentences and drawing pieces both assignments use to describe and
//! explain a case; the nouns and the numbering come from the assignment's
//! [`Terms`].

use super::{FACES, Line, Search, Square, Step};

/// The words and numbering an assignment uses for the line.
pub(crate) struct Terms {
    /// The number shown for square 0 (1 for LeetCode's labels, 0 for cells);
    /// square `s` is shown as `s + first`.
    pub(crate) first: u32,
    /// What a square is called: `square`, `cell`.
    pub(crate) place: &'static str,
    /// What a move is called: `move`, `throw`.
    pub(crate) unit: &'static str,
    /// What chooses a move: `roll`, `throw`.
    pub(crate) roll: &'static str,
}

/// Descriptions stop listing jumps after about this many characters.
const DESCRIBE_BUDGET: usize = 240;
/// A path longer than this many moves is shown as its start and its end.
const EXPLAIN_MOVES: usize = 18;

/// `ladder`, `snake`, or, for a jump to its own square (valid in LeetCode
/// 909, where it does nothing), `a jump back to itself`.
fn jump_word(source: u32, destination: u32) -> &'static str {
    match destination.cmp(&source) {
        std::cmp::Ordering::Greater => "ladder",
        std::cmp::Ordering::Less => "snake",
        std::cmp::Ordering::Equal => "a jump back to itself",
    }
}

/// `head` followed by the jumps as `source->destination` in the
/// assignment's numbering, cut short with a count of the rest (so any board
/// stays under ~300 characters).
pub(crate) fn describe(head: String, jumps: &[(u32, u32)]) -> String {
    let mut out = head;
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

/// A shortest path in words, or why the last square cannot be reached; at
/// most about 20 lines.
pub(crate) fn explain(line: &Line, terms: &Terms) -> Vec<String> {
    let search = Search::run(line);
    match search.path_to(line.last()) {
        Some(path) => path_lines(line, terms, &path),
        None => unreachable_lines(line, terms, &search),
    }
}

fn path_lines(line: &Line, terms: &Terms, path: &[Step]) -> Vec<String> {
    let Terms {
        first, place, unit, ..
    } = *terms;
    let last = line.last() + first;
    let mut lines = vec![format!(
        "The answer is {}: a shortest way from {place} {first} to {place} {last}:",
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
            lines.push(format!("... ({} {unit}s not shown)", i - shown[j - 1] - 1));
        }
        let step = path[i].renumber(|s| s + first);
        let mut text = format!("{unit} {}: {} -> {}", i + 1, step.from, step.landed);
        if step.to != step.landed {
            text.push_str(&format!(
                ", {} to {}",
                jump_word(step.landed, step.to),
                step.to
            ));
        }
        if step.to == last {
            text.push_str(&format!(" (the last {place})"));
        }
        lines.push(text);
    }
    lines
}

fn unreachable_lines(line: &Line, terms: &Terms, search: &Search) -> Vec<String> {
    let Terms {
        first,
        place,
        unit,
        roll,
    } = *terms;
    let reached: Vec<Square> = search.reached().collect();
    let furthest = reached.iter().copied().max().unwrap_or(0);
    let landings: Vec<String> = (furthest + 1..=(furthest + FACES).min(line.last()))
        .map(|s| match line.jump(s) {
            Some(d) => format!("{} ({} to {})", s + first, jump_word(s, d), d + first),
            None => (s + first).to_string(),
        })
        .collect();
    let furthest = furthest + first;
    vec![
        format!(
            "The answer is -1: {place} {} cannot be reached.",
            line.last() + first
        ),
        format!(
            "Only {} {place}(s) can ever be stood on; the furthest is {furthest}.",
            reached.len()
        ),
        format!(
            "From {furthest} a {roll} lands on {}: each leads back to a {place} already reachable, so no {unit} gets past {furthest}.",
            landings.join(", ")
        ),
    ]
}

/// A square drawn: its number and, if it has one, where its jump leads
/// (`2→21`).
pub(crate) fn cell_text(number: u32, jump: Option<u32>) -> String {
    match jump {
        Some(d) => format!("{number}→{d}"),
        None => number.to_string(),
    }
}

/// One row of a drawing, each cell padded to `width` characters:
/// `| a | b |` and a newline.
pub(crate) fn draw_row(out: &mut String, cells: &[String], width: usize) {
    out.push('|');
    for cell in cells {
        let pad = width - cell.chars().count();
        out.push_str(&format!(" {cell}{} |", " ".repeat(pad)));
    }
    out.push('\n');
}
