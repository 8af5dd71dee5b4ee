//! A wrapping class undone: methods lifted out of their class, a Python
//! method's receiver parameter dropped, `self.x` as the name `x`, and
//! `obj.m(...)` a call of `m` when `m` is a method the file defines.

use std::collections::{HashMap, HashSet};

use super::{h, rewrite};
use crate::similar::tree::{Kind, Node};

/// Lifts the methods of every class next to it, drops a Python method's
/// receiver parameter, makes `self.x` the name `x`, and `obj.m(...)` a
/// call of `m` when `m` is a method the file defines.
pub(super) fn unwrap_classes(root: &mut Node, receivers: &HashSet<u64>) {
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
