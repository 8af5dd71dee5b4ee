//! Sandbox backends: how the driver's command line is built around the
//! interpreter.
//!
//! * `bwrap`: bubblewrap with every namespace unshared (no network, own PID
//!   namespace, own user namespace with an unprivileged uid), a read-only view
//!   of the system directories and the interpreter, a private `/tmp`, and the
//!   session folder as the only writable place. Other students' folders, the
//!   case files and the grader's home are simply not there.
//! * `rlimit`: no namespaces; resource limits, its own process group, a clean
//!   environment and, when salgrade runs as root, an unprivileged uid per slot.
//! * `none`: a plain subprocess with a clean environment and its own process
//!   group; for debugging only.
//!
//! Resource limits (memory, CPU, file size, open files, processes) apply in
//! every backend but `none`, because bubblewrap sets none of its own.

use std::path::{Path, PathBuf};
use std::process::Command;

use clap::ValueEnum;
use serde::Serialize;

use super::unix::{ChildLimits, Identity};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum SandboxKind {
    /// No isolation beyond a clean environment and a process group.
    None,
    /// Resource limits, a process group and (as root) an unprivileged uid.
    Rlimit,
    /// bubblewrap namespaces plus the rlimit protections.
    Bwrap,
}

/// The resource limits every student process gets (defaults in the README).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub(crate) struct Limits {
    pub memory_mb: u64,
    pub cpu_seconds: u64,
    pub file_size_mb: u64,
    pub open_files: u64,
    pub processes: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            memory_mb: 1024,
            cpu_seconds: 60,
            file_size_mb: 16,
            open_files: 64,
            processes: 32,
        }
    }
}

impl Limits {
    pub(crate) fn child_limits(&self) -> ChildLimits {
        ChildLimits {
            address_space: self.memory_mb * 1024 * 1024,
            // The soft limit comes first so the student gets SIGXCPU, a
            // recognisable signal, before the kernel's SIGKILL at the hard one.
            cpu_seconds: (self.cpu_seconds, self.cpu_seconds + 2),
            file_size: self.file_size_mb * 1024 * 1024,
            open_files: self.open_files,
            processes: self.processes,
        }
    }
}

/// The interpreter, resolved once per run.
#[derive(Debug, Clone)]
pub(crate) struct Python {
    /// The real executable (no pyenv shim).
    pub executable: PathBuf,
    /// `sys.base_prefix`: the tree bubblewrap must make visible.
    pub prefix: PathBuf,
    pub version: String,
}

/// Where the session folder appears inside bubblewrap.
const INSIDE_DIR: &str = "/sandbox";
/// The uid (and gid) of parallel slot `i` is `SANDBOX_UID_BASE + i`.
pub(crate) const SANDBOX_UID_BASE: u32 = 61_000;

/// The clean environment every backend gives the driver.
const ENV: &[(&str, &str)] = &[
    ("PATH", "/usr/bin:/bin"),
    ("LANG", "C.UTF-8"),
    ("PYTHONDONTWRITEBYTECODE", "1"),
    ("PYTHONHASHSEED", "0"),
    ("PYTHONIOENCODING", "utf-8"),
    ("HOME", "/tmp"),
];

/// What a session needs to start its driver.
pub(crate) struct Launch {
    pub command: Command,
    pub limits: Option<ChildLimits>,
    pub identity: Option<Identity>,
    /// The uid whose processes are swept after the session, if any.
    pub sweep_uid: Option<u32>,
}

pub(crate) fn launch(
    kind: SandboxKind,
    python: &Python,
    dir: &Path,
    entry: &[&str],
    limits: &Limits,
    slot: usize,
    drop_privileges: bool,
) -> Launch {
    let uid = SANDBOX_UID_BASE + slot as u32;
    let identity = drop_privileges.then_some(Identity { uid, gid: uid });
    // The script, the protocol descriptors (see `unix::prepare`), then the
    // script's own arguments.
    let (script, rest) = entry.split_first().map_or(("", &[][..]), |(s, r)| (*s, r));
    let driver_args: Vec<&str> = [script, "3", "4"]
        .into_iter()
        .chain(rest.iter().copied())
        .collect();
    let plain = || {
        let mut command = Command::new(&python.executable);
        command
            .args(["-I", "-S"])
            .args(&driver_args)
            .current_dir(dir)
            .env_clear()
            .envs(ENV.iter().copied());
        command
    };
    match kind {
        SandboxKind::None => Launch {
            command: plain(),
            limits: None,
            identity: None,
            sweep_uid: None,
        },
        SandboxKind::Rlimit => Launch {
            command: plain(),
            limits: Some(limits.child_limits()),
            identity,
            sweep_uid: identity.map(|i| i.uid),
        },
        SandboxKind::Bwrap => {
            let mut command = Command::new("bwrap");
            command.env_clear().envs(ENV.iter().copied());
            command.args(["--unshare-all", "--die-with-parent", "--new-session"]);
            command.args(["--uid", &uid.to_string(), "--gid", &uid.to_string()]);
            for sys_dir in [
                "/usr",
                "/etc/alternatives",
                "/etc/ld.so.cache",
                "/etc/localtime",
            ] {
                command.args(["--ro-bind-try", sys_dir, sys_dir]);
            }
            for (link, target) in [
                ("/lib", "usr/lib"),
                ("/lib64", "usr/lib64"),
                ("/bin", "usr/bin"),
                ("/sbin", "usr/sbin"),
            ] {
                if Path::new(link).is_symlink() {
                    command.args(["--symlink", target, link]);
                } else {
                    command.args(["--ro-bind-try", link, link]);
                }
            }
            if !python.prefix.starts_with("/usr") {
                let p = python.prefix.to_string_lossy();
                command.args(["--ro-bind", &p, &p]);
            }
            command.args(["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]);
            command.args([
                "--bind",
                &dir.to_string_lossy(),
                INSIDE_DIR,
                "--chdir",
                INSIDE_DIR,
            ]);
            command.arg("--");
            command
                .arg(&python.executable)
                .args(["-I", "-S"])
                .args(&driver_args);
            // As root, bubblewrap itself starts as the slot's uid (it then
            // needs unprivileged user namespaces, checked by `can_drop`).
            Launch {
                command,
                limits: Some(limits.child_limits()),
                identity,
                sweep_uid: identity.map(|i| i.uid),
            }
        }
    }
}

/// Whether student code should run as an unprivileged uid per slot: only
/// when salgrade is root, the interpreter is reachable by other users, and
/// (for bubblewrap) an unprivileged user can create its namespaces.
pub(crate) fn can_drop(kind: SandboxKind, python: &Python) -> bool {
    super::unix::is_root()
        && kind != SandboxKind::None
        && world_reachable(&python.executable)
        && world_reachable(&python.prefix.join("lib"))
        && (kind != SandboxKind::Bwrap || bwrap_works_as(Some(SANDBOX_UID_BASE)))
}

/// Whether every directory above `path` lets others through, so an
/// unprivileged uid can run the interpreter (pyenv under `/root` does not).
fn world_reachable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.ancestors().skip(1).all(|dir| {
        std::fs::metadata(dir)
            .map(|m| m.permissions().mode() & 0o001 != 0)
            .unwrap_or(false)
    })
}

/// Whether bubblewrap is installed and can create its namespaces here.
pub(crate) fn bwrap_works() -> bool {
    bwrap_works_as(None)
}

fn bwrap_works_as(uid: Option<u32>) -> bool {
    let mut command = Command::new("bwrap");
    if let Some(uid) = uid {
        use std::os::unix::process::CommandExt;
        // As root, std also drops the supplementary groups.
        command.uid(uid).gid(uid);
    }
    command
        .args([
            "--unshare-all",
            "--die-with-parent",
            "--ro-bind",
            "/",
            "/",
            "--",
            "/bin/true",
        ])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}
