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

#[test]
fn a48_disputes_take_checks_counterexample_and_a_case_cut_from_gen() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("salbLLfunctions.py");
    std::fs::copy(
        crate::submission("wrong_answer").join("salbLLfunctions.py"),
        &file,
    )
    .unwrap();
    let run = salgrade()
        .current_dir(dir.path())
        .args(["check", "--cases", "2", "salbLLfunctions.py"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", stdout_of(&run));
    let written = dir.path().join("salgrade-out/counterexample-whowins.json");
    let case: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&written).unwrap()).unwrap();
    let steps = &case["cases"][0]["input"]["args"];
    let ask = |args: &[&str]| {
        salgrade()
            .current_dir(dir.path())
            .arg("ref")
            .args(args)
            .output()
            .unwrap()
    };
    // The file `check` wrote, as the other assignments take theirs: the step
    // sizes are the case's own, or the ones typed.
    let own = ask(&[
        "whowins",
        "--board",
        "salgrade-out/counterexample-whowins.json",
    ]);
    assert_eq!(own.status.code(), Some(0), "{}", stderr_of(&own));
    let typed = ask(&[
        "whowins",
        "--board",
        "salgrade-out/counterexample-whowins.json",
        &steps[0].to_string(),
        &steps[1].to_string(),
    ]);
    assert_eq!(stdout_of(&typed), stdout_of(&own));
    let walk = ask(&[
        "walk",
        "--board",
        "salgrade-out/counterexample-whowins.json",
        "1",
    ]);
    assert_eq!(walk.status.code(), Some(0), "{}", stderr_of(&walk));
    // A case named by its id, from the whole generated file or cut from it.
    let all = salgrade()
        .current_dir(dir.path())
        .args(["gen", "--seed", "5", "--cases", "20", "-o", "all.json"])
        .output()
        .unwrap();
    assert_eq!(all.status.code(), Some(0), "{}", stderr_of(&all));
    let by_id = ask(&["whowins", "--board", "all.json", "--case", "whowins/r012"]);
    assert_eq!(by_id.status.code(), Some(0), "{}", stderr_of(&by_id));
    let cut = salgrade()
        .current_dir(dir.path())
        .args([
            "gen",
            "--seed",
            "5",
            "--cases",
            "20",
            "--case",
            "whowins/r012",
            "-o",
            "r012.json",
        ])
        .output()
        .unwrap();
    assert_eq!(cut.status.code(), Some(0), "{}", stderr_of(&cut));
    let one = ask(&["whowins", "--board", "r012.json"]);
    assert_eq!(stdout_of(&one), stdout_of(&by_id));
    let cut: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("r012.json")).unwrap()).unwrap();
    assert_eq!(cut["cases"].as_array().unwrap().len(), 1);
    std::fs::write(
        dir.path().join("bare-case.json"),
        serde_json::to_string(&cut["cases"][0]).unwrap(),
    )
    .unwrap();
    let bare = ask(&["whowins", "--board", "bare-case.json"]);
    assert_eq!(stdout_of(&bare), stdout_of(&by_id), "{}", stderr_of(&bare));
    // An id the seed did not make says what it did make.
    let missing = ask(&["whowins", "--board", "all.json", "--case", "whowins/r099"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr_of(&missing).contains("`whowins/r020`"),
        "{}",
        stderr_of(&missing)
    );
}

#[test]
fn a_byte_order_mark_is_read_past_in_case_board_and_seed_files() {
    let dir = tempfile::tempdir().unwrap();
    let bom = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, format!("\u{feff}{text}")).unwrap();
        p
    };
    let board = bom("board.json", r#"{"squares": 6, "snadders": [[5, 1]]}"#);
    let run = salgrade()
        .args(["ref", "willfinish", "--board"])
        .arg(&board)
        .arg("1")
        .output()
        .unwrap();
    assert_eq!(stdout_of(&run).trim(), "False", "{}", stderr_of(&run));
    let cases = salgrade().args(["gen", "--cases", "0"]).output().unwrap();
    let cases = bom("cases.json", &stdout_of(&cases));
    let seed = bom("seed", "7\n");
    let rubric = bom("rubric.toml", "[points]\nwillfinish = 30\n");
    let model = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("reference/python/a48/salbLLfunctions.py");
    for args in [
        vec!["--cases-file".as_ref(), cases.as_os_str()],
        vec![
            "--seed-file".as_ref(),
            seed.as_os_str(),
            "--cases".as_ref(),
            "0".as_ref(),
        ],
    ] {
        let run = salgrade()
            .current_dir(dir.path())
            .arg("check")
            .args(&args)
            .arg(&model)
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(0), "{args:?}: {}", stderr_of(&run));
    }
    let subs = dir.path().join("subs/ann");
    std::fs::create_dir_all(&subs).unwrap();
    std::fs::copy(&model, subs.join("salbLLfunctions.py")).unwrap();
    let run = salgrade()
        .current_dir(dir.path())
        .args(["grade", "--cases", "0", "--rubric"])
        .arg(&rubric)
        .arg(dir.path().join("subs"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", stderr_of(&run));
}
