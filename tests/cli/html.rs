//! `--format html`: every student-controlled text escaped (hostile names,
//! output and answers leave no live markup), `check` writes a student's page,
//! and headless Chromium renders the sample cohort's page with a drawing for
//! every failing function and no console error (skipped, with a message,
//! where Chromium is not installed).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::clusters::a48_twins;
use crate::{salgrade, stderr_of, submission};

/// A correct file whose `willfinish` prints markup and control bytes and
/// answers with a hostile string.
fn hostile_source() -> String {
    let correct =
        std::fs::read_to_string(submission("correct").join("salbLLfunctions.py")).unwrap();
    format!(
        "{correct}\n\ndef willfinish(first, stepsize):\n    import sys\n    print('<script>alert(\"out\")</script>\\x1b[31m\\x07\\'\"', flush=True)\n    print('</pre><img src=x onerror=alert(2)>', file=sys.stderr, flush=True)\n    return '<b onmouseover=\"alert(3)\">\\x1b\\x00</b>'\n"
    )
}

/// Names a student folder can have that are markup, quotes or control bytes.
const HOSTILE_NAMES: [&str; 3] = [
    "<script>alert(1)<",
    "\"><img src=x onerror=alert(4)>",
    "quote's \u{1b}[2J bell\u{7}",
];

/// The markup an escape that failed would leave live.
const LIVE: [&str; 3] = ["<script>alert", "<img", "<b onmouseover"];

#[track_caller]
fn assert_no_live_markup(html: &str) {
    for needle in LIVE {
        assert!(!html.contains(needle), "`{needle}` is live in the page");
    }
    // One script: the page's own, with its nonce.
    assert_eq!(html.matches("<script").count(), 1);
    assert!(html.contains("<script nonce=\""));
    for c in html.chars() {
        assert!(
            !c.is_control() || c == '\n' || c == '\t',
            "a control character {:?} reached the page",
            c
        );
    }
}

#[test]
fn hostile_names_and_outputs_leave_no_live_markup() {
    let root = tempfile::tempdir().unwrap();
    let subs = root.path().join("subs");
    for name in HOSTILE_NAMES {
        let dir = subs.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("salbLLfunctions.py"), hostile_source()).unwrap();
    }
    let html = root.path().join("report.html");
    let run = salgrade()
        .args([
            "grade",
            "--cases",
            "1",
            "--shrink-ms",
            "500",
            "--format",
            "html",
            "-o",
        ])
        .arg(&html)
        .arg("--out-dir")
        .arg(root.path().join("out"))
        .arg(&subs)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", stderr_of(&run));
    let page = std::fs::read_to_string(&html).unwrap();
    assert_no_live_markup(&page);
    // The texts are shown, escaped, not dropped.
    assert!(
        page.contains("&lt;script&gt;alert(1)&lt;"),
        "the name is shown"
    );
    assert!(page.contains("&quot;&gt;&lt;img src=x onerror=alert(4)&gt;"));
    assert!(page.contains("&lt;script&gt;alert(&quot;out&quot;)&lt;/script&gt;"));
    assert!(page.contains("&lt;/pre&gt;&lt;img src=x onerror=alert(2)&gt;"));
    assert!(page.contains("&lt;b onmouseover=\\&quot;alert(3)\\&quot;&gt;"));
    // Control characters in a name are escaped where the name enters
    // salgrade (discovery), so the page shows them as text.
    assert!(
        page.contains("quote&#39;s \\x1b[2J bell\\x07"),
        "the name's control characters are shown escaped"
    );
    if let Some(browser) = chromium() {
        let dom = render(&browser, &html, root.path()).dom;
        assert_no_live_markup(&dom);
    }
}

#[test]
fn check_writes_one_students_page_with_the_boards_drawn() {
    let run = salgrade()
        .args(["check", "--cases", "2", "--format", "html"])
        .arg(submission("wrong_answer").join("salbLLfunctions.py"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", stderr_of(&run));
    let page = String::from_utf8(run.stdout).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert_eq!(page.matches("<section class=\"student").count(), 1);
    // No cohort part for one student.
    assert!(!page.contains("id=\"mistakes\""));
    assert!(page.matches("<svg class=\"board\"").count() >= 2, "{page}");
    assert!(page.contains("class=\"walk\"") && page.contains("class=\"wrong\""));
    assert!(!page.contains("http://") && !page.contains("https://"));
}

/// Chromium's program, or `None` (with a message) where it is missing.
fn chromium() -> Option<PathBuf> {
    for name in ["chromium", "chromium-browser"] {
        if let Ok(out) = Command::new("sh")
            .args(["-c", &format!("command -v {name}")])
            .output()
            && out.status.success()
        {
            let path = String::from_utf8_lossy(&out.stdout).trim().to_owned();
            return Some(PathBuf::from(path));
        }
    }
    println!("skipped: no `chromium` on PATH (Debian: `apt-get install chromium`)");
    None
}

struct Rendered {
    dom: String,
    console: Vec<String>,
    screenshot: PathBuf,
}

/// The page rendered headless: its DOM after scripts ran, its console
/// lines, and a screenshot.
fn render(browser: &Path, page: &Path, scratch: &Path) -> Rendered {
    let run = |extra: &[&str], profile: &str| {
        let out = Command::new(browser)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--enable-logging=stderr",
                "--v=0",
            ])
            .arg(format!(
                "--user-data-dir={}",
                scratch.join(profile).display()
            ))
            .args(extra)
            .arg(format!("file://{}", page.display()))
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr_of(&out));
        out
    };
    let dumped = run(&["--dump-dom"], "profile-dom");
    let screenshot = scratch.join("report.png");
    let shot = run(
        &[
            "--window-size=1000,1300",
            "--hide-scrollbars",
            &format!("--screenshot={}", screenshot.display()),
        ],
        "profile-shot",
    );
    let console = [&dumped, &shot]
        .iter()
        .flat_map(|o| {
            String::from_utf8_lossy(&o.stderr)
                .lines()
                .filter(|l| l.contains("CONSOLE") || l.contains("Content Security Policy"))
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect();
    Rendered {
        dom: String::from_utf8_lossy(&dumped.stdout).into_owned(),
        console,
        screenshot,
    }
}

/// Failing functions in a report: with a counterexample, and in all.
fn failing_functions(report: &Value) -> (usize, usize) {
    let mut shrunk = 0;
    let mut all = 0;
    for s in report["students"].as_array().unwrap() {
        for f in s["functions"].as_object().unwrap().values() {
            if f["passed"] != f["total"] {
                all += 1;
                if f.get("counterexample").is_some() {
                    shrunk += 1;
                }
            }
        }
    }
    (shrunk, all)
}

#[test]
fn chromium_renders_the_cohort_page_with_every_failure_drawn() {
    let Some(browser) = chromium() else { return };
    let graded = a48_twins();
    let scratch = tempfile::tempdir().unwrap();
    let rendered = render(&browser, &graded.html, scratch.path());
    let dom = &rendered.dom;
    let students = graded.report["students"].as_array().unwrap().len();
    let groups = graded.report["clusters"].as_array().unwrap().len();
    assert_eq!(dom.matches("<section class=\"student").count(), students);
    assert_eq!(dom.matches("<section class=\"mistake\"").count(), groups);
    assert_eq!(
        dom.matches("<tr class=\"").count(),
        students,
        "one score row per student"
    );
    // Every failing function with a counterexample is drawn, or said to
    // be too large (the `recursion` twins' boards of about 1,000 squares).
    let (shrunk, all) = failing_functions(&graded.report);
    let drawn_for_students = dom
        .split("<div class=\"failure\"")
        .skip(1)
        .filter(|f| f.contains("<svg class=\"board\"") || f.contains("<table class=\"calls\""))
        .count();
    let undrawn = dom
        .split("<div class=\"failure\"")
        .skip(1)
        .filter(|f| f.contains("class=\"undrawn\""))
        .count();
    assert!(all > shrunk && shrunk > 0);
    assert_eq!(drawn_for_students + undrawn, shrunk, "{dom}");
    assert!(undrawn <= 4, "{undrawn} boards too large to draw");
    assert!(dom.contains("<svg class=\"histogram\""));
    // Each twin's failure links to the mistake it shares.
    assert!(dom.matches("<dt>shared</dt>").count() >= 2 * groups);
    assert!(
        rendered.console.is_empty(),
        "console: {:#?}",
        rendered.console
    );
    sorting_works(&browser, &graded.html, scratch.path());
    let png = std::fs::read(&rendered.screenshot).unwrap();
    assert!(png.starts_with(b"\x89PNG") && png.len() > 20_000);
    if let Some(keep) = std::env::var_os("SALGRADE_KEEP_SCREENSHOT") {
        std::fs::copy(&rendered.screenshot, keep).unwrap();
    }
}

/// Clicking the `total` header (by a script the page's nonce allows, run
/// after the page's own) puts the zero scores first.
fn sorting_works(browser: &Path, page: &Path, scratch: &Path) {
    let html = std::fs::read_to_string(page).unwrap();
    let nonce = html
        .split("<script nonce=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap()
        .to_owned();
    let click = format!(
        "<script nonce=\"{nonce}\">var b = document.querySelectorAll('#score-table th button'); b[b.length - 1].click();</script>\n</body>"
    );
    let clicked = scratch.join("clicked.html");
    std::fs::write(&clicked, html.replace("</body>", &click)).unwrap();
    let dom = render(browser, &clicked, &scratch.join("click")).dom;
    let table = dom
        .split("id=\"score-table\"")
        .nth(1)
        .and_then(|rest| rest.split("</table>").next())
        .unwrap();
    let last_zero = table.rfind("<tr class=\"zero\"").unwrap();
    let first_full = table.find("<tr class=\"full\"").unwrap();
    assert!(last_zero < first_full, "not sorted by total: {table}");
}

#[test]
fn ids_are_unique_code_is_code_and_a_traceback_keeps_its_lines() {
    let run = salgrade()
        .args(["check", "--cases", "2", "--format", "html"])
        .arg(submission("wrong_answer").join("salbLLfunctions.py"))
        .output()
        .unwrap();
    let page = String::from_utf8(run.stdout).unwrap();
    assert!(page.matches("<svg class=\"board\"").count() >= 2, "{page}");
    let mut seen = std::collections::BTreeSet::new();
    for id in page.split(" id=\"").skip(1) {
        let id = id.split('"').next().unwrap();
        assert!(seen.insert(id.to_owned()), "the id `{id}` is used twice");
    }
    // Every arrow points to a marker of its own figure.
    for url in page.split("url(#").skip(1) {
        let id = url.split(')').next().unwrap();
        assert!(seen.contains(id), "`url(#{id})` names no id");
    }
    // Backticks are code, outside what the student's code wrote.
    let prose: String = page
        .split("<pre>")
        .map(|p| p.split_once("</pre>").map_or(p, |(_, after)| after))
        .collect();
    assert!(!prose.contains('`'), "a literal backtick: {prose}");
    // A traceback keeps its line breaks.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("solution.py"),
        "def helper(b):\n    return b[99]\n\nclass Solution:\n    def snakesAndLadders(self, board):\n        return helper(board)\n",
    )
    .unwrap();
    let run = salgrade()
        .current_dir(dir.path())
        .args(["check", "--cases", "0", "--format", "html", "solution.py"])
        .output()
        .unwrap();
    let page = String::from_utf8(run.stdout).unwrap();
    assert!(
        page.contains("<dt>detail</dt><dd><pre>IndexError: list index out of range\nline 6, in snakesAndLadders"),
        "{page}"
    );
    // A whole file's one-line reason is prose, its file name code.
    std::fs::write(dir.path().join("solution.py"), "").unwrap();
    let run = salgrade()
        .current_dir(dir.path())
        .args(["check", "--cases", "0", "--format", "html", "solution.py"])
        .output()
        .unwrap();
    let page = String::from_utf8(run.stdout).unwrap();
    assert!(page.contains("<code>solution.py</code> is empty"), "{page}");
    assert!(!page.contains("` is empty"), "a literal backtick: {page}");
}
