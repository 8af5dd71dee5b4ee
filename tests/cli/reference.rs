use crate::{salgrade, stderr_of, stdout_of};

#[test]
fn answers_questions_from_json_boards() {
    let board = r#"{"squares": 6, "snadders": [[5, 1]]}"#;
    let out = salgrade()
        .args(["ref", "willfinish", "--board-json", board, "1"])
        .output()
        .unwrap();
    assert_eq!(stdout_of(&out).trim(), "False");
    let out = salgrade()
        .args(["ref", "finish-time", "--board-json", board, "2"])
        .output()
        .unwrap();
    assert_eq!(stdout_of(&out).trim(), "3");
    let out = salgrade()
        .args([
            "ref",
            "whowins",
            "--board-json",
            r#"{"squares": 4}"#,
            "2",
            "4",
        ])
        .output()
        .unwrap();
    assert_eq!(stdout_of(&out).trim(), "1 or 2");
    let out = salgrade()
        .args(["ref", "dualboard", "--board-json", board])
        .output()
        .unwrap();
    assert_eq!(
        stdout_of(&out).trim(),
        r#"{"squares":6,"snadders":[[1,5]]}"#
    );
    let out = salgrade()
        .args(["ref", "walk", "--board-json", board, "1"])
        .output()
        .unwrap();
    assert!(
        stdout_of(&out).contains("loops forever"),
        "{}",
        stdout_of(&out)
    );
}

#[test]
fn an_invalid_board_file_is_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.json");
    std::fs::write(&file, r#"{"squares": 10, "snadders": [[10, 2], [3, 3]]}"#).unwrap();
    let out = salgrade()
        .args(["ref", "willfinish", "--board"])
        .arg(&file)
        .arg("2")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr_of(&out);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("bad.json") && err.contains("last square 10") && err.contains("3 -> 3"),
        "{err}"
    );
    let out = salgrade()
        .args(["ref", "willfinish", "--board", "/nonexistent.json", "2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_of(&out).contains("/nonexistent.json"));
}

#[test]
fn a_wrong_number_of_steps_names_the_question_as_typed() {
    let out = salgrade()
        .args(["ref", "whowins", "--board-json", r#"{"squares": 4}"#, "2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr_of(&out);
    assert!(
        err.contains("`whowins` takes 2 step sizes, 1 given"),
        "{err}"
    );
    let out = salgrade()
        .args(["ref", "willfinish", "--board-json", r#"{"squares": 4}"#])
        .output()
        .unwrap();
    assert!(stderr_of(&out).contains("`willfinish` takes 1 step size, 0 given"));
}

#[test]
fn a_bare_board_gets_the_same_error_as_the_wrapped_one() {
    for (assignment, bare, wanted) in [
        ("min-throws", "[-1,3,-1]", "move[1] is 3, but"),
        ("leetcode909", "[[-1,-1],[-1,7]]", "is 7, but a cell holds"),
    ] {
        let run = salgrade()
            .args(["ref", "-a", assignment, "answer", "--board-json", bare])
            .output()
            .unwrap();
        let err = stderr_of(&run);
        assert_eq!(run.status.code(), Some(2), "{err}");
        assert!(
            err.contains(wanted) && !err.contains("not of the form"),
            "{err}"
        );
    }
}

#[test]
fn a_case_file_as_the_board_names_its_own_assignment() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.json");
    std::fs::write(
        &one,
        r#"{"assignment": "leetcode909", "cases": [{"id": "x", "function": "snakesAndLadders",
            "input": {"board": [[-1, -1], [-1, -1]]}, "expected": {"answer": 1}}]}"#,
    )
    .unwrap();
    let run = salgrade()
        .args(["ref", "answer", "--board"])
        .arg(&one)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", stderr_of(&run));
    assert_eq!(stdout_of(&run).trim(), "1");
    let run = salgrade()
        .args(["ref", "-a", "a48", "answer", "--board"])
        .arg(&one)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(
        stderr_of(&run).contains("contradicts"),
        "{}",
        stderr_of(&run)
    );
    let many = dir.path().join("many.json");
    let run = salgrade()
        .args(["gen", "-a", "leetcode909", "--cases", "0", "-o"])
        .arg(&many)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", stderr_of(&run));
    let run = salgrade()
        .args(["ref", "answer", "--board"])
        .arg(&many)
        .output()
        .unwrap();
    let err = stderr_of(&run);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(
        err.contains("is a case file for `leetcode909` with"),
        "{err}"
    );
}
