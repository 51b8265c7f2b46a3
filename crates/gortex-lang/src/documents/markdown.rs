//! Markdown: every heading (ATX `## Title` or setext `Title` over `===`/`---`) is a `doc`
//! section spanning the text up to the next heading of the same or a higher level, nested under
//! the section that encloses it. Fenced code blocks and front matter are text, never headings.

use super::{line_span, summary};
use gortex_core::{FileFacts, NodeKind, SymbolFact};

/// Longest doc summary kept for a section (its first paragraph).
const SUMMARY_CHARS: usize = 280;

struct Heading {
    level: u8,
    title: String,
    /// 1-based line of the heading (the text line of a setext heading).
    line: u32,
    /// 1-based line where the section's body starts.
    body: u32,
}

pub(super) fn extract(text: &str, facts: &mut FileFacts) {
    let lines: Vec<&str> = text.lines().collect();
    let headings = headings(&lines);
    // Open sections: (level, symbol index).
    let mut open: Vec<(u8, usize)> = Vec::new();
    for (k, h) in headings.iter().enumerate() {
        while open.last().is_some_and(|&(level, _)| level >= h.level) {
            open.pop();
        }
        // The section ends before the next heading of the same or a higher level.
        let end = headings[k + 1..]
            .iter()
            .find(|n| n.level <= h.level)
            .map(|n| n.line - 1)
            .unwrap_or(lines.len() as u32)
            .max(h.line);
        let last_len = lines.get(end as usize - 1).map_or(0, |l| l.len());
        let mut sym = SymbolFact::new(slug(&h.title), NodeKind::Doc, line_span(h.line, end, last_len));
        sym.parent = open.last().map(|&(_, i)| i as u32);
        sym.signature = Some(format!("{} {}", "#".repeat(h.level as usize), h.title));
        sym.exported = true;
        let next = headings.get(k + 1).map_or(lines.len() as u32 + 1, |n| n.line);
        sym.doc = first_paragraph(&lines, h.body, next);
        facts.symbols.push(sym);
        open.push((h.level, facts.symbols.len() - 1));
    }
}

/// The headings of a document, skipping front matter and fenced code.
fn headings(lines: &[&str]) -> Vec<Heading> {
    let mut out = Vec::new();
    let mut i = 0;
    // YAML (`---`) or TOML (`+++`) front matter at the very top.
    if let Some(&first) = lines.first() {
        let fence = first.trim_end();
        if fence == "---" || fence == "+++" {
            if let Some(end) = lines[1..].iter().position(|l| l.trim_end() == fence) {
                i = end + 2;
            }
        }
    }
    let mut fence: Option<(u8, usize)> = None;
    let mut prev_text = false;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if let Some((ch, len)) = fence {
            let run = trimmed.bytes().take_while(|&b| b == ch).count();
            if indent < 4 && run >= len && trimmed[run..].trim().is_empty() {
                fence = None;
            }
            i += 1;
            prev_text = false;
            continue;
        }
        if indent < 4 {
            if let Some(open) = fence_open(trimmed) {
                fence = Some(open);
                i += 1;
                prev_text = false;
                continue;
            }
            if let Some((level, title)) = atx(trimmed) {
                out.push(Heading {
                    level,
                    title,
                    line: i as u32 + 1,
                    body: i as u32 + 2,
                });
                i += 1;
                prev_text = false;
                continue;
            }
            // A setext underline turns the single text line above it into a heading.
            if prev_text && !trimmed.is_empty() {
                let t = trimmed.trim_end();
                let level = if t.bytes().all(|b| b == b'=') {
                    Some(1)
                } else if t.bytes().all(|b| b == b'-') && t.len() >= 2 {
                    Some(2)
                } else {
                    None
                };
                if let Some(level) = level {
                    let title = clean(lines[i - 1].trim());
                    if !title.is_empty() {
                        out.push(Heading {
                            level,
                            title,
                            line: i as u32,
                            body: i as u32 + 2,
                        });
                    }
                    i += 1;
                    prev_text = false;
                    continue;
                }
            }
        }
        // Only a lone paragraph line can be a setext title (not lists, quotes, tables, HTML).
        let starts_paragraph = i == 0 || lines[i - 1].trim().is_empty();
        prev_text = !trimmed.is_empty()
            && indent < 4
            && !trimmed.starts_with(['-', '*', '+', '>', '|', '<'])
            && starts_paragraph;
        i += 1;
    }
    out
}

/// A code fence opener: three or more backticks or tildes.
fn fence_open(trimmed: &str) -> Option<(u8, usize)> {
    let ch = *trimmed.as_bytes().first()?;
    if ch != b'`' && ch != b'~' {
        return None;
    }
    let run = trimmed.bytes().take_while(|&b| b == ch).count();
    // A backtick fence's info string may not contain backticks (that is inline code).
    (run >= 3 && !(ch == b'`' && trimmed[run..].contains('`'))).then_some((ch, run))
}

/// `## Title ##` → (2, "Title").
fn atx(trimmed: &str) -> Option<(u8, String)> {
    let level = trimmed.bytes().take_while(|&b| b == b'#').count();
    if !(1..=6).contains(&level) {
        return None;
    }
    let rest = &trimmed[level..];
    if !rest.is_empty() && !rest.starts_with([' ', '\t']) {
        return None;
    }
    let mut title = rest.trim();
    // A closing run of `#` preceded by a space is not part of the title.
    let stripped = title.trim_end_matches('#');
    if stripped.is_empty() || stripped.ends_with([' ', '\t']) {
        title = stripped.trim_end();
    }
    let title = clean(title);
    (!title.is_empty()).then_some((level as u8, title))
}

/// Heading text without inline markup: `code`, emphasis, links (`[text](url)` → text), images.
fn clean(title: &str) -> String {
    let mut out = String::with_capacity(title.len());
    let mut chars = title.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '`' | '*' | '_' => {}
            '!' if chars.peek() == Some(&'[') => {}
            '[' | ']' => {}
            '(' if out.ends_with(|c: char| !c.is_whitespace()) && title.contains("](") => {
                // The URL of a link: skip to the closing parenthesis.
                for c in chars.by_ref() {
                    if c == ')' {
                        break;
                    }
                }
            }
            c => out.push(c),
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A heading's name: lower-case words joined by `-` (`Install from source` → `install-from-source`),
/// like the anchors documentation sites generate; the title as written is the signature.
fn slug(title: &str) -> String {
    let mut out = String::new();
    for c in title.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.is_empty()
            && !out.ends_with('-')
            && (c.is_whitespace() || c == '-' || c == '_' || c == '.' || c == '/')
        {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').to_string();
    if out.is_empty() {
        "section".to_string()
    } else {
        out
    }
}

/// The first paragraph of a section body (lines `from..until`, 1-based), skipping code.
fn first_paragraph(lines: &[&str], from: u32, until: u32) -> Option<String> {
    let mut para = String::new();
    let mut in_fence: Option<(u8, usize)> = None;
    for line in lines
        .iter()
        .take((until as usize).saturating_sub(1))
        .skip(from as usize - 1)
    {
        let t = line.trim();
        if let Some((ch, len)) = in_fence {
            if t.bytes().take_while(|&b| b == ch).count() >= len {
                in_fence = None;
            }
            continue;
        }
        if let Some(open) = fence_open(t) {
            if !para.is_empty() {
                break;
            }
            in_fence = Some(open);
            continue;
        }
        if t.is_empty() || t.starts_with("<!--") {
            if !para.is_empty() {
                break;
            }
            continue;
        }
        para.push_str(t);
        para.push(' ');
        if para.len() > SUMMARY_CHARS * 4 {
            break;
        }
    }
    let para = clean(&para);
    (!para.is_empty()).then(|| summary(&para, SUMMARY_CHARS))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_and_atx_titles() {
        assert_eq!(slug("Install from source"), "install-from-source");
        assert_eq!(slug("`gortex call` — usage"), "gortex-call-usage");
        assert_eq!(slug("v1.2"), "v1-2");
        assert_eq!(slug("!!!"), "section");
        assert_eq!(atx("## Title ##"), Some((2, "Title".into())));
        assert_eq!(atx("#hashtag"), None);
        assert_eq!(atx("####### seven"), None);
        assert_eq!(atx("# C#"), Some((1, "C#".into())));
        assert_eq!(clean("See [the guide](docs/guide.md) and `x`"), "See the guide and x");
    }
}
