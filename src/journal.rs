//! The journal: every finished student is appended (and flushed to disk) to
//! `journal.jsonl` in the output folder the moment it completes, so a crash
//! or Ctrl-C loses nothing. `--resume` reads it back and grades only who is
//! missing. The first line fingerprints the run's settings (cases, rubric,
//! limits, salgrade's version); a journal from different settings is refused
//! rather than mixed in. Each entry carries a hash of what was graded (the
//! file's bytes, or why there was none), so a submission that changed on
//! disk since it was journalled is graded again rather than kept.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};

use crate::report::StudentReport;

#[derive(Serialize, Deserialize)]
struct Header {
    salgrade_journal: u32,
    fingerprint: String,
}

pub(crate) struct Journal {
    file: File,
    path: PathBuf,
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

/// The hash of what grading `sub` reads: the file's bytes, or the reason
/// there is no file. An unreadable file hashes its error, so it is graded
/// again (and fails there with the full message).
pub(crate) fn submission_hash(sub: &crate::discover::Submission) -> String {
    match (&sub.file, &sub.problem) {
        (Some(file), None) => match std::fs::read(file) {
            Ok(bytes) => fingerprint(&[b"file", &bytes]),
            Err(e) => fingerprint(&[b"unreadable", e.to_string().as_bytes()]),
        },
        (_, problem) => fingerprint(&[b"problem", problem.as_deref().unwrap_or("").as_bytes()]),
    }
}

/// FNV-1a, 64 bits: stable across Rust versions, unlike `DefaultHasher`.
pub(crate) fn fingerprint(parts: &[&[u8]]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &b in *part {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        h ^= 0xff;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

impl Journal {
    /// Opens the journal in `dir`. Without `resume` an existing journal is
    /// replaced; with it, its students are returned and kept.
    pub(crate) fn open(
        dir: &Path,
        fingerprint: &str,
        resume: bool,
    ) -> anyhow::Result<(Journal, BTreeMap<String, Entry>)> {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create output folder `{}`", dir.display()))?;
        let path = path_in(dir);
        let mut done = BTreeMap::new();
        if resume && path.exists() {
            let f = File::open(&path)
                .with_context(|| format!("cannot read journal `{}`", path.display()))?;
            let mut lines = BufReader::new(f).lines();
            let header: Header = match lines.next() {
                Some(Ok(l)) => serde_json::from_str(&l)
                    .with_context(|| format!("journal `{}` has no valid header", path.display()))?,
                _ => Header {
                    salgrade_journal: 1,
                    fingerprint: fingerprint.to_owned(),
                },
            };
            if header.fingerprint != fingerprint {
                bail!(
                    "journal `{}` was written with other settings (cases, rubric or limits); rerun without `--resume` to start over",
                    path.display()
                );
            }
            for line in lines {
                let Ok(line) = line else { break };
                // A line cut short by a kill is simply graded again.
                if let Ok(e) = serde_json::from_str::<Entry>(&line) {
                    done.insert(e.report.student.clone(), e);
                }
            }
            // Rewrite the kept entries so a torn last line does not linger.
            let mut j = Journal::create(&path, fingerprint)?;
            for e in done.values() {
                j.append(&e.report, &e.submission_hash)?;
            }
            return Ok((j, done));
        }
        Ok((Journal::create(&path, fingerprint)?, done))
    }

    fn create(path: &Path, fingerprint: &str) -> anyhow::Result<Journal> {
        let tmp = path.with_extension("jsonl.tmp");
        {
            let mut f = File::create(&tmp)
                .with_context(|| format!("cannot write journal `{}`", tmp.display()))?;
            let header = Header {
                salgrade_journal: 1,
                fingerprint: fingerprint.to_owned(),
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
        })
    }

    pub(crate) fn append(&mut self, s: &StudentReport, hash: &str) -> anyhow::Result<()> {
        #[derive(Serialize)]
        struct EntryRef<'a> {
            submission_hash: &'a str,
            #[serde(flatten)]
            report: &'a StudentReport,
        }
        let mut line = serde_json::to_vec(&EntryRef {
            submission_hash: hash,
            report: s,
        })?;
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

/// Journalled students sorted for `--resume`.
pub(crate) struct Resumed {
    /// Students whose submission is what was journalled: kept as they are.
    pub kept: BTreeMap<String, StudentReport>,
    /// Students whose submission changed on disk since: graded again.
    pub changed: Vec<String>,
}

/// Keeps a journalled result only where the submission's current hash (in
/// `current`) is the one it was graded with; students no longer in the
/// folder are dropped.
pub(crate) fn split(
    journalled: BTreeMap<String, Entry>,
    current: &BTreeMap<&str, String>,
) -> Resumed {
    let mut kept = BTreeMap::new();
    let mut changed = Vec::new();
    for (student, entry) in journalled {
        match current.get(student.as_str()) {
            Some(hash) if *hash == entry.submission_hash => {
                kept.insert(student, entry.report);
            }
            Some(_) => changed.push(student),
            None => {}
        }
    }
    Resumed { kept, changed }
}
