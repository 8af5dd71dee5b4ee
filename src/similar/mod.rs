//! Who copied: similarity of submissions across a cohort and against an
//! archive of past and public solutions. Pure: it reads no file and starts
//! no process; `commands/similar.rs` gives it the sources.
//!
//! The pipeline: each file is parsed with tree-sitter and converted to one
//! small tree vocabulary for Python and C++ (`tree`); the tree is
//! normalised to undo what students change to disguise a copy
//! (`normalize`); every subtree of a few nodes or more is hashed into a
//! fingerprint that ignores names the file binds, statement order and
//! operand order (`fingerprint`); the starter code's fingerprints are
//! removed; pairs that share a rare fingerprint are found through an
//! inverted index and scored by the weight they share, each fingerprint
//! weighed by its rarity in the cohort (`score`). Each pair of owners
//! (students, or a student and an archive file) keeps its best pair of
//! files; one owner's files (drafts) are never paired. The threshold that
//! flags a pair comes from the cohort's own scores (`threshold`).

pub(crate) mod fingerprint;
pub(crate) mod normalize;
pub(crate) mod score;
pub(crate) mod threshold;
pub(crate) mod tree;

use std::collections::{HashMap, HashSet};

use crate::runner::Language;
use fingerprint::Print;
use score::{Entry, Weights};
use tree::text_hash;

/// A file to compare, as read by the command.
#[derive(Debug, Clone)]
pub(crate) struct Source {
    /// The student (or, for an archive file, the file's shown name).
    pub owner: String,
    pub archive: bool,
    /// The file's name as reports show it (`alice/a1/solution.py`).
    pub shown: String,
    pub language: Language,
    pub text: String,
}

/// A file prepared for comparison.
#[derive(Debug, Clone)]
pub(crate) struct Document {
    pub source: Source,
    pub owner: usize,
    pub prints: Vec<Print>,
    /// The fingerprints compared: sorted, unique, starter code removed.
    pub set: Vec<u64>,
    /// Syntax errors tree-sitter recovered from, and the first one's line.
    pub errors: usize,
    pub first_error_line: Option<usize>,
    /// Byte offset of the start of each line.
    line_starts: Vec<usize>,
    /// For each fingerprint, its first occurrence's index in `prints`.
    first: HashMap<u64, usize>,
}

impl Document {
    /// The 1-based line of byte `offset`.
    pub(crate) fn line_of(&self, offset: u32) -> usize {
        let offset = offset as usize;
        match self.line_starts.binary_search(&offset) {
            Ok(i) => i + 1,
            Err(i) => i,
        }
    }

    /// The 1-based first and last lines of bytes `start..end`.
    pub(crate) fn lines_of(&self, start: u32, end: u32) -> (usize, usize) {
        let first = self.line_of(start);
        let last = self.line_of(end.saturating_sub(1).max(start));
        (first, last.max(first))
    }
}

/// What the assignment contributes: the names called from outside the
/// file (entry points, never removed or inlined), and the starter code
/// whose fingerprints never count.
#[derive(Debug, Clone, Default)]
pub(crate) struct Course {
    pub entry_points: Vec<String>,
    pub starter: Vec<(Language, String)>,
}

/// One shared fragment: where it is in each file, in lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fragment {
    pub a: (usize, usize),
    pub b: (usize, usize),
}

impl Fragment {
    pub(crate) fn lines(&self) -> usize {
        (self.a.1 - self.a.0 + 1).max(self.b.1 - self.b.0 + 1)
    }
}

/// The best-scoring pair of files of two owners.
#[derive(Debug, Clone)]
pub(crate) struct Finding {
    /// Documents: `a` is always a student's; `b` is a student's or an
    /// archive file.
    pub a: usize,
    pub b: usize,
    pub score: f64,
}

/// The comparison of a cohort.
pub(crate) struct Analysis {
    pub documents: Vec<Document>,
    /// Student pairs and student-archive pairs, best first.
    pub findings: Vec<Finding>,
    /// Owner names, by index; which are archive files.
    pub owners: Vec<(String, bool)>,
    weights: HashMap<u8, Weights>,
}

fn group_of(language: Language) -> u8 {
    match language {
        Language::Python => 0,
        Language::Cpp => 1,
    }
}

/// Parses, normalises and fingerprints one file.
fn prepare(source: Source, entry: &HashSet<u64>) -> Document {
    let line_starts = std::iter::once(0)
        .chain(
            source
                .text
                .bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i + 1),
        )
        .collect();
    let (prints, errors, first_error_line) = match tree::parse(&source.text, source.language) {
        Ok(mut t) => {
            normalize::normalize(&mut t, entry);
            (fingerprint::prints(&t), t.errors, t.first_error_line)
        }
        Err(_) => (Vec::new(), 1, Some(1)),
    };
    let mut first = HashMap::with_capacity(prints.len());
    for (i, p) in prints.iter().enumerate().rev() {
        first.insert(p.hash, i);
    }
    Document {
        source,
        owner: 0,
        first,
        prints,
        set: Vec::new(),
        errors,
        first_error_line,
        line_starts,
    }
}

/// Prepares every file on up to `threads` threads (each with a stack deep
/// enough for the deepest tree the conversion keeps).
fn prepare_all(sources: Vec<Source>, entry: &HashSet<u64>, threads: usize) -> Vec<Document> {
    let threads = threads.clamp(1, 64).min(sources.len().max(1));
    let mut slots: Vec<Option<Source>> = sources.into_iter().map(Some).collect();
    let total = slots.len();
    let chunk = total.div_ceil(threads).max(1);
    let mut out: Vec<Option<Document>> = (0..total).map(|_| None).collect();
    std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for (inputs, outputs) in slots.chunks_mut(chunk).zip(out.chunks_mut(chunk)) {
            let handle = std::thread::Builder::new()
                .stack_size(64 * 1024 * 1024)
                .spawn_scoped(scope, move || {
                    for (i, o) in inputs.iter_mut().zip(outputs.iter_mut()) {
                        if let Some(s) = i.take() {
                            *o = Some(prepare(s, entry));
                        }
                    }
                });
            // No thread to be had: the chunk is done on this one, below.
            if let Ok(h) = handle {
                handles.push(h);
            }
        }
        for h in handles {
            let _ = h.join();
        }
    });
    // A chunk whose thread could not start (or panicked) is done here.
    out.into_iter()
        .zip(slots)
        .filter_map(|(done, left)| done.or_else(|| left.map(|s| prepare(s, entry))))
        .collect()
}

/// The fingerprints of `d` that no other owner holds and that hold no
/// fingerprint another owner does (sorted): code of the file's own, as
/// opposed to the ancestors of an edit.
fn novel_prints(d: &Document, w: &Weights) -> Vec<u64> {
    let shared: Vec<bool> = d
        .prints
        .iter()
        .map(|p| d.set.binary_search(&p.hash).is_ok() && w.holders(p.hash) > 1)
        .collect();
    let mut out: Vec<u64> = d
        .prints
        .iter()
        .enumerate()
        .filter(|(i, p)| {
            let below = *i - (p.below as usize).min(*i);
            d.set.binary_search(&p.hash).is_ok()
                && w.holders(p.hash) <= 1
                && !shared[below..*i].iter().any(|s| *s)
        })
        .map(|(_, p)| p.hash)
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Compares `sources` (students' files and archive files).
pub(crate) fn analyse(sources: Vec<Source>, course: &Course, threads: usize) -> Analysis {
    let entry: HashSet<u64> = course
        .entry_points
        .iter()
        .map(|n| text_hash(n.as_bytes()))
        .collect();
    let (owner_of, owners) = owners_of(&sources);
    let starter = starter_prints(course, &entry);
    let mut documents = prepare_all(sources, &entry, threads);
    for (d, owner) in documents.iter_mut().zip(owner_of) {
        d.owner = owner;
        let g = group_of(d.source.language);
        let mut set: Vec<u64> = d
            .prints
            .iter()
            .map(|p| p.hash)
            .filter(|h| !starter.contains(&(g, *h)))
            .collect();
        set.sort_unstable();
        set.dedup();
        d.set = set;
    }
    let (weights, scored) = score_documents(&documents);
    let best = best_per_owners(&documents, scored);
    let mut analysis = Analysis {
        documents,
        findings: Vec::new(),
        owners,
        weights,
    };
    let mut findings: Vec<Finding> = best
        .into_values()
        .map(|s| Finding {
            a: s.a,
            b: s.b,
            score: s.score,
        })
        .collect();
    findings.sort_by(|x, y| {
        y.score.total_cmp(&x.score).then_with(|| {
            let name = |f: &Finding| {
                (
                    analysis.owners[analysis.documents[f.a].owner].0.clone(),
                    analysis.owners[analysis.documents[f.b].owner].0.clone(),
                )
            };
            name(x).cmp(&name(y))
        })
    });
    analysis.findings = findings;
    analysis
}

/// Each source's owner (an index), and the owners' names, each with
/// whether it is an archive file.
fn owners_of(sources: &[Source]) -> (Vec<usize>, Vec<(String, bool)>) {
    let mut owner_ids: HashMap<(bool, String), usize> = HashMap::new();
    let mut owners: Vec<(String, bool)> = Vec::new();
    let owner_of: Vec<usize> = sources
        .iter()
        .map(|s| {
            let key = (s.archive, s.owner.clone());
            *owner_ids.entry(key).or_insert_with(|| {
                owners.push((s.owner.clone(), s.archive));
                owners.len() - 1
            })
        })
        .collect();
    (owner_of, owners)
}

/// The starter code's fingerprints, with their language group.
fn starter_prints(course: &Course, entry: &HashSet<u64>) -> HashSet<(u8, u64)> {
    course
        .starter
        .iter()
        .flat_map(|(lang, text)| {
            // Nothing in the starter calls what it defines (the students'
            // code does): each of its functions and classes is an entry
            // point, so none is dropped as unused before it is
            // fingerprinted.
            let mut own = entry.clone();
            if let Ok(t) = tree::parse(text, *lang) {
                t.root.visit(&mut |n| {
                    if matches!(n.kind, tree::Kind::Func | tree::Kind::Class) {
                        own.insert(n.label);
                    }
                });
            }
            let d = prepare(
                Source {
                    owner: String::new(),
                    archive: true,
                    shown: String::new(),
                    language: *lang,
                    text: text.clone(),
                },
                &own,
            );
            d.prints.into_iter().map(move |p| (group_of(*lang), p.hash))
        })
        .collect()
}

/// Each language group's weights, and every candidate pair of documents
/// scored.
fn score_documents(documents: &[Document]) -> (HashMap<u8, Weights>, Vec<score::Scored>) {
    let weights = {
        let entries: Vec<Entry<'_>> = documents
            .iter()
            .map(|d| Entry {
                owner: d.owner,
                archive: d.source.archive,
                group: group_of(d.source.language),
                set: &d.set,
                novel: &[],
            })
            .collect();
        score::weights(&entries)
    };
    let novel: Vec<Vec<u64>> = documents
        .iter()
        .map(|d| match weights.get(&group_of(d.source.language)) {
            Some(w) => novel_prints(d, w),
            None => Vec::new(),
        })
        .collect();
    let entries: Vec<Entry<'_>> = documents
        .iter()
        .zip(&novel)
        .map(|(d, novel)| Entry {
            owner: d.owner,
            archive: d.source.archive,
            group: group_of(d.source.language),
            set: &d.set,
            novel,
        })
        .collect();
    let scored = score::scored_pairs(&entries, &weights);
    (weights, scored)
}

/// The best pair of files for each pair of owners, a student's file first
/// and an archive file second.
fn best_per_owners(
    documents: &[Document],
    scored: Vec<score::Scored>,
) -> HashMap<(usize, usize), score::Scored> {
    let mut best: HashMap<(usize, usize), score::Scored> = HashMap::new();
    for s in scored {
        let (mut a, mut b) = (s.a, s.b);
        // The student first; an archive file second.
        if documents[a].source.archive
            || (!documents[b].source.archive && documents[a].owner > documents[b].owner)
        {
            std::mem::swap(&mut a, &mut b);
        }
        let key = (documents[a].owner, documents[b].owner);
        let slot = best
            .entry(key)
            .or_insert(score::Scored { a, b, score: -1.0 });
        if s.score > slot.score {
            *slot = score::Scored {
                a,
                b,
                score: s.score,
            };
        }
    }
    best
}

impl Analysis {
    /// The longest fragment documents `a` and `b` share that is rare in the
    /// cohort (the earliest in `a` among equals).
    pub(crate) fn longest(&self, a: usize, b: usize) -> Option<Fragment> {
        self.fragments(a, b)
            .into_iter()
            .max_by_key(|g| (g.lines(), std::cmp::Reverse(g.a.0)))
    }

    pub(crate) fn owner_name(&self, doc: usize) -> &str {
        &self.owners[self.documents[doc].owner].0
    }

    /// The fragments documents `a` and `b` share that are rare in the
    /// cohort (held by at most a tenth of it, and by at least the two),
    /// each the largest such subtree (none inside another), in `a`'s order.
    pub(crate) fn fragments(&self, a: usize, b: usize) -> Vec<Fragment> {
        let (da, db) = (&self.documents[a], &self.documents[b]);
        let Some(w) = self.weights.get(&group_of(da.source.language)) else {
            return Vec::new();
        };
        let rare_limit = (w.owners() / 10).max(2) as u32;
        let mut shared: Vec<(&Print, &Print)> = da
            .prints
            .iter()
            .filter(|p| p.size >= 6 && w.holders(p.hash) <= rare_limit)
            .filter(|p| db.set.binary_search(&p.hash).is_ok())
            .filter_map(|p| db.first.get(&p.hash).map(|&i| (p, &db.prints[i])))
            .collect();
        // Largest first, so that a subtree inside a kept one is skipped.
        shared.sort_by_key(|(p, _)| (std::cmp::Reverse(p.end - p.start), p.start));
        let mut kept: Vec<(&Print, &Print)> = Vec::new();
        for (p, q) in shared {
            let inside = kept.iter().any(|(k, kq)| {
                (k.start <= p.start && p.end <= k.end) || (kq.start <= q.start && q.end <= kq.end)
            });
            if !inside {
                kept.push((p, q));
            }
        }
        kept.sort_by_key(|(p, _)| p.start);
        kept.into_iter()
            .map(|(p, q)| Fragment {
                a: da.lines_of(p.start, p.end),
                b: db.lines_of(q.start, q.end),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
