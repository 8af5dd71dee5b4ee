//! The C++ toolchain: finding the compiler, building a submission once in
//! the sandbox (its own deadline, limits and a cap on diagnostics), and the
//! compiled program's command line. The build's errors are the student's
//! (`build_failed`), never a harness error.
//!
//! A submission is two translation units linked together: the student's
//! (the assignment's wrapper, which includes the student's file with any
//! `main` renamed, and for LeetCode the standard headers first) and the
//! assignment's adapter, which includes the generic C++ driver. So a
//! student's `#define` cannot reach the harness, and the harness's names
//! cannot clash with the student's.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};

use super::sandbox::{Executable, Limits, Program};
use super::session::{RunnerConfig, Session, SessionError, SessionFile};

/// The generic driver, included by every assignment's C++ adapter.
pub(crate) const DRIVER_HPP: &str = include_str!("cxx/driver.hpp");
const DRIVER_NAME: &str = "_salgrade_driver.hpp";
const WRAPPER_NAME: &str = "_salgrade_student.cpp";
const ADAPTER_NAME: &str = "_salgrade_adapter.cpp";
/// The compiled program's name in the session folder.
pub(crate) const PROGRAM_NAME: &str = "prog";
/// Compiler errors (and, apart, warnings) kept for the report.
const MAX_DIAGNOSTICS: usize = 5;

/// The flags every submission is built with: C++20 as LeetCode compiles it,
/// optimised as judges run it, warnings on but never fatal.
pub(crate) const FLAGS: &[&str] = &[
    "-std=c++20",
    "-O2",
    "-Wall",
    "-fdiagnostics-color=never",
    "-fmax-errors=20",
];

/// The compiler, resolved once per run.
#[derive(Debug, Clone)]
pub(crate) struct Cxx {
    pub executable: PathBuf,
    /// The first line of `--version` (`g++ (Debian 12.2.0-14) 12.2.0`).
    pub version: String,
}

/// What an assignment supplies to build a C++ submission.
#[derive(Debug, Clone)]
pub(crate) struct CxxHarness {
    /// The student's file name (`min_throws.cpp`).
    pub student_file: &'static str,
    /// The student's translation unit: includes the student's file (any
    /// `main` renamed) and whatever glue the adapter calls.
    pub wrapper: &'static str,
    /// The adapter's translation unit (it includes `_salgrade_driver.hpp`).
    pub adapter: &'static str,
}

/// A built submission: the program, and the warnings worth showing.
#[derive(Debug, Clone)]
pub(crate) struct Built {
    pub program: Vec<u8>,
    pub warnings: Vec<String>,
}

/// Why a submission did not build.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct BuildFailure {
    /// The first errors, `file:line:column: message`.
    pub errors: Vec<String>,
    /// What else happened, in words (a deadline, a signal, more errors).
    pub note: Option<String>,
}

/// Finds the compiler: `explicit`, else `g++`, else `c++` on PATH.
pub(crate) fn resolve(explicit: Option<&Path>) -> anyhow::Result<Cxx> {
    let candidates: Vec<PathBuf> = match explicit {
        Some(p) => vec![p.to_path_buf()],
        None => vec![PathBuf::from("g++"), PathBuf::from("c++")],
    };
    for program in &candidates {
        let Ok(out) = std::process::Command::new(program)
            .arg("--version")
            .output()
        else {
            continue;
        };
        if !out.status.success() {
            continue;
        }
        let text = String::from_utf8_lossy(&out.stdout);
        let version = text.lines().next().unwrap_or("").trim().to_owned();
        let executable = which(program)
            .with_context(|| format!("cannot find where `{}` is installed", program.display()))?;
        return Ok(Cxx {
            executable,
            version,
        });
    }
    match explicit {
        Some(p) => bail!(
            "cannot run the C++ compiler `{}`: pass `--cxx PATH` to a working g++ or clang++",
            p.display()
        ),
        None => bail!(
            "no C++ compiler (`g++` or `c++`) on PATH: install g++ (Debian package `g++`) or pass `--cxx PATH`"
        ),
    }
}

/// The absolute path of a program named on PATH (the sandbox has no PATH
/// of the user's).
fn which(program: &Path) -> Option<PathBuf> {
    if program.components().count() > 1 {
        return std::fs::canonicalize(program).ok();
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
        .and_then(|p| std::fs::canonicalize(p).ok())
}

/// Builds `source` with the assignment's wrapper and adapter in the sandbox.
pub(crate) fn build(
    cfg: &RunnerConfig,
    cxx: &Cxx,
    harness: &CxxHarness,
    source: &[u8],
    slot: usize,
) -> Result<Result<Built, BuildFailure>, SessionError> {
    let files = [
        SessionFile::text(harness.student_file, source),
        SessionFile::text(WRAPPER_NAME, harness.wrapper.as_bytes()),
        SessionFile::text(ADAPTER_NAME, harness.adapter.as_bytes()),
        SessionFile::text(DRIVER_NAME, DRIVER_HPP.as_bytes()),
    ];
    let mut args: Vec<String> = FLAGS.iter().map(|f| (*f).to_owned()).collect();
    args.extend(
        ["-o", PROGRAM_NAME, WRAPPER_NAME, ADAPTER_NAME]
            .iter()
            .map(|a| (*a).to_owned()),
    );
    let program = Program {
        executable: Executable::System(&cxx.executable),
        args,
        binds: Vec::new(),
        drop_privileges: cfg.drop_compiled,
        limits: cfg.build.limits,
        keeps_output: true,
    };
    let run = Session::run_to_end(cfg, &files, &program, slot, cfg.build.timeout, PROGRAM_NAME)?;
    let diagnostics = run.stderr.excerpt() + &run.stdout.excerpt();
    let (errors, warnings) = diagnostics_of(&diagnostics, harness.student_file);
    let note = match &run.ended {
        None => Some(format!(
            "the build took longer than {} s (`--build-timeout-ms`)",
            cfg.build.timeout.as_secs_f64()
        )),
        Some(d) if d.code == Some(0) => None,
        Some(d) if d.code.is_some() && !errors.is_empty() => None,
        Some(d) => Some(format!("the compiler {}", d.describe())),
    };
    match (run.ended, run.kept) {
        (Some(d), Some(program)) if d.code == Some(0) => Ok(Ok(Built { program, warnings })),
        _ => Ok(Err(BuildFailure {
            errors: if errors.is_empty() && note.is_none() {
                vec![first_lines(&diagnostics)]
            } else {
                errors
            },
            note,
        })),
    }
}

/// The compiled program's command line.
pub(crate) fn program(cfg: &RunnerConfig) -> Program<'static> {
    Program {
        executable: Executable::InSession(PROGRAM_NAME),
        args: super::sandbox::PROTOCOL_FD_ARGS
            .iter()
            .map(|a| (*a).to_owned())
            .collect(),
        binds: Vec::new(),
        drop_privileges: cfg.drop_compiled,
        limits: cfg.limits,
        keeps_output: false,
    }
}

/// The first errors (any file: the harness's glue failing to compile means
/// the student's file lacks what it needs) and the student's own warnings,
/// each as `file:line:column: message`, at most [`MAX_DIAGNOSTICS`] each.
fn diagnostics_of(text: &str, student_file: &str) -> (Vec<String>, Vec<String>) {
    let (mut errors, mut warnings) = (Vec::new(), Vec::new());
    let mut more_errors = 0;
    for line in text.lines() {
        let Some((place, rest)) = split_place(line) else {
            if line.contains("undefined reference to") {
                errors.push(format!("link: {}", line.trim()));
            }
            continue;
        };
        if let Some(msg) = rest
            .strip_prefix("error: ")
            .or_else(|| rest.strip_prefix("fatal error: "))
        {
            if errors.len() < MAX_DIAGNOSTICS {
                errors.push(format!("{place}: {msg}"));
            } else {
                more_errors += 1;
            }
        } else if let Some(msg) = rest.strip_prefix("warning: ") {
            if place.starts_with(student_file) && warnings.len() < MAX_DIAGNOSTICS {
                warnings.push(format!("{place}: {msg}"));
            }
        }
    }
    if more_errors > 0 {
        errors.push(format!("... and {more_errors} more error(s)"));
    }
    (errors, warnings)
}

/// `file:line:column` and the rest of a compiler diagnostic line.
fn split_place(line: &str) -> Option<(&str, &str)> {
    let mut parts = line.splitn(4, ':');
    let (file, l, c, rest) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    let numeric = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if file.is_empty() || !numeric(l) || !numeric(c) {
        return None;
    }
    let place_len = file.len() + l.len() + c.len() + 2;
    Some((&line[..place_len], rest.trim_start()))
}

fn first_lines(text: &str) -> String {
    let lines: Vec<&str> = text.lines().take(8).collect();
    if lines.is_empty() {
        "the compiler failed without a message".to_owned()
    } else {
        lines.join("\n")
    }
}

/// Build settings: their own deadline and limits (a compiler needs more
/// memory and processes than a student's program).
#[derive(Debug, Clone, Copy)]
pub(crate) struct BuildSettings {
    pub timeout: Duration,
    pub limits: Limits,
}

impl Default for BuildSettings {
    fn default() -> BuildSettings {
        BuildSettings {
            timeout: Duration::from_secs(30),
            limits: Limits {
                memory_mb: 2048,
                cpu_seconds: 60,
                file_size_mb: 64,
                open_files: 256,
                processes: 32,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_and_the_students_warnings_are_picked_out() {
        let text = "\
min_throws.cpp: In function 'int getMinDiceThrows(int*, int)':
min_throws.cpp:12:5: error: 'queue' was not declared in this scope
min_throws.cpp:3:9: warning: unused variable 'x' [-Wunused-variable]
_salgrade_adapter.cpp:1:1: warning: something of ours
/usr/bin/ld: /tmp/cc.o: in function `main':
x.cpp:(.text+0x1): undefined reference to `foo(int)'
";
        let (errors, warnings) = diagnostics_of(text, "min_throws.cpp");
        assert_eq!(
            errors,
            [
                "min_throws.cpp:12:5: 'queue' was not declared in this scope",
                "link: x.cpp:(.text+0x1): undefined reference to `foo(int)'"
            ]
        );
        assert_eq!(
            warnings,
            ["min_throws.cpp:3:9: unused variable 'x' [-Wunused-variable]"]
        );
    }

    #[test]
    fn more_errors_than_shown_are_counted() {
        let text: String = (1..=8)
            .map(|i| format!("a.cpp:{i}:1: error: e{i}\n"))
            .collect();
        let (errors, _) = diagnostics_of(&text, "a.cpp");
        assert_eq!(errors.len(), MAX_DIAGNOSTICS + 1);
        assert_eq!(errors.last().unwrap(), "... and 3 more error(s)");
    }
}
