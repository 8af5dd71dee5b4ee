//! Capped capture of a student's stdout and stderr.
//!
//! The reader keeps the first `cap` bytes and keeps draining (and counting)
//! the rest: a child blocked on a full pipe would look like a hang, and a
//! submission that prints gigabytes must cost the harness bounded memory.

use std::io::Read;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

#[derive(Debug, Default, Clone)]
pub(crate) struct Captured {
    pub bytes: Vec<u8>,
    /// Everything the stream carried, kept or not.
    pub total: u64,
}

impl Captured {
    pub(crate) fn truncated(&self) -> bool {
        self.total > self.bytes.len() as u64
    }

    pub(crate) fn append(&mut self, other: &Captured, cap: usize) {
        let room = cap.saturating_sub(self.bytes.len());
        self.bytes
            .extend_from_slice(&other.bytes[..other.bytes.len().min(room)]);
        self.total += other.total;
    }

    /// The kept bytes as text, with a note when some were dropped.
    pub(crate) fn excerpt(&self) -> String {
        // Escaped: what a student printed is shown in feedback and on the
        // instructor's terminal, never as raw escape sequences.
        let mut text = crate::shown::printable(&String::from_utf8_lossy(&self.bytes)).into_owned();
        if self.truncated() {
            text.push_str(&format!(
                "\n[... {} more bytes not kept]",
                self.total - self.bytes.len() as u64
            ));
        }
        text
    }
}

pub(crate) type Shared = Arc<Mutex<Captured>>;

/// Drains `source` on its own thread into a shared, capped buffer.
pub(crate) fn drain(
    mut source: impl Read + Send + 'static,
    cap: usize,
) -> (Shared, JoinHandle<()>) {
    let shared: Shared = Arc::default();
    let sink = Arc::clone(&shared);
    let handle = std::thread::spawn(move || {
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            match source.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let Ok(mut c) = sink.lock() else { break };
                    let room = cap.saturating_sub(c.bytes.len());
                    let keep = n.min(room);
                    c.bytes.extend_from_slice(&buf[..keep]);
                    c.total += n as u64;
                }
            }
        }
    });
    (shared, handle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_head_and_counts_the_rest() {
        let data = vec![b'x'; 1_000_000];
        let (shared, h) = drain(std::io::Cursor::new(data), 100);
        h.join().unwrap();
        let c = shared.lock().unwrap().clone();
        assert_eq!(c.bytes.len(), 100);
        assert_eq!(c.total, 1_000_000);
        assert!(c.excerpt().ends_with("[... 999900 more bytes not kept]"));
    }
}
