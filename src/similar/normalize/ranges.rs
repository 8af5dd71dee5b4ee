//! `for i in range(a, b, s)` as its `while` form, as a C++ `for` already
//! is (see `tree/cpp.rs`).

use super::h;
use crate::similar::tree::{Kind, Node};

/// `for i in range(a, b, s): body` as `i = a; while i < b: body; i += s`
/// (a negative literal step compares with `>`, flipped as the rest are).
pub(super) fn expand_ranges(n: &mut Node) {
    for c in &mut n.children {
        expand_ranges(c);
    }
    literal_run_as_range(n);
    if !matches!(n.kind, Kind::Module | Kind::Block) {
        return;
    }
    if !n.children.iter().any(is_range_loop) {
        return;
    }
    let old = std::mem::take(&mut n.children);
    for c in old {
        if is_range_loop(&c) {
            n.children.extend(range_as_while(c));
        } else {
            n.children.push(c);
        }
    }
}

fn is_range_loop(n: &Node) -> bool {
    n.kind == Kind::ForEach
        && n.children.len() == 3
        && n.children[0].kind == Kind::Name
        && n.children[1].kind == Kind::Call
        && n.children[1]
            .children
            .first()
            .is_some_and(|c| c.kind == Kind::Name && c.label == h("range"))
        && (2..=4).contains(&n.children[1].children.len())
}

fn range_as_while(mut f: Node) -> Vec<Node> {
    let (s, e) = (f.start, f.end);
    let mut body = f
        .children
        .pop()
        .unwrap_or_else(|| Node::new(Kind::Block, 0, vec![], s, e));
    let call = f
        .children
        .pop()
        .unwrap_or_else(|| Node::new(Kind::Call, 0, vec![], s, e));
    let target = f
        .children
        .pop()
        .unwrap_or_else(|| Node::new(Kind::Name, 0, vec![], s, e));
    let args = &call.children[1..];
    let num = |v: &str| Node::new(Kind::Num, h(v), vec![], call.start, call.end);
    let (start, stop, step) = match args {
        [stop] => (num("0"), stop.clone(), num("1")),
        [start, stop] => (start.clone(), stop.clone(), num("1")),
        [start, stop, step] => (start.clone(), stop.clone(), step.clone()),
        _ => return vec![Node::new(Kind::ForEach, 0, vec![target, call, body], s, e)],
    };
    let negative = step.kind == Kind::Num && step.label != h("0") && {
        // A literal step below zero (its text hash cannot tell; the
        // common ones are listed).
        ["-1", "-2", "-3"].iter().any(|v| step.label == h(v))
    };
    let test = if negative {
        Node::new(Kind::Cmp, h("<"), vec![stop, target.clone()], s, e)
    } else {
        Node::new(Kind::Cmp, h("<"), vec![target.clone(), stop], s, e)
    };
    let (step_op, step) = if negative {
        let positive = ["1", "2", "3"]
            .iter()
            .find(|v| step.label == h(&format!("-{v}")))
            .map(|v| num(v))
            .unwrap_or(step);
        (h("-"), positive)
    } else {
        (h("+"), step)
    };
    body.children.push(Node::new(
        Kind::AugAssign,
        step_op,
        vec![target.clone(), step],
        e,
        e,
    ));
    vec![
        Node::new(Kind::Assign, 0, vec![target, start], s, s),
        Node::new(Kind::While, 0, vec![test, body], s, e),
    ]
}

/// `for k in (1, 2, 3, 4, 5, 6)` (a tuple, list or braced list of
/// consecutive whole numbers, ascending) is `for k in range(1, 7)`.
fn literal_run_as_range(n: &mut Node) {
    if n.kind != Kind::ForEach || n.children.len() != 3 {
        return;
    }
    let items = &n.children[1];
    if !matches!(items.kind, Kind::Other(_)) || items.children.len() < 2 {
        return;
    }
    let value = |x: &Node| {
        (x.kind == Kind::Num)
            .then(|| (0..=64u32).find(|v| x.label == h(&v.to_string())))
            .flatten()
    };
    let Some(values) = items
        .children
        .iter()
        .map(value)
        .collect::<Option<Vec<u32>>>()
    else {
        return;
    };
    if !values.windows(2).all(|w| w[1] == w[0] + 1) {
        return;
    }
    let (s, e) = (items.start, items.end);
    let num = |v: u32| Node::new(Kind::Num, h(&v.to_string()), vec![], s, e);
    n.children[1] = Node::new(
        Kind::Call,
        0,
        vec![
            Node::new(Kind::Name, h("range"), vec![], s, e),
            num(values[0]),
            num(values[values.len() - 1] + 1),
        ],
        s,
        e,
    );
}
