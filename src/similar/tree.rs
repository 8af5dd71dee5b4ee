//! The program tree that similarity works on: a tree-sitter parse of a
//! Python or C++ file turned into one small vocabulary of statement and
//! expression kinds, so that the normalisations (`normalize.rs`) and the
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

use std::collections::{HashMap, HashSet};

use tree_sitter::Node as TsNode;

use crate::runner::Language;

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

    // ---------------------------------------------------------------- Python

    fn python(&mut self, n: TsNode<'_>) -> Vec<Node> {
        let one = |node: Node| vec![node];
        match n.kind() {
            "comment"
            | "pass_statement"
            | "global_statement"
            | "nonlocal_statement"
            | "future_import_statement"
            | "decorator"
            | "type" => vec![],
            "module" => {
                let kids = self.named(n);
                let mut body = Vec::new();
                for k in kids {
                    body.extend(self.conv(k));
                }
                one(with(Kind::Module, 0, body, n))
            }
            "block" => {
                let kids = self.named(n);
                let mut body = Vec::new();
                for k in kids {
                    body.extend(self.conv(k));
                }
                one(with(Kind::Block, 0, body, n))
            }
            "import_statement" | "import_from_statement" => {
                self.python_import(n);
                vec![]
            }
            "expression_statement" => {
                let kids = self.named(n);
                if let [only] = kids.as_slice() {
                    match only.kind() {
                        // A docstring, or a string used as a comment.
                        "string" | "concatenated_string" => return vec![],
                        "assignment" | "augmented_assignment" => return self.conv(*only),
                        _ => {}
                    }
                }
                let mut exprs = Vec::new();
                for k in kids {
                    exprs.extend(self.conv(k));
                }
                one(with(Kind::ExprStmt, 0, exprs, n))
            }
            "decorated_definition" => match self.field(n, "definition") {
                Some(d) => self.conv(d),
                None => vec![],
            },
            "function_definition" => {
                let name = self.field(n, "name");
                let label = name.map(|x| self.hash_of(x)).unwrap_or(0);
                self.locals.insert(label);
                let params = match self.field(n, "parameters") {
                    Some(p) => self.python_params(p),
                    None => leaf(Kind::Params, 0, n),
                };
                let body = match self.field(n, "body") {
                    Some(b) => {
                        let nodes = self.conv(b);
                        block_of(nodes, b)
                    }
                    None => leaf(Kind::Block, 0, n),
                };
                one(with(Kind::Func, label, vec![params, body], n))
            }
            "lambda" => {
                let params = match self.field(n, "parameters") {
                    Some(p) => self.python_params(p),
                    None => leaf(Kind::Params, 0, n),
                };
                let body = match self.field(n, "body") {
                    Some(b) => {
                        let e = self.one(b);
                        let (s, end) = (e.start, e.end);
                        Node::new(
                            Kind::Block,
                            0,
                            vec![Node::new(Kind::Return, 0, vec![e], s, end)],
                            s,
                            end,
                        )
                    }
                    None => leaf(Kind::Block, 0, n),
                };
                one(with(Kind::Func, 0, vec![params, body], n))
            }
            "class_definition" => {
                let label = self.field(n, "name").map(|x| self.hash_of(x)).unwrap_or(0);
                self.locals.insert(label);
                let body = match self.field(n, "body") {
                    Some(b) => {
                        let nodes = self.conv(b);
                        block_of(nodes, b)
                    }
                    None => leaf(Kind::Block, 0, n),
                };
                one(with(Kind::Class, label, vec![body], n))
            }
            "assignment" => {
                let Some(left) = self.field(n, "left") else {
                    return vec![];
                };
                let target = self.one(left);
                self.bind_targets(&target);
                match self.field(n, "right") {
                    Some(r) => {
                        let value = self.one(r);
                        one(with(Kind::Assign, 0, vec![target, value], n))
                    }
                    // `x: int` declares, and does nothing.
                    None => vec![],
                }
            }
            "augmented_assignment" => {
                let op = self.operator(n);
                let op = op.trim_end_matches('=');
                let target = self.opt(self.field(n, "left"));
                let value = self.opt(self.field(n, "right"));
                let (Some(target), Some(value)) = (target, value) else {
                    return vec![self.generic(n)];
                };
                self.bind_targets(&target);
                one(with(
                    Kind::AugAssign,
                    text_hash(op.as_bytes()),
                    vec![target, value],
                    n,
                ))
            }
            "if_statement" => one(self.python_if(n, 0)),
            "for_statement" => {
                let target = self.opt(self.field(n, "left"));
                let iter = self.opt(self.field(n, "right"));
                let body = self.python_block(self.field(n, "body"), n);
                let (Some(target), Some(iter)) = (target, iter) else {
                    return vec![self.generic(n)];
                };
                self.bind_targets(&target);
                let mut out = vec![with(Kind::ForEach, 0, vec![target, iter, body], n)];
                if let Some(alt) = self.field(n, "alternative") {
                    out.extend(self.python_else(alt));
                }
                out
            }
            "while_statement" => {
                let test = self.opt(self.field(n, "condition"));
                let body = self.python_block(self.field(n, "body"), n);
                let Some(test) = test else {
                    return vec![self.generic(n)];
                };
                let mut out = vec![with(Kind::While, 0, vec![test, body], n)];
                if let Some(alt) = self.field(n, "alternative") {
                    out.extend(self.python_else(alt));
                }
                out
            }
            "return_statement" => {
                let kids = self.named(n);
                let mut vals = Vec::new();
                for k in kids {
                    vals.extend(self.conv(k));
                }
                one(with(Kind::Return, 0, vals, n))
            }
            "break_statement" => one(leaf(Kind::Break, 0, n)),
            "continue_statement" => one(leaf(Kind::Continue, 0, n)),
            "raise_statement" => {
                let kids = self.named(n);
                let mut vals = Vec::new();
                for k in kids {
                    vals.extend(self.conv(k));
                }
                one(with(Kind::Raise, 0, vals, n))
            }
            "parenthesized_expression" => match self.named(n).as_slice() {
                [only] => self.conv(*only),
                _ => one(self.generic(n)),
            },
            "call" => {
                let callee = self.opt(self.field(n, "function"));
                let Some(callee) = callee else {
                    return vec![self.generic(n)];
                };
                let mut children = vec![callee];
                if let Some(args) = self.field(n, "arguments") {
                    if args.kind() == "argument_list" {
                        for a in self.named(args) {
                            children.extend(self.conv(a));
                        }
                    } else {
                        children.extend(self.conv(args));
                    }
                }
                one(with(Kind::Call, 0, children, n))
            }
            "keyword_argument" => {
                let label = self.field(n, "name").map(|x| self.hash_of(x)).unwrap_or(0);
                let value: Vec<Node> = self.opt(self.field(n, "value")).into_iter().collect();
                one(with(Kind::Other(n.kind_id()), label, value, n))
            }
            "attribute" => {
                let object = self.field(n, "object");
                let attr = self.field(n, "attribute");
                let (Some(object), Some(attr)) = (object, attr) else {
                    return vec![self.generic(n)];
                };
                let label = self.hash_of(attr);
                // `collections.deque` is `deque`.
                if object.kind() == "identifier" && self.modules.contains(&self.hash_of(object)) {
                    return one(leaf(Kind::Name, label, n));
                }
                let obj = self.one(object);
                one(with(Kind::Attr, label, vec![obj], n))
            }
            "subscript" => {
                let mut children: Vec<Node> =
                    self.opt(self.field(n, "value")).into_iter().collect();
                let mut cursor = n.walk();
                let subs: Vec<TsNode<'_>> =
                    n.children_by_field_name("subscript", &mut cursor).collect();
                for s in subs {
                    children.extend(self.conv(s));
                }
                one(with(Kind::Index, 0, children, n))
            }
            "binary_operator" | "boolean_operator" => {
                let op = self.operator(n);
                let left = self.opt(self.field(n, "left"));
                let right = self.opt(self.field(n, "right"));
                let (Some(l), Some(r)) = (left, right) else {
                    return vec![self.generic(n)];
                };
                one(self.binary(n, &op, l, r))
            }
            "comparison_operator" => one(self.python_comparison(n)),
            "not_operator" => {
                let arg = self.opt(self.field(n, "argument"));
                match arg {
                    Some(a) => one(with(Kind::Not, 0, vec![a], n)),
                    None => vec![self.generic(n)],
                }
            }
            "unary_operator" => {
                let op = self.operator(n);
                match self.opt(self.field(n, "argument")) {
                    Some(a) => one(self.unary(n, &op, a)),
                    None => vec![self.generic(n)],
                }
            }
            "conditional_expression" => {
                let kids = self.named(n);
                if let [a, test, b] = kids.as_slice() {
                    let (a, test, b) = (self.one(*a), self.one(*test), self.one(*b));
                    one(with(Kind::Ternary, 0, vec![test, a, b], n))
                } else {
                    vec![self.generic(n)]
                }
            }
            "identifier" => one(self.name(n)),
            "integer" | "float" => one(self.number(n)),
            "string" | "concatenated_string" => one(leaf(Kind::Str, 0, n)),
            "true" => one(leaf(Kind::Bool, 1, n)),
            "false" => one(leaf(Kind::Bool, 2, n)),
            "for_in_clause" => {
                let g = self.generic(n);
                if let Some(t) = g.children.first() {
                    let t = t.clone();
                    self.bind_targets(&t);
                }
                one(g)
            }
            "with_statement" | "try_statement" => {
                let g = self.generic(n);
                one(g)
            }
            "as_pattern_target" => {
                let g = self.generic(n);
                self.bind_targets(&g);
                one(g)
            }
            "typed_parameter" | "typed_default_parameter" | "default_parameter" => {
                // Outside a parameter list (a lambda's); see `python_params`.
                one(self.generic(n))
            }
            _ => one(self.generic(n)),
        }
    }

    fn python_block(&mut self, b: Option<TsNode<'_>>, n: TsNode<'_>) -> Node {
        match b {
            Some(b) => {
                let nodes = self.conv(b);
                block_of(nodes, b)
            }
            None => leaf(Kind::Block, 0, n),
        }
    }

    /// A loop's `else:` runs after the loop (when it did not break): its
    /// statements follow the loop.
    fn python_else(&mut self, alt: TsNode<'_>) -> Vec<Node> {
        match self.field(alt, "body") {
            Some(b) => self.conv(b),
            None => vec![],
        }
    }

    /// `if`, with each `elif` a nested `if` in the `else` block.
    fn python_if(&mut self, n: TsNode<'_>, from: usize) -> Node {
        let mut cursor = n.walk();
        let alternatives: Vec<TsNode<'_>> = n
            .children_by_field_name("alternative", &mut cursor)
            .collect();
        let (test, body) = if from == 0 {
            (self.field(n, "condition"), self.field(n, "consequence"))
        } else {
            let clause = alternatives[from - 1];
            (
                self.field(clause, "condition"),
                self.field(clause, "consequence"),
            )
        };
        let test = match test {
            Some(t) => self.one(t),
            None => leaf(Kind::Bool, 1, n),
        };
        let body = self.python_block(body, n);
        let mut children = vec![test, body];
        if let Some(next) = alternatives.get(from) {
            if next.kind() == "elif_clause" {
                let nested = self.python_if(n, from + 1);
                let (s, e) = (nested.start, nested.end);
                children.push(Node::new(Kind::Block, 0, vec![nested], s, e));
            } else {
                let b = self.field(*next, "body");
                children.push(self.python_block(b, *next));
            }
        }
        let node = with(Kind::If, 0, children, n);
        if from > 0 {
            let clause = alternatives[from - 1];
            let (s, _) = span(clause);
            Node { start: s, ..node }
        } else {
            node
        }
    }

    /// `a < b <= c` as `a < b and b <= c`.
    fn python_comparison(&mut self, n: TsNode<'_>) -> Node {
        let mut operands = Vec::new();
        let mut ops: Vec<String> = Vec::new();
        let mut cursor = n.walk();
        let kids: Vec<TsNode<'_>> = n.children(&mut cursor).collect();
        let mut pending = String::new();
        for c in kids {
            if c.is_extra() {
                continue;
            }
            if c.is_named() {
                if !pending.is_empty() {
                    ops.push(std::mem::take(&mut pending));
                }
                operands.push(self.one(c));
            } else {
                if !pending.is_empty() {
                    pending.push(' ');
                }
                pending.push_str(self.text(c));
            }
        }
        if operands.len() != ops.len() + 1 || ops.is_empty() {
            return self.generic(n);
        }
        let mut parts = Vec::new();
        for (i, op) in ops.iter().enumerate() {
            let (l, r) = (operands[i].clone(), operands[i + 1].clone());
            parts.push(self.binary(n, op, l, r));
        }
        if parts.len() == 1 {
            parts.pop().unwrap_or_else(|| self.generic(n))
        } else {
            with(Kind::And, 0, parts, n)
        }
    }

    fn python_params(&mut self, p: TsNode<'_>) -> Node {
        let mut names = Vec::new();
        for k in self.named(p) {
            let name = match k.kind() {
                "identifier" => Some(k),
                "default_parameter" | "typed_default_parameter" => self.field(k, "name"),
                "typed_parameter" => self.named(k).into_iter().find(|c| c.kind() == "identifier"),
                _ => None,
            };
            if let Some(name) = name {
                let node = self.name(name);
                self.locals.insert(node.label);
                names.push(node);
            }
        }
        with(Kind::Params, 0, names, p)
    }

    fn python_import(&mut self, n: TsNode<'_>) {
        let mut cursor = n.walk();
        let names: Vec<TsNode<'_>> = n.children_by_field_name("name", &mut cursor).collect();
        let from = n.kind() == "import_from_statement";
        for name in names {
            match name.kind() {
                "aliased_import" => {
                    if let Some(alias) = self.field(name, "alias") {
                        let h = self.hash_of(alias);
                        if from {
                            // `from m import f as g`: `g` is `f`.
                            if let Some(real) = self.field(name, "name") {
                                let real = self.hash_of(real);
                                let (s, e) = span(alias);
                                self.python_alias(h, real, s, e);
                            }
                        } else {
                            self.modules.insert(h);
                        }
                    }
                }
                "dotted_name" if !from => {
                    if let Some(first) = self.named(name).first() {
                        let h = self.hash_of(*first);
                        self.modules.insert(h);
                    }
                }
                _ => {}
            }
        }
    }

    fn python_alias(&mut self, alias: u64, real: u64, s: u32, e: u32) {
        self.aliases
            .insert(alias, Node::new(Kind::Name, real, vec![], s, e));
    }

    // ------------------------------------------------------------------ C++

    fn cpp(&mut self, n: TsNode<'_>) -> Vec<Node> {
        let one = |node: Node| vec![node];
        match n.kind() {
            "comment"
            | "preproc_include"
            | "using_declaration"
            | "access_specifier"
            | "static_assert_declaration"
            | "type_qualifier"
            | "storage_class_specifier"
            | "virtual"
            | "attribute_specifier"
            | "attribute_declaration"
            | "preproc_call" => {
                vec![]
            }
            "translation_unit" | "declaration_list" | "field_declaration_list" => {
                let kids = self.named(n);
                let mut body = Vec::new();
                for k in kids {
                    body.extend(self.conv(k));
                }
                let kind = if n.kind() == "translation_unit" {
                    Kind::Module
                } else {
                    Kind::Block
                };
                one(with(kind, 0, body, n))
            }
            "compound_statement" => {
                let kids = self.named(n);
                let mut body = Vec::new();
                for k in kids {
                    body.extend(self.conv(k));
                }
                one(with(Kind::Block, 0, body, n))
            }
            "namespace_definition"
            | "linkage_specification"
            | "template_declaration"
            | "preproc_ifdef"
            | "preproc_if"
            | "preproc_else"
            | "preproc_elif" => {
                // The declarations inside, as if at the top level.
                let kids = self.named(n);
                let mut body = Vec::new();
                for k in kids {
                    if matches!(
                        k.kind(),
                        "identifier"
                            | "namespace_identifier"
                            | "template_parameter_list"
                            | "string_literal"
                            | "preproc_defined"
                            | "binary_expression"
                            | "number_literal"
                    ) {
                        continue;
                    }
                    let nodes = self.conv(k);
                    for node in nodes {
                        if node.kind == Kind::Block {
                            body.extend(node.children);
                        } else {
                            body.push(node);
                        }
                    }
                }
                body
            }
            "preproc_def" => {
                self.cpp_define(n);
                vec![]
            }
            "type_definition" => {
                if let (Some(ty), Some(decl)) = (self.field(n, "type"), self.field(n, "declarator"))
                {
                    let target = self.one(ty);
                    let name = self.declared_name(decl);
                    if let Some(name) = name {
                        let h = self.hash_of(name);
                        self.aliases.insert(h, target);
                    }
                }
                vec![]
            }
            "alias_declaration" => {
                if let (Some(name), Some(ty)) = (self.field(n, "name"), self.field(n, "type")) {
                    let h = self.hash_of(name);
                    let target = self.one(ty);
                    self.aliases.insert(h, target);
                }
                vec![]
            }
            "function_definition" => one(self.cpp_function(n)),
            "field_declaration" | "declaration" => self.cpp_declaration(n),
            "class_specifier" | "struct_specifier" | "union_specifier" => {
                let name = self.field(n, "name");
                let label = name.map(|x| self.hash_of(x)).unwrap_or(0);
                match self.field(n, "body") {
                    Some(b) => {
                        self.locals.insert(label);
                        let body = self.one(b);
                        one(with(Kind::Class, label, vec![body], n))
                    }
                    // `struct Node` used as a type.
                    None => one(leaf(Kind::Name, label, n)),
                }
            }
            "expression_statement" => {
                let kids = self.named(n);
                let mut exprs = Vec::new();
                for k in kids {
                    exprs.extend(self.conv(k));
                }
                match <[Node; 1]>::try_from(exprs) {
                    Ok([e]) if matches!(e.kind, Kind::Assign | Kind::AugAssign) => one(e),
                    Ok([e]) => one(with(Kind::ExprStmt, 0, vec![e], n)),
                    // `;` alone.
                    Err(v) if v.is_empty() => vec![],
                    Err(v) => one(with(Kind::ExprStmt, 0, v, n)),
                }
            }
            "if_statement" => {
                let test = self.cpp_condition(self.field(n, "condition"), n);
                let then = self.cpp_block(self.field(n, "consequence"), n);
                let mut children = vec![test, then];
                if let Some(alt) = self.field(n, "alternative") {
                    let stmt = self.named(alt).into_iter().next();
                    children.push(self.cpp_block(stmt, alt));
                }
                one(with(Kind::If, 0, children, n))
            }
            "while_statement" => {
                let test = self.cpp_condition(self.field(n, "condition"), n);
                let body = self.cpp_block(self.field(n, "body"), n);
                one(with(Kind::While, 0, vec![test, body], n))
            }
            "do_statement" => {
                let test = self.cpp_condition(self.field(n, "condition"), n);
                let body = self.cpp_block(self.field(n, "body"), n);
                one(with(Kind::While, 0, vec![test, body], n))
            }
            "for_statement" => self.cpp_for(n),
            "for_range_loop" => {
                let target = match self.field(n, "declarator") {
                    Some(d) => match self.declared_name(d) {
                        Some(name) => {
                            let node = self.name(name);
                            self.locals.insert(node.label);
                            node
                        }
                        None => self.one(d),
                    },
                    None => leaf(Kind::Name, 0, n),
                };
                let iter = self
                    .opt(self.field(n, "right"))
                    .unwrap_or_else(|| leaf(Kind::Other(0), 0, n));
                let body = self.cpp_block(self.field(n, "body"), n);
                one(with(Kind::ForEach, 0, vec![target, iter, body], n))
            }
            "return_statement" => {
                let kids = self.named(n);
                let mut vals = Vec::new();
                for k in kids {
                    vals.extend(self.conv(k));
                }
                one(with(Kind::Return, 0, vals, n))
            }
            "break_statement" => one(leaf(Kind::Break, 0, n)),
            "continue_statement" => one(leaf(Kind::Continue, 0, n)),
            "throw_statement" => {
                let kids = self.named(n);
                let mut vals = Vec::new();
                for k in kids {
                    vals.extend(self.conv(k));
                }
                one(with(Kind::Raise, 0, vals, n))
            }
            "parenthesized_expression" | "condition_clause" => match self.named(n).as_slice() {
                [only] => self.conv(*only),
                _ => one(self.generic(n)),
            },
            "call_expression" => {
                let callee = self.opt(self.field(n, "function"));
                let Some(callee) = callee else {
                    return vec![self.generic(n)];
                };
                let mut children = vec![callee];
                if let Some(args) = self.field(n, "arguments") {
                    for a in self.named(args) {
                        children.extend(self.conv(a));
                    }
                }
                one(with(Kind::Call, 0, children, n))
            }
            "field_expression" => {
                let object = self.field(n, "argument");
                let field = self.field(n, "field");
                let (Some(object), Some(field)) = (object, field) else {
                    return vec![self.generic(n)];
                };
                let label = self.hash_of(field);
                if object.kind() == "this" {
                    return one(leaf(Kind::Name, label, n));
                }
                let obj = self.one(object);
                one(with(Kind::Attr, label, vec![obj], n))
            }
            "subscript_expression" => {
                let mut children: Vec<Node> =
                    self.opt(self.field(n, "argument")).into_iter().collect();
                if let Some(ix) = self.field(n, "indices").or_else(|| self.field(n, "index")) {
                    if ix.kind() == "subscript_argument_list" {
                        for k in self.named(ix) {
                            children.extend(self.conv(k));
                        }
                    } else {
                        children.extend(self.conv(ix));
                    }
                }
                one(with(Kind::Index, 0, children, n))
            }
            "binary_expression" => {
                let op = self.operator(n);
                let left = self.opt(self.field(n, "left"));
                let right = self.opt(self.field(n, "right"));
                let (Some(l), Some(r)) = (left, right) else {
                    return vec![self.generic(n)];
                };
                one(self.binary(n, &op, l, r))
            }
            "unary_expression" | "pointer_expression" => {
                let op = self.operator(n);
                match self.opt(self.field(n, "argument")) {
                    Some(a) => one(self.unary(n, &op, a)),
                    None => vec![self.generic(n)],
                }
            }
            "update_expression" => {
                let op = self.operator(n);
                let Some(target) = self.opt(self.field(n, "argument")) else {
                    return vec![self.generic(n)];
                };
                let (s, e) = span(n);
                let op = if op == "--" { "-" } else { "+" };
                let unit = Node::new(Kind::Num, text_hash(b"1"), vec![], e, e);
                one(Node::new(
                    Kind::AugAssign,
                    text_hash(op.as_bytes()),
                    vec![target, unit],
                    s,
                    e,
                ))
            }
            "assignment_expression" => {
                let op = self.operator(n);
                let target = self.opt(self.field(n, "left"));
                let value = self.opt(self.field(n, "right"));
                let (Some(target), Some(value)) = (target, value) else {
                    return vec![self.generic(n)];
                };
                self.bind_targets(&target);
                if op == "=" {
                    one(with(Kind::Assign, 0, vec![target, value], n))
                } else {
                    let op = op.trim_end_matches('=');
                    one(with(
                        Kind::AugAssign,
                        text_hash(op.as_bytes()),
                        vec![target, value],
                        n,
                    ))
                }
            }
            "conditional_expression" => {
                let test = self.opt(self.field(n, "condition"));
                let a = self.opt(self.field(n, "consequence"));
                let b = self.opt(self.field(n, "alternative"));
                match (test, a, b) {
                    (Some(t), Some(a), Some(b)) => one(with(Kind::Ternary, 0, vec![t, a, b], n)),
                    _ => vec![self.generic(n)],
                }
            }
            "qualified_identifier" | "qualified_type_identifier" => match self.field(n, "name") {
                Some(name) => self.conv(name),
                None => vec![self.generic(n)],
            },
            "identifier" | "field_identifier" | "type_identifier" | "namespace_identifier" => {
                let h = self.hash_of(n);
                if let Some(alias) = self.aliases.get(&h) {
                    let (s, e) = span(n);
                    return one(relocated(alias, s, e));
                }
                one(self.name(n))
            }
            "primitive_type" | "sized_type_specifier" | "auto" => {
                let text: String = self
                    .text(n)
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ");
                one(leaf(
                    Kind::Other(n.kind_id()),
                    text_hash(text.as_bytes()),
                    n,
                ))
            }
            "number_literal" => one(self.number(n)),
            "string_literal" | "raw_string_literal" | "concatenated_string" | "char_literal" => {
                one(leaf(Kind::Str, 0, n))
            }
            "true" => one(leaf(Kind::Bool, 1, n)),
            "false" => one(leaf(Kind::Bool, 2, n)),
            "lambda_expression" => {
                let params = match self.field(n, "declarator") {
                    Some(d) => match self.field(d, "parameters") {
                        Some(p) => self.cpp_params(p),
                        None => leaf(Kind::Params, 0, n),
                    },
                    None => leaf(Kind::Params, 0, n),
                };
                self.in_body += 1;
                let body = self.cpp_block(self.field(n, "body"), n);
                self.in_body -= 1;
                one(with(Kind::Func, 0, vec![params, body], n))
            }
            "type_descriptor" => match self.field(n, "type") {
                Some(t) => self.conv(t),
                None => one(self.generic(n)),
            },
            "reference_declarator" | "pointer_declarator" => {
                // The name declared; `&` and `*` are in the type.
                match self.named(n).last() {
                    Some(inner) => self.conv(*inner),
                    None => vec![],
                }
            }
            "template_type" => {
                let label = self.field(n, "name").map(|x| self.hash_of(x)).unwrap_or(0);
                let label = match self.aliases.get(&label) {
                    Some(a) => a.label,
                    None => label,
                };
                let args = match self.field(n, "arguments") {
                    Some(a) => {
                        let mut v = Vec::new();
                        for k in self.named(a) {
                            v.extend(self.conv(k));
                        }
                        v
                    }
                    None => vec![],
                };
                one(with(Kind::Other(n.kind_id()), label, args, n))
            }
            _ => one(self.generic(n)),
        }
    }

    /// An `if` or `while` test.
    fn cpp_condition(&mut self, c: Option<TsNode<'_>>, n: TsNode<'_>) -> Node {
        match c {
            Some(c) => self.one(c),
            None => leaf(Kind::Bool, 1, n),
        }
    }

    /// A statement as a block (`if (x) y;` has the block `{ y; }`).
    fn cpp_block(&mut self, b: Option<TsNode<'_>>, n: TsNode<'_>) -> Node {
        match b {
            Some(b) => {
                let nodes = self.conv(b);
                block_of(nodes, b)
            }
            None => leaf(Kind::Block, 0, n),
        }
    }

    /// `for (init; test; step) body` as `init; while (test) { body; step; }`.
    fn cpp_for(&mut self, n: TsNode<'_>) -> Vec<Node> {
        let mut out = match self.field(n, "initializer") {
            Some(i) => self.conv(i),
            None => vec![],
        };
        let test = self.cpp_condition(self.field(n, "condition"), n);
        let mut body = self.cpp_block(self.field(n, "body"), n);
        let mut cursor = n.walk();
        let steps: Vec<TsNode<'_>> = n.children_by_field_name("update", &mut cursor).collect();
        for s in steps {
            for step in self.conv(s) {
                let step = if matches!(step.kind, Kind::Assign | Kind::AugAssign) {
                    step
                } else {
                    let (s, e) = (step.start, step.end);
                    Node::new(Kind::ExprStmt, 0, vec![step], s, e)
                };
                body.children.push(step);
            }
        }
        out.push(with(Kind::While, 0, vec![test, body], n));
        out
    }

    /// The identifier a declarator declares (`x` of `*x`, `x[10]`, `&x`).
    fn declared_name<'t>(&self, d: TsNode<'t>) -> Option<TsNode<'t>> {
        match d.kind() {
            "identifier" | "field_identifier" | "type_identifier" => Some(d),
            "qualified_identifier" => self.field(d, "name").and_then(|x| self.declared_name(x)),
            _ => {
                if let Some(inner) = self.field(d, "declarator") {
                    return self.declared_name(inner);
                }
                let mut cursor = d.walk();
                d.named_children(&mut cursor)
                    .find_map(|c| self.declared_name(c))
            }
        }
    }

    fn cpp_params(&mut self, p: TsNode<'_>) -> Node {
        let mut params = Vec::new();
        for k in self.named(p) {
            let ty = self.opt(self.field(k, "type"));
            let name = self
                .field(k, "declarator")
                .and_then(|d| self.declared_name(d));
            let mut children: Vec<Node> = ty.into_iter().collect();
            if let Some(name) = name {
                let node = self.name(name);
                self.locals.insert(node.label);
                children.push(node);
            }
            params.push(with(Kind::Other(k.kind_id()), 0, children, k));
        }
        with(Kind::Params, 0, params, p)
    }

    fn cpp_function(&mut self, n: TsNode<'_>) -> Node {
        let declarator = self.field(n, "declarator");
        let mut fdecl = declarator;
        // Through `*f(...)` and `&f(...)` to the function declarator.
        while let Some(d) = fdecl {
            if d.kind() == "function_declarator" {
                break;
            }
            fdecl = self.field(d, "declarator");
        }
        let name = fdecl
            .and_then(|d| self.field(d, "declarator"))
            .and_then(|d| self.declared_name(d));
        let label = name.map(|x| self.hash_of(x)).unwrap_or(0);
        self.locals.insert(label);
        let params = match fdecl.and_then(|d| self.field(d, "parameters")) {
            Some(p) => self.cpp_params(p),
            None => leaf(Kind::Params, 0, n),
        };
        self.in_body += 1;
        let body = self.cpp_block(self.field(n, "body"), n);
        self.in_body -= 1;
        with(Kind::Func, label, vec![params, body], n)
    }

    /// A declaration: one `Decl` per name (`int a = 0, b;` is two); a
    /// function prototype is dropped.
    fn cpp_declaration(&mut self, n: TsNode<'_>) -> Vec<Node> {
        let ty = self.field(n, "type");
        let mut cursor = n.walk();
        let declarators: Vec<TsNode<'_>> = n
            .children_by_field_name("declarator", &mut cursor)
            .collect();
        if declarators.is_empty() {
            // `struct S { ... };` and the like.
            return match ty {
                Some(t) => self.conv(t),
                None => vec![],
            };
        }
        let mut out = Vec::new();
        if let Some(t) = ty.filter(|t| {
            matches!(t.kind(), "class_specifier" | "struct_specifier")
                && self.field(*t, "body").is_some()
        }) {
            // `struct S { ... } s;`
            out.extend(self.conv(t));
        }
        for d in declarators {
            if d.kind() == "function_declarator" {
                // In a body, `vector<int> dist(n, -1);` is parsed as a
                // function's declaration (C++'s most vexing parse): it is
                // a variable built from those arguments.
                if self.in_body > 0
                    && let Some(name) = self
                        .field(d, "declarator")
                        .and_then(|x| self.declared_name(x))
                {
                    let type_node = match ty {
                        Some(t) => self.one(t),
                        None => leaf(Kind::Other(0), 0, n),
                    };
                    let name = self.name(name);
                    self.locals.insert(name.label);
                    let mut args = vec![type_node.clone()];
                    if let Some(list) = self.field(d, "parameters") {
                        for param in self.named(list) {
                            // `n` parsed as a parameter's type: the name `n`.
                            match (self.field(param, "type"), self.field(param, "declarator")) {
                                (Some(t), None) => args.extend(self.conv(t)),
                                _ => args.extend(self.conv(param)),
                            }
                        }
                    }
                    let call = with(Kind::Call, 0, args, d);
                    let (s0, _) = span(n);
                    let (_, e) = span(d);
                    out.push(Node::new(Kind::Decl, 0, vec![type_node, name, call], s0, e));
                }
                continue;
            }
            let (name_node, value) = if d.kind() == "init_declarator" {
                (self.field(d, "declarator"), self.field(d, "value"))
            } else {
                (Some(d), self.field(n, "default_value"))
            };
            let type_node = match ty {
                Some(t)
                    if matches!(t.kind(), "class_specifier" | "struct_specifier")
                        && self.field(t, "body").is_some() =>
                {
                    let label = self.field(t, "name").map(|x| self.hash_of(x)).unwrap_or(0);
                    leaf(Kind::Name, label, t)
                }
                Some(t) => self.one(t),
                None => leaf(Kind::Other(0), 0, n),
            };
            let name = name_node.and_then(|x| self.declared_name(x));
            let name = match name {
                Some(x) => {
                    let node = self.name(x);
                    self.locals.insert(node.label);
                    node
                }
                None => leaf(Kind::Name, 0, d),
            };
            let mut children = vec![type_node, name];
            if let Some(v) = value {
                // `vector<int> v(n, -1)`: the arguments, as a call of the type.
                if v.kind() == "argument_list" || v.kind() == "initializer_list" {
                    let mut args = vec![children[0].clone()];
                    for a in self.named(v) {
                        args.extend(self.conv(a));
                    }
                    children.push(with(Kind::Call, 0, args, v));
                } else {
                    // `auto f = [&](int x) { ... };` is a local function.
                    let value = self.one(v);
                    if value.kind == Kind::Func && value.label == 0 {
                        let label = children[1].label;
                        out.push(with(Kind::Func, label, value.children, d));
                        continue;
                    }
                    children.push(value);
                }
            }
            let (s, e) = span(d);
            let (s0, _) = span(n);
            out.push(Node::new(Kind::Decl, 0, children, s0.min(s), e));
        }
        out
    }

    /// `#define NAME VALUE` where the value is a type (`long long`) or an
    /// expression (`1000000007`): an alias, as a typedef is.
    fn cpp_define(&mut self, n: TsNode<'_>) {
        let (Some(name), Some(value)) = (self.field(n, "name"), self.field(n, "value")) else {
            return;
        };
        let h = self.hash_of(name);
        let text = self.text(value).trim().to_owned();
        if text.is_empty() {
            return;
        }
        let (s, e) = span(value);
        for wrapped in [
            format!("{text} salgrade_x;"),
            format!("auto salgrade_x = {text};"),
        ] {
            let Ok(tree) = parse(&wrapped, Language::Cpp) else {
                continue;
            };
            if tree.errors > 0 {
                continue;
            }
            if let Some(decl) = tree.root.children.first().filter(|d| d.kind == Kind::Decl) {
                let part = if wrapped.starts_with("auto") {
                    decl.children.get(2)
                } else {
                    decl.children.first()
                };
                if let Some(part) = part {
                    self.aliases.insert(h, relocated(part, s, e));
                    return;
                }
            }
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
