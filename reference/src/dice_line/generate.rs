//! What both assignments' seeded generators share: the case list with its
//! `<kind>-<k>` ids, and random lines built in squares (random jumps, lines
//! whose end cannot be reached, and the steering between the two answers).
//! Each assignment numbers the squares its own way and keeps its own kinds
//! and constructions.
//!
//! The random draws are part of the output: the same seed must give the
//! same cases on every machine and in every release, so a change to the
//! order or the ranges of the draws here changes both assignments' cases
//! (their pinning tests say so).

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::{Line, Square, answer};
use crate::case::Case;

/// Random draws while looking for a wanted answer before constructing one.
const STEER_TRIES: usize = 20;

/// The cases an assignment generates, numbered per kind: each id is
/// `<kind>-<k>`, `k` counting from 1.
pub(crate) struct CaseList {
    function: &'static str,
    cases: Vec<Case>,
}

impl CaseList {
    /// An empty list of cases calling `function`.
    pub(crate) fn new(function: &'static str) -> CaseList {
        CaseList {
            function,
            cases: Vec::new(),
        }
    }

    /// Adds a case of the kind named `kind` (labelled with the wrong
    /// solution it `exposes`, if any).
    pub(crate) fn push(
        &mut self,
        kind: &str,
        exposes: Option<&str>,
        detail: String,
        input: serde_json::Value,
        expected: serde_json::Value,
    ) {
        let number = self
            .cases
            .iter()
            .filter(|c| c.id.rsplit_once('-').map(|(prefix, _)| prefix) == Some(kind))
            .count()
            + 1;
        let label = match exposes {
            Some(bug) => format!("{kind}: {detail} (exposes {bug})"),
            None => format!("{kind}: {detail}"),
        };
        self.cases.push(Case {
            id: format!("{kind}-{number}"),
            function: self.function.to_owned(),
            label,
            input,
            expected,
        });
    }

    pub(crate) fn into_cases(self) -> Vec<Case> {
        self.cases
    }
}

/// The kind among `all` whose `name` prefixes `id` as `<name>-<k>`.
pub(crate) fn kind_of_id<K: Copy>(
    id: &str,
    all: &[K],
    name: impl Fn(K) -> &'static str,
) -> Option<K> {
    let (prefix, number) = id.rsplit_once('-')?;
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    all.iter().copied().find(|&k| name(k) == prefix)
}

/// Whether a jump may lead to its own square: LeetCode 909 allows it (and it
/// does nothing), minimum throws does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SelfJumps {
    Allowed,
    Forbidden,
}

/// A square in `0..below` other than `but` (which must be below `below`).
fn other_than(rng: &mut ChaCha8Rng, below: Square, but: Square) -> Square {
    let d = rng.random_range(0..below - 1);
    if d >= but { d + 1 } else { d }
}

/// Random jumps on a line of `len` squares: each square strictly between the
/// first and the last holds a jump with probability `density`, to any square
/// (chains and jumps to the last square occur), by source.
pub(crate) fn random_jumps(
    rng: &mut ChaCha8Rng,
    len: usize,
    density: f64,
    self_jumps: SelfJumps,
) -> Vec<(Square, Square)> {
    let mut pairs = Vec::new();
    if len >= 3 {
        let last = len as Square - 1;
        for s in 1..last {
            if rng.random_bool(density) {
                let d = match self_jumps {
                    SelfJumps::Allowed => rng.random_range(0..=last),
                    SelfJumps::Forbidden => other_than(rng, len as Square, s),
                };
                pairs.push((s, d));
            }
        }
    }
    pairs
}

/// Random jumps on a line of `len >= 8` squares whose last square cannot be
/// reached: squares `p..=p+5` are snakes to squares below `p`, and every
/// jump from below `p` is redirected below `p`. Then every square stood on
/// is below `p`, since a move from below `p` lands at most on `p+5`.
pub(crate) fn unreachable_jumps(
    rng: &mut ChaCha8Rng,
    len: usize,
    density: f64,
    self_jumps: SelfJumps,
) -> Vec<(Square, Square)> {
    let last = len as Square - 1;
    let p = rng.random_range(1..=last - 6);
    let mut pairs = Vec::new();
    for (s, d) in random_jumps(rng, len, density, self_jumps) {
        if (p..=p + 5).contains(&s) {
            continue;
        }
        if s < p && d >= p {
            // s >= 1, so p >= 2 and there is a square below p but s.
            let d = match self_jumps {
                SelfJumps::Allowed => rng.random_range(0..p),
                SelfJumps::Forbidden => other_than(rng, p, s),
            };
            pairs.push((s, d));
        } else {
            pairs.push((s, d));
        }
    }
    pairs.extend((p..=p + 5).map(|s| (s, rng.random_range(0..p))));
    pairs
}

/// Random jumps on a line of `len` squares with the wanted kind of answer
/// (`len >= 8` when the end must be unreachable): random draws first, then
/// a construction that guarantees it (without its snakes every move goes
/// forward, so the last square is reached).
pub(crate) fn steer(
    rng: &mut ChaCha8Rng,
    len: usize,
    want_reachable: bool,
    self_jumps: SelfJumps,
) -> Vec<(Square, Square)> {
    for _ in 0..STEER_TRIES {
        let density = rng.random_range(0.0..0.45);
        let pairs = random_jumps(rng, len, density, self_jumps);
        if (answer(&Line::from_pairs(len, &pairs)) >= 0) == want_reachable {
            return pairs;
        }
    }
    let density = rng.random_range(0.0..0.3);
    if want_reachable {
        random_jumps(rng, len, density, self_jumps)
            .into_iter()
            .filter(|&(s, d)| d >= s)
            .collect()
    } else {
        unreachable_jumps(rng, len, density, self_jumps)
    }
}

/// The least squares [`detours`] needs for `stations` snakes.
pub(crate) fn detours_len(stations: Square) -> usize {
    16 * stations as usize + 9
}

/// Jumps for a line of `len` squares on which the only way to the end goes
/// down `stations` snakes, each time climbing a ladder again from where the
/// snake left the player: the shortest route moves backwards `stations`
/// times, so relaxing the squares in order must scan the line
/// `stations + 1` times before the end gets its answer (`2 x stations + 1`).
/// A solution that relaxes a fixed, small number of rounds stops short.
///
/// Low stations stand on squares `8i` (`i` in `0..=stations`): square
/// `8i + 1` is a ladder to the next high station (from the last low one, to
/// the end) and `8i + 2..=8i + 7` are snakes to square 0, so a throw from a
/// low station either climbs that ladder or starts over. High stations fill
/// the end of the line in a shuffled order, eight squares each: the station
/// itself, a snake from the next square down to the following low station,
/// and six snakes to 0. Every station so has one way on, and the squares
/// between the two halves are never stood on. Needs `len >=
/// detours_len(stations)`.
pub(crate) fn detours(rng: &mut ChaCha8Rng, len: usize, stations: Square) -> Vec<(Square, Square)> {
    debug_assert!(len >= detours_len(stations));
    let last = len as Square - 1;
    let high_start = last - 8 * stations;
    let mut order: Vec<Square> = (0..stations).collect();
    for i in (1..order.len()).rev() {
        let j = rng.random_range(0..=i);
        order.swap(i, j);
    }
    let high = |i: Square| high_start + 8 * order[i as usize];
    let mut pairs = Vec::new();
    for i in 0..=stations {
        let low = 8 * i;
        let up = if i == stations { last } else { high(i) };
        pairs.push((low + 1, up));
        pairs.extend((low + 2..=low + 7).map(|s| (s, 0)));
    }
    for i in 0..stations {
        let station = high(i);
        pairs.push((station + 1, 8 * (i + 1)));
        pairs.extend((station + 2..=station + 7).map(|s| (s, 0)));
    }
    pairs
}

/// Which side of the shared square the jump that leads to it starts, in
/// [`reached_both_ways`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    /// A snake from a square the first throw lands on later (a search that
    /// tries the faces 1 to 6 in order lands on the shared square first).
    After,
    /// A ladder from a square the first throw lands on sooner (a search
    /// that tries the faces 6 down to 1 lands on the shared square first).
    Before,
}

/// The least squares [`reached_both_ways`] needs.
pub(crate) const REACHED_BOTH_WAYS_LEN: usize = 14;

/// Jumps for a line of `len >= REACHED_BOTH_WAYS_LEN` squares whose only
/// way on stands on a square `x` in 2..=5 that the first throw both lands
/// on (and leaves, by its own jump down to `y`) and is taken to by another
/// jump, from `z`. A search that marks the square a throw lands on as
/// visited, as well as the square its jump leads to, refuses the jump to
/// `x` once it has landed there, so it never stands on `x` and never
/// reaches the end (it answers -1); the right answer is
/// `2 + ceil((last - m) / 6)`.
///
/// The construction: `y < x` is a snake to 0, so landing on it never
/// stands there and it is new when `x`'s jump leads to it. `z` leads to
/// `x`: a snake from `x < z <= 6` ([`Side::After`]) or a ladder from
/// `1 <= z < x` ([`Side::Before`]). The other squares above `x` up to 6
/// are snakes to 0 (a square above `x` stood on would reach `x + 6`), those
/// below `x` are plain or snakes to 0. Squares 7..=x+5 are snakes to
/// squares below `x`, and `x + 6` is a ladder to `m` (`x + 7 <= m <=
/// last`); from `m` the line is plain to the end. Without standing on `x`
/// every square stood on is below `x` (every jump above leads below it),
/// so no throw reaches `x + 6`; the squares between `x + 7` and `m` are
/// never landed on and hold random jumps.
pub(crate) fn reached_both_ways(
    rng: &mut ChaCha8Rng,
    len: usize,
    side: Side,
    self_jumps: SelfJumps,
) -> BothWays {
    debug_assert!(len >= REACHED_BOTH_WAYS_LEN);
    let last = len as Square - 1;
    let (x, z) = match side {
        Side::After => {
            let x = rng.random_range(2..=5);
            (x, rng.random_range(x + 1..=6))
        }
        Side::Before => {
            let x = rng.random_range(3..=5);
            (x, rng.random_range(1..x))
        }
    };
    let y = loop {
        let y = rng.random_range(1..x);
        if y != z {
            break y;
        }
    };
    let m = rng.random_range(x + 7..=last);
    let mut pairs = vec![(x, y), (y, 0), (z, x), (x + 6, m)];
    for s in 1..=6 {
        if s == x || s == y || s == z {
            continue;
        }
        if s > x || rng.random_bool(0.5) {
            pairs.push((s, 0));
        }
    }
    pairs.extend((7..=x + 5).map(|s| (s, rng.random_range(0..x))));
    for s in x + 7..m {
        if rng.random_bool(0.3) {
            let d = match self_jumps {
                SelfJumps::Allowed => rng.random_range(0..=last),
                SelfJumps::Forbidden => other_than(rng, len as Square, s),
            };
            pairs.push((s, d));
        }
    }
    BothWays { pairs, x, y, z }
}

/// A line from [`reached_both_ways`]: its jumps, and the squares the
/// construction is about.
pub(crate) struct BothWays {
    pub pairs: Vec<(Square, Square)>,
    /// The square both landed on and jumped to.
    pub x: Square,
    /// Where `x`'s own jump leads.
    pub y: Square,
    /// The square whose jump leads to `x`.
    pub z: Square,
}

/// FNV-1a, 64 bits: a hash that is the same on every machine and every Rust
/// release (std's `DefaultHasher` promises neither).
#[cfg(test)]
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// For each `(seed, random)`: the two numbers, the hash of the generated
/// cases' JSON, and the hash of `texts` of every case in order. An
/// assignment's tests pin these so that no refactoring changes, by a byte,
/// what students are graded on or told.
#[cfg(test)]
pub(crate) fn pinned_hashes(
    runs: &[(u64, usize)],
    generate: fn(u64, usize) -> Vec<Case>,
    texts: impl Fn(&Case) -> String,
) -> Vec<(u64, usize, u64, u64)> {
    runs.iter()
        .map(|&(seed, random)| {
            let cases = generate(seed, random);
            let json = serde_json::to_string(&cases).expect("cases serialize");
            let texts: String = cases.iter().map(&texts).collect();
            (
                seed,
                random,
                fnv1a(json.as_bytes()),
                fnv1a(texts.as_bytes()),
            )
        })
        .collect()
}

/// What every generated case list promises whatever the assignment: unique
/// ids, the assignment's `function`, a kind among `all` in each id whose
/// name starts the label, and every kind present. Returns each case's kind,
/// in order, for the assignment's own checks.
#[cfg(test)]
pub(crate) fn kinds_of<K: Copy + PartialEq + std::fmt::Debug>(
    cases: &[Case],
    function: &str,
    all: &[K],
    name: impl Fn(K) -> &'static str,
) -> Result<Vec<K>, String> {
    let mut ids = std::collections::BTreeSet::new();
    let mut kinds = Vec::new();
    for case in cases {
        if !ids.insert(&case.id) {
            return Err(format!("duplicate id {}", case.id));
        }
        if case.function != function {
            return Err(format!("{} calls {}", case.id, case.function));
        }
        let kind = kind_of_id(&case.id, all, &name)
            .ok_or_else(|| format!("unknown kind in {}", case.id))?;
        if !case.label.starts_with(name(kind)) {
            return Err(format!("{} is labelled {}", case.id, case.label));
        }
        kinds.push(kind);
    }
    match all.iter().find(|k| !kinds.contains(k)) {
        Some(missing) => Err(format!("no {missing:?} case")),
        None => Ok(kinds),
    }
}
