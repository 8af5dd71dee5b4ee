//! `salgrade similar`'s report: one model ([`Similarity`]) and its
//! formats: a ranked table for a terminal, CSV and JSON with one row per
//! pair, and the HTML page (`html/similarity.rs`).
//!
//! JSON, the wire format (stable; fields are added, never renamed):
//!
//! ```text
//! { "salgrade_version": "0.1.0", "assignment": "leetcode909" | null,
//!   "students": 60, "archive_files": 3,
//!   "threshold": { "value": 0.52, "how": "0.52: each student's best ..." },
//!   "pairs": [ { "rank": 1, "student_a": "alice", "student_b": "bob",
//!                "kind": "student" | "archive", "score": 0.9731,
//!                "flagged": true, "file_a": "alice/solution.py",
//!                "file_b": "bob/solution.py",
//!                "longest_fragment": { "a": [12, 30], "b": [8, 26], "lines": 19 } | null } ],
//!   "notes": [ "..." ] }
//! ```
//!
//! For an archive pair, `student_b` is the archive file's name
//! (`public/leetcode-editorial.py`) and `kind` is `archive`.

use std::fmt::Write as _;

use serde::Serialize;

use crate::similar::threshold::Threshold;

/// A fragment's lines in each file.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
pub(crate) struct FragmentLines {
    pub a: (usize, usize),
    pub b: (usize, usize),
    pub lines: usize,
}

/// One pair of owners.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct PairRow {
    pub rank: usize,
    pub student_a: String,
    pub student_b: String,
    pub kind: PairKind,
    pub score: f64,
    pub flagged: bool,
    pub file_a: String,
    pub file_b: String,
    pub longest_fragment: Option<FragmentLines>,
    /// For the HTML page: both files' text and every shared fragment.
    #[serde(skip)]
    pub side_by_side: Option<SideBySide>,
}

#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub(crate) enum PairKind {
    Student,
    Archive,
}

/// Both files of a flagged pair and the fragments they share.
#[derive(Debug, Clone)]
pub(crate) struct SideBySide {
    pub text_a: String,
    pub text_b: String,
    pub fragments: Vec<FragmentLines>,
}

/// The whole report.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Similarity {
    pub salgrade_version: String,
    pub assignment: Option<String>,
    pub students: usize,
    pub archive_files: usize,
    pub threshold: Threshold,
    pub pairs: Vec<PairRow>,
    pub notes: Vec<String>,
    /// How many pairs the table and the page list besides the flagged ones
    /// (`--top`).
    #[serde(skip)]
    pub top: usize,
}

impl Similarity {
    pub(crate) fn flagged(&self) -> usize {
        self.pairs.iter().filter(|p| p.flagged).count()
    }
}

fn fragment_text(f: &Option<FragmentLines>) -> String {
    match f {
        Some(f) => format!(
            "{} lines (a {}-{}, b {}-{})",
            f.lines, f.a.0, f.a.1, f.b.0, f.b.1
        ),
        None => "-".to_owned(),
    }
}

/// The ranked table: every flagged pair, then the closest others up to
/// `rows` in all.
pub(crate) fn table(report: &Similarity) -> String {
    let rows = report.top;
    use unicode_width::UnicodeWidthStr;
    let shown: Vec<&PairRow> = report
        .pairs
        .iter()
        .enumerate()
        .filter(|(i, p)| p.flagged || *i < rows)
        .map(|(_, p)| p)
        .collect();
    let head = ["#", "pair", "score", "longest shared fragment", ""];
    let body: Vec<[String; 5]> = shown
        .iter()
        .map(|p| {
            let pair = match p.kind {
                PairKind::Student => format!("{} ~ {}", p.student_a, p.student_b),
                PairKind::Archive => format!("{} close to `{}`", p.student_a, p.student_b),
            };
            [
                p.rank.to_string(),
                pair,
                format!("{:.2}", p.score),
                fragment_text(&p.longest_fragment),
                if p.flagged { "FLAGGED" } else { "" }.to_owned(),
            ]
        })
        .collect();
    let mut widths: Vec<usize> = head.iter().map(|h| h.width()).collect();
    for row in &body {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.width());
        }
    }
    let mut out = String::new();
    let line = |out: &mut String, cells: &[String]| {
        let mut l = String::new();
        for (i, (c, w)) in cells.iter().zip(&widths).enumerate() {
            if i > 0 {
                l.push_str("  ");
            }
            l.push_str(c);
            if i + 1 < cells.len() {
                l.push_str(&" ".repeat(w.saturating_sub(c.width())));
            }
        }
        out.push_str(l.trim_end());
        out.push('\n');
    };
    line(&mut out, &head.map(str::to_owned));
    for row in &body {
        line(&mut out, row);
    }
    if body.is_empty() {
        out.push_str("(no two files share anything rare in this cohort)\n");
    }
    let _ = writeln!(
        out,
        "\n{} students{}; {} pair(s) flagged, {} scored; threshold {}",
        report.students,
        if report.archive_files > 0 {
            format!(", {} archive files", report.archive_files)
        } else {
            String::new()
        },
        report.flagged(),
        report.pairs.len(),
        report.threshold.how
    );
    out.push_str(
        "score: the weight of the fingerprints two files share, each weighed by how rare it is in the cohort, over their own weights (0 to 1)\n",
    );
    out
}

/// One CSV row per pair.
pub(crate) fn csv(report: &Similarity) -> anyhow::Result<Vec<u8>> {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    w.write_record([
        "rank",
        "student_a",
        "student_b",
        "kind",
        "score",
        "flagged",
        "file_a",
        "file_b",
        "fragment_a",
        "fragment_b",
        "fragment_lines",
    ])?;
    for p in &report.pairs {
        let (fa, fb, fl) = match &p.longest_fragment {
            Some(f) => (
                format!("{}-{}", f.a.0, f.a.1),
                format!("{}-{}", f.b.0, f.b.1),
                f.lines.to_string(),
            ),
            None => (String::new(), String::new(), String::new()),
        };
        let kind = match p.kind {
            PairKind::Student => "student",
            PairKind::Archive => "archive",
        };
        w.write_record([
            p.rank.to_string(),
            p.student_a.clone(),
            p.student_b.clone(),
            kind.to_owned(),
            format!("{:.4}", p.score),
            p.flagged.to_string(),
            p.file_a.clone(),
            p.file_b.clone(),
            fa,
            fb,
            fl,
        ])?;
    }
    Ok(w.into_inner()?)
}

/// The report as JSON (see the module's documentation).
pub(crate) fn json(report: &Similarity) -> anyhow::Result<Vec<u8>> {
    let mut v = serde_json::to_vec_pretty(report)?;
    v.push(b'\n');
    Ok(v)
}
