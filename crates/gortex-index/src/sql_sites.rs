//! The SQL kinds of `analyze`: SQL written in code, read from the syntax trees (string literals
//! that begin with a SQL verb, `evidence: "ast"`), joined with the tables the graph holds (the
//! `CREATE TABLE`s of `.sql` files, and `CREATE TABLE` strings in code, such as migrations):
//!
//! - **`sql_call_sites`**: every SQL string in Go, Python, JavaScript, TypeScript, Java, Rust and
//!   C#, with its verb, the tables it names (after `FROM`, `JOIN`, `INTO`, `UPDATE`, `TABLE`) and
//!   the function it is in.
//! - **`unreferenced_tables`**: tables defined and never read or written by code (no
//!   `SELECT`/`INSERT`/`UPDATE`/`DELETE`/`MERGE`/`WITH` string names them), with the views that
//!   still read them.
//! - **`orphan_tables`**: tables code reads or writes that nothing here defines (often a typo,
//!   a dropped table, or a schema kept elsewhere — the answer says when there is no schema at all).
//!
//! Table names are compared case-insensitively by their last part (`public.users` is `users`),
//! quotes removed. A string counts as SQL when its verb's companion keyword is there (`SELECT …
//! FROM`, `UPDATE … SET`, …) and it names a table: `SELECT 1` and prose such as "Select a file"
//! are left out. SQL built by concatenation shows only the literal parts.

use crate::sweep::enclosing_function;
use crate::sweep::{Hit, SweepCoverage};
use crate::RepoIndex;
use gortex_core::{EdgeKind, Language, NodeKind, QueryError, TypeFlavor};
use gortex_graph::query::common::check_limit_with;
use gortex_graph::query::NodeSummary;
use gortex_graph::{Graph, NodeIndex};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Sites listed per orphan table.
pub const SITES_PER_TABLE: usize = 10;

/// A string literal that begins with a SQL verb (after a prefix such as `r`, `f`, `@`, `$`).
const SQL_START: &str =
    r#"(?i)^[a-z@$]{0,2}[\"'`]+\\s*(select|insert|update|delete|with|create|alter|drop|merge|truncate)\\s"#;

fn sql_patterns() -> Vec<(Language, String)> {
    let one = |nodes: &str| format!(r#"([{nodes}] @sql (#match? @sql "{SQL_START}"))"#);
    vec![
        (Language::Go, one("(interpreted_string_literal) (raw_string_literal)")),
        (Language::Python, one("(string)")),
        (Language::JavaScript, one("(string) (template_string)")),
        (Language::TypeScript, one("(string) (template_string)")),
        (Language::Tsx, one("(string) (template_string)")),
        (Language::Java, one("(string_literal)")),
        (Language::Rust, one("(string_literal) (raw_string_literal)")),
        (
            Language::CSharp,
            one("(string_literal) (verbatim_string_literal) (raw_string_literal)"),
        ),
    ]
}

/// Every verb a SQL string may begin with (what [`SQL_START`] matches).
const VERBS: [&str; 10] = [
    "SELECT", "INSERT", "UPDATE", "DELETE", "WITH", "CREATE", "ALTER", "DROP", "MERGE", "TRUNCATE",
];

/// Verbs that read or write rows (the rest define or change the schema).
const DML: [&str; 6] = ["SELECT", "INSERT", "UPDATE", "DELETE", "MERGE", "WITH"];

/// The SQL text of a literal: quotes and prefix removed, whitespace collapsed.
fn sql_text(literal: &str) -> String {
    let body = literal.trim_start_matches(|c: char| c.is_ascii_alphabetic() || c == '@' || c == '$');
    let body = body.trim_matches(|c| c == '"' || c == '\'' || c == '`');
    body.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The verb and the tables a SQL text names: the word after `FROM`, `JOIN`, `INTO`, `UPDATE` or
/// `TABLE` (past `IF NOT EXISTS`, `ONLY`, `LATERAL`), unless it opens a subquery or is `SET`, or the
/// keyword sits inside a function call (`EXTRACT(year FROM d)`).
fn parse_sql(sql: &str) -> (String, Vec<String>) {
    let words: Vec<&str> = sql
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .filter(|w| !w.is_empty())
        .collect();
    let verb = words
        .first()
        .map(|w| w.trim_start_matches('(').to_ascii_uppercase())
        .unwrap_or_default();
    const SKIP: [&str; 6] = ["if", "not", "exists", "only", "lateral", "ignore"];
    let mut tables = BTreeSet::new();
    for (i, w) in words.iter().enumerate() {
        let keyword = w.trim_start_matches('(').to_ascii_lowercase();
        if !["from", "join", "into", "update", "table"].contains(&keyword.as_str()) {
            continue;
        }
        // `EXTRACT(year FROM d)`: the word before opens a call it does not close.
        let open = |w: &str| w.matches('(').count() > w.matches(')').count();
        let in_call = i > 0 && open(words[i - 1]) && !words[i - 1].starts_with('(');
        let next = words[i + 1..]
            .iter()
            .find(|n| !SKIP.contains(&n.to_ascii_lowercase().as_str()));
        // `DO UPDATE SET …` (an upsert's action) names no table.
        let Some(next) = next.filter(|n| !in_call && !n.starts_with('(') && !n.eq_ignore_ascii_case("set")) else {
            continue;
        };
        let name = table_key(next.split('(').next().unwrap_or("").trim_end_matches(')'));
        let plain = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if plain && name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_') {
            tables.insert(name);
        }
    }
    (verb, tables.into_iter().collect())
}

/// Whether a string that begins with a SQL verb reads as SQL: the verb's companion keyword is
/// there (`SELECT … FROM`, `INSERT INTO`, `UPDATE … SET`, `DELETE FROM`, `CREATE|ALTER|DROP
/// TABLE|VIEW|INDEX`, `WITH … AS (`, `MERGE INTO`, `TRUNCATE`) and it names a table. Prose that
/// happens to begin with a verb ("Select a file", "Update the record") mostly fails this.
fn plausible(verb: &str, sql: &str, tables: &[String]) -> bool {
    let lower = format!(" {} ", sql.to_ascii_lowercase());
    let has = |w: &str| lower.contains(&format!(" {w} "));
    let companion = match verb {
        "SELECT" => has("from"),
        "INSERT" | "MERGE" => has("into"),
        "UPDATE" => has("set"),
        "DELETE" => has("from") && !sql.ends_with(['?', '.', '!']),
        "CREATE" | "ALTER" | "DROP" => has("table") || has("view") || has("index"),
        "WITH" => lower.contains(" as (") || lower.contains(" as("),
        _ => true,
    };
    companion && !tables.is_empty()
}

/// A table name as compared: quotes removed, the last dotted part, lower case.
fn table_key(name: &str) -> String {
    let unquoted: String = name.chars().filter(|c| !matches!(c, '"' | '`' | '[' | ']')).collect();
    unquoted.rsplit('.').next().unwrap_or("").to_ascii_lowercase()
}

/// One SQL string in code.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SqlSite {
    /// The first word, upper case (`SELECT`, `INSERT`, `CREATE`, …).
    pub verb: String,
    /// The tables it names, lower case, sorted.
    pub tables: Vec<String>,
    pub path: String,
    pub line: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub function: Option<NodeSummary>,
    /// The SQL, whitespace collapsed, cut to 200 characters.
    pub sql: String,
}

impl RepoIndex {
    /// Every SQL string under `prefix`.
    fn sql_sites(&self, g: &Graph, prefix: Option<&str>) -> Result<(Vec<SqlSite>, SweepCoverage), QueryError> {
        self.sql_sites_counted(g, prefix)
            .map(|(sites, _, coverage)| (sites, coverage))
    }

    /// Every SQL string under `prefix`, and how many literals began with a SQL verb but were not
    /// read as SQL (prose, or SQL naming no table).
    fn sql_sites_counted(
        &self,
        g: &Graph,
        prefix: Option<&str>,
    ) -> Result<(Vec<SqlSite>, usize, SweepCoverage), QueryError> {
        let patterns = sql_patterns();
        let borrowed: Vec<(Language, &str)> = patterns.iter().map(|(l, p)| (*l, p.as_str())).collect();
        let (hits, coverage) = self.ast_hits(g, &borrowed, prefix)?;
        let visited = hits.len();
        let sites = hits
            .iter()
            .filter_map(|h: &Hit| {
                let sql = sql_text(&h.text);
                let (verb, tables) = parse_sql(&sql);
                plausible(&verb, &sql, &tables).then_some((h, sql, verb, tables))
            })
            .map(|(h, sql, verb, tables)| SqlSite {
                verb,
                tables,
                path: h.path.clone(),
                line: h.line,
                function: enclosing_function(g, &h.path, h.line)
                    .filter(|&f| g.node_at(f).kind.is_callable())
                    .map(|f| NodeSummary::at(g, f)),
                sql: sql.chars().take(200).collect(),
            })
            .collect::<Vec<SqlSite>>();
        let mut sites = sites;
        sites.sort_by(|a, b| a.path.cmp(&b.path).then(a.line.cmp(&b.line)));
        let skipped = visited - sites.len();
        Ok((sites, skipped, coverage))
    }

    /// `analyze kind=sql_rebuild` (see [`SqlRebuildResult`]).
    pub(crate) fn sql_rebuild(&self, g: &Graph, a: &SqlRebuildArgs) -> Result<SqlRebuildResult, QueryError> {
        let prefix = gortex_analysis::reach::check_path_prefix(a.path_prefix.as_deref())?;
        let (sites, skipped, coverage) = self.sql_sites_counted(g, prefix.as_deref())?;
        // Definitions are read repository-wide: a second sweep only when a prefix narrowed the first.
        let all = match prefix {
            Some(_) => self.sql_sites_counted(g, None)?.0,
            None => sites.clone(),
        };
        let graph_tables = defined_tables(g);
        let mut defined: BTreeSet<&str> = graph_tables.keys().map(String::as_str).collect();
        let mut by_verb: BTreeMap<String, usize> = BTreeMap::new();
        let mut used: BTreeSet<&str> = BTreeSet::new();
        let mut links: BTreeSet<(Option<&str>, &str, bool)> = BTreeSet::new();
        let mut emitters: BTreeSet<&str> = BTreeSet::new();
        // Definitions come from the whole repository, as the table audits read them.
        for s in all
            .iter()
            .filter(|s| s.verb == "CREATE" && s.sql.to_ascii_lowercase().contains(" table "))
        {
            defined.extend(s.tables.iter().map(String::as_str));
        }
        for s in &sites {
            *by_verb.entry(s.verb.clone()).or_insert(0) += 1;
            let function = s.function.as_ref().map(|f| f.id.as_str());
            if let Some(f) = function {
                emitters.insert(f);
            }
            if !DML.contains(&s.verb.as_str()) {
                continue;
            }
            let write = matches!(s.verb.as_str(), "INSERT" | "UPDATE" | "DELETE" | "MERGE");
            for t in &s.tables {
                used.insert(t);
                links.insert((function.or(Some(s.path.as_str())), t, write));
            }
        }
        let writes = links.iter().filter(|l| l.2).count();
        Ok(SqlRebuildResult {
            strings_visited: sites.len() + skipped,
            sql_strings: sites.len(),
            not_sql: skipped,
            by_verb,
            tables_defined: defined.len(),
            tables_used: used.len(),
            links: links.len(),
            reads: links.len() - writes,
            writes,
            emitters: emitters.len(),
            orphan_tables: used
                .iter()
                .filter(|t| !defined.contains(*t) && !is_system_table(t))
                .count(),
            unreferenced_tables: graph_tables.keys().filter(|t| !used.contains(t.as_str())).count(),
            coverage,
        })
    }
}

/// Arguments of `analyze kind=sql_rebuild`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SqlRebuildArgs {
    /// Only code under this repository-relative prefix (definitions are read from the whole
    /// repository).
    #[serde(default)]
    pub path_prefix: Option<String>,
}

/// The answer of `analyze kind=sql_rebuild`: the SQL layer re-derived from the current files in
/// one pass — nothing of it is stored, so every SQL kind answers from the files as they are — and
/// summarised, a health check of SQL extraction: `not_sql` counts literals that begin like SQL
/// and were not read as SQL (prose, or SQL the parser found no table in).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SqlRebuildResult {
    /// String literals beginning with a SQL verb.
    pub strings_visited: usize,
    /// Of those, read as SQL (a verb, its companion keyword, a table).
    pub sql_strings: usize,
    /// The rest: prose, or SQL the parser found no table in.
    pub not_sql: usize,
    pub by_verb: BTreeMap<String, usize>,
    /// Tables defined: `CREATE TABLE` in `.sql` files and in code.
    pub tables_defined: usize,
    /// Distinct tables code reads or writes.
    pub tables_used: usize,
    /// Distinct (function, table, read or write) links; module-level SQL links its file.
    pub links: usize,
    pub reads: usize,
    pub writes: usize,
    /// Distinct functions issuing SQL.
    pub emitters: usize,
    /// Tables code uses that nothing defines (`analyze kind=orphan_tables` lists them).
    pub orphan_tables: usize,
    /// Tables `.sql` files define that no code uses (`analyze kind=unreferenced_tables`).
    pub unreferenced_tables: usize,
    #[serde(flatten)]
    pub coverage: SweepCoverage,
}

/// Arguments of `analyze kind=sql_call_sites`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SqlCallSitesArgs {
    /// Only SQL naming this table (case-insensitive, last part of a qualified name).
    #[serde(default)]
    pub table: Option<String>,
    /// Only SQL with this verb (`select`, `insert`, …; case-insensitive).
    #[serde(default)]
    pub verb: Option<String>,
    /// Only files under this repository-relative prefix.
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// Most sites returned (1..=1000, default 100).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// The answer of `analyze kind=sql_call_sites`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SqlCallSitesResult {
    /// By file and line, at most `limit`.
    pub sites: Vec<SqlSite>,
    pub total: usize,
    pub truncated: bool,
    pub by_verb: BTreeMap<String, usize>,
    /// Sites per table named.
    pub by_table: BTreeMap<String, usize>,
    #[serde(flatten)]
    pub coverage: SweepCoverage,
}

impl RepoIndex {
    /// `analyze kind=sql_call_sites` (see the module doc).
    pub(crate) fn sql_call_sites(&self, g: &Graph, a: &SqlCallSitesArgs) -> Result<SqlCallSitesResult, QueryError> {
        let limit = check_limit_with(a.limit, 100)?;
        let verb = a.verb.as_deref().map(str::to_ascii_uppercase);
        if let Some(v) = verb.as_deref().filter(|v| !VERBS.contains(v)) {
            return Err(QueryError::invalid(format!(
                "verb must be one of {}, got {v:?}",
                VERBS.map(str::to_ascii_lowercase).join(", ")
            )));
        }
        let (sites, coverage) = self.sql_sites(g, a.path_prefix.as_deref())?;
        let table = a.table.as_deref().map(table_key);
        let mut sites: Vec<SqlSite> = sites
            .into_iter()
            .filter(|s| table.as_ref().is_none_or(|t| s.tables.contains(t)))
            .filter(|s| verb.as_ref().is_none_or(|v| &s.verb == v))
            .collect();
        let (mut by_verb, mut by_table) = (BTreeMap::new(), BTreeMap::new());
        for s in &sites {
            *by_verb.entry(s.verb.clone()).or_insert(0) += 1;
            for t in &s.tables {
                *by_table.entry(t.clone()).or_insert(0) += 1;
            }
        }
        let total = sites.len();
        sites.truncate(limit);
        Ok(SqlCallSitesResult {
            sites,
            total,
            truncated: total > limit,
            by_verb,
            by_table,
            coverage,
        })
    }
}

/// Table nodes the graph holds (from `.sql` files), by compared name.
fn defined_tables(g: &Graph) -> BTreeMap<String, Vec<NodeIndex>> {
    let mut tables: BTreeMap<String, Vec<NodeIndex>> = BTreeMap::new();
    for (i, n) in g.node_entries() {
        if n.kind == NodeKind::Type && n.flavor == Some(TypeFlavor::Table) && !n.external {
            tables.entry(table_key(&n.name)).or_default().push(i);
        }
    }
    tables
}

/// Arguments of `analyze kind=unreferenced_tables` and `analyze kind=orphan_tables`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableAuditArgs {
    /// Only code under this repository-relative prefix counts as using tables (definitions are
    /// read from the whole repository).
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// Most tables returned (1..=1000, default 100).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// A table defined and never used by code.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct UnreferencedTable {
    pub table: NodeSummary,
    /// Views (in `.sql` files) that read it.
    pub views: Vec<String>,
}

/// The answer of `analyze kind=unreferenced_tables`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct UnreferencedTablesResult {
    /// By name, at most `limit`.
    pub tables: Vec<UnreferencedTable>,
    pub total: usize,
    pub truncated: bool,
    /// Tables defined (graph tables and `CREATE TABLE` strings in code).
    pub defined: usize,
    #[serde(flatten)]
    pub coverage: SweepCoverage,
}

/// A table code uses and nothing defines.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct OrphanTable {
    pub table: String,
    /// SQL strings naming it.
    pub uses: usize,
    /// Those sites (path, line, function), at most [`SITES_PER_TABLE`].
    pub sites: Vec<SqlSite>,
}

/// The answer of `analyze kind=orphan_tables`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct OrphanTablesResult {
    /// By name, at most `limit`.
    pub tables: Vec<OrphanTable>,
    pub total: usize,
    pub truncated: bool,
    /// Tables defined here; 0 means no schema was found, and every table code uses is listed.
    pub defined: usize,
    #[serde(flatten)]
    pub coverage: SweepCoverage,
}

/// What the table audits start from.
struct TableUse {
    /// Table nodes of the graph by compared name.
    graph_tables: BTreeMap<String, Vec<NodeIndex>>,
    /// Every defined table's compared name (graph tables and `CREATE TABLE` strings in code).
    defined: BTreeSet<String>,
    /// SQL in code (under the prefix) that reads or writes rows.
    used: Vec<SqlSite>,
    coverage: SweepCoverage,
}

/// System tables every database has.
fn is_system_table(name: &str) -> bool {
    matches!(name, "dual" | "sqlite_master" | "sqlite_sequence") || name.starts_with("pg_")
}

impl RepoIndex {
    /// Tables defined and the row-touching SQL of code under `prefix`.
    fn table_use(&self, g: &Graph, prefix: Option<&str>) -> Result<TableUse, QueryError> {
        let graph_tables = defined_tables(g);
        let (sites, coverage) = self.sql_sites(g, None)?;
        let mut defined: BTreeSet<String> = graph_tables.keys().cloned().collect();
        for s in sites
            .iter()
            .filter(|s| s.verb == "CREATE" && s.sql.to_ascii_lowercase().contains(" table "))
        {
            defined.extend(s.tables.iter().cloned());
        }
        let used: Vec<SqlSite> = sites
            .into_iter()
            .filter(|s| DML.contains(&s.verb.as_str()))
            .filter(|s| prefix.is_none_or(|p| s.path.starts_with(p.trim_start_matches("./"))))
            .collect();
        Ok(TableUse {
            graph_tables,
            defined,
            used,
            coverage,
        })
    }

    /// `analyze kind=unreferenced_tables` (see the module doc).
    pub(crate) fn unreferenced_tables(
        &self,
        g: &Graph,
        a: &TableAuditArgs,
    ) -> Result<UnreferencedTablesResult, QueryError> {
        let limit = check_limit_with(a.limit, 100)?;
        gortex_analysis::reach::check_path_prefix(a.path_prefix.as_deref())?;
        let TableUse {
            graph_tables,
            defined,
            used,
            coverage,
        } = self.table_use(g, a.path_prefix.as_deref())?;
        let touched: BTreeSet<&str> = used.iter().flat_map(|s| s.tables.iter().map(String::as_str)).collect();
        let mut rows: Vec<UnreferencedTable> = graph_tables
            .iter()
            .filter(|(name, _)| !touched.contains(name.as_str()))
            .flat_map(|(_, nodes)| nodes.iter().copied())
            .map(|t| {
                let mut views: Vec<String> = g
                    .in_edges(t)
                    .filter(|e| e.kind == EdgeKind::References)
                    .map(|e| g.node_at(e.from))
                    .filter(|n| n.flavor == Some(TypeFlavor::View))
                    .map(|n| n.name.clone())
                    .collect();
                views.sort_unstable();
                views.dedup();
                UnreferencedTable {
                    table: NodeSummary::at(g, t),
                    views,
                }
            })
            .collect();
        rows.sort_by(|a, b| {
            a.table
                .name
                .cmp(&b.table.name)
                .then_with(|| a.table.id.cmp(&b.table.id))
        });
        let total = rows.len();
        rows.truncate(limit);
        Ok(UnreferencedTablesResult {
            tables: rows,
            total,
            truncated: total > limit,
            defined: defined.len(),
            coverage,
        })
    }

    /// `analyze kind=orphan_tables` (see the module doc).
    pub(crate) fn orphan_tables(&self, g: &Graph, a: &TableAuditArgs) -> Result<OrphanTablesResult, QueryError> {
        let limit = check_limit_with(a.limit, 100)?;
        gortex_analysis::reach::check_path_prefix(a.path_prefix.as_deref())?;
        let TableUse {
            defined,
            used,
            coverage,
            ..
        } = self.table_use(g, a.path_prefix.as_deref())?;
        let mut orphans: BTreeMap<&str, Vec<&SqlSite>> = BTreeMap::new();
        for s in &used {
            for t in s.tables.iter().filter(|t| !defined.contains(*t) && !is_system_table(t)) {
                orphans.entry(t).or_default().push(s);
            }
        }
        let mut rows: Vec<OrphanTable> = orphans
            .into_iter()
            .map(|(table, sites)| OrphanTable {
                table: table.to_string(),
                uses: sites.len(),
                sites: sites.into_iter().take(SITES_PER_TABLE).cloned().collect(),
            })
            .collect();
        let total = rows.len();
        rows.truncate(limit);
        Ok(OrphanTablesResult {
            tables: rows,
            total,
            truncated: total > limit,
            defined: defined.len(),
            coverage,
        })
    }
}

/// The bundled patterns of this module, per language (for the compile test).
#[cfg(test)]
pub(crate) fn bundled_patterns() -> Vec<(Language, String)> {
    sql_patterns()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sql_text_is_parsed_into_a_verb_and_tables() {
        assert_eq!(
            parse_sql(&sql_text(
                r#""SELECT u.id FROM public.users u JOIN orders o ON o.user_id = u.id""#
            )),
            ("SELECT".into(), vec!["orders".into(), "users".into()])
        );
        assert_eq!(
            parse_sql(&sql_text("f'''insert into \"Audit_Log\" (a) values (1)'''")),
            ("INSERT".into(), vec!["audit_log".into()])
        );
        assert_eq!(
            parse_sql(&sql_text("`CREATE TABLE IF NOT EXISTS sessions (id int)`")),
            ("CREATE".into(), vec!["sessions".into()])
        );
        assert_eq!(parse_sql("SELECT 1").1, Vec::<String>::new());
        let prose = |s: &str| {
            let (verb, tables) = parse_sql(s);
            plausible(&verb, s, &tables)
        };
        assert!(!prose("Select a file to upload"));
        assert!(!prose("Delete from your list?"));
        assert!(!prose("Update the record now"));
        assert!(prose("UPDATE users SET name = $1"));
        assert_eq!(
            parse_sql("SELECT EXTRACT(year FROM created_at) FROM events").1,
            vec!["events".to_string()]
        );
        assert_eq!(
            parse_sql("INSERT INTO users(id) VALUES (1) ON CONFLICT (id) DO UPDATE SET name = 'x'").1,
            vec!["users".to_string()]
        );
        assert_eq!(parse_sql("SELECT * FROM (SELECT id FROM t) x").1, vec!["t".to_string()]);
    }
}
