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
