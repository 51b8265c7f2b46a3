//! Random edits to a copy of the resolver fixtures, shared by the properties that compare an
//! updated or overlaid index with a clean one.

use proptest::prelude::*;
use std::path::Path;

#[derive(Debug, Clone)]
pub enum Edit {
    /// Append a declaration that calls names defined elsewhere.
    Append {
        file: usize,
        n: u32,
    },
    /// Replace a file's content with a tiny variant that drops its declarations.
    Gut {
        file: usize,
    },
    Delete {
        file: usize,
    },
    Rename {
        file: usize,
    },
    Add {
        lang: usize,
        n: u32,
    },
    /// Rename every occurrence of a cross-file name inside one file (a definition or its uses).
    RenameIdent {
        file: usize,
        ident: usize,
    },
    /// Insert blank lines at the top or in the middle: every span below moves, no name changes.
    Shift {
        file: usize,
        middle: bool,
    },
    /// Append blank lines at the end: the content changes, no extractor sees it (the graph is
    /// carried over rather than built).
    Trail {
        file: usize,
    },
    /// Add a file that imports and calls what `Add { n: m }` would create (maybe not yet there).
    Importer {
        lang: usize,
        n: u32,
        m: u32,
    },
}

/// Names that cross files in the fixtures: renaming them in one file breaks or moves bindings elsewhere.
pub const IDENTS: &[&str] = &[
    "shared",
    "deep",
    "acme",
    "inner",
    "helper",
    "openStore",
    "Store",
    "save",
    "validate",
    "open",
    "Open",
    "User",
    "create",
    "lookup",
    "get",
    "close",
    "Get",
    "BaseStore",
    "Base",
    "run",
    "Admin",
    "kv_open",
    "kv_store",
    "Shape",
    "internal_log",
    "Twice",
    "MemoryStore",
    "describe",
    "Order",
    "audit",
    "Shop",
    "Money",
    "fetchUser",
    "users",
    "web",
    "log_info",
    "info",
    "count",
];

pub fn edit_strategy() -> impl Strategy<Value = Edit> {
    prop_oneof![
        3 => (0usize..64, 0u32..8).prop_map(|(file, n)| Edit::Append { file, n }),
        1 => (0usize..64).prop_map(|file| Edit::Gut { file }),
        1 => (0usize..64).prop_map(|file| Edit::Delete { file }),
        1 => (0usize..64).prop_map(|file| Edit::Rename { file }),
        2 => (0usize..14, 0u32..8).prop_map(|(lang, n)| Edit::Add { lang, n }),
        3 => (0usize..64, 0usize..IDENTS.len()).prop_map(|(file, ident)| Edit::RenameIdent { file, ident }),
        2 => (0usize..14, 0u32..4, 0u32..8).prop_map(|(lang, n, m)| Edit::Importer { lang, n, m }),
        2 => (0usize..64, any::<bool>()).prop_map(|(file, middle)| Edit::Shift { file, middle }),
        1 => (0usize..64).prop_map(|file| Edit::Trail { file }),
    ]
}

pub fn source_files(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if let Some(rel) = gortex_index::walk::relative(root, &p) {
                if gortex_core::Language::from_path(&rel).is_some() {
                    out.push(rel);
                }
            }
        }
    }
    out.sort();
    out
}

pub fn snippet(path: &str, n: u32) -> String {
    match path.rsplit('.').next().unwrap_or("") {
        "ts" => format!(
            "\nexport function gen{n}(): void {{ helper(); openStore(); gen{}(); }}\n",
            n / 2
        ),
        "py" => format!(
            "\n\ndef gen{n}():\n    helper()\n    create()\n    return gen{}()\n",
            n / 2
        ),
        "go" => format!("\nfunc Gen{n}() {{ helper(); Open(); Gen{}() }}\n", n / 2),
        "rs" => format!("\npub fn gen{n}() {{ helper(); open(); gen{}(); }}\n", n / 2),
        "rb" => format!("\ndef gen{n}\n  audit(1)\n  gen{}(2)\nend\n", n / 2),
        "php" => format!("\nfunction gen{n}() {{ helper(); gen{}(); }}\n", n / 2),
        "kt" => format!("\nfun gen{n}() {{ twice(1); gen{}() }}\n", n / 2),
        "c" | "cpp" | "h" => format!(
            "\nint gen{n}(void) {{ kv_open(\"x\"); internal_log(\"y\"); return gen{}(); }}\n",
            n / 2
        ),
        "proto" => format!("\nmessage Gen{n} {{ Money m = 1; Gen{} g = 2; }}\n", n / 2),
        "sql" => format!(
            "\nCREATE TABLE gen{n} (id INT REFERENCES users (id), o INT REFERENCES gen{});\n",
            n / 2
        ),
        "md" => format!("\n## Gen {n}\n\nMore text.\n"),
        "lua" => format!("\nfunction gen{n}() print(1); gen{}() end\n", n / 2),
        "sh" => format!("\ngen{n}() {{ log_info x; gen{}; }}\n", n / 2),
        // After `</script>`: markup, not code.
        "vue" | "svelte" => format!("\n<p>gen {n}</p>\n"),
        _ => String::new(), // Java: appending after the class body is a syntax error; Gut/Add cover it.
    }
}

/// Applies an edit; returns the repo-relative paths it touched.
pub fn apply(root: &Path, edit: &Edit) -> Vec<String> {
    let files = source_files(root);
    if files.is_empty() {
        return Vec::new();
    }
    match edit {
        Edit::Append { file, n } => {
            let rel = &files[file % files.len()];
            let mut text = std::fs::read_to_string(root.join(rel)).unwrap_or_default();
            text.push_str(&snippet(rel, *n));
            std::fs::write(root.join(rel), text).unwrap();
            vec![rel.clone()]
        }
        Edit::Gut { file } => {
            let rel = &files[file % files.len()];
            let body = match rel.rsplit('.').next().unwrap_or("") {
                "go" => "package main\n".to_string(),
                "java" => "package com.acme;\nclass Gutted {}\n".to_string(),
                "cs" => "namespace Acme.App { class Gutted {} }\n".to_string(),
                "kt" => "package com.acme.app\n".to_string(),
                "php" => "<?php\nnamespace App\\Support;\n".to_string(),
                _ => String::new(),
            };
            std::fs::write(root.join(rel), body).unwrap();
            vec![rel.clone()]
        }
        Edit::Delete { file } => {
            let rel = files[file % files.len()].clone();
            std::fs::remove_file(root.join(&rel)).unwrap();
            vec![rel]
        }
        Edit::Rename { file } => {
            let rel = files[file % files.len()].clone();
            // `Dockerfile` and other extension-less files are renamed too.
            let to = match rel.rsplit_once('.').filter(|(_, ext)| !ext.contains('/')) {
                Some((stem, ext)) => format!("{stem}_moved.{ext}"),
                None => format!("{rel}_moved"),
            };
            std::fs::rename(root.join(&rel), root.join(&to)).unwrap();
            vec![rel, to]
        }
        Edit::RenameIdent { file, ident } => {
            let rel = &files[file % files.len()];
            let text = std::fs::read_to_string(root.join(rel)).unwrap_or_default();
            let name = IDENTS[*ident];
            let renamed = replace_word(&text, name, &format!("{name}X"));
            std::fs::write(root.join(rel), renamed).unwrap();
            vec![rel.clone()]
        }
        Edit::Shift { file, middle } => {
            let rel = &files[file % files.len()];
            let text = std::fs::read_to_string(root.join(rel)).unwrap_or_default();
            let at = if *middle {
                let breaks: Vec<usize> = text.match_indices('\n').map(|(i, _)| i + 1).collect();
                breaks.get(breaks.len() / 2).copied().unwrap_or(0)
            } else {
                0
            };
            std::fs::write(root.join(rel), format!("{}\n\n{}", &text[..at], &text[at..])).unwrap();
            vec![rel.clone()]
        }
        Edit::Trail { file } => {
            let rel = &files[file % files.len()];
            let text = std::fs::read_to_string(root.join(rel)).unwrap_or_default();
            std::fs::write(root.join(rel), format!("{text}\n\n")).unwrap();
            vec![rel.clone()]
        }
        Edit::Importer { lang, n, m } => {
            let (rel, body) = match lang {
                0 => (
                    format!("ts/src/use{n}.ts"),
                    format!("import {{ added{m} }} from './added{m}';\nexport function use{n}() {{ added{m}(); }}\n"),
                ),
                1 => (
                    format!("py/pkg/use{n}.py"),
                    format!("from .added{m} import added{m}\n\ndef use{n}():\n    added{m}()\n"),
                ),
                2 => (
                    format!("go/use{n}.go"),
                    format!("package main\n\nfunc Use{n}() {{ Added{m}() }}\n"),
                ),
                3 => (
                    format!("rust/src/use{n}.rs"),
                    format!("use crate::added{m}::added{m};\npub fn use{n}() {{ added{m}(); }}\n"),
                ),
                12 => (
                    format!("lua/lua/shop/use{n}.lua"),
                    format!("local a = require(\"shop.added{m}\")\nlocal function use{n}() return a.added{m}() end\n"),
                ),
                13 => (
                    format!("bash/use{n}.sh"),
                    format!("source ./lib/added{m}.sh\nuse{n}() {{ added{m}; }}\n"),
                ),
                // A proto import found by its path's suffix (no proto root is configured).
                10 => (
                    format!("polyglot/proto/use{n}.proto"),
                    format!("syntax = \"proto3\";\nimport \"shop/v1/added{m}.proto\";\nmessage Use{n} {{ Added{m} a = 1; }}\n"),
                ),
                11 => (
                    format!("polyglot/web/src/Use{n}.vue"),
                    format!("<template><Added{m} /></template>\n<script setup lang=\"ts\">\nimport Added{m} from './components/Added{m}.vue';\n</script>\n"),
                ),
                // Found by file name from another directory (include targets are diffed per build).
                9 => (
                    format!("ruby/lib/shop/use{n}.rb"),
                    format!("require_relative \"added{m}\"\n\nmodule Shop\n  class Use{n}\n    def go\n      Added{m}.new.run\n    end\n  end\nend\n"),
                ),
                8 => (
                    format!("php/src/Models/Use{n}.php"),
                    format!("<?php\nnamespace App\\Models;\n\nuse App\\Support\\Added{m};\n\nfunction use{n}() {{ (new Added{m}())->run(); }}\n"),
                ),
                7 => (
                    format!("kotlin/src/main/kotlin/com/acme/store/Use{n}.kt"),
                    format!("package com.acme.store\n\nimport com.acme.app.added{m}\n\nfun use{n}() {{ added{m}() }}\n"),
                ),
                // A namespace imported with `using` (its files come and go).
                6 => (
                    format!("csharp/src/Store/Use{n}.cs"),
                    format!(
                        "using Acme.App;\nnamespace Acme.Store {{\n    class Use{n} {{ void M() {{ new Added{m}().M(); }} }}\n}}\n"
                    ),
                ),
                5 => (
                    format!("cfamily/app/use{n}.c"),
                    format!("#include \"added{m}.h\"\nint use{n}(void) {{ return added{m}(); }}\n"),
                ),
                _ => (
                    format!("java/src/main/java/com/acme/Use{n}.java"),
                    format!(
                        "package com.acme;\n\npublic class Use{n} {{\n    void m() {{ new Added{m}().m(); }}\n}}\n"
                    ),
                ),
            };
            let p = root.join(&rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, body).unwrap();
            vec![rel]
        }
        Edit::Add { lang, n } => {
            let (rel, body) = match lang {
                0 => (
                    format!("ts/src/added{n}.ts"),
                    format!("import {{ helper }} from './lib';\nexport function added{n}() {{ helper(); }}\n"),
                ),
                1 => (
                    format!("py/pkg/added{n}.py"),
                    format!("from .util import helper\n\ndef added{n}():\n    helper()\n"),
                ),
                2 => (
                    format!("go/added{n}.go"),
                    format!("package main\n\nfunc Added{n}() {{ helper() }}\n"),
                ),
                3 => (
                    format!("rust/src/added{n}.rs"),
                    format!("pub fn added{n}() {{ crate::store::open(); }}\n"),
                ),
                12 => (
                    format!("lua/lua/shop/added{n}.lua"),
                    format!("local log = require(\"shop.log\")\nlocal M = {{}}\nfunction M.added{n}() log.info(\"x\") end\nreturn M\n"),
                ),
                13 => (
                    format!("bash/lib/added{n}.sh"),
                    format!("added{n}() {{ log_info added; }}\n"),
                ),
                10 => (
                    format!("polyglot/proto/shop/v1/added{n}.proto"),
                    format!("syntax = \"proto3\";\nimport \"shop/v1/money.proto\";\nmessage Added{n} {{ Money m = 1; }}\n"),
                ),
                11 => (
                    format!("polyglot/web/src/components/Added{n}.vue"),
                    format!("<script lang=\"ts\">\nimport {{ fetchUser }} from '../api';\nexport function added{n}() {{ return fetchUser('x'); }}\n</script>\n"),
                ),
                9 => (
                    format!("ruby/lib/shop/added{n}.rb"),
                    format!("module Shop\n  class Added{n} < BaseService\n    def run\n      audit(1)\n    end\n  end\nend\n"),
                ),
                8 => (
                    format!("php/src/Support/Added{n}.php"),
                    format!("<?php\nnamespace App\\Support;\n\nclass Added{n} {{ public function run() {{ helper(); }} }}\n"),
                ),
                7 => (
                    format!("kotlin/src/main/kotlin/com/acme/app/Added{n}.kt"),
                    format!("package com.acme.app\n\nfun added{n}() {{ twice(1) }}\n"),
                ),
                6 => (
                    format!("csharp/src/App/Added{n}.cs"),
                    format!(
                        "namespace Acme.App {{\n    public class Added{n} {{ public void M() {{ Helper.Twice(1); }} }}\n}}\n"
                    ),
                ),
                5 => (
                    format!("cfamily/src/added{n}.h"),
                    format!(
                        "#include \"kv/kv.h\"\nstatic inline int added{n}(void) {{ return kv_open(\"a\") != 0; }}\n"
                    ),
                ),
                _ => (
                    format!("java/src/main/java/com/acme/Added{n}.java"),
                    format!("package com.acme;\n\npublic class Added{n} {{\n    void m() {{ new App().run(); }}\n}}\n"),
                ),
            };
            let p = root.join(&rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, body).unwrap();
            vec![rel]
        }
    }
}

/// Replaces whole-word occurrences of `word`.
pub fn replace_word(text: &str, word: &str, with: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let bytes = text.as_bytes();
    let mut i = 0;
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    while i < text.len() {
        if text[i..].starts_with(word)
            && (i == 0 || !is_ident(bytes[i - 1]))
            && bytes.get(i + word.len()).is_none_or(|&b| !is_ident(b))
        {
            out.push_str(with);
            i += word.len();
        } else {
            let ch = text[i..].chars().next().unwrap();
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}
