//! The similarity section of the HTML report (`salgrade similar --format
//! html`): the ranked pairs, then each flagged pair side by side, its
//! shared fragments aligned row by row and highlighted, and both whole
//! files (folded) with the same fragments marked. The page is as
//! self-contained as the grading report's, under the same
//! Content-Security-Policy; every student text goes through [`esc`].

use std::fmt::Write as _;

use super::{STYLE, esc};
use crate::report::similarity::{FragmentLines, PairKind, PairRow, Similarity};

pub(super) const EXTRA_STYLE: &str = r#"
.pair{border:1px solid #e3e7ee;border-left:5px solid #e03131;border-radius:6px;padding:.6em 1em;margin:1em 0}
.sbs{display:grid;grid-template-columns:1fr 1fr;gap:.6em;margin:.4em 0}
.sbs pre{margin:0;max-height:none;font-size:.85em}
.sbs .who{font-weight:600;color:#5a6474;font-size:.85em}
pre .n{color:#9aa3b2;user-select:none}
mark{background:#ffe066;border-radius:2px}mark.k1{background:#b2f2bb}mark.k2{background:#a5d8ff}mark.k3{background:#fcc2d7}mark.k4{background:#d0bfff}mark.k5{background:#ffd8a8}
.flag{color:#c92a2a;font-weight:600}
"#;

/// The page.
pub(crate) fn render(report: &Similarity) -> String {
    let nonce = crate::fingerprint::fingerprint(&[
        b"similar",
        &report.students.to_le_bytes(),
        &report.pairs.len().to_le_bytes(),
    ]);
    let title = format!(
        "similarity, {} students{}",
        report.students,
        report
            .assignment
            .as_deref()
            .map(|a| format!(", {a}"))
            .unwrap_or_default()
    );
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-{nonce}'\">\n\
         <title>salgrade: {}</title>\n<style>{STYLE}{EXTRA_STYLE}</style>\n</head>\n<body>",
        esc(&title)
    );
    let _ = writeln!(
        out,
        "<header><h1>salgrade: {}</h1>\n<p class=\"meta\">{} pair(s) flagged; threshold {}; salgrade {}</p></header>",
        esc(&title),
        report.flagged(),
        esc(&report.threshold.how),
        esc(&report.salgrade_version)
    );
    section(&mut out, report);
    out.push_str("</body>\n</html>\n");
    out
}

/// The similarity section: the ranked pairs, then each flagged pair.
pub(crate) fn section(out: &mut String, report: &Similarity) {
    out.push_str("<section id=\"similarity\">\n<h2>Similar submissions</h2>\n");
    out.push_str("<p class=\"legend\">A score is the weight of the fingerprints two files share, each weighed by how rare it is in the cohort, over their own weights: what every solution of the problem shares counts little. Names, literals, comments, layout, statement order, loop forms, negated branches, <code>std::</code>, aliases, dead code and split functions are normalised first.</p>\n");
    let _ = writeln!(
        out,
        "<p class=\"legend\">{} pair(s) flagged, of {} students; threshold {}.</p>",
        report.flagged(),
        report.students,
        esc(&report.threshold.how)
    );
    if !report.notes.is_empty() {
        out.push_str("<ul class=\"legend\">\n");
        for n in &report.notes {
            let _ = writeln!(out, "<li>{}</li>", esc(n));
        }
        out.push_str("</ul>\n");
    }
    let listed: Vec<&PairRow> = report
        .pairs
        .iter()
        .enumerate()
        .filter(|(i, p)| p.flagged || *i < report.top)
        .map(|(_, p)| p)
        .collect();
    if listed.is_empty() {
        out.push_str("<p>No two files share anything rare in this cohort.</p>\n</section>\n");
        return;
    }
    out.push_str("<table>\n<thead><tr><th class=\"num\">#</th><th>pair</th><th class=\"num\">score</th><th>longest shared fragment</th><th></th></tr></thead>\n<tbody>\n");
    for p in &listed {
        let width = (p.score * 120.0).round() as u32;
        let _ = writeln!(
            out,
            "<tr><td class=\"num\">{}</td><td>{}</td><td class=\"num\">{:.2} <span class=\"bar\" style=\"width:{width}px\"></span></td><td>{}</td><td>{}</td></tr>",
            p.rank,
            pair_name(p, true),
            p.score,
            fragment_words(p.longest_fragment.as_ref()),
            if p.flagged {
                "<span class=\"flag\">flagged</span>"
            } else {
                ""
            }
        );
    }
    out.push_str("</tbody>\n</table>\n");
    for p in report.pairs.iter().filter(|p| p.flagged) {
        pair_section(out, p);
    }
    out.push_str("</section>\n");
}

fn pair_name(p: &PairRow, link: bool) -> String {
    let text = match p.kind {
        PairKind::Student => format!("{} ~ {}", esc(&p.student_a), esc(&p.student_b)),
        PairKind::Archive => format!(
            "{} close to <code>{}</code>",
            esc(&p.student_a),
            esc(&p.student_b)
        ),
    };
    if link && p.flagged {
        format!("<a href=\"#pair-{}\">{text}</a>", p.rank)
    } else {
        text
    }
}

fn fragment_words(f: Option<&FragmentLines>) -> String {
    match f {
        Some(f) => format!(
            "{} lines (lines {}-{} and {}-{})",
            f.lines, f.a.0, f.a.1, f.b.0, f.b.1
        ),
        None => "none".to_owned(),
    }
}

/// A flagged pair: the fragments aligned, then both files folded.
fn pair_section(out: &mut String, p: &PairRow) {
    let _ = writeln!(
        out,
        "<div class=\"pair\" id=\"pair-{}\">\n<h3>{}: {:.2}</h3>\n<p class=\"meta\"><code>{}</code> and <code>{}</code></p>",
        p.rank,
        pair_name(p, false),
        p.score,
        esc(&p.file_a),
        esc(&p.file_b)
    );
    let Some(sbs) = &p.side_by_side else {
        out.push_str("</div>\n");
        return;
    };
    let (lines_a, lines_b): (Vec<&str>, Vec<&str>) =
        (sbs.text_a.lines().collect(), sbs.text_b.lines().collect());
    if sbs.fragments.is_empty() {
        out.push_str(
            "<p>No single shared fragment stands out: the score comes from many small ones.</p>\n",
        );
    }
    for (k, f) in sbs.fragments.iter().enumerate() {
        let _ = writeln!(
            out,
            "<div class=\"sbs\"><div><div class=\"who\">{} lines {}-{}</div><pre>{}</pre></div><div><div class=\"who\">{} lines {}-{}</div><pre>{}</pre></div></div>",
            esc(&p.student_a),
            f.a.0,
            f.a.1,
            numbered(&lines_a, f.a, Some(k)),
            esc(&p.student_b),
            f.b.0,
            f.b.1,
            numbered(&lines_b, f.b, Some(k)),
        );
    }
    let marks_a: Vec<(usize, usize)> = sbs.fragments.iter().map(|f| f.a).collect();
    let marks_b: Vec<(usize, usize)> = sbs.fragments.iter().map(|f| f.b).collect();
    let _ = writeln!(
        out,
        "<details><summary>Both files, the shared fragments marked</summary><div class=\"sbs\"><pre>{}</pre><pre>{}</pre></div></details>\n</div>",
        whole(&lines_a, &marks_a),
        whole(&lines_b, &marks_b)
    );
}

/// Lines `range` (1-based, inclusive) of `lines`, numbered and marked.
fn numbered(lines: &[&str], range: (usize, usize), mark: Option<usize>) -> String {
    let mut out = String::new();
    let last = range.1.min(lines.len());
    for i in range.0.max(1)..=last {
        let text = esc(lines.get(i - 1).copied().unwrap_or(""));
        match mark {
            Some(k) => {
                let _ = writeln!(
                    out,
                    "<span class=\"n\">{i:>4} </span><mark class=\"k{}\">{text}</mark>",
                    k % 6
                );
            }
            None => {
                let _ = writeln!(out, "<span class=\"n\">{i:>4} </span>{text}");
            }
        }
    }
    out
}

/// The whole file, numbered, each line inside a fragment marked with that
/// fragment's colour.
fn whole(lines: &[&str], marks: &[(usize, usize)]) -> String {
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        let n = i + 1;
        let text = esc(line);
        match marks.iter().position(|(a, b)| *a <= n && n <= *b) {
            Some(k) => {
                let _ = writeln!(
                    out,
                    "<span class=\"n\">{n:>4} </span><mark class=\"k{}\">{text}</mark>",
                    k % 6
                );
            }
            None => {
                let _ = writeln!(out, "<span class=\"n\">{n:>4} </span>{text}");
            }
        }
    }
    out
}
