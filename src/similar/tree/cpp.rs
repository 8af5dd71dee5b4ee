//! C++'s statements and expressions in the shared vocabulary: statements
//! in `cpp`, expressions in `cpp_expression`, each kind with more than a
//! few lines to it in a method of its own. Declarations (variables,
//! functions, classes, typedefs, `#define`s) are in `cpp_decl.rs`.

use tree_sitter::Node as TsNode;

use super::{Converter, Kind, Node, block_of, leaf, relocated, span, text_hash, with};

impl Converter<'_> {
    /// The nodes a C++ statement or declaration stands for (an expression
    /// is handed to `cpp_expression`).
    pub(super) fn cpp(&mut self, n: TsNode<'_>) -> Vec<Node> {
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
                let body = self.conv_children(n);
                let kind = if n.kind() == "translation_unit" {
                    Kind::Module
                } else {
                    Kind::Block
                };
                vec![with(kind, 0, body, n)]
            }
            "compound_statement" => vec![with(Kind::Block, 0, self.conv_children(n), n)],
            "namespace_definition"
            | "linkage_specification"
            | "template_declaration"
            | "preproc_ifdef"
            | "preproc_if"
            | "preproc_else"
            | "preproc_elif" => self.cpp_transparent(n),
            "preproc_def" => {
                self.cpp_define(n);
                vec![]
            }
            "type_definition" => {
                self.cpp_typedef(n);
                vec![]
            }
            "alias_declaration" => {
                self.cpp_alias(n);
                vec![]
            }
            "function_definition" => vec![self.cpp_function(n)],
            "field_declaration" | "declaration" => self.cpp_declaration(n),
            "class_specifier" | "struct_specifier" | "union_specifier" => vec![self.cpp_class(n)],
            "expression_statement" => self.cpp_expression_statement(n),
            "if_statement" => vec![self.cpp_if(n)],
            "while_statement" | "do_statement" => {
                let test = self.cpp_condition(self.field(n, "condition"), n);
                let body = self.cpp_block(self.field(n, "body"), n);
                vec![with(Kind::While, 0, vec![test, body], n)]
            }
            "for_statement" => self.cpp_for(n),
            "for_range_loop" => vec![self.cpp_for_range(n)],
            "return_statement" => vec![with(Kind::Return, 0, self.conv_children(n), n)],
            "break_statement" => vec![leaf(Kind::Break, 0, n)],
            "continue_statement" => vec![leaf(Kind::Continue, 0, n)],
            "throw_statement" => vec![with(Kind::Raise, 0, self.conv_children(n), n)],
            _ => self.cpp_expression(n),
        }
    }

    /// The nodes a C++ expression (or type) stands for.
    fn cpp_expression(&mut self, n: TsNode<'_>) -> Vec<Node> {
        let one = |node: Node| vec![node];
        match n.kind() {
            "parenthesized_expression" | "condition_clause" => match self.named(n).as_slice() {
                [only] => self.conv(*only),
                _ => one(self.generic(n)),
            },
            "call_expression" => one(self.cpp_call(n)),
            "field_expression" => one(self.cpp_field(n)),
            "subscript_expression" => one(self.cpp_subscript(n)),
            "binary_expression" => one(self.binary_fields(n)),
            "unary_expression" | "pointer_expression" => one(self.unary_field(n)),
            "update_expression" => one(self.cpp_update(n)),
            "assignment_expression" => one(self.cpp_assignment(n)),
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
            "lambda_expression" => one(self.cpp_lambda(n)),
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
            "template_type" => one(self.cpp_template_type(n)),
            _ => one(self.generic(n)),
        }
    }

    /// The declarations inside a namespace, `extern "C"`, template or
    /// preprocessor conditional, as if at the top level.
    fn cpp_transparent(&mut self, n: TsNode<'_>) -> Vec<Node> {
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

    fn cpp_expression_statement(&mut self, n: TsNode<'_>) -> Vec<Node> {
        let exprs = self.conv_children(n);
        match <[Node; 1]>::try_from(exprs) {
            Ok([e]) if matches!(e.kind, Kind::Assign | Kind::AugAssign) => vec![e],
            Ok([e]) => vec![with(Kind::ExprStmt, 0, vec![e], n)],
            // `;` alone.
            Err(v) if v.is_empty() => vec![],
            Err(v) => vec![with(Kind::ExprStmt, 0, v, n)],
        }
    }

    fn cpp_if(&mut self, n: TsNode<'_>) -> Node {
        let test = self.cpp_condition(self.field(n, "condition"), n);
        let then = self.cpp_block(self.field(n, "consequence"), n);
        let mut children = vec![test, then];
        if let Some(alt) = self.field(n, "alternative") {
            let stmt = self.named(alt).into_iter().next();
            children.push(self.cpp_block(stmt, alt));
        }
        with(Kind::If, 0, children, n)
    }

    /// `for (x : xs)` as a for-each over `xs`, binding the name `x`.
    fn cpp_for_range(&mut self, n: TsNode<'_>) -> Node {
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
        with(Kind::ForEach, 0, vec![target, iter, body], n)
    }

    fn cpp_call(&mut self, n: TsNode<'_>) -> Node {
        let callee = self.opt(self.field(n, "function"));
        let Some(callee) = callee else {
            return self.generic(n);
        };
        let mut children = vec![callee];
        if let Some(args) = self.field(n, "arguments") {
            children.extend(self.conv_children(args));
        }
        with(Kind::Call, 0, children, n)
    }

    /// `obj.x` (or `obj->x`), and `this->x` as the name `x`.
    fn cpp_field(&mut self, n: TsNode<'_>) -> Node {
        let object = self.field(n, "argument");
        let field = self.field(n, "field");
        let (Some(object), Some(field)) = (object, field) else {
            return self.generic(n);
        };
        let label = self.hash_of(field);
        if object.kind() == "this" {
            return leaf(Kind::Name, label, n);
        }
        let obj = self.one(object);
        with(Kind::Attr, label, vec![obj], n)
    }

    fn cpp_subscript(&mut self, n: TsNode<'_>) -> Node {
        let mut children: Vec<Node> = self.opt(self.field(n, "argument")).into_iter().collect();
        if let Some(ix) = self.field(n, "indices").or_else(|| self.field(n, "index")) {
            if ix.kind() == "subscript_argument_list" {
                children.extend(self.conv_children(ix));
            } else {
                children.extend(self.conv(ix));
            }
        }
        with(Kind::Index, 0, children, n)
    }

    /// `i++`, `++i` and `i--` as `i += 1` and `i -= 1`.
    fn cpp_update(&mut self, n: TsNode<'_>) -> Node {
        let op = self.operator(n);
        let Some(target) = self.opt(self.field(n, "argument")) else {
            return self.generic(n);
        };
        let (s, e) = span(n);
        let op = if op == "--" { "-" } else { "+" };
        let unit = Node::new(Kind::Num, text_hash(b"1"), vec![], e, e);
        Node::new(
            Kind::AugAssign,
            text_hash(op.as_bytes()),
            vec![target, unit],
            s,
            e,
        )
    }

    fn cpp_assignment(&mut self, n: TsNode<'_>) -> Node {
        let op = self.operator(n);
        let target = self.opt(self.field(n, "left"));
        let value = self.opt(self.field(n, "right"));
        let (Some(target), Some(value)) = (target, value) else {
            return self.generic(n);
        };
        self.bind_targets(&target);
        if op == "=" {
            with(Kind::Assign, 0, vec![target, value], n)
        } else {
            let op = op.trim_end_matches('=');
            with(
                Kind::AugAssign,
                text_hash(op.as_bytes()),
                vec![target, value],
                n,
            )
        }
    }

    fn cpp_lambda(&mut self, n: TsNode<'_>) -> Node {
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
        with(Kind::Func, 0, vec![params, body], n)
    }

    /// `vector<int>` and the like: the template's name (through an alias)
    /// as the label, its arguments as the children.
    fn cpp_template_type(&mut self, n: TsNode<'_>) -> Node {
        let label = self.field(n, "name").map(|x| self.hash_of(x)).unwrap_or(0);
        let label = match self.aliases.get(&label) {
            Some(a) => a.label,
            None => label,
        };
        let args = match self.field(n, "arguments") {
            Some(a) => self.conv_children(a),
            None => vec![],
        };
        with(Kind::Other(n.kind_id()), label, args, n)
    }

    /// An `if` or `while` test.
    pub(super) fn cpp_condition(&mut self, c: Option<TsNode<'_>>, n: TsNode<'_>) -> Node {
        match c {
            Some(c) => self.one(c),
            None => leaf(Kind::Bool, 1, n),
        }
    }

    /// A statement as a block (`if (x) y;` has the block `{ y; }`).
    pub(super) fn cpp_block(&mut self, b: Option<TsNode<'_>>, n: TsNode<'_>) -> Node {
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
}
