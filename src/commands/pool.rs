//! The worker pool that grades students at once, how many workers fit in
//! the limits salgrade runs under, and the progress shown while they run.

use std::io::IsTerminal;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use crate::discover::Submission;
use crate::engine::Engine;
use crate::report::{self, StudentReport};

/// Students graded at once: `--jobs`, else the cores, cut to what fits in
/// the limits of salgrade's own cgroup (see [`crate::capacity`]), saying
/// what was found in the header.
pub(super) fn jobs_for(asked: Option<usize>, memory_mb: u64) -> usize {
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let sizing = crate::capacity::sizing(asked, cores, memory_mb, &crate::capacity::limits());
    for w in &sizing.warnings {
        eprintln!("warning: {w}");
    }
    if let Some(header) = &sizing.header {
        eprintln!("{header}");
    }
    sizing.jobs
}

/// Grades students on `jobs` worker threads; each finished student goes to
/// `on_done` (the journal) on this thread, in completion order.
pub(super) fn grade_parallel(
    engine: &Engine,
    root: &Path,
    todo: &[&Submission],
    jobs: usize,
    mut on_done: impl FnMut(&StudentReport) -> anyhow::Result<()>,
) -> anyhow::Result<Vec<StudentReport>> {
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<anyhow::Result<StudentReport>>();
    let progress = Progress::new(todo.len());
    let mut out = Vec::new();
    std::thread::scope(|scope| -> anyhow::Result<()> {
        for slot in 0..jobs.min(todo.len().max(1)) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(sub) = todo.get(i) else { break };
                    // Slot 0 calibrated; students use slots 1.. so uids differ from it.
                    if tx.send(engine.grade(sub, root, slot + 1)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for result in rx {
            let s = result?;
            on_done(&s)?;
            progress.done(&s);
            out.push(s);
        }
        Ok(())
    })?;
    progress.finish();
    Ok(out)
}

/// A progress bar on a terminal, plain lines otherwise (CI logs). The
/// bar's line also says how many students are full, partial and zero so
/// far, and the most common mistake so far.
struct Progress {
    bar: Option<indicatif::ProgressBar>,
    total: usize,
    count: AtomicUsize,
    so_far: std::sync::Mutex<crate::grading::clusters::SoFar>,
}

impl Progress {
    fn new(total: usize) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(total as u64);
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                // `wide_msg` is cut to the terminal's width: the line
                // stays one line, however long a name or a mistake.
                "{bar:30} {pos}/{len} students  {elapsed}  {wide_msg}",
            ) {
                bar.set_style(style);
            }
            bar
        });
        Progress {
            bar,
            total,
            count: AtomicUsize::new(0),
            so_far: std::sync::Mutex::new(Default::default()),
        }
    }

    fn done(&self, s: &StudentReport) {
        let n = self.count.fetch_add(1, Ordering::SeqCst) + 1;
        let line = format!(
            "{}: {}/{}",
            s.student,
            report::points(s.score),
            report::points(s.max_score)
        );
        match &self.bar {
            Some(bar) => {
                let so_far = match self.so_far.lock() {
                    Ok(mut so_far) => {
                        so_far.add(s);
                        so_far.summary()
                    }
                    Err(_) => String::new(),
                };
                bar.set_message(format!("{so_far} | {line}"));
                bar.inc(1);
            }
            None => eprintln!("[{n}/{}] {line}", self.total),
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
