//! The shape shared by assignments whose one graded function returns a
//! single integer (LeetCode 909's least number of moves, the least number of
//! dice throws): a typed input from the reference, its answer, and the
//! words around them. Each such assignment implements [`IntProblem`] in its
//! own folder; [`Numeric`] turns it into an [`Assignment`].

use salgrade_reference::{Case, CaseFile, Options};
use serde::Deserialize;

use super::values::{Plain, python};
use super::{Assignment, Question};
use crate::runner::{Harness, Language};
use crate::verdict::{Verdict, VerdictKind};

/// One integer-answer assignment, described by its reference functions.
pub(crate) trait IntProblem: Sync {
    type Input: serde::Serialize;
    fn id(&self) -> &'static str;
    fn title(&self) -> &'static str;
    fn student_file(&self) -> &'static str;
    /// The one graded function (or method).
    fn functions(&self) -> &'static [&'static str];
    fn definition_markers(&self) -> Vec<String>;
    fn harness(&self, language: Language) -> Option<Harness>;
    fn model_solution(&self, language: Language) -> Option<&'static str>;
    fn naive_solution(&self, language: Language) -> Option<&'static str>;
    fn parse(&self, input: &serde_json::Value) -> Result<Self::Input, String>;
    fn answer(&self, input: &Self::Input) -> i64;
    fn generate(&self, seed: u64, random: usize) -> Vec<Case>;
    fn shrink(&self, input: &Self::Input) -> Box<dyn Iterator<Item = Self::Input>>;
    fn size(&self, input: &Self::Input) -> u64;
    fn describe(&self, input: &Self::Input) -> String;
    fn explain(&self, input: &Self::Input) -> Vec<String>;
    fn draw(&self, input: &Self::Input) -> Option<String>;
    /// The board laid out for drawing, with a shortest walk from the first
    /// square to the last (none when it cannot be reached).
    fn board(&self, input: &Self::Input) -> crate::figure::Board;
    /// How the function must be declared, in each language.
    fn signature(&self) -> &'static str;
    /// The key the board has in a case's input (`board`, `move`).
    fn board_key(&self) -> &'static str;
    /// The call on `input` (a case's input JSON) as code in `language`.
    fn literal_call(&self, input: &serde_json::Value, language: Language) -> Option<String>;
    /// See [`Assignment::call_aliases`].
    fn call_aliases(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }
}

/// An [`IntProblem`] graded as an assignment.
pub(crate) struct Numeric<P>(pub P);

/// The expected answer, in the case file: `{"answer": N}`.
#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
struct Expected {
    answer: i64,
}

/// The adapter's description of a returned value (`values.py`).
#[derive(Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Answer {
    Value(Plain),
}

/// Judges an integer answer: an `int` (not a `bool`) equal to `expected`.
fn judge_int(expected: i64, answer: &Answer) -> Verdict {
    let Answer::Value(plain) = answer;
    if plain.ty != "int" {
        return Verdict::wrong(
            VerdictKind::WrongType,
            format!("{expected} (an int)"),
            plain.words(),
        );
    }
    match plain.value.as_i64() {
        Some(v) if v == expected => Verdict::pass(),
        _ => Verdict::wrong(
            VerdictKind::WrongAnswer,
            expected.to_string(),
            plain.repr.clone().unwrap_or_else(|| python(&plain.value)),
        ),
    }
}

/// Where a wrong count of moves parts from the reference's shortest walk:
/// a count too small stops on the square that many moves reach; a count
/// too large, or -1, misses the last square, which the walk reaches; a
/// count where there is no way misses that the last square is cut off.
fn wrong_square(
    board: &crate::figure::Board,
    expected: i64,
    verdict: &Verdict,
) -> Option<(u64, String)> {
    let last = board.first + board.squares.checked_sub(1)?;
    let got: Option<i64> = verdict.got.as_deref().and_then(|g| g.trim().parse().ok());
    let walk = board.walks.first().map(|w| w.squares.as_slice());
    match (walk, got) {
        (None, _) => Some((last, "the last square cannot be reached".to_owned())),
        (Some(walk), Some(g)) if g >= 0 && g < expected => {
            let at = walk.get(usize::try_from(g).ok()?)?;
            Some((
                *at,
                format!("{g} move(s) reach only this square on a shortest walk"),
            ))
        }
        (Some(_), _) => Some((last, format!("reached in {expected} move(s)"))),
    }
}

impl<P: IntProblem> Numeric<P> {
    fn input(&self, case: &Case) -> Option<P::Input> {
        self.0.parse(&case.input).ok()
    }
}

impl<P: IntProblem> Assignment for Numeric<P> {
    fn id(&self) -> &'static str {
        self.0.id()
    }

    fn title(&self) -> &'static str {
        self.0.title()
    }

    fn functions(&self) -> &'static [&'static str] {
        self.0.functions()
    }

    fn student_file(&self) -> &'static str {
        self.0.student_file()
    }

    fn definition_markers(&self) -> Vec<String> {
        self.0.definition_markers()
    }

    fn languages(&self) -> &'static [Language] {
        &[Language::Python, Language::Cpp]
    }

    fn harness(&self, language: Language) -> Option<Harness> {
        self.0.harness(language)
    }

    fn model_solution(&self, language: Language) -> Option<&'static str> {
        self.0.model_solution(language)
    }

    fn naive_solution(&self, language: Language) -> Option<&'static str> {
        self.0.naive_solution(language)
    }

    fn options(&self, given: &Options) -> Result<Options, String> {
        super::no_options(self.id(), given)
    }

    fn generate(&self, seed: u64, random_per_function: usize, _options: &Options) -> CaseFile {
        CaseFile {
            assignment: self.id().to_owned(),
            seed: Some(seed),
            options: Options::new(),
            cases: self.0.generate(seed, random_per_function),
        }
    }

    fn check_cases(&self, file: &CaseFile) -> Vec<String> {
        let mut problems = Vec::new();
        for case in &file.cases {
            let input = match self.0.parse(&case.input) {
                Ok(i) => i,
                Err(e) => {
                    problems.push(format!("case `{}`: {e}", case.id));
                    continue;
                }
            };
            let want = self.0.answer(&input);
            match serde_json::from_value::<Expected>(case.expected.clone()) {
                Ok(e) if e.answer == want => {}
                Ok(e) => problems.push(format!(
                    "case `{}`: expected {} but the reference says {want}",
                    case.id, e.answer
                )),
                Err(_) => problems.push(format!(
                    "case `{}`: `expected` is not of the form {{\"answer\": N}}",
                    case.id
                )),
            }
        }
        problems
    }

    fn judge_answer(&self, case: &Case, answer: &serde_json::Value) -> Verdict {
        let Ok(expected) = serde_json::from_value::<Expected>(case.expected.clone()) else {
            return Verdict::harness("salgrade could not read this case's expected answer");
        };
        match serde_json::from_value::<Answer>(answer.clone()) {
            Ok(a) => judge_int(expected.answer, &a),
            // Described in the student's process: theirs (see a48).
            Err(e) => crate::verdict::undescribable_answer(&e),
        }
    }

    fn case_size(&self, case: &Case) -> u64 {
        self.input(case).map_or(u64::MAX, |i| self.0.size(&i))
    }

    fn board_squares(&self, case: &Case) -> Option<u64> {
        // A grid (`[[...], ...]`) has a square per cell; a line, per item.
        let board = case.input.get(self.0.board_key())?.as_array()?;
        Some(
            board
                .iter()
                .map(|row| row.as_array().map_or(1, Vec::len) as u64)
                .sum(),
        )
    }

    fn describe_input(&self, case: &Case) -> String {
        self.input(case)
            .map_or_else(|| "(unreadable input)".to_owned(), |i| self.0.describe(&i))
    }

    fn shrink_candidates<'a>(
        &'a self,
        case: &'a Case,
        _options: &'a Options,
    ) -> Box<dyn Iterator<Item = Case> + 'a> {
        let Some(input) = self.input(case) else {
            return Box::new(std::iter::empty());
        };
        let root = case.id.split('~').next().unwrap_or(&case.id).to_owned();
        Box::new(self.0.shrink(&input).filter_map(move |smaller| {
            Some(Case {
                id: format!("{root}~shrunk"),
                function: case.function.clone(),
                label: format!("shrunk from {root}"),
                expected: serde_json::json!({ "answer": self.0.answer(&smaller) }),
                input: serde_json::to_value(&smaller).ok()?,
            })
        }))
    }

    fn explain(&self, case: &Case, _verdict: &Verdict) -> (Vec<String>, Option<String>) {
        match self.input(case) {
            Some(i) => (self.0.explain(&i), self.0.draw(&i)),
            None => (Vec::new(), None),
        }
    }

    fn signature(&self, _function: &str) -> Option<&'static str> {
        Some(self.0.signature())
    }

    fn figure(&self, case: &Case, verdict: &Verdict) -> Option<crate::figure::Figure> {
        let input = self.input(case)?;
        let mut board = self.0.board(&input);
        // Only an answer can part from the reference at a square.
        if verdict.kind == VerdictKind::WrongAnswer {
            board.wrong_at = wrong_square(&board, self.0.answer(&input), verdict);
        }
        Some(crate::figure::Figure::Board(board))
    }

    fn literal_call(&self, case: &Case, language: Language) -> Option<String> {
        self.0.literal_call(&case.input, language)
    }

    fn call_aliases(&self) -> &'static [(&'static str, &'static str)] {
        self.0.call_aliases()
    }

    fn questions(&self) -> &'static [Question] {
        &[
            Question {
                name: "answer",
                help: "the answer the student's function must return (no args)",
            },
            Question {
                name: "explain",
                help: "a shortest way to the last square in words, or why there is none (no args)",
            },
            Question {
                name: "draw",
                help: "the board drawn as students see it, when small enough (no args)",
            },
        ]
    }

    fn ask(
        &self,
        question: &str,
        input: &serde_json::Value,
        args: &[u64],
        _options: &Options,
    ) -> Result<String, String> {
        if !args.is_empty() {
            return Err(format!("`{question}` takes no arguments"));
        }
        // The bare board (`[-1, 5, ...]`, `[[-1, -1], ...]`) is taken as
        // well as the case file's input form; a bare board that is wrong
        // gets the same error (`move[1] is 3, but ...`) as the wrapped one.
        let input = match (self.0.parse(input), input) {
            (Ok(parsed), _) => parsed,
            (Err(_), bare @ serde_json::Value::Array(_)) => self
                .0
                .parse(&serde_json::json!({ self.0.board_key(): bare }))?,
            (Err(e), _) => return Err(e),
        };
        Ok(match question {
            "answer" => self.0.answer(&input).to_string(),
            "explain" => self.0.explain(&input).join("\n"),
            "draw" => self
                .0
                .draw(&input)
                .ok_or("the board is too large to draw; `explain` describes it")?,
            other => return Err(format!("`{}` has no question `{other}`", self.id())),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(ty: &str, v: serde_json::Value) -> Answer {
        Answer::Value(Plain {
            ty: ty.to_owned(),
            value: v,
            repr: None,
        })
    }

    #[test]
    fn a_wrong_count_is_ringed_where_it_parts_from_the_walk() {
        use crate::assignment::min_throws::MinThrows;
        use crate::figure::{Figure, Layout};
        let a = Numeric(MinThrows);
        // Cells 0..=8, a ladder 1->7: the shortest walk is 0 -> 7 -> 8.
        let case = Case {
            id: "t".into(),
            function: "get_min_dice_throws".into(),
            label: String::new(),
            input: serde_json::json!({"move": [-1, 7, -1, -1, -1, -1, -1, -1, -1]}),
            expected: serde_json::json!({"answer": 2}),
        };
        let ring = |got: &str| {
            let verdict = Verdict::wrong(VerdictKind::WrongAnswer, "2", got);
            match a.figure(&case, &verdict) {
                Some(Figure::Board(b)) => {
                    assert_eq!(b.layout, Layout::Line);
                    assert_eq!((b.squares, b.first), (9, 0));
                    assert_eq!(b.walks[0].squares, vec![0, 7, 8]);
                    assert_eq!(b.jumps, vec![(1, 7)]);
                    b.wrong_at.map(|(q, _)| q)
                }
                other => panic!("{other:?}"),
            }
        };
        // Too few throws stop where that many reach; too many, or -1, miss
        // the last cell.
        assert_eq!(ring("1"), Some(7));
        assert_eq!(ring("0"), Some(0));
        assert_eq!(ring("3"), Some(8));
        assert_eq!(ring("-1"), Some(8));
        // A timeout parts nowhere.
        let timeout = Verdict::new(VerdictKind::Timeout);
        assert!(matches!(
            a.figure(&case, &timeout),
            Some(Figure::Board(b)) if b.wrong_at.is_none()
        ));
    }

    #[test]
    fn an_int_answer_must_be_an_int_and_equal() {
        assert!(judge_int(4, &value("int", 4.into())).passed());
        let v = judge_int(-1, &value("int", 3.into()));
        assert_eq!(
            (v.kind, v.expected.as_deref()),
            (VerdictKind::WrongAnswer, Some("-1"))
        );
        let v = judge_int(1, &value("bool", true.into()));
        assert_eq!(v.kind, VerdictKind::WrongType);
        assert_eq!(v.got.as_deref(), Some("True (a bool)"));
        let v = judge_int(1, &value("NoneType", serde_json::Value::Null));
        assert_eq!(v.got.as_deref(), Some("None"));
        assert_eq!(
            judge_int(1, &value("float", 1.0.into())).kind,
            VerdictKind::WrongType
        );
    }
}
