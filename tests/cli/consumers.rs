//! The consumers of salgrade's course-platform formats, re-implemented from
//! their own source (each function cites the repository, file and commit it
//! follows; none of their code is copied), so a test can ask "what would
//! this platform record?" rather than "does salgrade read its own output
//! back?". Where the real consumer can run here, `formats.rs` runs it too.

use std::collections::BTreeMap;

/// What MarkUs records from a marks-spreadsheet upload.
#[derive(Debug, Default)]
pub(crate) struct MarkusImport {
    /// The spreadsheet's items, in order: name and "out of".
    pub items: Vec<(String, f64)>,
    /// Each matched user's grades, one per item (`None`: blank).
    pub grades: BTreeMap<String, Vec<Option<f64>>>,
    /// Rows MarkUs rejects, by their first cell.
    pub invalid: Vec<String>,
}

impl MarkusImport {
    /// The spreadsheet's maximum: the items' "out of" added up (no bonus
    /// items can come from an upload).
    pub(crate) fn max_mark(&self) -> f64 {
        self.items.iter().map(|(_, o)| o).sum()
    }

    /// A user's total as MarkUs shows it: the sum of the non-blank grades,
    /// at least 0; `None` when every grade is blank.
    pub(crate) fn total(&self, user: &str) -> Option<f64> {
        let grades = self.grades.get(user)?;
        if grades.iter().all(Option::is_none) {
            return None;
        }
        Some(grades.iter().flatten().sum::<f64>().max(0.0))
    }
}

/// Ruby's `Float(text, exception: false)` for the decimal numbers a grade
/// can be: `None` for anything else (an empty cell included).
fn ruby_float(text: Option<&str>) -> Option<f64> {
    let t = text?;
    let ok = !t.is_empty()
        && t.chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E'));
    if ok { t.parse().ok() } else { None }
}

/// MarkUs's marks-spreadsheet upload: `GradeEntryForm#from_csv` in
/// `MarkUsProject/Markus` `app/models/grade_entry_form.rb`, with
/// `MarkusCsv.parse` (`app/lib/markus_csv.rb`), at commit
/// 4401041cde7e11b738f9949e122ea9d287840c47.
///
/// - Rows whose cells are all empty are skipped.
/// - Row 1: the column names. Row 2: each column's "out of"; a cell that is
///   not a number ≥ 0 marks its column as skipped. When "Show Total" is on
///   and the last name is exactly `Total`, the last column is skipped too.
///   The remaining columns become the items.
/// - Every later row: the first cell must be a known user name (else the
///   row is invalid); the skipped columns are dropped; each remaining cell
///   is the grade of the item at its position, blank unless it is a number
///   ≥ 0.
pub(crate) fn markus_import(csv_text: &str, users: &[&str], show_total: bool) -> MarkusImport {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(csv_text.as_bytes());
    let mut names: Vec<Option<String>> = Vec::new();
    let mut keep: Vec<bool> = Vec::new();
    let mut out = MarkusImport::default();
    for record in reader.records() {
        let record = record.expect("MarkUs rejects a malformed CSV outright");
        let cells: Vec<Option<&str>> = record
            .iter()
            .map(|c| if c.is_empty() { None } else { Some(c) })
            .collect();
        if cells.iter().all(Option::is_none) {
            continue;
        }
        if names.is_empty() {
            names = cells.iter().map(|c| c.map(str::to_owned)).collect();
            continue;
        }
        if keep.is_empty() {
            let totals: Vec<Option<f64>> = cells
                .iter()
                .map(|c| ruby_float(*c).filter(|x| *x >= 0.0))
                .collect();
            keep = totals.iter().map(Option::is_some).collect();
            if show_total && names.last().cloned().flatten().as_deref() == Some("Total") {
                if let Some(last) = keep.last_mut() {
                    *last = false;
                }
            }
            // `names.reject.with_index { totals[i].nil? }`: names past the
            // "out of" row's end have no total, so they go too.
            let kept: Vec<String> = names
                .iter()
                .enumerate()
                .filter(|(i, _)| keep.get(*i).copied().unwrap_or(false))
                .map(|(_, n)| n.clone().unwrap_or_default())
                .collect();
            let outs: Vec<f64> = totals.into_iter().flatten().collect();
            assert_eq!(kept.len(), outs.len(), "MarkUs: invalid header rows");
            out.items = kept.into_iter().zip(outs).collect();
            continue;
        }
        let user = cells[0].unwrap_or_default();
        if !users.contains(&user) {
            out.invalid.push(user.to_owned());
            continue;
        }
        let grades: Vec<Option<f64>> = cells
            .iter()
            .enumerate()
            .filter(|(i, _)| keep.get(*i).copied().unwrap_or(false))
            .map(|(_, c)| ruby_float(*c).filter(|x| *x >= 0.0))
            .collect();
        let mut row = vec![None; out.items.len()];
        for (slot, g) in row.iter_mut().zip(grades) {
            *slot = g;
        }
        out.grades.insert(user.to_owned(), row);
    }
    out
}

/// The Python that has `modules`, or `None` (with a message saying the
/// test is skipped) when there is none. `SALGRADE_TEST_PYTHON` names it
/// (`.ci/run` points it at a virtual environment holding
/// `tests/requirements.txt`); default `python3`.
pub(crate) fn python_with(modules: &[&str], test: &str) -> Option<String> {
    let python = std::env::var("SALGRADE_TEST_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let import = format!("import {}", modules.join(", "));
    let ok = std::process::Command::new(&python)
        .args(["-c", &import])
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        Some(python)
    } else {
        eprintln!(
            "skipped {test}: `{python}` cannot `{import}` (pip install -r tests/requirements.txt, or set SALGRADE_TEST_PYTHON)"
        );
        None
    }
}

/// dorny/test-reporter's reading of a JUnit time
/// (`src/parsers/java-junit/java-junit-parser.ts` at commit
/// 29672c52a8220c09bd9f79b5b6cf6315f1763996): JavaScript's `parseFloat` of
/// the `time` attribute of every `<testsuite>` and `<testcase>`, so a
/// missing one is NaN. The names of the elements whose time is not a number.
pub(crate) fn dorny_nan_times(xml: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(xml).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("testsuite") || n.has_tag_name("testcase"))
        .filter(|n| {
            n.attribute("time")
                .and_then(|t| t.trim().parse::<f64>().ok())
                .is_none_or(|t| !t.is_finite())
        })
        .map(|n| n.attribute("name").unwrap_or_default().to_owned())
        .collect()
}

/// What GitHub Classroom's autograding reporter does with the runners'
/// results: the job log it prints and the points it sends.
#[derive(Debug)]
pub(crate) struct ClassroomRun {
    /// The log's text (without colours and the table's borders).
    pub log: String,
    /// The table's last row: the runners' scores and maxima added up.
    pub table_total: (f64, f64),
    /// What Classroom records (the "Autograding report" notice), if anything.
    pub recorded: Option<(f64, f64)>,
}

/// `classroom-resources/autograding-grading-reporter` at tag v1 (commit
/// d13b5912daf5042ac1b71bc38bdb4a6bcd61d8ca): `src/console-results.js`,
/// `src/aggregate-results.js`, `src/notify-classroom.js` and
/// `src/helpers/test-helpers.js`, in the same order of floating-point
/// additions.
///
/// - Per runner, per test: a ✅/❌ line with the name (and `line N` when
///   `line_no` is not 0) for `pass`/other statuses, but for `error` only
///   `Error: <message>`; then `Test code:` and `test_code` when it is not
///   empty. Then, when `max_score` is not 0, `Total points for R:
///   S.toFixed(2)/max`, where S = tests with status `pass` ÷ tests ×
///   `max_score` (NaN for a runner without tests).
/// - A table row per runner (name, S, `max_score`), then `Total:` with S and
///   `max_score` added up over runners.
/// - Recorded: over runners whose `max_score` is not 0, the tests' `score`s
///   added up and the `max_score`s added up; nothing when that maximum is 0.
pub(crate) fn classroom_reporter(runners: &[(&str, &serde_json::Value)]) -> ClassroomRun {
    use std::fmt::Write as _;
    let mut log = String::new();
    let shown_score = |r: &serde_json::Value| {
        let tests = r["tests"].as_array().unwrap();
        let passed = tests.iter().filter(|t| t["status"] == "pass").count();
        passed as f64 / tests.len() as f64 * r["max_score"].as_f64().unwrap_or(0.0)
    };
    for (name, r) in runners {
        let _ = writeln!(log, "Processing: {name}");
        for t in r["tests"].as_array().unwrap() {
            let test = t["name"].as_str().unwrap();
            let line = t["line_no"].as_u64().unwrap_or(0);
            let at = if line != 0 {
                format!(" - line {line}")
            } else {
                String::new()
            };
            match t["status"].as_str().unwrap() {
                "pass" => {
                    let _ = writeln!(log, "✅ {test}{at}");
                }
                "error" => {
                    let message = t["message"].as_str().unwrap_or_default();
                    let _ = writeln!(log, "Error: {message}");
                }
                _ => {
                    let _ = writeln!(log, "❌ {test}{at}");
                }
            }
            if let Some(code) = t["test_code"].as_str().filter(|c| !c.is_empty()) {
                let _ = writeln!(log, "Test code:\n{code}\n");
            }
        }
        let max = r["max_score"].as_f64().unwrap_or(0.0);
        if max != 0.0 {
            let _ = writeln!(log, "Total points for {name}: {:.2}/{max}", shown_score(r));
        }
    }
    let mut table_total = (0.0, 0.0);
    for (name, r) in runners {
        let (score, max) = (shown_score(r), r["max_score"].as_f64().unwrap_or(0.0));
        let _ = writeln!(log, "| {name} | {score} | {max} |");
        table_total.0 += score;
        table_total.1 += max;
    }
    let _ = writeln!(log, "| Total: | {} | {} |", table_total.0, table_total.1);
    let (mut total, mut max) = (0.0, 0.0);
    for (_, r) in runners {
        let m = r["max_score"].as_f64().unwrap_or(0.0);
        if m == 0.0 {
            continue;
        }
        max += m;
        for t in r["tests"].as_array().unwrap() {
            total += t["score"].as_f64().unwrap();
        }
    }
    let recorded = if max == 0.0 { None } else { Some((total, max)) };
    ClassroomRun {
        log,
        table_total,
        recorded,
    }
}

/// A Canvas course as its gradebook importer looks it up: the assignments
/// by ID and title, the students by ID, SIS user id, login and name.
#[derive(Debug, Clone, Default)]
pub(crate) struct CanvasCourse {
    pub assignments: Vec<(u64, String)>,
    pub students: Vec<CanvasUser>,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct CanvasUser {
    pub id: u64,
    pub name: String,
    pub sortable_name: String,
    pub sis_user_id: Option<String>,
    pub login_id: String,
}

/// A column of the import: an existing assignment (by ID) or a new one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CanvasColumn {
    Existing(u64),
    New(String),
}

/// A row's student: an existing one (by ID) or a new user made from the name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum CanvasStudent {
    Existing(u64),
    New(String),
}

/// What Canvas's gradebook import makes of a CSV.
#[derive(Debug, Default)]
pub(crate) struct CanvasImport {
    /// Canvas's "Invalid header row".
    pub invalid_header: bool,
    pub columns: Vec<CanvasColumn>,
    /// Each row's student and its cells under the columns (`None`: blank),
    /// after Canvas's conversions (`1,5` is `1.5`).
    pub rows: Vec<(CanvasStudent, Vec<Option<String>>)>,
}

/// Canvas's `decimal_comma_to_period` converter: a cell that is only
/// digits, `.` and `,` (a `-` before, a `%` after) has its last separator
/// read as the decimal point and the others dropped (Ruby's `split`, which
/// drops trailing empty parts).
fn canvas_decimal(cell: &str) -> String {
    let body = cell.strip_prefix('-').unwrap_or(cell);
    let body = body.strip_suffix('%').unwrap_or(body);
    if body.is_empty()
        || !body
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
    {
        return cell.to_owned();
    }
    let mut parts: Vec<&str> = cell.split(['.', ',']).collect();
    while parts.len() > 1 && parts.last() == Some(&"") {
        parts.pop();
    }
    let last = parts.pop().unwrap_or_default();
    if parts.is_empty() {
        last.to_owned()
    } else {
        format!("{}.{last}", parts.concat())
    }
}

/// Ruby's `String#to_i`: the leading integer, 0 when there is none.
fn ruby_to_i(text: &str) -> u64 {
    let digits: String = text
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().unwrap_or(0)
}

/// Canvas's gradebook import (`instructure/canvas-lms`
/// `app/models/gradebook_importer.rb`, the version whose
/// `ASSIGNMENT_PRELOADED_FIELDS` end with `final_grader_id`, as stored in
/// the public code index, and `Assignment.title_and_id`), for a course
/// without custom columns, grading periods or override columns:
///
/// - The separator is `;` when it splits the first three lines into the
///   same number of fields, more than `,` does; lines of only `;`, `,` and
///   spaces are skipped; every cell goes through [`canvas_decimal`], and an
///   empty one is blank.
/// - The header must have more than 3 cells, `Student` in the first and
///   `ID` in the second; the identity columns are 3, plus 1 when the third
///   matches `SIS Login ID`, or plus 2 when the third and fourth match `SIS
///   User ID` and `SIS Login ID` (plus 1 for an `Integration ID`, plus 1
///   for a `Root Account` after them); the last of them must contain
///   `Section`. Else the import fails ("Invalid header row").
/// - The other columns, less those containing a non-assignment name
///   (`Current Score`, `Final Grade`, ...), are assignments: `Title (ID)`
///   is the assignment with that ID if it exists; else the assignment
///   whose title is the whole header; else a new assignment. Each reads the
///   cells under the first column with its header.
/// - A row whose first cell contains `Points Possible`, or whose cells are
///   all blank, `Muted` or `Manual Posting...`, is not a student.
/// - A student is the one whose ID is the second cell's leading integer;
///   else by SIS user id, then login; else by exact name or sortable name;
///   else a new user. Each grade is the cell, trimmed.
pub(crate) fn canvas_import(csv_text: &str, course: &CanvasCourse) -> CanvasImport {
    let lines: Vec<&str> = csv_text.lines().take(3).collect();
    let fields = |d: u8| -> usize {
        let counts: Vec<usize> = lines
            .iter()
            .map(|l| {
                csv::ReaderBuilder::new()
                    .has_headers(false)
                    .delimiter(d)
                    .from_reader(l.as_bytes())
                    .records()
                    .next()
                    .and_then(Result::ok)
                    .map_or(0, |r| r.len())
            })
            .collect();
        match counts.first() {
            Some(first) if counts.iter().all(|c| c == first) => *first,
            _ => 0,
        }
    };
    let delimiter = if fields(b';') > fields(b',') {
        b';'
    } else {
        b','
    };
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter)
        .from_reader(csv_text.as_bytes());
    let mut out = CanvasImport::default();
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.expect("Canvas refuses a malformed CSV outright");
        let skip = record
            .iter()
            .all(|c| c.chars().all(|ch| matches!(ch, ';' | ',' | ' ')));
        if skip {
            continue;
        }
        let cells: Vec<Option<String>> = record
            .iter()
            .map(|c| (!c.is_empty()).then(|| canvas_decimal(c)))
            .collect();
        rows.push(cells);
    }
    let Some((header, students)) = rows.split_first() else {
        out.invalid_header = true;
        return out;
    };
    let at = |i: usize| header.get(i).cloned().flatten().unwrap_or_default();
    if header.len() <= 3 || !at(0).contains("Student") || !at(1).contains("ID") {
        out.invalid_header = true;
        return out;
    }
    let matches = |i: usize, words: &[&str]| {
        let cell = at(i);
        let tokens: Vec<&str> = cell.split_whitespace().collect();
        tokens.windows(words.len()).any(|w| w == words)
    };
    let mut columns = 3;
    let (mut sis_user, mut sis_login) = (None, None);
    if matches(2, &["SIS", "Login", "ID"]) {
        sis_login = Some(2);
        columns += 1;
    } else if matches(2, &["SIS", "User", "ID"]) && matches(3, &["SIS", "Login", "ID"]) {
        let integration = usize::from(matches(4, &["Integration", "ID"]));
        sis_user = Some(2);
        sis_login = Some(3);
        columns += 2 + integration;
        if matches(4 + integration, &["Root", "Account"]) {
            columns += 1;
        }
    }
    if !at(columns - 1).contains("Section") {
        out.invalid_header = true;
        return out;
    }
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
    let mut indices = Vec::new();
    for h in header.iter().skip(columns) {
        let h = h.clone().unwrap_or_default();
        if NOT_ASSIGNMENTS.iter().any(|n| h.contains(n)) {
            continue;
        }
        // `Assignment.title_and_id`: /\A(.*)\s\((\d+)\)\z/.
        let id = h
            .strip_suffix(')')
            .and_then(|x| x.rfind('(').map(|open| (x, open)))
            .filter(|(x, open)| {
                *open > 0
                    && x[..*open].ends_with(|c: char| c.is_whitespace())
                    && !x[open + 1..].is_empty()
                    && x[open + 1..].bytes().all(|b| b.is_ascii_digit())
            })
            .and_then(|(x, open)| x[open + 1..].parse::<u64>().ok());
        let column = id
            .filter(|id| course.assignments.iter().any(|(a, _)| a == id))
            .map(CanvasColumn::Existing)
            .or_else(|| {
                course
                    .assignments
                    .iter()
                    .find(|(_, title)| *title == h)
                    .map(|(a, _)| CanvasColumn::Existing(*a))
            })
            .unwrap_or_else(|| CanvasColumn::New(h.clone()));
        let index = header
            .iter()
            .position(|x| x.clone().unwrap_or_default() == h)
            .unwrap();
        out.columns.push(column);
        indices.push(index);
    }
    for row in students {
        let cell = |i: usize| row.get(i).cloned().flatten();
        if cell(0).is_some_and(|c| c.contains("Points Possible")) {
            continue;
        }
        let muted = row.iter().flatten().all(|c| {
            let t = c.trim().to_lowercase();
            t.is_empty() || t == "muted" || t.starts_with("manual posting")
        });
        if muted {
            continue;
        }
        let present = |c: &Option<String>| c.as_deref().is_some_and(|c| !c.trim().is_empty());
        let mut student = None;
        if present(&cell(1)) {
            let id = ruby_to_i(&cell(1).unwrap_or_default());
            student = course.students.iter().find(|s| s.id == id);
        }
        if student.is_none() {
            let sis = sis_user.and_then(cell).filter(|c| !c.trim().is_empty());
            let login = sis_login.and_then(cell).filter(|c| !c.trim().is_empty());
            student = sis
                .and_then(|x| {
                    course
                        .students
                        .iter()
                        .find(|s| s.sis_user_id.as_deref() == Some(x.as_str()))
                })
                .or_else(|| login.and_then(|x| course.students.iter().find(|s| s.login_id == x)));
        }
        if student.is_none() {
            let name = cell(0).unwrap_or_default();
            student = course
                .students
                .iter()
                .find(|s| s.name == name || s.sortable_name == name);
        }
        let who = match student {
            Some(s) => CanvasStudent::Existing(s.id),
            None => CanvasStudent::New(cell(0).unwrap_or_default()),
        };
        let grades = indices
            .iter()
            .map(|&i| cell(i).map(|g| g.trim().to_owned()))
            .collect();
        out.rows.push((who, grades));
    }
    out
}
