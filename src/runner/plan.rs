//! The plan of a sandboxed process, as data: the program and its limits
//! (`sandbox.rs` chooses them), the namespaces' root (`confine.rs` computes
//! it), and the limits and identity the child takes on (`unix/` applies
//! them between fork and exec). The three modules share these types and
//! nothing else, so none of them depends on another for its vocabulary.

use std::ffi::CString;
use std::path::Path;

use serde::Serialize;

/// The resource limits every student process gets (defaults in docs/verdicts-and-deadlines.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub(crate) struct Limits {
    pub memory_mb: u64,
    pub cpu_seconds: u64,
    pub file_size_mb: u64,
    pub open_files: u64,
    pub processes: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            memory_mb: 1024,
            cpu_seconds: 60,
            file_size_mb: 16,
            open_files: 64,
            processes: 32,
        }
    }
}

impl Limits {
    pub(crate) fn child_limits(&self) -> ChildLimits {
        ChildLimits {
            address_space: self.memory_mb * 1024 * 1024,
            // The soft limit comes first so the student gets SIGXCPU, a
            // recognisable signal, before the kernel's SIGKILL at the hard one.
            cpu_seconds: (self.cpu_seconds, self.cpu_seconds + 2),
            file_size: self.file_size_mb * 1024 * 1024,
            open_files: self.open_files,
            processes: self.processes,
        }
    }
}

/// Where a program's executable is.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Executable<'a> {
    /// An installed program (the interpreter, the compiler).
    System(&'a Path),
    /// A file in the session folder (a compiled submission).
    InSession(&'a str),
}

/// A program to run in the sandbox, as a toolchain describes it.
#[derive(Debug, Clone)]
pub(crate) struct Program<'a> {
    pub executable: Executable<'a>,
    pub args: Vec<String>,
    /// Trees outside `/usr` the program needs to see (read-only).
    pub binds: Vec<&'a Path>,
    /// Files the program must not find, masked by an empty device node
    /// where the sandbox builds its own root (the interpreter's modules
    /// that reach its memory: `_ctypes` and the test modules).
    pub masks: &'a [std::path::PathBuf],
    /// Run as the slot's unprivileged uid (only as root; see `can_drop`).
    pub drop_privileges: bool,
    /// The resource limits, when not the run's own (a compiler's).
    pub limits: Limits,
    /// Salgrade reads a file the program writes (the compiler's output):
    /// its writes go to the session folder itself. Otherwise (student
    /// code) they go to a size-limited scratch layer over it, in the
    /// `namespaces` backend.
    pub keeps_output: bool,
}

/// Resource limits applied in the child, as (soft, hard) pairs.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ChildLimits {
    pub address_space: u64,
    pub cpu_seconds: (u64, u64),
    pub file_size: u64,
    pub open_files: u64,
    pub processes: u64,
}

/// An unprivileged identity to run student code as (only when we are root).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Identity {
    pub uid: u32,
    pub gid: u32,
}

/// One step in building the new root, with paths inside it; a bind's source
/// is reached through the old root, mounted at [`Plan::old_root`].
#[derive(Debug, Clone)]
pub(crate) enum Step {
    Dir(CString),
    /// An empty file, the mount point for a file bind.
    File(CString),
    Bind {
        from: CString,
        to: CString,
        access: Access,
    },
    Tmpfs {
        to: CString,
        options: CString,
    },
    Proc(CString),
    Symlink {
        target: CString,
        link: CString,
    },
    /// The session folder under a writable layer on the scratch tmpfs:
    /// `upper` and `work` are made (`upper` owned by `owner`, 0700), and
    /// an overlay of `lower` mounted at `to` with `options`. Where the
    /// kernel refuses the overlay, `lower` is bound writable instead.
    Overlay {
        lower: CString,
        upper: CString,
        work: CString,
        to: CString,
        options: CString,
        owner: Option<(u32, u32)>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Access {
    ReadOnly,
    Writable,
    /// A device node: writable, and the only mount without `nodev`.
    Device,
}

/// A user namespace for runs without root: salgrade's uid and gid, mapped
/// onto themselves (the only mapping an unprivileged process may write).
#[derive(Debug, Clone)]
pub(crate) struct UserMap {
    pub uid_map: CString,
    pub gid_map: CString,
}

/// Everything `unix::confine` needs, as C strings made before the fork.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    /// An existing folder of the old root where the new root's tmpfs is
    /// mounted before `pivot_root` (the temp dir).
    pub base: CString,
    /// The old root's mount point inside the new one, relative to `base`
    /// before the pivot and absolute after it.
    pub old_root_in_base: CString,
    pub old_root: CString,
    pub root_options: CString,
    pub steps: Vec<Step>,
    pub workdir: CString,
    pub user: Option<UserMap>,
}

/// The system-call filters a child gets (see `syscalls`).
#[derive(Debug, Clone, Copy)]
pub(crate) enum ChildFilters {
    /// None (the `none` backend, or no filter for this architecture).
    None,
    /// Installed by the child itself, last before exec.
    Install(&'static [seccompiler::BpfProgram]),
    /// Handed to the program (bubblewrap) on descriptors 5 and 6: the read
    /// ends of pipes holding them, open in the parent until the spawn.
    Inherit([std::os::fd::RawFd; 2]),
}
