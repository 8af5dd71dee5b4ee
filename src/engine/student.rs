//! Grading one student: their file run on every case in one sandboxed
//! session, the rule checked, the failures judged, scored and shrunk.

use std::path::Path;
use std::time::Instant;

use anyhow::Context;
use salgrade_reference::Case;

use super::{Engine, check_rule, language_of, rule_findings};
use crate::discover::Submission;
use crate::grading::judge;
use crate::grading::lint::{self, Violation};
use crate::grading::shrink::{self, Budget, Counterexample};
use crate::grading::{self, CaseResult};
use crate::report::StudentReport;
use crate::runner::{self, Deadline, Language};
use crate::verdict::{Verdict, VerdictKind};

/// Whether a file holds nothing but white space (an empty submission is
/// said once, not as every function missing). An unreadable file is not
/// blank: reading it again reports why.
fn is_blank(file: &Path) -> bool {
    std::fs::read(file).is_ok_and(|b| b.iter().all(u8::is_ascii_whitespace))
}

/// Whether C++ source defines a `main` of its own (a call `main(` after a
/// non-identifier character is taken as one: a warning, never a verdict).
fn defines_main(source: &str) -> bool {
    source.match_indices("main").any(|(i, _)| {
        let before = source[..i].chars().next_back();
        let after = source[i + 4..].trim_start().chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_') && after == Some('(')
    })
}

/// Candidates one shrink search may try, whatever its time budget.
const MAX_SHRINK_TRIES: u32 = 2000;

impl Engine {
    /// Shrinks each function's smallest failure against the same student
    /// process, within the per-student budget. Never scored.
    fn shrink_failures(
        &self,
        runner: &mut runner::SubmissionRunner<'_>,
        deadlines: &[Deadline],
        results: &[grading::CaseResult],
    ) -> Vec<Counterexample> {
        if self.shrink_budget.is_zero() {
            return Vec::new();
        }
        let cases = &self.case_file.cases;
        let starts: Vec<usize> = self
            .assignment
            .functions()
            .iter()
            .filter_map(|f| grading::smallest_failing(self.assignment, cases, results, f))
            .filter(|&i| shrink::worth_shrinking(results[i].verdict.kind))
            .collect();
        let end = Instant::now() + self.shrink_budget;
        let mut found = Vec::new();
        for (n, &i) in starts.iter().enumerate() {
            let (result, case, deadline) = (&results[i], &cases[i], deadlines[i]);
            // Each function gets an equal share of what is left, so one slow
            // search cannot starve the others.
            let left = end.saturating_duration_since(Instant::now());
            let budget = Budget {
                until: Instant::now() + left / (starts.len() - n) as u32,
                max_tries: MAX_SHRINK_TRIES,
            };
            let mut oracle = |candidate: &Case| {
                let outcome = runner.run(candidate, deadline).ok()?;
                Some(judge::judge(self.assignment, candidate, &outcome))
            };
            found.push(shrink::shrink(
                self.assignment,
                &self.case_file.options,
                case,
                &result.verdict,
                budget,
                &mut oracle,
            ));
        }
        found
    }

    /// Grades one student. Student failures are results; only harness
    /// failures (cannot create a folder, cannot start Python) are errors.
    pub(crate) fn grade(
        &self,
        sub: &Submission,
        root: &Path,
        slot: usize,
    ) -> anyhow::Result<StudentReport> {
        let rel = sub.file.as_ref().map(|f| {
            crate::shown::one_line(&f.strip_prefix(root).unwrap_or(f).display().to_string())
                .into_owned()
        });
        let mut warnings = sub.warnings.clone();
        let problem = sub.problem.clone().or_else(|| {
            let file = sub.file.as_deref()?;
            is_blank(file).then(|| {
                format!(
                    "your file `{}` is empty: submit the file with your code in it",
                    rel.as_deref().unwrap_or_default()
                )
            })
        });
        let ran = match (&sub.file, problem) {
            (Some(file), None) => self.run_file(file, &sub.siblings, slot, &mut warnings)?,
            (_, problem) => self.nothing_graded(problem, &mut warnings),
        };
        let offending = lint::offending_functions(&ran.violations).len();
        let cases = &self.case_file.cases;
        let mut tally = grading::score(
            self.assignment,
            &self.rubric,
            cases,
            &ran.results,
            offending,
        );
        for c in ran.counterexamples {
            if let Some(f) = tally.functions.get_mut(&c.case.function) {
                f.counterexample = Some(c);
            }
        }
        for (name, f) in &mut tally.functions {
            f.hint = grading::hint(self.assignment, name, f, cases, &ran.results);
            let shown = f
                .counterexample
                .as_ref()
                .map(|c| &c.verdict)
                .or(f.smallest_failure.as_ref().map(|s| &s.verdict));
            if let Some(v) = shown {
                f.notes = self.assignment.notes(name, v);
            }
        }
        Ok(StudentReport {
            student: sub.student.clone(),
            file: rel,
            score: tally.score,
            max_score: tally.max_score,
            functions: tally.functions,
            cases: ran.results,
            penalty: tally.penalty,
            violations: ran.violations,
            rule_checked: ran.rule_checked,
            warnings,
            stdout: ran.stdout,
            stderr: ran.stderr,
        })
    }

    /// Runs the student's file on every case in one session, checks the
    /// rule, judges the answers and shrinks the failures.
    fn run_file(
        &self,
        file: &Path,
        siblings: &[crate::discover::siblings::Sibling],
        slot: usize,
        warnings: &mut Vec<String>,
    ) -> anyhow::Result<Ran> {
        let source =
            std::fs::read(file).with_context(|| format!("cannot read `{}`", file.display()))?;
        let extra = self.sibling_files(file, siblings, warnings);
        let context = || format!("cannot grade `{}`", file.display());
        let language = language_of(file);
        let calibrated = language
            .and_then(|l| self.languages.get(&l))
            .with_context(|| {
                format!(
                    "`{}` is not in a language this run grades (a salgrade bug)",
                    file.display()
                )
            })?;
        let rule = self.assignment.container_rule();
        let python = language == Some(Language::Python);
        let mut rule_checked = false;
        if !python {
            rule_checked = rule.is_none();
            if defines_main(&String::from_utf8_lossy(&source)) {
                warnings.push(
                    "your `main` is not run: the harness's `main` calls your functions".to_owned(),
                );
            }
        }
        // The first session's driver checks the rule before it imports the
        // file (one process start, not two).
        let ask = rule.filter(|_| python).map(|r| runner::LintAsk {
            checked: r.checked,
            exempt: r.exempt,
        });
        let (cfg, harness) = (&self.runner, &calibrated.harness);
        let mut runner =
            runner::SubmissionRunner::with_siblings(cfg, harness, &source, &extra, slot, ask)
                .with_context(context)?;
        warnings.extend(
            runner
                .build_warnings()
                .iter()
                .map(|w| format!("compiler warning: {w}")),
        );
        let cases = &self.case_file.cases;
        let outcomes = runner
            .run_all(cases, &calibrated.deadlines, &self.order)
            .with_context(context)?;
        let mut violations = Vec::new();
        if python {
            // A driver that died before its check (or no case at all)
            // leaves it to the checker on its own.
            let checked = match runner.linted() {
                Some(run) if rule.is_some() => rule_findings(run.clone()),
                _ => check_rule(&self.runner, self.assignment, &source, slot)?,
            };
            match checked {
                Ok(found) => {
                    violations = found;
                    rule_checked = true;
                }
                Err(why) => warnings.push(format!("the rule check was skipped: {why}")),
            }
        }
        let results = grading::judge_all(self.assignment, cases, &outcomes);
        let counterexamples = self.shrink_failures(&mut runner, &calibrated.deadlines, &results);
        let (out, err) = runner.finish();
        Ok(Ran {
            results,
            violations,
            rule_checked,
            counterexamples,
            stdout: out.excerpt(),
            stderr: err.excerpt(),
        })
    }

    /// Every case failed at import with `problem` (no file, a symbolic link,
    /// an empty file), said once among the warnings.
    fn nothing_graded(&self, problem: Option<String>, warnings: &mut Vec<String>) -> Ran {
        let why = problem.unwrap_or_else(|| "no file to grade".to_owned());
        warnings.push(why.clone());
        let verdict = Verdict::detail(
            VerdictKind::ImportFailed,
            format!("{}{why}", crate::report::whole_file::NOTHING_GRADED),
        );
        let results = self
            .case_file
            .cases
            .iter()
            .map(|c| CaseResult {
                case_id: grading::shared(&c.id),
                function: grading::shared(&c.function),
                verdict: verdict.clone(),
                wall_ms: None,
                cpu_ms: None,
            })
            .collect();
        Ran {
            results,
            violations: Vec::new(),
            rule_checked: false,
            counterexamples: Vec::new(),
            stdout: String::new(),
            stderr: String::new(),
        }
    }
}

/// What running one student's file gave, before scoring.
struct Ran {
    results: Vec<CaseResult>,
    violations: Vec<Violation>,
    rule_checked: bool,
    counterexamples: Vec<Counterexample>,
    stdout: String,
    stderr: String,
}
