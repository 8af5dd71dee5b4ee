//! `--format csv`: one row per student, columns a gradebook import takes
//! (student identifier first, then numeric columns).

use super::Report;

pub(crate) fn render(report: &Report) -> anyhow::Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut header = vec!["student".to_owned()];
    header.extend(report.functions.iter().cloned());
    header.extend(["penalty", "total", "max", "warnings"].map(String::from));
    w.write_record(&header)?;
    for s in &report.students {
        let mut row = vec![s.student.clone()];
        for f in &report.functions {
            row.push(
                s.functions
                    .get(f)
                    .map(|x| x.points.to_string())
                    .unwrap_or_default(),
            );
        }
        row.push(s.penalty.to_string());
        row.push(s.score.to_string());
        row.push(s.max_score.to_string());
        row.push(s.warnings.join("; "));
        w.write_record(&row)?;
    }
    Ok(w.into_inner()?)
}
