//! Each function's points with the rule's deduction taken inside them, for
//! the formats whose consumers add up per-function marks and cannot take a
//! negative one: MarkUs (its marks spreadsheet blanks a negative grade; its
//! autotester drops a test with a negative mark, and its `extra_marks`
//! would add a deduction again on every re-run), PrairieLearn's tests, and
//! the `generic` CSV, whose function columns add up to its total. Pure.
//!
//! The deduction is what the functions earned minus the score (the score
//! is clamped at 0, so it can be less than the rubric's penalty). It is
//! spread evenly over the functions that break the rule, as the rubric
//! charges it (so much per offending function), never taking a function
//! below 0; what they cannot hold is spread evenly over the others. Work is
//! in hundredths of a point, so the folded points add up to the score
//! exactly; a leftover hundredth of the deduction goes to the first function
//! in the report's order. The functions' points are first rounded together,
//! so that they add up to their sum's hundredths (one may then read a
//! hundredth off its own rounding): rounded one by one they can miss it,
//! and the miss would read as a deduction, or go missing from the total.

use super::{Report, StudentReport};

/// Points as whole hundredths.
pub(crate) fn cents(points: f64) -> i64 {
    (points * 100.0).round() as i64
}

/// Hundredths of a point as a plain decimal: `15`, `15.6`, `15.63`, never
/// with a thousands separator (Canvas reads `1,234` as 1.234) or an
/// exponent.
pub(crate) fn cents_text(c: i64) -> String {
    let sign = if c < 0 { "-" } else { "" };
    let c = c.unsigned_abs();
    let text = format!("{sign}{}.{:02}", c / 100, c % 100);
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// Hundredths of a point as a JSON number's value.
pub(crate) fn cents_value(c: i64) -> f64 {
    c as f64 / 100.0
}

/// One function's points after the fold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Folded {
    /// The points it keeps, in hundredths.
    pub kept: i64,
    /// The points the rule's deduction took from it, in hundredths.
    pub taken: i64,
}

/// Each of the report's functions, in its order: `None` where the student
/// was not graded on it, else its points with the deduction folded in.
/// The `kept` values add up to the student's score.
pub(crate) fn folded(report: &Report, s: &StudentReport) -> Vec<Option<Folded>> {
    let points: Vec<Option<f64>> = report
        .functions
        .iter()
        .map(|f| s.functions.get(f).map(|x| x.points.max(0.0)))
        .collect();
    let mut kept = to_hundredths(&points);
    let before = kept.clone();
    let earned: i64 = kept.iter().flatten().sum();
    let mut excess = (earned - cents(s.score)).max(0);
    let offending = crate::grading::lint::offending_functions(&s.violations);
    let (first, rest): (Vec<usize>, Vec<usize>) = (0..report.functions.len())
        .partition(|&i| offending.contains(report.functions[i].as_str()));
    for group in [first, rest] {
        excess = spread(&mut kept, &group, excess);
    }
    kept.iter()
        .zip(&before)
        .map(|(k, b)| {
            k.zip(*b).map(|(k, b)| Folded {
                kept: k,
                taken: b - k,
            })
        })
        .collect()
}

/// Points in whole hundredths that add up to their sum's hundredths (the
/// largest remainders round up). Rounding each on its own can miss the sum
/// by a hundredth or more (16.576 and 24.456 round to 16.58 and 24.46,
/// 41.04, while they add up to 41.03): that hundredth would then read as a
/// deduction for a student who broke no rule, or go missing from the total.
fn to_hundredths(points: &[Option<f64>]) -> Vec<Option<i64>> {
    let total = cents(points.iter().flatten().sum());
    // A hair above the floor, so that 24.999999... counts as 2500.
    let mut cells: Vec<Option<i64>> = points
        .iter()
        .map(|p| p.map(|p| (p * 100.0 + 1e-6).floor() as i64))
        .collect();
    let fraction = |i: usize| points[i].map_or(0.0, |p| p * 100.0 - (p * 100.0 + 1e-6).floor());
    let mut order: Vec<usize> = (0..points.len()).filter(|&i| points[i].is_some()).collect();
    // Largest remainder first; among equals, the report's order.
    order.sort_by(|&a, &b| fraction(b).total_cmp(&fraction(a)).then(a.cmp(&b)));
    let mut short = total - cells.iter().flatten().sum::<i64>();
    for &i in order.iter().cycle().take(order.len() * 2) {
        match (short, cells[i].as_mut()) {
            (0, _) | (_, None) => {}
            (s, Some(c)) if s > 0 => {
                *c += 1;
                short -= 1;
            }
            (_, Some(c)) if *c > 0 => {
                *c -= 1;
                short += 1;
            }
            _ => {}
        }
    }
    cells
}

/// Takes `excess` hundredths from the cells at `indices`, evenly, none
/// below 0; returns what they could not hold.
fn spread(cells: &mut [Option<i64>], indices: &[usize], mut excess: i64) -> i64 {
    while excess > 0 {
        let open: Vec<usize> = indices
            .iter()
            .copied()
            .filter(|&i| cells[i].is_some_and(|c| c > 0))
            .collect();
        if open.is_empty() {
            break;
        }
        let count = open.len() as i64;
        let (share, mut odd) = (excess / count, excess % count);
        for i in open {
            let Some(c) = cells[i].as_mut() else { continue };
            let want = share + i64::from(odd > 0);
            odd -= i64::from(odd > 0);
            let taken = want.min(*c);
            *c -= taken;
            excess -= taken;
        }
    }
    excess
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grading::FunctionScore;
    use crate::grading::lint::Violation;

    fn report(points: &[(&str, f64)], score: f64, offending: &[&str]) -> (Report, StudentReport) {
        let mut report =
            crate::report::whole_file::tests::one_student(&crate::verdict::Verdict::pass());
        report.functions = points.iter().map(|(f, _)| (*f).to_owned()).collect();
        let mut s = report.students[0].clone();
        s.functions = points
            .iter()
            .map(|(f, p)| {
                (
                    (*f).to_owned(),
                    FunctionScore {
                        passed: 1,
                        total: 1,
                        points: *p,
                        max_points: 25.0,
                        smallest_failure: None,
                        counterexample: None,
                        hint: None,
                        notes: vec![],
                    },
                )
            })
            .collect();
        s.score = score;
        s.violations = offending
            .iter()
            .map(|f| Violation {
                function: (*f).to_owned(),
                line: 1,
                column: 1,
                construct: "`set()` call".into(),
                source: "set()".into(),
                path: vec![(*f).to_owned()],
                graded: vec![(*f).to_owned()],
            })
            .collect();
        (report, s)
    }

    fn kept(report: &Report, s: &StudentReport) -> Vec<i64> {
        folded(report, s)
            .into_iter()
            .map(|f| f.unwrap().kept)
            .collect()
    }

    #[test]
    fn the_deduction_is_spread_over_the_offending_functions() {
        // Three functions break the rule: 5 points each, not 15 from one.
        let (r, s) = report(
            &[("a", 25.0), ("b", 25.0), ("c", 25.0), ("d", 25.0)],
            85.0,
            &["b", "c", "d"],
        );
        assert_eq!(kept(&r, &s), [2500, 2000, 2000, 2000]);
        // One cannot hold its share: the other offender takes the rest first.
        let (r, s) = report(&[("a", 25.0), ("b", 2.0), ("c", 25.0)], 37.0, &["b", "c"]);
        assert_eq!(kept(&r, &s), [2500, 0, 1200]);
        // The offenders cannot hold it all (the score was clamped at 0).
        let (r, s) = report(&[("a", 10.0), ("b", 3.0)], 0.0, &["b"]);
        assert_eq!(kept(&r, &s), [0, 0]);
        // Uneven hundredths: the first function takes the odd one.
        let (r, s) = report(&[("a", 10.0), ("b", 10.0), ("c", 10.0)], 29.99, &["a", "b"]);
        assert_eq!(kept(&r, &s), [999, 1000, 1000]);
        let (r, s) = report(&[("a", 15.22), ("b", 10.0)], 20.22, &["a", "b"]);
        let f = folded(&r, &s);
        assert_eq!(
            f[0],
            Some(Folded {
                kept: 1272,
                taken: 250
            })
        );
        assert_eq!(
            f[1],
            Some(Folded {
                kept: 750,
                taken: 250
            })
        );
    }

    #[test]
    fn folded_points_add_up_to_the_score_and_none_is_negative() {
        for score in [0.0, 0.01, 12.34, 49.99, 60.0, 75.0] {
            for offending in [&[][..], &["a"][..], &["a", "c"][..]] {
                let (r, s) = report(&[("a", 25.0), ("b", 17.5), ("c", 33.33)], score, offending);
                let k = kept(&r, &s);
                assert_eq!(k.iter().sum::<i64>(), cents(score), "{score} {offending:?}");
                assert!(k.iter().all(|c| *c >= 0));
            }
        }
    }

    #[test]
    fn rounding_alone_is_never_read_as_a_deduction() {
        // 61/92 and 90/92 of 25 points: each rounds up, the sum does not.
        let (a, b) = (25.0 * 61.0 / 92.0, 25.0 * 90.0 / 92.0);
        let (r, s) = report(&[("a", a), ("b", b), ("c", 25.0)], a + b + 25.0, &[]);
        let f = folded(&r, &s);
        assert!(f.iter().flatten().all(|f| f.taken == 0), "{f:?}");
        let k = kept(&r, &s);
        assert_eq!(k.iter().sum::<i64>(), cents(a + b + 25.0));
        assert_eq!(k, [1657, 2446, 2500]);
        // Each rounds down, the sum up: the hundredth is not lost.
        let (a, b) = (10.004, 10.004);
        let (r, s) = report(&[("a", a), ("b", b)], a + b, &[]);
        assert_eq!(kept(&r, &s).iter().sum::<i64>(), 2001);
        // With a deduction, only the deduction is taken.
        let (a, b) = (25.0 * 61.0 / 92.0, 25.0 * 90.0 / 92.0);
        let (r, s) = report(&[("a", a), ("b", b)], a + b - 5.0, &["a", "b"]);
        let taken: i64 = folded(&r, &s).iter().flatten().map(|f| f.taken).sum();
        assert_eq!(taken, 500);
    }

    #[test]
    fn cents_print_as_plain_decimals() {
        assert_eq!(cents_text(1563), "15.63");
        assert_eq!(cents_text(1520), "15.2");
        assert_eq!(cents_text(2500), "25");
        assert_eq!(cents_text(0), "0");
        assert_eq!(cents_text(7), "0.07");
        assert_eq!(cents_text(123_456), "1234.56");
        assert_eq!(cents_text(-1500), "-15");
    }
}
