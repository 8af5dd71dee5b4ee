//! `--format markdown`: the score table as a Markdown table.

use super::{Report, all_warnings, cell, function_cells, legend, points, rules_cell};

fn escape(s: &str) -> String {
    s.replace('|', "\\|")
}

pub(crate) fn render(report: &Report) -> String {
    // The rules column only where the assignment has a rule to check.
    let has_rule = report.rule.is_some();
    let mut out = String::new();
    out.push_str(&format!(
        "| student | {} |{} total |\n",
        report.functions.join(" | "),
        if has_rule { " rules |" } else { "" }
    ));
    out.push_str(&format!(
        "|---|{}{}---|\n",
        "---|".repeat(report.functions.len()),
        if has_rule { "---|" } else { "" }
    ));
    for s in &report.students {
        let cells = function_cells(report, s, cell);
        let rules = if has_rule {
            format!(" {} |", rules_cell(s))
        } else {
            String::new()
        };
        out.push_str(&format!(
            "| {} | {} |{rules} {}/{} |\n",
            escape(&s.student),
            cells.join(" | "),
            points(s.score),
            points(s.max_score)
        ));
    }
    out.push_str(&format!("\n{}\n", legend(report)));
    if !report.clusters.is_empty() {
        out.push_str("\n**Common mistakes**, largest first\n\n");
        out.push_str("| students | function | board | expected | given | why | hint | who |\n");
        out.push_str("|---|---|---|---|---|---|---|---|\n");
        for c in &report.clusters {
            let cells = [
                c.students.len().to_string(),
                if c.function.is_empty() {
                    "(the file)".to_owned()
                } else {
                    format!("`{}`", c.function)
                },
                c.input.clone(),
                c.expected.clone().unwrap_or_default(),
                c.got
                    .clone()
                    .unwrap_or_else(|| c.verdict.as_str().to_owned()),
                c.explanation.clone().unwrap_or_default(),
                c.hint.clone().unwrap_or_default(),
                c.students.join(", "),
            ];
            let cells: Vec<String> = cells
                .iter()
                .map(|t| escape(&t.replace('\n', " ")))
                .collect();
            out.push_str(&format!("| {} |\n", cells.join(" | ")));
        }
    }
    let warnings = all_warnings(report);
    if !warnings.is_empty() {
        out.push_str("\n**Warnings**\n\n");
        for w in &warnings {
            out.push_str(&format!("- {}\n", w.replace('\n', " ")));
        }
    }
    out
}
