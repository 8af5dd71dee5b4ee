//! Interrupts and leftovers: killing every student process when salgrade is
//! interrupted, and reaping what a run's sandboxes left behind.

use std::time::Duration;

use super::{cgroup, unix};

/// What an interrupted command adds to the message, e.g. how `grade`
/// resumes; commands without a journal leave it unset.
pub(crate) static INTERRUPT_NOTE: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Reaps what a run's sandboxes left: a bubblewrap sandbox's PID 1 is
/// re-parented to salgrade a moment after the session that ran it ended,
/// and a session's own sweep can miss it. Called once a run is done, so no
/// zombie outlives salgrade (PID 1 of a container may never reap it).
pub(crate) fn reap_leftovers() {
    let until = std::time::Instant::now() + Duration::from_millis(500);
    loop {
        unix::reap_orphans(unix::Orphans::SandboxZombies);
        if !unix::has_sandbox_children() || std::time::Instant::now() >= until {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// On SIGINT, SIGTERM or SIGHUP (Ctrl-C, a CI cancel, a closed terminal),
/// kills every student process before salgrade exits: they sit in their own
/// process groups, so the terminal's signal does not reach them. Every live
/// session's group is killed, and with cgroups everything in them (which
/// also catches a grandchild that called `setsid`). Finished students are
/// already in the journal (`--resume`).
static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether a signal is being handled (the run is ending).
pub(crate) fn interrupted() -> bool {
    INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst)
}

/// Waits for the interrupt handler to end the process.
pub(crate) fn wait_for_interrupt_exit() -> ! {
    loop {
        std::thread::park();
    }
}

pub(crate) fn kill_on_interrupt(cgroups: Option<std::sync::Weak<cgroup::Cgroups>>) {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            INTERRUPTED.store(true, std::sync::atomic::Ordering::SeqCst);
            unix::Group::kill_all_live();
            if let Some(cgroups) = cgroups.as_ref().and_then(std::sync::Weak::upgrade) {
                cgroups.shut_down();
            }
            // The killed sandboxes' PID 1s come back to salgrade to be
            // reaped; exiting first would leave them to the machine's PID 1.
            reap_leftovers();
            // `exit` runs no drops: the outputs' temporary files go here.
            crate::output::remove_unfinished();
            eprintln!(
                "\ninterrupted: every student process was killed{}",
                INTERRUPT_NOTE.get().map(String::as_str).unwrap_or("")
            );
            std::process::exit(128 + signal);
        }
    });
}
