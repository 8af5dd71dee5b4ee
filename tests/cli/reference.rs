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
