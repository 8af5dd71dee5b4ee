//! The spawning of a session: its folder and files, its cgroups, the
//! patient spawn, the protocol pipes, and the reader and writer threads
//! that feed its event loop.

use std::io::{BufRead, BufReader, Read, Write};
use std::os::fd::OwnedFd;
use std::path::Path;
use std::process::{Child, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, SyncSender};
use std::time::{Duration, Instant};

use super::clock::CpuClock;
use super::{Event, RunnerConfig, Session, SessionError, SessionFile};
use crate::runner::capture;
use crate::runner::cgroup::{SessionGroup, SlotGroup};
use crate::runner::plan::Program;
use crate::runner::sandbox::{self, SandboxKind};
use crate::runner::unix::{self, Group};

/// The longest protocol line the runner accepts from a driver before its
/// first call, and in answer to a rule check (its findings on a very large
/// file); each call of a student's function sets its own (see
/// [`Session::send`]).
pub(super) const FIRST_LINE_CAP: usize = 16 * 1024 * 1024;

/// How many of a program's lines may wait to be taken.
const LINES_IN_FLIGHT: usize = 4;

/// How long a start that fails for want of a task (EAGAIN: the slot's
/// `pids` limit, or the slot uid's RLIMIT_NPROC) is retried: a dying
/// namespace's tasks are counted until they are reaped.
const SPAWN_PATIENCE: Duration = Duration::from_secs(3);

impl Session {
    /// Starts a program without waiting for it (a spare boots while
    /// salgrade does other work); [`Session::await_start`] waits.
    pub(crate) fn spawn(
        cfg: &RunnerConfig,
        files: &[SessionFile<'_>],
        program: &Program<'_>,
        slot: usize,
    ) -> Result<Session, SessionError> {
        Session::spawn_in(cfg, files, program, slot, Beside::Nothing)
    }

    /// Starts a program beside a live session of the same submission in
    /// its slot (a spare): the slot is not emptied first.
    pub(crate) fn spawn_spare(
        cfg: &RunnerConfig,
        files: &[SessionFile<'_>],
        program: &Program<'_>,
        slot: usize,
    ) -> Result<Session, SessionError> {
        Session::spawn_in(cfg, files, program, slot, Beside::Live)
    }

    fn spawn_in(
        cfg: &RunnerConfig,
        files: &[SessionFile<'_>],
        program: &Program<'_>,
        slot: usize,
        beside: Beside,
    ) -> Result<Session, SessionError> {
        let dir = session_folder(files)?;
        let (req_read, req_write) = pipe()?;
        let (resp_read, resp_write) = pipe()?;
        let mut launch = sandbox::launch(cfg.sandbox, program, dir.path(), slot, cfg.uids.base)
            .map_err(SessionError::Pipe)?;
        let Groups {
            cgroup,
            cpu_group,
            join,
        } = join_groups(cfg, slot, beside, program.limits.processes)?;
        let oom_baseline = cgroup.as_ref().map_or(0, SlotGroup::oom_kills);
        // The folder stays 0700: only the identity the student runs as (the
        // slot's uid, or salgrade's own) may enter it, so concurrently graded
        // students cannot read each other's files.
        if let Some(id) = launch.identity {
            chown_tree(dir.path(), id.uid, id.gid);
        }
        unix::prepare(
            &mut launch.command,
            &req_read,
            &resp_write,
            launch.limits,
            launch.identity,
            [join.first(), join.get(1), join.get(2)],
            launch.confine.take(),
            launch.filters,
        );
        launch
            .command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = spawn_patiently(&mut launch.command, cgroup.as_ref(), beside)?;
        drop(req_read);
        drop(resp_write);
        drop(std::mem::take(&mut launch.filter_pipes));
        let group = Group(child.id() as i32);
        group.register();

        let channel = Channel::open(resp_read, req_write);
        let (stdout, _) = capture::drain(
            child.stdout.take().expect("stdout is piped"),
            cfg.output_cap,
        );
        let (stderr, _) = capture::drain(
            child.stderr.take().expect("stderr is piped"),
            cfg.output_cap,
        );
        Ok(Session {
            child,
            group,
            requests: Some(channel.requests),
            events: channel.events,
            line_cap: channel.line_cap,
            stdout,
            stderr,
            sweep_uid: launch.sweep_uid,
            sandbox: cfg.sandbox,
            cgroup,
            cpu: cpu_group.as_ref().and_then(CpuClock::of_group),
            cpu_at_end: None,
            cpu_group,
            cgroups: cfg.cgroups.clone(),
            oom_baseline,
            finished: false,
            spawned: Instant::now(),
            inner: Vec::new(),
            inner_exits: Vec::new(),
            linted: None,
            dir,
        })
    }
}

/// The protocol channel's ends in salgrade: the requests to write, the
/// events read, and the cap on the length of a line read.
struct Channel {
    requests: Sender<Vec<u8>>,
    events: Receiver<Event>,
    line_cap: std::sync::Arc<AtomicUsize>,
}

impl Channel {
    /// Starts the reader and the writer threads on the pipes' ends.
    fn open(responses: OwnedFd, requests: OwnedFd) -> Channel {
        // A few lines in flight at most: a program that writes faster
        // than they are taken waits, rather than salgrade holding them.
        let (tx, events) = mpsc::sync_channel(LINES_IN_FLIGHT);
        let line_cap = std::sync::Arc::new(AtomicUsize::new(FIRST_LINE_CAP));
        spawn_reader(responses, tx, line_cap.clone());
        let (req_tx, req_rx) = mpsc::channel::<Vec<u8>>();
        spawn_writer(requests, req_rx);
        Channel {
            requests: req_tx,
            events,
            line_cap,
        }
    }
}

/// A fresh session folder holding `files`.
fn session_folder(files: &[SessionFile<'_>]) -> Result<tempfile::TempDir, SessionError> {
    let dir = tempfile::Builder::new()
        .prefix("salgrade-")
        .tempdir()
        .map_err(SessionError::TempDir)?;
    write_files(dir.path(), files)?;
    Ok(dir)
}

/// Writes the session's `files` into its folder `dir`.
fn write_files(dir: &Path, files: &[SessionFile<'_>]) -> Result<(), SessionError> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    for f in files {
        let path = dir.join(f.name);
        let write = || {
            // A module's bytecode goes in `__pycache__`, made 0700 as the
            // folder itself is.
            if let Some(parent) = path.parent().filter(|p| *p != dir && !p.exists()) {
                std::fs::DirBuilder::new()
                    .mode(0o700)
                    .recursive(true)
                    .create(parent)?;
            }
            std::fs::write(&path, f.contents).and_then(|()| {
                let mode = if f.executable { 0o700 } else { 0o600 };
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode))
            })
        };
        let written = if f.executable {
            unix::writing_program(write)
        } else {
            write()
        };
        written.map_err(|source| SessionError::WriteFile {
            name: f.name.to_owned(),
            source,
        })?;
    }
    Ok(())
}

/// A session's cgroups, and the descriptors its child joins them through.
struct Groups {
    cgroup: Option<SlotGroup>,
    cpu_group: Option<SessionGroup>,
    join: Vec<OwnedFd>,
}

/// The slot's cgroup (emptied unless something runs beside the session),
/// the session's own CPU cgroup, and the descriptors the child joins them
/// through; none outside a sandbox or without cgroups. A session alone in
/// its slot sets the slot's process cap to its program's.
fn join_groups(
    cfg: &RunnerConfig,
    slot: usize,
    beside: Beside,
    processes: u64,
) -> Result<Groups, SessionError> {
    let cgroup = match &cfg.cgroups {
        Some(c) if cfg.sandbox != SandboxKind::None => {
            Some(c.slot(slot).map_err(SessionError::Cgroup)?)
        }
        _ => None,
    };
    let mut join = match &cgroup {
        Some(g) => g.join_fds().map_err(SessionError::Cgroup)?,
        None => Vec::new(),
    };
    // The session's own cgroup last: on v2 it lies below the slot's, and
    // a process is where it was written last.
    let cpu_group = match &cfg.cgroups {
        Some(c) if cgroup.is_some() => c.session(slot),
        _ => None,
    };
    if let Some(g) = &cpu_group {
        join.push(g.join_fd().map_err(SessionError::Cgroup)?);
    }
    if let (Some(group), Beside::Nothing) = (&cgroup, beside) {
        group.empty();
        group
            .cap_processes(processes)
            .map_err(SessionError::Cgroup)?;
    }
    Ok(Groups {
        cgroup,
        cpu_group,
        join,
    })
}

/// What else of the submission may be running in the slot when a session
/// starts.
#[derive(Clone, Copy)]
enum Beside {
    Nothing,
    Live,
}

/// Spawns `command`, waiting and retrying while the system refuses a new
/// task (EAGAIN) or the sandbox's init could not become a fresh image
/// (ENOEXEC), for [`SPAWN_PATIENCE`]; a spare, which boots while a case
/// runs on the clock, is tried once (a refusal means no spare, never a
/// wait). An EAGAIN that outlasts the patience while the
/// slot's cgroup still holds tasks is the student's (their own processes
/// fill it); anything else is the harness's.
fn spawn_patiently(
    command: &mut std::process::Command,
    cgroup: Option<&SlotGroup>,
    beside: Beside,
) -> Result<Child, SessionError> {
    let patience = match beside {
        Beside::Nothing => SPAWN_PATIENCE,
        Beside::Live => Duration::ZERO,
    };
    let until = Instant::now() + patience;
    let mut pause = Duration::from_millis(5);
    loop {
        // Never while a program file is being written (see `unix::forking`).
        match unix::forking(|| command.spawn()) {
            Ok(child) => return Ok(child),
            // EAGAIN: the system refused a new task. ENOEXEC: the
            // sandbox's init could not become a fresh image (short of
            // memory, say), so the program did not start beside it.
            Err(e)
                if matches!(
                    e.raw_os_error(),
                    Some(nix::libc::EAGAIN | nix::libc::ENOEXEC)
                ) && Instant::now() < until =>
            {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(200));
            }
            Err(source) => {
                let tasks = cgroup.and_then(SlotGroup::tasks).unwrap_or(0);
                if source.raw_os_error() == Some(nix::libc::EAGAIN) && tasks > 0 {
                    return Err(SessionError::SlotFull { tasks });
                }
                let program = command.get_program().to_string_lossy().into_owned();
                return Err(SessionError::Spawn { program, source });
            }
        }
    }
}

fn pipe() -> Result<(OwnedFd, OwnedFd), SessionError> {
    let (r, w) = nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC)
        .map_err(|e| SessionError::Pipe(e.into()))?;
    let r = unix::lift_fd(r).map_err(SessionError::Pipe)?;
    let w = unix::lift_fd(w).map_err(SessionError::Pipe)?;
    Ok((r, w))
}

/// Reads the program's lines, each within the cap in force when its first
/// byte came (so after the request it answers was sent, which sets the
/// cap): the bytes of a line beyond it are never held, and the session
/// ends.
fn spawn_reader(fd: OwnedFd, tx: SyncSender<Event>, cap: std::sync::Arc<AtomicUsize>) {
    std::thread::spawn(move || {
        let mut reader = BufReader::with_capacity(1 << 16, std::fs::File::from(fd));
        loop {
            // Wait for the line's first byte before reading the cap: the
            // cap of the call it answers is set before its request is sent.
            if reader.fill_buf().map_or(true, <[u8]>::is_empty) {
                let _ = tx.send(Event::Closed);
                return;
            }
            let max = cap.load(Ordering::Relaxed);
            let mut line = Vec::new();
            let read = (&mut reader)
                .take(max as u64 + 1)
                .read_until(b'\n', &mut line);
            match read {
                Ok(0) | Err(_) => {
                    let _ = tx.send(Event::Closed);
                    return;
                }
                Ok(_) if line.len() > max => {
                    let _ = tx.send(Event::TooLong);
                    return;
                }
                Ok(_) => {
                    while line.last().is_some_and(u8::is_ascii_whitespace) {
                        line.pop();
                    }
                    // Valid UTF-8 (every honest line) is taken as it is,
                    // without a copy.
                    let text = String::from_utf8(line)
                        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
                    if tx.send(Event::Line(text)).is_err() {
                        return;
                    }
                }
            }
        }
    });
}

fn spawn_writer(fd: OwnedFd, rx: Receiver<Vec<u8>>) {
    std::thread::spawn(move || {
        let mut file = std::fs::File::from(fd);
        for line in rx {
            if file.write_all(&line).is_err() {
                return;
            }
        }
    });
}

fn chown_tree(dir: &Path, uid: u32, gid: u32) {
    // salgrade's own folder, written just now: no links to follow.
    for e in walkdir::WalkDir::new(dir)
        .follow_links(false)
        .into_iter()
        .flatten()
    {
        let _ = std::os::unix::fs::lchown(e.path(), Some(uid), Some(gid));
    }
}
