use crate::{salgrade, stderr_of, stdout_of};

#[test]
fn same_seed_same_bytes() {
    let a = salgrade().args(["gen", "--seed", "1"]).output().unwrap();
    let b = salgrade().args(["gen", "--seed", "1"]).output().unwrap();
    assert!(a.status.success(), "{}", stderr_of(&a));
    assert_eq!(a.stdout, b.stdout);
    let c = salgrade().args(["gen", "--seed", "2"]).output().unwrap();
    assert_ne!(a.stdout, c.stdout);
    let v: serde_json::Value = serde_json::from_slice(&a.stdout).unwrap();
    assert_eq!(v["assignment"], "a48");
    assert!(v["cases"].as_array().unwrap().len() > 100);
}

#[test]
fn generated_file_grades_the_model_and_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cases.json");
    salgrade()
        .args(["gen", "--seed", "9", "--cases", "3", "-o"])
        .arg(&file)
        .assert()
        .success();
    let out = salgrade()
        .args(["check", "--cases-file"])
        .arg(&file)
        .arg(crate::submission("correct").join("salbLLfunctions.py"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        stdout_of(&out),
        stderr_of(&out)
    );
}

#[test]
fn a_tampered_case_file_is_refused_with_its_name() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cases.json");
    let out = salgrade().args(["gen", "--cases", "1"]).output().unwrap();
    let text = stdout_of(&out).replacen(
        r#""one_of": [
          true
        ]"#,
        r#""one_of": [
          false
        ]"#,
        1,
    );
    std::fs::write(&file, text).unwrap();
    let out = salgrade()
        .args(["check", "--cases-file"])
        .arg(&file)
        .arg("x.py")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_reader_that_stops_early_ends_gen_quietly() {
    use std::io::BufRead;
    // `salgrade gen | head -1`: the reader takes one line and closes the pipe.
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("salgrade"))
        .args(["gen", "--seed", "3"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first, "{\n");
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.is_empty(), "{err}");
}
