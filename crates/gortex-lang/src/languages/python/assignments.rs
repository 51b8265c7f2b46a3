//! Assignments: module variables and constants (`__all__` included), class attributes, `self.x`
//! fields and their types, local bindings as type evidence, and `TypeAlias` declarations.

use super::*;

impl Extraction<'_> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn assignment(
        &mut self,
        stmt: Node<'_>,
        assign: Node<'_>,
        scope: Option<usize>,
        scopes: &[Scope],
        module_syms: &mut HashMap<String, usize>,
        members: &mut ClassMembers,
        all_names: &mut Option<Vec<String>>,
    ) {
        // Walk the chain `a = b = value`; collect targets.
        let annotation = assign.child_by_field_name("type");
        let mut targets: Vec<Node<'_>> = Vec::new();
        let mut cur = assign;
        let value = loop {
            if let Some(left) = cur.child_by_field_name("left") {
                match left.kind() {
                    "pattern_list" | "tuple_pattern" | "list_pattern" => {
                        let mut c = left.walk();
                        targets.extend(
                            left.named_children(&mut c)
                                .filter(|t| matches!(t.kind(), "identifier" | "attribute")),
                        );
                    }
                    "identifier" | "attribute" => targets.push(left),
                    _ => {}
                }
            }
            match cur.child_by_field_name("right") {
                Some(r) if r.kind() == "assignment" => cur = r,
                other => break other,
            }
        };
        if targets.is_empty() {
            return;
        }
        let single = targets.len() == 1;
        let scope_info = scope.map(|s| &scopes[s]);

        match scope_info {
            None => {
                // Module level.
                for t in targets {
                    if t.kind() != "identifier" {
                        continue;
                    }
                    let name = self.text(t);
                    if name == "__all__" {
                        if let Some(v) = value {
                            let names = all_names.get_or_insert_with(Vec::new);
                            collect_strings(v, self.source, names);
                        }
                    }
                    if module_syms.contains_key(&name) {
                        continue;
                    }
                    let decl_span = if single { util::span(assign) } else { util::span(t) };
                    let is_alias = annotation.is_some_and(|a| last_segment(&util::text(a, self.source)) == "TypeAlias");
                    let (kind, flavor) = if is_alias {
                        (NodeKind::Type, Some(TypeFlavor::TypeAlias))
                    } else if is_constant_name(&name) {
                        (NodeKind::Constant, None)
                    } else {
                        (NodeKind::Variable, None)
                    };
                    let mut sym = SymbolFact::new(name.clone(), kind, decl_span);
                    sym.flavor = flavor;
                    sym.signature = Some(head(self.source, assign.start_byte(), assign.end_byte(), 120));
                    sym.visibility = Some(visibility(&name));
                    sym.exported = !name.starts_with('_');
                    sym.set_doc(comment_doc(stmt, self.source));
                    let idx = self.push_symbol(sym);
                    module_syms.insert(name.clone(), idx);
                    if single {
                        self.owner_ranges.push((assign.start_byte(), assign.end_byte(), idx));
                    }
                    let declared = if is_alias {
                        None
                    } else {
                        annotation.map(|a| self.annotation_refs(a, EdgeKind::TypedAs, Some(idx)))
                    };
                    let evidence = match &declared {
                        Some(a) => a.user.clone().map(|name| BindingValue::Type { name }),
                        None if single => value.and_then(|v| value_binding(v, self.source)),
                        None => None,
                    };
                    self.facts.symbols[idx].type_name = match declared {
                        Some(a) => a.display,
                        None if single => value.and_then(|v| constructed_type(v, self.source)),
                        None => None,
                    };
                    if let Some(ev) = evidence {
                        self.push_binding(None, name, ev, util::line(t));
                    }
                }
            }
            Some(s) if s.kind == ScopeKind::Class => {
                let class_sym = s.sym;
                let kind = if s.is_enum {
                    NodeKind::EnumMember
                } else {
                    NodeKind::Field
                };
                for t in targets {
                    if t.kind() != "identifier" {
                        continue;
                    }
                    let name = self.text(t);
                    let key = (class_sym, name.clone());
                    if members.fields.contains_key(&key) {
                        continue;
                    }
                    // `client_class = Client`: what `self.client_class()` constructs.
                    if let Some(class) = value.filter(|_| single).and_then(|v| class_named(v, self.source)) {
                        members.class_refs.insert(key.clone(), class);
                    }
                    let idx = self.declare_member(stmt, assign, if single { assign } else { t }, key, kind, members);
                    if kind == NodeKind::Field {
                        let declared =
                            annotation.and_then(|a| self.annotation_refs(a, EdgeKind::TypedAs, Some(idx)).display);
                        let ty = declared
                            .or_else(|| value.filter(|_| single).and_then(|v| constructed_type(v, self.source)));
                        self.facts.symbols[idx].type_name = ty;
                    }
                }
            }
            Some(s) => {
                // Function body: locals (bindings) and `self.x` fields.
                let func_sym = s.sym;
                let class = s.parent.map(|p| &scopes[p]).filter(|c| c.kind == ScopeKind::Class);
                let declares_fields = class.is_some() && FIELD_DECLARING_METHODS.contains(&s.name.as_str());
                for t in targets {
                    match t.kind() {
                        "identifier" => {
                            let name = self.text(t);
                            let declared =
                                annotation.map(|a| self.annotation_refs(a, EdgeKind::TypedAs, Some(func_sym)));
                            let evidence = match declared {
                                Some(a) => a.user.map(|name| BindingValue::Type { name }),
                                None if single => value.and_then(|v| value_binding(v, self.source)),
                                None => None,
                            };
                            if let Some(ev) = evidence {
                                self.push_binding(Some(func_sym), name, ev, util::line(t));
                            }
                        }
                        "attribute" => {
                            let Some(class) = class else {
                                continue;
                            };
                            let (Some(obj), Some(attr)) =
                                (t.child_by_field_name("object"), t.child_by_field_name("attribute"))
                            else {
                                continue;
                            };
                            if util::text(obj, self.source) != "self" {
                                continue;
                            }
                            let name = self.text(attr);
                            let key = (class.sym, name.clone());
                            let constructed = value.filter(|_| single).and_then(|v| {
                                constructed_type(v, self.source).or_else(|| match called(v, self.source)? {
                                    // `self.client = self.client_class()`.
                                    (attr, Receiver::SelfRef) => members.class_refs.get(&(class.sym, attr)).cloned(),
                                    _ => None,
                                })
                            });
                            let mut owner = func_sym;
                            // Set-up methods declare fields; any other method declares one it
                            // gives a type (pyright infers the attribute from every assignment).
                            let declares = declares_fields || annotation.is_some() || constructed.is_some();
                            if declares && !members.fields.contains_key(&key) {
                                let at = if single { assign } else { t };
                                owner = self.declare_member(stmt, assign, at, key.clone(), NodeKind::Field, members);
                            }
                            let declared = annotation
                                .and_then(|a| self.annotation_refs(a, EdgeKind::TypedAs, Some(owner)).display);
                            let ty = declared.or(constructed);
                            // `self.repo = repo` where `repo: Repo` is a parameter.
                            let ty = ty.or_else(|| {
                                let v = value.filter(|v| single && v.kind() == "identifier")?;
                                let v = util::text(v, self.source);
                                self.facts.bindings.iter().rev().find_map(|b| match &b.value {
                                    BindingValue::Type { name } if b.scope == Some(func_sym as u32) && b.name == v => {
                                        Some(name.clone())
                                    }
                                    _ => None,
                                })
                            });
                            if let Some(ty) = ty {
                                members.self_types.push((class.sym, name, ty));
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
    }

    pub(super) fn type_alias(&mut self, node: Node<'_>, scope: Option<usize>, scopes: &[Scope]) {
        let Some(left) = node.child_by_field_name("left") else {
            return;
        };
        let raw = util::text(left, self.source);
        let name: String = raw.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if name.is_empty() {
            return;
        }
        let mut sym = SymbolFact::new(name.clone(), NodeKind::Type, util::span(node));
        sym.flavor = Some(TypeFlavor::TypeAlias);
        sym.parent = scope.map(|s| scopes[s].sym as u32);
        sym.signature = Some(head(self.source, node.start_byte(), node.end_byte(), 120));
        sym.visibility = Some(visibility(&name));
        sym.exported = !name.starts_with('_') && scope.is_none();
        sym.set_doc(comment_doc(node, self.source));
        let idx = self.push_symbol(sym);
        if let Some(right) = node.child_by_field_name("right") {
            self.annotation_refs(right, EdgeKind::References, Some(idx));
        }
    }

    /// Declares member `key` (class symbol, name) of kind `kind`, assigned by `assign` and spanning
    /// `at`, for the class's fields to find.
    fn declare_member(
        &mut self,
        stmt: Node<'_>,
        assign: Node<'_>,
        at: Node<'_>,
        key: (usize, String),
        kind: NodeKind,
        members: &mut ClassMembers,
    ) -> usize {
        let (class_sym, name) = key.clone();
        let mut sym = SymbolFact::new(name.clone(), kind, util::span(at));
        sym.parent = Some(class_sym as u32);
        sym.signature = Some(head(self.source, assign.start_byte(), assign.end_byte(), 120));
        sym.visibility = Some(visibility(&name));
        sym.exported = !name.starts_with('_');
        sym.set_doc(comment_doc(stmt, self.source));
        let idx = self.push_symbol(sym);
        members.fields.insert(key, idx);
        idx
    }
}
