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

pub(crate) use assignments::assignments;
pub(crate) use check::check;
pub(crate) use clusters::clusters;
pub(crate) use generate::generate;
pub(crate) use grade::grade;
pub(crate) use init::init;
pub(crate) use lint::lint;
pub(crate) use merge::merge;
pub(crate) use reference::reference;

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

    /// Every `salgrade ...` line in the README's code blocks and in the
    /// `--help` of every command.
    fn documented_examples() -> Vec<(String, Vec<String>)> {
        let mut found = Vec::new();
        let mut in_block = false;
        for (i, line) in include_str!("../../README.md").lines().enumerate() {
            if line.trim_start().starts_with("```") {
                in_block = !in_block;
            } else if in_block && line.trim_start().starts_with("salgrade ") {
                found.push((format!("README.md:{}", i + 1), shell_words(line.trim())));
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

    #[test]
    fn shell_words_split_like_a_shell() {
        assert_eq!(
            shell_words(r#"salgrade ref --board-json '{"a": [1, 2]}' 1   # comment"#),
            ["salgrade", "ref", "--board-json", r#"{"a": [1, 2]}"#, "1"]
        );
    }
}
