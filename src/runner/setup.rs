//! Setting up a run's runner, once: the real interpreter behind `python3`,
//! the sandbox backend, and the protections beyond it (cgroups, a uid per
//! slot), with notes on anything missing here.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use anyhow::{Context, bail};

use super::cgroup::Cgroups;
use super::sandbox::UidBlock;
use super::{Limits, Python, SandboxKind, sandbox};

/// Finds the real interpreter behind `python3` (or `explicit`), once.
pub(crate) fn resolve_python(explicit: Option<&Path>) -> anyhow::Result<Python> {
    let program = explicit
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("python3"));
    let out = Command::new(&program)
        .args(["-I", "-S", "-c", FACTS])
        .args(HIDDEN_MODULES)
        .output()
        .with_context(|| {
            format!(
                "cannot run `{}`: install Python 3 or pass `--python PATH`",
                program.display()
            )
        })?;
    if !out.status.success() {
        bail!(
            "`{}` failed to report its version: {}",
            program.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines = text.lines();
    let (Some(exe), Some(prefix), Some(version), Some(implementation), Some(magic), Some(tag)) = (
        lines.next(),
        lines.next(),
        lines.next(),
        lines.next(),
        lines.next(),
        lines.next(),
    ) else {
        bail!(
            "`{}` did not report its executable and version",
            program.display()
        );
    };
    if !version.starts_with('3') {
        bail!(
            "`{}` is Python {version}; salgrade needs Python 3",
            program.display()
        );
    }
    // The file itself, not a symbolic link to it: a link in a folder
    // only root may enter (`/root/bin/python3`) would be out of the slot
    // uid's reach, where the file it names is not. (`-I -S` uses no
    // virtual environment's packages, so nothing is lost.)
    let executable = std::fs::canonicalize(exe).unwrap_or_else(|_| PathBuf::from(exe));
    let hidden = lines
        .filter_map(|l| l.strip_prefix("hide "))
        .map(PathBuf::from)
        .filter(|p| p.is_absolute() && p.is_file())
        .collect();
    Ok(Python {
        executable,
        prefix: PathBuf::from(prefix),
        version: version.to_owned(),
        implementation: implementation.to_owned(),
        magic: Some(magic.to_owned()).filter(|m| m.len() == 8),
        cache_tag: Some(tag.to_owned()).filter(|t| !t.is_empty() && t != "None"),
        hidden,
    })
}

/// What `resolve_python` asks the interpreter: its executable, prefix,
/// version and implementation (`cpython`, `pypy`), its bytecode's magic
/// number (hex) and cache tag (`cpython-311`; `None` if it keeps none), then the file of each module named on its command line that
/// it has (`hide PATH`; a module built into the interpreter has no file).
const FACTS: &str = "import sys, importlib.util as u
print(sys.executable); print(sys.base_prefix); print(sys.version.split()[0])
print(sys.implementation.name)
print(u.MAGIC_NUMBER.hex()); print(sys.implementation.cache_tag)
for m in sys.argv[1:]:
    try:
        s = u.find_spec(m)
    except Exception:
        s = None
    if s is not None and s.origin and s.has_location:
        print('hide ' + s.origin)
";

/// The modules that reach the interpreter's memory or its C interface
/// (`ctypes`, and CPython's own test modules): code that imports them can
/// change what runs beside it in the process, so student code never may.
pub(crate) const HIDDEN_MODULES: &[&str] = &[
    "_ctypes",
    "_ctypes_test",
    "_testcapi",
    "_testinternalcapi",
    "_testbuffer",
    "_testclinic",
    "_testmultiphase",
    "_testimportmultiple",
    "_testsinglephase",
    "_xxtestfuzz",
    "_xxsubinterpreters",
    "_xxinterpchannels",
];

/// The backend to use: the requested one, or salgrade's own namespaces
/// where the kernel allows them, bubblewrap where only it works (a setuid
/// install), and rlimit otherwise (with a note to say so once).
pub(crate) fn choose_sandbox(
    requested: Option<SandboxKind>,
) -> anyhow::Result<(SandboxKind, Option<String>)> {
    match requested {
        Some(SandboxKind::Bwrap) if !sandbox::bwrap_works() => bail!(
            "`--sandbox bwrap` was asked for, but bubblewrap (`bwrap`) is not installed or cannot create namespaces here; install the Debian package `bubblewrap` or choose `--sandbox namespaces`"
        ),
        Some(SandboxKind::Namespaces) => match sandbox::namespaces_work() {
            Ok(()) => Ok((SandboxKind::Namespaces, None)),
            Err(why) => bail!(
                "`--sandbox namespaces` was asked for, but this machine does not let salgrade create namespaces ({why}); {}",
                NAMESPACES_HELP
            ),
        },
        Some(kind) => Ok((kind, None)),
        None => match sandbox::namespaces_work() {
            Ok(()) => Ok((SandboxKind::Namespaces, None)),
            Err(_) if sandbox::bwrap_works() => Ok((SandboxKind::Bwrap, None)),
            Err(why) => Ok((
                SandboxKind::Rlimit,
                Some(format!(
                    "this machine does not let salgrade create namespaces ({why}), so student code runs with resource limits only (`--sandbox rlimit`): it can reach the network and read files others may read; {NAMESPACES_HELP}"
                )),
            )),
        },
    }
}

/// What to check when namespaces are refused.
const NAMESPACES_HELP: &str = "run as root, or allow unprivileged user namespaces (`sysctl kernel.unprivileged_userns_clone=1`, or on Ubuntu `kernel.apparmor_restrict_unprivileged_userns=0`; in Docker, `--security-opt seccomp=unconfined`); see salgrade's `docs/security.md`";

/// The protections beyond the backend itself, decided once per run.
pub(crate) struct Isolation {
    pub cgroups: Option<Arc<Cgroups>>,
    pub drop_privileges: bool,
    /// Compiled code (and its compiler, installed for everyone) can run as a
    /// uid per slot whatever the interpreter's location.
    pub drop_compiled: bool,
    /// This run's block of sandbox uids.
    pub uids: Arc<UidBlock>,
    /// What is missing here and what that means, for the user.
    pub notes: Vec<String>,
}

/// Sets up the per-slot cgroups and decides on the per-slot uid.
pub(crate) fn isolation(
    kind: SandboxKind,
    python: &Python,
    limits: &Limits,
) -> anyhow::Result<Isolation> {
    let uids = Arc::new(UidBlock::claim().map_err(anyhow::Error::msg)?);
    let mut notes = Vec::new();
    if kind == SandboxKind::None {
        return Ok(Isolation {
            cgroups: None,
            drop_privileges: false,
            drop_compiled: false,
            uids,
            notes: vec!["`--sandbox none` runs student code without limits or isolation; use it for debugging only".to_owned()],
        });
    }
    let root = super::unix::is_root();
    let cgroups = match Cgroups::create(limits.processes, limits.memory_mb * 1024 * 1024) {
        Ok(c) => Some(Arc::new(c)),
        Err(why) => {
            notes.push(if root {
                format!("no writable cgroup ({why}): as root, a student's process count is not capped (RLIMIT_NPROC does not bind root); see salgrade's `docs/security.md`")
            } else {
                format!("no writable cgroup ({why}): processes are capped per user by RLIMIT_NPROC only, and memory per process only")
            });
            None
        }
    };
    super::kill_on_interrupt(cgroups.as_ref().map(Arc::downgrade));
    let drop_privileges = sandbox::can_drop(kind, python, uids.base);
    let drop_compiled = sandbox::can_drop_compiled(kind, uids.base);
    if root && !drop_privileges {
        notes.push(format!(
            "student code runs as root{}: the interpreter `{}` is not reachable by an unprivileged user; {} for a uid per slot",
            if matches!(kind, SandboxKind::Bwrap | SandboxKind::Namespaces) { " mapped into a user namespace" } else { "" },
            python.executable.display(),
            if kind == SandboxKind::Namespaces {
                "let others read and enter the interpreter's own folder (`chmod -R o+rX`) or pass `--python /usr/bin/python3`"
            } else {
                "install Python outside /root (or pass `--python /usr/bin/python3`)"
            },
        ));
    }
    Ok(Isolation {
        cgroups,
        drop_privileges,
        drop_compiled,
        notes,
        uids,
    })
}
