//! How many students fit at once in the memory of the container salgrade
//! runs in (Gradescope's default container has 768 MB). Reads the cgroup
//! memory limit of salgrade's own cgroup, as a container sees it at
//! `/sys/fs/cgroup`; the parsing is pure and tested per layout.
//!
//! Students graded at once each may use `--memory-mb`. If together they can
//! use more than the container has, the kernel's OOM killer picks a victim
//! in the whole container: another student's process (a wrong verdict for
//! someone who did nothing wrong) or salgrade itself. So the default
//! `--jobs` is cut to what fits. The per-student limit itself is never
//! lowered on its own: it is part of the grade (fingerprinted in the
//! report's settings), and a lower one could fail a submission that passes
//! under the limit the instructor chose; salgrade warns instead.

use std::path::Path;

/// Memory kept for salgrade itself and the interpreter's start-up.
pub(crate) const HEADROOM_MB: u64 = 128;

/// The limit in a cgroup memory file's text: v2 `memory.max` (`max` when
/// there is none) or v1 `memory.limit_in_bytes` (a huge number when there
/// is none). `None` when unlimited or unreadable.
pub(crate) fn parse_limit(text: &str) -> Option<u64> {
    let bytes: u64 = text.trim().parse().ok()?;
    // v1 writes "no limit" as the largest page-aligned i64.
    (bytes < (1 << 62)).then_some(bytes)
}

/// The memory limit of the container, in bytes, if it has one.
pub(crate) fn container_limit() -> Option<u64> {
    container_limit_in(Path::new("/sys/fs/cgroup"))
}

fn container_limit_in(root: &Path) -> Option<u64> {
    ["memory.max", "memory/memory.limit_in_bytes"]
        .iter()
        .find_map(|f| std::fs::read_to_string(root.join(f)).ok())
        .and_then(|t| parse_limit(&t))
}

/// Students at once: `cores`, cut so that each can use `memory_mb` within
/// `limit` bytes (less [`HEADROOM_MB`]); at least 1.
pub(crate) fn jobs_that_fit(cores: usize, memory_mb: u64, limit: Option<u64>) -> usize {
    let Some(limit) = limit else {
        return cores;
    };
    let usable_mb = (limit / (1024 * 1024)).saturating_sub(HEADROOM_MB);
    let fit = usize::try_from(usable_mb / memory_mb.max(1)).unwrap_or(usize::MAX);
    cores.min(fit).max(1)
}

/// A warning when even one student's `memory_mb` is more than the
/// container leaves, `None` when it fits or there is no limit.
pub(crate) fn warning(memory_mb: u64, limit: Option<u64>) -> Option<String> {
    let limit_mb = limit? / (1024 * 1024);
    let usable = limit_mb.saturating_sub(HEADROOM_MB);
    (memory_mb > usable).then(|| {
        format!(
            "this container has {limit_mb} MiB of memory, but each student process may use `--memory-mb {memory_mb}`: a student using it all gets the container's OOM killer (which may kill salgrade) rather than a memory verdict; pass `--memory-mb {}` or less",
            usable.max(1)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: u64 = 1024 * 1024;

    #[test]
    fn limits_are_read_from_either_cgroup_version() {
        assert_eq!(parse_limit("805306368\n"), Some(768 * MIB));
        assert_eq!(parse_limit("max\n"), None);
        assert_eq!(parse_limit("9223372036854771712\n"), None);
        assert_eq!(parse_limit(""), None);
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

    #[test]
    fn the_limit_file_is_found_in_either_layout() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(container_limit_in(dir.path()), None);
        std::fs::create_dir(dir.path().join("memory")).unwrap();
        std::fs::write(
            dir.path().join("memory/memory.limit_in_bytes"),
            "805306368\n",
        )
        .unwrap();
        assert_eq!(container_limit_in(dir.path()), Some(768 * MIB));
        std::fs::write(dir.path().join("memory.max"), "max\n").unwrap();
        assert_eq!(container_limit_in(dir.path()), None);
    }
}
