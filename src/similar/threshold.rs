//! The score above which a pair is flagged, chosen from the cohort's own
//! scores: a robust outlier rule on each student's best score against
//! another student (Iglewicz and Hoaglin's modified z-score: the median
//! plus [`Z`] scaled median absolute deviations), kept within
//! [[`FLOOR`], [`CEILING`]]. Independent students' best scores cluster;
//! copies stand out above them. Median and MAD are not moved by a few
//! copies, as a mean and standard deviation would be.
//!
//! A cohort of fewer than [`MIN_STUDENTS`] students has no distribution to
//! speak of: the threshold is then [`SMALL_COHORT`].

/// The modified z-score above which a best score is an outlier.
pub(crate) const Z: f64 = 3.5;
/// 1.4826 × MAD estimates the standard deviation of normal data.
const MAD_TO_SD: f64 = 1.4826;
/// No threshold below this: a pair sharing less than this is never flagged.
pub(crate) const FLOOR: f64 = 0.45;
/// No threshold above this: near-identical files are always flagged.
pub(crate) const CEILING: f64 = 0.9;
/// Cohorts smaller than this use [`SMALL_COHORT`].
pub(crate) const MIN_STUDENTS: usize = 8;
/// The threshold of a small cohort.
pub(crate) const SMALL_COHORT: f64 = 0.6;

/// The threshold and how it was chosen, in words for the reports.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub(crate) struct Threshold {
    pub value: f64,
    pub how: String,
}

fn median(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n == 0 {
        return 0.0;
    }
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    }
}

/// The threshold for a cohort whose students' best scores against another
/// student are `best` (0 for a student who shares nothing rare).
pub(crate) fn from_cohort(best: &[f64]) -> Threshold {
    if best.len() < MIN_STUDENTS {
        return Threshold {
            value: SMALL_COHORT,
            how: format!(
                "{SMALL_COHORT:.2}, the default for fewer than {MIN_STUDENTS} students ({} here): too few scores to learn from",
                best.len()
            ),
        };
    }
    let mut sorted: Vec<f64> = best.iter().copied().filter(|x| x.is_finite()).collect();
    sorted.sort_by(f64::total_cmp);
    let m = median(&sorted);
    let mut dev: Vec<f64> = sorted.iter().map(|x| (x - m).abs()).collect();
    dev.sort_by(f64::total_cmp);
    let mad = median(&dev);
    let raw = m + Z * MAD_TO_SD * mad;
    let value = raw.clamp(FLOOR, CEILING);
    let clamp_note = if raw < FLOOR {
        format!(", raised to the floor {FLOOR:.2}")
    } else if raw > CEILING {
        format!(", lowered to the ceiling {CEILING:.2}")
    } else {
        String::new()
    };
    Threshold {
        value,
        how: format!(
            "{value:.2}: each student's best score against another student has median {m:.2} and median absolute deviation {mad:.3} over {} students; a pair is flagged when its score is above the median by {Z} scaled deviations (the modified z-score rule){clamp_note}",
            sorted.len()
        ),
    }
}

/// A threshold the instructor gave.
pub(crate) fn given(value: f64) -> Threshold {
    Threshold {
        value,
        how: format!("{value:.2}, given with `--threshold`"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_stand_out_of_the_cohort() {
        let mut best: Vec<f64> = (0..40).map(|i| 0.2 + f64::from(i % 10) * 0.01).collect();
        best.extend([0.95, 0.95, 0.8, 0.8]);
        let t = from_cohort(&best);
        assert!(t.value > 0.3 && t.value < 0.8, "{t:?}");
        assert!(t.how.contains("median"), "{}", t.how);
    }

    #[test]
    fn small_cohorts_use_the_default_and_the_value_stays_in_bounds() {
        assert_eq!(from_cohort(&[0.1, 0.9]).value, SMALL_COHORT);
        let flat = vec![0.0; 30];
        assert_eq!(from_cohort(&flat).value, FLOOR);
        let high = vec![0.99; 30];
        assert_eq!(from_cohort(&high).value, CEILING);
    }
}
