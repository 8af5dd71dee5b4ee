//! `--format csv --csv-layout canvas`: a CSV that Canvas's gradebook import
//! reads into one existing assignment, for the students of the course's
//! own gradebook export (`--roster`). Pure.
//!
//! The rules it is written for are Canvas's importer
//! (`instructure/canvas-lms`, `app/models/gradebook_importer.rb`, the
//! version whose `ASSIGNMENT_PRELOADED_FIELDS` end with `final_grader_id`,
//! as stored in the public code index; with `Assignment.title_and_id`):
//!
//! - The header must start `Student, ID` (or `LastName, FirstName, ID`),
//!   optionally `SIS Login ID`, or `SIS User ID, SIS Login ID` (with
//!   `Integration ID` and `Root Account` after them), then `Section`. So the
//!   identity columns are copied, header and cells, from the course's own
//!   export, never made up.
//! - Every later column is an assignment: a header `Title (ID)` matches the
//!   existing assignment with that ID; any other header matches an
//!   assignment titled exactly so, or creates a new one. So the output has
//!   exactly one grade column, the export's own header of the assignment
//!   `--canvas-assignment` names (its ID, its title, or the whole header):
//!   salgrade's `penalty,total,max,warnings` would have made four new
//!   assignments.
//! - A row is matched to a student by `ID`, then `SIS User ID`, then
//!   `SIS Login ID`, then the exact name: the copied cells match by `ID`.
//! - A cell is read with `,` and `.` both taken as the decimal point
//!   (`1,234` is 1.234): scores are written as plain decimals, `80.91`.
//! - A blank cell clears a grade the student already has. So a student of
//!   the gradebook without a submission gets no row at all (Canvas leaves
//!   their grade as it is, which may have been entered by hand) unless
//!   `--missing zero` asks for a 0; either way a warning names them.
//!
//! Submissions are matched to the gradebook's students by the Canvas user
//! id their identifier carries (discovery names a Canvas download's
//! student `smithjohn_50011` from `smithjohn_50011_123456_min_throws.py`),
//! else by login: the identifier equal to the `SIS Login ID` (or the part
//! before its `@`), then to the `SIS User ID`, then to the `ID`. A
//! submission that matches no student, or two submissions that match one,
//! are named in a warning with their scores: their rows would be wrong, so
//! they are entered by hand.

use std::collections::BTreeMap;
use std::path::Path;

use clap::ValueEnum;

use super::cell::text_cell;
use super::folded::{cents, cents_text};
use super::{Report, points};

/// What a student of the gradebook without a submission gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub(crate) enum Missing {
    /// No row: Canvas keeps the grade they have (a blank cell would clear it).
    #[default]
    Keep,
    /// A row with 0.
    Zero,
}

/// Why a gradebook export could not be used.
#[derive(Debug, thiserror::Error)]
pub(crate) enum GradebookError {
    #[error("cannot read the Canvas gradebook `{path}`")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("the Canvas gradebook `{path}` is not CSV")]
    Csv {
        path: String,
        #[source]
        source: csv::Error,
    },
    #[error(
        "`{path}` is not a Canvas gradebook export: its header must start `Student,ID` and reach `Section` (Grades, Export, \"Export Entire Gradebook\")"
    )]
    Header { path: String },
    #[error(
        "the Canvas gradebook `{path}` has no assignment column `{wanted}`; its assignments: {found}"
    )]
    NoColumn {
        path: String,
        wanted: String,
        found: String,
    },
    #[error(
        "in the Canvas gradebook `{path}`, `{wanted}` names {count} assignment columns ({found}); give the assignment's ID"
    )]
    Ambiguous {
        path: String,
        wanted: String,
        count: usize,
        found: String,
    },
    #[error("the Canvas gradebook `{path}`, line {line}: a student without an `ID`")]
    NoId { path: String, line: usize },
}

/// One student of the gradebook: the identity cells as exported, and the
/// keys a submission is matched by.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Student {
    cells: Vec<String>,
    name: String,
    id: String,
    sis_user: Option<String>,
    sis_login: Option<String>,
}

/// The course's gradebook export, read for one assignment's column.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Gradebook {
    path: String,
    /// The identity columns' headers, `Student` to `Section`.
    header: Vec<String>,
    students: Vec<Student>,
    /// The assignment's column header, as exported (`A1 (12345)`).
    column: String,
    /// The assignment's points possible, when the export gives them.
    points_possible: Option<f64>,
}

/// Canvas's non-assignment columns (and their "Unposted" forms, which
/// contain these words).
const NOT_ASSIGNMENTS: [&str; 9] = [
    "Current Score",
    "Current Points",
    "Current Grade",
    "Final Score",
    "Final Points",
    "Final Grade",
    "Override Score",
    "Override Grade",
    "Override Status",
];

impl Gradebook {
    /// Reads a gradebook export for the assignment `assignment` names.
    pub(crate) fn read(path: &Path, assignment: &str) -> Result<Gradebook, GradebookError> {
        let shown = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|source| GradebookError::Read {
            path: shown.clone(),
            source,
        })?;
        Gradebook::parse(&bytes, &shown, assignment)
    }

    /// Parses an export's bytes; `path` names it in errors.
    pub(crate) fn parse(
        bytes: &[u8],
        path: &str,
        assignment: &str,
    ) -> Result<Gradebook, GradebookError> {
        let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
        let delimiter = delimiter(bytes);
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .delimiter(delimiter)
            .from_reader(bytes);
        let csv_err = |source| GradebookError::Csv {
            path: path.to_owned(),
            source,
        };
        let mut records = reader.records();
        let header = header_row(&mut records, path)?;
        let layout = Layout::of(&header).ok_or_else(|| GradebookError::Header {
            path: path.to_owned(),
        })?;
        let column = choose_column(&header, layout.section + 1, assignment, path)?;
        let mut students = Vec::new();
        let mut points_possible = None;
        for (i, record) in records.enumerate() {
            let record = record.map_err(csv_err)?;
            let cells: Vec<&str> = record.iter().collect();
            if blank(&record) || muted(&cells) {
                continue;
            }
            if cells[0].contains("Points Possible") {
                points_possible = cells.get(column).and_then(|c| number(c));
                continue;
            }
            let cell = |i: usize| {
                cells
                    .get(i)
                    .map(|c| c.trim().to_owned())
                    .unwrap_or_default()
            };
            let id = cell(layout.id);
            if id.is_empty() {
                return Err(GradebookError::NoId {
                    path: path.to_owned(),
                    line: i + 2,
                });
            }
            let some = |i: Option<usize>| i.map(cell).filter(|c| !c.is_empty());
            students.push(Student {
                cells: (0..=layout.section).map(cell).collect(),
                name: if layout.last_first {
                    format!("{} {}", cell(1), cell(0)).trim().to_owned()
                } else {
                    cell(0)
                },
                id,
                sis_user: some(layout.sis_user),
                sis_login: some(layout.sis_login),
            });
        }
        Ok(Gradebook {
            path: path.to_owned(),
            header: header[..=layout.section].to_vec(),
            column: header[column].clone(),
            students,
            points_possible,
        })
    }

    /// The student a submission's identifier is, by the rules in the
    /// module's documentation; `Err` with how many matched when not one.
    fn match_of(&self, identifier: &str) -> Result<usize, usize> {
        let one = |hits: Vec<usize>| match hits.as_slice() {
            [one] => Some(Ok(*one)),
            [] => None,
            many => Some(Err(many.len())),
        };
        let by = |keep: &dyn Fn(&Student) -> bool| -> Vec<usize> {
            (0..self.students.len())
                .filter(|&i| keep(&self.students[i]))
                .collect()
        };
        if let Some(uid) = canvas_user_id(identifier) {
            if let Some(found) = one(by(&|s| s.id == uid)) {
                return found;
            }
        }
        let login = |s: &Student| s.sis_login.clone().unwrap_or_default();
        let tries: [&dyn Fn(&Student) -> bool; 5] = [
            &|s| login(s) == identifier,
            &|s| login(s).eq_ignore_ascii_case(identifier),
            &|s| {
                login(s)
                    .split_once('@')
                    .is_some_and(|(local, _)| local.eq_ignore_ascii_case(identifier))
            },
            &|s| s.sis_user.as_deref() == Some(identifier),
            &|s| s.id == identifier,
        ];
        for keep in tries {
            if let Some(found) = one(by(keep)) {
                return found;
            }
        }
        Err(0)
    }
}

/// Where the identity columns are, as Canvas's importer finds them.
#[derive(Debug, Clone, Copy)]
struct Layout {
    last_first: bool,
    id: usize,
    sis_user: Option<usize>,
    sis_login: Option<usize>,
    section: usize,
}

impl Layout {
    fn of(header: &[String]) -> Option<Layout> {
        let at = |i: usize| header.get(i).map(String::as_str).unwrap_or_default();
        let last_first = at(0) == "LastName" && at(1) == "FirstName";
        let id = if last_first { 2 } else { 1 };
        let starts = if last_first {
            at(2).contains("ID")
        } else {
            at(0).contains("Student") && at(1).contains("ID")
        };
        if !starts {
            return None;
        }
        let words = |cell: &str, want: &str| {
            cell.split_whitespace().collect::<Vec<_>>() == want.split(' ').collect::<Vec<_>>()
        };
        let mut next = id + 1;
        let (mut sis_user, mut sis_login) = (None, None);
        if words(at(next), "SIS Login ID") {
            sis_login = Some(next);
            next += 1;
        } else if words(at(next), "SIS User ID") && words(at(next + 1), "SIS Login ID") {
            sis_user = Some(next);
            sis_login = Some(next + 1);
            next += 2;
            if words(at(next), "Integration ID") {
                next += 1;
            }
            if words(at(next), "Root Account") {
                next += 1;
            }
        }
        at(next).contains("Section").then_some(Layout {
            last_first,
            id,
            sis_user,
            sis_login,
            section: next,
        })
    }
}

/// The first row of an export that is not blank: its header.
fn header_row(
    records: &mut csv::StringRecordsIter<'_, &[u8]>,
    path: &str,
) -> Result<Vec<String>, GradebookError> {
    for r in records {
        let r = r.map_err(|source| GradebookError::Csv {
            path: path.to_owned(),
            source,
        })?;
        if !blank(&r) {
            return Ok(r.iter().map(str::to_owned).collect());
        }
    }
    Err(GradebookError::Header {
        path: path.to_owned(),
    })
}

/// Canvas's choice between `;` and `,`: the one that splits the first
/// three lines into the same number of fields, `;` only when it gives more.
fn delimiter(bytes: &[u8]) -> u8 {
    let mut lines: Vec<&[u8]> = bytes.split(|b| *b == b'\n').take(4).collect();
    // A file's last line ends in a newline: no empty line after it.
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines.truncate(3);
    let fields = |d: u8| -> usize {
        let counts: Vec<usize> = lines
            .iter()
            .map(|l| {
                csv::ReaderBuilder::new()
                    .has_headers(false)
                    .delimiter(d)
                    .from_reader(*l)
                    .records()
                    .next()
                    .and_then(Result::ok)
                    .map_or(0, |r| r.len())
            })
            .collect();
        let first = counts.first().copied().unwrap_or(0);
        if counts.iter().all(|c| *c == first) {
            first
        } else {
            0
        }
    };
    if fields(b';') > fields(b',') {
        b';'
    } else {
        b','
    }
}

fn blank(record: &csv::StringRecord) -> bool {
    record
        .iter()
        .all(|c| c.chars().all(|ch| ch == ' ' || ch == ',' || ch == ';'))
}

/// A row of "Muted" or "Manual Posting" marks under the header.
fn muted(cells: &[&str]) -> bool {
    cells.iter().all(|c| {
        let c = c.trim();
        c.is_empty()
            || c.eq_ignore_ascii_case("muted")
            || c.to_lowercase().starts_with("manual posting")
    })
}

/// A number as Canvas reads a cell: `,` and `.` both decimal points, the
/// last one taken as it (`1,234` is 1.234).
fn number(cell: &str) -> Option<f64> {
    let cell = cell.trim();
    let ok = !cell.is_empty()
        && cell
            .trim_start_matches('-')
            .chars()
            .all(|c| c.is_ascii_digit() || c == ',' || c == '.');
    if !ok {
        return None;
    }
    let text = match cell.rfind([',', '.']) {
        Some(at) => format!("{}.{}", cell[..at].replace([',', '.'], ""), &cell[at + 1..]),
        None => cell.to_owned(),
    };
    text.parse().ok()
}

/// `Title (123)` split into the title and the ID.
fn title_and_id(header: &str) -> (&str, Option<&str>) {
    if let Some(open) = header.strip_suffix(')').and_then(|h| h.rfind(" (")) {
        let id = &header[open + 2..header.len() - 1];
        if !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()) {
            return (&header[..open], Some(id));
        }
    }
    (header, None)
}

/// The index of the assignment column `wanted` names: the whole header, the
/// ID in `Title (ID)`, or the title.
fn choose_column(
    header: &[String],
    first: usize,
    wanted: &str,
    path: &str,
) -> Result<usize, GradebookError> {
    let wanted = wanted.trim();
    let assignments: Vec<usize> = (first..header.len())
        .filter(|&i| !NOT_ASSIGNMENTS.iter().any(|n| header[i].contains(n)))
        .filter(|&i| !header[i].trim().is_empty())
        .collect();
    let list = |found: &[usize]| {
        let names: Vec<String> = found.iter().map(|&i| format!("`{}`", header[i])).collect();
        if names.is_empty() {
            "none".to_owned()
        } else {
            names.join(", ")
        }
    };
    let tries: [&dyn Fn(&str) -> bool; 3] = [
        &|h| h == wanted,
        &|h| title_and_id(h).1 == Some(wanted),
        &|h| title_and_id(h).0 == wanted,
    ];
    for matches in tries {
        let hits: Vec<usize> = assignments
            .iter()
            .copied()
            .filter(|&i| matches(header[i].trim()))
            .collect();
        match hits.as_slice() {
            [one] => return Ok(*one),
            [] => {}
            many => {
                return Err(GradebookError::Ambiguous {
                    path: path.to_owned(),
                    wanted: wanted.to_owned(),
                    count: many.len(),
                    found: list(many),
                });
            }
        }
    }
    Err(GradebookError::NoColumn {
        path: path.to_owned(),
        wanted: wanted.to_owned(),
        found: list(&assignments),
    })
}

/// The Canvas user id an identifier carries (`smithjohn_50011`), as
/// discovery names a Canvas download's students.
pub(crate) fn canvas_user_id(identifier: &str) -> Option<&str> {
    let (head, tail) = identifier.rsplit_once('_')?;
    (!head.is_empty() && !tail.is_empty() && tail.bytes().all(|b| b.is_ascii_digit()))
        .then_some(tail)
}

/// The import, and a warning per submission or student it leaves out.
#[derive(Debug)]
pub(crate) struct Import {
    pub bytes: Vec<u8>,
    pub warnings: Vec<String>,
}

/// The Canvas import of `report` for the students of `gradebook`.
pub(crate) fn render(
    report: &Report,
    gradebook: &Gradebook,
    missing: Missing,
) -> anyhow::Result<Import> {
    let mut warnings = Vec::new();
    let mut rows: BTreeMap<usize, Vec<&super::StudentReport>> = BTreeMap::new();
    let mut unmatched = Vec::new();
    for s in &report.students {
        match gradebook.match_of(&s.student) {
            Ok(i) => rows.entry(i).or_default().push(s),
            Err(n) => unmatched.push((s, n)),
        }
    }
    let path = &gradebook.path;
    warnings.extend(unmatched_warnings(&unmatched, path));
    warnings.extend(points_possible_warning(report, gradebook));
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut head = gradebook.header.clone();
    head.push(gradebook.column.clone());
    w.write_record(&head)?;
    let mut without = Vec::new();
    for (i, student) in gradebook.students.iter().enumerate() {
        let score = match rows.get(&i).map(Vec::as_slice) {
            Some([s]) => cents_text(cents(s.score)),
            Some(many) => {
                let names: Vec<String> = many
                    .iter()
                    .map(|s| format!("`{}` (score {})", s.student, points(s.score)))
                    .collect();
                warnings.push(format!(
                    "{} all match the student `{}` (ID {}) of `{path}`, so their row is left out: enter the right score by hand",
                    names.join(" and "),
                    student.name,
                    student.id
                ));
                continue;
            }
            None => {
                without.push(format!("`{}` (ID {})", student.name, student.id));
                match missing {
                    Missing::Keep => continue,
                    Missing::Zero => "0".to_owned(),
                }
            }
        };
        let mut row: Vec<String> = student
            .cells
            .iter()
            .map(|c| text_cell(c).into_owned())
            .collect();
        row.push(score);
        w.write_record(&row)?;
    }
    if !without.is_empty() {
        let what = match missing {
            Missing::Keep => {
                "have no row, so Canvas keeps the grade they have (`--missing zero` gives them 0)"
            }
            Missing::Zero => "get 0 (`--missing zero`)",
        };
        warnings.push(format!(
            "{} student(s) of `{path}` have no submission and {what}: {}",
            without.len(),
            without.join(", ")
        ));
    }
    Ok(Import {
        bytes: w.into_inner()?,
        warnings,
    })
}

/// What to say of each submission no student of the gradebook matches
/// (`n`: how many did).
fn unmatched_warnings(unmatched: &[(&super::StudentReport, usize)], path: &str) -> Vec<String> {
    unmatched
        .iter()
        .map(|(s, n)| {
            let why = if *n == 0 {
                match canvas_user_id(&s.student) {
                    Some(uid) => format!("no student with Canvas ID {uid}"),
                    None => format!(
                        "no student whose ID, SIS Login ID or SIS User ID is `{}`",
                        s.student
                    ),
                }
            } else {
                format!("{n} students match it")
            };
            format!(
                "`{}` (score {}) is not in the import: the gradebook `{path}` has {why}; enter the score by hand",
                s.student,
                points(s.score)
            )
        })
        .collect()
}

/// A warning when the Canvas assignment is out of other points than
/// salgrade's scores.
fn points_possible_warning(report: &Report, gradebook: &Gradebook) -> Option<String> {
    let first = report.students.first()?;
    let pp = gradebook.points_possible?;
    (cents(pp) != cents(first.max_score)).then(|| {
        format!(
            "the Canvas assignment `{}` is out of {} points, salgrade's scores out of {}: set its points possible to {} in Canvas, or its percentages will be wrong",
            gradebook.column,
            points(pp),
            points(first.max_score),
            points(first.max_score)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXPORT: &str = "\u{feff}Student,ID,SIS User ID,SIS Login ID,Section,A1 (101),min throws (202),Notes,Current Score\n    Points Possible,,,,,100.00,100.00,,\n\"Smith, John\",50011,s1,jsmith@uni.edu,L01,,,,\n\"Smith, John\",50012,s2,jsmith2@uni.edu,L01,,,,\n\"Lee, Ann\",50013,s3,alee,L02,12,,,\n";

    #[test]
    fn a_gradebook_export_gives_identity_columns_and_the_named_column() {
        for wanted in ["202", "min throws", "min throws (202)"] {
            let g = Gradebook::parse(EXPORT.as_bytes(), "g.csv", wanted).unwrap();
            assert_eq!(g.column, "min throws (202)");
            assert_eq!(
                g.header,
                ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
            );
            assert_eq!(g.students.len(), 3);
            assert_eq!(g.points_possible, Some(100.0));
        }
        let e = Gradebook::parse(EXPORT.as_bytes(), "g.csv", "A2").unwrap_err();
        assert!(
            e.to_string()
                .contains("`A1 (101)`, `min throws (202)`, `Notes`"),
            "{e}"
        );
        let e = Gradebook::parse(b"name,id\nx,1\n", "g.csv", "A1").unwrap_err();
        assert!(matches!(e, GradebookError::Header { .. }), "{e}");
    }

    #[test]
    fn submissions_match_by_canvas_user_id_then_login() {
        let g = Gradebook::parse(EXPORT.as_bytes(), "g.csv", "202").unwrap();
        assert_eq!(g.match_of("smithjohn_50012"), Ok(1));
        assert_eq!(g.match_of("smithjohn_50011"), Ok(0));
        assert_eq!(g.match_of("alee"), Ok(2));
        assert_eq!(g.match_of("ALEE"), Ok(2));
        assert_eq!(g.match_of("jsmith"), Ok(0));
        assert_eq!(g.match_of("s2"), Ok(1));
        assert_eq!(g.match_of("50013"), Ok(2));
        assert_eq!(g.match_of("nobody_999"), Err(0));
        assert_eq!(canvas_user_id("team_1"), Some("1"));
        assert_eq!(canvas_user_id("alice"), None);
    }

    #[test]
    fn a_semicolon_export_is_read() {
        let text = "Student;ID;Section;A1 (7)\n\"Lee, Ann\";5;L01;1,5\n";
        let g = Gradebook::parse(text.as_bytes(), "g.csv", "7").unwrap();
        assert_eq!(g.students[0].name, "Lee, Ann");
        assert_eq!(g.column, "A1 (7)");
        assert_eq!(number("1,234"), Some(1.234));
        assert_eq!(number("1.234,5"), Some(1234.5));
        assert_eq!(number("100.00"), Some(100.0));
        assert_eq!(number("-"), None);
    }
}
