//! Common mistakes (`grading::clusters`): on each assignment's sample
//! cohort, with a second copy of every student who has a planted bug, each
//! bug is one group per function it breaks, holding both copies and no one
//! else; and `salgrade clusters` lists them.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::Value;

use crate::{fixtures, salgrade, stderr_of, stdout_of};

/// The suffix of the second copy of a student.
const TWIN: &str = "_twin";

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// The cohort in `dir` with a twin of each student not named `correct…`.
fn with_twins(dir: &Path, into: &Path) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        copy_tree(&entry.path(), &into.join(&name));
        if !name.starts_with("correct") {
            copy_tree(&entry.path(), &into.join(format!("{name}{TWIN}")));
        }
    }
}

/// A cohort graded with twins: the report, the table, the HTML page.
pub(crate) struct Graded {
    pub report: Value,
    pub table: String,
    pub html: PathBuf,
    pub root: tempfile::TempDir,
}

/// Grades `cohort` (with twins) as `assignment`, writing the HTML page too.
fn grade_twins(assignment: &str, cohort: PathBuf) -> Graded {
    let root = tempfile::tempdir().unwrap();
    let subs = root.path().join("subs");
    with_twins(&cohort, &subs);
    let out = root.path().join("out");
    let html = root.path().join("report.html");
    let run = salgrade()
        .args(["grade", "-a", assignment, "--cases", "3", "--out-dir"])
        .arg(&out)
        .args(["--format", "html", "-o"])
        .arg(&html)
        .arg(&subs)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", stderr_of(&run));
    // The table of the same run, from its report.
    let table = salgrade()
        .args(["merge", "--format", "table"])
        .arg(out.join("report.json"))
        .output()
        .unwrap();
    let report = serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    Graded {
        report,
        table: stdout_of(&table),
        html,
        root,
    }
}

/// A48's sample cohort with twins, graded once for the tests that read it.
pub(crate) fn a48_twins() -> &'static Graded {
    static GRADED: OnceLock<Graded> = OnceLock::new();
    GRADED.get_or_init(|| grade_twins("a48", fixtures().join("submissions")))
}

/// Each group holds one planted bug's two copies and no one else, and no
/// bug is in two groups of one function.
#[track_caller]
fn each_bug_is_one_group(report: &Value) {
    let clusters = report["clusters"]
        .as_array()
        .expect("the report has groups");
    assert!(!clusters.is_empty());
    let mut seen: BTreeSet<(String, String)> = BTreeSet::new();
    for c in clusters {
        let members: BTreeSet<&str> = c["students"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        let bugs: BTreeSet<&str> = members
            .iter()
            .map(|s| s.strip_suffix(TWIN).unwrap_or(s))
            .collect();
        assert_eq!(bugs.len(), 1, "a group holds two bugs: {c:#}");
        let bug = bugs.into_iter().next().unwrap();
        assert_eq!(
            members,
            BTreeSet::from([bug, format!("{bug}{TWIN}").as_str()]),
            "the twins of `{bug}` should share one group: {c:#}"
        );
        let function = c["function"].as_str().unwrap().to_owned();
        assert!(
            seen.insert((bug.to_owned(), function.clone())),
            "`{bug}` is in two groups of `{function}`: {clusters:#?}"
        );
    }
}

#[test]
fn each_planted_bug_is_one_group_in_every_assignment() {
    let others = [
        ("leetcode909", fixtures().join("leetcode909/submissions")),
        ("min-throws", fixtures().join("min-throws/submissions")),
        ("game", fixtures().join("game/submissions")),
    ];
    std::thread::scope(|scope| {
        let runs: Vec<_> = others
            .iter()
            .map(|(a, dir)| scope.spawn(move || (*a, grade_twins(a, dir.clone()))))
            .collect();
        let a48 = a48_twins();
        check_groups("a48", a48);
        let listed = salgrade()
            .arg("clusters")
            .arg(a48.root.path().join("out/report.json"))
            .output()
            .unwrap();
        assert_eq!(listed.status.code(), Some(0), "{}", stderr_of(&listed));
        let text = stdout_of(&listed);
        let n = a48.report["clusters"].as_array().unwrap().len();
        assert!(
            text.starts_with(&format!("{n} common mistake(s) in `a48`")),
            "{text}"
        );
        assert!(text.contains(&format!("\n{n}. 2 students: ")), "{text}");
        assert!(
            text.contains("students: wrong_answer, wrong_answer_twin"),
            "{text}"
        );
        for run in runs {
            let (assignment, graded) = run.join().unwrap();
            check_groups(assignment, &graded);
            if assignment == "leetcode909" {
                each_shown_board_is_its_own_bug(&graded.report);
            }
        }
    });
}

/// LeetCode 909's two bugs about a square that is both a destination and a
/// source: each one's shown counterexample is answered right by the other
/// and by the model solution (on boards of snakes alone they answer alike),
/// so each board teaches its own lesson. One `grade` of the three on the
/// two shown boards, without shrinking.
#[track_caller]
fn each_shown_board_is_its_own_bug(report: &Value) {
    let bugs = ["visited_before_jump", "chains_jumps"];
    let shown: Vec<Value> = bugs
        .iter()
        .map(|bug| {
            let s = crate::grade::student(report, bug);
            let mut case = s["functions"]["snakesAndLadders"]["counterexample"]["case"].clone();
            assert!(case.is_object(), "`{bug}` has no counterexample: {s:#}");
            case["id"] = Value::from(format!("shown-to/{bug}"));
            case
        })
        .collect();
    let root = tempfile::tempdir().unwrap();
    let subs = root.path().join("subs");
    let cohort = fixtures().join("leetcode909/submissions");
    for name in ["correct", bugs[0], bugs[1]] {
        copy_tree(&cohort.join(name), &subs.join(name));
    }
    let cases = root.path().join("cases.json");
    let file = serde_json::json!({"assignment": "leetcode909", "cases": shown});
    std::fs::write(&cases, file.to_string()).unwrap();
    let run = salgrade()
        .args([
            "grade",
            "-a",
            "leetcode909",
            "--shrink-ms",
            "0",
            "--format",
            "json",
        ])
        .arg("--cases-file")
        .arg(&cases)
        .arg("--out-dir")
        .arg(root.path().join("out"))
        .arg(&subs)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", stderr_of(&run));
    let graded: Value = serde_json::from_slice(&run.stdout).unwrap();
    for name in ["correct", bugs[0], bugs[1]] {
        let failed: Vec<String> = crate::case_verdicts(crate::grade::student(&graded, name))
            .into_iter()
            .filter(|(_, (verdict, _))| verdict != "pass")
            .map(|(id, _)| id)
            .collect();
        let own: Vec<String> = bugs
            .iter()
            .filter(|&&bug| bug == name)
            .map(|bug| format!("shown-to/{bug}"))
            .collect();
        assert_eq!(failed, own, "`{name}` on the shown boards: {file:#}");
    }
}

#[track_caller]
fn check_groups(assignment: &str, graded: &Graded) {
    println!("{assignment}:\n{}", graded.table);
    each_bug_is_one_group(&graded.report);
    assert!(graded.table.contains("Common mistakes"), "{}", graded.table);
    assert!(graded.table.contains("- 2 students: "), "{}", graded.table);
}

/// A correct a48 file whose `whowins` always answers `answer`.
fn whowins_answers(answer: u8) -> String {
    let correct =
        std::fs::read_to_string(crate::submission("correct").join("salbLLfunctions.py")).unwrap();
    format!("{correct}\n\ndef whowins(first, step1, step2):\n    return {answer}\n")
}

/// Two mistakes in one function and verdict (answers 2, answers 0) are
/// put to each other's boards, and stay apart: each fails the other's board
/// with its own answer, not the other's.
#[test]
fn different_answers_on_each_others_boards_stay_apart() {
    let root = tempfile::tempdir().unwrap();
    for (name, answer) in [("two", 2), ("two_twin", 2), ("zero", 0), ("zero_twin", 0)] {
        let dir = root.path().join("subs").join(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("salbLLfunctions.py"), whowins_answers(answer)).unwrap();
    }
    let out = root.path().join("out");
    let run = salgrade()
        .args(["grade", "--cases", "1", "--out-dir"])
        .arg(&out)
        .arg(root.path().join("subs"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", stderr_of(&run));
    let report: Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    let groups: Vec<(Vec<&str>, &str, u64)> = report["clusters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["students"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s.as_str().unwrap())
                    .collect(),
                c["got"].as_str().unwrap(),
                c["merged"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        groups,
        vec![
            (vec!["zero", "zero_twin"], "0", 1),
            (vec!["two", "two_twin"], "2", 1)
        ],
        "{:#}",
        report["clusters"]
    );
}

/// A narrower bug is put to the wider one's board and stays apart: `always`
/// answers 2 everywhere; `unequal` answers 2 only when the step sizes
/// differ, so its minimal board is another, which `always` fails alike, but
/// `unequal` passes `always`'s board.
#[test]
fn a_narrower_bug_on_another_board_stays_apart() {
    let correct =
        std::fs::read_to_string(crate::submission("correct").join("salbLLfunctions.py")).unwrap();
    let unequal = format!(
        "{correct}\n\n_whowins = whowins\n\ndef whowins(first, step1, step2):\n    return 2 if step1 != step2 else _whowins(first, step1, step2)\n"
    );
    let root = tempfile::tempdir().unwrap();
    for (name, source) in [
        ("always", whowins_answers(2)),
        ("always_twin", whowins_answers(2)),
        ("unequal", unequal),
    ] {
        let dir = root.path().join("subs").join(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("salbLLfunctions.py"), source).unwrap();
    }
    let out = root.path().join("out");
    let run = salgrade()
        .args(["grade", "--cases", "1", "--out-dir"])
        .arg(&out)
        .arg(root.path().join("subs"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", stderr_of(&run));
    let report: Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    let clusters = report["clusters"].as_array().unwrap();
    let members: Vec<Vec<&str>> = clusters
        .iter()
        .map(|c| {
            c["students"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap())
                .collect()
        })
        .collect();
    assert_eq!(
        members,
        vec![vec!["always", "always_twin"], vec!["unequal"]],
        "{clusters:#?}"
    );
    // Two boards, so the groups were put to each other.
    assert_ne!(clusters[0]["case"]["input"], clusters[1]["case"]["input"]);
}
