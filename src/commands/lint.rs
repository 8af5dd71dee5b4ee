//! `salgrade lint`: a file checked against the handout's rule on
//! constructs, without running it.

use anyhow::{Context, bail};

use super::choose::{Evidence, chosen_assignment};
use super::outputs::Output;
use super::setup::sandbox_config;
use super::{SOME_FAILED, SUCCESS};
use crate::cli::{LintArgs, LintFormat};
use crate::engine;
use crate::grading::lint;
use crate::runner::{Language, Limits};

pub(crate) fn lint(args: LintArgs) -> anyhow::Result<u8> {
    let assignment = chosen_assignment(&args.assignment, &Evidence::of_file(&args.file))?;
    if assignment.container_rule().is_none() {
        bail!(
            "assignment `{}` has no rule on constructs to check",
            assignment.id()
        );
    }
    let source = std::fs::read(&args.file)
        .with_context(|| format!("cannot read `{}`", args.file.display()))?;
    let runner = sandbox_config(&args.sandbox, Limits::default(), &[Language::Python], true)?;
    let checked = engine::check_rule(&runner, assignment, &source, 0)?;
    let name = args.file.display().to_string();
    let text = match args.format {
        LintFormat::Json => {
            let (violations, unreadable) = match &checked {
                Ok(v) => (v.as_slice(), None),
                Err(why) => (&[][..], Some(why)),
            };
            let offending: Vec<&str> = lint::offending_functions(violations).into_iter().collect();
            let mut v = serde_json::to_vec_pretty(&serde_json::json!({
                "file": name,
                "rule": assignment.container_rule().map(|r| r.summary),
                "unreadable": unreadable,
                "offending_functions": offending,
                "violations": violations,
            }))?;
            v.push(b'\n');
            v
        }
        LintFormat::Text => lint_text(&name, &checked).into_bytes(),
    };
    Output::Stdout.write(&text)?;
    Ok(match checked {
        Ok(v) if v.is_empty() => SUCCESS,
        _ => SOME_FAILED,
    })
}

/// Compiler-style lines a terminal or an editor can jump to.
fn lint_text(name: &str, checked: &Result<Vec<lint::Violation>, String>) -> String {
    let violations = match checked {
        Err(why) => return format!("{name}: cannot be checked: {why}\n"),
        Ok(v) if v.is_empty() => {
            return format!("{name}: no rule violation found\n");
        }
        Ok(v) => v,
    };
    let mut out = String::new();
    for v in violations {
        out.push_str(&format!(
            "{name}:{}:{}: {}: {}\n    {}\n",
            v.line,
            v.column,
            v.place(),
            v.construct,
            v.source
        ));
    }
    let offending: Vec<&str> = lint::offending_functions(violations).into_iter().collect();
    out.push_str(&format!(
        "{} finding(s), charged to {} graded function(s): {}\n",
        violations.len(),
        offending.len(),
        offending.join(", ")
    ));
    out
}
