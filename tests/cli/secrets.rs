//! `grade` warns loudly when student code could read what keeps the cases
//! secret: a seed file or case file readable in the `rlimit` sandbox, or a
//! secret `--seed` on the command line without a PID namespace.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use crate::{salgrade, stderr_of, submission};

/// `grade --sandbox rlimit` of the correct submission with `extra`
/// arguments: its stderr and the seed its report records.
fn grade_rlimit(dir: &Path, extra: &[&str]) -> (String, serde_json::Value) {
    let subs = dir.join("subs/correct");
    std::fs::create_dir_all(&subs).unwrap();
    let file = "salbLLfunctions.py";
    std::fs::copy(submission("correct").join(file), subs.join(file)).unwrap();
    let out_dir = dir.join("out");
    let run = salgrade()
        .args([
            "grade",
            "--sandbox",
            "rlimit",
            "--cases",
            "1",
            "--format",
            "json",
        ])
        .args(extra)
        .arg("--out-dir")
        .arg(&out_dir)
        .arg(dir.join("subs"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", stderr_of(&run));
    let report: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    (stderr_of(&run), report["seed"].clone())
}

#[test]
fn a_readable_seed_file_or_a_secret_seed_on_the_command_line_is_a_loud_warning() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let seed = dir.path().join("seed");
    std::fs::write(&seed, "4242\n").unwrap();
    std::fs::set_permissions(&seed, std::fs::Permissions::from_mode(0o644)).unwrap();
    let seed_arg = seed.to_str().unwrap();

    let (err, recorded) = grade_rlimit(dir.path(), &["--seed-file", seed_arg]);
    assert_eq!(recorded, 4242);
    assert!(
        err.contains("warning: SECRET EXPOSED: student code can read the seed file"),
        "{err}"
    );

    // A file only its owner reads: fine when student code runs as an
    // unprivileged uid per slot (salgrade as root, Python reachable by that
    // uid), exposed when it runs as salgrade's own user.
    std::fs::set_permissions(&seed, std::fs::Permissions::from_mode(0o600)).unwrap();
    let (err, _) = grade_rlimit(dir.path(), &["--seed-file", seed_arg]);
    let own_user = !nix::unistd::geteuid().is_root() || err.contains("student code runs as root");
    if own_user {
        assert!(err.contains("runs as salgrade's own user"), "{err}");
    } else {
        assert!(!err.contains("SECRET EXPOSED"), "{err}");
    }

    let (err, _) = grade_rlimit(dir.path(), &["--seed", "4242"]);
    assert!(
        err.contains(
            "SECRET EXPOSED: student code can read the secret seed on salgrade's command line"
        ),
        "{err}"
    );
    // The public seed is no secret.
    let (err, _) = grade_rlimit(dir.path(), &[]);
    assert!(!err.contains("SECRET EXPOSED"), "{err}");
}
