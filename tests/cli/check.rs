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

fn sample(assignment: &str, name: &str, file: &str) -> std::path::PathBuf {
    crate::fixtures()
        .join(assignment)
        .join("submissions")
        .join(name)
        .join(file)
}

#[test]
fn the_assignment_is_inferred_from_the_file_name_and_said() {
    let out = salgrade()
        .args(["check", "--cases", "0", "--shrink-ms", "0"])
        .arg(sample("leetcode909", "correct", "solution.py"))
        .output()
        .unwrap();
    let err = crate::stderr_of(&out);
    assert_eq!(out.status.code(), Some(0), "{}{err}", stdout_of(&out));
    assert!(
        err.contains("note: assignment `leetcode909`, inferred from the file name `solution.py`"),
        "{err}"
    );
}

#[test]
fn a_case_file_for_another_assignment_is_an_error_not_the_students_fault() {
    let lc909 = crate::fixtures().join("leetcode909/seed-examples.json");
    let a48 = submission("correct").join("salbLLfunctions.py");
    // The file's name says a48; the case file says leetcode909.
    let out = salgrade()
        .args(["check", "--cases-file"])
        .arg(&lc909)
        .arg(&a48)
        .output()
        .unwrap();
    let err = crate::stderr_of(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("is for `leetcode909`") && err.contains("`a48`"),
        "{err}"
    );
    // An explicit `--assignment` that contradicts the case file.
    let out = salgrade()
        .args(["check", "--assignment", "a48", "--cases-file"])
        .arg(&lc909)
        .arg(sample("leetcode909", "correct", "solution.py"))
        .output()
        .unwrap();
    let err = crate::stderr_of(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("`--assignment a48` contradicts case file"),
        "{err}"
    );
}

#[test]
fn out_of_range_numbers_are_usage_errors_not_panics() {
    let file = submission("correct").join("salbLLfunctions.py");
    for (flag, value) in [
        ("--timeout-multiplier", "inf"),
        ("--timeout-multiplier", "1e300"),
        ("--build-timeout-ms", "0"),
        ("--shrink-ms", "18446744073709551615"),
    ] {
        let out = salgrade()
            .args(["check", flag, value])
            .arg(&file)
            .output()
            .unwrap();
        let err = crate::stderr_of(&out);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}: {err}");
        assert!(err.contains(flag), "{flag} {value}: {err}");
    }
}

#[test]
fn an_empty_file_is_said_to_be_empty_once() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("salbLLfunctions.py");
    std::fs::write(&file, "\n  \n").unwrap();
    let out = salgrade()
        .args(["check", "--cases", "0"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = stdout_of(&out);
    assert!(
        text.contains("## Nothing was graded") && text.contains("is empty"),
        "{text}"
    );
    assert!(!text.contains("missing function"), "{text}");
}

#[test]
fn a_counterexample_comes_with_its_literal_call_and_the_command_that_reruns_it() {
    let cwd = tempfile::tempdir().unwrap();
    let file = sample("leetcode909", "visited_before_jump", "solution.py");
    let out = salgrade()
        .current_dir(cwd.path())
        .args(["check", "--cases", "0"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = stdout_of(&out);
    assert!(
        text.contains("```python\nSolution().snakesAndLadders([["),
        "{text}"
    );
    let command = text
        .lines()
        .find_map(|l| l.strip_prefix("- re-run just this case: `"))
        .and_then(|l| l.strip_suffix('`'))
        .unwrap_or_else(|| panic!("no re-run command: {text}"));
    let words: Vec<&str> = command.split(' ').collect();
    assert_eq!(words[..2], ["salgrade", "check"], "{command}");
    let again = salgrade()
        .current_dir(cwd.path())
        .args(&words[1..])
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(1), "{}", crate::stderr_of(&again));
    assert!(
        stdout_of(&again).contains("FAILED 0/1 cases"),
        "{}",
        stdout_of(&again)
    );
}

/// `check` of `source` saved as `name`, in a fresh folder, with `args`.
fn check_source(name: &str, source: &str, args: &[&str]) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(name);
    std::fs::write(&file, source).unwrap();
    let out = salgrade()
        .current_dir(dir.path())
        .arg("check")
        .args(args)
        .arg(&file)
        .output()
        .unwrap();
    (out.status.code(), stdout_of(&out))
}

#[test]
fn check_names_the_seed_it_was_given_and_how_to_see_the_other_cases() {
    let out = salgrade()
        .current_dir(tempfile::tempdir().unwrap().path())
        .args(["check", "--seed", "5", "--cases", "3"])
        .arg(submission("wrong_answer").join("salbLLfunctions.py"))
        .output()
        .unwrap();
    let text = stdout_of(&out);
    // Not printed (a CI log of `check` may reach students), nor called
    // the instructor's.
    assert!(
        text.contains("on the seed given (not printed: `--public-seed` prints it)"),
        "{text}"
    );
    assert!(!text.contains("instructor's seed"), "{text}");
    assert!(text.contains("not shown here; the same `salgrade check` with `--format json > report.json` lists them all"), "{text}");
    assert!(!text.contains("in the full report"), "{text}");
}

#[test]
fn the_call_to_paste_uses_the_name_the_student_defined() {
    let source = "def getMinDiceThrows(move, n):\n    return 0\n";
    let (code, text) = check_source(
        "min_throws.py",
        source,
        &["--assignment", "min-throws", "--cases", "0"],
    );
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("```python\ngetMinDiceThrows(["), "{text}");
    assert!(!text.contains("get_min_dice_throws(["), "{text}");
}

#[test]
fn a_class_under_another_name_is_said_once() {
    let source = "class SnakesGame:\n    def __init__(self, size, jumps, players=2, finish='bounce'):\n        pass\n";
    let (code, text) = check_source(
        "snakes_game.py",
        source,
        &["--assignment", "game", "--cases", "0"],
    );
    assert_eq!(code, Some(1), "{text}");
    assert_eq!(text.matches("no class `Game`").count(), 1, "{text}");
    assert!(!text.contains("failing case"), "{text}");
    assert!(!text.contains("## `move`"), "{text}");
}

#[test]
fn what_the_code_printed_is_cut_to_a_screen() {
    let source = "import sys\nprint('x' * 10_000_000)\nclass Solution:\n    def snakesAndLadders(self, board):\n        print('\\x1b[31mRED\\x1b[0m' * 1000, file=sys.stderr)\n        return -1\n";
    let (code, text) = check_source(
        "solution.py",
        source,
        &["--assignment", "leetcode909", "--cases", "0"],
    );
    assert_eq!(code, Some(1), "{text}");
    assert!(text.len() < 20_000, "{} bytes", text.len());
    assert!(text.contains("more characters]"), "{text}");
}

#[test]
fn a_lone_surrogate_is_a_wrong_type_not_a_dead_process() {
    // The third `willfinish` call returns "\ud800". JSON cannot carry it,
    // and it once ended the process as a malformed answer.
    let out = salgrade()
        .args(["check", "--format", "json", "--cases", "2"])
        .arg(crate::fixtures().join("state/names_a_lone_surrogate/salbLLfunctions.py"))
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let failed: Vec<_> = crate::case_verdicts(&report["students"][0])
        .into_iter()
        .filter(|(_, (v, _))| v != "pass")
        .map(|(case, (v, _))| (case, v))
        .collect();
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert_eq!(failed[0].1, "wrong_type", "{failed:?}");
}

/// A 909 solution that imports its own helper module, `grid.py`.
const USES_A_HELPER: &str = "from grid import flatten\n\nclass Solution:\n    def snakesAndLadders(self, board):\n        jumps = flatten(board)\n        end = len(board) ** 2\n        seen, level, moves = {1}, [1], 0\n        while level:\n            if end in seen:\n                return moves\n            moves += 1\n            nxt = []\n            for here in level:\n                for roll in range(1, 7):\n                    there = here + roll\n                    if there > end:\n                        break\n                    if jumps[there] != -1:\n                        there = jumps[there]\n                    if there not in seen:\n                        seen.add(there)\n                        nxt.append(there)\n            level = nxt\n        return -1\n";
const HELPER: &str = "def flatten(board):\n    jumps = [-1]\n    for k, row in enumerate(board[::-1]):\n        jumps += row if k % 2 == 0 else row[::-1]\n    return jumps\n";

#[test]
fn helpers_beside_the_file_are_found_however_the_file_is_named() {
    let t = tempfile::tempdir().unwrap();
    let me = t.path().join("me");
    std::fs::create_dir(&me).unwrap();
    std::fs::write(me.join("solution.py"), USES_A_HELPER).unwrap();
    std::fs::write(me.join("grid.py"), HELPER).unwrap();
    let other = t.path().join("other");
    std::fs::create_dir(&other).unwrap();
    std::os::unix::fs::symlink(me.join("solution.py"), other.join("solution.py")).unwrap();
    // In the student's own folder (the most common way, and the Classroom
    // workflow's), from a folder beside it, and through a symbolic link.
    for (cwd, file) in [
        (&me, "solution.py"),
        (&me, "./solution.py"),
        (&other, "../me/solution.py"),
        (&other, "solution.py"),
    ] {
        let out = salgrade()
            .current_dir(cwd)
            .args(["check", "--cases", "2", "--shrink-ms", "0", file])
            .output()
            .unwrap();
        let text = stdout_of(&out);
        assert_eq!(out.status.code(), Some(0), "{file} in {cwd:?}: {text}");
        assert!(text.contains("All cases pass."), "{file}: {text}");
    }
}

#[test]
fn check_in_a_repository_leaves_its_folder_ignored_and_names_a_missing_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        submission("wrong_answer").join("salbLLfunctions.py"),
        dir.path().join("salbLLfunctions.py"),
    )
    .unwrap();
    let run = salgrade()
        .current_dir(dir.path())
        .args(["check", "--cases", "0", "salbLLfunctions.py"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", stdout_of(&run));
    let ignore = std::fs::read_to_string(dir.path().join("salgrade-out/.gitignore")).unwrap();
    assert!(ignore.lines().any(|l| l == "*"), "{ignore}");
    let missing = salgrade()
        .current_dir(dir.path())
        .args(["check", "nosuch.py"])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    let err = crate::stderr_of(&missing);
    assert!(err.contains("`nosuch.py` does not exist"), "{err}");
    let case = salgrade()
        .current_dir(dir.path())
        .args(["check", "SALBLLFUNCTIONS.py"])
        .output()
        .unwrap();
    let err = crate::stderr_of(&case);
    assert!(
        err.contains("does not exist (there is `salbLLfunctions.py`: names are case-sensitive)"),
        "{err}"
    );
}
