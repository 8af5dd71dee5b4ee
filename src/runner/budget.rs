//! A submission's total budget, and the opaque names its requests carry.
//!
//! A case is bounded by its deadline, but a submission that answers one
//! call and then dies (or loops), with a slow import, makes salgrade start
//! a new process for nearly every case: its cases cost far more than their
//! deadlines. The budget bounds what one submission can cost in all: the
//! CPU time of every process it ran (imports and restarts included), and
//! the wall time since its first case. Once either is spent, each case
//! left gets one verdict without a run.

use std::hash::BuildHasher;
use std::time::{Duration, Instant};

use super::session::Session;
use crate::outcome::RawOutcome;

/// The most one submission may use in all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StudentBudget {
    /// CPU time of all its processes (imports, calls, restarts, children).
    pub cpu: Duration,
    /// Wall time from its first case to its last.
    pub wall: Duration,
}

impl StudentBudget {
    /// The default budget: far beyond what an honest submission needs
    /// (one that times out on every case of the largest case set uses
    /// under a tenth of it), and still a bound.
    pub(crate) const DEFAULT: StudentBudget = StudentBudget {
        cpu: Duration::from_secs(60),
        wall: Duration::from_secs(300),
    };

    /// No bound: the model and naive solutions calibrate under it.
    pub(crate) const UNLIMITED: StudentBudget = StudentBudget {
        cpu: Duration::MAX,
        wall: Duration::MAX,
    };
}

/// What a submission's processes have used so far.
#[derive(Debug)]
pub(crate) struct Spending {
    budget: StudentBudget,
    /// The CPU time of its sessions that have ended.
    cpu: Duration,
    /// When its first case was put.
    since: Option<Instant>,
}

impl Spending {
    pub(crate) fn new(budget: StudentBudget) -> Spending {
        Spending {
            budget,
            cpu: Duration::ZERO,
            since: None,
        }
    }

    /// Adds what an ended session used.
    pub(crate) fn charge(&mut self, session: &Session) {
        self.cpu = self.cpu.saturating_add(session.cpu_used());
    }

    /// `None` while the budget lasts (and the wall clock starts at the
    /// first call); once it is spent, the outcome every case left gets.
    /// `running`: the CPU time of the session that runs now.
    pub(crate) fn spent(&mut self, running: Duration) -> Option<RawOutcome> {
        let since = *self.since.get_or_insert_with(Instant::now);
        let cpu = self.cpu.saturating_add(running);
        let wall = since.elapsed();
        let over_cpu = cpu >= self.budget.cpu;
        (over_cpu || wall >= self.budget.wall).then(|| RawOutcome::OverBudget {
            cpu: over_cpu,
            limit_ms: if over_cpu {
                self.budget.cpu.as_millis() as u64
            } else {
                self.budget.wall.as_millis() as u64
            },
        })
    }
}

/// Makes the names requests carry: random, so that a name says nothing of
/// the case (its kind, its place, its expected answer) to the student's
/// process, which can read it.
pub(crate) struct Tokens {
    keys: std::collections::hash_map::RandomState,
    count: u64,
}

impl Tokens {
    pub(crate) fn new() -> Tokens {
        Tokens {
            keys: std::collections::hash_map::RandomState::new(),
            count: 0,
        }
    }

    pub(crate) fn next(&mut self) -> String {
        self.count += 1;
        // SipHash under keys drawn from the system's randomness: without
        // the keys, one name says nothing of the next.
        format!("{:016x}", self.keys.hash_one(self.count))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_opaque() {
        let mut tokens = Tokens::new();
        let names: std::collections::BTreeSet<String> = (0..1000).map(|_| tokens.next()).collect();
        assert_eq!(names.len(), 1000);
        assert!(names.iter().all(|n| n.len() == 16));
        // Two runners' names for their first request differ.
        assert_ne!(Tokens::new().next(), Tokens::new().next());
    }

    #[test]
    fn a_budget_is_spent_by_cpu_or_by_wall() {
        let mut s = Spending::new(StudentBudget {
            cpu: Duration::from_secs(1),
            wall: Duration::from_secs(3600),
        });
        assert!(s.spent(Duration::from_millis(999)).is_none());
        assert!(matches!(
            s.spent(Duration::from_secs(1)),
            Some(RawOutcome::OverBudget {
                cpu: true,
                limit_ms: 1000
            })
        ));
        let mut s = Spending::new(StudentBudget {
            cpu: Duration::from_secs(3600),
            wall: Duration::ZERO,
        });
        assert!(matches!(
            s.spent(Duration::ZERO),
            Some(RawOutcome::OverBudget { cpu: false, .. })
        ));
        assert!(
            Spending::new(StudentBudget::UNLIMITED)
                .spent(Duration::from_secs(1 << 40))
                .is_none()
        );
    }
}
