//! How many students fit at once under the limits salgrade itself runs
//! under: the memory limit and CPU quota of its own cgroup and of every
//! cgroup above it (a Slurm job's, a systemd unit's, a Kubernetes pod's, a
//! container's). Reads `/proc/self/cgroup` and `/proc/self/mountinfo` to
//! find that cgroup in each hierarchy (cgroup v1 has one per controller,
//! v2 one for all), then walks up from it to the top of the mount; the
//! smallest limit on the way binds. The walking is tested on folders laid
//! out as either version lays them out.
//!
//! Students graded at once each may use `--memory-mb`. If together they can
//! use more than the cgroup has, the kernel's OOM killer picks a victim in
//! the whole cgroup: another student's process (a wrong verdict for someone
//! who did nothing wrong) or salgrade itself. So `--jobs` is cut to what
//! fits, even when given: a wrong verdict is never traded for speed. The
//! per-student limit itself is never lowered on its own: it is part of the
//! grade (fingerprinted in the report's settings), and a lower one could
//! fail a submission that passes under the limit the instructor chose;
//! salgrade warns instead.

use std::path::{Path, PathBuf};

use crate::runner::cgroup::{Mount, mounts, own_dir, own_path};

/// Memory kept for salgrade itself and the interpreter's start-up.
pub(crate) const HEADROOM_MB: u64 = 128;

const MIB: u64 = 1024 * 1024;

/// Where a limit was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Whose {
    /// On the cgroup salgrade runs in.
    Own,
    /// On a cgroup above it (its folder).
    Above(PathBuf),
}

/// A limit and where it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Found<T> {
    pub(crate) value: T,
    pub(crate) whose: Whose,
}

impl Whose {
    fn words(&self) -> String {
        match self {
            Whose::Own => "the cgroup salgrade runs in".to_owned(),
            Whose::Above(dir) => format!(
                "a cgroup above the one salgrade runs in (`{}`)",
                dir.display()
            ),
        }
    }
}

/// A CPU quota: `quota` microseconds of CPU time every `period`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Quota {
    pub(crate) quota: u64,
    pub(crate) period: u64,
}

impl Quota {
    /// Whole CPUs the quota gives, at least 1.
    pub(crate) fn cpus(self) -> usize {
        usize::try_from(self.quota / self.period.max(1))
            .unwrap_or(usize::MAX)
            .max(1)
    }

    fn ratio(self) -> f64 {
        self.quota as f64 / self.period.max(1) as f64
    }

    /// The CPUs as a number: `2`, `1.5`, `0.25`.
    fn shown(self) -> String {
        let text = format!("{:.2}", self.ratio());
        text.trim_end_matches('0').trim_end_matches('.').to_owned()
    }
}

/// The limits salgrade runs under, each the smallest found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Limits {
    /// Bytes of memory.
    pub(crate) memory: Option<Found<u64>>,
    pub(crate) cpu: Option<Found<Quota>>,
}

/// The limit in a cgroup memory file's text: v2 `memory.max` (`max` when
/// there is none) or v1 `memory.limit_in_bytes` (a huge number when there
/// is none). `None` when unlimited or unreadable.
pub(crate) fn parse_limit(text: &str) -> Option<u64> {
    let bytes: u64 = text.trim().parse().ok()?;
    // v1 writes "no limit" as the largest page-aligned i64.
    (bytes < (1 << 62)).then_some(bytes)
}

/// A v2 `cpu.max` (`max 100000` or `150000 100000`).
fn parse_cpu_max(text: &str) -> Option<Quota> {
    let mut parts = text.split_whitespace();
    let quota = parts.next()?.parse().ok()?;
    let period = parts.next().map_or(Some(100_000), |p| p.parse().ok())?;
    (period > 0).then_some(Quota { quota, period })
}

/// A v1 quota (`cpu.cfs_quota_us`, -1 when there is none) and period.
fn parse_cfs(quota: &str, period: &str) -> Option<Quota> {
    let quota: i64 = quota.trim().parse().ok()?;
    let period: u64 = period.trim().parse().ok()?;
    (quota > 0 && period > 0).then_some(Quota {
        quota: quota.unsigned_abs(),
        period,
    })
}

/// The limits salgrade runs under, read from this process's cgroups.
pub(crate) fn limits() -> Limits {
    let read = |p: &Path| std::fs::read_to_string(p).ok();
    let mountinfo = read(Path::new("/proc/self/mountinfo")).unwrap_or_default();
    let self_cgroup = read(Path::new("/proc/self/cgroup")).unwrap_or_default();
    limits_in(&mountinfo, &self_cgroup, &read)
}

/// Our own cgroup's folder and the top of its mount, in every mounted
/// hierarchy that has `controller` (v1), and in the unified one (v2).
fn own_dirs(mounts: &[Mount<'_>], self_cgroup: &str, controller: &str) -> Vec<(PathBuf, PathBuf)> {
    mounts
        .iter()
        .filter_map(|m| {
            let path = match m.fstype {
                "cgroup" if m.options.split(',').any(|o| o == controller) => {
                    own_path(self_cgroup, controller)?
                }
                "cgroup2" => own_path(self_cgroup, "")?,
                _ => return None,
            };
            Some((own_dir(m, path), PathBuf::from(m.point)))
        })
        .collect()
}

/// `dir` and each folder above it up to `top` (the mount), in that order.
fn upwards(dir: &Path, top: &Path) -> Vec<PathBuf> {
    dir.ancestors()
        .take_while(|d| d.starts_with(top))
        .map(Path::to_path_buf)
        .collect()
}

fn limits_in(mountinfo: &str, self_cgroup: &str, read: &dyn Fn(&Path) -> Option<String>) -> Limits {
    let mounts = mounts(mountinfo);
    let mut limits = Limits::default();
    for (own, top) in own_dirs(&mounts, self_cgroup, "memory") {
        for dir in upwards(&own, &top) {
            let value = ["memory.max", "memory.limit_in_bytes"]
                .iter()
                .find_map(|f| read(&dir.join(f)))
                .and_then(|t| parse_limit(&t));
            if let Some(value) = value {
                if limits.memory.as_ref().is_none_or(|m| value < m.value) {
                    let whose = whose(&dir, &own);
                    limits.memory = Some(Found { value, whose });
                }
            }
        }
    }
    for (own, top) in own_dirs(&mounts, self_cgroup, "cpu") {
        for dir in upwards(&own, &top) {
            let v2 = read(&dir.join("cpu.max")).and_then(|t| parse_cpu_max(&t));
            let v1 = || {
                parse_cfs(
                    &read(&dir.join("cpu.cfs_quota_us"))?,
                    &read(&dir.join("cpu.cfs_period_us"))?,
                )
            };
            if let Some(value) = v2.or_else(v1) {
                if limits
                    .cpu
                    .as_ref()
                    .is_none_or(|c| value.ratio() < c.value.ratio())
                {
                    let whose = whose(&dir, &own);
                    limits.cpu = Some(Found { value, whose });
                }
            }
        }
    }
    limits
}

fn whose(dir: &Path, own: &Path) -> Whose {
    if dir == own {
        Whose::Own
    } else {
        Whose::Above(dir.to_path_buf())
    }
}

/// Students at once: `cores`, cut so that each can use `memory_mb` within
/// `limit` bytes (less [`HEADROOM_MB`]); at least 1.
pub(crate) fn jobs_that_fit(cores: usize, memory_mb: u64, limit: Option<u64>) -> usize {
    let Some(limit) = limit else {
        return cores;
    };
    let usable_mb = (limit / MIB).saturating_sub(HEADROOM_MB);
    let fit = usize::try_from(usable_mb / memory_mb.max(1)).unwrap_or(usize::MAX);
    cores.min(fit).max(1)
}

/// How many students to grade at once, and what to say about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Sizing {
    pub(crate) jobs: usize,
    /// The header's line on the limits found, when there are any.
    pub(crate) header: Option<String>,
    pub(crate) warnings: Vec<String>,
}

/// The most students graded at once per CPU, even when more are asked:
/// a case's wall-clock backstop is 10 times its CPU deadline, so a student
/// given less than a tenth of a CPU could be stopped by the wall clock
/// with its CPU time to spare (a wrong `timeout`); each student may also
/// have a second process starting beside the first.
pub(crate) const MOST_JOBS_PER_CPU: usize = 4;

/// `--jobs` (`asked`), else the `cores`, cut to what the CPU quota gives
/// (when not asked; when asked, to [`MOST_JOBS_PER_CPU`] for each) and to
/// what fits in the memory limit (always).
pub(crate) fn sizing(
    asked: Option<usize>,
    cores: usize,
    memory_mb: u64,
    limits: &Limits,
) -> Sizing {
    let mut warnings = Vec::new();
    let memory = limits.memory.as_ref().map(|m| m.value);
    if let (Some(w), Some(m)) = (warning(memory_mb, memory), &limits.memory) {
        warnings.push(format!("{} {w}", m.whose.words()));
    }
    let cores = match &limits.cpu {
        Some(c) => cores.min(c.value.cpus()),
        None => cores,
    };
    let most = cores.max(1).saturating_mul(MOST_JOBS_PER_CPU);
    let wanted = match asked {
        Some(asked) if asked > most => {
            warnings.push(format!(
                "`--jobs {asked}` on {cores} CPU{}: each student would get so little of a CPU that a case's wall-clock backstop (10 times its CPU deadline) could stop a correct one: grading {most} at a time instead ({MOST_JOBS_PER_CPU} per CPU)",
                if cores == 1 { "" } else { "s" }
            ));
            most
        }
        Some(asked) => asked,
        None => cores,
    };
    let jobs = jobs_that_fit(wanted, memory_mb, memory);
    if let (Some(asked), Some(m)) = (asked, &limits.memory) {
        if jobs < asked {
            warnings.push(format!(
                "`--jobs {asked}` students of `--memory-mb {memory_mb}` each could together use more than the {} MiB of {}, where the kernel would kill one for another's memory: grading {jobs} at a time instead",
                m.value / MIB,
                m.whose.words()
            ));
        }
    }
    let mut found = Vec::new();
    if let Some(m) = &limits.memory {
        found.push(format!(
            "memory: {} MiB from {}",
            m.value / MIB,
            m.whose.words()
        ));
    }
    if let Some(c) = &limits.cpu {
        found.push(format!("CPU: {} from {}", c.value.shown(), c.whose.words()));
    }
    let header = (!found.is_empty()).then(|| {
        let why = if jobs < wanted {
            let limit_mb = memory.unwrap_or(0) / MIB;
            let holds = match limit_mb.saturating_sub(HEADROOM_MB) / memory_mb.max(1) {
                0 => "less than one student".to_owned(),
                1 => "one student".to_owned(),
                n => format!("{n} students"),
            };
            format!(
                " ({limit_mb} MiB less {HEADROOM_MB} for salgrade holds {holds} of `--memory-mb {memory_mb}`)"
            )
        } else {
            String::new()
        };
        format!(
            "{}; {jobs} student{} at a time{why}",
            found.join("; "),
            if jobs == 1 { "" } else { "s" }
        )
    });
    Sizing {
        jobs,
        header,
        warnings,
    }
}

/// A warning when even one student's `memory_mb` is more than the limit
/// leaves, `None` when it fits or there is no limit.
pub(crate) fn warning(memory_mb: u64, limit: Option<u64>) -> Option<String> {
    let limit_mb = limit? / MIB;
    let usable = limit_mb.saturating_sub(HEADROOM_MB);
    (memory_mb > usable).then(|| {
        format!(
            "has {limit_mb} MiB of memory, but each student process may use `--memory-mb {memory_mb}`: a student using it all gets the OOM killer of that cgroup (which may kill salgrade) rather than a memory verdict; pass `--memory-mb {}` or less",
            usable.max(1)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_read_from_either_cgroup_version() {
        assert_eq!(parse_limit("805306368\n"), Some(768 * MIB));
        assert_eq!(parse_limit("max\n"), None);
        assert_eq!(parse_limit("9223372036854771712\n"), None);
        assert_eq!(parse_limit(""), None);
        assert_eq!(parse_cpu_max("max 100000\n"), None);
        assert_eq!(
            parse_cpu_max("150000 100000\n"),
            Some(Quota {
                quota: 150_000,
                period: 100_000
            })
        );
        assert_eq!(parse_cfs("-1\n", "100000\n"), None);
        assert_eq!(parse_cfs("200000\n", "100000\n").map(Quota::cpus), Some(2));
        assert_eq!(parse_cfs("50000\n", "100000\n").map(Quota::cpus), Some(1));
    }

    #[test]
    fn gradescope_default_container_grades_one_at_a_time() {
        // 768 MB less the headroom holds no 1024 MiB student, so one at a time.
        assert_eq!(jobs_that_fit(4, 1024, Some(768 * MIB)), 1);
        assert!(
            warning(1024, Some(768 * MIB))
                .unwrap()
                .contains("`--memory-mb 640`")
        );
        assert_eq!(warning(512, Some(768 * MIB)), None);
        // 8 GiB fits seven students of 1 GiB beside the headroom.
        assert_eq!(jobs_that_fit(16, 1024, Some(8192 * MIB)), 7);
        assert_eq!(jobs_that_fit(2, 1024, Some(8192 * MIB)), 2);
        assert_eq!(jobs_that_fit(8, 1024, None), 8);
        assert_eq!(warning(1024, None), None);
    }

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn read(p: &Path) -> Option<String> {
        std::fs::read_to_string(p).ok()
    }

    #[test]
    fn a_v1_slurm_job_is_limited_above_the_task_salgrade_runs_in() {
        let fs = tempfile::tempdir().unwrap();
        let root = fs.path().display().to_string();
        let mountinfo = format!(
            "35 31 0:32 / {root}/memory rw,relatime - cgroup cgroup rw,memory\n\
             32 31 0:29 / {root}/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct\n\
             41 31 0:38 / {root}/unified rw,relatime - cgroup2 cgroup2 rw\n"
        );
        let task = "/slurm/uid_0/job_7/step_batch/task_0";
        let self_cgroup = format!("4:memory:{task}\n2:cpu,cpuacct:{task}\n0::/\n");
        let memory = fs.path().join("memory");
        let unlimited = "9223372036854771712\n";
        write(&memory.join("memory.limit_in_bytes"), unlimited);
        write(&memory.join("slurm/memory.limit_in_bytes"), unlimited);
        write(
            &memory.join("slurm/uid_0/job_7/memory.limit_in_bytes"),
            &(1000 * MIB).to_string(),
        );
        write(
            &memory.join("slurm/uid_0/job_7/step_batch/memory.limit_in_bytes"),
            &(2000 * MIB).to_string(),
        );
        write(
            &memory.join("slurm/uid_0/job_7/step_batch/task_0/memory.limit_in_bytes"),
            unlimited,
        );
        // A sibling job's smaller limit does not count.
        write(
            &memory.join("slurm/uid_0/job_8/memory.limit_in_bytes"),
            &(10 * MIB).to_string(),
        );
        let cpu = fs.path().join("cpu,cpuacct");
        write(&cpu.join("cpu.cfs_quota_us"), "-1\n");
        write(&cpu.join("cpu.cfs_period_us"), "100000\n");
        write(&cpu.join(&task[1..]).join("cpu.cfs_quota_us"), "150000\n");
        write(&cpu.join(&task[1..]).join("cpu.cfs_period_us"), "100000\n");
        let limits = limits_in(&mountinfo, &self_cgroup, &read);
        assert_eq!(
            limits.memory,
            Some(Found {
                value: 1000 * MIB,
                whose: Whose::Above(memory.join("slurm/uid_0/job_7"))
            })
        );
        assert_eq!(
            limits.cpu,
            Some(Found {
                value: Quota {
                    quota: 150_000,
                    period: 100_000
                },
                whose: Whose::Own
            })
        );
        // Two students of 650 MiB do not fit in 1000 MiB: one at a time,
        // even when two are asked for, and the header says why.
        let s = sizing(Some(2), 2, 650, &limits);
        assert_eq!(s.jobs, 1);
        assert!(s.warnings[0].contains("grading 1 at a time"), "{s:?}");
        let header = s.header.unwrap();
        assert!(
            header.starts_with("memory: 1000 MiB from a cgroup above the one salgrade runs in")
        );
        assert!(
            header.contains("CPU: 1.5 from the cgroup salgrade runs in"),
            "{header}"
        );
        assert!(
            header.ends_with("; 1 student at a time (1000 MiB less 128 for salgrade holds one student of `--memory-mb 650`)"),
            "{header}"
        );
    }

    #[test]
    fn a_v2_container_reads_its_own_cgroup_at_the_mount() {
        let fs = tempfile::tempdir().unwrap();
        let root = fs.path().display().to_string();
        // A cgroup namespace: the mount shows our cgroup as its root.
        let mountinfo = format!("31 23 0:28 / {root} rw,relatime - cgroup2 cgroup2 rw\n");
        write(&fs.path().join("memory.max"), &(768 * MIB).to_string());
        write(&fs.path().join("cpu.max"), "200000 100000\n");
        let limits = limits_in(&mountinfo, "0::/\n", &read);
        assert_eq!(limits.memory.as_ref().unwrap().whose, Whose::Own);
        let s = sizing(None, 64, 1024, &limits);
        assert_eq!(s.jobs, 1);
        assert!(s.warnings[0].starts_with("the cgroup salgrade runs in has 768 MiB"));
        // Without limits, the cores and no header.
        write(&fs.path().join("memory.max"), "max\n");
        write(&fs.path().join("cpu.max"), "max 100000\n");
        let limits = limits_in(&mountinfo, "0::/\n", &read);
        assert_eq!(limits, Limits::default());
        let s = sizing(None, 64, 1024, &limits);
        assert_eq!((s.jobs, s.header), (64, None));
        // A quota of 2 CPUs grades two at a time.
        write(&fs.path().join("cpu.max"), "200000 100000\n");
        let limits = limits_in(&mountinfo, "0::/\n", &read);
        let s = sizing(None, 64, 1024, &limits);
        assert_eq!(s.jobs, 2);
        assert_eq!(
            s.header.as_deref(),
            Some("CPU: 2 from the cgroup salgrade runs in; 2 students at a time")
        );
        // Asked for, more than the quota is allowed, up to 4 a CPU.
        assert_eq!(sizing(Some(8), 64, 1024, &limits).jobs, 8);
        let s = sizing(Some(40), 64, 1024, &limits);
        assert_eq!(s.jobs, 8);
        assert!(
            s.warnings[0].starts_with("`--jobs 40` on 2 CPUs: ")
                && s.warnings[0].ends_with("grading 8 at a time instead (4 per CPU)"),
            "{s:?}"
        );
    }
}
