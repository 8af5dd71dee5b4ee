//! The subcommands: each turns its clap arguments into validated settings,
//! runs, and returns an exit code. Harness failures are `anyhow` errors
//! (exit 2); a student's failures are results (exit 1).

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use anyhow::{Context, anyhow, bail};
use salgrade_reference::{CaseFile, Options};

use crate::assignment::{self, Assignment};
use crate::cli::{
    AssignmentArg, CaseArgs, CheckArgs, ClustersArgs, GenArgs, GradeArgs, InitArgs, LintArgs,
    LintFormat, MergeArgs, RefArgs, RunArgs, SandboxArgs,
};
use crate::discover::{self, Submission};
use crate::engine::{self, DeadlinePolicy, Engine};
use crate::grading::lint;
use crate::grading::rubric::{self, Rubric};
use crate::infer;
use crate::journal::{self, Journal};
use crate::output::{self, AtomicFile};
use crate::report::coverage;
use crate::report::{self, Report, Settings, StudentReport, feedback};
use crate::runner::{Language, Limits, RunnerConfig, cxx, setup};

pub(crate) const SUCCESS: u8 = 0;
pub(crate) const SOME_FAILED: u8 = 1;

/// The assignment named on the command line, or the default.
fn named(arg: &AssignmentArg) -> anyhow::Result<&'static dyn Assignment> {
    Ok(assignment::by_id(
        arg.assignment.as_deref().unwrap_or(assignment::DEFAULT),
    )?)
}

/// `KEY=VALUE` options, validated by the assignment, defaults filled in.
fn options(assignment: &dyn Assignment, given: &[String]) -> anyhow::Result<Options> {
    let mut raw = Options::new();
    for item in given {
        let Some((key, value)) = item.split_once('=') else {
            bail!("`--option {item}` is not `KEY=VALUE`");
        };
        raw.insert(key.trim().to_owned(), serde_json::json!(value.trim()));
    }
    assignment
        .options(&raw)
        .map_err(|e| anyhow!("`--option` for assignment `{}`: {e}", assignment.id()))
}

/// What the files to be graded say about their assignment (see
/// [`crate::infer`]), and the folder their names are shown relative to.
struct Evidence<'a> {
    pointers: infer::Pointers,
    root: &'a Path,
}

impl Evidence<'_> {
    fn of_file(file: &Path) -> Evidence<'_> {
        Evidence {
            pointers: infer::of_file(file),
            root: file.parent().unwrap_or(Path::new("")),
        }
    }

    fn of_folder(root: &Path) -> Evidence<'_> {
        Evidence {
            pointers: infer::of_folder(root),
            root,
        }
    }

    fn describe(&self) -> String {
        self.pointers.describe(self.root)
    }
}

/// The assignment to grade when no case file names one: `--assignment`,
/// else the one the files point to (said in one line), else the default.
/// Files pointing to different assignments are refused: grading them all as
/// one would score the others zero.
fn chosen_assignment(
    arg: &AssignmentArg,
    evidence: &Evidence<'_>,
) -> anyhow::Result<&'static dyn Assignment> {
    if let Some(name) = &arg.assignment {
        let assignment = assignment::by_id(name)?;
        if !evidence.pointers.by_assignment.is_empty() && !evidence.pointers.includes(name) {
            eprintln!(
                "warning: grading as `{name}` (`--assignment`), but the files point to {}",
                evidence.describe()
            );
        }
        return Ok(assignment);
    }
    if let Some((assignment, clue, file)) = evidence.pointers.single() {
        let file = file.strip_prefix(evidence.root).unwrap_or(file).display();
        let how = match clue {
            infer::Clue::Name => format!("the file name `{file}`"),
            infer::Clue::Definitions => format!("the functions `{file}` defines"),
        };
        eprintln!(
            "note: assignment `{}`, inferred from {how} (pass `--assignment` to choose)",
            assignment.id()
        );
        return Ok(assignment);
    }
    if evidence.pointers.by_assignment.is_empty() {
        return Ok(assignment::by_id(assignment::DEFAULT)?);
    }
    bail!(
        "the files point to different assignments: {}; pass `--assignment NAME` to grade one of them (`salgrade assignments` lists them)",
        evidence.describe()
    )
}

/// The assignment and its cases: a case file names its own assignment, and
/// an `--assignment` that contradicts it is an error, as are files that
/// point only to other assignments (they would fail at import, and the
/// student would be blamed); otherwise the chosen assignment generates them.
fn cases(
    args: &CaseArgs,
    evidence: &Evidence<'_>,
) -> anyhow::Result<(&'static dyn Assignment, CaseFile)> {
    let Some(path) = &args.cases_file else {
        let assignment = chosen_assignment(&args.assignment, evidence)?;
        let options = options(assignment, &args.options)?;
        note_long_generation(args.cases);
        let seed = match &args.seed_file {
            Some(path) => crate::secrets::read_seed(path)?,
            None => args.seed,
        };
        return Ok((assignment, assignment.generate(seed, args.cases, &options)));
    };
    let file = engine::read_case_file(path)?;
    let assignment = assignment::by_id(&file.assignment)
        .with_context(|| format!("case file `{}`", path.display()))?;
    if let Some(asked) = args
        .assignment
        .assignment
        .as_deref()
        .filter(|a| *a != file.assignment)
    {
        bail!(
            "`--assignment {asked}` contradicts case file `{}`, which is for `{}`; drop `--assignment`, or use a case file for `{asked}` (`salgrade gen --assignment {asked}`)",
            path.display(),
            file.assignment
        );
    }
    if args.assignment.assignment.is_none()
        && !evidence.pointers.by_assignment.is_empty()
        && !evidence.pointers.includes(&file.assignment)
    {
        bail!(
            "case file `{}` is for `{}`, but the files to grade point to {}; use a case file for their assignment, or pass `--assignment {}` if they really are `{}` submissions",
            path.display(),
            file.assignment,
            evidence.describe(),
            file.assignment,
            file.assignment
        );
    }
    Ok((assignment, engine::check_case_file(assignment, file, path)?))
}

/// A set-up thread's result; a panic there becomes an error.
fn joined<T>(r: std::thread::Result<anyhow::Result<T>>) -> anyhow::Result<T> {
    r.unwrap_or_else(|_| Err(anyhow::anyhow!("setting up the runner panicked")))
}

/// The interpreter and sandbox with `limits`, the cgroups that enforce
/// them across processes, and notes (once) on any protection missing here.
fn sandbox_config(
    args: &SandboxArgs,
    limits: Limits,
    languages: &[Language],
    quiet: bool,
) -> anyhow::Result<RunnerConfig> {
    // Each of these starts a program (a pyenv shim alone can take 0.1 s):
    // at once, not one after the other.
    let (python, cxx, chosen) = std::thread::scope(|scope| {
        let python = scope.spawn(|| setup::resolve_python(args.python.as_deref()));
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
    })
}

fn runner_config(args: &RunArgs, languages: &[Language]) -> anyhow::Result<RunnerConfig> {
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
            ..cxx::BuildSettings::default()
        },
        ..sandbox_config(&args.sandbox, limits, languages, false)?
    })
}

fn policy(args: &RunArgs) -> DeadlinePolicy {
    DeadlinePolicy {
        floor: Duration::from_millis(args.timeout_floor_ms),
        multiplier: args.timeout_multiplier,
        wall_floor: Duration::from_millis(args.wall_floor_ms),
    }
}

/// Generation is quick at the default size; a big one says why it is slow.
fn note_long_generation(random_per_function: usize) {
    if random_per_function > 200 {
        eprintln!("generating {random_per_function} random cases per function; this takes a while");
    }
}

/// Names where the cases came from, for messages.
fn cases_origin(args: &CaseArgs) -> String {
    match &args.cases_file {
        Some(p) => format!("case file `{}`", p.display()),
        None => "the generated case set".to_owned(),
    }
}

fn prepared_engine(
    assignment: &'static dyn Assignment,
    case_file: CaseFile,
    run: &RunArgs,
    rubric: Rubric,
    languages: &[Language],
) -> anyhow::Result<Engine> {
    for &language in languages {
        if !assignment.languages().contains(&language) {
            bail!(
                "assignment `{}` takes {} submissions, not {}",
                assignment.id(),
                assignment
                    .languages()
                    .iter()
                    .map(|l| l.name())
                    .collect::<Vec<_>>()
                    .join(" or "),
                language.name()
            );
        }
    }
    Engine::new(
        assignment,
        runner_config(run, languages)?,
        case_file,
        rubric,
        policy(run),
        Duration::from_millis(run.shrink_ms),
        languages,
    )
}

/// The languages of the files to grade, each once, Python first.
fn languages_of(files: impl IntoIterator<Item = std::path::PathBuf>) -> Vec<Language> {
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

fn report_of(engine: &Engine, students: Vec<StudentReport>) -> Report {
    Report {
        shard: None,
        settings: None,
        salgrade_version: env!("CARGO_PKG_VERSION").to_owned(),
        assignment: engine.assignment.id().to_owned(),
        seed: engine.case_file.seed,
        options: engine.case_file.options.clone(),
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
        clusters: Vec::new(),
    }
}

/// The fingerprints `salgrade merge` compares: each part hashed on its own,
/// so a mismatch can be named. Case labels are left out (they describe, they
/// do not decide a grade); so is the sandbox, which may differ by machine
/// without changing a verdict and is named in the report as it is.
fn settings_of(engine: &Engine, run: &RunArgs) -> anyhow::Result<Settings> {
    let cases = &engine.case_file;
    let mut case_parts: Vec<Vec<u8>> = vec![
        cases.assignment.clone().into_bytes(),
        serde_json::to_vec(&cases.seed)?,
    ];
    for c in &cases.cases {
        case_parts.push(c.id.clone().into_bytes());
        case_parts.push(c.function.clone().into_bytes());
        case_parts.push(serde_json::to_vec(&c.input)?);
        case_parts.push(serde_json::to_vec(&c.expected)?);
    }
    let parts: Vec<&[u8]> = case_parts.iter().map(Vec::as_slice).collect();
    // Sorted, so the order options were given in does not matter.
    let options: BTreeMap<&String, &serde_json::Value> = cases.options.iter().collect();
    let limits = serde_json::json!({
        "limits": &engine.runner.limits,
        "timeout_floor_ms": run.timeout_floor_ms,
        "timeout_multiplier": run.timeout_multiplier,
        "wall_floor_ms": run.wall_floor_ms,
        "build_timeout_ms": run.build_timeout_ms,
        "import_timeout_ms": run.import_timeout_ms,
        "shrink_ms": run.shrink_ms,
        "output_cap": run.output_cap,
    });
    Ok(Settings {
        cases: journal::fingerprint(&parts),
        rubric: journal::fingerprint(&[&serde_json::to_vec(&engine.rubric)?]),
        options: journal::fingerprint(&[&serde_json::to_vec(&options)?]),
        limits: journal::fingerprint(&[limits.to_string().as_bytes()]),
        version: env!("CARGO_PKG_VERSION").to_owned(),
    })
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
    discover::check_root(&args.submissions)?;
    let (assignment, case_file) = cases(&args.cases, &Evidence::of_folder(&args.submissions))?;
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
    // The languages the assignment takes, the one asked for first.
    let mut languages: Vec<Language> = assignment.languages().to_vec();
    if let Some(chosen) = args.language {
        if !languages.contains(&chosen) {
            bail!(
                "assignment `{}` takes no {} submissions",
                assignment.id(),
                chosen.name()
            );
        }
        languages.sort_by_key(|l| *l != chosen);
    }
    let names: Vec<&str> = languages
        .iter()
        .filter_map(|&l| assignment::file_for(assignment, l))
        .collect();
    let extensions: Vec<&str> = languages
        .iter()
        .flat_map(|l| l.extensions().iter().copied())
        .collect();
    let kinds = languages
        .iter()
        .map(|l| l.name())
        .collect::<Vec<_>>()
        .join(" or ");
    let markers = assignment.definition_markers();
    let found = discover::discover(
        &root,
        &discover::Wanted {
            names: &names,
            extensions: &extensions,
            markers: &markers,
            kinds: &kinds,
            chosen: args.language.is_some(),
        },
    )?;
    for n in &found.notes {
        eprintln!("note: {n}");
    }
    for w in &found.warnings {
        eprintln!("warning: {w}");
    }
    let mut subs = found.submissions;
    let everyone = subs.len();
    if let Some(shard) = args.shard {
        subs.retain(|s| shard.holds(&s.student));
        eprintln!(
            "shard {shard}: {} of the {everyone} submission(s) in `{}`",
            subs.len(),
            root.display()
        );
    }
    let roster = check_layout(args.format, args.csv_layout, args.roster.as_deref())?;
    if args.format.single_submission() && subs.len() != 1 {
        bail!(
            "`--format {}` reports one submission, but `{}` holds {}; grade a folder holding one, or use `salgrade check FILE --format {}`",
            args.format.name(),
            root.display(),
            subs.len(),
            args.format.name()
        );
    }
    // Every output is created (as a temporary file beside its target) before
    // any grading, so a bad path fails at once, and replaced only at the end.
    let output = Output::open(args.output.as_deref())?;
    if let Some(dir) = &args.feedback {
        output_folder(dir, "feedback folder")?;
        drop(AtomicFile::create(&dir.join("feedback.md"))?);
    }
    output_folder(&args.out_dir, "output folder")?;
    let full_report = AtomicFile::create(&args.out_dir.join("report.json"))?;
    crate::bounds::check(&case_file, args.run.memory_mb, |c| assignment.squares(c))
        .with_context(|| cases_origin(&args.cases))?;
    let graded_languages = languages_of(subs.iter().filter_map(|s| s.file.clone()));
    let engine = prepared_engine(assignment, case_file, &args.run, rubric, &graded_languages)?;
    let untested = coverage::untested(&engine.case_file, engine.assignment.functions());
    let mut run_warnings = found.warnings;
    for w in secret_warnings(&args.cases, &engine) {
        eprintln!("warning: {w}");
        run_warnings.push(w);
    }
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
        "grading {} submission(s) of `{}` on {} cases{seed}, Python {}; {}",
        subs.len(),
        assignment.id(),
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
        "wall_floor_ms": args.run.wall_floor_ms,
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
    for why in &journalled.dropped {
        eprintln!("warning: resume: dropped {why}; that student is graded again");
    }
    let _ = crate::runner::INTERRUPT_NOTE.set(format!(
        "; finished students are in `{}` (rerun with `--resume`)",
        journal::path_in(&args.out_dir).display()
    ));
    let hashes: BTreeMap<&str, String> = subs
        .iter()
        .map(|s| (s.student.as_str(), journal::submission_hash(s)))
        .collect();
    let resumed = journal::split(journalled.entries, &hashes, |s| engine.adds_up(s));
    for why in &resumed.dropped {
        eprintln!("warning: resume: dropped the {why}; that student is graded again");
    }
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
    let jobs = jobs_for(args.jobs, args.run.memory_mb);
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
    report.clusters = crate::mistakes::find(&engine, &report, &subs, jobs);
    report.shard = args.shard;
    report.settings = Some(settings_of(&engine, &args.run)?);
    coverage::only_tested(&mut report, &untested);
    let all_full = report.students.iter().all(StudentReport::full_marks);
    report.warnings = run_warnings;
    if let Some(dir) = &args.feedback {
        let seed = feedback::Seed::for_audience(report.seed, args.public_seed);
        for s in &report.students {
            let path = dir.join(format!("{}.md", discover::file_stem(&s.student)));
            output::write(
                &path,
                feedback::render(&report, s, seed, &BTreeMap::new()).as_bytes(),
            )?;
        }
    }
    full_report.commit(&report::render(
        &report,
        report::Format::Json,
        report::csv::CsvLayout::default(),
    )?)?;
    output.write(&rendered(
        &report,
        args.format,
        args.csv_layout,
        roster.as_ref(),
    )?)?;
    Ok(if all_full { SUCCESS } else { SOME_FAILED })
}

/// A `report.json` written by `grade --out-dir`.
fn read_report(path: &Path) -> anyhow::Result<Report> {
    let bytes =
        std::fs::read(path).with_context(|| format!("cannot read report `{}`", path.display()))?;
    serde_json::from_slice(&bytes).with_context(|| {
        format!(
            "`{}` is not a salgrade `report.json` (from `grade --out-dir`)",
            path.display()
        )
    })
}

/// Creates an output folder and, when salgrade made it (or it is empty),
/// marks it as salgrade's own, so a later `grade` of the folder around it
/// skips it instead of grading it as a student. A folder that already held
/// other files is not marked: it may be anything.
fn output_folder(dir: &Path, what: &str) -> anyhow::Result<()> {
    let fresh = std::fs::read_dir(dir).map_or(true, |mut d| d.next().is_none());
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create {what} `{}`", dir.display()))?;
    if fresh {
        output::mark_as_output(dir)?;
    }
    Ok(())
}

/// `salgrade merge`: shard reports read, checked against each other and
/// combined into one report in the format asked for.
pub(crate) fn merge(args: MergeArgs) -> anyhow::Result<u8> {
    let roster = check_layout(args.format, args.csv_layout, args.roster.as_deref())?;
    let output = Output::open(args.output.as_deref())?;
    let mut reports = Vec::new();
    for path in &args.reports {
        let report = read_report(path)?;
        reports.push((path.display().to_string(), report));
    }
    let merged = report::merge::merge(reports)?;
    for w in &merged.warnings {
        eprintln!("warning: {w}");
    }
    let report = merged.report;
    if args.format.single_submission() && report.students.len() != 1 {
        bail!(
            "`--format {}` reports one submission, but the reports hold {}",
            args.format.name(),
            report.students.len()
        );
    }
    let all_full = report.students.iter().all(StudentReport::full_marks);
    output.write(&rendered(
        &report,
        args.format,
        args.csv_layout,
        roster.as_ref(),
    )?)?;
    Ok(if all_full { SUCCESS } else { SOME_FAILED })
}

/// Loud warnings for each secret input (seed file, case file, a secret
/// `--seed`) student code could read in this run's sandbox.
fn secret_warnings(args: &CaseArgs, engine: &Engine) -> Vec<String> {
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

/// Students graded at once: `--jobs`, else the cores, cut to what fits in
/// the container's memory (see [`crate::capacity`]), saying so.
fn jobs_for(asked: Option<usize>, memory_mb: u64) -> usize {
    let limit = crate::capacity::container_limit();
    if let Some(w) = crate::capacity::warning(memory_mb, limit) {
        eprintln!("warning: {w}");
    }
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let fit = crate::capacity::jobs_that_fit(asked.unwrap_or(cores), memory_mb, limit);
    match asked {
        Some(jobs) if fit < jobs => eprintln!(
            "warning: `--jobs {jobs}` students of `--memory-mb {memory_mb}` each can use more than this container's memory; {fit} would fit"
        ),
        None if fit < cores => eprintln!(
            "grading {fit} student(s) at once, not {cores}: that is what fits in this container's memory at `--memory-mb {memory_mb}` each"
        ),
        _ => {}
    }
    asked.unwrap_or(fit)
}

/// Refuses a CSV option given with a format or layout it does not apply to,
/// and reads the roster (before any grading, so a bad one fails at once).
fn check_layout(
    format: report::Format,
    layout: report::csv::CsvLayout,
    roster: Option<&Path>,
) -> anyhow::Result<Option<report::markus::Roster>> {
    if layout != report::csv::CsvLayout::default() && format != report::Format::Csv {
        bail!(
            "`--csv-layout` applies to `--format csv`, not `--format {}`",
            format.name()
        );
    }
    if roster.is_some()
        && (format != report::Format::Csv || layout != report::csv::CsvLayout::Markus)
    {
        bail!("`--roster` applies to `--format csv --csv-layout markus`");
    }
    if roster.is_none() && layout == report::csv::CsvLayout::Markus {
        eprintln!(
            "note: without `--roster`, each MarkUs row is keyed by the submission's name; MarkUs rejects (and lists) a row whose name is a group or a suffixed duplicate (`alice-3f09a1`) rather than a user name: pass `--roster` with MarkUs's group list to map them"
        );
    }
    Ok(roster.map(report::markus::Roster::read).transpose()?)
}

/// The report in `format`; the MarkUs layout's rows keyed through `roster`
/// when there is one, each row MarkUs could not match printed as a warning.
fn rendered(
    report: &Report,
    format: report::Format,
    layout: report::csv::CsvLayout,
    roster: Option<&report::markus::Roster>,
) -> anyhow::Result<Vec<u8>> {
    let Some(roster) = roster else {
        return report::render(report, format, layout);
    };
    let sheet = report::markus::render(report, Some(roster))?;
    for w in &sheet.warnings {
        eprintln!("warning: {w}");
    }
    Ok(sheet.bytes)
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

/// A progress bar on a terminal, plain lines otherwise (CI logs). The
/// bar's line also says how many students are full, partial and zero so
/// far, and the most common mistake so far.
struct Progress {
    bar: Option<indicatif::ProgressBar>,
    total: usize,
    count: AtomicUsize,
    so_far: std::sync::Mutex<crate::grading::clusters::SoFar>,
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
            so_far: std::sync::Mutex::new(Default::default()),
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
                let so_far = match self.so_far.lock() {
                    Ok(mut so_far) => {
                        so_far.add(s);
                        so_far.summary()
                    }
                    Err(_) => String::new(),
                };
                bar.set_message(format!("{so_far} | {line}"));
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
    if !args.file.is_file() {
        bail!("`{}` is not a file", args.file.display());
    }
    let Some(language) = engine::language_of(&args.file) else {
        bail!(
            "`{}` is not a Python (`.py`) or C++ (`.cpp`, `.cc`, `.cxx`) file",
            args.file.display()
        );
    };
    let (assignment, case_file) = cases(&args.cases, &Evidence::of_file(&args.file))?;
    crate::bounds::check(&case_file, args.run.memory_mb, |c| assignment.squares(c))
        .with_context(|| cases_origin(&args.cases))?;
    let engine = prepared_engine(
        assignment,
        case_file,
        &args.run,
        Rubric::default_for(assignment.functions()),
        &[language],
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
    if let Some(format) = args.format {
        if !untested.is_empty() {
            let w = coverage::warning(&untested, &cases_origin(&args.cases));
            eprintln!("warning: {w}");
        }
        let bytes = report::render(&report, format, report::csv::CsvLayout::default())?;
        Output::Stdout.write(&bytes)?;
        return Ok(if full { SUCCESS } else { SOME_FAILED });
    }
    let all_pass = s.cases.iter().all(|c| c.verdict.passed());
    let clean = s.violations.is_empty();
    let seed = feedback::Seed::for_audience(report.seed, args.public_seed);
    let reruns = counterexample_files(&report, s, &args.file, Path::new(COUNTEREXAMPLE_DIR));
    let mut text = feedback::render(&report, s, seed, &reruns);
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

/// `salgrade clusters`: every common mistake in a `report.json`.
pub(crate) fn clusters(args: ClustersArgs) -> anyhow::Result<u8> {
    let report = read_report(&args.report)?;
    Output::Stdout.write(report::clusters::render(&report).as_bytes())?;
    Ok(SUCCESS)
}

/// Where `check` writes each shown counterexample as a case file (the
/// folder `grade` keeps its journal in, marked as salgrade's output).
const COUNTEREXAMPLE_DIR: &str = "salgrade-out";

/// Writes each function's shown counterexample to its own case file in
/// `dir` and returns, by function, the one command that re-runs it. A
/// folder that cannot be written costs the commands, not the check: it is
/// said in a note.
fn counterexample_files(
    report: &Report,
    s: &StudentReport,
    file: &Path,
    dir: &Path,
) -> BTreeMap<String, String> {
    let mut reruns = BTreeMap::new();
    let shown: Vec<(&String, &crate::grading::shrink::Counterexample)> = s
        .functions
        .iter()
        .filter_map(|(f, score)| score.counterexample.as_ref().map(|c| (f, c)))
        .collect();
    if shown.is_empty() {
        return reruns;
    }
    if let Err(e) = output_folder(dir, "folder") {
        eprintln!("note: the counterexamples were not written to case files: {e:#}");
        return reruns;
    }
    for (function, c) in shown {
        let path = dir.join(format!(
            "counterexample-{}.json",
            discover::file_stem(function)
        ));
        let case_file = CaseFile {
            assignment: report.assignment.clone(),
            seed: None,
            options: report.options.clone(),
            cases: vec![c.case.clone()],
        };
        let written = serde_json::to_vec_pretty(&case_file)
            .map_err(anyhow::Error::from)
            .and_then(|mut bytes| {
                bytes.push(b'\n');
                Ok(output::write(&path, &bytes)?)
            });
        match written {
            Ok(()) => {
                reruns.insert(
                    function.clone(),
                    format!(
                        "salgrade check {} --cases-file {}",
                        shell_word(&file.display().to_string()),
                        shell_word(&path.display().to_string())
                    ),
                );
            }
            Err(e) => eprintln!(
                "note: the counterexample of `{function}` was not written to `{}`: {e:#}",
                path.display()
            ),
        }
    }
    reruns
}

/// `word` quoted for a POSIX shell when it needs to be.
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:+@%".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

pub(crate) fn lint(args: LintArgs) -> anyhow::Result<u8> {
    let assignment = chosen_assignment(&args.assignment, &Evidence::of_file(&args.file))?;
    if assignment.container_rule().is_none() {
        bail!(
            "assignment `{}` has no rule on constructs to check",
            assignment.id()
        );
    }
    let source = std::fs::read(&args.file)
        .with_context(|| format!("cannot read `{}`", args.file.display()))?;
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
    let assignment = named(&args.assignment)?;
    let options = options(assignment, &args.options)?;
    let output = Output::open(args.output.as_deref())?;
    note_long_generation(args.cases);
    let file = assignment.generate(args.seed, args.cases, &options);
    let mut bytes = serde_json::to_vec_pretty(&file)?;
    bytes.push(b'\n');
    output.write(&bytes)?;
    Ok(SUCCESS)
}

/// The input `ref` asks about: a file or JSON on the command line.
fn ref_input(args: &RefArgs) -> anyhow::Result<(serde_json::Value, String)> {
    match (&args.board, &args.board_json) {
        (Some(path), _) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read board file `{}`", path.display()))?;
            let value = serde_json::from_str(&text)
                .with_context(|| format!("board file `{}` is not JSON", path.display()))?;
            Ok((value, format!("board file `{}`", path.display())))
        }
        (None, Some(json)) => Ok((
            serde_json::from_str(json).context("`--board-json` is not JSON")?,
            "`--board-json`".to_owned(),
        )),
        (None, None) => bail!("give a board with `--board FILE` or `--board-json JSON`"),
    }
}

pub(crate) fn reference(args: RefArgs) -> anyhow::Result<u8> {
    let assignment = named(&args.assignment)?;
    let questions = assignment.questions();
    if !questions.iter().any(|q| q.name == args.question) {
        bail!(
            "assignment `{}` has no question `{}`; it answers {}",
            assignment.id(),
            args.question,
            questions
                .iter()
                .map(|q| format!("`{}`", q.name))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let options = options(assignment, &args.options)?;
    let (input, origin) = ref_input(&args)?;
    let text = assignment
        .ask(&args.question, &input, &args.args, &options)
        .map_err(|e| anyhow!("{origin}: {e}"))?;
    println!("{text}");
    Ok(SUCCESS)
}

pub(crate) fn init(args: InitArgs) -> anyhow::Result<u8> {
    let assignment = named(&args.assignment)?;
    let text = rubric::default_toml(
        assignment.functions(),
        assignment.container_rule().map(|r| r.summary),
    );
    if args.rubric.as_os_str() == "-" {
        print!("{text}");
        return Ok(SUCCESS);
    }
    if args.rubric.exists() && !args.force {
        bail!(
            "`{}` already exists; pass `--force` to overwrite it",
            args.rubric.display()
        );
    }
    output::write(&args.rubric, text.as_bytes())?;
    eprintln!(
        "wrote the default rubric for `{}` to `{}`",
        assignment.id(),
        args.rubric.display()
    );
    Ok(SUCCESS)
}

pub(crate) fn assignments() -> anyhow::Result<u8> {
    let mut out = String::new();
    for a in assignment::ALL {
        let default = if a.id() == assignment::DEFAULT {
            " (default)"
        } else {
            ""
        };
        out.push_str(&format!("{}{default}: {}\n", a.id(), a.title()));
        out.push_str(&format!(
            "    file `{}`; functions {}\n",
            a.student_file(),
            a.functions().join(", ")
        ));
        if let Some(o) = a.option_help() {
            out.push_str(&format!("    options: {o}\n"));
        }
        out.push_str("    `salgrade ref` questions:\n");
        for q in a.questions() {
            out.push_str(&format!("      {:<12} {}\n", q.name, q.help));
        }
    }
    Output::Stdout.write(out.as_bytes())?;
    Ok(SUCCESS)
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

    /// `line` split as a POSIX shell would, for the quoting the examples
    /// use (single and double quotes); a `#` outside quotes starts a comment.
    fn shell_words(line: &str) -> Vec<String> {
        let (mut words, mut word, mut quote, mut any) = (Vec::new(), String::new(), None, false);
        for c in line.chars() {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), c) => word.push(c),
                (None, '\'' | '"') => {
                    quote = Some(c);
                    any = true;
                }
                (None, '#') if !any && word.is_empty() => break,
                (None, c) if c.is_whitespace() => {
                    if any || !word.is_empty() {
                        words.push(std::mem::take(&mut word));
                    }
                    any = false;
                }
                (None, c) => word.push(c),
            }
        }
        if any || !word.is_empty() {
            words.push(word);
        }
        words
    }

    /// Every `salgrade ...` line in the README's code blocks and in the
    /// `--help` of every command.
    fn documented_examples() -> Vec<(String, Vec<String>)> {
        let mut found = Vec::new();
        let mut in_block = false;
        for (i, line) in include_str!("../README.md").lines().enumerate() {
            if line.trim_start().starts_with("```") {
                in_block = !in_block;
            } else if in_block && line.trim_start().starts_with("salgrade ") {
                found.push((format!("README.md:{}", i + 1), shell_words(line.trim())));
            }
        }
        use clap::CommandFactory;
        let cli = Cli::command();
        for sub in cli.get_subcommands() {
            let help = sub
                .get_after_help()
                .map(ToString::to_string)
                .unwrap_or_default();
            for line in help.lines() {
                if line.trim_start().starts_with("salgrade ") {
                    let place = format!("`salgrade {} --help`", sub.get_name());
                    found.push((place, shell_words(line.trim())));
                }
            }
        }
        found
    }

    #[test]
    fn every_documented_example_parses_and_the_self_contained_ones_run() {
        let examples = documented_examples();
        assert!(examples.len() > 30, "{examples:?}");
        for (place, words) in examples {
            let cli = Cli::try_parse_from(&words)
                .unwrap_or_else(|e| panic!("{place}: `{}` does not parse: {e}", words.join(" ")));
            // The examples that need no file of the reader's are run.
            let ran = match cli.command {
                Command::Ref(args) if args.board.is_none() => reference(args).map(|_| ()),
                Command::Assignments => assignments().map(|_| ()),
                _ => Ok(()),
            };
            if let Err(e) = ran {
                panic!("{place}: `{}` fails: {e:#}", words.join(" "));
            }
        }
    }

    #[test]
    fn shell_words_split_like_a_shell() {
        assert_eq!(
            shell_words(r#"salgrade ref --board-json '{"a": [1, 2]}' 1   # comment"#),
            ["salgrade", "ref", "--board-json", r#"{"a": [1, 2]}"#, "1"]
        );
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
