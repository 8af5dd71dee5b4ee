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
//!
//! A student is first built against the run's precompiled prelude
//! (`cxx/prelude.rs`: the wrapper's standard headers as a `.gch`, the adapter
//! as an object); when that build does not succeed, or there is no prelude,
//! the whole build above is what counts, so a failed build always reads as
//! it would without the prelude.

mod prelude;

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, bail};

use super::plan::{Executable, Program};
use super::session::{RunnerConfig, Session, SessionError, SessionFile};
pub(crate) use super::toolchain::{BuildSettings, Cxx, PreludeMode};
use crate::outcome::BuildFailure;

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
/// optimised as judges run it, warnings on but never fatal, except one: a
/// function that can fall off its end without returning its value is
/// undefined behaviour (control would run on into whatever follows), so it
/// is a build error naming its line rather than a confusing verdict later.
pub(crate) const FLAGS: &[&str] = &[
    "-std=c++20",
    "-O2",
    "-Wall",
    "-Werror=return-type",
    "-fdiagnostics-color=never",
    "-fmax-errors=20",
];

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

/// Builds `source` with the assignment's wrapper and adapter in the sandbox:
/// against the run's prelude when there is one and that build succeeds,
/// else whole.
pub(crate) fn build(
    cfg: &RunnerConfig,
    cxx: &Cxx,
    harness: &CxxHarness,
    source: &[u8],
    slot: usize,
) -> Result<Result<Built, BuildFailure>, SessionError> {
    let started = Instant::now();
    let ready = prelude::get(cfg, cxx, harness, slot);
    if let Some(ready) = &ready {
        if let Some(built) = build_against(cfg, cxx, harness, source, slot, ready)? {
            log_build(harness, "prelude", true, started, true);
            return Ok(Ok(built));
        }
    }
    let built = build_whole(cfg, cxx, harness, source, slot)?;
    log_build(harness, "whole", ready.is_some(), started, built.is_ok());
    Ok(built)
}

/// One line of the build log (see [`prelude::BUILD_LOG_ENV`]). A whole
/// build that succeeds after the build against the prelude did not
/// (`tried_prelude`) means the prelude is broken, not the student's code:
/// the tests look for it.
fn log_build(harness: &CxxHarness, how: &str, tried_prelude: bool, started: Instant, built: bool) {
    prelude::log(&serde_json::json!({
        "build": harness.student_file,
        "how": how,
        "tried_prelude": tried_prelude,
        "built": built,
        "seconds": started.elapsed().as_secs_f64(),
    }));
}

/// Builds `source` against the prelude `ready`: the wrapper with its
/// prelude replaced by an include of the precompiled header, linked with
/// the adapter's object. `None` when it does not succeed (the whole build
/// then decides: its diagnostics are the ones a student is shown).
fn build_against(
    cfg: &RunnerConfig,
    cxx: &Cxx,
    harness: &CxxHarness,
    source: &[u8],
    slot: usize,
    ready: &super::toolchain::Ready,
) -> Result<Option<Built>, SessionError> {
    let files = [
        SessionFile::text(harness.student_file, source),
        SessionFile::text(WRAPPER_NAME, ready.wrapper.as_bytes()),
    ];
    let Some(object) = ready.object.to_str() else {
        return Ok(None);
    };
    let mut args: Vec<String> = FLAGS.iter().map(|f| (*f).to_owned()).collect();
    args.extend(
        ["-Winvalid-pch", "-o", PROGRAM_NAME, WRAPPER_NAME, object]
            .iter()
            .map(|a| (*a).to_owned()),
    );
    let program = Program {
        executable: Executable::System(&cxx.executable),
        args,
        binds: vec![&ready.dir],
        masks: &[],
        drop_privileges: cfg.drop_compiled,
        limits: cfg.build.limits,
        keeps_output: true,
    };
    // Whatever goes wrong here, the whole build meets it too, or not: it
    // decides, as it did before there was a prelude.
    let Ok(run) = Session::run_to_end(cfg, &files, &program, slot, cfg.build.timeout, PROGRAM_NAME)
    else {
        return Ok(None);
    };
    let diagnostics = run.stderr.excerpt() + &run.stdout.excerpt();
    if diagnostics.contains("[-Winvalid-pch]") {
        prelude::log(&serde_json::json!({ "pch_rejected": first_lines(&diagnostics) }));
    }
    match (run.ended, run.kept) {
        (Some(d), Some(program)) if d.code == Some(0) => {
            let (_, warnings) = diagnostics_of(&diagnostics, harness.student_file);
            Ok(Some(Built { program, warnings }))
        }
        _ => Ok(None),
    }
}

/// Builds `source` with the assignment's wrapper and adapter, both compiled
/// from source, as salgrade always has.
fn build_whole(
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
        masks: &[],
        drop_privileges: cfg.drop_compiled,
        limits: cfg.build.limits,
        keeps_output: true,
    };
    let mut attempt = 1;
    let (run, diagnostics) = loop {
        let run =
            Session::run_to_end(cfg, &files, &program, slot, cfg.build.timeout, PROGRAM_NAME)?;
        let diagnostics = run.stderr.excerpt() + &run.stdout.excerpt();
        if attempt < BUILD_ATTEMPTS && out_of_time(run.ended.as_ref(), &diagnostics) {
            attempt += 1;
            continue;
        }
        break (run, diagnostics);
    };
    let (errors, warnings) = diagnostics_of(&diagnostics, harness.student_file);
    let tries = if attempt > 1 { ", twice" } else { "" };
    let note = match &run.ended {
        None => Some(format!(
            "the build took longer than {} s of wall time{tries} (`--build-timeout-ms`)",
            cfg.build.timeout.as_secs_f64()
        )),
        Some(d) if out_of_time(Some(d), &diagnostics) => Some(format!(
            "the compiler used up its {} s of CPU time{tries}",
            cfg.build.limits.cpu_seconds
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

/// A build is tried this many times when it runs out of time (its CPU
/// budget or the wall-time backstop) before that is believed: a loaded
/// machine slows a compiler down, and a build's result is the whole grade.
const BUILD_ATTEMPTS: u32 = 2;

/// Whether a build ended for want of time: killed at the wall-time
/// backstop (`None`), or a compiler process stopped by its CPU limit
/// (SIGXCPU, or SIGKILL at the hard limit, which the compiler driver
/// reports as a killed or terminated program).
fn out_of_time(ended: Option<&crate::outcome::Death>, diagnostics: &str) -> bool {
    use nix::sys::signal::Signal;
    let Some(death) = ended else {
        return true;
    };
    matches!(
        death.named_signal(),
        Some(Signal::SIGXCPU | Signal::SIGKILL)
    ) || diagnostics.lines().any(|l| {
        l.contains("fatal error: Killed signal terminated program")
            || l.contains("CPU time limit exceeded")
    })
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
        masks: &[],
        drop_privileges: cfg.drop_compiled,
        limits: cfg.limits,
        keeps_output: false,
    }
}

/// The names of salgrade's own files in a build: never shown to a student,
/// who did not write them and cannot open them.
const GLUE_NAMES: [&str; 3] = [WRAPPER_NAME, ADAPTER_NAME, DRIVER_NAME];

/// How an error in salgrade's glue is introduced: it is reported after the
/// student's own, because its cause is nearly always in the student's file
/// (an unclosed `{` there runs on into the glue included after it).
const IN_THE_GLUE: &str = "in salgrade's code that is compiled after your file (the cause is usually in your file: an unclosed `{`, a missing `;`, or a function or class not declared as the handout gives)";

/// `text` with the glue's file names replaced by words.
fn without_glue_names(text: &str) -> String {
    GLUE_NAMES.iter().fold(text.to_owned(), |t, name| {
        t.replace(name, "salgrade's code")
    })
}

/// The first errors, the student's file's first and then the glue's
/// (whose name is never shown), and the student's own warnings, each as
/// `file:line:column: message`, at most [`MAX_DIAGNOSTICS`] each.
fn diagnostics_of(text: &str, student_file: &str) -> (Vec<String>, Vec<String>) {
    let (mut own, mut glue, mut warnings) = (Vec::new(), Vec::new(), Vec::new());
    // A note in the student's file (`to match this '{'`) is where an error
    // the compiler found in the glue starts.
    let mut own_note = None;
    for line in text.lines() {
        let Some((place, rest)) = split_place(line) else {
            if line.contains("undefined reference to") {
                glue.push(format!("link: {}", without_glue_names(line.trim())));
            }
            continue;
        };
        if let Some(msg) = rest
            .strip_prefix("error: ")
            .or_else(|| rest.strip_prefix("fatal error: "))
        {
            if GLUE_NAMES.iter().any(|g| place.starts_with(g)) {
                // The cause is explained once, on the first.
                let lead = if glue.is_empty() {
                    IN_THE_GLUE
                } else {
                    "in salgrade's code"
                };
                glue.push(format!("{lead}: {}", without_glue_names(msg)));
            } else {
                own.push(format!("{place}: {}", without_glue_names(msg)));
            }
        } else if let Some(msg) = rest.strip_prefix("note: ") {
            if place.starts_with(student_file) && own_note.is_none() {
                own_note = Some(format!("{place}: {}", without_glue_names(msg)));
            }
        } else if let Some(msg) = rest.strip_prefix("warning: ") {
            if place.starts_with(student_file) && warnings.len() < MAX_DIAGNOSTICS {
                warnings.push(format!("{place}: {}", without_glue_names(msg)));
            }
        }
    }
    if own.is_empty() && !glue.is_empty() {
        own.extend(own_note);
    }
    let all = own.len() + glue.len();
    let mut errors: Vec<String> = own.into_iter().chain(glue).take(MAX_DIAGNOSTICS).collect();
    if all > errors.len() {
        errors.push(format!("... and {} more error(s)", all - errors.len()));
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
        without_glue_names(&lines.join("\n"))
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
    fn a_build_out_of_time_is_told_apart_from_a_failed_one() {
        let death = |code: Option<i32>, signal: Option<i32>| crate::outcome::Death {
            code,
            signal,
            note: None,
            memory: false,
        };
        assert!(out_of_time(None, ""));
        assert!(out_of_time(Some(&death(None, Some(24))), ""));
        assert!(out_of_time(
            Some(&death(Some(1), None)),
            "g++: fatal error: Killed signal terminated program cc1plus\ncompilation terminated.\n"
        ));
        assert!(!out_of_time(
            Some(&death(Some(1), None)),
            "a.cpp:3:1: error: expected ';'"
        ));
        assert!(!out_of_time(Some(&death(Some(0), None)), ""));
    }

    #[test]
    fn the_students_errors_come_first_and_the_glue_is_never_named() {
        let text = "\
In file included from _salgrade_student.cpp:9:
solution.cpp: In member function 'int Solution::snakesAndLadders(std::vector<std::vector<int> >&)':
_salgrade_student.cpp:14:1: error: expected '}' before 'void'
solution.cpp:7:20: error: expected ';' before 'return'
_salgrade_adapter.cpp:3:2: error: 'salgrade_snakes_and_ladders' was not declared
";
        let (errors, _) = diagnostics_of(text, "solution.cpp");
        assert_eq!(errors[0], "solution.cpp:7:20: expected ';' before 'return'");
        assert!(errors[1].starts_with("in salgrade's code"), "{errors:?}");
        assert_eq!(errors.len(), 3);
        let unclosed = "\
snakes_game.cpp:4:12: note: to match this '{'
_salgrade_student.cpp:30:1: error: expected '}' at end of input
";
        let (errors, _) = diagnostics_of(unclosed, "snakes_game.cpp");
        assert_eq!(errors[0], "snakes_game.cpp:4:12: to match this '{'");
        for e in &errors {
            assert!(!e.contains("_salgrade"), "{e}");
        }
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
