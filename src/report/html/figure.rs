//! The case drawn for the page: a board as inline SVG (its squares, snakes,
//! ladders and walks), or the calls of a game as a table. Every text a
//! student controls goes through [`esc`].

use std::fmt::Write as _;

use super::{Report, esc};
use crate::figure::{Board, Calls, Figure, Layout};
use crate::verdict::Verdict;

/// Boards above this many squares are described, not drawn.
const DRAW_MAX_SQUARES: u64 = 100;

/// The case drawn, by its assignment, when it can be.
/// `id` starts every id the figure defines (its arrowheads): ids are unique
/// in a page, and a board's arrows point to its own.
pub(super) fn figure(
    out: &mut String,
    id: &str,
    report: &Report,
    case: &salgrade_reference::Case,
    verdict: &Verdict,
) {
    let Ok(assignment) = crate::assignment::by_id(&report.assignment) else {
        return;
    };
    match assignment.figure(case, verdict) {
        Some(Figure::Board(b)) if b.squares <= DRAW_MAX_SQUARES && b.squares > 0 => {
            board_svg(out, id, &b)
        }
        Some(Figure::Board(b)) => {
            let _ = writeln!(
                out,
                "<p class=\"undrawn\">A board of {} squares is too large to draw (at most {DRAW_MAX_SQUARES}).</p>",
                b.squares
            );
        }
        Some(Figure::Calls(c)) => calls_table(out, &c),
        None => {}
    }
}

/// Where square `label` is drawn, and the picture's size.
struct Places {
    centres: Vec<(f64, f64)>,
    width: f64,
    height: f64,
    radius: f64,
}

impl Places {
    fn of(b: &Board) -> Places {
        let n = b.squares as usize;
        match b.layout {
            Layout::Ring => {
                let radius = 13.0;
                // One square is drawn alone at the centre: a ring through it
                // would leave the picture's lower half blank.
                let ring = if n <= 1 {
                    0.0
                } else {
                    (n as f64 * 34.0 / std::f64::consts::TAU).max(36.0)
                };
                let c = ring + 40.0;
                let centres = (0..n)
                    .map(|i| {
                        let a = std::f64::consts::TAU * i as f64 / n as f64
                            - std::f64::consts::FRAC_PI_2;
                        (c + ring * a.cos(), c + ring * a.sin())
                    })
                    .collect();
                Places {
                    centres,
                    width: 2.0 * c,
                    height: 2.0 * c,
                    radius,
                }
            }
            Layout::Boustrophedon { side } => {
                let side = side.max(1) as usize;
                let (cell, left) = (46.0, 80.0);
                let centres = (0..n)
                    .map(|i| {
                        let row = i / side;
                        let mut col = i % side;
                        if row % 2 == 1 {
                            col = side - 1 - col;
                        }
                        (
                            left + cell * col as f64 + cell / 2.0,
                            10.0 + cell * (side - 1 - row) as f64 + cell / 2.0,
                        )
                    })
                    .collect();
                Places {
                    centres,
                    width: left + cell * side as f64 + 10.0,
                    height: cell * side as f64 + 20.0,
                    radius: 15.0,
                }
            }
            Layout::Line => {
                let per_row = 10usize;
                let rows = n.div_ceil(per_row).max(1);
                // Rows far enough apart for an arc (which peaks at half its
                // bow) to pass over or under a row of squares.
                let (cell, gap) = (46.0, MAX_BOW);
                let centres = (0..n)
                    .map(|i| {
                        (
                            10.0 + cell * (i % per_row) as f64 + cell / 2.0,
                            MAX_BOW / 2.0 + 10.0 + (cell + gap) * (i / per_row) as f64 + cell / 2.0,
                        )
                    })
                    .collect();
                Places {
                    centres,
                    width: 20.0 + cell * n.min(per_row) as f64,
                    height: MAX_BOW / 2.0 + 10.0 + (cell + gap) * rows as f64,
                    radius: 15.0,
                }
            }
        }
    }

    fn at(&self, b: &Board, label: u64) -> Option<(f64, f64)> {
        let i = label.checked_sub(b.first)?;
        self.centres.get(usize::try_from(i).ok()?).copied()
    }
}

const WALK_COLOURS: [&str; 2] = ["#1971c2", "#9c36b5"];

fn board_svg(out: &mut String, id: &str, b: &Board) {
    let p = Places::of(b);
    let legend_h =
        18.0 * (b.walks.len() as f64 + 1.0) + if b.wrong_at.is_some() { 18.0 } else { 0.0 };
    // Legend lines are about 6.5 px a character.
    let widest = b
        .walks
        .iter()
        .map(|w| w.caption.len() + 40 + 5 * w.squares.len())
        .chain(b.wrong_at.iter().map(|(_, why)| why.len() + 20))
        .max()
        .unwrap_or(0)
        .max(50);
    let (w, h) = (p.width.max(widest as f64 * 6.5 + 10.0), p.height + legend_h);
    let _ = writeln!(
        out,
        "<svg class=\"board\" role=\"img\" aria-label=\"the board\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.0} {h:.0}\">\n<defs>\
         <marker id=\"{id}-up\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" orient=\"auto-start-reverse\"><path d=\"M0,0L10,5L0,10z\" fill=\"#2f9e44\"/></marker>\
         <marker id=\"{id}-down\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" orient=\"auto-start-reverse\"><path d=\"M0,0L10,5L0,10z\" fill=\"#e03131\"/></marker>\
         <marker id=\"{id}-walk0\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"5\" markerHeight=\"5\" orient=\"auto-start-reverse\"><path d=\"M0,0L10,5L0,10z\" fill=\"{}\"/></marker>\
         <marker id=\"{id}-walk1\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"5\" markerHeight=\"5\" orient=\"auto-start-reverse\"><path d=\"M0,0L10,5L0,10z\" fill=\"{}\"/></marker>\
         </defs>",
        WALK_COLOURS[0], WALK_COLOURS[1]
    );
    if let Layout::Boustrophedon { side } = b.layout {
        for row in 0..side {
            let y = 10.0 + 46.0 * (side - 1 - row) as f64 + 27.0;
            let (lo, hi) = (row * side + 1, row * side + side);
            let arrow = if row % 2 == 0 { "→" } else { "←" };
            let _ = writeln!(
                out,
                "<text x=\"4\" y=\"{y:.0}\" fill=\"#5a6474\">row {}: {lo}–{hi} {arrow}</text>",
                row + 1
            );
        }
    }
    let last = b.first + b.squares - 1;
    for label in b.first..=last {
        let Some((x, y)) = p.at(b, label) else {
            continue;
        };
        let fill = if label == last {
            "#d3f9d8"
        } else if label == b.first {
            "#e7f5ff"
        } else {
            "#fff"
        };
        let _ = writeln!(
            out,
            "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{}\" fill=\"{fill}\" stroke=\"#868e96\"/><text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{label}</text>",
            p.radius,
            y + 4.0
        );
    }
    jumps(out, id, b, &p);
    walks(out, id, b, &p);
    if let Some((square, why)) = &b.wrong_at
        && let Some((x, y)) = p.at(b, *square)
    {
        let _ = writeln!(
            out,
            "<circle class=\"wrong\" cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{}\" fill=\"none\" stroke=\"#e8590c\" stroke-width=\"3.5\"><title>{}</title></circle>",
            p.radius + 5.0,
            esc(why)
        );
    }
    legend(out, b, &p, last);
    out.push_str("</svg>\n");
}

/// The snakes and ladders, each an arrow (a loop when it jumps to its
/// own square).
fn jumps(out: &mut String, id: &str, b: &Board, p: &Places) {
    for &(from, to) in &b.jumps {
        let (Some(a), Some(z)) = (p.at(b, from), p.at(b, to)) else {
            continue;
        };
        if from == to {
            // A jump to its own square: a small loop over it.
            let r = p.radius;
            let _ = writeln!(
                out,
                "<path class=\"jump\" d=\"M{:.1},{:.1} a{:.1},{:.1} 0 1 1 {:.1},0\" fill=\"none\" stroke=\"#868e96\" stroke-width=\"2\"><title>jump {from} → {to} (to itself)</title></path>",
                a.0 - r * 0.6,
                a.1 - r * 0.8,
                r * 0.6,
                r * 0.6,
                r * 1.2
            );
            continue;
        }
        let (kind, colour) = if to > from {
            ("up", "#2f9e44")
        } else {
            ("down", "#e03131")
        };
        let _ = writeln!(
            out,
            "<path class=\"jump\" d=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" marker-end=\"url(#{id}-{kind})\"><title>{} {from} → {to}</title></path>",
            curve(a, z, p.radius, 0.25),
            if to > from { "ladder" } else { "snake" }
        );
    }
}

/// The reference's walks, dashed, each in its colour.
fn walks(out: &mut String, id: &str, b: &Board, p: &Places) {
    for (k, walk) in b.walks.iter().enumerate() {
        let colour = WALK_COLOURS[k % WALK_COLOURS.len()];
        let offset = 3.0 * k as f64;
        let mut d = String::new();
        for pair in walk.squares.windows(2) {
            let (Some(a), Some(z)) = (p.at(b, pair[0]), p.at(b, pair[1])) else {
                continue;
            };
            if a == z {
                // A move that ends where it began: a loop over the square
                // (drawn right to left, counter-clockwise, so it bulges up).
                let r = p.radius;
                d.push_str(&format!(
                    "M{:.1},{:.1} a{:.1},{:.1} 0 1 0 {:.1},0 ",
                    a.0 + r * 0.7 + offset,
                    a.1 - r * 0.7,
                    r * 0.8,
                    r * 0.8,
                    -r * 1.4
                ));
                continue;
            }
            let a = (a.0 + offset, a.1 + offset);
            let z = (z.0 + offset, z.1 + offset);
            d.push_str(&curve(a, z, p.radius, -0.35));
            d.push(' ');
        }
        if !d.is_empty() {
            let _ = writeln!(
                out,
                "<path class=\"walk\" d=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" stroke-dasharray=\"5 3\" marker-end=\"url(#{id}-walk{})\"/>",
                d.trim_end(),
                k % 2
            );
        }
    }
}

/// The legend under the board: the arrows, each walk, the wrong square.
fn legend(out: &mut String, b: &Board, p: &Places, last: u64) {
    let mut y = p.height + 12.0;
    let _ = writeln!(
        out,
        "<text x=\"4\" y=\"{y:.0}\" fill=\"#5a6474\"><tspan fill=\"#2f9e44\">━ ladder</tspan>  <tspan fill=\"#e03131\">━ snake</tspan>  squares {}–{last}, the last in green</text>",
        b.first
    );
    for (k, walk) in b.walks.iter().enumerate() {
        y += 18.0;
        let _ = writeln!(
            out,
            "<text x=\"4\" y=\"{y:.0}\" fill=\"{}\">┅ the reference's walk, {}: {}</text>",
            WALK_COLOURS[k % WALK_COLOURS.len()],
            esc(&walk.caption),
            walk.squares
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(" → ")
        );
    }
    if let Some((square, why)) = &b.wrong_at {
        y += 18.0;
        let _ = writeln!(
            out,
            "<text x=\"4\" y=\"{y:.0}\" fill=\"#e8590c\">◯ square {square}: {}</text>",
            esc(why)
        );
    }
}

/// The most an arc bows sideways, in px (a margin of the pictures).
const MAX_BOW: f64 = 48.0;

/// A curved path from circle `a` to circle `z`, leaving and arriving at
/// their edges, bowed sideways by `bow` of the distance.
fn curve(a: (f64, f64), z: (f64, f64), radius: f64, bow: f64) -> String {
    let (dx, dy) = (z.0 - a.0, z.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / len, dy / len);
    let start = (a.0 + ux * radius, a.1 + uy * radius);
    let end = (z.0 - ux * (radius + 1.0), z.1 - uy * (radius + 1.0));
    let mid = ((a.0 + z.0) / 2.0, (a.1 + z.1) / 2.0);
    // Bowed at most `MAX_BOW` px, so a long arc stays inside the picture.
    let off = (len * bow).clamp(-MAX_BOW, MAX_BOW);
    let control = (mid.0 - uy * off, mid.1 + ux * off);
    format!(
        "M{:.1},{:.1} Q{:.1},{:.1} {:.1},{:.1}",
        start.0, start.1, control.0, control.1, end.0, end.1
    )
}

fn calls_table(out: &mut String, c: &Calls) {
    let _ = writeln!(
        out,
        "<table class=\"calls\">\n<caption>the game: {}</caption>\n<thead><tr><th class=\"num\">#</th><th>call</th><th>the reference</th></tr></thead>\n<tbody>",
        esc(&c.setting)
    );
    for (i, (call, result)) in c.calls.iter().enumerate() {
        let failing = c.failing == Some(i);
        let _ = writeln!(
            out,
            "<tr{}><td class=\"num\">{}</td><td><code>{}</code></td><td>{}{}</td></tr>",
            if failing { " class=\"failing\"" } else { "" },
            i + 1,
            esc(call),
            esc(result),
            if failing { " ← goes wrong here" } else { "" }
        );
    }
    out.push_str("</tbody>\n</table>\n");
    if !c.state_before.is_empty() {
        let _ = writeln!(
            out,
            "<p>Before the failing call: {}.</p>",
            esc(&c.state_before.join("; "))
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grid_is_numbered_from_the_bottom_left_turning_round() {
        let b = Board {
            layout: Layout::Boustrophedon { side: 3 },
            squares: 9,
            first: 1,
            jumps: vec![],
            walks: vec![],
            wrong_at: None,
        };
        let p = Places::of(&b);
        let (one, three, four, seven) = (
            p.at(&b, 1).unwrap(),
            p.at(&b, 3).unwrap(),
            p.at(&b, 4).unwrap(),
            p.at(&b, 7).unwrap(),
        );
        // 1 bottom left, 3 bottom right, 4 above 3, 7 top left.
        assert!(one.0 < three.0 && one.1 == three.1);
        assert!(four.0 == three.0 && four.1 < three.1);
        assert!(seven.0 == one.0 && seven.1 < four.1);
        assert!(p.at(&b, 10).is_none() && p.at(&b, 0).is_none());
    }

    #[test]
    fn a_one_square_ring_is_no_taller_than_its_square() {
        let b = Board {
            layout: Layout::Ring,
            squares: 1,
            first: 1,
            jumps: vec![(1, 1)],
            walks: vec![],
            wrong_at: None,
        };
        let p = Places::of(&b);
        let (x, y) = p.at(&b, 1).unwrap();
        assert_eq!((x, y), (40.0, 40.0));
        assert_eq!((p.width, p.height), (80.0, 80.0));
    }
}
