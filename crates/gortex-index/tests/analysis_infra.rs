//! `analyze` kinds `k8s_resources`, `images` and `kustomize` through the query door, on a real
//! index of `test/fixtures/infra`, with exact expected rows.
//!
//! Fixture shape (planted facts):
//! - `app/Dockerfile`: `golang:1.21-alpine AS build`, a stage built `FROM build` (not an image),
//!   and an untagged `gcr.io/distroless/static`.
//! - `deploy/base/deployment.yaml`: a Deployment (`ghcr.io/acme/api:1.4.2` and an untagged
//!   `busybox`) and a Service in namespace `shop`; its kustomization lists a `configmap.yaml`
//!   that does not exist.
//! - `deploy/overlays/prod/`: a kustomization (namespace, prefix, the base, a remote resource,
//!   a patch, an image override) and the patched Deployment.
//! - `docker-compose.yml`: `postgres:latest` and `redis` by digest.

mod common;

use common::*;
use gortex_index::RepoIndex;
use serde_json::{json, Value};
use std::sync::OnceLock;

fn repo() -> &'static RepoIndex {
    static R: OnceLock<RepoIndex> = OnceLock::new();
    R.get_or_init(|| fixture_index("infra"))
}

fn analyze(args: Value) -> Value {
    let r = repo().query("analyze", args).unwrap();
    assert_eq!(r["evidence"], json!("text"));
    r
}

#[test]
fn k8s_resources_lists_objects_with_names_and_namespaces() {
    let r = analyze(json!({ "kind": "k8s_resources" }));
    assert_eq!(
        r["resources"],
        json!([
            { "kind": "Deployment", "api_version": "apps/v1", "name": "api", "path": "deploy/base/deployment.yaml", "line": 2 },
            { "kind": "Service", "api_version": "v1", "name": "api", "namespace": "shop", "path": "deploy/base/deployment.yaml", "line": 17 },
            { "kind": "Deployment", "api_version": "apps/v1", "name": "api", "path": "deploy/overlays/prod/replicas.yaml", "line": 2 }
        ])
    );
    assert_eq!(r["by_kind"], json!({ "Deployment": 2, "Service": 1 }));
    let base = analyze(json!({ "kind": "k8s_resources", "path_prefix": "deploy/base/", "limit": 1 }));
    assert_eq!((&base["total"], &base["truncated"]), (&json!(2), &json!(true)));
}

/// `(image, tags, unpinned, [(path, line)])` of an images row.
type ImageRowView = (String, Vec<String>, bool, Vec<(String, u64)>);

#[test]
fn images_groups_uses_by_repository_and_flags_unpinned_ones() {
    let r = analyze(json!({ "kind": "images" }));
    let rows: Vec<ImageRowView> = r["images"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["image"].as_str().unwrap().to_string(),
                i["tags"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| t.as_str().unwrap().to_string())
                    .collect(),
                i["unpinned"].as_bool().unwrap(),
                i["uses"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|u| (u["path"].as_str().unwrap().to_string(), u["line"].as_u64().unwrap()))
                    .collect(),
            )
        })
        .collect();
    let s = |v: &str| v.to_string();
    assert_eq!(
        rows,
        vec![
            (s("busybox"), vec![], true, vec![(s("deploy/base/deployment.yaml"), 14)]),
            (
                s("gcr.io/distroless/static"),
                vec![],
                true,
                vec![(s("app/Dockerfile"), 8)]
            ),
            (
                s("ghcr.io/acme/api"),
                vec![s("1.4.2")],
                false,
                vec![(s("deploy/base/deployment.yaml"), 12)]
            ),
            (
                s("golang"),
                vec![s("1.21-alpine")],
                false,
                vec![(s("app/Dockerfile"), 1)]
            ),
            (
                s("postgres"),
                vec![s("latest")],
                true,
                vec![(s("docker-compose.yml"), 3)]
            ),
            (
                s("redis"),
                vec![s("sha256:0123abcd")],
                false,
                vec![(s("docker-compose.yml"), 5)]
            ),
        ]
    );
    assert_eq!(r["unpinned"], json!(3));
    assert_eq!(r["images"][3]["uses"][0]["source"], json!("dockerfile"));
}

#[test]
fn kustomize_reads_each_kustomization_and_finds_missing_paths() {
    let r = analyze(json!({ "kind": "kustomize" }));
    assert_eq!(
        r["kustomizations"],
        json!([
            {
                "path": "deploy/base/kustomization.yaml",
                "resources": ["deployment.yaml", "configmap.yaml"],
                "bases": [], "components": [], "patches": [], "images": [],
                "missing": ["configmap.yaml"]
            },
            {
                "path": "deploy/overlays/prod/kustomization.yaml",
                "namespace": "shop-prod",
                "name_prefix": "prod-",
                "resources": ["../../base", "https://github.com/acme/shared//deploy?ref=v1"],
                "bases": [], "components": [],
                "patches": ["replicas.yaml"],
                "images": [{ "name": "ghcr.io/acme/api", "new_tag": "1.5.0" }],
                "missing": []
            }
        ])
    );
    assert_eq!(r["broken"], json!(1));
}

#[test]
fn bad_arguments_are_refused_by_name() {
    for (args, word) in [
        (json!({ "kind": "k8s_resources", "limit": 0 }), "limit"),
        (json!({ "kind": "images", "path_prefix": "../etc" }), "path_prefix"),
        (json!({ "kind": "kustomize", "overlay": "prod" }), "overlay"),
    ] {
        let e = repo().query("analyze", args).unwrap_err();
        assert_eq!(e.code, "invalid_argument");
        assert!(e.message.contains(word), "{}", e.message);
    }
}
