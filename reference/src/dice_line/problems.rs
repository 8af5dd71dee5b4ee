//! The validation-problem collector both assignments use: every problem
//! is reported, up to [`MAX_PROBLEMS`], then a count of the rest.

use std::fmt;

/// Validation stops listing problems after this many (a huge board of
/// garbage should give a readable message, not a megabyte).
pub const MAX_PROBLEMS: usize = 20;

/// Collects an assignment's validation problems, listing the first
/// [`MAX_PROBLEMS`] and counting the rest.
pub(crate) struct Problems<P> {
    listed: Vec<P>,
    unlisted: usize,
}

impl<P> Problems<P> {
    pub(crate) fn new() -> Problems<P> {
        Problems {
            listed: Vec::new(),
            unlisted: 0,
        }
    }

    pub(crate) fn push(&mut self, problem: P) {
        if self.listed.len() < MAX_PROBLEMS {
            self.listed.push(problem);
        } else {
            self.unlisted += 1;
        }
    }

    /// `Ok` when nothing was pushed; otherwise every listed problem, then
    /// `more(count)` for the unlisted ones if there are any.
    pub(crate) fn finish(mut self, more: impl FnOnce(usize) -> P) -> Result<(), Vec<P>> {
        if self.unlisted > 0 {
            self.listed.push(more(self.unlisted));
        }
        if self.listed.is_empty() {
            Ok(())
        } else {
            Err(self.listed)
        }
    }
}

/// The problems in one line, separated by `; `.
pub(crate) fn join_problems<P: fmt::Display>(problems: &[P]) -> String {
    problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_are_capped_and_counted() {
        let mut problems = Problems::new();
        assert_eq!(Problems::<usize>::new().finish(|_| 0), Ok(()));
        for p in 0..MAX_PROBLEMS + 5 {
            problems.push(p);
        }
        let listed = problems.finish(|more| 1000 + more).unwrap_err();
        assert_eq!(listed.len(), MAX_PROBLEMS + 1);
        assert_eq!(listed.last(), Some(&1005));
        assert_eq!(join_problems(&listed[..3]), "0; 1; 2");
    }
}
