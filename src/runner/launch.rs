//! Launching a session of a prepared submission: the generic Python
//! driver's files and arguments, or the built C++ program.

use super::cxx;
use super::session::{RunnerConfig, Session, SessionError, SessionFile};

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

/// Starts a session of the prepared submission (without waiting for it);
/// `None` when nothing can run. `lint`: the rule check the driver runs first;
/// `spare`: it starts beside the submission's running session.
pub(super) fn launch(
    cfg: &RunnerConfig,
    prepared: &Prepared<'_>,
    slot: usize,
    lint: Option<&str>,
    spare: bool,
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
            let mut args = vec![*student_file, ADAPTER_MODULE];
            args.extend(lint);
            let program = cfg
                .python
                .program(DRIVER_NAME, &args, cfg.limits, cfg.drop_privileges);
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
