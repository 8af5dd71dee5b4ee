//! The page's section for one student: each failing function with its
//! counterexample drawn, a failure of the whole file said once, and the
//! rule violations with their deduction.

use std::fmt::Write as _;

use super::figure::figure;
use super::{code_spans, detail, esc, prose, student_class};
use crate::grading::FunctionScore;
use crate::report::{Report, StudentReport, points};

pub(super) fn student_section(out: &mut String, report: &Report, i: usize, s: &StudentReport) {
    let _ = writeln!(
        out,
        "<section class=\"student {}\" id=\"student-{}\">\n<h3>{}: {}/{}</h3>",
        student_class(s),
        i + 1,
        esc(&s.student),
        points(s.score),
        points(s.max_score)
    );
    if let Some(file) = &s.file {
        let _ = writeln!(out, "<p class=\"meta\"><code>{}</code></p>", esc(file));
    }
    let whole = crate::report::whole_file::whole_file(report, s);
    if let Some(w) = &whole {
        whole_file(out, report, s, w);
    }
    let failing: Vec<(&String, &FunctionScore)> = s
        .functions
        .iter()
        .filter(|(name, f)| {
            f.passed < f.total
                && !whole
                    .as_ref()
                    .is_some_and(|w| w.functions.contains(&name.as_str()))
        })
        .collect();
    if failing.is_empty() && whole.is_none() {
        out.push_str(if s.violations.is_empty() {
            "<p>Every case passes.</p>\n"
        } else {
            "<p>Every case passes, but the code breaks the handout&#39;s rule (below).</p>\n"
        });
    }
    for (name, f) in failing {
        failure(out, report, i, s, name, f);
    }
    violations(out, report, s);
    for (what, text) in [("printed", &s.stdout), ("stderr", &s.stderr)] {
        if !text.trim().is_empty() {
            let _ = writeln!(
                out,
                "<details><summary>What the code {}</summary><pre>{}</pre></details>",
                if what == "printed" {
                    "printed"
                } else {
                    "wrote to stderr"
                },
                esc(text)
            );
        }
    }
    out.push_str("</section>\n");
}

/// A failure of the whole file, once, in place of one block per function.
fn whole_file(
    out: &mut String,
    report: &Report,
    s: &StudentReport,
    w: &crate::report::whole_file::WholeFile<'_>,
) {
    let _ = writeln!(
        out,
        "<div class=\"failure\" data-function=\"\">\n<p><strong>{}</strong>{}</p>\n<p>No case of {} could run.</p>",
        esc(w.heading()),
        if w.nothing_graded() {
            String::new()
        } else {
            format!(": {}.", prose(w.hint))
        },
        code_spans(&esc(&w.function_list()))
    );
    if let Some(l) = w.verdict.line {
        let _ = writeln!(out, "<p>line {l}</p>");
    }
    if let Some(d) = w.detail() {
        // A traceback or compiler output in a `<pre>`; salgrade's own one
        // line ("your file `x.py` is empty") as prose, its names as code.
        let shown = detail(&d);
        let _ = if shown.starts_with("<pre>") {
            writeln!(out, "{shown}")
        } else {
            writeln!(out, "<p>{shown}</p>")
        };
    }
    // The common mistake of the whole file (or of its first function, for
    // a file defining none), when others share it.
    let shared = report.clusters.iter().position(|c| {
        c.students.len() > 1
            && c.students.contains(&s.student)
            && (c.function.is_empty() || w.functions.contains(&c.function.as_str()))
    });
    if let Some(at) = shared {
        let _ = writeln!(
            out,
            "<dl><dt>shared</dt><dd><a href=\"#mistake-{}\">a common mistake of {} students</a></dd></dl>",
            at + 1,
            report.clusters[at].students.len()
        );
    }
    out.push_str("</div>\n");
}

/// The rule violations and the points they took, when there are any.
fn violations(out: &mut String, report: &Report, s: &StudentReport) {
    if s.violations.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "<div class=\"failure violations\">\n<p><strong>Rule violations</strong> (-{} points){}</p>\n<ul>",
        points(s.penalty),
        report
            .rule
            .as_ref()
            .map(|r| format!(": {}", code_spans(&esc(r))))
            .unwrap_or_default()
    );
    for v in &s.violations {
        let _ = writeln!(
            out,
            "<li>line {}, column {}, in <code>{}</code>: {} <code>{}</code></li>",
            v.line,
            v.column,
            esc(&v.place()),
            code_spans(&esc(&v.construct)),
            esc(v.source.trim())
        );
    }
    out.push_str("</ul>\n</div>\n");
}

/// One failing function of a student: its verdict, input, answers, hint,
/// the common mistake it shares, and its counterexample drawn.
fn failure(
    out: &mut String,
    report: &Report,
    i: usize,
    s: &StudentReport,
    name: &str,
    f: &FunctionScore,
) {
    let _ = writeln!(
        out,
        "<div class=\"failure\" data-function=\"{}\">\n<p><code>{}</code>: {}/{} cases pass.</p>\n<dl>",
        esc(name),
        esc(name),
        f.passed,
        f.total
    );
    let (input, verdict) = match (&f.counterexample, &f.smallest_failure) {
        (Some(c), _) => (c.input.as_str(), &c.verdict),
        (None, Some(x)) => (x.input.as_str(), &x.verdict),
        (None, None) => {
            out.push_str("</dl>\n</div>\n");
            return;
        }
    };
    let _ = writeln!(
        out,
        "<dt>verdict</dt><dd>{}</dd>\n<dt>input</dt><dd>{}</dd>",
        esc(verdict.kind.as_str()),
        prose(input)
    );
    if let Some(e) = &verdict.expected {
        let _ = writeln!(out, "<dt>expected</dt><dd><code>{}</code></dd>", esc(e));
    }
    if let Some(g) = &verdict.got {
        let _ = writeln!(out, "<dt>given</dt><dd><code>{}</code></dd>", esc(g));
    }
    if let Some(d) = &verdict.detail {
        let _ = writeln!(out, "<dt>detail</dt><dd>{}</dd>", detail(d));
    }
    if let Some(h) = &f.hint {
        let _ = writeln!(out, "<dt>hint</dt><dd>{}</dd>", prose(h));
    }
    for n in &f.notes {
        let _ = writeln!(out, "<dt>note</dt><dd>{}</dd>", prose(n));
    }
    // The common mistake this failure is part of, when others share it.
    let shared = report.clusters.iter().position(|c| {
        c.students.len() > 1
            && c.students.contains(&s.student)
            && (c.function == *name || c.function.is_empty())
    });
    if let Some(at) = shared {
        let _ = writeln!(
            out,
            "<dt>shared</dt><dd><a href=\"#mistake-{}\">a common mistake of {} students</a></dd>",
            at + 1,
            report.clusters[at].students.len()
        );
    }
    out.push_str("</dl>\n");
    if let Some(c) = &f.counterexample {
        figure(out, &figure_id(i, name), report, &c.case, &c.verdict);
        if !c.explanation.is_empty() {
            let _ = writeln!(
                out,
                "<details><summary>What the reference does</summary><pre>{}</pre></details>",
                esc(&c.explanation.join("\n"))
            );
        }
    }
    out.push_str("</div>\n");
}

/// The prefix of the ids inside a student's figure of `function`: unique
/// in the page (`s3-whowins`), so each board's arrowheads are its own.
fn figure_id(student: usize, function: &str) -> String {
    let safe: String = function
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    format!("s{}-{safe}", student + 1)
}
