//! `grade --shard K/N` and `merge`: the shards of a folder partition its
//! students, and merging their reports gives what one unsharded run gives,
//! apart from timings. Mismatched or overlapping reports are refused. Two
//! random cases per function and `--shrink-ms 0` (shrinking has a time
//! budget, so its counterexample could differ between runs) keep this fast
//! and the reports comparable.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::Value;

use crate::{salgrade, stderr_of, stdout_of, submission};

/// At least one student per shard of three (the hash puts `correct` and
/// `uses_containers` in 1/3, `closes_fds` in 2/3, the rest in 3/3).
const STUDENTS: [&str; 6] = [
    "correct",
    "uses_containers",
    "closes_fds",
    "wrong_answer",
    "syntax_error",
    "missing_dualboard",
];

fn copy_student(name: &str, into: &Path) {
    let dir = into.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let file = "salbLLfunctions.py";
    std::fs::copy(submission(name).join(file), dir.join(file)).unwrap();
}

/// `grade` on `folder` with `extra` arguments: the exit code and the
/// `report.json` it wrote (in `out`); the table it printed is in
/// `out/table.txt`.
fn grade(folder: &Path, out: &Path, extra: &[&str]) -> (Option<i32>, PathBuf) {
    let run = salgrade()
        .args(["grade", "--cases", "2", "--shrink-ms", "0", "-j", "2"])
        .args(extra)
        .arg("--out-dir")
        .arg(out)
        .arg(folder)
        .output()
        .unwrap();
    let report = out.join("report.json");
    assert!(report.is_file(), "no report: {}", stderr_of(&run));
    std::fs::write(out.join("table.txt"), &run.stdout).unwrap();
    (run.status.code(), report)
}

fn read(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn names(report: &Value) -> Vec<String> {
    report["students"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["student"].as_str().unwrap().to_owned())
        .collect()
}

/// `v` without the fields that may differ between equal runs.
fn without_timings(mut v: Value) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(m) => {
                for key in ["wall_ms", "cpu_ms", "shard"] {
                    m.remove(key);
                }
                m.values_mut().for_each(strip);
            }
            Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut v);
    v
}

struct Graded {
    _root: tempfile::TempDir,
    whole: PathBuf,
    shards: Vec<PathBuf>,
}

/// The cohort graded once whole and once as three shards.
fn graded() -> &'static Graded {
    static GRADED: OnceLock<Graded> = OnceLock::new();
    GRADED.get_or_init(|| {
        let root = tempfile::tempdir().unwrap();
        let folder = root.path().join("subs");
        for name in STUDENTS {
            copy_student(name, &folder);
        }
        let (code, whole) = grade(&folder, &root.path().join("whole"), &[]);
        assert_eq!(code, Some(1));
        let shards = (1..=3)
            .map(|k| {
                let shard = format!("{k}/3");
                let (code, report) = grade(
                    &folder,
                    &root.path().join(format!("shard-{k}")),
                    &["--shard", &shard],
                );
                assert!(matches!(code, Some(0 | 1)), "shard {shard}: {code:?}");
                report
            })
            .collect();
        Graded {
            _root: root,
            whole,
            shards,
        }
    })
}

fn merge(reports: &[&Path], extra: &[&str]) -> std::process::Output {
    salgrade()
        .arg("merge")
        .args(reports)
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn every_student_is_in_exactly_one_shard() {
    let g = graded();
    let mut seen: Vec<String> = Vec::new();
    for (k, path) in g.shards.iter().enumerate() {
        let report = read(path);
        assert_eq!(
            report["shard"],
            serde_json::json!({"index": k + 1, "count": 3})
        );
        seen.extend(names(&report));
    }
    seen.sort();
    let mut all: Vec<String> = STUDENTS.iter().map(|s| (*s).to_owned()).collect();
    all.sort();
    assert_eq!(seen, all);
    assert!(
        g.shards.iter().all(|p| !names(&read(p)).is_empty()),
        "each shard should hold a student, so the merge is tested"
    );
}

#[test]
fn merging_the_shards_gives_the_unsharded_report() {
    let g = graded();
    let shards: Vec<&Path> = g.shards.iter().map(PathBuf::as_path).collect();
    let run = merge(&shards, &["--format", "json"]);
    assert_eq!(run.status.code(), Some(1), "{}", stderr_of(&run));
    assert!(!stderr_of(&run).contains("warning"), "{}", stderr_of(&run));
    let merged: Value = serde_json::from_slice(&run.stdout).unwrap();
    let whole = read(&g.whole);
    assert!(whole.get("shard").is_none());
    assert!(whole["settings"]["rubric"].is_string());
    assert_eq!(without_timings(merged), without_timings(whole));
}

#[test]
fn merge_writes_the_table_and_other_formats() {
    let g = graded();
    let shards: Vec<&Path> = g.shards.iter().map(PathBuf::as_path).collect();
    let table = stdout_of(&merge(&shards, &[]));
    let whole = std::fs::read_to_string(g.whole.with_file_name("table.txt")).unwrap();
    assert_eq!(table, whole);
    let out = tempfile::tempdir().unwrap();
    let csv = out.path().join("grades.csv");
    let run = merge(&shards, &["--format", "csv", "-o", csv.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(1), "{}", stderr_of(&run));
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(text.lines().count(), STUDENTS.len() + 1, "{text}");
}

#[test]
fn a_missing_shard_is_warned_about() {
    let g = graded();
    let run = merge(&[&g.shards[0], &g.shards[2]], &["--format", "json"]);
    assert_eq!(run.status.code(), Some(1), "{}", stderr_of(&run));
    let err = stderr_of(&run);
    assert!(
        err.contains("warning: shard 2/3 is not among the reports"),
        "{err}"
    );
}

#[test]
fn a_student_in_two_reports_is_refused() {
    let g = graded();
    let run = merge(&[&g.shards[0], &g.whole], &[]);
    assert_eq!(run.status.code(), Some(2));
    let err = stderr_of(&run);
    assert!(err.contains("is in both"), "{err}");
    assert!(err.contains("shard-1") && err.contains("whole"), "{err}");
}

#[test]
fn bad_shards_are_usage_errors() {
    let folder = submission("correct");
    for bad in ["0/3", "4/3", "x/3", "3", "1/0"] {
        let run = salgrade()
            .args(["grade", "--shard", bad])
            .arg(&folder)
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(2), "{bad}");
        let err = stderr_of(&run);
        assert!(
            err.lines().next().unwrap().contains("--shard"),
            "{bad}: {err}"
        );
        assert!(err.contains("1 ≤ K ≤ N"), "{bad}: {err}");
    }
}

#[test]
fn different_seeds_or_rubrics_are_refused_by_name() {
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("subs");
    copy_student("correct", &folder);
    let rubric = root.path().join("rubric.toml");
    let init = salgrade()
        .args(["init", "--rubric"])
        .arg(&rubric)
        .output()
        .unwrap();
    assert_eq!(init.status.code(), Some(0), "{}", stderr_of(&init));
    let text = std::fs::read_to_string(&rubric).unwrap();
    let changed = text.replacen("willfinish = 25", "willfinish = 40", 1);
    assert_ne!(
        text, changed,
        "the default rubric gives willfinish 25 points"
    );
    std::fs::write(&rubric, changed).unwrap();

    // An empty shard is a report with no students, and exit 0.
    let (one, one_report) = grade(&folder, &root.path().join("one"), &["--shard", "1/2"]);
    let (two, two_report) = grade(&folder, &root.path().join("two"), &["--shard", "2/2"]);
    assert_eq!((one, two), (Some(0), Some(0)));
    assert_eq!(names(&read(&one_report)), ["correct"]);
    assert!(names(&read(&two_report)).is_empty());

    let (_, seed) = grade(&folder, &root.path().join("seed"), &["--seed", "2"]);
    let (_, rubric) = grade(
        &folder,
        &root.path().join("rubric"),
        &["--rubric", rubric.to_str().unwrap()],
    );
    for (other, what) in [(&seed, "seed"), (&rubric, "rubric")] {
        let run = merge(&[&two_report, other], &[]);
        assert_eq!(run.status.code(), Some(2), "{what}");
        let err = stderr_of(&run);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains(&format!(
                "`{}` was graded with a different {what} from `{}`",
                other.display(),
                two_report.display()
            )),
            "{err}"
        );
    }
    // Merging the two halves: the empty one adds nobody.
    let run = merge(&[&one_report, &two_report], &["--format", "json"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr_of(&run));
}

#[test]
fn missing_and_malformed_reports_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.json");
    let run = merge(&[&missing], &[]);
    assert_eq!(run.status.code(), Some(2));
    assert!(
        stderr_of(&run).contains("cannot read report"),
        "{}",
        stderr_of(&run)
    );
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"students\": 3}").unwrap();
    let run = merge(&[&bad], &[]);
    assert_eq!(run.status.code(), Some(2));
    assert!(
        stderr_of(&run).contains("is not a salgrade `report.json`"),
        "{}",
        stderr_of(&run)
    );
}

#[test]
fn a_shard_whose_scores_do_not_add_up_is_refused() {
    let g = graded();
    let dir = tempfile::tempdir().unwrap();
    let mut report = read(&g.shards[0]);
    let who = report["students"][0]["student"]
        .as_str()
        .unwrap()
        .to_owned();
    report["students"][0]["score"] = serde_json::json!(1e9);
    let edited = dir.path().join("report.json");
    std::fs::write(&edited, serde_json::to_vec(&report).unwrap()).unwrap();
    let run = merge(&[&edited, &g.shards[1], &g.shards[2]], &["--format", "csv"]);
    let err = stderr_of(&run);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(stdout_of(&run).is_empty(), "no row is written");
    assert!(
        err.contains(&format!("report `{}`", edited.display()))
            && err.contains(&format!("student `{who}`"))
            && err.contains("score 1000000000 where its functions earn"),
        "{err}"
    );
    // A function's tally raised without its cases is caught too.
    let mut report = read(&g.shards[0]);
    let functions = report["students"][0]["functions"].as_object_mut().unwrap();
    let (_, f) = functions.iter_mut().next().unwrap();
    f["passed"] = serde_json::json!(f["total"].as_u64().unwrap() + 5);
    std::fs::write(&edited, serde_json::to_vec(&report).unwrap()).unwrap();
    let run = merge(&[&edited], &[]);
    assert_eq!(run.status.code(), Some(2), "{}", stderr_of(&run));
    assert!(stderr_of(&run).contains("passed where its cases say"));
}

#[test]
fn the_scheduler_examples_read_the_seed_from_a_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    for file in ["slurm/grade.sbatch", "kubernetes/grade-job.yaml"] {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        assert!(text.contains("--seed-file"), "{file}");
        assert!(
            !text.contains("--seed \""),
            "{file} passes the secret seed as an argument"
        );
    }
}

/// The groups of a report: each one's members, sorted.
fn groups(report: &Value) -> Vec<Vec<String>> {
    let mut groups: Vec<Vec<String>> = report["clusters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let mut m: Vec<String> = c["students"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().to_owned())
                .collect();
            m.sort();
            m
        })
        .collect();
    groups.sort();
    groups
}

#[test]
fn merge_groups_whole_file_failures_by_cause_as_one_run_does() {
    let t = tempfile::tempdir().unwrap();
    let subs = t.path().join("subs");
    let file = "salbLLfunctions.py";
    // Two students of each cause, so every shard split keeps pairs to join.
    for (who, what) in [
        ("ann", "def f(:\n"),
        ("ben", "def f(:\n"),
        ("cat", "if True:\n\tx = 1\n        y = 2\n"),
        ("dan", "if True:\n\tx = 1\n        y = 2\n"),
        ("eve", "input()\n"),
        ("fay", "input()\n"),
        ("gus", ""),
        ("hal", ""),
    ] {
        std::fs::create_dir_all(subs.join(who)).unwrap();
        std::fs::write(subs.join(who).join(file), what).unwrap();
    }
    for who in ["ivy", "jon"] {
        std::fs::create_dir_all(subs.join(who)).unwrap();
        std::fs::write(subs.join(who).join("submission.zip"), "PK").unwrap();
    }
    let (_, whole) = grade(&subs, &t.path().join("whole"), &["--assignment", "a48"]);
    let mut reports = Vec::new();
    for k in 1..=2 {
        let shard = format!("{k}/2");
        let (_, r) = grade(
            &subs,
            &t.path().join(format!("s{k}")),
            &["--assignment", "a48", "--shard", &shard],
        );
        reports.push(r);
    }
    let merged = salgrade()
        .args(["merge", "--format", "json"])
        .args(&reports)
        .output()
        .unwrap();
    let merged: Value = serde_json::from_slice(&merged.stdout).unwrap();
    let one_run = groups(&read(&whole));
    assert_eq!(one_run.len(), 5, "{one_run:?}");
    assert_eq!(groups(&merged), one_run);
    let notes = salgrade()
        .arg("clusters")
        .arg(&reports[0])
        .output()
        .unwrap();
    assert!(
        !stdout_of(&notes).contains("merged"),
        "{}",
        stdout_of(&notes)
    );
    let merged_notes: Vec<&Value> = merged["clusters"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["merged"] != 1)
        .collect();
    assert!(merged_notes.is_empty(), "{merged_notes:?}");
}

/// Shards graded by another Python (or salgrade build) can judge
/// differently: merge refuses them, naming both, unless told to merge
/// anyway, when the report says so.
#[test]
fn shards_graded_by_another_python_or_build_are_refused_unless_allowed() {
    let g = graded();
    let first = read(&g.shards[0]);
    assert!(
        first["settings"]["python"]
            .as_str()
            .is_some_and(|p| p.starts_with("cpython 3.")),
        "{}",
        first["settings"]
    );
    assert!(
        first["settings"]["build"]
            .as_str()
            .is_some_and(|b| !b.is_empty())
    );
    let dir = tempfile::tempdir().unwrap();
    for (field, value, what) in [
        ("python", "cpython 3.11.2", "Python"),
        ("build", "build-id 0123", "salgrade build"),
    ] {
        let mut other = read(&g.shards[1]);
        other["settings"][field] = value.into();
        let path = dir.path().join(format!("{field}.json"));
        std::fs::write(&path, serde_json::to_vec(&other).unwrap()).unwrap();
        let run = merge(&[&g.shards[0], &path], &[]);
        assert_eq!(run.status.code(), Some(2), "{}", stderr_of(&run));
        let err = stderr_of(&run);
        assert!(
            err.contains(&format!(
                "`{}` was graded by a different {what} ({value}) from `{}`",
                path.display(),
                g.shards[0].display()
            )),
            "{err}"
        );
        let run = merge(
            &[&g.shards[0], &path],
            &["--allow-different-builds", "--format", "json"],
        );
        assert!(
            matches!(run.status.code(), Some(0 | 1)),
            "{}",
            stderr_of(&run)
        );
        let merged: Value = serde_json::from_slice(&run.stdout).unwrap();
        assert!(
            merged["warnings"]
                .as_array()
                .unwrap()
                .iter()
                .any(|w| w.as_str().unwrap().contains("merged anyway")),
            "{merged}"
        );
    }
}
