//! `--format html`: one self-contained page (inline CSS and SVG, one small
//! inline script for sorting, nothing from the network), so it opens offline
//! and can be mailed or uploaded.
//!
//! A cohort (more than one student) gets a cohort part first: the score
//! histogram, the pass rate of each function, the common mistakes each with
//! its board drawn, and the score table, sortable by any column when
//! scripts run (it reads the same without). Then one section per student:
//! each failing function with its counterexample drawn (see
//! [`crate::figure`]), the reference's explanation, and what the code
//! printed. The figures (boards as SVG, calls as a table) are `figure.rs`.
//!
//! Every text that a student controls (names, answers, messages, output)
//! goes through [`esc`]; the page's Content-Security-Policy allows no
//! script but its own (by nonce) and nothing from the network, a second
//! wall should an escape ever be missed.

mod figure;
pub(crate) mod similarity;
mod student;

use std::fmt::Write as _;

use super::{Report, StudentReport, points};
use crate::grading::FunctionScore;
use crate::report::mistake::Cluster;
use crate::verdict::Verdict;
use figure::figure;
use student::student_section;

/// Text escaped for HTML content and attribute values; control characters
/// (other than line breaks and tabs) shown as U+FFFD.
pub(crate) fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\n' | '\t' => out.push(c),
            c if c.is_control() => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = r#"
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:1100px;padding:1.2em 1.5em;color:#1d2430;background:#fff}
h1{font-size:1.6em;margin:.2em 0}h2{font-size:1.25em;margin:1.6em 0 .5em;border-bottom:2px solid #e3e7ee;padding-bottom:.2em}
h3{font-size:1.05em;margin:1.1em 0 .3em}
.meta{color:#5a6474;margin:.2em 0 1em}
.cards{display:flex;flex-wrap:wrap;gap:1.2em;align-items:flex-start}
.card{border:1px solid #e3e7ee;border-radius:8px;padding:.8em 1em;background:#fafbfd}
table{border-collapse:collapse;margin:.4em 0}
th,td{padding:.25em .6em;border-bottom:1px solid #e3e7ee;text-align:left;vertical-align:top}
th button{font:inherit;font-weight:600;border:0;background:none;padding:0;cursor:pointer;color:inherit}
th button::after{content:" \2195";color:#9aa3b2;font-size:.8em}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
tr.full td:first-child{border-left:4px solid #2f9e44}tr.partial td:first-child{border-left:4px solid #f08c00}tr.zero td:first-child{border-left:4px solid #e03131}
.bar{display:inline-block;height:.7em;background:#4c6ef5;border-radius:2px;vertical-align:middle}
.mistake{border:1px solid #e3e7ee;border-left:5px solid #e8590c;border-radius:6px;padding:.6em 1em;margin:.8em 0;background:#fffaf5}
.mistake .line{font-weight:600}
.failure{border:1px solid #e3e7ee;border-left:5px solid #e03131;border-radius:6px;padding:.6em 1em;margin:.8em 0}
.student{margin-top:1.5em}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.15em 1em;margin:.4em 0}dt{color:#5a6474}dd{margin:0}
pre{background:#f4f6fa;padding:.5em .7em;border-radius:4px;overflow:auto;max-height:18em;white-space:pre-wrap}
code{background:#f4f6fa;padding:0 .25em;border-radius:3px}
svg{display:block;max-width:100%;height:auto}
svg.board text{font:11px system-ui,sans-serif}
.legend{font-size:.85em;color:#5a6474}
.calls tr.failing td{background:#ffe3e3;font-weight:600}
a{color:#364fc7}
caption{text-align:left;font-family:ui-monospace,monospace;padding:.2em 0}
"#;

const SCRIPT: &str = r#"
document.querySelectorAll("table.sortable").forEach(function(t){
  t.querySelectorAll("th button").forEach(function(b,i){
    b.addEventListener("click",function(){
      var body=t.tBodies[0],rows=Array.prototype.slice.call(body.rows);
      var up=b.getAttribute("data-dir")!=="up";b.setAttribute("data-dir",up?"up":"down");
      rows.sort(function(x,y){
        var a=x.cells[i].getAttribute("data-v"),c=y.cells[i].getAttribute("data-v");
        var na=parseFloat(a),nc=parseFloat(c),r;
        if(!isNaN(na)&&!isNaN(nc)){r=na-nc}else{r=a<c?-1:a>c?1:0}
        return up?r:-r;
      });
      rows.forEach(function(r){body.appendChild(r)});
    });
  });
});
"#;

/// The page for `report`.
pub(crate) fn render(report: &Report) -> String {
    render_with(report, None)
}

/// The page for `report`, with a cohort's "Similar submissions" section
/// (`grade --similarity on`) when one is given.
pub(crate) fn render_with(
    report: &Report,
    similar: Option<&crate::report::similarity::Similarity>,
) -> String {
    let nonce = crate::fingerprint::fingerprint(&[
        report.assignment.as_bytes(),
        &report.students.len().to_le_bytes(),
        report
            .settings
            .as_ref()
            .map(|s| s.cases.as_bytes())
            .unwrap_or_default(),
    ]);
    let cohort = report.students.len() > 1;
    let title = if cohort {
        format!("{} students, {}", report.students.len(), report.assignment)
    } else {
        report
            .students
            .first()
            .map(|s| format!("{}, {}", s.student, report.assignment))
            .unwrap_or_else(|| report.assignment.clone())
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-{nonce}'\">\n\
         <title>salgrade: {}</title>\n<style>{STYLE}{}</style>\n</head>\n<body>",
        esc(&title),
        if similar.is_some() {
            similarity::EXTRA_STYLE
        } else {
            ""
        }
    );
    let _ = writeln!(
        out,
        "<header><h1>salgrade: {}</h1>\n<p class=\"meta\">{} on {} cases{}; salgrade {}; {}</p></header>",
        esc(&report.assignment),
        count(report.students.len(), "student", "students"),
        report.case_count,
        report
            .seed
            .map(|s| format!(" (seed {s})"))
            .unwrap_or_default(),
        esc(&report.salgrade_version),
        esc(&report.sandbox)
    );
    let similar = similar.filter(|_| cohort);
    if cohort {
        cohort_part(&mut out, report, similar.is_some());
    }
    if let Some(s) = similar {
        similarity::section(&mut out, s);
    }
    out.push_str("<h2 id=\"students\">Students</h2>\n");
    for (i, s) in report.students.iter().enumerate() {
        student_section(&mut out, report, i, s);
    }
    let warnings = super::all_warnings(report);
    if !warnings.is_empty() {
        out.push_str("<h2>Warnings</h2>\n<ul>\n");
        for w in &warnings {
            let _ = writeln!(out, "<li>{}</li>", prose(w));
        }
        out.push_str("</ul>\n");
    }
    let _ = writeln!(
        out,
        "<script nonce=\"{nonce}\">{SCRIPT}</script>\n</body>\n</html>"
    );
    out
}

fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn cohort_part(out: &mut String, report: &Report, similar: bool) {
    let full = report.students.iter().filter(|s| s.full_marks()).count();
    let zero = report.students.iter().filter(|s| s.score <= 0.0).count();
    let partial = report.students.len() - full - zero;
    let _ = writeln!(
        out,
        "<p>{full} with full marks, {partial} partial, {zero} with zero. \
         <a href=\"#mistakes\">Common mistakes</a> · <a href=\"#scores\">Scores</a>{} · <a href=\"#students\">Students</a></p>",
        if similar {
            " · <a href=\"#similarity\">Similar submissions</a>"
        } else {
            ""
        }
    );
    out.push_str("<div class=\"cards\">\n<div class=\"card\"><h3>Scores</h3>\n");
    histogram(out, report);
    out.push_str("</div>\n<div class=\"card\"><h3>Pass rate per function</h3>\n");
    pass_rates(out, report);
    out.push_str("</div>\n</div>\n");
    let _ = writeln!(
        out,
        "<h2 id=\"mistakes\">Common mistakes</h2>\n<p class=\"legend\">Failures grouped by the minimal board each student was shown and the answer given; groups whose members fail each other's boards alike are merged. Largest first.</p>"
    );
    if report.clusters.is_empty() {
        out.push_str("<p>None: no student failed a case.</p>\n");
    }
    for (i, c) in report.clusters.iter().enumerate() {
        mistake(out, report, i, c);
    }
    scores_table(out, report);
}

/// Scores as a bar per tenth of the maximum (the last bar: full marks).
fn histogram(out: &mut String, report: &Report) {
    let mut bins = [0usize; 11];
    for s in &report.students {
        let share = if s.max_score > 0.0 {
            (s.score / s.max_score).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let bin = if share >= 1.0 {
            10
        } else {
            ((share * 10.0).floor() as usize).min(9)
        };
        bins[bin] += 1;
    }
    let most = bins.iter().copied().max().unwrap_or(1).max(1);
    let (w, h, left, bottom) = (26.0, 120.0, 28.0, 34.0);
    let width = left + w * 11.0 + 10.0;
    let _ = writeln!(
        out,
        "<svg class=\"histogram\" role=\"img\" aria-label=\"score histogram\" width=\"{width}\" height=\"{}\" viewBox=\"0 0 {width} {}\">",
        h + bottom + 10.0,
        h + bottom + 10.0
    );
    for (i, &n) in bins.iter().enumerate() {
        let bh = h * n as f64 / most as f64;
        let x = left + w * i as f64;
        let y = 10.0 + h - bh;
        let color = if i == 10 { "#2f9e44" } else { "#4c6ef5" };
        let label = if i == 10 {
            "100%".to_owned()
        } else {
            format!("{}–{}%", i * 10, i * 10 + 9)
        };
        let _ = writeln!(
            out,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{}\" height=\"{bh}\" fill=\"{color}\"><title>{label}: {n}</title></rect>",
            w - 4.0
        );
        if n > 0 {
            let _ = writeln!(
                out,
                "<text x=\"{}\" y=\"{}\" font-size=\"10\" text-anchor=\"middle\">{n}</text>",
                x + (w - 4.0) / 2.0,
                y - 2.0
            );
        }
        if i % 2 == 0 || i == 10 {
            let _ = writeln!(
                out,
                "<text x=\"{}\" y=\"{}\" font-size=\"9\" text-anchor=\"middle\" fill=\"#5a6474\">{}</text>",
                x + (w - 4.0) / 2.0,
                h + 24.0,
                if i == 10 {
                    "100".to_owned()
                } else {
                    (i * 10).to_string()
                }
            );
        }
    }
    let _ = writeln!(
        out,
        "<line x1=\"{left}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#9aa3b2\"/>\n<text x=\"{}\" y=\"{}\" font-size=\"10\" text-anchor=\"middle\" fill=\"#5a6474\">score, % of the maximum</text>\n</svg>",
        h + 10.0,
        width - 10.0,
        h + 10.0,
        left + w * 5.5,
        h + bottom + 6.0
    );
}

fn pass_rates(out: &mut String, report: &Report) {
    out.push_str("<table class=\"rates\">\n<thead><tr><th>function</th><th class=\"num\">students in full</th><th class=\"num\">cases passed</th><th></th></tr></thead>\n<tbody>\n");
    let n = report.students.len().max(1);
    for f in &report.functions {
        let scores: Vec<&FunctionScore> = report
            .students
            .iter()
            .filter_map(|s| s.functions.get(f))
            .collect();
        let full = scores.iter().filter(|x| x.passed >= x.total).count();
        let (passed, total) = scores.iter().fold((0u64, 0u64), |(p, t), x| {
            (p + u64::from(x.passed), t + u64::from(x.total))
        });
        let share = if total > 0 {
            passed as f64 / total as f64
        } else {
            0.0
        };
        let _ = writeln!(
            out,
            "<tr><td><code>{}</code></td><td class=\"num\">{full}/{n}</td><td class=\"num\">{:.0}%</td><td><span class=\"bar\" style=\"width:{:.0}px\"></span></td></tr>",
            esc(f),
            share * 100.0,
            share * 120.0
        );
    }
    out.push_str("</tbody>\n</table>\n");
}

/// The verdict a group's members get, for drawing its board.
fn verdict_of(c: &Cluster) -> Verdict {
    Verdict {
        kind: c.verdict,
        expected: c.expected.clone(),
        got: c.got.clone(),
        detail: c.detail.clone(),
        line: None,
    }
}

fn mistake(out: &mut String, report: &Report, i: usize, c: &Cluster) {
    let _ = writeln!(
        out,
        "<section class=\"mistake\" id=\"mistake-{}\">\n<p class=\"line\">{}</p>\n<dl>",
        i + 1,
        code_spans(&esc(&c.line()))
    );
    let links: Vec<String> = c
        .students
        .iter()
        .map(|s| {
            let at = report.students.iter().position(|r| r.student == *s);
            match at {
                Some(at) => format!("<a href=\"#student-{}\">{}</a>", at + 1, esc(s)),
                None => esc(s),
            }
        })
        .collect();
    let _ = writeln!(
        out,
        "<dt>students ({})</dt><dd>{}</dd>",
        c.students.len(),
        links.join(", ")
    );
    if c.boards.len() > 1 {
        // Timeouts: each member's own board, never one member's for all.
        let _ = writeln!(out, "<dt>boards</dt><dd><ul>");
        for (who, board) in &c.boards {
            let _ = writeln!(out, "<li>{}: {}</li>", esc(who), prose(board));
        }
        out.push_str("</ul></dd>\n");
    } else if !c.input.is_empty() {
        let _ = writeln!(out, "<dt>input</dt><dd>{}</dd>", prose(&c.input));
    }
    if let Some(e) = &c.expected {
        let _ = writeln!(out, "<dt>expected</dt><dd><code>{}</code></dd>", esc(e));
    }
    match (&c.got, &c.detail) {
        (Some(g), _) => {
            let _ = writeln!(out, "<dt>given</dt><dd><code>{}</code></dd>", esc(g));
        }
        (None, Some(d)) => {
            let _ = writeln!(out, "<dt>detail</dt><dd>{}</dd>", detail(d));
        }
        (None, None) => {}
    }
    if let Some(e) = &c.explanation {
        let _ = writeln!(out, "<dt>why</dt><dd>{}</dd>", prose(e));
    }
    if let Some(h) = &c.hint {
        let _ = writeln!(out, "<dt>hint</dt><dd>{}</dd>", prose(h));
    }
    out.push_str("</dl>\n");
    if let Some(case) = &c.case {
        if let Some((whose, _)) = c
            .boards
            .iter()
            .find(|(_, b)| **b == c.input)
            .filter(|_| c.boards.len() > 1)
        {
            let _ = writeln!(
                out,
                "<p class=\"legend\">The board drawn is {}&#39;s.</p>",
                esc(whose)
            );
        }
        figure(out, &format!("m{}", i + 1), report, case, &verdict_of(c));
    }
    out.push_str("</section>\n");
}

fn student_class(s: &StudentReport) -> &'static str {
    if s.full_marks() {
        "full"
    } else if s.score <= 0.0 {
        "zero"
    } else {
        "partial"
    }
}

fn scores_table(out: &mut String, report: &Report) {
    out.push_str("<h2 id=\"scores\">Scores</h2>\n<table class=\"sortable\" id=\"score-table\">\n<thead><tr><th><button type=\"button\">student</button></th>");
    for f in &report.functions {
        let _ = write!(
            out,
            "<th class=\"num\"><button type=\"button\">{}</button></th>",
            esc(f)
        );
    }
    if report.rule.is_some() {
        out.push_str("<th><button type=\"button\">rules</button></th>");
    }
    out.push_str(
        "<th class=\"num\"><button type=\"button\">total</button></th></tr></thead>\n<tbody>\n",
    );
    for (i, s) in report.students.iter().enumerate() {
        let _ = write!(
            out,
            "<tr class=\"{}\"><td data-v=\"{}\"><a href=\"#student-{}\">{}</a></td>",
            student_class(s),
            esc(&s.student),
            i + 1,
            esc(&s.student)
        );
        for f in &report.functions {
            match s.functions.get(f) {
                Some(x) => {
                    let _ = write!(
                        out,
                        "<td class=\"num\" data-v=\"{}\">{}/{} <small>{}</small></td>",
                        x.points,
                        x.passed,
                        x.total,
                        points(x.points)
                    );
                }
                None => out.push_str("<td class=\"num\" data-v=\"-1\">-</td>"),
            }
        }
        if report.rule.is_some() {
            let rules = super::rules_cell(s);
            let _ = write!(out, "<td data-v=\"{}\">{}</td>", esc(&rules), esc(&rules));
        }
        let _ = writeln!(
            out,
            "<td class=\"num\" data-v=\"{}\">{}/{}</td></tr>",
            s.score,
            points(s.score),
            points(s.max_score)
        );
    }
    out.push_str("</tbody>\n</table>\n");
    let _ = writeln!(
        out,
        "<p class=\"legend\">{}</p>",
        prose(&super::legend(report))
    );
}

/// Text for a person (a hint, a warning, a legend), escaped, its code spans
/// (`` `x` ``) shown as code rather than as backticks.
fn prose(text: &str) -> String {
    code_spans(&esc(text))
}

/// A failure's detail: a traceback or compiler output keeps its lines (in
/// a `<pre>`), a one-line detail reads as prose.
fn detail(text: &str) -> String {
    if text.trim_end().contains('\n') {
        format!("<pre>{}</pre>", esc(text.trim_end()))
    } else {
        prose(text)
    }
}

/// Already-escaped text with each Markdown code span (`` `x` ``) as
/// `<code>x</code>`; an unpaired backtick stays as it is.
fn code_spans(escaped: &str) -> String {
    let parts: Vec<&str> = escaped.split('`').collect();
    if parts.len() % 2 == 0 {
        return escaped.to_owned();
    }
    let mut out = String::with_capacity(escaped.len() + 16);
    for (i, part) in parts.iter().enumerate() {
        if i % 2 == 1 {
            let _ = write!(out, "<code>{part}</code>");
        } else {
            out.push_str(part);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_violations_and_their_deduction_are_shown() {
        let mut report =
            crate::report::whole_file::tests::one_student(&crate::verdict::Verdict::pass());
        report.rule = Some("No `set()`, `dict` or `list` in the graded functions.".into());
        let s = &mut report.students[0];
        for f in s.functions.values_mut() {
            f.passed = f.total;
            f.smallest_failure = None;
        }
        s.violations = vec![crate::grading::lint::Violation {
            function: "willfinish".into(),
            line: 7,
            column: 12,
            construct: "set()".into(),
            source: "seen = set()".into(),
            path: vec![],
            graded: vec![],
        }];
        s.penalty = 5.0;
        let html = render(&report);
        assert!(
            html.contains("Rule violations</strong> (-5 points)"),
            "{html}"
        );
        assert!(html.contains("<code>seen = set()</code>"), "{html}");
        assert!(html.contains("breaks the handout&#39;s rule"), "{html}");
        assert!(
            html.contains("No <code>set()</code>, <code>dict</code>"),
            "{html}"
        );
    }

    #[test]
    fn code_spans_become_code() {
        assert_eq!(
            code_spans("7 students: `f` answers 2"),
            "7 students: <code>f</code> answers 2"
        );
        assert_eq!(code_spans("an odd ` tick"), "an odd ` tick");
    }

    #[test]
    fn escapes_markup_quotes_and_control_bytes() {
        assert_eq!(
            esc("<script>alert('x')</script> \"a\" & \u{1b}[31m\u{0}"),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &quot;a&quot; &amp; \u{FFFD}[31m\u{FFFD}"
        );
    }
}
