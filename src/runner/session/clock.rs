//! A session's CPU clock: the CPU time the student's program has used, read
//! from its session cgroup or from its own `/proc/PID/schedstat`.

use std::time::Duration;

use crate::runner::cgroup::{CpuFormat, SessionGroup};

/// The CPU time the student's program has used, from a file kept open and
/// read from the start each time: its session cgroup's (every thread and
/// child of the session counted, the ones that exited too), or, without
/// one, the program's own `/proc/PID/schedstat` (its main thread only;
/// nanoseconds on the CPU, precise where `/proc/PID/stat` counts ticks).
pub(super) struct CpuClock(std::fs::File, ClockKind);

#[derive(Clone, Copy)]
enum ClockKind {
    Schedstat,
    Cgroup(CpuFormat),
}

impl CpuClock {
    /// The clock of the program `depth` levels below `pid` (the sandbox's
    /// own processes first: bubblewrap's two, or the keeper and init of
    /// salgrade's namespaces).
    /// Also returns the processes passed on the way down.
    pub(super) fn find(pid: u32, depth: usize) -> Option<(CpuClock, Vec<i32>)> {
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
        let clock = std::fs::File::open(format!("/proc/{here}/schedstat")).ok()?;
        Some((CpuClock(clock, ClockKind::Schedstat), inner))
    }

    pub(super) fn of_group(group: &SessionGroup) -> Option<CpuClock> {
        let (file, format) = group.cpu_file()?;
        Some(CpuClock(file, ClockKind::Cgroup(format)))
    }

    pub(super) fn read(&self) -> Option<Duration> {
        use std::os::unix::fs::FileExt;
        let mut buf = [0u8; 512];
        let n = self.0.read_at(&mut buf, 0).ok()?;
        let text = std::str::from_utf8(&buf[..n]).ok()?;
        match self.1 {
            ClockKind::Schedstat => {
                let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
                Some(Duration::from_nanos(ns))
            }
            ClockKind::Cgroup(format) => format.parse(text),
        }
    }
}
