//! Vue and Svelte single-file components: the `<script>` blocks (`<script setup>`, Svelte's
//! `<script context="module">`) are parsed as TypeScript in place — everything else is blanked
//! to spaces first, so lines and columns are the file's own. The component itself is a `type`
//! of flavor `component` named after the file (`user-card.vue` → `UserCard`), the file's
//! default export unless the script declares one; components its template renders
//! (`<UserCard>`, `<user-card>`) that the script imports or declares are `instantiates`
//! references from it. Markup, styles and template expressions are not code here.
//!
//! A Vue options-API component (`export default { … }`, `defineComponent({ … })`,
//! `Vue.extend({ … })`) is a class in all but syntax: its `methods`, `computed` and `watch`
//! entries and its lifecycle hooks become methods of the component type, and its `props` and
//! `data()` keys its fields, so `this.save()` in one method resolves to another. Its `mixins: [A,
//! B]` and `extends: C` entries are supertypes of the component, so `this.dispatch()` also finds a
//! mixin's method. A script module whose default export is such an options object (a mixin:
//! `export default { methods: { … } }`) is a type of flavor `mixin` holding the same members, or
//! `component` when the options render (`render(h)`, `template`).

use super::ecmascript;
use crate::names::js_string_value;
use crate::util;
use crate::{Extractor, FileContext};
use gortex_core::{EdgeKind, FileFacts, Language, NodeKind, Receiver, RefFact, Span, SymbolFact, TypeFlavor};
use std::borrow::Cow;

struct Component(Language);

/// Vue's `<script setup>` compiler macros.
const COMPILER_MACROS: &[&str] = &[
    "defineProps",
    "defineEmits",
    "defineExpose",
    "defineModel",
    "defineSlots",
    "defineOptions",
    "withDefaults",
];

pub(crate) fn vue() -> &'static dyn Extractor {
    static E: Component = Component(Language::Vue);
    &E
}

pub(crate) fn svelte() -> &'static dyn Extractor {
    static E: Component = Component(Language::Svelte);
    &E
}

/// Byte ranges of the contents of `<script …>` blocks (outside HTML comments).
fn script_ranges(src: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < src.len() {
        if src[i..].starts_with(b"<!--") {
            i = find(src, i + 4, b"-->").map_or(src.len(), |e| e + 3);
            continue;
        }
        if src[i] == b'<' && starts_with_ignore_case(&src[i + 1..], b"script") {
            let after = i + 7;
            // `<script>` / `<script setup lang="ts">`, not `<scripts>`.
            if src.get(after).is_some_and(|&b| b == b'>' || b.is_ascii_whitespace()) {
                let Some(open_end) = find(src, after, b">") else { break };
                let body = open_end + 1;
                let close = find_ignore_case(src, body, b"</script").unwrap_or(src.len());
                out.push((body, close));
                i = close + 1;
                continue;
            }
        }
        i += 1;
    }
    out
}

fn find(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    hay.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| from + p)
}

fn find_ignore_case(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    hay.get(from..)?
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
        .map(|p| from + p)
}

fn starts_with_ignore_case(hay: &[u8], prefix: &[u8]) -> bool {
    hay.len() >= prefix.len() && hay[..prefix.len()].eq_ignore_ascii_case(prefix)
}

/// `user-card`, `user_card`, `+page` → `UserCard`, `Page`.
fn component_name(path: &str) -> String {
    let file = path.rsplit('/').next().unwrap_or(path);
    let stem = file.rsplit_once('.').map_or(file, |(s, _)| s);
    let name: String = stem
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut cs = w.chars();
            cs.next()
                .map(|c| c.to_uppercase().chain(cs).collect::<String>())
                .unwrap_or_default()
        })
        .collect();
    if name.is_empty() {
        "Component".into()
    } else {
        name
    }
}

impl Extractor for Component {
    fn language(&self) -> Language {
        self.0
    }

    fn grammar(&self) -> tree_sitter::Language {
        ecmascript::typescript().grammar()
    }

    fn compile_queries(&self) {
        ecmascript::typescript().compile_queries();
    }

    fn prepare<'s>(&self, source: &'s [u8]) -> Cow<'s, [u8]> {
        let mut out: Vec<u8> = source
            .iter()
            .map(|&b| if b == b'\n' || b == b'\r' { b } else { b' ' })
            .collect();
        for (from, to) in script_ranges(source) {
            out[from..to].copy_from_slice(&source[from..to]);
        }
        Cow::Owned(out)
    }

    fn extract(&self, tree: &tree_sitter::Tree, source: &[u8], ctx: &FileContext<'_>) -> FileFacts {
        let mut facts = ecmascript::typescript().extract(tree, source, ctx);
        // `<script setup>` compiler macros are not functions anything defines or could find.
        facts.refs.retain(|r| {
            !(r.kind == EdgeKind::Calls && r.receiver == Receiver::None && COMPILER_MACROS.contains(&r.name.as_str()))
        });
        let mut sym = SymbolFact::new(component_name(ctx.path), NodeKind::Type, whole_file(source));
        sym.flavor = Some(TypeFlavor::Component);
        sym.exported = true;
        sym.default_export = !facts.symbols.iter().any(|s| s.default_export);
        let options = (self.0 == Language::Vue)
            .then(|| options_object(tree.root_node()))
            .flatten();
        match options {
            // The component goes first so its members can follow it (parents precede children).
            Some(object) => {
                insert_first(&mut facts, sym);
                adopt_options(&mut facts, object, source);
            }
            None => facts.symbols.push(sym),
        }
        facts
    }

    fn finish(&self, facts: &mut FileFacts, original: &[u8]) {
        let Some(component) = facts
            .symbols
            .iter()
            .rposition(|s| s.flavor == Some(TypeFlavor::Component))
        else {
            return;
        };
        let scripts = script_ranges(original);
        // Names the script binds: its imports and top-level declarations.
        let bound = |name: &str| {
            facts.imports.iter().any(|i| i.local.as_deref() == Some(name))
                || facts
                    .symbols
                    .iter()
                    .any(|s| s.parent.is_none() && s.name == name && s.flavor != Some(TypeFlavor::Component))
        };
        let mut refs = Vec::new();
        let mut line = 1u32;
        let mut line_start = 0usize;
        let mut i = 0;
        let mut seen: Vec<String> = Vec::new();
        while i < original.len() {
            let b = original[i];
            if b == b'\n' {
                line += 1;
                line_start = i + 1;
            } else if let Some(&(_, end)) = scripts.iter().find(|&&(from, _)| from == i) {
                // Skip the script body, counting its lines.
                line += original[i..end].iter().filter(|&&c| c == b'\n').count() as u32;
                line_start = original[..end].iter().rposition(|&c| c == b'\n').map_or(0, |p| p + 1);
                i = end;
                continue;
            } else if b == b'<' {
                let tag_start = i + 1;
                let len = original[tag_start..]
                    .iter()
                    .take_while(|&&c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_' || c == b'.')
                    .count();
                if len > 0 {
                    let tag = String::from_utf8_lossy(&original[tag_start..tag_start + len]);
                    let name = if tag.contains('-') {
                        component_name(&format!("{tag}.x"))
                    } else {
                        tag.to_string()
                    };
                    // Components start with a capital (kebab-case ones are converted); HTML tags do not.
                    if name.starts_with(|c: char| c.is_ascii_uppercase()) && bound(&name) && !seen.contains(&name) {
                        refs.push(RefFact {
                            kind: EdgeKind::Instantiates,
                            from: Some(component as u32),
                            name: name.clone(),
                            receiver: Receiver::None,
                            line,
                            col: (tag_start - line_start) as u32,
                            via: None,
                        });
                        seen.push(name);
                    }
                }
            }
            i += 1;
        }
        facts.refs.extend(refs);
    }
}

/// Option keys whose object entries are methods of the component.
const METHOD_OPTIONS: &[&str] = &["methods", "computed", "watch"];

/// Option keys that mark an object literal as Vue component options.
const VUE_OPTION_KEYS: &[&str] = &["methods", "computed", "watch", "props", "data", "mixins", "extends"];

/// Makes a script module whose default export is a Vue options object (`export default {
/// methods: { … } }`, `defineComponent({ … })`) a type named after the file, the module's default
/// export, with the options' methods and fields as members: a `mixin` that components list in
/// `mixins` or `extends`, or a `component` when the options render. Other modules are left as
/// they are.
pub(crate) fn adopt_options_module(facts: &mut FileFacts, tree: &tree_sitter::Tree, src: &[u8], path: &str) {
    // A component's script is read by the component extractor, which adopts the options itself.
    let component = matches!(Language::from_path(path), Some(Language::Vue | Language::Svelte));
    if component || facts.symbols.iter().any(|s| s.default_export) {
        return;
    }
    let Some(object) = options_object(tree.root_node()) else {
        return;
    };
    let mut cursor = object.walk();
    let keys: Vec<String> = object
        .named_children(&mut cursor)
        .filter_map(|entry| match entry.kind() {
            "pair" => entry.child_by_field_name("key"),
            "method_definition" => entry.child_by_field_name("name"),
            _ => None,
        })
        .map(|k| js_string_value(k, src))
        .collect();
    if !keys.iter().any(|k| VUE_OPTION_KEYS.contains(&k.as_str())) {
        return;
    }
    // Options that render (`render(h)`, `template:`) make a component written in plain script;
    // the others a mixin. Either spans the file, as a single-file component does, so it goes first.
    let renders = keys.iter().any(|k| k == "render" || k == "template");
    let mut sym = SymbolFact::new(component_name(path), NodeKind::Type, whole_file(src));
    sym.flavor = Some(if renders {
        TypeFlavor::Component
    } else {
        TypeFlavor::Mixin
    });
    sym.exported = true;
    sym.default_export = true;
    insert_first(facts, sym);
    adopt_options(facts, object, src);
}

/// The span of a whole file.
fn whole_file(source: &[u8]) -> Span {
    let lines = source.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
    let last_len = source.len() - source.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    Span {
        start_line: 1,
        start_col: 0,
        end_line: lines,
        end_col: last_len as u32,
    }
}

/// An `extends` reference from the component (symbol 0) to the identifier `node` names.
fn supertype(facts: &mut FileFacts, node: tree_sitter::Node<'_>, src: &[u8]) {
    if node.kind() != "identifier" {
        return;
    }
    let at = node.start_position();
    facts.refs.push(RefFact {
        kind: EdgeKind::Extends,
        from: Some(0),
        name: util::text(node, src).into_owned(),
        receiver: Receiver::None,
        line: at.row as u32 + 1,
        col: at.column as u32,
        via: None,
    });
}

/// The options object of a Vue options-API component: `export default { … }`, or the first object
/// argument of `export default defineComponent({ … })` / `Vue.extend({ … })` / any such wrapper.
fn options_object(root: tree_sitter::Node<'_>) -> Option<tree_sitter::Node<'_>> {
    let mut cursor = root.walk();
    let export = root.named_children(&mut cursor).find(|n| {
        n.kind() == "export_statement"
            && (0..n.child_count()).any(|i| n.child(i as u32).is_some_and(|c| c.kind() == "default"))
    })?;
    let value = export.child_by_field_name("value").or_else(|| {
        let mut c = export.walk();
        let found = export
            .named_children(&mut c)
            .find(|n| matches!(n.kind(), "object" | "call_expression"));
        found
    })?;
    match value.kind() {
        "object" => Some(value),
        "call_expression" => {
            let args = value.child_by_field_name("arguments")?;
            let mut c = args.walk();
            let object = args.named_children(&mut c).find(|n| n.kind() == "object");
            object
        }
        _ => None,
    }
}

/// Makes the options object's functions methods of the component (symbol 0) and its `props` and
/// `data()` keys fields of it.
fn adopt_options(facts: &mut FileFacts, object: tree_sitter::Node<'_>, src: &[u8]) {
    let mut members: Vec<tree_sitter::Node<'_>> = Vec::new();
    let mut fields: Vec<(String, tree_sitter::Node<'_>)> = Vec::new();
    let mut cursor = object.walk();
    for entry in object.named_children(&mut cursor) {
        match entry.kind() {
            // Lifecycle hooks, `data()`, `setup()`, `render()`.
            "method_definition" => {
                members.push(entry);
                let name = entry.child_by_field_name("name").map(|n| js_string_value(n, src));
                if name.as_deref() == Some("data") {
                    if let Some(body) = entry.child_by_field_name("body") {
                        data_keys(body, src, &mut fields);
                    }
                }
            }
            "pair" => {
                let (Some(key), Some(value)) = (entry.child_by_field_name("key"), entry.child_by_field_name("value"))
                else {
                    continue;
                };
                let key = js_string_value(key, src);
                match (key.as_str(), value.kind()) {
                    (k, "object") if METHOD_OPTIONS.contains(&k) => {
                        let mut c = value.walk();
                        members.extend(
                            value
                                .named_children(&mut c)
                                .filter(|m| matches!(m.kind(), "method_definition" | "pair")),
                        );
                    }
                    // Mixins and the base component: supertypes whose members `this.` reaches.
                    ("mixins", "array") => {
                        let mut c = value.walk();
                        for item in value.named_children(&mut c) {
                            supertype(facts, item, src);
                        }
                    }
                    ("extends", _) => supertype(facts, value, src),
                    ("props", "object") => object_keys(value, src, &mut fields),
                    ("props", "array") => {
                        let mut c = value.walk();
                        for item in value.named_children(&mut c).filter(|n| n.kind() == "string") {
                            fields.push((js_string_value(item, src), item));
                        }
                    }
                    _ if ecmascript::is_function_value(value.kind()) => members.push(entry),
                    _ => {}
                }
            }
            _ => {}
        }
    }
    for member in members {
        let at = util::span(member);
        let value_at = member.child_by_field_name("value").map(util::span);
        let found = facts.symbols.iter().position(|s| {
            s.parent.is_none_or(|p| p == 0)
                && matches!(s.kind, NodeKind::Function | NodeKind::Method)
                && ((s.span.start_line, s.span.start_col) == (at.start_line, at.start_col)
                    || value_at.is_some_and(|v| (s.span.start_line, s.span.start_col) == (v.start_line, v.start_col)))
        });
        if let Some(i) = found.filter(|&i| i > 0) {
            let s = &mut facts.symbols[i];
            s.parent = Some(0);
            s.kind = NodeKind::Method;
            s.exported = false;
        } else if let (Some(key), Some(value)) =
            (member.child_by_field_name("key"), member.child_by_field_name("value"))
        {
            // `name: function () {}` is no symbol of the script's own: declare it, and give it the
            // references and bindings inside it, which were the file's.
            let index = facts.symbols.len() as u32;
            let span = util::span(value);
            let mut method = SymbolFact::new(js_string_value(key, src), NodeKind::Method, util::span(member));
            method.parent = Some(0);
            method.signature = Some(util::signature(member, value.child_by_field_name("body"), src));
            facts.symbols.push(method);
            let inside = |line: u32, col: u32| {
                (line, col) >= (span.start_line, span.start_col) && (line, col) <= (span.end_line, span.end_col)
            };
            for r in facts
                .refs
                .iter_mut()
                .filter(|r| r.from.is_none() && inside(r.line, r.col))
            {
                r.from = Some(index);
            }
            for b in facts.bindings.iter_mut() {
                if b.scope.is_none() && b.line > span.start_line && b.line <= span.end_line {
                    b.scope = Some(index);
                }
            }
        }
    }
    for (name, node) in fields {
        if name.is_empty() || facts.symbols.iter().any(|s| s.parent == Some(0) && s.name == name) {
            continue;
        }
        let mut field = SymbolFact::new(name, NodeKind::Field, util::span(node));
        field.parent = Some(0);
        facts.symbols.push(field);
    }
}

/// The keys of the object literal `data()` returns (`return { a: 1, b }`), with their nodes.
fn data_keys<'t>(body: tree_sitter::Node<'t>, src: &[u8], out: &mut Vec<(String, tree_sitter::Node<'t>)>) {
    let mut cursor = body.walk();
    for statement in body.named_children(&mut cursor) {
        if statement.kind() != "return_statement" {
            continue;
        }
        let mut c = statement.walk();
        let object = statement.named_children(&mut c).find(|n| n.kind() == "object");
        if let Some(object) = object {
            object_keys(object, src, out);
        }
    }
}

/// The keys of an object literal (`{ a: 1, b }`), with their entries.
fn object_keys<'t>(object: tree_sitter::Node<'t>, src: &[u8], out: &mut Vec<(String, tree_sitter::Node<'t>)>) {
    let mut cursor = object.walk();
    for entry in object.named_children(&mut cursor) {
        let key = match entry.kind() {
            "pair" => entry.child_by_field_name("key"),
            "shorthand_property_identifier" => Some(entry),
            _ => None,
        };
        if let Some(key) = key {
            out.push((js_string_value(key, src), entry));
        }
    }
}

/// Puts `symbol` at index 0, shifting every index into the symbol list.
fn insert_first(facts: &mut FileFacts, symbol: SymbolFact) {
    for s in facts.symbols.iter_mut() {
        s.parent = s.parent.map(|p| p + 1);
    }
    for r in facts.refs.iter_mut() {
        r.from = r.from.map(|f| f + 1);
    }
    for b in facts.bindings.iter_mut() {
        b.scope = b.scope.map(|s| s + 1);
    }
    facts.symbols.insert(0, symbol);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_script_ranges() {
        assert_eq!(component_name("src/components/user-card.vue"), "UserCard");
        assert_eq!(component_name("routes/+page.svelte"), "Page");
        assert_eq!(component_name("App.vue"), "App");
        let src = b"<template><div/></template>\n<!-- <script>no</script> -->\n<script setup lang=\"ts\">\nlet a = 1\n</script>\n<scripts>";
        let ranges = script_ranges(src);
        assert_eq!(ranges.len(), 1);
        assert_eq!(&src[ranges[0].0..ranges[0].1], b"\nlet a = 1\n");
    }
}
