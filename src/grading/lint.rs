//! The container rule's findings as grading sees them: violations, and the
//! graded functions they make "offending" (what the rubric's penalty counts).
//! Pure: the checker itself runs in the sandbox (`runner::lint`).

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

/// A use of a forbidden construct.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub(crate) struct Violation {
    /// Where the construct is: `helper`, `Walker.step`, `willfinish.inner`.
    pub function: String,
    pub line: u32,
    /// Characters from 1.
    pub column: u32,
    pub construct: String,
    /// The line of source, trimmed.
    pub source: String,
    /// One shortest chain of calls from a graded function down to `function`.
    #[serde(default)]
    pub path: Vec<String>,
    /// Every graded function whose code reaches `function`: each is charged.
    #[serde(default)]
    pub graded: Vec<String>,
}

impl Violation {
    /// `helper (reached from whowins, dualboard)`, or just the function.
    pub(crate) fn place(&self) -> String {
        if self.path.len() > 1 {
            format!(
                "{} (reached from {})",
                self.function,
                self.graded.join(", ")
            )
        } else {
            self.function.clone()
        }
    }
}

/// The graded functions with at least one violation, in order.
pub(crate) fn offending_functions(violations: &[Violation]) -> BTreeSet<&str> {
    violations
        .iter()
        .flat_map(|v| v.graded.iter().map(String::as_str))
        .collect()
}

/// Reads the checker's `findings` array.
pub(crate) fn parse_findings(findings: serde_json::Value) -> Result<Vec<Violation>, String> {
    serde_json::from_value(findings).map_err(|e| format!("malformed findings: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_helper_is_charged_to_every_graded_function_that_reaches_it() {
        let v: Vec<Violation> = parse_findings(serde_json::json!([
            {"function": "step", "line": 3, "column": 5, "construct": "list literal",
             "source": "x = []", "path": ["whowins", "race", "step"],
             "graded": ["whowins", "dualboard"]},
            {"function": "whowins", "line": 9, "column": 12, "construct": "tuple literal",
             "source": "return a, b", "path": ["whowins"], "graded": ["whowins"]},
            {"function": "willfinish", "line": 20, "column": 1, "construct": "`sorted()` call (returns a list)",
             "source": "sorted(x)", "path": ["willfinish"], "graded": ["willfinish"]}
        ]))
        .unwrap();
        assert_eq!(v[0].place(), "step (reached from whowins, dualboard)");
        assert_eq!(
            offending_functions(&v).into_iter().collect::<Vec<_>>(),
            ["dualboard", "whowins", "willfinish"]
        );
        assert!(parse_findings(serde_json::json!([{"line": 1}])).is_err());
    }
}
