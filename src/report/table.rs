//! `--format table`: the score table for a terminal.

use tabled::builder::Builder;
use tabled::settings::Style;

use super::{Report, cell, function_cells, header, points, rules_cell};

pub(crate) fn render(report: &Report) -> String {
    let mut b = Builder::default();
    b.push_record(header(report, &["rules", "total"]));
    for s in &report.students {
        let mut row = vec![s.student.clone()];
        row.extend(function_cells(report, s, cell));
        row.push(rules_cell(s));
        row.push(format!("{}/{}", points(s.score), points(s.max_score)));
        b.push_record(row);
    }
    let mut t = b.build();
    t.with(Style::sharp());
    let mut out = t.to_string();
    out.push('\n');
    out
}
