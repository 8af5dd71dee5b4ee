//! The runner and the engine a command grades with: the interpreter,
//! sandbox and limits from the arguments, the deadline policy, and the
//! warnings about secrets the sandbox leaves readable.

use std::time::Duration;

use anyhow::bail;
use salgrade_reference::CaseFile;

use crate::assignment::Assignment;
use crate::cli::{CaseArgs, RunArgs, SandboxArgs};
use crate::engine::{self, DeadlinePolicy, Engine};
use crate::grading::rubric::Rubric;
use crate::runner::{Harness, Language, Limits, RunnerConfig, StudentBudget, bytecode, cxx, setup};

/// A set-up thread's result; a panic there becomes an error.
fn joined<T>(r: std::thread::Result<anyhow::Result<T>>) -> anyhow::Result<T> {
    r.unwrap_or_else(|_| Err(anyhow::anyhow!("setting up the runner panicked")))
}

/// The interpreter and sandbox with `limits`, the cgroups that enforce
/// them across processes, and notes (once) on any protection missing here.
pub(super) fn sandbox_config(
    args: &SandboxArgs,
    limits: Limits,
    languages: &[Language],
    quiet: bool,
) -> anyhow::Result<RunnerConfig> {
    sandbox_config_compiling(args, limits, languages, quiet, &[])
}

/// [`sandbox_config`], compiling `python_files` to bytecode (see
/// `runner/bytecode.rs`) as soon as the interpreter is known, beside the
/// rest of the set-up and of the run (students' sessions wait for it).
fn sandbox_config_compiling(
    args: &SandboxArgs,
    limits: Limits,
    languages: &[Language],
    quiet: bool,
    python_files: &[bytecode::Source],
) -> anyhow::Result<RunnerConfig> {
    // Each of these starts a program (a pyenv shim alone can take 0.1 s):
    // at once, not one after the other.
    let (python, cxx, chosen) = std::thread::scope(|scope| {
        let python = scope.spawn(|| {
            let python = setup::resolve_python(args.python.as_deref())?;
            if !python_files.is_empty() {
                bytecode::start(&python, python_files);
            }
            Ok(python)
        });
        let cxx = languages
            .contains(&Language::Cpp)
            .then(|| scope.spawn(|| cxx::resolve(args.cxx.as_deref())));
        let chosen = setup::choose_sandbox(args.sandbox);
        (joined(python.join()), cxx.map(|c| joined(c.join())), chosen)
    });
    let python = python?;
    let cxx = cxx.transpose()?;
    let (sandbox, note) = chosen?;
    let isolation = setup::isolation(sandbox, &python, &limits)?;
    // A note about the interpreter concerns Python submissions only.
    let python_used = languages.contains(&Language::Python);
    if !quiet {
        if let Some(note) = note {
            eprintln!("note: {note}");
        }
        for note in &isolation.notes {
            if python_used || !note.contains("interpreter") {
                eprintln!("note: {note}");
            }
        }
    }
    Ok(RunnerConfig {
        python,
        sandbox,
        limits,
        import_timeout: Duration::from_secs(5),
        output_cap: 64 * 1024,
        cgroups: isolation.cgroups,
        drop_privileges: isolation.drop_privileges,
        drop_compiled: isolation.drop_compiled,
        uids: isolation.uids,
        cxx,
        build: cxx::BuildSettings::default(),
        budget: StudentBudget::DEFAULT,
        spare: true,
        bytecode: bytecode::Use::Waiting,
    })
}

/// The runner for `args`, with the languages to grade and the harness
/// Python is graded with (its files are compiled during the set-up).
fn runner_config(
    args: &RunArgs,
    languages: &[Language],
    python_harness: Option<Harness>,
) -> anyhow::Result<RunnerConfig> {
    let bytecode = match args.python_bytecode {
        crate::cli::PythonBytecode::On => bytecode::Use::Waiting,
        crate::cli::PythonBytecode::Off => bytecode::Use::Off,
    };
    let python_files = match python_harness {
        Some(Harness::Python {
            support, adapter, ..
        }) if bytecode != bytecode::Use::Off => crate::runner::python_files(&support, adapter),
        _ => Vec::new(),
    };
    let limits = Limits {
        memory_mb: args.memory_mb,
        cpu_seconds: args.cpu_seconds,
        file_size_mb: args.file_size_mb,
        ..Limits::default()
    };
    Ok(RunnerConfig {
        import_timeout: Duration::from_millis(args.import_timeout_ms),
        output_cap: args.output_cap,
        build: cxx::BuildSettings {
            timeout: Duration::from_millis(args.build_timeout_ms),
            prelude: args.cxx_prelude,
            ..cxx::BuildSettings::default()
        },
        budget: StudentBudget {
            cpu: Duration::from_secs(args.student_cpu_s),
            wall: Duration::from_secs(args.student_wall_s),
        },
        spare: args.spare == crate::cli::Spare::Auto,
        bytecode,
        ..sandbox_config_compiling(&args.sandbox, limits, languages, false, &python_files)?
    })
}

/// How deadlines follow from the naive solution's measures.
pub(super) fn policy(args: &RunArgs) -> DeadlinePolicy {
    DeadlinePolicy {
        floor: Duration::from_millis(args.timeout_floor_ms),
        multiplier: args.timeout_multiplier,
        wall_floor: Duration::from_millis(args.wall_floor_ms),
        cached: args.calibration == crate::cli::Calibration::Cached,
    }
}

/// The engine, calibrated, once every language graded is one the
/// assignment takes.
pub(super) fn prepared_engine(
    assignment: &'static dyn Assignment,
    case_file: CaseFile,
    run: &RunArgs,
    rubric: Rubric,
    languages: &[Language],
) -> anyhow::Result<Engine> {
    for &language in languages {
        if !assignment.languages().contains(&language) {
            let takers: Vec<String> = crate::assignment::ALL
                .iter()
                .filter(|a| a.languages().contains(&language))
                .map(|a| format!("`--assignment {}`", a.id()))
                .collect();
            bail!(
                "assignment `{}` takes {} submissions, not {}; the assignments that take {} are {} (pass one, or name the file as the handout does)",
                assignment.id(),
                assignment
                    .languages()
                    .iter()
                    .map(|l| l.name())
                    .collect::<Vec<_>>()
                    .join(" or "),
                language.name(),
                language.name(),
                takers.join(", ")
            );
        }
    }
    let python_harness = languages
        .contains(&Language::Python)
        .then(|| assignment.harness(Language::Python))
        .flatten();
    Engine::new(
        assignment,
        runner_config(run, languages, python_harness)?,
        case_file,
        rubric,
        policy(run),
        Duration::from_millis(run.shrink_ms),
        languages,
    )
}

/// The languages of the files to grade, each once, Python first.
pub(super) fn languages_of(files: impl IntoIterator<Item = std::path::PathBuf>) -> Vec<Language> {
    let mut found: Vec<Language> = files
        .into_iter()
        .filter_map(|f| engine::language_of(&f))
        .collect();
    found.sort();
    found.dedup();
    if found.is_empty() {
        found.push(Language::Python);
    }
    found
}

/// Loud warnings for each secret input (seed file, case file, a secret
/// `--seed`) student code could read in this run's sandbox.
pub(super) fn secret_warnings(args: &CaseArgs, engine: &Engine) -> Vec<String> {
    let mut files = Vec::new();
    if let Some(p) = &args.seed_file {
        files.push(("seed file", p.as_path()));
    }
    if let Some(p) = &args.cases_file {
        files.push(("case file", p.as_path()));
    }
    let cmdline_seed = args.seed_file.is_none()
        && args.cases_file.is_none()
        && args.seed != salgrade_reference::case::PUBLIC_SEED;
    let student = if engine.runner.drop_privileges {
        crate::secrets::StudentUser::Other
    } else {
        crate::secrets::StudentUser::Same
    };
    crate::secrets::warnings(&files, cmdline_seed, engine.runner.sandbox, student)
}

#[cfg(test)]
mod tests {
    use clap::Parser;
    use proptest::prelude::*;

    use super::*;
    use crate::cli::{Cli, Command};

    /// Every numeric flag `grade` and `check` take.
    const NUMERIC_FLAGS: &[&str] = &[
        "--seed",
        "--cases",
        "--timeout-floor-ms",
        "--wall-floor-ms",
        "--timeout-multiplier",
        "--build-timeout-ms",
        "--import-timeout-ms",
        "--memory-mb",
        "--cpu-seconds",
        "--file-size-mb",
        "--shrink-ms",
        "--output-cap",
        "--jobs",
    ];

    /// Values a user might type, the edges of every numeric type among them.
    fn value() -> impl Strategy<Value = String> {
        prop_oneof![
            any::<u64>().prop_map(|v| v.to_string()),
            any::<i64>().prop_map(|v| v.to_string()),
            any::<f64>().prop_map(|v| v.to_string()),
            (0u32..30).prop_map(|e| format!("1e{}", e * 11)),
            prop::sample::select(vec![
                "inf",
                "-inf",
                "NaN",
                "1e300",
                "-0",
                "0",
                "0.5",
                "",
                " 7",
                "1_000",
                "0x10",
                "18446744073709551616",
            ])
            .prop_map(str::to_owned),
        ]
    }

    /// What the run does with its numbers before the first student:
    /// deadlines (at the largest model time calibration allows), the
    /// shrinking budget's end, and the other durations.
    fn settings_used(run: &RunArgs) {
        let slowest = engine::Measured {
            cpu: engine::CALIBRATION_DEADLINE,
            wall: engine::CALIBRATION_DEADLINE,
        };
        let d = policy(run).deadline(slowest, slowest);
        let now = std::time::Instant::now();
        let _ = now + d.cpu + d.wall + Duration::from_millis(run.shrink_ms);
        let _ = now + Duration::from_millis(run.build_timeout_ms);
        let _ = now + Duration::from_millis(run.import_timeout_ms);
    }

    proptest! {
        #[test]
        fn no_numeric_flag_value_panics(flag in prop::sample::select(NUMERIC_FLAGS), v in value()) {
            for command in ["grade", "check"] {
                let argv = ["salgrade", command, "x", flag, v.as_str()];
                let Ok(cli) = Cli::try_parse_from(argv) else { continue };
                match cli.command {
                    Command::Grade(g) => settings_used(&g.run),
                    Command::Check(c) => settings_used(&c.run),
                    _ => unreachable!("parsed as {command}"),
                }
            }
        }
    }

    #[test]
    fn a_non_finite_or_huge_multiplier_is_refused_by_the_parser() {
        for v in ["inf", "NaN", "1e300", "0.5", "1001"] {
            let argv = ["salgrade", "check", "x", "--timeout-multiplier", v];
            assert!(Cli::try_parse_from(argv).is_err(), "{v} accepted");
        }
        let argv = ["salgrade", "check", "x", "--timeout-multiplier", "1000"];
        assert!(Cli::try_parse_from(argv).is_ok());
    }
}
