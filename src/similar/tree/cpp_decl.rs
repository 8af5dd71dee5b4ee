//! C++'s declarations in the shared vocabulary: variables (one `Decl` per
//! name), functions and their parameters, classes, and the aliases a file
//! defines (`typedef`, `using X = ...`, object-like `#define`s), which are
//! expanded where they are used.

use tree_sitter::Node as TsNode;

use super::{Converter, Kind, Node, leaf, parse, relocated, span, with};
use crate::runner::Language;

impl Converter<'_> {
    /// `typedef T X;`: `X` stands for `T` from here on.
    pub(super) fn cpp_typedef(&mut self, n: TsNode<'_>) {
        if let (Some(ty), Some(decl)) = (self.field(n, "type"), self.field(n, "declarator")) {
            let target = self.one(ty);
            let name = self.declared_name(decl);
            if let Some(name) = name {
                let h = self.hash_of(name);
                self.aliases.insert(h, target);
            }
        }
    }

    /// `using X = T;`: `X` stands for `T` from here on.
    pub(super) fn cpp_alias(&mut self, n: TsNode<'_>) {
        if let (Some(name), Some(ty)) = (self.field(n, "name"), self.field(n, "type")) {
            let h = self.hash_of(name);
            let target = self.one(ty);
            self.aliases.insert(h, target);
        }
    }

    /// A class, struct or union with a body; without one, its name (a type).
    pub(super) fn cpp_class(&mut self, n: TsNode<'_>) -> Node {
        let name = self.field(n, "name");
        let label = name.map(|x| self.hash_of(x)).unwrap_or(0);
        match self.field(n, "body") {
            Some(b) => {
                self.locals.insert(label);
                let body = self.one(b);
                with(Kind::Class, label, vec![body], n)
            }
            // `struct Node` used as a type.
            None => leaf(Kind::Name, label, n),
        }
    }

    /// The identifier a declarator declares (`x` of `*x`, `x[10]`, `&x`).
    pub(super) fn declared_name<'t>(&self, d: TsNode<'t>) -> Option<TsNode<'t>> {
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

    pub(super) fn cpp_params(&mut self, p: TsNode<'_>) -> Node {
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

    pub(super) fn cpp_function(&mut self, n: TsNode<'_>) -> Node {
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
    pub(super) fn cpp_declaration(&mut self, n: TsNode<'_>) -> Vec<Node> {
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
                out.extend(self.cpp_vexing_declaration(n, d, ty));
            } else {
                out.push(self.cpp_declarator(n, d, ty));
            }
        }
        out
    }

    /// In a body, `vector<int> dist(n, -1);` is parsed as a function's
    /// declaration (C++'s most vexing parse): it is a variable built from
    /// those arguments. Outside a body it is a prototype: nothing.
    fn cpp_vexing_declaration(
        &mut self,
        n: TsNode<'_>,
        d: TsNode<'_>,
        ty: Option<TsNode<'_>>,
    ) -> Option<Node> {
        if self.in_body == 0 {
            return None;
        }
        let name = self
            .field(d, "declarator")
            .and_then(|x| self.declared_name(x))?;
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
        Some(Node::new(Kind::Decl, 0, vec![type_node, name, call], s0, e))
    }

    /// One declarator of a declaration: `[type, name, value?]`, or a local
    /// function for `auto f = [&](int x) { ... };`.
    fn cpp_declarator(&mut self, n: TsNode<'_>, d: TsNode<'_>, ty: Option<TsNode<'_>>) -> Node {
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
                args.extend(self.conv_children(v));
                children.push(with(Kind::Call, 0, args, v));
            } else {
                // `auto f = [&](int x) { ... };` is a local function.
                let value = self.one(v);
                if value.kind == Kind::Func && value.label == 0 {
                    let label = children[1].label;
                    return with(Kind::Func, label, value.children, d);
                }
                children.push(value);
            }
        }
        let (s, e) = span(d);
        let (s0, _) = span(n);
        Node::new(Kind::Decl, 0, children, s0.min(s), e)
    }

    /// `#define NAME VALUE` where the value is a type (`long long`) or an
    /// expression (`1000000007`): an alias, as a typedef is.
    pub(super) fn cpp_define(&mut self, n: TsNode<'_>) {
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
