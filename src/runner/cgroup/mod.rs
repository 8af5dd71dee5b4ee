//! Control groups: limits that hold for all of a slot's processes together,
//! whoever they run as, and a complete list of them to kill.
//!
//! RLIMIT_NPROC does not bind root (nor a uid that a user namespace maps to
//! root), and RLIMIT_AS is per process; a `pids` cgroup and a `memory`
//! cgroup per parallel slot close both gaps. Every process a student starts
//! is born in its slot's cgroup (the child joins it between fork and exec),
//! so ending a session kills everything listed in it, including a grandchild
//! that left the process group with `setsid`.
//!
//! Both layouts are supported: cgroup v1 (a hierarchy per controller, as on
//! this project's CI machine) and the unified v2 hierarchy, where a
//! delegated cgroup is needed to enable controllers below our own. salgrade
//! creates `salgrade-<pid>/slot-<n>` below its own cgroup and removes them
//! when the run ends; folders left by a killed run are removed by the next.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

mod session;
pub(crate) use session::CpuFormat;
mod slot;

/// Which cgroup layout is in use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Version {
    V1,
    V2,
}

/// The per-run cgroups of one salgrade process.
#[derive(Debug)]
pub(crate) struct Cgroups {
    version: Version,
    /// `salgrade-<pid>` in the pids hierarchy (v2: the only hierarchy).
    pids_run: PathBuf,
    /// `salgrade-<pid>` in the memory hierarchy, when there is one (v1).
    memory_run: Option<PathBuf>,
    memory_controller: bool,
    /// `salgrade-<pid>` in the cpuacct hierarchy, when there is one (v1);
    /// on v2 every cgroup counts its CPU time in `cpu.stat`.
    cpu_run: Option<PathBuf>,
    max_processes: u64,
    max_memory: u64,
    slots: Mutex<BTreeMap<usize, SlotGroup>>,
    /// Session cgroups whose tasks were still exiting when their session
    /// ended: removed later.
    leftover: Mutex<Vec<PathBuf>>,
}

/// One session's own cgroup, which counts the CPU time of every task of
/// the session (threads, children, grandchildren, the ones that exited
/// too): the clock of its CPU deadlines. A spare booting in the same slot
/// has its own, so its start is never charged to a case.
#[derive(Debug)]
pub(crate) struct SessionGroup {
    dir: PathBuf,
    version: Version,
}

/// Numbers session cgroups within a run.
static SESSIONS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// One slot's cgroup(s).
#[derive(Debug, Clone)]
pub(crate) struct SlotGroup {
    /// The folders whose `cgroup.procs` a child joins (one per hierarchy).
    dirs: Vec<PathBuf>,
    version: Version,
    memory_dir: Option<PathBuf>,
    /// The `pids.max` last written, so a session start writes it only
    /// when it changes.
    max_processes: Arc<AtomicU64>,
}

pub(crate) struct Mount<'a> {
    pub(crate) point: &'a str,
    pub(crate) root: &'a str,
    pub(crate) fstype: &'a str,
    pub(crate) options: &'a str,
}

/// The mounts of `/proc/self/mountinfo`: `ID PARENT MAJ:MIN ROOT POINT
/// OPTIONS [TAGS...] - FSTYPE SOURCE SUPER_OPTIONS`.
pub(crate) fn mounts(mountinfo: &str) -> Vec<Mount<'_>> {
    mountinfo
        .lines()
        .filter_map(|line| {
            let (head, tail) = line.split_once(" - ")?;
            let fields: Vec<&str> = head.split(' ').collect();
            let mut tail = tail.split(' ');
            let fstype = tail.next()?;
            let _source = tail.next()?;
            Some(Mount {
                point: fields.get(4)?,
                root: fields.get(3)?,
                fstype,
                options: tail.next().unwrap_or(""),
            })
        })
        .collect()
}

/// Our own cgroup, from `/proc/self/cgroup` (`ID:CONTROLLERS:PATH`), in the
/// v1 hierarchy whose controller list holds `name`, or in the unified
/// hierarchy (`name` empty).
pub(crate) fn own_path<'a>(self_cgroup: &'a str, name: &str) -> Option<&'a str> {
    self_cgroup.lines().find_map(|line| {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        let hit = if name.is_empty() {
            controllers.is_empty()
        } else {
            controllers.split(',').any(|c| c == name)
        };
        hit.then_some(path)
    })
}

/// The folder of our own cgroup under a mount (which may show only a
/// subtree of its hierarchy, as in a container).
pub(crate) fn own_dir(mount: &Mount<'_>, path: &str) -> PathBuf {
    let relative = path.strip_prefix(mount.root).unwrap_or(path);
    Path::new(mount.point).join(relative.trim_start_matches('/'))
}

/// Where salgrade's own cgroups are, by layout.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Layout {
    /// A hierarchy per controller: our cgroup in the pids one (and memory's).
    V1 {
        pids: PathBuf,
        memory: Option<PathBuf>,
        cpu: Option<PathBuf>,
    },
    /// The unified hierarchy: our cgroup there.
    V2 { own: PathBuf },
}

/// Finds the layout from `/proc/self/mountinfo` and `/proc/self/cgroup`.
/// A v1 pids hierarchy wins (on hybrid systems the unified one then holds
/// no controllers).
fn detect(mountinfo: &str, self_cgroup: &str) -> Result<Layout, String> {
    let mounts = mounts(mountinfo);
    let v1 = |controller: &str| {
        let mount = mounts
            .iter()
            .find(|m| m.fstype == "cgroup" && m.options.split(',').any(|o| o == controller))?;
        Some(own_dir(mount, own_path(self_cgroup, controller)?))
    };
    if let Some(pids) = v1("pids") {
        return Ok(Layout::V1 {
            pids,
            memory: v1("memory"),
            cpu: v1("cpuacct"),
        });
    }
    let unified = mounts
        .iter()
        .find(|m| m.fstype == "cgroup2")
        .ok_or("no cgroup file system is mounted")?;
    let path = own_path(self_cgroup, "").ok_or("no unified cgroup in /proc/self/cgroup")?;
    Ok(Layout::V2 {
        own: own_dir(unified, path),
    })
}

fn write(path: &Path, value: &str) -> Result<(), String> {
    fs::write(path, value).map_err(|e| format!("cannot write `{}`: {e}", path.display()))
}

impl Cgroups {
    /// Finds a writable pids cgroup (and memory, if it can) and creates this
    /// run's folder. `Err` says why not, for the fallback note.
    pub(crate) fn create(max_processes: u64, max_memory: u64) -> Result<Cgroups, String> {
        let read = |p: &str| fs::read_to_string(p).unwrap_or_default();
        let layout = detect(&read("/proc/self/mountinfo"), &read("/proc/self/cgroup"))?;
        let run_name = format!("salgrade-{}", std::process::id());
        let own = match layout {
            Layout::V1 { pids, memory, cpu } => {
                let pids_run = make_run_dir(&pids, &run_name)?;
                let memory_run = memory.and_then(|p| make_run_dir(&p, &run_name).ok());
                let cpu_run = cpu.and_then(|p| make_run_dir(&p, &run_name).ok());
                return Ok(Cgroups {
                    version: Version::V1,
                    pids_run,
                    memory_controller: memory_run.is_some(),
                    memory_run,
                    cpu_run,
                    max_processes,
                    max_memory,
                    slots: Mutex::new(BTreeMap::new()),
                    leftover: Mutex::new(Vec::new()),
                });
            }
            Layout::V2 { own } => own,
        };
        let available = fs::read_to_string(own.join("cgroup.controllers")).unwrap_or_default();
        if !available.split_whitespace().any(|c| c == "pids") {
            return Err(format!(
                "the pids controller is not available in `{}` (cgroup v2 needs a delegated cgroup)",
                own.display()
            ));
        }
        let memory = available.split_whitespace().any(|c| c == "memory");
        let wanted = if memory { "+pids +memory" } else { "+pids" };
        // Enabling controllers below our own cgroup fails while it holds
        // processes (cgroup v2's no-internal-processes rule) unless it is a
        // root: a delegated cgroup (systemd-run --user -p Delegate=yes) works.
        write(&own.join("cgroup.subtree_control"), wanted)?;
        let pids_run = make_run_dir(&own, &run_name)?;
        write(&pids_run.join("cgroup.subtree_control"), wanted)?;
        Ok(Cgroups {
            version: Version::V2,
            pids_run,
            memory_run: None,
            memory_controller: memory,
            cpu_run: None,
            max_processes,
            max_memory,
            slots: Mutex::new(BTreeMap::new()),
            leftover: Mutex::new(Vec::new()),
        })
    }

    /// One line for the run's header: what the cgroups enforce.
    pub(crate) fn describe(&self) -> String {
        let version = match self.version {
            Version::V1 => "v1",
            Version::V2 => "v2",
        };
        let memory = if self.memory_controller {
            format!(", {} MiB of memory", self.max_memory / (1024 * 1024))
        } else {
            String::new()
        };
        format!(
            "cgroup {version}: at most {} processes{memory} per student",
            self.max_processes
        )
    }

    /// The cgroup of parallel slot `slot`, created with its limits on first use.
    pub(crate) fn slot(&self, slot: usize) -> Result<SlotGroup, String> {
        let mut slots = self
            .slots
            .lock()
            .map_err(|_| "cgroup bookkeeping poisoned")?;
        if let Some(group) = slots.get(&slot) {
            return Ok(group.clone());
        }
        let name = format!("slot-{slot}");
        let pids_dir = self.pids_run.join(&name);
        create_dir(&pids_dir)?;
        write(&pids_dir.join("pids.max"), &self.max_processes.to_string())?;
        let mut dirs = vec![pids_dir.clone()];
        let memory_dir = match (self.version, &self.memory_run) {
            (Version::V1, Some(run)) => {
                let dir = run.join(&name);
                create_dir(&dir)?;
                write(
                    &dir.join("memory.limit_in_bytes"),
                    &self.max_memory.to_string(),
                )?;
                // Swap accounting is optional; without it swap is not capped.
                let _ = write(
                    &dir.join("memory.memsw.limit_in_bytes"),
                    &self.max_memory.to_string(),
                );
                dirs.push(dir.clone());
                Some(dir)
            }
            (Version::V2, _) if self.memory_controller => {
                write(&pids_dir.join("memory.max"), &self.max_memory.to_string())?;
                let _ = write(&pids_dir.join("memory.swap.max"), "0");
                Some(pids_dir.clone())
            }
            _ => None,
        };
        let group = SlotGroup {
            dirs,
            version: self.version,
            memory_dir,
            max_processes: Arc::new(AtomicU64::new(self.max_processes)),
        };
        slots.insert(slot, group.clone());
        Ok(group)
    }
}

impl Cgroups {
    /// A new cgroup of its own for a session in `slot`: below the slot's
    /// (v2, where the slot's limits then bind it too) or in the cpuacct
    /// hierarchy (v1). `None` where there is no CPU accounting to use.
    pub(crate) fn session(&self, slot: usize) -> Option<SessionGroup> {
        self.remove_leftovers();
        let n = SESSIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = match self.version {
            Version::V1 => self.cpu_run.as_ref()?.join(format!("slot-{slot}-{n}")),
            Version::V2 => self.slot(slot).ok()?.dirs[0].join(format!("session-{n}")),
        };
        fs::create_dir(&dir).ok()?;
        Some(SessionGroup {
            dir,
            version: self.version,
        })
    }

    /// Removes a session's cgroup, now or (while its tasks still exit) later.
    pub(crate) fn release(&self, group: SessionGroup) {
        if fs::remove_dir(&group.dir).is_err() && group.dir.exists() {
            if let Ok(mut later) = self.leftover.lock() {
                later.push(group.dir);
            }
        }
    }

    fn remove_leftovers(&self) {
        if let Ok(mut later) = self.leftover.lock() {
            later.retain(|dir| fs::remove_dir(dir).is_err() && dir.exists());
        }
    }

    /// Kills every slot's processes, waits until they are gone, and removes
    /// the run's cgroups. A killed process can take long to exit on a busy
    /// machine (a gigabyte of memory to free, a namespace to tear down), so
    /// the wait is not the brief one between sessions: leaving first would
    /// leave the processes and the cgroups (which a Slurm job's own cgroup
    /// cannot be removed past) behind salgrade.
    pub(crate) fn shut_down(&self) {
        if let Ok(slots) = self.slots.lock() {
            let until = Instant::now() + SHUTDOWN_PATIENCE;
            for group in slots.values() {
                group.kill_all(None);
                while group.tasks().is_some_and(|n| n > 0) && Instant::now() < until {
                    std::thread::sleep(Duration::from_millis(5));
                    group.kill_all(None);
                    // A dead namespace's processes are orphaned to salgrade
                    // (a subreaper): they count until reaped.
                    crate::runner::unix::reap_orphans(crate::runner::unix::Orphans::SandboxZombies);
                }
                for dir in &group.dirs {
                    remove_tree(dir);
                }
            }
        }
        remove_tree(&self.pids_run);
        for run in [&self.memory_run, &self.cpu_run].into_iter().flatten() {
            remove_tree(run);
        }
    }
}

/// Removes an (emptied) cgroup folder and the cgroups below it.
fn remove_tree(dir: &Path) {
    if let Ok(entries) = fs::read_dir(dir) {
        for e in entries.flatten() {
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                remove_tree(&e.path());
            }
        }
    }
    let _ = fs::remove_dir(dir);
}

impl Drop for Cgroups {
    fn drop(&mut self) {
        self.shut_down();
    }
}

fn create_dir(dir: &Path) -> Result<(), String> {
    match fs::create_dir(dir) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(format!("cannot create `{}`: {e}", dir.display())),
    }
}

/// Creates `parent/name`, first removing folders of earlier runs whose
/// salgrade process is gone.
fn make_run_dir(parent: &Path, name: &str) -> Result<PathBuf, String> {
    if let Ok(entries) = fs::read_dir(parent) {
        for e in entries.flatten() {
            let file_name = e.file_name();
            let Some(pid) = file_name
                .to_str()
                .and_then(|n| n.strip_prefix("salgrade-"))
                .and_then(|p| p.parse::<u32>().ok())
            else {
                continue;
            };
            if !Path::new(&format!("/proc/{pid}")).exists() {
                remove_stale(&e.path());
            }
        }
    }
    let dir = parent.join(name);
    create_dir(&dir)?;
    Ok(dir)
}

fn remove_stale(dir: &Path) {
    if let Ok(entries) = fs::read_dir(dir) {
        for e in entries.flatten() {
            if e.path().is_dir() {
                kill_listed(&e.path());
                remove_tree(&e.path());
            }
        }
    }
    let _ = fs::remove_dir(dir);
}

/// The processes listed in `dir`'s `cgroup.procs` (host PIDs); `None` when
/// it cannot be read.
fn listed(dir: &Path) -> Option<Vec<i32>> {
    let text = fs::read_to_string(dir.join("cgroup.procs")).ok()?;
    Some(text.lines().filter_map(|l| l.trim().parse().ok()).collect())
}

/// How long [`kill_listed`] keeps killing before it gives up.
const SWEEP_PATIENCE: Duration = Duration::from_millis(500);

/// How long the end of a run waits for its killed processes to be gone:
/// they always go (SIGKILL cannot be ignored), so this only bounds a
/// machine that is very slow to let them.
const SHUTDOWN_PATIENCE: Duration = Duration::from_secs(20);

/// SIGKILLs every process listed in `dir`'s `cgroup.procs` until none is
/// left (a fork racing the kill shows up in the next read), for at most
/// [`SWEEP_PATIENCE`]. Returns every pid it killed, and whether none was
/// left at the end (not when the list could not be read, or some outlived
/// the patience).
fn kill_listed(dir: &Path) -> (Vec<i32>, bool) {
    let until = Instant::now() + SWEEP_PATIENCE;
    let mut killed = Vec::new();
    loop {
        let Some(pids) = listed(dir) else {
            return (killed, false);
        };
        if pids.is_empty() {
            return (killed, true);
        }
        if Instant::now() >= until {
            return (killed, false);
        }
        for pid in pids {
            let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
            if !killed.contains(&pid) {
                killed.push(pid);
            }
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HYBRID_MOUNTS: &str = "\
31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
";
    const HYBRID_SELF: &str = "8:pids:/\n4:memory:/process_api/b431\n0::/\n";

    #[test]
    fn v1_is_found_per_controller() {
        assert_eq!(
            detect(HYBRID_MOUNTS, HYBRID_SELF),
            Ok(Layout::V1 {
                pids: PathBuf::from("/sys/fs/cgroup/pids"),
                memory: Some(PathBuf::from("/sys/fs/cgroup/memory/process_api/b431")),
                cpu: None,
            })
        );
    }

    #[test]
    fn v1_finds_cpuacct_alone_or_beside_cpu() {
        let mounts = "\
39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
33 31 0:30 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct
";
        let own = "8:pids:/\n2:cpu,cpuacct:/a\n";
        assert_eq!(
            detect(mounts, own),
            Ok(Layout::V1 {
                pids: PathBuf::from("/sys/fs/cgroup/pids"),
                memory: None,
                cpu: Some(PathBuf::from("/sys/fs/cgroup/cpu,cpuacct/a")),
            })
        );
    }

    #[test]
    fn cpu_time_is_read_in_either_format() {
        assert_eq!(
            CpuFormat::Nanoseconds.parse("1500000\n"),
            Some(Duration::from_micros(1500))
        );
        assert_eq!(
            CpuFormat::UsageMicroseconds.parse("usage_usec 2500\nuser_usec 2000\n"),
            Some(Duration::from_micros(2500))
        );
        assert_eq!(CpuFormat::UsageMicroseconds.parse("nothing 1\n"), None);
    }

    #[test]
    fn v2_is_found_under_the_unified_mount() {
        let mounts =
            "30 24 0:26 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 cgroup2 rw,nsdelegate\n";
        let own = "0::/user.slice/user-1000.slice/session-2.scope\n";
        assert_eq!(
            detect(mounts, own),
            Ok(Layout::V2 {
                own: PathBuf::from("/sys/fs/cgroup/user.slice/user-1000.slice/session-2.scope")
            })
        );
    }

    #[test]
    fn a_container_sees_a_subtree_of_its_hierarchy() {
        // The mount's root is our own cgroup: the folder is the mount point.
        let mounts = "700 699 0:30 /docker/abc /sys/fs/cgroup ro,nosuid - cgroup2 cgroup2 rw\n";
        assert_eq!(
            detect(mounts, "0::/docker/abc\n"),
            Ok(Layout::V2 {
                own: PathBuf::from("/sys/fs/cgroup")
            })
        );
    }

    #[test]
    fn no_cgroup_file_system_is_a_reason_not_a_panic() {
        let mounts = "22 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw\n";
        assert!(detect(mounts, "").is_err());
        assert!(detect("", "").is_err());
    }
}
