//! The only `unsafe` in salgrade: what runs in the child between `fork` and
//! `exec` (protocol fds, resource limits, the namespaces of the `namespaces`
//! backend, dropping privileges) and signals to a process group.
//!
//! Everything the `pre_exec` closure needs is computed before it is built:
//! between fork and exec only async-signal-safe system calls are allowed, so
//! the closure allocates nothing and takes no locks.

//!
//! This file holds the child's preparation (`prepare`), process groups,
//! signals, reaping and descriptors; `namespaces` enters the `namespaces`
//! backend's namespaces and builds its root, and `init` holds the keeper
//! and the namespace's init.

mod init;
mod namespaces;

use std::io;
use std::os::fd::{AsRawFd, BorrowedFd, FromRawFd, IntoRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::process::Command;

use nix::fcntl::{FcntlArg, fcntl};
use nix::sys::resource::{Resource, setrlimit};
use nix::sys::signal::{Signal, killpg};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::{Gid, Pid, Uid, dup2_raw, setgid, setgroups, setuid};

use super::plan::{ChildFilters, ChildLimits, Identity, Plan};
use init::init_executable;
use namespaces::enter;

/// The fds the driver finds its protocol on.
pub(crate) const CHILD_REQUEST_FD: RawFd = 3;
pub(crate) const CHILD_RESPONSE_FD: RawFd = 4;
/// The first fd a program that installs filters itself (bubblewrap) finds
/// them on; the next filter is on the next fd.
pub(crate) const CHILD_FILTER_FD: RawFd = 5;

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
/// and root of `confine` (see `confine.rs`), run as `identity`, and run
/// under `filters` (see `syscalls.rs`).
#[expect(
    clippy::too_many_arguments,
    reason = "each is one part of the child's set-up, all applied in one pre_exec"
)]
pub(crate) fn prepare(
    cmd: &mut Command,
    request: &OwnedFd,
    response: &OwnedFd,
    limits: Option<ChildLimits>,
    identity: Option<Identity>,
    join: [Option<&OwnedFd>; 3],
    confine: Option<Plan>,
    filters: ChildFilters,
) {
    let request = request.as_raw_fd();
    let response = response.as_raw_fd();
    let join = join.map(|fd| fd.map(AsRawFd::as_raw_fd));
    let fresh_init = confine.as_ref().and_then(|_| init_executable());
    cmd.process_group(0);
    // SAFETY: the closure runs between fork and exec; the raw fds stay open
    // in the parent until after spawn returns; it only calls write, dup2,
    // setrlimit, setgroups (with an empty slice), setgid, setuid, prctl,
    // seccomp (through `apply_filter`, on programs built before the fork;
    // its error is an OS error code, which does not allocate) and, with a
    // plan, what `enter` calls: all async-signal-safe system calls, on C
    // strings made before the fork; it allocates nothing.
    unsafe {
        cmd.pre_exec(move || {
            // Join the slot's cgroups first, while still privileged: every
            // process the student starts is then born inside them.
            for fd in join.into_iter().flatten() {
                nix::unistd::write(BorrowedFd::borrow_raw(fd), b"0")?;
            }
            place_descriptors(request, response, filters)?;
            if let Some(l) = limits {
                set_limits(&l)?;
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
            // After everything that makes the sandbox (which the filters
            // deny), before the program.
            if let ChildFilters::Install(programs) = filters {
                install_filters(programs)?;
            }
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

/// In the child, between fork and exec: `request` on fd 3, `response` on
/// fd 4, the filters a program installs itself on 5 and up, and every
/// other descriptor closed at exec. Async-signal-safe: system calls only.
fn place_descriptors(request: RawFd, response: RawFd, filters: ChildFilters) -> io::Result<()> {
    // `dup2_raw` hands back the new fd as an `OwnedFd`; it must stay open
    // for the program, so ownership is given up, not dropped.
    let onto = |fd: RawFd, target: RawFd| -> io::Result<()> {
        // SAFETY: `fd` is open in this child (the parent keeps it open
        // until the spawn returns), and `target` is a number the program
        // takes over: nothing else in this child uses it.
        let _ = unsafe { dup2_raw(BorrowedFd::borrow_raw(fd), target) }
            .map_err(io::Error::from)?
            .into_raw_fd();
        Ok(())
    };
    onto(request, CHILD_REQUEST_FD)?;
    onto(response, CHILD_RESPONSE_FD)?;
    let mut next = CHILD_FILTER_FD;
    if let ChildFilters::Inherit(fds) = filters {
        for fd in fds {
            onto(fd, next)?;
            next += 1;
        }
    }
    // Every other descriptor this child holds (salgrade's own, and any
    // salgrade itself inherited without close-on-exec) is closed at exec:
    // the program starts with 0 to 4 (and its filters) only. std's own
    // exec-error pipe is close-on-exec already, so it still works.
    close_from_on_exec(next);
    Ok(())
}

/// In the child: the resource limits but the open-files one (set last).
fn set_limits(l: &ChildLimits) -> io::Result<()> {
    setrlimit(Resource::RLIMIT_AS, l.address_space, l.address_space)?;
    setrlimit(Resource::RLIMIT_CPU, l.cpu_seconds.0, l.cpu_seconds.1)?;
    setrlimit(Resource::RLIMIT_FSIZE, l.file_size, l.file_size)?;
    setrlimit(Resource::RLIMIT_NPROC, l.processes, l.processes)?;
    setrlimit(Resource::RLIMIT_CORE, 0, 0)?;
    // No POSIX message queue: nothing a student needs, and a queue could
    // carry marks between a submission's processes.
    setrlimit(Resource::RLIMIT_MSGQUEUE, 0, 0)?;
    Ok(())
}

/// In the child, after everything that builds the sandbox (which the
/// filters deny) and before the program: the system-call filters.
fn install_filters(programs: &[seccompiler::BpfProgram]) -> io::Result<()> {
    for program in programs {
        seccompiler::apply_filter(program)
            .map_err(|_| io::Error::from_raw_os_error(nix::libc::EPERM))?;
    }
    Ok(())
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

/// A descriptor that stands for the process `pid` (a pidfd, close-on-exec),
/// which becomes readable once that process has exited, and never comes to
/// mean another process that is given the same pid; `None` where the
/// kernel has none (before Linux 5.3) or the process is gone.
pub(crate) fn pidfd(pid: i32) -> Option<OwnedFd> {
    // SAFETY: pidfd_open takes a pid and a flags word, reads no memory of
    // ours, and returns a new descriptor or -1.
    let fd = unsafe { nix::libc::syscall(nix::libc::SYS_pidfd_open, pid, 0) };
    let fd = RawFd::try_from(fd).ok().filter(|&fd| fd >= 0)?;
    // SAFETY: the kernel just returned this descriptor; nothing else owns it.
    Some(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// Whether the process behind `pidfd` has not exited yet (its pidfd is
/// readable from its exit on).
pub(crate) fn still_running(pidfd: &OwnedFd) -> bool {
    use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
    use std::os::fd::AsFd;
    let mut fds = [PollFd::new(pidfd.as_fd(), PollFlags::POLLIN)];
    matches!(poll(&mut fds, PollTimeout::ZERO), Ok(0))
}

/// Waits until the processes behind `pidfds` have exited, for at most
/// `patience` in all: woken by the kernel at the exit, rather than polling
/// (a PID namespace's init exits only once everything in its namespace
/// has, so this is the moment the namespace is gone).
pub(crate) fn await_exits(pidfds: &[OwnedFd], patience: std::time::Duration) {
    use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
    use std::os::fd::AsFd;
    let until = std::time::Instant::now() + patience;
    for fd in pidfds {
        loop {
            let left = until.saturating_duration_since(std::time::Instant::now());
            let timeout = PollTimeout::try_from(left).unwrap_or(PollTimeout::ZERO);
            let mut fds = [PollFd::new(fd.as_fd(), PollFlags::POLLIN)];
            match poll(&mut fds, timeout) {
                Err(nix::errno::Errno::EINTR) if !left.is_zero() => {}
                _ => break,
            }
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

/// Keeps what salgrade allocates from outgrowing what it holds. glibc's
/// allocator raises its threshold for serving a large block from the heap
/// each time one is freed, and keeps up to eight heaps per core for its
/// threads; salgrade reads many large lines (an answer for a large board,
/// or a student's oversized one) on short-lived threads, and so held
/// hundreds of MiB it no longer used. A fixed threshold (which turns the
/// raising off) serves each large block by `mmap` and gives it back when
/// freed; two heaps are enough for its threads.
pub(crate) fn bound_the_allocator() {
    #[cfg(target_env = "gnu")]
    // SAFETY: mallopt only sets the allocator's parameters; it is called
    // before any thread of salgrade's starts.
    unsafe {
        nix::libc::mallopt(nix::libc::M_MMAP_THRESHOLD, 256 * 1024);
        nix::libc::mallopt(nix::libc::M_ARENA_MAX, 2);
    }
}

/// Takes descriptors 3 to 9 for the whole run (`/dev/null`, close-on-exec),
/// so that no pipe or file of salgrade's is ever given one of them: a child
/// has the protocol put on 3 and 4 and bubblewrap's filters on 5 and up by
/// `dup2`, which would overwrite a descriptor of salgrade's there (std's own
/// exec-error pipe among them). Those already open are left as they are.
pub(crate) fn reserve_low_fds() {
    use nix::fcntl::{OFlag, open};
    use nix::sys::stat::Mode;
    while let Ok(fd) = open(
        "/dev/null",
        OFlag::O_RDONLY | OFlag::O_CLOEXEC,
        Mode::empty(),
    ) {
        if fd.as_raw_fd() >= 10 {
            break; // closed here
        }
        // Held until the process ends.
        let _ = fd.into_raw_fd();
    }
}

/// Whether this process runs as root (and so RLIMIT_NPROC would not bind it).
pub(crate) fn is_root() -> bool {
    Uid::effective().is_root()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn once_reserved_no_new_descriptor_is_one_a_child_fills() {
        use std::os::fd::AsRawFd;
        super::reserve_low_fds();
        let (read, write) = nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC).unwrap();
        assert!(read.as_raw_fd() >= 10 && write.as_raw_fd() >= 10);
    }

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
