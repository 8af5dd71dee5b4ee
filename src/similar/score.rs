//! Scoring pairs of files by the fingerprints they share, each weighed by
//! how rare it is among the cohort, without building every pair.
//!
//! A fingerprint held by `df` of the `N` owners (students, and archive
//! files) weighs `ln((N + 1) / df)`: what every solution of the problem
//! holds weighs almost nothing, what only two hold weighs most. A pair's
//! score is the weight the two share over the geometric mean of their own
//! weights, in [0, 1] (1 when their fingerprint sets are equal); a file's
//! own weight leaves out the subtrees no other owner holds that hold a
//! shared one: every subtree above an edit is new and held by its file
//! alone, and counting those would let a few edits outweigh everything
//! shared. Code of its own (a subtree no other owner holds, nor any part
//! of it) counts.
//!
//! Candidates come from an inverted index, fingerprint to files: only
//! pairs that share a fingerprint held by at most `cap` owners are scored,
//! `cap` being the largest such that listing those pairs costs at most
//! [`PAIR_BUDGET`] steps (so time and memory stay bounded however large the
//! cohort; with a cohort of a few hundred every shared fingerprint is rare
//! enough). A pair of files of one owner (a student's drafts) and a pair
//! of two archive files are never candidates.

use std::collections::HashMap;

/// The most (fingerprint, pair) steps spent listing candidate pairs.
pub(crate) const PAIR_BUDGET: usize = 6_000_000;

/// A pair whose rare fingerprints make at least this share of its weight
/// gets its exact score (a merge of both fingerprint sets); below it, the
/// rare share is its score (a lower bound, and these pairs are far below
/// any threshold).
const SCORED_SHARE: f64 = 0.1;

/// One file as scoring sees it: who owns it, whether the owner is in the
/// archive, its language group, and its fingerprint set (sorted, unique).
pub(crate) struct Entry<'d> {
    pub owner: usize,
    pub archive: bool,
    pub group: u8,
    pub set: &'d [u64],
    /// The fingerprints of `set` that only this file holds and that hold
    /// no shared one: code of its own, not the ancestor of an edit.
    pub novel: &'d [u64],
}

/// A scored pair of files (indices into the entries).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Scored {
    pub a: usize,
    pub b: usize,
    pub score: f64,
}

/// The weights of one language group's fingerprints.
pub(crate) struct Weights {
    df: HashMap<u64, u32, Mixed>,
    owners: f64,
}

impl Weights {
    pub(crate) fn weight(&self, hash: u64) -> f64 {
        let df = f64::from(self.df.get(&hash).copied().unwrap_or(1).max(1));
        ((self.owners + 1.0) / df).ln()
    }

    /// How many owners hold `hash`.
    pub(crate) fn holders(&self, hash: u64) -> u32 {
        self.df.get(&hash).copied().unwrap_or(0)
    }

    pub(crate) fn owners(&self) -> usize {
        self.owners as usize
    }
}

/// Each group's weights: document frequency counted once per owner.
pub(crate) fn weights(entries: &[Entry<'_>]) -> HashMap<u8, Weights> {
    let mut out: HashMap<u8, Weights> = HashMap::new();
    let mut seen: HashMap<(u8, u64), usize, Mixed> = HashMap::default();
    let mut owners: HashMap<u8, std::collections::HashSet<usize>> = HashMap::new();
    for e in entries {
        owners.entry(e.group).or_default().insert(e.owner);
        let w = out.entry(e.group).or_insert_with(|| Weights {
            df: HashMap::default(),
            owners: 0.0,
        });
        for &h in e.set {
            // Count each owner once however many drafts hold it.
            let last = seen.entry((e.group, h)).or_insert(usize::MAX);
            if *last != e.owner {
                *last = e.owner;
                *w.df.entry(h).or_default() += 1;
            }
        }
    }
    for (g, w) in &mut out {
        w.owners = owners.get(g).map_or(0, |o| o.len()) as f64;
    }
    out
}

/// A hasher for keys that are already well-mixed 64-bit hashes (a
/// multiply spreads any that are not): SipHash was a fifth of the time.
#[derive(Default, Clone, Copy)]
pub(crate) struct MixHasher(u64);

impl std::hash::Hasher for MixHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(29) ^ n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

pub(crate) type Mixed = std::hash::BuildHasherDefault<MixHasher>;

/// The inverted index: each fingerprint of each language group to the
/// entries that hold it, in order.
fn postings(entries: &[Entry<'_>]) -> HashMap<(u8, u64), Vec<u32>, Mixed> {
    let mut postings: HashMap<(u8, u64), Vec<u32>, Mixed> = HashMap::default();
    for (i, e) in entries.iter().enumerate() {
        for &h in e.set {
            postings
                .entry((e.group, h))
                .or_default()
                .push(u32::try_from(i).unwrap_or(u32::MAX));
        }
    }
    postings
}

/// Each file's fingerprints' weights, beside its sorted set; and each
/// file's own weight (its shared and novel fingerprints').
fn weighed_and_norms(
    entries: &[Entry<'_>],
    weights: &HashMap<u8, Weights>,
) -> (Vec<Vec<f64>>, Vec<f64>) {
    let weighed: Vec<Vec<f64>> = entries
        .iter()
        .map(|e| match weights.get(&e.group) {
            Some(w) => e.set.iter().map(|&h| w.weight(h)).collect(),
            None => vec![0.0; e.set.len()],
        })
        .collect();
    let norms: Vec<f64> = entries
        .iter()
        .zip(&weighed)
        .map(|(e, ws)| match weights.get(&e.group) {
            Some(w) => e
                .set
                .iter()
                .zip(ws)
                .filter(|(h, _)| w.holders(**h) > 1 || e.novel.binary_search(h).is_ok())
                .map(|(_, x)| x)
                .sum(),
            None => 0.0,
        })
        .collect();
    (weighed, norms)
}

/// Every candidate pair's score.
pub(crate) fn scored_pairs(entries: &[Entry<'_>], weights: &HashMap<u8, Weights>) -> Vec<Scored> {
    let postings = postings(entries);
    let cap = rarity_cap(postings.values().map(Vec::len));
    let all_listed = postings.values().all(|l| l.len() <= cap);
    let (weighed, norms) = weighed_and_norms(entries, weights);
    // For each file `a`, the weight it shares in rare fingerprints with
    // each later file `b`, summed in one dense row: a lower bound of what
    // the pair shares in all.
    let mut row = vec![0.0f64; entries.len()];
    let mut touched: Vec<u32> = Vec::new();
    let mut out = Vec::new();
    for (a, ea) in entries.iter().enumerate() {
        for (&h, &weight) in ea.set.iter().zip(&weighed[a]) {
            let Some(list) = postings.get(&(ea.group, h)) else {
                continue;
            };
            if list.len() < 2 || list.len() > cap {
                continue;
            }
            let after = list.partition_point(|&x| (x as usize) <= a);
            for &b in &list[after..] {
                let eb = &entries[b as usize];
                if ea.owner == eb.owner || (ea.archive && eb.archive) {
                    continue;
                }
                if row[b as usize] == 0.0 {
                    touched.push(b);
                }
                row[b as usize] += weight;
            }
        }
        for b in touched.drain(..) {
            let b = b as usize;
            let rare_shared = std::mem::take(&mut row[b]);
            let norm = (norms[a] * norms[b]).sqrt();
            if norm <= 0.0 {
                continue;
            }
            // What a pair shares beyond its rare fingerprints is made of
            // fingerprints each held by more than `cap` owners, light by
            // construction; a pair whose rare share is a small part of its
            // weight is not merged in full. When every fingerprint was
            // listed (a cohort of up to a few hundred), the sum is exact.
            let score = if !all_listed && rare_shared >= SCORED_SHARE * norm {
                shared_weight(ea.set, &weighed[a], entries[b].set) / norm
            } else {
                rare_shared / norm
            };
            out.push(Scored {
                a,
                b,
                score: score.clamp(0.0, 1.0),
            });
        }
    }
    out.sort_by(|x, y| {
        y.score
            .total_cmp(&x.score)
            .then(x.a.cmp(&y.a))
            .then(x.b.cmp(&y.b))
    });
    out
}

/// The weight of the fingerprints two sorted sets share (`a`'s weights
/// beside it).
pub(crate) fn shared_weight(a: &[u64], weights_a: &[f64], b: &[u64]) -> f64 {
    let (mut i, mut j, mut sum) = (0, 0, 0.0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                sum += weights_a[i];
                i += 1;
                j += 1;
            }
        }
    }
    sum
}

/// The largest posting length whose pairs, with every shorter list's,
/// fit in [`PAIR_BUDGET`].
fn rarity_cap(lengths: impl Iterator<Item = usize>) -> usize {
    let mut by_len: Vec<usize> = lengths.filter(|&l| l >= 2).collect();
    by_len.sort_unstable();
    let mut spent = 0usize;
    let mut cap = 2;
    for l in by_len {
        spent = spent.saturating_add(l * (l - 1) / 2);
        if spent > PAIR_BUDGET {
            break;
        }
        cap = l;
    }
    cap
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_sets_score_one_and_drafts_never_pair() {
        let a = [1u64, 2, 3, 4];
        let b = [1u64, 2, 3, 4];
        let c = [1u64, 9, 10, 11];
        let entries = vec![
            Entry {
                owner: 0,
                archive: false,
                group: 0,
                set: &a,
                novel: &[],
            },
            Entry {
                owner: 1,
                archive: false,
                group: 0,
                set: &b,
                novel: &[],
            },
            Entry {
                owner: 1,
                archive: false,
                group: 0,
                set: &c,
                novel: &[],
            },
            Entry {
                owner: 2,
                archive: false,
                group: 0,
                set: &c,
                novel: &[],
            },
        ];
        let w = weights(&entries);
        let pairs = scored_pairs(&entries, &w);
        assert!((pairs[0].score - 1.0).abs() < 1e-9, "{pairs:?}");
        assert!(!pairs.iter().any(|p| (p.a, p.b) == (1, 2)), "{pairs:?}");
    }

    #[test]
    fn common_fingerprints_weigh_little() {
        let w = Weights {
            df: [(1, 100), (2, 2)].into_iter().collect(),
            owners: 100.0,
        };
        assert!(w.weight(1) < 0.02);
        assert!(w.weight(2) > 3.0);
    }

    #[test]
    fn the_cap_bounds_the_work() {
        assert_eq!(rarity_cap([2, 3, 4].into_iter()), 4);
        let huge = std::iter::repeat_n(10_000, 10);
        assert!(rarity_cap(huge) < 10_000);
    }
}
