//! Runs the rule checker (`lint.py`) on a student's file, in the sandbox and
//! under the interpreter that runs the student's code, so the file is parsed
//! exactly as it will be run. The checker never imports the student's module.

use std::time::Duration;

use super::protocol::{LintRun, Message, Request};
use super::session::{CallEnd, RunnerConfig, Session, SessionError, SessionFile, Started};

pub(crate) const CHECKER_NAME: &str = "_salgrade_lint.py";
pub(crate) const CHECKER_PY: &str = include_str!("lint.py");
/// Parsing even a very large file takes well under a second.
const CHECK_DEADLINE: Duration = Duration::from_secs(10);

/// What the rule check looks for: the functions it checks and those exempt.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LintAsk<'a> {
    pub checked: &'a [&'a str],
    pub exempt: &'a [&'a str],
}

impl LintAsk<'_> {
    /// The request as the driver takes it on its command line.
    pub(crate) fn argument(&self, student_file: &str) -> String {
        let line = Request::Lint {
            file: student_file,
            checked: self.checked,
            exempt: self.exempt,
        }
        .line();
        String::from_utf8_lossy(&line).trim_end().to_owned()
    }
}

pub(crate) fn lint_source(
    cfg: &RunnerConfig,
    checked: &[&str],
    exempt: &[&str],
    student_file: &str,
    source: &[u8],
    slot: usize,
) -> Result<LintRun, SessionError> {
    super::unix::become_subreaper();
    let mut files = vec![
        SessionFile::text(student_file, source),
        SessionFile::text(CHECKER_NAME, CHECKER_PY.as_bytes()),
    ];
    // The checker from its bytecode, as a grading session loads it.
    let mut script = CHECKER_NAME;
    if let [Some(pyc)] = cfg
        .bytecode
        .pycs(&cfg.python, &[(CHECKER_NAME, CHECKER_PY)])[..]
    {
        files.push(SessionFile::text(pyc.module_file, pyc.bytes));
        script = pyc.module_file;
    }
    let program = cfg
        .python
        .program(script, &[], cfg.limits, cfg.drop_privileges);
    let (mut session, started) = Session::start(cfg, &files, &program, slot, false)?;
    let failed = |why: String| Ok(LintRun::Unreadable(why));
    match started {
        Started::Ready { .. } => {}
        Started::ImportFailed(e) => {
            return failed(format!(
                "the checker failed to start: {}: {}",
                e.kind, e.message
            ));
        }
        Started::ImportTimedOut => return failed("the checker did not start in time".to_owned()),
        Started::Died(d) => return failed(format!("the checker {}", d.describe())),
    }
    let request = Request::Lint {
        file: student_file,
        checked,
        exempt,
    };
    let deadline = super::Deadline {
        cpu: CHECK_DEADLINE,
        wall: CHECK_DEADLINE,
    };
    let run = match session.call(&request, deadline) {
        CallEnd::Answered {
            message: Message::Linted { findings },
            ..
        } => LintRun::Findings(findings),
        CallEnd::Answered {
            message: Message::Unreadable { error },
            ..
        } => LintRun::Unreadable(error),
        CallEnd::Answered { message, .. } => LintRun::Unreadable(format!(
            "the checker sent an unexpected answer: {message:?}"
        )),
        CallEnd::TimedOut { .. } => LintRun::Unreadable(format!(
            "the checker took longer than {} s",
            CHECK_DEADLINE.as_secs()
        )),
        CallEnd::Died(d) => LintRun::Unreadable(format!("the checker {}", d.describe())),
    };
    session.end();
    Ok(run)
}
