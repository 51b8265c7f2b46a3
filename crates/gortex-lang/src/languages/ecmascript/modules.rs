//! The module system as JavaScript/TypeScript files state it: ES imports and exports (re-exports,
//! `export =`, type-only forms), CommonJS `require` bindings and `module.exports`, side-effect imports.

use super::*;

impl Run<'_> {
    /// `const x = require('m')`, `const { a, b: c } = require('m')`, `const y = require('m').y`.
    pub(super) fn require_binding(&mut self, name: Node<'_>, value: Node<'_>, stmt: Node<'_>) -> bool {
        let src = self.src;
        let (call, member) = match value.kind() {
            "call_expression" => (value, None),
            "member_expression" => match value.child_by_field_name("object") {
                Some(o) if o.kind() == "call_expression" => (o, value.child_by_field_name("property")),
                _ => return false,
            },
            _ => return false,
        };
        let Some(module) = require_source(call, src) else {
            return false;
        };
        self.skip_calls.insert(call.id());
        let line = util::line(stmt);
        let mut push = |kind, n: Option<String>, local: Option<String>| {
            self.imports.push(ImportFact {
                module: module.clone(),
                kind,
                name: n,
                local,
                reexport: false,
                type_only: false,
                line,
            })
        };
        match (name.kind(), member) {
            ("identifier", None) => push(ImportKind::Module, None, Some(txt(name, src))),
            ("identifier", Some(p)) => push(ImportKind::Named, member_name(p, src), Some(txt(name, src))),
            ("object_pattern", None) => {
                let mut cursor = name.walk();
                for p in name.named_children(&mut cursor) {
                    match p.kind() {
                        "shorthand_property_identifier_pattern" => {
                            let n = txt(p, src);
                            push(ImportKind::Named, Some(n.clone()), Some(n));
                        }
                        "pair_pattern" => {
                            let key = p.child_by_field_name("key").and_then(|k| member_name(k, src));
                            let local = p
                                .child_by_field_name("value")
                                .filter(|v| v.kind() == "identifier")
                                .map(|v| txt(v, src));
                            push(ImportKind::Named, key, local);
                        }
                        _ => {}
                    }
                }
            }
            _ => push(ImportKind::SideEffect, None, None),
        }
        true
    }

    pub(super) fn import_statement(&mut self, node: Node<'_>) {
        let src = self.src;
        let line = util::line(node);
        let type_only = has_token(node, "type");
        let source = node.child_by_field_name("source").map(|s| string_value(s, src));
        let mut cursor = node.walk();
        let mut bound = false;
        for child in node.named_children(&mut cursor) {
            match child.kind() {
                "import_clause" => {
                    let Some(module) = source.clone() else {
                        continue;
                    };
                    let mut cc = child.walk();
                    for part in child.named_children(&mut cc) {
                        match part.kind() {
                            "identifier" => {
                                bound = true;
                                self.imports.push(ImportFact {
                                    module: module.clone(),
                                    kind: ImportKind::Default,
                                    name: None,
                                    local: Some(txt(part, src)),
                                    reexport: false,
                                    type_only,
                                    line,
                                });
                            }
                            "namespace_import" => {
                                bound = true;
                                let local = first_child_of_kind(part, "identifier").map(|i| txt(i, src));
                                self.imports.push(ImportFact {
                                    module: module.clone(),
                                    kind: ImportKind::Namespace,
                                    name: None,
                                    local,
                                    reexport: false,
                                    type_only,
                                    line,
                                });
                            }
                            "named_imports" => {
                                bound = true;
                                let mut sc = part.walk();
                                for spec in part.named_children(&mut sc) {
                                    if spec.kind() != "import_specifier" {
                                        continue;
                                    }
                                    let spec_type = type_only || has_token(spec, "type");
                                    self.push_specifier(&module, spec, false, spec_type, line);
                                }
                            }
                            _ => {}
                        }
                    }
                }
                "import_require_clause" => {
                    bound = true;
                    let module = child
                        .child_by_field_name("source")
                        .map(|s| string_value(s, src))
                        .or_else(|| source.clone())
                        .unwrap_or_default();
                    let local = first_child_of_kind(child, "identifier").map(|i| txt(i, src));
                    self.imports.push(ImportFact {
                        module,
                        kind: ImportKind::Module,
                        name: None,
                        local,
                        reexport: false,
                        type_only,
                        line,
                    });
                }
                _ => {}
            }
        }
        if !bound {
            if let Some(module) = source {
                self.imports.push(ImportFact {
                    module,
                    kind: ImportKind::SideEffect,
                    name: None,
                    local: None,
                    reexport: false,
                    type_only,
                    line,
                });
            }
        }
    }

    /// `a`, `a as b`, `default as X` inside `import {…}` / `export {…} from`.
    pub(super) fn push_specifier(&mut self, module: &str, spec: Node<'_>, reexport: bool, type_only: bool, line: u32) {
        let src = self.src;
        let name = spec.child_by_field_name("name").map(|n| spec_name(n, src));
        let name = name.or_else(|| has_token(spec, "default").then(|| "default".to_string()));
        let alias = spec.child_by_field_name("alias").map(|n| spec_name(n, src));
        let local = alias.or_else(|| name.clone());
        let (kind, name) = if name.as_deref() == Some("default") && local.as_deref() != Some("default") {
            (ImportKind::Default, None)
        } else {
            (ImportKind::Named, name)
        };
        self.imports.push(ImportFact {
            module: module.to_string(),
            kind,
            name,
            local,
            reexport,
            type_only,
            line,
        });
    }

    pub(super) fn export_statement(&mut self, node: Node<'_>) {
        let src = self.src;
        let line = util::line(node);
        let is_default = has_token(node, "default");
        let type_only = has_token(node, "type");
        let anchor = (node.start_byte(), node.start_position().row);
        if let Some(source) = node.child_by_field_name("source") {
            let module = string_value(source, src);
            let mut cursor = node.walk();
            let mut any = false;
            for child in node.named_children(&mut cursor) {
                match child.kind() {
                    "export_clause" => {
                        any = true;
                        let mut sc = child.walk();
                        for spec in child.named_children(&mut sc) {
                            if spec.kind() == "export_specifier" {
                                let t = type_only || has_token(spec, "type");
                                self.push_specifier(&module, spec, true, t, line);
                            }
                        }
                    }
                    "namespace_export" => {
                        any = true;
                        let local = child.named_child(0).map(|n| spec_name(n, src));
                        self.imports.push(ImportFact {
                            module: module.clone(),
                            kind: ImportKind::Namespace,
                            name: None,
                            local,
                            reexport: true,
                            type_only,
                            line,
                        });
                    }
                    _ => {}
                }
            }
            if !any {
                self.imports.push(ImportFact {
                    module,
                    kind: ImportKind::Wildcard,
                    name: None,
                    local: None,
                    reexport: true,
                    type_only,
                    line,
                });
            }
            return;
        }
        if let Some(decl) = node.child_by_field_name("declaration") {
            let mut targets = Vec::new();
            if matches!(decl.kind(), "lexical_declaration" | "variable_declaration") {
                let mut cursor = decl.walk();
                for d in decl.named_children(&mut cursor) {
                    targets.push(d.id());
                }
            } else {
                targets.push(decl.id());
                // `export declare …`, `export abstract class` wrapped in ambient declarations.
                if decl.kind() == "ambient_declaration" {
                    if let Some(inner) = decl.named_child(0) {
                        targets.push(inner.id());
                    }
                }
            }
            let export_decorators: Vec<String> = {
                let mut cursor = node.walk();
                node.named_children(&mut cursor)
                    .filter(|c| c.kind() == "decorator")
                    .filter_map(|d| decorator_name(d, src))
                    .collect()
            };
            let sole = targets.len() == 1 || decl.kind() == "ambient_declaration";
            let start = util::span(node);
            for id in targets {
                if let Some(&idx) = self.by_node.get(&id) {
                    let s = &mut self.syms[idx];
                    if sole {
                        s.fact.span.start_line = start.start_line;
                        s.fact.span.start_col = start.start_col;
                    }
                    s.fact.exported = true;
                    s.fact.default_export = is_default;
                    if s.anchor.0 > anchor.0 {
                        s.anchor = anchor;
                    }
                    if !export_decorators.is_empty() {
                        let mut all = export_decorators.clone();
                        all.append(&mut s.fact.decorators);
                        s.fact.decorators = all;
                    }
                }
            }
            return;
        }
        if let Some(value) = node.child_by_field_name("value") {
            match value.kind() {
                "identifier" => self.export_names.push((txt(value, src), true)),
                k if is_function_value(k) || k == "class" => {
                    let named = value.child_by_field_name("name").map(|n| txt(n, src));
                    let name = named.unwrap_or_else(|| "default".to_string());
                    let idx = if k == "class" {
                        self.class(value, name);
                        self.by_node[&value.id()]
                    } else {
                        let body = value.child_by_field_name("body");
                        let mut fact = SymbolFact::new(name, NodeKind::Function, util::span(value));
                        fact.signature = Some(util::signature(value, body, src));
                        fact.is_async = has_token(value, "async");
                        fact.return_type = value
                            .child_by_field_name("return_type")
                            .and_then(|t| type_simple(t, src, true));
                        self.push_sym(value, fact)
                    };
                    let s = &mut self.syms[idx];
                    s.fact.exported = true;
                    s.fact.default_export = true;
                    s.anchor = anchor;
                }
                _ => {}
            }
            return;
        }
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            match child.kind() {
                "export_clause" => {
                    let mut sc = child.walk();
                    for spec in child.named_children(&mut sc) {
                        if spec.kind() != "export_specifier" {
                            continue;
                        }
                        let Some(name) = spec.child_by_field_name("name").map(|n| spec_name(n, src)) else {
                            continue;
                        };
                        let alias = spec.child_by_field_name("alias").map(|n| spec_name(n, src));
                        self.export_names.push((name, alias.as_deref() == Some("default")));
                    }
                }
                // TypeScript `export = Foo`.
                "identifier" if has_token(node, "=") => self.export_names.push((txt(child, src), true)),
                _ => {}
            }
        }
    }

    /// `module.exports = { a, b: c }`, `module.exports = foo`, `exports.foo = …`.
    pub(super) fn commonjs_export(&mut self, assign: Node<'_>) {
        let src = self.src;
        let (Some(left), Some(right)) = (assign.child_by_field_name("left"), assign.child_by_field_name("right"))
        else {
            return;
        };
        let left_text = util::text(left, src);
        let left_text = left_text.trim();
        if left_text == "module.exports" {
            match right.kind() {
                "identifier" => self.export_names.push((txt(right, src), true)),
                "object" => {
                    let mut cursor = right.walk();
                    for p in right.named_children(&mut cursor) {
                        match p.kind() {
                            "shorthand_property_identifier" => self.export_names.push((txt(p, src), false)),
                            "pair" => {
                                if let Some(v) = p.child_by_field_name("value").filter(|v| v.kind() == "identifier") {
                                    self.export_names.push((txt(v, src), false));
                                }
                            }
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
            return;
        }
        let export_name = left_text
            .strip_prefix("module.exports.")
            .or_else(|| left_text.strip_prefix("exports."));
        let Some(export_name) = export_name.filter(|n| !n.contains(['.', '[', ' '])) else {
            return;
        };
        match right.kind() {
            "identifier" => self.export_names.push((txt(right, src), false)),
            k if is_function_value(k) => {
                let body = right.child_by_field_name("body");
                let mut fact = SymbolFact::new(export_name, NodeKind::Function, util::span(assign));
                fact.signature = Some(util::signature(assign, body, src));
                fact.is_async = has_token(right, "async");
                fact.exported = true;
                self.push_sym(assign, fact);
            }
            _ => self.export_names.push((export_name.to_string(), false)),
        }
    }

    pub(super) fn side_effect_import(&mut self, source: Option<Node<'_>>, node: Node<'_>) {
        if let Some(s) = source {
            self.imports.push(ImportFact {
                module: string_value(s, self.src),
                kind: ImportKind::SideEffect,
                name: None,
                local: None,
                reexport: false,
                type_only: false,
                line: util::line(node),
            });
        }
    }
}

/// `require('m')` → `m`.
pub(super) fn require_source(call: Node<'_>, src: &[u8]) -> Option<String> {
    let f = call.child_by_field_name("function")?;
    if f.kind() != "identifier" || util::text(f, src) != "require" {
        return None;
    }
    let first = call.child_by_field_name("arguments")?.named_child(0)?;
    (first.kind() == "string").then(|| string_value(first, src))
}

pub(super) fn spec_name(node: Node<'_>, src: &[u8]) -> String {
    if node.kind() == "string" {
        string_value(node, src)
    } else {
        txt(node, src)
    }
}
