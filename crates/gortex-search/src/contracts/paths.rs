//! HTTP paths as written in routes and calls, made canonical so providers and consumers compare.

/// A path as written (`/users/:id`, `${API}/users/${id}`, `/users/{id}`, `/users/<int:id>`,
/// `http://host/users/%d?x=1`) made canonical (`/users/{}`) with its parameter names.
pub fn canonical_path(raw: &str) -> Option<(String, Vec<String>)> {
    let mut s = raw.trim().to_string();
    if let Some(i) = s.find("://") {
        let rest = &s[i + 3..];
        s = rest
            .find('/')
            .map_or_else(|| "/".to_string(), |j| rest[j..].to_string());
    }
    if let Some(i) = s.find(['?', '#']) {
        s.truncate(i);
    }
    let mut params = Vec::new();
    let mut out = String::new();
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let close = match c {
            '$' if chars.get(i + 1) == Some(&'{') => Some('}'),
            '{' => Some('}'),
            '<' => Some('>'),
            _ => None,
        };
        if let Some(close) = close {
            let start = if c == '$' { i + 2 } else { i + 1 };
            if let Some(len) = chars[start..].iter().position(|&x| x == close) {
                let inner: String = chars[start..start + len].iter().collect();
                let name = inner
                    .rsplit(':')
                    .next()
                    .unwrap_or("")
                    .split(|x: char| !(x.is_alphanumeric() || x == '_'))
                    .rfind(|p| !p.is_empty())
                    .unwrap_or("")
                    .to_string();
                if !name.is_empty() {
                    params.push(name);
                }
                out.push_str("{}");
                i = start + len + 1;
                continue;
            }
        }
        if c == '%' && chars.get(i + 1).is_some_and(|x| x.is_ascii_alphabetic()) {
            out.push_str("{}");
            i += 2;
            continue;
        }
        out.push(c);
        i += 1;
    }
    // `:name` segments (Express, Gin, Rails).
    let mut segs: Vec<String> = Vec::new();
    for seg in out.split('/') {
        if let Some(name) = seg.strip_prefix(':').filter(|n| !n.is_empty()) {
            params.push(name.trim_end_matches('?').to_string());
            segs.push("{}".into());
        } else if seg == "*" || seg.starts_with('*') && seg.len() > 1 {
            segs.push("{}".into());
        } else {
            segs.push(seg.to_string());
        }
    }
    let mut path = segs.join("/");
    // A leading base-URL variable (`${API}/users`, `base + "/users"`): the path starts after it.
    while let Some(rest) = path.strip_prefix("{}") {
        if rest.starts_with('/') || rest.is_empty() {
            path = rest.to_string();
        } else {
            break;
        }
    }
    if !path.starts_with('/') {
        if path.is_empty() {
            return None;
        }
        path.insert(0, '/');
    }
    while path.contains("//") {
        path = path.replace("//", "/");
    }
    if path.len() > 1 && path.ends_with('/') {
        path.pop();
    }
    if path == "/{}" && params.is_empty() && !raw.contains('/') {
        return None;
    }
    Some((path, params))
}

/// The first argument of a call whose `(` is at byte `open` of `text`, as a template: string
/// literals kept (`${x}`, `{x}` and `%d` become `{}`), anything else one `{}` per operand.
pub(crate) fn url_template(text: &str, open: usize) -> Option<String> {
    let bytes = text.as_bytes();
    let mut i = open + 1;
    let mut out = String::new();
    let mut depth = 0usize;
    let mut operand = false;
    let mut any_literal = false;
    while i < bytes.len() {
        // By character, not byte: a name like `dirección` must not be cut inside a character.
        let Some(c) = text[i..].chars().next() else { break };
        match c {
            '\'' | '"' | '`' => {
                let end = text[i + 1..].find(c).map(|e| i + 1 + e)?;
                let lit = &text[i + 1..end];
                // An f-string's `{x}` and a template literal's `${x}` are parameters already in brace form.
                out.push_str(&lit.replace("${", "{"));
                any_literal = true;
                operand = false;
                i = end + 1;
                continue;
            }
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => break,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => break,
            '+' if depth == 0 => operand = false,
            c if depth == 0 && (c.is_alphanumeric() || c == '_' || c == '$') => {
                // `fmt.Sprintf("…", …)`: the format string stands for the whole operand.
                if text[i..].starts_with("fmt.Sprintf(") || text[i..].starts_with("String.format(") {
                    let p = text[i..].find('(').map(|p| i + p)?;
                    let inner = url_template(text, p)?;
                    out.push_str(&inner);
                    any_literal = true;
                    let close = matching_paren(text, p)?;
                    i = close + 1;
                    operand = false;
                    continue;
                }
                // A Python f-string prefix belongs to the literal that follows.
                if (c == 'f' || c == 'r' || c == 'b') && matches!(bytes.get(i + 1), Some(b'"') | Some(b'\'')) {
                    i += 1;
                    continue;
                }
                if !operand {
                    out.push_str("{}");
                    operand = true;
                }
            }
            _ => {}
        }
        i += c.len_utf8();
    }
    any_literal.then_some(out)
}

/// The byte of the `)` closing the `(` at `open`.
fn matching_paren(text: &str, open: usize) -> Option<usize> {
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    for (i, c) in text[open..].char_indices() {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '\'' | '"' | '`' => quote = Some(c),
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + i);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_made_canonical() {
        let c = |s: &str| canonical_path(s).map(|(p, params)| (p, params.join(",")));
        assert_eq!(c("/users/:id"), Some(("/users/{}".into(), "id".into())));
        assert_eq!(
            c("/users/{user_id}/orders"),
            Some(("/users/{}/orders".into(), "user_id".into()))
        );
        assert_eq!(c("/users/<int:uid>"), Some(("/users/{}".into(), "uid".into())));
        assert_eq!(
            c("${API_BASE}/users/${id}?full=1"),
            Some(("/users/{}".into(), "API_BASE,id".into()))
        );
        assert_eq!(
            c("https://api.example.com/v1/items/%d"),
            Some(("/v1/items/{}".into(), "".into()))
        );
        assert_eq!(c("/health/"), Some(("/health".into(), "".into())));
        assert_eq!(c("/"), Some(("/".into(), "".into())));
    }

    #[test]
    fn url_templates_join_literals_and_operands() {
        let t = |s: &str| url_template(s, s.find('(').unwrap());
        assert_eq!(
            t("fetch(`${BASE}/users/${id}`, { method: 'DELETE' })").as_deref(),
            Some("{BASE}/users/{id}")
        );
        assert_eq!(
            t(r#"http.Get(base + "/orders/" + id)"#).as_deref(),
            Some("{}/orders/{}")
        );
        assert_eq!(
            t(r#"requests.get(f"{USERS}/users/{uid}", timeout=3)"#).as_deref(),
            Some("{USERS}/users/{uid}")
        );
        assert_eq!(
            t(r#"http.Get(fmt.Sprintf("%s/orders/%d", base, id))"#).as_deref(),
            Some("%s/orders/%d")
        );
        assert_eq!(t("fetch(url)"), None);
        assert_eq!(
            t(r#"requests.get(dirección + "/usuarios/" + año)"#).as_deref(),
            Some("{}/usuarios/{}")
        );
    }
}
