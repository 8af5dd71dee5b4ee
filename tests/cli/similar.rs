//! `salgrade similar`: the formats, the archive, drafts, and bad input.
//! Each test builds its own small cohort of min-throws solutions (the
//! students' files are written here, one style each) in a temp dir.

use std::path::Path;

use serde_json::Value;

use crate::{stderr_of, stdout_of};

/// Independent solutions, each in its own style.
const OTHERS: &[&str] = &[
    "def get_min_dice_throws(move, n):\n    seen = {0}\n    level = [0]\n    throws = 0\n    while level:\n        if n - 1 in level:\n            return throws\n        nxt = []\n        for c in level:\n            for x in range(c + 1, min(c + 6, n - 1) + 1):\n                if move[x] >= 0:\n                    x = move[x]\n                if x not in seen:\n                    seen.add(x)\n                    nxt.append(x)\n        level = nxt\n        throws += 1\n    return -1\n",
    "def get_min_dice_throws(move, n):\n    best = [None] * n\n    best[0] = 0\n    changed = True\n    while changed:\n        changed = False\n        for c in range(n):\n            if best[c] is None:\n                continue\n            for k in range(1, 7):\n                if c + k < n:\n                    t = c + k\n                    if move[t] > -1:\n                        t = move[t]\n                    if best[t] is None or best[c] + 1 < best[t]:\n                        best[t] = best[c] + 1\n                        changed = True\n    return -1 if best[n - 1] is None else best[n - 1]\n",
    "import heapq\n\ndef get_min_dice_throws(move, n):\n    heap = [(0, 0)]\n    done = set()\n    while heap:\n        d, c = heapq.heappop(heap)\n        if c in done:\n            continue\n        done.add(c)\n        if c == n - 1:\n            return d\n        for k in range(1, 7):\n            if c + k <= n - 1:\n                t = move[c + k] if move[c + k] != -1 else c + k\n                heapq.heappush(heap, (d + 1, t))\n    return -1\n",
    "def get_min_dice_throws(move, n):\n    queue = [(0, 0)]\n    visited = [False] * n\n    visited[0] = True\n    while len(queue) > 0:\n        cell, d = queue.pop(0)\n        if cell == n - 1:\n            return d\n        j = cell + 1\n        while j <= cell + 6 and j < n:\n            dest = j if move[j] == -1 else move[j]\n            if not visited[dest]:\n                visited[dest] = True\n                queue.append((dest, d + 1))\n            j += 1\n    return -1\n",
];

/// The solution copied, and its copy with names, layout and loop changed.
const ORIGINAL: &str = "from collections import deque\n\n\ndef get_min_dice_throws(move, n):\n    goal = n - 1\n    throws = [-1] * n\n    throws[0] = 0\n    frontier = deque([0])\n    while frontier:\n        cell = frontier.popleft()\n        if cell == goal:\n            return throws[cell]\n        for landed in range(cell + 1, min(cell + 6, goal) + 1):\n            stand = landed if move[landed] == -1 else move[landed]\n            if throws[stand] == -1:\n                throws[stand] = throws[cell] + 1\n                frontier.append(stand)\n    return -1\n";
const COPY: &str = "from collections import deque\n\ndef get_min_dice_throws(jumps, size):\n  # mine </pre><script>alert(1)</script>\n  end = size - 1\n  q = deque([0])\n  cost = [-1] * size\n  cost[0] = 0\n  while q:\n    at = q.popleft()\n    if end == at:\n      return cost[at]\n    to = at + 1\n    while to <= min(at + 6, end):\n      real = jumps[to] if jumps[to] != -1 else to\n      if -1 == cost[real]:\n        cost[real] = cost[at] + 1\n        q.append(real)\n      to += 1\n  return -1\n";

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A cohort in folders: `ann` (the original), `bob` (the copy) and the
/// others, each `min_throws.py` in their folder.
fn cohort(root: &Path) {
    write(&root.join("ann/min_throws.py"), ORIGINAL);
    write(&root.join("bob/min_throws.py"), COPY);
    for (i, text) in OTHERS.iter().enumerate() {
        write(&root.join(format!("s{i}/min_throws.py")), text);
    }
}

fn similar(args: &[&str], root: &Path) -> std::process::Output {
    crate::salgrade()
        .arg("similar")
        .arg(root)
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn the_copy_is_the_top_pair_in_every_format() {
    let t = tempfile::tempdir().unwrap();
    cohort(t.path());
    let out = similar(&[], t.path());
    let table = stdout_of(&out);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a flagged pair exits 1: {table}"
    );
    let first = table.lines().nth(1).unwrap_or_default();
    assert!(
        first.contains("ann ~ bob") && first.contains("FLAGGED"),
        "{table}"
    );
    assert!(table.contains("threshold"), "{table}");

    let out = similar(&["--format", "csv"], t.path());
    let csv = stdout_of(&out);
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some(
            "rank,student_a,student_b,kind,score,flagged,file_a,file_b,fragment_a,fragment_b,fragment_lines"
        )
    );
    let top: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(&top[1..4], ["ann", "bob", "student"], "{csv}");
    let score: f64 = top[4].parse().unwrap();
    assert!((0.0..=1.0).contains(&score) && score > 0.8, "{csv}");

    let out = similar(&["--format", "json"], t.path());
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["students"], 6);
    let pair = &json["pairs"][0];
    assert_eq!(
        (pair["student_a"].as_str(), pair["student_b"].as_str()),
        (Some("ann"), Some("bob"))
    );
    assert_eq!(pair["flagged"], true);
    assert!(
        pair["longest_fragment"]["lines"].as_u64().unwrap() >= 3,
        "{pair}"
    );
    assert!(
        json["threshold"]["how"]
            .as_str()
            .unwrap()
            .contains("default"),
        "{json}"
    );
    for p in json["pairs"].as_array().unwrap() {
        let s = p["score"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&s));
    }
}

#[test]
fn the_html_shows_the_pair_side_by_side_with_student_text_escaped() {
    let t = tempfile::tempdir().unwrap();
    cohort(t.path());
    let page = t.path().join("similar.html");
    let out = similar(&["--format", "html", "-o"], t.path());
    // `-o` needs its value: the command line above is refused.
    assert_eq!(out.status.code(), Some(2));
    let out = crate::salgrade()
        .arg("similar")
        .arg(t.path())
        .args(["--format", "html", "-o"])
        .arg(&page)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr_of(&out));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("id=\"similarity\""), "the section");
    assert!(html.contains("class=\"sbs\""), "side by side");
    assert!(html.contains("<mark"), "highlighted");
    assert!(!html.contains("<script>alert"), "student text is escaped");
    assert!(html.contains("&lt;script&gt;alert"), "and shown");
}

#[test]
fn the_output_files_extension_sets_the_format_and_a_mismatch_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let subs = t.path().join("subs");
    cohort(&subs);
    let pairs = t.path().join("pairs.csv");
    let out = similar(&["-o", pairs.to_str().unwrap()], &subs);
    assert_eq!(out.status.code(), Some(1), "{}", stderr_of(&out));
    let csv = std::fs::read_to_string(&pairs).unwrap();
    assert!(
        csv.starts_with("rank,student_a,student_b,kind,score,flagged,"),
        "CSV, not the terminal's table: {csv}"
    );
    let page = t.path().join("similar.html");
    let out = similar(&["-o", page.to_str().unwrap()], &subs);
    assert_eq!(out.status.code(), Some(1), "{}", stderr_of(&out));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("id=\"similarity\""), "{html}");

    let report = t.path().join("pairs.json");
    let out = similar(&["--format", "csv", "-o", report.to_str().unwrap()], &subs);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr_of(&out);
    assert!(
        err.contains("is named as JSON, but `--format csv` writes CSV"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(!report.exists(), "nothing is written");
}

#[test]
fn a_student_close_to_an_archive_file_is_reported_apart() {
    let t = tempfile::tempdir().unwrap();
    let subs = t.path().join("subs");
    for (i, text) in OTHERS.iter().enumerate() {
        write(&subs.join(format!("s{i}.py")), text);
    }
    write(&subs.join("carl.py"), COPY);
    let public = t.path().join("public");
    write(&public.join("geeks-article.py"), ORIGINAL);
    // The same file twice in the archive: archive files never pair.
    write(&public.join("mirror/geeks-article.py"), ORIGINAL);
    let out = crate::salgrade()
        .arg("similar")
        .arg(&subs)
        .arg("--against")
        .arg(&public)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let json: Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr_of(&out)));
    assert_eq!(json["archive_files"], 2);
    let pairs = json["pairs"].as_array().unwrap();
    let top = &pairs[0];
    assert_eq!(top["kind"], "archive", "{top}");
    assert_eq!(top["student_a"], "carl");
    assert!(
        top["student_b"].as_str().unwrap().starts_with("public/"),
        "{top}"
    );
    for p in pairs {
        assert!(
            p["kind"] == "student" || !p["student_a"].as_str().unwrap().starts_with("public/"),
            "an archive file is never the student: {p}"
        );
    }
    let table = stdout_of(
        &crate::salgrade()
            .arg("similar")
            .arg(&subs)
            .arg("--against")
            .arg(&public)
            .output()
            .unwrap(),
    );
    assert!(table.contains("carl close to `public/"), "{table}");
}

#[test]
fn a_students_drafts_are_never_a_pair() {
    let t = tempfile::tempdir().unwrap();
    for (i, text) in OTHERS.iter().enumerate() {
        write(&t.path().join(format!("s{i}/min_throws.py")), text);
    }
    write(&t.path().join("dora/v1/min_throws.py"), ORIGINAL);
    write(&t.path().join("dora/v2/min_throws.py"), ORIGINAL);
    write(&t.path().join("dora/min_throws_old.py"), COPY);
    let out = similar(&["--format", "json", "--min-score", "0"], t.path());
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "nothing flagged: {json}");
    for p in json["pairs"].as_array().unwrap() {
        assert_ne!(p["student_a"], p["student_b"], "{p}");
    }
}

#[test]
fn bad_input_gets_one_line_or_a_note() {
    let t = tempfile::tempdir().unwrap();
    let out = similar(&[], &t.path().join("missing"));
    assert_eq!(out.status.code(), Some(2));
    let err = stderr_of(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("missing") && err.contains("does not exist"),
        "{err}"
    );

    let out = similar(&[], t.path());
    assert_eq!(out.status.code(), Some(2));
    let err = stderr_of(&out);
    assert!(err.contains("holds no submissions"), "{err}");

    cohort(t.path());
    let out = crate::salgrade()
        .arg("similar")
        .arg(t.path())
        .args(["--against"])
        .arg(t.path().join("nowhere"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr_of(&out));
    assert!(stderr_of(&out).contains("nowhere"), "{}", stderr_of(&out));

    write(
        &t.path().join("eve/min_throws.py"),
        "def get_min_dice_throws(move, n:\n    return )\n",
    );
    write(
        &t.path().join("fay/min_throws.py"),
        &"x = 1\n".repeat(200_000),
    );
    let out = similar(&[], t.path());
    assert_eq!(out.status.code(), Some(1), "{}", stderr_of(&out));
    let err = stderr_of(&out);
    assert!(
        err.contains("eve/min_throws.py") && err.contains("does not parse"),
        "{err}"
    );
    assert!(
        err.contains("fay/min_throws.py") && err.contains("left out"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");

    let out = crate::salgrade()
        .arg("similar")
        .arg(t.path().join("ann/min_throws.py"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_of(&out).contains("is a file"), "{}", stderr_of(&out));
}

#[test]
fn help_states_every_flag_and_its_default() {
    let out = crate::salgrade()
        .args(["similar", "--help"])
        .output()
        .unwrap();
    let help = stdout_of(&out);
    for flag in [
        "--against",
        "--format",
        "--threshold",
        "--top",
        "--min-score",
        "--jobs",
        "-o",
    ] {
        assert!(help.contains(flag), "{flag}: {help}");
    }
    assert!(help.matches("default").count() >= 6, "{help}");
}

/// `grade --format html` of a cohort has a "Similar submissions" section
/// with the copied pair flagged and the threshold said; `--similarity off`
/// leaves it out, and so does a cohort of one.
#[test]
fn grades_html_report_has_a_similarity_section_unless_turned_off() {
    let t = tempfile::tempdir().unwrap();
    let subs = t.path().join("subs");
    cohort(&subs);
    let grade = |extra: &[&str], folder: &Path, page: &str| {
        let html = t.path().join(page);
        let out = crate::salgrade()
            .args(["grade", "--cases", "1", "--format", "html", "-o"])
            .arg(&html)
            .arg("--out-dir")
            .arg(t.path().join("out"))
            .args(extra)
            .arg(folder)
            .output()
            .unwrap();
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{}",
            stderr_of(&out)
        );
        std::fs::read_to_string(&html).unwrap()
    };
    let page = grade(&[], &subs, "on.html");
    let section = page
        .split_once("<section id=\"similarity\">")
        .map(|(_, s)| s)
        .expect("a similarity section");
    assert!(section.contains("<h2>Similar submissions</h2>"));
    assert!(section.contains("ann ~ bob"), "{section}");
    assert!(section.contains("flagged"));
    assert!(section.contains("threshold 0.60"), "the threshold is said");
    // The copy's comment is shown, escaped, in the side-by-side view.
    assert!(section.contains("&lt;/pre&gt;&lt;script&gt;alert(1)"));
    assert_eq!(page.matches("<script").count(), 1, "only salgrade's script");
    assert!(page.contains("href=\"#similarity\""));

    let off = grade(&["--similarity", "off"], &subs, "off.html");
    assert!(!off.contains("id=\"similarity\""));
    assert!(
        off.contains("id=\"students\""),
        "the rest of the page is there"
    );

    let alone = t.path().join("alone");
    write(&alone.join("ann/min_throws.py"), ORIGINAL);
    let one = grade(&[], &alone, "one.html");
    assert!(
        !one.contains("id=\"similarity\""),
        "a cohort of one has no pairs"
    );
}
