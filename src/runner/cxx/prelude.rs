//! The precompiled prelude: what every student's build of an assignment
//! compiles the same way, done once per run (or once per machine, cached)
//! instead of once per student.
//!
//! Two things are the same for every student of an assignment: the
//! standard headers the wrapper includes before the student's file (for
//! LeetCode and GeeksforGeeks, all of `<bits/stdc++.h>` and `using
//! namespace std;`), and the whole adapter translation unit with salgrade's
//! driver (it never sees the student's code; the two meet at the link). So
//! the wrapper's leading lines become a header, `_salgrade_prelude.hpp`,
//! precompiled to a `.gch`, and the adapter becomes an object file, both in
//! the sandbox with the compiler and flags of a student's build. A student
//! is then built from the same wrapper with its leading lines replaced by an
//! include of that header (g++ takes the `.gch` beside it, or says why not:
//! `-Winvalid-pch`), linked with the adapter's object. `cxx::build` falls
//! back to the whole build whenever this one does not succeed, so a
//! student's failed build, its diagnostics and its out-of-time handling are
//! always the whole build's.
//!
//! Where the files live ([`Place`]): in the user's cache folder, only under
//! the `namespaces` and `bwrap` backends, which bind the entry read-only
//! into builds and not at all into a student's program; else in a folder of
//! the run's own (0755, salgrade's, removed at the end), and not at all
//! where a student's program runs as salgrade's own uid with the real file
//! system in view (`none`, or `rlimit` without root), since it could
//! rewrite the object the next student is linked with.
//!
//! A cache entry is `cxx-prelude/<fingerprint of its key>/` holding the
//! header, its `.gch`, the adapter's object and a manifest written last:
//! the whole key (compiler path, version, size and time of its file; the
//! flags; the header's, adapter's and driver's texts' fingerprints;
//! salgrade's version) and each file's fingerprint. It is built in a temp
//! folder beside it and renamed into place, so a reader sees a whole entry
//! or none. An entry is used only when its manifest's key is this run's,
//! every file matches its fingerprint, and the folder and files are
//! salgrade's own uid's and writable by no one else; anything else is
//! rebuilt, never trusted.

use std::io::Write;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::{ADAPTER_NAME, CxxHarness, DRIVER_HPP, DRIVER_NAME, FLAGS};
use crate::fingerprint::fingerprint;
use crate::runner::plan::{Executable, Program};
use crate::runner::sandbox::SandboxKind;
use crate::runner::session::{RunnerConfig, Session, SessionFile};
use crate::runner::toolchain::{Cxx, PreludeMode, Ready};

/// The prelude header's name; its precompiled form is this plus `.gch`.
pub(crate) const PRELUDE_NAME: &str = "_salgrade_prelude.hpp";
const GCH_NAME: &str = "_salgrade_prelude.hpp.gch";
const OBJECT_NAME: &str = "_salgrade_adapter.o";
const MANIFEST_NAME: &str = "manifest.json";
/// The layout of a cache entry; a change makes every old entry foreign.
const FORMAT: &str = "salgrade-cxx-prelude-1";
/// The folder of entries inside salgrade's cache folder.
const CACHE_SUBDIR: &str = "cxx-prelude";
/// A precompiled `<bits/stdc++.h>` is about 120 MiB: more than a build's
/// per-file limit (64 MiB), which exists for students' builds.
const PRELUDE_FILE_SIZE_MB: u64 = 1024;
/// The variable naming a file that gets one JSON line per build and per
/// prelude prepared (for the benchmark and the tests; unset: nothing).
pub(crate) const BUILD_LOG_ENV: &str = "SALGRADE_BUILD_LOG";

/// Where the prelude of a run is kept.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Place {
    /// An entry of this cache folder.
    Cache(PathBuf),
    /// A folder of the run's own.
    Run,
}

/// Where the prelude may live under `cfg`, or `None` when students are
/// built whole. See the module doc for why each backend gets what it gets.
fn place(cfg: &RunnerConfig) -> Option<Place> {
    let mode = cfg.build.prelude;
    let program_sees_our_files = match cfg.sandbox {
        SandboxKind::None => true,
        SandboxKind::Rlimit => !cfg.drop_compiled,
        SandboxKind::Namespaces | SandboxKind::Bwrap => false,
    };
    if mode == PreludeMode::Off || program_sees_our_files {
        return None;
    }
    // As root, bwrap starts as the slot's uid, which can bind the cache
    // only when every folder above it lets others through (root's default
    // cache, `/var/cache/salgrade`, does; a 0700 home does not); salgrade's
    // own namespaces bind it first.
    let binds = |dir: &Path| match cfg.sandbox {
        SandboxKind::Namespaces => true,
        SandboxKind::Bwrap => {
            !crate::runner::unix::is_root()
                || (std::fs::create_dir_all(dir).is_ok() && others_pass(dir))
        }
        SandboxKind::None | SandboxKind::Rlimit => false,
    };
    match (&cfg.build.cache_dir, mode) {
        (Some(dir), PreludeMode::Cached) if binds(dir) => {
            Some(Place::Cache(dir.join(CACHE_SUBDIR)))
        }
        _ => Some(Place::Run),
    }
}

/// Whether every folder from `/` down to `dir` lets others through.
fn others_pass(dir: &Path) -> bool {
    dir.ancestors().all(|d| {
        d.metadata()
            .is_ok_and(|m| m.permissions().mode() & 0o001 != 0)
    })
}

/// The prelude for `harness`, prepared by the first build of the run that
/// needs it while the others wait; `None` when there is none (turned off,
/// not safe under this backend, or failed to build: students are then
/// built whole).
pub(crate) fn get(
    cfg: &RunnerConfig,
    cxx: &Cxx,
    harness: &CxxHarness,
    slot: usize,
) -> Option<Arc<Ready>> {
    let place = place(cfg)?;
    let (prelude, rest) = split(harness.wrapper);
    if !prelude
        .lines()
        .any(|l| l.trim_start().starts_with("#include"))
    {
        return None;
    }
    let key = key_text(cxx, harness, prelude);
    cfg.build
        .preludes
        .slot(&key)
        .get_or_init(|| {
            let started = Instant::now();
            let (ready, how) = prepare(cfg, cxx, harness, slot, &place, &key, prelude, rest);
            log(&serde_json::json!({
                "prelude": how,
                "seconds": started.elapsed().as_secs_f64(),
            }));
            ready.map(Arc::new)
        })
        .clone()
}

/// How a prelude was come by, as the build log says it.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "snake_case")]
enum How {
    /// Compiled now, for this run only.
    Built,
    /// Compiled now and stored in the cache (no entry was there).
    Stored,
    /// Found whole in the cache.
    Cached,
    /// Compiled now because the cache's entry was not whole or not ours.
    Rebuilt,
    /// Could not be compiled or placed: students are built whole.
    Failed,
}

#[expect(
    clippy::too_many_arguments,
    reason = "one call site, each argument a different fact of the same build"
)]
fn prepare(
    cfg: &RunnerConfig,
    cxx: &Cxx,
    harness: &CxxHarness,
    slot: usize,
    place: &Place,
    key: &str,
    prelude: &str,
    rest: &str,
) -> (Option<Ready>, How) {
    let entry = match place {
        Place::Cache(root) => Some(root.join(fingerprint(&[key.as_bytes()]))),
        Place::Run => None,
    };
    if let Some(entry) = &entry {
        if verified(entry, key) {
            return (ready_in(entry.clone(), rest, None), How::Cached);
        }
    }
    let Some(files) = compile(cfg, cxx, harness, prelude, slot) else {
        return (None, How::Failed);
    };
    if let (Some(entry), Place::Cache(root)) = (&entry, place) {
        let existed = entry.symlink_metadata().is_ok();
        match store(root, entry, key, &files) {
            Ok(Stored::InPlace) => {
                let how = if existed { How::Rebuilt } else { How::Stored };
                return (ready_in(entry.clone(), rest, None), how);
            }
            // Another run stored the same entry first; ours serves this run.
            Ok(Stored::Aside(dir)) => {
                let path = dir.path().to_path_buf();
                return (ready_in(path, rest, Some(dir)), How::Built);
            }
            Err(_) => {}
        }
    }
    match run_folder(&files) {
        Ok(dir) => {
            let path = dir.path().to_path_buf();
            (ready_in(path, rest, Some(dir)), How::Built)
        }
        Err(_) => (None, How::Failed),
    }
}

/// The prelude in `dir`, unless its path cannot be written in a `#include`.
fn ready_in(dir: PathBuf, rest: &str, owned: Option<tempfile::TempDir>) -> Option<Ready> {
    let header = dir.join(PRELUDE_NAME);
    let text = header.to_str()?;
    if text.contains(['"', '\\', '\n', '\r']) {
        return None;
    }
    Some(Ready {
        wrapper: format!("#include \"{text}\"\n{rest}"),
        object: dir.join(OBJECT_NAME),
        dir,
        owned,
    })
}

/// The wrapper's prelude and the rest: the prelude is its leading lines
/// that are blank, `//` comments, `#include <...>` of system headers or
/// `using namespace ...;`, up to the first other line (the student's file
/// and the glue come after it).
pub(crate) fn split(wrapper: &str) -> (&str, &str) {
    let mut end = 0;
    for line in wrapper.split_inclusive('\n') {
        let t = line.trim();
        let leading = t.is_empty()
            || t.starts_with("//")
            || (t.starts_with("#include") && t["#include".len()..].trim_start().starts_with('<'))
            || (t.starts_with("using namespace ") && t.ends_with(';'));
        if !leading {
            break;
        }
        end += line.len();
    }
    wrapper.split_at(end)
}

/// Everything a prelude's files depend on, as text.
fn key_text(cxx: &Cxx, harness: &CxxHarness, prelude: &str) -> String {
    let file = crate::runner::toolchain::file_identity(&cxx.executable);
    [
        format!("{FORMAT}, salgrade {}", env!("CARGO_PKG_VERSION")),
        format!("compiler {}", cxx.executable.display()),
        format!("version {}", cxx.version),
        format!("compiler file {file}"),
        format!("flags {}", FLAGS.join(" ")),
        format!("prelude {}", fingerprint(&[prelude.as_bytes()])),
        format!("adapter {}", fingerprint(&[harness.adapter.as_bytes()])),
        format!("driver {}", fingerprint(&[DRIVER_HPP.as_bytes()])),
    ]
    .join("\n")
}

/// A prelude's three files, as compiled.
struct Files {
    header: Vec<u8>,
    gch: Vec<u8>,
    object: Vec<u8>,
}

impl Files {
    fn named(&self) -> [(&'static str, &[u8]); 3] {
        [
            (PRELUDE_NAME, &self.header),
            (GCH_NAME, &self.gch),
            (OBJECT_NAME, &self.object),
        ]
    }
}

/// Compiles the header and the adapter in the sandbox, with a student's
/// build's compiler, flags and limits (but files up to
/// [`PRELUDE_FILE_SIZE_MB`]); `None` if either fails.
fn compile(
    cfg: &RunnerConfig,
    cxx: &Cxx,
    harness: &CxxHarness,
    prelude: &str,
    slot: usize,
) -> Option<Files> {
    let limits = crate::runner::plan::Limits {
        file_size_mb: cfg.build.limits.file_size_mb.max(PRELUDE_FILE_SIZE_MB),
        ..cfg.build.limits
    };
    let run = |files: &[SessionFile<'_>], tail: &[&str], keep: &str| -> Option<Vec<u8>> {
        let mut args: Vec<String> = FLAGS.iter().map(|f| (*f).to_owned()).collect();
        args.extend(tail.iter().map(|a| (*a).to_owned()));
        let program = Program {
            executable: Executable::System(&cxx.executable),
            args,
            binds: Vec::new(),
            masks: &[],
            drop_privileges: cfg.drop_compiled,
            limits,
            keeps_output: true,
        };
        let run = Session::run_to_end(cfg, files, &program, slot, cfg.build.timeout, keep).ok()?;
        match run.ended {
            Some(d) if d.code == Some(0) => run.kept,
            _ => None,
        }
    };
    let gch = run(
        &[SessionFile::text(PRELUDE_NAME, prelude.as_bytes())],
        &["-x", "c++-header", "-o", GCH_NAME, PRELUDE_NAME],
        GCH_NAME,
    )?;
    let object = run(
        &[
            SessionFile::text(ADAPTER_NAME, harness.adapter.as_bytes()),
            SessionFile::text(DRIVER_NAME, DRIVER_HPP.as_bytes()),
        ],
        &["-c", "-o", OBJECT_NAME, ADAPTER_NAME],
        OBJECT_NAME,
    )?;
    Some(Files {
        header: prelude.as_bytes().to_vec(),
        gch,
        object,
    })
}

/// A cache entry's manifest, written last.
#[derive(Debug, Serialize, Deserialize)]
struct Manifest {
    key: String,
    /// Each file's name and fingerprint.
    files: Vec<(String, String)>,
}

/// Whether `entry` holds a whole prelude for `key`, as salgrade stored it.
fn verified(entry: &Path, key: &str) -> bool {
    let ours = |path: &Path, dir: bool| {
        path.symlink_metadata().is_ok_and(|m| {
            m.is_dir() == dir
                && (dir || m.is_file())
                && m.uid() == nix::unistd::geteuid().as_raw()
                && m.permissions().mode() & 0o022 == 0
        })
    };
    if !ours(entry, true) {
        return false;
    }
    let manifest_path = entry.join(MANIFEST_NAME);
    if !ours(&manifest_path, false) {
        return false;
    }
    let Ok(manifest) = std::fs::read(&manifest_path)
        .map_err(|_| ())
        .and_then(|b| serde_json::from_slice::<Manifest>(&b).map_err(|_| ()))
    else {
        return false;
    };
    if manifest.key != key {
        return false;
    }
    [PRELUDE_NAME, GCH_NAME, OBJECT_NAME].iter().all(|name| {
        let path = entry.join(name);
        let want = manifest.files.iter().find(|(n, _)| n == name);
        ours(&path, false)
            && want.is_some_and(|(_, fp)| {
                std::fs::read(&path).is_ok_and(|bytes| fingerprint(&[&bytes]) == *fp)
            })
    })
}

/// Where a stored prelude ended up.
enum Stored {
    /// At its entry.
    InPlace,
    /// In a folder of this run's: another run's entry took the place.
    Aside(tempfile::TempDir),
}

/// Writes `files` as the entry `entry` of `root`: into a temp folder beside
/// it, synced, then renamed into place (an old entry is moved out first).
fn store(root: &Path, entry: &Path, key: &str, files: &Files) -> std::io::Result<Stored> {
    std::fs::create_dir_all(root)?;
    let tmp = tempfile::Builder::new().prefix(".tmp-").tempdir_in(root)?;
    let mut manifest = Manifest {
        key: key.to_owned(),
        files: Vec::new(),
    };
    for (name, bytes) in files.named() {
        write_synced(&tmp.path().join(name), bytes)?;
        manifest
            .files
            .push((name.to_owned(), fingerprint(&[bytes])));
    }
    let text = serde_json::to_vec_pretty(&manifest).map_err(std::io::Error::other)?;
    write_synced(&tmp.path().join(MANIFEST_NAME), &text)?;
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o755))?;
    if entry.symlink_metadata().is_ok() {
        let stale = tempfile::Builder::new()
            .prefix(".stale-")
            .tempdir_in(root)?;
        std::fs::rename(entry, stale.path().join("entry"))?;
        // `stale` removes the old entry when dropped.
    }
    match std::fs::rename(tmp.path(), entry) {
        Ok(()) => {
            // The temp folder is the entry now: nothing to remove.
            let _ = tmp.keep();
            Ok(Stored::InPlace)
        }
        Err(_) if verified(entry, key) => Ok(Stored::Aside(tmp)),
        Err(e) => Err(e),
    }
}

/// A file written whole and synced, 0644.
fn write_synced(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut f = std::fs::File::create(path)?;
    f.write_all(bytes)?;
    f.set_permissions(std::fs::Permissions::from_mode(0o644))?;
    f.sync_all()
}

/// The prelude's files in a folder of the run's own, readable by the
/// slots' uids (0755, files 0644), removed when the run ends.
fn run_folder(files: &Files) -> std::io::Result<tempfile::TempDir> {
    let dir = tempfile::Builder::new()
        .prefix("salgrade-prelude-")
        .tempdir()?;
    for (name, bytes) in files.named() {
        write_synced(&dir.path().join(name), bytes)?;
    }
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755))?;
    Ok(dir)
}

/// Appends `entry` as one line to the build log, when one is asked for.
pub(crate) fn log(entry: &serde_json::Value) {
    let Some(path) = std::env::var_os(BUILD_LOG_ENV) else {
        return;
    };
    let line = format!("{entry}\n");
    let _ = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(line.as_bytes()));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prelude_is_the_wrappers_leading_system_includes() {
        let wrapper = "// a comment\n#include <bits/stdc++.h>\nusing namespace std;\n#define main x\n#include \"a.cpp\"\n";
        let (prelude, rest) = split(wrapper);
        assert_eq!(
            prelude,
            "// a comment\n#include <bits/stdc++.h>\nusing namespace std;\n"
        );
        assert_eq!(rest, "#define main x\n#include \"a.cpp\"\n");
        // A quoted include ends it: the student's file is never in it.
        let (prelude, _) = split("#include <map>\n#include \"s.cpp\"\n#include <set>\n");
        assert_eq!(prelude, "#include <map>\n");
    }

    #[test]
    fn every_cpp_assignment_has_a_prelude_and_keeps_the_student_after_it() {
        for a in crate::assignment::ALL {
            let Some(crate::runner::Harness::Cxx(h)) = a.harness(crate::runner::Language::Cpp)
            else {
                continue;
            };
            let (prelude, rest) = split(h.wrapper);
            assert!(prelude.contains("#include <"), "{}", a.id());
            assert!(rest.contains(h.student_file), "{}", a.id());
            assert!(!prelude.contains(h.student_file), "{}", a.id());
        }
    }

    fn files() -> Files {
        Files {
            header: b"#include <map>\n".to_vec(),
            gch: vec![7; 1000],
            object: vec![1, 2, 3],
        }
    }

    #[test]
    fn a_stored_entry_is_verified_and_a_changed_one_is_not() {
        let root = tempfile::tempdir().unwrap();
        let entry = root.path().join("e");
        assert!(matches!(
            store(root.path(), &entry, "key", &files()),
            Ok(Stored::InPlace)
        ));
        assert!(verified(&entry, "key"));
        // Another key's entry is foreign.
        assert!(!verified(&entry, "other key"));
        // A truncated file is corrupt.
        std::fs::write(entry.join(GCH_NAME), [7; 10]).unwrap();
        assert!(!verified(&entry, "key"));
        // Storing again replaces it whole.
        assert!(matches!(
            store(root.path(), &entry, "key", &files()),
            Ok(Stored::InPlace)
        ));
        assert!(verified(&entry, "key"));
        // A file others may write is not trusted.
        std::fs::set_permissions(
            entry.join(OBJECT_NAME),
            std::fs::Permissions::from_mode(0o666),
        )
        .unwrap();
        assert!(!verified(&entry, "key"));
        // Nothing is left beside the entry.
        let names: Vec<_> = std::fs::read_dir(root.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["e"]);
    }
}
