//! Functions split or inlined: a function the file calls once (and that
//! calls no function the file defines, itself included), or whose body is
//! one `return`, is inlined at its call, its parameters replaced by the
//! arguments; `x = f(); if x != v: return x` takes `f`'s own returns.

use std::collections::{HashMap, HashSet};

use super::dead::{assigned_name, same_shape};
use super::{h, rewrite};
use crate::similar::tree::{Kind, Node};

/// A function that may be inlined: its parameters and body.
struct Inlinable {
    params: Vec<u64>,
    body: Node,
    /// The body is `return expr`: inlined as `expr` wherever it is called.
    expression: Option<Node>,
}

/// One round of inlining; whether anything was inlined.
pub(super) fn inline_once(root: &mut Node, entry: &HashSet<u64>) -> bool {
    let table = inlinable_functions(root, entry);
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

/// The file's functions that may be inlined, by name: defined once, not an
/// entry point nor `main`, and only ever called (never passed as a value).
fn inlinable_functions(root: &Node, entry: &HashSet<u64>) -> HashMap<u64, Inlinable> {
    let mut funcs: HashMap<u64, Vec<&Node>> = HashMap::new();
    root.visit(&mut |n| {
        if n.kind == Kind::Func && n.label != 0 {
            funcs.entry(n.label).or_default().push(n);
        }
    });
    let (calls, mentions) = call_counts(root);
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
        if let Some(f) = inlinable(def, n_calls, &funcs) {
            table.insert(*label, f);
        }
    }
    table
}

/// How many times each name is called, and how many times it is named at
/// all.
fn call_counts(root: &Node) -> (HashMap<u64, usize>, HashMap<u64, usize>) {
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
    (calls, mentions)
}

/// Function `def`, called `n_calls` times, as an inlinable one: not when
/// it calls another of the file's functions (those are inlined first), nor
/// when it is called more than once and is more than one `return`.
fn inlinable(def: &Node, n_calls: usize, funcs: &HashMap<u64, Vec<&Node>>) -> Option<Inlinable> {
    let body = def.children.get(1)?;
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
        return None;
    }
    let expression = match body.children.as_slice() {
        [r] if r.kind == Kind::Return && r.children.len() == 1 => Some(r.children[0].clone()),
        _ => None,
    };
    if n_calls > 1 && expression.is_none() {
        return None;
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
    Some(Inlinable {
        params,
        body: body.clone(),
        expression,
    })
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
