use crate::{salgrade, stdout_of, submission};

#[test]
fn the_model_solution_passes() {
    let out = salgrade()
        .arg("check")
        .arg(submission("correct").join("salbLLfunctions.py"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stdout_of(&out));
    assert!(stdout_of(&out).contains("All cases pass."));
}

#[test]
fn a_broken_solution_fails_and_names_the_case() {
    let out = salgrade()
        .arg("check")
        .arg(submission("wrong_answer").join("salbLLfunctions.py"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = stdout_of(&out);
    assert!(text.contains("## `willfinish`: wrong answer"), "{text}");
    assert!(
        text.contains("Smallest failing input, case `willfinish/e"),
        "{text}"
    );
    assert!(
        text.contains("- expected: True") || text.contains("- expected: False"),
        "{text}"
    );
}

#[test]
fn a_rule_breach_fails_check_even_when_every_case_passes() {
    let out = salgrade()
        .args(["check", "--cases", "2"])
        .arg(submission("uses_containers").join("salbLLfunctions.py"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = stdout_of(&out);
    assert!(
        text.contains("## Rule violations (-15 points)")
            && text.contains("All cases pass, but the code breaks the handout's rule"),
        "{text}"
    );
}

#[test]
fn the_hand_written_boards_agree_with_the_reference() {
    // Loading a case file re-derives every expected answer: a hand-worked
    // answer that disagrees with the reference is refused, naming the case.
    let boards = crate::fixtures().join("boards/handout.json");
    let model = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("reference/python/a48/salbLLfunctions.py");
    let out = salgrade()
        .args(["check", "--cases-file"])
        .arg(&boards)
        .arg(&model)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stdout_of(&out));
    let out = salgrade()
        .args(["check", "--shrink-ms", "0", "--cases-file"])
        .arg(&boards)
        .arg(submission("wrong_answer").join("salbLLfunctions.py"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout_of(&out).contains("`handout/willfinish-"),
        "{}",
        stdout_of(&out)
    );
}

#[test]
fn a_missing_file_is_a_setup_error() {
    let out = salgrade()
        .args(["check", "/no/such/salbLLfunctions.py"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
