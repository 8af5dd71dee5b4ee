//! Expressions in one form: comparisons flipped to `<` and `<=`, `not`
//! pushed into a comparison, `x = x + e` as `x += e`, and an `if` with an
//! empty branch as the `if` of the negated test.

use super::h;
use crate::similar::tree::{Kind, Node};

/// `a > b` as `b < a`, `a >= b` as `b <= a`; on integers, `a < b + 1`
/// as `a <= b` and `a <= b - 1` as `a < b` (a range's bound written both
/// ways).
pub(super) fn flip_comparison(n: &mut Node) {
    if n.kind != Kind::Cmp || n.children.len() != 2 {
        return;
    }
    if n.label == h(">") {
        n.label = h("<");
        n.children.swap(0, 1);
    } else if n.label == h(">=") {
        n.label = h("<=");
        n.children.swap(0, 1);
    }
    let one = |x: &Node| x.kind == Kind::Num && x.label == h("1");
    for (from, op, to) in [("<", "+", "<="), ("<=", "-", "<")] {
        if n.label != h(from) {
            continue;
        }
        let right = &n.children[1];
        if right.kind == Kind::BinOp
            && right.label == h(op)
            && right.children.len() == 2
            && one(&right.children[1])
        {
            let bound = right.children[0].clone();
            n.children[1] = bound;
            n.label = h(to);
            return;
        }
    }
}

/// The negation of `test`, pushed inward where a comparison or `not` can
/// take it.
pub(crate) fn negated(test: &Node) -> Node {
    let (s, e) = (test.start, test.end);
    match test.kind {
        Kind::Not if test.children.len() == 1 => test.children[0].clone(),
        Kind::Cmp if test.children.len() == 2 => {
            let (a, b) = (test.children[0].clone(), test.children[1].clone());
            let pairs = [
                ("<", "<="),
                ("==", "!="),
                ("in", "not in"),
                ("is", "is not"),
            ];
            for (x, y) in pairs {
                if test.label == h(x) {
                    // not a < b is b <= a; not a == b is a != b.
                    return if x == "<" {
                        Node::new(Kind::Cmp, h("<="), vec![b, a], s, e)
                    } else {
                        Node::new(Kind::Cmp, h(y), vec![a, b], s, e)
                    };
                }
                if test.label == h(y) {
                    return if x == "<" {
                        Node::new(Kind::Cmp, h("<"), vec![b, a], s, e)
                    } else {
                        Node::new(Kind::Cmp, h(x), vec![a, b], s, e)
                    };
                }
            }
            Node::new(Kind::Not, 0, vec![test.clone()], s, e)
        }
        Kind::Bool => Node::new(
            Kind::Bool,
            if test.label == 1 { 2 } else { 1 },
            vec![],
            s,
            e,
        ),
        _ => Node::new(Kind::Not, 0, vec![test.clone()], s, e),
    }
}

/// `not (a < b)` as `b <= a`, `not not x` as `x`.
pub(super) fn push_not(n: &mut Node) {
    if n.kind == Kind::Not && n.children.len() == 1 {
        let inner = &n.children[0];
        if matches!(inner.kind, Kind::Cmp | Kind::Not | Kind::Bool) {
            let neg = negated(inner);
            if neg.kind != Kind::Not || inner.kind == Kind::Not {
                *n = neg;
            }
        }
    }
}

/// `x = x + e` as `x += e` (and `x = e + x` where `+` commutes).
pub(super) fn self_update(n: &mut Node) {
    if n.kind != Kind::Assign || n.children.len() != 2 {
        return;
    }
    let (target, value) = (&n.children[0], &n.children[1]);
    if target.kind != Kind::Name || value.kind != Kind::BinOp || value.children.len() != 2 {
        return;
    }
    let op = value.label;
    let same = |x: &Node| x.kind == Kind::Name && x.label == target.label;
    let rest = if same(&value.children[0]) {
        Some(value.children[1].clone())
    } else if same(&value.children[1]) && (op == h("+") || op == h("*")) {
        Some(value.children[0].clone())
    } else {
        None
    };
    if let Some(rest) = rest {
        let target = n.children[0].clone();
        n.kind = Kind::AugAssign;
        n.label = op;
        n.children = vec![target, rest];
    }
}

/// An `if` whose then-branch is empty is the `if` of the negated test with
/// the else-branch; an empty else-branch is no else-branch.
pub(super) fn empty_branch(n: &mut Node) {
    if n.kind != Kind::If || n.children.len() != 3 {
        return;
    }
    if n.children[2].children.is_empty() {
        n.children.pop();
    } else if n.children[1].children.is_empty() {
        if let Some(other) = n.children.pop() {
            n.children[0] = negated(&n.children[0]);
            n.children[1] = other;
        }
    }
}
