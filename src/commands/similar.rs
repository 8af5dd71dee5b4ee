//! `salgrade similar`: which submissions are too alike, within a cohort
//! and against an archive of past or public solutions. The steps: the
//! [`course`] (assignment, starter code, entry points); the cohort's files
//! found by [`crate::discover`] in any layout `grade` takes, each student's
//! every source file kept (drafts are one student's, never a pair); the
//! [`archive`] files; the comparison ([`crate::similar`]); the report in
//! the format asked for. Nothing is run: files are only read and parsed.
//!
//! Exit codes as the other commands: 0 when no pair is flagged, 1 when
//! some pair is, 2 for a usage or setup error (a missing or empty folder).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use unicode_normalization::UnicodeNormalization;

use super::outputs::{Output, similar_format_for};
use super::{SOME_FAILED, SUCCESS};
use crate::assignment::{self, Assignment};
use crate::cli::{SimilarArgs, SimilarFormat};
use crate::discover::{self, MAX_FOLDERS_DOWN, Submission};
use crate::report::similarity::{FragmentLines, PairKind, PairRow, SideBySide, Similarity};
use crate::runner::{Harness, Language};
use crate::similar::{self, Analysis, Course, Source, threshold};

/// Files larger than this are not compared (a submission is a few KiB; a
/// megabyte is generated or not code).
const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// How deep an archive folder is searched for files.
const ARCHIVE_DEPTH: usize = 8;

pub(crate) fn similar(args: SimilarArgs) -> anyhow::Result<u8> {
    let root = &args.submissions;
    if root.is_file() {
        bail!(
            "`{}` is a file, not a folder of submissions; `salgrade similar` compares the files of a folder (put the files to compare in one)",
            root.display()
        );
    }
    let assignments = course_assignments(&args, root)?;
    let format = similar_format_for(args.format, args.output.as_deref())?;
    let output = Output::open(args.output.as_deref())?;
    let mut notes = Vec::new();
    let mut sources = cohort(root, &assignments, &mut notes)?;
    let students = {
        let mut names: Vec<&str> = sources.iter().map(|s| s.owner.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        names.len()
    };
    if sources.is_empty() {
        bail!(
            "`{}` holds no Python or C++ file that could be read; nothing to compare",
            root.display()
        );
    }
    let mut archive_files = 0;
    for dir in &args.against {
        let found = archive(dir, &mut notes)?;
        archive_files += found.len();
        sources.extend(found);
    }
    let threads = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get));
    let analysis = similar::analyse(sources, &course(&assignments), threads);
    notes.extend(parse_notes(&analysis));
    for n in &notes {
        eprintln!("note: {n}");
    }
    let report = report_of(
        &analysis,
        &Listing {
            threshold: args.threshold,
            min_score: args.min_score,
            top: args.top,
        },
        &assignments,
        (students, archive_files),
        notes,
    );
    let bytes = match format {
        SimilarFormat::Table => crate::report::similarity::table(&report).into_bytes(),
        SimilarFormat::Csv => crate::report::similarity::csv(&report)?,
        SimilarFormat::Json => crate::report::similarity::json(&report)?,
        SimilarFormat::Html => crate::report::html::similarity::render(&report).into_bytes(),
    };
    output.write(&bytes)?;
    Ok(if report.flagged() > 0 {
        SOME_FAILED
    } else {
        SUCCESS
    })
}

/// The assignments the cohort may be: `--assignment`, else those its files
/// point to, else all (the comparison needs no more than their starter
/// code and entry points, so an unknown cohort is compared all the same).
fn course_assignments(
    args: &SimilarArgs,
    root: &Path,
) -> anyhow::Result<Vec<&'static dyn Assignment>> {
    if let Some(name) = &args.assignment {
        return Ok(vec![assignment::by_id(name)?]);
    }
    discover::check_root(root)?;
    let pointed = crate::infer::of_folder(root);
    let ids: Vec<&str> = pointed.by_assignment.keys().copied().collect();
    if ids.is_empty() {
        return Ok(assignment::ALL.to_vec());
    }
    ids.into_iter()
        .map(|id| assignment::by_id(id).map_err(Into::into))
        .collect()
}

/// The starter code the assignments ship (the course's files put beside a
/// submission) and the names a harness calls.
fn course(assignments: &[&'static dyn Assignment]) -> Course {
    let mut c = Course {
        entry_points: vec!["main".to_owned()],
        starter: Vec::new(),
    };
    for a in assignments {
        c.entry_points
            .extend(a.functions().iter().map(|f| (*f).to_owned()));
        c.entry_points.extend(
            a.call_aliases()
                .iter()
                .map(|(_, alias)| (*alias).to_owned()),
        );
        for &lang in a.languages() {
            if let Some(Harness::Python { support, .. }) = a.harness(lang) {
                for (name, text) in support {
                    // salgrade's own files are not the course's.
                    if !name.starts_with("_salgrade") {
                        c.starter.push((Language::Python, text.to_owned()));
                    }
                }
            }
        }
    }
    c
}

/// The names the assignments' files go by, in every language.
fn wanted_names(assignments: &[&'static dyn Assignment]) -> Vec<String> {
    let mut names = Vec::new();
    for a in assignments {
        for &lang in a.languages() {
            for n in crate::infer::student_names(*a, lang) {
                if !names.contains(&n) {
                    names.push(n);
                }
            }
        }
    }
    names
}

/// Every student's source files in `root`, each student's under one owner.
fn cohort(
    root: &Path,
    assignments: &[&'static dyn Assignment],
    notes: &mut Vec<String>,
) -> anyhow::Result<Vec<Source>> {
    let names = wanted_names(assignments);
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let extensions: Vec<&str> = [Language::Python, Language::Cpp]
        .iter()
        .flat_map(|l| l.extensions().iter().copied())
        .collect();
    let markers: Vec<String> = assignments
        .iter()
        .flat_map(|a| a.definition_markers())
        .collect();
    let found = discover::discover(
        root,
        &discover::Wanted {
            names: &names,
            extensions: &extensions,
            markers: &markers,
            kinds: "Python or C++",
            chosen: true,
        },
    )
    .map_err(|e| match e {
        discover::DiscoverError::Empty(p) => anyhow::anyhow!(
            "`{}` holds no submissions (no student folders and no .py or .cpp files)",
            p.display()
        ),
        e => e.into(),
    })?;
    for n in &found.notes {
        notes.push(n.clone());
    }
    let stems: Vec<String> = names
        .iter()
        .filter_map(|n| n.rsplit_once('.').map(|(s, _)| s.to_lowercase()))
        .collect();
    let mut sources = Vec::new();
    for sub in &found.submissions {
        let (owner, files) = files_of(root, sub, &stems);
        if files.is_empty() {
            let why = sub
                .problem
                .clone()
                .unwrap_or_else(|| "no Python or C++ file".to_owned());
            notes.push(format!("`{}`: nothing to compare: {why}", sub.student));
            continue;
        }
        for path in files {
            if let Some(text) = read_source(&path, notes) {
                let shown = path
                    .strip_prefix(root)
                    .unwrap_or(&path)
                    .display()
                    .to_string();
                let Some(language) = Language::of_file(&shown) else {
                    continue;
                };
                sources.push(Source {
                    owner: owner.clone(),
                    archive: false,
                    shown: crate::shown::one_line(&shown).into_owned(),
                    language,
                    text,
                });
            }
        }
    }
    Ok(sources)
}

/// A student's files: every source file in their folder (drafts, helpers,
/// versions), or their one flat file; and the owner they count under (a
/// Canvas download's resubmissions, `alice_solution.py` and
/// `alice_solution-1.py`, are one student's).
fn files_of(root: &Path, sub: &Submission, stems: &[String]) -> (String, Vec<PathBuf>) {
    let folder = match &sub.file {
        Some(file) => {
            let first = file
                .strip_prefix(root)
                .ok()
                .and_then(|rel| rel.components().next())
                .map(|c| root.join(c.as_os_str()));
            match first {
                Some(top) if top.is_dir() && !top.is_symlink() => Some(top),
                _ => {
                    let owner = canvas_owner(file, stems).unwrap_or_else(|| sub.student.clone());
                    return (owner, vec![file.clone()]);
                }
            }
        }
        None => {
            let top = root.join(&sub.student);
            (sub.problem
                .as_deref()
                .is_none_or(|p| !p.contains("symbolic link"))
                && top.is_dir()
                && !top.is_symlink())
            .then_some(top)
        }
    };
    let Some(folder) = folder else {
        return (sub.student.clone(), Vec::new());
    };
    let files = walkdir::WalkDir::new(&folder)
        .max_depth(MAX_FOLDERS_DOWN + 1)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !discover::hidden(&e.file_name().to_string_lossy()))
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .filter(|e| Language::of_file(&e.file_name().to_string_lossy()).is_some())
        .map(walkdir::DirEntry::into_path)
        .collect();
    (sub.student.clone(), files)
}

/// The student a Canvas download's file name gives
/// (`smithbob_123_456_solution-1.py` is `smithbob`), if it is one.
fn canvas_owner(file: &Path, stems: &[String]) -> Option<String> {
    let name = file.file_stem()?.to_string_lossy();
    let (student, rest) = name.split_once('_')?;
    let rest = rest.to_lowercase();
    let rest = match rest.rsplit_once('-') {
        Some((head, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => head,
        _ => rest.as_str(),
    };
    let named = stems
        .iter()
        .any(|w| rest == *w || rest.ends_with(&format!("_{w}")));
    (named && !student.is_empty())
        .then(|| crate::shown::one_line(&student.nfc().collect::<String>()).into_owned())
}

/// A file's text, or a note saying why it is left out.
fn read_source(path: &Path, notes: &mut Vec<String>) -> Option<String> {
    let shown = crate::shown::one_line(&path.display().to_string()).into_owned();
    match std::fs::metadata(path) {
        Ok(m) if m.len() > MAX_FILE_BYTES => {
            notes.push(format!(
                "`{shown}` is left out: {} bytes, more than the {MAX_FILE_BYTES} compared",
                m.len()
            ));
            return None;
        }
        Err(e) => {
            notes.push(format!("`{shown}` is left out: cannot read it: {e}"));
            return None;
        }
        Ok(_) => {}
    }
    match std::fs::read(path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => Some(text),
            Err(e) => {
                notes.push(format!(
                    "`{shown}` is not UTF-8; compared with the bad bytes replaced"
                ));
                Some(String::from_utf8_lossy(e.as_bytes()).into_owned())
            }
        },
        Err(e) => {
            notes.push(format!("`{shown}` is left out: cannot read it: {e}"));
            None
        }
    }
}

/// Every source file under an archive folder (or the one file given), each
/// its own owner, named by its path from the folder's parent
/// (`public/leetcode-editorial.py`).
fn archive(dir: &Path, notes: &mut Vec<String>) -> anyhow::Result<Vec<Source>> {
    if !dir.exists() {
        bail!("`--against {}`: no such folder", dir.display());
    }
    let base = dir.parent().unwrap_or(Path::new(""));
    let mut out = Vec::new();
    for e in walkdir::WalkDir::new(dir)
        .max_depth(ARCHIVE_DEPTH)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !discover::hidden(&e.file_name().to_string_lossy()))
    {
        let e = e.with_context(|| format!("cannot read the archive `{}`", dir.display()))?;
        if !e.file_type().is_file() {
            continue;
        }
        let Some(language) = Language::of_file(&e.file_name().to_string_lossy()) else {
            continue;
        };
        let Some(text) = read_source(e.path(), notes) else {
            continue;
        };
        let shown = e
            .path()
            .strip_prefix(base)
            .unwrap_or(e.path())
            .display()
            .to_string();
        let shown = crate::shown::one_line(&shown).into_owned();
        out.push(Source {
            owner: shown.clone(),
            archive: true,
            shown,
            language,
            text,
        });
    }
    if out.is_empty() {
        bail!(
            "`--against {}` holds no Python or C++ file to compare with",
            dir.display()
        );
    }
    Ok(out)
}

/// A note for each file with syntax errors, and each with nothing to
/// compare.
fn parse_notes(a: &Analysis) -> Vec<String> {
    let mut out = Vec::new();
    for d in &a.documents {
        if d.errors > 0 {
            out.push(format!(
                "`{}` does not parse as {} ({} syntax error(s), the first on line {}); compared on what does",
                d.source.shown,
                d.source.language.name(),
                d.errors,
                d.first_error_line.unwrap_or(1)
            ));
        } else if d.set.is_empty() {
            out.push(format!(
                "`{}` has no code beyond the starter code to compare",
                d.source.shown
            ));
        }
    }
    out
}

/// What a report lists: `--threshold` (else the cohort's), `--min-score`
/// and `--top`.
struct Listing {
    threshold: Option<f64>,
    min_score: f64,
    top: usize,
}

/// The similarity section of `grade`'s HTML report: the graded files of
/// `subs` (one a student; those with none, or none that can be read, are
/// left out) compared as `salgrade similar` compares a cohort, the
/// threshold from the cohort. `None` for fewer than two students with a
/// file.
pub(crate) fn of_graded(
    root: &Path,
    subs: &[Submission],
    assignment: &'static dyn Assignment,
    threads: usize,
) -> Option<Similarity> {
    let mut notes = Vec::new();
    let mut sources = Vec::new();
    for sub in subs {
        let Some(path) = &sub.file else { continue };
        let Some(text) = read_source(path, &mut notes) else {
            continue;
        };
        let shown = path
            .strip_prefix(root)
            .unwrap_or(path)
            .display()
            .to_string();
        let Some(language) = Language::of_file(&shown) else {
            continue;
        };
        sources.push(Source {
            owner: sub.student.clone(),
            archive: false,
            shown: crate::shown::one_line(&shown).into_owned(),
            language,
            text,
        });
    }
    let students = sources.len();
    if students < 2 {
        return None;
    }
    let assignments = [assignment];
    let analysis = similar::analyse(sources, &course(&assignments), threads);
    notes.extend(parse_notes(&analysis));
    Some(report_of(
        &analysis,
        &Listing {
            threshold: None,
            min_score: 0.2,
            top: 10,
        },
        &assignments,
        (students, 0),
        notes,
    ))
}

/// The report: every pair at or above `--min-score`, ranked, the
/// threshold chosen, the flagged pairs with their fragments side by side.
fn report_of(
    a: &Analysis,
    args: &Listing,
    assignments: &[&'static dyn Assignment],
    (students, archive_files): (usize, usize),
    notes: Vec<String>,
) -> Similarity {
    // Each student's best score against another student.
    let mut best: BTreeMap<&str, f64> = a
        .documents
        .iter()
        .filter(|d| !d.source.archive)
        .map(|d| (d.source.owner.as_str(), 0.0))
        .collect();
    for f in &a.findings {
        if a.documents[f.b].source.archive {
            continue;
        }
        for doc in [f.a, f.b] {
            let slot = best.entry(a.owner_name(doc)).or_insert(0.0);
            *slot = slot.max(f.score);
        }
    }
    let best: Vec<f64> = best.into_values().collect();
    let threshold = match args.threshold {
        Some(t) => threshold::given(t),
        None => threshold::from_cohort(&best),
    };
    let mut pairs = Vec::new();
    for f in a.findings.iter().filter(|f| f.score >= args.min_score) {
        let (da, db) = (&a.documents[f.a], &a.documents[f.b]);
        let flagged = f.score > threshold.value;
        let lines = |g: &similar::Fragment| FragmentLines {
            a: g.a,
            b: g.b,
            lines: g.lines(),
        };
        let side_by_side = flagged.then(|| SideBySide {
            text_a: da.source.text.clone(),
            text_b: db.source.text.clone(),
            fragments: a.fragments(f.a, f.b).iter().map(lines).collect(),
        });
        pairs.push(PairRow {
            rank: pairs.len() + 1,
            student_a: a.owner_name(f.a).to_owned(),
            student_b: a.owner_name(f.b).to_owned(),
            kind: if db.source.archive {
                PairKind::Archive
            } else {
                PairKind::Student
            },
            score: (f.score * 10_000.0).round() / 10_000.0,
            flagged,
            file_a: da.source.shown.clone(),
            file_b: db.source.shown.clone(),
            longest_fragment: a.longest(f.a, f.b).as_ref().map(lines),
            side_by_side,
        });
    }
    Similarity {
        salgrade_version: env!("CARGO_PKG_VERSION").to_owned(),
        assignment: match assignments {
            [one] => Some(one.id().to_owned()),
            _ => None,
        },
        students,
        archive_files,
        threshold,
        pairs,
        notes,
        top: args.top,
    }
}
