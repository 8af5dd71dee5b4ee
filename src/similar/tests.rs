//! Tests of the whole comparison: each normalisation makes a disguised
//! copy score as the plain copy did, against a cohort of independent
//! solutions written in several styles.

use super::*;
use crate::similar::tree::{Kind, Node};

/// The tree as indented text, for reading a normalisation's result.
fn dump(n: &Node, depth: usize, out: &mut String) {
    use std::fmt::Write as _;
    let _ = writeln!(
        out,
        "{}{:?} {:x}",
        "  ".repeat(depth),
        n.kind,
        n.label & 0xffff
    );
    for c in &n.children {
        dump(c, depth + 1, out);
    }
}

/// `SIMILAR_DUMP=a.cpp cargo test similar::tests::dump_a_file -- --ignored --nocapture`
#[test]
#[ignore = "a debugging aid: prints the normalised tree of $SIMILAR_DUMP"]
fn dump_a_file() {
    let path = std::env::var("SIMILAR_DUMP").unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let lang = Language::of_file(&path).unwrap();
    let mut t = tree::parse(&text, lang).unwrap();
    let entry: HashSet<u64> = ["get_min_dice_throws", "snakesAndLadders", "main"]
        .iter()
        .map(|s| text_hash(s.as_bytes()))
        .collect();
    normalize::normalize(&mut t, &entry);
    let mut out = String::new();
    dump(&t.root, 0, &mut out);
    println!("{out}");
    let _ = Kind::Module;
}
