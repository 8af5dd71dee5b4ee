//! The two-player game (seed 004): a class graded by scenarios, per call
//! kind, with shrunk scenarios in the feedback.

use serde_json::Value;

use crate::{fixtures, salgrade, stderr_of, stdout_of};

#[test]
fn the_sample_cohort_fails_where_each_bug_is() {
    let out = tempfile::tempdir().unwrap();
    let run = salgrade()
        .args(["grade", "--assignment", "game", "--cases", "6", "--out-dir"])
        .arg(out.path())
        .arg("--feedback")
        .arg(out.path().join("fb"))
        .arg(fixtures().join("game/submissions"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", stderr_of(&run));
    let table = stdout_of(&run);
    for unit in ["Game", "move", "play"] {
        assert!(table.contains(unit), "{table}");
    }
    let report: Value =
        serde_json::from_slice(&std::fs::read(out.path().join("report.json")).unwrap()).unwrap();
    for s in report["students"].as_array().unwrap() {
        let name = s["student"].as_str().unwrap();
        let failing: Vec<&Value> = s["cases"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["verdict"] != "pass")
            .collect();
        if name == "correct" {
            assert!(failing.is_empty(), "{failing:?}");
            continue;
        }
        assert!(!failing.is_empty(), "{name} should fail");
        for c in &failing {
            assert_eq!(c["verdict"], "wrong_answer", "{name}: {c}");
        }
        // Each failing unit shows a shrunk scenario that names the call.
        for (unit, score) in s["functions"].as_object().unwrap() {
            if score["passed"] != score["total"] {
                let c = &score["counterexample"];
                assert!(
                    c["detail"].as_str().is_some_and(|d| d.contains("call ")),
                    "{name} {unit}: {c}"
                );
                assert_eq!(c["case"]["function"], unit.as_str());
            }
        }
    }
    // The bugs land where they should: a shared list breaks games built
    // one after another, and player two first breaks `play`.
    let play_of = |name: &str| {
        let s = report["students"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["student"] == name)
            .unwrap();
        (
            s["functions"]["play"]["passed"].as_u64(),
            s["functions"]["play"]["total"].as_u64(),
        )
    };
    let (passed, total) = play_of("player_two_first");
    assert!(passed < total);
    let fb = std::fs::read_to_string(out.path().join("fb/no_bounce.md")).unwrap();
    assert!(fb.contains("bounces back"), "{fb}");
}

#[test]
fn check_shows_a_shrunk_scenario_and_the_seed_board_cases_pass_the_model() {
    let out = salgrade()
        .args(["check", "--assignment", "game"])
        .arg(fixtures().join("game/submissions/win_before_jump/snakes_game.py"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr_of(&out));
    let text = stdout_of(&out);
    assert!(text.contains("Smallest failing input"), "{text}");
    let out = salgrade()
        .args(["check", "--cases-file"])
        .arg(fixtures().join("game/seed-board.json"))
        .arg(fixtures().join("game/submissions/correct/snakes_game.py"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
}

/// Python and C++ students of the game in one folder: one table, each
/// graded in its own language, the same bugs found in both.
#[test]
fn a_mixed_python_and_cpp_folder_grades_into_one_table() {
    if std::process::Command::new("g++")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("note: skipping: no g++ on PATH (.ci/run installs it)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    for (from, to) in [
        (
            "game/submissions/correct/snakes_game.py",
            "py_correct/snakes_game.py",
        ),
        (
            "game/submissions/no_bounce/snakes_game.py",
            "py_no_bounce/snakes_game.py",
        ),
        (
            "game/cpp/correct/snakes_game.cpp",
            "cpp_correct/snakes_game.cpp",
        ),
        (
            "game/cpp/no_bounce/snakes_game.cpp",
            "cpp_no_bounce/snakes_game.cpp",
        ),
        (
            "game/cpp/player_two_first/snakes_game.cpp",
            "cpp_player_two_first/snakes_game.cpp",
        ),
    ] {
        let target = subs.join(to);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(fixtures().join(from), target).unwrap();
    }
    let out = dir.path().join("out");
    let run = salgrade()
        .args(["grade", "--assignment", "game", "--cases", "6", "--out-dir"])
        .arg(&out)
        .arg(&subs)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", stderr_of(&run));
    let report: Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    let students = report["students"].as_array().unwrap();
    assert_eq!(students.len(), 5);
    for s in students {
        let name = s["student"].as_str().unwrap();
        let file = s["file"].as_str().unwrap();
        assert!(
            file.ends_with(if name.starts_with("py_") {
                ".py"
            } else {
                ".cpp"
            }),
            "{name}: {file}"
        );
        let full = s["score"] == s["max_score"];
        assert_eq!(full, name.ends_with("correct"), "{name}: {}", s["score"]);
    }
    let unit = |name: &str, unit: &str| {
        let s = students.iter().find(|s| s["student"] == name).unwrap();
        s["functions"][unit]["passed"] == s["functions"][unit]["total"]
    };
    // The same bug fails the same units in both languages.
    for u in ["Game", "move", "play"] {
        assert_eq!(unit("py_no_bounce", u), unit("cpp_no_bounce", u), "{u}");
    }
    assert!(!unit("cpp_player_two_first", "play"));
    assert!(
        report["sandbox"].as_str().unwrap().contains("C++"),
        "{}",
        report["sandbox"]
    );
}
