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
    /// A key whose value has the wrong type: the key, what it must be, and
    /// what it is.
    #[error("line {line}: `{key}` must be {must}, not {is}")]
    WrongType {
        line: usize,
        key: String,
        must: String,
        is: String,
    },
}

/// The first key of `text` (which is TOML) whose value has a type the
/// rubric does not take, said with its line; `None` when every type is
/// right (or the text is not TOML, for the parser to say).
fn wrong_type(text: &str) -> Option<RubricError> {
    let doc: toml::Table = toml::from_str(text).ok()?;
    let number = |key: &str, example: &str| -> (String, String) {
        (
            key.to_owned(),
            format!("a number (write `{example}`, without quotes)"),
        )
    };
    let mut wanted: Vec<(String, String, &toml::Value)> = Vec::new();
    for (section, value) in &doc {
        let toml::Value::Table(table) = value else {
            if ["points", "partial_credit", "penalties"].contains(&section.as_str()) {
                wanted.push((
                    section.clone(),
                    format!("a table (`[{section}]` on a line of its own, then its keys)"),
                    value,
                ));
            }
            continue;
        };
        for (key, v) in table {
            let name = format!("{section}.{key}");
            let (name, must) = match section.as_str() {
                "points" => number(&name, &format!("{key} = 30")),
                "penalties" => number(&name, &format!("{key} = 5")),
                "partial_credit" if key == "mode" => (
                    name,
                    "a string, `\"proportional\"` or `\"all_or_nothing\"`".to_owned(),
                ),
                _ => continue,
            };
            wanted.push((name, must, v));
        }
    }
    wanted.into_iter().find_map(|(key, must, value)| {
        let fits = match value {
            toml::Value::Integer(_) | toml::Value::Float(_) => must.starts_with("a number"),
            toml::Value::String(_) => must.starts_with("a string"),
            toml::Value::Table(_) => must.starts_with("a table"),
            _ => false,
        };
        (!fits).then(|| RubricError::WrongType {
            line: line_of(text, &key),
            key,
            must,
            is: describe(value),
        })
    })
}

/// A TOML value in words (`the string "30"`).
fn describe(value: &toml::Value) -> String {
    match value {
        toml::Value::String(s) => format!("the string {s:?}"),
        toml::Value::Integer(i) => format!("the number {i}"),
        toml::Value::Float(f) => format!("the number {f}"),
        toml::Value::Boolean(b) => format!("`{b}`"),
        toml::Value::Datetime(d) => format!("the date {d}"),
        toml::Value::Array(_) => "a list".to_owned(),
        toml::Value::Table(_) => "a table".to_owned(),
    }
}

/// The line (from 1) where `key` (`points.whowins`) is set in `text`: the
/// line of its last part inside its `[section]`, else 1.
fn line_of(text: &str, key: &str) -> usize {
    let (section, name) = key.split_once('.').unwrap_or(("", key));
    let mut inside = section.is_empty();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(header) = line.strip_prefix('[') {
            inside = header.trim_end_matches(']').trim() == section;
            continue;
        }
        let sets = |prefix: &str| {
            line.strip_prefix(prefix)
                .is_some_and(|rest| rest.trim_start().starts_with('='))
        };
        if (inside && (sets(name) || sets(&format!("\"{name}\"")))) || sets(key) {
            return i + 1;
        }
    }
    1
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
        let raw: RawRubric = toml::from_str(text)
            .map_err(|e| wrong_type(text).unwrap_or_else(|| toml_error(text, &e)))?;
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
    fn a_value_of_the_wrong_type_names_its_key_and_what_it_must_be() {
        let e =
            Rubric::parse("# mine\n[points]\nwillfinish = 20\nwhowins = \"30\"\n", F).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 4: `points.whowins` must be a number (write `whowins = 30`, without quotes), not the string \"30\""
        );
        let e = Rubric::parse("[penalties]\nrule_violation_cap = true\n", F).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("line 2: `penalties.rule_violation_cap` must be a number"),
            "{e}"
        );
        let e = Rubric::parse("[partial_credit]\nmode = 1\n", F).unwrap_err();
        assert!(e.to_string().contains("must be a string"), "{e}");
        let e = Rubric::parse("points = 3\n", F).unwrap_err();
        assert!(e.to_string().contains("`points` must be a table"), "{e}");
        // Integers and decimals are both numbers.
        let r = Rubric::parse("[points]\nwhowins = 30\nwillfinish = 12.5\n", F).unwrap();
        assert_eq!(
            (r.points_for("whowins"), r.points_for("willfinish")),
            (30.0, 12.5)
        );
    }

    #[test]
    fn partial_credit_modes() {
        assert_eq!(PartialCredit::Proportional.points(25.0, 1, 3), 8.33);
        assert_eq!(PartialCredit::AllOrNothing.points(25.0, 2, 3), 0.0);
        assert_eq!(PartialCredit::AllOrNothing.points(25.0, 3, 3), 25.0);
    }
}
