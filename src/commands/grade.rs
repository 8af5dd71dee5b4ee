//! `salgrade grade`: a folder of submissions graded, as a pipeline of
//! named steps: a [`Plan`] from the arguments; [`discovered`] submissions;
//! the [`Outputs`] opened atomically; the [`engine_for`] the cases; the
//! journal's [`Resume`]; [`graded`] students; the [`assembled`] report;
//! and [`Outputs::write`]. `check` reuses the engine and report steps.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, bail};
use salgrade_reference::CaseFile;

use super::choose::{Audience, Evidence, cases, cases_origin, hidden_cases};
use super::exit_code;
use super::outputs::{
    Git, Output, check_layout, format_for, output_folder, refuse_inside_submissions, rendered,
};
use super::pool::{grade_parallel, jobs_for};
use super::setup::{languages_of, prepared_engine, secret_warnings};
use crate::assignment::Assignment;
use crate::cli::{CaseArgs, GradeArgs, RunArgs};
use crate::discover::{self, Submission};
use crate::engine::Engine;
use crate::fingerprint::fingerprint;
use crate::grading::rubric::Rubric;
use crate::journal::{self, Journal};
use crate::output::{self, AtomicFile};
use crate::report::{self, Report, Settings, StudentReport, coverage, feedback};
use crate::runner::Language;

pub(crate) fn grade(args: GradeArgs) -> anyhow::Result<u8> {
    let format = format_for(args.format, args.output.as_deref())?;
    let plan = Plan::from_args(&args)?;
    let (subs, found_warnings) = discovered(&plan, &args)?;
    refuse_outputs_in_submissions(&args, &subs)?;
    let outputs = Outputs::open(&args, format, subs.len())?;
    let languages = languages_of(subs.iter().filter_map(|s| s.file.clone()));
    let assignment = plan.assignment;
    let engine = engine_for(plan, &args.cases, &args.run, &languages)?;
    let untested = Untested::of(&engine, &args.cases);
    let warnings = run_warnings(&engine, &args.cases, &untested, found_warnings);
    announce(&engine, subs.len());
    let resume = Resume::open(&engine, &args, &subs)?;
    let jobs = jobs_for(args.jobs, args.run.memory_mb);
    let students = graded(&engine, &args.submissions, &subs, resume, jobs)?;
    let hidden = hidden_cases(
        &engine,
        &args.cases,
        (args.public_seed, args.hidden_cases),
        Audience::Grade,
    );
    let mut report = assembled(&engine, students, hidden);
    report.clusters = crate::mistakes::find(&engine, &report, &subs, jobs);
    report.shard = args.shard;
    report.settings = Some(settings_of(&engine, &args.run)?);
    untested.leave_out(&mut report);
    report.warnings = warnings;
    let similarity = (format == report::Format::Html
        && args.similarity == crate::cli::Similarity::On)
        .then(|| super::similar::of_graded(&args.submissions, &subs, assignment, jobs))
        .flatten();
    outputs.write(&report, &args, similarity.as_ref())
}

/// What the arguments ask for before any submission is read: the
/// assignment and its cases, the rubric, and the languages to look for,
/// the one asked for first.
pub(super) struct Plan {
    pub(super) assignment: &'static dyn Assignment,
    pub(super) case_file: CaseFile,
    pub(super) rubric: Rubric,
    pub(super) languages: Vec<Language>,
}

impl Plan {
    fn from_args(args: &GradeArgs) -> anyhow::Result<Plan> {
        discover::check_root(&args.submissions)?;
        let (assignment, case_file) = cases(&args.cases, &Evidence::of_folder(&args.submissions))?;
        let rubric = match &args.rubric {
            Some(p) => {
                let text = crate::input::read_text(p)
                    .with_context(|| format!("cannot read rubric `{}`", p.display()))?;
                Rubric::parse(&text, assignment.functions())
                    .with_context(|| format!("rubric `{}`", p.display()))?
            }
            None => Rubric::default_for(assignment.functions()),
        };
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
        Ok(Plan {
            assignment,
            case_file,
            rubric,
            languages,
        })
    }
}

/// The submissions in the folder (this shard's, with `--shard`) and the
/// warnings discovery raised, each note and warning printed.
fn discovered(plan: &Plan, args: &GradeArgs) -> anyhow::Result<(Vec<Submission>, Vec<String>)> {
    let assignment = plan.assignment;
    let names: Vec<String> = plan
        .languages
        .iter()
        .flat_map(|&l| crate::infer::student_names(assignment, l))
        .collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let extensions: Vec<&str> = plan
        .languages
        .iter()
        .flat_map(|l| l.extensions().iter().copied())
        .collect();
    let kinds = plan
        .languages
        .iter()
        .map(|l| l.name())
        .collect::<Vec<_>>()
        .join(" or ");
    let markers = assignment.definition_markers();
    let found = discover::discover(
        &args.submissions,
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
            args.submissions.display()
        );
    }
    Ok((subs, found.warnings))
}

/// Refuses `-o`, `--feedback` and `--out-dir` inside a student's submission.
fn refuse_outputs_in_submissions(args: &GradeArgs, subs: &[Submission]) -> anyhow::Result<()> {
    let files: Vec<&Path> = subs.iter().filter_map(|s| s.file.as_deref()).collect();
    let outputs = [
        (args.output.as_deref(), "`-o`"),
        (args.feedback.as_deref(), "the `--feedback` folder"),
        (Some(args.out_dir.as_path()), "the `--out-dir` folder"),
    ];
    for (path, what) in outputs {
        if let Some(path) = path.filter(|p| p.as_os_str() != "-") {
            refuse_inside_submissions(path, what, &args.submissions, &files)?;
        }
    }
    Ok(())
}

/// Every output `grade` writes, created (as a temporary file beside its
/// target) before any grading, so a bad path fails at once, and replaced
/// only at the end.
struct Outputs {
    format: report::Format,
    output: Output,
    roster: Option<super::outputs::Mapping>,
    full_report: AtomicFile,
}

impl Outputs {
    fn open(
        args: &GradeArgs,
        format: report::Format,
        submissions: usize,
    ) -> anyhow::Result<Outputs> {
        let roster = check_layout(
            format,
            args.csv_layout,
            args.roster.as_deref(),
            &args.canvas,
        )?;
        if format.single_submission() && submissions != 1 {
            bail!(
                "`--format {}` reports one submission, but `{}` holds {}; grade a folder holding one, or use `salgrade check FILE --format {}`",
                format.name(),
                args.submissions.display(),
                submissions,
                format.name()
            );
        }
        let output = Output::open(args.output.as_deref())?;
        if let Some(dir) = &args.feedback {
            output_folder(dir, "feedback folder", Git::Tracks)?;
            drop(AtomicFile::create(&dir.join("feedback.md"))?);
        }
        // The default folder is working files; one named on purpose may be
        // meant to be kept (a `report.json` committed with the grades).
        let git = if args.out_dir.as_os_str() == "salgrade-out" {
            Git::Ignores
        } else {
            Git::Tracks
        };
        output_folder(&args.out_dir, "output folder", git)?;
        let full_report = AtomicFile::create(&args.out_dir.join("report.json"))?;
        Ok(Outputs {
            format,
            output,
            roster,
            full_report,
        })
    }

    /// The feedback files, `report.json` and the report in the format
    /// asked for; the exit code.
    fn write(
        self,
        report: &Report,
        args: &GradeArgs,
        similarity: Option<&report::similarity::Similarity>,
    ) -> anyhow::Result<u8> {
        let all_full = report.students.iter().all(StudentReport::full_marks);
        if let Some(dir) = &args.feedback {
            let seed = feedback::Seed::for_audience(report.seed, args.public_seed);
            let shown = report.for_students();
            let mut written = std::collections::BTreeSet::new();
            for s in &shown.students {
                let name = format!("{}.md", discover::file_stem(&s.student));
                written.insert(name.clone());
                let path = dir.join(name);
                output::write(
                    &path,
                    feedback::render(
                        &shown,
                        s,
                        seed,
                        &feedback::Again {
                            source: s
                                .file
                                .as_ref()
                                .and_then(|f| {
                                    super::outputs::student_source(&args.submissions.join(f))
                                })
                                .as_deref(),
                            ..feedback::GRADE_RUN
                        },
                    )
                    .as_bytes(),
                )?;
            }
            super::outputs::warn_of_other_feedback(dir, &written, args.shard.is_some());
        }
        self.full_report.commit(&report::render(
            report,
            report::Format::Json,
            report::csv::CsvLayout::default(),
        )?)?;
        let width = self.output.width();
        let bytes = match similarity {
            Some(s) if self.format == report::Format::Html => {
                report::html::render_with(report, Some(s)).into_bytes()
            }
            _ => rendered(
                report,
                self.format,
                args.csv_layout,
                self.roster.as_ref(),
                width,
            )?,
        };
        self.output.write(&bytes)?;
        Ok(exit_code(all_full || self.format.exits_zero()))
    }
}

/// The engine for the plan's cases, once they are within the memory bounds
/// and the languages to grade are the assignment's (shared with `check`).
pub(super) fn engine_for(
    plan: Plan,
    case_args: &CaseArgs,
    run: &RunArgs,
    languages: &[Language],
) -> anyhow::Result<Engine> {
    let Plan {
        assignment,
        case_file,
        rubric,
        ..
    } = plan;
    crate::bounds::check(&case_file, run.memory_mb, |c| assignment.squares(c))
        .with_context(|| cases_origin(case_args))?;
    prepared_engine(assignment, case_file, run, rubric, languages)
}

/// The graded functions no case tests, and where the cases came from, for
/// the warning (shared with `check`).
pub(super) struct Untested {
    functions: Vec<&'static str>,
    origin: String,
}

impl Untested {
    pub(super) fn of(engine: &Engine, args: &CaseArgs) -> Untested {
        Untested {
            functions: coverage::untested(&engine.case_file, engine.assignment.functions()),
            origin: cases_origin(args),
        }
    }

    /// The warning, when some function is untested.
    pub(super) fn warning(&self) -> Option<String> {
        (!self.functions.is_empty()).then(|| coverage::warning(&self.functions, &self.origin))
    }

    /// The untested functions left out of the report's scores.
    pub(super) fn leave_out(&self, report: &mut Report) {
        coverage::only_tested(report, &self.functions);
    }
}

/// The run's warnings for the report: discovery's, the secrets student
/// code could read, and the untested functions, each printed once.
fn run_warnings(
    engine: &Engine,
    args: &CaseArgs,
    untested: &Untested,
    mut warnings: Vec<String>,
) -> Vec<String> {
    for w in secret_warnings(args, engine) {
        eprintln!("warning: {w}");
        warnings.push(w);
    }
    if let Some(w) = untested.warning() {
        eprintln!("warning: {w}");
        warnings.push(w);
    }
    warnings
}

/// The one line that says what is about to be graded, and how.
fn announce(engine: &Engine, submissions: usize) {
    let seed = engine
        .case_file
        .seed
        .map(|s| format!(" (seed {s})"))
        .unwrap_or_default();
    eprintln!(
        "grading {submissions} submission(s) of `{}` on {} cases{seed}, Python {}; {}",
        engine.assignment.id(),
        engine.case_file.cases.len(),
        engine.runner.python.version,
        engine.runner.protections()
    );
}

/// The journal opened for this run's settings, the students it already
/// holds (kept only when their submission is unchanged and their scores add
/// up), and each submission's hash.
struct Resume {
    journal: Journal,
    done: BTreeMap<String, StudentReport>,
    hashes: BTreeMap<String, String>,
}

impl Resume {
    fn open(engine: &Engine, args: &GradeArgs, subs: &[Submission]) -> anyhow::Result<Resume> {
        let fp = run_fingerprint(engine, &args.run);
        if args.resume && !journal::path_in(&args.out_dir).exists() {
            eprintln!(
                "resume: no journal in `{}`, so grading starts fresh",
                args.out_dir.display()
            );
        }
        let (journal, journalled) = Journal::open(&args.out_dir, &fp, args.resume)?;
        for why in &journalled.dropped {
            eprintln!("warning: resume: dropped {why}; that student is graded again");
        }
        let _ = crate::runner::INTERRUPT_NOTE.set(format!(
            "; finished students are in `{}` (rerun with `--resume`)",
            journal::path_in(&args.out_dir).display()
        ));
        let hashes: BTreeMap<String, String> = subs
            .iter()
            .map(|s| (s.student.clone(), journal::submission_hash(s)))
            .collect();
        let current: BTreeMap<&str, String> = hashes
            .iter()
            .map(|(k, v)| (k.as_str(), v.clone()))
            .collect();
        let resumed = journal::split(journalled.entries, &current, |s| engine.adds_up(s));
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
        Ok(Resume {
            journal,
            done: resumed.kept,
            hashes,
        })
    }
}

/// What a journal's entries were graded under: a journal of other settings
/// is not resumed, and says which differ.
fn run_fingerprint(engine: &Engine, run: &RunArgs) -> journal::RunSettings {
    let settings = serde_json::json!({
        "cases": &engine.case_file,
        "rubric": &engine.rubric,
        "limits": &engine.runner.limits,
        "deadline_floor_ms": run.timeout_floor_ms,
        "multiplier": run.timeout_multiplier,
        "wall_floor_ms": run.wall_floor_ms,
        "version": env!("CARGO_PKG_VERSION"),
    });
    let limits = serde_json::json!({
        "limits": &engine.runner.limits,
        "deadline_floor_ms": run.timeout_floor_ms,
        "multiplier": run.timeout_multiplier,
        "wall_floor_ms": run.wall_floor_ms,
    });
    let hash = |v: &serde_json::Value| fingerprint(&[v.to_string().as_bytes()]);
    let cases = &engine.case_file;
    let parts = [
        ("seed", hash(&serde_json::json!(cases.seed))),
        ("options", hash(&serde_json::json!(&cases.options))),
        (
            "cases",
            hash(&serde_json::json!([&cases.assignment, &cases.cases])),
        ),
        ("rubric", hash(&serde_json::json!(&engine.rubric))),
        ("limits", hash(&limits)),
        ("version", env!("CARGO_PKG_VERSION").to_owned()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    journal::RunSettings {
        whole: hash(&settings),
        parts,
    }
}

/// Every student's report, in discovery order: the journalled ones as they
/// were, the others graded on `jobs` workers, each journalled as it ends.
fn graded(
    engine: &Engine,
    root: &Path,
    subs: &[Submission],
    resume: Resume,
    jobs: usize,
) -> anyhow::Result<Vec<StudentReport>> {
    let Resume {
        mut journal,
        mut done,
        hashes,
    } = resume;
    let todo: Vec<&Submission> = subs
        .iter()
        .filter(|s| !done.contains_key(&s.student))
        .collect();
    let graded = grade_parallel(engine, root, &todo, jobs, |s| {
        journal.append(s, &hashes[s.student.as_str()])
    })?;
    for s in graded {
        done.insert(s.student.clone(), s);
    }
    Ok(subs
        .iter()
        .filter_map(|s| done.remove(&s.student))
        .collect())
}

/// The report of `students` graded by `engine` (shared with `check`).
pub(super) fn assembled(
    engine: &Engine,
    students: Vec<StudentReport>,
    hidden_cases: Vec<String>,
) -> Report {
    Report {
        hidden_cases,
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
        cases: fingerprint(&parts),
        rubric: fingerprint(&[&serde_json::to_vec(&engine.rubric)?]),
        options: fingerprint(&[&serde_json::to_vec(&options)?]),
        limits: fingerprint(&[limits.to_string().as_bytes()]),
        version: env!("CARGO_PKG_VERSION").to_owned(),
        build: crate::build_id::build().to_owned(),
        python: format!(
            "{} {}",
            engine.runner.python.implementation, engine.runner.python.version
        ),
        compiler: engine.runner.cxx.as_ref().map(|c| c.version.clone()),
    })
}
