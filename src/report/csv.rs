//! `--format csv`: one row per student, columns a gradebook import takes
//! (student identifier first, then numeric columns).

use super::{Report, function_cells, header};

pub(crate) fn render(report: &Report) -> anyhow::Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(header(report, &["penalty", "total", "max", "warnings"]))?;
    for s in &report.students {
        let mut row = vec![s.student.clone()];
        row.extend(function_cells(report, s, |x| x.points.to_string()));
        row.push(s.penalty.to_string());
        row.push(s.score.to_string());
        row.push(s.max_score.to_string());
        row.push(s.warnings.join("; "));
        w.write_record(&row)?;
    }
    Ok(w.into_inner()?)
}
