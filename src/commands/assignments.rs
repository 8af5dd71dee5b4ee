//! `salgrade assignments`: every assignment, its file, functions, options
//! and `ref` questions.

use super::SUCCESS;
use super::outputs::Output;
use crate::assignment;

pub(crate) fn assignments() -> anyhow::Result<u8> {
    let mut out = String::new();
    for a in assignment::ALL {
        let default = if a.id() == assignment::DEFAULT {
            " (default)"
        } else {
            ""
        };
        out.push_str(&format!("{}{default}: {}\n", a.id(), a.title()));
        out.push_str(&format!(
            "    file `{}`; functions {}\n",
            a.student_file(),
            a.functions().join(", ")
        ));
        if let Some(o) = a.option_help() {
            out.push_str(&format!("    options: {o}\n"));
        }
        out.push_str("    `salgrade ref` questions:\n");
        for q in a.questions() {
            out.push_str(&format!("      {:<12} {}\n", q.name, q.help));
        }
    }
    let stdout = Output::Stdout;
    let out = match stdout.width() {
        Some(width) => fitted(&out, width),
        None => out,
    };
    stdout.write(out.as_bytes())?;
    Ok(SUCCESS)
}

/// `text` with each line wider than `width` wrapped, its later lines
/// indented where its text starts (for a question, after its name), so the
/// listing keeps its shape on a narrow terminal.
fn fitted(text: &str, width: usize) -> String {
    use unicode_width::UnicodeWidthStr;
    let mut out = String::new();
    for line in text.lines() {
        if line.width() <= width {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let lead = line.len() - line.trim_start().len();
        // `      whowins      which player ...`: the text is the help.
        let hang = match line[lead..].find("  ") {
            Some(at) => line.len() - line[lead + at..].trim_start().len(),
            None => lead,
        };
        let (head, rest) = line.split_at(hang);
        out.push_str(&crate::report::table::item(rest, head, Some(width)));
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_narrow_terminal_wraps_under_the_text_and_a_wide_one_keeps_lines() {
        let text = "a48: title\n    `salgrade ref` questions:\n      whowins      which player wins with step sizes S1 and S2, every accepted answer (args: S1 S2)\n";
        assert_eq!(super::fitted(text, 200), text);
        let narrow = super::fitted(text, 60);
        for line in narrow.lines() {
            assert!(line.chars().count() <= 60, "{narrow}");
        }
        let lines: Vec<&str> = narrow.lines().collect();
        assert!(
            lines[2].starts_with("      whowins      which player"),
            "{narrow}"
        );
        assert!(lines[3].starts_with("                   "), "{narrow}");
        assert!(!lines[3].starts_with("                    "), "{narrow}");
    }
}
