//! Scala dialect of the tagged engine: queries in `grammars/scala/`.
//!
//! Packages and imports work as Java's (the resolver shares that machinery): `import a.b.C`,
//! `import a.b._` / `a.b.*`, selectors `import a.b.{C, D => E}` and Scala 3's `as` renames. A
//! `case class` is a record; an `object`'s members are static; `val`/`var` inside blocks are
//! locals, not declarations; `private`/`protected` modifiers set visibility (public otherwise).

use super::tagged::{annotation_name, keyword_visibility, tag_queries, Dialect, ImportMatch, TagQueries, Tagged};
use crate::util::{self, Parents};
use gortex_core::{EdgeKind, ImportFact, Language, NodeKind, SymbolFact, TypeFlavor};
use tree_sitter::Node;

/// The Scala dialect.
pub(crate) struct Scala;

/// Import facts of one `import` statement's text (without the keyword).
pub(crate) fn scala_imports(body: &str, line: u32, out: &mut Vec<ImportFact>) {
    // `import a.b.C, x.y.Z`: clauses separated by commas outside braces.
    let mut depth = 0;
    let mut start = 0;
    let mut clauses = Vec::new();
    for (i, c) in body.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                clauses.push(&body[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    clauses.push(&body[start..]);
    for clause in clauses {
        let clause: String = clause.split_whitespace().collect::<Vec<_>>().join(" ");
        let clause = clause.trim();
        if let Some(open) = clause.find('{') {
            let module = clause[..open].trim().trim_end_matches('.').to_string();
            let inner = clause[open + 1..].trim_end_matches('}');
            for selector in inner.split(',') {
                selector_import(&module, selector.trim(), line, out);
            }
        } else if let Some((module, last)) = clause.rsplit_once('.') {
            selector_import(module.trim(), last.trim(), line, out);
        }
    }
}

/// One selector of `module`: `_`/`*` (everything), `C`, `D => E` / `D as E` (renamed), `D => _`
/// (hidden).
fn selector_import(module: &str, selector: &str, line: u32, out: &mut Vec<ImportFact>) {
    if module.is_empty() || selector.is_empty() {
        return;
    }
    if selector == "_" || selector == "*" || selector.starts_with("given") {
        out.push(ImportFact::wildcard(module, line));
        return;
    }
    let (name, alias) = match selector.split_once("=>").or_else(|| selector.split_once(" as ")) {
        Some((n, a)) => (n.trim(), a.trim()),
        None => (selector, selector),
    };
    if alias == "_" || name.is_empty() {
        return;
    }
    let name = name.trim_start_matches("`").trim_end_matches('`');
    out.push(ImportFact::named(module, name, alias, line));
}

impl Dialect for Scala {
    fn language(&self) -> Language {
        Language::Scala
    }

    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_scala::LANGUAGE.into()
    }

    fn queries(&self) -> &'static TagQueries {
        tag_queries!(self.grammar(), "scala")
    }

    fn separators(&self) -> &'static [&'static str] {
        &["."]
    }

    fn decorate<'t>(&self, sym: &mut SymbolFact, decl: Node<'t>, src: &[u8], parents: &Parents<'t>) -> bool {
        // Where the declaration lives: a template (class/object/trait body), the file, or a block.
        let mut cur = parents.parent(decl);
        let mut in_object = false;
        let mut top_level = false;
        let mut steps = 0;
        while let Some(p) = cur {
            match p.kind() {
                // A `val` or a nested `def` inside a method body is a local (local classes stay).
                "block" | "indented_block" | "lambda_expression" | "case_clause" | "function_definition"
                    if !sym.kind.is_type_like() =>
                {
                    return false;
                }
                "object_definition" => {
                    in_object = true;
                    break;
                }
                "class_definition" | "trait_definition" | "enum_definition" => break,
                "compilation_unit" => {
                    top_level = true;
                    break;
                }
                _ => {}
            }
            steps += 1;
            if steps > 64 {
                break;
            }
            cur = parents.parent(p);
        }
        let mut words: Vec<String> = Vec::new();
        let mut c = decl.walk();
        for child in decl.children(&mut c) {
            match child.kind() {
                "modifiers" => {
                    let mut c2 = child.walk();
                    for m in child.children(&mut c2) {
                        let text = util::text(m, src);
                        words.extend(
                            text.split_whitespace()
                                .map(|w| w.split('[').next().unwrap_or(w).to_string()),
                        );
                    }
                }
                "annotation" => {
                    sym.decorators.push(annotation_name(&util::text(child, src)));
                }
                "case" => words.push("case".into()),
                _ => {}
            }
        }
        let has = |w: &str| words.iter().any(|x| x == w);
        match decl.kind() {
            "class_definition" if has("case") || util::text(decl, src).trim_start().starts_with("case ") => {
                sym.flavor = Some(TypeFlavor::Record)
            }
            "object_definition" => sym.is_static = true,
            _ => {}
        }
        if matches!(sym.kind, NodeKind::Field) && top_level {
            sym.kind = NodeKind::Variable;
        }
        keyword_visibility(sym, has);
        sym.is_abstract = has("abstract") || decl.kind() == "function_declaration";
        sym.is_static = sym.is_static || in_object;
        true
    }

    fn ref_kind(&self, kind: EdgeKind, name: &str) -> EdgeKind {
        // `Order(1, "a")`: a capitalised callee is a case class (its companion's `apply`).
        if kind == EdgeKind::Calls && name.starts_with(|c: char| c.is_ascii_uppercase()) {
            EdgeKind::Instantiates
        } else {
            kind
        }
    }

    fn imports(&self, m: &ImportMatch<'_>, src: &[u8], out: &mut Vec<ImportFact>) {
        let text = util::text(m.node, src);
        let body = text.trim().trim_start_matches("import").trim();
        scala_imports(body, util::line(m.node), out);
    }
}

pub(crate) fn extractor() -> &'static dyn crate::Extractor {
    static E: Tagged<Scala> = Tagged(Scala);
    &E
}

#[cfg(test)]
mod tests {
    use super::scala_imports;
    use gortex_core::ImportKind;

    fn rendered(body: &str) -> Vec<String> {
        let mut out = Vec::new();
        scala_imports(body, 1, &mut out);
        out.iter()
            .map(|i| match i.kind {
                ImportKind::Wildcard => format!("{}._", i.module),
                _ => format!(
                    "{}.{} as {}",
                    i.module,
                    i.name.as_deref().unwrap_or("?"),
                    i.local.as_deref().unwrap_or("?")
                ),
            })
            .collect()
    }

    #[test]
    fn import_forms() {
        assert_eq!(rendered("a.b.C"), vec!["a.b.C as C"]);
        assert_eq!(rendered("a.b._"), vec!["a.b._"]);
        assert_eq!(rendered("a.b.*"), vec!["a.b._"]);
        assert_eq!(
            rendered("a.b.{C, D => E, F => _, _}"),
            vec!["a.b.C as C", "a.b.D as E", "a.b._"]
        );
        assert_eq!(rendered("a.b.C as D"), vec!["a.b.C as D"]);
        assert_eq!(rendered("a.b.C, x.y.Z"), vec!["a.b.C as C", "x.y.Z as Z"]);
        assert!(rendered("").is_empty());
    }
}
