//! A counted `while` loop whose counter is stepped at the top or in the
//! middle of its body, as the `while` of a `for` steps it at the end:
//!
//! - when nothing after the step reads the counter (`j = die; die += 1;
//!   ...j...`, or `nb = u + k; k += 1; ...`), the step is moved to the end:
//!   the loop does what it did;
//! - when the statements after the step read the counter and those before
//!   it do not (`k = 0; while k < 6: k += 1; x = c + k`), the loop is
//!   shifted: the counter starts one step on, the bound moves with it
//!   (`<` becomes `<=`), and the step goes to the end (`k = 1; while k <=
//!   6: x = c + k; k += 1`, the `for k in range(1, 7)` it came from);
//! - otherwise the reads after the step are of `counter + step`, and the
//!   step goes to the end.
//!
//! A `continue` skips a moved step, as it skips a `for`'s step in the
//! `while` form of every `for` (`ranges.rs`, `tree/cpp.rs`): the forms
//! meet, which is what fingerprints need.

use super::h;
use crate::similar::tree::{Kind, Node};

/// Rewrites every counted loop of `n` whose step is not its last
/// statement.
pub(super) fn step_at_end(n: &mut Node) {
    for c in &mut n.children {
        step_at_end(c);
    }
    if !matches!(n.kind, Kind::Module | Kind::Block) {
        return;
    }
    for idx in 0..n.children.len() {
        if n.children[idx].kind == Kind::While && n.children[idx].children.len() == 2 {
            rewrite_loop(&mut n.children, idx);
        }
    }
}

/// The counter a statement steps: `i += e` or `i -= e` where `e` does not
/// read `i`.
fn stepped(stmt: &Node) -> Option<u64> {
    if stmt.kind != Kind::AugAssign || stmt.children.len() != 2 {
        return None;
    }
    if stmt.label != h("+") && stmt.label != h("-") {
        return None;
    }
    let (target, by) = (&stmt.children[0], &stmt.children[1]);
    (target.kind == Kind::Name && !mentions(by, target.label)).then_some(target.label)
}

/// Whether `n` names `x` anywhere.
pub(super) fn mentions(n: &Node, x: u64) -> bool {
    let mut found = false;
    n.visit(&mut |m| {
        if matches!(m.kind, Kind::Name | Kind::Attr) && m.label == x {
            found = true;
        }
    });
    found
}

/// How many statements within `n` assign `x` (`x = `, `x += `, a
/// declaration of `x`).
fn assignments_of(n: &Node, x: u64) -> usize {
    let mut count = 0;
    n.visit(&mut |m| {
        let target = match m.kind {
            Kind::Assign | Kind::AugAssign => m.children.first(),
            Kind::Decl => m.children.get(1),
            _ => None,
        };
        if target.is_some_and(|t| t.kind == Kind::Name && t.label == x) {
            count += 1;
        }
    });
    count
}

fn rewrite_loop(block: &mut [Node], idx: usize) {
    let (before, rest) = block.split_at_mut(idx);
    let lp = &mut rest[0];
    let test_names = {
        let mut names = Vec::new();
        lp.children[0].visit(&mut |m| {
            if m.kind == Kind::Name {
                names.push(m.label);
            }
        });
        names
    };
    let body = &lp.children[1];
    let last = body.children.len().saturating_sub(1);
    let Some((p, i)) = body.children[..last].iter().enumerate().find_map(|(p, s)| {
        stepped(s)
            .filter(|i| test_names.contains(i) && assignments_of(body, *i) == 1)
            .map(|i| (p, i))
    }) else {
        return;
    };
    let read_after = body.children[p + 1..].iter().any(|s| mentions(s, i));
    let read_before = body.children[..p].iter().any(|s| mentions(s, i));
    let unit = {
        let s = &body.children[p];
        s.label == h("+") && s.children[1].kind == Kind::Num && s.children[1].label == h("1")
    };
    if read_after && !read_before && unit && shift(before, &mut lp.children[0], i) {
        // The loop starts one step on; the reads after the step are as
        // they were.
    } else if read_after {
        let body = &mut lp.children[1];
        let step = body.children[p].clone();
        for s in &mut body.children[p + 1..] {
            stepped_reads(s, &step, i);
        }
    }
    let body = &mut lp.children[1];
    let step = body.children.remove(p);
    body.children.push(step);
}

/// Every read of `i` in `n` as `i + e` (or `i - e`), `step` being `i += e`.
fn stepped_reads(n: &mut Node, step: &Node, i: u64) {
    if n.kind == Kind::Name && n.label == i {
        let by = step.children[1].clone();
        let (s, e) = (n.start, n.end);
        *n = Node::new(Kind::BinOp, step.label, vec![n.clone(), by], s, e);
        return;
    }
    for c in &mut n.children {
        stepped_reads(c, step, i);
    }
}

/// Starts the loop of counter `i` one step on: its initial assignment
/// (the last statement of `before` that assigns `i`, with nothing after it
/// naming `i`) is one more, its test `i < b` is `i <= b` (`i <= b` is
/// `i <= b + 1`). Whether it could; only steps of one up are shifted.
fn shift(before: &mut [Node], test: &mut Node, i: u64) -> bool {
    let Some(k) = before
        .iter()
        .rposition(|s| super::dead::assigned_name(s) == Some(i))
    else {
        return false;
    };
    if before[k + 1..].iter().any(|s| mentions(s, i)) {
        return false;
    }
    let init = &before[k];
    let value_at = match init.kind {
        Kind::Assign if init.children.len() == 2 => 1,
        Kind::Decl if init.children.len() == 3 => 2,
        _ => return false,
    };
    if test.kind != Kind::Cmp
        || test.children.len() != 2
        || !(test.children[0].kind == Kind::Name && test.children[0].label == i)
    {
        return false;
    }
    if test.label == h("<") {
        test.label = h("<=");
    } else if test.label == h("<=") {
        let b = test.children[1].clone();
        test.children[1] = plus_one(b);
    } else {
        return false;
    }
    let v = before[k].children[value_at].clone();
    before[k].children[value_at] = plus_one(v);
    true
}

/// `v + 1`, folded when `v` is a small literal.
fn plus_one(v: Node) -> Node {
    if v.kind == Kind::Num
        && let Some(n) = (0..64u32).find(|n| v.label == h(&n.to_string()))
    {
        return Node::new(Kind::Num, h(&(n + 1).to_string()), vec![], v.start, v.end);
    }
    let (s, e) = (v.start, v.end);
    let one = Node::new(Kind::Num, h("1"), vec![], e, e);
    Node::new(Kind::BinOp, h("+"), vec![v, one], s, e)
}
