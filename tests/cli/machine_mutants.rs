//! Machine-made mutants (issue 34): `tests/mutation/harness.py` makes every
//! one-change mutant of each assignment's model and naive solutions, in
//! Python and in C++, and asks each the default case set (`salgrade gen`'s).
//!
//! Two kinds of test. The full search (`#[ignore]`d: minutes of CPU; run
//! by `bench/mutants.sh`) asks each mutant a small-board set first: one that
//! answers every small board as the reference does is *equivalent*; any
//! other must fail a default case, or the test fails, naming the mutant
//! and the smallest board that tells it apart. With
//! `SALGRADE_MUTANTS_RECORD=1` it writes its findings to
//! `tests/mutation/results/<assignment>-<language>.json`, committed. The
//! quick check (in the suite) makes the mutants again, requires them to be
//! the record's, and asks each the record says is not equivalent the
//! default cases only: each must fail one. So a change to the generator
//! that lets a known bug through fails the suite, and a change to a model
//! solution or an operator says to run the full search again. Both check
//! the counts against the table in `docs/mutants.md`.
//!
//! The small-board sets are built here, with the Rust reference's answers,
//! smallest boards first: every board up to a size, then random boards
//! (see each `*_small` function for the exact set).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use salgrade_reference::Case;
use serde_json::{Value, json};

use crate::{salgrade, stderr_of};

/// SplitMix64: a small seeded generator for the random boards, the same on
/// every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `low..=high`.
    fn range(&mut self, low: i64, high: i64) -> i64 {
        low + (self.next() % (high - low + 1) as u64) as i64
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

fn case(k: usize, function: &str, input: Value, expected: Value) -> Case {
    Case {
        id: format!("small-{k}"),
        function: function.to_owned(),
        label: String::new(),
        input,
        expected,
    }
}

/// What [`every_board`] calls with each board's jumps.
type Visit<'a> = dyn FnMut(&[(u32, u32)]) + 'a;

/// Every way to put jumps on `free` squares, each square either plain or
/// leading to one of `targets(square)`, with at most `most` jumps.
fn every_board(free: &[u32], most: usize, targets: &dyn Fn(u32) -> Vec<u32>, out: &mut Visit) {
    fn go(
        free: &[u32],
        most: usize,
        targets: &dyn Fn(u32) -> Vec<u32>,
        chosen: &mut Vec<(u32, u32)>,
        out: &mut Visit,
    ) {
        let Some((&square, rest)) = free.split_first() else {
            out(chosen);
            return;
        };
        go(rest, most, targets, chosen, out);
        if chosen.len() < most {
            for d in targets(square) {
                chosen.push((square, d));
                go(rest, most, targets, chosen, out);
                chosen.pop();
            }
        }
    }
    go(free, most, targets, &mut Vec::new(), out);
}

/// LeetCode 909: every board of n = 2; every board of n = 3 with at most
/// two jumps; the n = 3 boards whose squares 2..=7 all hold jumps down to
/// 1 and 2; the generator's built cases (all but the random ones) of n up
/// to 10 for seeds 2 to 21; then 1,000 random boards of n = 3 to 7, half of them with
/// jumps to anywhere (a jump on each square with a probability drawn per
/// board up to 60%, self-jumps included) and half with dense short jumps
/// (up to 7 squares either way), where chains and squares reached both by
/// landing and by a jump are common.
fn leetcode909_small() -> Vec<Case> {
    use salgrade_reference::leetcode909::{FUNCTION, Input, expected_json, generate};
    let mut cases = Vec::new();
    let mut push = |n: usize, pairs: &[(u32, u32)]| {
        let input = Input::from_jumps(n, pairs).expect("a small board is valid");
        let k = cases.len();
        cases.push(case(
            k,
            FUNCTION,
            json!({"board": input.rows()}),
            expected_json(&input),
        ));
    };
    for (n, most) in [(2usize, 2usize), (3, 2)] {
        let last = (n * n) as u32;
        let free: Vec<u32> = (2..last).collect();
        every_board(&free, most, &|_| (1..=last).collect(), &mut |p| push(n, p));
    }
    every_board(&(2..=7).collect::<Vec<_>>(), 6, &|_| vec![1, 2], &mut |p| {
        if p.len() == 6 {
            push(3, p)
        }
    });
    let mut rng = Rng(909);
    for k in 0..1000 {
        let n = rng.range(3, 7) as usize;
        let last = (n * n) as i64;
        let local = k % 2 == 1;
        let density = if local {
            rng.range(30, 80)
        } else {
            rng.range(0, 60)
        } as u64;
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        for s in 2..last {
            if rng.chance(density) {
                let d = if local {
                    (s + rng.range(-7, 7)).clamp(1, last)
                } else {
                    rng.range(1, last)
                };
                pairs.push((s as u32, d as u32));
            }
        }
        push(n, &pairs);
    }
    let mut cases = cases;
    let built = (2..=21).flat_map(|seed| generate(seed, 0)).filter(|c| {
        c.input["board"]
            .as_array()
            .is_some_and(|rows| rows.len() <= 10)
    });
    built_cases(&mut cases, built);
    cases
}

/// The generator's built cases, added to a small-board set with ids of its
/// own (their boards may be larger, but each is built for a bug class).
fn built_cases(cases: &mut Vec<Case>, built: impl Iterator<Item = Case>) {
    for mut c in built {
        if c.id.starts_with("random/") {
            continue;
        }
        c.id = format!("small-{}", cases.len());
        cases.push(c);
    }
}

/// Minimum throws: every board of 1 to 6 cells; every board of 7 and 8
/// cells with at most two jumps; the 8-cell boards whose cells 1..=6 all
/// hold jumps down to 0, 1 or 2 (so the end is out of reach); the
/// generator's built cases of at most 1,000 cells for seeds 2 to 21; then
/// 1,000 random boards of 8 to 40 cells, half with jumps to any other cell
/// (on each cell with a probability drawn per board up to 60%) and half
/// with dense short jumps (up to 7 cells either way).
fn min_throws_small() -> Vec<Case> {
    use salgrade_reference::min_throws::{FUNCTION, Input, expected_json, generate};
    let mut cases = Vec::new();
    let mut push = |n: usize, pairs: &[(u32, u32)]| {
        let input = Input::from_jumps(n, pairs).expect("a small board is valid");
        let k = cases.len();
        cases.push(case(
            k,
            FUNCTION,
            json!({"move": input.moves()}),
            expected_json(&input),
        ));
    };
    for n in 1..=8usize {
        let last = n as u32 - 1;
        let free: Vec<u32> = (1..last.max(1)).collect();
        let most = if n <= 6 { n } else { 2 };
        every_board(
            &free,
            most,
            &|s| (0..=last).filter(|&d| d != s).collect(),
            &mut |p| push(n, p),
        );
    }
    every_board(
        &(1..=6).collect::<Vec<_>>(),
        6,
        &|s| (0..=2).filter(|&d| d != s).collect(),
        &mut |p| {
            if p.len() == 6 {
                push(8, p)
            }
        },
    );
    let mut rng = Rng(0);
    for k in 0..1000 {
        let n = rng.range(8, 40);
        let local = k % 2 == 1;
        let density = if local {
            rng.range(30, 80)
        } else {
            rng.range(0, 60)
        } as u64;
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        for s in 1..n - 1 {
            if rng.chance(density) {
                let d = if local {
                    (s + rng.range(-7, 7)).clamp(0, n - 1)
                } else {
                    let d = rng.range(0, n - 2);
                    if d >= s { d + 1 } else { d }
                };
                if d != s {
                    pairs.push((s as u32, d as u32));
                }
            }
        }
        push(n as usize, &pairs);
    }
    let mut cases = cases;
    let built = (2..=21)
        .flat_map(|seed| generate(seed, 0))
        .filter(|c| c.input["move"].as_array().is_some_and(|m| m.len() <= 1000));
    built_cases(&mut cases, built);
    cases
}

/// A48: every valid board of 1 to 6 squares (912 boards), then 150 random
/// boards of 7 to 40 squares; each asked `salb2salbLL` and `dualboard`;
/// `willfinish` with every step 1 to n + 1 and 2n + 1 up to 5 squares, and
/// beyond with three of 1..=n+1 (in turn from board to board) and 2n + 1;
/// `whowins` with every pair of steps in 1..=n+1 up to 4 squares, and two
/// random pairs of 1..=2n+1 beyond.
fn a48_small() -> Vec<Case> {
    use salgrade_reference::a48::Reading;
    use salgrade_reference::a48::board::Board;
    use salgrade_reference::a48::case::{A48Function, A48Input, a48_case};
    let mut cases = Vec::new();
    let mut push = |function: A48Function, board: &Board, args: Vec<u64>| {
        let k = cases.len();
        let input = A48Input {
            board: board.clone(),
            args,
        };
        let c = a48_case(
            format!("small-{k}"),
            String::new(),
            function,
            input,
            Reading::Either,
        )
        .expect("a small case is well formed");
        cases.push(c);
    };
    let mut boards = Vec::new();
    for n in 1..=6u32 {
        let free: Vec<u32> = (1..n).collect();
        every_board(
            &free,
            free.len(),
            &|s| (1..n).filter(|&d| d != s).collect(),
            &mut |p| {
                let mut destinations: Vec<u32> = p.iter().map(|&(_, d)| d).collect();
                destinations.sort_unstable();
                destinations.dedup();
                if destinations.len() == p.len() {
                    let pairs: Vec<(u64, u64)> =
                        p.iter().map(|&(s, d)| (s.into(), d.into())).collect();
                    boards.push(Board::new(n.into(), &pairs).expect("a valid small board"));
                }
            },
        );
    }
    let mut rng = Rng(48);
    for _ in 0..150 {
        let n = rng.range(7, 40) as u64;
        let mut pairs: Vec<(u64, u64)> = Vec::new();
        let density = rng.range(0, 45) as u64;
        for s in 1..n {
            if rng.chance(density) {
                let d = rng.range(1, n as i64 - 1) as u64;
                if d != s && pairs.iter().all(|&(_, e)| e != d) {
                    pairs.push((s, d));
                }
            }
        }
        boards.push(Board::new(n, &pairs).expect("a valid random board"));
    }
    for (i, board) in boards.iter().enumerate() {
        let n = u64::from(board.squares());
        push(A48Function::Salb2salbLL, board, vec![]);
        push(A48Function::Dualboard, board, vec![]);
        // Up to 5 squares every step 1..=n+1 and 2n+1; beyond, three of
        // 1..=n+1 in turn, and 2n+1.
        let steps: Vec<u64> = if n <= 5 {
            (1..=n + 1).chain([2 * n + 1]).collect()
        } else {
            let k = i as u64;
            vec![
                k % (n + 1) + 1,
                (k + 2) % (n + 1) + 1,
                (k + 4) % (n + 1) + 1,
                2 * n + 1,
            ]
        };
        for s in steps {
            push(A48Function::Willfinish, board, vec![s]);
        }
        let pairs: Vec<(u64, u64)> = if n <= 4 {
            (1..=n + 1)
                .flat_map(|a| (1..=n + 1).map(move |b| (a, b)))
                .collect()
        } else {
            (0..2)
                .map(|_| {
                    (
                        rng.range(1, 2 * n as i64 + 1) as u64,
                        rng.range(1, 2 * n as i64 + 1) as u64,
                    )
                })
                .collect()
        };
        for (a, b) in pairs {
            push(A48Function::Whowins, board, vec![a, b]);
        }
    }
    cases
}

/// The game: every construction of sizes 5 to 8 with -1 to 3 players,
/// four `finish` values and six jump sets (valid, and each jump rule
/// broken); then, on every board of 7 and 8 houses with at most one jump
/// under both finishes, six players moving once with each roll and then
/// again (every pair of rolls from house 1, in six scenarios per board);
/// 600 random scenarios on 7 to 12 houses with 1 to 3 players and up to 8
/// calls (moves, plays with and without a cap, queries, some of them
/// invalid; chains of jumps among them); and the generator's built cases
/// for seeds 2 to 6.
fn game_small() -> Vec<Case> {
    use salgrade_reference::game::{Call, Scenario, expected_json, unit_of};
    let mut cases = Vec::new();
    let mut push =
        |size: i64, jumps: &[(i64, i64)], players: i64, finish: &str, calls: Vec<Call>| {
            let s = Scenario::new(size, jumps.to_vec(), players, finish.to_owned(), calls)
                .expect("a small scenario is well formed");
            let k = cases.len();
            cases.push(case(
                k,
                unit_of(&s),
                serde_json::to_value(&s).expect("scenarios serialize"),
                expected_json(&s),
            ));
        };
    for size in 5..=8 {
        for players in -1..=3 {
            for finish in ["bounce", "reach", "", "Bounce"] {
                let jump_sets: [&[(i64, i64)]; 6] = [
                    &[(2, size), (size - 1, 1)],
                    &[(1, 3)],
                    &[(size, 3)],
                    &[(3, 0)],
                    &[(3, size + 1)],
                    &[(3, 3)],
                ];
                for jumps in jump_sets {
                    let calls =
                        if size >= 7 && players >= 1 && finish == "bounce" && jumps.len() == 2 {
                            vec![Call::Position { player: 1 }, Call::Winner]
                        } else {
                            vec![]
                        };
                    let ok = size >= 7
                        && players >= 1
                        && (finish == "bounce" || finish == "reach")
                        && jumps.len() == 2;
                    push(
                        size,
                        jumps,
                        players,
                        finish,
                        if ok { calls } else { vec![] },
                    );
                }
            }
        }
    }
    for size in [7i64, 8] {
        let free: Vec<u32> = (2..size as u32).collect();
        let mut boards = Vec::new();
        every_board(
            &free,
            1,
            &|s| (1..=size as u32).filter(|&d| d != s).collect(),
            &mut |p| {
                boards.push(
                    p.iter()
                        .map(|&(s, d)| (i64::from(s), i64::from(d)))
                        .collect::<Vec<_>>(),
                )
            },
        );
        for jumps in &boards {
            for finish in ["bounce", "reach"] {
                // Six players: player p's first roll is p, the second
                // p + shift (mod 6), so six scenarios make every pair of
                // rolls from house 1 (until someone wins).
                for shift in 0..6 {
                    let mut calls: Vec<Call> =
                        (1..=6).map(|p| Call::Move { player: p, roll: p }).collect();
                    calls.extend((1..=6).map(|p| Call::Move {
                        player: p,
                        roll: (p + shift - 1) % 6 + 1,
                    }));
                    push(size, jumps, 6, finish, calls);
                }
            }
        }
    }
    let mut rng = Rng(4);
    for _ in 0..600 {
        let size = rng.range(7, 12);
        let players = rng.range(1, 3);
        let finish = if rng.chance(30) { "reach" } else { "bounce" };
        let mut jumps: Vec<(i64, i64)> = Vec::new();
        for s in 2..size {
            if rng.chance(30) {
                let d = rng.range(1, size - 1);
                jumps.push((s, if d >= s { d + 1 } else { d }));
            }
        }
        let mut calls = Vec::new();
        for _ in 0..rng.range(1, 8) {
            calls.push(match rng.range(0, 9) {
                0..=4 => Call::Move {
                    player: if rng.chance(90) {
                        rng.range(1, players)
                    } else {
                        rng.range(0, players + 1)
                    },
                    roll: if rng.chance(90) {
                        rng.range(1, 6)
                    } else {
                        rng.range(0, 7)
                    },
                },
                5..=6 => Call::Play {
                    rolls: (0..rng.range(0, 12))
                        .map(|_| rng.range(1, 6) as u8)
                        .collect(),
                    max_rounds: rng.chance(50).then(|| rng.range(0, 4)),
                },
                7 => Call::Position {
                    player: rng.range(1, players),
                },
                _ => Call::Winner,
            });
        }
        push(size, &jumps, players, finish, calls);
    }
    let mut cases = cases;
    built_cases(
        &mut cases,
        (2..=6).flat_map(|seed| salgrade_reference::game::generate(seed, 0)),
    );
    cases
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Where the C++ mutants' programs are kept between runs (one build per
/// set of sources).
fn work_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("mutants")
}

/// The committed record of the full search for one assignment and language.
fn record_path(assignment: &str, language: &str) -> PathBuf {
    repo()
        .join("tests/mutation/results")
        .join(format!("{assignment}-{language}.json"))
}

fn harness(assignment: &str, language: &str, dir: &Path) -> std::process::Command {
    let mut command = std::process::Command::new("python3");
    command
        .arg(repo().join("tests/mutation/harness.py"))
        .args(["--assignment", assignment, "--language", language])
        .arg("--reference")
        .arg(repo().join("reference"))
        .arg("--cases")
        .arg(dir.join("default.json"))
        .arg("--work")
        .arg(work_dir());
    command
}

/// Writes the default case set of `assignment` to `dir/default.json`.
fn default_cases(assignment: &str, dir: &Path) {
    let generated = salgrade()
        .args(["gen", "--assignment", assignment, "--output"])
        .arg(dir.join("default.json"))
        .output()
        .unwrap();
    assert!(generated.status.success(), "{}", stderr_of(&generated));
}

/// The table row of one assignment and language, as `docs/mutants.md`
/// writes it, from a record's or a report's fates.
fn row(assignment: &str, language: &str, mutants: &[Value]) -> String {
    let mut fates: BTreeMap<&str, usize> = BTreeMap::new();
    for m in mutants {
        *fates.entry(m["fate"].as_str().unwrap()).or_default() += 1;
    }
    let language = if language == "cpp" { "C++" } else { "Python" };
    let count = |fate: &str| fates.get(fate).copied().unwrap_or(0);
    format!(
        "| {assignment} | {language} | {} | {} | {} | {} | {} |",
        mutants.len(),
        count("unviable"),
        mutants.len() - count("unviable"),
        count("equivalent"),
        count("killed") + count("survived"),
    )
}

fn check_docs(assignment: &str, rows: &[String]) {
    let docs = std::fs::read_to_string(repo().join("docs/mutants.md")).unwrap();
    let missing: Vec<&String> = rows.iter().filter(|r| !docs.contains(r.as_str())).collect();
    assert!(
        missing.is_empty(),
        "docs/mutants.md's table is out of date; its {assignment} rows are now:\n{}",
        rows.join("\n")
    );
}

fn languages_here(languages: &[&'static str]) -> Vec<&'static str> {
    languages
        .iter()
        .copied()
        .filter(|&l| l != "cpp" || crate::cxx::have_cxx())
        .collect()
}

/// The full search for one assignment (see the module's documentation).
fn full(assignment: &str, small: fn() -> Vec<Case>, languages: &[&'static str]) {
    let temporary = tempfile::tempdir().unwrap();
    // `SALGRADE_MUTANTS_KEEP=DIR` keeps the case files and the reports in
    // DIR/<assignment>, to look into a failure.
    let dir = match std::env::var_os("SALGRADE_MUTANTS_KEEP") {
        Some(keep) => {
            let dir = PathBuf::from(keep).join(assignment);
            std::fs::create_dir_all(&dir).unwrap();
            dir
        }
        None => temporary.path().to_path_buf(),
    };
    let dir = dir.as_path();
    default_cases(assignment, dir);
    let small = json!({"cases": small()});
    std::fs::write(dir.join("small.json"), small.to_string()).unwrap();
    let record = std::env::var_os("SALGRADE_MUTANTS_RECORD").is_some();
    let mut survivors = Vec::new();
    let mut rows = Vec::new();
    for language in languages_here(languages) {
        let out = dir.join(format!("report-{language}.json"));
        let mut command = harness(assignment, language, dir);
        command
            .arg("--small")
            .arg(dir.join("small.json"))
            .arg("--out")
            .arg(&out);
        if record {
            command
                .arg("--record")
                .arg(record_path(assignment, language));
        }
        let run = command.output().expect("python3 runs");
        assert!(
            run.status.success(),
            "{assignment} {language}: the harness failed: {}",
            stderr_of(&run)
        );
        let report: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
        let mutants = report["mutants"].as_array().unwrap();
        for m in mutants {
            if m["fate"] == "survived" {
                let board = &m["board"];
                survivors.push(format!(
                    "{language} {} ({}) {}: no default case fails it; {} answers {} where the reference says {} on {}",
                    m["file"],
                    m["operator"],
                    m["change"],
                    board["function"],
                    board["got"],
                    board["expected"],
                    board["input"]
                ));
            }
        }
        rows.push(row(assignment, language, mutants));
    }
    assert!(
        survivors.is_empty(),
        "{assignment}: {} mutant(s) that no default case kills:\n{}",
        survivors.len(),
        survivors.join("\n")
    );
    check_docs(assignment, &rows);
}

/// The quick check for one assignment (see the module's documentation).
fn quick(assignment: &str, small: fn() -> Vec<Case>, languages: &[&'static str]) {
    let dir = tempfile::tempdir().unwrap();
    default_cases(assignment, dir.path());
    // The harness traces the types of the Python originals' variables on
    // the first small boards, as the full search did: the `name` mutants
    // depend on them.
    let small = json!({"cases": small()});
    std::fs::write(dir.path().join("small.json"), small.to_string()).unwrap();
    let mut rows = Vec::new();
    for language in languages_here(languages) {
        let record = record_path(assignment, language);
        let run = harness(assignment, language, dir.path())
            .arg("--small")
            .arg(dir.path().join("small.json"))
            .arg("--check")
            .arg(&record)
            .output()
            .expect("python3 runs");
        assert!(
            run.status.success(),
            "{assignment} {language}: {}",
            stderr_of(&run)
        );
        let record: Value = serde_json::from_slice(&std::fs::read(&record).unwrap()).unwrap();
        let mutants = record["mutants"].as_array().unwrap();
        assert!(
            mutants.iter().all(|m| m["fate"] != "survived"),
            "{assignment} {language}: the record lists survivors; run bench/mutants.sh again"
        );
        rows.push(row(assignment, language, mutants));
    }
    check_docs(assignment, &rows);
}

#[test]
fn leetcode909_mutants_die_on_the_default_cases() {
    quick("leetcode909", leetcode909_small, &["python", "cpp"]);
}

#[test]
fn min_throws_mutants_die_on_the_default_cases() {
    quick("min-throws", min_throws_small, &["python", "cpp"]);
}

#[test]
fn a48_mutants_die_on_the_default_cases() {
    quick("a48", a48_small, &["python"]);
}

#[test]
fn game_mutants_die_on_the_default_cases() {
    quick("game", game_small, &["python", "cpp"]);
}

#[test]
#[ignore = "minutes of CPU: bench/mutants.sh runs the full search"]
fn leetcode909_mutants_are_killed_or_equivalent() {
    full("leetcode909", leetcode909_small, &["python", "cpp"]);
}

#[test]
#[ignore = "minutes of CPU: bench/mutants.sh runs the full search"]
fn min_throws_mutants_are_killed_or_equivalent() {
    full("min-throws", min_throws_small, &["python", "cpp"]);
}

#[test]
#[ignore = "minutes of CPU: bench/mutants.sh runs the full search"]
fn a48_mutants_are_killed_or_equivalent() {
    full("a48", a48_small, &["python"]);
}

#[test]
#[ignore = "minutes of CPU: bench/mutants.sh runs the full search"]
fn game_mutants_are_killed_or_equivalent() {
    full("game", game_small, &["python", "cpp"]);
}
