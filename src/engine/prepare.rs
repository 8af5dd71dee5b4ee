//! Preparing a run: the deadline policy, and [`Engine::new`], which
//! calibrates every language graded on its model and naive solutions before
//! any student is graded.

use std::collections::BTreeMap;
use std::time::Duration;

use anyhow::{Context, bail};
use salgrade_reference::Case;

use super::cache::Measured;
use super::{Calibrated, Engine};
use crate::assignment::Assignment;
use crate::grading::{self, rubric::Rubric};
use crate::outcome::RawOutcome;
use crate::runner::{self, Deadline, Harness, Language, RunnerConfig};
use crate::verdict::VerdictKind;
use salgrade_reference::CaseFile;

/// How per-case deadlines are chosen.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DeadlinePolicy {
    /// The least CPU time a case gets.
    pub floor: Duration,
    pub multiplier: f64,
    /// The least wall time a case gets (the backstop).
    pub wall_floor: Duration,
    /// Whether calibrations are kept between runs and used again (see
    /// `cache`); otherwise every run calibrates afresh.
    pub cached: bool,
}

/// The wall-time backstop is at least this many times the CPU deadline, so
/// a correct solution sharing the processor with others (a loaded machine)
/// is still judged by its CPU time.
const WALL_PER_CPU: u32 = 10;

/// A case's CPU deadline is at least this many times the naive solution's
/// CPU time on it. A loaded 2-vCPU machine (two CPU-bound processes and one
/// streaming memory beside the student) inflates a process's CPU time by
/// up to about 2x (shared hyperthreads and memory bandwidth), so 10 leaves
/// the slowest acceptable solution at least a 5x margin under such load.
pub(crate) const NAIVE_MULTIPLIER: u32 = 10;

impl DeadlinePolicy {
    /// The deadline of a case on which the model and the naive solution
    /// used what they did.
    pub(crate) fn deadline(&self, model: Measured, naive: Measured) -> Deadline {
        let cpu = self
            .floor
            .max(model.cpu.mul_f64(self.multiplier))
            .max(naive.cpu * NAIVE_MULTIPLIER);
        Deadline {
            cpu,
            wall: self
                .wall_floor
                .max(cpu * WALL_PER_CPU)
                .max(model.wall.mul_f64(self.multiplier))
                .max(naive.wall * NAIVE_MULTIPLIER),
        }
    }
}

/// The generous deadline the model solution itself runs under.
pub(crate) const CALIBRATION_DEADLINE: Duration = Duration::from_secs(60);

impl Engine {
    /// Prepares a run: runs the model solution on every case in the same
    /// sandbox, which proves the harness and sets each case's deadline.
    /// Each of `languages` is calibrated on its own model solution.
    pub(crate) fn new(
        assignment: &'static dyn Assignment,
        runner: RunnerConfig,
        case_file: CaseFile,
        rubric: Rubric,
        policy: DeadlinePolicy,
        shrink_budget: Duration,
        languages: &[Language],
    ) -> anyhow::Result<Engine> {
        let mut calibrated = BTreeMap::new();
        let order = case_file.asking_order();
        for &language in languages {
            let (Some(harness), Some(model), Some(naive)) = (
                assignment.harness(language),
                assignment.model_solution(language),
                assignment.naive_solution(language),
            ) else {
                bail!(
                    "assignment `{}` takes no {} submissions",
                    assignment.id(),
                    language.name()
                );
            };
            let solutions = Solutions { model, naive };
            let asked = Asked {
                cases: &case_file.cases,
                order: &order,
                file: &case_file,
                language,
            };
            let (model, naive) = measured(assignment, &harness, solutions, &runner, asked, policy)
                .with_context(|| format!("{} calibration", language.name()))?;
            let deadlines = model
                .into_iter()
                .zip(naive)
                .map(|(m, n)| policy.deadline(m, n))
                .collect();
            calibrated.insert(language, Calibrated { harness, deadlines });
        }
        // No student's code runs beside the compile of salgrade's Python
        // files: a Python student's session waits for it anyway, a C++
        // student's would not (a kept calibration may run nothing).
        runner::bytecode::settled();
        Ok(Engine {
            assignment,
            runner,
            case_file,
            rubric,
            shrink_budget,
            languages: calibrated,
            order,
        })
    }
}

/// The most cases a kept calibration is checked on.
const PROBE_CASES: usize = 3;
/// A kept calibration is scaled up only when the machine is found slower
/// than this (a calibration's own times vary by about a tenth from run
/// to run, which must not make deadlines drift).
const SLOWER: f64 = 1.2;

/// What the model and the naive solution use on each case: measured now,
/// or kept from an earlier run with the same key (see `cache`), where
/// the policy allows. A kept calibration is checked first: the naive
/// solution runs again on up to [`PROBE_CASES`] of the cases whose
/// deadline it decides (those above the floor, the cheapest first), and
/// where it is now more than [`SLOWER`] times as slow, every kept time is
/// scaled up by the most it is; a run whose cases all sit at the floor
/// needs no check. A fresh calibration is kept for the next run.
fn measured(
    assignment: &dyn Assignment,
    harness: &Harness,
    solutions: Solutions,
    runner: &RunnerConfig,
    asked: Asked<'_>,
    policy: DeadlinePolicy,
) -> anyhow::Result<(Vec<Measured>, Vec<Measured>)> {
    let key = super::cache::Key::of(assignment, asked.file, asked.language, runner);
    let folder = policy
        .cached
        .then(crate::runner::toolchain::cache_dir)
        .flatten()
        .map(|d| d.join("calibration"));
    let kept = folder
        .as_deref()
        .and_then(|dir| super::cache::load(dir, &key, asked.cases.len()));
    let Some((mut model, mut naive)) = kept else {
        let fresh = calibrate(assignment, harness, solutions, runner, asked)?;
        if let Some(dir) = &folder {
            super::cache::store(dir, &key, &fresh.0, &fresh.1);
        }
        return Ok(fresh);
    };
    let floor = policy.floor / NAIVE_MULTIPLIER;
    let mut deciding: Vec<usize> = (0..naive.len()).filter(|&i| naive[i].cpu > floor).collect();
    deciding.sort_by_key(|&i| naive[i].cpu);
    deciding.truncate(PROBE_CASES);
    if deciding.is_empty() {
        return Ok((model, naive));
    }
    let sample: Vec<Case> = deciding.iter().map(|&i| asked.cases[i].clone()).collect();
    let order: Vec<usize> = (0..sample.len()).collect();
    let probe = Asked {
        cases: &sample,
        order: &order,
        ..asked
    };
    let now = measure(assignment, harness, solutions.naive, runner, probe, 1)
        .context("the naive solution (checking the kept calibration)")?;
    let scale = deciding
        .iter()
        .zip(&now)
        .map(|(&i, m)| m.cpu.as_secs_f64() / naive[i].cpu.as_secs_f64().max(1e-6))
        .fold(1.0_f64, f64::max);
    if scale > SLOWER {
        for m in model.iter_mut().chain(naive.iter_mut()) {
            m.cpu = m.cpu.mul_f64(scale);
            m.wall = m.wall.mul_f64(scale);
        }
    }
    Ok((model, naive))
}

/// The two solutions calibration runs, in one language.
#[derive(Clone, Copy)]
struct Solutions {
    model: &'static str,
    naive: &'static str,
}

/// Runs the model and the naive solution on every case (side by side, in
/// slots 0 and 1, before any student uses them, in the order students are
/// asked) and returns what each used on each case.
fn calibrate(
    assignment: &dyn Assignment,
    harness: &Harness,
    solutions: Solutions,
    runner: &RunnerConfig,
    cases: Asked<'_>,
) -> anyhow::Result<(Vec<Measured>, Vec<Measured>)> {
    let (model, naive) = std::thread::scope(|scope| {
        let naive = scope.spawn(|| {
            measure(assignment, harness, solutions.naive, runner, cases, 1)
                .context("the naive solution")
        });
        let model = measure(assignment, harness, solutions.model, runner, cases, 0)
            .context("the model solution");
        let naive = naive
            .join()
            .unwrap_or_else(|_| Err(anyhow::anyhow!("the naive solution's run panicked")));
        (model, naive)
    });
    Ok((model?, naive?))
}

/// Cases, and the order they are asked in; and the case file and the
/// language they are calibrated for (what a kept calibration is keyed by).
#[derive(Clone, Copy)]
struct Asked<'a> {
    cases: &'a [Case],
    order: &'a [usize],
    file: &'a CaseFile,
    language: Language,
}

/// Runs a solution that must pass every case; returns what it used on each.
fn measure(
    assignment: &dyn Assignment,
    harness: &Harness,
    solution: &str,
    runner: &RunnerConfig,
    Asked { cases, order, .. }: Asked<'_>,
    slot: usize,
) -> anyhow::Result<Vec<Measured>> {
    let generous = vec![
        Deadline {
            cpu: CALIBRATION_DEADLINE,
            wall: CALIBRATION_DEADLINE,
        };
        cases.len()
    ];
    let run = runner::run_solution(
        runner,
        harness,
        solution.as_bytes(),
        cases,
        &generous,
        order,
        slot,
    )
    .context("cannot run it")?;
    let results = grading::judge_all(assignment, cases, &run.outcomes);
    if let Some((case, r)) = cases
        .iter()
        .zip(&results)
        .find(|(_, r)| !r.verdict.passed())
    {
        if r.verdict.kind == VerdictKind::BuildFailed {
            bail!("{}", unbuildable(runner, r.verdict.detail.as_deref()));
        }
        let stderr = run.stderr.excerpt();
        let cause =
            crate::bounds::limit_to_raise(&r.verdict, &stderr, runner).unwrap_or_else(|| {
                "either the case file is wrong or this is a salgrade bug".to_owned()
            });
        bail!(
            "it fails case `{}` ({}): {}{}{}. {}",
            case.id,
            r.verdict.kind.as_str(),
            crate::bounds::last_line(r.verdict.detail.as_deref().unwrap_or_default(), 200),
            r.verdict
                .got
                .as_ref()
                .map(|g| format!(", got {g}"))
                .unwrap_or_default(),
            Some(crate::bounds::last_line(&stderr, 200))
                .filter(|e| !e.is_empty())
                .map(|e| format!("; its stderr ends: {e}"))
                .unwrap_or_default(),
            crate::words::capitalise(&cause)
        );
    }
    Ok(run
        .outcomes
        .iter()
        .map(|o| match o {
            RawOutcome::Answered {
                wall_ms,
                process_cpu_us,
                ..
            } => {
                let wall = Duration::from_millis(*wall_ms);
                // Without a CPU clock, the wall time stands in for it.
                let cpu = process_cpu_us.map_or(wall, Duration::from_micros);
                Measured { cpu, wall }
            }
            _ => Measured::default(),
        })
        .collect())
}

/// Why salgrade's own solution could not be built, in words: the compiler
/// or the build's settings, never the cases (the model solution builds with
/// a working C++20 compiler), with the first thing the build said and the
/// flags that change it.
fn unbuildable(runner: &RunnerConfig, detail: Option<&str>) -> String {
    let first = detail
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(|l| crate::bounds::last_line(l, 300))
        .unwrap_or_else(|| "it said nothing".to_owned());
    let compiler = runner
        .cxx
        .as_ref()
        .map(|c| format!("`{}`", c.executable.display()))
        .unwrap_or_else(|| "the compiler".to_owned());
    let timed_out = first.contains("--build-timeout-ms") || first.contains("CPU time");
    let what_to_do = if timed_out {
        format!(
            "raise `--build-timeout-ms` (now {} ms) on a slow or busy machine",
            runner.build.timeout.as_millis()
        )
    } else {
        "pass `--cxx` a C++ compiler (`g++` or `clang++`; `gcc` compiles C and does not link the C++ library)".to_owned()
    };
    format!(
        "it cannot be built with {compiler}: {first}. salgrade's model solution builds with any C++20 compiler, so the toolchain or the build settings are at fault, not the cases or a student: {what_to_do}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const POLICY: DeadlinePolicy = DeadlinePolicy {
        floor: Duration::from_millis(50),
        multiplier: 25.0,
        wall_floor: Duration::from_secs(1),
        cached: false,
    };

    fn ms(cpu: u64, wall: u64) -> Measured {
        Measured {
            cpu: Duration::from_millis(cpu),
            wall: Duration::from_millis(wall),
        }
    }

    #[test]
    fn the_naive_solution_sets_the_deadline_where_it_is_slow() {
        // The dualboard: the model needs 4 ms, the naive one 114 ms.
        let d = POLICY.deadline(ms(4, 5), ms(114, 120));
        assert_eq!(d.cpu, Duration::from_millis(1140));
        assert_eq!(d.wall, Duration::from_millis(11_400));
    }

    #[test]
    fn small_cases_stay_at_the_floor() {
        let d = POLICY.deadline(ms(0, 1), ms(2, 3));
        assert_eq!(d.cpu, Duration::from_millis(50));
        assert_eq!(d.wall, Duration::from_secs(1));
    }

    #[test]
    fn the_model_still_counts_where_it_is_the_slower() {
        let d = POLICY.deadline(ms(10, 10), ms(5, 5));
        assert_eq!(d.cpu, Duration::from_millis(250));
    }
}
