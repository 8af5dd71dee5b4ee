//! `--format csv`: one row per student, in one of three column layouts
//! (`--csv-layout`):
//!
//! - `salgrade` (default): `student`, each function's points, `penalty`,
//!   `total`, `max`, `warnings`.
//! - `markus`: a MarkUs marks-spreadsheet upload that imports to exactly
//!   salgrade's scores (see [`super::markus`]).
//! - `generic`: a gradebook import: `identifier`, `total`, then each
//!   function's points with the rule's deduction folded in
//!   ([`super::folded`]), so the function columns add up to the total.
//! - `canvas`: a Canvas gradebook import (see [`super::canvas`]).
//!
//! A function a student was not graded on is an empty cell.
//!
//! Text cells (names, warnings) go through [`text_cell`]: a spreadsheet
//! reads a cell starting with `=`, `+`, `-` or `@` as a formula, so such a
//! cell gets a leading `'` (OWASP's advice for CSV injection). Two cases
//! keep their text: score cells, which are numbers we wrote, and a name
//! that is `+` or `-` followed only by letters, digits, `.`, `_` and `-`
//! (`-bob`), which no spreadsheet runs as a formula that calls anything and
//! which a gradebook (MarkUs, Canvas) must see as it is to match the user.

use clap::ValueEnum;

use super::cell::text_cell;
use super::folded::cents_text;
use super::{Report, StudentReport, function_cells, header};

/// The column layouts `--csv-layout` offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub(crate) enum CsvLayout {
    /// salgrade's own: student, each function's points, penalty, total, max, warnings.
    #[default]
    Salgrade,
    /// A MarkUs marks-spreadsheet upload: names row, "out of" row, then user name and marks.
    Markus,
    /// A gradebook import: identifier, total, then each function's points (the rule's deduction taken inside them, so they add up to the total).
    Generic,
    /// A Canvas gradebook import: the identity columns of the course's gradebook export (`--roster`), then the score under one assignment's column (`--canvas-assignment`).
    Canvas,
}

pub(crate) fn render(report: &Report, layout: CsvLayout) -> anyhow::Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    match layout {
        CsvLayout::Salgrade => {
            w.write_record(header(report, &["penalty", "total", "max", "warnings"]))?;
            for s in &report.students {
                let mut row = vec![text_cell(&s.student).into_owned()];
                row.extend(function_cells(report, s, |x| x.points.to_string()));
                row.push(s.penalty.to_string());
                row.push(s.score.to_string());
                row.push(s.max_score.to_string());
                row.push(text_cell(&s.warnings.join("; ")).into_owned());
                w.write_record(&row)?;
            }
        }
        CsvLayout::Markus => return Ok(super::markus::render(report, None)?.bytes),
        CsvLayout::Canvas => {
            anyhow::bail!("`--csv-layout canvas` needs the course's gradebook export (`--roster`)")
        }
        CsvLayout::Generic => {
            let mut head = vec!["identifier".to_owned(), "total".to_owned()];
            head.extend(report.functions.iter().cloned());
            w.write_record(&head)?;
            for s in &report.students {
                let mut row = vec![
                    text_cell(&s.student).into_owned(),
                    cents_text(super::folded::cents(s.score)),
                ];
                row.extend(points_cells(report, s));
                w.write_record(&row)?;
            }
        }
    }
    Ok(w.into_inner()?)
}

/// Each function's points with the rule's deduction folded in, empty where
/// the student has none.
fn points_cells(report: &Report, s: &StudentReport) -> Vec<String> {
    super::folded::folded(report, s)
        .into_iter()
        .map(|f| f.map(|f| cents_text(f.kept)).unwrap_or_default())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_are_neutralised_names_and_numbers_are_not() {
        for formula in [
            "=1+1",
            "@SUM(A1)",
            "+cmd|' /C calc'!A0",
            "-2+3",
            "\t=x",
            "\r=x",
        ] {
            assert_eq!(text_cell(formula), format!("'{formula}"), "{formula}");
        }
        for kept in ["alice", "-bob", "+carol.d", "-12", "o'neil", ""] {
            assert_eq!(text_cell(kept), kept, "{kept}");
        }
        let mut report =
            crate::report::whole_file::tests::one_student(&crate::verdict::Verdict::pass());
        report.students[0].student = "=HYPERLINK(\"http://x\")".into();
        report.students[0].warnings = vec!["-1+2".into()];
        for layout in [CsvLayout::Salgrade, CsvLayout::Generic, CsvLayout::Markus] {
            let text = String::from_utf8(render(&report, layout).unwrap()).unwrap();
            assert!(text.contains("\"'=HYPERLINK("), "{layout:?}: {text}");
            assert!(
                !text.contains(",=") && !text.contains("\n="),
                "{layout:?}: {text}"
            );
        }
    }
}
