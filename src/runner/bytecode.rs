//! salgrade's own Python files (the driver, the rule checker, the
//! adapters, the course's modules), compiled once per run to bytecode by
//! the interpreter that runs them, so a session's start loads them instead of
//! compiling them: the rule checker alone takes about 29 ms to compile,
//! the driver 5 ms, every session.
//!
//! Nothing of a student's reaches this: the compiling process is a fresh
//! `python -I -S` outside the sandbox, fed only salgrade's embedded texts,
//! before any student's code runs; each session gets its own copy of the
//! bytes, as it gets its own copy of the sources. A module's file is a
//! *checked* hash-based `.pyc` (PEP 552) in the session's `__pycache__`:
//! the interpreter compares its hash with the source beside it and
//! compiles the source itself on any difference, so a stale or foreign
//! file can cost time, never change what runs. The driver itself is run
//! from its `.pyc` only when the file's magic number is this
//! interpreter's.
//!
//! They are kept in this process's memory only, never in a file: a cache
//! folder is writable by salgrade's user, which is what student code runs
//! as under `--sandbox none` and `rlimit` (without root), so a kept file
//! could be a student's, run by every later session of every later run.
//! A run compiles them once, about 40 ms; a failure to compile leaves the
//! sources to be compiled by each session, as before.
//!
//! The compile starts as soon as the interpreter is known ([`start`]) and
//! runs beside the rest of the run: a student's session waits for it
//! ([`for_sources`]); calibration's sessions, which measure cases and not
//! starts, take only what is ready ([`if_ready`]) and compile the rest
//! themselves, so a kept calibration's check starts beside the compile;
//! its cases, which are measured, wait until the compile is done
//! ([`settled`]), so no measurement shares the processor with it.

use std::collections::HashMap;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

use super::sandbox::Python;
use super::unix;

/// Whether a session gets salgrade's Python files as bytecode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Use {
    /// Sources only (`--python-bytecode off`).
    Off,
    /// Bytecode, waiting for the run's compile if it is under way.
    Waiting,
    /// Bytecode already compiled; sources for the rest, never waiting.
    IfReady,
}

impl Use {
    /// The `.pyc` of each of `sources` for `python`, as a session with this
    /// use gets them (see [`for_sources`] and [`if_ready`]).
    pub(crate) fn pycs(self, python: &Python, sources: &[Source]) -> Vec<Option<Pyc>> {
        match self {
            Use::Waiting => for_sources(python, sources),
            Use::IfReady => if_ready(python, sources),
            Use::Off => vec![None; sources.len()],
        }
    }
}

/// One of salgrade's Python files: its name in the session folder and its
/// text.
pub(crate) type Source = (&'static str, &'static str);

/// A file's bytecode, and where a module's goes in a session's folder.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Pyc {
    /// `__pycache__/NAME.TAG.pyc`.
    pub module_file: &'static str,
    pub bytes: &'static [u8],
}

/// The compiled files of this process, by interpreter and source: each is
/// compiled at most once per process and kept for its life (a run uses a
/// handful, about 150 KB).
type Compiled = HashMap<(PathBuf, &'static str, &'static str), Option<Pyc>>;

fn compiled() -> &'static Mutex<Compiled> {
    static COMPILED: OnceLock<Mutex<Compiled>> = OnceLock::new();
    COMPILED.get_or_init(Mutex::default)
}

/// Starts compiling `sources` for `python` on a thread of its own, and
/// returns once that thread holds the compiled files' lock: a
/// [`for_sources`] from now on waits for it, an [`if_ready`] does not.
pub(crate) fn start(python: &Python, sources: &[Source]) {
    /// Says the compile is over when its thread ends, however it ends.
    struct Over;
    impl Drop for Over {
        fn drop(&mut self) {
            COMPILING.store(false, Ordering::SeqCst);
        }
    }
    let (python, sources) = (python.clone(), sources.to_vec());
    let (locked, holding) = std::sync::mpsc::sync_channel(0);
    COMPILING.store(true, Ordering::SeqCst);
    let spawned = std::thread::Builder::new()
        .name("bytecode".to_owned())
        .spawn(move || {
            let _over = Over;
            let known = lock();
            let _ = locked.send(());
            compile_into(known, &python, &sources);
        });
    match spawned {
        // An error here is the thread's end before it locked (it cannot
        // panic before): nothing to wait for.
        Ok(_) => drop(holding.recv()),
        Err(_) => COMPILING.store(false, Ordering::SeqCst),
    }
}

/// Whether the compile [`start`] began is under way.
static COMPILING: AtomicBool = AtomicBool::new(false);

/// The `.pyc` of each of `sources` for `python`, in order; `None` where
/// none could be made (the interpreter keeps no bytecode, is not CPython,
/// or failed to compile it). Compiles what is missing, after any compile
/// under way.
pub(crate) fn for_sources(python: &Python, sources: &[Source]) -> Vec<Option<Pyc>> {
    compile_into(lock(), python, sources)
}

/// [`for_sources`], but never waiting for the compile [`start`] began:
/// while it is under way, `None` for every file (the session compiles its
/// sources itself). Otherwise the lock is held only for a lookup (or a
/// compile of what is missing), which it waits for.
pub(crate) fn if_ready(python: &Python, sources: &[Source]) -> Vec<Option<Pyc>> {
    if COMPILING.load(Ordering::SeqCst) {
        return vec![None; sources.len()];
    }
    for_sources(python, sources)
}

/// Returns once no compile is under way.
pub(crate) fn settled() {
    drop(lock());
}

/// The compiled files' lock, held while compiling: slots starting at once
/// wait for one compiler.
fn lock() -> std::sync::MutexGuard<'static, Compiled> {
    compiled()
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn compile_into(
    mut known: std::sync::MutexGuard<'static, Compiled>,
    python: &Python,
    sources: &[Source],
) -> Vec<Option<Pyc>> {
    let (Some(magic), Some(tag)) = (python.magic.as_deref(), python.cache_tag.as_deref()) else {
        return vec![None; sources.len()];
    };
    if python.implementation != "cpython" {
        return vec![None; sources.len()];
    }
    let key_of = |&(name, text): &Source| (python.executable.clone(), name, text);
    let missing: Vec<Source> = sources
        .iter()
        .filter(|s| !known.contains_key(&key_of(s)))
        .copied()
        .collect();
    let fresh = compile(python, &missing);
    for (source, bytes) in missing.iter().zip(fresh) {
        let kept = bytes
            .filter(|p| has_magic(p, magic))
            .and_then(|p| pyc(tag, source, p));
        known.insert(key_of(source), kept);
    }
    sources
        .iter()
        .map(|s| known.get(&key_of(s)).copied().flatten())
        .collect()
}

/// `bytes` as the bytecode of `source`, kept for the life of the process;
/// `None` for a file not named `NAME.py`.
fn pyc(tag: &str, (name, _): &Source, bytes: Vec<u8>) -> Option<Pyc> {
    let module_file = cached_name(tag, name)?;
    Some(Pyc {
        module_file: Box::leak(module_file.into_boxed_str()),
        bytes: Box::leak(bytes.into_boxed_slice()),
    })
}

/// The file a module's bytecode has in the session's folder:
/// `__pycache__/NAME.TAG.pyc`.
fn cached_name(tag: &str, file: &str) -> Option<String> {
    let stem = file.strip_suffix(".py")?;
    Some(format!("__pycache__/{stem}.{tag}.pyc"))
}

/// Whether `pyc` starts with the interpreter's magic number (hex).
fn has_magic(pyc: &[u8], magic: &str) -> bool {
    pyc.len() > 16 && hex(&pyc[..4]) == magic
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Compiles `sources` with the interpreter, in one process; `None` for
/// each on any failure.
fn compile(python: &Python, sources: &[Source]) -> Vec<Option<Vec<u8>>> {
    if sources.is_empty() {
        return Vec::new();
    }
    let failed = || vec![None; sources.len()];
    let texts: Vec<(&str, &str)> = sources.to_vec();
    let Ok(input) = serde_json::to_vec(&texts) else {
        return failed();
    };
    let mut command = Command::new(&python.executable);
    command
        .args(["-I", "-S", "-c", COMPILER])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    // Never while a C++ program file is being written (`unix::forking`).
    let child = unix::forking(|| command.spawn());
    let Ok(mut child) = child else {
        return failed();
    };
    let written = child
        .stdin
        .take()
        .is_some_and(|mut stdin| stdin.write_all(&input).is_ok());
    let Ok(out) = child.wait_with_output() else {
        return failed();
    };
    if !written || !out.status.success() {
        return failed();
    }
    split(&out.stdout, sources.len()).unwrap_or_else(failed)
}

/// The compiler's answer, each file's `.pyc` after its length (8 bytes,
/// little-endian; 0 for a file it could not compile).
fn split(mut out: &[u8], count: usize) -> Option<Vec<Option<Vec<u8>>>> {
    let mut files = Vec::with_capacity(count);
    for _ in 0..count {
        let (len, rest) = out.split_first_chunk::<8>()?;
        let len = usize::try_from(u64::from_le_bytes(*len)).ok()?;
        let pyc = rest.get(..len)?;
        files.push((len > 0).then(|| pyc.to_vec()));
        out = &rest[len..];
    }
    out.is_empty().then_some(files)
}

/// The compiling program: reads `[[name, text], ...]` as JSON and writes
/// each file's checked hash-based `.pyc` (flags 3: hash-based, checked),
/// as the import system would write it, after its length.
const COMPILER: &str = "import sys, marshal, json, importlib.util as u
out = sys.stdout.buffer
for name, text in json.loads(sys.stdin.buffer.read()):
    data = text.encode('utf-8')
    try:
        code = compile(data, name, 'exec', dont_inherit=True)
        pyc = u.MAGIC_NUMBER + (3).to_bytes(4, 'little') + u.source_hash(data) + marshal.dumps(code)
    except Exception:
        pyc = b''
    out.write(len(pyc).to_bytes(8, 'little'))
    out.write(pyc)
out.flush()
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_splits_into_each_files_bytes() {
        let mut out = Vec::new();
        for pyc in [&b"abc"[..], b"", b"de"] {
            out.extend_from_slice(&(pyc.len() as u64).to_le_bytes());
            out.extend_from_slice(pyc);
        }
        let files = split(&out, 3).unwrap();
        assert_eq!(
            files,
            vec![Some(b"abc".to_vec()), None, Some(b"de".to_vec())]
        );
        assert!(split(&out, 2).is_none(), "bytes left over");
        assert!(split(&out[..out.len() - 1], 3).is_none(), "cut short");
    }

    /// Runs `python -I -S -c CODE` in `dir`; its stdout.
    fn run_in(python: &Python, dir: &std::path::Path, code: &str) -> String {
        let out = Command::new(&python.executable)
            .args(["-I", "-S", "-c", code])
            .current_dir(dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }

    #[test]
    fn the_interpreter_loads_its_bytecode_and_never_a_stale_one() {
        let python = crate::runner::setup::resolve_python(None).unwrap();
        const FIRST: Source = ("_bc_probe.py", "print('first')\n");
        const OTHER: Source = ("_bc_other.py", "print('other')\n");
        let [Some(first), Some(other)] = for_sources(&python, &[FIRST, OTHER])[..] else {
            panic!("no bytecode from {}", python.executable.display());
        };
        assert_eq!(first.module_file.split('/').next(), Some("__pycache__"));
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("__pycache__")).unwrap();
        let write =
            |name: &str, bytes: &[u8]| std::fs::write(dir.path().join(name), bytes).unwrap();
        write(FIRST.0, FIRST.1.as_bytes());
        write(first.module_file, first.bytes);
        // Imported from the bytecode: compiling anything would fail.
        let no_compile = "import builtins, sys; sys.path.insert(0, '.')
def refused(*a, **k): raise SystemExit('compiled from source')
builtins.compile = refused
import _bc_probe";
        assert_eq!(run_in(&python, dir.path(), no_compile), "first");
        // Run as the script itself, as the driver is.
        let as_script = Command::new(&python.executable)
            .args(["-I", "-S", first.module_file])
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&as_script.stdout).trim(), "first");
        // Another source's bytecode under this module's name is checked
        // against the source beside it, and the source wins.
        write(first.module_file, other.bytes);
        let import = "import sys; sys.path.insert(0, '.'); import _bc_probe";
        assert_eq!(run_in(&python, dir.path(), import), "first");
    }

    #[test]
    fn if_ready_never_waits_for_a_compile_under_way() {
        let python = crate::runner::setup::resolve_python(None).unwrap();
        if python.cache_tag.is_none() || python.implementation != "cpython" {
            return; // this interpreter keeps no bytecode
        }
        const LATE: Source = ("_bc_late.py", "x = 1\n");
        // A compile under way, as `start`'s thread holds it.
        let held = lock();
        COMPILING.store(true, Ordering::SeqCst);
        let asked = std::thread::scope(|s| s.spawn(|| if_ready(&python, &[LATE])).join());
        COMPILING.store(false, Ordering::SeqCst);
        drop(held);
        assert!(
            matches!(asked.unwrap()[..], [None]),
            "nothing compiled while the compile is under way"
        );
        // Once it is over, it compiles what is missing, as `for_sources`
        // does (waiting for a lookup another test holds the lock for).
        assert!(if_ready(&python, &[LATE])[0].is_some());
    }

    #[test]
    fn a_module_is_kept_under_pycache_with_the_interpreters_tag() {
        assert_eq!(
            cached_name("cpython-311", "_salgrade_adapter.py").as_deref(),
            Some("__pycache__/_salgrade_adapter.cpython-311.pyc")
        );
        assert_eq!(cached_name("cpython-311", "notes.txt"), None);
    }
}
