//! A session's own cgroup: its processes, killing them, and its CPU clock.

use std::fs;
use std::os::fd::OwnedFd;
use std::time::Duration;

use super::{SessionGroup, Version, kill_listed, listed};

impl SessionGroup {
    /// The `cgroup.procs` a child writes `0` to, after its slot's.
    pub(crate) fn join_fd(&self) -> Result<OwnedFd, String> {
        let path = self.dir.join("cgroup.procs");
        fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .map(OwnedFd::from)
            .map_err(|e| format!("cannot open `{}`: {e}", path.display()))
    }

    /// The processes in the session's cgroup now (host PIDs).
    pub(crate) fn procs(&self) -> Option<Vec<i32>> {
        listed(&self.dir)
    }

    /// Kills every process in the session's cgroup but those in `keep`
    /// (the sandbox's own and a zygote), until none is left: a process
    /// forked while the list was read is caught on the next reading.
    /// Returns the processes killed, or `None` when some still remained
    /// after [`SWEEP_PATIENCE`] (then only ending the whole session is
    /// certain).
    pub(crate) fn kill_all_but(&self, keep: &[i32]) -> Option<Vec<i32>> {
        match kill_listed(&self.dir, keep) {
            (killed, true) => Some(killed),
            (_, false) => None,
        }
    }

    /// The file its CPU time is read from, and how.
    pub(crate) fn cpu_file(&self) -> Option<(fs::File, CpuFormat)> {
        let (name, format) = match self.version {
            Version::V1 => ("cpuacct.usage", CpuFormat::Nanoseconds),
            Version::V2 => ("cpu.stat", CpuFormat::UsageMicroseconds),
        };
        Some((fs::File::open(self.dir.join(name)).ok()?, format))
    }
}

/// How a cgroup's CPU time is written.
#[derive(Debug, Clone, Copy)]
pub(crate) enum CpuFormat {
    /// `cpuacct.usage`: one number, nanoseconds.
    Nanoseconds,
    /// `cpu.stat`: a `usage_usec N` line.
    UsageMicroseconds,
}

impl CpuFormat {
    pub(crate) fn parse(self, text: &str) -> Option<Duration> {
        match self {
            CpuFormat::Nanoseconds => Some(Duration::from_nanos(text.trim().parse().ok()?)),
            CpuFormat::UsageMicroseconds => text
                .lines()
                .find_map(|l| l.strip_prefix("usage_usec "))
                .and_then(|v| v.trim().parse().ok())
                .map(Duration::from_micros),
        }
    }
}
