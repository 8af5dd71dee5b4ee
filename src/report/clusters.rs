//! `salgrade clusters`: every common mistake of a report, largest first,
//! with its members, board, answers, explanation and hint.

use super::Report;

pub(crate) fn render(report: &Report) -> String {
    if report.clusters.is_empty() {
        return "No common mistakes: no student failed a case (or the report predates them).\n"
            .to_owned();
    }
    let mut out = format!(
        "{} common mistake(s) in `{}`, largest first:\n",
        report.clusters.len(),
        report.assignment
    );
    for (i, c) in report.clusters.iter().enumerate() {
        out.push_str(&format!("\n{}. {}\n", i + 1, c.line()));
        out.push_str(&format!("   students: {}\n", clean(&c.students.join(", "))));
        if let Some(e) = &c.expected {
            out.push_str(&format!("   expected: {}\n", clean(e)));
        }
        match (&c.got, &c.detail) {
            (Some(g), _) => out.push_str(&format!("   given:    {}\n", clean(g))),
            (None, Some(d)) => out.push_str(&format!("   detail:   {}\n", clean(d))),
            (None, None) => {}
        }
        if let Some(h) = &c.hint {
            out.push_str(&format!("   hint:     {}\n", clean(h)));
        }
        if c.merged > 1 {
            out.push_str(&format!(
                "   ({} groups whose members fail each other's boards alike, merged)\n",
                c.merged
            ));
        }
        if c.boards.len() > 1 {
            out.push_str("   each one's own smallest board:\n");
            for (who, board) in &c.boards {
                out.push_str(&format!("     {}: {}\n", clean(who), clean(board)));
            }
        } else if let Some(case) = &c.case {
            out.push_str(&format!(
                "   board:    {}\n",
                clean(&serde_json::to_string(&case.input).unwrap_or_default())
            ));
        }
    }
    out
}

/// A student-controlled text on one line, as the groups' summary lines show it.
fn clean(text: &str) -> String {
    super::mistake::without_controls(text).collect()
}
