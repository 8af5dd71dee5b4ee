//! `--format csv`: one row per student, in one of three column layouts
//! (`--csv-layout`):
//!
//! - `salgrade` (default): `student`, each function's points, `penalty`,
//!   `total`, `max`, `warnings`.
//! - `markus`: a MarkUs marks-spreadsheet upload that imports to exactly
//!   salgrade's scores (see [`super::markus`]).
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
        CsvLayout::Markus => return Ok(super::markus::render(report, None)?.bytes),
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
