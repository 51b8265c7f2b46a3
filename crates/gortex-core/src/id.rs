//! Human-readable, stable node ids: `<repo>/<path>::<Owner>.<name>`.

/// The id of a file node: `<repo>/<path>`.
pub fn file_id(repo: &str, path: &str) -> String {
    if repo.is_empty() {
        path.to_string()
    } else {
        format!("{repo}/{path}")
    }
}

/// The id of a symbol: `<repo>/<path>::<qualified>` where `qualified` is `Owner.name`.
pub fn symbol_id(repo: &str, path: &str, qualified: &str) -> String {
    format!("{}::{}", file_id(repo, path), qualified)
}

/// The id of an external stub (a module or symbol outside the repository).
pub fn external_id(module: &str) -> String {
    format!("external::{module}")
}

/// Splits a symbol id into its file id and qualified name.
pub fn split_symbol_id(id: &str) -> Option<(&str, &str)> {
    id.split_once("::")
}

/// The enclosing owner (`Foo` of `a.ts::Foo.bar`) derived from the id alone.
pub fn enclosing_from_id(id: &str) -> Option<&str> {
    let (_, qualified) = split_symbol_id(id)?;
    let qualified = qualified.split("_L").next().unwrap_or(qualified);
    qualified.rsplit_once('.').map(|(owner, _)| owner)
}

/// Whether two shared strings (paths, ids) are equal, by address first: `Arc<str>`'s `==`
/// always compares the bytes, and builds compare tens of thousands of shared paths per pass
/// whose bytes sit scattered in memory after a cold index.
pub fn same_text(a: &std::sync::Arc<str>, b: &std::sync::Arc<str>) -> bool {
    std::sync::Arc::ptr_eq(a, b) || a == b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_have_the_documented_shape() {
        assert_eq!(file_id("app", "src/a.ts"), "app/src/a.ts");
        assert_eq!(symbol_id("app", "src/a.ts", "Foo.bar"), "app/src/a.ts::Foo.bar");
        assert_eq!(enclosing_from_id("app/src/a.ts::Foo.bar"), Some("Foo"));
        assert_eq!(enclosing_from_id("app/src/a.ts::bar"), None);
    }

    #[test]
    fn shared_texts_compare_by_address_then_by_bytes() {
        let a: std::sync::Arc<str> = "src/a.ts".into();
        assert!(same_text(&a, &a.clone()));
        assert!(same_text(&a, &"src/a.ts".into()));
        assert!(!same_text(&a, &"src/b.ts".into()));
    }
}
