//! `cargo bench -p salgrade-reference`: the reference's answer time on the
//! largest boards, for the figures in docs/performance.md. Plain timing
//! (median of a few runs); no timing assertions live in the tests.

use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use salgrade_reference::a48::{self, board::Board};

fn big_board(n: u64, k: usize, seed: u64) -> Board {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut squares: Vec<u64> = (1..n).collect();
    squares.shuffle(&mut rng);
    let pairs: Vec<(u64, u64)> = squares
        .chunks_exact(2)
        .take(k)
        .map(|p| (p[0], p[1]))
        .collect();
    let _ = rng.random_range(0..1u8);
    Board::new(n, &pairs).expect("distinct squares make a valid board")
}

fn median(mut runs: Vec<Duration>) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}

fn time<T>(label: &str, repeat: usize, mut f: impl FnMut() -> T) {
    let runs: Vec<Duration> = (0..repeat)
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(f());
            start.elapsed()
        })
        .collect();
    println!(
        "{label:<62} median {:>9.2} ms over {repeat} runs",
        median(runs).as_secs_f64() * 1e3
    );
}

fn main() {
    let n = 10_000_000;
    let start = Instant::now();
    let board = big_board(n, 1_000_000, 1);
    println!(
        "built a {n}-square board with 1,000,000 snadders in {:.0} ms",
        start.elapsed().as_secs_f64() * 1e3
    );
    for step in [1u64, 6, 7_654_321, n, 3 * n + 1] {
        let answer = a48::finish_time(&board, step);
        time(
            &format!("finish_time, 10M squares, 1M snadders, step {step} ({answer:?})"),
            5,
            || a48::finish_time(&board, step),
        );
    }
    let empty = Board::empty(n as u32);
    time(
        "finish_time, 10M squares, no snadders, step 3 (worst case: n moves)",
        5,
        || a48::finish_time(&empty, 3),
    );
    time(
        "whowins, 10M squares, 1M snadders, steps 6 and 7",
        5,
        || a48::whowins(&board, 6, 7, a48::Reading::Counts),
    );
    time("dualboard, 10M squares, 1M snadders", 5, || {
        a48::dualboard(&board)
    });
}
