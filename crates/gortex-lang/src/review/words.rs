//! The vocabulary the rules match names and literals against: secret-like names and values, SQL
//! keywords, query-like calls and the receivers that make an ambiguous name a query.

/// Whether `name` names a credential (`password`, `apiKey`, `AWS_SECRET_ACCESS_KEY`, `auth_token`).
pub fn is_secret_name(name: &str) -> bool {
    let lower: String = name
        .chars()
        .filter(|c| *c != '_' && *c != '-')
        .collect::<String>()
        .to_ascii_lowercase();
    let hit = [
        "password",
        "passwd",
        "pwd",
        "secret",
        "apikey",
        "accesskey",
        "privatekey",
        "authtoken",
        "accesstoken",
        "apitoken",
        "bearertoken",
        "clientsecret",
        "credentials",
    ]
    .iter()
    .any(|w| lower.contains(w))
        || lower == "token";
    // Names that talk about a secret without holding one.
    let meta = [
        "field",
        "label",
        "prompt",
        "placeholder",
        "length",
        "minlength",
        "maxlength",
        "regex",
        "pattern",
        "header",
        "name",
        "key_name",
        "env",
        "path",
        "file",
        "url",
        "hash",
        "policy",
        "reset",
        "hint",
        "message",
        "msg",
        "error",
        "type",
        "param",
        "required",
        "count",
        "dir",
    ]
    .iter()
    .any(|w| lower.ends_with(w));
    hit && !meta
}

/// Whether a literal assigned to a secret-like name looks like a real credential rather than a
/// placeholder, an empty value, a reference to elsewhere or prose.
pub fn looks_like_credential(value: &str) -> bool {
    let v = value.trim();
    if v.len() < 8 || v.contains(' ') {
        return false;
    }
    let lower = v.to_ascii_lowercase();
    let placeholders = [
        "changeme",
        "change-me",
        "change_me",
        "example",
        "placeholder",
        "dummy",
        "fake",
        "mock",
        "sample",
        "redacted",
        "your",
        "xxxx",
        "****",
        "todo",
        "<",
        "${",
        "{{",
        "%s",
        "env:",
        "process.env",
        "os.environ",
    ];
    if placeholders.iter().any(|p| lower.contains(p)) {
        return false;
    }
    // A credential has more than letters: a word or a camelCase name (`tfstateSecretSuffix`) is a
    // key's name, not its value.
    if v.chars().all(|c| c.is_ascii_alphabetic()) {
        return false;
    }
    // An environment variable's name (`AWS_SECRET_ACCESS_KEY`) says where the secret is.
    if v.chars()
        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
    {
        return false;
    }
    // A single repeated character (`aaaaaaaa`) is a placeholder, not a secret.
    let first = v.chars().next().unwrap_or(' ');
    !v.chars().all(|c| c == first)
}

/// Whether a literal has the shape of a well-known credential whatever it is assigned to
/// (AWS access key ids, GitHub/GitLab/Slack tokens, private key blocks).
pub fn is_known_credential_format(value: &str) -> bool {
    let v = value.trim();
    let prefixed = |prefix: &str, min: usize| {
        v.starts_with(prefix)
            && v.len() >= min
            && v[prefix.len()..]
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    };
    (v.len() == 20 && v.starts_with("AKIA") && v[4..].chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()))
        || prefixed("ghp_", 36)
        || prefixed("github_pat_", 40)
        || prefixed("glpat-", 24)
        || prefixed("xoxb-", 24)
        || prefixed("xoxp-", 24)
        || prefixed("sk_live_", 24)
        || v.contains("-----BEGIN") && v.contains("PRIVATE KEY")
}

/// Whether text reads like SQL: a statement keyword followed by its companion
/// (`SELECT … FROM`, `INSERT INTO`, `UPDATE … SET`, `DELETE FROM`, `WHERE`).
pub fn has_sql_keyword(text: &str) -> bool {
    let upper = text.to_ascii_uppercase();
    let words: Vec<&str> = upper
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .filter(|w| !w.is_empty())
        .collect();
    let has = |w: &str| words.contains(&w);
    (has("SELECT") && (has("FROM") || words.len() <= 4))
        || (has("INSERT") && has("INTO"))
        || (has("UPDATE") && has("SET"))
        || (has("DELETE") && has("FROM"))
        || (has("WHERE") && words.len() <= 8)
        || (has("DROP") && has("TABLE"))
}

/// Call names that query a database or the network whatever the receiver.
const QUERY_NAMES: &[&str] = &[
    "query",
    "exec_query",
    "raw",
    "findone",
    "findbyid",
    "findbypk",
    "findunique",
    "findfirst",
    "queryrow",
    "queryrowcontext",
    "querycontext",
    "execcontext",
    "executequery",
    "executeupdate",
    "fetch",
    "urlopen",
    "queryforobject",
    "queryforlist",
    "queryformap",
    "getforobject",
    "getforentity",
];

/// Call names that query only when the receiver is a database, ORM or HTTP client.
const RECEIVER_QUERY_NAMES: &[&str] = &[
    "get", "post", "put", "patch", "delete", "find", "exec", "execute", "select", "filter", "first", "all", "count",
    "load", "request", "findall", "scalar", "one", "getone", "hget", "hgetall",
];

/// Receivers that make an ambiguous call name a query.
const IO_RECEIVERS: &[&str] = &[
    "db",
    "database",
    "conn",
    "connection",
    "cursor",
    "cur",
    "session",
    "client",
    "pool",
    "repo",
    "repository",
    "dao",
    "em",
    "entitymanager",
    "jdbctemplate",
    "jdbc",
    "tx",
    "knex",
    "prisma",
    "requests",
    "http",
    "https",
    "axios",
    "httpclient",
    "api",
    "orm",
    "stmt",
    "redis",
    "mongo",
    "collection",
    "store",
    "sql",
    "sqlx",
    "gorm",
    "restclient",
    "resttemplate",
    "webclient",
    "okhttp",
    "urllib",
];

/// Whether calling `name` on `receiver_leaf` reads like a query or a request.
pub fn is_query_call(name: &str, receiver_leaf: Option<&str>) -> bool {
    let lower = name.to_ascii_lowercase();
    if lower.contains("many") || lower.contains("batch") || lower.contains("bulk") {
        return false;
    }
    if QUERY_NAMES.contains(&lower.as_str()) {
        return true;
    }
    let Some(receiver) = receiver_leaf else { return false };
    RECEIVER_QUERY_NAMES.contains(&lower.as_str()) && is_io_receiver(receiver)
}

/// Whether a receiver's name is a database, ORM or HTTP client (`db`, `userRepo`, `self.session`).
pub fn is_io_receiver(receiver_leaf: &str) -> bool {
    let r = receiver_leaf.to_ascii_lowercase();
    IO_RECEIVERS.iter().any(|w| {
        r == *w
            || r.ends_with(w)
                && (r.ends_with("repo")
                    || r.ends_with("repository")
                    || r.ends_with("client")
                    || r.ends_with("dao")
                    || r.ends_with("db")
                    || r.ends_with("session"))
    })
}

/// A hash or cipher name that is weak for security use.
pub fn weak_algorithm(name: &str) -> Option<&'static str> {
    let n = name.trim().to_ascii_uppercase().replace(['-', '_'], "");
    Some(match n.as_str() {
        "MD5" | "MD4" | "MD2" => "MD5",
        "SHA1" | "SHA" => "SHA-1",
        _ if n.starts_with("DES") || n.starts_with("3DES") || n.starts_with("DESEDE") => "DES",
        _ if n.starts_with("RC4") || n.starts_with("ARCFOUR") => "RC4",
        _ if n.contains("ECB") => "ECB mode",
        _ => return None,
    })
}

/// Words around a hash that say it protects something: then MD5 and SHA-1 are too weak. Without
/// them a digest is usually a checksum, a cache key or a content id, where they are fine.
pub fn is_security_context(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    [
        "password",
        "passwd",
        "secret",
        "token",
        "apikey",
        "api_key",
        "credential",
        "sign",
        "auth",
        "hmac",
        "salt",
        "nonce",
        "cookie",
        "session",
        "private",
        "encrypt",
        "cipher",
        "otp",
    ]
    .iter()
    .any(|w| lower.contains(w))
}

/// Names (of the function or variable a hash lands in) that say it is not for security.
pub fn is_non_security_use(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    [
        "checksum",
        "etag",
        "cachekey",
        "cache_key",
        "fingerprint",
        "dedup",
        "shard",
        "bucket",
    ]
    .iter()
    .any(|w| lower.contains(w))
}

/// Whether an expression as written is a sanitiser call or a constant: safe to splice into SQL
/// or a shell command.
pub fn is_safe_value(value: &str) -> bool {
    let v = value.trim();
    let head = v.split('(').next().unwrap_or(v).trim();
    let leaf = head.rsplit(['.', ':']).next().unwrap_or(head).to_ascii_lowercase();
    let sanitiser = v.contains('(')
        && [
            "escape",
            "quote",
            "sanitize",
            "sanitise",
            "int",
            "parseint",
            "number",
            "itoa",
            "formatint",
            "valueof",
            "tostring",
            "len",
            "shlex",
            "identifier",
            "placeholder",
            "placeholders",
        ]
        .iter()
        .any(|w| leaf == *w || leaf.starts_with(w) || leaf.ends_with(w) && *w != "int");
    let constant = !v.is_empty()
        && v.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_' || c == '.')
        && v.chars().any(|c| c.is_ascii_uppercase());
    let numeric = v.parse::<f64>().is_ok();
    sanitiser || constant || numeric
}
