//! Integration tests over the real binary, one module per command.

// The tests start salgrade, bubblewrap and `kill` themselves.
#![allow(clippy::disallowed_methods)]

mod assignments;
mod check;
mod cluster;
mod clusters;
mod consumers;
mod cxx;
mod examples;
mod fairness;
mod formats;
mod game;
mod generate;
mod grade;
mod hostile;
mod html;
mod integrity;
mod isolation;
mod layering;
mod lint;
mod machine_mutants;
mod mutants;
mod platforms;
mod reference;
mod safety;
mod secrets;
mod shard;
mod shrink;
mod similar;
mod speed;
mod state;

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// Tests that look for leftover processes machine-wide, and the one that
/// SIGKILLs salgrade on purpose (which leaves its sandbox's processes to
/// PID 1), take turns rather than see each other's.
pub(crate) fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());
    TURN.lock().unwrap_or_else(|e| e.into_inner())
}

/// Each case's (verdict, detail) in a student's report, by case id.
pub(crate) fn case_verdicts(
    s: &serde_json::Value,
) -> std::collections::BTreeMap<String, (String, String)> {
    s["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["case_id"].as_str().unwrap().to_owned(),
                (
                    c["verdict"].as_str().unwrap().to_owned(),
                    c["detail"].as_str().unwrap_or("").to_owned(),
                ),
            )
        })
        .collect()
}

/// Whether bubblewrap is installed and can create its namespaces here.
pub(crate) fn bwrap_works() -> bool {
    std::process::Command::new("bwrap")
        .args(["--unshare-all", "--ro-bind", "/", "/", "--", "/bin/true"])
        .output()
        .is_ok_and(|o| o.status.success())
}

pub(crate) fn salgrade() -> Command {
    let mut cmd = Command::cargo_bin("salgrade").expect("the binary is built");
    cmd.env_remove("RUST_LOG")
        .env("XDG_CACHE_HOME", test_cache_home());
    cmd
}

/// The cache folder the tests' runs share (`XDG_CACHE_HOME`): under the
/// target folder, never the user's home, and kept between test runs so the
/// C++ prelude is compiled once.
pub(crate) fn test_cache_home() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("cache-home")
}

pub(crate) fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

pub(crate) fn submission(name: &str) -> PathBuf {
    fixtures().join("submissions").join(name)
}

#[track_caller]
pub(crate) fn stderr_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[track_caller]
pub(crate) fn stdout_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Processes whose command line mentions `needle` (the sandbox leaves none).
pub(crate) fn processes_matching(needle: &str) -> Vec<String> {
    let mut found = Vec::new();
    if let Ok(entries) = std::fs::read_dir("/proc") {
        for e in entries.flatten() {
            let Ok(cmd) = std::fs::read(e.path().join("cmdline")) else {
                continue;
            };
            let text = String::from_utf8_lossy(&cmd).replace('\0', " ");
            if text.contains(needle) && !text.contains("cargo") {
                found.push(format!("{}: {text}", e.file_name().to_string_lossy()));
            }
        }
    }
    found
}

/// A process's `/proc/PID/status`.
pub(crate) fn status_of(pid: &str) -> Option<String> {
    std::fs::read_to_string(format!("/proc/{pid}/status")).ok()
}

pub(crate) fn field(status: &str, name: &str) -> String {
    status
        .lines()
        .find_map(|l| l.strip_prefix(name))
        .and_then(|v| v.split_whitespace().next())
        .unwrap_or("")
        .to_owned()
}

/// Whether a running salgrade is among `pid`'s ancestors.
pub(crate) fn under_live_salgrade(pid: &str) -> bool {
    let mut here = pid.to_owned();
    for _ in 0..64 {
        let Some(status) = status_of(&here) else {
            return false;
        };
        let parent = field(&status, "PPid:");
        if parent.is_empty() || parent == "0" || parent == "1" {
            return false;
        }
        let salgrade = std::fs::read(format!("/proc/{parent}/cmdline")).is_ok_and(|c| {
            let argv0 = c.split(|b| *b == 0).next().unwrap_or_default();
            argv0.ends_with(b"salgrade")
        });
        if salgrade {
            return true;
        }
        here = parent;
    }
    false
}
