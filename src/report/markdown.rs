//! `--format markdown`: the score table as a Markdown table.

use super::{LEGEND, Report, all_warnings, cell, function_cells, points, rules_cell};

fn escape(s: &str) -> String {
    s.replace('|', "\\|")
}

pub(crate) fn render(report: &Report) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "| student | {} | rules | total |\n",
        report.functions.join(" | ")
    ));
    out.push_str(&format!(
        "|---|{}---|---|\n",
        "---|".repeat(report.functions.len())
    ));
    for s in &report.students {
        let cells = function_cells(report, s, cell);
        let rules = rules_cell(s);
        out.push_str(&format!(
            "| {} | {} | {} | {}/{} |\n",
            escape(&s.student),
            cells.join(" | "),
            rules,
            points(s.score),
            points(s.max_score)
        ));
    }
    out.push_str(&format!("\n{LEGEND}\n"));
    let warnings = all_warnings(report);
    if !warnings.is_empty() {
        out.push_str("\n**Warnings**\n\n");
        for w in &warnings {
            out.push_str(&format!("- {}\n", w.replace('\n', " ")));
        }
    }
    out
}
