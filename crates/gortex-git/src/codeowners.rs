//! CODEOWNERS: who owns a path, as GitHub and GitLab read the file.
//!
//! The first of `.github/CODEOWNERS`, `CODEOWNERS`, `docs/CODEOWNERS`, `.gitlab/CODEOWNERS` is
//! read. Patterns follow gitignore rules (a pattern without a slash matches at any depth, a
//! trailing slash a directory and everything under it). In a section the last matching rule wins;
//! GitLab's `[Section]` headers start sections, and a path owned in several sections has the union
//! of their owners. A rule with no owners un-owns what it matches.

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use serde::Serialize;
use std::path::Path;

/// Where CODEOWNERS may live, in the order GitHub looks.
pub const CODEOWNERS_FILES: &[&str] = &[
    ".github/CODEOWNERS",
    "CODEOWNERS",
    "docs/CODEOWNERS",
    ".gitlab/CODEOWNERS",
];

/// Largest CODEOWNERS file read (GitHub's own limit is 3 MB).
const MAX_BYTES: u64 = 3 * 1024 * 1024;

struct Rule {
    pattern: String,
    line: u32,
    owners: Vec<String>,
    section: u32,
    matcher: Gitignore,
}

/// The parsed CODEOWNERS file.
pub struct CodeOwners {
    /// Worktree-relative path of the file.
    pub file: String,
    rules: Vec<Rule>,
    /// Lines that could not be read as a rule, with why.
    pub problems: Vec<(u32, String)>,
}

/// The rule that decided a path's owners.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct OwnerRule {
    pub file: String,
    pub line: u32,
    pub pattern: String,
}

impl CodeOwners {
    /// Reads the CODEOWNERS file of the worktree at `workdir`; `None` when there is none.
    pub fn load(workdir: &Path) -> Option<CodeOwners> {
        CODEOWNERS_FILES.iter().find_map(|rel| {
            let path = workdir.join(rel);
            let meta = std::fs::metadata(&path).ok()?;
            if !meta.is_file() || meta.len() > MAX_BYTES {
                return None;
            }
            let text = std::fs::read_to_string(&path).ok()?;
            Some(CodeOwners::parse(rel, &text))
        })
    }

    /// Parses CODEOWNERS `text` read from `file`.
    pub fn parse(file: &str, text: &str) -> CodeOwners {
        let mut rules = Vec::new();
        let mut problems = Vec::new();
        let mut section = 0u32;
        let mut section_owners: Vec<String> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line_no = i as u32 + 1;
            let line = strip_comment(raw).trim();
            if line.is_empty() {
                continue;
            }
            if let Some(header) = section_header(line) {
                section += 1;
                section_owners = header;
                continue;
            }
            let mut words = split_words(line);
            let pattern = words.remove(0);
            let mut owners: Vec<String> = words
                .into_iter()
                .filter(|w| w.starts_with('@') || w.contains('@'))
                .collect();
            if owners.is_empty() {
                owners = section_owners.clone();
            }
            let mut builder = GitignoreBuilder::new("");
            let glob = if pattern.ends_with("/**") {
                pattern.trim_end_matches("/**").to_string() + "/"
            } else {
                pattern.clone()
            };
            if let Err(e) = builder.add_line(None, &glob) {
                problems.push((line_no, format!("pattern `{pattern}`: {e}")));
                continue;
            }
            match builder.build() {
                Ok(matcher) => rules.push(Rule {
                    pattern,
                    line: line_no,
                    owners,
                    section,
                    matcher,
                }),
                Err(e) => problems.push((line_no, format!("pattern `{pattern}`: {e}"))),
            }
        }
        CodeOwners {
            file: file.to_string(),
            rules,
            problems,
        }
    }

    /// The owners of worktree-relative `path` and the rules that decided them (empty when no
    /// rule matches or the deciding rule names nobody).
    pub fn owners(&self, path: &str) -> (Vec<String>, Vec<OwnerRule>) {
        let mut decided: Vec<&Rule> = Vec::new();
        for rule in self.rules.iter().rev() {
            if decided.iter().any(|r| r.section == rule.section) {
                continue;
            }
            if rule.matcher.matched_path_or_any_parents(path, false).is_ignore() {
                decided.push(rule);
            }
        }
        decided.reverse();
        let mut owners: Vec<String> = Vec::new();
        for rule in &decided {
            for owner in &rule.owners {
                if !owners.contains(owner) {
                    owners.push(owner.clone());
                }
            }
        }
        let rules = decided
            .iter()
            .map(|r| OwnerRule {
                file: self.file.clone(),
                line: r.line,
                pattern: r.pattern.clone(),
            })
            .collect();
        (owners, rules)
    }
}

/// The line without a trailing `#` comment (`\#` escapes one).
fn strip_comment(line: &str) -> &str {
    let bytes = line.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'#' && (i == 0 || bytes[i - 1] != b'\\') {
            return &line[..i];
        }
    }
    line
}

/// A GitLab section header (`[Name]`, `^[Name][2] @owner`): its default owners.
fn section_header(line: &str) -> Option<Vec<String>> {
    let rest = line.strip_prefix('^').unwrap_or(line);
    if !rest.starts_with('[') {
        return None;
    }
    let close = rest.find(']')?;
    let mut after = &rest[close + 1..];
    if after.starts_with('[') {
        after = &after[after.find(']').map(|i| i + 1).unwrap_or(after.len())..];
    }
    Some(
        split_words(after.trim())
            .into_iter()
            .filter(|w| w.contains('@'))
            .collect(),
    )
}

/// Whitespace-separated words, `\ ` keeping a space inside a pattern.
fn split_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' && chars.peek().is_some_and(|n| n.is_whitespace()) {
            current.push(chars.next().unwrap_or(' '));
        } else if c.is_whitespace() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
        } else {
            current.push(c);
        }
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_match_wins_within_a_section_and_sections_combine() {
        let text = "# owners\n*.js @web\n/docs/ @docs-team\nsrc/core/** @core @alice@example.com\nsrc/core/gen.js\n\n[Security]\nauth/ @sec\n";
        let owners = CodeOwners::parse("CODEOWNERS", text);
        assert_eq!(owners.owners("app/x.js").0, vec!["@web"]);
        assert_eq!(owners.owners("docs/a/b.md").0, vec!["@docs-team"]);
        assert!(
            owners.owners("src/docs/a.md").0.is_empty(),
            "an anchored pattern only matches at the root"
        );
        let (core, rules) = owners.owners("src/core/a/b.rs");
        assert_eq!(core, vec!["@core", "@alice@example.com"]);
        assert_eq!(rules[0].line, 4);
        assert!(
            owners.owners("src/core/gen.js").0.is_empty(),
            "a rule without owners un-owns"
        );
        assert_eq!(owners.owners("src/auth/login.js").0, vec!["@web", "@sec"]);
    }
}
