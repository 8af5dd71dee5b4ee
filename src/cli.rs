//! The command line: clap types only. Each command converts them once into
//! validated settings.

use std::path::PathBuf;

use clap::builder::RangedU64ValueParser;
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::report::canvas::Missing;
use crate::report::csv::CsvLayout;
use crate::report::{Format, Shard};
use crate::runner::cxx::PreludeMode;
use crate::runner::{Language, SandboxKind};

/// The most random cases per function `--cases` takes: beyond it a run
/// takes many minutes (each function gets this many, boards up to 6,000
/// squares), which is a typo more often than a plan.
pub(crate) const MAX_RANDOM_CASES: u64 = 2000;

/// The largest `--timeout-multiplier`: with the model's CPU time bounded by
/// the calibration deadline, deadlines stay far inside what a `Duration`
/// holds, and a larger factor would hide a real timeout anyway.
pub(crate) const MAX_TIMEOUT_MULTIPLIER: f64 = 1000.0;

/// The longest shrinking budget per student, `--shrink-ms` (ten minutes).
pub(crate) const MAX_SHRINK_MS: u64 = 600_000;

/// The most output bytes kept per stream, `--output-cap`.
pub(crate) const MAX_OUTPUT_CAP: u64 = 64 * 1024 * 1024;

/// `--timeout-multiplier`: a finite number from 1 to
/// [`MAX_TIMEOUT_MULTIPLIER`] (`inf`, `NaN` and `1e300` are refused here,
/// before any `Duration` is computed from them).
fn multiplier(text: &str) -> Result<f64, String> {
    let x: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number"))?;
    if !x.is_finite() || !(1.0..=MAX_TIMEOUT_MULTIPLIER).contains(&x) {
        return Err(format!(
            "must be a number from 1 to {MAX_TIMEOUT_MULTIPLIER}, not `{text}`"
        ));
    }
    Ok(x)
}

#[derive(Debug, Parser)]
#[command(
    name = "salgrade",
    version,
    about = "Grade snakes-and-ladders programming assignments: seeded cases, a sandboxed runner, score tables and feedback.",
    after_help = "Exit codes: 0 every student has full marks (or the command succeeded), 1 some case failed, 2 usage or setup error.\n\nStart with `salgrade grade fixtures/submissions` or `salgrade check salbLLfunctions.py`."
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Grade a folder of submissions and print the score table.
    #[command(
        after_help = "Example:\n  salgrade grade submissions/ --format csv -o grades.csv --feedback feedback/\n\nLayouts: one folder per student (MarkUs, GitHub Classroom; the file may be nested) or one `NAME.py` or `NAME.cpp` per student (flat)."
    )]
    Grade(GradeArgs),
    /// Combine the `report.json` files of `grade --shard` runs into one report.
    #[command(
        after_help = "Example:\n  salgrade merge shard-1/report.json shard-2/report.json shard-3/report.json --format csv -o grades.csv\n\nReports graded with different assignments, seeds, cases, options, rubrics, limits or salgrade versions are refused, as is a student in two reports. Exits 0 when every student has full marks, 1 otherwise."
    )]
    Merge(MergeArgs),
    /// List every common mistake of a graded cohort, largest first, from its `report.json`.
    #[command(
        after_help = "Example:\n  salgrade clusters out/report.json\n\nEach group is the students whose function failed the same minimal board with the same answer; `grade` shows the five largest under its table."
    )]
    Clusters(ClustersArgs),
    /// Self-check one file with the public cases, as a student before the deadline.
    #[command(
        after_help = "Example:\n  salgrade check salbLLfunctions.py\n\nExits 0 only when every case passes, so it works in CI or a pre-commit hook."
    )]
    Check(CheckArgs),
    /// Check one file against the handout's rule: no lists, tuples, sets or dicts outside `salb2salbLL`.
    #[command(
        after_help = "Example:\n  salgrade lint salbLLfunctions.py\n\nExits 0 when the file keeps the rule, 1 when it does not (or cannot be parsed). The file is parsed, never run."
    )]
    Lint(LintArgs),
    /// Write a case file (inputs and expected outputs) for a seed.
    #[command(after_help = "Example:\n  salgrade gen --seed 1 --cases 30 -o cases.json")]
    Gen(GenArgs),
    /// Answer one question with the reference implementation.
    #[command(
        name = "ref",
        after_help = "Examples:\n  salgrade ref willfinish --board-json '{\"squares\": 6, \"snadders\": [[5, 1]]}' 1\n  salgrade ref whowins --board board.json 2 4\n  salgrade ref --assignment leetcode909 answer --board-json '[[-1,-1],[-1,3]]'\n  salgrade ref --assignment min-throws explain --board-json '[-1,5,-1,-1,-1,-1,-1]'\n\n`salgrade assignments` lists each assignment's questions."
    )]
    Ref(RefArgs),
    /// Write the default rubric (TOML, with comments) to start from.
    #[command(
        after_help = "Example:\n  salgrade init --rubric rubric.toml\n  salgrade init --assignment leetcode909 --rubric -"
    )]
    Init(InitArgs),
    /// List the assignments salgrade grades, with their files, functions and questions.
    #[command(after_help = "Example:\n  salgrade assignments")]
    Assignments,
    /// Find submissions too alike: pairs of students, and students close to past or public solutions.
    #[command(
        after_help = "Examples:\n  salgrade similar submissions/\n  salgrade similar subs/ --against past/ --against public/ --format html -o similar.html\n\nNothing is run: files are parsed and compared. Names, literals, comments, layout, statement order, loop forms, negated branches, `std::`, aliases, dead code and split functions are normalised first; see docs/similarity.md. Exits 0 when no pair is flagged, 1 when some pair is, 2 on a usage or setup error."
    )]
    Similar(SimilarArgs),
}

/// Which assignment a command is about.
#[derive(Debug, Args, Clone)]
pub(crate) struct AssignmentArg {
    /// The assignment (`salgrade assignments` lists them). Without it, `check`, `grade` and `lint` infer it from the files' names or the functions they define, and `ref` from a case file given as `--board`; otherwise it is `a48`. A case file names its own assignment: a different `--assignment` is an error.
    #[arg(long, short = 'a', value_name = "NAME")]
    pub assignment: Option<String>,
}

/// Which cases to run.
#[derive(Debug, Args, Clone)]
pub(crate) struct CaseArgs {
    #[command(flatten)]
    pub assignment: AssignmentArg,
    /// The seed of the generated cases; instructors grade with a secret one.
    #[arg(long, default_value_t = salgrade_reference::case::PUBLIC_SEED)]
    pub seed: u64,
    /// Random cases per function, on top of the fixed edge cases (default 30, at most 2000).
    #[arg(
        long,
        default_value_t = salgrade_reference::case::DEFAULT_RANDOM_CASES,
        value_parser = RangedU64ValueParser::<usize>::new().range(0..=MAX_RANDOM_CASES)
    )]
    pub cases: usize,
    /// Read the seed from this file (one number) instead of `--seed`, so a secret seed is not on the command line, where processes that can see salgrade's can read it.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["seed", "cases_file"])]
    pub seed_file: Option<PathBuf>,
    /// Grade with this case file (from `salgrade gen` or hand-written) instead of a seed.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["seed", "cases"])]
    pub cases_file: Option<PathBuf>,
    /// An assignment option, `KEY=VALUE`, repeatable (see `salgrade assignments`; a48 takes `reading=counts|separate|either`, default `either`). A case file carries its own.
    #[arg(
        long = "option",
        short = 'O',
        value_name = "KEY=VALUE",
        conflicts_with = "cases_file"
    )]
    pub options: Vec<String>,
}

/// Which interpreter and sandbox run student code (and the rule checker).
#[derive(Debug, Args, Clone)]
pub(crate) struct SandboxArgs {
    /// The Python interpreter; default `python3` on PATH, resolved to the real executable once.
    #[arg(long, value_name = "PATH")]
    pub python: Option<PathBuf>,
    /// The C++ compiler for C++ submissions; default `g++`, else `c++`, on PATH.
    #[arg(long, value_name = "PATH")]
    pub cxx: Option<PathBuf>,
    /// The sandbox backend; default `namespaces` (salgrade's own) where the kernel allows
    /// them, else `bwrap` if it works, else `rlimit` (with a note).
    #[arg(long, value_enum)]
    pub sandbox: Option<SandboxKind>,
}

/// How student code is run.
#[derive(Debug, Args, Clone)]
pub(crate) struct RunArgs {
    #[command(flatten)]
    pub sandbox: SandboxArgs,
    /// The least CPU time a case gets, in milliseconds, 10 or more (default 50): a case's
    /// deadline is the student process's CPU time, at least 10x the naive solution's.
    #[arg(long, value_name = "MS", default_value_t = 50,
        value_parser = clap::value_parser!(u64).range(10..=600_000))]
    pub timeout_floor_ms: u64,
    /// The least wall time a case gets, in milliseconds (default 1000): the backstop for a
    /// student that sleeps or blocks; it is also at least 10x the CPU deadline.
    #[arg(long, value_name = "MS", default_value_t = 1000,
        value_parser = clap::value_parser!(u64).range(50..=3_600_000))]
    pub wall_floor_ms: u64,
    /// A case's CPU deadline is at least this many times the model solution's CPU time on it: a number from 1 to 1000 (default 25).
    #[arg(long, value_name = "X", default_value_t = 25.0, value_parser = multiplier)]
    pub timeout_multiplier: f64,
    /// The wall-time backstop for building a C++ submission, in milliseconds, 1000 or more
    /// (default 300000): a build's budget is 60 s of CPU time per compiler process, and a
    /// build out of either is tried once more.
    #[arg(long, value_name = "MS", default_value_t = 300_000,
        value_parser = clap::value_parser!(u64).range(1000..=3_600_000))]
    pub build_timeout_ms: u64,
    /// How a C++ build gets the assignment's standard headers and salgrade's glue: `cached`
    /// (default: precompiled once and kept in salgrade's cache folder, `$XDG_CACHE_HOME/salgrade`,
    /// else as root `/var/cache/salgrade`, else `~/.cache/salgrade`, under the `namespaces` and
    /// `bwrap` sandboxes), `run` (precompiled
    /// once per run) or `off` (compiled again for every student, as before).
    #[arg(long, value_enum, value_name = "MODE", env = "SALGRADE_CXX_PRELUDE",
        default_value_t = PreludeMode::Cached)]
    pub cxx_prelude: PreludeMode,
    /// Where deadlines come from: `cached` (default: a calibration of the model and naive
    /// solutions on these cases, kept in the `calibration` folder of salgrade's cache folder
    /// (see `--cxx-prelude`) and used again
    /// while salgrade, the interpreter or compiler, the sandbox and the machine are the same;
    /// each kept time counts twice) or `fresh` (calibrated at every run).
    #[arg(long, value_enum, value_name = "MODE", env = "SALGRADE_CALIBRATION",
        default_value_t = Calibration::Cached)]
    pub calibration: Calibration,
    /// Whether a student whose case timed out or ended its process gets its next process
    /// started ahead, while its next case runs (`auto`, the default, under the `namespaces`
    /// sandbox; a new exec and import, never one that ran a case), or only when needed (`off`).
    #[arg(long, value_enum, value_name = "MODE", env = "SALGRADE_SPARE",
        default_value_t = Spare::Auto)]
    pub spare: Spare,
    /// How a Python session gets salgrade's own files (the driver, the rule checker, the
    /// assignment's adapter and course modules): `on` (default: also as bytecode, compiled once
    /// per run by the interpreter outside the sandbox and kept in memory, never on disk; the
    /// interpreter checks it against the source beside it) or `off` (as sources only, compiled
    /// again by every session).
    #[arg(long, value_enum, value_name = "MODE", env = "SALGRADE_PYTHON_BYTECODE",
        default_value_t = PythonBytecode::On)]
    pub python_bytecode: PythonBytecode,
    /// The deadline for importing a module, in milliseconds (default 5000).
    #[arg(long, value_name = "MS", default_value_t = 5000,
        value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub import_timeout_ms: u64,
    /// Address space limit per student process, in MiB (default 1024).
    #[arg(long, value_name = "MIB", default_value_t = 1024,
        value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
    pub memory_mb: u64,
    /// CPU time limit per student process, in seconds (default 60).
    #[arg(long, value_name = "S", default_value_t = 60,
        value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub cpu_seconds: u64,
    /// Largest file a student process may write, in MiB (default 16).
    #[arg(long, value_name = "MIB", default_value_t = 16,
        value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
    pub file_size_mb: u64,
    /// The CPU time all of one student's processes may use in all (their imports,
    /// calls and restarts), in seconds (default 60); past it, or past
    /// `--student-wall-s`, each case left is `over_budget` without a run.
    #[arg(long, value_name = "S", default_value_t = 60,
        value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub student_cpu_s: u64,
    /// The wall time one student's cases may take in all, from their first case, in seconds
    /// (default 300): the backstop for code that sleeps or blocks.
    #[arg(long, value_name = "S", default_value_t = 300,
        value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub student_wall_s: u64,
    /// Time per student for shrinking each failing function's smallest case to a minimal counterexample, in milliseconds; 0 turns it off (default 3000). Never changes a score.
    #[arg(long, value_name = "MS", default_value_t = 3000,
        value_parser = clap::value_parser!(u64).range(0..=MAX_SHRINK_MS))]
    pub shrink_ms: u64,
    /// Bytes of stdout, and of stderr, kept per student, at most 67108864 (64 MiB; default 65536).
    #[arg(long, value_name = "BYTES", default_value_t = 65536,
        value_parser = RangedU64ValueParser::<usize>::new().range(0..=MAX_OUTPUT_CAP))]
    pub output_cap: usize,
}

#[derive(Debug, Args)]
pub(crate) struct GradeArgs {
    /// The folder of submissions: one folder per student, or one source file per student (`alice.py`, `bob.cpp`; `.cc` and `.cxx` too).
    pub submissions: PathBuf,
    #[command(flatten)]
    pub cases: CaseArgs,
    #[command(flatten)]
    pub run: RunArgs,
    /// The rubric (TOML); default: 25 points per function, proportional credit.
    #[arg(long, value_name = "FILE")]
    pub rubric: Option<PathBuf>,
    /// Students graded at once, 1 to 256 (default: `SALGRADE_JOBS` if set, else the number of cores, within the CPU quota of salgrade's cgroup); always cut to what fits in that cgroup's memory limit at `--memory-mb` each, and to 4 per CPU (beyond, a case's wall-clock backstop could stop a correct student).
    #[arg(long, short = 'j', env = "SALGRADE_JOBS",
        value_parser = RangedU64ValueParser::<usize>::new().range(1..=256))]
    pub jobs: Option<usize>,
    /// The report format; default: the one `-o`'s extension names (`.csv`, `.json`, `.html`, `.md`, `.xml` for JUnit, `.txt` for the table), else `table`. A format another extension names is refused. `gradescope` and `classroom` need a folder holding exactly one submission.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// The columns of `--format csv`: `salgrade` (default), `markus` (a MarkUs marks-spreadsheet upload), `generic` (identifier, total, one column per function) or `canvas` (a Canvas gradebook import, with `--roster` and `--canvas-assignment`).
    #[arg(long, value_enum, value_name = "LAYOUT", default_value_t = CsvLayout::Salgrade)]
    pub csv_layout: CsvLayout,
    /// The HTML report's "Similar submissions" section: pairs of students whose graded files are too alike, as `salgrade similar` finds them (the threshold from the cohort's own scores): `on` (default) or `off`. Only `--format html` has it, and only for a cohort of two or more.
    #[arg(long, value_enum, value_name = "ON_OFF", default_value_t = Similarity::On)]
    pub similarity: Similarity,
    /// For `--csv-layout markus`: a CSV of `identifier,user,...` lines (MarkUs's group-list download) mapping each submission's identifier to MarkUs user names (default: the identifiers are the user names). For `--csv-layout canvas` (required): the course's gradebook export from Canvas, whose identity columns and students the import uses.
    #[arg(long, value_name = "FILE")]
    pub roster: Option<PathBuf>,
    #[command(flatten)]
    pub canvas: CanvasArgs,
    /// Write the report here instead of stdout (`-` is stdout).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Write one Markdown feedback file per student into this folder.
    #[arg(long, value_name = "DIR")]
    pub feedback: Option<PathBuf>,
    /// The folder for the journal of finished students (default `salgrade-out`).
    #[arg(long, value_name = "DIR", default_value = "salgrade-out")]
    pub out_dir: PathBuf,
    /// The language to grade when a student's folder holds both a Python and a C++ file (default: Python, with a warning).
    #[arg(long, value_enum, value_name = "LANGUAGE")]
    pub language: Option<Language>,
    /// Keep the students already in the journal and grade only the rest (and those whose file changed since).
    #[arg(long)]
    pub resume: bool,
    /// Print the seed in the feedback files; by default only the public seed (1) is, so a secret grading seed does not reach students.
    #[arg(long)]
    pub public_seed: bool,
    /// What students are shown of the hidden cases (those the public seed does not give):
    /// `hide` (the default when the seed is secret or a case file is given: a failing function
    /// says only that it failed and why, with no input, answer, counterexample or printed output)
    /// or `show` (everything, as for the public seed; the default when the seed is public).
    #[arg(long, value_enum, value_name = "POLICY")]
    pub hidden_cases: Option<HiddenCases>,
    /// Grade only shard K of N (1 ≤ K ≤ N): the students whose identifier hashes to K-1 modulo N, the same on every machine; combine the shards' `report.json` with `salgrade merge` (default: every student).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
}

/// The Canvas import's choices (`--csv-layout canvas`).
#[derive(Debug, Args, Clone)]
pub(crate) struct CanvasArgs {
    /// For `--csv-layout canvas`: the assignment whose column the scores go in, as the gradebook export names it: its ID (`12345`), its title, or the whole header (`A1 (12345)`).
    #[arg(long, value_name = "ASSIGNMENT")]
    pub canvas_assignment: Option<String>,
    /// For `--csv-layout canvas`: what a student of the gradebook without a submission gets: `keep` (default: no row, so Canvas keeps their grade; they are named in a warning) or `zero`.
    #[arg(long, value_enum, value_name = "POLICY")]
    pub missing: Option<Missing>,
}

#[derive(Debug, Args)]
pub(crate) struct MergeArgs {
    /// The `report.json` files of the shards (`grade --shard K/N` writes one in its `--out-dir`).
    #[arg(required = true, value_name = "REPORT")]
    pub reports: Vec<PathBuf>,
    /// The report format; default: the one `-o`'s extension names (`.csv`, `.json`, `.html`, `.md`, `.xml` for JUnit, `.txt` for the table), else `table`. A format another extension names is refused. `gradescope` and `classroom` need exactly one student in all.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// The columns of `--format csv`: `salgrade` (default), `markus`, `generic` or `canvas`.
    #[arg(long, value_enum, value_name = "LAYOUT", default_value_t = CsvLayout::Salgrade)]
    pub csv_layout: CsvLayout,
    /// For `--csv-layout markus`: a CSV of `identifier,user,...` lines (MarkUs's group-list download) mapping identifiers to MarkUs user names (default: the identifiers are the user names). For `--csv-layout canvas` (required): the course's gradebook export from Canvas.
    #[arg(long, value_name = "FILE")]
    pub roster: Option<PathBuf>,
    #[command(flatten)]
    pub canvas: CanvasArgs,
    /// Write the merged report here instead of stdout (`-` is stdout).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Merge shards graded by different salgrade builds, Pythons or C++ compilers, each named in the report's warnings (default: refused, since each can change a verdict).
    #[arg(long)]
    pub allow_different_builds: bool,
}

#[derive(Debug, Args)]
pub(crate) struct ClustersArgs {
    /// The `report.json` that `grade` wrote in its `--out-dir` (default `salgrade-out`), or `merge --format json` wrote.
    #[arg(value_name = "REPORT")]
    pub report: PathBuf,
}

#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    /// The student's file (`salbLLfunctions.py`, `solution.py`, `min_throws.py`, `snakes_game.py`, or the C++ `.cpp`, `.cc`, `.cxx` of the last three).
    pub file: PathBuf,
    #[command(flatten)]
    pub cases: CaseArgs,
    #[command(flatten)]
    pub run: RunArgs,
    /// Print the seed even when it is not the public one (default: only the public seed 1 is printed).
    #[arg(long)]
    pub public_seed: bool,
    /// What students are shown of the hidden cases (those the public seed does not give):
    /// `hide` (the default when the seed is secret or a case file is given: a failing function
    /// says only that it failed and why, with no input, answer, counterexample or printed output)
    /// or `show` (everything, as for the public seed; the default when the seed is public).
    #[arg(long, value_enum, value_name = "POLICY")]
    pub hidden_cases: Option<HiddenCases>,
    /// Print a report format instead of the feedback text (default: the feedback text), e.g. `classroom`, `gradescope` or `junit` for CI.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
}

#[derive(Debug, Args)]
pub(crate) struct LintArgs {
    #[command(flatten)]
    pub assignment: AssignmentArg,
    /// The student's file.
    pub file: PathBuf,
    #[command(flatten)]
    pub sandbox: SandboxArgs,
    /// `text` for people (default), `json` for CI.
    #[arg(long, value_enum, default_value_t = LintFormat::Text)]
    pub format: LintFormat,
}

/// Whether a failing student's next process starts ahead (`--spare`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Spare {
    /// Under the `namespaces` sandbox, once a case has failed.
    Auto,
    /// Never: each restart starts its process when it is needed.
    Off,
}

/// Whether sessions get salgrade's own Python files as bytecode (`--python-bytecode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum PythonBytecode {
    /// Compiled once per run, kept in memory.
    On,
    /// Sources only: every session compiles them.
    Off,
}

/// Whether `grade --format html` has a "Similar submissions" section.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Similarity {
    /// The section, for a cohort of two or more students.
    On,
    /// No section, and no comparison.
    Off,
}

/// Where a run's deadlines come from (`--calibration`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Calibration {
    /// Kept between runs, and used again while nothing it depends on changed.
    Cached,
    /// Measured afresh at every run.
    Fresh,
}

/// What students are shown of the hidden cases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum HiddenCases {
    /// Only which function failed and why.
    Hide,
    /// Everything, as for public cases.
    Show,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum LintFormat {
    /// `FILE:LINE:COLUMN: function: construct`, then the line of source.
    Text,
    /// One JSON object (see docs/container-rule.md).
    Json,
}

#[derive(Debug, Args)]
pub(crate) struct GenArgs {
    #[command(flatten)]
    pub assignment: AssignmentArg,
    /// The seed; the same seed gives the same bytes on every machine.
    #[arg(long, default_value_t = salgrade_reference::case::PUBLIC_SEED)]
    pub seed: u64,
    /// Random cases per function, on top of the fixed edge cases (default 30, at most 2000).
    #[arg(
        long,
        default_value_t = salgrade_reference::case::DEFAULT_RANDOM_CASES,
        value_parser = RangedU64ValueParser::<usize>::new().range(0..=MAX_RANDOM_CASES)
    )]
    pub cases: usize,
    /// An assignment option, `KEY=VALUE`, repeatable (a48: `reading=counts|separate|either`).
    #[arg(long = "option", short = 'O', value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Write the case file (JSON) here instead of stdout; a name with another format's extension (`.csv`, `.html`...) is refused.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Keep only this case (repeatable; `whowins/r012`, as a report names it): a case file `salgrade ref --board` takes whole. Give the run's `--seed`, `--cases` and `--option`s.
    #[arg(long = "case", value_name = "ID")]
    pub only: Vec<String>,
}

#[derive(Debug, Args)]
pub(crate) struct RefArgs {
    #[command(flatten)]
    pub assignment: AssignmentArg,
    /// The question to answer (`salgrade assignments` lists each assignment's).
    pub question: String,
    /// A board file, in the form the assignment's case files use for its board (a48: `{"squares": 16, "snadders": [[2, 11], [10, 7]]}`), or a case file (`check`'s `counterexample-*.json`, `gen`'s output with `--case ID`), whose assignment, options and step sizes are used.
    #[arg(
        long,
        value_name = "FILE",
        required_unless_present = "board_json",
        conflicts_with = "board_json"
    )]
    pub board: Option<PathBuf>,
    /// The board as JSON on the command line.
    #[arg(long, value_name = "JSON")]
    pub board_json: Option<String>,
    /// The case to ask about when `--board` is a case file with several (`salgrade gen` writes them; `whowins/r012`).
    #[arg(long = "case", value_name = "ID")]
    pub case: Option<String>,
    /// The question's arguments (a48: one step size for willfinish, finish-time and walk, two for whowins); default: a case's own.
    pub args: Vec<u64>,
    /// An assignment option, `KEY=VALUE`, repeatable (a48: `reading=...`; default `either` prints every accepted answer).
    #[arg(long = "option", short = 'O', value_name = "KEY=VALUE")]
    pub options: Vec<String>,
}

#[derive(Debug, Args)]
pub(crate) struct InitArgs {
    #[command(flatten)]
    pub assignment: AssignmentArg,
    /// Where to write the rubric (default `rubric.toml`; `-` is stdout).
    #[arg(long, value_name = "FILE", default_value = "rubric.toml")]
    pub rubric: PathBuf,
    /// Overwrite an existing file.
    #[arg(long)]
    pub force: bool,
}

/// `--threshold`: a number from 0 to 1.
fn unit_interval(text: &str) -> Result<f64, String> {
    let x: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number"))?;
    if !(0.0..=1.0).contains(&x) {
        return Err(format!("must be a number from 0 to 1, not `{text}`"));
    }
    Ok(x)
}

#[derive(Debug, Args)]
pub(crate) struct SimilarArgs {
    /// The folder of submissions, in any layout `grade` takes (a folder per student, a repository per student, or a file per student); every Python and C++ file of a student's folder is compared, and one student's files (drafts, versions) are never paired with each other.
    pub submissions: PathBuf,
    /// A folder of past cohorts' submissions or public solutions to compare every student with, repeatable; each file in it (searched 8 folders deep) is one archive entry, never compared with another archive file (default: none).
    #[arg(long, value_name = "DIR")]
    pub against: Vec<PathBuf>,
    /// The assignment whose starter code counts for nothing and whose functions are called from outside the file (`salgrade assignments` lists them); default: the one the files' names or definitions point to, else every assignment's.
    #[arg(long, short = 'a', value_name = "NAME")]
    pub assignment: Option<String>,
    /// The report format: `table` (the ranked pairs), `csv` or `json` (one row per pair), or `html` (the flagged pairs side by side, shared fragments highlighted); default: the one `-o`'s extension names (`.csv`, `.json`, `.html`, `.txt`), else `table`.
    #[arg(long, value_enum)]
    pub format: Option<SimilarFormat>,
    /// Write the report here instead of stdout (`-` is stdout).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Flag the pairs scoring above this number from 0 to 1 (default: chosen from the cohort's own scores, as the report says).
    #[arg(long, value_name = "SCORE", value_parser = unit_interval)]
    pub threshold: Option<f64>,
    /// Pairs listed by `--format table` and `html` besides the flagged ones, from the best down (default 10).
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub top: usize,
    /// Pairs scoring below this number from 0 to 1 are left out of every format (default 0.2, far below any threshold); pairs that share nothing rare are never scored.
    #[arg(long, value_name = "SCORE", default_value_t = 0.2, value_parser = unit_interval)]
    pub min_score: f64,
    /// Files parsed at once, 1 to 256 (default: `SALGRADE_JOBS` if set, else the number of cores).
    #[arg(long, short = 'j', env = "SALGRADE_JOBS",
        value_parser = RangedU64ValueParser::<usize>::new().range(1..=256))]
    pub jobs: Option<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum SimilarFormat {
    /// The ranked pairs for a terminal.
    Table,
    /// One row per pair.
    Csv,
    /// The report as one JSON object (see docs/similarity.md).
    Json,
    /// One self-contained page: the ranked pairs and each flagged pair side by side.
    Html,
}
