//! The subcommands: each turns its clap arguments into validated settings,
//! runs, and returns an exit code. Harness failures are `anyhow` errors
//! (exit 2); a student's failures are results (exit 1).

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::ValueEnum;
use salgrade_reference::{Board, Reading, a48};

use crate::assignment::{Assignment, GenSettings, a48::A48};
use crate::cli::{
    CaseArgs, CheckArgs, GenArgs, GradeArgs, InitArgs, LintArgs, LintFormat, Question, RefArgs,
    RunArgs, SandboxArgs,
};
use crate::discover::{self, Submission};
use crate::engine::{self, CaseSource, DeadlinePolicy, Engine};
use crate::grading::lint;
use crate::grading::rubric::{DEFAULT_RUBRIC_TOML, Rubric};
use crate::journal::{self, Journal};
use crate::output::{self, AtomicFile};
use crate::report::coverage;
use crate::report::{self, Report, StudentReport, feedback};
use crate::runner::{Limits, RunnerConfig};

pub(crate) const SUCCESS: u8 = 0;
pub(crate) const SOME_FAILED: u8 = 1;

fn assignment() -> &'static dyn Assignment {
    &A48
}

fn case_source(args: &CaseArgs) -> CaseSource {
    match &args.cases_file {
        Some(path) => CaseSource::File(path.clone()),
        None => CaseSource::Seed(GenSettings {
            seed: args.seed,
            random_per_function: args.cases,
            reading: args.reading.into(),
        }),
    }
}

/// The interpreter and sandbox with `limits`, the cgroups that enforce
/// them across processes, and notes (once) on any protection missing here.
fn sandbox_config(args: &SandboxArgs, limits: Limits, quiet: bool) -> anyhow::Result<RunnerConfig> {
    let python = engine::resolve_python(args.python.as_deref())?;
    let (sandbox, note) = engine::choose_sandbox(args.sandbox)?;
    let isolation = engine::isolation(sandbox, &python, &limits);
    if !quiet {
        if let Some(note) = note {
            eprintln!("note: {note}");
        }
        for note in &isolation.notes {
            eprintln!("note: {note}");
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
    })
}

fn runner_config(args: &RunArgs) -> anyhow::Result<RunnerConfig> {
    if args.timeout_multiplier.is_nan() || args.timeout_multiplier < 1.0 {
        bail!(
            "`--timeout-multiplier` must be at least 1, not {}",
            args.timeout_multiplier
        );
    }
    let limits = Limits {
        memory_mb: args.memory_mb,
        cpu_seconds: args.cpu_seconds,
        file_size_mb: args.file_size_mb,
        ..Limits::default()
    };
    Ok(RunnerConfig {
        import_timeout: Duration::from_millis(args.import_timeout_ms),
        output_cap: args.output_cap,
        ..sandbox_config(&args.sandbox, limits, false)?
    })
}

fn policy(args: &RunArgs) -> DeadlinePolicy {
    DeadlinePolicy {
        floor: Duration::from_millis(args.timeout_floor_ms),
        multiplier: args.timeout_multiplier,
    }
}

/// Generation is quick at the default size; a big one says why it is slow.
fn note_long_generation(random_per_function: usize) {
    if random_per_function > 200 {
        eprintln!(
            "generating {random_per_function} random cases per function (boards up to 6,000 squares); this takes a while"
        );
    }
}

fn prepared_engine(cases: &CaseArgs, run: &RunArgs, rubric: Rubric) -> anyhow::Result<Engine> {
    let assignment = assignment();
    if cases.cases_file.is_none() {
        note_long_generation(cases.cases);
    }
    let case_file = engine::load_cases(assignment, &case_source(cases))?;
    crate::bounds::check(&case_file, run.memory_mb).with_context(|| cases_origin(cases))?;
    let mut engine = Engine {
        assignment,
        runner: runner_config(run)?,
        case_file,
        deadlines: Vec::new(),
        rubric,
        shrink_budget: Duration::from_millis(run.shrink_ms),
    };
    engine.calibrate(policy(run))?;
    Ok(engine)
}

fn report_of(engine: &Engine, students: Vec<StudentReport>) -> Report {
    Report {
        salgrade_version: env!("CARGO_PKG_VERSION").to_owned(),
        assignment: engine.assignment.id().to_owned(),
        seed: engine.case_file.seed,
        reading: engine.case_file.reading,
        case_count: engine.case_file.cases.len(),
        functions: engine
            .assignment
            .functions()
            .iter()
            .map(|f| (*f).to_owned())
            .collect(),
        sandbox: engine.runner.protections(),
        rule: engine
            .assignment
            .container_rule()
            .map(|r| r.summary.to_owned()),
        warnings: Vec::new(),
        students,
    }
}

/// An output opened before any work, so a bad path fails at once; a file is
/// replaced only when the run succeeds (see [`crate::output`]).
enum Output {
    Stdout,
    File(AtomicFile),
}

impl Output {
    fn open(path: Option<&Path>) -> anyhow::Result<Output> {
        match path {
            None => Ok(Output::Stdout),
            Some(p) if p.as_os_str() == "-" => Ok(Output::Stdout),
            Some(p) => Ok(Output::File(AtomicFile::create(p)?)),
        }
    }

    fn write(self, bytes: &[u8]) -> anyhow::Result<()> {
        match self {
            Output::Stdout => {
                let mut out = std::io::stdout().lock();
                out.write_all(bytes)?;
                out.flush()?;
            }
            Output::File(f) => f.commit(bytes)?,
        }
        Ok(())
    }
}

pub(crate) fn grade(args: GradeArgs) -> anyhow::Result<u8> {
    let assignment = assignment();
    let rubric = match &args.rubric {
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .with_context(|| format!("cannot read rubric `{}`", p.display()))?;
            Rubric::parse(&text, assignment.functions())
                .with_context(|| format!("rubric `{}`", p.display()))?
        }
        None => Rubric::default_for(assignment.functions()),
    };
    let root = args.submissions.clone();
    let found = discover::discover(&root, assignment.student_file(), assignment.functions())?;
    for w in &found.warnings {
        eprintln!("warning: {w}");
    }
    let subs = found.submissions;
    // Every output is created (as a temporary file beside its target) before
    // any grading, so a bad path fails at once, and replaced only at the end.
    let output = Output::open(args.output.as_deref())?;
    if let Some(dir) = &args.feedback {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create feedback folder `{}`", dir.display()))?;
        drop(AtomicFile::create(&dir.join("feedback.md"))?);
    }
    std::fs::create_dir_all(&args.out_dir)
        .with_context(|| format!("cannot create output folder `{}`", args.out_dir.display()))?;
    let full_report = AtomicFile::create(&args.out_dir.join("report.json"))?;
    let engine = prepared_engine(&args.cases, &args.run, rubric)?;
    let untested = coverage::untested(&engine.case_file, engine.assignment.functions());
    let mut run_warnings = found.warnings;
    if !untested.is_empty() {
        let w = coverage::warning(&untested, &cases_origin(&args.cases));
        eprintln!("warning: {w}");
        run_warnings.push(w);
    }
    let seed = engine
        .case_file
        .seed
        .map(|s| format!(" (seed {s})"))
        .unwrap_or_default();
    eprintln!(
        "grading {} submission(s) on {} cases{seed}, Python {}; {}",
        subs.len(),
        engine.case_file.cases.len(),
        engine.runner.python.version,
        engine.runner.protections()
    );

    let settings = serde_json::json!({
        "cases": &engine.case_file,
        "rubric": &engine.rubric,
        "limits": &engine.runner.limits,
        "deadline_floor_ms": args.run.timeout_floor_ms,
        "multiplier": args.run.timeout_multiplier,
        "version": env!("CARGO_PKG_VERSION"),
    });
    let fp = journal::fingerprint(&[settings.to_string().as_bytes()]);
    if args.resume && !journal::path_in(&args.out_dir).exists() {
        eprintln!(
            "resume: no journal in `{}`, so grading starts fresh",
            args.out_dir.display()
        );
    }
    let (mut journal, journalled) = Journal::open(&args.out_dir, &fp, args.resume)?;
    let _ = crate::runner::INTERRUPT_NOTE.set(format!(
        "; finished students are in `{}` (rerun with `--resume`)",
        journal::path_in(&args.out_dir).display()
    ));
    let hashes: BTreeMap<&str, String> = subs
        .iter()
        .map(|s| (s.student.as_str(), journal::submission_hash(s)))
        .collect();
    let resumed = journal::split(journalled, &hashes);
    if !resumed.kept.is_empty() {
        eprintln!(
            "resuming: {} student(s) already graded in `{}`",
            resumed.kept.len(),
            args.out_dir.display()
        );
    }
    if !resumed.changed.is_empty() {
        eprintln!(
            "resuming: grading {} student(s) again because their submission changed since it was journalled: {}",
            resumed.changed.len(),
            resumed.changed.join(", ")
        );
    }
    let mut done = resumed.kept;
    let todo: Vec<&Submission> = subs
        .iter()
        .filter(|s| !done.contains_key(&s.student))
        .collect();
    let jobs = args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let graded = grade_parallel(&engine, &root, &todo, jobs, |s| {
        journal.append(s, &hashes[s.student.as_str()])
    })?;
    for s in graded {
        done.insert(s.student.clone(), s);
    }
    let students: Vec<StudentReport> = subs
        .iter()
        .filter_map(|s| done.remove(&s.student))
        .collect();
    let mut report = report_of(&engine, students);
    coverage::only_tested(&mut report, &untested);
    let all_full = report.students.iter().all(StudentReport::full_marks);
    report.warnings = run_warnings;
    if let Some(dir) = &args.feedback {
        let seed = feedback::Seed::for_audience(report.seed, args.public_seed);
        for s in &report.students {
            let path = dir.join(format!("{}.md", discover::file_stem(&s.student)));
            output::write(&path, feedback::render(&report, s, seed).as_bytes())?;
        }
    }
    full_report.commit(&report::render(&report, report::Format::Json)?)?;
    output.write(&report::render(&report, args.format)?)?;
    Ok(if all_full { SUCCESS } else { SOME_FAILED })
}

/// Names where the cases came from, for messages.
fn cases_origin(args: &CaseArgs) -> String {
    match &args.cases_file {
        Some(p) => format!("case file `{}`", p.display()),
        None => "the generated case set".to_owned(),
    }
}

/// Grades students on `jobs` worker threads; each finished student goes to
/// `on_done` (the journal) on this thread, in completion order.
fn grade_parallel(
    engine: &Engine,
    root: &Path,
    todo: &[&Submission],
    jobs: usize,
    mut on_done: impl FnMut(&StudentReport) -> anyhow::Result<()>,
) -> anyhow::Result<Vec<StudentReport>> {
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<anyhow::Result<StudentReport>>();
    let progress = Progress::new(todo.len());
    let mut out = Vec::new();
    std::thread::scope(|scope| -> anyhow::Result<()> {
        for slot in 0..jobs.min(todo.len().max(1)) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(sub) = todo.get(i) else { break };
                    // Slot 0 calibrated; students use slots 1.. so uids differ from it.
                    if tx.send(engine.grade(sub, root, slot + 1)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for result in rx {
            let s = result?;
            on_done(&s)?;
            progress.done(&s);
            out.push(s);
        }
        Ok(())
    })?;
    progress.finish();
    Ok(out)
}

/// A progress bar on a terminal, plain lines otherwise (CI logs).
struct Progress {
    bar: Option<indicatif::ProgressBar>,
    total: usize,
    count: AtomicUsize,
}

impl Progress {
    fn new(total: usize) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(total as u64);
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "{bar:30} {pos}/{len} students  {elapsed}  {msg}",
            ) {
                bar.set_style(style);
            }
            bar
        });
        Progress {
            bar,
            total,
            count: AtomicUsize::new(0),
        }
    }

    fn done(&self, s: &StudentReport) {
        let n = self.count.fetch_add(1, Ordering::SeqCst) + 1;
        let line = format!(
            "{}: {}/{}",
            s.student,
            report::points(s.score),
            report::points(s.max_score)
        );
        match &self.bar {
            Some(bar) => {
                bar.set_message(line);
                bar.inc(1);
            }
            None => eprintln!("[{n}/{}] {line}", self.total),
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

pub(crate) fn check(args: CheckArgs) -> anyhow::Result<u8> {
    let assignment = assignment();
    if !args.file.is_file() {
        bail!("`{}` is not a file", args.file.display());
    }
    let engine = prepared_engine(
        &args.cases,
        &args.run,
        Rubric::default_for(assignment.functions()),
    )?;
    let student = args
        .file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let sub = Submission {
        student,
        file: Some(args.file.clone()),
        warnings: vec![],
        problem: None,
    };
    let root = args.file.parent().unwrap_or(Path::new("."));
    let s = engine.grade(&sub, root, 1)?;
    let untested = coverage::untested(&engine.case_file, engine.assignment.functions());
    let mut report = report_of(&engine, vec![s]);
    coverage::only_tested(&mut report, &untested);
    let s = &report.students[0];
    let full = s.full_marks();
    let all_pass = s.cases.iter().all(|c| c.verdict.passed());
    let clean = s.violations.is_empty();
    let seed = feedback::Seed::for_audience(report.seed, args.public_seed);
    let mut text = feedback::render(&report, s, seed);
    if !untested.is_empty() {
        text.push_str(&format!(
            "\n{}\n",
            coverage::warning(&untested, &cases_origin(&args.cases))
        ));
    }
    text.push_str(match (all_pass, clean) {
        (true, true) => "\nAll cases pass.\n",
        (true, false) => "\nAll cases pass, but the code breaks the handout's rule (see above).\n",
        (false, _) => {
            "\nSome cases fail: the smallest failing case of each function is shown above.\n"
        }
    });
    Output::Stdout.write(text.as_bytes())?;
    Ok(if full { SUCCESS } else { SOME_FAILED })
}

pub(crate) fn lint(args: LintArgs) -> anyhow::Result<u8> {
    let assignment = assignment();
    let source = std::fs::read(&args.file)
        .with_context(|| format!("cannot read `{}`", args.file.display()))?;
    let runner = sandbox_config(&args.sandbox, Limits::default(), true)?;
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

pub(crate) fn generate(args: GenArgs) -> anyhow::Result<u8> {
    let output = Output::open(args.output.as_deref())?;
    note_long_generation(args.cases);
    let file = assignment().generate(GenSettings {
        seed: args.seed,
        random_per_function: args.cases,
        reading: args.reading.into(),
    });
    let mut bytes = serde_json::to_vec_pretty(&file)?;
    bytes.push(b'\n');
    output.write(&bytes)?;
    Ok(SUCCESS)
}

fn load_board(args: &RefArgs) -> anyhow::Result<Board> {
    match (&args.board, &args.board_json) {
        (Some(path), _) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read board file `{}`", path.display()))?;
            serde_json::from_str(&text).with_context(|| format!("board file `{}`", path.display()))
        }
        (None, Some(json)) => serde_json::from_str(json).context("`--board-json`"),
        (None, None) => bail!("give a board with `--board FILE` or `--board-json JSON`"),
    }
}

pub(crate) fn reference(args: RefArgs) -> anyhow::Result<u8> {
    let board = load_board(&args)?;
    let want = match args.question {
        Question::Dualboard => 0,
        Question::Whowins => 2,
        _ => 1,
    };
    if args.steps.len() != want {
        let name = args
            .question
            .to_possible_value()
            .map(|v| v.get_name().to_owned())
            .unwrap_or_default();
        let sizes = if want == 1 { "step size" } else { "step sizes" };
        bail!("`{name}` takes {want} {sizes}, {} given", args.steps.len());
    }
    if args.steps.contains(&0) {
        bail!("step sizes are positive integers");
    }
    let reading: Reading = args.reading.into();
    let text = match args.question {
        Question::Willfinish => (if a48::willfinish(&board, args.steps[0]) {
            "True"
        } else {
            "False"
        })
        .to_owned(),
        Question::FinishTime => match a48::finish_time(&board, args.steps[0]) {
            Some(t) => format!("{t}"),
            None => "never".to_owned(),
        },
        Question::Whowins => {
            let answers: Vec<String> =
                a48::accepted_winners(&board, args.steps[0], args.steps[1], reading)
                    .into_iter()
                    .map(|p| u8::from(p).to_string())
                    .collect();
            answers.join(" or ")
        }
        Question::Dualboard => serde_json::to_string(&a48::dualboard(&board))?,
        Question::Walk => {
            let (moves, end) = a48::walk(&board, args.steps[0], u64::from(board.squares()) + 1);
            let mut s = String::new();
            for m in &moves {
                s.push_str(&format!("move {}: {} -> {}", m.number, m.from, m.landed));
                if m.wrapped {
                    s.push_str(" (wrapped)");
                }
                if m.to != m.landed {
                    s.push_str(&format!(" -> snadder to {}", m.to));
                }
                s.push('\n');
            }
            s.push_str(&match end {
                a48::WalkEnd::Finished { at_move } => format!("finished on move {at_move}"),
                a48::WalkEnd::Loops { at_move, first_seen, square } => {
                    format!("move {at_move} returns to square {square}, first reached on move {first_seen}: the player loops forever")
                }
                a48::WalkEnd::Truncated => "stopped".to_owned(),
            });
            s
        }
    };
    println!("{text}");
    Ok(SUCCESS)
}

pub(crate) fn init(args: InitArgs) -> anyhow::Result<u8> {
    if args.rubric.as_os_str() == "-" {
        print!("{DEFAULT_RUBRIC_TOML}");
        return Ok(SUCCESS);
    }
    if args.rubric.exists() && !args.force {
        bail!(
            "`{}` already exists; pass `--force` to overwrite it",
            args.rubric.display()
        );
    }
    output::write(&args.rubric, DEFAULT_RUBRIC_TOML.as_bytes())?;
    eprintln!("wrote the default rubric to `{}`", args.rubric.display());
    Ok(SUCCESS)
}
