//! Judging a returned list (`createboard`, `dualboard`): its shape first
//! (a circle of one node per square), then where its snadders point, then
//! whether they are the board's.

use std::collections::BTreeSet;

use salgrade_reference::a48::board::Board;
use salgrade_reference::a48::case::A48Function;
use salgrade_reference::a48::explain;

use super::{Answer, ListEnd, got_words};
use crate::verdict::{Verdict, VerdictKind};
use crate::words;

pub(super) fn judge_list(function: A48Function, board: &Board, answer: &Answer) -> Verdict {
    let Answer::List {
        length,
        end,
        snadders,
        outside,
        shares_input,
    } = answer
    else {
        return Verdict::wrong(
            VerdictKind::WrongType,
            "the first SALBnode of a circular list",
            got_words(answer),
        );
    };
    let n = u64::from(board.squares());
    if let Some(reason) = structural_problem(end, *length, n) {
        return Verdict::detail(VerdictKind::InvalidStructure, reason);
    }
    if let Some((node, what)) = outside.first() {
        return outside_problem(node + 1, what);
    }
    if *shares_input > 0 && function == A48Function::Dualboard {
        return Verdict::detail(
            VerdictKind::SharesInput,
            format!(
                "{} of the returned list belong{} to the input list",
                words::count(*shares_input, "node", "nodes"),
                if *shares_input == 1 { "s" } else { "" }
            ),
        );
    }
    let got: BTreeSet<(u64, u64)> = snadders.iter().map(|&(s, d)| (s + 1, d + 1)).collect();
    let want = pairs(board);
    if got == want {
        return Verdict::pass();
    }
    wrong_snadders(board, &got, &want)
}

/// Why a list of `length` nodes ending as `end` is not a circle of the
/// board's `n` squares, if it is not.
fn structural_problem(end: &ListEnd, length: u64, n: u64) -> Option<String> {
    match end {
        ListEnd::Circular if length == n => None,
        ListEnd::Circular => Some(format!(
            "the list is a circle of {}; the board has {}",
            words::count(length, "node", "nodes"),
            words::count(n, "square", "squares")
        )),
        ListEnd::Open => Some(format!(
            "the list is not circular: node {length}'s next is None (the last square must link back to the first)"
        )),
        ListEnd::LoopsBack { to } => Some(format!(
            "node {length}'s next points back to node {}, not to the first node",
            to + 1
        )),
        ListEnd::TooLong => Some(format!(
            "the list goes on past {} without returning to the first",
            words::count(n, "node", "nodes")
        )),
        ListEnd::NotANode { ty } => Some(format!(
            "node {length}'s next is {}, not a SALBnode",
            words::a(ty)
        )),
    }
}

/// The verdict on a snadder of `square` that points out of the list.
fn outside_problem(square: u64, what: &str) -> Verdict {
    match what {
        "input" => Verdict::detail(
            VerdictKind::SharesInput,
            format!("square {square}'s snadder points to a node of the input list"),
        ),
        "not_a_node" => Verdict::detail(
            VerdictKind::InvalidStructure,
            format!("square {square}'s snadder is not a SALBnode"),
        ),
        _ => Verdict::detail(
            VerdictKind::InvalidStructure,
            format!("square {square}'s snadder points to a node outside the returned list"),
        ),
    }
}

/// A well-formed list with the wrong snadders: the first wrong node, what
/// is missing and what is unexpected.
fn wrong_snadders(
    board: &Board,
    got: &BTreeSet<(u64, u64)>,
    want: &BTreeSet<(u64, u64)>,
) -> Verdict {
    let missing: Vec<String> = want
        .difference(got)
        .map(|(s, d)| format!("{s}->{d}"))
        .take(5)
        .collect();
    let extra: Vec<String> = got
        .difference(want)
        .map(|(s, d)| format!("{s}->{d}"))
        .take(5)
        .collect();
    let mut detail = Vec::new();
    let got_pairs: Vec<(u32, u32)> = got.iter().map(|&(s, d)| (s as u32, d as u32)).collect();
    if let Some((square, want, have)) = explain::first_wrong_node(board, &got_pairs) {
        let says = |d: Option<u32>| match d {
            Some(d) => format!("a snadder to square {d}"),
            None => "no snadder".to_owned(),
        };
        detail.push(format!(
            "first wrong node: node {square} should have {}, but has {}",
            says(want),
            says(have)
        ));
    }
    if !missing.is_empty() {
        detail.push(format!("missing {}", missing.join(", ")));
    }
    if !extra.is_empty() {
        detail.push(format!("unexpected {}", extra.join(", ")));
    }
    Verdict {
        detail: Some(detail.join("; ")),
        ..Verdict::wrong(
            VerdictKind::WrongAnswer,
            snadder_words(want),
            snadder_words(got),
        )
    }
}

pub(super) fn pairs(board: &Board) -> BTreeSet<(u64, u64)> {
    board.pairs().into_iter().collect()
}

pub(super) fn snadder_words(set: &BTreeSet<(u64, u64)>) -> String {
    if set.is_empty() {
        return "no snadders".to_owned();
    }
    let mut parts: Vec<String> = set
        .iter()
        .take(12)
        .map(|(s, d)| format!("{s}->{d}"))
        .collect();
    if set.len() > 12 {
        parts.push(format!("... ({} in all)", set.len()));
    }
    format!("snadders {}", parts.join(", "))
}
