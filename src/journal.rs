//! The journal: every finished student is appended (and flushed to disk) to
//! `journal.jsonl` in the output folder the moment it completes, so a crash
//! or Ctrl-C loses nothing. `--resume` reads it back and grades only who is
//! missing. The first line fingerprints the run's settings (seed, options,
//! cases, rubric, limits, salgrade's version); a journal from different
//! settings is refused rather than mixed in, naming which differ. Each entry carries a hash of what was graded (the
//! file's bytes, or why there was none), so a submission that changed on
//! disk since it was journalled is graded again rather than kept.
//!
//! Format (version 2): the header line is JSON; every entry line is
//! `CHECKSUM JSON`, where `CHECKSUM` is [`crate::fingerprint`] of the run's
//! fingerprint and the JSON's bytes exactly as written (16 hex digits). On
//! `--resume` a line whose checksum does not match (edited, or from another
//! run), that is not JSON, or whose scores its own cases do not add up to
//! (checked by the caller, see [`split`]) is dropped, said with its line
//! number and the reason, and that student is graded again: a journal is
//! never trusted further than it proves. A torn last line (a kill in the
//! middle of a write) is said too. A file that is not a salgrade journal
//! is never overwritten.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read as _, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};

use crate::fingerprint::fingerprint;
use crate::report::StudentReport;

#[derive(Serialize, Deserialize)]
struct Header {
    salgrade_journal: u32,
    fingerprint: String,
    /// Each setting's own fingerprint (the version as it is), so a journal
    /// of other settings can say which differ. Journals written before
    /// have none.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    settings: BTreeMap<String, String>,
}

/// What a run's results depend on: one fingerprint of it all, which every
/// entry's checksum is made with, and each setting's own (`cases`,
/// `rubric`, `limits`, and `version` as it is), to name what differs.
#[derive(Debug, Clone)]
pub(crate) struct RunSettings {
    pub whole: String,
    pub parts: BTreeMap<String, String>,
}

/// A setting of [`RunSettings::parts`] in words, for a journal that differs.
fn setting_words(key: &str) -> &str {
    match key {
        "seed" => "seed (`--seed` or `--seed-file`)",
        "options" => "assignment options (`--option`)",
        "cases" => "cases (`--cases`, or the case file)",
        "rubric" => "rubric",
        "limits" => {
            "limits (`--timeout-floor-ms`, `--timeout-multiplier`, `--wall-floor-ms`, `--memory-mb`, `--cpu-seconds`, `--file-size-mb` or `--output-cap`)"
        }
        "version" => "salgrade version",
        other => other,
    }
}

/// Why a journal's header does not fit `now`, naming each setting that
/// differs where the header says them.
fn differences(header: &Header, now: &RunSettings) -> String {
    if header.salgrade_journal != VERSION {
        return format!(
            "it is in journal format {} (this salgrade writes format {VERSION})",
            header.salgrade_journal
        );
    }
    if header.settings.is_empty() {
        return "it was written with other settings (cases, rubric, limits or salgrade version)"
            .to_owned();
    }
    // A setting the header does not say (a journal of an earlier salgrade)
    // is not named; other cases follow from another seed or other options,
    // so they are named only when those are the same.
    let differs = |k: &str| {
        header
            .settings
            .get(k)
            .is_some_and(|then| now.parts.get(k) != Some(then))
    };
    let cause_of_cases = differs("seed") || differs("options");
    let differ: Vec<String> = now
        .parts
        .iter()
        .filter(|(k, _)| differs(k) && !(k.as_str() == "cases" && cause_of_cases))
        .map(|(k, v)| match (k.as_str(), header.settings.get(k)) {
            ("version", Some(then)) => format!("salgrade version ({then} then, {v} now)"),
            _ => setting_words(k).to_owned(),
        })
        .collect();
    if differ.is_empty() {
        return "it was written with other settings".to_owned();
    }
    format!(
        "it differs from this run in its {}",
        crate::words::and_list(&differ)
    )
}

/// The journal format this salgrade writes and reads.
const VERSION: u32 = 2;

pub(crate) struct Journal {
    file: File,
    path: PathBuf,
    fingerprint: String,
}

/// What `--resume` read from a journal: the entries it proved, and a line
/// for each it dropped (with its line number and why).
pub(crate) struct Read {
    pub entries: BTreeMap<String, Entry>,
    pub dropped: Vec<String>,
}

/// One journalled student: the result and the hash of what was graded.
#[derive(Serialize, Deserialize)]
pub(crate) struct Entry {
    #[serde(default)]
    pub submission_hash: String,
    #[serde(flatten)]
    pub report: StudentReport,
}

/// The journal's file in `dir`.
pub(crate) fn path_in(dir: &Path) -> PathBuf {
    dir.join("journal.jsonl")
}

/// The hash of what grading `sub` reads: the file's bytes and its
/// siblings' (names and bytes), or the reason there is no file. An
/// unreadable file hashes its error, so it is graded again (and fails
/// there with the full message).
pub(crate) fn submission_hash(sub: &crate::discover::Submission) -> String {
    match (&sub.file, &sub.problem) {
        (Some(file), None) => match std::fs::read(file) {
            Ok(bytes) if sub.siblings.is_empty() => fingerprint(&[b"file", &bytes]),
            Ok(bytes) => {
                let mut parts: Vec<Vec<u8>> = vec![b"file".to_vec(), bytes];
                for sibling in &sub.siblings {
                    parts.push(sibling.path.to_string_lossy().into_owned().into_bytes());
                    parts.push(std::fs::read(&sibling.path).unwrap_or_default());
                    // A Canvas upload is given under the name its student
                    // chose, which its path does not hold.
                    if sibling.path.file_name() != Some(std::ffi::OsStr::new(&sibling.name)) {
                        parts.push(sibling.name.clone().into_bytes());
                    }
                }
                let parts: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
                fingerprint(&parts)
            }
            Err(e) => fingerprint(&[b"unreadable", e.to_string().as_bytes()]),
        },
        (_, problem) => fingerprint(&[b"problem", problem.as_deref().unwrap_or("").as_bytes()]),
    }
}

/// The checksum of an entry's JSON in the run fingerprinted `fingerprint`.
fn checksum(fingerprint: &str, json: &[u8]) -> String {
    crate::fingerprint::fingerprint(&[b"entry", fingerprint.as_bytes(), json])
}

/// Reads a journal's header, refusing a file that is not a salgrade journal
/// (random bytes, another program's file) rather than overwrite it.
fn header_of(path: &Path) -> anyhow::Result<Option<Header>> {
    let f = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(e).with_context(|| format!("cannot read journal `{}`", path.display()));
        }
    };
    let mut first = Vec::new();
    BufReader::new(f)
        .take(64 * 1024)
        .read_until(b'\n', &mut first)
        .with_context(|| format!("cannot read journal `{}`", path.display()))?;
    if first.is_empty() {
        return Ok(None);
    }
    match serde_json::from_slice::<Header>(&first) {
        Ok(h) => Ok(Some(h)),
        Err(_) => bail!(
            "`{}` is not a salgrade journal (its first line is not a journal header), so it is left as it is; move it away, or pass another `--out-dir`",
            path.display()
        ),
    }
}

impl Journal {
    /// Opens the journal in `dir`. Without `resume` an existing journal is
    /// replaced; with it, the entries that prove themselves are returned
    /// and kept, and the others named.
    pub(crate) fn open(
        dir: &Path,
        settings: &RunSettings,
        resume: bool,
    ) -> anyhow::Result<(Journal, Read)> {
        let fingerprint = settings.whole.as_str();
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create output folder `{}`", dir.display()))?;
        let path = path_in(dir);
        let mut read = Read {
            entries: BTreeMap::new(),
            dropped: Vec::new(),
        };
        let header = header_of(&path)?;
        let Some(header) = header.filter(|_| resume) else {
            return Ok((Journal::create(&path, settings)?, read));
        };
        if header.salgrade_journal != VERSION || header.fingerprint != fingerprint {
            bail!(
                "journal `{}` cannot be resumed by this run: {}; rerun with the settings it was written with to resume it, or without `--resume` to start over",
                path.display(),
                differences(&header, settings)
            );
        }
        let bytes = std::fs::read(&path)
            .with_context(|| format!("cannot read journal `{}`", path.display()))?;
        let complete = bytes.ends_with(b"\n");
        let lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
        let last = lines.len().saturating_sub(usize::from(complete) + 1);
        for (i, line) in lines.iter().enumerate().skip(1) {
            if line.is_empty() {
                continue;
            }
            let number = i + 1;
            if i == last && !complete {
                let who = student_in(line)
                    .map(|s| format!(" (student `{s}`, graded again)"))
                    .unwrap_or_default();
                read.dropped.push(format!(
                    "journal line {number}: cut short (a run stopped in the middle of writing it){who}"
                ));
                continue;
            }
            match entry_of(fingerprint, line) {
                Ok(e) => {
                    read.entries.insert(e.report.student.clone(), e);
                }
                Err(why) => read.dropped.push(format!("journal line {number}: {why}")),
            }
        }
        // Rewrite the kept entries so a dropped line does not linger.
        let mut j = Journal::create(&path, settings)?;
        for e in read.entries.values() {
            j.append(&e.report, &e.submission_hash)?;
        }
        Ok((j, read))
    }

    fn create(path: &Path, settings: &RunSettings) -> anyhow::Result<Journal> {
        let fingerprint = settings.whole.as_str();
        let tmp = path.with_extension("jsonl.tmp");
        {
            let mut f = File::create(&tmp)
                .with_context(|| format!("cannot write journal `{}`", tmp.display()))?;
            let header = Header {
                salgrade_journal: VERSION,
                fingerprint: fingerprint.to_owned(),
                settings: settings.parts.clone(),
            };
            writeln!(f, "{}", serde_json::to_string(&header)?)?;
            f.sync_all()?;
        }
        std::fs::rename(&tmp, path)
            .with_context(|| format!("cannot write journal `{}`", path.display()))?;
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .with_context(|| format!("cannot open journal `{}`", path.display()))?;
        Ok(Journal {
            file,
            path: path.to_owned(),
            fingerprint: fingerprint.to_owned(),
        })
    }

    pub(crate) fn append(&mut self, s: &StudentReport, hash: &str) -> anyhow::Result<()> {
        #[derive(Serialize)]
        struct EntryRef<'a> {
            submission_hash: &'a str,
            #[serde(flatten)]
            report: &'a StudentReport,
        }
        let json = serde_json::to_vec(&EntryRef {
            submission_hash: hash,
            report: s,
        })?;
        let mut line = checksum(&self.fingerprint, &json).into_bytes();
        line.push(b' ');
        line.extend_from_slice(&json);
        line.push(b'\n');
        self.file
            .write_all(&line)
            .with_context(|| format!("cannot append to journal `{}`", self.path.display()))?;
        self.file
            .sync_data()
            .with_context(|| format!("cannot sync journal `{}`", self.path.display()))?;
        Ok(())
    }
}

/// The student a (possibly cut-short) entry line names, if its `student`
/// field was written whole.
fn student_in(line: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(line);
    let key = "\"student\":";
    let rest = text[text.find(key)? + key.len()..].trim_start();
    let mut de = serde_json::Deserializer::from_str(rest).into_iter::<String>();
    let student = de.next()?.ok()?;
    Some(crate::shown::one_line(&student).into_owned())
}

/// Whether `sum` has the form of a checksum (16 hex digits).
fn is_checksum(sum: &[u8]) -> bool {
    sum.len() == 16 && sum.iter().all(u8::is_ascii_hexdigit)
}

/// One entry line, checked against its checksum.
fn entry_of(fingerprint: &str, line: &[u8]) -> Result<Entry, String> {
    let split = line
        .iter()
        .position(|&b| b == b' ')
        .map(|at| (&line[..at], &line[at + 1..]))
        .filter(|(sum, _)| is_checksum(sum));
    let Some((sum, json)) = split else {
        return Err(
            if serde_json::from_slice::<serde_json::Value>(line).is_ok() {
                "no checksum (not written by this salgrade)".to_owned()
            } else {
                "it is not JSON, nor a checksum and JSON (not written by salgrade, or damaged)"
                    .to_owned()
            },
        );
    };
    if serde_json::from_slice::<serde_json::Value>(json).is_err() {
        return Err("its content is not JSON (damaged)".to_owned());
    }
    let entry = serde_json::from_slice::<Entry>(json);
    let who = entry
        .as_ref()
        .map(|e| format!(" (student `{}`)", e.report.student))
        .unwrap_or_default();
    if sum != checksum(fingerprint, json).as_bytes() {
        return Err(format!(
            "its checksum does not match its content{who}: it was edited, or written by another run"
        ));
    }
    entry.map_err(|e| format!("not a journal entry ({e})"))
}

/// Journalled students sorted for `--resume`.
pub(crate) struct Resumed {
    /// Students whose submission is what was journalled: kept as they are.
    pub kept: BTreeMap<String, StudentReport>,
    /// Students whose submission changed on disk since: graded again.
    pub changed: Vec<String>,
    /// Entries whose scores their own cases do not add up to, with why:
    /// graded again.
    pub dropped: Vec<String>,
}

/// Keeps a journalled result only where the submission's current hash (in
/// `current`) is the one it was graded with and `adds_up` finds its scores
/// are what its cases earn; students no longer in the folder are dropped.
pub(crate) fn split(
    journalled: BTreeMap<String, Entry>,
    current: &BTreeMap<&str, String>,
    adds_up: impl Fn(&StudentReport) -> Result<(), String>,
) -> Resumed {
    let mut kept = BTreeMap::new();
    let mut changed = Vec::new();
    let mut dropped = Vec::new();
    for (student, entry) in journalled {
        match current.get(student.as_str()) {
            Some(hash) if *hash == entry.submission_hash => match adds_up(&entry.report) {
                Ok(()) => {
                    kept.insert(student, entry.report);
                }
                Err(why) => dropped.push(format!("journal entry of `{student}`: {why}")),
            },
            Some(_) => changed.push(student),
            None => {}
        }
    }
    Resumed {
        kept,
        changed,
        dropped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Settings fingerprinted `whole`, with no parts.
    fn plain(whole: &str) -> RunSettings {
        RunSettings {
            whole: whole.to_owned(),
            parts: BTreeMap::new(),
        }
    }

    fn settings(seed: &str, cases: &str, limits: &str, version: &str) -> RunSettings {
        let parts: BTreeMap<String, String> = [
            ("seed", seed),
            ("options", "o"),
            ("cases", cases),
            ("rubric", "r"),
            ("limits", limits),
            ("version", version),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
        RunSettings {
            whole: format!("{seed}{cases}{limits}{version}"),
            parts,
        }
    }

    #[test]
    fn a_journal_of_other_settings_names_the_ones_that_differ() {
        let dir = tempfile::tempdir().unwrap();
        let refused = |now: &RunSettings| {
            Journal::open(dir.path(), now, true)
                .err()
                .unwrap()
                .to_string()
        };
        drop(Journal::open(dir.path(), &settings("s1", "c1", "l1", "0.1.0"), false).unwrap());
        let e = refused(&settings("s1", "c2", "l1", "0.1.0"));
        assert!(
            e.contains("in its cases (`--cases`, or the case file); rerun")
                && !e.contains("rubric"),
            "{e}"
        );
        // Another seed makes other cases: the seed is named, not `--cases`.
        let e = refused(&settings("s2", "c2", "l1", "0.1.0"));
        assert!(
            e.contains("in its seed (`--seed` or `--seed-file`); rerun"),
            "{e}"
        );
        let e = refused(&settings("s1", "c1", "l2", "0.2.0"));
        assert!(
            e.contains("in its limits (")
                && e.contains(" and salgrade version (0.1.0 then, 0.2.0 now); rerun"),
            "{e}"
        );
        // The same settings resume.
        assert!(Journal::open(dir.path(), &settings("s1", "c1", "l1", "0.1.0"), true).is_ok());
    }

    #[test]
    fn lines_without_a_valid_checksum_or_cut_short_are_named() {
        let dir = tempfile::tempdir().unwrap();
        drop(Journal::open(dir.path(), &plain("fp"), false).unwrap());
        let path = path_in(dir.path());
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("{\"student\":\"x\"}\n0123456789abcdef {\"student\":\"y\"}\n{\"stud");
        std::fs::write(&path, text).unwrap();
        let (_, read) = Journal::open(dir.path(), &plain("fp"), true).unwrap();
        assert!(read.entries.is_empty());
        assert_eq!(read.dropped.len(), 3, "{:?}", read.dropped);
        assert!(read.dropped[0].starts_with("journal line 2: no checksum"));
        assert!(read.dropped[1].contains("checksum does not match"));
        assert!(read.dropped[2].starts_with("journal line 4: cut short"));
        // Not JSON at all is said so, not blamed on the checksum; a line cut
        // short after its student names the student.
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("{not json at all\n0123456789abcdef {\"submission_hash\":\"1\",\"student\":\"bob\",\"sc");
        std::fs::write(&path, text).unwrap();
        let (_, read) = Journal::open(dir.path(), &plain("fp"), true).unwrap();
        assert_eq!(read.dropped.len(), 2, "{:?}", read.dropped);
        assert!(
            read.dropped[0].contains("it is not JSON"),
            "{:?}",
            read.dropped
        );
        assert!(
            read.dropped[1].contains("cut short") && read.dropped[1].contains("student `bob`"),
            "{:?}",
            read.dropped
        );
    }
}
