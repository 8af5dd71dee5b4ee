//! The course platforms: MarkUs's autotester (`--format markus`),
//! PrairieLearn's external grader (`--format prairielearn`) and Canvas's
//! gradebook import (`--csv-layout canvas`), each read by a port of its
//! consumer's own parsing (`tests/consumers/markus_autotest.py`,
//! `tests/consumers/prairielearn.py`, `consumers::canvas_import`), and the
//! examples under `examples/markus/` and `examples/prairielearn/` run as
//! the platforms run them.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::consumers::{self, CanvasColumn, CanvasCourse, CanvasStudent, CanvasUser};
use crate::formats::merged;
use crate::{fixtures, salgrade, stderr_of, submission};

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

#[track_caller]
fn close(a: f64, b: f64, what: &str) {
    assert!((a - b).abs() < 1e-6, "{what}: {a} != {b}");
}

fn students(report: &Value) -> &Vec<Value> {
    report["students"].as_array().unwrap()
}

/// The functions a student was graded on, in the report's order.
fn graded_functions<'r>(report: &'r Value, s: &Value) -> Vec<&'r str> {
    report["functions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .filter(|f| s["functions"].get(*f).is_some())
        .collect()
}

/// Runs a consumer port (`tests/consumers/NAME`) on `args`: its JSON
/// verdict, or `None` (the test is skipped, with a message) without Python.
fn port(name: &str, args: &[&std::ffi::OsStr]) -> Option<Value> {
    let python = consumers::python_with(&["json"], name)?;
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/consumers")
        .join(name);
    let out = std::process::Command::new(python)
        .arg(script)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(serde_json::from_slice(&out.stdout).unwrap())
}

/// What MarkUs records from a test script's stdout `text`, for a
/// criterion out of `criterion_max`.
fn markus_records(dir: &Path, text: &[u8], criterion_max: f64) -> Option<Value> {
    let file = dir.join("stdout.txt");
    std::fs::write(&file, text).unwrap();
    port(
        "markus_autotest.py",
        &[
            file.as_os_str(),
            "--criterion-max".as_ref(),
            criterion_max.to_string().as_ref(),
        ],
    )
}

/// What PrairieLearn records and shows from `results.json` after a
/// container that exited with `exit`.
fn prairielearn_records(results: &Path, exit: i32) -> Option<Value> {
    port(
        "prairielearn.py",
        &[exit.to_string().as_ref(), results.as_os_str()],
    )
}

/// MarkUs's record of one student's `--format markus` output: no output
/// lost or malformed, every test stored (a test per graded function, then
/// `rules`), and the marks and the criterion's mark salgrade's.
#[track_caller]
fn assert_markus_records(record: &Value, report: &Value, s: &Value) {
    let name = s["student"].as_str().unwrap();
    assert_eq!(record["lost"], false, "{name}: {record}");
    assert_eq!(record["malformed"], false, "{name}: {record}");
    assert_eq!(record["dropped"], serde_json::json!([]), "{name}: {record}");
    assert_eq!(record["records"], serde_json::json!([]), "{name}");
    let stored = record["stored"].as_array().unwrap();
    assert_eq!(record["sent"], stored.len(), "{name}");
    let mut want: Vec<&str> = graded_functions(report, s);
    if report["rule"].is_string() {
        want.push("rules");
    }
    let names: Vec<&str> = stored.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, want, "{name}");
    for t in stored {
        let (earned, total) = (num(&t["marks_earned"]), num(&t["marks_total"]));
        assert!(earned >= 0.0 && earned <= total + 1e-9, "{name}: {t}");
        if t["name"] != "rules" {
            let f = &s["functions"][t["name"].as_str().unwrap()];
            close(total, num(&f["max_points"]), name);
            assert!(earned <= num(&f["points"]) + 1e-9, "{name}: {t}");
            assert!(t["time"].is_u64(), "{name}: {t}");
        }
    }
    close(num(&record["marks_earned"]), num(&s["score"]), name);
    close(num(&record["marks_total"]), num(&s["max_score"]), name);
    close(num(&record["criterion_mark"]), num(&s["score"]), name);
}

/// What PrairieLearn records and shows of one student's results: read,
/// gradable exactly when the file could run, the score salgrade's over its
/// maximum, and every test's points shown and adding up to the score.
#[track_caller]
fn assert_prairielearn_records(record: &Value, s: &Value) {
    let name = s["student"].as_str().unwrap();
    assert_eq!(record["job_succeeded"], true, "{name}: {record}");
    assert!(num(&record["bytes"]) <= 1_048_576.0, "{name}");
    let element = &record["element"];
    assert!(element.get("broken").is_none(), "{name}: {element}");
    assert_eq!(element["tests_missing_points"], false, "{name}: {element}");
    let points: f64 = element["points"].as_str().unwrap().parse().unwrap();
    let max: f64 = element["max_points"].as_str().unwrap().parse().unwrap();
    close(points, num(&s["score"]), name);
    close(max, num(&s["max_score"]), name);
    let recorded = &record["recorded"];
    if recorded["gradable"] == true {
        close(
            num(&recorded["score"]),
            num(&s["score"]) / num(&s["max_score"]),
            name,
        );
        assert_eq!(element["format_errors"], serde_json::json!([]), "{name}");
    } else {
        assert!(recorded["score"].is_null(), "{name}");
        assert_eq!(recorded["why"], Value::Null, "{name}: {recorded}");
        close(num(&s["score"]), 0.0, name);
        assert!(
            !element["format_errors"].as_array().unwrap().is_empty(),
            "{name}: {element}"
        );
    }
}

/// Every student of the sample cohort (21 submissions, rendered one at a
/// time by `merge`): MarkUs stores every test, none dropped, and records
/// salgrade's score; PrairieLearn reads the file (exit 0, under 1 MiB),
/// records salgrade's score, shows every test's points, and marks not
/// gradable exactly the files that could not run.
#[test]
fn markus_and_prairielearn_record_the_sample_cohort_scores() {
    let report = &crate::grade::cohort().report;
    let dir = tempfile::tempdir().unwrap();
    let mut not_gradable = Vec::new();
    for s in students(report) {
        let mut one = report.clone();
        one["students"] = serde_json::json!([s]);
        let text = merged(dir.path(), &one, &["markus"]);
        for line in String::from_utf8(text.clone()).unwrap().lines() {
            let v: Value = serde_json::from_str(line).unwrap();
            assert!(v.is_object(), "{line}");
        }
        let Some(record) = markus_records(dir.path(), &text, num(&s["max_score"])) else {
            return;
        };
        assert_markus_records(&record, report, s);

        let path = dir.path().join("one.json");
        std::fs::write(&path, serde_json::to_vec(&one).unwrap()).unwrap();
        let results = dir.path().join("results.json");
        let run = salgrade()
            .args(["merge", "--format", "prairielearn", "-o"])
            .arg(&results)
            .arg(&path)
            .output()
            .unwrap();
        // PrairieLearn reads results only from a container that exits 0.
        assert_eq!(run.status.code(), Some(0), "{}", stderr_of(&run));
        let record = prairielearn_records(&results, 0).unwrap();
        assert_prairielearn_records(&record, s);
        if record["recorded"]["gradable"] == false {
            not_gradable.push(s["student"].as_str().unwrap().to_owned());
        }
    }
    assert!(
        not_gradable.contains(&"syntax_error".to_owned())
            && not_gradable.contains(&"empty_folder".to_owned())
            && !not_gradable.contains(&"wrong_answer".to_owned()),
        "{not_gradable:?}"
    );
}

/// With a secret seed, the hidden cases' inputs and the seed reach neither
/// MarkUs's tests nor PrairieLearn's results, and each hidden failure says
/// that it is hidden.
#[test]
fn student_facing_platform_formats_hide_the_hidden_cases() {
    let dir = tempfile::tempdir().unwrap();
    // It prints every board it is given and fails only on the random
    // boards of a secret seed (more than 100 squares).
    let name = "shows_itself_the_hidden_cases";
    let subs = dir.path().join("subs").join(name);
    std::fs::create_dir_all(&subs).unwrap();
    std::fs::copy(
        fixtures()
            .join("integrity/python")
            .join(name)
            .join("salbLLfunctions.py"),
        subs.join("salbLLfunctions.py"),
    )
    .unwrap();
    let seed = dir.path().join("seed");
    std::fs::write(&seed, "987654321\n").unwrap();
    let out = dir.path().join("out");
    let run = salgrade()
        .args(["grade", "--cases", "10", "--shrink-ms", "0", "--seed-file"])
        .arg(&seed)
        .args(["--format", "markus", "-o"])
        .arg(dir.path().join("markus.jsonl"))
        .arg("--out-dir")
        .arg(&out)
        .arg(dir.path().join("subs"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", stderr_of(&run));
    let report: Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    let hidden: Vec<&str> = report["hidden_cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    let s = &students(&report)[0];
    let hidden_inputs: Vec<&str> = s["functions"]
        .as_object()
        .unwrap()
        .values()
        .filter_map(|f| f["smallest_failure"].as_object())
        .filter(|f| hidden.contains(&f["case_id"].as_str().unwrap()))
        .map(|f| f["input"].as_str().unwrap())
        .collect();
    assert!(!hidden_inputs.is_empty(), "a hidden failure is tested");
    let markus = std::fs::read_to_string(dir.path().join("markus.jsonl")).unwrap();
    let pl = String::from_utf8(merged(dir.path(), &report, &["prairielearn"])).unwrap();
    for (format, text) in [("markus", &markus), ("prairielearn", &pl)] {
        for input in &hidden_inputs {
            assert!(!text.contains(*input), "{format} shows {input}");
        }
        assert!(!text.contains("987654321"), "{format} shows the seed");
        assert!(
            !text.contains("leaked squares"),
            "{format} shows the output"
        );
        assert!(text.contains("hidden cases"), "{format}: {text}");
    }
    if let Some(record) = markus_records(dir.path(), markus.as_bytes(), num(&s["max_score"])) {
        assert_markus_records(&record, &report, s);
    }
}

/// A MarkUs test script that prints anything else, or whose marks are not
/// numbers, loses marks: the port notices (so the tests above mean
/// something).
#[test]
fn the_markus_port_drops_what_markus_drops() {
    let dir = tempfile::tempdir().unwrap();
    let good =
        r#"{"name":"a","output":"","marks_earned":1,"marks_total":2,"status":"partial","time":5}"#;
    let cases = [
        (format!("{good}\nhello\n"), "malformed"),
        (
            format!("{good}\n{}", good.replace("\"time\":5", "\"time\":5.5")),
            "dropped",
        ),
        (
            format!(
                "{good}\n{}",
                good.replace(":1,", ":NaN,").replace("\"a\"", "\"b\"")
            ),
            "lost",
        ),
        (format!("{good}\n{good}"), "dropped"),
    ];
    for (text, what) in cases {
        let Some(r) = markus_records(dir.path(), text.as_bytes(), 100.0) else {
            return;
        };
        let noticed = match what {
            "malformed" => r["malformed"] == true,
            "dropped" => !r["dropped"].as_array().unwrap().is_empty(),
            _ => r["lost"] == true,
        };
        assert!(noticed, "{what}: {r}");
    }
}

/// The course's gradebook export, as Canvas writes it: the identity
/// columns, two assignments, a custom column, a total; the points possible;
/// two students called John Smith; a student without a submission.
const GRADEBOOK: &str = "\u{feff}Student,ID,SIS User ID,SIS Login ID,Section,Lab 1 (101),Min throws (202),Notes,Current Score,Final Score
    Points Possible,,,,,10.00,100.00,,(read only),(read only)
\"Smith, John\",50011,1001,jsmith,L01,9,,,,
\"Smith, John\",50012,1002,jsmith2,L01,7,55,,,
\"Martinez, Ella\",50013,1003,emartinez,L02,,,,,
\"Lee, Ann\",50014,1004,alee,L02,10,,,,
\"Okafor, Chidi\",50015,1005,cokafor,L02,,,,,
\"Nguyen, Bao\",50016,1006,bnguyen,L01,8,42,,,
\"Student, Test\",50099,,,L01,,,,,
";

/// The Canvas course behind [`GRADEBOOK`].
fn canvas_course() -> CanvasCourse {
    let user = |id: u64, first: &str, last: &str, sis: &str, login: &str| CanvasUser {
        id,
        name: format!("{first} {last}"),
        sortable_name: format!("{last}, {first}"),
        sis_user_id: (!sis.is_empty()).then(|| sis.to_owned()),
        login_id: login.to_owned(),
    };
    CanvasCourse {
        assignments: vec![(101, "Lab 1".into()), (202, "Min throws".into())],
        students: vec![
            user(50011, "John", "Smith", "1001", "jsmith"),
            user(50012, "John", "Smith", "1002", "jsmith2"),
            user(50013, "Ella", "Martinez", "1003", "emartinez"),
            user(50014, "Ann", "Lee", "1004", "alee"),
            user(50015, "Chidi", "Okafor", "1005", "cokafor"),
            user(50016, "Bao", "Nguyen", "1006", "bnguyen"),
            user(50099, "Test", "Student", "", "test"),
        ],
    }
}

/// A Canvas download of min-throws: both John Smiths (one right, one
/// wrong), a notebook, a browser's ` (2)` copy submitted late, a
/// `min_throws.py.txt`, and a submission from someone not in the course.
fn canvas_download(root: &Path) -> PathBuf {
    let subs = root.join("download");
    std::fs::create_dir_all(&subs).unwrap();
    let fixture = |name: &str| {
        fixtures()
            .join("min-throws/submissions")
            .join(name)
            .join("min_throws.py")
    };
    let files = [
        ("smithjohn_50011_900001_min_throws.py", fixture("correct")),
        (
            "smithjohn_50012_900002_min_throws.py",
            fixture("ignores_snakes"),
        ),
        (
            "leeann_LATE_50014_900004_min_throws (2).py",
            fixture("correct"),
        ),
        (
            "okaforchidi_50015_900005_min_throws.py.txt",
            fixture("correct"),
        ),
        ("ghostcasper_59999_900009_min_throws.py", fixture("correct")),
    ];
    for (name, from) in files {
        std::fs::copy(from, subs.join(name)).unwrap();
    }
    std::fs::write(
        subs.join("martinezella_50013_900003_min_throws.ipynb"),
        "{\"cells\": []}\n",
    )
    .unwrap();
    subs
}

/// The grades Canvas's import would enter, by student ID, for the
/// assignment `Min throws (202)`; asserts nothing else is touched: no new
/// assignment, no unknown student, one column.
#[track_caller]
fn canvas_grades(csv: &str) -> std::collections::BTreeMap<u64, Option<String>> {
    let import = consumers::canvas_import(csv, &canvas_course());
    assert!(!import.invalid_header, "{csv}");
    assert_eq!(import.columns, [CanvasColumn::Existing(202)], "{csv}");
    let mut grades = std::collections::BTreeMap::new();
    for (who, cells) in import.rows {
        let CanvasStudent::Existing(id) = who else {
            panic!("a new student: {who:?}\n{csv}");
        };
        assert!(grades.insert(id, cells[0].clone()).is_none(), "{id} twice");
    }
    grades
}

/// A Canvas download graded into `--csv-layout canvas` with the course's
/// gradebook as the roster: every student with a submission gets
/// salgrade's score in the existing assignment's column, matched by Canvas
/// ID (the two John Smiths apart, the late ` (2)` copy graded), the
/// notebook and the `.py.txt` get 0 with the reason, and the names Canvas
/// cannot take (a submission from outside the course, students without a
/// submission) are named in warnings; students without a submission keep
/// their grade unless `--missing zero`.
#[test]
fn canvas_import_enters_salgrade_scores_for_a_canvas_download() {
    let dir = tempfile::tempdir().unwrap();
    let subs = canvas_download(dir.path());
    let gradebook = dir.path().join("gradebook.csv");
    std::fs::write(&gradebook, GRADEBOOK).unwrap();
    let out = dir.path().join("out");
    let csv_file = dir.path().join("canvas.csv");
    let run = salgrade()
        .args([
            "grade",
            "--cases",
            "2",
            "--shrink-ms",
            "0",
            "--format",
            "csv",
        ])
        .args([
            "--csv-layout",
            "canvas",
            "--canvas-assignment",
            "202",
            "--roster",
        ])
        .arg(&gradebook)
        .arg("-o")
        .arg(&csv_file)
        .arg("--out-dir")
        .arg(&out)
        .arg(&subs)
        .output()
        .unwrap();
    let err = stderr_of(&run);
    assert_eq!(run.status.code(), Some(1), "{err}");
    let report: Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    let ids: Vec<&str> = students(&report)
        .iter()
        .map(|s| s["student"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "ghostcasper_59999",
            "leeann_50014",
            "martinezella_50013",
            "okaforchidi_50015",
            "smithjohn_50011",
            "smithjohn_50012"
        ]
    );
    let by = |id: &str| {
        students(&report)
            .iter()
            .find(|s| s["student"] == id)
            .unwrap()
    };
    let notebook = by("martinezella_50013").to_string();
    assert!(
        notebook.contains("submitted a notebook: `martinezella_50013_900003_min_throws.ipynb`"),
        "{notebook}"
    );
    assert!(by("okaforchidi_50015").to_string().contains("a text file"));
    let late = by("leeann_50014");
    close(
        num(&late["score"]),
        num(&late["max_score"]),
        "the late copy",
    );
    let csv = std::fs::read_to_string(&csv_file).unwrap();
    assert!(
        csv.starts_with("Student,ID,SIS User ID,SIS Login ID,Section,Min throws (202)\n"),
        "{csv}"
    );
    let grades = canvas_grades(&csv);
    let want = [
        (50011, "smithjohn_50011"),
        (50012, "smithjohn_50012"),
        (50013, "martinezella_50013"),
        (50014, "leeann_50014"),
        (50015, "okaforchidi_50015"),
    ];
    assert_eq!(grades.len(), want.len(), "{csv}");
    for (id, student) in want {
        let grade: f64 = grades[&id].as_deref().unwrap().parse().unwrap();
        close(grade, num(&by(student)["score"]), student);
    }
    let wrong = by("smithjohn_50012");
    assert!(num(&wrong["score"]) < num(&wrong["max_score"]));
    assert!(
        err.contains("`ghostcasper_59999` (score 25) is not in the import")
            && err.contains("no student with Canvas ID 59999"),
        "{err}"
    );
    assert!(
        err.contains("`Nguyen, Bao` (ID 50016)") && err.contains("`Student, Test` (ID 50099)"),
        "{err}"
    );
    // The assignment is out of 100 in Canvas, min-throws out of 25.
    assert!(
        err.contains("`Min throws (202)` is out of 100 points, salgrade's scores out of 25"),
        "{err}"
    );

    let zero = String::from_utf8(merged(
        dir.path(),
        &report,
        &[
            "csv",
            "--csv-layout",
            "canvas",
            "--canvas-assignment",
            "Min throws",
            "--missing",
            "zero",
            "--roster",
            gradebook.to_str().unwrap(),
        ],
    ))
    .unwrap();
    let grades = canvas_grades(&zero);
    assert_eq!(grades[&50016].as_deref(), Some("0"), "{zero}");
    assert_eq!(grades.len(), 7, "{zero}");
}

#[test]
fn canvas_options_are_checked_before_grading() {
    let dir = tempfile::tempdir().unwrap();
    let gradebook = dir.path().join("gradebook.csv");
    std::fs::write(&gradebook, GRADEBOOK).unwrap();
    let subs = fixtures().join("min-throws/submissions");
    let cases: [(&[&str], &str); 4] = [
        (
            &["--csv-layout", "canvas"],
            "needs `--roster GRADEBOOK.csv`",
        ),
        (
            &[
                "--csv-layout",
                "canvas",
                "--canvas-assignment",
                "Lab 9",
                "--roster",
            ],
            "has no assignment column `Lab 9`; its assignments: `Lab 1 (101)`, `Min throws (202)`, `Notes`",
        ),
        (
            &["--missing", "zero"],
            "`--missing` applies to `--format csv --csv-layout canvas`",
        ),
        (
            &["--csv-layout", "markus", "--canvas-assignment", "1"],
            "`--canvas-assignment` applies to",
        ),
    ];
    for (args, want) in cases {
        let mut cmd = salgrade();
        cmd.args(["grade", "--format", "csv"]).args(args);
        if args.last() == Some(&"--roster") {
            cmd.arg(&gradebook);
        }
        let out = cmd.arg(&subs).output().unwrap();
        let err = stderr_of(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("grading "), "refused before grading: {err}");
    }
}

/// The path of the salgrade binary under test, for scripts that find it on
/// PATH.
fn path_with_salgrade() -> std::ffi::OsString {
    let bin = assert_cmd::cargo::cargo_bin("salgrade");
    let mut dirs = vec![bin.parent().unwrap().to_owned()];
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(dirs).unwrap()
}

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples")
}

/// `salgrade grade --format json` of `file` alone, as the examples grade
/// it: the report to compare with.
fn graded_alone(file: &Path, args: &[&str]) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let student = dir.path().join("subs/student");
    std::fs::create_dir_all(&student).unwrap();
    std::fs::copy(file, student.join(file.file_name().unwrap())).unwrap();
    let run = salgrade()
        .args(["grade", "--format", "json"])
        .args(args)
        .arg("--out-dir")
        .arg(dir.path().join("out"))
        .arg(dir.path().join("subs"))
        .output()
        .unwrap();
    assert!(
        matches!(run.status.code(), Some(0 | 1)),
        "{}",
        stderr_of(&run)
    );
    serde_json::from_slice(&run.stdout).unwrap()
}

/// MarkUs's working folder: the group's files beside the test files, the
/// scripts run from it as `./SCRIPT` with the group's name in
/// `MARKUS_GROUP`, the settings on stdin.
fn markus_run(
    folder: &Path,
    script: &str,
    env: &[(&str, &std::ffi::OsStr)],
) -> std::process::Output {
    let mut cmd = std::process::Command::new(format!("./{script}"));
    cmd.current_dir(folder)
        .env("PATH", path_with_salgrade())
        .env("MARKUS_GROUP", "group_0042")
        .env("SALGRADE_CASES", "3")
        .env("XDG_CACHE_HOME", crate::test_cache_home())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap();
    {
        use std::io::Write as _;
        let mut stdin = child.stdin.take().unwrap();
        let _ = stdin.write_all(br#"{"tester_type": "custom", "test_data": {}}"#);
    }
    child.wait_with_output().unwrap()
}

/// `examples/markus/` run as MarkUs runs it: the student's test group
/// (public seed) and the instructors' (a secret seed in a file outside the
/// working folder). MarkUs stores every test and records the criterion's
/// mark salgrade gives the same file alone, and the feedback file is there.
#[test]
fn the_markus_example_runs_in_markus_working_folder() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("workspace");
    std::fs::create_dir_all(folder.join("notes")).unwrap();
    let student = submission("wrong_answer").join("salbLLfunctions.py");
    std::fs::copy(&student, folder.join("salbLLfunctions.py")).unwrap();
    std::fs::write(folder.join("notes/README.txt"), "my notes\n").unwrap();
    for script in [
        "salgrade_markus.sh",
        "salgrade_student.sh",
        "salgrade_grade.sh",
    ] {
        let to = folder.join(script);
        std::fs::copy(examples().join("markus").join(script), &to).unwrap();
        // MarkUs copies test files with mode 0750.
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&to, std::fs::Permissions::from_mode(0o750)).unwrap();
    }
    let specs: Value =
        serde_json::from_slice(&std::fs::read(examples().join("markus/specs.json")).unwrap())
            .unwrap();
    for group in specs["testers"][0]["test_data"].as_array().unwrap() {
        for s in group["script_files"].as_array().unwrap() {
            assert!(folder.join(s.as_str().unwrap()).exists(), "{s}");
        }
        assert_eq!(group["feedback_file_names"][0], "salgrade_feedback.md");
        assert!(num(&group["timeout"]) >= 150.0, "{group}");
    }

    let run = markus_run(&folder, "salgrade_student.sh", &[]);
    assert!(run.status.success(), "{}", stderr_of(&run));
    let expected = graded_alone(&student, &["--cases", "3"]);
    let s = &students(&expected)[0];
    if let Some(record) = markus_records(dir.path(), &run.stdout, num(&s["max_score"])) {
        assert_markus_records(&record, &expected, s);
    }
    let feedback = std::fs::read_to_string(folder.join("salgrade_feedback.md")).unwrap();
    assert!(feedback.contains("willfinish"), "{feedback}");
    assert!(feedback.contains("seed 1"), "{feedback}");

    // The instructors' run: the seed in a file outside the working folder.
    let seed = dir.path().join("secret/seed");
    std::fs::create_dir_all(seed.parent().unwrap()).unwrap();
    std::fs::write(&seed, "24680\n").unwrap();
    std::fs::remove_file(folder.join("salgrade_feedback.md")).unwrap();
    let run = markus_run(
        &folder,
        "salgrade_grade.sh",
        &[("SALGRADE_SEED_FILE", seed.as_os_str())],
    );
    let err = stderr_of(&run);
    if err.contains("--sandbox namespaces") && err.contains("not") && run.stdout.is_empty() {
        // Namespaces are refused here: the script refuses to grade rather
        // than let student code read the seed, and prints no test.
        eprintln!("note: namespaces are refused here; the secret-seed run refused: {err}");
        return;
    }
    assert!(run.status.success(), "{err}");
    let expected = graded_alone(&student, &["--cases", "3", "--seed", "24680"]);
    let s = &students(&expected)[0];
    if let Some(record) = markus_records(dir.path(), &run.stdout, num(&s["max_score"])) {
        assert_markus_records(&record, &expected, s);
    }
    let feedback = std::fs::read_to_string(folder.join("salgrade_feedback.md")).unwrap();
    assert!(!feedback.contains("24680"), "the seed is shown: {feedback}");
    // A setup error prints no test, so MarkUs records no mark.
    let run = markus_run(
        &folder,
        "salgrade_grade.sh",
        &[("SALGRADE_SEED_FILE", dir.path().join("nope").as_os_str())],
    );
    assert!(
        run.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&run.stdout)
    );
    assert!(stderr_of(&run).contains("cannot read the secret seed file"));
}

/// `examples/prairielearn/` run as PrairieLearn runs it: the question's
/// entrypoint, with the job's folders (`student/`, `tests/`,
/// `serverFilesCourse/`, `results/`) under a temporary root instead of
/// `/grade`. It exits 0, and PrairieLearn records the score salgrade gives
/// the same file alone, with the seed from `tests/seed`; a file that does
/// not import is not gradable.
#[test]
fn the_prairielearn_example_runs_in_the_grade_layout() {
    let dir = tempfile::tempdir().unwrap();
    let info: Value = serde_json::from_slice(
        &std::fs::read(examples().join("prairielearn/questions/a48/info.json")).unwrap(),
    )
    .unwrap();
    let options = &info["externalGradingOptions"];
    assert_eq!(options["enabled"], true);
    assert_eq!(options["enableNetworking"], false);
    assert!(num(&options["timeout"]) <= 600.0);
    let entrypoint: Vec<&str> = options["entrypoint"].as_str().unwrap().split(' ').collect();
    let script = entrypoint[0]
        .strip_prefix("/grade/")
        .expect("the entrypoint is in the job's folder");
    for (name, file, gradable) in [
        ("wrong_answer", "salbLLfunctions.py", true),
        ("syntax_error", "salbLLfunctions.py", false),
    ] {
        let root = dir.path().join(name);
        std::fs::create_dir_all(root.join("student")).unwrap();
        std::fs::create_dir_all(root.join("tests")).unwrap();
        std::fs::create_dir_all(root.join("data")).unwrap();
        let source = submission(name).join(file);
        std::fs::copy(&source, root.join("student").join(file)).unwrap();
        std::fs::write(root.join("tests/seed"), "13579\n").unwrap();
        std::fs::write(root.join("tests/cases"), "3\n").unwrap();
        copy_tree(
            &examples().join("prairielearn/serverFilesCourse"),
            &root.join("serverFilesCourse"),
        );
        let run = std::process::Command::new(root.join(script))
            .args(&entrypoint[1..])
            .env("SALGRADE_GRADE_ROOT", &root)
            .env("PATH", path_with_salgrade())
            .env("XDG_CACHE_HOME", crate::test_cache_home())
            .output()
            .unwrap();
        let code = run.status.code().unwrap_or(-1);
        assert_eq!(code, 0, "{name}: {}", stderr_of(&run));
        let results = root.join("results/results.json");
        let Some(record) = prairielearn_records(&results, code) else {
            return;
        };
        let expected = graded_alone(&source, &["--cases", "3", "--seed", "13579"]);
        let s = &students(&expected)[0];
        assert_prairielearn_records(&record, s);
        assert_eq!(record["recorded"]["gradable"], gradable, "{name}: {record}");
        let text = std::fs::read_to_string(&results).unwrap();
        assert!(!text.contains("13579"), "{name}: the seed is shown");
    }
}

fn copy_tree(from: &Path, to: &Path) {
    for e in walkdir::WalkDir::new(from) {
        let e = e.unwrap();
        let target = to.join(e.path().strip_prefix(from).unwrap());
        if e.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}
