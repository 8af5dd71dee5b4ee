//! The Rust side of `values.py`: a plain value a student's function
//! returned, with its Python type, and how to say it in Python's words.

use serde::Deserialize;

use crate::words;

/// `{"type": T, "value": V[, "repr": R]}` as `values.py` describes it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub(crate) struct Plain {
    #[serde(rename = "type")]
    pub ty: String,
    pub value: serde_json::Value,
    /// The value's `repr` when it has no JSON form.
    #[serde(default)]
    pub repr: Option<String>,
}

impl Plain {
    /// The value as Python prints it, with its type: `1 (an int)`,
    /// `True (a bool)`, `"1" (a str)`, `None`.
    pub(crate) fn words(&self) -> String {
        match (&self.repr, self.ty.as_str()) {
            (Some(r), ty) => format!("{r} ({})", words::a(ty)),
            (None, "NoneType") => "None".to_owned(),
            (None, ty) => format!("{} ({})", python(&self.value), words::a(ty)),
        }
    }
}

/// A JSON value as Python would print it (`True`, `None`, `3`, `"x"`).
pub(crate) fn python(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::Bool(true) => "True".to_owned(),
        serde_json::Value::Bool(false) => "False".to_owned(),
        serde_json::Value::Null => "None".to_owned(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(json: &str) -> Plain {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn values_are_said_as_python_says_them() {
        assert_eq!(plain(r#"{"type":"int","value":1}"#).words(), "1 (an int)");
        assert_eq!(
            plain(r#"{"type":"bool","value":true}"#).words(),
            "True (a bool)"
        );
        assert_eq!(
            plain(r#"{"type":"str","value":"1"}"#).words(),
            "\"1\" (a str)"
        );
        assert_eq!(plain(r#"{"type":"NoneType","value":null}"#).words(), "None");
        assert_eq!(
            plain(r#"{"type":"list","value":null,"repr":"[1]"}"#).words(),
            "[1] (a list)"
        );
    }
}
