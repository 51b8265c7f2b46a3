//! The block formats: `.proto` services, GraphQL SDL and operations, OpenAPI documents, and the
//! files that define environment variables — small state machines over a file's lines.

use super::{bare_type, ext_of, file_name, re, Raw};
use regex::Regex;
use std::sync::OnceLock;

/// `.proto`: every rpc of every service, with its package and message types.
pub(super) fn proto_sites(lines: &[&str], out: &mut Vec<Raw>) {
    static SERVICE: OnceLock<Regex> = OnceLock::new();
    static RPC: OnceLock<Regex> = OnceLock::new();
    static PACKAGE: OnceLock<Regex> = OnceLock::new();
    let service = SERVICE.get_or_init(|| re(r"^\s*service\s+(\w+)\s*\{"));
    let rpc = RPC.get_or_init(|| {
        re(r"^\s*rpc\s+(\w+)\s*\(\s*(stream\s+)?([\w.]+)\s*\)\s*returns\s*\(\s*(stream\s+)?([\w.]+)\s*\)")
    });
    let package = PACKAGE.get_or_init(|| re(r"^\s*package\s+([\w.]+)\s*;"));
    let mut pkg: Option<String> = None;
    let mut current: Option<String> = None;
    // Braces open inside the service: an rpc's `{ option … }` body closes at depth 1, the service at 0.
    let mut depth = 0i32;
    for (i, l) in lines.iter().enumerate() {
        let code = l.split("//").next().unwrap_or("");
        let opened = code.matches('{').count() as i32;
        let closed = code.matches('}').count() as i32;
        if current.is_some() && service.captures(l).is_none() {
            depth += opened - closed;
            if depth <= 0 {
                current = None;
                depth = 0;
                continue;
            }
        }
        if let Some(c) = package.captures(l) {
            pkg = Some(c[1].to_string());
        } else if let Some(c) = service.captures(l) {
            current = Some(c[1].to_string());
            depth = opened - closed;
            let mut raw = Raw::new(
                "grpc",
                "provider",
                format!("grpc::{}", &c[1]),
                c[1].to_string(),
                "proto",
                i as u32 + 1,
            );
            raw.package = pkg.clone();
            out.push(raw);
        } else if let (Some(svc), Some(c)) = (&current, rpc.captures(l)) {
            let mut raw = Raw::new(
                "grpc",
                "provider",
                format!("grpc::{svc}::{}", &c[1]),
                format!("{svc}.{}", &c[1]),
                "proto",
                i as u32 + 1,
            );
            raw.package = pkg.clone();
            raw.request_type = Some(c[3].to_string());
            raw.response_type = Some(c[5].to_string());
            raw.request_stream = c.get(2).is_some();
            raw.response_stream = c.get(4).is_some();
            out.push(raw);
        }
    }
}

/// GraphQL SDL blocks (`type Query { … }`, also inside template strings) and operations.
pub(super) fn graphql_sites(lines: &[&str], operations: bool, out: &mut Vec<Raw>) {
    static TYPE: OnceLock<Regex> = OnceLock::new();
    static FIELD: OnceLock<Regex> = OnceLock::new();
    static OP: OnceLock<Regex> = OnceLock::new();
    static SELECTION: OnceLock<Regex> = OnceLock::new();
    let ty = TYPE.get_or_init(|| re(r"^\s*(?:extend\s+)?type\s+(Query|Mutation|Subscription)\b[^{]*\{\s*$"));
    let field = FIELD.get_or_init(|| re(r"^\s*(\w+)\s*(?:\([^)]*\))?\s*:\s*([\[\]\w!]+)"));
    let op = OP.get_or_init(|| re(r"\b(query|mutation|subscription)\b\s*(\w+)?\s*(?:\([^)]*\))?\s*\{\s*(.*)$"));
    let selection = SELECTION.get_or_init(|| re(r"^\s*(?:\w+\s*:\s*)?(\w+)"));
    let mut root: Option<&'static str> = None;
    // Lines of a field whose arguments spread over several lines (how Prettier writes long ones).
    let mut skip_to = 0usize;
    for (i, l) in lines.iter().enumerate() {
        if i < skip_to {
            continue;
        }
        if let Some(c) = ty.captures(l) {
            root = Some(match &c[1] {
                "Query" => "Query",
                "Mutation" => "Mutation",
                _ => "Subscription",
            });
            continue;
        }
        if let Some(r) = root {
            if l.trim_start().starts_with('}') {
                root = None;
                continue;
            }
            // `user(` … `): User` over several lines: read as one.
            let joined;
            let mut text: &str = l;
            if l.contains('(') && !l.contains(')') {
                if let Some(end) = (i + 1..lines.len().min(i + 50)).find(|&j| lines[j].contains(')')) {
                    joined = lines[i..=end].join(" ");
                    text = &joined;
                    skip_to = end + 1;
                }
            }
            if let Some(c) = field.captures(text) {
                let mut raw = Raw::new(
                    "graphql",
                    "provider",
                    format!("graphql::{r}.{}", &c[1]),
                    format!("{r}.{}", &c[1]),
                    "sdl",
                    i as u32 + 1,
                );
                raw.response_type = Some(bare_type(&c[2]));
                out.push(raw);
            }
            continue;
        }
        if !operations {
            continue;
        }
        if let Some(c) = op.captures(l) {
            let root = match &c[1] {
                "query" => "Query",
                "mutation" => "Mutation",
                _ => "Subscription",
            };
            // The first selected field: on the same line, or the next non-empty one.
            let rest = c.get(3).map_or("", |m| m.as_str());
            let first = selection
                .captures(rest)
                .or_else(|| {
                    lines[i + 1..]
                        .iter()
                        .find(|x| !x.trim().is_empty())
                        .and_then(|x| selection.captures(x))
                })
                .map(|s| s[1].to_string());
            if let Some(f) = first {
                let mut raw = Raw::new(
                    "graphql",
                    "consumer",
                    format!("graphql::{root}.{f}"),
                    format!("{root}.{f}"),
                    "operation",
                    i as u32 + 1,
                );
                raw.request_type = c.get(2).map(|m| m.as_str().to_string());
                out.push(raw);
            }
        }
    }
}

/// OpenAPI / Swagger YAML: every operation under `paths:`, with the schemas its request body and
/// first response name.
pub(super) fn openapi_yaml_sites(lines: &[&str], out: &mut Vec<Raw>) {
    static PATH: OnceLock<Regex> = OnceLock::new();
    static METHOD: OnceLock<Regex> = OnceLock::new();
    static REF: OnceLock<Regex> = OnceLock::new();
    let path_re = PATH.get_or_init(|| re(r#"^(\s+)['"]?(/[^'":]*)['"]?\s*:\s*$"#));
    let method_re = METHOD.get_or_init(|| re(r"^(\s+)(get|post|put|delete|patch|head|options)\s*:\s*$"));
    let ref_re = REF.get_or_init(|| re(r#"\$ref\s*:\s*['"]?#/(?:components/schemas|definitions)/([\w.-]+)"#));
    let indent = |l: &str| l.len() - l.trim_start().len();
    let Some(start) = lines.iter().position(|l| l.trim_end() == "paths:") else {
        return;
    };
    let base = indent(lines[start]);
    let mut path: Option<(usize, String)> = None;
    let mut op: Option<usize> = None; // index into out
    let mut section = "";
    // `items:` seen in this section: the schema named next is of an array's elements.
    let mut items = false;
    for (i, l) in lines.iter().enumerate().skip(start + 1) {
        if l.trim().is_empty() || l.trim_start().starts_with('#') {
            continue;
        }
        let ind = indent(l);
        if ind <= base {
            break;
        }
        if let Some(c) = path_re.captures(l) {
            if path.as_ref().is_none_or(|(pi, _)| ind <= *pi) {
                path = Some((ind, c[2].to_string()));
                op = None;
                continue;
            }
        }
        if let (Some((pi, p)), Some(c)) = (&path, method_re.captures(l)) {
            if ind > *pi {
                let method = c[2].to_ascii_uppercase();
                if let Some(raw) = Raw::http("openapi", "provider", "openapi", i as u32 + 1, method, p.clone()) {
                    out.push(raw);
                    op = Some(out.len() - 1);
                    section = "";
                }
                continue;
            }
        }
        if let Some(o) = op {
            let t = l.trim_start();
            if t.starts_with("requestBody:") {
                section = "request";
                items = false;
            } else if t.starts_with("responses:") {
                section = "response";
                items = false;
            } else if t.starts_with("items:") {
                items = true;
            }
            if let Some(c) = ref_re.captures(l) {
                let named = if items {
                    format!("{}[]", &c[1])
                } else {
                    c[1].to_string()
                };
                let raw = &mut out[o];
                match section {
                    "request" if raw.request_type.is_none() => raw.request_type = Some(named),
                    "response" if raw.response_type.is_none() => raw.response_type = Some(named),
                    _ => {}
                }
            }
        }
    }
}

/// OpenAPI / Swagger JSON.
pub(super) fn openapi_json_sites(text: &str, lines: &[&str], out: &mut Vec<Raw>) {
    let Ok(doc) = serde_json::from_str::<serde_json::Value>(text) else {
        return;
    };
    let Some(paths) = doc.get("paths").and_then(|p| p.as_object()) else {
        return;
    };
    let schema_name = |v: Option<&serde_json::Value>| -> Option<String> {
        let content = v?.get("content")?.as_object()?;
        let schema = content.values().next()?.get("schema")?;
        if let Some(r) = schema.get("$ref").and_then(|r| r.as_str()) {
            return Some(r.rsplit('/').next()?.to_string());
        }
        let r = schema.get("items")?.get("$ref")?.as_str()?;
        Some(format!("{}[]", r.rsplit('/').next()?))
    };
    for (p, item) in paths {
        let line = lines
            .iter()
            .position(|l| l.contains(&format!("\"{p}\"")))
            .map_or(1, |i| i as u32 + 1);
        let Some(item) = item.as_object() else { continue };
        for (m, op) in item {
            let method = m.to_ascii_uppercase();
            if !["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"].contains(&method.as_str()) {
                continue;
            }
            let Some(mut raw) = Raw::http("openapi", "provider", "openapi", line, method, p.clone()) else {
                continue;
            };
            raw.request_type = schema_name(op.get("requestBody"));
            raw.response_type = op.get("responses").and_then(|r| r.as_object()).and_then(|r| {
                ["200", "201", "default"]
                    .iter()
                    .find_map(|code| schema_name(r.get(*code)))
                    .or_else(|| r.values().find_map(|v| schema_name(Some(v))))
            });
            out.push(raw);
        }
    }
}

/// Environment variables a file defines: `.env*` files, Dockerfile `ENV`, and `env:` /
/// `environment:` blocks of Compose and Kubernetes YAML.
pub(super) fn env_definitions(path: &str, lines: &[&str], out: &mut Vec<Raw>) {
    static ASSIGN: OnceLock<Regex> = OnceLock::new();
    static DOCKER: OnceLock<Regex> = OnceLock::new();
    static ITEM: OnceLock<Regex> = OnceLock::new();
    let assign = ASSIGN.get_or_init(|| re(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*="));
    let docker = DOCKER.get_or_init(|| re(r"^\s*ENV\s+([A-Za-z_][A-Za-z0-9_]*)[\s=]"));
    // `- name: X`, `- X=value`, `X: value` (inside an env block).
    let item = ITEM.get_or_init(|| re(r#"^\s*(?:-\s*name\s*:\s*["']?([A-Za-z_][A-Za-z0-9_]*)["']?\s*$|-\s*["']?([A-Za-z_][A-Za-z0-9_]*)=|([A-Za-z_][A-Za-z0-9_]*)\s*:)"#));
    let name = file_name(path);
    let mut push = |n: &str, line: usize, source: &'static str| {
        out.push(Raw::new(
            "env",
            "provider",
            format!("env::{n}"),
            n.to_string(),
            source,
            line as u32 + 1,
        ));
    };
    if name.starts_with(".env") || name.ends_with(".env") {
        for (i, l) in lines.iter().enumerate() {
            if let Some(c) = assign.captures(l) {
                push(&c[1], i, "dotenv");
            }
        }
        return;
    }
    if name == "Dockerfile" || name.starts_with("Dockerfile.") || name.ends_with(".dockerfile") {
        for (i, l) in lines.iter().enumerate() {
            if let Some(c) = docker.captures(l) {
                push(&c[1], i, "dockerfile");
            }
        }
        return;
    }
    if !matches!(ext_of(path), "yml" | "yaml") {
        return;
    }
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut block: Option<usize> = None;
    for (i, l) in lines.iter().enumerate() {
        if l.trim().is_empty() {
            continue;
        }
        let t = l.trim_start();
        if let Some(b) = block {
            if indent(l) <= b && !t.starts_with('-') || indent(l) < b {
                block = None;
            }
        }
        if t == "env:" || t == "environment:" || t == "- env:" {
            block = Some(indent(l));
            continue;
        }
        if block.is_some() {
            if let Some(c) = item.captures(l) {
                let n = c.get(1).or(c.get(2)).or(c.get(3)).map(|m| m.as_str()).unwrap_or("");
                // Kubernetes' `value:` / `valueFrom:` keys are not variables.
                if !n.is_empty()
                    && n != "value"
                    && n != "valueFrom"
                    && n != "name"
                    && n.chars().any(|ch| ch.is_ascii_uppercase())
                {
                    push(n, i, "manifest");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(rows: &[Raw]) -> Vec<String> {
        rows.iter()
            .map(|r| {
                format!(
                    "{} {} {} {} {:?} {:?}",
                    r.kind, r.role, r.key, r.line, r.request_type, r.response_type
                )
            })
            .collect()
    }

    #[test]
    fn proto_services_methods_and_streams() {
        let text = "syntax = \"proto3\";\npackage shop.v1;\nservice Cart {\n  rpc Add (AddReq) returns (CartReply) {\n    option (google.api.http) = {\n      post: \"/v1/cart\"\n    };\n  }\n  rpc Watch (WatchReq) returns (stream CartReply) {}\n}\nmessage AddReq {}\n";
        let lines: Vec<&str> = text.lines().collect();
        let mut out = Vec::new();
        proto_sites(&lines, &mut out);
        assert_eq!(
            summary(&out),
            vec![
                "grpc provider grpc::Cart 3 None None",
                "grpc provider grpc::Cart::Add 4 Some(\"AddReq\") Some(\"CartReply\")",
                "grpc provider grpc::Cart::Watch 9 Some(\"WatchReq\") Some(\"CartReply\")",
            ]
        );
        assert!(out[2].response_stream && !out[2].request_stream);
        assert_eq!(out[0].package.as_deref(), Some("shop.v1"));
    }

    #[test]
    fn graphql_schema_fields_and_operation_roots() {
        let text = "type Query {\n  cart(id: ID!): Cart\n  search(\n    text: String!\n    first: Int\n  ): [Cart!]!\n  carts: [Cart!]!\n}\nconst Q = gql`\n  mutation AddItem($id: ID!) {\n    addItem(id: $id) { id }\n  }\n`;\n";
        let lines: Vec<&str> = text.lines().collect();
        let mut out = Vec::new();
        graphql_sites(&lines, true, &mut out);
        assert_eq!(
            summary(&out),
            vec![
                "graphql provider graphql::Query.cart 2 None Some(\"Cart\")",
                "graphql provider graphql::Query.search 3 None Some(\"Cart\")",
                "graphql provider graphql::Query.carts 7 None Some(\"Cart\")",
                "graphql consumer graphql::Mutation.addItem 10 Some(\"AddItem\") None",
            ]
        );
    }

    #[test]
    fn openapi_yaml_operations_with_their_schemas() {
        let text = "openapi: 3.0.0\npaths:\n  /carts/{id}:\n    get:\n      responses:\n        '200':\n          content:\n            application/json:\n              schema:\n                type: array\n                items:\n                  $ref: '#/components/schemas/Cart'\n    put:\n      requestBody:\n        content:\n          application/json:\n            schema:\n              $ref: '#/components/schemas/CartInput'\n      responses:\n        '200':\n          description: ok\ncomponents:\n  schemas: {}\n";
        let lines: Vec<&str> = text.lines().collect();
        let mut out = Vec::new();
        openapi_yaml_sites(&lines, &mut out);
        assert_eq!(
            summary(&out),
            vec![
                "openapi provider http::GET::/carts/{} 4 None Some(\"Cart[]\")",
                "openapi provider http::PUT::/carts/{} 13 Some(\"CartInput\") None",
            ]
        );
    }

    #[test]
    fn environment_definitions_in_dotenv_dockerfile_compose_and_kubernetes() {
        let mut out = Vec::new();
        env_definitions(
            ".env.example",
            &["# comment", "export API_URL=http://x", "TOKEN="],
            &mut out,
        );
        env_definitions("Dockerfile", &["FROM x", "ENV PORT=8080", "ENV MODE prod"], &mut out);
        env_definitions(
            "deploy/app.yaml",
            &[
                "spec:",
                "  containers:",
                "    - name: app",
                "      env:",
                "        - name: DB_HOST",
                "          value: db",
                "        - name: DB_PORT",
                "      image: app",
            ],
            &mut out,
        );
        env_definitions(
            "docker-compose.yml",
            &[
                "services:",
                "  a:",
                "    environment:",
                "      - QUEUE=jobs",
                "    ports: []",
            ],
            &mut out,
        );
        let names: Vec<&str> = out.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(
            names,
            vec!["API_URL", "TOKEN", "PORT", "MODE", "DB_HOST", "DB_PORT", "QUEUE"]
        );
    }
}
