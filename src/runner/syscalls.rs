//! The system calls no student process (nor a compiler) may make: a
//! deny-list enforced by the kernel (seccomp), built once per run with
//! `seccompiler` and installed between fork and exec by `unix::prepare`
//! (or handed to bubblewrap, which installs it after building its
//! namespaces). A denied call fails with `EPERM`, as it would for an
//! unprivileged user, so code that merely probes goes on.
//!
//! What is denied, and why:
//! - the kernel's key store (`add_key`, `request_key`, `keyctl`): keys are
//!   kept per user, not per sandbox, and outlive the process, so two
//!   students (or one student's processes) could pass answers through them;
//! - reading or writing another process's memory (`ptrace`,
//!   `process_vm_readv`, `process_vm_writev`): a student's child could
//!   change the driver that checks its parent's answers;
//! - making namespaces (`unshare`, `setns`, `clone` with a namespace flag)
//!   and mounting (`mount`, `umount2`, `pivot_root` and the new mount
//!   API): inside its own user namespace a process could remount what the
//!   sandbox made read-only for it;
//! - kernel interfaces no program here needs and that widen the kernel's
//!   attack surface: `io_uring_*`, `userfaultfd`, `perf_event_open`,
//!   `bpf`, `kexec_*`, module loading, `reboot`, `swapon`/`swapoff`,
//!   `acct`, `quotactl`, `open_by_handle_at`, `lookup_dcookie`, `syslog`,
//!   and sockets of the `AF_VSOCK` and `AF_ALG` families;
//! - `clone3`, whose flags the filter cannot read, fails with `ENOSYS`, so
//!   the C library falls back to `clone`, whose flags it can.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

/// The calls denied whatever their arguments.
const DENIED: &[(&str, i64)] = &[
    ("add_key", nix::libc::SYS_add_key),
    ("request_key", nix::libc::SYS_request_key),
    ("keyctl", nix::libc::SYS_keyctl),
    ("ptrace", nix::libc::SYS_ptrace),
    ("process_vm_readv", nix::libc::SYS_process_vm_readv),
    ("process_vm_writev", nix::libc::SYS_process_vm_writev),
    ("unshare", nix::libc::SYS_unshare),
    ("setns", nix::libc::SYS_setns),
    ("mount", nix::libc::SYS_mount),
    ("umount2", nix::libc::SYS_umount2),
    ("pivot_root", nix::libc::SYS_pivot_root),
    ("open_tree", nix::libc::SYS_open_tree),
    ("move_mount", nix::libc::SYS_move_mount),
    ("fsopen", nix::libc::SYS_fsopen),
    ("fsconfig", nix::libc::SYS_fsconfig),
    ("fsmount", nix::libc::SYS_fsmount),
    ("fspick", nix::libc::SYS_fspick),
    ("mount_setattr", nix::libc::SYS_mount_setattr),
    ("io_uring_setup", nix::libc::SYS_io_uring_setup),
    ("io_uring_enter", nix::libc::SYS_io_uring_enter),
    ("io_uring_register", nix::libc::SYS_io_uring_register),
    ("userfaultfd", nix::libc::SYS_userfaultfd),
    ("perf_event_open", nix::libc::SYS_perf_event_open),
    ("bpf", nix::libc::SYS_bpf),
    ("kexec_load", nix::libc::SYS_kexec_load),
    ("kexec_file_load", nix::libc::SYS_kexec_file_load),
    ("init_module", nix::libc::SYS_init_module),
    ("finit_module", nix::libc::SYS_finit_module),
    ("delete_module", nix::libc::SYS_delete_module),
    ("reboot", nix::libc::SYS_reboot),
    ("swapon", nix::libc::SYS_swapon),
    ("swapoff", nix::libc::SYS_swapoff),
    ("acct", nix::libc::SYS_acct),
    ("quotactl", nix::libc::SYS_quotactl),
    ("open_by_handle_at", nix::libc::SYS_open_by_handle_at),
    ("lookup_dcookie", nix::libc::SYS_lookup_dcookie),
    ("syslog", nix::libc::SYS_syslog),
];

/// The namespace flags `clone` may not carry.
const NAMESPACE_FLAGS: &[u64] = &[
    nix::libc::CLONE_NEWNS as u64,
    nix::libc::CLONE_NEWUSER as u64,
    nix::libc::CLONE_NEWPID as u64,
    nix::libc::CLONE_NEWNET as u64,
    nix::libc::CLONE_NEWIPC as u64,
    nix::libc::CLONE_NEWUTS as u64,
    nix::libc::CLONE_NEWCGROUP as u64,
];

/// The socket families no student process may open.
const DENIED_FAMILIES: &[u64] = &[nix::libc::AF_VSOCK as u64, nix::libc::AF_ALG as u64];

/// The run's filters, in the order they are installed: the deny-list
/// (`EPERM`), then `clone3` (`ENOSYS`). `None` where seccompiler cannot
/// build for this machine's architecture.
pub(crate) fn filters() -> Option<&'static [BpfProgram]> {
    static FILTERS: OnceLock<Option<Vec<BpfProgram>>> = OnceLock::new();
    FILTERS.get_or_init(|| build().ok()).as_deref()
}

/// The names of the calls denied, for the README and the run's header.
pub(crate) fn denied_names() -> impl Iterator<Item = &'static str> {
    DENIED.iter().map(|(name, _)| *name)
}

fn build() -> Result<Vec<BpfProgram>, seccompiler::Error> {
    let arch = TargetArch::try_from(std::env::consts::ARCH)?;
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = DENIED
        .iter()
        .map(|&(_, number)| (number, Vec::new()))
        .collect();
    let masked = |arg: u8, flag: u64| {
        SeccompCondition::new(
            arg,
            SeccompCmpArgLen::Qword,
            SeccompCmpOp::MaskedEq(flag),
            flag,
        )
        .and_then(|c| SeccompRule::new(vec![c]))
    };
    rules.insert(
        nix::libc::SYS_clone,
        NAMESPACE_FLAGS
            .iter()
            .map(|&f| masked(0, f))
            .collect::<Result<_, _>>()?,
    );
    rules.insert(
        nix::libc::SYS_socket,
        DENIED_FAMILIES
            .iter()
            .map(|&family| {
                SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, family)
                    .and_then(|c| SeccompRule::new(vec![c]))
            })
            .collect::<Result<_, _>>()?,
    );
    let deny = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(nix::libc::EPERM as u32),
        arch,
    )?;
    let clone3 = SeccompFilter::new(
        [(nix::libc::SYS_clone3, Vec::new())].into_iter().collect(),
        SeccompAction::Allow,
        SeccompAction::Errno(nix::libc::ENOSYS as u32),
        arch,
    )?;
    Ok(vec![deny.try_into()?, clone3.try_into()?])
}

/// A filter as the bytes bubblewrap reads from `--add-seccomp-fd`: the
/// program's instructions, as the kernel takes them.
pub(crate) fn bytes(program: &BpfProgram) -> Vec<u8> {
    let mut out = Vec::with_capacity(program.len() * 8);
    for insn in program {
        out.extend_from_slice(&insn.code.to_ne_bytes());
        out.push(insn.jt);
        out.push(insn.jf);
        out.extend_from_slice(&insn.k.to_ne_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filters_build_for_this_machine() {
        let filters = filters().expect("seccompiler builds for this architecture");
        assert_eq!(filters.len(), 2);
        assert!(filters.iter().all(|f| !f.is_empty() && f.len() < 4096));
        assert_eq!(bytes(&filters[1]).len(), filters[1].len() * 8);
        assert!(denied_names().any(|n| n == "keyctl"));
    }
}
