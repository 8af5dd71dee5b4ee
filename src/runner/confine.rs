//! The `namespaces` backend's plan: which namespaces a student process gets
//! and the fresh root it sees, computed in the parent (safe code, allocation
//! allowed) and carried out between fork and exec by `unix::confine`.
//!
//! The child of `fork` (the *keeper*, the process salgrade waits on) unshares
//! the mount, PID, network, IPC, UTS and cgroup namespaces (and, without
//! root, a user namespace mapping salgrade's own uid) and forks the
//! namespace's PID 1 (*init*). Init builds the root: a tmpfs holding
//! read-only binds of `/usr` and what else the program needs, the session
//! folder at `/sandbox` (the only writable place but a private `/tmp`), a
//! fresh `/proc` and a minimal `/dev`; the old root is detached, so the
//! grader, the case files, other students' folders and the home directories
//! are simply not there. Init then forks the program (PID 2), which drops to
//! the slot's uid and execs. Init reaps whatever the program leaves and
//! passes its exit status to the keeper, which ends the same way. When init
//! exits, the kernel kills everything left in the namespace.
//!
//! PID 2 rather than PID 1 runs the student's code because the kernel
//! protects a namespace's PID 1 from signals sent inside it: a program that
//! calls `abort()` or kills itself must die of it, as it would anywhere.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use super::plan::{Access, Executable, Plan, Program, Step, UserMap};

/// Where the session folder appears inside the sandbox.
pub(crate) const INSIDE_DIR: &str = "/sandbox";
/// The size-limited tmpfs that takes a student's writes to the session
/// folder, so that the host's disk never does.
const SCRATCH: &str = "/.salgrade-scratch";
/// The scratch space per session, in file-size limits (RLIMIT_FSIZE): a
/// few files of the largest size allowed.
const SCRATCH_FILES: u64 = 4;

/// System trees every program may read.
const SYSTEM: &[&str] = &[
    "/usr",
    "/etc/alternatives",
    "/etc/ld.so.cache",
    "/etc/localtime",
];
/// The merged-`/usr` links (or, on older systems, directories).
const MERGED: &[(&str, &str)] = &[
    ("/lib", "usr/lib"),
    ("/lib32", "usr/lib32"),
    ("/lib64", "usr/lib64"),
    ("/bin", "usr/bin"),
    ("/sbin", "usr/sbin"),
];
/// The device nodes bound into the sandbox's `/dev`.
const DEVICES: &[&str] = &["null", "zero", "full", "random", "urandom"];

fn c(path: impl AsRef<Path>) -> CString {
    // Paths come from the file system and from salgrade, never with a NUL;
    // one that had one could not be bound anyway, so it becomes empty and
    // its mount fails with a clear error rather than a panic.
    CString::new(path.as_ref().as_os_str().as_bytes()).unwrap_or_default()
}

/// The path `inside` seen through the old root.
fn old(inside: &Path) -> CString {
    let mut p = PathBuf::from(OLD_ROOT);
    p.push(inside.strip_prefix("/").unwrap_or(inside));
    c(p)
}

const OLD_ROOT: &str = "/.salgrade-old-root";

/// The steps so far, with the folders made and the trees bound.
#[derive(Default)]
struct Builder {
    steps: Vec<Step>,
    made: Vec<PathBuf>,
    bound: Vec<PathBuf>,
}

impl Builder {
    /// Adds `dir` and its missing ancestors, once each; nothing is made
    /// inside a bound tree (it is there already, read-only).
    fn dirs(&mut self, dir: &Path) {
        let mut todo: Vec<&Path> = dir
            .ancestors()
            .take_while(|a| {
                *a != Path::new("/")
                    && !self.made.iter().any(|m| m == a)
                    && !self.bound.iter().any(|b| a.starts_with(b))
            })
            .collect();
        todo.reverse();
        for d in todo {
            self.made.push(d.to_path_buf());
            self.steps.push(Step::Dir(c(d)));
        }
    }

    /// Binds `path` read-only at the same place, unless a bound tree holds it.
    fn bind(&mut self, path: &Path) {
        if self.bound.iter().any(|b| path.starts_with(b)) {
            return;
        }
        let Ok(meta) = std::fs::metadata(path) else {
            return;
        };
        if meta.is_dir() {
            self.dirs(path);
        } else {
            if let Some(parent) = path.parent() {
                self.dirs(parent);
            }
            self.steps.push(Step::File(c(path)));
        }
        self.steps.push(Step::Bind {
            from: old(path),
            to: c(path),
            access: Access::ReadOnly,
        });
        if meta.is_dir() {
            self.bound.push(path.to_path_buf());
        }
    }
}

/// The root a `program` sees when run from the session folder `dir`.
/// `owner`: the uid and gid the program runs as, which own its scratch.
pub(crate) fn plan(
    program: &Program<'_>,
    dir: &Path,
    tmp_mb: u64,
    user: Option<UserMap>,
    owner: Option<(u32, u32)>,
) -> Plan {
    let mut steps = host_trees(program, tmp_mb);
    proc_and_dev(&mut steps, tmp_mb);
    session_folder(&mut steps, program, dir, owner);
    Plan {
        base: c(std::env::temp_dir()),
        old_root_in_base: c(OLD_ROOT.trim_start_matches('/')),
        old_root: c(OLD_ROOT),
        root_options: c("mode=0755,size=1m"),
        steps,
        workdir: c(INSIDE_DIR),
        user,
    }
}

/// The host's system trees, read-only; the private /tmp; then the trees
/// outside `/usr` the program needs.
fn host_trees(program: &Program<'_>, tmp_mb: u64) -> Vec<Step> {
    let mut b = Builder::default();
    for sys in SYSTEM {
        b.bind(Path::new(sys));
    }
    for (link, target) in MERGED {
        let path = Path::new(link);
        if path.is_symlink() {
            b.steps.push(Step::Symlink {
                target: c(target),
                link: c(link),
            });
        } else {
            b.bind(path);
        }
    }
    // The private /tmp before the program's own trees, which may lie below it.
    b.dirs(Path::new("/tmp"));
    b.steps.push(Step::Tmpfs {
        to: c("/tmp"),
        options: c(format!("mode=1777,size={tmp_mb}m")),
    });
    let executable = match program.executable {
        Executable::System(p) => Some(p),
        Executable::InSession(_) => None,
    };
    for extra in program.binds.iter().copied().chain(executable) {
        if !extra.starts_with("/usr") {
            // The tree itself, below folders the new root makes 0755: an
            // interpreter under a 0700 home becomes reachable by the slot's
            // uid without opening that home.
            let tree = if extra.is_dir() {
                extra
            } else {
                extra.parent().unwrap_or(extra)
            };
            b.bind(tree);
        }
    }
    // A device node, bound without devices allowed: opening it fails, so
    // the import fails as for a module that is not there.
    for mask in program.masks {
        b.steps.push(Step::Bind {
            from: old(Path::new("/dev/null")),
            to: c(mask),
            access: Access::ReadOnly,
        });
    }
    b.steps
}

/// A fresh /proc (read-only: nothing a program needs writes there, and a
/// process could otherwise write into its own memory through
/// `/proc/self/mem`), and a small /dev with only the allowed devices, the
/// standard links and a private /dev/shm.
fn proc_and_dev(steps: &mut Vec<Step>, tmp_mb: u64) {
    steps.push(Step::Dir(c("/proc")));
    steps.push(Step::Proc(c("/proc")));
    steps.push(Step::Dir(c("/dev")));
    steps.push(Step::Tmpfs {
        to: c("/dev"),
        options: c("mode=0755,size=64k"),
    });
    for dev in DEVICES {
        let path = Path::new("/dev").join(dev);
        if path.exists() {
            steps.push(Step::File(c(&path)));
            steps.push(Step::Bind {
                from: old(&path),
                to: c(&path),
                access: Access::Device,
            });
        }
    }
    for (link, target) in [
        ("/dev/fd", "/proc/self/fd"),
        ("/dev/stdin", "/proc/self/fd/0"),
        ("/dev/stdout", "/proc/self/fd/1"),
        ("/dev/stderr", "/proc/self/fd/2"),
    ] {
        steps.push(Step::Symlink {
            target: c(target),
            link: c(link),
        });
    }
    steps.push(Step::Dir(c("/dev/shm")));
    steps.push(Step::Tmpfs {
        to: c("/dev/shm"),
        options: c(format!("mode=1777,size={tmp_mb}m")),
    });
}

/// The session folder `dir` at [`INSIDE_DIR`]: bound writable when the
/// program's output is kept, otherwise under a size-limited scratch layer.
fn session_folder(
    steps: &mut Vec<Step>,
    program: &Program<'_>,
    dir: &Path,
    owner: Option<(u32, u32)>,
) {
    steps.push(Step::Dir(c(INSIDE_DIR)));
    if program.keeps_output {
        steps.push(Step::Bind {
            from: old(dir),
            to: c(INSIDE_DIR),
            access: Access::Writable,
        });
        return;
    }
    let scratch_mb = (SCRATCH_FILES * program.limits.file_size_mb).max(1);
    steps.push(Step::Dir(c(SCRATCH)));
    steps.push(Step::Tmpfs {
        to: c(SCRATCH),
        options: c(format!("mode=0755,size={scratch_mb}m")),
    });
    let upper = format!("{SCRATCH}/upper");
    let work = format!("{SCRATCH}/work");
    let lower = old(dir);
    steps.push(Step::Overlay {
        options: c(format!(
            "lowerdir={},upperdir={upper},workdir={work}",
            lower.to_string_lossy()
        )),
        lower,
        upper: c(&upper),
        work: c(&work),
        to: c(INSIDE_DIR),
        owner,
    });
}

/// The executable's path inside the sandbox.
pub(crate) fn inside_executable(executable: Executable<'_>) -> PathBuf {
    match executable {
        Executable::System(p) => p.to_path_buf(),
        Executable::InSession(name) => Path::new(INSIDE_DIR).join(name),
    }
}

/// The user namespace a run without root needs: its own ids, mapped onto
/// themselves.
pub(crate) fn own_user_map() -> UserMap {
    let uid = nix::unistd::Uid::effective().as_raw();
    let gid = nix::unistd::Gid::effective().as_raw();
    UserMap {
        uid_map: c(format!("{uid} {uid} 1")),
        gid_map: c(format!("{gid} {gid} 1")),
    }
}

/// The user namespace for a program that runs as root: root mapped onto
/// itself, so it keeps its files but has no capability over the machine.
pub(crate) fn root_user_map() -> UserMap {
    UserMap {
        uid_map: c("0 0 1"),
        gid_map: c("0 0 1"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::Limits;

    fn names(plan: &Plan) -> Vec<String> {
        plan.steps
            .iter()
            .map(|s| match s {
                Step::Dir(p) => format!("dir {}", p.to_string_lossy()),
                Step::File(p) => format!("file {}", p.to_string_lossy()),
                Step::Bind { from, to, access } => format!(
                    "bind {} {} {access:?}",
                    from.to_string_lossy(),
                    to.to_string_lossy()
                ),
                Step::Tmpfs { to, .. } => format!("tmpfs {}", to.to_string_lossy()),
                Step::Proc(p) => format!("proc {}", p.to_string_lossy()),
                Step::Symlink { target, link } => {
                    format!(
                        "symlink {} {}",
                        link.to_string_lossy(),
                        target.to_string_lossy()
                    )
                }
                Step::Overlay { lower, to, .. } => format!(
                    "overlay {} {}",
                    lower.to_string_lossy(),
                    to.to_string_lossy()
                ),
            })
            .collect()
    }

    #[test]
    fn an_interpreter_under_a_private_home_is_bound_below_fresh_folders() {
        let home = tempfile::tempdir().unwrap();
        let prefix = home.path().join("versions/3.11");
        std::fs::create_dir_all(prefix.join("bin")).unwrap();
        std::fs::write(prefix.join("bin/python3"), "").unwrap();
        let exe = prefix.join("bin/python3");
        let program = Program {
            executable: Executable::System(&exe),
            args: Vec::new(),
            binds: vec![&prefix],
            masks: &[],
            drop_privileges: true,
            limits: Limits::default(),
            keeps_output: false,
        };
        let session = tempfile::tempdir().unwrap();
        let steps = names(&plan(&program, session.path(), 64, None, None));
        let at = |s: &str| steps.iter().position(|x| x == s);
        let bound = format!(
            "bind {}{} {} ReadOnly",
            OLD_ROOT,
            prefix.display(),
            prefix.display()
        );
        let bind_at = at(&bound).unwrap_or_else(|| panic!("{steps:#?}"));
        // Every ancestor is made (0755) before the bind; the executable's
        // folder is inside the prefix, so it is not bound again.
        for a in prefix.ancestors().skip(1).filter(|a| *a != Path::new("/")) {
            let made = at(&format!("dir {}", a.display())).unwrap();
            assert!(made < bind_at, "{a:?}");
        }
        assert_eq!(
            steps
                .iter()
                .filter(|s| s.starts_with("bind") && s.contains(&prefix.display().to_string()))
                .count(),
            1,
            "{steps:#?}"
        );
        // The session folder is /sandbox, under a scratch layer that takes
        // the student's writes; the home is nowhere.
        assert!(steps.contains(&format!(
            "overlay {}{} /sandbox",
            OLD_ROOT,
            session.path().display()
        )));
        assert!(at(&format!("tmpfs {SCRATCH}")).is_some());
        assert!(at("proc /proc").is_some() && at("tmpfs /tmp").is_some());
    }

    #[test]
    fn a_compiled_program_runs_from_the_session_folder() {
        let program = Program {
            executable: Executable::InSession("program"),
            args: Vec::new(),
            binds: Vec::new(),
            masks: &[],
            drop_privileges: true,
            limits: Limits::default(),
            keeps_output: false,
        };
        assert_eq!(
            inside_executable(program.executable),
            Path::new("/sandbox/program")
        );
        let steps = names(&plan(&program, Path::new("/tmp/x"), 64, None, None));
        assert!(
            steps
                .iter()
                .any(|s| s == "overlay /.salgrade-old-root/tmp/x /sandbox")
        );
        // The compiler's output is read back by salgrade: its folder is
        // bound as it is.
        let compiler = Program {
            keeps_output: true,
            ..program.clone()
        };
        let steps = names(&plan(&compiler, Path::new("/tmp/x"), 64, None, None));
        assert!(
            steps
                .iter()
                .any(|s| s == "bind /.salgrade-old-root/tmp/x /sandbox Writable")
        );
        assert!(
            steps
                .iter()
                .any(|s| s.starts_with("bind /.salgrade-old-root/usr /usr"))
        );
    }
}
