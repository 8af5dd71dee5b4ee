//! A session's own cgroup: its processes, killing them, and its CPU clock.

use std::fs;
use std::os::fd::OwnedFd;
use std::time::Duration;

use super::{SessionGroup, Version};

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
