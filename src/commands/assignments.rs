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
    Output::Stdout.write(out.as_bytes())?;
    Ok(SUCCESS)
}
