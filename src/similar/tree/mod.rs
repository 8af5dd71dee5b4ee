//! The program tree that similarity works on: a tree-sitter parse of a
//! Python or C++ file turned into one small vocabulary of statement and
//! expression kinds, so that the normalisations (`normalize/`) and the
//! fingerprints (`fingerprint.rs`) are written once for both languages.
//!
//! What the conversion already drops or unifies, because students change it
//! freely and it says nothing about who wrote the code: comments,
//! docstrings, `pass`, imports and `#include`s, `using namespace`,
//! parentheses, type annotations in Python, `std::` and every other
//! namespace qualification, `this->`, the spelling of literals (`0x10` is
//! `16`, `'a'` is `"a"`), `i++` / `++i` / `i += 1` (one form), `elif`
//! (a nested `if`), and a C++ `for (init; test; step)` (its `while` form:
//! `init; while (test) { body; step; }`). Names are kept as hashes; which
//! of them the file binds itself (and so may rename) is recorded in
//! [`Tree::locals`], so the fingerprints can drop exactly those.
//!
//! The conversion never fails: a file that does not parse gives a tree
//! with `Other` nodes where tree-sitter found errors, and [`Tree::errors`]
//! counts them. Nesting deeper than [`MAX_DEPTH`] is cut (a generated file
//! could otherwise exhaust the stack).
//!
//! This file holds the vocabulary and what both languages share; each
//! language's syntax is converted in its own file: `python.rs`, `cpp.rs`
//! (statements and expressions) and `cpp_decl.rs` (declarations and
//! aliases).

use std::collections::{HashMap, HashSet};

use tree_sitter::Node as TsNode;

use crate::runner::Language;

mod cpp;
mod cpp_decl;
mod python;

/// How deep the converted tree may nest; deeper nodes are left out.
pub(crate) const MAX_DEPTH: usize = 200;

/// The kinds of node, shared by both languages. `Other` keeps tree-sitter's
/// own kind for everything the normalisations need not understand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    Module,
    Block,
    /// A function or method: `[Params, Block]`, labelled with its name.
    Func,
    Params,
    /// A class or struct: `[Block]`, labelled with its name.
    Class,
    /// `[test, then-Block, else-Block?]`.
    If,
    /// `[test, Block]`.
    While,
    /// `[target, iterable, Block]`.
    ForEach,
    Return,
    Break,
    Continue,
    /// `raise` or `throw`.
    Raise,
    ExprStmt,
    /// `[target, value]`.
    Assign,
    /// `[target, value]`, labelled with the operator without its `=`.
    AugAssign,
    /// A C++ declaration of one name: `[type, name, value?]`.
    Decl,
    /// `[callee, arguments...]`.
    Call,
    /// `[object]`, labelled with the attribute's name.
    Attr,
    /// `[object, index...]`.
    Index,
    /// `[left, right]`, labelled with the operator.
    BinOp,
    /// `[left, right]`, labelled with the operator.
    Cmp,
    And,
    Or,
    Not,
    /// `[operand]`, labelled with the operator.
    Unary,
    /// `[test, if-true, if-false]`.
    Ternary,
    /// A name, labelled with its text's hash.
    Name,
    /// A number, labelled with its canonical value's hash.
    Num,
    Str,
    /// `true` / `True` (label 1) or `false` / `False` (label 0).
    Bool,
    /// Anything else: tree-sitter's kind id, labelled with its operator
    /// tokens where it has any.
    Other(u16),
}

/// One node: its kind, a label (a name's, an operator's or a literal's
/// hash; 0 when it has none), its children, and the bytes of the source
/// it came from (for fragments shown to the instructor).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Node {
    pub kind: Kind,
    pub label: u64,
    pub children: Vec<Node>,
    pub start: u32,
    pub end: u32,
}

impl Node {
    pub(crate) fn new(kind: Kind, label: u64, children: Vec<Node>, start: u32, end: u32) -> Node {
        Node {
            kind,
            label,
            children,
            start,
            end,
        }
    }

    /// Calls `f` on every node of the subtree, parents first.
    pub(crate) fn visit<'a>(&'a self, f: &mut impl FnMut(&'a Node)) {
        f(self);
        for c in &self.children {
            c.visit(f);
        }
    }
}

/// A converted file.
#[derive(Debug, Clone)]
pub(crate) struct Tree {
    pub root: Node,
    /// The names (and attribute names) the file binds: functions, classes,
    /// parameters, variables, fields. These are the names a student may
    /// rename; every other name (`deque`, `len`, `push_back`) is kept.
    pub locals: HashSet<u64>,
    /// How many syntax errors tree-sitter recovered from, and the line of
    /// the first.
    pub errors: usize,
    pub first_error_line: Option<usize>,
}

/// The 64-bit FNV-1a hash of `bytes`: labels are compared, never shown.
pub(crate) fn text_hash(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    // 0 means "no label".
    h | 1
}

/// Why a file could not be converted at all.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ParseError {
    #[error("the {0} grammar could not be loaded")]
    Grammar(&'static str),
    #[error("tree-sitter gave no tree")]
    NoTree,
}

/// Parses `source` in `language` and converts it.
pub(crate) fn parse(source: &str, language: Language) -> Result<Tree, ParseError> {
    let mut parser = tree_sitter::Parser::new();
    let grammar: tree_sitter::Language = match language {
        Language::Python => tree_sitter_python::LANGUAGE.into(),
        Language::Cpp => tree_sitter_cpp::LANGUAGE.into(),
    };
    parser
        .set_language(&grammar)
        .map_err(|_| ParseError::Grammar(language.name()))?;
    let parsed = parser.parse(source, None).ok_or(ParseError::NoTree)?;
    let mut c = Converter {
        src: source.as_bytes(),
        language,
        locals: HashSet::new(),
        modules: HashSet::new(),
        aliases: HashMap::new(),
        errors: 0,
        first_error_line: None,
        depth: 0,
        in_body: 0,
    };
    let root = c.one(parsed.root_node());
    if parsed.root_node().has_error() {
        let (errors, first) = count_errors(parsed.root_node());
        c.errors = errors.max(1);
        c.first_error_line = first.or(c.first_error_line);
    }
    Ok(Tree {
        root,
        locals: c.locals,
        errors: c.errors,
        first_error_line: c.first_error_line,
    })
}

/// How many error and missing nodes the parse holds, and the first one's
/// line (a walk with a cursor: no recursion however deep the tree).
fn count_errors(root: TsNode<'_>) -> (usize, Option<usize>) {
    let mut cursor = root.walk();
    let (mut count, mut first) = (0, None);
    loop {
        let n = cursor.node();
        let descend = n.has_error();
        if n.is_error() || n.is_missing() {
            count += 1;
            if first.is_none() {
                first = Some(n.start_position().row + 1);
            }
        }
        if descend && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return (count, first);
            }
        }
    }
}

struct Converter<'s> {
    src: &'s [u8],
    language: Language,
    locals: HashSet<u64>,
    modules: HashSet<u64>,
    /// C++ `typedef`, `using X = ...` and object-like `#define`s: the name
    /// and what it stands for.
    aliases: HashMap<u64, Node>,
    errors: usize,
    first_error_line: Option<usize>,
    depth: usize,
    /// How many function bodies the conversion is inside: there,
    /// `vector<int> v(n, 0);` declares a variable, not a function.
    in_body: usize,
}

fn span(n: TsNode<'_>) -> (u32, u32) {
    (
        u32::try_from(n.start_byte()).unwrap_or(u32::MAX),
        u32::try_from(n.end_byte()).unwrap_or(u32::MAX),
    )
}

fn leaf(kind: Kind, label: u64, n: TsNode<'_>) -> Node {
    let (s, e) = span(n);
    Node::new(kind, label, vec![], s, e)
}

fn with(kind: Kind, label: u64, children: Vec<Node>, n: TsNode<'_>) -> Node {
    let (s, e) = span(n);
    Node::new(kind, label, children, s, e)
}

/// A statement list as one block.
fn block_of(nodes: Vec<Node>, n: TsNode<'_>) -> Node {
    match <[Node; 1]>::try_from(nodes) {
        Ok([b]) if b.kind == Kind::Block => b,
        Ok([one]) => with(Kind::Block, 0, vec![one], n),
        Err(nodes) => with(Kind::Block, 0, nodes, n),
    }
}

/// Operators and keywords kept as labels of nodes the conversion does not
/// know; punctuation is not.
fn is_operator(token: &str) -> bool {
    !token.is_empty()
        && !matches!(
            token,
            "(" | ")" | "[" | "]" | "{" | "}" | "," | ";" | ":" | "." | "::" | "\"" | "'" | "->"
        )
}

/// The canonical text of a number literal: its value where it parses
/// (`0x10`, `16`, `16LL` and `1_6` are all `16`; `1e9` is `1000000000`).
fn canonical_number(text: &str) -> String {
    let t: String = text.chars().filter(|c| *c != '_' && *c != '\'').collect();
    let lower = t.to_ascii_lowercase();
    let digits = lower.trim_end_matches(['u', 'l', 'z', 'j']);
    let int = if let Some(hex) = digits.strip_prefix("0x") {
        u128::from_str_radix(hex, 16).ok()
    } else if let Some(bin) = digits.strip_prefix("0b") {
        u128::from_str_radix(bin, 2).ok()
    } else if let Some(oct) = digits.strip_prefix("0o") {
        u128::from_str_radix(oct, 8).ok()
    } else {
        digits.parse::<u128>().ok()
    };
    if let Some(v) = int {
        return v.to_string();
    }
    let float = lower.trim_end_matches(['f', 'l']);
    match float.parse::<f64>() {
        Ok(v) if v.is_finite() && v.fract() == 0.0 && v.abs() < 1e18 => format!("{}", v as i64),
        Ok(v) => format!("{v}"),
        Err(_) => lower,
    }
}

impl Converter<'_> {
    fn text(&self, n: TsNode<'_>) -> &str {
        n.utf8_text(self.src).unwrap_or("")
    }

    fn hash_of(&self, n: TsNode<'_>) -> u64 {
        text_hash(self.text(n).as_bytes())
    }

    fn field<'t>(&self, n: TsNode<'t>, name: &str) -> Option<TsNode<'t>> {
        n.child_by_field_name(name)
    }

    fn named<'t>(&self, n: TsNode<'t>) -> Vec<TsNode<'t>> {
        let mut cursor = n.walk();
        n.named_children(&mut cursor)
            .filter(|c| !c.is_extra())
            .collect()
    }

    /// Exactly one node for `n` (a list of statements becomes a block).
    fn one(&mut self, n: TsNode<'_>) -> Node {
        let mut nodes = self.conv(n);
        if nodes.len() == 1 {
            nodes.pop().unwrap_or_else(|| leaf(Kind::Block, 0, n))
        } else {
            with(Kind::Block, 0, nodes, n)
        }
    }

    fn opt(&mut self, n: Option<TsNode<'_>>) -> Option<Node> {
        n.map(|n| self.one(n))
    }

    /// The nodes `n` stands for: none (a comment), one, or several (a C++
    /// declaration of two names, a `for` as its `while` form).
    fn conv(&mut self, n: TsNode<'_>) -> Vec<Node> {
        if self.depth >= MAX_DEPTH {
            return vec![];
        }
        self.depth += 1;
        let out = match self.language {
            Language::Python => self.python(n),
            Language::Cpp => self.cpp(n),
        };
        self.depth -= 1;
        out
    }

    /// A node of a kind the conversion does not know: its kind, its
    /// operator tokens as the label, its named children converted.
    fn generic(&mut self, n: TsNode<'_>) -> Node {
        let mut ops = String::new();
        let mut children = Vec::new();
        let mut cursor = n.walk();
        let kids: Vec<TsNode<'_>> = n.children(&mut cursor).collect();
        for c in kids {
            if c.is_extra() {
                continue;
            }
            if c.is_named() {
                children.extend(self.conv(c));
            } else {
                let t = self.text(c);
                if is_operator(t) && c.child_count() == 0 {
                    ops.push_str(t);
                    ops.push(' ');
                }
            }
        }
        let label = if ops.is_empty() {
            0
        } else {
            text_hash(ops.as_bytes())
        };
        with(Kind::Other(n.kind_id()), label, children, n)
    }

    /// The operator token of a binary node (its `operator` field, else its
    /// first unnamed child).
    fn operator(&self, n: TsNode<'_>) -> String {
        if let Some(op) = n.child_by_field_name("operator") {
            return self.text(op).to_owned();
        }
        let mut cursor = n.walk();
        n.children(&mut cursor)
            .find(|c| !c.is_named())
            .map(|c| self.text(c).to_owned())
            .unwrap_or_default()
    }

    /// Records every name bound by an assignment target.
    fn bind_targets(&mut self, target: &Node) {
        match target.kind {
            Kind::Name | Kind::Attr => {
                self.locals.insert(target.label);
            }
            Kind::Index => {}
            _ => {
                for c in &target.children {
                    self.bind_targets(c);
                }
            }
        }
    }

    /// A binary operator node in the shared vocabulary.
    fn binary(&mut self, n: TsNode<'_>, op: &str, left: Node, right: Node) -> Node {
        let kind = match op {
            "and" | "&&" => Kind::And,
            "or" | "||" => Kind::Or,
            "<" | ">" | "<=" | ">=" | "==" | "!=" | "<>" | "in" | "not in" | "is" | "is not" => {
                Kind::Cmp
            }
            _ => Kind::BinOp,
        };
        let op = if op == "<>" { "!=" } else { op };
        let label = match kind {
            Kind::And | Kind::Or => 0,
            _ => text_hash(op.as_bytes()),
        };
        with(kind, label, vec![left, right], n)
    }

    /// `-1` as the number -1, other unary operators as nodes.
    fn unary(&mut self, n: TsNode<'_>, op: &str, operand: Node) -> Node {
        if op == "-" && operand.kind == Kind::Num {
            let value = format!("-{}", self.text(n).trim_start_matches('-').trim());
            return leaf(Kind::Num, text_hash(canonical_number(&value).as_bytes()), n);
        }
        if op == "+" {
            return operand;
        }
        if op == "!" || op == "not" {
            return with(Kind::Not, 0, vec![operand], n);
        }
        with(Kind::Unary, text_hash(op.as_bytes()), vec![operand], n)
    }

    fn number(&self, n: TsNode<'_>) -> Node {
        leaf(
            Kind::Num,
            text_hash(canonical_number(self.text(n)).as_bytes()),
            n,
        )
    }

    fn name(&self, n: TsNode<'_>) -> Node {
        leaf(Kind::Name, self.hash_of(n), n)
    }

    /// Every named child of `n` converted, in order.
    fn conv_children(&mut self, n: TsNode<'_>) -> Vec<Node> {
        let kids = self.named(n);
        self.conv_each(kids)
    }

    fn conv_each(&mut self, kids: Vec<TsNode<'_>>) -> Vec<Node> {
        let mut out = Vec::new();
        for k in kids {
            out.extend(self.conv(k));
        }
        out
    }

    /// A binary node from its `left` and `right` fields (both languages
    /// name them alike).
    fn binary_fields(&mut self, n: TsNode<'_>) -> Node {
        let op = self.operator(n);
        let left = self.opt(self.field(n, "left"));
        let right = self.opt(self.field(n, "right"));
        let (Some(l), Some(r)) = (left, right) else {
            return self.generic(n);
        };
        self.binary(n, &op, l, r)
    }

    /// A unary node from its `argument` field (both languages name it
    /// alike).
    fn unary_field(&mut self, n: TsNode<'_>) -> Node {
        let op = self.operator(n);
        match self.opt(self.field(n, "argument")) {
            Some(a) => self.unary(n, &op, a),
            None => self.generic(n),
        }
    }
}

/// `node` with every span set to `start..end` (an alias's expansion shown
/// where the alias is used).
fn relocated(node: &Node, start: u32, end: u32) -> Node {
    Node::new(
        node.kind,
        node.label,
        node.children
            .iter()
            .map(|c| relocated(c, start, end))
            .collect(),
        start,
        end,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(n: &Node, out: &mut Vec<String>) {
        out.push(format!("{:?}", n.kind));
        for c in &n.children {
            kinds(c, out);
        }
    }

    #[test]
    fn numbers_have_one_spelling() {
        for (a, b) in [
            ("0x10", "16"),
            ("16LL", "16"),
            ("1e9", "1000000000"),
            ("1_000", "1000"),
        ] {
            assert_eq!(canonical_number(a), canonical_number(b), "{a} {b}");
        }
        assert_ne!(canonical_number("1.5"), canonical_number("1"));
    }

    #[test]
    fn a_cpp_for_is_its_while_form() {
        let f = parse(
            "int f(int n){ int s = 0; for (int i = 0; i < n; i++) s += i; return s; }",
            Language::Cpp,
        )
        .unwrap();
        let w = parse(
            "int f(int n){ int s = 0; int i = 0; while (i < n) { s += i; ++i; } return s; }",
            Language::Cpp,
        )
        .unwrap();
        let (mut a, mut b) = (vec![], vec![]);
        kinds(&f.root, &mut a);
        kinds(&w.root, &mut b);
        assert_eq!(a, b);
    }

    #[test]
    fn typedefs_and_defines_are_expanded() {
        let t = parse(
            "typedef long long ll;\n#define MOD 1000000007\nll f(ll x){ return x % MOD; }",
            Language::Cpp,
        )
        .unwrap();
        let plain = parse(
            "long long f(long long x){ return x % 1000000007; }",
            Language::Cpp,
        )
        .unwrap();
        let (mut a, mut b) = (vec![], vec![]);
        kinds(&t.root, &mut a);
        kinds(&plain.root, &mut b);
        assert_eq!(a, b);
    }

    #[test]
    fn broken_files_convert_with_their_errors_counted() {
        let t = parse("def f(:\n    return )\n", Language::Python).unwrap();
        assert!(t.errors > 0);
        assert_eq!(t.first_error_line, Some(1));
    }

    #[test]
    fn deep_nesting_is_cut_not_overflowed() {
        let deep = format!("x = {}1{}\n", "(".repeat(5000), ")".repeat(5000));
        assert!(parse(&deep, Language::Python).is_ok());
    }
}
