//! salgrade: grades snakes-and-ladders programming assignments.
//!
//! The binary is a thin shell over [`run`]. Layout: `assignment` (one module
//! per assignment behind one trait), `runner` (the only code that starts
//! processes), `grading` (pure judging and scoring), `report` (pure
//! exporters), `engine` and `commands` (orchestration), `cli` (clap types).
//! `outcome` and `verdict` are leaves: what running code produced, and what
//! it is judged to be, shared by the runner, the assignments and the grading
//! without any of them depending on another.

// Unsafe code lives in one small module, `runner/unix/`, and nowhere else.
#![deny(unsafe_code)]

mod assignment;
mod bounds;
mod build_id;
mod capacity;
mod cli;
mod commands;
mod discover;
mod engine;
mod figure;
mod fingerprint;
mod grading;
mod infer;
mod input;
mod journal;
mod mistakes;
mod outcome;
mod output;
mod report;
#[expect(
    clippy::disallowed_methods,
    reason = "the runner is the one module that starts processes"
)]
mod runner;
mod secrets;
mod shown;
mod similar;
mod terminal;
mod verdict;
mod words;

use std::process::ExitCode;

use clap::Parser;

/// Usage or setup error: bad arguments, a bad file, no Python.
const SETUP_ERROR: u8 = 2;

/// Parses the command line, runs the command, and maps the outcome to an
/// exit code: 0 all passed, 1 something failed, 2 usage or setup error.
pub fn run() -> ExitCode {
    runner::unix::bound_the_allocator();
    runner::unix::reserve_low_fds();
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            if let Some(message) = bad_jobs_variable(&e, std::env::args().skip(1)) {
                eprintln!("error: {message}");
                return ExitCode::from(SETUP_ERROR);
            }
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { SETUP_ERROR } else { 0 });
        }
    };
    let result = match cli.command {
        cli::Command::Grade(a) => commands::grade(a),
        cli::Command::Merge(a) => commands::merge(a),
        cli::Command::Check(a) => commands::check(a),
        cli::Command::Clusters(a) => commands::clusters(a),
        cli::Command::Lint(a) => commands::lint(a),
        cli::Command::Gen(a) => commands::generate(a),
        cli::Command::Ref(a) => commands::reference(a),
        cli::Command::Init(a) => commands::init(a),
        cli::Command::Assignments => commands::assignments(),
        cli::Command::Similar(a) => commands::similar(a),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        // A run interrupted by a signal fails in its workers as the
        // handler tears the sandboxes down; the handler exits with the
        // signal's code once every student process is gone.
        Err(_) if runner::interrupted() => runner::wait_for_interrupt_exit(),
        // The reader of a pipe went away (`salgrade gen | head -1`): it has
        // what it wanted, which is no error of anyone's; exit quietly.
        Err(e) if closed_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", one_line(&e));
            ExitCode::from(SETUP_ERROR)
        }
    }
}

/// Whether `e` is a write to a pipe whose reader has closed it.
fn closed_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// The error and its causes on one line.
fn one_line(e: &anyhow::Error) -> String {
    e.chain()
        .map(|c| shown::one_line(&c.to_string().replace('\n', " ")).into_owned())
        .collect::<Vec<_>>()
        .join(": ")
}

/// A bad `--jobs` that came from `SALGRADE_JOBS` (the command line has no
/// `-j`), in words that name the variable: clap's own message names only
/// the flag, which the user never typed.
fn bad_jobs_variable(e: &clap::Error, args: impl Iterator<Item = String>) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::InvalidValue && e.kind() != ErrorKind::ValueValidation {
        return None;
    }
    let about_jobs = matches!(
        e.get(ContextKind::InvalidArg),
        Some(ContextValue::String(arg)) if arg.starts_with("--jobs")
    );
    let typed = args
        .take_while(|a| a != "--")
        .any(|a| a.starts_with("--jobs") || (a.starts_with("-j") && !a.starts_with("--")));
    let value = std::env::var_os("SALGRADE_JOBS")?;
    let value = value.to_string_lossy();
    let is = if value.trim().is_empty() {
        "set but empty".to_owned()
    } else {
        format!("`{value}`")
    };
    (about_jobs && !typed).then(|| {
        format!(
            "the environment variable `SALGRADE_JOBS` is {is}, not a number of jobs from 1 to 256 (it stands for `--jobs`): set it to one, or unset it (`unset SALGRADE_JOBS`) to use the number of cores"
        )
    })
}
