//! A language-agnostic lexer that reduces source text to a normalised token stream, so two
//! bodies that differ only in names, literal values, comments or layout lex to the same tokens.
//!
//! Normalisation:
//! - identifiers become [`IDENT`] (`v`) unless they are in the universal keyword set, which keeps
//!   control flow and declaration shape (`if`, `return`, `fn`, `def`, `class`, `true`, `self`, …);
//! - numbers become [`NUMBER`] (`0`), strings of every flavour (quotes, template literals, Python
//!   prefixes and triple quotes, docstrings, Rust raw and byte strings, Go raw strings, Java text
//!   blocks, char literals, JS regex literals) become [`STRING`] (`s`);
//! - each of `( ) [ ] { } , ;` is its own token; any other run of adjacent punctuation is one
//!   operator token (`===`, `=>`, `?.`, `::`);
//! - whitespace and comments are dropped (`//` and `/* */` for C-family languages, nested for
//!   Rust; `#` for Python).
//!
//! Malformed input (unterminated strings or comments, stray bytes) never fails: the lexer
//! resynchronises at the next line or the end of the text.

use gortex_core::Language;
use rustc_hash::FxHashMap;
use std::sync::OnceLock;

/// A normalised token: a small class or keyword id, or a hash of an operator run (high bit set).
pub type Token = u32;

/// Any identifier that is not a keyword (`v`).
pub const IDENT: Token = 1;
/// Any numeric literal (`0`).
pub const NUMBER: Token = 2;
/// Any string, char, template or regex literal (`s`).
pub const STRING: Token = 3;
const PUNCT_BASE: Token = 4;
const KEYWORD_BASE: Token = 32;
const OPERATOR_FLAG: Token = 0x8000_0000;

/// The universal keyword set: words that keep their identity across a rename.
pub const KEYWORDS: &[&str] = &[
    // control flow
    "if",
    "else",
    "elif",
    "for",
    "while",
    "do",
    "loop",
    "return",
    "break",
    "continue",
    "goto",
    "switch",
    "case",
    "default",
    "match",
    "select",
    "fallthrough",
    "defer",
    "go",
    "yield",
    "await",
    "async",
    "try",
    "catch",
    "finally",
    "throw",
    "throws",
    "raise",
    "except",
    "with",
    "pass",
    "assert",
    "in",
    "of",
    "is",
    "not",
    "and",
    "or",
    "range",
    "where",
    "lambda",
    "del",
    "delete",
    // declarations and modifiers
    "func",
    "function",
    "def",
    "fn",
    "class",
    "struct",
    "interface",
    "enum",
    "trait",
    "impl",
    "type",
    "let",
    "const",
    "var",
    "mut",
    "ref",
    "move",
    "static",
    "final",
    "abstract",
    "public",
    "private",
    "protected",
    "pub",
    "readonly",
    "declare",
    "extends",
    "implements",
    "new",
    "import",
    "export",
    "from",
    "package",
    "use",
    "mod",
    "module",
    "namespace",
    "crate",
    "extern",
    "unsafe",
    "dyn",
    "as",
    "global",
    "nonlocal",
    "synchronized",
    "volatile",
    "transient",
    "instanceof",
    "typeof",
    "keyof",
    "satisfies",
    "chan",
    "map",
    // primitive types
    "void",
    "int",
    "long",
    "short",
    "byte",
    "char",
    "float",
    "double",
    "boolean",
    "bool",
    "string",
    "number",
    "any",
    "unknown",
    "never",
    // literals and receivers
    "true",
    "false",
    "True",
    "False",
    "null",
    "nil",
    "None",
    "undefined",
    "this",
    "self",
    "Self",
    "super",
];

fn keyword_ids() -> &'static FxHashMap<&'static [u8], Token> {
    static IDS: OnceLock<FxHashMap<&'static [u8], Token>> = OnceLock::new();
    IDS.get_or_init(|| {
        KEYWORDS
            .iter()
            .enumerate()
            .map(|(i, k)| (k.as_bytes(), KEYWORD_BASE + i as Token))
            .collect()
    })
}

/// The token of a word: its keyword id, or [`IDENT`].
fn word_token(word: &[u8]) -> Token {
    // Every keyword is 2..=12 bytes and starts with an ASCII letter; most identifiers fail fast.
    if !(2..=12).contains(&word.len()) || !word[0].is_ascii_alphabetic() {
        return IDENT;
    }
    keyword_ids().get(word).copied().unwrap_or(IDENT)
}

fn punct_token(b: u8) -> Option<Token> {
    let i = match b {
        b'(' => 0,
        b')' => 1,
        b'[' => 2,
        b']' => 3,
        b'{' => 4,
        b'}' => 5,
        b',' => 6,
        b';' => 7,
        _ => return None,
    };
    Some(PUNCT_BASE + i)
}

fn operator_token(run: &[u8]) -> Token {
    (xxhash_rust::xxh3::xxh3_64(run) as u32) | OPERATOR_FLAG
}

/// True when the tokens hold a code block (`{`) or an arrow (`=>`): what separates a function
/// with a body from a bare declaration (an overload, `declare function`, an interface or trait
/// member, an abstract method) in the brace languages.
pub fn has_block(tokens: &[Token]) -> bool {
    let open = PUNCT_BASE + 4;
    let arrow = operator_token(b"=>");
    tokens.iter().any(|&t| t == open || t == arrow)
}

/// A readable name for a token (`v`, `0`, `s`, `(`, a keyword, or `op` for operator runs);
/// for tests and debugging.
pub fn token_name(t: Token) -> &'static str {
    match t {
        IDENT => "v",
        NUMBER => "0",
        STRING => "s",
        t if (PUNCT_BASE..PUNCT_BASE + 8).contains(&t) => {
            ["(", ")", "[", "]", "{", "}", ",", ";"][(t - PUNCT_BASE) as usize]
        }
        t if (KEYWORD_BASE..KEYWORD_BASE + KEYWORDS.len() as Token).contains(&t) => {
            KEYWORDS[(t - KEYWORD_BASE) as usize]
        }
        _ => "op",
    }
}

/// Tokens of a text with the byte offset each token starts at.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Lexed {
    pub tokens: Vec<Token>,
    pub starts: Vec<u32>,
}

impl Lexed {
    /// The tokens that start inside the byte range `start..end`.
    pub fn slice(&self, start: usize, end: usize) -> &[Token] {
        let lo = self.starts.partition_point(|&s| (s as usize) < start);
        let hi = self.starts.partition_point(|&s| (s as usize) < end);
        &self.tokens[lo..hi.max(lo)]
    }
}

/// The normalised tokens of `text`.
pub fn tokenize(text: &str, language: Language) -> Vec<Token> {
    lex(text, language).tokens
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    /// TypeScript, TSX, JavaScript: template literals, regex literals.
    Ecma,
    /// Go: backtick raw strings, rune literals.
    Go,
    /// Rust: nested block comments, raw/byte strings, lifetimes.
    Rust,
    /// Java (and C, C++, C#, Kotlin, PHP, whose quoting and comments it mostly shares): text blocks.
    Java,
    /// Python: `#` comments, prefixed and triple-quoted strings.
    Python,
}

fn style(language: Language) -> Style {
    match language {
        Language::TypeScript | Language::Tsx | Language::JavaScript | Language::Vue | Language::Svelte => Style::Ecma,
        Language::Go => Style::Go,
        Language::Rust => Style::Rust,
        Language::Java | Language::C | Language::Cpp | Language::CSharp | Language::Kotlin | Language::Php => {
            Style::Java
        }
        // `#` comments, like Python's.
        Language::Python | Language::Ruby | Language::Bash | Language::Elixir => Style::Python,
        // C-like quoting and comments; `--` and `%` comments read as operators, so bodies still
        // compare token for token.
        Language::Lua
        | Language::Erlang
        | Language::Elm
        | Language::Dart
        | Language::Haskell
        | Language::Zig
        | Language::Swift
        | Language::Scala => Style::Java,
        // Documents have no function bodies except SQL routines and proto RPCs (declarations);
        // C-style comments and quotes cover proto, and SQL's `--` comments only add tokens.
        Language::Markdown
        | Language::Json
        | Language::Yaml
        | Language::Toml
        | Language::Dockerfile
        | Language::Proto
        | Language::Sql
        | Language::Text => Style::Java,
    }
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

fn is_word_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$' || b >= 0x80
}

fn is_operator_byte(b: u8) -> bool {
    b.is_ascii_punctuation() && punct_token(b).is_none() && !matches!(b, b'"' | b'\'' | b'`' | b'_' | b'$')
}

/// Lexes `text` into normalised tokens with their start offsets; see the module docs.
pub fn lex(text: &str, language: Language) -> Lexed {
    Lexer {
        s: text.as_bytes(),
        i: 0,
        style: style(language),
        out: Lexed {
            tokens: Vec::with_capacity(text.len() / 4),
            starts: Vec::with_capacity(text.len() / 4),
        },
    }
    .run()
}

struct Lexer<'a> {
    s: &'a [u8],
    i: usize,
    style: Style,
    out: Lexed,
}

impl Lexer<'_> {
    fn peek(&self, k: usize) -> u8 {
        self.s.get(self.i + k).copied().unwrap_or(0)
    }

    fn push(&mut self, t: Token, start: usize) {
        self.out.tokens.push(t);
        self.out.starts.push(start as u32);
    }

    fn run(mut self) -> Lexed {
        while self.i < self.s.len() {
            let b = self.s[self.i];
            let start = self.i;
            if b.is_ascii_whitespace() {
                self.i += 1;
            } else if self.comment_start() {
                self.skip_comment();
            } else if let Some(t) = punct_token(b) {
                self.i += 1;
                self.push(t, start);
            } else if b.is_ascii_digit() {
                self.number();
                self.push(NUMBER, start);
            } else if is_word_start(b) {
                self.word(start);
            } else if b == b'"' || b == b'\'' || b == b'`' {
                self.quoted(start);
            } else if self.style == Style::Ecma && b == b'/' && self.regex_allowed() && self.regex() {
                self.push(STRING, start);
            } else if is_operator_byte(b) {
                self.operator_run();
                let t = operator_token(&self.s[start..self.i]);
                self.push(t, start);
            } else {
                // Control characters and other stray bytes carry no structure.
                self.i += 1;
            }
        }
        self.out
    }

    fn comment_start(&self) -> bool {
        match self.style {
            Style::Python => self.s[self.i] == b'#',
            _ => self.s[self.i] == b'/' && matches!(self.peek(1), b'/' | b'*'),
        }
    }

    fn skip_comment(&mut self) {
        if self.style == Style::Python || self.peek(1) == b'/' {
            self.skip_line();
            return;
        }
        self.i += 2;
        let nested = self.style == Style::Rust;
        let mut depth = 1usize;
        while self.i < self.s.len() {
            if self.s[self.i] == b'*' && self.peek(1) == b'/' {
                self.i += 2;
                depth -= 1;
                if depth == 0 {
                    return;
                }
            } else if nested && self.s[self.i] == b'/' && self.peek(1) == b'*' {
                self.i += 2;
                depth += 1;
            } else {
                self.i += 1;
            }
        }
    }

    fn skip_line(&mut self) {
        while self.i < self.s.len() && self.s[self.i] != b'\n' {
            self.i += 1;
        }
    }

    fn number(&mut self) {
        let hex = self.s[self.i] == b'0' && matches!(self.peek(1), b'x' | b'X');
        while self.i < self.s.len() {
            let b = self.s[self.i];
            let digit_part = b.is_ascii_alphanumeric() || b == b'_';
            let fraction = b == b'.' && self.peek(1).is_ascii_digit();
            let exponent_sign = (b == b'+' || b == b'-')
                && !hex
                && matches!(self.s[self.i - 1], b'e' | b'E')
                && self.peek(1).is_ascii_digit();
            if !(digit_part || fraction || exponent_sign) {
                break;
            }
            self.i += 1;
        }
    }

    fn word(&mut self, start: usize) {
        while self.i < self.s.len() && is_word_byte(self.s[self.i]) {
            self.i += 1;
        }
        let word = &self.s[start..self.i];
        let next = self.peek(0);
        match self.style {
            Style::Python if matches!(next, b'"' | b'\'') && is_python_prefix(word) => {
                self.python_string();
                self.push(STRING, start);
                return;
            }
            Style::Rust if (word == b"r" || word == b"br") && matches!(next, b'"' | b'#') => {
                if self.rust_raw_string() {
                    self.push(STRING, start);
                    return;
                }
                if word == b"r" && next == b'#' && is_word_start(self.peek(1)) {
                    // Raw identifier `r#type`.
                    self.i += 1;
                    while self.i < self.s.len() && is_word_byte(self.s[self.i]) {
                        self.i += 1;
                    }
                    self.push(IDENT, start);
                    return;
                }
            }
            Style::Rust if word == b"b" && matches!(next, b'"' | b'\'') => {
                self.quoted(start);
                return;
            }
            _ => {}
        }
        self.push(word_token(word), start);
    }

    fn quoted(&mut self, start: usize) {
        let q = self.s[self.i];
        match (self.style, q) {
            (Style::Python, _) => self.python_string(),
            (Style::Java, b'"') if self.peek(1) == b'"' && self.peek(2) == b'"' => self.triple(b'"'),
            (Style::Ecma, b'`') => self.template(),
            (Style::Go, b'`') => {
                self.i += 1;
                while self.i < self.s.len() && self.s[self.i] != b'`' {
                    self.i += 1;
                }
                self.i = (self.i + 1).min(self.s.len());
            }
            (Style::Rust, b'\'') => {
                if !self.rust_char_literal() {
                    // A lifetime or label (`'a`): the quote is dropped, the name lexes as a word.
                    self.i += 1;
                    return;
                }
            }
            (_, b'`') => {
                // Backticks outside JS and Go: a stray operator byte.
                self.i += 1;
                let t = operator_token(b"`");
                self.push(t, start);
                return;
            }
            _ => self.simple_string(q),
        }
        self.push(STRING, start);
    }

    /// A `'`/`"` string with backslash escapes, ending at its quote or (unterminated) the line end.
    fn simple_string(&mut self, q: u8) {
        self.i += 1;
        while self.i < self.s.len() {
            match self.s[self.i] {
                b'\\' => self.i += 2,
                b'\n' => return,
                b if b == q => {
                    self.i += 1;
                    return;
                }
                _ => self.i += 1,
            }
        }
        self.i = self.s.len();
    }

    fn triple(&mut self, q: u8) {
        self.i += 3;
        while self.i < self.s.len() {
            match self.s[self.i] {
                b'\\' => self.i += 2,
                b if b == q && self.peek(1) == q && self.peek(2) == q => {
                    self.i += 3;
                    return;
                }
                _ => self.i += 1,
            }
        }
        self.i = self.s.len();
    }

    fn python_string(&mut self) {
        let q = self.s[self.i];
        if self.peek(1) == q && self.peek(2) == q {
            self.triple(q);
        } else {
            self.simple_string(q);
        }
    }

    /// At `'` in Rust: consumes a char literal (`'x'`, `'\n'`, `'\u{1F600}'`, `'é'`) and returns
    /// true, or returns false for a lifetime or label.
    fn rust_char_literal(&mut self) -> bool {
        let rest = &self.s[self.i + 1..];
        let len = if rest.first() == Some(&b'\\') {
            match rest.iter().take(12).position(|&b| b == b'\'') {
                Some(p) if p >= 2 => p,
                _ => return false,
            }
        } else {
            let Some(&first) = rest.first() else { return false };
            let width = utf8_width(first);
            if rest.get(width) != Some(&b'\'') {
                return false;
            }
            width
        };
        self.i += len + 2;
        true
    }

    /// After `r`/`br` in Rust, at `"` or `#`: consumes `#*"…"#*` and returns true, or returns
    /// false (leaving the position unchanged) when no raw string starts here.
    fn rust_raw_string(&mut self) -> bool {
        let mut j = self.i;
        while j < self.s.len() && self.s[j] == b'#' {
            j += 1;
        }
        if self.s.get(j) != Some(&b'"') {
            return false;
        }
        let hashes = j - self.i;
        j += 1;
        while j < self.s.len() {
            if self.s[j] == b'"' && self.s[j + 1..].iter().take(hashes).filter(|&&b| b == b'#').count() == hashes {
                self.i = j + 1 + hashes;
                return true;
            }
            j += 1;
        }
        self.i = self.s.len();
        true
    }

    /// A JS/TS template literal, including nested templates and strings inside `${…}`.
    fn template(&mut self) {
        // Stack of open contexts: `None` = inside template text, `Some(d)` = inside `${…}` code
        // with `d` unmatched `{`.
        let mut stack: Vec<Option<u32>> = vec![None];
        self.i += 1;
        while self.i < self.s.len() {
            let b = self.s[self.i];
            match stack.last_mut() {
                None => return,
                Some(None) => match b {
                    b'\\' => self.i += 2,
                    b'`' => {
                        self.i += 1;
                        stack.pop();
                        if stack.is_empty() {
                            return;
                        }
                    }
                    b'$' if self.peek(1) == b'{' => {
                        self.i += 2;
                        stack.push(Some(0));
                    }
                    _ => self.i += 1,
                },
                Some(Some(depth)) => match b {
                    b'{' => {
                        *depth += 1;
                        self.i += 1;
                    }
                    b'}' => {
                        if *depth == 0 {
                            stack.pop();
                        } else {
                            *depth -= 1;
                        }
                        self.i += 1;
                    }
                    b'`' => {
                        self.i += 1;
                        stack.push(None);
                    }
                    b'"' | b'\'' => self.simple_string(b),
                    b'/' if matches!(self.peek(1), b'/' | b'*') => self.skip_comment(),
                    _ => self.i += 1,
                },
            }
        }
        self.i = self.s.len();
    }

    /// Whether a `/` here may start a regex literal (JS/TS): after an operator, an opening
    /// bracket, a comma or semicolon, a keyword like `return`, or at the start.
    fn regex_allowed(&self) -> bool {
        match self.out.tokens.last() {
            None => true,
            Some(&t) if t & OPERATOR_FLAG != 0 => true,
            Some(&t) if (KEYWORD_BASE..KEYWORD_BASE + KEYWORDS.len() as Token).contains(&t) => {
                matches!(
                    token_name(t),
                    "return" | "typeof" | "case" | "in" | "of" | "yield" | "await" | "delete" | "void"
                )
            }
            Some(&t) => [b'(', b'[', b'{', b'}', b',', b';']
                .iter()
                .any(|&p| punct_token(p) == Some(t)),
        }
    }

    /// At `/`: consumes a regex literal and its flags if one ends on this line.
    fn regex(&mut self) -> bool {
        let mut j = self.i + 1;
        let mut class = false;
        while j < self.s.len() {
            match self.s[j] {
                b'\n' => return false,
                b'\\' => j += 1,
                b'[' => class = true,
                b']' => class = false,
                b'/' if !class => {
                    if j == self.i + 1 {
                        return false;
                    }
                    j += 1;
                    while j < self.s.len() && self.s[j].is_ascii_alphabetic() {
                        j += 1;
                    }
                    self.i = j;
                    return true;
                }
                _ => {}
            }
            j += 1;
        }
        false
    }

    fn operator_run(&mut self) {
        self.i += 1;
        while self.i < self.s.len() && is_operator_byte(self.s[self.i]) && !self.comment_start() {
            self.i += 1;
        }
    }
}

fn is_python_prefix(word: &[u8]) -> bool {
    word.len() <= 2
        && word
            .iter()
            .all(|b| matches!(b.to_ascii_lowercase(), b'r' | b'b' | b'u' | b'f'))
}

fn utf8_width(first: u8) -> usize {
    match first {
        0xF0.. => 4,
        0xE0.. => 3,
        0xC0.. => 2,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str, lang: Language) -> String {
        tokenize(text, lang)
            .into_iter()
            .map(token_name)
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn renamed_identifiers_lex_identically() {
        let a = "function total(items: Item[]): number { let sum = 0; for (const it of items) { sum += it.price * 2; } return sum; }";
        let b = "function  grandTotal(rows: Row[]): number {\n  let acc = 0;\n  for (const r of rows) { acc += r.cost * 17; }\n  return acc;\n}";
        assert_eq!(tokenize(a, Language::TypeScript), tokenize(b, Language::TypeScript));
        assert_eq!(
            names(a, Language::TypeScript),
            "function v ( v op v [ ] ) op number { let v op 0 ; for ( const v of v ) { v op v op v op 0 ; } return v ; }"
        );
    }

    #[test]
    fn comments_and_whitespace_are_dropped() {
        let a = "fn f(x: u32) -> u32 { x + 1 }";
        let b = "/* lead /* nested */ still */ fn f(\n  x: u32, // trailing\n) -> u32 {\n    x + 1\n}";
        assert_eq!(names(a, Language::Rust), "fn v ( v op v ) op v { v op 0 }");
        assert_eq!(names(b, Language::Rust), "fn v ( v op v , ) op v { v op 0 }");
        let py = "def f(x):  # comment\n    # another\n    return x // 2\n";
        assert_eq!(names(py, Language::Python), "def v ( v ) op return v op 0");
        let go = "func f() int { /* c */ return 1 // trailing\n}";
        assert_eq!(names(go, Language::Go), "func v ( ) int { return 0 }");
    }

    #[test]
    fn strings_and_numbers_are_normalised() {
        assert_eq!(
            names(
                r#"x = "a\"b" + 'c' + `t ${y + `in ${z}`} {}` + 0x1F + 1.5e-3"#,
                Language::JavaScript
            ),
            "v op s op s op s op 0 op 0"
        );
        let py = "def f():\n    \"\"\"Doc with 'quotes'\n    and lines.\"\"\"\n    return rb'x' + f\"{y}\" + '''z'''\n";
        assert_eq!(names(py, Language::Python), "def v ( ) op s return s op s op s");
        assert_eq!(
            names(
                r####"let s = r#"raw "quoted""#; let c = '\n'; let b = b"x"; fn g<'a>(x: &'a str) {}"####,
                Language::Rust
            ),
            "let v op s ; let v op s ; let v op s ; fn v op v op ( v op op v v ) { }"
        );
        assert_eq!(names("s := `raw\nstring` + 'r'", Language::Go), "v op s op s");
        assert_eq!(
            names("String t = \"\"\"\n  block \" text\n  \"\"\";", Language::Java),
            "v v op s ;"
        );
    }

    #[test]
    fn regex_literals_and_division() {
        assert_eq!(names("const r = /a[/]\"b/gi;", Language::TypeScript), "const v op s ;");
        assert_eq!(names("x = a / b / c;", Language::TypeScript), "v op v op v op v ;");
    }

    #[test]
    fn operator_runs_and_punctuation() {
        assert_eq!(names("a?.b ?? c => {}", Language::TypeScript), "v op v op v op { }");
        assert_ne!(
            tokenize("a === b", Language::TypeScript),
            tokenize("a !== b", Language::TypeScript)
        );
        assert_eq!(
            tokenize("a === b", Language::TypeScript),
            tokenize("c===d", Language::TypeScript)
        );
    }

    #[test]
    fn malformed_input_never_panics() {
        for text in [
            "\"unterminated",
            "/* open",
            "`${",
            "'",
            "r#\"",
            "r#",
            "b'",
            "0x",
            "1e+",
            "/",
            "\u{1F600}'é'",
            "'\\",
        ] {
            for lang in Language::ALL {
                let _ = lex(text, *lang);
            }
        }
    }

    #[test]
    fn blocks_tell_bodies_from_declarations() {
        let ts = |t: &str| has_block(&tokenize(t, Language::TypeScript));
        assert!(ts("function f(x: number): number { return x; }"));
        assert!(ts("const f = (x: number) => x + 1;"));
        assert!(!ts("function f(x: number, y: string): Promise<void>"));
        assert!(!has_block(&tokenize("fn f(&self) -> u32;", Language::Rust)));
        assert!(!has_block(&tokenize("Read(p []byte) (n int, err error)", Language::Go)));
    }

    #[test]
    fn slice_selects_tokens_in_range() {
        let text = "a b c d";
        let lexed = lex(text, Language::Go);
        assert_eq!(lexed.slice(2, 5).len(), 2);
        assert_eq!(lexed.slice(0, text.len()).len(), 4);
        assert_eq!(lexed.slice(7, 7).len(), 0);
    }
}
