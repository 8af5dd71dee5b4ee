//! A slot's cgroups: their limits, joining them, killing what they hold,
//! and what they count.

use std::fs;
use std::os::fd::OwnedFd;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::{SlotGroup, Version, kill_listed, write};

impl SlotGroup {
    /// Sets how many processes the slot's next session may hold.
    pub(crate) fn cap_processes(&self, max: u64) -> Result<(), String> {
        if self.max_processes.load(Ordering::Relaxed) == max {
            return Ok(());
        }
        write(&self.dirs[0].join("pids.max"), &max.to_string())?;
        self.max_processes.store(max, Ordering::Relaxed);
        Ok(())
    }

    /// Opens the `cgroup.procs` files a child writes `0` to, to join.
    pub(crate) fn join_fds(&self) -> Result<Vec<OwnedFd>, String> {
        self.dirs
            .iter()
            .map(|d| {
                let path = d.join("cgroup.procs");
                fs::OpenOptions::new()
                    .write(true)
                    .open(&path)
                    .map(OwnedFd::from)
                    .map_err(|e| format!("cannot open `{}`: {e}", path.display()))
            })
            .collect()
    }

    /// Kills every process in the slot, wherever it moved in its process
    /// tree, and reaps those that were orphaned to salgrade (a subreaper):
    /// zombies would otherwise pile up and, under a per-slot uid, count
    /// against its process limit. `spawned` (reaped by its owner) is left.
    pub(crate) fn kill_all(&self, spawned: Option<u32>) {
        if self.version == Version::V2 {
            // cgroup.kill (Linux 5.14+) kills the whole subtree at once.
            let _ = fs::write(self.dirs[0].join("cgroup.kill"), "1");
        }
        let (seen, _) = kill_listed(&self.dirs[0]);
        let orphans: Vec<i32> = seen
            .into_iter()
            .filter(|&p| Some(p as u32) != spawned)
            .collect();
        crate::runner::unix::reap_pids(&orphans);
    }

    /// How many tasks (processes and threads) the slot holds now, as its
    /// `pids` controller counts them (a task is counted until it is reaped).
    pub(crate) fn tasks(&self) -> Option<u64> {
        fs::read_to_string(self.dirs[0].join("pids.current"))
            .ok()?
            .trim()
            .parse()
            .ok()
    }

    /// Kills whatever is left in the slot and waits, briefly, until its
    /// `pids` count is zero: the slot is empty before it is reused (in
    /// salgrade's namespaces a session's end leaves the slot's cgroup
    /// alone, and a dying namespace's tasks still count for a moment).
    pub(crate) fn empty(&self) {
        self.kill_all(None);
        let until = Instant::now() + Duration::from_millis(500);
        while self.tasks().is_some_and(|n| n > 0) && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// How many processes the kernel has killed for the memory limit so far.
    pub(crate) fn oom_kills(&self) -> u64 {
        let Some(dir) = &self.memory_dir else {
            return 0;
        };
        let file = match self.version {
            Version::V1 => "memory.oom_control",
            Version::V2 => "memory.events",
        };
        fs::read_to_string(dir.join(file))
            .unwrap_or_default()
            .lines()
            .find_map(|l| l.strip_prefix("oom_kill ")?.trim().parse().ok())
            .unwrap_or(0)
    }
}
