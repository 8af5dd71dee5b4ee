use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

use crate::{fixtures, stderr_of, stdout_of, submission};

fn lint_json(file: &Path) -> (Option<i32>, Value) {
    let out = crate::salgrade()
        .args(["lint", "--format", "json"])
        .arg(file)
        .output()
        .unwrap();
    let json = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", stdout_of(&out), stderr_of(&out)));
    (out.status.code(), json)
}

/// `(line, construct)` pairs from the file's `# expect:` comments.
fn expectations(file: &Path) -> BTreeSet<(u64, String)> {
    let text = std::fs::read_to_string(file).unwrap();
    let mut want = BTreeSet::new();
    for (i, line) in text.lines().enumerate() {
        if let Some((_, list)) = line.split_once("# expect: ") {
            for construct in list.split(" | ") {
                want.insert((i as u64 + 1, construct.trim().to_owned()));
            }
        }
    }
    want
}

#[test]
fn every_construct_is_reported_where_the_fixture_says_and_nowhere_else() {
    let file = fixtures().join("lint/every_construct.py");
    let (code, json) = lint_json(&file);
    assert_eq!(code, Some(1));
    let got: BTreeSet<(u64, String)> = json["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            (
                v["line"].as_u64().unwrap(),
                v["construct"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let want = expectations(&file);
    assert!(want.len() > 40, "the fixture lost its markers");
    let missed: Vec<_> = want.difference(&got).collect();
    let extra: Vec<_> = got.difference(&want).collect();
    assert!(
        missed.is_empty() && extra.is_empty(),
        "missed {missed:?}\nextra {extra:?}"
    );
    assert_eq!(
        json["offending_functions"],
        serde_json::json!(["dualboard", "whowins", "willfinish"])
    );
}

#[test]
fn findings_name_the_function_the_chain_and_the_source() {
    let (_, json) = lint_json(&fixtures().join("lint/every_construct.py"));
    let split = json["violations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["construct"] == "`.split()` (returns a list)")
        .unwrap();
    assert_eq!(split["function"], "deeper");
    assert_eq!(
        split["path"],
        serde_json::json!(["whowins", "helper_far_away", "deeper"])
    );
    assert_eq!(split["graded"], serde_json::json!(["whowins"]));
    assert_eq!(split["column"], 13);
    assert_eq!(
        split["source"],
        "words = \"a b\".split()  # expect: `.split()` (returns a list)"
    );
    let method = json["violations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["function"] == "Copier.__init__")
        .unwrap();
    assert_eq!(method["graded"], serde_json::json!(["dualboard"]));
}

/// Every honest a48 file in the repository: the model solutions and every
/// sample submission and mutant but those that break the rule on purpose
/// (`uses_containers`; `dual_shares_input`, whose helper keeps a list) or
/// cannot be parsed (`syntax_error`).
fn honest_files() -> Vec<std::path::PathBuf> {
    let reference = Path::new(env!("CARGO_MANIFEST_DIR")).join("reference/python/a48");
    let mut files = vec![
        reference.join("salbLLfunctions.py"),
        reference.join("naive/salbLLfunctions.py"),
    ];
    let breaking_on_purpose: [(&str, &[&str]); 2] = [
        ("submissions", &["uses_containers", "syntax_error"]),
        ("mutants/a48", &["dual_shares_input"]),
    ];
    for (folder, breaking) in breaking_on_purpose {
        for entry in std::fs::read_dir(fixtures().join(folder)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if breaking.contains(&name.as_str()) {
                continue;
            }
            let python = std::fs::read_dir(&path)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|x| x == "py"));
            files.extend(python);
        }
    }
    files.sort();
    files
}

#[test]
fn clean_code_has_no_finding() {
    let files = honest_files();
    assert!(files.len() >= 27, "{files:?}");
    for file in files {
        let (code, json) = lint_json(&file);
        assert_eq!(code, Some(0), "{}: {json:#}", file.display());
        assert_eq!(json["violations"], serde_json::json!([]));
    }
}

/// The folders of `fixtures/hostile-rule`: one evasion of the container
/// rule each, in an otherwise correct solution.
fn evasions() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(fixtures().join("hostile-rule"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn every_evasion_is_reported_where_its_fixture_says() {
    let names = evasions();
    assert!(names.len() >= 25, "{names:?}");
    for name in names {
        let file = fixtures()
            .join("hostile-rule")
            .join(&name)
            .join("salbLLfunctions.py");
        let (code, json) = lint_json(&file);
        assert_eq!(code, Some(1), "{name}: {json:#}");
        let got: BTreeSet<(u64, String)> = json["violations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| {
                (
                    v["line"].as_u64().unwrap(),
                    v["construct"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        let want = expectations(&file);
        assert!(!want.is_empty(), "{name} lost its markers");
        let missed: Vec<_> = want.difference(&got).collect();
        let extra: Vec<_> = got.difference(&want).collect();
        assert!(
            missed.is_empty() && extra.is_empty(),
            "{name}: missed {missed:?}\nextra {extra:?}"
        );
    }
}

/// A case file with the first `per_function` cases of each function.
fn few_cases(dir: &Path, per_function: usize) -> std::path::PathBuf {
    let out = crate::salgrade()
        .args(["gen", "--cases", "0"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let mut file: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut kept: Vec<Value> = Vec::new();
    for case in file["cases"].as_array().unwrap() {
        let f = &case["function"];
        if kept.iter().filter(|c| &c["function"] == f).count() < per_function {
            kept.push(case.clone());
        }
    }
    file["cases"] = Value::Array(kept);
    let path = dir.join("cases.json");
    std::fs::write(&path, serde_json::to_vec(&file).unwrap()).unwrap();
    path
}

#[test]
fn evaders_get_the_penalty_beside_an_honest_student() {
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    let names = evasions();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    crate::grade::copy_dir(&fixtures().join("hostile-rule"), &subs, &refs);
    crate::grade::copy_dir(&fixtures().join("submissions"), &subs, &["correct"]);
    let cases = few_cases(dir.path(), 12);
    let out = crate::salgrade()
        .args(["grade", "--cases-file"])
        .arg(&cases)
        .arg("--out-dir")
        .arg(dir.path().join("out"))
        .arg(&subs)
        .output()
        .unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        stderr_of(&out)
    );
    let report: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("out/report.json")).unwrap())
            .unwrap();
    let honest = crate::grade::student(&report, "correct");
    assert_eq!(honest["score"], honest["max_score"], "{honest:#}");
    assert_eq!(honest["penalty"], 0.0);
    assert_eq!(honest["violations"], serde_json::json!([]));
    for name in &names {
        let s = crate::grade::student(&report, name);
        // A working solution: every case passes, and only the rule costs.
        for case in s["cases"].as_array().unwrap() {
            assert_eq!(case["verdict"], "pass", "{name}: {case}");
        }
        let penalty = s["penalty"].as_f64().unwrap();
        assert!(penalty > 0.0, "{name} evades the rule: {s:#}");
        assert_eq!(
            s["score"].as_f64().unwrap(),
            s["max_score"].as_f64().unwrap() - penalty,
            "{name}"
        );
    }
}

#[test]
fn text_output_is_compiler_style_and_exit_1() {
    let file = submission("uses_containers/salbLLfunctions.py");
    let out = crate::salgrade().arg("lint").arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = stdout_of(&out);
    assert!(
        text.contains("salbLLfunctions.py:21:12: finish_move (reached from willfinish, whowins): `set()` call\n    seen = set()"),
        "{text}"
    );
    assert!(text.contains("charged to 3 graded function(s)"), "{text}");
}

#[test]
fn unparsable_and_missing_files() {
    let out = crate::salgrade()
        .arg("lint")
        .arg(submission("syntax_error/salbLLfunctions.py"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout_of(&out).contains("cannot be checked: SyntaxError"),
        "{}",
        stdout_of(&out)
    );
    let out = crate::salgrade()
        .args(["lint", "no/such/file.py"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr_of(&out).contains("no/such/file.py"),
        "{}",
        stderr_of(&out)
    );
}

#[test]
fn a_file_python_cannot_compile_is_unreadable_as_at_import() {
    let t = tempfile::tempdir().unwrap();
    let body = b"def willfinish(first, s):\n    return \"caf\xe9\" == s\n";
    // No coding line: Python reads UTF-8, and the latin-1 byte fails import.
    let bare = t.path().join("bare.py");
    std::fs::write(&bare, [b"# a comment\n".as_slice(), body].concat()).unwrap();
    let (code, json) = lint_json(&bare);
    assert_eq!(code, Some(1), "{json:#}");
    let why = json["unreadable"].as_str().unwrap_or_default();
    assert!(why.contains("utf-8") && why.contains("(line "), "{json:#}");
    // The same bytes with a coding cookie import fine, so they lint fine.
    let declared = t.path().join("declared.py");
    std::fs::write(
        &declared,
        [b"# -*- coding: latin-1 -*-\n".as_slice(), body].concat(),
    )
    .unwrap();
    let (code, json) = lint_json(&declared);
    assert_eq!(code, Some(0), "{json:#}");
    // A NUL byte: no line to name, and no "(line None)".
    let nul = t.path().join("nul.py");
    std::fs::write(&nul, b"def willfinish(a, b):\n    return True\x00\n").unwrap();
    let (code, json) = lint_json(&nul);
    assert_eq!(code, Some(1));
    let why = json["unreadable"].as_str().unwrap_or_default();
    assert!(
        why.contains("null bytes") && !why.contains("None"),
        "{json:#}"
    );
}

#[test]
fn lint_refuses_what_check_refuses_and_warns_when_nothing_graded_is_defined() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let notebook = write("salbLLfunctions.ipynb", "{\"cells\": []}");
    let renamed = write(
        "salbLLfunctions.py.txt",
        "def willfinish(a, b):\n    return [1]\n",
    );
    let other = write("notes.py", "def helper():\n    return [1, 2]\n");
    for (file, says) in [
        (notebook.clone(), "is a Jupyter notebook"),
        (renamed, "rename it to `salbLLfunctions.py`"),
        (
            std::path::PathBuf::from("/etc/hostname"),
            "is not a Python (`.py`)",
        ),
        (dir.path().join("nosuch.py"), "does not exist"),
        (dir.path().to_owned(), "is a folder, not a file"),
    ] {
        for command in ["lint", "check"] {
            let run = crate::salgrade()
                .args([command, "--assignment", "a48"])
                .arg(&file)
                .output()
                .unwrap();
            let err = stderr_of(&run);
            assert_eq!(run.status.code(), Some(2), "{command} {file:?}: {err}");
            assert!(err.contains(says), "{command} {file:?}: {err}");
        }
    }
    let run = crate::salgrade()
        .args(["lint", "--assignment", "a48"])
        .arg(&other)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", stderr_of(&run));
    assert!(
        stderr_of(&run).contains("defines none of the functions the rule is checked in"),
        "{}",
        stderr_of(&run)
    );
    assert!(
        stdout_of(&run).contains("nothing was checked"),
        "{}",
        stdout_of(&run)
    );
}
