//! Common mistakes: a cohort's failures grouped by the counterexample each
//! student was shown and the answer they gave. Pure: the re-runs that make
//! the grouping robust are asked for here ([`cross_checks`]) and run by the
//! caller (the engine), whose answers come back to [`merge`].
//!
//! How groups are formed:
//! 1. Each failing function of each student gives one failure: the shrunk
//!    counterexample when there is one, else the smallest failing case. A
//!    file that did not import or build gives one failure for the whole
//!    file, not one per function.
//! 2. Failures with the same function, verdict class, input and answer
//!    given form a group ([`initial`]).
//! 3. Shrinking can land two students with the same bug on different but
//!    equally small boards. So, within a function and verdict class, each
//!    group's board is put to every member of the other groups on another
//!    board (groups on one board differ in the answer given there); two groups
//!    merge when each one's members fail the other's board exactly as the
//!    other's members do (same verdict class and same answer). Merging is
//!    transitive. A student is asked at most [`MAX_BOARDS_PER_STUDENT`]
//!    boards, the largest groups' first; groups beyond stay apart.
//! 4. Groups are ordered by size, the largest first.
//!
//! A re-run that could not be made (a harness failure) counts as a
//! different answer: it can only keep groups apart, never merge them.

use std::collections::BTreeMap;

use crate::grading::FunctionScore;
pub(crate) use crate::report::mistake::Cluster;
use crate::report::mistake::{Key, fails_whole_file, one_line, ordered, whole_file_cause};
use crate::report::{Report, StudentReport};
use crate::verdict::{Verdict, VerdictKind};

/// How many other groups' boards one student is asked to run at most.
pub(crate) const MAX_BOARDS_PER_STUDENT: usize = 24;

/// What stands for a failing function's board: its shown counterexample,
/// else its smallest failing case, with the verdict, the board in words,
/// the case when known, the grouping board, the explanation and the case
/// it came from.
type Shown<'s> = (
    &'s Verdict,
    String,
    Option<salgrade_reference::Case>,
    String,
    Option<String>,
    Option<String>,
);

fn shown(score: &FunctionScore) -> Option<Shown<'_>> {
    match (&score.counterexample, &score.smallest_failure) {
        (Some(c), _) => Some((
            &c.verdict,
            c.input.clone(),
            Some(c.case.clone()),
            serde_json::to_string(&c.case.input).unwrap_or_default(),
            c.explanation
                .iter()
                .rev()
                .map(|l| l.trim())
                .find(|l| !l.is_empty())
                .map(str::to_owned),
            Some(c.from_case.clone()),
        )),
        // Without a counterexample (shrinking off or not possible), the
        // smallest failing case stands for the board; its case is filled
        // in from the case file where one is at hand (`mistakes::find`).
        (None, Some(f)) => Some((
            &f.verdict,
            f.input.clone(),
            None,
            f.case_id.clone(),
            None,
            Some(f.case_id.clone()),
        )),
        (None, None) => None,
    }
}

/// One student's failures, one per failing function (one for the whole
/// file when it did not import or build), each with its grouping key.
pub(crate) fn failures_of(s: &StudentReport) -> Vec<(Key, Cluster)> {
    let mut out: Vec<(Key, Cluster)> = Vec::new();
    for (function, score) in &s.functions {
        if score.passed >= score.total {
            continue;
        }
        let Some((verdict, input, case, board, explanation, from_case)) = shown(score) else {
            continue;
        };
        let input_words = input.clone();
        let whole_file = fails_whole_file(verdict.kind);
        let function = if whole_file {
            String::new()
        } else {
            function.clone()
        };
        if whole_file && out.iter().any(|(k, _)| k.0.is_empty()) {
            continue;
        }
        let key: Key = (
            function.clone(),
            verdict.kind,
            // A whole file's failures differ by their cause (a
            // `SyntaxError`, an empty file), not by any board.
            if whole_file {
                whole_file_cause(verdict.detail.as_deref())
            } else if verdict.kind == VerdictKind::Timeout {
                // A timeout gives no answer to compare, and its shrunk board
                // sits at the edge of its deadline, so two runs of one bug
                // can stop on different boards (and a re-run on the other's
                // board can go either way): one function's timeouts are one
                // mistake.
                String::new()
            } else {
                board
            },
            verdict.got.clone(),
        );
        out.push((
            key,
            Cluster {
                function,
                verdict: verdict.kind,
                students: vec![s.student.clone()],
                input: if whole_file { String::new() } else { input },
                case: case.filter(|_| !whole_file),
                expected: verdict.expected.clone(),
                got: verdict.got.clone(),
                detail: verdict.detail.clone(),
                explanation: explanation.filter(|_| !whole_file),
                hint: score.hint.clone(),
                from_case: from_case.filter(|_| !whole_file),
                merged: 1,
                boards: if verdict.kind == VerdictKind::Timeout {
                    BTreeMap::from([(s.student.clone(), input_words.clone())])
                } else {
                    BTreeMap::new()
                },
                timing_dependent: score
                    .counterexample
                    .as_ref()
                    .is_some_and(|c| c.timing_dependent),
            },
        ));
    }
    out
}

/// Step 2: failures with the same key, grouped, largest first.
pub(crate) fn initial(report: &Report) -> Vec<Cluster> {
    let mut groups: BTreeMap<Key, Cluster> = BTreeMap::new();
    for s in &report.students {
        for (key, failure) in failures_of(s) {
            groups
                .entry(key)
                .and_modify(|g| {
                    join(g, &s.student, &failure);
                    g.timing_dependent |= failure.timing_dependent;
                })
                .or_insert(failure);
        }
    }
    ordered(groups.into_values().collect())
}

/// Adds `student`, whose failure is `theirs`, to the group `g` of the same
/// key. Timeouts keep each member's own board; when the members' hints
/// differ (one loops on the smallest board, another returns on small boards
/// and not on large ones), the group's hint says both.
fn join(g: &mut Cluster, student: &str, theirs: &Cluster) {
    g.students.push(student.to_owned());
    g.boards.extend(theirs.boards.clone());
    if g.verdict == VerdictKind::Timeout && g.hint != theirs.hint {
        g.hint = Some(TIMEOUTS_OF_BOTH_KINDS.to_owned());
    }
}

/// The hint of a group of timeouts whose members differ in kind.
const TIMEOUTS_OF_BOTH_KINDS: &str = "each member's code did not return in time on the board shown for them: on the smallest boards that is a loop that never ends; where the code returns on smaller boards, it loops, or is too slow for boards of that size";

/// The boards one student is asked to run for step 3: indexes into the
/// groups, each group's board once.
pub(crate) type Asks = BTreeMap<String, Vec<usize>>;

/// Pairs of groups that may share a mistake: same function and verdict
/// class, each with a board, the boards different. (Two groups on one
/// board differ in the answer given there, which is why they are two: no
/// re-run can show them alike.)
fn candidate_pairs(groups: &[Cluster]) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    for i in 0..groups.len() {
        for j in i + 1..groups.len() {
            let (a, b) = (&groups[i], &groups[j]);
            let (Some(x), Some(y)) = (&a.case, &b.case) else {
                continue;
            };
            if a.function == b.function
                && a.verdict == b.verdict
                && !a.function.is_empty()
                && x.input != y.input
            {
                pairs.push((i, j));
            }
        }
    }
    pairs
}

/// Step 3's questions: for each student, the other groups' boards to run
/// (the groups are in [`initial`]'s order, so the largest come first).
pub(crate) fn cross_checks(groups: &[Cluster]) -> Asks {
    let mut asks: Asks = BTreeMap::new();
    for (i, j) in candidate_pairs(groups) {
        for (mine, theirs) in [(i, j), (j, i)] {
            for s in &groups[mine].students {
                let list = asks.entry(s.clone()).or_default();
                if !list.contains(&theirs) && list.len() < MAX_BOARDS_PER_STUDENT {
                    list.push(theirs);
                }
            }
        }
    }
    asks
}

/// The verdicts of step 3: per student, one per asked board, in order;
/// `None` where the run could not be made.
pub(crate) type Answers = BTreeMap<String, Vec<Option<Verdict>>>;

/// Step 3's merge and step 4's order. `answers` answers `asks`.
pub(crate) fn merge(groups: Vec<Cluster>, asks: &Asks, answers: &Answers) -> Vec<Cluster> {
    // Whether every member of `mine` fails `theirs`'s board as `theirs`'s
    // members do.
    let fails_like = |mine: usize, theirs: usize| {
        groups[mine].students.iter().all(|s| {
            let (Some(asked), Some(got)) = (asks.get(s), answers.get(s)) else {
                return false;
            };
            asked
                .iter()
                .position(|&g| g == theirs)
                .and_then(|at| got.get(at))
                .and_then(Option::as_ref)
                .is_some_and(|v| groups[theirs].same_answer(v))
        })
    };
    let mut parent: Vec<usize> = (0..groups.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for (i, j) in candidate_pairs(&groups) {
        if fails_like(i, j) && fails_like(j, i) {
            let (a, b) = (root(&mut parent, i), root(&mut parent, j));
            // The earlier (larger) group stays the representative.
            let (keep, join) = (a.min(b), a.max(b));
            parent[join] = keep;
        }
    }
    let mut merged: BTreeMap<usize, Cluster> = BTreeMap::new();
    let mut joined: Vec<(usize, Cluster)> = Vec::new();
    for (i, g) in groups.into_iter().enumerate() {
        let r = root(&mut parent, i);
        if r == i {
            merged.insert(i, g);
        } else {
            joined.push((r, g));
        }
    }
    for (r, g) in joined {
        if let Some(keep) = merged.get_mut(&r) {
            keep.students.extend(g.students);
            keep.merged += g.merged;
            keep.boards.extend(g.boards);
            keep.timing_dependent |= g.timing_dependent;
        }
    }
    ordered(merged.into_values().collect())
}

/// What a run has graded so far, for the progress bar: students with full
/// marks, partial and zero, and the most common mistake (grouped by step 2's
/// key only: re-runs wait for the end).
#[derive(Debug, Default)]
pub(crate) struct SoFar {
    full: usize,
    partial: usize,
    zero: usize,
    groups: BTreeMap<Key, (usize, Cluster)>,
}

impl SoFar {
    pub(crate) fn add(&mut self, s: &StudentReport) {
        if s.full_marks() {
            self.full += 1;
        } else if s.score <= 0.0 {
            self.zero += 1;
        } else {
            self.partial += 1;
        }
        for (key, failure) in failures_of(s) {
            self.groups.entry(key).or_insert((0, failure)).0 += 1;
        }
    }

    /// `full 3, partial 5, zero 1; most common: 3 students: …` (the most
    /// common once two students share it).
    pub(crate) fn summary(&self) -> String {
        let mut out = format!(
            "full {}, partial {}, zero {}",
            self.full, self.partial, self.zero
        );
        // The largest group, the first by key among equals, so the line
        // does not flicker between ties.
        let top = self
            .groups
            .values()
            .fold(None::<&(usize, Cluster)>, |best, g| match best {
                Some(b) if b.0 >= g.0 => Some(b),
                _ => Some(g),
            });
        // A mistake of one student is not yet common.
        if let Some((n, c)) = top.filter(|(n, _)| *n >= 2) {
            let mut shown = c.clone();
            shown.students = vec![String::new(); *n];
            out.push_str(&format!("; most common: {}", one_line(&shown.line(), 100)));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use salgrade_reference::Case;

    use crate::report::mistake::combine;

    fn group(function: &str, got: &str, board: u64, students: &[&str]) -> Cluster {
        Cluster {
            function: function.into(),
            verdict: VerdictKind::WrongAnswer,
            students: students.iter().map(|s| (*s).to_owned()).collect(),
            input: format!("board {board}"),
            case: Some(Case {
                id: format!("{function}/{board}~shrunk"),
                function: function.into(),
                label: String::new(),
                input: serde_json::json!({ "board": board }),
                expected: serde_json::json!(1),
            }),
            expected: Some("1".into()),
            got: Some(got.into()),
            detail: None,
            explanation: Some("ties go to player 1.".into()),
            hint: None,
            from_case: Some(format!("{function}/r1")),
            merged: 1,
            boards: BTreeMap::new(),
            timing_dependent: false,
        }
    }

    fn wrong(got: &str) -> Option<Verdict> {
        Some(Verdict::wrong(VerdictKind::WrongAnswer, "1", got))
    }

    #[test]
    fn groups_that_fail_each_others_boards_alike_merge() {
        let groups = vec![
            group("whowins", "2", 3, &["a", "b"]),
            group("whowins", "2", 4, &["c"]),
            group("whowins", "2", 5, &["d"]),
            group("willfinish", "2", 3, &["e"]),
        ];
        let asks = cross_checks(&groups);
        // Nobody is asked another function's board.
        assert!(!asks.contains_key("e"));
        assert_eq!(asks["a"], vec![1, 2]);
        assert_eq!(asks["c"], vec![0, 2]);
        let mut answers = Answers::new();
        // a, b and c fail each other's boards with 2; d passes group 0's
        // board and answers 3 on group 1's.
        for s in ["a", "b"] {
            answers.insert(s.into(), vec![wrong("2"), wrong("2")]);
        }
        answers.insert("c".into(), vec![wrong("2"), wrong("2")]);
        answers.insert("d".into(), vec![Some(Verdict::pass()), wrong("3")]);
        let merged = merge(groups, &asks, &answers);
        let sizes: Vec<(usize, &str)> = merged
            .iter()
            .map(|g| (g.students.len(), g.input.as_str()))
            .collect();
        assert_eq!(sizes, vec![(3, "board 3"), (1, "board 5"), (1, "board 3")]);
        assert_eq!(merged[0].merged, 2);
        assert_eq!(merged[0].students, vec!["a", "b", "c"]);
    }

    #[test]
    fn groups_on_one_board_are_not_put_to_each_other() {
        let groups = vec![
            group("whowins", "2", 3, &["a"]),
            group("whowins", "0", 3, &["b"]),
        ];
        assert!(cross_checks(&groups).is_empty());
        assert_eq!(merge(groups, &Asks::new(), &Answers::new()).len(), 2);
    }

    #[test]
    fn a_missing_or_different_answer_keeps_groups_apart() {
        let groups = vec![
            group("whowins", "2", 3, &["a"]),
            group("whowins", "2", 4, &["b"]),
        ];
        let asks = cross_checks(&groups);
        let mut answers = Answers::new();
        answers.insert("a".into(), vec![wrong("3")]);
        answers.insert("b".into(), vec![None]);
        assert_eq!(merge(groups.clone(), &asks, &answers).len(), 2);
        assert_eq!(merge(groups, &asks, &Answers::new()).len(), 2);
    }

    #[test]
    fn so_far_counts_full_partial_zero_and_the_largest_group() {
        use crate::grading::{Failure, FunctionScore};
        let student = |name: &str, score: f64, got: Option<&str>| {
            let mut functions = BTreeMap::new();
            functions.insert(
                "whowins".to_owned(),
                FunctionScore {
                    passed: u32::from(got.is_none()),
                    total: 1,
                    points: score,
                    max_points: 1.0,
                    smallest_failure: got.map(|g| Failure {
                        case_id: "whowins/r1".into(),
                        label: String::new(),
                        input: "board 3".into(),
                        verdict: Verdict::wrong(VerdictKind::WrongAnswer, "1", g),
                    }),
                    counterexample: None,
                    hint: None,
                    notes: vec![],
                },
            );
            StudentReport {
                score,
                functions,
                ..StudentReport::named(name)
            }
        };
        let mut so_far = SoFar::default();
        assert_eq!(so_far.summary(), "full 0, partial 0, zero 0");
        so_far.add(&student("a", 1.0, None));
        so_far.add(&student("b", 0.0, Some("3")));
        so_far.add(&student("c", 0.0, Some("2")));
        assert_eq!(so_far.summary(), "full 1, partial 0, zero 2");
        so_far.add(&student("d", 0.5, Some("2")));
        assert_eq!(
            so_far.summary(),
            "full 1, partial 1, zero 2; most common: 2 students: `whowins` answers 2 on board 3, expected 1"
        );
    }

    #[test]
    fn timeouts_are_one_group_showing_each_members_own_board_and_hint() {
        use crate::grading::{Failure, FunctionScore};
        let timing_out = |name: &str, board: &str, hint: &str| {
            let mut functions = BTreeMap::new();
            functions.insert(
                "whowins".to_owned(),
                FunctionScore {
                    passed: 0,
                    total: 1,
                    points: 0.0,
                    max_points: 1.0,
                    smallest_failure: Some(Failure {
                        case_id: format!("whowins/{board}"),
                        label: String::new(),
                        input: board.into(),
                        verdict: Verdict::new(VerdictKind::Timeout),
                    }),
                    counterexample: None,
                    hint: Some(hint.into()),
                    notes: vec![],
                },
            );
            StudentReport {
                functions,
                ..StudentReport::named(name)
            }
        };
        let looping = VerdictKind::Timeout.hint();
        let slow = crate::grading::timeout_hint(4000);
        let report = Report {
            students: vec![
                timing_out("ann", "board: 3 squares", looping),
                timing_out("bob", "board: 4000 squares", &slow),
            ],
            ..crate::report::whole_file::tests::one_student(&Verdict::pass())
        };
        let groups = initial(&report);
        assert_eq!(groups.len(), 1);
        let g = &groups[0];
        assert_eq!(g.boards["ann"], "board: 3 squares");
        assert_eq!(g.boards["bob"], "board: 4000 squares");
        assert_eq!(g.hint.as_deref(), Some(TIMEOUTS_OF_BOTH_KINDS));
        let line = g.line();
        assert!(
            line.contains(
                "each on their own smallest board (ann: board: 3 squares; bob: board: 4000 squares)"
            ),
            "{line}"
        );
        // Alone, a member keeps the board it was shown and its own hint.
        let one = Report {
            students: vec![timing_out("bob", "board: 4000 squares", &slow)],
            ..report
        };
        let g = &initial(&one)[0];
        assert_eq!(g.hint.as_deref(), Some(slow.as_str()));
        assert!(g.line().contains("on board: 4000 squares"), "{}", g.line());
    }

    #[test]
    fn shards_groups_join_on_function_verdict_board_and_answer() {
        let mine = vec![
            group("whowins", "2", 3, &["a"]),
            group("whowins", "2", 4, &["b"]),
        ];
        let theirs = vec![
            group("whowins", "2", 3, &["c", "d"]),
            group("whowins", "0", 3, &["e"]),
        ];
        let combined = combine(mine, theirs);
        let seen: Vec<(Vec<&str>, Option<&str>)> = combined
            .iter()
            .map(|g| {
                (
                    g.students.iter().map(String::as_str).collect(),
                    g.got.as_deref(),
                )
            })
            .collect();
        assert_eq!(
            seen,
            vec![
                (vec!["a", "c", "d"], Some("2")),
                (vec!["e"], Some("0")),
                (vec!["b"], Some("2")),
            ]
        );
        // Joined by key, not merged by re-runs: no "merged" note.
        assert_eq!(combined[0].merged, 1);
    }

    #[test]
    fn the_line_names_size_function_answer_board_and_reason() {
        let g = group("whowins", "2", 3, &["a", "b", "c"]);
        assert_eq!(
            g.line(),
            "3 students: `whowins` answers 2 on board 3, expected 1 (ties go to player 1)"
        );
    }
}
