//! Assignments behind one trait, and the registry that names them.
//!
//! An assignment is one folder on each side: `reference/src/<name>/` (what is
//! true: semantics, generator, shrinker, explanations) and
//! `src/assignment/<name>/` (its student side: the Python adapter the driver
//! loads, answer decoding and judging, hints, its rule). Adding one means
//! adding those folders and one line in [`ALL`]; the runner, the grading and
//! the reports do not change.

pub(crate) mod a48;
pub(crate) mod game;
pub(crate) mod leetcode909;
pub(crate) mod min_throws;
pub(crate) mod numeric;
pub(crate) mod values;

use salgrade_reference::{Case, CaseFile, Options};

use crate::runner::{Harness, Language};
use crate::verdict::{Verdict, VerdictKind};

/// Every assignment salgrade grades, the default first.
pub(crate) const ALL: &[&dyn Assignment] = &[
    &a48::A48,
    &numeric::Numeric(leetcode909::LeetCode909),
    &numeric::Numeric(min_throws::MinThrows),
    &game::Game,
];

/// The adapters' shared description of plain returned values.
pub(crate) const VALUES_FILE: (&str, &str) = ("_salgrade_values.py", include_str!("values.py"));

/// The assignment a command grades when none is named.
pub(crate) const DEFAULT: &str = "a48";

#[derive(Debug, thiserror::Error)]
#[error("unknown assignment `{given}` (salgrade knows {known}; see `salgrade assignments`)")]
pub(crate) struct UnknownAssignment {
    given: String,
    known: String,
}

/// Looks an assignment up by its id.
pub(crate) fn by_id(id: &str) -> Result<&'static dyn Assignment, UnknownAssignment> {
    ALL.iter()
        .copied()
        .find(|a| a.id() == id)
        .ok_or_else(|| UnknownAssignment {
            given: id.to_owned(),
            known: ALL
                .iter()
                .map(|a| format!("`{}`", a.id()))
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// A handout's ban on containers, checked by `salgrade lint`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ContainerRule {
    /// The functions (and everything they call) that must not use containers.
    pub checked: &'static [&'static str],
    /// The student's functions that may (they are not followed into, and
    /// checked code that uses one is charged, since what it returns cannot
    /// be checked) and, dotted (`salbnode.SALBnode`), the members of the
    /// course's own modules the checked code may use: the course wrote
    /// them, so they are trusted.
    pub exempt: &'static [&'static str],
    /// The rule in one sentence, for reports.
    pub summary: &'static str,
}

/// A question `salgrade ref` can put to the reference.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Question {
    pub name: &'static str,
    /// What it answers, and the arguments it takes after the input.
    pub help: &'static str,
}

pub(crate) trait Assignment: Sync {
    /// The id written in case files and reports (`a48`).
    fn id(&self) -> &'static str;
    /// One line for `salgrade assignments`.
    fn title(&self) -> &'static str;
    /// The functions a student writes (for a class, the call kinds graded),
    /// in report order.
    fn functions(&self) -> &'static [&'static str];
    /// The file name the student submits in Python (the language every
    /// assignment has); [`Assignment::harness`] names the others'.
    fn student_file(&self) -> &'static str;
    /// The languages a submission may be written in, Python first.
    fn languages(&self) -> &'static [Language] {
        &[Language::Python]
    }
    /// Text that shows a file defines the functions, to find a misnamed
    /// submission.
    fn definition_markers(&self) -> Vec<String> {
        self.functions()
            .iter()
            .map(|f| format!("def {f}("))
            .collect()
    }
    /// What the runner needs to run a submission in `language`; `None` for
    /// a language the assignment does not take.
    fn harness(&self, language: Language) -> Option<Harness>;
    /// A solution in `language` that must pass every case.
    fn model_solution(&self, language: Language) -> Option<&'static str>;
    /// The slowest solution in `language` the assignment accepts (the shape
    /// students write: one node a step, `list.pop(0)`, replaying moves). It
    /// must pass every case; calibration sets each case's deadline to a
    /// multiple of its CPU time there (see `engine.rs`).
    fn naive_solution(&self, language: Language) -> Option<&'static str>;
    /// The options this assignment takes, for `salgrade assignments`.
    fn option_help(&self) -> Option<&'static str> {
        None
    }
    /// Validates the options given on the command line or in a case file and
    /// fills in the defaults; an error names the bad key or value.
    fn options(&self, given: &Options) -> Result<Options, String>;
    /// The seeded case set.
    fn generate(&self, seed: u64, random_per_function: usize, options: &Options) -> CaseFile;
    /// Checks a case file's cases are well-formed and their expected answers
    /// are the reference's; returns one message per bad case.
    fn check_cases(&self, file: &CaseFile) -> Vec<String>;
    /// Judges the adapter's description of a returned value.
    fn judge_answer(&self, case: &Case, answer: &serde_json::Value) -> Verdict;
    /// How many squares a case's board has, where the input can be large
    /// enough to matter for memory (the case file is refused up front when
    /// it cannot fit; see `bounds.rs`). `None` where the input type itself
    /// is bounded.
    fn squares(&self, _case: &Case) -> Option<u64> {
        None
    }
    /// How many squares the case's board has, for words such as "too slow
    /// for boards of 4,000 squares"; `None` where a case has no board
    /// (the game's scenarios). Default: [`Assignment::squares`].
    fn board_squares(&self, case: &Case) -> Option<u64> {
        self.squares(case)
    }
    /// A measure of a case's size, for choosing the smallest failing case.
    fn case_size(&self, case: &Case) -> u64;
    /// The case's input described for a person, in one line.
    fn describe_input(&self, case: &Case) -> String;
    /// Cases strictly smaller than `case` (same function, expected answers
    /// from the reference under `options`), boldest first; empty when
    /// `case` is minimal.
    fn shrink_candidates<'a>(
        &'a self,
        case: &'a Case,
        options: &'a Options,
    ) -> Box<dyn Iterator<Item = Case> + 'a>;
    /// Whether a failure of one of `function`'s cases is in a call of
    /// `function` itself (a scenario makes several calls); the case shown
    /// for a function is one that is, when there is one.
    fn fails_in_own_call(&self, _function: &str, _verdict: &Verdict) -> bool {
        true
    }
    /// Whether a shrinking candidate's failure is the same failure as the
    /// graded case's, so the counterexample shown keeps failing where the
    /// case did: by default, the same verdict class.
    fn same_failure(&self, original: &Verdict, candidate: &Verdict) -> bool {
        original.kind == candidate.kind
    }
    /// What the reference does on `case`, in lines of words, and the input
    /// drawn as text when it is small enough.
    fn explain(&self, case: &Case, verdict: &Verdict) -> (Vec<String>, Option<String>);
    /// The case drawn for the HTML report: the board with the reference's
    /// walk and the square where `verdict`'s answer parts from it, or the
    /// scenario's calls. `None` where there is nothing to draw.
    fn figure(&self, _case: &Case, _verdict: &Verdict) -> Option<crate::figure::Figure> {
        None
    }
    /// This assignment's words for a verdict class, where the general ones
    /// would be vague.
    fn hint(&self, _kind: VerdictKind) -> Option<&'static str> {
        None
    }
    /// Remarks for the student on a failure of `function` (an accepted
    /// ambiguity, a common cause).
    fn notes(&self, _function: &str, _verdict: &Verdict) -> Vec<String> {
        Vec::new()
    }
    /// The case as code a student can paste to reproduce it in `language`
    /// (one or more lines: `Solution().snakesAndLadders([[-1, -1], [-1, -1]])`),
    /// if the assignment can write one.
    fn literal_call(&self, _case: &Case, _language: Language) -> Option<String> {
        None
    }
    /// Other names the adapter accepts for a name [`Self::literal_call`]
    /// writes, as `(written, accepted)` pairs (min-throws' seed spelling
    /// `getMinDiceThrows`): a call to paste uses the name the student
    /// defined.
    fn call_aliases(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }
    /// How `function` must be declared, in each language, for a student
    /// told it is missing.
    fn signature(&self, _function: &str) -> Option<&'static str> {
        None
    }
    /// The handout's ban on containers, if it has one.
    fn container_rule(&self) -> Option<ContainerRule> {
        None
    }
    /// The questions `salgrade ref` answers.
    fn questions(&self) -> &'static [Question];
    /// Answers one question about `input` (a board, in the case file's
    /// input form or the bare board) with the reference.
    fn ask(
        &self,
        question: &str,
        input: &serde_json::Value,
        args: &[u64],
        options: &Options,
    ) -> Result<String, String>;
}

/// An assignment's harness in `language`, for the assignments that take
/// Python (its file and adapter, with the shared value description) and
/// C++ alike.
pub(crate) fn python_or_cpp(
    language: Language,
    (student_file, adapter): (&'static str, &'static str),
    cpp: crate::runner::cxx::CxxHarness,
) -> Harness {
    match language {
        Language::Python => Harness::Python {
            student_file,
            support: vec![VALUES_FILE],
            adapter,
        },
        Language::Cpp => Harness::Cxx(cpp),
    }
}

/// One of two texts by language (the model solutions).
pub(crate) fn by_language(
    language: Language,
    python: &'static str,
    cpp: &'static str,
) -> &'static str {
    match language {
        Language::Python => python,
        Language::Cpp => cpp,
    }
}

/// The options of an assignment that takes none: any key is an error.
pub(crate) fn no_options(id: &str, given: &Options) -> Result<Options, String> {
    match given.keys().next() {
        Some(key) => Err(format!("`{id}` takes no options, not `{key}`")),
        None => Ok(Options::new()),
    }
}

/// The file a student submits in `language`, if the assignment takes it.
pub(crate) fn file_for(assignment: &dyn Assignment, language: Language) -> Option<&'static str> {
    assignment.harness(language).map(|h| h.student_file())
}

/// The case as code to paste in the language of the student's `file`
/// (Python when it names none), with that language's Markdown name; none
/// when the assignment cannot write it. With the student's `source`, a
/// name the student defined under an accepted alias is called by that
/// alias, so the pasted call runs. The report asks here, so it never names
/// the runner's languages itself.
pub(crate) fn literal_call_for(
    assignment: &dyn Assignment,
    case: &Case,
    file: Option<&str>,
    source: Option<&str>,
) -> Option<(String, &'static str)> {
    let language = file.and_then(Language::of_file).unwrap_or(Language::Python);
    let fence = match language {
        Language::Python => "python",
        Language::Cpp => "cpp",
    };
    let mut call = assignment.literal_call(case, language)?;
    if let Some(source) = source {
        for (written, accepted) in assignment.call_aliases() {
            if !names_call(source, written) && names_call(source, accepted) {
                call = replace_word(&call, written, accepted);
            }
        }
    }
    Some((call, fence))
}

/// Whether `text` has `name` as a whole word followed by `(` (a definition
/// or a call: either way, the name exists in the student's file).
fn names_call(text: &str, name: &str) -> bool {
    word_starts(text, name).any(|at| text[at + name.len()..].trim_start().starts_with('('))
}

/// `text` with each whole-word `name` replaced by `by`.
fn replace_word(text: &str, name: &str, by: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for at in word_starts(text, name) {
        out.push_str(&text[last..at]);
        out.push_str(by);
        last = at + name.len();
    }
    out.push_str(&text[last..]);
    out
}

/// Where `name` starts in `text` as a whole identifier.
fn word_starts<'t>(text: &'t str, name: &'t str) -> impl Iterator<Item = usize> + 't {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(name)
        .map(|(at, _)| at)
        .filter(move |&at| {
            !text[..at].chars().next_back().is_some_and(ident)
                && !text[at + name.len()..].chars().next().is_some_and(ident)
        })
}

/// The verdict's hint, in this assignment's words where it has its own.
pub(crate) fn hint(assignment: &dyn Assignment, kind: VerdictKind) -> &'static str {
    assignment.hint(kind).unwrap_or_else(|| kind.hint())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn call(assignment: &str, function: &str, input: serde_json::Value, l: Language) -> String {
        let case = Case {
            id: "x".to_owned(),
            function: function.to_owned(),
            label: String::new(),
            input,
            expected: json!(null),
        };
        by_id(assignment)
            .unwrap()
            .literal_call(&case, l)
            .unwrap_or_default()
    }

    #[test]
    fn literal_calls_are_code_to_paste() {
        let moves = json!({"move": [-1, 5, -1]});
        let f = "get_min_dice_throws";
        assert_eq!(
            call("min-throws", f, moves.clone(), Language::Python),
            "get_min_dice_throws([-1, 5, -1], 3)"
        );
        assert_eq!(
            call("min-throws", f, moves.clone(), Language::Cpp),
            "int move[] = {-1, 5, -1};\nget_min_dice_throws(move, 3);"
        );
        // A student who defined the seed's name gets a call to that name.
        let case = Case {
            id: "x".to_owned(),
            function: f.to_owned(),
            label: String::new(),
            input: moves,
            expected: json!(null),
        };
        let camel = "int getMinDiceThrows(int move[], int n) { return 0; }";
        let min_throws = by_id("min-throws").unwrap();
        assert_eq!(
            literal_call_for(min_throws, &case, Some("min_throws.cpp"), Some(camel)),
            Some((
                "int move[] = {-1, 5, -1};\ngetMinDiceThrows(move, 3);".to_owned(),
                "cpp"
            ))
        );
        let python = "def getMinDiceThrows(move, n):\n    return 0\n";
        assert_eq!(
            literal_call_for(min_throws, &case, Some("min_throws.py"), Some(python))
                .map(|(c, _)| c),
            Some("getMinDiceThrows([-1, 5, -1], 3)".to_owned())
        );
        // Both names defined: the handout's.
        let both = format!("{python}def get_min_dice_throws(move, n):\n    return 0\n");
        assert_eq!(
            literal_call_for(min_throws, &case, Some("min_throws.py"), Some(&both)).map(|(c, _)| c),
            Some("get_min_dice_throws([-1, 5, -1], 3)".to_owned())
        );
        let board = json!({"board": [[-1, -1], [-1, 3]]});
        assert_eq!(
            call("leetcode909", "snakesAndLadders", board, Language::Python),
            "Solution().snakesAndLadders([[-1, -1], [-1, 3]])"
        );
        let a48 = json!({"board": {"squares": 6, "snadders": [[5, 1]]}, "args": [1]});
        assert_eq!(
            call("a48", "willfinish", a48, Language::Python),
            "willfinish(salb2salbLL(SALboard(6, {5: 1})), 1)"
        );
        let game = json!({"size": 7, "jumps": [[4, 6]], "players": 2, "finish": "bounce",
            "calls": [{"call": "play", "args": [[2, 3], 4]}, {"call": "move", "args": [1, 6]}]});
        assert_eq!(
            call("game", "move", game, Language::Python),
            "g = Game(7, {4: 6}, 2, \"bounce\")\ng.play([2, 3], 4)\ng.move(1, 6)"
        );
    }
}
