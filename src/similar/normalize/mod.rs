//! The normalisations that undo what students change to disguise a copy,
//! applied to every file alike before it is fingerprinted (so a copy and
//! its original meet in the same form, whichever way either was written):
//!
//! - a wrapping class: methods are lifted out of their class, `self.x` and
//!   a member `x` are the same name, and `obj.method(...)` of a method the
//!   file defines is a call of that function;
//! - `for i in range(a, b, s)` is `i = a; while i < b: ...; i += s`, as a
//!   C++ `for` already is (see `tree/cpp.rs`), and `x = x + e` is `x += e`;
//! - `a > b` is `b < a`, `a >= b` is `b <= a`, and `not` is pushed into a
//!   comparison (`not a < b` is `b <= a`); an `if` with an empty branch
//!   is the `if` of the negated test;
//! - dead code: statements after a `return`, `break`, `continue` or
//!   `raise`; an `if` or `while` whose test is a constant; statements with
//!   no effect; variables assigned and never read (when the assignment
//!   calls nothing that could have an effect); functions and classes never
//!   used (entry points, `main` and dunders are always used);
//! - functions split or inlined: a function the file calls once (and that
//!   calls no function the file defines, itself included), or whose body
//!   is one `return`, is inlined at its call, its parameters replaced by
//!   the arguments.
//!
//! Whatever the order of statements, `if`/`else` orientation and operand
//! order of commutative operators, the fingerprints (`fingerprint.rs`)
//! ignore them; nothing here needs to.
//!
//! Each kind of normalisation is a file of its own: `classes.rs`,
//! `expressions.rs` (comparisons, `not`, self-updates, empty branches),
//! `ranges.rs`, `dead.rs` and `inline.rs`; this one runs them in order.

mod classes;
mod counters;
mod dead;
mod expressions;
mod inline;
mod ranges;
mod temporaries;

use std::collections::HashSet;

use super::tree::{Node, Tree, text_hash};
use classes::unwrap_classes;
use counters::step_at_end;
use dead::remove_dead;
pub(crate) use expressions::negated;
use expressions::{empty_branch, flip_comparison, push_not, self_update};
use inline::inline_once;
use ranges::expand_ranges;
use temporaries::{forward_temporaries, propagate_values};

/// Rounds of inlining: a function split in three is inlined in two.
const INLINE_ROUNDS: usize = 3;

/// Normalises `tree` in place; `entry` holds the hashes of the names the
/// assignment calls (never removed as unused, never inlined).
pub(crate) fn normalize(tree: &mut Tree, entry: &HashSet<u64>) {
    let receivers = receiver_names();
    unwrap_classes(&mut tree.root, &receivers);
    rewrite(&mut tree.root, &mut |n| {
        flip_comparison(n);
        push_not(n);
        self_update(n);
    });
    expand_ranges(&mut tree.root);
    step_at_end(&mut tree.root);
    for _ in 0..INLINE_ROUNDS {
        remove_dead(&mut tree.root, &tree.locals, entry);
        forward_temporaries(&mut tree.root);
        if !inline_once(&mut tree.root, entry) {
            break;
        }
    }
    remove_dead(&mut tree.root, &tree.locals, entry);
    propagate_values(&mut tree.root);
    forward_temporaries(&mut tree.root);
    rewrite(&mut tree.root, &mut |n| {
        flip_comparison(n);
        push_not(n);
        empty_branch(n);
    });
}

fn receiver_names() -> HashSet<u64> {
    ["self", "cls"]
        .iter()
        .map(|s| text_hash(s.as_bytes()))
        .collect()
}

pub(super) fn h(text: &str) -> u64 {
    text_hash(text.as_bytes())
}

/// Applies `f` to every node, children first.
pub(super) fn rewrite(n: &mut Node, f: &mut impl FnMut(&mut Node)) {
    for c in &mut n.children {
        rewrite(c, f);
    }
    f(n);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::Language;
    use crate::similar::tree::parse;

    fn norm(src: &str, lang: Language) -> Tree {
        let mut t = parse(src, lang).unwrap();
        let entry: HashSet<u64> = ["solve", "snakesAndLadders"].iter().map(|s| h(s)).collect();
        normalize(&mut t, &entry);
        t
    }

    #[test]
    fn dead_code_goes() {
        let t = norm(
            "def solve(n):\n    unused = 5\n    if False:\n        print(n)\n    x = n + 1\n    return x\n    print('never')\n\ndef helper_never_called(a):\n    return a\n",
            Language::Python,
        );
        let plain = norm(
            "def solve(n):\n    x = n + 1\n    return x\n",
            Language::Python,
        );
        assert_eq!(shape(&t.root), shape(&plain.root));
    }

    #[test]
    fn a_split_function_is_inlined() {
        let split = norm(
            "def step(q, seen):\n    x = q.pop()\n    seen.add(x)\n\ndef solve(q):\n    seen = set()\n    while q:\n        step(q, seen)\n    return seen\n",
            Language::Python,
        );
        let whole = norm(
            "def solve(q):\n    seen = set()\n    while q:\n        x = q.pop()\n        seen.add(x)\n    return seen\n",
            Language::Python,
        );
        assert_eq!(shape(&split.root), shape(&whole.root));
    }

    #[test]
    fn a_wrapping_class_is_unwrapped() {
        let wrapped = norm(
            "class Helper:\n    def __init__(self):\n        pass\n    def work(self, n):\n        return [n] * 2\n\ndef solve(n):\n    h = Helper()\n    return h.work(n)\n",
            Language::Python,
        );
        let plain = norm("def solve(n):\n    return [n] * 2\n", Language::Python);
        assert_eq!(shape(&wrapped.root), shape(&plain.root));
    }

    #[test]
    fn a_run_of_literals_is_a_range() {
        let listed = norm(
            "def solve(c):\n    for k in (1, 2, 3, 4, 5, 6):\n        print(c + k)\n",
            Language::Python,
        );
        let ranged = norm(
            "def solve(c):\n    for k in range(1, 7):\n        print(c + k)\n",
            Language::Python,
        );
        assert_eq!(shape(&listed.root), shape(&ranged.root));
        let gaps = norm(
            "def solve(c):\n    for k in (1, 2, 4):\n        print(c + k)\n",
            Language::Python,
        );
        assert_ne!(shape(&gaps.root), shape(&ranged.root));
    }

    #[test]
    fn a_counter_stepped_first_is_stepped_last() {
        let first = norm(
            "def solve(c):\n    k = 0\n    while k < 6:\n        k += 1\n        print(c + k)\n",
            Language::Python,
        );
        let last = norm(
            "def solve(c):\n    k = 1\n    while k <= 6:\n        print(c + k)\n        k += 1\n",
            Language::Python,
        );
        assert_eq!(shape(&first.root), shape(&last.root));
        // Read before and after the step: the reads after are of `k + 1`.
        let both = norm(
            "def solve(c):\n    k = 0\n    while k < 6:\n        print(k)\n        k += 1\n        print(c + k)\n",
            Language::Python,
        );
        let moved = norm(
            "def solve(c):\n    k = 0\n    while k < 6:\n        print(k)\n        print(c + (k + 1))\n        k += 1\n",
            Language::Python,
        );
        assert_eq!(shape(&both.root), shape(&moved.root));
    }

    #[test]
    fn temporaries_and_aliases_are_their_values() {
        let through = norm(
            "def solve(d, c, y):\n    t = d[c]\n    d[y] = t + 1\n    r = f(d)\n    return r\n",
            Language::Python,
        );
        let direct = norm(
            "def solve(d, c, y):\n    d[y] = d[c] + 1\n    return f(d)\n",
            Language::Python,
        );
        assert_eq!(shape(&through.root), shape(&direct.root));
        // A variable assigned twice is a variable, not an alias.
        let twice = norm(
            "def solve(d, c, y):\n    t = d[c]\n    if y:\n        t = y\n    d[y] = t + 1\n    return f(d)\n",
            Language::Python,
        );
        assert_ne!(shape(&twice.root), shape(&direct.root));
        // Its value's names reassigned before it is read: kept.
        let moved = norm(
            "def solve(d, c, y):\n    t = d[c]\n    c = y\n    d[c] = t + 1\n    return f(d)\n",
            Language::Python,
        );
        let moved_direct = norm(
            "def solve(d, c, y):\n    c = y\n    d[c] = d[c] + 1\n    return f(d)\n",
            Language::Python,
        );
        assert_ne!(shape(&moved.root), shape(&moved_direct.root));
    }

    /// The tree's kinds and labels, without positions.
    fn shape(n: &Node) -> String {
        let mut s = format!("{:?}:{}", n.kind, n.label);
        if !n.children.is_empty() {
            s.push('(');
            for c in &n.children {
                s.push_str(&shape(c));
                s.push(' ');
            }
            s.push(')');
        }
        s
    }
}
