//! Fingerprints of a normalised tree: one hash per subtree of at least
//! [`MIN_SIZE`] nodes, the same for every spelling the normalisations and
//! these rules make equal:
//!
//! - a name the file binds (a variable, parameter, function, class or
//!   field) hashes as "a local name", whatever it is called; other names
//!   (`deque`, `len`, `push_back`) hash as themselves;
//! - a block is a bag of statements: their order does not count (students
//!   reorder what commutes; independent solutions rarely differ only in
//!   order, so little is lost);
//! - operands of `+ * & | ^ == !=` and the parts of `and` / `or` are
//!   unordered; `if t: A else: B` is `if not t: B else: A`, whichever of
//!   the two hashes lower.
//!
//! Subtrees rather than token k-grams (as Dolos and MOSS use) because the
//! subtrees of a statement survive what breaks a k-gram: statements moved,
//! functions split, branches swapped, code inserted between them.

use std::collections::HashSet;

use super::normalize::negated;
use super::tree::{Kind, Node, Tree};

/// The smallest subtree fingerprinted, in nodes: `x += 1` has three.
pub(crate) const MIN_SIZE: usize = 3;

/// One fingerprint: its hash, the size of its subtree, and where in the
/// file that subtree is (bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Print {
    pub hash: u64,
    pub size: u32,
    pub start: u32,
    pub end: u32,
    /// How many fingerprints of the subtree's descendants were recorded:
    /// they are the ones just before this one.
    pub below: u32,
}

/// SplitMix64's finaliser: a well-mixed 64-bit hash of `x`.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

fn combine(seed: u64, parts: &[u64]) -> u64 {
    parts
        .iter()
        .fold(mix(seed), |acc, &p| mix(acc.rotate_left(5) ^ p))
}

fn kind_code(k: Kind) -> u64 {
    match k {
        Kind::Other(id) => 1000 + u64::from(id),
        other => {
            // The discriminant order of the shared kinds.
            const ORDER: [Kind; 30] = [
                Kind::Module,
                Kind::Block,
                Kind::Func,
                Kind::Params,
                Kind::Class,
                Kind::If,
                Kind::While,
                Kind::ForEach,
                Kind::Return,
                Kind::Break,
                Kind::Continue,
                Kind::Raise,
                Kind::ExprStmt,
                Kind::Assign,
                Kind::AugAssign,
                Kind::Decl,
                Kind::Call,
                Kind::Attr,
                Kind::Index,
                Kind::BinOp,
                Kind::Cmp,
                Kind::And,
                Kind::Or,
                Kind::Not,
                Kind::Unary,
                Kind::Ternary,
                Kind::Name,
                Kind::Num,
                Kind::Str,
                Kind::Bool,
            ];
            ORDER.iter().position(|k| *k == other).unwrap_or(999) as u64 + 1
        }
    }
}

/// A local name's label in a hash: every local name is the same.
const LOCAL: u64 = 0x4c4f_4341_4c00_0001;

struct Hasher<'t> {
    locals: &'t HashSet<u64>,
    commutative: HashSet<u64>,
    prints: Vec<Print>,
}

/// Every fingerprint of `tree`, in the order of a walk (parents after
/// their children).
pub(crate) fn prints(tree: &Tree) -> Vec<Print> {
    let commutative = ["+", "*", "&", "|", "^", "==", "!="]
        .iter()
        .map(|op| super::tree::text_hash(op.as_bytes()))
        .collect();
    let mut h = Hasher {
        locals: &tree.locals,
        commutative,
        prints: Vec::new(),
    };
    h.hash(&tree.root, true);
    h.prints
}

impl Hasher<'_> {
    fn label(&self, n: &Node) -> u64 {
        match n.kind {
            Kind::Name | Kind::Attr if n.label == 0 || self.locals.contains(&n.label) => LOCAL,
            Kind::Func | Kind::Class => 0,
            _ => n.label,
        }
    }

    /// The hash and size of `n`; records a fingerprint for each subtree
    /// when `record`.
    fn hash(&mut self, n: &Node, record: bool) -> (u64, usize) {
        self.hash_spanned(n, record).0
    }

    /// The hash and size of `n`, and the bytes its subtree covers (an
    /// inlined function's body lies elsewhere in the file than its call).
    fn hash_spanned(&mut self, n: &Node, record: bool) -> ((u64, usize), (u32, u32)) {
        let mut size = 1;
        let first = self.prints.len();
        let (mut start, mut end) = (n.start, n.end);
        let mut parts: Vec<u64> = Vec::with_capacity(n.children.len());
        for c in &n.children {
            let ((ch, cs), (cstart, cend)) = self.hash_spanned(c, record);
            start = start.min(cstart);
            end = end.max(cend);
            size += cs;
            // `a and (b and c)` is `a and b and c`.
            if matches!(n.kind, Kind::And | Kind::Or) && c.kind == n.kind {
                parts.extend(self.and_or_parts(c));
            } else {
                parts.push(ch);
            }
        }
        let unordered = match n.kind {
            Kind::Block | Kind::Module | Kind::And | Kind::Or => true,
            Kind::BinOp | Kind::Cmp => self.commutative.contains(&n.label),
            _ => false,
        };
        if unordered {
            parts.sort_unstable();
        }
        let seed = combine(kind_code(n.kind), &[self.label(n)]);
        let mut hash = combine(seed, &parts);
        if matches!(n.kind, Kind::If | Kind::Ternary) && n.children.len() == 3 {
            // The other orientation: the negated test, the branches swapped.
            let neg = negated(&n.children[0]);
            let (nh, _) = self.hash(&neg, false);
            let other = combine(seed, &[nh, parts[2], parts[1]]);
            hash = hash.min(other);
        }
        if record && size >= MIN_SIZE && !matches!(n.kind, Kind::Module | Kind::Params) {
            self.prints.push(Print {
                hash,
                size: u32::try_from(size).unwrap_or(u32::MAX),
                start,
                end,
                below: u32::try_from(self.prints.len() - first).unwrap_or(u32::MAX),
            });
        }
        ((hash, size), (start, end))
    }

    fn and_or_parts(&mut self, n: &Node) -> Vec<u64> {
        let mut out = Vec::new();
        for c in &n.children {
            if c.kind == n.kind {
                out.extend(self.and_or_parts(c));
            } else {
                out.push(self.hash(c, false).0);
            }
        }
        out
    }
}
