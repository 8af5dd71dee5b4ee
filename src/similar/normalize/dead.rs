//! Dead code removed: statements after a `return`, `break`, `continue` or
//! `raise`; an `if` or `while` whose test is a constant; statements with no
//! effect; variables assigned and never read (when the assignment calls
//! nothing that could have an effect); functions and classes never used
//! (entry points, `main` and dunders are always used).

use std::collections::{HashMap, HashSet};

use super::h;
use crate::similar::tree::{Kind, Node};

/// Whether evaluating `n` may have an effect: it calls something other
/// than a builtin known to have none, or assigns.
pub(super) fn has_effect(n: &Node) -> bool {
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
pub(super) fn assigned_name(stmt: &Node) -> Option<u64> {
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
pub(super) fn same_shape(a: &Node, b: &Node) -> bool {
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
pub(super) fn remove_dead(root: &mut Node, locals: &HashSet<u64>, entry: &HashSet<u64>) {
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
