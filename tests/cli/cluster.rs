//! Grading past one machine: salgrade under a cgroup memory limit it did
//! not set (a Slurm job's, a container's), and the docs' Slurm example on a
//! real single-node cluster (`.ci/slurm`, which `.ci/run` starts). Each
//! test skips, saying why, where it cannot have what it needs.

use std::path::{Path, PathBuf};

use crate::{fixtures, stderr_of};

/// A memory cgroup this test created below its own, with a limit; removed
/// on drop.
struct Limited {
    dir: PathBuf,
}

impl Drop for Limited {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir(&self.dir);
    }
}

/// This process's cgroup in the hierarchy mounted with `controller` (v1),
/// or in the unified one (`controller` empty).
fn own_cgroup(controller: &str) -> Option<PathBuf> {
    let mountinfo = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
    let self_cgroup = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let path = self_cgroup.lines().find_map(|l| {
        let mut parts = l.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        let hit = if controller.is_empty() {
            controllers.is_empty()
        } else {
            controllers.split(',').any(|c| c == controller)
        };
        hit.then_some(path.to_owned())
    })?;
    mountinfo.lines().find_map(|l| {
        let (head, tail) = l.split_once(" - ")?;
        let fields: Vec<&str> = head.split(' ').collect();
        let mut tail = tail.split(' ');
        let (fstype, _, options) = (tail.next()?, tail.next()?, tail.next()?);
        let hit = if controller.is_empty() {
            fstype == "cgroup2"
        } else {
            fstype == "cgroup" && options.split(',').any(|o| o == controller)
        };
        if !hit {
            return None;
        }
        let (root, point) = (fields.get(3)?, fields.get(4)?);
        let relative = path.strip_prefix(root).unwrap_or(&path);
        Some(Path::new(point).join(relative.trim_start_matches('/')))
    })
}

/// A new cgroup limited to `mib` MiB of memory, or why there is none.
fn limited(mib: u64) -> Result<Limited, String> {
    let name = format!("salgrade-test-limit-{}", std::process::id());
    let bytes = (mib * 1024 * 1024).to_string();
    if let Some(own) = own_cgroup("memory") {
        let dir = own.join(name);
        std::fs::create_dir(&dir).map_err(|e| format!("cannot create `{}`: {e}", dir.display()))?;
        let limited = Limited { dir };
        std::fs::write(limited.dir.join("memory.limit_in_bytes"), &bytes)
            .map_err(|e| format!("cannot limit `{}`: {e}", limited.dir.display()))?;
        return Ok(limited);
    }
    // v2: a child of our own cgroup can have the memory controller only
    // where it is delegated to us.
    let own = own_cgroup("").ok_or("no cgroup file system")?;
    std::fs::write(own.join("cgroup.subtree_control"), "+memory +pids").map_err(|e| {
        format!(
            "cannot enable the memory controller below `{}`: {e}",
            own.display()
        )
    })?;
    let dir = own.join(name);
    std::fs::create_dir(&dir).map_err(|e| format!("cannot create `{}`: {e}", dir.display()))?;
    let limited = Limited { dir };
    std::fs::write(limited.dir.join("memory.max"), &bytes)
        .map_err(|e| format!("cannot limit `{}`: {e}", limited.dir.display()))?;
    Ok(limited)
}

/// The issue-36 case: two correct students who each fill 650 MiB at import
/// (within their own `--memory-mb 1024`), graded with `-j 2` inside a
/// cgroup of 1000 MiB. Two at once would get one killed for the other's
/// memory (it did: zero for a correct student); salgrade grades them one at
/// a time and its header says why.
#[test]
fn students_keep_their_marks_under_a_cgroup_memory_limit_salgrade_did_not_set() {
    let cgroup = match limited(1000) {
        Ok(c) => c,
        Err(why) => {
            eprintln!("skipped: no cgroup with a memory limit can be made here ({why})");
            return;
        }
    };
    let out = tempfile::tempdir().unwrap();
    let salgrade = assert_cmd::cargo::cargo_bin("salgrade");
    // The shell joins the cgroup, then becomes salgrade.
    let run = std::process::Command::new("sh")
        .arg("-c")
        .arg(r#"echo $$ > "$0/cgroup.procs" && exec "$@""#)
        .arg(&cgroup.dir)
        .arg(&salgrade)
        .args(["grade", "-j", "2", "--cases", "4", "--out-dir"])
        .arg(out.path())
        .arg(fixtures().join("cluster/memory"))
        .env_remove("RUST_LOG")
        .env("XDG_CACHE_HOME", crate::test_cache_home())
        .output()
        .unwrap();
    let stderr = stderr_of(&run);
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("memory: 1000 MiB from the cgroup salgrade runs in; 1 student at a time"),
        "{stderr}"
    );
    assert!(stderr.contains("grading 1 at a time instead"), "{stderr}");
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.path().join("report.json")).unwrap()).unwrap();
    for s in report["students"].as_array().unwrap() {
        assert_eq!(s["score"], s["max_score"], "{}: {stderr}", s["student"]);
    }
}

/// The Slurm cluster `.ci/slurm up` started (its `SLURM_CONF`, which
/// `.ci/run` passes as `SALGRADE_TEST_SLURM_CONF`), answering; or why not.
fn slurm() -> Result<PathBuf, String> {
    let conf = std::env::var_os("SALGRADE_TEST_SLURM_CONF").ok_or(
        "no Slurm cluster: `.ci/run` starts one with `bash .ci/slurm up` and sets SALGRADE_TEST_SLURM_CONF",
    )?;
    let conf = PathBuf::from(conf);
    let answer = std::process::Command::new("sinfo")
        .args(["-h", "-o", "%t"])
        .env("SLURM_CONF", &conf)
        .output()
        .map_err(|e| format!("cannot run sinfo: {e}"))?;
    let state = String::from_utf8_lossy(&answer.stdout);
    if !answer.status.success() || state.trim().is_empty() {
        return Err(format!(
            "the Slurm cluster of `{}` does not answer: {}",
            conf.display(),
            String::from_utf8_lossy(&answer.stderr).trim()
        ));
    }
    Ok(conf)
}

/// A folder with `bin/salgrade` (this build), to put first on the PATH
/// that Slurm passes on to the jobs.
fn path_with_salgrade(dir: &Path) -> std::ffi::OsString {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(
        assert_cmd::cargo::cargo_bin("salgrade"),
        bin.join("salgrade"),
    )
    .unwrap();
    let mut paths = vec![bin];
    paths.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(paths).unwrap()
}

/// The Python the example names (`/usr/bin/python3`), else `python3`.
fn python() -> PathBuf {
    let fixed = Path::new("/usr/bin/python3");
    if fixed.exists() {
        return fixed.to_path_buf();
    }
    let out = std::process::Command::new("sh")
        .args(["-c", "command -v python3"])
        .output()
        .unwrap();
    PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
}

/// Each student's name, score and (case, verdict) pairs.
type Grades = Vec<(String, String, Vec<(String, String)>)>;

/// Each student's score and case verdicts, which sharding must not change.
fn grades(report: &serde_json::Value) -> Grades {
    report["students"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let verdicts = crate::case_verdicts(s)
                .into_iter()
                .map(|(id, (verdict, _))| (id, verdict))
                .collect();
            (s["student"].to_string(), s["score"].to_string(), verdicts)
        })
        .collect()
}

fn json(path: &Path) -> serde_json::Value {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_slice(&bytes).unwrap()
}

/// The docs' Slurm commands (docs/cluster.md, "On a Slurm cluster"), run
/// as written on a real cluster from a folder with `submissions/` and
/// `seed`, with only `PYTHON` set of the variables the docs name: the
/// merged grades are the grades of one unsharded run.
#[test]
fn the_docs_slurm_example_grades_as_one_unsharded_run() {
    let conf = match slurm() {
        Ok(c) => c,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("course");
    for student in [
        "correct",
        "wrong_answer",
        "missing_dualboard",
        "syntax_error",
    ] {
        let to = work.join("submissions").join(student);
        std::fs::create_dir_all(&to).unwrap();
        std::fs::copy(
            crate::submission(student).join("salbLLfunctions.py"),
            to.join("salbLLfunctions.py"),
        )
        .unwrap();
    }
    std::fs::write(work.join("seed"), "4242\n").unwrap();
    std::fs::set_permissions(
        work.join("seed"),
        std::os::unix::fs::PermissionsExt::from_mode(0o600),
    )
    .unwrap();
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/slurm");
    let python = python();
    let script = r#"set -eu
mkdir -p out
job=$(sbatch --parsable "$0/grade.sbatch")
sbatch --wait --dependency=afterany:$job "$0/merge.sbatch"
"#;
    let run = std::process::Command::new("timeout")
        .args(["600", "bash", "-c", script])
        .arg(&examples)
        .current_dir(&work)
        .env("SLURM_CONF", &conf)
        .env("PATH", path_with_salgrade(dir.path()))
        .env("PYTHON", &python)
        .env("XDG_CACHE_HOME", crate::test_cache_home())
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    let logs: String = std::fs::read_dir(work.join("out"))
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().ends_with(".log"))
                .map(|e| {
                    format!(
                        "--- {}\n{}",
                        e.file_name().to_string_lossy(),
                        std::fs::read_to_string(e.path()).unwrap_or_default()
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    assert!(
        run.status.success(),
        "{}{}\n{logs}",
        stderr_of(&run),
        crate::stdout_of(&run)
    );
    // Four shards, as the array asks.
    for k in 1..=4 {
        let report = json(&work.join(format!("out/shard-{k}/report.json")));
        let shard = serde_json::json!({ "index": k, "count": 4 });
        assert_eq!(report["shard"], shard, "{logs}");
    }
    let merged = json(&work.join("out/report.json"));
    assert!(work.join("out/grades.csv").is_file(), "{logs}");
    let single = dir.path().join("single");
    let run = crate::salgrade()
        .arg("grade")
        .arg(work.join("submissions"))
        .arg("--seed-file")
        .arg(work.join("seed"))
        .arg("--python")
        .arg(&python)
        .arg("--out-dir")
        .arg(&single)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", stderr_of(&run));
    let single = json(&single.join("report.json"));
    assert_eq!(grades(&merged), grades(&single), "{logs}");
    assert_eq!(merged["students"].as_array().unwrap().len(), 4);
}

/// The issue-36 case on Slurm: a job of `--mem=1000M` grading two correct
/// students of 650 MiB each with `-j 2`. The limit is on the job's cgroup,
/// above the one salgrade runs in; both keep full marks.
#[test]
fn students_keep_their_marks_in_a_slurm_job_with_little_memory() {
    let conf = match slurm() {
        Ok(c) => c,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let log = dir.path().join("job.log");
    let command = format!(
        "exec salgrade grade -j 2 --cases 4 --out-dir '{}' '{}'",
        out.display(),
        fixtures().join("cluster/memory").display()
    );
    let run = std::process::Command::new("timeout")
        .args([
            "600",
            "sbatch",
            "--wait",
            "--mem=1000M",
            "--cpus-per-task=2",
            "-o",
        ])
        .arg(&log)
        .arg("--wrap")
        .arg(command)
        .current_dir(dir.path())
        .env("SLURM_CONF", &conf)
        .env("PATH", path_with_salgrade(dir.path()))
        .env("XDG_CACHE_HOME", crate::test_cache_home())
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    let log = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(run.status.success(), "{}\n{log}", stderr_of(&run));
    assert!(log.contains("memory: 1000 MiB from "), "{log}");
    assert!(log.contains("; 1 student at a time"), "{log}");
    let report = json(&out.join("report.json"));
    for s in report["students"].as_array().unwrap() {
        assert_eq!(s["score"], s["max_score"], "{}: {log}", s["student"]);
    }
}
