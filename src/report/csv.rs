//! `--format csv`: one row per student, in one of three column layouts
//! (`--csv-layout`):
//!
//! - `salgrade` (default): `student`, each function's points, `penalty`,
//!   `total`, `max`, `warnings`.
//! - `markus`: a MarkUs marks-spreadsheet upload. Two header rows, each
//!   starting with an empty cell MarkUs ignores: the column names (each
//!   function, then `total`), then each column's "out of". Then one row per
//!   student, the user name first (the submission's folder name, which is the
//!   MarkUs user or group name when the folders come from a MarkUs download).
//! - `generic`: a gradebook import: `identifier`, `total`, then each
//!   function's points.
//!
//! A function a student was not graded on is an empty cell.

use clap::ValueEnum;

use super::{Report, StudentReport, function_cells, header};

/// The column layouts `--csv-layout` offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub(crate) enum CsvLayout {
    /// salgrade's own: student, each function's points, penalty, total, max, warnings.
    #[default]
    Salgrade,
    /// A MarkUs marks-spreadsheet upload: names row, "out of" row, then user name and marks.
    Markus,
    /// A gradebook import: identifier, total, then each function's points.
    Generic,
}

pub(crate) fn render(report: &Report, layout: CsvLayout) -> anyhow::Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    match layout {
        CsvLayout::Salgrade => {
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
        }
        CsvLayout::Markus => {
            let mut names = vec![String::new()];
            names.extend(report.functions.iter().cloned());
            names.push("total".to_owned());
            w.write_record(&names)?;
            let mut out_of = vec![String::new()];
            out_of.extend(report.functions.iter().map(|f| {
                report
                    .students
                    .iter()
                    .find_map(|s| s.functions.get(f))
                    .map(|x| x.max_points.to_string())
                    .unwrap_or_default()
            }));
            out_of.push(
                report
                    .students
                    .iter()
                    .map(|s| s.max_score)
                    .fold(0.0, f64::max)
                    .to_string(),
            );
            w.write_record(&out_of)?;
            for s in &report.students {
                let mut row = vec![s.student.clone()];
                row.extend(points_cells(report, s));
                row.push(s.score.to_string());
                w.write_record(&row)?;
            }
        }
        CsvLayout::Generic => {
            let mut head = vec!["identifier".to_owned(), "total".to_owned()];
            head.extend(report.functions.iter().cloned());
            w.write_record(&head)?;
            for s in &report.students {
                let mut row = vec![s.student.clone(), s.score.to_string()];
                row.extend(points_cells(report, s));
                w.write_record(&row)?;
            }
        }
    }
    Ok(w.into_inner()?)
}

/// Each function's points, empty where the student has none.
fn points_cells(report: &Report, s: &StudentReport) -> Vec<String> {
    report
        .functions
        .iter()
        .map(|f| {
            s.functions
                .get(f)
                .map(|x| x.points.to_string())
                .unwrap_or_default()
        })
        .collect()
}
