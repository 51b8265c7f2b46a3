//! Shared helpers for the per-language extraction tests: run the real extractor on a fixture
//! and render its facts as stable, reviewable text for `insta` snapshots.

#![allow(dead_code)]

use gortex_core::{BindingValue, EdgeKind, FileFacts, ImportKind, Language, Receiver, SymbolFact};
use gortex_lang::{extract_file, FileContext, DEFAULT_PARSE_BUDGET};
use std::fmt::Write;

/// Extracts `source` as if it lived at `path`.
pub fn extract(language: Language, path: &str, source: &str) -> FileFacts {
    let is_test_file = path.contains("test") || path.contains("spec");
    let ctx = FileContext { path, is_test_file };
    extract_file(language, source.as_bytes(), &ctx, DEFAULT_PARSE_BUDGET).expect("extraction succeeds")
}

/// Extracts `source`, or `None` when a per-file limit refuses it (too deep, too costly to query,
/// over the time budget); any other error fails the test.
pub fn extract_within_limits(language: Language, path: &str, source: &str) -> Option<FileFacts> {
    let ctx = FileContext {
        path,
        is_test_file: false,
    };
    match extract_file(language, source.as_bytes(), &ctx, DEFAULT_PARSE_BUDGET) {
        Ok(facts) => Some(facts),
        Err(e) if e.is_over_limit() => None,
        Err(e) => panic!("{path} failed for a reason that is no limit: {e}"),
    }
}

/// Reads a fixture under `tests/fixtures/` and extracts it.
pub fn extract_fixture(language: Language, rel: &str) -> FileFacts {
    let full = format!("{}/tests/fixtures/{rel}", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("read {full}: {e}"));
    extract(language, rel, &source)
}

/// The symbol with this qualified name; panics with the rendered facts when there is none.
pub fn sym<'a>(facts: &'a FileFacts, qname: &str) -> &'a SymbolFact {
    let i = (0..facts.symbols.len() as u32)
        .find(|&i| qualified(facts, i) == qname)
        .unwrap_or_else(|| panic!("no symbol {qname} in:\n{}", render(facts)));
    &facts.symbols[i as usize]
}

/// Whether a symbol with this qualified name exists.
pub fn has_sym(facts: &FileFacts, qname: &str) -> bool {
    (0..facts.symbols.len() as u32).any(|i| qualified(facts, i) == qname)
}

/// Asserts a reference of `kind` from the symbol `from` (`<file>` for file level) to `name`.
pub fn assert_ref(facts: &FileFacts, kind: EdgeKind, from: &str, name: &str, receiver: Receiver) {
    let found = facts.refs.iter().any(|r| {
        r.kind == kind
            && r.name == name
            && r.receiver == receiver
            && r.from.map(|f| qualified(facts, f)).unwrap_or_else(|| "<file>".into()) == from
    });
    assert!(
        found,
        "missing {kind} {from} -> {name} {receiver:?} in:\n{}",
        render(facts)
    );
}

/// Imports as (module, kind, name, local), in order.
pub fn imports_of(facts: &FileFacts) -> Vec<(&str, ImportKind, Option<&str>, Option<&str>)> {
    facts
        .imports
        .iter()
        .map(|i| (i.module.as_str(), i.kind, i.name.as_deref(), i.local.as_deref()))
        .collect()
}

/// The qualified name (`Owner.name`) of symbol `i`.
pub fn qualified(facts: &FileFacts, i: u32) -> String {
    let mut parts = vec![facts.symbols[i as usize].name.clone()];
    let mut cur = facts.symbols[i as usize].parent;
    while let Some(p) = cur {
        parts.push(facts.symbols[p as usize].name.clone());
        cur = facts.symbols[p as usize].parent;
    }
    parts.reverse();
    parts.join(".")
}

fn receiver(r: &Receiver) -> String {
    match r {
        Receiver::None => String::new(),
        Receiver::SelfRef => " recv=self".into(),
        Receiver::Super => " recv=super".into(),
        Receiver::Name(n) => format!(" recv={n}"),
        Receiver::Path(p) => format!(" recv={}", p.join("::")),
        Receiver::SelfField(f) => format!(" recv=self.{f}"),
        Receiver::Call(c) => format!(" recv={c}()"),
        Receiver::Chain(inner, c) => format!("{}.{c}()", receiver(inner)),
        Receiver::Expr => " recv=<expr>".into(),
    }
}

/// Renders facts one per line, in extraction order, for snapshot review.
pub fn render(facts: &FileFacts) -> String {
    let mut out = String::new();
    if let Some(p) = &facts.package {
        writeln!(out, "package {p}").unwrap();
    }
    if let Some(r) = facts.test_runner {
        writeln!(out, "test_runner {r}").unwrap();
    }
    if facts.syntax_errors > 0 {
        writeln!(out, "syntax_errors {}", facts.syntax_errors).unwrap();
    }
    for (i, s) in facts.symbols.iter().enumerate() {
        let mut line = format!(
            "{} {} L{}-{}",
            s.kind,
            qualified(facts, i as u32),
            s.span.start_line,
            s.span.end_line
        );
        if let Some(f) = s.flavor {
            write!(line, " flavor={f}").unwrap();
        }
        if let Some(u) = s.ui {
            write!(line, " ui={u}").unwrap();
        }
        if let Some(v) = s.visibility {
            write!(line, " vis={v}").unwrap();
        }
        if s.exported {
            line.push_str(" exported");
        }
        if s.default_export {
            line.push_str(" default");
        }
        if s.is_async {
            line.push_str(" async");
        }
        if s.is_static {
            line.push_str(" static");
        }
        if s.is_abstract {
            line.push_str(" abstract");
        }
        if let Some(t) = &s.type_name {
            write!(line, " type={t}").unwrap();
        }
        if let Some(t) = &s.return_type {
            write!(line, " returns={t}").unwrap();
        }
        if let Some(r) = s.test_role {
            write!(line, " test={r}").unwrap();
        }
        if !s.decorators.is_empty() {
            write!(line, " decorators=[{}]", s.decorators.join(",")).unwrap();
        }
        if let Some(sig) = &s.signature {
            write!(line, "\n    sig: {sig}").unwrap();
        }
        if let Some(doc) = &s.doc {
            write!(line, "\n    doc: {doc}").unwrap();
        }
        writeln!(out, "{line}").unwrap();
    }
    for im in &facts.imports {
        let mut line = format!("import {:?} {}", im.kind, im.module);
        if let Some(n) = &im.name {
            write!(line, " name={n}").unwrap();
        }
        if let Some(l) = &im.local {
            write!(line, " local={l}").unwrap();
        }
        if im.reexport {
            line.push_str(" reexport");
        }
        if im.type_only {
            line.push_str(" type_only");
        }
        writeln!(out, "{line} L{}", im.line).unwrap();
    }
    for r in &facts.refs {
        let from = r.from.map(|f| qualified(facts, f)).unwrap_or_else(|| "<file>".into());
        let via = r.via.map(|v| format!(" via={v}")).unwrap_or_default();
        writeln!(
            out,
            "{} {} -> {}{} L{}{via}",
            r.kind,
            from,
            r.name,
            receiver(&r.receiver),
            r.line
        )
        .unwrap();
    }
    for b in &facts.bindings {
        let scope = b.scope.map(|f| qualified(facts, f)).unwrap_or_else(|| "<file>".into());
        let value = match &b.value {
            BindingValue::Type { name } => format!("type {name}"),
            BindingValue::Call { receiver: r, name } => format!("call {name}(){}", receiver(r)),
            BindingValue::Callback {
                receiver: r,
                callee,
                arg,
                param,
            } => format!("callback {callee}() arg {arg} param {param}{}", receiver(r)),
        };
        writeln!(out, "binding {scope}: {} = {value} L{}", b.name, b.line).unwrap();
    }
    out
}

/// Runs `f` on a thread with a 2 MiB stack (the default for spawned threads), so a test fails
/// loudly if extraction recurses on tree depth. Returns what `f` returns.
pub fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(f)
        .expect("spawn test thread")
        .join()
        .expect("extraction finished without a stack overflow")
}
