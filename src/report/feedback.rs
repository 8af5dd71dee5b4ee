//! Feedback a student can act on: for each failing function the smallest
//! failing case (input, expected, got, the verdict in plain words), what the
//! submission printed, and rule violations with line numbers. The same text
//! is `--feedback DIR`'s Markdown file and `check`'s terminal report.

use std::fmt::Write as _;

use super::{Report, StudentReport, points};

pub(crate) fn render(report: &Report, s: &StudentReport) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# {}: {} / {}",
        s.student,
        points(s.score),
        points(s.max_score)
    );
    if let Some(file) = &s.file {
        let _ = writeln!(out, "\nGraded file: `{file}`");
    }
    let seed = report
        .seed
        .map(|x| format!(", seed {x}"))
        .unwrap_or_default();
    let options: Vec<String> = report
        .options
        .iter()
        .map(|(k, v)| {
            format!(
                "{k} `{}`",
                v.as_str().map_or_else(|| v.to_string(), str::to_owned)
            )
        })
        .collect();
    let options = if options.is_empty() {
        String::new()
    } else {
        format!(", {}", options.join(", "))
    };
    let _ = writeln!(
        out,
        "Cases: {} per student{seed}{options}.",
        report.case_count
    );
    for w in &s.warnings {
        let _ = writeln!(out, "\n> warning: {w}");
    }
    let _ = writeln!(out, "\n## Functions\n");
    for f in &report.functions {
        let Some(score) = s.functions.get(f) else {
            continue;
        };
        let mark = if score.passed == score.total {
            "passed"
        } else {
            "FAILED"
        };
        let _ = writeln!(
            out,
            "- `{f}`: {mark} {}/{} cases, {} / {} points",
            score.passed,
            score.total,
            points(score.points),
            points(score.max_points)
        );
    }
    for f in &report.functions {
        let Some(score) = s.functions.get(f) else {
            continue;
        };
        let Some(fail) = score.smallest_failure.as_ref() else {
            continue;
        };
        let shown = score.counterexample.as_ref();
        let v = shown.map_or(&fail.verdict, |c| &c.verdict);
        let _ = writeln!(out, "\n## `{f}`: {}\n", v.kind.as_str().replace('_', " "));
        let _ = writeln!(
            out,
            "{}.\n",
            capitalise(score.hint.as_deref().unwrap_or(v.kind.hint()))
        );
        match shown {
            Some(c) => {
                let origin = format!("case `{}` ({})", c.from_case, fail.label);
                let how = match (c.shrink_steps, c.minimal) {
                    (0, true) => format!("{origin}; no smaller input fails"),
                    (0, false) => {
                        format!("{origin}; nothing smaller was found in the time allowed")
                    }
                    (k, true) => {
                        format!("shrunk from {origin} in {k} step(s); no smaller input fails")
                    }
                    (k, false) => format!(
                        "shrunk from {origin} in {k} step(s); shrinking stopped at its time limit"
                    ),
                };
                let _ = writeln!(out, "Smallest failing input, {how}:\n");
                if let Some(d) = &c.drawing {
                    let _ = writeln!(out, "```text\n{}\n```\n", d.trim_end());
                }
                let _ = writeln!(out, "- input: {}", c.input);
            }
            None => {
                let _ = writeln!(
                    out,
                    "Smallest failing case `{}` ({}):\n",
                    fail.case_id, fail.label
                );
                let _ = writeln!(out, "- input: {}", fail.input);
            }
        }
        if let Some(e) = &v.expected {
            let _ = writeln!(out, "- expected: {e}");
        }
        if let Some(g) = &v.got {
            let _ = writeln!(out, "- got: {g}");
        }
        if let Some(l) = v.line {
            let _ = writeln!(out, "- line: {l}");
        }
        if let Some(d) = &v.detail {
            let _ = writeln!(out, "\n```text\n{}\n```", d.trim_end());
        }
        if let Some(c) = shown.filter(|c| !c.explanation.is_empty()) {
            let _ = writeln!(out, "\nWhat the reference does on this input:\n");
            for line in &c.explanation {
                let _ = writeln!(out, "    {line}");
            }
        }
        for note in &score.notes {
            let _ = writeln!(out, "\n{note}");
        }
        let failing = s
            .cases
            .iter()
            .filter(|c| c.function == *f && !c.verdict.passed())
            .count();
        if failing > 1 {
            let _ = writeln!(
                out,
                "\n({} more failing case(s) of `{f}` are in the full report.)",
                failing - 1
            );
        }
    }
    if !s.violations.is_empty() {
        let _ = writeln!(
            out,
            "\n## Rule violations (-{} points)\n",
            points(s.penalty)
        );
        if let Some(rule) = &report.rule {
            let _ = writeln!(out, "{rule}\n");
        }
        for v in &s.violations {
            let _ = writeln!(
                out,
                "- line {}, column {}, in `{}`: {}\n  `{}`",
                v.line,
                v.column,
                v.place(),
                v.construct,
                v.source.trim()
            );
        }
    }
    if !s.stdout.trim().is_empty() || !s.stderr.trim().is_empty() {
        let _ = writeln!(out, "\n## What your code printed\n");
        for (name, text) in [("stdout", &s.stdout), ("stderr", &s.stderr)] {
            if !text.trim().is_empty() {
                let _ = writeln!(out, "{name}:\n\n```text\n{}\n```", excerpt(text, 40));
            }
        }
    }
    out
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

fn excerpt(text: &str, max_lines: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() <= max_lines {
        return text.trim_end().to_owned();
    }
    format!(
        "{}\n[... {} more lines]",
        lines[..max_lines].join("\n"),
        lines.len() - max_lines
    )
}
