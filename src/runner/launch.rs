//! Launching a session of a prepared submission: the generic Python
//! driver's files and arguments, or the built C++ program.

use super::cxx;
use super::session::{RunnerConfig, Session, SessionError, SessionFile};
use super::{bytecode, lint};

/// The driver's file name inside the session folder.
pub(super) const DRIVER_NAME: &str = "_salgrade_driver.py";
pub(super) const DRIVER_PY: &str = include_str!("driver.py");
/// The module name the assignment's adapter is imported as.
const ADAPTER_MODULE: &str = "_salgrade_adapter";
pub(super) const ADAPTER_FILE: &str = "_salgrade_adapter.py";

/// Every file of salgrade's a Python harness's sessions may get, to be
/// compiled at once (`bytecode.rs`): the course's and shared modules, the
/// driver, the adapter and the rule checker.
pub(crate) fn python_files(
    support: &[bytecode::Source],
    adapter: &'static str,
) -> Vec<bytecode::Source> {
    let mut all = support.to_vec();
    all.push((DRIVER_NAME, DRIVER_PY));
    all.push((ADAPTER_FILE, adapter));
    all.push((lint::CHECKER_NAME, lint::CHECKER_PY));
    all
}

/// What every session of a submission starts from.
pub(super) enum Prepared<'a> {
    Python {
        student_file: &'a str,
        /// The driver's file to run: its source, or its bytecode.
        driver: &'a str,
        files: Vec<SessionFile<'a>>,
    },
    /// The built program, written afresh for each session (a student's
    /// program may delete or change files in its folder).
    Compiled { program: Vec<u8> },
    /// Nothing can run (the build failed): `broken` says why.
    Nothing,
}

/// An owned copy of a [`Prepared`] submission and of the run's settings,
/// which a thread of its own can start a spare session from while the
/// grading thread goes on with the case on the clock.
struct SpareKit {
    cfg: RunnerConfig,
    prepared: OwnedPrepared,
}

enum OwnedPrepared {
    Python {
        student_file: String,
        driver: String,
        /// Each file's name, contents and whether it is executable.
        files: Vec<(String, Vec<u8>, bool)>,
    },
    Compiled {
        program: Vec<u8>,
    },
    Nothing,
}

impl SpareKit {
    fn new(cfg: &RunnerConfig, prepared: &Prepared<'_>) -> SpareKit {
        let prepared = match prepared {
            Prepared::Python {
                student_file,
                driver,
                files,
            } => OwnedPrepared::Python {
                student_file: (*student_file).to_owned(),
                driver: (*driver).to_owned(),
                files: files
                    .iter()
                    .map(|f| (f.name.to_owned(), f.contents.to_vec(), f.executable))
                    .collect(),
            },
            Prepared::Compiled { program } => OwnedPrepared::Compiled {
                program: program.clone(),
            },
            Prepared::Nothing => OwnedPrepared::Nothing,
        };
        SpareKit {
            cfg: cfg.clone(),
            prepared,
        }
    }

    /// Starts a spare session (see [`launch`]); `None` when none could be.
    fn launch_spare(&self, slot: usize) -> Option<Session> {
        let prepared = match &self.prepared {
            OwnedPrepared::Python {
                student_file,
                driver,
                files,
            } => Prepared::Python {
                student_file,
                driver,
                files: files
                    .iter()
                    .map(|(name, contents, executable)| SessionFile {
                        name,
                        contents,
                        executable: *executable,
                    })
                    .collect(),
            },
            OwnedPrepared::Compiled { program } => Prepared::Compiled {
                program: program.clone(),
            },
            OwnedPrepared::Nothing => Prepared::Nothing,
        };
        launch(&self.cfg, &prepared, slot, None, true)
            .ok()
            .flatten()
    }
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
            driver,
            files,
        } => {
            let mut args = vec![*student_file, ADAPTER_MODULE];
            args.extend(lint);
            let program = cfg
                .python
                .program(driver, &args, cfg.limits, cfg.drop_privileges);
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

/// A thread of a submission's own that starts its spare sessions, so that
/// the case on the clock (or the next one) never waits for a spawn, which
/// takes 20 ms or more (the namespaces, the new root, init's exec).
///
/// A sandboxed process is killed when the thread that started it ends (its
/// parent-death signal), so the thread lives as long as its owner: it ends
/// only when the booter is dropped, after the submission's last session.
pub(super) struct SpareBooter {
    ask: std::sync::mpsc::Sender<()>,
    booted: std::sync::mpsc::Receiver<Option<Session>>,
    /// A spare was asked for and not yet taken.
    pending: bool,
}

impl SpareBooter {
    /// The thread, ready to start spares of `prepared` in `slot`; `None`
    /// when no thread could be started (then there are no spares).
    pub(super) fn new(
        cfg: &RunnerConfig,
        prepared: &Prepared<'_>,
        slot: usize,
    ) -> Option<SpareBooter> {
        let kit = SpareKit::new(cfg, prepared);
        let (ask, asked) = std::sync::mpsc::channel::<()>();
        let (tell, booted) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("salgrade-spare".to_owned())
            .spawn(move || {
                for () in asked {
                    // A panic here would end the thread, and with it every
                    // session it started: it is caught, and means no spare.
                    let spare = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        kit.launch_spare(slot)
                    }))
                    .ok()
                    .flatten();
                    if tell.send(spare).is_err() {
                        return;
                    }
                }
            })
            .ok()?;
        Some(SpareBooter {
            ask,
            booted,
            pending: false,
        })
    }

    /// Whether a spare is booting or ready, not yet taken.
    pub(super) fn pending(&self) -> bool {
        self.pending
    }

    /// Asks the thread for a spare, unless one is pending.
    pub(super) fn boot(&mut self) {
        if !self.pending {
            self.pending = self.ask.send(()).is_ok();
        }
    }

    /// The pending spare, once the thread has started it (or failed to).
    pub(super) fn take(&mut self) -> Option<Session> {
        if !std::mem::take(&mut self.pending) {
            return None;
        }
        self.booted.recv().ok().flatten()
    }
}

impl Drop for SpareBooter {
    /// A spare still booting is waited for and ended here (a `Session`
    /// ends when dropped), never left to end on its own later: its end
    /// sweeps the slot's uid, which by then may be the next student's.
    fn drop(&mut self) {
        drop(self.take());
    }
}
