//! Assignments behind one small trait. An assignment says which functions a
//! student writes, which support files the sandbox needs, how cases are
//! generated, what request the driver gets for a case, and how an answer is
//! judged. The runner, the grading and the reports know nothing more about
//! it, so a second assignment (minimum dice throws, LeetCode 909) is one more
//! module here.

pub(crate) mod a48;

use salgrade_reference::{Case, CaseFile, Reading};

use crate::grading::verdict::{Verdict, VerdictKind};
use crate::runner::{ContainerRule, ImportProblem, RawOutcome};

/// Settings for generating a case set.
#[derive(Debug, Clone, Copy)]
pub(crate) struct GenSettings {
    pub seed: u64,
    pub random_per_function: usize,
    pub reading: Reading,
}

pub(crate) trait Assignment: Sync {
    /// The short id written in case files (`a48`).
    fn id(&self) -> &'static str;
    /// The functions a student writes, in report order.
    fn functions(&self) -> &'static [&'static str];
    /// The file name the student submits.
    fn student_file(&self) -> &'static str;
    /// Files placed beside the student's module (the course API).
    fn support_files(&self) -> Vec<(&'static str, &'static str)>;
    /// A solution that must pass every case.
    fn model_solution(&self) -> &'static str;
    /// The seeded case set.
    fn generate(&self, settings: GenSettings) -> CaseFile;
    /// Checks a case file's cases are well-formed and their expected answers
    /// are the reference's; returns one message per bad case.
    fn check_cases(&self, file: &CaseFile) -> Vec<String>;
    /// The request the driver gets for a case.
    fn request(&self, case: &Case) -> serde_json::Value;
    /// Judges a driver's answer to a case.
    fn judge_answer(&self, case: &Case, message: &serde_json::Value) -> Verdict;
    /// A measure of a case's size, for choosing the smallest failing case.
    fn case_size(&self, case: &Case) -> u64;
    /// The case's input described for a person (board, step sizes).
    fn describe_input(&self, case: &Case) -> String;
    /// Cases strictly smaller than `case` (same function, expected answers
    /// from the reference), boldest first; empty when `case` is minimal.
    fn shrink_candidates<'a>(
        &'a self,
        case: &'a Case,
        reading: Reading,
    ) -> Box<dyn Iterator<Item = Case> + 'a>;
    /// What the reference does on `case`, in lines of words, and the input
    /// drawn as text when it is small enough.
    fn explain(&self, case: &Case, verdict: &Verdict) -> (Vec<String>, Option<String>);
    /// The handout's ban on containers, if it has one.
    fn container_rule(&self) -> Option<ContainerRule> {
        None
    }
}

/// Judges a raw outcome: the parts every assignment shares, then the answer.
pub(crate) fn judge(assignment: &dyn Assignment, case: &Case, outcome: &RawOutcome) -> Verdict {
    match outcome {
        RawOutcome::Answered { message, .. } => {
            judge_common(message).unwrap_or_else(|| assignment.judge_answer(case, message))
        }
        RawOutcome::Missing => Verdict::detail(
            VerdictKind::MissingFunction,
            format!(
                "no function `{}` in `{}`",
                case.function,
                assignment.student_file()
            ),
        ),
        RawOutcome::NotRun { problem } => import_verdict(problem),
        RawOutcome::TimedOut { limit_ms, retried } => Verdict::detail(
            VerdictKind::Timeout,
            format!(
                "no answer within {limit_ms} ms{}",
                if *retried {
                    " (tried twice, in fresh processes)"
                } else {
                    ""
                }
            ),
        ),
        RawOutcome::Died { death } => {
            if death.signal == Some(24) {
                Verdict::detail(
                    VerdictKind::Timeout,
                    format!("the process {}", death.describe()),
                )
            } else {
                Verdict::detail(
                    VerdictKind::ProcessDied,
                    format!("the process {}", death.describe()),
                )
            }
        }
    }
}

/// Exceptions (the driver reports them the same way for every assignment).
fn judge_common(message: &serde_json::Value) -> Option<Verdict> {
    let outcome = &message["outcome"];
    match outcome["kind"].as_str() {
        Some("missing") => Some(Verdict::new(VerdictKind::MissingFunction)),
        Some("raised") => {
            let kind = outcome["type"].as_str().unwrap_or("an exception");
            let text = outcome["message"].as_str().unwrap_or("");
            let verdict_kind = if kind == "MemoryError" {
                VerdictKind::MemoryLimit
            } else {
                VerdictKind::Exception
            };
            let mut detail = if text.is_empty() {
                kind.to_owned()
            } else {
                format!("{kind}: {text}")
            };
            if kind == "RecursionError" {
                detail
                    .push_str(" (Python allows about 1000 nested calls; large boards need a loop)");
            }
            if let Some(tb) = outcome["traceback"].as_str().filter(|t| !t.is_empty()) {
                detail.push('\n');
                detail.push_str(tb);
            }
            Some(Verdict {
                line: outcome["line"].as_u64().map(|l| l as u32),
                ..Verdict::detail(verdict_kind, detail)
            })
        }
        _ => None,
    }
}

/// The verdict for every case of a module that could not be imported.
pub(crate) fn import_verdict(problem: &ImportProblem) -> Verdict {
    match problem {
        ImportProblem::Raised { error } => {
            let kind = error["type"].as_str().unwrap_or("an exception");
            let text = error["message"].as_str().unwrap_or("");
            let line = error["line"].as_u64().map(|l| l as u32);
            let mut detail = format!("{kind}: {text}");
            if let Some(l) = line {
                detail.push_str(&format!(" (line {l})"));
            }
            if let Some(src) = error["text"].as_str().filter(|t| !t.is_empty()) {
                detail.push_str(&format!("\n    {}", src.trim()));
            }
            Verdict {
                line,
                ..Verdict::detail(VerdictKind::ImportFailed, detail)
            }
        }
        ImportProblem::TimedOut { limit_ms } => Verdict::detail(
            VerdictKind::ImportFailed,
            format!(
                "importing the module took longer than {limit_ms} ms (code at module level runs at import)"
            ),
        ),
        ImportProblem::Died { death } => Verdict::detail(
            VerdictKind::ImportFailed,
            format!(
                "the process {} while importing the module",
                death.describe()
            ),
        ),
    }
}
