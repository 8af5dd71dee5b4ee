//! What a run knows of its C++ toolchain, as data: the compiler it found
//! and the settings every build gets. `session/mod.rs` carries them in the
//! run's configuration; `cxx.rs` builds with them.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use clap::ValueEnum;
use serde::Serialize;

use super::plan::Limits;

/// The compiler, resolved once per run.
#[derive(Debug, Clone)]
pub(crate) struct Cxx {
    pub executable: PathBuf,
    /// The first line of `--version` (`g++ (Debian 12.2.0-14) 12.2.0`).
    pub version: String,
}

/// Whether students are built against a precompiled prelude (`--cxx-prelude`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum PreludeMode {
    /// Precompiled once and kept between runs in the user's cache folder,
    /// where the sandbox keeps it out of students' reach.
    Cached,
    /// Precompiled once per run and thrown away at its end.
    Run,
    /// Every submission is built whole, as before the prelude existed.
    Off,
}

/// Build settings: their own deadline and limits (a compiler needs more
/// memory and processes than a student's program), and the preludes the
/// run has precompiled (shared by every slot).
#[derive(Debug, Clone)]
pub(crate) struct BuildSettings {
    pub timeout: Duration,
    pub limits: Limits,
    pub prelude: PreludeMode,
    /// The cache folder (`$XDG_CACHE_HOME/salgrade`, else
    /// `~/.cache/salgrade`), when there is one.
    pub cache_dir: Option<PathBuf>,
    /// The preludes precompiled so far in this run.
    pub preludes: Arc<Preludes>,
}

impl Default for BuildSettings {
    /// A build's budget is CPU time (`limits.cpu_seconds`, per compiler
    /// process), which other programs on the machine do not use up; the
    /// wall-time deadline is only a generous backstop for a compiler that
    /// blocks.
    fn default() -> BuildSettings {
        BuildSettings {
            timeout: Duration::from_secs(300),
            limits: Limits {
                memory_mb: 2048,
                cpu_seconds: 60,
                file_size_mb: 64,
                open_files: 256,
                processes: 32,
            },
            prelude: PreludeMode::Cached,
            cache_dir: cache_dir(),
            preludes: Arc::default(),
        }
    }
}

/// Salgrade's cache folder: `$XDG_CACHE_HOME/salgrade` when that is an
/// absolute path (the XDG rule), else, as root, `/var/cache/salgrade` (the
/// machine's place for a system tool's cache: root's home is closed to the
/// slots' uids, which must read the C++ prelude under bubblewrap), else
/// `$HOME/.cache/salgrade`.
pub(crate) fn cache_dir() -> Option<PathBuf> {
    let absolute = |v: std::ffi::OsString| Some(PathBuf::from(v)).filter(|p| p.is_absolute());
    std::env::var_os("XDG_CACHE_HOME")
        .and_then(absolute)
        .or_else(|| crate::runner::unix::is_root().then(|| PathBuf::from("/var/cache")))
        .or_else(|| {
            std::env::var_os("HOME")
                .and_then(absolute)
                .map(|h| h.join(".cache"))
        })
        .map(|base| base.join("salgrade"))
}

/// A file as it is now: its size and modification time (a rebuilt
/// binary, a reinstalled interpreter or compiler, is another key of the
/// caches that depend on it).
pub(crate) fn file_identity(path: &std::path::Path) -> String {
    use std::os::unix::fs::MetadataExt;
    match std::fs::metadata(path) {
        Ok(m) => format!(
            "{} bytes, modified {}.{:09}",
            m.size(),
            m.mtime(),
            m.mtime_nsec()
        ),
        Err(e) => format!("unreadable ({e})"),
    }
}

/// Whether `path` (not a link) is owned by salgrade's user and writable by
/// no one else: what a cache entry must be to be trusted.
pub(crate) fn only_ours(path: &std::path::Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::symlink_metadata(path)
        .is_ok_and(|m| m.uid() == nix::unistd::Uid::effective().as_raw() && m.mode() & 0o022 == 0)
}

/// The preludes of this run (`cxx/prelude.rs`), one per assignment harness
/// by the text of its key, shared by every slot.
#[derive(Debug, Default)]
pub(crate) struct Preludes {
    by_key: Mutex<HashMap<String, Arc<PreludeSlot>>>,
}

/// One harness's prelude: empty until prepared, then the prelude or `None`.
pub(crate) type PreludeSlot = OnceLock<Option<Arc<Ready>>>;

impl Preludes {
    /// The slot of the prelude with this key, made empty on first ask.
    pub(crate) fn slot(&self, key: &str) -> Arc<PreludeSlot> {
        let mut map = self.by_key.lock().unwrap_or_else(|e| e.into_inner());
        Arc::clone(map.entry(key.to_owned()).or_default())
    }
}

/// A prepared prelude: what a student's build is given.
#[derive(Debug)]
pub(crate) struct Ready {
    /// The folder holding the header, its `.gch` and the adapter's object,
    /// bound read-only into each build.
    pub dir: PathBuf,
    /// The student's translation unit: an include of the prelude header by
    /// its absolute path, then the wrapper after its prelude.
    pub wrapper: String,
    /// The adapter's object file, in `dir`.
    pub object: PathBuf,
    /// The run's own folder, removed when the run ends (`--cxx-prelude
    /// run`, or a cache entry that could not be stored).
    #[expect(dead_code, reason = "held for its drop, which removes the folder")]
    pub owned: Option<tempfile::TempDir>,
}
