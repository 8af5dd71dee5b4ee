//! Small English helpers for messages: counts with the right plural, and
//! `a`/`an` before a word. Pure.

/// `1 square`, `2 squares`.
pub(crate) fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `a bool`, `an int`: the article by the word's first letter, which is
/// right for the Python type names messages name.
pub(crate) fn a(word: &str) -> String {
    let vowel = word
        .chars()
        .next()
        .is_some_and(|c| "aeiouAEIOU".contains(c));
    format!("{} {word}", if vowel { "an" } else { "a" })
}

/// `` `a`, `b` ``: names as code, for a message.
pub(crate) fn code_list<S: AsRef<str>>(names: &[S]) -> String {
    names
        .iter()
        .map(|n| format!("`{}`", n.as_ref()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `a`, `a and b`, `a, b and c`.
pub(crate) fn and_list<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_owned(),
        [rest @ .., last] => format!(
            "{} and {}",
            rest.iter()
                .map(AsRef::as_ref)
                .collect::<Vec<_>>()
                .join(", "),
            last.as_ref()
        ),
    }
}

/// `text` with its first letter upper-cased (a hint as a sentence).
pub(crate) fn capitalise(text: &str) -> String {
    let mut c = text.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_articles() {
        assert_eq!(count(1, "square", "squares"), "1 square");
        assert_eq!(count(0, "node", "nodes"), "0 nodes");
        assert_eq!(a("int"), "an int");
        assert_eq!(a("bool"), "a bool");
        assert_eq!(a("NoneType"), "a NoneType");
        assert_eq!(capitalise("raise it"), "Raise it");
        assert_eq!(capitalise(""), "");
    }
}
