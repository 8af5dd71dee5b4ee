//! Seed 004's board: 100 houses, 11 snakes and 11 ladders, as the seed's
//! `SHT` (snake head, tail) and `LTB` tables list them.

/// The seed's 11 snakes then its 11 ladders, `(source, destination)`.
pub const JUMPS: [(i64, i64); 22] = [
    (46, 15),
    (48, 9),
    (52, 11),
    (59, 18),
    (64, 24),
    (68, 2),
    (69, 33),
    (83, 22),
    (89, 51),
    (93, 37),
    (98, 13),
    (8, 26),
    (19, 38),
    (21, 82),
    (28, 53),
    (36, 57),
    (43, 77),
    (50, 91),
    (54, 88),
    (61, 99),
    (62, 96),
    (66, 87),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eleven_snakes_and_eleven_ladders_none_chained() {
        let snakes = JUMPS.iter().filter(|(s, d)| d < s).count();
        let ladders = JUMPS.iter().filter(|(s, d)| d > s).count();
        assert_eq!((snakes, ladders), (11, 11));
        for (_, d) in JUMPS {
            assert!(JUMPS.iter().all(|&(s, _)| s != d), "{d} is a source");
        }
    }
}
