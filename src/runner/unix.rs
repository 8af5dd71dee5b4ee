//! The only `unsafe` in salgrade: what runs in the child between `fork` and
//! `exec` (protocol fds, resource limits, the namespaces of the `namespaces`
//! backend, dropping privileges) and signals to a process group.
//!
//! Everything the `pre_exec` closure needs is computed before it is built:
//! between fork and exec only async-signal-safe system calls are allowed, so
//! the closure allocates nothing and takes no locks.

use std::io;
use std::os::fd::{AsRawFd, BorrowedFd, FromRawFd, IntoRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::process::Command;

use nix::errno::Errno;
use nix::fcntl::{AT_FDCWD, FcntlArg, OFlag, fcntl};
use nix::mount::{MntFlags, MsFlags, mount, umount2};
use nix::sched::{CloneFlags, unshare};
use nix::sys::resource::{Resource, setrlimit};
use nix::sys::signal::{SaFlags, SigAction, SigHandler, SigSet, Signal, killpg, sigaction};
use nix::sys::stat::{Mode, umask};
use nix::sys::statvfs::{FsFlags, statvfs};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::{
    ForkResult, Gid, Pid, Uid, chdir, dup2_raw, fork, mkdir, pivot_root, setgid, setgroups,
    sethostname, setuid, symlinkat,
};

use super::plan::{Access, ChildLimits, Identity, Plan, Step};

/// The fds the driver finds its protocol on.
pub(crate) const CHILD_REQUEST_FD: RawFd = 3;
pub(crate) const CHILD_RESPONSE_FD: RawFd = 4;

/// A process group, the one target every signal goes through, so a pid can
/// never be mistaken for a group id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Group(pub i32);

/// Held for reading by every fork-and-exec salgrade makes, and for writing
/// while a program is written to disk. A child between fork and exec holds
/// a copy of every descriptor open at the fork, close-on-exec or not, so a
/// program still open for writing in one thread when another forks cannot
/// be executed until that child's exec (ETXTBSY, "Text file busy"); with
/// the lock, no child is ever between fork and exec while a program's write
/// descriptor is open. `Command::spawn` returns only once its child has
/// exec'd (or failed to), and a child's own forks before its exec happen
/// inside that call.
static FORKS: std::sync::RwLock<()> = std::sync::RwLock::new(());

/// Runs `spawn` (a fork and exec) while no program is being written.
pub(crate) fn forking<T>(spawn: impl FnOnce() -> T) -> T {
    let _shared = FORKS.read().unwrap_or_else(|e| e.into_inner());
    spawn()
}

/// Runs `write` (opening, writing and closing a program's file) while no
/// child is between fork and exec.
pub(crate) fn writing_program<T>(write: impl FnOnce() -> T) -> T {
    let _alone = FORKS.write().unwrap_or_else(|e| e.into_inner());
    write()
}

/// The process groups of live sessions, for the interrupt handler.
static LIVE_GROUPS: std::sync::Mutex<Vec<i32>> = std::sync::Mutex::new(Vec::new());

impl Group {
    pub(crate) fn register(self) {
        if let Ok(mut live) = LIVE_GROUPS.lock() {
            live.push(self.0);
        }
    }

    pub(crate) fn unregister(self) {
        if let Ok(mut live) = LIVE_GROUPS.lock() {
            live.retain(|&g| g != self.0);
        }
    }

    /// SIGKILLs every live session's group (on an interrupt).
    pub(crate) fn kill_all_live() {
        if let Ok(live) = LIVE_GROUPS.lock() {
            for &g in live.iter() {
                Group(g).kill();
            }
        }
    }

    pub(crate) fn kill(self) {
        // ESRCH (the group is already gone) is the normal case after a clean exit.
        let _ = killpg(Pid::from_raw(self.0), Signal::SIGKILL);
    }

    /// Reaps the group's orphans, which salgrade inherits as a subreaper
    /// (see [`become_subreaper`]), so no zombie outlives grading. Waits by
    /// group id only: other workers' children are not touched.
    pub(crate) fn reap(self) {
        let until = std::time::Instant::now() + std::time::Duration::from_millis(200);
        loop {
            match waitpid(Pid::from_raw(-self.0), Some(WaitPidFlag::WNOHANG)) {
                Ok(WaitStatus::StillAlive) if std::time::Instant::now() < until => {
                    std::thread::sleep(std::time::Duration::from_millis(2));
                }
                Ok(WaitStatus::StillAlive) | Err(_) => return,
                Ok(_) => {}
            }
        }
    }
}

/// Makes orphaned descendants of student processes re-parent to salgrade
/// rather than to init, so that they can be reaped (a container's init often
/// does not reap).
pub(crate) fn become_subreaper() {
    let _ = nix::sys::prctl::set_child_subreaper(true);
}

/// Moves an fd to 10 or above (close-on-exec), so that `dup2` onto 3 and 4
/// in the child can never clobber the other protocol fd.
pub(crate) fn lift_fd(fd: OwnedFd) -> io::Result<OwnedFd> {
    let lifted = fcntl(&fd, FcntlArg::F_DUPFD_CLOEXEC(10))?;
    // SAFETY: F_DUPFD_CLOEXEC returned a new descriptor that nothing else owns.
    Ok(unsafe { OwnedFd::from_raw_fd(lifted) })
}

/// Arranges for the child to find `request` on fd 3 and `response` on fd 4,
/// sit in its own process group, carry `limits`, run inside the namespaces
/// and root of `confine` (see `confine.rs`), and run as `identity`.
pub(crate) fn prepare(
    cmd: &mut Command,
    request: &OwnedFd,
    response: &OwnedFd,
    limits: Option<ChildLimits>,
    identity: Option<Identity>,
    join: [Option<&OwnedFd>; 3],
    confine: Option<Plan>,
) {
    let request = request.as_raw_fd();
    let response = response.as_raw_fd();
    let join = join.map(|fd| fd.map(AsRawFd::as_raw_fd));
    let fresh_init = confine.as_ref().and_then(|_| init_executable());
    cmd.process_group(0);
    // SAFETY: the closure runs between fork and exec; the raw fds stay open
    // in the parent until after spawn returns; it only calls write, dup2,
    // setrlimit, setgroups (with an empty slice), setgid, setuid, prctl and,
    // with a plan, what `enter` calls: all async-signal-safe system calls,
    // on C strings made before the fork; it allocates nothing.
    unsafe {
        cmd.pre_exec(move || {
            // Join the slot's cgroups first, while still privileged: every
            // process the student starts is then born inside them.
            for fd in join.into_iter().flatten() {
                nix::unistd::write(BorrowedFd::borrow_raw(fd), b"0")?;
            }
            // `dup2_raw` hands back the new fd as an `OwnedFd`; it must stay
            // open for the driver, so ownership is given up, not dropped.
            let _ = dup2_raw(BorrowedFd::borrow_raw(request), CHILD_REQUEST_FD)
                .map_err(io::Error::from)?
                .into_raw_fd();
            let _ = dup2_raw(BorrowedFd::borrow_raw(response), CHILD_RESPONSE_FD)
                .map_err(io::Error::from)?
                .into_raw_fd();
            // Every other descriptor this child holds (salgrade's own, and
            // any salgrade itself inherited without close-on-exec) is closed
            // at exec: the program starts with 0 to 4 only. std's own
            // exec-error pipe is close-on-exec already, so it still works.
            close_from_on_exec(CHILD_RESPONSE_FD + 1);
            if let Some(l) = limits {
                setrlimit(Resource::RLIMIT_AS, l.address_space, l.address_space)?;
                setrlimit(Resource::RLIMIT_CPU, l.cpu_seconds.0, l.cpu_seconds.1)?;
                setrlimit(Resource::RLIMIT_FSIZE, l.file_size, l.file_size)?;
                setrlimit(Resource::RLIMIT_NPROC, l.processes, l.processes)?;
                setrlimit(Resource::RLIMIT_CORE, 0, 0)?;
            }
            if let Some(plan) = &confine {
                // The keeper dies with the salgrade thread that started it.
                nix::sys::prctl::set_pdeathsig(Signal::SIGKILL)?;
                // Returns only in the namespace's PID 2, the program.
                enter(plan, fresh_init)?;
                nix::sys::prctl::set_no_new_privs()?;
            }
            if let Some(id) = identity {
                setgroups(&[])?;
                setgid(Gid::from_raw(id.gid))?;
                setuid(Uid::from_raw(id.uid))?;
            }
            // After setuid, which clears it: the child dies with the
            // salgrade thread that started it (in namespaces, with their
            // init), even if salgrade is SIGKILLed.
            nix::sys::prctl::set_pdeathsig(Signal::SIGKILL)?;
            // Last: until exec this child still holds every descriptor it
            // inherited from salgrade (more with every worker), and the
            // namespaces' set-up above opens pipes and files, which must
            // not fail for want of a low descriptor number. After exec
            // only 0 to 4 are left, so the limit binds the student alone.
            if let Some(l) = limits {
                setrlimit(Resource::RLIMIT_NOFILE, l.open_files, l.open_files)?;
            }
            Ok(())
        });
    }
}

/// Kills every process owned by `uid`: the sweep that also catches a
/// grandchild that left our process group with `setsid`. Forks a short-lived
/// helper that becomes `uid` and signals everything it may signal.
pub(crate) fn kill_all_of(uid: u32) {
    let mut cmd = Command::new("/bin/kill");
    cmd.args(["-KILL", "-1"]);
    cmd.stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    // SAFETY: between fork and exec the closure only calls setgroups (empty
    // slice), setgid and setuid, async-signal-safe system calls.
    unsafe {
        cmd.pre_exec(move || {
            setgroups(&[])?;
            setgid(Gid::from_raw(uid))?;
            setuid(Uid::from_raw(uid))?;
            Ok(())
        });
    }
    if let Ok(mut child) = forking(|| cmd.spawn()) {
        let _ = child.wait();
    }
}

/// Reaps these killed pids as they become salgrade's children, waiting up
/// to 200 ms in all. A pid that is not (yet) our child but still exists is
/// waiting to be re-parented to us when its dying parent exits; one that no
/// longer exists was reaped by its own parent. Waiting by pid never touches
/// another worker's children.
pub(crate) fn reap_pids(pids: &[i32]) {
    let until = std::time::Instant::now() + std::time::Duration::from_millis(200);
    for &pid in pids {
        loop {
            let pending = match waitpid(Pid::from_raw(pid), Some(WaitPidFlag::WNOHANG)) {
                Ok(WaitStatus::StillAlive) => true,
                Err(nix::errno::Errno::ECHILD) => {
                    std::path::Path::new(&format!("/proc/{pid}")).exists()
                }
                _ => false,
            };
            if !pending || std::time::Instant::now() >= until {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }
}

/// Which of salgrade's orphaned children a session leaves to be reaped.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Orphans {
    /// Every child running as the slot's own uid (no other worker's child
    /// runs as it).
    OfUid(u32),
    /// Every zombie child that lived in a nested PID namespace: bubblewrap's
    /// PID 1 and its descendants, which can never be a worker's direct
    /// child. bubblewrap's outer process exits without reaping its PID 1,
    /// so each session would otherwise leave one zombie behind.
    SandboxZombies,
}

/// Reaps salgrade's orphaned children of the given kind, found in `/proc`.
pub(crate) fn reap_orphans(kind: Orphans) {
    let me = std::process::id().to_string();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return;
    };
    let mut mine = Vec::new();
    for e in entries.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<i32>().ok()) else {
            continue;
        };
        let Ok(status) = std::fs::read_to_string(e.path().join("status")) else {
            continue;
        };
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .map(str::split_whitespace)
        };
        let first = |name: &str| field(name).and_then(|mut v| v.next());
        if first("PPid:") != Some(me.as_str()) {
            continue;
        }
        let ours = match kind {
            Orphans::OfUid(uid) => first("Uid:") == Some(uid.to_string().as_str()),
            Orphans::SandboxZombies => {
                first("State:") == Some("Z") && field("NSpid:").is_some_and(|v| v.count() > 1)
            }
        };
        if ours {
            mine.push(pid);
        }
    }
    reap_pids(&mine);
}

/// Whether salgrade still has a child that lived in a nested PID namespace
/// (a sandbox's PID 1 being torn down, or its zombie).
pub(crate) fn has_sandbox_children() -> bool {
    let me = std::process::id().to_string();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return false;
    };
    entries.flatten().any(|e| {
        std::fs::read_to_string(e.path().join("status")).is_ok_and(|status| {
            let first = |name: &str| {
                status
                    .lines()
                    .find_map(|l| l.strip_prefix(name))
                    .and_then(|v| v.split_whitespace().next())
                    .map(str::to_owned)
            };
            let nested = status
                .lines()
                .find_map(|l| l.strip_prefix("NSpid:"))
                .is_some_and(|v| v.split_whitespace().count() > 1);
            first("PPid:").as_deref() == Some(me.as_str()) && nested
        })
    })
}

/// Whether this process runs as root (and so RLIMIT_NPROC would not bind it).
pub(crate) fn is_root() -> bool {
    Uid::effective().is_root()
}

/// Enters the plan's namespaces and root: called in the keeper, it forks
/// the namespace's init, which builds the root and forks the program; it
/// returns only in the program. Init then replaces itself with a fresh
/// image of salgrade's executable (`fresh_init`) in its init role, before
/// the program may exec: the namespace's PID 1, which the student can see
/// in `/proc/1`, holds nothing of the grader (no argv, no environment, no
/// heap with the expected answers).
fn enter(plan: &Plan, fresh_init: Option<RawFd>) -> io::Result<()> {
    let mut flags = CloneFlags::CLONE_NEWNS
        | CloneFlags::CLONE_NEWPID
        | CloneFlags::CLONE_NEWNET
        | CloneFlags::CLONE_NEWIPC
        | CloneFlags::CLONE_NEWUTS
        | CloneFlags::CLONE_NEWCGROUP;
    if plan.user.is_some() {
        flags |= CloneFlags::CLONE_NEWUSER;
    }
    unshare(flags)?;
    if let Some(user) = &plan.user {
        write_file(c"/proc/self/setgroups", b"deny")?;
        write_file(c"/proc/self/uid_map", user.uid_map.as_bytes())?;
        write_file(c"/proc/self/gid_map", user.gid_map.as_bytes())?;
    }
    let (status_read, status_write) = nix::unistd::pipe2(OFlag::O_CLOEXEC)?;
    // SAFETY: the child is single-threaded (a child of fork) and goes on
    // with async-signal-safe calls only.
    if let ForkResult::Parent { child } = unsafe { fork() }? {
        keep(child, status_read, status_write);
    }
    drop(status_read);
    // Init dies with the keeper; the namespace dies with init.
    nix::sys::prctl::set_pdeathsig(Signal::SIGKILL)?;
    build_root(plan)?;
    let _ = sethostname("salgrade");
    // The program waits for init's exec: the write end is close-on-exec,
    // so the program reads end-of-file once init is a fresh image (or
    // has exited), never while init is still a copy of salgrade.
    let (exec_read, exec_write) = nix::unistd::pipe2(OFlag::O_CLOEXEC)?;
    // SAFETY: as above.
    if let ForkResult::Parent { child } = unsafe { fork() }? {
        drop(exec_read);
        init(child, status_write, fresh_init, exec_write);
    }
    drop(status_write);
    drop(exec_write);
    let mut byte = [0u8; 1];
    while let Err(Errno::EINTR) = nix::unistd::read(&exec_read, &mut byte) {}
    drop(exec_read);
    Ok(())
}

/// Writes `bytes` to the file at `path` (a `/proc` map).
fn write_file(path: &std::ffi::CStr, bytes: &[u8]) -> io::Result<()> {
    let fd = nix::fcntl::open(path, OFlag::O_WRONLY | OFlag::O_CLOEXEC, Mode::empty())?;
    nix::unistd::write(&fd, bytes)?;
    Ok(())
}

/// Builds the new root as init, inside the fresh mount namespace.
fn build_root(plan: &Plan) -> io::Result<()> {
    let none: Option<&std::ffi::CStr> = None;
    mount(
        none,
        c"/",
        none,
        MsFlags::MS_REC | MsFlags::MS_PRIVATE,
        none,
    )?;
    mount(
        Some(c"tmpfs"),
        plan.base.as_c_str(),
        Some(c"tmpfs"),
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
        Some(plan.root_options.as_c_str()),
    )?;
    chdir(plan.base.as_c_str())?;
    mkdir(
        plan.old_root_in_base.as_c_str(),
        Mode::from_bits_truncate(0o700),
    )?;
    pivot_root(c".", plan.old_root_in_base.as_c_str())?;
    chdir(c"/")?;
    umask(Mode::from_bits_truncate(0o022));
    for step in &plan.steps {
        apply(step)?;
    }
    umount2(plan.old_root.as_c_str(), MntFlags::MNT_DETACH)?;
    // SAFETY: rmdir on a C string; failing leaves an empty folder.
    unsafe { nix::libc::rmdir(plan.old_root.as_ptr()) };
    mount(
        none,
        c"/",
        none,
        MsFlags::MS_REMOUNT
            | MsFlags::MS_BIND
            | MsFlags::MS_RDONLY
            | MsFlags::MS_NOSUID
            | MsFlags::MS_NODEV,
        none,
    )?;
    chdir(plan.workdir.as_c_str())?;
    Ok(())
}

/// Takes one step of building the new root.
fn apply(step: &Step) -> io::Result<()> {
    let none: Option<&std::ffi::CStr> = None;
    match step {
        Step::Dir(path) => match mkdir(path.as_c_str(), Mode::from_bits_truncate(0o755)) {
            Ok(()) | Err(Errno::EEXIST) => {}
            Err(e) => return Err(e.into()),
        },
        Step::File(path) => {
            nix::fcntl::open(
                path.as_c_str(),
                OFlag::O_CREAT | OFlag::O_WRONLY | OFlag::O_CLOEXEC,
                Mode::from_bits_truncate(0o644),
            )?;
        }
        Step::Bind { from, to, access } => bind(from, to, *access)?,
        Step::Tmpfs { to, options } => mount(
            Some(c"tmpfs"),
            to.as_c_str(),
            Some(c"tmpfs"),
            MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
            Some(options.as_c_str()),
        )?,
        Step::Proc(path) => mount(
            Some(c"proc"),
            path.as_c_str(),
            Some(c"proc"),
            MsFlags::MS_NOSUID | MsFlags::MS_NODEV | MsFlags::MS_NOEXEC,
            none,
        )?,
        Step::Overlay {
            lower,
            upper,
            work,
            to,
            options,
            owner,
        } => overlay(lower, upper, work, to, options, *owner)?,
        Step::Symlink { target, link } => {
            match symlinkat(target.as_c_str(), AT_FDCWD, link.as_c_str()) {
                Ok(()) | Err(Errno::EEXIST) => {}
                Err(e) => return Err(e.into()),
            }
        }
    }
    Ok(())
}

/// Binds `from` at `to`, then remounts it with the access it is given.
fn bind(from: &std::ffi::CStr, to: &std::ffi::CStr, access: Access) -> io::Result<()> {
    let none: Option<&std::ffi::CStr> = None;
    mount(
        Some(from),
        to,
        none,
        MsFlags::MS_BIND | MsFlags::MS_REC,
        none,
    )?;
    // A remount keeps what the source mount has locked (in a
    // user namespace it must), and adds ours.
    let mut flags = MsFlags::MS_BIND | MsFlags::MS_REMOUNT | MsFlags::MS_NOSUID;
    flags |= kept_flags(to)?;
    flags |= match access {
        Access::ReadOnly => MsFlags::MS_RDONLY | MsFlags::MS_NODEV,
        Access::Writable => MsFlags::MS_NODEV,
        Access::Device => MsFlags::MS_NOEXEC,
    };
    mount(none, to, none, flags, none)?;
    Ok(())
}

/// The session folder under a writable layer (see [`Step::Overlay`]).
fn overlay(
    lower: &std::ffi::CStr,
    upper: &std::ffi::CStr,
    work: &std::ffi::CStr,
    to: &std::ffi::CStr,
    options: &std::ffi::CStr,
    owner: Option<(u32, u32)>,
) -> io::Result<()> {
    let none: Option<&std::ffi::CStr> = None;
    for dir in [upper, work] {
        match mkdir(dir, Mode::from_bits_truncate(0o700)) {
            Ok(()) | Err(Errno::EEXIST) => {}
            Err(e) => return Err(e.into()),
        }
    }
    if let Some((uid, gid)) = owner {
        nix::unistd::chown(upper, Some(Uid::from_raw(uid)), Some(Gid::from_raw(gid)))?;
    }
    let layered = mount(
        Some(c"overlay"),
        to,
        Some(c"overlay"),
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
        Some(options),
    );
    if layered.is_err() {
        // No overlay here (an old kernel, an odd path): the
        // folder itself, as before, with RLIMIT_FSIZE only.
        mount(
            Some(lower),
            to,
            none,
            MsFlags::MS_BIND | MsFlags::MS_REC,
            none,
        )?;
        let flags = MsFlags::MS_BIND
            | MsFlags::MS_REMOUNT
            | MsFlags::MS_NOSUID
            | MsFlags::MS_NODEV
            | kept_flags(to)?;
        mount(none, to, none, flags, none)?;
    }
    Ok(())
}

/// The flags of the mount at `path` that a bind remount must keep.
fn kept_flags(path: &std::ffi::CStr) -> io::Result<MsFlags> {
    let have = statvfs(path)?.flags();
    let mut keep = MsFlags::empty();
    for (st, ms) in [
        (FsFlags::ST_RDONLY, MsFlags::MS_RDONLY),
        (FsFlags::ST_NOSUID, MsFlags::MS_NOSUID),
        (FsFlags::ST_NODEV, MsFlags::MS_NODEV),
        (FsFlags::ST_NOEXEC, MsFlags::MS_NOEXEC),
        (FsFlags::ST_NOATIME, MsFlags::MS_NOATIME),
        (FsFlags::ST_NODIRATIME, MsFlags::MS_NODIRATIME),
        (FsFlags::ST_RELATIME, MsFlags::MS_RELATIME),
    ] {
        if have.contains(st) {
            keep |= ms;
        }
    }
    Ok(keep)
}

/// Closes every descriptor but `keep`.
fn close_all_but(keep: RawFd) {
    close_all_but_these(&mut [keep]);
}

/// Closes every descriptor but those in `keep` (sorted here, in place).
fn close_all_but_these(keep: &mut [RawFd]) {
    keep.sort_unstable();
    let mut next: u32 = 0;
    for &fd in keep.iter() {
        let fd = fd as u32;
        if fd > next {
            close_range(next, fd - 1, 0);
        }
        next = fd + 1;
    }
    close_range(next, u32::MAX, 0);
}

/// Marks every descriptor from `first` on close-on-exec.
fn close_from_on_exec(first: RawFd) {
    close_range(first as u32, u32::MAX, nix::libc::CLOSE_RANGE_CLOEXEC);
}

/// `close_range(2)` as a raw system call (glibc wraps it only from 2.34 on,
/// and the portable binary links against 2.17), falling back to one call per
/// descriptor below the open-files limit where the kernel lacks it (before
/// 5.9, or 5.11 for `CLOSE_RANGE_CLOEXEC`). Async-signal-safe: no allocation.
fn close_range(first: u32, last: u32, flags: u32) {
    // SAFETY: close_range only closes descriptors or sets their
    // close-on-exec flag; its callers use none of them again.
    let done = unsafe {
        nix::libc::syscall(
            nix::libc::SYS_close_range,
            nix::libc::c_uint::from(first),
            nix::libc::c_uint::from(last),
            nix::libc::c_uint::from(flags),
        )
    } == 0;
    if done {
        return;
    }
    let mut limit = nix::libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes into the struct it is given.
    let end = if unsafe { nix::libc::getrlimit(nix::libc::RLIMIT_NOFILE, &mut limit) } == 0 {
        limit.rlim_cur.min(1 << 20)
    } else {
        1 << 16
    };
    let end = end.min(u64::from(last).saturating_add(1));
    for fd in u64::from(first)..end {
        let fd = fd as i32;
        // SAFETY: as above, one descriptor at a time; EBADF for a closed
        // one is ignored.
        unsafe {
            if flags & nix::libc::CLOSE_RANGE_CLOEXEC != 0 {
                nix::libc::fcntl(fd, nix::libc::F_SETFD, nix::libc::FD_CLOEXEC);
            } else {
                nix::libc::close(fd);
            }
        }
    }
}

/// How the program ended, as init tells the keeper: (0, code) or (1, signal).
type Ending = [u8; 2];

fn ending_of(status: WaitStatus) -> Option<Ending> {
    match status {
        WaitStatus::Exited(_, code) => Some([0, code as u8]),
        WaitStatus::Signaled(_, signal, _) => Some([1, signal as i32 as u8]),
        _ => None,
    }
}

/// The keeper, outside the namespaces: the process salgrade started and
/// waits on. It holds nothing (so pipes close when the program's end),
/// waits for init's word on how the program ended, and ends the same way.
fn keep(init: Pid, status_read: OwnedFd, status_write: OwnedFd) -> ! {
    drop(status_write);
    close_all_but(status_read.as_raw_fd());
    let mut word: Ending = [0; 2];
    let mut got = 0;
    while got < word.len() {
        match nix::unistd::read(&status_read, &mut word[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(Errno::EINTR) => {}
            Err(_) => break,
        }
    }
    let init_ended = loop {
        match waitpid(init, None) {
            Err(Errno::EINTR) => {}
            Ok(status) => break ending_of(status),
            Err(_) => break None,
        }
    };
    // Init's own ending when it could not say (its setup failed, or it was
    // killed from outside).
    let ending = if got == word.len() {
        Some(word)
    } else {
        init_ended
    };
    end_as(ending.unwrap_or([0, 1]))
}

/// Init, the namespace's PID 1: becomes a fresh image of salgrade in its
/// init role (see [`fresh_init_entry`]), which reaps everything until the
/// program ends, tells the keeper how, and exits, which kills what is left
/// inside. Where that exec fails, this copy does the same work itself.
fn init(program: Pid, status_write: OwnedFd, fresh: Option<RawFd>, exec_write: OwnedFd) -> ! {
    let status = status_write.as_raw_fd();
    let mut keep = [status, fresh.unwrap_or(status), exec_write.as_raw_fd()];
    close_all_but_these(&mut keep);
    if let Some(exe) = fresh {
        exec_fresh_init(exe, status, program);
    }
    drop(exec_write);
    init_loop(program, status)
}

/// The fd a fresh init writes the program's ending to.
const FRESH_INIT_STATUS_FD: RawFd = 3;
/// The fresh init's `argv[0]`: the hidden role salgrade's executable takes
/// on when started with it (and only then).
const FRESH_INIT_ARGV0: &[u8] = b"salgrade-sandbox-init\0";

/// Replaces this (forked) init with a fresh image of salgrade's executable,
/// with an empty environment and argv `salgrade-sandbox-init PID`, the
/// status pipe on fd 3. Returns only if the exec failed.
fn exec_fresh_init(exe: RawFd, status: RawFd, program: Pid) {
    if status != FRESH_INIT_STATUS_FD {
        // SAFETY: dup2 onto a descriptor number this process does not use
        // (every other was closed); the copy is not close-on-exec.
        if unsafe { nix::libc::dup2(status, FRESH_INIT_STATUS_FD) } < 0 {
            return;
        }
    } else {
        // SAFETY: clears close-on-exec on a descriptor this process owns.
        unsafe { nix::libc::fcntl(status, nix::libc::F_SETFD, 0) };
    }
    // The program's pid in decimal, on the stack (no allocation here).
    let mut digits = [0u8; 24];
    let mut at = digits.len() - 1;
    let mut n = program.as_raw().max(0) as u32;
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    let argv: [*const nix::libc::c_char; 3] = [
        FRESH_INIT_ARGV0.as_ptr().cast(),
        digits[at..].as_ptr().cast(),
        std::ptr::null(),
    ];
    let envp: [*const nix::libc::c_char; 1] = [std::ptr::null()];
    // SAFETY: execveat on an fd this process holds, with NUL-terminated
    // strings and NULL-terminated arrays that live on this stack frame.
    unsafe {
        nix::libc::syscall(
            nix::libc::SYS_execveat,
            exe,
            c"".as_ptr(),
            argv.as_ptr(),
            envp.as_ptr(),
            nix::libc::AT_EMPTY_PATH,
        );
    }
}

/// salgrade's own executable, opened once, for fresh inits; `None` where
/// the fresh init cannot be entered (not glibc, which alone passes argv to
/// the constructor that takes the role) or the executable cannot be opened.
fn init_executable() -> Option<RawFd> {
    static EXE: std::sync::OnceLock<Option<OwnedFd>> = std::sync::OnceLock::new();
    if !cfg!(all(target_os = "linux", target_env = "gnu")) {
        return None;
    }
    EXE.get_or_init(|| {
        nix::fcntl::open(
            c"/proc/self/exe",
            OFlag::O_RDONLY | OFlag::O_CLOEXEC,
            Mode::empty(),
        )
        .ok()
    })
    .as_ref()
    .map(AsRawFd::as_raw_fd)
}

/// Runs before `main` in every process of salgrade's executable (glibc
/// calls `.init_array` entries with argc, argv and envp): in a fresh init,
/// started as `salgrade-sandbox-init PID` by [`exec_fresh_init`], it does
/// init's work and exits; in any other process it returns at once.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[used]
#[unsafe(link_section = ".init_array")]
static FRESH_INIT: extern "C" fn(
    nix::libc::c_int,
    *const *const nix::libc::c_char,
    *const *const nix::libc::c_char,
) = fresh_init_entry;

#[cfg(all(target_os = "linux", target_env = "gnu"))]
extern "C" fn fresh_init_entry(
    argc: nix::libc::c_int,
    argv: *const *const nix::libc::c_char,
    _envp: *const *const nix::libc::c_char,
) {
    if argc != 2 || argv.is_null() {
        return;
    }
    // SAFETY: glibc passes the process's argv: `argc` valid pointers to
    // NUL-terminated strings.
    let (role, pid) = unsafe {
        (
            std::ffi::CStr::from_ptr(*argv),
            std::ffi::CStr::from_ptr(*argv.add(1)),
        )
    };
    if role.to_bytes_with_nul() != FRESH_INIT_ARGV0 {
        return;
    }
    let Some(program) = std::str::from_utf8(pid.to_bytes())
        .ok()
        .and_then(|p| p.parse::<i32>().ok())
    else {
        // SAFETY: as in `init`.
        unsafe { nix::libc::_exit(1) }
    };
    // Not dumpable: its /proc files belong to root and its memory cannot be
    // read by a process of the namespace's own user.
    let _ = nix::sys::prctl::set_dumpable(false);
    init_loop(Pid::from_raw(program), FRESH_INIT_STATUS_FD)
}

/// Init's work: reaps everything until the program ends, writes how it
/// ended to `status`, and exits.
fn init_loop(program: Pid, status: RawFd) -> ! {
    let ending = loop {
        match waitpid(Pid::from_raw(-1), None) {
            Ok(status) if status.pid() == Some(program) => {
                if let Some(e) = ending_of(status) {
                    break e;
                }
            }
            Ok(_) | Err(Errno::EINTR) => {}
            Err(_) => break [0, 1],
        }
    };
    // SAFETY: `status` stays open until this process exits.
    let _ = nix::unistd::write(unsafe { BorrowedFd::borrow_raw(status) }, &ending);
    // SAFETY: _exit ends the process at once, as a forked child must.
    unsafe { nix::libc::_exit(0) }
}

/// Ends this process as the program ended: the same code, or the same signal.
fn end_as(ending: Ending) -> ! {
    if ending[0] == 1 {
        if let Ok(signal) = Signal::try_from(i32::from(ending[1])) {
            let default = SigAction::new(SigHandler::SigDfl, SaFlags::empty(), SigSet::empty());
            // SAFETY: restoring the default action installs no handler.
            let _ = unsafe { sigaction(signal, &default) };
            let _ = SigSet::from(signal).thread_unblock();
            let _ = nix::sys::signal::raise(signal);
        }
        // SAFETY: as in `init`.
        unsafe { nix::libc::_exit(128 + i32::from(ending[1])) }
    }
    // SAFETY: as in `init`.
    unsafe { nix::libc::_exit(i32::from(ending[1])) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Threads that each write a program and run it at once, while the
    /// others fork children that linger before their exec, never meet
    /// "Text file busy".
    #[test]
    fn a_program_just_written_never_meets_text_file_busy() {
        // Padded, so that writing it takes long enough for other threads'
        // forks to land while it is open (an ELF file runs with junk after it).
        let mut program = std::fs::read("/bin/true").expect("/bin/true exists");
        program.resize(program.len() + (4 << 20), 0);
        let dir = tempfile::tempdir().unwrap();
        std::thread::scope(|scope| {
            for t in 0..4 {
                let (program, dir) = (&program, dir.path());
                scope.spawn(move || {
                    for i in 0..10 {
                        let path = dir.join(format!("prog-{t}-{i}"));
                        writing_program(|| {
                            use std::os::unix::fs::PermissionsExt;
                            std::fs::write(&path, program)?;
                            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o700))
                        })
                        .unwrap();
                        let mut cmd = Command::new(&path);
                        // SAFETY: nanosleep is async-signal-safe; the pause
                        // widens the window between fork and exec in which
                        // another thread's descriptors are held.
                        unsafe {
                            cmd.pre_exec(|| {
                                let pause = nix::libc::timespec {
                                    tv_sec: 0,
                                    tv_nsec: 2_000_000,
                                };
                                nix::libc::nanosleep(&pause, std::ptr::null_mut());
                                Ok(())
                            });
                        }
                        match forking(|| cmd.spawn()) {
                            Ok(mut child) => assert!(child.wait().unwrap().success()),
                            Err(e) => panic!("cannot run {}: {e}", path.display()),
                        }
                    }
                });
            }
        });
    }
}
