//! The infrastructure kinds of `analyze`, read from the indexed YAML files and Dockerfiles with
//! line scanners (`evidence: "text"`: no YAML parser, so anchors, flow mappings and templated
//! keys are read as the lines they are):
//!
//! - **`k8s_resources`**: every Kubernetes object of the manifests — a YAML document (between
//!   `---` lines) with top-level `apiVersion:` and `kind:` — with its `metadata.name` and
//!   `metadata.namespace` (Helm's `{{ … }}` values kept as written).
//! - **`images`**: container images — Dockerfile `FROM` (build stages named earlier in the file
//!   and `scratch` are not images) and YAML `image:` fields (Kubernetes, Compose) — grouped by
//!   repository, each use with its tag or digest; `unpinned` when a use has neither or says
//!   `latest`.
//! - **`kustomize`**: every `kustomization.yaml` with its namespace, name prefix, resources,
//!   bases, components, patches and image overrides, and the listed local paths that no indexed
//!   file or directory matches (`missing`).

use crate::RepoIndex;
use gortex_core::{Language, QueryError};
use gortex_graph::query::common::check_limit_with;
use gortex_graph::Graph;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Uses listed per image.
pub const USES_PER_IMAGE: usize = 10;

/// Arguments of `analyze kind=k8s_resources`, `images` and `kustomize`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InfraArgs {
    /// Only files under this repository-relative prefix.
    #[serde(default)]
    pub path_prefix: Option<String>,
    /// Most rows returned (1..=1000, default 100).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// What the scan read.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct InfraCoverage {
    /// Files read.
    pub files_read: usize,
    /// Files that could not be read, with why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<String>,
    pub evidence: &'static str,
}

/// An indexed file read for a scan.
pub(crate) struct InfraFile {
    pub(crate) path: String,
    pub(crate) language: Option<Language>,
    pub(crate) text: String,
}

impl RepoIndex {
    /// The text of every indexed file under `prefix` that `want` accepts (by language and path).
    pub(crate) fn infra_files(
        &self,
        g: &Graph,
        prefix: Option<&str>,
        want: impl Fn(Option<Language>, &str) -> bool,
    ) -> Result<(Vec<InfraFile>, InfraCoverage), QueryError> {
        let prefix = gortex_analysis::reach::check_path_prefix(prefix)?.unwrap_or_default();
        let sources = self.sources();
        let (mut files, mut skipped) = (Vec::new(), Vec::new());
        for &f in g.files() {
            let n = g.node_at(f);
            if !n.path.starts_with(prefix.as_str()) || !want(n.language, &n.path) {
                continue;
            }
            match sources.read(&n.path) {
                Ok(bytes) => files.push(InfraFile {
                    path: n.path.to_string(),
                    language: n.language,
                    text: String::from_utf8_lossy(&bytes).into_owned(),
                }),
                Err(e) => skipped.push(format!("{}: {e}", n.path)),
            }
        }
        let coverage = InfraCoverage {
            files_read: files.len(),
            skipped,
            evidence: "text",
        };
        Ok((files, coverage))
    }
}

/// A scalar's text: comment dropped, quotes removed.
pub(crate) fn scalar(value: &str) -> String {
    let v = match value.find(" #") {
        Some(i) => &value[..i],
        None => value,
    };
    v.trim().trim_matches(|c| c == '"' || c == '\'').to_string()
}

/// `key: value` on a line with exactly `indent` leading spaces.
pub(crate) fn field<'a>(line: &'a str, indent: usize, key: &str) -> Option<&'a str> {
    let rest = line.strip_prefix(&" ".repeat(indent))?;
    if rest.starts_with(' ') {
        return None;
    }
    rest.strip_prefix(key)?.strip_prefix(':').map(str::trim)
}

// ---------------------------------------------------------------------------------------------
// k8s_resources
// ---------------------------------------------------------------------------------------------

/// One Kubernetes object.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct K8sResource {
    pub kind: String,
    pub api_version: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    pub path: String,
    /// The line of its `kind:`.
    pub line: u32,
}

/// The answer of `analyze kind=k8s_resources`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct K8sResourcesResult {
    /// By file and line, at most `limit`.
    pub resources: Vec<K8sResource>,
    pub total: usize,
    pub truncated: bool,
    pub by_kind: BTreeMap<String, usize>,
    #[serde(flatten)]
    pub coverage: InfraCoverage,
}

/// The Kubernetes objects of one YAML text.
fn k8s_objects(path: &str, text: &str) -> Vec<K8sResource> {
    let mut out = Vec::new();
    let mut doc: Vec<(u32, &str)> = Vec::new();
    let mut flush = |doc: &mut Vec<(u32, &str)>| {
        let find = |key: &str| doc.iter().find_map(|(n, l)| field(l, 0, key).map(|v| (*n, scalar(v))));
        if let (Some((_, api_version)), Some((line, kind))) = (find("apiVersion"), find("kind")) {
            // metadata's own fields: the lines indented under `metadata:` up to the next top-level key.
            let mut name = None;
            let mut namespace = None;
            if let Some(start) = doc.iter().position(|(_, l)| field(l, 0, "metadata").is_some()) {
                let body = doc[start + 1..]
                    .iter()
                    .take_while(|(_, l)| l.is_empty() || l.starts_with(' ') || l.starts_with('#'));
                let indent = body
                    .clone()
                    .find(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
                    .map(|(_, l)| l.len() - l.trim_start().len());
                if let Some(indent) = indent {
                    for (_, l) in body {
                        name = name.or_else(|| field(l, indent, "name").map(scalar));
                        namespace = namespace.or_else(|| field(l, indent, "namespace").map(scalar));
                    }
                }
            }
            if !kind.is_empty() {
                out.push(K8sResource {
                    kind,
                    api_version,
                    name: name.filter(|n| !n.is_empty()),
                    namespace: namespace.filter(|n| !n.is_empty()),
                    path: path.to_string(),
                    line,
                });
            }
        }
        doc.clear();
    };
    for (i, line) in text.lines().enumerate() {
        if line.starts_with("---") {
            flush(&mut doc);
        } else {
            doc.push((i as u32 + 1, line.trim_end()));
        }
    }
    flush(&mut doc);
    out
}

impl RepoIndex {
    /// `analyze kind=k8s_resources` (see the module doc).
    pub(crate) fn k8s_resources(&self, g: &Graph, a: &InfraArgs) -> Result<K8sResourcesResult, QueryError> {
        let limit = check_limit_with(a.limit, 100)?;
        let (files, coverage) = self.infra_files(g, a.path_prefix.as_deref(), |l, _| l == Some(Language::Yaml))?;
        let mut resources: Vec<K8sResource> = files.iter().flat_map(|f| k8s_objects(&f.path, &f.text)).collect();
        let mut by_kind = BTreeMap::new();
        for r in &resources {
            *by_kind.entry(r.kind.clone()).or_insert(0) += 1;
        }
        let total = resources.len();
        resources.truncate(limit);
        Ok(K8sResourcesResult {
            resources,
            total,
            truncated: total > limit,
            by_kind,
            coverage,
        })
    }
}

// ---------------------------------------------------------------------------------------------
// images
// ---------------------------------------------------------------------------------------------

/// Where an image is used.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ImageUse {
    pub path: String,
    pub line: u32,
    /// `dockerfile` or `manifest` (a YAML `image:` field).
    pub source: &'static str,
    /// The tag (`1.21-alpine`), or the digest (`sha256:…`); absent when neither is given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
}

/// One image repository and its uses.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ImageRow {
    /// The repository, registry included (`golang`, `ghcr.io/acme/api`).
    pub image: String,
    /// Distinct tags and digests, sorted.
    pub tags: Vec<String>,
    /// Some use gives no tag or digest, or says `latest`.
    pub unpinned: bool,
    pub uses: Vec<ImageUse>,
}

/// The answer of `analyze kind=images`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ImagesResult {
    /// By repository, at most `limit`.
    pub images: Vec<ImageRow>,
    pub total: usize,
    pub truncated: bool,
    /// Images with an unpinned use.
    pub unpinned: usize,
    #[serde(flatten)]
    pub coverage: InfraCoverage,
}

/// `repo[:tag][@digest]` split into the repository and its tag or digest.
fn split_image(reference: &str) -> (String, Option<String>) {
    if let Some((repo, digest)) = reference.split_once('@') {
        return (repo.to_string(), Some(digest.to_string()));
    }
    // A colon after the last slash is a tag; one before it is a registry port.
    match reference
        .rfind(':')
        .filter(|&c| reference.rfind('/').is_none_or(|s| c > s))
    {
        Some(c) => (reference[..c].to_string(), Some(reference[c + 1..].to_string())),
        None => (reference.to_string(), None),
    }
}

/// The images a Dockerfile's `FROM` lines name (stages named earlier and `scratch` left out).
fn dockerfile_images(path: &str, text: &str) -> Vec<(String, ImageUse)> {
    let mut stages: BTreeSet<String> = BTreeSet::new();
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first().is_none_or(|w| !w.eq_ignore_ascii_case("FROM")) {
            continue;
        }
        let Some(reference) = words[1..].iter().find(|w| !w.starts_with("--")) else {
            continue;
        };
        let lower = reference.to_ascii_lowercase();
        if lower != "scratch" && !stages.contains(&lower) {
            let (image, tag) = split_image(reference);
            out.push((
                image,
                ImageUse {
                    path: path.to_string(),
                    line: i as u32 + 1,
                    source: "dockerfile",
                    tag,
                },
            ));
        }
        if let Some(p) = words.iter().position(|w| w.eq_ignore_ascii_case("AS")) {
            if let Some(stage) = words.get(p + 1) {
                stages.insert(stage.to_ascii_lowercase());
            }
        }
    }
    out
}

/// The images a YAML text's `image:` fields name (any indentation, list items included).
fn manifest_images(path: &str, text: &str) -> Vec<(String, ImageUse)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start().trim_start_matches("- ").trim_start();
        let Some(value) = t.strip_prefix("image:") else {
            continue;
        };
        let reference = scalar(value);
        if reference.is_empty() || reference.contains(char::is_whitespace) {
            continue;
        }
        let (image, tag) = split_image(&reference);
        out.push((
            image,
            ImageUse {
                path: path.to_string(),
                line: i as u32 + 1,
                source: "manifest",
                tag,
            },
        ));
    }
    out
}

impl RepoIndex {
    /// `analyze kind=images` (see the module doc).
    pub(crate) fn images(&self, g: &Graph, a: &InfraArgs) -> Result<ImagesResult, QueryError> {
        let limit = check_limit_with(a.limit, 100)?;
        let (files, coverage) = self.infra_files(g, a.path_prefix.as_deref(), |l, _| {
            matches!(l, Some(Language::Yaml | Language::Dockerfile))
        })?;
        let mut images: BTreeMap<String, Vec<ImageUse>> = BTreeMap::new();
        for f in &files {
            let found = if f.language == Some(Language::Dockerfile) {
                dockerfile_images(&f.path, &f.text)
            } else {
                manifest_images(&f.path, &f.text)
            };
            for (image, site) in found {
                images.entry(image).or_default().push(site);
            }
        }
        let mut rows: Vec<ImageRow> = images
            .into_iter()
            .map(|(image, uses)| {
                let tags: BTreeSet<String> = uses.iter().filter_map(|u| u.tag.clone()).collect();
                let unpinned = uses.iter().any(|u| u.tag.as_deref().is_none_or(|t| t == "latest"));
                ImageRow {
                    image,
                    tags: tags.into_iter().collect(),
                    unpinned,
                    uses: uses.into_iter().take(USES_PER_IMAGE).collect(),
                }
            })
            .collect();
        let (total, unpinned) = (rows.len(), rows.iter().filter(|r| r.unpinned).count());
        rows.truncate(limit);
        Ok(ImagesResult {
            images: rows,
            total,
            truncated: total > limit,
            unpinned,
            coverage,
        })
    }
}

// ---------------------------------------------------------------------------------------------
// kustomize
// ---------------------------------------------------------------------------------------------

/// An image override of a kustomization.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct KustomizeImage {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_tag: Option<String>,
}

/// One kustomization.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Kustomization {
    pub path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name_prefix: Option<String>,
    pub resources: Vec<String>,
    pub bases: Vec<String>,
    pub components: Vec<String>,
    pub patches: Vec<String>,
    pub images: Vec<KustomizeImage>,
    /// Listed local paths (resources, bases, components, patches) that match no indexed file
    /// or directory; remote ones (URLs, `github.com/…`) are not checked.
    pub missing: Vec<String>,
}

/// The answer of `analyze kind=kustomize`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct KustomizeResult {
    /// By path, at most `limit`.
    pub kustomizations: Vec<Kustomization>,
    pub total: usize,
    pub truncated: bool,
    /// Kustomizations listing a missing path.
    pub broken: usize,
    #[serde(flatten)]
    pub coverage: InfraCoverage,
}

/// The items of the top-level list `key:` (`- x`, or `- path: x` for patch maps).
pub(crate) fn top_list(text: &str, key: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if field(line, 0, key).is_some() {
            inside = true;
            continue;
        }
        if !inside || line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let t = line.trim_start();
        if !line.starts_with(' ') && !t.starts_with('-') {
            inside = false;
            continue;
        }
        if let Some(item) = t.strip_prefix("- ") {
            let item = item.trim();
            let value = item.strip_prefix("path:").unwrap_or(item);
            if !value.contains(':') || value.contains("://") {
                out.push(scalar(value));
            }
        } else if let Some(p) = t.strip_prefix("path:") {
            out.push(scalar(p));
        }
    }
    out
}

/// The `images:` overrides of a kustomization.
fn kustomize_images(text: &str) -> Vec<KustomizeImage> {
    let mut out: Vec<KustomizeImage> = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if field(line, 0, "images").is_some() {
            inside = true;
            continue;
        }
        if !inside || line.trim().is_empty() {
            continue;
        }
        let t = line.trim_start();
        if !line.starts_with(' ') && !t.starts_with('-') {
            inside = false;
            continue;
        }
        let (item, new) = match t.strip_prefix("- ") {
            Some(rest) => (rest.trim(), true),
            None => (t, false),
        };
        let Some((key, value)) = item.split_once(':') else {
            continue;
        };
        let value = scalar(value);
        match (key.trim(), new) {
            ("name", true) => out.push(KustomizeImage {
                name: value,
                new_name: None,
                new_tag: None,
            }),
            ("name", false) => {
                if let Some(last) = out.last_mut() {
                    last.name = value;
                }
            }
            ("newName", _) => {
                if let Some(last) = out.last_mut() {
                    last.new_name = Some(value);
                }
            }
            ("newTag", _) => {
                if let Some(last) = out.last_mut() {
                    last.new_tag = Some(value);
                }
            }
            _ => {}
        }
    }
    out
}

/// `dir/rel` with `.` and `..` applied; `None` when it climbs out of the repository.
fn join_rel(dir: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for p in rel.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    Some(parts.join("/"))
}

impl RepoIndex {
    /// `analyze kind=kustomize` (see the module doc).
    pub(crate) fn kustomize(&self, g: &Graph, a: &InfraArgs) -> Result<KustomizeResult, QueryError> {
        let limit = check_limit_with(a.limit, 100)?;
        let is_kustomization = |p: &str| {
            let name = p.rsplit('/').next().unwrap_or(p);
            matches!(name, "kustomization.yaml" | "kustomization.yml" | "Kustomization")
        };
        let (files, coverage) = self.infra_files(g, a.path_prefix.as_deref(), |_, p| is_kustomization(p))?;
        // A listed path exists when it is an indexed file, or a directory some indexed file is under.
        let indexed: BTreeSet<&str> = g.files().iter().map(|&f| &*g.node_at(f).path).collect();
        let exists = |rel: &str| {
            let dir = format!("{rel}/");
            indexed.contains(rel)
                || indexed
                    .range(dir.as_str()..)
                    .next()
                    .is_some_and(|p| p.starts_with(&dir))
        };
        let mut rows: Vec<Kustomization> = files
            .iter()
            .map(|InfraFile { path, text, .. }| {
                let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
                let resources = top_list(text, "resources");
                let bases = top_list(text, "bases");
                let components = top_list(text, "components");
                let mut patches = top_list(text, "patches");
                patches.extend(top_list(text, "patchesStrategicMerge"));
                let remote = |r: &str| r.contains("://") || r.starts_with("github.com/") || r.contains("?ref=");
                let missing: Vec<String> = resources
                    .iter()
                    .chain(&bases)
                    .chain(&components)
                    .chain(&patches)
                    .filter(|r| !remote(r))
                    .filter(|r| join_rel(dir, r).is_none_or(|full| !exists(&full)))
                    .cloned()
                    .collect();
                let top = |key: &str| {
                    text.lines()
                        .find_map(|l| field(l, 0, key).map(scalar))
                        .filter(|v| !v.is_empty())
                };
                Kustomization {
                    path: path.clone(),
                    namespace: top("namespace"),
                    name_prefix: top("namePrefix"),
                    resources,
                    bases,
                    components,
                    patches,
                    images: kustomize_images(text),
                    missing,
                }
            })
            .collect();
        let (total, broken) = (rows.len(), rows.iter().filter(|k| !k.missing.is_empty()).count());
        rows.truncate(limit);
        Ok(KustomizeResult {
            kustomizations: rows,
            total,
            truncated: total > limit,
            broken,
            coverage,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_references_split_into_repository_and_tag() {
        assert_eq!(
            split_image("golang:1.21-alpine"),
            ("golang".into(), Some("1.21-alpine".into()))
        );
        assert_eq!(split_image("localhost:5000/api"), ("localhost:5000/api".into(), None));
        assert_eq!(
            split_image("ghcr.io/acme/api@sha256:abc"),
            ("ghcr.io/acme/api".into(), Some("sha256:abc".into()))
        );
        assert_eq!(
            join_rel("deploy/overlays/prod", "../../base"),
            Some("deploy/base".into())
        );
        assert_eq!(join_rel("a", "../../x"), None);
    }
}
