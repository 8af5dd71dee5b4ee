//! The keeper and the namespace's init: the keeper waits outside the
//! namespaces and ends as the program ended; init reaps inside them, first
//! replacing itself with a fresh image of salgrade's executable in its init
//! role (entered from `.init_array`, before `main`).

use std::os::fd::{AsRawFd, BorrowedFd, OwnedFd, RawFd};

use nix::errno::Errno;
use nix::fcntl::OFlag;
use nix::sys::signal::{SaFlags, SigAction, SigHandler, SigSet, Signal, sigaction};
use nix::sys::stat::Mode;
use nix::sys::wait::{WaitStatus, waitpid};
use nix::unistd::Pid;

use super::{close_all_but, close_all_but_these};

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
pub(super) fn keep(init: Pid, status_read: OwnedFd, status_write: OwnedFd) -> ! {
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
/// inside. Where that exec fails (the system short of memory, say), or
/// salgrade's executable could not be opened for it, this copy, which
/// holds salgrade's arguments, environment and heap where the program
/// could read them in `/proc/1`, tells the program not to start
/// ([`NO_FRESH_INIT`]), then reaps it. (Where no fresh init can be entered
/// at all, not on glibc, this copy is init.)
pub(super) fn init(
    program: Pid,
    status_write: OwnedFd,
    fresh: Option<RawFd>,
    exec_write: OwnedFd,
) -> ! {
    let status = status_write.as_raw_fd();
    let mut keep = [status, fresh.unwrap_or(status), exec_write.as_raw_fd()];
    close_all_but_these(&mut keep);
    if let Some(exe) = fresh {
        exec_fresh_init(exe, status, program);
    }
    // Here only when no fresh image could be entered: on glibc, where it
    // can, that is a failure, and the program must not start.
    if fresh.is_some() || cfg!(all(target_os = "linux", target_env = "gnu")) {
        while let Err(Errno::EINTR) = nix::unistd::write(&exec_write, &[NO_FRESH_INIT]) {}
    }
    drop(exec_write);
    init_loop(program, status)
}

/// The byte init writes to the program when it could not become a fresh
/// image: the program then fails to start (`ENOEXEC`, which salgrade's
/// spawn retries for a while, then counts as its own failure, never the
/// student's), instead of running beside a copy of salgrade.
const NO_FRESH_INIT: u8 = 1;

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
pub(super) fn init_executable() -> Option<RawFd> {
    static EXE: std::sync::OnceLock<OwnedFd> = std::sync::OnceLock::new();
    if !cfg!(all(target_os = "linux", target_env = "gnu")) {
        return None;
    }
    if let Some(fd) = EXE.get() {
        return Some(fd.as_raw_fd());
    }
    // Not kept when it fails (too many files open, say): the next session
    // tries again, and this one's init refuses to start the program.
    let opened = nix::fcntl::open(
        c"/proc/self/exe",
        OFlag::O_RDONLY | OFlag::O_CLOEXEC,
        Mode::empty(),
    )
    .ok()?;
    // Far above 3 and 4, where the child puts the protocol's pipes.
    let high = super::lift_fd(opened).ok()?;
    Some(EXE.get_or_init(|| high).as_raw_fd())
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
