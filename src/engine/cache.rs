//! Calibration kept between runs: what the model and the naive solution
//! measured on each case, so that a later run on the same cases, with the
//! same salgrade, interpreter (or compiler), sandbox and machine, skips
//! running them again. A student's `check` then pays only for itself.
//!
//! A kept measurement is checked before it is used (`prepare`): the naive
//! solution runs again on a few of the cases whose deadlines it decides,
//! and if the machine is slower now, every kept time is scaled up to
//! match, so no deadline is shorter than a fresh calibration would give.
//! An entry is used only if it names exactly this run's key (every part
//! of it, not a hash) and is owned by salgrade's user and writable by no
//! one else; anything else is calibrated afresh and written again, whole
//! or not at all (a temporary file renamed into place).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::assignment::Assignment;
use crate::runner::toolchain::{file_identity, only_ours};
use crate::runner::{Language, RunnerConfig};
use salgrade_reference::CaseFile;

/// What one calibration run measured on one case.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Measured {
    pub cpu: Duration,
    pub wall: Duration,
}

/// Everything a calibration's measurements depend on, in words: two runs
/// whose keys are equal would measure the same.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Key(String);

impl Key {
    /// The key of calibrating `language` on `cases` under `runner`.
    pub(crate) fn of(
        assignment: &dyn Assignment,
        cases: &CaseFile,
        language: Language,
        runner: &RunnerConfig,
    ) -> Key {
        let mut k = String::new();
        let _ = writeln!(
            k,
            "salgrade {} {}",
            env!("CARGO_PKG_VERSION"),
            file_identity(&std::env::current_exe().unwrap_or_default())
        );
        let _ = writeln!(k, "assignment {} {}", assignment.id(), language.name());
        let _ = writeln!(
            k,
            "cases {}",
            crate::fingerprint::fingerprint(&[&serde_json::to_vec(cases).unwrap_or_default()])
        );
        match language {
            Language::Python => {
                let p = &runner.python;
                let _ = writeln!(
                    k,
                    "python {} {} {}",
                    p.executable.display(),
                    p.version,
                    file_identity(&p.executable)
                );
            }
            Language::Cpp => {
                if let Some(c) = &runner.cxx {
                    let _ = writeln!(
                        k,
                        "cxx {} {} {}",
                        c.executable.display(),
                        c.version,
                        file_identity(&c.executable)
                    );
                }
            }
        }
        let _ = writeln!(k, "sandbox {}", runner.protections());
        let _ = writeln!(k, "limits {:?}", runner.limits);
        // Whatever else decides whether the model's calibration succeeds:
        // a cached entry must never hide an import deadline too short for
        // the model, or a build that would now fail.
        let _ = writeln!(
            k,
            "import {:?}, output {} bytes, build {:?}, budget {:?}, unprivileged {} {}",
            runner.import_timeout,
            runner.output_cap,
            runner.build,
            runner.budget,
            runner.drop_privileges,
            runner.drop_compiled
        );
        let _ = writeln!(k, "machine {}", machine());
        Key(k)
    }

    /// The entry's file in `dir`.
    fn file(&self, dir: &Path) -> PathBuf {
        let name = crate::fingerprint::fingerprint(&[self.0.as_bytes()]);
        dir.join(format!("{name}.json"))
    }
}

/// The processor's model and count, and the kernel: what else decides how
/// long the same work takes.
fn machine() -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find_map(|l| l.strip_prefix("model name"))
                .map(|l| l.trim_start_matches([' ', '\t', ':']).to_owned())
        })
        .unwrap_or_else(|| "unknown processor".to_owned());
    let cpus = std::thread::available_parallelism().map_or(0, usize::from);
    let kernel = nix::sys::utsname::uname()
        .map(|u| u.release().to_string_lossy().into_owned())
        .unwrap_or_default();
    format!("{model}, {cpus} processors, kernel {kernel}")
}

/// One entry as written.
#[derive(Serialize, Deserialize)]
struct Entry {
    key: String,
    /// Per case: (CPU, wall) microseconds.
    model: Vec<(u64, u64)>,
    naive: Vec<(u64, u64)>,
}

fn pairs(m: &[Measured]) -> Vec<(u64, u64)> {
    m.iter()
        .map(|m| (m.cpu.as_micros() as u64, m.wall.as_micros() as u64))
        .collect()
}

fn measures(p: &[(u64, u64)]) -> Vec<Measured> {
    p.iter()
        .map(|&(cpu, wall)| Measured {
            cpu: Duration::from_micros(cpu),
            wall: Duration::from_micros(wall),
        })
        .collect()
}

/// The model's and the naive solution's measurements for `key` from
/// `dir`; `None` unless a whole, trustworthy entry for exactly this key,
/// of `cases` cases, is there.
pub(crate) fn load(dir: &Path, key: &Key, cases: usize) -> Option<(Vec<Measured>, Vec<Measured>)> {
    let file = key.file(dir);
    if !only_ours(dir) || !only_ours(&file) {
        return None;
    }
    let entry: Entry = serde_json::from_slice(&std::fs::read(&file).ok()?).ok()?;
    (entry.key == key.0 && entry.model.len() == cases && entry.naive.len() == cases)
        .then(|| (measures(&entry.model), measures(&entry.naive)))
}

/// Keeps a fresh calibration's measurements for `key` in `dir`. A failure
/// to write costs the next run a calibration, nothing else.
pub(crate) fn store(dir: &Path, key: &Key, model: &[Measured], naive: &[Measured]) {
    use std::io::Write as _;
    let entry = Entry {
        key: key.0.clone(),
        model: pairs(model),
        naive: pairs(naive),
    };
    let Ok(bytes) = serde_json::to_vec(&entry) else {
        return;
    };
    if std::fs::create_dir_all(dir).is_err() || !only_ours(dir) {
        return;
    }
    let Ok(mut tmp) = tempfile::NamedTempFile::new_in(dir) else {
        return;
    };
    if tmp
        .write_all(&bytes)
        .and_then(|()| tmp.as_file().sync_all())
        .is_ok()
    {
        let _ = tmp.persist(key.file(dir));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn m(cpu: u64, wall: u64) -> Measured {
        Measured {
            cpu: Duration::from_millis(cpu),
            wall: Duration::from_millis(wall),
        }
    }

    #[test]
    fn an_entry_comes_back_only_for_its_own_key_and_size() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path().join("calibration");
        let key = Key("a key\n".to_owned());
        store(&dir, &key, &[m(1, 2), m(3, 4)], &[m(5, 6), m(7, 8)]);
        let (model, naive) = load(&dir, &key, 2).unwrap();
        assert_eq!(model[1].cpu, Duration::from_millis(3));
        assert_eq!(naive[0].wall, Duration::from_millis(6));
        assert!(load(&dir, &key, 3).is_none());
        assert!(load(&dir, &Key("another\n".to_owned()), 2).is_none());
    }

    #[test]
    fn an_entry_others_could_write_is_not_used() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let key = Key("k".to_owned());
        store(dir.path(), &key, &[m(1, 1)], &[m(1, 1)]);
        assert!(load(dir.path(), &key, 1).is_some());
        let file = key.file(dir.path());
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o666)).unwrap();
        assert!(load(dir.path(), &key, 1).is_none());
        std::fs::write(&file, b"{not json").unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert!(load(dir.path(), &key, 1).is_none());
    }
}
