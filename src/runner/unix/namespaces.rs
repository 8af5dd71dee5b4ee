//! The `namespaces` backend's child side, between fork and exec: unsharing
//! the namespaces, the user maps, and the fresh read-only root with its
//! binds and overlays. Async-signal-safe only: nothing here allocates.

use std::io;
use std::os::fd::RawFd;

use nix::errno::Errno;
use nix::fcntl::{AT_FDCWD, OFlag};
use nix::mount::{MntFlags, MsFlags, mount, umount2};
use nix::sched::{CloneFlags, unshare};
use nix::sys::signal::Signal;
use nix::sys::stat::{Mode, umask};
use nix::sys::statvfs::{FsFlags, statvfs};
use nix::unistd::{ForkResult, Gid, Uid, chdir, fork, mkdir, pivot_root, sethostname, symlinkat};

use crate::runner::plan::{Access, Plan, Step};

use super::init::{init, keep};

/// Enters the plan's namespaces and root: called in the keeper, it forks
/// the namespace's init, which builds the root and forks the program; it
/// returns only in the program. Init then replaces itself with a fresh
/// image of salgrade's executable (`fresh_init`) in its init role, before
/// the program may exec: the namespace's PID 1, which the student can see
/// in `/proc/1`, holds nothing of the grader (no argv, no environment, no
/// heap with the expected answers).
pub(super) fn enter(plan: &Plan, fresh_init: Option<RawFd>) -> io::Result<()> {
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
    // has exited), never while init is still a copy of salgrade; it reads
    // a byte when init could not become one.
    let (exec_read, exec_write) = nix::unistd::pipe2(OFlag::O_CLOEXEC)?;
    // SAFETY: as above.
    if let ForkResult::Parent { child } = unsafe { fork() }? {
        drop(exec_read);
        init(child, status_write, fresh_init, exec_write);
    }
    drop(status_write);
    drop(exec_write);
    let mut byte = [0u8; 1];
    let read = loop {
        match nix::unistd::read(&exec_read, &mut byte) {
            Err(Errno::EINTR) => {}
            other => break other,
        }
    };
    drop(exec_read);
    // Only end-of-file says init is a fresh image (or gone): a byte
    // (`NO_FRESH_INIT`) or an error, and the program does not start
    // beside what may still be a copy of salgrade.
    if read != Ok(0) {
        return Err(io::Error::from_raw_os_error(nix::libc::ENOEXEC));
    }
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
            MsFlags::MS_NOSUID | MsFlags::MS_NODEV | MsFlags::MS_NOEXEC | MsFlags::MS_RDONLY,
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
