//! The rubric: points per function, partial credit, penalties. Read from
//! TOML (`salgrade init` writes the default with comments) and validated.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::round2;

/// The default rubric for an assignment, as `salgrade init` writes it:
/// every function worth the same, proportional credit, and (when the
/// assignment has a rule) the default penalties, all with comments.
pub(crate) fn default_toml(functions: &[&str], rule: Option<&str>) -> String {
    let mut t = String::from(
        "# salgrade rubric. Every key is optional; the values shown are the defaults.\n\n\
         # Points for each function. A function left out is worth the default 25.\n[points]\n",
    );
    for f in functions {
        t.push_str(&format!("{f} = 25\n"));
    }
    t.push_str(
        "\n[partial_credit]\n\
         # \"proportional\": points x (cases passed / cases run).\n\
         # \"all_or_nothing\": full points only when every case passes.\n\
         mode = \"proportional\"\n",
    );
    if let Some(rule) = rule {
        t.push_str(&format!(
            "\n# Deductions for breaking the handout's rule, found by `salgrade lint`:\n# {rule}\n[penalties]\n\
             # Points taken off for each function that uses a forbidden construct.\n\
             rule_violation_per_function = 5\n\
             # The most that rule violations can take off in total. 0 disables them.\n\
             rule_violation_cap = 15\n"
        ));
    }
    t
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub(crate) enum PartialCredit {
    #[default]
    Proportional,
    AllOrNothing,
}

impl PartialCredit {
    pub(crate) fn points(self, max: f64, passed: u32, total: u32) -> f64 {
        if total == 0 {
            return 0.0;
        }
        match self {
            PartialCredit::Proportional => round2(max * f64::from(passed) / f64::from(total)),
            PartialCredit::AllOrNothing if passed == total => max,
            PartialCredit::AllOrNothing => 0.0,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawRubric {
    #[serde(default)]
    points: BTreeMap<String, f64>,
    #[serde(default)]
    partial_credit: RawPartial,
    #[serde(default)]
    penalties: RawPenalties,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawPartial {
    #[serde(default)]
    mode: PartialCredit,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPenalties {
    #[serde(default = "default_per_function")]
    rule_violation_per_function: f64,
    #[serde(default = "default_cap")]
    rule_violation_cap: f64,
}

fn default_per_function() -> f64 {
    5.0
}
fn default_cap() -> f64 {
    15.0
}

impl Default for RawPenalties {
    fn default() -> RawPenalties {
        RawPenalties {
            rule_violation_per_function: default_per_function(),
            rule_violation_cap: default_cap(),
        }
    }
}

/// A validated rubric.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Rubric {
    pub points: BTreeMap<String, f64>,
    pub partial_credit: PartialCredit,
    pub violation_per_function: f64,
    pub violation_cap: f64,
}

#[derive(Debug, thiserror::Error)]
pub(crate) enum RubricError {
    /// The TOML parser's message, placed; the parser's own error is not kept
    /// as a source because its text would print the same message again.
    #[error("line {line}, column {column}: {message}")]
    Toml {
        line: usize,
        column: usize,
        message: String,
    },
    #[error(
        "`[points]` names `{0}`, which is not a function of this assignment (expected one of {1})"
    )]
    UnknownFunction(String, String),
    #[error("`{0}` must be a finite number of points, zero or more, not {1}")]
    BadNumber(String, f64),
}

/// Where in `text` the parser stopped, counted from 1, and its message.
fn toml_error(text: &str, e: &toml::de::Error) -> RubricError {
    let at = e.span().map_or(0, |s| s.start).min(text.len());
    let before = text.get(..at).unwrap_or("");
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    RubricError::Toml {
        line,
        column,
        message: e.message().trim().to_owned(),
    }
}

impl Rubric {
    pub(crate) const DEFAULT_POINTS: f64 = 25.0;

    pub(crate) fn parse(text: &str, functions: &[&str]) -> Result<Rubric, RubricError> {
        let raw: RawRubric = toml::from_str(text).map_err(|e| toml_error(text, &e))?;
        for (name, &p) in &raw.points {
            if !functions.contains(&name.as_str()) {
                return Err(RubricError::UnknownFunction(
                    name.clone(),
                    functions.join(", "),
                ));
            }
            check_number(&format!("points.{name}"), p)?;
        }
        check_number(
            "penalties.rule_violation_per_function",
            raw.penalties.rule_violation_per_function,
        )?;
        check_number(
            "penalties.rule_violation_cap",
            raw.penalties.rule_violation_cap,
        )?;
        Ok(Rubric {
            points: raw.points,
            partial_credit: raw.partial_credit.mode,
            violation_per_function: raw.penalties.rule_violation_per_function,
            violation_cap: raw.penalties.rule_violation_cap,
        })
    }

    /// The rubric used when none is given: what [`default_toml`] writes.
    pub(crate) fn default_for(functions: &[&str]) -> Rubric {
        Rubric {
            points: functions
                .iter()
                .map(|f| ((*f).to_owned(), Rubric::DEFAULT_POINTS))
                .collect(),
            partial_credit: PartialCredit::Proportional,
            violation_per_function: default_per_function(),
            violation_cap: default_cap(),
        }
    }

    pub(crate) fn points_for(&self, function: &str) -> f64 {
        self.points
            .get(function)
            .copied()
            .unwrap_or(Rubric::DEFAULT_POINTS)
    }

    pub(crate) fn penalty(&self, offending_functions: usize) -> f64 {
        (self.violation_per_function * offending_functions as f64).min(self.violation_cap)
    }
}

fn check_number(name: &str, value: f64) -> Result<(), RubricError> {
    if value.is_finite() && value >= 0.0 {
        Ok(())
    } else {
        Err(RubricError::BadNumber(name.to_owned(), value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    const F: &[&str] = &["salb2salbLL", "willfinish", "whowins", "dualboard"];

    #[test]
    fn the_default_rubric_file_says_what_the_default_rubric_is() {
        for rule in [None, Some("no lists")] {
            let r = Rubric::parse(&default_toml(F, rule), F).unwrap();
            assert_eq!(r, Rubric::default_for(F));
            assert_eq!(r.points_for("whowins"), 25.0);
            assert_eq!(r.penalty(1), 5.0);
            assert_eq!(r.penalty(9), 15.0);
        }
        assert!(!default_toml(F, None).contains("[penalties]"));
    }

    #[test]
    fn bad_rubrics_are_named() {
        let e = Rubric::parse("[points]\nwillfinsh = 3\n", F).unwrap_err();
        assert!(e.to_string().contains("`willfinsh`"), "{e}");
        let e = Rubric::parse("[points]\nwillfinish = -3\n", F).unwrap_err();
        assert!(e.to_string().contains("points.willfinish"), "{e}");
        let e = Rubric::parse("[partial_credit]\nmode = \"half\"\n", F).unwrap_err();
        assert!(e.to_string().contains("half"), "{e}");
        assert!(Rubric::parse("[pointz]\n", F).is_err());
    }

    #[test]
    fn partial_credit_modes() {
        assert_eq!(PartialCredit::Proportional.points(25.0, 1, 3), 8.33);
        assert_eq!(PartialCredit::AllOrNothing.points(25.0, 2, 3), 0.0);
        assert_eq!(PartialCredit::AllOrNothing.points(25.0, 3, 3), 25.0);
    }
}
