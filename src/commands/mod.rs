//! The subcommands: each turns its clap arguments into validated settings,
//! runs, and returns an exit code. Harness failures are `anyhow` errors
//! (exit 2); a student's failures are results (exit 1).
//!
//! One file per subcommand; what several share sits beside them: choosing
//! the assignment and its cases (`choose`), the runner and the engine
//! (`setup`), the worker pool and its progress (`pool`), and the outputs
//! (`outputs`). `grade` is a pipeline of named steps, and `check` reuses
//! them. Nothing below the crate root imports this module.

mod assignments;
mod check;
mod choose;
mod clusters;
mod generate;
mod grade;
mod init;
mod lint;
mod merge;
mod outputs;
mod pool;
mod reference;
mod setup;
mod similar;

pub(crate) use assignments::assignments;
pub(crate) use check::check;
pub(crate) use clusters::clusters;
pub(crate) use generate::generate;
pub(crate) use grade::grade;
pub(crate) use init::init;
pub(crate) use lint::lint;
pub(crate) use merge::merge;
pub(crate) use reference::reference;
pub(crate) use similar::similar;

/// Exit code: every submission got full marks (or the command succeeded).
pub(crate) const SUCCESS: u8 = 0;
/// Exit code: some submission lost marks.
pub(crate) const SOME_FAILED: u8 = 1;

/// The exit code of a run whose students all got full marks, or not.
fn exit_code(all_full: bool) -> u8 {
    if all_full { SUCCESS } else { SOME_FAILED }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use clap::Parser;

    use super::{assignments, reference};
    use crate::cli::{Cli, Command};

    /// `line` split as a POSIX shell would, for the quoting the examples
    /// use (single and double quotes); a `#` outside quotes starts a comment.
    fn shell_words(line: &str) -> Vec<String> {
        let (mut words, mut word, mut quote, mut any) = (Vec::new(), String::new(), None, false);
        for c in line.chars() {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), c) => word.push(c),
                (None, '\'' | '"') => {
                    quote = Some(c);
                    any = true;
                }
                (None, '#') if !any && word.is_empty() => break,
                (None, c) if c.is_whitespace() => {
                    if any || !word.is_empty() {
                        words.push(std::mem::take(&mut word));
                    }
                    any = false;
                }
                (None, c) => word.push(c),
            }
        }
        if any || !word.is_empty() {
            words.push(word);
        }
        words
    }

    /// README.md and every `docs/*.md` page, as their paths from the crate
    /// root and their text. Read when the test runs, so a page added to
    /// `docs/` is checked without a change here.
    fn documentation() -> Vec<(String, String)> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut pages: Vec<String> = std::fs::read_dir(root.join("docs"))
            .expect("docs/ can be listed")
            .map(|entry| entry.expect("a docs/ entry").file_name())
            .filter_map(|name| name.into_string().ok())
            .filter(|name| name.ends_with(".md"))
            .map(|name| format!("docs/{name}"))
            .collect();
        pages.sort();
        pages.insert(0, "README.md".to_owned());
        pages
            .into_iter()
            .map(|page| {
                let text = std::fs::read_to_string(root.join(&page))
                    .unwrap_or_else(|e| panic!("{page}: {e}"));
                (page, text)
            })
            .collect()
    }

    /// Each line of `text` with its number and whether it is inside a
    /// fenced code block (the fences themselves count as inside).
    fn lines_with_fences(text: &str) -> Vec<(usize, &str, bool)> {
        let mut in_block = false;
        text.lines()
            .enumerate()
            .map(|(i, line)| {
                let fence = line.trim_start().starts_with("```");
                if fence {
                    in_block = !in_block;
                }
                (i + 1, line, in_block || fence)
            })
            .collect()
    }

    /// Every `salgrade ...` line in the code blocks of README.md and the
    /// `docs/*.md` pages, and in the `--help` of every command.
    fn documented_examples() -> Vec<(String, Vec<String>)> {
        let mut found = Vec::new();
        for (page, text) in documentation() {
            for (number, line, in_block) in lines_with_fences(&text) {
                if in_block && line.trim_start().starts_with("salgrade ") {
                    found.push((format!("{page}:{number}"), shell_words(line.trim())));
                }
            }
        }
        use clap::CommandFactory;
        let cli = Cli::command();
        for sub in cli.get_subcommands() {
            let help = sub
                .get_after_help()
                .map(ToString::to_string)
                .unwrap_or_default();
            for line in help.lines() {
                if line.trim_start().starts_with("salgrade ") {
                    let place = format!("`salgrade {} --help`", sub.get_name());
                    found.push((place, shell_words(line.trim())));
                }
            }
        }
        found
    }

    #[test]
    fn every_documented_example_parses_and_the_self_contained_ones_run() {
        let examples = documented_examples();
        assert!(examples.len() > 30, "{examples:?}");
        for (place, words) in examples {
            let cli = Cli::try_parse_from(&words)
                .unwrap_or_else(|e| panic!("{place}: `{}` does not parse: {e}", words.join(" ")));
            // The examples that need no file of the reader's are run.
            let ran = match cli.command {
                Command::Ref(args) if args.board.is_none() => reference(args).map(|_| ()),
                Command::Assignments => assignments().map(|_| ()),
                _ => Ok(()),
            };
            if let Err(e) = ran {
                panic!("{place}: `{}` fails: {e:#}", words.join(" "));
            }
        }
    }

    /// The anchors GitHub gives a page's headings: lower case, spaces as
    /// `-`, every character but letters, digits, `-` and `_` dropped, and
    /// `-1`, `-2`... after a repeated one.
    fn heading_anchors(text: &str) -> Vec<String> {
        let mut anchors = Vec::new();
        let mut seen = std::collections::HashMap::new();
        for (_, line, in_block) in lines_with_fences(text) {
            let Some(title) = line
                .strip_prefix('#')
                .map(|rest| rest.trim_start_matches('#'))
            else {
                continue;
            };
            if in_block || !title.starts_with(' ') {
                continue;
            }
            let slug: String = title
                .trim()
                .to_lowercase()
                .chars()
                .filter_map(|c| match c {
                    ' ' => Some('-'),
                    c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                    _ => None,
                })
                .collect();
            // GitHub numbers a repeated anchor by how often it came before.
            let count = seen.entry(slug.clone()).or_insert(0);
            anchors.push(match *count {
                0 => slug,
                n => format!("{slug}-{n}"),
            });
            *count += 1;
        }
        anchors
    }

    /// The targets of the Markdown links and images (`[text](target)`)
    /// outside code blocks, with their line numbers.
    fn link_targets(text: &str) -> Vec<(usize, &str)> {
        let mut targets = Vec::new();
        for (number, line, in_block) in lines_with_fences(text) {
            if in_block {
                continue;
            }
            let mut rest = line;
            while let Some(start) = rest.find("](") {
                rest = &rest[start + 2..];
                let end = rest.find(')').unwrap_or(rest.len());
                targets.push((number, &rest[..end]));
                rest = &rest[end..];
            }
        }
        targets
    }

    #[test]
    fn every_docs_page_is_linked_and_every_relative_link_resolves() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let pages = documentation();
        assert!(
            pages.len() > 10,
            "{:?}",
            pages.iter().map(|p| &p.0).collect::<Vec<_>>()
        );
        let readme_targets: Vec<&str> = link_targets(&pages[0].1)
            .into_iter()
            .map(|(_, t)| t)
            .collect();
        for (page, _) in &pages[1..] {
            assert!(
                readme_targets
                    .iter()
                    .any(|t| t.split('#').next() == Some(page.as_str())),
                "README.md does not link `{page}`: add it to its Documentation list"
            );
        }
        let mut checked = 0;
        for (page, text) in &pages {
            let folder = Path::new(page).parent().unwrap_or(Path::new(""));
            for (number, target) in link_targets(text) {
                let place = format!("{page}:{number}");
                if target.starts_with("https://") || target.starts_with("http://") {
                    continue;
                }
                assert!(
                    !target.is_empty() && !target.contains(' '),
                    "{place}: link `{target}`"
                );
                let (file, anchor) = target.split_once('#').unwrap_or((target, ""));
                let linked = if file.is_empty() {
                    root.join(page)
                } else {
                    root.join(folder).join(file)
                };
                assert!(
                    linked.exists(),
                    "{place}: `{target}` names `{}`, which does not exist",
                    linked.display()
                );
                if !anchor.is_empty() {
                    assert!(
                        file.is_empty() || file.ends_with(".md"),
                        "{place}: `{target}`: an anchor in a file that is not Markdown"
                    );
                    let linked_text =
                        std::fs::read_to_string(&linked).unwrap_or_else(|e| panic!("{place}: {e}"));
                    let anchors = heading_anchors(&linked_text);
                    assert!(
                        anchors.iter().any(|a| a == anchor),
                        "{place}: `{target}`: no heading of `{}` has the anchor `#{anchor}` (it has {anchors:?})",
                        linked.display()
                    );
                }
                checked += 1;
            }
        }
        assert!(checked > 50, "only {checked} links checked");
    }

    #[test]
    fn heading_anchors_are_githubs() {
        let page = "# C++ submissions\n## Rules: a48\n```sh\n# not a heading\n```\n## Notes\n### Notes\n#nope\n## `lint` (a48)\n";
        assert_eq!(
            heading_anchors(page),
            ["c-submissions", "rules-a48", "notes", "notes-1", "lint-a48"]
        );
    }

    #[test]
    fn shell_words_split_like_a_shell() {
        assert_eq!(
            shell_words(r#"salgrade ref --board-json '{"a": [1, 2]}' 1   # comment"#),
            ["salgrade", "ref", "--board-json", r#"{"a": [1, 2]}"#, "1"]
        );
    }
}
