//! Python's syntax in the shared vocabulary: statements in `python`,
//! expressions in `python_expression`, each kind with more than a few
//! lines to it in a method of its own.

use tree_sitter::Node as TsNode;

use super::{Converter, Kind, Node, block_of, leaf, span, text_hash, with};

impl Converter<'_> {
    /// The nodes a Python statement stands for (an expression is handed to
    /// `python_expression`).
    pub(super) fn python(&mut self, n: TsNode<'_>) -> Vec<Node> {
        match n.kind() {
            "comment"
            | "pass_statement"
            | "global_statement"
            | "nonlocal_statement"
            | "future_import_statement"
            | "decorator"
            | "type" => vec![],
            "module" => vec![with(Kind::Module, 0, self.conv_children(n), n)],
            "block" => vec![with(Kind::Block, 0, self.conv_children(n), n)],
            "import_statement" | "import_from_statement" => {
                self.python_import(n);
                vec![]
            }
            "expression_statement" => self.python_expression_statement(n),
            "decorated_definition" => match self.field(n, "definition") {
                Some(d) => self.conv(d),
                None => vec![],
            },
            "function_definition" => vec![self.python_function(n)],
            "class_definition" => vec![self.python_class(n)],
            "assignment" => self.python_assignment(n),
            "augmented_assignment" => vec![self.python_augmented_assignment(n)],
            "if_statement" => vec![self.python_if(n, 0)],
            "for_statement" => self.python_for(n),
            "while_statement" => self.python_while(n),
            "return_statement" => vec![with(Kind::Return, 0, self.conv_children(n), n)],
            "break_statement" => vec![leaf(Kind::Break, 0, n)],
            "continue_statement" => vec![leaf(Kind::Continue, 0, n)],
            "raise_statement" => vec![with(Kind::Raise, 0, self.conv_children(n), n)],
            "with_statement" | "try_statement" => vec![self.generic(n)],
            _ => self.python_expression(n),
        }
    }

    /// The nodes a Python expression stands for.
    fn python_expression(&mut self, n: TsNode<'_>) -> Vec<Node> {
        let one = |node: Node| vec![node];
        match n.kind() {
            "parenthesized_expression" => match self.named(n).as_slice() {
                [only] => self.conv(*only),
                _ => one(self.generic(n)),
            },
            "lambda" => one(self.python_lambda(n)),
            "call" => one(self.python_call(n)),
            "keyword_argument" => {
                let label = self.field(n, "name").map(|x| self.hash_of(x)).unwrap_or(0);
                let value: Vec<Node> = self.opt(self.field(n, "value")).into_iter().collect();
                one(with(Kind::Other(n.kind_id()), label, value, n))
            }
            "attribute" => one(self.python_attribute(n)),
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
            "binary_operator" | "boolean_operator" => one(self.binary_fields(n)),
            "comparison_operator" => one(self.python_comparison(n)),
            "not_operator" => match self.opt(self.field(n, "argument")) {
                Some(a) => one(with(Kind::Not, 0, vec![a], n)),
                None => vec![self.generic(n)],
            },
            "unary_operator" => one(self.unary_field(n)),
            "conditional_expression" => one(self.python_conditional(n)),
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

    fn python_expression_statement(&mut self, n: TsNode<'_>) -> Vec<Node> {
        let kids = self.named(n);
        if let [only] = kids.as_slice() {
            match only.kind() {
                // A docstring, or a string used as a comment.
                "string" | "concatenated_string" => return vec![],
                "assignment" | "augmented_assignment" => return self.conv(*only),
                _ => {}
            }
        }
        let exprs = self.conv_each(kids);
        vec![with(Kind::ExprStmt, 0, exprs, n)]
    }

    fn python_function(&mut self, n: TsNode<'_>) -> Node {
        let name = self.field(n, "name");
        let label = name.map(|x| self.hash_of(x)).unwrap_or(0);
        self.locals.insert(label);
        let params = match self.field(n, "parameters") {
            Some(p) => self.python_params(p),
            None => leaf(Kind::Params, 0, n),
        };
        let body = self.python_block(self.field(n, "body"), n);
        with(Kind::Func, label, vec![params, body], n)
    }

    /// A lambda as a function whose body returns its expression.
    fn python_lambda(&mut self, n: TsNode<'_>) -> Node {
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
        with(Kind::Func, 0, vec![params, body], n)
    }

    fn python_class(&mut self, n: TsNode<'_>) -> Node {
        let label = self.field(n, "name").map(|x| self.hash_of(x)).unwrap_or(0);
        self.locals.insert(label);
        let body = self.python_block(self.field(n, "body"), n);
        with(Kind::Class, label, vec![body], n)
    }

    fn python_assignment(&mut self, n: TsNode<'_>) -> Vec<Node> {
        let Some(left) = self.field(n, "left") else {
            return vec![];
        };
        let target = self.one(left);
        self.bind_targets(&target);
        match self.field(n, "right") {
            Some(r) => {
                let value = self.one(r);
                vec![with(Kind::Assign, 0, vec![target, value], n)]
            }
            // `x: int` declares, and does nothing.
            None => vec![],
        }
    }

    fn python_augmented_assignment(&mut self, n: TsNode<'_>) -> Node {
        let op = self.operator(n);
        let op = op.trim_end_matches('=');
        let target = self.opt(self.field(n, "left"));
        let value = self.opt(self.field(n, "right"));
        let (Some(target), Some(value)) = (target, value) else {
            return self.generic(n);
        };
        self.bind_targets(&target);
        with(
            Kind::AugAssign,
            text_hash(op.as_bytes()),
            vec![target, value],
            n,
        )
    }

    fn python_for(&mut self, n: TsNode<'_>) -> Vec<Node> {
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

    fn python_while(&mut self, n: TsNode<'_>) -> Vec<Node> {
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

    fn python_call(&mut self, n: TsNode<'_>) -> Node {
        let callee = self.opt(self.field(n, "function"));
        let Some(callee) = callee else {
            return self.generic(n);
        };
        let mut children = vec![callee];
        if let Some(args) = self.field(n, "arguments") {
            if args.kind() == "argument_list" {
                children.extend(self.conv_children(args));
            } else {
                children.extend(self.conv(args));
            }
        }
        with(Kind::Call, 0, children, n)
    }

    /// `obj.x`, and a module's `m.f` as the name `f`.
    fn python_attribute(&mut self, n: TsNode<'_>) -> Node {
        let object = self.field(n, "object");
        let attr = self.field(n, "attribute");
        let (Some(object), Some(attr)) = (object, attr) else {
            return self.generic(n);
        };
        let label = self.hash_of(attr);
        // `collections.deque` is `deque`.
        if object.kind() == "identifier" && self.modules.contains(&self.hash_of(object)) {
            return leaf(Kind::Name, label, n);
        }
        let obj = self.one(object);
        with(Kind::Attr, label, vec![obj], n)
    }

    /// `a if test else b` as `[test, a, b]`.
    fn python_conditional(&mut self, n: TsNode<'_>) -> Node {
        let kids = self.named(n);
        if let [a, test, b] = kids.as_slice() {
            let (a, test, b) = (self.one(*a), self.one(*test), self.one(*b));
            with(Kind::Ternary, 0, vec![test, a, b], n)
        } else {
            self.generic(n)
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
}
