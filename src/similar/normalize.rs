//! The normalisations that undo what students change to disguise a copy,
//! applied to every file alike before it is fingerprinted (so a copy and
//! its original meet in the same form, whichever way either was written):
//!
//! - a wrapping class: methods are lifted out of their class, `self.x` and
//!   a member `x` are the same name, and `obj.method(...)` of a method the
//!   file defines is a call of that function;
//! - `for i in range(a, b, s)` is `i = a; while i < b: ...; i += s`, as a
//!   C++ `for` already is (see `tree.rs`), and `x = x + e` is `x += e`;
//! - `a > b` is `b < a`, `a >= b` is `b <= a`, and `not` is pushed into a
//!   comparison (`not a < b` is `b <= a`); an `if` with an empty branch
//!   is the `if` of the negated test;
//! - dead code: statements after a `return`, `break`, `continue` or
//!   `raise`; an `if` or `while` whose test is a constant; statements with
//!   no effect; variables assigned and never read (when the assignment
//!   calls nothing that could have an effect); functions and classes never
//!   used (entry points, `main` and dunders are always used);
//! - functions split or inlined: a function the file calls once (and that
//!   does not call itself), or whose body is one `return`, is inlined at
//!   its call, its parameters replaced by the arguments.
//!
//! Whatever the order of statements, `if`/`else` orientation and operand
//! order of commutative operators, the fingerprints (`fingerprint.rs`)
//! ignore them; nothing here needs to.

use std::collections::{HashMap, HashSet};

use super::tree::{Kind, Node, Tree, text_hash};

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
    for _ in 0..INLINE_ROUNDS {
        remove_dead(&mut tree.root, &tree.locals, entry);
        if !inline_once(&mut tree.root, entry) {
            break;
        }
    }
    remove_dead(&mut tree.root, &tree.locals, entry);
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

fn h(text: &str) -> u64 {
    text_hash(text.as_bytes())
}

/// Applies `f` to every node, children first.
fn rewrite(n: &mut Node, f: &mut impl FnMut(&mut Node)) {
    for c in &mut n.children {
        rewrite(c, f);
    }
    f(n);
}

// ------------------------------------------------------------------ classes

/// Lifts the methods of every class next to it, drops a Python method's
/// receiver parameter, makes `self.x` the name `x`, and `obj.m(...)` a
/// call of `m` when `m` is a method the file defines.
fn unwrap_classes(root: &mut Node, receivers: &HashSet<u64>) {
    let mut methods = HashSet::new();
    root.visit(&mut |n| {
        if n.kind == Kind::Class {
            for part in &n.children {
                for m in &part.children {
                    if m.kind == Kind::Func && m.label != 0 {
                        methods.insert(m.label);
                    }
                }
            }
        }
    });
    if methods.is_empty() {
        return;
    }
    let mut classes: HashMap<u64, bool> = HashMap::new();
    root.visit(&mut |n| {
        if n.kind == Kind::Class && n.label != 0 {
            let init = n.children.iter().any(|b| {
                b.children
                    .iter()
                    .any(|m| m.kind == Kind::Func && m.label == h("__init__"))
            });
            classes.insert(n.label, init);
        }
    });
    lift_methods(root, receivers);
    rewrite(root, &mut |n| {
        // `Helper(a)` runs `__init__(a)` (inlined when it is the only
        // one); a class without one builds an empty object, which has no
        // effect.
        if n.kind == Kind::Call
            && let Some(callee) = n.children.first_mut()
            && callee.kind == Kind::Name
            && let Some(&init) = classes.get(&callee.label)
        {
            *callee = if init {
                Node::new(Kind::Name, h("__init__"), vec![], callee.start, callee.end)
            } else {
                Node::new(Kind::Other(0), 0, vec![], callee.start, callee.end)
            };
        }
        if n.kind == Kind::Call
            && let Some(callee) = n.children.first_mut()
            && callee.kind == Kind::Attr
            && methods.contains(&callee.label)
        {
            *callee = Node::new(Kind::Name, callee.label, vec![], callee.start, callee.end);
        }
    });
}

/// In every block, a class's methods follow the class.
fn lift_methods(n: &mut Node, receivers: &HashSet<u64>) {
    for c in &mut n.children {
        lift_methods(c, receivers);
    }
    if !matches!(n.kind, Kind::Module | Kind::Block) {
        return;
    }
    let old = std::mem::take(&mut n.children);
    for mut c in old {
        if c.kind != Kind::Class {
            n.children.push(c);
            continue;
        }
        let mut lifted = Vec::new();
        if let Some(body) = c.children.first_mut() {
            let members = std::mem::take(&mut body.children);
            for m in members {
                if m.kind == Kind::Func {
                    lifted.push(method_as_function(m, receivers));
                } else {
                    body.children.push(m);
                }
            }
        }
        n.children.push(c);
        n.children.extend(lifted);
    }
}

/// A method as a function: without its receiver parameter, its
/// `receiver.x` as the name `x`.
fn method_as_function(mut m: Node, receivers: &HashSet<u64>) -> Node {
    let receiver = m
        .children
        .first()
        .and_then(|p| p.children.first())
        .filter(|p| p.kind == Kind::Name && receivers.contains(&p.label))
        .map(|p| p.label);
    if let Some(receiver) = receiver {
        if let Some(params) = m.children.first_mut() {
            params.children.remove(0);
        }
        rewrite(&mut m, &mut |n| {
            if n.kind == Kind::Attr
                && n.children
                    .first()
                    .is_some_and(|o| o.kind == Kind::Name && o.label == receiver)
            {
                *n = Node::new(Kind::Name, n.label, vec![], n.start, n.end);
            }
        });
    }
    m
}

// ----------------------------------------------------------- expressions

/// `a > b` as `b < a`, `a >= b` as `b <= a`; on integers, `a < b + 1`
/// as `a <= b` and `a <= b - 1` as `a < b` (a range's bound written both
/// ways).
fn flip_comparison(n: &mut Node) {
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
fn push_not(n: &mut Node) {
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
fn self_update(n: &mut Node) {
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
fn empty_branch(n: &mut Node) {
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

/// `for i in range(a, b, s): body` as `i = a; while i < b: body; i += s`
/// (a negative literal step compares with `>`, flipped as the rest are).
fn expand_ranges(n: &mut Node) {
    for c in &mut n.children {
        expand_ranges(c);
    }
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

// -------------------------------------------------------------- dead code

/// Whether evaluating `n` may have an effect: it calls something other
/// than a builtin known to have none, or assigns.
fn has_effect(n: &Node) -> bool {
    const PURE: &[&str] = &[
        "len",
        "range",
        "abs",
        "min",
        "max",
        "int",
        "float",
        "str",
        "bool",
        "list",
        "dict",
        "set",
        "tuple",
        "sorted",
        "sum",
        "deque",
        "divmod",
        "pow",
        "vector",
        "queue",
        "pair",
        "make_pair",
        "array",
        "map",
        "unordered_map",
        "unordered_set",
        "string",
        "size",
    ];
    let mut effect = false;
    n.visit(&mut |x| match x.kind {
        Kind::Call => {
            let pure = x.children.first().is_some_and(|c| {
                (c.kind == Kind::Name && PURE.iter().any(|p| c.label == h(p)))
                    || matches!(c.kind, Kind::Other(_))
            });
            if !pure {
                effect = true;
            }
        }
        Kind::Assign | Kind::AugAssign => effect = true,
        _ => {}
    });
    effect
}

/// The statement's simple name target, if it assigns one: `x = ...`,
/// `x += ...`, `int x = ...;`.
fn assigned_name(stmt: &Node) -> Option<u64> {
    match stmt.kind {
        Kind::Assign | Kind::AugAssign => stmt
            .children
            .first()
            .filter(|t| t.kind == Kind::Name)
            .map(|t| t.label),
        Kind::Decl => stmt.children.get(1).map(|t| t.label),
        _ => None,
    }
}

/// The value part of an assignment statement (not its target).
fn assigned_value(stmt: &Node) -> &[Node] {
    match stmt.kind {
        Kind::Assign | Kind::AugAssign => stmt.children.get(1..).unwrap_or(&[]),
        Kind::Decl => stmt.children.get(2..).unwrap_or(&[]),
        _ => &[],
    }
}

/// Whether two subtrees are the same code, wherever they are.
fn same_shape(a: &Node, b: &Node) -> bool {
    a.kind == b.kind
        && a.label == b.label
        && a.children.len() == b.children.len()
        && a.children
            .iter()
            .zip(&b.children)
            .all(|(x, y)| same_shape(x, y))
}

fn is_const_test(n: &Node) -> Option<bool> {
    match n.kind {
        Kind::Bool => Some(n.label == 1),
        Kind::Num => Some(n.label != h("0")),
        _ => None,
    }
}

/// Removes dead code until nothing more goes.
fn remove_dead(root: &mut Node, locals: &HashSet<u64>, entry: &HashSet<u64>) {
    for _ in 0..8 {
        let mut changed = prune_statements(root);
        changed |= remove_unused_definitions(root, entry);
        changed |= remove_unused_variables(root, locals);
        if !changed {
            break;
        }
    }
}

/// Unreachable statements, constant tests and statements with no effect.
fn prune_statements(n: &mut Node) -> bool {
    let mut changed = false;
    for c in &mut n.children {
        changed |= prune_statements(c);
    }
    if !matches!(n.kind, Kind::Module | Kind::Block) {
        return changed;
    }
    let old = std::mem::take(&mut n.children);
    let before = old.len();
    let mut out: Vec<Node> = Vec::with_capacity(before);
    for mut c in old {
        match c.kind {
            Kind::If if c.children.len() >= 2 => {
                if let Some(value) = is_const_test(&c.children[0]) {
                    let branch = if value {
                        Some(c.children.swap_remove(1))
                    } else if c.children.len() == 3 {
                        c.children.pop()
                    } else {
                        None
                    };
                    if let Some(b) = branch {
                        out.extend(b.children);
                    }
                    changed = true;
                    continue;
                }
                if c.children.len() == 2
                    && c.children[1].children.is_empty()
                    && !has_effect(&c.children[0])
                {
                    changed = true;
                    continue;
                }
                out.push(c);
            }
            Kind::While if c.children.first().and_then(is_const_test) == Some(false) => {
                changed = true;
            }
            Kind::ExprStmt if !has_effect(&c) => changed = true,
            Kind::Assign
                if c.children.len() == 2
                    && c.children[0].kind == Kind::Name
                    && same_shape(&c.children[0], &c.children[1]) =>
            {
                // `x = x`.
                changed = true;
            }
            Kind::AugAssign
                if c.children.len() == 2
                    && ((c.label == h("+") || c.label == h("-"))
                        && c.children[1].label == h("0")
                        || (c.label == h("*") || c.label == h("/"))
                            && c.children[1].label == h("1"))
                    && c.children[1].kind == Kind::Num =>
            {
                changed = true;
            }
            _ => out.push(c),
        }
        if matches!(
            out.last().map(|s| s.kind),
            Some(Kind::Return | Kind::Break | Kind::Continue | Kind::Raise)
        ) {
            break;
        }
    }
    changed |= out.len() != before;
    n.children = out;
    changed
}

/// Every name read anywhere in `n`, outside the bodies of `skip`.
fn references(n: &Node, skip: &HashSet<*const Node>, out: &mut HashMap<u64, usize>) {
    if skip.contains(&std::ptr::from_ref(n)) {
        return;
    }
    if matches!(n.kind, Kind::Name | Kind::Attr) {
        *out.entry(n.label).or_default() += 1;
    }
    for c in &n.children {
        references(c, skip, out);
    }
}

/// Functions and classes nothing uses (an entry point, `main` and
/// dunders always are), removed together with what only they used.
fn remove_unused_definitions(root: &mut Node, entry: &HashSet<u64>) -> bool {
    let mut defs: Vec<*const Node> = Vec::new();
    collect_definitions(root, &mut defs);
    if defs.is_empty() {
        return false;
    }
    // Each definition's own body does not keep it alive; neither does the
    // body of another dead one: iterate until the dead set is stable.
    let mut dead: HashSet<*const Node> = HashSet::new();
    loop {
        let mut refs = HashMap::new();
        references_outside(root, &dead, &mut refs);
        let mut grew = false;
        for &d in &defs {
            if dead.contains(&d) {
                continue;
            }
            // `root` is not changed until the loop ends, so every
            // definition found above is still where it was.
            let def = deref(root, d);
            let Some(def) = def else { continue };
            if def.label == 0 || entry.contains(&def.label) {
                continue;
            }
            let mut own = HashMap::new();
            references(def, &HashSet::new(), &mut own);
            let total = refs.get(&def.label).copied().unwrap_or(0);
            let inside = own.get(&def.label).copied().unwrap_or(0);
            if total <= inside {
                dead.insert(d);
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    if dead.is_empty() {
        return false;
    }
    remove_nodes(root, &dead);
    true
}

/// Finds the node at address `p` inside `root` (a pointer only ever
/// compared, never dereferenced).
fn deref(root: &Node, p: *const Node) -> Option<&Node> {
    if std::ptr::eq(root, p) {
        return Some(root);
    }
    root.children.iter().find_map(|c| deref(c, p))
}

fn collect_definitions(n: &Node, out: &mut Vec<*const Node>) {
    for c in &n.children {
        if matches!(c.kind, Kind::Func | Kind::Class) && c.label != 0 && !is_special(c.label) {
            out.push(std::ptr::from_ref(c));
        }
        collect_definitions(c, out);
    }
}

/// Names called from outside the file: never removed as unused.
fn is_special(label: u64) -> bool {
    label == h("main")
        || label == h("__init__")
        || label == h("__eq__")
        || label == h("__repr__")
        || label == h("__str__")
        || label == h("__lt__")
        || label == h("__hash__")
}

/// References outside the dead definitions (each definition's own name
/// is not a reference: only its uses are).
fn references_outside(n: &Node, dead: &HashSet<*const Node>, out: &mut HashMap<u64, usize>) {
    references(n, dead, out);
}

fn remove_nodes(n: &mut Node, dead: &HashSet<*const Node>) {
    n.children
        .retain(|c| !dead.contains(&std::ptr::from_ref(c)));
    for c in &mut n.children {
        remove_nodes(c, dead);
    }
}

/// Assignments to local variables that nothing reads (a read only by an
/// assignment to another dead variable does not count), when the
/// assignment has no other effect.
fn remove_unused_variables(root: &mut Node, locals: &HashSet<u64>) -> bool {
    // target -> the names its assignments read; and the names read
    // anywhere else.
    let mut feeds: HashMap<u64, HashSet<u64>> = HashMap::new();
    let mut roots: HashSet<u64> = HashSet::new();
    collect_reads(root, &mut feeds, &mut roots);
    let mut live = roots.clone();
    let mut stack: Vec<u64> = roots.into_iter().collect();
    while let Some(x) = stack.pop() {
        if let Some(reads) = feeds.get(&x) {
            for &r in reads {
                if live.insert(r) {
                    stack.push(r);
                }
            }
        }
    }
    let mut changed = false;
    drop_dead_assignments(root, locals, &live, &mut changed);
    changed
}

fn collect_reads(n: &Node, feeds: &mut HashMap<u64, HashSet<u64>>, roots: &mut HashSet<u64>) {
    if let Some(target) = assigned_name(n) {
        let entry = feeds.entry(target).or_default();
        for v in assigned_value(n) {
            v.visit(&mut |x| {
                if matches!(x.kind, Kind::Name | Kind::Attr) {
                    entry.insert(x.label);
                }
            });
        }
        // A function stored in a variable: its body reads what it reads.
        return;
    }
    if matches!(n.kind, Kind::Name | Kind::Attr) {
        roots.insert(n.label);
    }
    // A function's parameters are bound by its callers, not read.
    let skip_first = matches!(n.kind, Kind::Func);
    for (i, c) in n.children.iter().enumerate() {
        if skip_first && i == 0 {
            continue;
        }
        collect_reads(c, feeds, roots);
    }
}

fn drop_dead_assignments(
    n: &mut Node,
    locals: &HashSet<u64>,
    live: &HashSet<u64>,
    changed: &mut bool,
) {
    for c in &mut n.children {
        drop_dead_assignments(c, locals, live, changed);
    }
    if !matches!(n.kind, Kind::Module | Kind::Block) {
        return;
    }
    let before = n.children.len();
    n.children.retain(|s| {
        let Some(t) = assigned_name(s) else {
            return true;
        };
        let dead = locals.contains(&t)
            && !live.contains(&t)
            && !assigned_value(s)
                .iter()
                .any(|v| has_effect_beyond_constructor(v, s));
        !dead
    });
    *changed |= n.children.len() != before;
}

/// Whether a declaration's value does more than build its own type (`vector<int>
/// v(n, -1)` builds; `int x = q.front()` reads, which has no effect either).
fn has_effect_beyond_constructor(v: &Node, stmt: &Node) -> bool {
    if stmt.kind == Kind::Decl
        && v.kind == Kind::Call
        && v.children.first() == stmt.children.first()
    {
        return v.children[1..].iter().any(has_effect);
    }
    has_effect(v)
}

// ----------------------------------------------------------------- inlining

/// A function that may be inlined: its parameters and body.
struct Inlinable {
    params: Vec<u64>,
    body: Node,
    /// The body is `return expr`: inlined as `expr` wherever it is called.
    expression: Option<Node>,
}

/// One round of inlining; whether anything was inlined.
fn inline_once(root: &mut Node, entry: &HashSet<u64>) -> bool {
    let mut funcs: HashMap<u64, Vec<&Node>> = HashMap::new();
    root.visit(&mut |n| {
        if n.kind == Kind::Func && n.label != 0 {
            funcs.entry(n.label).or_default().push(n);
        }
    });
    let mut calls: HashMap<u64, usize> = HashMap::new();
    let mut mentions: HashMap<u64, usize> = HashMap::new();
    root.visit(&mut |n| {
        if n.kind == Kind::Call
            && let Some(c) = n.children.first()
            && c.kind == Kind::Name
        {
            *calls.entry(c.label).or_default() += 1;
        }
        if n.kind == Kind::Name {
            *mentions.entry(n.label).or_default() += 1;
        }
    });
    let mut table: HashMap<u64, Inlinable> = HashMap::new();
    for (label, defs) in &funcs {
        let [def] = defs.as_slice() else { continue };
        if entry.contains(label) || *label == h("main") {
            continue;
        }
        let n_calls = calls.get(label).copied().unwrap_or(0);
        // Passed around as a value, not only called: leave it.
        if n_calls == 0 || mentions.get(label).copied().unwrap_or(0) != n_calls {
            continue;
        }
        let Some(body) = def.children.get(1) else {
            continue;
        };
        let mut recursive = false;
        body.visit(&mut |n| {
            if n.kind == Kind::Call
                && n.children
                    .first()
                    .is_some_and(|c| c.kind == Kind::Name && funcs.contains_key(&c.label))
            {
                // Calls another local function: inline the leaves first.
                recursive = true;
            }
        });
        if recursive {
            continue;
        }
        let expression = match body.children.as_slice() {
            [r] if r.kind == Kind::Return && r.children.len() == 1 => Some(r.children[0].clone()),
            _ => None,
        };
        if n_calls > 1 && expression.is_none() {
            continue;
        }
        let params = def
            .children
            .first()
            .map(|p| {
                p.children
                    .iter()
                    .map(|x| match x.kind {
                        Kind::Name => x.label,
                        _ => x.children.last().map(|n| n.label).unwrap_or(0),
                    })
                    .collect()
            })
            .unwrap_or_default();
        table.insert(
            *label,
            Inlinable {
                params,
                body: body.clone(),
                expression,
            },
        );
    }
    if table.is_empty() {
        return false;
    }
    let mut done: HashSet<u64> = HashSet::new();
    inline_in(root, &table, &mut done);
    if done.is_empty() {
        return false;
    }
    remove_definitions(root, &done);
    true
}

fn remove_definitions(n: &mut Node, done: &HashSet<u64>) {
    n.children
        .retain(|c| !(c.kind == Kind::Func && done.contains(&c.label)));
    for c in &mut n.children {
        remove_definitions(c, done);
    }
}

/// The callee's label of a call of an inlinable function.
fn inlinable_call<'t>(
    n: &Node,
    table: &'t HashMap<u64, Inlinable>,
) -> Option<(u64, &'t Inlinable)> {
    if n.kind != Kind::Call {
        return None;
    }
    let c = n.children.first()?;
    if c.kind != Kind::Name {
        return None;
    }
    table.get(&c.label).map(|f| (c.label, f))
}

/// `body` with each parameter's name replaced by its argument.
fn substituted(body: &Node, params: &[u64], args: &[Node]) -> Node {
    let map: HashMap<u64, &Node> = params.iter().copied().zip(args.iter()).collect();
    let mut out = body.clone();
    rewrite(&mut out, &mut |n| {
        if n.kind == Kind::Name
            && let Some(a) = map.get(&n.label)
        {
            *n = (*a).clone();
        }
    });
    out
}

fn inline_in(n: &mut Node, table: &HashMap<u64, Inlinable>, done: &mut HashSet<u64>) {
    // Statements first: a call that is a whole statement, a return value
    // or an assigned value takes the function's statements.
    if matches!(n.kind, Kind::Module | Kind::Block) {
        let old = std::mem::take(&mut n.children);
        let mut stmts = old.into_iter().peekable();
        while let Some(stmt) = stmts.next() {
            match statement_call(&stmt, table) {
                Some((label, f, form)) if f.expression.is_none() => {
                    let call = call_of(&stmt, &form);
                    let args = call.children.get(1..).unwrap_or(&[]);
                    let body = substituted(&f.body, &f.params, args);
                    // `x = f(); if x != -1: return x`: the function's
                    // returns but the sentinel's are the caller's.
                    let sentinel = match (form, stmts.peek()) {
                        (Form::Value(_), Some(next)) => passes_on(&stmt, next),
                        _ => None,
                    };
                    if let Some(sentinel) = sentinel {
                        stmts.next();
                        n.children
                            .extend(returns_passed_on(body.children, &sentinel));
                    } else {
                        n.children.extend(returns_as(body.children, &stmt, &form));
                    }
                    done.insert(label);
                }
                _ => n.children.push(stmt),
            }
        }
    }
    for c in &mut n.children {
        inline_in(c, table, done);
    }
    if let Some((label, f)) = inlinable_call(n, table)
        && let Some(expr) = &f.expression
    {
        let args = n.children.get(1..).unwrap_or(&[]).to_vec();
        let (s, e) = (n.start, n.end);
        let mut inlined = substituted(expr, &f.params, &args);
        inlined.start = inlined.start.min(s);
        inlined.end = inlined.end.max(e);
        *n = inlined;
        done.insert(label);
    }
}

/// Where a statement holds its call.
#[derive(Clone, Copy)]
enum Form {
    Statement,
    Return,
    /// The index of the value among the statement's children.
    Value(usize),
}

fn statement_call<'t>(
    stmt: &Node,
    table: &'t HashMap<u64, Inlinable>,
) -> Option<(u64, &'t Inlinable, Form)> {
    let (call, form) = match stmt.kind {
        Kind::ExprStmt if stmt.children.len() == 1 => (&stmt.children[0], Form::Statement),
        Kind::Return if stmt.children.len() == 1 => (&stmt.children[0], Form::Return),
        Kind::Assign if stmt.children.len() == 2 => (&stmt.children[1], Form::Value(1)),
        Kind::Decl if stmt.children.len() == 3 => (&stmt.children[2], Form::Value(2)),
        _ => return None,
    };
    inlinable_call(call, table).map(|(l, f)| (l, f, form))
}

fn call_of<'s>(stmt: &'s Node, form: &Form) -> &'s Node {
    match form {
        Form::Statement | Form::Return => &stmt.children[0],
        Form::Value(i) => &stmt.children[*i],
    }
}

/// The sentinel `v` when `next` is `if x != v: return x` (either side of
/// the comparison) for the variable `x` that `stmt` assigns.
fn passes_on(stmt: &Node, next: &Node) -> Option<Node> {
    let x = assigned_name(stmt)?;
    if next.kind != Kind::If || next.children.len() != 2 {
        return None;
    }
    let (test, then) = (&next.children[0], &next.children[1]);
    let is_x = |n: &Node| n.kind == Kind::Name && n.label == x;
    if test.kind != Kind::Cmp || test.label != h("!=") || test.children.len() != 2 {
        return None;
    }
    let sentinel = match (&test.children[0], &test.children[1]) {
        (a, b) if is_x(a) && matches!(b.kind, Kind::Num | Kind::Bool | Kind::Other(_)) => b,
        (a, b) if is_x(b) && matches!(a.kind, Kind::Num | Kind::Bool | Kind::Other(_)) => a,
        _ => return None,
    };
    let returns_x = matches!(then.children.as_slice(),
        [r] if r.kind == Kind::Return && r.children.len() == 1 && is_x(&r.children[0]));
    returns_x.then(|| sentinel.clone())
}

/// The inlined statements of `x = f(); if x != v: return x`: `return v`
/// goes on after the call (it is dropped), any other return is the
/// caller's.
fn returns_passed_on(body: Vec<Node>, sentinel: &Node) -> Vec<Node> {
    let mut out = Vec::new();
    for mut s in body {
        if s.kind == Kind::Return && s.children.len() == 1 && same_shape(&s.children[0], sentinel) {
            continue;
        }
        drop_sentinel_returns(&mut s, sentinel);
        out.push(s);
    }
    out
}

fn drop_sentinel_returns(n: &mut Node, sentinel: &Node) {
    if n.kind == Kind::Func {
        return;
    }
    if matches!(n.kind, Kind::Block) {
        n.children.retain(|s| {
            !(s.kind == Kind::Return
                && s.children.len() == 1
                && same_shape(&s.children[0], sentinel))
        });
    }
    for c in &mut n.children {
        drop_sentinel_returns(c, sentinel);
    }
}

/// The inlined statements with each `return e` made what the call's
/// statement did with the value.
fn returns_as(body: Vec<Node>, stmt: &Node, form: &Form) -> Vec<Node> {
    let mut out = Vec::new();
    if let (Form::Value(2), Kind::Decl) = (form, stmt.kind) {
        // `int x = f(a);`: `int x;` then the body assigns it.
        out.push(Node::new(
            Kind::Decl,
            0,
            stmt.children[..2].to_vec(),
            stmt.start,
            stmt.end,
        ));
    }
    for mut s in body {
        convert_returns(&mut s, stmt, form);
        out.push(s);
    }
    out
}

fn convert_returns(n: &mut Node, stmt: &Node, form: &Form) {
    if n.kind == Kind::Func {
        return;
    }
    if n.kind == Kind::Return {
        match form {
            Form::Return => {}
            Form::Statement => {
                n.kind = Kind::ExprStmt;
            }
            Form::Value(_) => {
                let target = match stmt.kind {
                    Kind::Decl => stmt.children[1].clone(),
                    _ => stmt.children[0].clone(),
                };
                let mut children = vec![target];
                children.append(&mut n.children);
                n.kind = Kind::Assign;
                n.children = children;
            }
        }
        return;
    }
    for c in &mut n.children {
        convert_returns(c, stmt, form);
    }
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
