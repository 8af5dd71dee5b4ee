//! The report model (one per grading run) and its exporters: pure functions
//! from a [`Report`] to bytes, one module per format. Feedback files and the
//! terminal view of `check` live here too. No processes.

pub(crate) mod canvas;
mod cell;
pub(crate) mod classroom;
pub(crate) mod clusters;
pub(crate) mod coverage;
pub(crate) mod csv;
mod cut;
pub(crate) mod feedback;
pub(crate) mod folded;
pub(crate) mod gradescope;
pub(crate) mod html;
pub(crate) mod junit;
pub(crate) mod markdown;
pub(crate) mod markus;
pub(crate) mod markus_autotest;
pub(crate) mod merge;
pub(crate) mod mistake;
mod plain;
pub(crate) mod prairielearn;
pub(crate) mod schema;
pub(crate) mod similarity;
pub(crate) mod table;
pub(crate) mod whole_file;

use std::collections::BTreeMap;

use clap::ValueEnum;
use salgrade_reference::Options;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::grading::lint::Violation;
use crate::grading::{CaseResult, FunctionScore};
use mistake::Cluster;

/// The whole run. `--format json` writes exactly this; its JSON Schema is
/// published as `schema/report.schema.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub(crate) struct Report {
    pub salgrade_version: String,
    pub assignment: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The assignment's options the cases were made with (A48's `reading`).
    #[serde(default, skip_serializing_if = "Options::is_empty")]
    pub options: Options,
    /// Cases each student was graded on.
    pub case_count: usize,
    pub functions: Vec<String>,
    /// The protections student code ran under (backend, cgroups, uid).
    #[serde(default)]
    pub sandbox: String,
    /// The assignment's rule on constructs, in one sentence, if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// Warnings about the run as a whole (entries that map to one student).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// The part of the students this run graded (`grade --shard K/N`);
    /// absent when it graded them all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// Fingerprints of what decides a grade, so reports can be compared
    /// (`salgrade merge` refuses to combine reports where they differ).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settings: Option<Settings>,
    /// The cases whose details students are not shown (`--hidden-cases
    /// hide`): those the public seed does not give. Empty when everything
    /// may be shown.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hidden_cases: Vec<String>,
    pub students: Vec<StudentReport>,
    /// Common mistakes: the students' failures grouped by counterexample
    /// and answer, largest group first (see `grading::clusters`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clusters: Vec<Cluster>,
}

/// Shard `index` of `count` (1-based): the students whose identifier
/// hashes to `index - 1` modulo `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub(crate) struct Shard {
    /// From 1 to `count`.
    pub index: u32,
    /// How many shards the students were split into.
    pub count: u32,
}

impl Shard {
    /// Whether `student` (an identifier from discovery) is in this shard.
    /// The hash is FNV-1a (see [`crate::fingerprint::fingerprint`]), not Rust's
    /// `DefaultHasher`: every machine, and every salgrade build, must put a
    /// student in the same shard, or a merge would miss or repeat students.
    pub(crate) fn holds(self, student: &str) -> bool {
        let hex = crate::fingerprint::fingerprint(&[student.as_bytes()]);
        let hash = u64::from_str_radix(&hex, 16).expect("a fingerprint is 16 hex digits");
        hash % u64::from(self.count) == u64::from(self.index - 1)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// `K/N` with 1 ≤ K ≤ N.
    fn from_str(text: &str) -> Result<Shard, String> {
        let usage = || format!("`{text}` is not `K/N` with 1 ≤ K ≤ N, such as `1/3`");
        let (k, n) = text.split_once('/').ok_or_else(usage)?;
        let index: u32 = k.trim().parse().map_err(|_| usage())?;
        let count: u32 = n.trim().parse().map_err(|_| usage())?;
        if index == 0 || count == 0 || index > count {
            return Err(usage());
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// What a grade depends on besides the submission, each part fingerprinted
/// on its own so a mismatch between two reports can be named.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub(crate) struct Settings {
    /// The cases: assignment, seed, and each case's id, function, input and
    /// expected answers (FNV-1a, 16 hex digits).
    pub cases: String,
    /// The rubric: points, credit and penalties per function.
    pub rubric: String,
    /// The assignment's options (A48's `reading`).
    pub options: String,
    /// The resource limits and deadlines student code ran under.
    pub limits: String,
    /// The salgrade version that graded.
    pub version: String,
    /// The salgrade build that graded: `build-id HEX` (the binary's build
    /// ID), else `binary FNV` (a hash of the binary). Empty in a report an
    /// older salgrade wrote.
    #[serde(default)]
    pub build: String,
    /// The Python that ran Python students and the reference's own
    /// checks (`cpython 3.11.7`). Empty in a report an older salgrade
    /// wrote.
    #[serde(default)]
    pub python: String,
    /// The C++ compiler that built C++ students (the first line of its
    /// `--version`), when there were any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compiler: Option<String>,
}

/// One student's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub(crate) struct StudentReport {
    pub student: String,
    /// The graded file, relative to the submissions folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    pub score: f64,
    pub max_score: f64,
    pub functions: BTreeMap<String, FunctionScore>,
    pub cases: Vec<CaseResult>,
    #[serde(default)]
    pub violations: Vec<Violation>,
    #[serde(default)]
    pub penalty: f64,
    /// Whether the rule checker could read the file (not, on a syntax error).
    #[serde(default = "yes")]
    pub rule_checked: bool,
    pub warnings: Vec<String>,
    /// The start of what the submission printed (capped).
    #[serde(default)]
    pub stdout: String,
    #[serde(default)]
    pub stderr: String,
}

impl StudentReport {
    pub(crate) fn full_marks(&self) -> bool {
        self.score >= self.max_score && self.max_score > 0.0
    }

    /// For tests: a student named `student` with nothing graded (score 0
    /// of 1), to be filled in with `..StudentReport::named(...)`.
    #[cfg(test)]
    pub(crate) fn named(student: &str) -> Self {
        StudentReport {
            student: student.into(),
            file: None,
            score: 0.0,
            max_score: 1.0,
            functions: BTreeMap::new(),
            cases: vec![],
            violations: vec![],
            penalty: 0.0,
            rule_checked: true,
            warnings: vec![],
            stdout: String::new(),
            stderr: String::new(),
        }
    }
}

/// The formats `grade --format` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// A table for the terminal.
    Table,
    /// One row per student, for a gradebook import.
    Csv,
    /// The full report (its JSON Schema is `schema/report.schema.json`).
    Json,
    /// A Markdown table, for a wiki page or a pull request comment.
    Markdown,
    /// Gradescope's autograder `results.json` (one submission only).
    Gradescope,
    /// JUnit XML for CI test viewers: a suite per student, a test case per function.
    Junit,
    /// GitHub Classroom's autograding reporter results (version 1) as three runners, with the feedback in Markdown (one submission only).
    Classroom,
    /// One self-contained HTML page: the cohort (score histogram, pass rates, common mistakes, a sortable table) and each student's failures with their boards drawn.
    Html,
    /// MarkUs's autotester: one JSON test result per line, for a custom tester's script (one submission only; the marks spreadsheet is `--format csv --csv-layout markus`).
    Markus,
    /// PrairieLearn's external grader `results.json` (one submission only); `grade` and `check` exit 0 once it is written, as PrairieLearn reads it only then.
    Prairielearn,
}

impl Format {
    /// Whether the format describes exactly one submission.
    pub(crate) fn single_submission(self) -> bool {
        matches!(
            self,
            Format::Gradescope | Format::Classroom | Format::Markus | Format::Prairielearn
        )
    }

    /// Whether a run that wrote this format exits 0 whatever the scores:
    /// PrairieLearn discards the results of a container that exits with
    /// another code.
    pub(crate) fn exits_zero(self) -> bool {
        self == Format::Prairielearn
    }

    /// The name `--format` takes.
    pub(crate) fn name(self) -> String {
        self.to_possible_value()
            .map(|v| v.get_name().to_owned())
            .unwrap_or_default()
    }
}

/// The report in `format`, for a file or a pipe: nothing wrapped.
pub(crate) fn render(
    report: &Report,
    format: Format,
    layout: csv::CsvLayout,
) -> anyhow::Result<Vec<u8>> {
    render_for(report, format, layout, None)
}

/// The report in `format`; the table wrapped to `width` columns when one is
/// given (a terminal's, see [`crate::terminal`]).
pub(crate) fn render_for(
    report: &Report,
    format: Format,
    layout: csv::CsvLayout,
    width: Option<usize>,
) -> anyhow::Result<Vec<u8>> {
    Ok(match format {
        Format::Table => table::render(report, width).into_bytes(),
        Format::Csv => csv::render(report, layout)?,
        // Students read these: rendered from what they may see.
        Format::Gradescope => gradescope::render(&report.for_students())?,
        Format::Junit => junit::render(&report.for_students())?,
        Format::Classroom => classroom::render(&report.for_students())?,
        Format::Markus => markus_autotest::render(&report.for_students())?,
        Format::Prairielearn => prairielearn::render(&report.for_students())?,
        Format::Json => {
            let mut v = serde_json::to_vec_pretty(report)?;
            v.push(b'\n');
            v
        }
        Format::Markdown => markdown::render(report).into_bytes(),
        Format::Html => html::render(report).into_bytes(),
    })
}

impl Report {
    /// Whether students may not be shown case `id` (its input, the
    /// expected answer, what their code gave, a counterexample from it).
    pub(crate) fn hides(&self, id: &str) -> bool {
        self.hidden_cases.iter().any(|h| h == id)
    }

    /// Whether students may not be shown what their code printed: it ran
    /// on hidden cases, and could have printed them.
    pub(crate) fn hides_output(&self) -> bool {
        !self.hidden_cases.is_empty()
    }

    /// The report as students may see it: where cases are hidden, each
    /// hidden case's details gone (its input, label, expected answer, what
    /// the code gave, the detail and line of its verdict, and any
    /// counterexample shrunk from it, whose board derives from it), and
    /// what the code printed gone. Verdict kinds, counts and points stay.
    /// Every format a student reads is rendered from this.
    pub(crate) fn for_students(&self) -> Report {
        let mut out = self.clone();
        if !self.hides_output() {
            return out;
        }
        for s in &mut out.students {
            s.stdout.clear();
            s.stderr.clear();
            for c in &mut s.cases {
                if self.hides(&c.case_id) {
                    c.verdict = crate::verdict::Verdict::new(c.verdict.kind);
                }
            }
            for score in s.functions.values_mut() {
                if score
                    .counterexample
                    .as_ref()
                    .is_some_and(|c| self.hides(&c.from_case))
                {
                    score.counterexample = None;
                }
                if let Some(f) = &mut score.smallest_failure {
                    if self.hides(&f.case_id) {
                        f.label = String::new();
                        f.input = String::new();
                        f.verdict = crate::verdict::Verdict::new(f.verdict.kind);
                        score.notes.clear();
                        score.hint = None;
                    }
                }
            }
        }
        out.clusters.clear();
        out
    }

    /// Whether `score`'s shown failure (its counterexample's case, or its
    /// smallest failing case) is hidden.
    pub(crate) fn hides_failure(&self, score: &FunctionScore) -> bool {
        match (&score.counterexample, &score.smallest_failure) {
            (Some(c), _) => self.hides(&c.from_case),
            (None, Some(f)) => self.hides(&f.case_id),
            (None, None) => false,
        }
    }
}

/// What a student is told of a failure on a hidden case: which function
/// failed and why, and nothing of the case.
pub(crate) const HIDDEN_FAILURE: &str = "The failing case is one of the instructor's hidden cases: its input, the expected answer, what your code returned and what it printed are not shown. Fix what the public cases (`salgrade check` with the public seed) show first.";

/// The score-table header: student, the functions, then `tail`.
pub(crate) fn header(report: &Report, tail: &[&str]) -> Vec<String> {
    let mut h = vec!["student".to_owned()];
    h.extend(report.functions.iter().cloned());
    h.extend(tail.iter().map(|t| (*t).to_owned()));
    h
}

/// One row of per-function cells, `-` where a function has no score.
pub(crate) fn function_cells(
    report: &Report,
    s: &StudentReport,
    cell: impl Fn(&FunctionScore) -> String,
) -> Vec<String> {
    report
        .functions
        .iter()
        .map(|f| {
            s.functions
                .get(f)
                .map(&cell)
                .unwrap_or_else(|| "-".to_owned())
        })
        .collect()
}

/// A function's cell: `passed/total points`.
pub(crate) fn cell(f: &FunctionScore) -> String {
    format!("{}/{} {}", f.passed, f.total, points(f.points))
}

/// The line under a score table saying what its cells mean.
pub(crate) const LEGEND: &str =
    "Under each function, `46/66 17.42` means 46 of its 66 cases passed, earning 17.42 points.";

/// The legend of the rules column, shown where the assignment has a rule.
pub(crate) const RULES_LEGEND: &str =
    "rules: the container-rule penalty, `ok`, or `n/a` (the file could not be parsed).";

/// The legend for `report`: the rules column is there only when the
/// assignment has a rule.
pub(crate) fn legend(report: &Report) -> String {
    match report.rule {
        Some(_) => format!("{LEGEND} {RULES_LEGEND}"),
        None => LEGEND.to_owned(),
    }
}

/// Every warning worth a reader's eye, run-wide first, then per student
/// (`student: warning`), each once.
pub(crate) fn all_warnings(report: &Report) -> Vec<String> {
    let mut out: Vec<String> = report.warnings.clone();
    for s in &report.students {
        for w in &s.warnings {
            if !report.warnings.contains(w) {
                out.push(format!("{}: {w}", s.student));
            }
        }
    }
    out
}

/// How many common mistakes the table shows under it.
pub(crate) const TOP_MISTAKES: usize = 5;

/// The largest common mistakes under a heading, one line each, or nothing
/// when there are none.
pub(crate) fn top_mistakes(report: &Report, width: Option<usize>) -> String {
    if report.clusters.is_empty() {
        return String::new();
    }
    let shown = report.clusters.len().min(TOP_MISTAKES);
    let heading = if shown < report.clusters.len() {
        format!(
            "Common mistakes (the {shown} largest of {}; `salgrade clusters REPORT.json` lists them all):",
            report.clusters.len()
        )
    } else {
        "Common mistakes:".to_owned()
    };
    let mut out = format!("\n{}", table::item(&heading, "", width));
    for c in report.clusters.iter().take(shown) {
        out.push_str(&table::item(&c.line(), "- ", width));
    }
    out
}

fn yes() -> bool {
    true
}

/// The rules column: the penalty, `ok`, or why there is neither.
pub(crate) fn rules_cell(s: &StudentReport) -> String {
    if s.penalty > 0.0 {
        format!("-{}", points(s.penalty))
    } else if !s.violations.is_empty() {
        format!("{} found", s.violations.len())
    } else if !s.rule_checked {
        "n/a".to_owned()
    } else {
        "ok".to_owned()
    }
}

/// Points without a needless `.0`.
pub(crate) fn points(p: f64) -> String {
    if p.fract() == 0.0 {
        format!("{p:.0}")
    } else {
        format!("{p:.2}")
    }
}
