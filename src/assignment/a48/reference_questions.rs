//! `salgrade ref` for A48: the reference's answer to one question about a
//! board, in the words a student would print.

use salgrade_reference::a48::board::Board;
use salgrade_reference::a48::case::A48Input;
use salgrade_reference::a48::{self, Reading};

use crate::assignment::Question;

pub(super) const QUESTIONS: &[Question] = &[
    Question {
        name: "willfinish",
        help: "whether a player with step size S ever reaches the last square (args: S)",
    },
    Question {
        name: "whowins",
        help: "which player wins with step sizes S1 and S2, every accepted answer (args: S1 S2)",
    },
    Question {
        name: "dualboard",
        help: "the dual board: every snake a ladder and every ladder a snake (no args)",
    },
    Question {
        name: "finish-time",
        help: "the move on which a player with step size S first ends on the last square (args: S)",
    },
    Question {
        name: "walk",
        help: "a player's moves with step size S, square by square (args: S)",
    },
];

fn steps_wanted(question: &str) -> usize {
    match question {
        "dualboard" => 0,
        "whowins" => 2,
        _ => 1,
    }
}

/// `input` as a board and the step sizes it carries: a case's input
/// (`{"board": {...}, "args": [2, 4]}`, as `check`'s counterexample files
/// and `gen` write it) or a bare board (`{"squares": 16, "snadders": ...}`).
fn board_and_steps(input: &serde_json::Value) -> Result<(Board, Option<Vec<u64>>), String> {
    if input.get("board").is_some() {
        let case: A48Input = serde_json::from_value(input.clone()).map_err(|e| e.to_string())?;
        return Ok((case.board, Some(case.args)));
    }
    let board: Board = serde_json::from_value(input.clone()).map_err(|e| e.to_string())?;
    Ok((board, None))
}

pub(super) fn ask(
    question: &str,
    input: &serde_json::Value,
    typed: &[u64],
    reading: Reading,
) -> Result<String, String> {
    let (board, carried) = board_and_steps(input)?;
    let want = steps_wanted(question);
    let sizes = |n: usize| format!("{n} step size{}", if n == 1 { "" } else { "s" });
    // Typed step sizes win; else the case's own, when they fit the question.
    let steps: &[u64] = match carried.as_deref() {
        Some(case) if typed.is_empty() && case.len() == want => case,
        Some(case) if typed.is_empty() && want > 0 => {
            return Err(format!(
                "`{question}` takes {}, and the case gives {}: type {} after the question (`salgrade ref {question} --board FILE{}`)",
                sizes(want),
                case.len(),
                if want == 1 { "it" } else { "both" },
                if want == 1 { " S" } else { " S1 S2" }
            ));
        }
        _ => typed,
    };
    if steps.len() != want {
        return Err(format!(
            "`{question}` takes {}, {} given",
            sizes(want),
            steps.len()
        ));
    }
    if steps.contains(&0) {
        return Err("step sizes are positive integers".to_owned());
    }
    Ok(match question {
        "willfinish" => if a48::willfinish(&board, steps[0]) {
            "True"
        } else {
            "False"
        }
        .to_owned(),
        "finish-time" => match a48::finish_time(&board, steps[0]) {
            Some(t) => format!("{t}"),
            None => "never".to_owned(),
        },
        "whowins" => a48::accepted_winners(&board, steps[0], steps[1], reading)
            .into_iter()
            .map(|p| u8::from(p).to_string())
            .collect::<Vec<_>>()
            .join(" or "),
        "dualboard" => serde_json::to_string(&a48::dualboard(&board)).map_err(|e| e.to_string())?,
        "walk" => walk(&board, steps[0]),
        other => return Err(format!("a48 has no question `{other}`")),
    })
}

fn walk(board: &Board, step: u64) -> String {
    let (moves, end) = a48::walk(board, step, u64::from(board.squares()) + 1);
    let mut s = String::new();
    for m in &moves {
        s.push_str(&format!("move {}: {} -> {}", m.number, m.from, m.landed));
        if m.wrapped {
            s.push_str(" (wrapped)");
        }
        if m.to != m.landed {
            s.push_str(&format!(" -> snadder to {}", m.to));
        }
        s.push('\n');
    }
    s.push_str(&match end {
        a48::WalkEnd::Finished { at_move } => format!("finished on move {at_move}"),
        a48::WalkEnd::Loops {
            at_move,
            first_seen,
            square,
        } => format!(
            "move {at_move} returns to square {square}, first reached on move {first_seen}: the player loops forever"
        ),
        a48::WalkEnd::Truncated => "stopped".to_owned(),
    });
    s
}
