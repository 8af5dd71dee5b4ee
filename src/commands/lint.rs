//! `salgrade lint`: a file checked against the handout's rule on
//! constructs, without running it.

use anyhow::{Context, bail};

use super::check::student_file;
use super::choose::{Evidence, chosen_assignment};
use super::outputs::Output;
use super::setup::sandbox_config;
use super::{SOME_FAILED, SUCCESS};
use crate::cli::{LintArgs, LintFormat};
use crate::engine;
use crate::grading::lint;
use crate::runner::{Language, Limits};

pub(crate) fn lint(args: LintArgs) -> anyhow::Result<u8> {
    let language = student_file(&args.file)?;
    let assignment = chosen_assignment(&args.assignment, &Evidence::of_file(&args.file))?;
    let Some(rule) = assignment.container_rule() else {
        bail!(
            "assignment `{}` has no rule on constructs to check",
            assignment.id()
        );
    };
    if language != Language::Python {
        bail!(
            "`{}` is a {} file; the rule of `{}` is on Python files",
            args.file.display(),
            language.name(),
            assignment.id()
        );
    }
    let source = std::fs::read(&args.file)
        .with_context(|| format!("cannot read `{}`", args.file.display()))?;
    let undefined = defines_none(&String::from_utf8_lossy(&source), rule.checked);
    let warnings: Vec<String> = undefined
        .then(|| {
            format!(
                "`{}` defines none of the functions the rule is checked in ({}): is it the right file?",
                args.file.display(),
                crate::words::code_list(
                    &rule
                        .checked
                        .iter()
                        .map(|f| (*f).to_owned())
                        .collect::<Vec<_>>()
                )
            )
        })
        .into_iter()
        .collect();
    for w in &warnings {
        eprintln!("warning: {w}");
    }
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
                "warnings": warnings,
            }))?;
            v.push(b'\n');
            v
        }
        LintFormat::Text => lint_text(&name, &checked, undefined).into_bytes(),
    };
    Output::Stdout.write(&text)?;
    Ok(match checked {
        Ok(v) if v.is_empty() => SUCCESS,
        _ => SOME_FAILED,
    })
}

/// Compiler-style lines a terminal or an editor can jump to.
fn lint_text(
    name: &str,
    checked: &Result<Vec<lint::Violation>, String>,
    undefined: bool,
) -> String {
    let violations = match checked {
        Err(why) => return format!("{name}: cannot be checked: {why}\n"),
        Ok(v) if v.is_empty() && undefined => {
            return format!(
                "{name}: no rule violation found, but none of the graded functions is defined, so nothing was checked\n"
            );
        }
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

/// Whether `source` defines none of `functions` (as `def NAME(`, at the
/// start of a line: the graded functions are the module's own).
fn defines_none(source: &str, functions: &[&str]) -> bool {
    !source.lines().any(|line| {
        line.strip_prefix("def ").is_some_and(|rest| {
            functions.iter().any(|f| {
                rest.strip_prefix(f)
                    .is_some_and(|after| after.trim_start().starts_with('('))
            })
        })
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_file_defining_none_of_the_functions_is_told_apart() {
        let functions = ["willfinish", "whowins"];
        assert!(!super::defines_none(
            "def whowins (a, b):\n    pass\n",
            &functions
        ));
        assert!(super::defines_none(
            "def whowins_helper(a):\n    pass\n",
            &functions
        ));
        assert!(super::defines_none(
            "class X:\n    def whowins(self):\n        pass\n",
            &functions
        ));
        assert!(super::defines_none("", &functions));
    }
}
