//! What a run knows of its C++ toolchain, as data: the compiler it found
//! and the settings every build gets. `session/mod.rs` carries them in the
//! run's configuration; `cxx.rs` builds with them.

use std::path::PathBuf;
use std::time::Duration;

use super::plan::Limits;

/// The compiler, resolved once per run.
#[derive(Debug, Clone)]
pub(crate) struct Cxx {
    pub executable: PathBuf,
    /// The first line of `--version` (`g++ (Debian 12.2.0-14) 12.2.0`).
    pub version: String,
}

/// Build settings: their own deadline and limits (a compiler needs more
/// memory and processes than a student's program).
#[derive(Debug, Clone, Copy)]
pub(crate) struct BuildSettings {
    pub timeout: Duration,
    pub limits: Limits,
}

impl Default for BuildSettings {
    /// A build's budget is CPU time (`limits.cpu_seconds`, per compiler
    /// process), which other programs on the machine do not use up; the
    /// wall-time deadline is only a generous backstop for a compiler that
    /// blocks.
    fn default() -> BuildSettings {
        BuildSettings {
            timeout: Duration::from_secs(300),
            limits: Limits {
                memory_mb: 2048,
                cpu_seconds: 60,
                file_size_mb: 64,
                open_files: 256,
                processes: 32,
            },
        }
    }
}
