//! The search tokeniser, shared by indexing and queries so both sides split text the same way.
//!
//! Rules (the tests pin each one):
//! - Any character that is not alphanumeric separates tokens (`_ - / . : $ @ ( ) <` space, …).
//! - Inside an alphanumeric run, a token ends at a lower→upper change (`parseHttp` → parse, http),
//!   before the last capital of an acronym that starts a new word (`HTTPResponse` → http,
//!   response), and at every letter↔digit change (`utf8Decode` → utf, 8, decode). Digits become
//!   their own tokens so `utf8`, `utf-8` and `UTF_8` all index alike.
//! - Tokens are lowercased.
//! - One-letter words are dropped (`i`, `x`, the `s` of `s3Client`); digit tokens are kept at any
//!   length because versions and sizes (`v2` → 2, `sha256` → sha, 256) matter.
//! - Tokens longer than [`MAX_TOKEN_LEN`] bytes (hashes, base64 blobs in docs) are dropped.

/// Longest token (in bytes) that is indexed; longer runs are noise such as hashes.
pub const MAX_TOKEN_LEN: usize = 64;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Upper,
    Lower,
    Digit,
}

fn class(c: char) -> Option<Class> {
    if c.is_ascii_digit() || (!c.is_ascii() && c.is_numeric()) {
        Some(Class::Digit)
    } else if c.is_uppercase() {
        Some(Class::Upper)
    } else if c.is_alphanumeric() {
        // Lowercase letters and caseless scripts behave alike.
        Some(Class::Lower)
    } else {
        None
    }
}

fn ascii_class(b: u8) -> Option<Class> {
    match b {
        b'0'..=b'9' => Some(Class::Digit),
        b'A'..=b'Z' => Some(Class::Upper),
        b'a'..=b'z' => Some(Class::Lower),
        _ => None,
    }
}

/// Calls `emit` with every token of `text`, in order (duplicates included), reusing one buffer.
pub fn for_each_token(text: &str, mut emit: impl FnMut(&str)) {
    let mut buf = String::with_capacity(32);
    if text.is_ascii() {
        split(
            text,
            text.bytes().enumerate().map(|(i, b)| (i, ascii_class(b))),
            &mut buf,
            &mut emit,
        );
    } else {
        split(
            text,
            text.char_indices().map(|(i, c)| (i, class(c))),
            &mut buf,
            &mut emit,
        );
    }
}

/// The splitting state machine over (byte offset, class) of each character.
fn split(
    text: &str,
    chars: impl Iterator<Item = (usize, Option<Class>)>,
    buf: &mut String,
    emit: &mut impl FnMut(&str),
) {
    let mut start: Option<usize> = None;
    // (byte offset, class) of the previous character in the current run, and the class before it.
    let mut prev: Option<(usize, Class)> = None;
    let mut prev2: Option<Class> = None;
    for (i, cl) in chars {
        let Some(cl) = cl else {
            if let Some(s) = start.take() {
                flush(&text[s..i], buf, emit);
            }
            prev = None;
            prev2 = None;
            continue;
        };
        match (start, prev) {
            (None, _) | (_, None) => start = Some(i),
            (Some(s), Some((pi, pc))) => {
                let split_at = match (pc, cl) {
                    (Class::Lower, Class::Upper) => Some(i),
                    (Class::Digit, Class::Upper | Class::Lower) | (Class::Upper | Class::Lower, Class::Digit) => {
                        Some(i)
                    }
                    // `HTTPResponse`: the `R` starts the next word once a lowercase letter follows.
                    (Class::Upper, Class::Lower) if prev2 == Some(Class::Upper) => Some(pi),
                    _ => None,
                };
                if let Some(at) = split_at {
                    if at > s {
                        flush(&text[s..at], buf, emit);
                    }
                    start = Some(at);
                }
            }
        }
        prev2 = prev.map(|(_, c)| c);
        prev = Some((i, cl));
    }
    if let Some(s) = start {
        flush(&text[s..], buf, emit);
    }
}

fn flush(piece: &str, buf: &mut String, emit: &mut impl FnMut(&str)) {
    if piece.is_empty() || piece.len() > MAX_TOKEN_LEN {
        return;
    }
    buf.clear();
    if piece.is_ascii() {
        if piece.len() == 1 && !piece.as_bytes()[0].is_ascii_digit() {
            return;
        }
        buf.push_str(piece);
        buf.make_ascii_lowercase();
    } else {
        let digits = piece.chars().all(|c| class(c) == Some(Class::Digit));
        if !digits && piece.chars().nth(1).is_none() {
            return;
        }
        buf.extend(piece.chars().flat_map(char::to_lowercase));
    }
    emit(buf);
}

/// The tokens of `text` as owned strings (queries and tests; indexing uses [`for_each_token`]).
pub fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_token(text, |t| out.push(t.to_string()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Vec<String> {
        tokens(s)
    }

    #[test]
    fn camel_case_and_acronyms() {
        assert_eq!(t("parseHTTPResponse"), ["parse", "http", "response"]);
        assert_eq!(t("HTTPServer"), ["http", "server"]);
        assert_eq!(t("getUserByEmail"), ["get", "user", "by", "email"]);
        assert_eq!(t("UserRepository"), ["user", "repository"]);
        assert_eq!(t("XMLHttpRequest"), ["xml", "http", "request"]);
        assert_eq!(t("ALLCAPS"), ["allcaps"]);
    }

    #[test]
    fn snake_kebab_and_separators() {
        assert_eq!(t("get_user_by_email"), ["get", "user", "by", "email"]);
        assert_eq!(t("PAYMENT_TIMEOUT_MS"), ["payment", "timeout", "ms"]);
        assert_eq!(t("user-profile-card"), ["user", "profile", "card"]);
        assert_eq!(t("src/util/strings.ts"), ["src", "util", "strings", "ts"]);
        assert_eq!(t("UserService.findById"), ["user", "service", "find", "by", "id"]);
        assert_eq!(t("std::io::Read"), ["std", "io", "read"]);
        assert_eq!(t("__init__"), ["init"]);
        assert_eq!(t("$scope @Input()"), ["scope", "input"]);
    }

    #[test]
    fn digits_are_their_own_tokens() {
        assert_eq!(t("utf8Decode"), ["utf", "8", "decode"]);
        assert_eq!(t("utf-8"), ["utf", "8"]);
        assert_eq!(t("sha256sum"), ["sha", "256", "sum"]);
        assert_eq!(t("Int64Array"), ["int", "64", "array"]);
        // One-letter words go, digits stay.
        assert_eq!(t("v2"), ["2"]);
        assert_eq!(t("s3Client"), ["3", "client"]);
    }

    #[test]
    fn one_letter_words_and_long_runs_are_dropped() {
        assert_eq!(t("a b cd"), ["cd"]);
        assert_eq!(t("getX"), ["get"]);
        assert!(t(&"a".repeat(65)).is_empty());
        assert_eq!(t(&"a".repeat(64)).len(), 1);
        assert!(t("").is_empty());
        assert!(t("  ::  ").is_empty());
    }

    #[test]
    fn unicode_is_lowercased_and_split_like_ascii() {
        assert_eq!(t("ÜberCache"), ["über", "cache"]);
        assert_eq!(t("größeBerechnen"), ["größe", "berechnen"]);
    }
}
