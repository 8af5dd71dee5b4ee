//! The JSON Schema of `report.json` (and of `--format json`), generated
//! from the report types with `schemars` and published as
//! `schema/report.schema.json`. A test regenerates it and compares, so the
//! published file cannot drift from the types; after an intended change to
//! the report, regenerate it with
//!
//! ```sh
//! SALGRADE_BLESS=1 cargo test --lib report::schema
//! ```
//!
//! The counterexample's case comes from `salgrade-reference`, which does not
//! depend on `schemars`, so [`Counterexample`]'s schema is written here from
//! a mirror of its fields; a test checks the mirror against a serialized
//! counterexample, field for field.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator};

use crate::grading::shrink::Counterexample;
use crate::verdict::Verdict;

/// Where the published schema lives, relative to the repository root.
#[cfg(test)]
pub(crate) const PUBLISHED: &str = "schema/report.schema.json";

/// The schema, pretty-printed with a final newline, as published.
#[cfg(test)]
pub(crate) fn render() -> String {
    let schema = schemars::schema_for!(super::Report);
    let mut text = serde_json::to_string_pretty(&schema).expect("a schema serializes");
    text.push('\n');
    text
}

/// A test case as `salgrade-reference` writes it in case files.
#[derive(JsonSchema)]
#[schemars(rename = "Case")]
#[expect(dead_code, reason = "a mirror read only by its derived schema")]
pub(crate) struct CaseMirror {
    /// Unique within its file, stable across runs with the same seed.
    id: String,
    /// The student's function graded.
    function: String,
    /// A short human description.
    #[serde(default)]
    label: String,
    /// The assignment-specific input.
    input: serde_json::Value,
    /// The assignment-specific accepted answers.
    expected: serde_json::Value,
}

/// The fields of [`Counterexample`], with its case as [`CaseMirror`].
#[derive(JsonSchema)]
#[expect(dead_code, reason = "a mirror read only by its derived schema")]
struct CounterexampleMirror {
    /// The graded case it was shrunk from.
    from_case: String,
    /// The case itself: a case file holding it reproduces the failure.
    case: CaseMirror,
    /// The input described for a person.
    input: String,
    #[serde(flatten)]
    verdict: Verdict,
    /// What the reference does on this input, step by step.
    explanation: Vec<String>,
    /// The board drawn as text, when small enough.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    drawing: Option<String>,
    /// Smaller cases accepted on the way.
    shrink_steps: u32,
    /// Candidates tried in all.
    tries: u32,
    /// Whether no smaller candidate fails (false when the budget ran out).
    minimal: bool,
    /// Whether the search stopped because its time (`--shrink-ms`) ran
    /// out: another run, on a busier or quieter machine, may stop on
    /// another board, so this counterexample (and the groups of common
    /// mistakes built from it) can differ between runs. The grade itself
    /// never depends on it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    timing_dependent: bool,
}

impl JsonSchema for Counterexample {
    fn schema_name() -> Cow<'static, str> {
        "Counterexample".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        CounterexampleMirror::json_schema(generator)
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use salgrade_reference::Case;

    use super::*;
    use crate::verdict::VerdictKind;

    #[test]
    fn the_published_schema_is_the_generated_one() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(PUBLISHED);
        let fresh = render();
        if std::env::var_os("SALGRADE_BLESS").is_some() {
            std::fs::write(&path, &fresh).unwrap();
        }
        let published = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            published == fresh,
            "`{PUBLISHED}` is out of date: regenerate it with `SALGRADE_BLESS=1 cargo test --lib report::schema` and commit it"
        );
    }

    #[test]
    fn the_counterexample_mirror_has_every_field() {
        let c = Counterexample {
            from_case: "willfinish/r1".into(),
            case: Case {
                id: "x".into(),
                function: "willfinish".into(),
                label: "l".into(),
                input: serde_json::json!({}),
                expected: serde_json::json!(true),
            },
            input: "i".into(),
            verdict: Verdict {
                line: Some(3),
                detail: Some("d".into()),
                ..Verdict::wrong(VerdictKind::WrongAnswer, "True", "False")
            },
            explanation: vec![],
            drawing: Some("d".into()),
            shrink_steps: 1,
            tries: 2,
            minimal: false,
            timing_dependent: true,
        };
        let value = serde_json::to_value(&c).unwrap();
        let schema = serde_json::to_value(schemars::schema_for!(Counterexample)).unwrap();
        let props = schema["properties"].as_object().unwrap();
        let fields = value.as_object().unwrap();
        let mut have: Vec<&String> = props.keys().collect();
        let mut want: Vec<&String> = fields.keys().collect();
        have.sort();
        want.sort();
        assert_eq!(have, want);
        let case_props = schema["$defs"]["Case"]["properties"].as_object().unwrap();
        let mut have: Vec<&String> = case_props.keys().collect();
        let mut want: Vec<&String> = fields["case"].as_object().unwrap().keys().collect();
        have.sort();
        want.sort();
        assert_eq!(have, want);
    }
}
