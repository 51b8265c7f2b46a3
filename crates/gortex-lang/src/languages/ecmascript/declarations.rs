//! Declarations: functions, classes and their members (methods, fields, constructor parameter
//! properties), interfaces, enums, namespaces and type aliases, and variable statements with the
//! type evidence of their bindings.

use super::*;

impl Run<'_> {
    pub(super) fn function_decl(&mut self, node: Node<'_>, name: Option<Node<'_>>, is_sig: bool) {
        let Some(name) = name.map(|n| txt(n, self.src)) else {
            return;
        };
        let body = node.child_by_field_name("body");
        let mut fact = SymbolFact::new(name, NodeKind::Function, util::span(node));
        fact.signature = Some(util::signature(node, body, self.src));
        fact.is_async = has_token(node, "async");
        fact.return_type = node
            .child_by_field_name("return_type")
            .and_then(|t| type_simple(t, self.src, true));
        let idx = self.push_sym(node, fact);
        self.syms[idx].is_sig = is_sig;
    }

    /// A class declaration or expression named `name`, with its members.
    pub(super) fn class(&mut self, node: Node<'_>, name: String) {
        let src = self.src;
        let body = node.child_by_field_name("body");
        let mut fact = SymbolFact::new(name, NodeKind::Type, util::span(node));
        fact.flavor = Some(TypeFlavor::Class);
        fact.signature = Some(util::signature(node, body, src));
        fact.is_abstract = node.kind() == "abstract_class_declaration";
        fact.decorators = own_decorators(node, src);
        self.push_sym(node, fact);

        // Heritage: `extends X` (JS: the expression directly; TS: extends_clause value).
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            if child.kind() != "class_heritage" {
                continue;
            }
            let mut hc = child.walk();
            for h in child.named_children(&mut hc) {
                let value = if h.kind() == "extends_clause" {
                    h.child_by_field_name("value")
                } else {
                    Some(h)
                };
                if let Some(v) = value {
                    if h.kind() == "implements_clause" {
                        continue;
                    }
                    if let Some((name, recv)) = self.expr_target(v) {
                        self.push_ref(EdgeKind::Extends, name, recv, v);
                    }
                }
            }
        }
        if let Some(body) = body {
            self.class_body(body);
        }
    }

    pub(super) fn class_body(&mut self, body: Node<'_>) {
        let src = self.src;
        let mut pending_decorators: Vec<String> = Vec::new();
        let mut pending_anchor: Option<(usize, usize)> = None;
        let mut pending_start = body.start_position();
        let mut cursor = body.walk();
        for member in body.named_children(&mut cursor) {
            let kind = member.kind();
            if kind == "decorator" {
                if let Some(d) = decorator_name(member, src) {
                    pending_decorators.push(d);
                }
                if pending_anchor.is_none() {
                    pending_anchor = Some((member.start_byte(), member.start_position().row));
                    pending_start = member.start_position();
                }
                continue;
            }
            if kind == "comment" {
                continue;
            }
            let decorators = std::mem::take(&mut pending_decorators);
            let anchor = pending_anchor.take();
            let idx = match kind {
                "method_definition" | "method_signature" | "abstract_method_signature" => self.method(
                    member,
                    kind != "method_definition" && kind != "abstract_method_signature",
                ),
                "public_field_definition" | "field_definition" => self.field(member),
                _ => None,
            };
            if let Some(idx) = idx {
                let s = &mut self.syms[idx];
                let mut all = decorators;
                all.append(&mut s.fact.decorators);
                s.fact.decorators = all;
                if let Some(a) = anchor {
                    s.anchor = a;
                    s.fact.span.start_line = pending_start.row as u32 + 1;
                    s.fact.span.start_col = pending_start.column as u32;
                }
            }
        }
    }

    pub(super) fn method(&mut self, node: Node<'_>, is_sig: bool) -> Option<usize> {
        let src = self.src;
        let name_node = node.child_by_field_name("name")?;
        let name = member_name(name_node, src)?;
        let body = node.child_by_field_name("body");
        let mut fact = SymbolFact::new(name, NodeKind::Method, util::span(node));
        fact.signature = Some(util::signature(node, body, src));
        fact.visibility = Some(member_visibility(node, name_node, src));
        fact.is_async = has_token(node, "async");
        fact.is_static = has_token(node, "static");
        fact.is_abstract = node.kind() == "abstract_method_signature" || has_token(node, "abstract");
        fact.return_type = node
            .child_by_field_name("return_type")
            .and_then(|t| type_simple(t, src, true));
        fact.decorators = own_decorators(node, src);
        let is_ctor = fact.name == "constructor";
        let idx = self.push_sym(node, fact);
        self.syms[idx].is_sig = is_sig;
        if is_ctor {
            if let Some(params) = node.child_by_field_name("parameters") {
                self.parameter_properties(params);
            }
        }
        Some(idx)
    }

    /// `constructor(private repo: Repo)` → Field `repo` (type Repo) on the class.
    pub(super) fn parameter_properties(&mut self, params: Node<'_>) {
        let src = self.src;
        let mut cursor = params.walk();
        for p in params.named_children(&mut cursor) {
            if p.kind() != "required_parameter" && p.kind() != "optional_parameter" {
                continue;
            }
            let access = first_child_of_kind(p, "accessibility_modifier");
            let readonly = has_token(p, "readonly");
            if access.is_none() && !readonly && first_child_of_kind(p, "override_modifier").is_none() {
                continue;
            }
            let Some(pat) = p.child_by_field_name("pattern").filter(|n| n.kind() == "identifier") else {
                continue;
            };
            let mut fact = SymbolFact::new(txt(pat, src), NodeKind::Field, util::span(p));
            fact.signature = Some(util::collapse_whitespace(&util::text(p, src)));
            fact.visibility = Some(
                access
                    .map(|a| visibility_of(&util::text(a, src)))
                    .unwrap_or(Visibility::Public),
            );
            fact.type_name = p.child_by_field_name("type").and_then(|t| type_simple(t, src, false));
            fact.decorators = own_decorators(p, src);
            let idx = self.push_sym(p, fact);
            self.syms[idx].param_prop = true;
        }
    }

    pub(super) fn field(&mut self, node: Node<'_>) -> Option<usize> {
        let src = self.src;
        let name_node = node
            .child_by_field_name("name")
            .or_else(|| node.child_by_field_name("property"))?;
        let name = member_name(name_node, src)?;
        let value = node.child_by_field_name("value");
        let visibility = member_visibility(node, name_node, src);
        let is_static = has_token(node, "static");
        let decorators = own_decorators(node, src);
        if let Some(v) = value.filter(|v| is_function_value(v.kind())) {
            let mut fact = SymbolFact::new(name, NodeKind::Method, util::span(node));
            fact.signature = Some(util::signature(node, v.child_by_field_name("body"), src));
            fact.visibility = Some(visibility);
            fact.is_static = is_static;
            fact.is_async = has_token(v, "async");
            fact.return_type = v
                .child_by_field_name("return_type")
                .and_then(|t| type_simple(t, src, true));
            fact.decorators = decorators;
            return Some(self.push_sym(node, fact));
        }
        let mut fact = SymbolFact::new(name, NodeKind::Field, util::span(node));
        fact.signature = Some(
            util::signature(node, value, src)
                .trim_end_matches('=')
                .trim_end()
                .to_string(),
        );
        fact.visibility = Some(visibility);
        fact.is_static = is_static;
        fact.is_abstract = has_token(node, "abstract");
        fact.type_name = node
            .child_by_field_name("type")
            .and_then(|t| type_simple(t, src, false))
            .or_else(|| value.and_then(|v| new_type(v, src)));
        fact.decorators = decorators;
        Some(self.push_sym(node, fact))
    }

    pub(super) fn other_decl(&mut self, cap: Cap, node: Node<'_>, name: Option<Node<'_>>) {
        let src = self.src;
        let Some(name_node) = name else { return };
        match cap {
            Cap::Object => {
                if let Some(idx) = self.method(node, false) {
                    self.syms[idx].object_method = true;
                    self.syms[idx].fact.visibility = None;
                }
            }
            Cap::Interface => {
                let body = node.child_by_field_name("body");
                let mut fact = SymbolFact::new(txt(name_node, src), NodeKind::Interface, util::span(node));
                fact.signature = Some(util::signature(node, body, src));
                self.push_sym(node, fact);
                if let Some(body) = body {
                    self.interface_body(body);
                }
            }
            Cap::TypeAlias => {
                let mut fact = SymbolFact::new(txt(name_node, src), NodeKind::Type, util::span(node));
                fact.flavor = Some(TypeFlavor::TypeAlias);
                fact.signature = Some(util::signature(node, None, src));
                self.push_sym(node, fact);
            }
            Cap::Enum => {
                let body = node.child_by_field_name("body");
                let mut fact = SymbolFact::new(txt(name_node, src), NodeKind::Type, util::span(node));
                fact.flavor = Some(TypeFlavor::Enum);
                fact.signature = Some(util::signature(node, body, src));
                self.push_sym(node, fact);
                if let Some(body) = body {
                    let mut cursor = body.walk();
                    for m in body.named_children(&mut cursor) {
                        let name = match m.kind() {
                            "enum_assignment" => m.child_by_field_name("name").and_then(|n| member_name(n, src)),
                            "comment" => None,
                            _ => member_name(m, src),
                        };
                        if let Some(name) = name {
                            let mut fact = SymbolFact::new(name, NodeKind::EnumMember, util::span(m));
                            fact.signature = Some(util::collapse_whitespace(&util::text(m, src)));
                            self.push_sym(m, fact);
                        }
                    }
                }
            }
            Cap::Namespace => {
                let name = match name_node.kind() {
                    "string" => string_value(name_node, src),
                    _ => txt(name_node, src),
                };
                let body = node.child_by_field_name("body");
                let mut fact = SymbolFact::new(name, NodeKind::Module, util::span(node));
                fact.signature = Some(util::signature(node, body, src));
                self.push_sym(node, fact);
            }
            _ => {}
        }
    }

    pub(super) fn interface_body(&mut self, body: Node<'_>) {
        let src = self.src;
        let mut cursor = body.walk();
        for m in body.named_children(&mut cursor) {
            match m.kind() {
                "method_signature" => {
                    if let Some(idx) = self.method(m, true) {
                        self.syms[idx].fact.visibility = None;
                    }
                }
                "property_signature" => {
                    let Some(name) = m.child_by_field_name("name").and_then(|n| member_name(n, src)) else {
                        continue;
                    };
                    let mut fact = SymbolFact::new(name, NodeKind::Field, util::span(m));
                    fact.signature = Some(util::signature(m, None, src));
                    fact.type_name = m.child_by_field_name("type").and_then(|t| type_simple(t, src, false));
                    self.push_sym(m, fact);
                }
                _ => {}
            }
        }
    }

    /// `const`/`let`/`var` statements: function-valued declarators become Functions (at any
    /// depth), module-level ones Variables/Constants; requires become imports; all give bindings.
    pub(super) fn var_statement(&mut self, stmt: Node<'_>, top: bool) {
        let src = self.src;
        let keyword = stmt.child(0).map(|k| k.kind()).unwrap_or("var");
        let single = stmt.named_child_count() == 1;
        let mut cursor = stmt.walk();
        for decl in stmt.named_children(&mut cursor) {
            if decl.kind() != "variable_declarator" {
                continue;
            }
            let Some(name_node) = decl.child_by_field_name("name") else {
                continue;
            };
            let value = decl.child_by_field_name("value");
            let ann = decl.child_by_field_name("type");
            if let Some(v) = value {
                if self.require_binding(name_node, v, stmt) {
                    continue;
                }
            }
            if name_node.kind() != "identifier" {
                continue;
            }
            let name = txt(name_node, src);
            let span_node = if single { stmt } else { decl };

            // Bindings (type evidence for receivers).
            if let Some(t) = ann.and_then(|a| annotation_type(a)) {
                if let Some(tn) =
                    type_simple(t, src, false).filter(|n| !is_primitive_name(n) && !self.type_params.contains(n))
                {
                    self.push_binding(name.clone(), BindingValue::Type { name: tn }, decl);
                }
            } else if let Some(v) = value {
                if let Some(value) = self.binding_value(v) {
                    self.push_binding(name.clone(), value, decl);
                }
            }

            if let Some(v) = value.filter(|v| is_function_value(v.kind())) {
                let mut fact = SymbolFact::new(name, NodeKind::Function, util::span(span_node));
                let head = util::signature(decl, v.child_by_field_name("body"), src);
                fact.signature = Some(util::truncate_chars(&format!("{keyword} {head}"), util::MAX_SIGNATURE));
                fact.is_async = has_token(v, "async");
                fact.return_type = v
                    .child_by_field_name("return_type")
                    .and_then(|t| type_simple(t, src, true));
                let idx = self.push_sym(decl, fact);
                self.syms[idx].anchor = (stmt.start_byte(), stmt.start_position().row);
                continue;
            }
            if let Some(v) = value.filter(|v| v.kind() == "class") {
                self.class(v, name);
                let idx = self.by_node[&v.id()];
                self.syms[idx].fact.span = util::span(span_node);
                self.syms[idx].anchor = (stmt.start_byte(), stmt.start_position().row);
                self.by_node.insert(decl.id(), idx);
                continue;
            }
            if !top {
                self.locals.insert(name);
                continue;
            }
            let kind = if keyword == "const" {
                NodeKind::Constant
            } else {
                NodeKind::Variable
            };
            let mut fact = SymbolFact::new(name, kind, util::span(span_node));
            let head = util::signature(decl, value, src);
            let head = head.trim_end_matches('=').trim_end();
            fact.signature = Some(util::truncate_chars(&format!("{keyword} {head}"), util::MAX_SIGNATURE));
            fact.type_name = ann
                .and_then(|a| type_simple(a, src, false))
                .or_else(|| value.and_then(|v| new_type(v, src)));
            let idx = self.push_sym(decl, fact);
            self.syms[idx].anchor = (stmt.start_byte(), stmt.start_position().row);
        }
    }

    /// Names bound by a parameter list or destructuring pattern (direct children only).
    pub(super) fn collect_locals(&mut self, node: Node<'_>) {
        let src = self.src;
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            let local = match child.kind() {
                "identifier" | "shorthand_property_identifier_pattern" => Some(child),
                "assignment_pattern" => child.child_by_field_name("left"),
                "pair_pattern" => child.child_by_field_name("value"),
                "required_parameter" | "optional_parameter" => child.child_by_field_name("pattern"),
                "rest_pattern" => child.named_child(0),
                _ => None,
            };
            if let Some(l) =
                local.filter(|l| l.kind() == "identifier" || l.kind() == "shorthand_property_identifier_pattern")
            {
                self.locals.insert(txt(l, src));
            }
        }
    }
}
