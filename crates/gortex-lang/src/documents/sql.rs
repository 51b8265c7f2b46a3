//! SQL: `CREATE TABLE` → a `table` type with its columns as fields (a column's or table
//! constraint's `REFERENCES other` is a reference to `other`), `CREATE VIEW` → a `view` type
//! referring to the tables it reads (`FROM`/`JOIN`), `CREATE FUNCTION`/`PROCEDURE` → a function,
//! `CREATE TYPE … AS ENUM` → an enum with its values. Schema-qualified names keep the last part.
//! Strings, comments, quoted identifiers and dollar-quoted bodies are read as such.

use super::Lines;
use gortex_core::{EdgeKind, FileFacts, NodeKind, Receiver, RefFact, SymbolFact, TypeFlavor};

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    /// A keyword or identifier (quoted identifiers unquoted).
    Word,
    Punct(u8),
    Str,
    /// A statement separator.
    Semi,
}

#[derive(Debug, Clone)]
struct Tok<'a> {
    kind: Kind,
    text: &'a str,
    start: usize,
    end: usize,
}

impl Tok<'_> {
    fn is(&self, keyword: &str) -> bool {
        self.kind == Kind::Word && self.text.eq_ignore_ascii_case(keyword)
    }
}

fn tokenize(text: &str) -> Vec<Tok<'_>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let find = |from: usize, pat: &str| text.get(from..).and_then(|t| t.find(pat)).map(|p| from + p);
    while i < b.len() {
        let c = b[i];
        let start = i;
        if c.is_ascii_whitespace() {
            i += 1;
        } else if b[i..].starts_with(b"--") || c == b'#' {
            i = find(i, "\n").unwrap_or(b.len());
        } else if b[i..].starts_with(b"/*") {
            i = find(i + 2, "*/").map_or(b.len(), |e| e + 2);
        } else if c == b'\'' {
            i += 1;
            while i < b.len() {
                if b[i] == b'\'' {
                    if b.get(i + 1) == Some(&b'\'') {
                        i += 2;
                        continue;
                    }
                    break;
                }
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(b.len());
            out.push(Tok {
                kind: Kind::Str,
                text: &text[start..i],
                start,
                end: i,
            });
        } else if c == b'"' || c == b'`' || c == b'[' {
            let close = if c == b'[' { "]" } else { &text[i..i + 1] };
            let end = find(i + 1, close).unwrap_or(b.len());
            let inner = &text[(i + 1).min(end)..end];
            i = (end + 1).min(b.len());
            out.push(Tok {
                kind: Kind::Word,
                text: inner,
                start,
                end: i,
            });
        } else if let Some(tag_end) = (c == b'$').then(|| dollar_tag(b, i)).flatten() {
            // `$$ … $$` or `$body$ … $body$`: a routine body, skipped whole.
            let tag = &text[i..tag_end];
            i = find(tag_end, tag).map_or(b.len(), |e| e + tag.len());
            out.push(Tok {
                kind: Kind::Str,
                text: &text[start..i],
                start,
                end: i,
            });
        } else if c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80 {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'$' || b[i] >= 0x80) {
                i += 1;
            }
            out.push(Tok {
                kind: Kind::Word,
                text: &text[start..i],
                start,
                end: i,
            });
        } else {
            i += 1;
            let kind = if c == b';' { Kind::Semi } else { Kind::Punct(c) };
            out.push(Tok {
                kind,
                text: &text[start..i],
                start,
                end: i,
            });
        }
    }
    out
}

/// The end of a dollar-quote tag starting at `i` (`$$`, `$tag$`), if one starts there.
fn dollar_tag(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
        j += 1;
    }
    (b.get(j) == Some(&b'$') && !b.get(i + 1).is_some_and(u8::is_ascii_digit)).then_some(j + 1)
}

/// Words that start a table constraint rather than a column.
const CONSTRAINTS: &[&str] = &[
    "constraint",
    "primary",
    "foreign",
    "unique",
    "check",
    "index",
    "key",
    "exclude",
    "like",
    "fulltext",
    "spatial",
    "period",
];

struct Reader<'a> {
    text: &'a str,
    toks: Vec<Tok<'a>>,
    lines: Lines,
    facts: FileFacts,
}

impl<'a> Reader<'a> {
    /// Index of the token matching the `(` at `open`, or the statement end.
    fn close_paren(&self, open: usize, end: usize) -> usize {
        let mut depth = 0;
        for k in open..end {
            match self.toks[k].kind {
                Kind::Punct(b'(') => depth += 1,
                Kind::Punct(b')') => {
                    depth -= 1;
                    if depth == 0 {
                        return k;
                    }
                }
                _ => {}
            }
        }
        end
    }

    /// A possibly qualified name at `k` (`schema.table`): its last part and the index after it.
    fn qualified(&self, mut k: usize, end: usize) -> Option<(&'a str, usize)> {
        let mut name = None;
        while k < end && self.toks[k].kind == Kind::Word {
            name = Some(self.toks[k].text);
            k += 1;
            if k < end && self.toks[k].kind == Kind::Punct(b'.') {
                k += 1;
            } else {
                break;
            }
        }
        name.map(|n| (n, k))
    }

    fn push(&mut self, name: &str, kind: NodeKind, parent: Option<u32>, from: usize, to: usize) -> u32 {
        let span = self.lines.span(self.toks[from].start, self.toks[to.max(from)].end);
        let mut sym = SymbolFact::new(name, kind, span);
        sym.parent = parent;
        sym.exported = true;
        self.facts.symbols.push(sym);
        (self.facts.symbols.len() - 1) as u32
    }

    fn reference(&mut self, from: u32, name: &str, at: usize) {
        let (line, col) = self.lines.at(self.toks[at].start);
        self.facts.refs.push(RefFact {
            kind: EdgeKind::References,
            from: Some(from),
            name: name.to_string(),
            receiver: Receiver::None,
            line,
            col,
            via: None,
        });
    }

    /// `REFERENCES other` inside `from..to`, attributed to symbol `owner`.
    fn foreign_keys(&mut self, owner: u32, from: usize, to: usize) {
        for k in from..to {
            if self.toks[k].is("references") {
                if let Some((name, _)) = self.qualified(k + 1, to) {
                    self.reference(owner, name, k + 1);
                }
            }
        }
    }

    fn statement(&mut self, start: usize, end: usize) {
        if !self.toks[start].is("create") {
            return;
        }
        let mut k = start + 1;
        while k < end {
            let t = &self.toks[k];
            if [
                "or",
                "replace",
                "materialized",
                "global",
                "local",
                "temp",
                "temporary",
                "unlogged",
                "external",
                "virtual",
                "recursive",
                "definer",
                "algorithm",
            ]
            .iter()
            .any(|w| t.is(w))
            {
                k += 1;
            } else {
                break;
            }
        }
        let Some(what) = self
            .toks
            .get(k)
            .filter(|t| t.kind == Kind::Word)
            .map(|t| t.text.to_ascii_lowercase())
        else {
            return;
        };
        k += 1;
        if self.toks.get(k).is_some_and(|t| t.is("if")) {
            k += 3; // IF NOT EXISTS
        }
        let Some((name, after)) = self.qualified(k, end) else {
            return;
        };
        let signature: String = {
            let head_end = self.toks[after.min(end - 1)].start;
            let text = &self.text[self.toks[start].start..head_end];
            super::summary(text, 200)
        };
        match what.as_str() {
            "table" => {
                let si = self.push(name, NodeKind::Type, None, start, end - 1);
                self.set(si, TypeFlavor::Table, signature);
                let Some(open) = (after..end).find(|&j| self.toks[j].kind == Kind::Punct(b'(')) else {
                    return;
                };
                let close = self.close_paren(open, end);
                let mut item = open + 1;
                while item < close {
                    let mut depth = 0;
                    let mut stop = item;
                    while stop < close {
                        match self.toks[stop].kind {
                            Kind::Punct(b'(') => depth += 1,
                            Kind::Punct(b')') => depth -= 1,
                            Kind::Punct(b',') if depth == 0 => break,
                            _ => {}
                        }
                        stop += 1;
                    }
                    let first = &self.toks[item];
                    if first.kind == Kind::Word && !CONSTRAINTS.iter().any(|c| first.is(c)) && stop > item {
                        let column = first.text;
                        let fi = self.push(column, NodeKind::Field, Some(si), item, stop - 1);
                        let ty = self
                            .toks
                            .get(item + 1)
                            .filter(|t| t.kind == Kind::Word && item + 1 < stop)
                            .map(|t| t.text.to_string());
                        let sig = match &ty {
                            Some(ty) => format!("{column} {ty}"),
                            None => column.to_string(),
                        };
                        self.facts.symbols[fi as usize].signature = Some(sig);
                        self.facts.symbols[fi as usize].type_name = ty;
                        self.foreign_keys(fi, item, stop);
                    } else {
                        self.foreign_keys(si, item, stop);
                    }
                    item = stop + 1;
                }
            }
            "view" => {
                let si = self.push(name, NodeKind::Type, None, start, end - 1);
                self.set(si, TypeFlavor::View, signature);
                let mut seen = Vec::new();
                for j in after..end {
                    if self.toks[j].is("from") || self.toks[j].is("join") {
                        if let Some((table, _)) = self.qualified(j + 1, end) {
                            if !seen.contains(&table) && !table.eq_ignore_ascii_case("select") {
                                seen.push(table);
                                self.reference(si, table, j + 1);
                            }
                        }
                    }
                }
            }
            "function" | "procedure" => {
                let si = self.push(name, NodeKind::Function, None, start, end - 1);
                self.facts.symbols[si as usize].signature = Some(signature);
            }
            "type" if (after..end).any(|j| self.toks[j].is("enum")) => {
                let si = self.push(name, NodeKind::Type, None, start, end - 1);
                self.set(si, TypeFlavor::Enum, signature);
                for j in after..end {
                    if self.toks[j].kind == Kind::Str {
                        let value = self.toks[j].text.trim_matches('\'').to_string();
                        self.push(&value, NodeKind::EnumMember, Some(si), j, j);
                    }
                }
            }
            _ => {}
        }
    }

    fn set(&mut self, si: u32, flavor: TypeFlavor, signature: String) {
        let sym = &mut self.facts.symbols[si as usize];
        sym.flavor = Some(flavor);
        sym.signature = Some(signature);
    }
}

pub(super) fn extract(text: &str, facts: &mut FileFacts) {
    let toks = tokenize(text);
    let mut reader = Reader {
        toks,
        lines: Lines::new(text),
        facts: std::mem::take(facts),
        text,
    };
    let mut start = 0;
    let n = reader.toks.len();
    for k in 0..=n {
        if k == n || reader.toks[k].kind == Kind::Semi {
            if k > start {
                reader.statement(start, k);
            }
            start = k + 1;
        }
    }
    *facts = reader.facts;
}
