//! A session's CPU clock: the CPU time the student's program has used, read
//! from its session cgroup or from its own `/proc/PID/schedstat`, and, where
//! the kernel gives it, from the program's process CPU clock (all its threads).

use std::os::fd::OwnedFd;
use std::time::Duration;

use nix::time::ClockId;

use crate::runner::cgroup::{CpuFormat, SessionGroup};
use crate::runner::unix;

/// The CPU time the student's program has used, from a file kept open and
/// read from the start each time: its session cgroup's (every thread and
/// child of the session counted, the ones that exited too), or, without
/// one, the program's own `/proc/PID/schedstat` (its main thread only;
/// nanoseconds on the CPU, precise where `/proc/PID/stat` counts ticks).
///
/// Beside schedstat (never a cgroup's count, which holds it), the program's
/// process CPU clock (`clock_getcpuclockid`): every thread of the process,
/// not its children. Where it is known, a call's CPU time is the larger of
/// the two clocks' counts, each against its own reading at the request and
/// each the CPU time of some of what the session ran, never more than all
/// of it: so the reading is never ahead of the truth, and without a cgroup
/// a thread's work counts too (schedstat sees the main thread only).
///
/// All of these are brought up to date by the scheduler only at its tick
/// (every 4 ms at `HZ=250`) while the program runs: the kernel reads
/// another process's clock without updating it (it updates only the
/// reader's own), so a loop is stopped up to a tick after its deadline.
pub(super) struct CpuClock {
    file: std::fs::File,
    kind: ClockKind,
    program: Option<ProgramClock>,
}

#[derive(Clone, Copy)]
enum ClockKind {
    Schedstat,
    Cgroup(CpuFormat),
}

/// The program's process CPU clock, and its pidfd: a reading is used only
/// while the process has not exited, so a pid used again after it is never
/// read in its place.
struct ProgramClock {
    clock: ClockId,
    alive: OwnedFd,
}

/// One reading of a [`CpuClock`]: the whole clock's count, and the
/// program's own where it was read.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CpuReading {
    total: Duration,
    program: Option<Duration>,
}

impl CpuReading {
    /// All the CPU time the session is known to have used: the larger of
    /// the two clocks' counts (each from its own start, neither more than
    /// the session used).
    pub(crate) fn whole(&self) -> Duration {
        self.program.map_or(self.total, |p| self.total.max(p))
    }

    /// The CPU time used since `start`: the larger of each clock's count
    /// since its own reading at `start`.
    pub(crate) fn since(&self, start: &CpuReading) -> Duration {
        let total = self.total.saturating_sub(start.total);
        match (self.program, start.program) {
            (Some(now), Some(then)) => total.max(now.saturating_sub(then)),
            _ => total,
        }
    }
}

impl CpuClock {
    /// The clock of the program `depth` levels below `pid` (the sandbox's
    /// own processes first: bubblewrap's two, or the keeper and init of
    /// salgrade's namespaces).
    /// Also returns the program's pid and the processes passed on the way
    /// down.
    pub(super) fn find(pid: u32, depth: usize) -> Option<(CpuClock, u32, Vec<i32>)> {
        let mut here = pid;
        let mut inner = Vec::new();
        for level in 0..depth {
            let children =
                std::fs::read_to_string(format!("/proc/{here}/task/{here}/children")).ok()?;
            here = children.split_whitespace().next()?.parse().ok()?;
            if level + 1 < depth {
                inner.push(here as i32);
            }
        }
        let file = std::fs::File::open(format!("/proc/{here}/schedstat")).ok()?;
        let clock = CpuClock {
            file,
            kind: ClockKind::Schedstat,
            program: None,
        };
        Some((clock, here, inner))
    }

    pub(super) fn of_group(group: &SessionGroup) -> Option<CpuClock> {
        let (file, format) = group.cpu_file()?;
        Some(CpuClock {
            file,
            kind: ClockKind::Cgroup(format),
            program: None,
        })
    }

    /// Also reads the process CPU clock of the program `pid` (a pid as
    /// `/proc` numbers it), where the kernel gives it and `/proc` numbers
    /// processes as salgrade's own calls do: in a PID namespace whose
    /// `/proc` is another's, the number could name another process.
    pub(super) fn with_program(mut self, pid: u32) -> CpuClock {
        if !proc_is_ours() {
            return self;
        }
        let pid = i32::try_from(pid).ok();
        self.program = pid.and_then(|pid| {
            let alive = unix::pidfd(pid)?;
            let clock = nix::time::clock_getcpuclockid(nix::unistd::Pid::from_raw(pid)).ok()?;
            Some(ProgramClock { clock, alive })
        });
        self
    }

    pub(super) fn read(&self) -> Option<CpuReading> {
        use std::os::unix::fs::FileExt;
        let mut buf = [0u8; 512];
        let n = self.file.read_at(&mut buf, 0).ok()?;
        let text = std::str::from_utf8(&buf[..n]).ok()?;
        let total = match self.kind {
            ClockKind::Schedstat => {
                let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
                Duration::from_nanos(ns)
            }
            ClockKind::Cgroup(format) => format.parse(text)?,
        };
        let program = self.program.as_ref().and_then(ProgramClock::read);
        Some(CpuReading { total, program })
    }
}

/// Whether `/proc` numbers processes in salgrade's own PID namespace
/// (`/proc/self` names this process by the number it knows itself by).
fn proc_is_ours() -> bool {
    static OURS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *OURS.get_or_init(|| {
        std::fs::read_link("/proc/self")
            .ok()
            .and_then(|p| p.to_str()?.parse::<u32>().ok())
            == Some(std::process::id())
    })
}

impl ProgramClock {
    /// The clock, read while the process is still there (its pidfd not yet
    /// readable, checked after the reading).
    fn read(&self) -> Option<Duration> {
        let time = nix::time::clock_gettime(self.clock).ok()?;
        unix::still_running(&self.alive).then(|| Duration::from(time))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(total_ms: u64, program_ms: Option<u64>) -> CpuReading {
        CpuReading {
            total: Duration::from_millis(total_ms),
            program: program_ms.map(Duration::from_millis),
        }
    }

    #[test]
    fn a_calls_time_is_the_larger_count_each_against_its_own_start() {
        // The cgroup's count lags a tick behind the program's own clock.
        let start = reading(100, Some(40));
        assert_eq!(
            reading(146, Some(90)).since(&start),
            Duration::from_millis(50)
        );
        // Children the program's clock does not see: the total decides.
        assert_eq!(
            reading(180, Some(45)).since(&start),
            Duration::from_millis(80)
        );
        // A clock missing at either end: the total alone, never one
        // clock's count against the other's.
        assert_eq!(reading(146, None).since(&start), Duration::from_millis(46));
        assert_eq!(
            reading(146, Some(90)).since(&reading(100, None)),
            Duration::from_millis(46)
        );
        // All of a session's time: the larger count.
        assert_eq!(reading(30, Some(45)).whole(), Duration::from_millis(45));
        assert_eq!(reading(50, Some(45)).whole(), Duration::from_millis(50));
        assert_eq!(reading(50, None).whole(), Duration::from_millis(50));
    }

    fn schedstat_of_self() -> CpuClock {
        CpuClock {
            file: std::fs::File::open("/proc/thread-self/schedstat").unwrap(),
            kind: ClockKind::Schedstat,
            program: None,
        }
    }

    #[test]
    fn the_programs_clock_counts_the_work_of_its_other_threads() {
        // schedstat of this thread, the process clock of the whole process.
        let clock = schedstat_of_self().with_program(std::process::id());
        let before = clock.read().unwrap();
        assert!(before.program.is_some(), "this process's clock is readable");
        let worker = std::thread::spawn(|| {
            let spent = nix::time::clock_gettime(ClockId::CLOCK_THREAD_CPUTIME_ID).unwrap();
            let mut x = 0u64;
            loop {
                x = std::hint::black_box(x.wrapping_add(1));
                let now = nix::time::clock_gettime(ClockId::CLOCK_THREAD_CPUTIME_ID).unwrap();
                if Duration::from(now - spent) >= Duration::from_millis(40) {
                    return x;
                }
            }
        });
        let _ = worker.join();
        let after = clock.read().unwrap();
        // This thread waited; the worker's 40 ms of CPU are in the process
        // clock (the worker has exited, its time is the process's).
        assert!(
            after.since(&before) >= Duration::from_millis(40),
            "{:?}",
            after.since(&before)
        );
        assert!(after.total.saturating_sub(before.total) < Duration::from_millis(40));
    }

    #[test]
    fn an_exited_programs_clock_is_never_read() {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let clock = schedstat_of_self().with_program(child.id());
        let _ = child.wait();
        let reading = clock.read().unwrap();
        assert_eq!(reading.program, None);
    }
}
