//! Dockerfiles: each `FROM` starts a build `stage` (named by `AS name`, else `stage-N`), spanning
//! its instructions. `FROM <earlier stage>` is an `extends` reference, `COPY --from=<stage>` and
//! `RUN --mount=…,from=<stage>` are references, and a base image from a registry is a
//! dependency on module `docker:<image>` (tag and digest dropped).

use super::line_span;
use gortex_core::{EdgeKind, FileFacts, ImportFact, ImportKind, NodeKind, Receiver, RefFact, SymbolFact};

/// One logical instruction: continuation lines joined, with its first and last line.
struct Instruction {
    keyword: String,
    args: String,
    first: u32,
    last: u32,
    last_len: usize,
}

fn instructions(text: &str) -> Vec<Instruction> {
    let mut out: Vec<Instruction> = Vec::new();
    let mut pending: Option<Instruction> = None;
    for (i, raw) in text.lines().enumerate() {
        let n = i as u32 + 1;
        let line = raw.trim();
        if let Some(ins) = pending.as_mut() {
            // Comment lines inside a continued instruction are dropped by Docker.
            if !line.starts_with('#') {
                let (part, more) = continued(line);
                ins.args.push(' ');
                ins.args.push_str(part);
                ins.last = n;
                ins.last_len = raw.len();
                if !more {
                    out.extend(pending.take());
                }
            }
            continue;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (part, more) = continued(line);
        let (keyword, args) = part.split_once(char::is_whitespace).unwrap_or((part, ""));
        let ins = Instruction {
            keyword: keyword.to_ascii_uppercase(),
            args: args.trim().to_string(),
            first: n,
            last: n,
            last_len: raw.len(),
        };
        if more {
            pending = Some(ins);
        } else {
            out.push(ins);
        }
    }
    out.extend(pending);
    out
}

/// A line without its trailing `\` continuation, and whether it had one.
fn continued(line: &str) -> (&str, bool) {
    match line.strip_suffix('\\') {
        Some(part) => (part.trim_end(), true),
        None => (line, false),
    }
}

fn reference(facts: &mut FileFacts, kind: EdgeKind, from: usize, name: &str, line: u32) {
    facts.refs.push(RefFact {
        kind,
        from: Some(from as u32),
        name: name.to_string(),
        receiver: Receiver::None,
        line,
        col: 0,
        via: None,
    });
}

pub(super) fn extract(text: &str, facts: &mut FileFacts) {
    let all = instructions(text);
    // Stage names by index, known before the instructions that refer to them.
    let names: Vec<(String, Option<String>)> = all
        .iter()
        .filter(|i| i.keyword == "FROM")
        .enumerate()
        .map(|(k, i)| {
            let words: Vec<&str> = i.args.split_whitespace().filter(|w| !w.starts_with("--")).collect();
            let alias = match words.as_slice() {
                [_, as_kw, name, ..] if as_kw.eq_ignore_ascii_case("as") => Some(name.to_string()),
                _ => None,
            };
            (
                alias.clone().unwrap_or_else(|| format!("stage-{k}")),
                words.first().map(|w| w.to_string()),
            )
        })
        .collect();
    let stage_ref = |word: &str| -> Option<String> {
        match word.parse::<usize>() {
            Ok(k) => names.get(k).map(|(n, _)| n.clone()),
            Err(_) => names.iter().any(|(n, _)| n == word).then(|| word.to_string()),
        }
    };
    let mut stage: Option<usize> = None;
    let mut k = 0usize;
    for (idx, ins) in all.iter().enumerate() {
        if ins.keyword == "FROM" {
            let (name, image) = &names[k];
            // The stage runs to the instruction before the next FROM.
            let (last, last_len) = match all[idx + 1..].iter().take_while(|i| i.keyword != "FROM").last() {
                Some(i) => (i.last, i.last_len),
                None => (ins.last, ins.last_len),
            };
            let mut sym = SymbolFact::new(name.clone(), NodeKind::Stage, line_span(ins.first, last, last_len));
            sym.signature = Some(format!("FROM {}", ins.args));
            sym.exported = true;
            facts.symbols.push(sym);
            let si = facts.symbols.len() - 1;
            stage = Some(si);
            if let Some(image) = image {
                // An earlier stage, else an image (unless a build argument picks it: `$BASE`).
                if let Some(base) = names[..k].iter().find(|(n, _)| n == image).map(|(n, _)| n.clone()) {
                    reference(facts, EdgeKind::Extends, si, &base, ins.first);
                } else if !image.contains('$') && !image.eq_ignore_ascii_case("scratch") {
                    let module = format!("docker:{}", image_name(image));
                    if !facts.imports.iter().any(|i| i.module == module) {
                        facts.imports.push(ImportFact {
                            module,
                            kind: ImportKind::Dependency,
                            name: None,
                            local: None,
                            reexport: false,
                            type_only: false,
                            line: ins.first,
                        });
                    }
                }
            }
            k += 1;
            continue;
        }
        let Some(si) = stage else { continue };
        for word in ins.args.split_whitespace().take_while(|w| w.starts_with("--")) {
            let from = word.strip_prefix("--from=").or_else(|| {
                word.strip_prefix("--mount=")
                    .and_then(|m| m.split(',').find_map(|kv| kv.strip_prefix("from=")))
            });
            if let Some(target) = from.and_then(&stage_ref) {
                reference(facts, EdgeKind::References, si, &target, ins.first);
            }
        }
    }
}

/// `registry:5000/team/app:1.2@sha256:…` → `registry:5000/team/app`.
fn image_name(image: &str) -> &str {
    let image = image.split('@').next().unwrap_or(image);
    let last_slash = image.rfind('/').map_or(0, |i| i + 1);
    match image[last_slash..].find(':') {
        Some(colon) => &image[..last_slash + colon],
        None => image,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_names_drop_tags_and_digests() {
        assert_eq!(image_name("golang:1.22-alpine"), "golang");
        assert_eq!(image_name("registry:5000/team/app:1.2"), "registry:5000/team/app");
        assert_eq!(
            image_name("gcr.io/distroless/static@sha256:abc"),
            "gcr.io/distroless/static"
        );
    }
}
