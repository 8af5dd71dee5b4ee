//! Sandbox backends: how the driver's command line is built around the
//! interpreter.
//!
//! * `namespaces` (the default): salgrade's own namespaces, made between
//!   fork and exec (`confine.rs`, `unix/`): the same isolation as `bwrap`
//!   with nothing installed, and, as root, a uid per slot wherever the
//!   interpreter lives.
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

use super::plan::{ChildFilters, ChildLimits, Executable, Identity, Limits, Plan, Program};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum SandboxKind {
    /// No isolation beyond a clean environment and a process group.
    None,
    /// salgrade's own namespaces (PID, network, mount, IPC, UTS) and a
    /// fresh root, plus the rlimit protections; needs nothing installed.
    Namespaces,
    /// Resource limits, a process group and (as root) an unprivileged uid.
    Rlimit,
    /// bubblewrap namespaces plus the rlimit protections.
    Bwrap,
}

/// The interpreter, resolved once per run.
#[derive(Debug, Clone)]
pub(crate) struct Python {
    /// The real executable (no pyenv shim).
    pub executable: PathBuf,
    /// `sys.base_prefix`: the tree bubblewrap must make visible.
    pub prefix: PathBuf,
    pub version: String,
    /// `sys.implementation.name`: `cpython`, `pypy`.
    pub implementation: String,
    /// `importlib.util.MAGIC_NUMBER` in hex: the bytecode format it runs.
    pub magic: Option<String>,
    /// `sys.implementation.cache_tag` (`cpython-311`), `None` where the
    /// interpreter keeps no bytecode.
    pub cache_tag: Option<String>,
    /// The interpreter's modules a student's code must not import (they
    /// reach the interpreter's memory), as files to mask.
    pub hidden: Vec<PathBuf>,
}

use super::confine::{self, INSIDE_DIR};
/// The first uid salgrade uses. A run claims a block of [`UID_BLOCK`]
/// uids from here (see [`UidBlock`]); slot `i` of the run is its base + `i`.
///
/// Far from every range a system hands out: Debian's globally allocated
/// system users (60000-64999: `slurm` is 64030), systemd's dynamic users
/// (61184-65519) and homed users, the subordinate uids of `/etc/subuid`
/// (from 100000) and systemd-nspawn's container ranges (524288 up to
/// 1879048191). A student running as a daemon's uid could signal it, and a
/// session's end, which kills every process of its uid, would kill it.
pub(crate) const SANDBOX_UID_BASE: u32 = 2_000_000_000;
/// Uids in one run's block: more than the slots of the most parallel run
/// (`--jobs` is at most 256, plus the calibration slot).
pub(crate) const UID_BLOCK: u32 = 300;
/// How many runs as root can hold a block at once.
const UID_BLOCKS: u32 = 32;

/// The uids of this run's slots, held for the run's lifetime by a lock on
/// a file, so two runs at once never share a uid: a session's end kills
/// every process of its slot's uid, which must never be another run's.
#[derive(Debug)]
pub(crate) struct UidBlock {
    pub base: u32,
    /// `None` without root, which never changes uid (nor needs a lock file
    /// that root made and only root may open).
    _lock: Option<nix::fcntl::Flock<std::fs::File>>,
}

impl UidBlock {
    /// Claims the first free block.
    pub(crate) fn claim() -> Result<UidBlock, String> {
        use std::os::unix::fs::OpenOptionsExt;
        if !super::unix::is_root() {
            return Ok(UidBlock {
                base: SANDBOX_UID_BASE,
                _lock: None,
            });
        }
        for k in 0..UID_BLOCKS {
            let path = std::env::temp_dir().join(format!("salgrade-uids-{k}.lock"));
            let file = std::fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .mode(0o600)
                .open(&path)
                .map_err(|e| format!("cannot open `{}`: {e}", path.display()))?;
            if let Ok(lock) =
                nix::fcntl::Flock::lock(file, nix::fcntl::FlockArg::LockExclusiveNonblock)
            {
                let base = SANDBOX_UID_BASE + k * UID_BLOCK;
                // A process already running as one of the block's uids is
                // not ours to kill, nor a student's to share a uid with.
                if running_uids().any(|u| (base..base + UID_BLOCK).contains(&u)) {
                    continue;
                }
                return Ok(UidBlock {
                    base,
                    _lock: Some(lock),
                });
            }
        }
        Err(format!(
            "{UID_BLOCKS} salgrade runs already hold every block of sandbox uids"
        ))
    }
}

/// The real uids of the processes running now (those `/proc` shows).
fn running_uids() -> impl Iterator<Item = u32> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .filter_map(|e| {
            let status = std::fs::read_to_string(e.path().join("status")).ok()?;
            status
                .lines()
                .find_map(|l| l.strip_prefix("Uid:"))?
                .split_whitespace()
                .next()?
                .parse()
                .ok()
        })
}

/// The clean environment every backend gives the driver.
const ENV: &[(&str, &str)] = &[
    ("PATH", "/usr/bin:/bin"),
    ("LANG", "C.UTF-8"),
    ("PYTHONDONTWRITEBYTECODE", "1"),
    ("PYTHONHASHSEED", "0"),
    ("PYTHONIOENCODING", "utf-8"),
    ("HOME", "/tmp"),
];

/// What a session needs to start its program.
pub(crate) struct Launch {
    pub command: Command,
    pub limits: Option<ChildLimits>,
    pub identity: Option<Identity>,
    /// The uid whose processes are swept after the session, if any.
    pub sweep_uid: Option<u32>,
    /// The namespaces and root of the `namespaces` backend.
    pub confine: Option<Plan>,
    /// The system-call filters the child runs under.
    pub filters: ChildFilters,
    /// The read ends of the pipes that hold bubblewrap's filters, kept
    /// open until the child has them.
    pub filter_pipes: Vec<std::os::fd::OwnedFd>,
}

/// How `program` starts under `kind`. `Err`: bubblewrap's filters could
/// not be handed to it (never a start without them).
pub(crate) fn launch(
    kind: SandboxKind,
    program: &Program<'_>,
    dir: &Path,
    slot: usize,
    uid_base: u32,
) -> std::io::Result<Launch> {
    let uid = uid_base + slot as u32;
    let identity = program
        .drop_privileges
        .then_some(Identity { uid, gid: uid });
    let outside = match program.executable {
        Executable::System(p) => p.to_path_buf(),
        Executable::InSession(name) => dir.join(name),
    };
    let plain = |executable: &Path| {
        let mut command = Command::new(executable);
        command
            .args(&program.args)
            .current_dir(dir)
            .env_clear()
            .envs(ENV.iter().copied());
        command
    };
    let limits = Some(program.limits.child_limits());
    Ok(match kind {
        SandboxKind::None => Launch {
            command: plain(&outside),
            limits: None,
            identity: None,
            sweep_uid: None,
            confine: None,
            filters: ChildFilters::None,
            filter_pipes: Vec::new(),
        },
        SandboxKind::Rlimit => Launch {
            command: plain(&outside),
            limits,
            identity,
            sweep_uid: identity.map(|i| i.uid),
            confine: None,
            filters: installed_filters(),
            filter_pipes: Vec::new(),
        },
        SandboxKind::Namespaces => {
            let command = plain(&confine::inside_executable(program.executable));
            namespaces(command, program, dir, limits, identity)
        }
        SandboxKind::Bwrap => bwrap(program, dir, uid, limits, identity)?,
    })
}

/// The `namespaces` backend: `command` run in fresh namespaces under the
/// root [`confine::plan`] computes.
fn namespaces(
    command: Command,
    program: &Program<'_>,
    dir: &Path,
    limits: Option<ChildLimits>,
    identity: Option<Identity>,
) -> Launch {
    // Without root, a user namespace maps salgrade's own ids; as
    // root without a uid to drop to, one maps root onto itself, so
    // the program holds no capability over the machine.
    let user = if !super::unix::is_root() {
        Some(confine::own_user_map())
    } else if identity.is_none() {
        Some(confine::root_user_map())
    } else {
        None
    };
    Launch {
        command,
        limits,
        identity,
        // Nothing to sweep: every process of the student lives in
        // the PID namespace, which dies with its init.
        sweep_uid: None,
        confine: Some(confine::plan(
            program,
            dir,
            program.limits.memory_mb,
            user,
            identity.map(|i| (i.uid, i.gid)),
        )),
        filters: installed_filters(),
        filter_pipes: Vec::new(),
    }
}

/// The run's filters, for a child that installs them itself.
fn installed_filters() -> ChildFilters {
    super::syscalls::filters().map_or(ChildFilters::None, ChildFilters::Install)
}

/// The run's filters for bubblewrap: its arguments added to `command`,
/// and the pipes they are read from.
fn bwrap_filters(
    command: &mut Command,
) -> std::io::Result<(ChildFilters, Vec<std::os::fd::OwnedFd>)> {
    use std::os::fd::AsRawFd;
    Ok(match piped_filters()? {
        Some((pipes, args)) => {
            command.args(args);
            (
                ChildFilters::Inherit([pipes[0].as_raw_fd(), pipes[1].as_raw_fd()]),
                Vec::from(pipes),
            )
        }
        None => (ChildFilters::None, Vec::new()),
    })
}

/// The run's filters in pipes for bubblewrap (`--add-seccomp-fd`): the read
/// ends, and the arguments naming the descriptors the child finds them on.
/// `Ok(None)` only where no filter exists here; a pipe that cannot be made
/// is an error, never a start without filters.
type Piped = ([std::os::fd::OwnedFd; 2], Vec<String>);
fn piped_filters() -> std::io::Result<Option<Piped>> {
    use std::io::Write;
    let Some(programs) = super::syscalls::filters() else {
        return Ok(None);
    };
    let mut ends = Vec::new();
    let mut args = Vec::new();
    for (i, program) in programs.iter().enumerate() {
        let (read, write) = nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC)?;
        // A few hundred bytes: far below a pipe's buffer, so this never
        // blocks, and the writer is closed before the child reads.
        std::fs::File::from(write).write_all(&super::syscalls::bytes(program))?;
        // At 10 or above, as the protocol's pipes are: a read end on 3 to
        // 6 would be overwritten in the child by the `dup2`s that put the
        // protocol on 3 and 4 and the filters on 5 and up, and bubblewrap
        // would read a protocol pipe for its filter ("Can't read seccomp
        // data: Bad file descriptor"), as it once did in a test.
        ends.push(super::unix::lift_fd(read)?);
        args.push("--add-seccomp-fd".to_owned());
        args.push((super::unix::CHILD_FILTER_FD + i as i32).to_string());
    }
    let ends: [std::os::fd::OwnedFd; 2] = ends
        .try_into()
        .map_err(|_| std::io::Error::other("salgrade's filters are not two programs"))?;
    Ok(Some((ends, args)))
}

/// The `bwrap` backend: bubblewrap runs the program as the slot's `uid`.
fn bwrap(
    program: &Program<'_>,
    dir: &Path,
    uid: u32,
    limits: Option<ChildLimits>,
    identity: Option<Identity>,
) -> std::io::Result<Launch> {
    let mut command = Command::new("bwrap");
    command.env_clear().envs(ENV.iter().copied());
    command.args(["--unshare-all", "--die-with-parent", "--new-session"]);
    let (filters, filter_pipes) = bwrap_filters(&mut command)?;
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
    // The private /tmp before the program's own trees, which may lie below
    // it (a run's precompiled C++ prelude is in the temp folder), as the
    // `namespaces` backend does: mounted after them, it would hide them.
    command.args(["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]);
    // As in salgrade's own namespaces: no write into a process's memory
    // through `/proc/self/mem`.
    command.args(["--remount-ro", "/proc"]);
    for bind in &program.binds {
        if !bind.starts_with("/usr") {
            let p = bind.to_string_lossy();
            command.args(["--ro-bind", &p, &p]);
        }
    }
    for mask in program.masks {
        command.args(["--ro-bind", "/dev/null", &mask.to_string_lossy()]);
    }
    command.args([
        "--bind",
        &dir.to_string_lossy(),
        INSIDE_DIR,
        "--chdir",
        INSIDE_DIR,
    ]);
    command.arg("--");
    match program.executable {
        Executable::System(p) => command.arg(p),
        Executable::InSession(name) => command.arg(Path::new(INSIDE_DIR).join(name)),
    };
    command.args(&program.args);
    // As root, bubblewrap itself starts as the slot's uid (it then
    // needs unprivileged user namespaces, checked by `can_drop`).
    Ok(Launch {
        command,
        limits,
        identity,
        sweep_uid: identity.map(|i| i.uid),
        confine: None,
        filters,
        filter_pipes,
    })
}

impl Python {
    /// The interpreter running `script` (with the protocol descriptors and
    /// `args` after it), isolated from the user's site and environment.
    pub(crate) fn program<'a>(
        &'a self,
        script: &str,
        args: &[&str],
        limits: Limits,
        drop_privileges: bool,
    ) -> Program<'a> {
        let mut all = vec!["-I".to_owned(), "-S".to_owned(), script.to_owned()];
        all.extend(PROTOCOL_FD_ARGS.iter().map(|a| (*a).to_owned()));
        all.extend(args.iter().map(|a| (*a).to_owned()));
        Program {
            executable: Executable::System(&self.executable),
            args: all,
            binds: vec![&self.prefix],
            masks: &self.hidden,
            drop_privileges,
            limits,
            keeps_output: false,
        }
    }
}

/// The descriptors the protocol pipes appear on in the child (`unix::prepare`).
pub(crate) const PROTOCOL_FD_ARGS: [&str; 2] = ["3", "4"];

/// Whether student code should run as an unprivileged uid per slot: only
/// when salgrade is root, the interpreter is reachable by other users (in
/// the `namespaces` backend, which binds the interpreter's own tree below
/// fresh folders, only that tree must let others in), and (for bubblewrap)
/// an unprivileged user can create its namespaces.
pub(crate) fn can_drop(kind: SandboxKind, python: &Python, uid_base: u32) -> bool {
    let reachable = if kind == SandboxKind::Namespaces {
        open_to_others(&python.executable, 0o001)
            && open_to_others(&python.prefix, 0o005)
            && open_to_others(&python.prefix.join("lib"), 0o005)
    } else {
        world_reachable(&python.executable) && world_reachable(&python.prefix.join("lib"))
    };
    reachable && can_drop_compiled(kind, uid_base)
}

/// Whether `path` itself grants others the `bits` (r=4, x=1).
fn open_to_others(path: &Path, bits: u32) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & bits == bits)
}

/// Whether compiled code (and the compiler, installed for every user) can
/// run as a uid per slot: as root, in a sandbox that can start as that uid.
pub(crate) fn can_drop_compiled(kind: SandboxKind, uid_base: u32) -> bool {
    super::unix::is_root()
        && kind != SandboxKind::None
        && (kind != SandboxKind::Bwrap || bwrap_works_unprivileged(uid_base))
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
    static WORKS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *WORKS.get_or_init(|| bwrap_works_as(None))
}

/// Whether bubblewrap works when started as the first slot's uid (probed
/// once a run).
fn bwrap_works_unprivileged(uid_base: u32) -> bool {
    static WORKS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *WORKS.get_or_init(|| bwrap_works_as(Some(uid_base)))
}

fn bwrap_works_as(uid: Option<u32>) -> bool {
    // The probe's sandbox PID 1 is re-parented to salgrade when bubblewrap
    // exits: as a subreaper salgrade can reap it, where otherwise it would
    // be left a zombie to the machine's PID 1.
    super::unix::become_subreaper();
    let mut command = Command::new("bwrap");
    if let Some(uid) = uid {
        use std::os::unix::process::CommandExt;
        // As root, std also drops the supplementary groups.
        command.uid(uid).gid(uid);
    }
    let works = command
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
        .unwrap_or(false);
    super::reap_leftovers();
    works
}

/// Whether salgrade can make its own namespaces and root here, found by
/// running `true` in them once (as root, also dropping to an unprivileged
/// uid, as a session does). The error says what the kernel refused.
pub(crate) fn namespaces_work() -> Result<(), String> {
    static WORKS: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    WORKS.get_or_init(probe_namespaces).clone()
}

fn probe_namespaces() -> Result<(), String> {
    let dir = tempfile::Builder::new()
        .prefix("salgrade-probe-")
        .tempdir()
        .map_err(|e| format!("cannot create a folder: {e}"))?;
    let truth = ["/usr/bin/true", "/bin/true"]
        .into_iter()
        .map(Path::new)
        .find(|p| p.exists())
        .ok_or("no `true` program in /usr/bin or /bin")?;
    let root = super::unix::is_root();
    let program = Program {
        executable: Executable::System(truth),
        args: Vec::new(),
        binds: Vec::new(),
        masks: &[],
        drop_privileges: root,
        limits: Limits::default(),
        keeps_output: false,
    };
    // The probe's uid only runs `true`; the first sandbox uid is as good as any.
    let mut launch = launch(
        SandboxKind::Namespaces,
        &program,
        dir.path(),
        0,
        SANDBOX_UID_BASE,
    )
    .map_err(|e| format!("cannot prepare the probe: {e}"))?;
    if let Some(id) = launch.identity {
        let _ = std::os::unix::fs::chown(dir.path(), Some(id.uid), Some(id.gid));
    }
    let (r, w) = nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC)
        .map_err(|e| format!("cannot create a pipe: {e}"))?;
    super::unix::become_subreaper();
    super::unix::prepare(
        &mut launch.command,
        &r,
        &w,
        launch.limits,
        launch.identity,
        [None, None, None],
        launch.confine.take(),
        launch.filters,
    );
    let status = launch
        .command
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status();
    match status {
        Ok(s) if s.success() => Ok(()),
        Ok(s) => Err(format!("a probe in namespaces ended with {s}")),
        Err(e) => Err(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn bubblewraps_filters_sit_above_the_descriptors_the_child_fills() {
        use std::os::fd::AsRawFd;
        let Some((ends, args)) = super::piped_filters().unwrap() else {
            return; // no filter on this architecture
        };
        for end in &ends {
            assert!(
                end.as_raw_fd() >= 10,
                "{} would be overwritten",
                end.as_raw_fd()
            );
        }
        assert_eq!(args, ["--add-seccomp-fd", "5", "--add-seccomp-fd", "6"]);
    }
}
