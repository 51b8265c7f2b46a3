//! Test frameworks: the runner a file's imports name, and `describe`/`it`/`test` calls and hooks as
//! test and fixture symbols named by their titles.

use super::*;

impl Run<'_> {
    /// `describe('title', …)` / `it.only('title', …)` → test symbol; `beforeEach(() => …)` → fixture.
    pub(super) fn test_call(&mut self, node: Node<'_>, callee: Option<Node<'_>>) {
        let src = self.src;
        let Some(callee) = callee else { return };
        let base = match callee.kind() {
            "identifier" => txt(callee, src),
            "member_expression" => {
                let obj = callee.child_by_field_name("object");
                let prop = callee
                    .child_by_field_name("property")
                    .map(|p| txt(p, src))
                    .unwrap_or_default();
                match obj {
                    Some(o) if o.kind() == "identifier" && TEST_MODIFIERS.contains(&prop.as_str()) => txt(o, src),
                    _ => return,
                }
            }
            _ => return,
        };
        let first_arg = node.child_by_field_name("arguments").and_then(|a| a.named_child(0));
        let is_test = TEST_FNS.contains(&base.as_str());
        if is_test {
            self.uses_test_calls = true;
        }
        let (name, role, title) = match first_arg {
            Some(t) if is_test && matches!(t.kind(), "string" | "template_string") => {
                (sanitize_title(&string_value(t, src)), TestRole::Test, Some(t))
            }
            Some(f) if is_function_value(f.kind()) && HOOK_FNS.contains(&base.as_str()) => {
                (base.clone(), TestRole::Fixture, None)
            }
            _ => return,
        };
        if !self.ctx.is_test_file {
            return;
        }
        self.skip_calls.insert(node.id());
        let mut fact = SymbolFact::new(name, NodeKind::Function, util::span(node));
        let head = match title {
            Some(t) => {
                format!("{}({})", txt(callee, src), util::text(t, src))
            }
            _ => format!("{}()", txt(callee, src)),
        };
        fact.signature = Some(util::truncate_chars(
            &util::collapse_whitespace(&head),
            util::MAX_SIGNATURE,
        ));
        fact.test_role = Some(role);
        self.push_sym(node, fact);
    }

    pub(super) fn test_runner(&self, imports: &[ImportFact]) -> Option<TestRunner> {
        if !self.ctx.is_test_file {
            return None;
        }
        let mut runner = None;
        for im in imports {
            let r = match im.module.as_str() {
                "vitest" => Some(TestRunner::Vitest),
                "node:test" => Some(TestRunner::NodeTest),
                "mocha" | "chai" => Some(TestRunner::Mocha),
                "@jest/globals" => Some(TestRunner::Jest),
                _ => None,
            };
            if let Some(r) = r {
                if runner.is_none() || r == TestRunner::Vitest || r == TestRunner::NodeTest {
                    runner = Some(r);
                }
            }
        }
        runner.or(self.uses_test_calls.then_some(TestRunner::Jest))
    }
}

/// Sanitises a test title into a symbol name: readable, no separators that ids use, ≤ 80 chars.
pub(super) fn sanitize_title(title: &str) -> String {
    let mut out = String::with_capacity(title.len().min(96));
    let mut last_us = true;
    for ch in title.chars() {
        let keep = ch.is_alphanumeric() || ch == '-' || ch == '$' || ch == '\'' || ch == '#';
        if keep {
            out.push(ch);
            last_us = false;
        } else if !last_us {
            out.push('_');
            last_us = true;
        }
        if out.chars().count() >= 80 {
            break;
        }
    }
    let out = out.trim_end_matches('_').to_string();
    if out.is_empty() {
        "test".to_string()
    } else {
        out
    }
}

pub(super) const TEST_FNS: &[&str] = &[
    "describe",
    "it",
    "test",
    "suite",
    "context",
    "specify",
    "fdescribe",
    "xdescribe",
    "fit",
    "xit",
];

pub(super) const TEST_MODIFIERS: &[&str] = &[
    "only",
    "skip",
    "todo",
    "concurrent",
    "sequential",
    "fails",
    "failing",
    "skipIf",
    "runIf",
];

pub(super) const HOOK_FNS: &[&str] = &["beforeEach", "afterEach", "beforeAll", "afterAll", "before", "after"];
