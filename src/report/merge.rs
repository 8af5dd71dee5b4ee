//! Combining shard reports (`salgrade merge`): pure, from reports already
//! read to one report. Reports combine only when every setting that decides
//! a grade is the same (see [`super::Settings`]); the first difference is
//! named with the two files, so the instructor knows which shard to regrade.
//! Students keep the order `grade` gives them (by identifier).

use std::collections::{BTreeMap, BTreeSet};

use super::{Report, Settings, Shard};

/// Why reports cannot be combined.
#[derive(Debug, thiserror::Error, PartialEq)]
pub(crate) enum MergeError {
    #[error("there are no reports to merge")]
    Nothing,
    #[error(
        "`{file}` has no `settings` (an older salgrade graded it), so it cannot be checked against the others; regrade it with this salgrade"
    )]
    NoSettings { file: String },
    #[error(
        "`{file}` was graded with a different {what} from `{first}`; regrade it with the same settings"
    )]
    Mismatch {
        file: String,
        first: String,
        what: &'static str,
    },
    #[error(
        "`{file}` was graded by a different {what} ({theirs}) from `{first}` ({ours}), which can change a verdict; regrade it with the same one, or pass `--allow-different-builds` to merge anyway"
    )]
    Build {
        file: String,
        first: String,
        what: &'static str,
        theirs: String,
        ours: String,
    },
    #[error(
        "student `{student}` is in both `{first}` and `{file}`; merge each shard's report once"
    )]
    Duplicate {
        student: String,
        first: String,
        file: String,
    },
}

/// The combined report, and warnings about the inputs.
#[derive(Debug)]
pub(crate) struct Merged {
    pub report: Report,
    pub warnings: Vec<String>,
}

/// What graded a report, where two reports can differ without a setting
/// of the grade differing: the salgrade build, the Python, the C++
/// compiler (only when both shards built C++ students). Each can change a
/// verdict (a fixed bug, a faster interpreter under the same deadline).
fn builds(mine: &Settings, first: &Settings) -> Vec<(&'static str, String, String)> {
    let mut differ = Vec::new();
    let shown = |s: &str| {
        if s.is_empty() {
            "unrecorded".to_owned()
        } else {
            s.to_owned()
        }
    };
    if mine.version != first.version {
        differ.push((
            "salgrade version",
            mine.version.clone(),
            first.version.clone(),
        ));
    }
    if mine.build != first.build {
        differ.push(("salgrade build", shown(&mine.build), shown(&first.build)));
    }
    if mine.python != first.python {
        differ.push(("Python", shown(&mine.python), shown(&first.python)));
    }
    if let (Some(a), Some(b)) = (&mine.compiler, &first.compiler) {
        if a != b {
            differ.push(("C++ compiler", a.clone(), b.clone()));
        }
    }
    differ
}

/// The first setting of the grade that differs between two reports (each
/// with its settings). The most telling difference first: a seed names
/// itself, where the cases it generated would only say "cases".
fn first_difference(
    (report, settings): (&Report, &Settings),
    (first, first_settings): (&Report, &Settings),
) -> Option<&'static str> {
    let differences = [
        ("assignment", report.assignment != first.assignment),
        ("seed", report.seed != first.seed),
        ("set of options", settings.options != first_settings.options),
        ("set of cases", settings.cases != first_settings.cases),
        ("rubric", settings.rubric != first_settings.rubric),
        ("set of limits", settings.limits != first_settings.limits),
        (
            "set of hidden cases (`--hidden-cases`)",
            report.hidden_cases != first.hidden_cases,
        ),
    ];
    differences
        .iter()
        .find(|(_, differs)| *differs)
        .map(|(what, _)| *what)
}

/// The differences of [`builds`] between `file` and `first` as warnings,
/// when they are allowed; else the first, as the error.
fn same_builds(
    (file, mine): (&str, &Settings),
    (first, theirs): (&str, &Settings),
    allowed: bool,
) -> Result<Vec<String>, MergeError> {
    let mut warnings = Vec::new();
    for (what, mine, ours) in builds(mine, theirs) {
        if !allowed {
            return Err(MergeError::Build {
                file: file.to_owned(),
                first: first.to_owned(),
                what,
                theirs: mine,
                ours,
            });
        }
        warnings.push(format!(
            "`{file}` was graded by a different {what} ({mine}) from `{first}` ({ours}); merged anyway (`--allow-different-builds`)"
        ));
    }
    Ok(warnings)
}

/// Combines `reports` (each with the name of its file). Shards graded by
/// different builds (see [`builds`]) are refused unless
/// `allow_different_builds`, when they are named in the warnings.
pub(crate) fn merge(
    reports: Vec<(String, Report)>,
    allow_different_builds: bool,
) -> Result<Merged, MergeError> {
    let mut reports = reports.into_iter();
    let (first_name, mut merged) = reports.next().ok_or(MergeError::Nothing)?;
    let first_settings = merged
        .settings
        .clone()
        .ok_or_else(|| MergeError::NoSettings {
            file: first_name.clone(),
        })?;
    let mut owner: BTreeMap<String, String> = BTreeMap::new();
    for s in &merged.students {
        claim(&mut owner, &s.student, &first_name)?;
    }
    let mut shards: Vec<(String, Option<Shard>)> = vec![(first_name.clone(), merged.shard)];
    let mut sandboxes = vec![merged.sandbox.clone()];
    let mut differing = Vec::new();
    for (name, report) in reports {
        let settings = report
            .settings
            .as_ref()
            .ok_or_else(|| MergeError::NoSettings { file: name.clone() })?;
        let build_warnings = same_builds(
            (&name, settings),
            (&first_name, &first_settings),
            allow_different_builds,
        )?;
        if let Some(what) = first_difference((&report, settings), (&merged, &first_settings)) {
            return Err(MergeError::Mismatch {
                file: name,
                first: first_name,
                what,
            });
        }
        for s in &report.students {
            claim(&mut owner, &s.student, &name)?;
        }
        merged.warnings.extend(build_warnings.iter().cloned());
        differing.extend(build_warnings);
        for w in report.warnings {
            if !merged.warnings.contains(&w) {
                merged.warnings.push(w);
            }
        }
        if !sandboxes.contains(&report.sandbox) {
            sandboxes.push(report.sandbox);
        }
        shards.push((name, report.shard));
        merged.students.extend(report.students);
        let mine = std::mem::take(&mut merged.clusters);
        merged.clusters = crate::report::mistake::combine(mine, report.clusters);
    }
    merged.students.sort_by(|a, b| a.student.cmp(&b.student));
    let mut groups = std::mem::take(&mut merged.clusters);
    crate::report::mistake::in_report_order(&merged, &mut groups);
    merged.clusters = groups;
    merged.shard = None;
    let mut warnings = missing_shards(&shards);
    warnings.extend(differing);
    if sandboxes.len() > 1 {
        warnings.push(format!(
            "the shards ran under different protections: {}",
            sandboxes.join("; ")
        ));
        merged.sandbox = sandboxes.join("; ");
    }
    Ok(Merged {
        report: merged,
        warnings,
    })
}

/// Records that `file` holds `student`, refusing a second holder.
fn claim(
    owner: &mut BTreeMap<String, String>,
    student: &str,
    file: &str,
) -> Result<(), MergeError> {
    if let Some(first) = owner.get(student) {
        return Err(MergeError::Duplicate {
            student: student.to_owned(),
            first: first.clone(),
            file: file.to_owned(),
        });
    }
    owner.insert(student.to_owned(), file.to_owned());
    Ok(())
}

/// Warnings when the shards' own counts say some shard is not among them.
fn missing_shards(shards: &[(String, Option<Shard>)]) -> Vec<String> {
    let sharded: Vec<(&String, Shard)> = shards
        .iter()
        .filter_map(|(name, s)| s.map(|s| (name, s)))
        .collect();
    let Some(&(_, first)) = sharded.first() else {
        return Vec::new();
    };
    if let Some((name, other)) = sharded.iter().find(|(_, s)| s.count != first.count) {
        return vec![format!(
            "`{name}` is shard {other} but `{}` is shard {first}: the students were split two ways, so some may be missing or repeated",
            sharded[0].0
        )];
    }
    let present: BTreeSet<u32> = sharded.iter().map(|(_, s)| s.index).collect();
    let missing: Vec<String> = (1..=first.count)
        .filter(|i| !present.contains(i))
        .map(|i| format!("{i}/{}", first.count))
        .collect();
    let mut warnings = Vec::new();
    if !missing.is_empty() {
        warnings.push(format!(
            "shard {} {} not among the reports, so {} students are missing from the merged report",
            missing.join(", "),
            if missing.len() == 1 { "is" } else { "are" },
            if missing.len() == 1 { "its" } else { "their" }
        ));
    }
    if sharded.len() < shards.len() {
        warnings.push(
            "an unsharded report is merged with shard reports; check that no student is counted twice".to_owned(),
        );
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(shard: Option<(u32, u32)>, students: &[&str]) -> Report {
        Report {
            hidden_cases: Vec::new(),
            salgrade_version: "0".into(),
            assignment: "a48".into(),
            seed: Some(1),
            options: Default::default(),
            case_count: 0,
            functions: vec![],
            sandbox: "rlimit".into(),
            rule: None,
            warnings: vec![],
            shard: shard.map(|(index, count)| Shard { index, count }),
            settings: Some(Settings {
                cases: "c".into(),
                rubric: "r".into(),
                options: "o".into(),
                limits: "l".into(),
                version: "0".into(),
                build: "build-id 01".into(),
                python: "cpython 3.11.7".into(),
                compiler: None,
            }),
            students: students
                .iter()
                .map(|s| crate::report::StudentReport::named(s))
                .collect(),
            clusters: vec![],
        }
    }

    #[test]
    fn shards_combine_in_identifier_order() {
        let m = merge(
            vec![
                ("a".into(), report(Some((1, 2)), &["carol", "alice"])),
                ("b".into(), report(Some((2, 2)), &["bob"])),
            ],
            false,
        )
        .unwrap();
        let names: Vec<&str> = m
            .report
            .students
            .iter()
            .map(|s| s.student.as_str())
            .collect();
        assert_eq!(names, ["alice", "bob", "carol"]);
        assert_eq!(m.report.shard, None);
        assert!(m.warnings.is_empty(), "{:?}", m.warnings);
    }

    #[test]
    fn a_missing_shard_is_named() {
        let m = merge(
            vec![
                ("a".into(), report(Some((1, 3)), &["alice"])),
                ("c".into(), report(Some((3, 3)), &["carol"])),
            ],
            false,
        )
        .unwrap();
        assert_eq!(m.warnings.len(), 1);
        assert!(
            m.warnings[0].contains("shard 2/3 is not"),
            "{:?}",
            m.warnings
        );
    }

    #[test]
    fn the_first_difference_is_named() {
        let mut b = report(None, &["bob"]);
        b.seed = Some(2);
        b.settings.as_mut().unwrap().cases = "other".into();
        let e = merge(
            vec![("a".into(), report(None, &["alice"])), ("b".into(), b)],
            false,
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "`b` was graded with a different seed from `a`; regrade it with the same settings"
        );
    }

    #[test]
    fn a_different_python_or_build_is_refused_unless_allowed() {
        let mut b = report(Some((2, 2)), &["bob"]);
        b.settings.as_mut().unwrap().python = "cpython 3.11.2".into();
        let shards = |b: &Report| {
            vec![
                ("a".into(), report(Some((1, 2)), &["alice"])),
                ("b".into(), b.clone()),
            ]
        };
        let e = merge(shards(&b), false).unwrap_err();
        assert_eq!(
            e.to_string(),
            "`b` was graded by a different Python (cpython 3.11.2) from `a` (cpython 3.11.7), which can change a verdict; regrade it with the same one, or pass `--allow-different-builds` to merge anyway"
        );
        let m = merge(shards(&b), true).unwrap();
        assert_eq!(m.report.students.len(), 2);
        assert!(m.warnings[0].contains("merged anyway"), "{:?}", m.warnings);
        b.settings.as_mut().unwrap().python = "cpython 3.11.7".into();
        b.settings.as_mut().unwrap().build = "build-id 02".into();
        let e = merge(shards(&b), false).unwrap_err();
        assert!(
            e.to_string()
                .contains("different salgrade build (build-id 02)"),
            "{e}"
        );
        // A compiler counts only where both shards built C++ students.
        b.settings.as_mut().unwrap().build = "build-id 01".into();
        b.settings.as_mut().unwrap().compiler = Some("g++ 12.2.0".into());
        assert!(merge(shards(&b), false).is_ok());
    }

    #[test]
    fn a_student_twice_is_refused() {
        let e = merge(
            vec![
                ("a".into(), report(None, &["alice"])),
                ("b".into(), report(None, &["alice"])),
            ],
            false,
        )
        .unwrap_err();
        assert!(matches!(e, MergeError::Duplicate { .. }), "{e}");
    }

    #[test]
    fn shards_are_stable_and_cover_everyone_once() {
        // Pinned: a change to the hash would split existing cohorts differently.
        let s = |index| Shard { index, count: 3 };
        let homes: Vec<u32> = ["alice", "bob", "carol", "dave"]
            .iter()
            .map(|n| (1..=3).filter(|&i| s(i).holds(n)).collect::<Vec<_>>())
            .map(|v| {
                assert_eq!(v.len(), 1);
                v[0]
            })
            .collect();
        assert_eq!(homes, [2, 1, 3, 3]);
        for bad in ["0/3", "4/3", "x/3", "3", "1/0", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert_eq!("2/3".parse::<Shard>(), Ok(s(2)));
    }
}
