//! The house's layering, read from the source: no import circle between
//! files, `report` never reaches into `runner`, and nothing below the CLI
//! imports `commands`. (`reference` cannot import the harness: it is a
//! separate crate that does not depend on it.)
//!
//! The graph's nodes are the files under `src/`, named as modules; an edge
//! is a `use` or a path starting with `crate::`, `super::` or `self::`,
//! resolved to the longest module it names. A module and its ancestors are
//! one facade (a `mod.rs` re-exports its children, a child uses what its
//! parent defines), so edges between them are not counted.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

type Graph = BTreeMap<String, BTreeSet<String>>;

/// Every file under `src/` as its module path (`runner::unix`), with its text.
fn modules(src: &Path) -> BTreeMap<String, String> {
    walkdir::WalkDir::new(src)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "rs"))
        .map(|e| {
            let rel = e.path().strip_prefix(src).unwrap().with_extension("");
            let mut parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if matches!(
                parts.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                parts.pop();
            }
            let text = std::fs::read_to_string(e.path()).unwrap();
            (parts.join("::"), text)
        })
        .collect()
}

/// The code of a file without its comments and its `#[cfg(test)]` module.
fn code_of(text: &str) -> String {
    let text = text
        .split("#[cfg(test)]\nmod tests")
        .next()
        .unwrap_or_default();
    // A leading newline lets the first line's `use` be found like any other.
    let lines = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or_default());
    std::iter::once("")
        .chain(lines)
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// Expands a `use` tree (`a::{b, c::{d, e}}`) into its paths.
fn expand(tree: &str, prefix: &str, out: &mut Vec<String>) {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(open) = tree.find('{') else {
        out.push(format!("{prefix}{tree}"));
        return;
    };
    let head = &tree[..open];
    let body = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let (mut depth, mut start) = (0, 0);
    for (i, ch) in body.char_indices() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                expand(&body[start..i], &format!("{prefix}{head}"), out);
                start = i + 1;
            }
            _ => {}
        }
    }
    if start < body.len() {
        expand(&body[start..], &format!("{prefix}{head}"), out);
    }
}

/// The paths a file's code names: its `use` trees and inline
/// `crate::`/`super::`/`self::` paths.
fn paths_in(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices('\n') {
        let line = code[at + 1..].trim_start();
        let line = ["pub(crate) ", "pub(super) ", "pub "]
            .iter()
            .find_map(|p| line.strip_prefix(p))
            .unwrap_or(line);
        if let Some(tree) = line.strip_prefix("use ") {
            if let Some(end) = tree.find(';') {
                expand(&tree[..end], "", &mut out);
            }
        }
    }
    let bytes = code.as_bytes();
    for start in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(i) = code[from..].find(start) {
            let at = from + i;
            from = at + start.len();
            if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
                continue;
            }
            let end = code[at..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .map_or(code.len(), |e| at + e);
            out.push(code[at..end].trim_end_matches(':').to_owned());
        }
    }
    out
}

/// The file-level import graph of `src/`.
fn graph(src: &Path) -> Graph {
    let modules = modules(src);
    let resolve = |parts: &[&str]| {
        (1..=parts.len())
            .rev()
            .map(|n| parts[..n].join("::"))
            .find(|m| modules.contains_key(m))
    };
    let mut graph = Graph::new();
    for (name, text) in &modules {
        let here: Vec<&str> = name.split("::").filter(|p| !p.is_empty()).collect();
        let edges = graph.entry(name.clone()).or_default();
        for path in paths_in(&code_of(text)) {
            let path = path.split(" as ").next().unwrap_or_default();
            let mut parts: Vec<&str> = path.split("::").collect();
            let full: Vec<&str> = match parts.first() {
                Some(&"crate") => parts.split_off(1),
                Some(&"self") => here.iter().copied().chain(parts.drain(1..)).collect(),
                Some(&"super") => {
                    let ups = parts.iter().take_while(|p| **p == "super").count();
                    let keep = here.len().saturating_sub(ups);
                    here[..keep]
                        .iter()
                        .copied()
                        .chain(parts.drain(ups..))
                        .collect()
                }
                _ => continue,
            };
            let Some(target) = resolve(&full) else {
                continue;
            };
            let there: Vec<&str> = target.split("::").filter(|p| !p.is_empty()).collect();
            let related = there.starts_with(&here) || here.starts_with(&there);
            if !related {
                edges.insert(target);
            }
        }
    }
    graph
}

/// Circles in the graph: its strongly connected components of two or more.
fn circles(graph: &Graph) -> Vec<Vec<String>> {
    // Tarjan's algorithm, iterative over a small graph.
    struct State<'a> {
        graph: &'a Graph,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        for w in s.graph.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if s.stack.contains(&w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let at = s.stack.iter().rposition(|x| *x == v).unwrap();
            let mut comp: Vec<String> = s.stack.drain(at..).map(str::to_owned).collect();
            comp.sort();
            if comp.len() > 1 {
                s.found.push(comp);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.found
}

fn src_graph() -> Graph {
    graph(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

#[test]
fn no_import_circle_between_files() {
    let found = circles(&src_graph());
    assert!(found.is_empty(), "import circles between files: {found:?}");
}

#[test]
fn report_never_imports_the_runner_and_nothing_imports_commands() {
    let graph = src_graph();
    for (from, to) in graph
        .iter()
        .flat_map(|(f, ts)| ts.iter().map(move |t| (f, t)))
    {
        let starts = |m: &str, p: &str| m == p || m.starts_with(&format!("{p}::"));
        assert!(
            !(starts(from, "report") && starts(to, "runner")),
            "`{from}` imports `{to}`: reports are pure and never reach the runner"
        );
        assert!(
            !starts(to, "commands") || from.is_empty() || starts(from, "commands"),
            "`{from}` imports `{to}`: only the crate root dispatches to commands"
        );
    }
}

#[test]
fn the_checker_finds_a_planted_circle() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir_all(src.join("a")).unwrap();
    std::fs::write(src.join("lib.rs"), "mod a;\nmod b;\n").unwrap();
    std::fs::write(src.join("a/mod.rs"), "mod c;\npub use c::X;\n").unwrap();
    std::fs::write(src.join("a/c.rs"), "use crate::b::{Y, Z as W};\n").unwrap();
    std::fs::write(src.join("b.rs"), "fn f() { let _ = super::a::c::X; }\n").unwrap();
    let g = graph(src);
    assert_eq!(circles(&g), vec![vec!["a::c".to_owned(), "b".to_owned()]]);
}

/// The most lines a file under `src/` may hold, its test module aside.
const MAX_FILE_LINES: usize = 600;
/// The most lines a function may span, its `fn` line to its closing brace.
const MAX_FN_LINES: usize = 80;

/// What breaks the size rules in one file's text: the file's own length
/// (its `#[cfg(test)]` module aside), and each function over the limit,
/// counted from its `fn` line to the first `}` at the `fn` line's
/// indentation (rustfmt puts it there). A function without a body (a trait
/// method's declaration) ends at its `;` and is not counted.
fn oversized(name: &str, text: &str) -> Vec<String> {
    let code = text
        .split("#[cfg(test)]\nmod tests")
        .next()
        .unwrap_or_default();
    let lines: Vec<&str> = code.lines().collect();
    let mut found = Vec::new();
    if lines.len() > MAX_FILE_LINES {
        found.push(format!("{name}: {} lines", lines.len()));
    }
    for (at, line) in lines.iter().enumerate() {
        let body = line.trim_start();
        let indent = &line[..line.len() - body.len()];
        let signature = [
            "pub(crate) ",
            "pub(super) ",
            "pub ",
            "const ",
            "async ",
            "unsafe ",
        ]
        .iter()
        .fold(body, |b, p| b.strip_prefix(p).unwrap_or(b));
        let Some(rest) = signature.strip_prefix("fn ") else {
            continue;
        };
        let fn_name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        // A declaration ends at its `;` before any `{`; a body at the
        // first `}` at the `fn` line's indentation.
        let closing = format!("{indent}}}");
        let mut opened = false;
        let mut end = None;
        for (i, l) in lines[at..].iter().enumerate() {
            opened |= l.contains('{');
            if !opened && l.trim_end().ends_with(';') {
                break;
            }
            if l.trim_end() == closing {
                end = Some(i);
                break;
            }
        }
        let Some(end) = end else { continue };
        let span = end + 1;
        if span > MAX_FN_LINES {
            found.push(format!("{name}:{} fn {fn_name}: {span} lines", at + 1));
        }
    }
    found
}

/// Every file under `src/` that breaks the size rules, by path.
fn oversized_in(src: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for e in walkdir::WalkDir::new(src).sort_by_file_name() {
        let e = e.unwrap();
        if e.path().extension().is_some_and(|x| x == "rs") {
            let rel = e.path().strip_prefix(src).unwrap().display().to_string();
            found.extend(oversized(&rel, &std::fs::read_to_string(e.path()).unwrap()));
        }
    }
    found
}

#[test]
fn no_file_over_600_lines_and_no_function_over_80() {
    let found = oversized_in(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    assert!(
        found.is_empty(),
        "over the size limits:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_size_checker_finds_a_planted_long_file_and_function() {
    let body = |n: usize| "    let _ = 1;\n".repeat(n);
    let long_fn = format!("fn long() {{\n{}}}\n", body(MAX_FN_LINES - 1));
    let ok_fn = format!(
        "    pub(crate) fn ok() {{\n{}    }}\n",
        body(MAX_FN_LINES - 2)
    );
    let decl = "trait T {\n    fn declared(&self);\n}\n";
    let text = format!("{decl}{long_fn}impl S {{\n{ok_fn}}}\n");
    assert_eq!(oversized("a.rs", &text), vec!["a.rs:4 fn long: 81 lines"]);
    // A test module is not counted; the code before it is.
    let tests = format!("#[cfg(test)]\nmod tests {{\n{}}}\n", body(700));
    assert!(oversized("b.rs", &format!("{ok_fn}{tests}")).is_empty());
    let big = format!("{}{tests}", "const X: u8 = 0;\n".repeat(MAX_FILE_LINES + 1));
    assert_eq!(oversized("c.rs", &big), vec!["c.rs: 601 lines"]);
}
