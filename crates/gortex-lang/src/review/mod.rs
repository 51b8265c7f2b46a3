//! The correctness rulepack of the review gate: structural detectors over one file's syntax tree
//! (TS/JS, Python, Go, Java). Each rule reports line-anchored [`Finding`]s with the names a later
//! graph pass needs to ground them (the callee of a loop call, the values spliced into a query,
//! the map a check-then-act touches); this module never sees other files or the graph, so a
//! finding here is what the syntax alone supports — `gortex-index`'s review pass drops the ones
//! the graph shows cannot happen.
//!
//! Rules shared by every language (secrets, self-comparison, strings built into SQL or shell
//! commands, weak crypto, queries in loops) run once in this file over a [`Dialect`] — how a
//! language spells calls, assignments, comparisons, loops and built strings — so a language
//! adds only its own idioms (`ecmascript.rs`, `python.rs`, `go.rs`, `java.rs`). Walks are
//! iterative: a tree may nest thousands of levels.

mod dialect;
mod ecmascript;
mod go;
mod java;
mod python;
mod shared;
pub mod words;

use crate::{extractor_for, parse, refine_language, ExtractError, DEFAULT_PARSE_BUDGET};
use gortex_core::Language;

pub use dialect::{BuiltString, Callee, Dialect};

/// How bad a finding is; the review verdict follows the worst one (error and above block).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Info,
    Warning,
    Error,
    Critical,
}

impl Severity {
    /// The lower-case name used on every wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
            Severity::Critical => "critical",
        }
    }

    /// Parses a lower-case severity name.
    pub fn parse(name: &str) -> Option<Severity> {
        Some(match name {
            "info" => Severity::Info,
            "warning" => Severity::Warning,
            "error" => Severity::Error,
            "critical" => Severity::Critical,
            _ => return None,
        })
    }
}

/// What the graph pass may check to drop a finding the syntax cannot decide.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grounding {
    /// Nothing beyond test code (when the rule drops it there).
    None,
    /// The call must be able to reach I/O: a callee resolved to repository code that reaches no
    /// query-like call is dropped.
    CalleeReachesIo,
    /// A value spliced into the string that is a constant or comes from a sanitiser is safe; a
    /// finding whose every value is safe is dropped.
    Sanitised,
    /// A shared structure touched under a lock is safe: dropped when the function, or every
    /// caller of it, takes a lock.
    Guarded,
}

/// One rule of the pack.
#[derive(Debug)]
pub struct Rule {
    /// Stable id, shared across languages (`sql-string-concat`); the structural-search detector
    /// of the same name runs the same code.
    pub id: &'static str,
    /// The family the issue names: `null_deref`, `concurrency`, `performance`, `resource`,
    /// `injection`, `crypto`, `secret`, `error_handling`, `logic`.
    pub category: &'static str,
    pub severity: Severity,
    /// One line: what is wrong.
    pub title: &'static str,
    /// One line: how to fix it.
    pub fix: &'static str,
    /// Languages the rule has detectors for.
    pub languages: &'static [&'static str],
    /// Whether a finding in test code stays (logic slips do; injection in a test does not ship).
    pub keep_in_tests: bool,
    pub grounding: Grounding,
    /// Whether a review runs it unless asked for rules by name (`rules: ["all"]` or its id runs it).
    pub default_on: bool,
}

/// Every rule, in a stable order (reports and SARIF list them in it).
pub const RULES: &[Rule] = &[
    Rule {
        id: "null-deref",
        category: "null_deref",
        severity: Severity::Error,
        title: "value from a call that can return null/None/undefined is dereferenced without a check",
        fix: "check the value (or use optional chaining / a default) before using it",
        languages: &["typescript", "javascript", "python", "java"],
        keep_in_tests: true,
        grounding: Grounding::None,
        default_on: true,
    },
    Rule {
        id: "unchecked-type-assertion",
        category: "null_deref",
        // Often an invariant the code keeps (a type filter, a constructor): worth a look, not a
        // block, and off unless asked for (on real Go code it flagged invariants; BENCHMARKS.md).
        severity: Severity::Warning,
        title: "type assertion without the comma-ok form panics when the dynamic type differs",
        fix: "use `v, ok := x.(T)` and handle !ok",
        languages: &["go"],
        keep_in_tests: false,
        grounding: Grounding::None,
        default_on: false,
    },
    Rule {
        id: "deref-in-null-branch",
        category: "logic",
        severity: Severity::Error,
        title: "value is dereferenced in the branch where it was just found to be null/None/nil",
        fix: "the condition is probably inverted; dereference in the other branch",
        languages: &["typescript", "javascript", "python", "go", "java"],
        keep_in_tests: true,
        grounding: Grounding::None,
        default_on: true,
    },
    Rule {
        id: "inverted-err-check",
        category: "logic",
        severity: Severity::Error,
        title: "`if err == nil` branch returns or wraps err — the check is inverted",
        fix: "use `if err != nil`",
        languages: &["go"],
        keep_in_tests: true,
        grounding: Grounding::None,
        default_on: true,
    },
    Rule {
        id: "self-comparison",
        category: "logic",
        severity: Severity::Error,
        title: "an expression is compared with itself (always true or always false)",
        fix: "compare with the value you meant (a typo in one operand?)",
        languages: &["typescript", "javascript", "python", "go", "java"],
        keep_in_tests: true,
        grounding: Grounding::None,
        default_on: true,
    },
    Rule {
        id: "mutable-default-arg",
        category: "logic",
        severity: Severity::Warning,
        title: "mutable default argument is shared between calls",
        fix: "default to None and create the list/dict/set inside the function",
        languages: &["python"],
        keep_in_tests: true,
        grounding: Grounding::None,
        default_on: true,
    },
    Rule {
        id: "check-then-act",
        category: "concurrency",
        severity: Severity::Warning,
        title: "membership or existence is checked, then acted on, without holding a lock (a race)",
        fix: "use an atomic operation (setdefault / computeIfAbsent / LoadOrStore / O_EXCL) or hold a lock over both",
        languages: &["typescript", "javascript", "python", "go", "java"],
        keep_in_tests: false,
        grounding: Grounding::Guarded,
        default_on: true,
    },
    Rule {
        id: "loop-query",
        category: "performance",
        severity: Severity::Warning,
        title: "query or request issued once per loop iteration (N+1)",
        fix: "fetch in one batched query before the loop (IN (...), a join, a bulk endpoint)",
        languages: &["typescript", "javascript", "python", "go", "java"],
        keep_in_tests: false,
        grounding: Grounding::CalleeReachesIo,
        default_on: true,
    },
    Rule {
        id: "unclosed-resource",
        category: "resource",
        severity: Severity::Warning,
        title: "resource is opened and never closed on this path",
        fix: "close it (with / try-with-resources / defer Close() / finally)",
        languages: &["typescript", "javascript", "python", "go", "java"],
        keep_in_tests: false,
        grounding: Grounding::None,
        default_on: true,
    },
    Rule {
        id: "sql-string-concat",
        category: "injection",
        severity: Severity::Critical,
        title: "SQL built by string concatenation or interpolation is executed (SQL injection)",
        fix: "pass values as bound parameters (?, $1, %s with a params tuple, PreparedStatement)",
        languages: &["typescript", "javascript", "python", "go", "java"],
        keep_in_tests: false,
        grounding: Grounding::Sanitised,
        default_on: true,
    },
    Rule {
        id: "shell-string-concat",
        category: "injection",
        severity: Severity::Critical,
        title: "shell command built by string concatenation or interpolation is run (command injection)",
        fix: "run the program with an argument list and no shell",
        languages: &["typescript", "javascript", "python", "go", "java"],
        keep_in_tests: false,
        grounding: Grounding::Sanitised,
        default_on: true,
    },
    Rule {
        id: "weak-crypto",
        category: "crypto",
        severity: Severity::Error,
        title: "weak cryptographic algorithm (MD5, SHA-1, DES, RC4, ECB mode)",
        fix: "use SHA-256 or better for hashing, AES-GCM for encryption; mark non-security hashes as such",
        languages: &["typescript", "javascript", "python", "go", "java"],
        keep_in_tests: false,
        grounding: Grounding::None,
        default_on: true,
    },
    Rule {
        id: "hardcoded-secret",
        category: "secret",
        severity: Severity::Critical,
        title: "credential is hard-coded in source",
        fix: "read it from the environment or a secret store",
        languages: &["typescript", "javascript", "python", "go", "java"],
        keep_in_tests: false,
        grounding: Grounding::None,
        default_on: true,
    },
    Rule {
        id: "swallowed-error",
        category: "error_handling",
        severity: Severity::Warning,
        title: "error is caught and silently dropped",
        fix: "handle it, log it, or rethrow it; say why in a comment when ignoring is intended",
        languages: &["typescript", "javascript", "python", "go", "java"],
        keep_in_tests: false,
        grounding: Grounding::None,
        default_on: true,
    },
];

/// The rule with id `id`.
pub fn rule(id: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.id == id)
}

/// One place the syntax says a rule is broken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub rule: &'static str,
    /// 1-based line and 0-based byte column of the anchor; `end_line` of its last line.
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    /// What is wrong here, naming the code (`user is dereferenced after find(), which can return undefined`).
    pub message: String,
    /// The variable, map or value the finding is about.
    pub subject: Option<String>,
    /// The called name at the anchor (loop queries, sinks), when there is one.
    pub callee: Option<String>,
    /// The non-literal values spliced into a built string (identifiers and calls, as written).
    pub values: Vec<String>,
}

/// The language families the rulepack covers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Family {
    Ecma,
    Python,
    Go,
    Java,
}

impl Family {
    /// The family of `language`, when the rulepack covers it.
    pub fn of(language: Language) -> Option<Family> {
        match language {
            Language::TypeScript | Language::Tsx | Language::JavaScript => Some(Family::Ecma),
            Language::Python => Some(Family::Python),
            Language::Go => Some(Family::Go),
            Language::Java => Some(Family::Java),
            _ => None,
        }
    }
}

/// Runs every rule over `source` read as the file at `path`; an empty list for a language the
/// rulepack does not cover. Findings are ordered by line, column and rule.
pub fn scan(path: &str, source: &[u8]) -> Result<Vec<Finding>, ExtractError> {
    let Some(language) = Language::from_path(path).map(|l| refine_language(l, path, source)) else {
        return Ok(Vec::new());
    };
    let Some(family) = Family::of(language) else {
        return Ok(Vec::new());
    };
    let extractor = extractor_for(language).ok_or(ExtractError::LanguageDisabled(language))?;
    let budget = crate::budget::time_budget(source.len(), DEFAULT_PARSE_BUDGET);
    let tree = parse(language, &extractor.prepare(source), budget)?;
    let mut out = match family {
        Family::Ecma => ecmascript::scan(&tree, source),
        Family::Python => python::scan(&tree, source),
        Family::Go => go::scan(&tree, source),
        Family::Java => java::scan(&tree, source),
    };
    out.sort_by(|a, b| (a.line, a.column, a.rule).cmp(&(b.line, b.column, b.rule)));
    out.dedup_by(|a, b| a.line == b.line && a.rule == b.rule);
    Ok(out)
}
