//! `--format table`: the score table for a terminal.

use tabled::builder::Builder;
use tabled::settings::Style;

use super::{Report, cell, points};

pub(crate) fn render(report: &Report) -> String {
    let mut b = Builder::default();
    let mut header = vec!["student".to_owned()];
    header.extend(report.functions.iter().cloned());
    header.extend(["rules".to_owned(), "total".to_owned()]);
    b.push_record(header);
    for s in &report.students {
        let mut row = vec![s.student.clone()];
        for f in &report.functions {
            row.push(
                s.functions
                    .get(f)
                    .map(cell)
                    .unwrap_or_else(|| "-".to_owned()),
            );
        }
        row.push(if s.penalty > 0.0 {
            format!("-{}", points(s.penalty))
        } else {
            "ok".to_owned()
        });
        row.push(format!("{}/{}", points(s.score), points(s.max_score)));
        b.push_record(row);
    }
    let mut t = b.build();
    t.with(Style::sharp());
    let mut out = t.to_string();
    out.push('\n');
    out
}
