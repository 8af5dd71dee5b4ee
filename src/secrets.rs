//! Whether student code could read what makes the grading cases secret: a
//! seed file (`--seed-file`), a case file (`--cases-file`), or a seed on
//! salgrade's own command line (`--seed`, which any process that sees
//! salgrade's pid reads in `/proc/PID/cmdline`). Under the `namespaces`
//! backend a student process sees none of them (a fresh root without the
//! grader's files, its own PID namespace); under `rlimit` (Docker's default
//! seccomp profile refuses namespaces, so Gradescope's containers usually
//! fall back to it) it sees the whole file system and every process.
//!
//! The check reads permission bits only (no ACLs): a file is readable by
//! an unprivileged uid that owns nothing when "others" may read it and
//! search every folder above it.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use crate::runner::sandbox::SandboxKind;

/// Who student code runs as, compared with salgrade.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StudentUser {
    /// salgrade's own user: it can read whatever salgrade can.
    Same,
    /// An unprivileged uid of its own (salgrade runs as root).
    Other,
}

/// Whether "others" may read a file with `file_mode` below folders with
/// `folder_modes` (each needs search, `x`).
pub(crate) fn others_can_read(file_mode: u32, folder_modes: &[u32]) -> bool {
    file_mode & 0o004 != 0 && folder_modes.iter().all(|m| m & 0o001 != 0)
}

fn readable_by_others(path: &Path) -> std::io::Result<bool> {
    let path = std::fs::canonicalize(path)?;
    let file = std::fs::metadata(&path)?.permissions().mode();
    let mut folders = Vec::new();
    for dir in path.ancestors().skip(1) {
        folders.push(std::fs::metadata(dir)?.permissions().mode());
    }
    Ok(others_can_read(file, &folders))
}

/// Warnings for each secret input student code could read. `files` are the
/// secret files with what they are (`seed file`, `case file`); `cmdline_seed`
/// is a secret seed given as `--seed`.
pub(crate) fn warnings(
    files: &[(&str, &Path)],
    cmdline_seed: bool,
    sandbox: SandboxKind,
    student: StudentUser,
) -> Vec<String> {
    if sandbox == SandboxKind::Namespaces {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (what, path) in files {
        let exposed = match student {
            StudentUser::Same => true,
            StudentUser::Other => readable_by_others(path).unwrap_or(true),
        };
        if exposed {
            let who = match student {
                StudentUser::Same => "runs as salgrade's own user",
                StudentUser::Other => {
                    "runs as an unprivileged user, and the file or a folder above it lets others read"
                }
            };
            out.push(format!(
                "SECRET EXPOSED: student code can read the {what} `{}`: the sandbox here is `{}` and student code {who}; run salgrade as root with the file `chmod 600` and owned by root (or where namespaces are allowed)",
                path.display(),
                sandbox_name(sandbox)
            ));
        }
    }
    if cmdline_seed && sandbox != SandboxKind::Bwrap {
        out.push(format!(
            "SECRET EXPOSED: student code can read the secret seed on salgrade's command line (`/proc/PID/cmdline`): the sandbox here is `{}`, without a PID namespace; pass it with `--seed-file` (a file only root can read) instead",
            sandbox_name(sandbox)
        ));
    }
    out
}

fn sandbox_name(kind: SandboxKind) -> &'static str {
    match kind {
        SandboxKind::None => "none",
        SandboxKind::Namespaces => "namespaces",
        SandboxKind::Rlimit => "rlimit",
        SandboxKind::Bwrap => "bwrap",
    }
}

/// The seed in a seed file: one number, spaces around it allowed.
pub(crate) fn read_seed(path: &Path) -> anyhow::Result<u64> {
    use anyhow::Context as _;
    let text = crate::input::read_text(path)
        .with_context(|| format!("cannot read seed file `{}`", path.display()))?;
    text.trim().parse().with_context(|| {
        format!(
            "seed file `{}` does not hold one whole number (0 to 18446744073709551615)",
            path.display()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn others_need_read_on_the_file_and_search_on_every_folder() {
        assert!(others_can_read(0o644, &[0o755, 0o755]));
        assert!(!others_can_read(0o600, &[0o755, 0o755]));
        assert!(!others_can_read(0o644, &[0o700, 0o755]));
        assert!(others_can_read(0o604, &[0o711]));
    }

    #[test]
    fn a_world_readable_seed_file_is_exposed_under_rlimit_only() {
        let dir = tempfile::tempdir().unwrap();
        let seed = dir.path().join("seed");
        std::fs::write(&seed, "42\n").unwrap();
        std::fs::set_permissions(&seed, std::fs::Permissions::from_mode(0o644)).unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let files = [("seed file", seed.as_path())];
        let w = warnings(&files, false, SandboxKind::Rlimit, StudentUser::Other);
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].starts_with("SECRET EXPOSED: student code can read the seed file"));
        assert!(warnings(&files, true, SandboxKind::Namespaces, StudentUser::Same).is_empty());
        std::fs::set_permissions(&seed, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert!(warnings(&files, false, SandboxKind::Rlimit, StudentUser::Other).is_empty());
        assert_eq!(
            warnings(&files, false, SandboxKind::Rlimit, StudentUser::Same).len(),
            1
        );
        let cmdline = warnings(&[], true, SandboxKind::Rlimit, StudentUser::Other);
        assert!(cmdline[0].contains("`--seed-file`"), "{cmdline:?}");
        assert_eq!(read_seed(&seed).unwrap(), 42);
    }
}
