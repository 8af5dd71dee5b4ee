//! `--format csv --csv-layout markus`: a MarkUs marks-spreadsheet upload
//! that MarkUs imports to exactly salgrade's scores. Pure.
//!
//! The rules it is written for are MarkUs's upload code
//! (`MarkUsProject/Markus`, `app/models/grade_entry_form.rb`, `from_csv`, at
//! commit 4401041cde7e11b738f9949e122ea9d287840c47):
//!
//! - Row 1 names the columns and row 2 gives each column's "out of". A
//!   column whose "out of" is not a number ≥ 0 is skipped (with its cells in
//!   every row), which is how the first column, the user names, is skipped.
//! - The last column is skipped when "Show Total" is on and its name is
//!   exactly `Total`; with "Show Total" off a `Total` column with a number
//!   under it would become an item. So ours is named `Total` and its "out
//!   of" cell is empty: MarkUs skips it either way.
//! - Every other column becomes an item, and a student's total is the sum
//!   of the items' grades. A negative grade is stored as blank, so a penalty
//!   cannot be an item of its own. salgrade's rule penalty is therefore
//!   taken off the function columns ([`super::folded`]): spread evenly over
//!   the functions that break the rule, then over the others, never below
//!   0. The columns then add up to salgrade's score to the cent.
//! - A row is keyed by a MarkUs user name; a row whose first cell is no
//!   user name is rejected. Submissions named after groups, or suffixed
//!   identities (`alice-3f09a1`), are mapped to user names through a roster
//!   (`--roster`): a CSV whose rows are `identifier,user,user,...`, which is
//!   exactly MarkUs's group-list download (`group_name,member,member,...`).
//!   A group's score goes to each member. An identifier the roster does not
//!   hold keeps its row and gets a warning.

use std::collections::BTreeMap;
use std::path::Path;

use super::Report;
use super::folded::cents_text;

/// The name MarkUs gives a spreadsheet's total column (English locale).
pub(crate) const TOTAL: &str = "Total";

/// Identifiers (submission folder names, MarkUs group names) mapped to
/// MarkUs user names.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Roster {
    users: BTreeMap<String, Vec<String>>,
}

/// Why a roster file could not be used.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RosterError {
    #[error("cannot read roster `{path}`")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("roster `{path}` is not CSV")]
    Csv {
        path: String,
        #[source]
        source: csv::Error,
    },
    #[error(
        "roster `{path}`, line {line}: `{identifier}` has no user name; each line is `identifier,user,...` (MarkUs's group-list download)"
    )]
    NoUser {
        path: String,
        line: usize,
        identifier: String,
    },
    #[error("roster `{path}`, line {line}: `{identifier}` is listed twice")]
    Twice {
        path: String,
        line: usize,
        identifier: String,
    },
}

impl Roster {
    /// Reads a roster file (see the module doc).
    pub(crate) fn read(path: &Path) -> Result<Roster, RosterError> {
        let shown = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|source| RosterError::Read {
            path: shown.clone(),
            source,
        })?;
        Roster::parse(&bytes, &shown)
    }

    /// Parses a roster's bytes; `path` names it in errors.
    pub(crate) fn parse(bytes: &[u8], path: &str) -> Result<Roster, RosterError> {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .trim(csv::Trim::All)
            .from_reader(bytes);
        let mut users = BTreeMap::new();
        for (i, record) in reader.records().enumerate() {
            let record = record.map_err(|source| RosterError::Csv {
                path: path.to_owned(),
                source,
            })?;
            let mut cells = record.iter().filter(|c| !c.is_empty());
            let Some(identifier) = cells.next() else {
                continue;
            };
            let names: Vec<String> = cells.map(str::to_owned).collect();
            let line = i + 1;
            if names.is_empty() {
                return Err(RosterError::NoUser {
                    path: path.to_owned(),
                    line,
                    identifier: identifier.to_owned(),
                });
            }
            if users.insert(identifier.to_owned(), names).is_some() {
                return Err(RosterError::Twice {
                    path: path.to_owned(),
                    line,
                    identifier: identifier.to_owned(),
                });
            }
        }
        Ok(Roster { users })
    }
}

/// The spreadsheet, and a warning per row MarkUs would not match to a user.
#[derive(Debug)]
pub(crate) struct Sheet {
    pub bytes: Vec<u8>,
    pub warnings: Vec<String>,
}

/// The MarkUs upload of `report`, its rows keyed through `roster` when
/// there is one.
pub(crate) fn render(report: &Report, roster: Option<&Roster>) -> anyhow::Result<Sheet> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut names = vec![String::new()];
    names.extend(report.functions.iter().cloned());
    names.push(TOTAL.to_owned());
    w.write_record(&names)?;
    let mut out_of = vec![String::new()];
    out_of.extend(report.functions.iter().map(|f| {
        report
            .students
            .iter()
            .find_map(|s| s.functions.get(f))
            .map(|x| x.max_points.to_string())
            .unwrap_or_default()
    }));
    // Empty, so MarkUs skips the column whether or not "Show Total" is on.
    out_of.push(String::new());
    w.write_record(&out_of)?;
    let mut warnings = Vec::new();
    for s in &report.students {
        let mut cells: Vec<String> = super::folded::folded(report, s)
            .iter()
            .map(|c| c.map(|f| cents_text(f.kept)).unwrap_or_default())
            .collect();
        cells.push(super::points(s.score));
        let users: Vec<&str> = match roster {
            None => vec![s.student.as_str()],
            Some(r) => match r.users.get(&s.student) {
                Some(names) => names.iter().map(String::as_str).collect(),
                None => {
                    warnings.push(format!(
                        "`{}` is not in the roster, so its row keeps that name, which MarkUs rejects unless it is a user name; add a line `{},USER_NAME` to the roster",
                        s.student, s.student
                    ));
                    vec![s.student.as_str()]
                }
            },
        };
        for user in users {
            let mut row = vec![super::cell::text_cell(user).into_owned()];
            row.extend(cells.iter().cloned());
            w.write_record(&row)?;
        }
    }
    Ok(Sheet {
        bytes: w.into_inner()?,
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_roster_is_markus_group_list() {
        let r = Roster::parse(b"team1,alice,bob\n\nalice-3f09a1, alice\n", "r.csv").unwrap();
        assert_eq!(r.users["team1"], ["alice", "bob"]);
        assert_eq!(r.users["alice-3f09a1"], ["alice"]);
        let e = Roster::parse(b"team1\n", "r.csv").unwrap_err();
        assert_eq!(
            e.to_string(),
            "roster `r.csv`, line 1: `team1` has no user name; each line is `identifier,user,...` (MarkUs's group-list download)"
        );
        let e = Roster::parse(b"a,x\na,y\n", "r.csv").unwrap_err();
        assert_eq!(e.to_string(), "roster `r.csv`, line 2: `a` is listed twice");
    }
}
