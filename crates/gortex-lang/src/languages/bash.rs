//! Bash dialect of the tagged engine: queries in `grammars/bash/`.
//!
//! Functions and top-level variables are declarations; every command is a call (the resolver
//! binds it to a function or to the external program); `source x` / `. x` import a script,
//! with a leading directory expansion (`"$(dirname "$0")/lib.sh"`, `"${BASH_SOURCE%/*}/x"`,
//! `$DIR/x`) read as "beside this script".

use super::tagged::{strip_quotes, tag_queries, Dialect, ImportMatch, TagQueries, Tagged};
use crate::util::{self, Parents};
use gortex_core::{DocComment, ImportFact, Language, NodeKind, SymbolFact, Visibility};
use tree_sitter::Node;

/// The Bash dialect.
pub(crate) struct Bash;

/// The path a `source` argument names: `"$(dirname "$0")/lib/x.sh"` → `./lib/x.sh` (beside the
/// script); `$LIB_DIR/x.sh` → `x.sh` (found by its path's suffix); `lib/x.sh` as written; a bare
/// variable or a home-directory file → none.
pub(crate) fn source_path(written: &str) -> Option<String> {
    let t = strip_quotes(written.trim());
    if !t.contains('$') {
        return (!t.is_empty()).then(|| t.to_string());
    }
    // The path is what follows the `/` after the last expansion.
    let last_expansion = t.rfind(['}', ')']).max(t.rfind('$'))?;
    let rest = &t[last_expansion..];
    let slash = rest.find('/')?;
    let path = rest[slash + 1..].trim_matches('"');
    if path.is_empty() || path.contains('$') {
        return None;
    }
    let prefix = &t[..last_expansion + slash];
    if prefix.contains("dirname") || prefix.contains("BASH_SOURCE") || prefix.contains("$0") {
        Some(format!("./{path}"))
    } else if prefix.contains("HOME") || prefix.contains("XDG_") {
        None
    } else {
        Some(path.to_string())
    }
}

impl Dialect for Bash {
    fn language(&self) -> Language {
        Language::Bash
    }

    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_bash::LANGUAGE.into()
    }

    fn queries(&self) -> &'static TagQueries {
        tag_queries!(self.grammar(), "bash")
    }

    fn separators(&self) -> &'static [&'static str] {
        // Function names may contain `.` and `::` (`lib::log`); they are never qualified.
        &[]
    }

    fn self_names(&self) -> &'static [&'static str] {
        &[]
    }

    fn super_names(&self) -> &'static [&'static str] {
        &[]
    }

    fn doc(&self, raw: &str) -> Option<DocComment> {
        let text: Vec<&str> = raw.lines().map(|l| l.trim().trim_start_matches('#').trim()).collect();
        util::doc_comment(&text.join("\n"))
    }

    fn decorate<'t>(&self, sym: &mut SymbolFact, decl: Node<'t>, src: &[u8], _parents: &Parents<'t>) -> bool {
        if sym.kind == NodeKind::Variable {
            let text = util::text(decl, src);
            let keyword = text.split_whitespace().next().unwrap_or("");
            if keyword == "readonly" || (keyword == "declare" && text.contains(" -r")) {
                sym.kind = NodeKind::Constant;
            }
            sym.exported = keyword == "export";
            sym.visibility = Some(if sym.exported {
                Visibility::Public
            } else {
                Visibility::Private
            });
        } else {
            sym.exported = true;
        }
        true
    }

    fn imports(&self, m: &ImportMatch<'_>, src: &[u8], out: &mut Vec<ImportFact>) {
        let Some(module) = m.module else { return };
        if let Some(path) = source_path(&util::text(module, src)) {
            out.push(ImportFact::wildcard(path, util::line(m.node)));
        }
    }
}

pub(crate) fn extractor() -> &'static dyn crate::Extractor {
    static E: Tagged<Bash> = Tagged(Bash);
    &E
}

#[cfg(test)]
mod tests {
    use super::source_path;

    #[test]
    fn source_paths() {
        assert_eq!(source_path("lib/log.sh").as_deref(), Some("lib/log.sh"));
        assert_eq!(
            source_path("\"$(dirname \"$0\")/lib/log.sh\"").as_deref(),
            Some("./lib/log.sh")
        );
        assert_eq!(
            source_path("\"${BASH_SOURCE%/*}/common.sh\"").as_deref(),
            Some("./common.sh")
        );
        assert_eq!(source_path("$LIB_DIR/util.sh").as_deref(), Some("util.sh"));
        assert_eq!(source_path("\"$CONFIG\""), None);
        assert_eq!(source_path("$HOME/.bashrc"), None);
    }
}
