//! Launching a session of a prepared submission: the generic Python
//! driver's files and arguments, or the built C++ program.

use super::cxx;
use super::sandbox::SandboxKind;
use super::session::{RunnerConfig, Session, SessionError, SessionFile, ZygoteMode};

/// The driver's file name inside the session folder.
pub(super) const DRIVER_NAME: &str = "_salgrade_driver.py";
pub(super) const DRIVER_PY: &str = include_str!("driver.py");
/// The module name the assignment's adapter is imported as.
const ADAPTER_MODULE: &str = "_salgrade_adapter";
pub(super) const ADAPTER_FILE: &str = "_salgrade_adapter.py";

/// What every session of a submission starts from.
pub(super) enum Prepared<'a> {
    Python {
        student_file: &'a str,
        files: Vec<SessionFile<'a>>,
    },
    /// The built program, written afresh for each session (a student's
    /// program may delete or change files in its folder).
    Compiled { program: Vec<u8> },
    /// Nothing can run (the build failed): `broken` says why.
    Nothing,
}

/// The most address space a zygote's worker may have beyond the student's
/// limit, for the zygote's own mappings (about 1 MiB in fact).
const ZYGOTE_ADDRESS_SLACK: u64 = 16 * 1024 * 1024;

/// Starts a session of the prepared submission (without waiting for it);
/// `None` when nothing can run. `lint`: the rule check the driver runs first;
/// `spare`: it starts beside the submission's running session; `fork`: a
/// Python driver is a zygote.
pub(super) fn launch(
    cfg: &RunnerConfig,
    prepared: &Prepared<'_>,
    slot: usize,
    lint: Option<&str>,
    spare: bool,
    fork: bool,
) -> Result<Option<Session>, SessionError> {
    let spawn = if spare {
        Session::spawn_spare
    } else {
        Session::spawn
    };
    let session = match prepared {
        Prepared::Python {
            student_file,
            files,
        } => {
            let mode = if fork { "fork" } else { "single" };
            let mut args = vec![*student_file, ADAPTER_MODULE, mode];
            args.extend(lint);
            let mut limits = cfg.limits;
            if fork {
                // The zygote is salgrade's, not one of the student's
                // processes: they keep the whole limit.
                limits.processes += 1;
                // Room for what the zygote's machinery maps (ctypes, a few
                // modules): each worker's limit is the student's plus that,
                // set by the driver, soft and hard.
                limits.address_space_slack = ZYGOTE_ADDRESS_SLACK;
            }
            let program = cfg
                .python
                .program(DRIVER_NAME, &args, limits, cfg.drop_privileges);
            spawn(cfg, files, &program, slot)?
        }
        Prepared::Compiled { program } => {
            let files = [SessionFile {
                name: cxx::PROGRAM_NAME,
                contents: program,
                executable: true,
            }];
            spawn(cfg, &files, &cxx::program(cfg), slot)?
        }
        Prepared::Nothing => return Ok(None),
    };
    Ok(Some(session))
}

/// Whether the prepared submission's driver is a zygote that forks its
/// worker (and each restart's) from its post-import state: Python, in a
/// sandbox whose sessions each get a cgroup, the only clock of a process
/// tree's CPU time, and a private `/tmp` and `/dev/shm` (the zygote
/// compares them, with the session folder, to what they were after the
/// import before each fork; under `rlimit` they are the machine's).
pub(super) fn forking(cfg: &RunnerConfig, prepared: &Prepared<'_>) -> bool {
    matches!(prepared, Prepared::Python { .. })
        && cfg.zygote == ZygoteMode::Auto
        && matches!(cfg.sandbox, SandboxKind::Namespaces | SandboxKind::Bwrap)
        && cfg.cgroups.as_ref().is_some_and(|c| c.counts_cpu())
}
