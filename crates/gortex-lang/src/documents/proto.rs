//! Protocol Buffers: `package` is the file's package; `import "x.proto"` makes that file's
//! declarations visible (a wildcard import); `message`s and `enum`s are types (nested ones
//! inside their parent) with their fields and values; a `service` is a type whose `rpc`s are
//! methods taking (`typed_as`) and returning (`returns`) messages. Field types are `typed_as`
//! references. Leading `//` comments are docs.

use super::Lines;
use gortex_core::{EdgeKind, FileFacts, ImportFact, NodeKind, Receiver, RefFact, Span, SymbolFact, TypeFlavor};

#[derive(Debug, Clone, PartialEq)]
enum Tok<'a> {
    Word(&'a str),
    Str(&'a str),
    Punct(u8),
}

struct Token<'a> {
    tok: Tok<'a>,
    start: usize,
    end: usize,
    /// `//` comment lines directly above the token.
    doc: Option<String>,
}

fn tokenize(text: &str) -> Vec<Token<'_>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut doc: Vec<&str> = Vec::new();
    let mut newlines_since_comment = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            newlines_since_comment += 1;
            if newlines_since_comment > 1 {
                doc.clear();
            }
            i += 1;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if b[i..].starts_with(b"//") {
            let end = memchr_nl(b, i);
            doc.push(text[i + 2..end].trim());
            newlines_since_comment = 0;
            i = end;
        } else if b[i..].starts_with(b"/*") {
            i = text[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
        } else if c == b'"' || c == b'\'' {
            let start = i;
            i += 1;
            while i < b.len() && b[i] != c && b[i] != b'\n' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            let end = (i + 1).min(b.len());
            out.push(Token {
                tok: Tok::Str(&text[(start + 1).min(end)..i.min(b.len())]),
                start,
                end,
                doc: None,
            });
            i = end;
            doc.clear();
        } else if c.is_ascii_alphanumeric() || c == b'_' || c == b'.' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                i += 1;
            }
            let joined = doc.join(" ");
            out.push(Token {
                tok: Tok::Word(&text[start..i]),
                start,
                end: i,
                doc: (!joined.is_empty()).then_some(joined),
            });
            doc.clear();
        } else {
            out.push(Token {
                tok: Tok::Punct(c),
                start: i,
                end: i + 1,
                doc: None,
            });
            doc.clear();
            // Multi-byte characters are skipped whole.
            i += text[i..].chars().next().map_or(1, char::len_utf8);
        }
    }
    out
}

fn memchr_nl(b: &[u8], from: usize) -> usize {
    b[from..].iter().position(|&c| c == b'\n').map_or(b.len(), |p| from + p)
}

/// Deepest nesting of messages read (the reader recurses per level).
const MAX_NESTING: u32 = 64;

const SCALARS: &[&str] = &[
    "double", "float", "int32", "int64", "uint32", "uint64", "sint32", "sint64", "fixed32", "fixed64", "sfixed32",
    "sfixed64", "bool", "string", "bytes",
];

struct Reader<'a> {
    toks: Vec<Token<'a>>,
    i: usize,
    lines: Lines,
    facts: FileFacts,
}

impl<'a> Reader<'a> {
    fn word(&self, k: usize) -> Option<&'a str> {
        match self.toks.get(k)?.tok {
            Tok::Word(w) => Some(w),
            _ => None,
        }
    }

    fn punct(&self, k: usize) -> Option<u8> {
        match self.toks.get(k)?.tok {
            Tok::Punct(p) => Some(p),
            _ => None,
        }
    }

    /// Index of the token after the one closing the `{` at `open` (or the end).
    fn skip_block(&self, open: usize) -> usize {
        let mut depth = 0;
        for k in open..self.toks.len() {
            match self.punct(k) {
                Some(b'{') => depth += 1,
                Some(b'}') => {
                    depth -= 1;
                    if depth == 0 {
                        return k + 1;
                    }
                }
                _ => {}
            }
        }
        self.toks.len()
    }

    /// Index just past the next `;` at this level (or a block's end).
    fn skip_statement(&self, from: usize) -> usize {
        let mut k = from;
        while k < self.toks.len() {
            match self.punct(k) {
                Some(b';') => return k + 1,
                Some(b'{') => return self.skip_block(k),
                Some(b'}') => return k,
                _ => k += 1,
            }
        }
        k
    }

    fn span(&self, from: usize, to: usize) -> Span {
        let start = self.toks[from].start;
        let end = self.toks[to.saturating_sub(1).max(from)].end;
        self.lines.span(start, end)
    }

    fn push(&mut self, name: &str, kind: NodeKind, parent: Option<u32>, from: usize, to: usize) -> u32 {
        let mut sym = SymbolFact::new(name, kind, self.span(from, to));
        sym.parent = parent;
        sym.exported = true;
        sym.doc = self.toks[from].doc.clone();
        self.facts.symbols.push(sym);
        (self.facts.symbols.len() - 1) as u32
    }

    fn type_ref(&mut self, kind: EdgeKind, from: u32, ty: &str, at: usize) {
        let ty = ty.trim_start_matches('.');
        if ty.is_empty() || SCALARS.contains(&ty) {
            return;
        }
        // `pkg.v1.Msg` and `Outer.Inner`: the last segment names the type.
        let name = ty.rsplit('.').next().unwrap_or(ty);
        let (line, col) = self.lines.at(self.toks[at].start);
        self.facts.refs.push(RefFact {
            kind,
            from: Some(from),
            name: name.to_string(),
            receiver: Receiver::None,
            line,
            col,
            via: None,
        });
    }

    /// Top level and inside messages: declarations until `}` or the end.
    fn body(&mut self, parent: Option<u32>, depth: u32) {
        while self.i < self.toks.len() {
            let k = self.i;
            if self.punct(k) == Some(b'}') {
                self.i += 1;
                return;
            }
            let Some(w) = self.word(k) else {
                self.i += 1;
                continue;
            };
            match w {
                "syntax" | "edition" | "option" | "reserved" | "extensions" => self.i = self.skip_statement(k),
                "package" if parent.is_none() => {
                    self.facts.package = self.word(k + 1).map(str::to_string);
                    self.i = self.skip_statement(k);
                }
                "import" if parent.is_none() => {
                    let mut j = k + 1;
                    if matches!(self.word(j), Some("public" | "weak")) {
                        j += 1;
                    }
                    if let Some(Tok::Str(path)) = self.toks.get(j).map(|t| t.tok.clone()) {
                        let line = self.lines.at(self.toks[k].start).0;
                        self.facts.imports.push(ImportFact::wildcard(path, line));
                    }
                    self.i = self.skip_statement(k);
                }
                "message" | "enum" | "service" if self.word(k + 1).is_some() && self.punct(k + 2) == Some(b'{') => {
                    let name = self.word(k + 1).unwrap_or_default();
                    let end = self.skip_block(k + 2);
                    let (kind, flavor) = match w {
                        "message" => (NodeKind::Type, TypeFlavor::Message),
                        "enum" => (NodeKind::Type, TypeFlavor::Enum),
                        _ => (NodeKind::Type, TypeFlavor::Service),
                    };
                    let si = self.push(name, kind, parent, k, end);
                    self.facts.symbols[si as usize].flavor = Some(flavor);
                    self.facts.symbols[si as usize].signature = Some(format!("{w} {name}"));
                    self.i = k + 3;
                    match w {
                        // Nesting deeper than any real schema is read as a flat skip.
                        _ if depth >= MAX_NESTING => {}
                        "message" => self.body(Some(si), depth + 1),
                        "enum" => self.enum_body(si),
                        _ => self.service_body(si),
                    }
                    self.i = end;
                }
                "oneof" if parent.is_some() && self.punct(k + 2) == Some(b'{') => {
                    // A oneof's fields belong to the message.
                    self.i = k + 3;
                    if depth < MAX_NESTING {
                        self.body(parent, depth + 1);
                    }
                    self.i = self.i.max(self.skip_block(k + 2));
                }
                "extend" => self.i = self.skip_statement(k),
                _ => match parent {
                    Some(p) => self.field(p),
                    None => self.i = self.skip_statement(k),
                },
            }
        }
    }

    /// `[repeated|optional|required] Type name = N [opts];` or `map<K, V> name = N;`.
    fn field(&mut self, parent: u32) {
        let start = self.i;
        let end = self.skip_statement(start);
        let mut k = start;
        if matches!(self.word(k), Some("repeated" | "optional" | "required")) {
            k += 1;
        }
        let mut types: Vec<(usize, &str)> = Vec::new();
        let type_text;
        if self.word(k) == Some("map") && self.punct(k + 1) == Some(b'<') {
            let mut j = k + 2;
            while j < end && self.punct(j) != Some(b'>') {
                if let Some(t) = self.word(j) {
                    types.push((j, t));
                }
                j += 1;
            }
            type_text = format!("map<{}>", types.iter().map(|(_, t)| *t).collect::<Vec<_>>().join(", "));
            k = j + 1;
        } else if let Some(t) = self.word(k) {
            types.push((k, t));
            type_text = t.to_string();
            k += 1;
        } else {
            self.i = end.max(start + 1);
            return;
        }
        if let (Some(name), Some(b'=')) = (self.word(k), self.punct(k + 1)) {
            let si = self.push(name, NodeKind::Field, Some(parent), start, end);
            self.facts.symbols[si as usize].type_name = Some(type_text.clone());
            self.facts.symbols[si as usize].signature = Some(format!("{type_text} {name}"));
            for (at, t) in types {
                self.type_ref(EdgeKind::TypedAs, si, t, at);
            }
        }
        self.i = end.max(start + 1);
    }

    fn enum_body(&mut self, parent: u32) {
        while self.i < self.toks.len() {
            let k = self.i;
            if self.punct(k) == Some(b'}') {
                return;
            }
            let end = self.skip_statement(k).max(k + 1);
            if let (Some(name), Some(b'=')) = (self.word(k), self.punct(k + 1)) {
                if !matches!(name, "option" | "reserved") {
                    self.push(name, NodeKind::EnumMember, Some(parent), k, end);
                }
            }
            self.i = end;
        }
    }

    /// `rpc Name (stream Req) returns (stream Resp) ;` or `{ option … }`.
    fn service_body(&mut self, parent: u32) {
        while self.i < self.toks.len() {
            let k = self.i;
            if self.punct(k) == Some(b'}') {
                return;
            }
            let end = self.skip_statement(k).max(k + 1);
            if self.word(k) == Some("rpc") {
                if let Some(name) = self.word(k + 1) {
                    let words: Vec<(usize, &str)> = (k + 2..end).filter_map(|j| self.word(j).map(|w| (j, w))).collect();
                    let returns_at = words.iter().position(|&(_, w)| w == "returns");
                    let pick = |ws: &[(usize, &'a str)]| ws.iter().copied().rfind(|&(_, w)| w != "stream");
                    let input = pick(&words[..returns_at.unwrap_or(words.len())]);
                    let output = returns_at.and_then(|r| words.get(r + 1..)).and_then(|ws| {
                        ws.iter()
                            .copied()
                            .take_while(|&(_, w)| w != "option")
                            .find(|&(_, w)| w != "stream")
                    });
                    let si = self.push(name, NodeKind::Method, Some(parent), k, end);
                    let sig = format!(
                        "rpc {name}({}) returns ({})",
                        input.map_or("", |(_, w)| w),
                        output.map_or("", |(_, w)| w)
                    );
                    self.facts.symbols[si as usize].signature = Some(sig);
                    if let Some((_, out)) = output {
                        self.facts.symbols[si as usize].return_type = Some(out.to_string());
                    }
                    if let Some((at, w)) = input {
                        self.type_ref(EdgeKind::TypedAs, si, w, at);
                    }
                    if let Some((at, w)) = output {
                        self.type_ref(EdgeKind::Returns, si, w, at);
                    }
                }
            }
            self.i = end;
        }
    }
}

pub(super) fn extract(text: &str, facts: &mut FileFacts) {
    let mut reader = Reader {
        toks: tokenize(text),
        i: 0,
        lines: Lines::new(text),
        facts: std::mem::take(facts),
    };
    // Unbalanced `}` at the top level end a `body` call early; keep reading after them.
    while reader.i < reader.toks.len() {
        reader.body(None, 0);
    }
    *facts = reader.facts;
}
