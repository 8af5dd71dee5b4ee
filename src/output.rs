//! Output files that are replaced whole or not at all.
//!
//! An [`AtomicFile`] is created up front, as a temporary file in the target's
//! own folder: that proves the folder is writable before any grading starts,
//! and the user's existing file is not touched. Only [`AtomicFile::commit`]
//! renames the finished bytes into place (a rename within one folder is
//! atomic on POSIX filesystems). A run that fails, or is interrupted, drops
//! the temporary file and leaves the previous file exactly as it was.
//!
//! A signal (Ctrl-C, a CI cancel) ends the process without running drops:
//! the interrupt handler calls [`remove_unfinished`], which removes every
//! temporary file not yet committed, so none is left beside its target.
//!
//! A target that exists and is not a regular file (`/dev/null`,
//! `/dev/stdout`, a FIFO) is written in place instead: renaming a file onto
//! it would replace the device itself. A symbolic link to a regular file is
//! followed, and the file it names is the one replaced.
//!
//! This module owns writing result files; it must not decide what goes in
//! them.

use std::io::Write;
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

#[derive(Debug, thiserror::Error)]
pub(crate) enum OutputError {
    #[error("cannot write `{path}`")]
    Create {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot write `{path}`")]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("`{0}` is a folder, not a file")]
    IsFolder(PathBuf),
}

/// A file being written; the target is replaced only on [`commit`](Self::commit).
#[derive(Debug)]
pub(crate) struct AtomicFile {
    target: PathBuf,
    /// `None`: the target is not a regular file, and is written in place.
    tmp: Option<NamedTempFile>,
}

/// The temporary files of the [`AtomicFile`]s not yet committed or
/// dropped, for [`remove_unfinished`].
static UNFINISHED: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

fn unfinished() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    UNFINISHED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Removes every temporary file not yet committed: called as the process
/// ends on a signal, when no drop runs. Later commits of those files fail,
/// which is right: the process is ending.
pub(crate) fn remove_unfinished() {
    for path in unfinished().drain(..) {
        let _ = std::fs::remove_file(path);
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        // Committed (`tmp` taken) or not, the file is no longer pending; an
        // uncommitted one is removed by `NamedTempFile`'s own drop.
        if let Some(tmp) = &self.tmp {
            unfinished().retain(|p| p != tmp.path());
        }
    }
}

impl AtomicFile {
    /// Creates the temporary file beside `target`, failing at once if the
    /// folder is missing or not writable, or `target` is a folder.
    pub(crate) fn create(target: &Path) -> Result<AtomicFile, OutputError> {
        let mut target = target.to_owned();
        if let Ok(meta) = std::fs::metadata(&target) {
            if meta.is_dir() {
                return Err(OutputError::IsFolder(target));
            }
            if !meta.is_file() {
                return Ok(AtomicFile { target, tmp: None });
            }
            let link = std::fs::symlink_metadata(&target).is_ok_and(|m| m.is_symlink());
            if link {
                target = std::fs::canonicalize(&target).map_err(|source| OutputError::Create {
                    path: target.clone(),
                    source,
                })?;
            }
        }
        let target = target.as_path();
        let dir = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        remove_stale_temporaries(dir, &name);
        let tmp = tempfile::Builder::new()
            .prefix(&temporary_prefix(&name, std::process::id()))
            .suffix(".tmp")
            .tempfile_in(dir)
            .map_err(|source| OutputError::Create {
                path: target.to_owned(),
                source,
            })?;
        unfinished().push(tmp.path().to_owned());
        Ok(AtomicFile {
            target: target.to_owned(),
            tmp: Some(tmp),
        })
    }

    /// Writes `bytes`, syncs them, and renames the file into place (or
    /// writes them in place, when the target is not a regular file).
    pub(crate) fn commit(mut self, bytes: &[u8]) -> Result<(), OutputError> {
        let target = self.target.clone();
        let write_err = |source| OutputError::Write {
            path: target.clone(),
            source,
        };
        let Some(tmp) = self.tmp.take() else {
            let mut device = std::fs::OpenOptions::new()
                .write(true)
                .open(&self.target)
                .map_err(write_err)?;
            return device.write_all(bytes).map_err(write_err);
        };
        let pending = tmp.path().to_owned();
        let done = self.persist(tmp, bytes);
        unfinished().retain(|p| *p != pending);
        done
    }

    /// Writes `bytes` into `tmp`, syncs them, and renames it onto the target.
    fn persist(&self, mut tmp: NamedTempFile, bytes: &[u8]) -> Result<(), OutputError> {
        let write_err = |source| OutputError::Write {
            path: self.target.clone(),
            source,
        };
        tmp.write_all(bytes).map_err(write_err)?;
        tmp.as_file().sync_all().map_err(write_err)?;
        // A new file gets the permissions an ordinary `create` would give it
        // (the temporary file is 0600); an existing file keeps its own.
        let mode = match std::fs::metadata(&self.target) {
            Ok(m) => Some(m.permissions()),
            Err(_) => default_permissions(),
        };
        if let Some(mode) = mode {
            let _ = tmp.as_file().set_permissions(mode);
        }
        let target = self.target.clone();
        tmp.persist(&target).map_err(|e| OutputError::Write {
            path: target,
            source: e.error,
        })?;
        Ok(())
    }
}

/// 0666 less the process umask, as `File::create` would give. The umask is
/// read from `/proc/self/status`, because setting it to learn it would race
/// with the threads grading students.
fn default_permissions() -> Option<std::fs::Permissions> {
    use std::os::unix::fs::PermissionsExt;
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let umask = status
        .lines()
        .find_map(|l| l.strip_prefix("Umask:"))
        .and_then(|v| u32::from_str_radix(v.trim(), 8).ok())?;
    Some(std::fs::Permissions::from_mode(0o666 & !umask))
}

/// The start of a temporary file's name for `target_name`, written by the
/// process `pid`: the pid lets a later run tell a temporary left by a killed
/// run (SIGKILL drops no file) from one a running salgrade is writing.
fn temporary_prefix(target_name: &str, pid: u32) -> String {
    format!(".{target_name}.{pid}-")
}

/// Removes the temporary files for `target_name` in `dir` whose writer is
/// no longer running; anything else in the folder is left alone.
///
/// A name carries its writer's pid (`.grades.csv.<pid>-<random>.tmp`).
/// Builds before that wrote `.grades.csv.<six letters or digits>.tmp`,
/// whose writer cannot be told from the name: such a file is removed only
/// when it is empty (so nothing is lost; a killed run leaves it so, as it
/// writes only when it commits), this user owns it, and no process has it
/// open (a running writer holds its temporary file open until it commits).
fn remove_stale_temporaries(dir: &Path, target_name: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let start = format!(".{target_name}.");
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(rest) = name
            .strip_prefix(&start)
            .and_then(|rest| rest.strip_suffix(".tmp"))
        else {
            continue;
        };
        let Ok(meta) = e.metadata() else {
            continue;
        };
        if !meta.is_file() {
            continue;
        }
        let pid = rest
            .split_once('-')
            .and_then(|(pid, _)| pid.parse::<u32>().ok());
        let stale = match pid {
            Some(pid) => !Path::new("/proc").join(pid.to_string()).exists(),
            None => from_an_older_build(rest) && unused_and_ours(&e.path(), &meta),
        };
        if stale {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// Whether a temporary file's name between the target's and `.tmp` is the
/// six random letters and digits that builds without the pid wrote.
fn from_an_older_build(rest: &str) -> bool {
    rest.len() == 6 && rest.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// Whether the file at `path` is empty, owned by this user, and open in no
/// process. Only this user's processes can be seen (another user's
/// descriptors are not readable), which is why the file must be ours.
fn unused_and_ours(path: &Path, meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    if meta.len() != 0 || meta.uid() != nix::unistd::geteuid().as_raw() {
        return false;
    }
    let Ok(path) = path.canonicalize() else {
        return false;
    };
    let Ok(processes) = std::fs::read_dir("/proc") else {
        return false;
    };
    let held = processes
        .flatten()
        .filter(|p| {
            p.file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .filter_map(|p| std::fs::read_dir(p.path().join("fd")).ok())
        .flat_map(|fds| fds.flatten())
        .any(|fd| std::fs::read_link(fd.path()).is_ok_and(|target| target == path));
    !held
}

/// The file that marks a folder as salgrade's own output (`--out-dir`,
/// `--feedback`), so that grading a folder that holds one skips it rather
/// than grade it as a student.
pub(crate) const OUTPUT_MARKER: &str = ".salgrade-output";

/// Whether `dir` is a folder salgrade wrote (it holds [`OUTPUT_MARKER`]).
pub(crate) fn is_salgrade_output(dir: &Path) -> bool {
    std::fs::symlink_metadata(dir.join(OUTPUT_MARKER)).is_ok_and(|m| m.is_file())
}

/// Marks `dir` as salgrade's output (see [`OUTPUT_MARKER`]).
pub(crate) fn mark_as_output(dir: &Path) -> Result<(), OutputError> {
    let marker = dir.join(OUTPUT_MARKER);
    if is_salgrade_output(dir) {
        return Ok(());
    }
    std::fs::write(
        &marker,
        "This folder holds salgrade's output; `salgrade grade` skips it when it grades the folder around it.\n",
    )
    .map_err(|source| OutputError::Write {
        path: marker,
        source,
    })
}

/// Writes `bytes` to `target` through an [`AtomicFile`].
pub(crate) fn write(target: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    AtomicFile::create(target)?.commit(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fifo_is_written_in_place_and_stays_a_fifo() {
        // `-o /dev/null`, `-o /dev/stdout` and a pipe are written in place:
        // a rename would replace the device node itself.
        use std::io::Read;
        use std::os::unix::fs::FileTypeExt;
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("pipe");
        nix::unistd::mkfifo(&p, nix::sys::stat::Mode::S_IRWXU).unwrap();
        let reader = {
            let p = p.clone();
            std::thread::spawn(move || {
                let mut text = String::new();
                std::fs::File::open(p)
                    .unwrap()
                    .read_to_string(&mut text)
                    .unwrap();
                text
            })
        };
        AtomicFile::create(&p).unwrap().commit(b"scores").unwrap();
        assert_eq!(reader.join().unwrap(), "scores");
        assert!(std::fs::metadata(&p).unwrap().file_type().is_fifo());
        assert_eq!(std::fs::read_dir(t.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_link_to_a_file_stays_a_link_and_its_file_is_replaced() {
        let t = tempfile::tempdir().unwrap();
        let real = t.path().join("real.csv");
        let link = t.path().join("link.csv");
        std::fs::write(&real, "old").unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        AtomicFile::create(&link).unwrap().commit(b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
    }

    #[test]
    fn a_dropped_file_leaves_the_old_contents() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("grades.csv");
        std::fs::write(&p, "old").unwrap();
        let f = AtomicFile::create(&p).unwrap();
        drop(f);
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "old");
        assert_eq!(
            std::fs::read_dir(t.path()).unwrap().count(),
            1,
            "no temp file left"
        );
    }

    #[test]
    fn a_killed_runs_temporary_file_is_removed_by_the_next() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("grades.csv");
        // No process has pid u32::MAX (the kernel's limit is far lower).
        let dead = t.path().join(format!(
            "{}abc123.tmp",
            temporary_prefix("grades.csv", u32::MAX)
        ));
        let live = t.path().join(format!(
            "{}abc123.tmp",
            temporary_prefix("grades.csv", std::process::id())
        ));
        let other = t.path().join(".notes.txt.1-x.tmp");
        for f in [&dead, &live, &other] {
            std::fs::write(f, "").unwrap();
        }
        write(&p, b"new").unwrap();
        assert!(!dead.exists(), "a dead writer's temporary file is removed");
        assert!(live.exists() && other.exists(), "nothing else is touched");
    }

    #[test]
    fn an_older_builds_temporary_file_is_removed_when_empty_and_not_open() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("grades.csv");
        // Names as builds without the pid wrote them.
        let left = t.path().join(".grades.csv.aB3xY9.tmp");
        let open = t.path().join(".grades.csv.Zz9Qq1.tmp");
        let written = t.path().join(".grades.csv.Qw3rTy.tmp");
        let other_name = t.path().join(".grades.csv.backup7.tmp");
        for f in [&left, &open, &other_name] {
            std::fs::write(f, "").unwrap();
        }
        std::fs::write(&written, "name,score\n").unwrap();
        let _writer = std::fs::File::open(&open).unwrap();
        write(&p, b"new").unwrap();
        assert!(!left.exists(), "a killed older run's empty file is removed");
        assert!(open.exists(), "a file a process holds open is kept");
        assert!(written.exists(), "a file with contents is kept");
        assert!(other_name.exists(), "a name not of that pattern is kept");
    }

    #[test]
    fn commit_replaces_and_keeps_the_mode() {
        use std::os::unix::fs::PermissionsExt;
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("grades.csv");
        std::fs::write(&p, "old").unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o640)).unwrap();
        write(&p, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "new");
        let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
    }

    #[test]
    fn a_missing_folder_fails_up_front() {
        let t = tempfile::tempdir().unwrap();
        assert!(matches!(
            AtomicFile::create(&t.path().join("no/such/file")),
            Err(OutputError::Create { .. })
        ));
        assert!(matches!(
            AtomicFile::create(t.path()),
            Err(OutputError::IsFolder(_))
        ));
    }
}
