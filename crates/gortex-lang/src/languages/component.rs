//! Vue and Svelte single-file components: the `<script>` blocks (`<script setup>`, Svelte's
//! `<script context="module">`) are parsed as TypeScript in place — everything else is blanked
//! to spaces first, so lines and columns are the file's own. The component itself is a `type`
//! of flavor `component` named after the file (`user-card.vue` → `UserCard`), the file's
//! default export unless the script declares one; components its template renders
//! (`<UserCard>`, `<user-card>`) that the script imports or declares are `instantiates`
//! references from it. Markup, styles and template expressions are not code here.

use super::ecmascript;
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
        let lines = source.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
        let last_len = source.len() - source.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        let span = Span {
            start_line: 1,
            start_col: 0,
            end_line: lines,
            end_col: last_len as u32,
        };
        let mut sym = SymbolFact::new(component_name(ctx.path), NodeKind::Type, span);
        sym.flavor = Some(TypeFlavor::Component);
        sym.exported = true;
        sym.default_export = !facts.symbols.iter().any(|s| s.default_export);
        facts.symbols.push(sym);
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
