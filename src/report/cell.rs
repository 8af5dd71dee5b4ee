//! A spreadsheet's text cell: student text (a name, a message) kept from
//! being read as a formula by Excel, LibreOffice or Google Sheets. Used by
//! every CSV layout (see `csv`'s documentation for the rule). Pure.

use std::borrow::Cow;

/// `text` safe to open in a spreadsheet: a leading `'` when it would start
/// a formula (see the module's documentation).
pub(crate) fn text_cell(text: &str) -> Cow<'_, str> {
    let mut chars = text.chars();
    let risky = match chars.next() {
        Some('=' | '@' | '\t' | '\r' | '\n') => true,
        Some('+' | '-') => !chars.all(|c| c.is_alphanumeric() || "._-".contains(c)),
        _ => false,
    };
    if risky {
        Cow::Owned(format!("'{text}"))
    } else {
        Cow::Borrowed(text)
    }
}
