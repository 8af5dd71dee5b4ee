//! A line of squares walked with a six-sided die: the problem LeetCode 909
//! ([`crate::leetcode909`]) and minimum throws ([`crate::min_throws`]) both
//! pose, solved and put into words once.
//!
//! # The line (exactly as both assignments grade it)
//!
//! * The squares are `0..len`, `len >= 1`. The player starts on square 0
//!   and finishes on square `len - 1`.
//! * A move chooses a face `k` in `1..=6` and lands on `v + k`, but only if
//!   `v + k <= len - 1`: no move goes past the end, and there is no bounce.
//! * Landing on a square with a jump (a snake or a ladder) takes it, and the
//!   move ends on its destination. One hop only: a jump from the
//!   destination is not followed in the same move.
//! * The answer is the least number of moves that ends on `len - 1`, or
//!   none.
//!
//! Each assignment keeps its own input type, validation, numbering and
//! wording, and converts: LeetCode 909's square labelled `l` is square
//! `l - 1` here (its boustrophedon grid is its own business), and a
//! minimum-throws cell is the square of the same number. What the two also
//! share lives here: the validation-problem collector and the sentences of
//! an explanation, with the nouns ([`Terms`]) left to the assignment.
//!
//! This module is pure: no files, no processes, no clock.

use std::collections::VecDeque;
use std::fmt;

/// A square on the line, `0..len`.
pub type Square = u32;

/// The die's faces are `1..=FACES`.
const FACES: Square = 6;

/// A line of squares with one-hop jumps.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Line {
    /// `jumps[s]` is the destination of the jump on square `s`, if any.
    jumps: Vec<Option<Square>>,
}

impl Line {
    /// The line with these jumps, one entry per square. The assignment has
    /// validated them: at least one square, every destination on the line.
    pub(crate) fn new(jumps: Vec<Option<Square>>) -> Line {
        debug_assert!(!jumps.is_empty());
        debug_assert!(jumps.iter().flatten().all(|&d| (d as usize) < jumps.len()));
        Line { jumps }
    }

    /// The number of squares.
    pub(crate) fn len(&self) -> usize {
        self.jumps.len()
    }

    /// The last square, `len - 1`.
    pub(crate) fn last(&self) -> Square {
        (self.jumps.len() - 1) as Square
    }

    /// The destination of the jump on `square`, if any.
    pub(crate) fn jump(&self, square: Square) -> Option<Square> {
        self.jumps.get(square as usize).copied().flatten()
    }

    /// Where landing on `square` leaves the player. One hop, never more.
    pub(crate) fn settle(&self, square: Square) -> Square {
        self.jump(square).unwrap_or(square)
    }

    /// Every `(source, destination)`, by source.
    pub(crate) fn jumps(&self) -> Vec<(Square, Square)> {
        self.jumps
            .iter()
            .enumerate()
            .filter_map(|(s, d)| d.map(|d| (s as Square, d)))
            .collect()
    }
}

/// How the player first came to stand on a square: from which square, and
/// which square the move landed on before any jump. An assignment hands
/// these out in its own numbering (see [`Step::renumber`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    pub from: u32,
    pub landed: u32,
    pub to: u32,
}

impl Step {
    /// The same step with every square numbered by `number`.
    pub(crate) fn renumber(self, number: impl Fn(u32) -> u32) -> Step {
        Step {
            from: number(self.from),
            landed: number(self.landed),
            to: number(self.to),
        }
    }
}

/// Breadth-first search over the squares a player can stand on.
///
/// A player *stands on* a square after each move; the squares *landed on*
/// (before a jump is taken) are never positions. From `v` there is an edge
/// to `settle(v + k)` for each face `k` that stays on the line, and every
/// edge costs one move, so BFS from square 0 gives the least number of
/// moves. O(len) time and space: each square is enqueued at most once (when
/// first stood on) and has at most six edges, so a 100,000-square line is
/// about 600,000 steps.
pub(crate) struct Search {
    /// Indexed by square: its distance and the step that first reached it;
    /// `None` when never stood on.
    reached: Vec<Option<(u32, Option<Step>)>>,
}

impl Search {
    pub(crate) fn run(line: &Line) -> Search {
        let last = line.last();
        let mut reached: Vec<Option<(u32, Option<Step>)>> = vec![None; line.len()];
        reached[0] = Some((0, None));
        let mut queue = VecDeque::from([0 as Square]);
        while let Some(from) = queue.pop_front() {
            if from == last {
                break;
            }
            let d = reached[from as usize].map_or(0, |(d, _)| d);
            for landed in from + 1..=(from + FACES).min(last) {
                let to = line.settle(landed);
                if reached[to as usize].is_none() {
                    reached[to as usize] = Some((d + 1, Some(Step { from, landed, to })));
                    queue.push_back(to);
                }
            }
        }
        Search { reached }
    }

    /// The least number of moves to stand on `square`, if it can be reached.
    pub(crate) fn distance(&self, square: Square) -> Option<u32> {
        self.reached
            .get(square as usize)
            .copied()
            .flatten()
            .map(|(d, _)| d)
    }

    /// The squares that can be stood on (those found before the search
    /// stopped; all of them when the last square is unreachable).
    pub(crate) fn reached(&self) -> impl Iterator<Item = Square> + '_ {
        self.reached
            .iter()
            .enumerate()
            .filter(|(_, r)| r.is_some())
            .map(|(s, _)| s as Square)
    }

    /// A shortest sequence of moves to `square`, first move first.
    pub(crate) fn path_to(&self, square: Square) -> Option<Vec<Step>> {
        let mut steps = Vec::new();
        let mut at = square;
        while let (_, Some(step)) = self.reached.get(at as usize).copied().flatten()? {
            steps.push(step);
            at = step.from;
        }
        steps.reverse();
        Some(steps)
    }
}

/// The least number of moves from the first square to the last, or `None`.
pub(crate) fn moves(line: &Line) -> Option<u32> {
    Search::run(line).distance(line.last())
}

/// The graded answer: the least number of moves, or -1.
pub(crate) fn answer(line: &Line) -> i64 {
    moves(line).map_or(-1, i64::from)
}

/// A shortest sequence of moves, or `None` when the last square cannot be
/// reached.
pub(crate) fn shortest_path(line: &Line) -> Option<Vec<Step>> {
    Search::run(line).path_to(line.last())
}

/// The answer by brute force, for tests to check [`Search`] against:
/// Bellman-Ford style, relax every move from every square until nothing
/// changes. `settle` maps a square landed on to the square stood on, so
/// each assignment can read its raw input its own way.
#[cfg(test)]
pub(crate) fn relaxation(len: usize, settle: impl Fn(usize) -> usize) -> i64 {
    let last = len - 1;
    let mut dist = vec![u64::MAX; len];
    dist[0] = 0;
    let mut changed = true;
    while changed {
        changed = false;
        for from in 0..len {
            if dist[from] == u64::MAX {
                continue;
            }
            for landed in from + 1..=(from + FACES as usize).min(last) {
                let to = settle(landed);
                if dist[from] + 1 < dist[to] {
                    dist[to] = dist[from] + 1;
                    changed = true;
                }
            }
        }
    }
    if dist[last] == u64::MAX {
        -1
    } else {
        dist[last] as i64
    }
}

/// Validation stops listing problems after this many (a huge board of
/// garbage should give a readable message, not a megabyte).
pub const MAX_PROBLEMS: usize = 20;

/// Collects an assignment's validation problems, listing the first
/// [`MAX_PROBLEMS`] and counting the rest.
pub(crate) struct Problems<P> {
    listed: Vec<P>,
    unlisted: usize,
}

impl<P> Problems<P> {
    pub(crate) fn new() -> Problems<P> {
        Problems {
            listed: Vec::new(),
            unlisted: 0,
        }
    }

    pub(crate) fn push(&mut self, problem: P) {
        if self.listed.len() < MAX_PROBLEMS {
            self.listed.push(problem);
        } else {
            self.unlisted += 1;
        }
    }

    /// `Ok` when nothing was pushed; otherwise every listed problem, then
    /// `more(count)` for the unlisted ones if there are any.
    pub(crate) fn finish(mut self, more: impl FnOnce(usize) -> P) -> Result<(), Vec<P>> {
        if self.unlisted > 0 {
            self.listed.push(more(self.unlisted));
        }
        if self.listed.is_empty() {
            Ok(())
        } else {
            Err(self.listed)
        }
    }
}

/// The problems in one line, separated by `; `.
pub(crate) fn join_problems<P: fmt::Display>(problems: &[P]) -> String {
    problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A random line of 1..=max_len squares, up to half of them jumps to
    /// anywhere (self-jumps and chains included).
    fn arb_line(max_len: usize) -> impl Strategy<Value = Line> {
        (1usize..=max_len, 0u32..=100).prop_flat_map(|(len, density)| {
            proptest::collection::vec((0u32..100, 0..len as Square), len..=len).prop_map(
                move |draws| {
                    let last = len - 1;
                    Line::new(
                        draws
                            .into_iter()
                            .enumerate()
                            .map(|(s, (p, d))| (p < density / 2 && s > 0 && s < last).then_some(d))
                            .collect(),
                    )
                },
            )
        })
    }

    #[test]
    fn problems_are_capped_and_counted() {
        let mut problems = Problems::new();
        assert_eq!(Problems::<usize>::new().finish(|_| 0), Ok(()));
        for p in 0..MAX_PROBLEMS + 5 {
            problems.push(p);
        }
        let listed = problems.finish(|more| 1000 + more).unwrap_err();
        assert_eq!(listed.len(), MAX_PROBLEMS + 1);
        assert_eq!(listed.last(), Some(&1005));
        assert_eq!(join_problems(&listed[..3]), "0; 1; 2");
    }

    #[test]
    fn one_square_is_already_the_end() {
        let line = Line::new(vec![None]);
        assert_eq!(answer(&line), 0);
        assert_eq!(shortest_path(&line), Some(vec![]));
    }

    proptest! {
        #[test]
        fn bfs_matches_relaxation(line in arb_line(120)) {
            prop_assert_eq!(answer(&line), relaxation(line.len(), |s| line.settle(s as Square) as usize));
        }

        #[test]
        fn the_path_is_legal_and_as_long_as_the_answer(line in arb_line(60)) {
            match shortest_path(&line) {
                None => prop_assert_eq!(answer(&line), -1),
                Some(path) => {
                    prop_assert_eq!(path.len() as i64, answer(&line));
                    let mut at = 0;
                    for step in &path {
                        prop_assert_eq!(step.from, at);
                        prop_assert!(step.landed > at && step.landed <= at + FACES);
                        prop_assert_eq!(step.to, line.settle(step.landed));
                        at = step.to;
                    }
                    prop_assert_eq!(at, line.last());
                }
            }
        }
    }
}
