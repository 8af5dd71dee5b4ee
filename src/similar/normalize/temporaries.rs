//! A value passed through a temporary is the value itself: `r = f(a);
//! return r` is `return f(a)`, `x = g(); if x < 0: ...` is `if g() < 0:
//! ...`, `int t = d[c] + 1; d[y] = t;` is `d[y] = d[c] + 1;`. Only a
//! temporary the file names nowhere else (its assignment and that one
//! read), read by the very next statement, where that statement is
//! evaluated once (a `return`, an expression, an assignment, or an `if`'s
//! test; not a loop's test, evaluated again on every turn).

use std::collections::HashMap;

use super::dead::{assigned_name, has_effect};
use crate::similar::tree::{Kind, Node};

/// Forwards every single-use temporary of the file; whether any was.
pub(super) fn forward_temporaries(root: &mut Node) -> bool {
    let mut counts: HashMap<u64, usize> = HashMap::new();
    root.visit(&mut |n| {
        if matches!(n.kind, Kind::Name | Kind::Attr) {
            *counts.entry(n.label).or_default() += 1;
        }
    });
    let mut changed = false;
    forward_in(root, &counts, &mut changed);
    changed
}

fn forward_in(n: &mut Node, counts: &HashMap<u64, usize>, changed: &mut bool) {
    for c in &mut n.children {
        forward_in(c, counts, changed);
    }
    if !matches!(n.kind, Kind::Module | Kind::Block) {
        return;
    }
    let mut j = 0;
    while j + 1 < n.children.len() {
        if let Some(value) = single_use(&n.children[j], &n.children[j + 1], counts) {
            let x = assigned_name(&n.children[j]).unwrap_or(0);
            if next_reads_once(&mut n.children[j + 1], x, &value) {
                n.children.remove(j);
                *changed = true;
                continue;
            }
        }
        j += 1;
    }
}

/// The value of `stmt` when it assigns a temporary (`x = e`, `T x = e;`)
/// that the file names only there and once in `next`, in a part of `next`
/// evaluated once.
fn single_use(stmt: &Node, next: &Node, counts: &HashMap<u64, usize>) -> Option<Node> {
    let (x, value) = match stmt.kind {
        Kind::Assign if stmt.children.len() == 2 && stmt.children[0].kind == Kind::Name => {
            (stmt.children[0].label, &stmt.children[1])
        }
        Kind::Decl if stmt.children.len() == 3 && stmt.children[1].kind == Kind::Name => {
            (stmt.children[1].label, &stmt.children[2])
        }
        _ => return None,
    };
    if counts.get(&x).copied() != Some(2) {
        return None;
    }
    let read_part: &Node = match next.kind {
        Kind::Return | Kind::ExprStmt | Kind::Raise => next,
        Kind::Assign | Kind::AugAssign | Kind::Decl => next,
        Kind::If => next.children.first()?,
        _ => return None,
    };
    let mut reads = 0;
    read_part.visit(&mut |m| {
        if m.kind == Kind::Name && m.label == x {
            reads += 1;
        }
    });
    // An assignment whose target is the temporary itself is not a read.
    let target_is_x = matches!(next.kind, Kind::Assign | Kind::AugAssign)
        && next.children.first().is_some_and(|t| t.label == x);
    (reads == 1 && !target_is_x).then(|| value.clone())
}

/// Replaces the one read of `x` in `n` by `value`.
fn next_reads_once(n: &mut Node, x: u64, value: &Node) -> bool {
    if n.kind == Kind::Name && n.label == x {
        let (s, e) = (n.start, n.end);
        *n = value.clone();
        n.start = n.start.min(s);
        n.end = n.end.max(e);
        return true;
    }
    n.children.iter_mut().any(|c| next_reads_once(c, x, value))
}

/// The most nodes a propagated value may have (each read takes a copy).
const MAX_PROPAGATED: usize = 12;

/// How many statements after its assignment a variable's reads are looked
/// for (so a block of many thousand statements costs no more than this
/// each).
const WINDOW: usize = 64;

/// A variable that only names a value the block does not change is that
/// value: `nb = die` (an alias), `d = dist[u]` (a current value), `nxt =
/// c + k` are replaced by what they name in the statements after them.
/// Only a variable assigned once in the whole file and named nowhere but
/// after its assignment in its block, whose value calls nothing with an
/// effect and names nothing the rest of the block assigns (an element
/// written through an index, `dist[v] = ...`, is not counted: a current
/// value read before its own element is written is how these are used).
pub(super) fn propagate_values(root: &mut Node) -> bool {
    let mut assigned: HashMap<u64, usize> = HashMap::new();
    let mut named: HashMap<u64, usize> = HashMap::new();
    root.visit(&mut |n| {
        if let Some(t) = target_name(n) {
            *assigned.entry(t).or_default() += 1;
        }
        if matches!(n.kind, Kind::Name | Kind::Attr) {
            *named.entry(n.label).or_default() += 1;
        }
    });
    let mut changed = false;
    propagate_in(root, &assigned, &mut named, &mut changed);
    changed
}

/// The simple name a statement assigns, declaration included.
fn target_name(n: &Node) -> Option<u64> {
    let t = match n.kind {
        Kind::Assign | Kind::AugAssign => n.children.first(),
        Kind::Decl => n.children.get(1),
        _ => None,
    }?;
    (t.kind == Kind::Name).then_some(t.label)
}

fn size(n: &Node) -> usize {
    let mut k = 0;
    n.visit(&mut |_| k += 1);
    k
}

fn propagate_in(
    n: &mut Node,
    assigned: &HashMap<u64, usize>,
    named: &mut HashMap<u64, usize>,
    changed: &mut bool,
) {
    for c in &mut n.children {
        propagate_in(c, assigned, named, changed);
    }
    if !matches!(n.kind, Kind::Module | Kind::Block) {
        return;
    }
    let mut j = 0;
    while j < n.children.len() {
        let Some((x, value)) = assignment_of(&n.children[j]) else {
            j += 1;
            continue;
        };
        // Cheap tests first: assigned once, named at least twice.
        let mentions = named.get(&x).copied().unwrap_or(0);
        if assigned.get(&x).copied() != Some(1) || mentions < 2 {
            j += 1;
            continue;
        }
        let rest = &n.children[j + 1..(j + 1 + WINDOW).min(n.children.len())];
        let value_names = names_in(value);
        let pure = matches!(value.kind, Kind::Name | Kind::Index)
            && !has_effect(value)
            && size(value) <= MAX_PROPAGATED
            && !value_names.contains(&x);
        let Some(reads) = pure
            .then(|| only_reads(rest, x, mentions, &value_names))
            .flatten()
        else {
            j += 1;
            continue;
        };
        let value = value.clone();
        // The value's names are now named once a read.
        for name in &value_names {
            *named.entry(*name).or_default() += reads - 1;
        }
        named.insert(x, 0);
        n.children.remove(j);
        for s in &mut n.children[j..] {
            replace_all(s, x, &value);
        }
        *changed = true;
    }
}

/// The name a statement assigns and the value it gives it, when it is a
/// plain `x = value` (or a declaration with one).
fn assignment_of(stmt: &Node) -> Option<(u64, &Node)> {
    match stmt.kind {
        Kind::Assign if stmt.children.len() == 2 && stmt.children[0].kind == Kind::Name => {
            Some((stmt.children[0].label, &stmt.children[1]))
        }
        Kind::Decl if stmt.children.len() == 3 && stmt.children[1].kind == Kind::Name => {
            Some((stmt.children[1].label, &stmt.children[2]))
        }
        _ => None,
    }
}

/// The plain names `value` holds, in order.
fn names_in(value: &Node) -> Vec<u64> {
    let mut v = Vec::new();
    value.visit(&mut |m| {
        if m.kind == Kind::Name {
            v.push(m.label);
        }
    });
    v
}

/// How many reads of `x` the statements `rest` hold, when they are every
/// other of its `mentions` and, up to the last statement that reads it,
/// nothing writes what the value names (a counter stepped at the end of a
/// loop's body may); `None` otherwise.
fn only_reads(rest: &[Node], x: u64, mentions: usize, value_names: &[u64]) -> Option<usize> {
    let mut reads = 0;
    let mut last_read = None;
    for (k, s) in rest.iter().enumerate() {
        let here = count_names(s, x);
        if here > 0 {
            reads += here;
            last_read = Some(k);
        }
        if reads + 1 >= mentions {
            break;
        }
    }
    let last = last_read?;
    let written = rest[..=last].iter().any(|s| {
        let mut writes = false;
        s.visit(&mut |m| {
            if target_name(m).is_some_and(|t| value_names.contains(&t)) {
                writes = true;
            }
        });
        writes
    });
    (reads + 1 == mentions && !written).then_some(reads)
}

/// How many times `n` reads the plain name `x` (an attribute `o.x` is not
/// it, and keeps `x` from being propagated at all).
fn count_names(n: &Node, x: u64) -> usize {
    let mut k = 0;
    n.visit(&mut |m| {
        if m.kind == Kind::Name && m.label == x {
            k += 1;
        }
    });
    k
}

fn replace_all(n: &mut Node, x: u64, value: &Node) {
    if n.kind == Kind::Name && n.label == x {
        let (s, e) = (n.start, n.end);
        *n = value.clone();
        n.start = s;
        n.end = e;
        return;
    }
    for c in &mut n.children {
        replace_all(c, x, value);
    }
}
