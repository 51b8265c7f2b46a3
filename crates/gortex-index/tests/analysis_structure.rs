//! Communities, execution flows and hotspots (`gortex_analysis`) on real indexed fixtures.
//!
//! `test/fixtures/analysis/structure` (TypeScript): two subsystems, `src/auth` (audit, tokens,
//! users, sessions) and `src/billing` (ledger, prices, invoices, payments, cart), each densely
//! connected inside; the only call between them is `chargeCustomer` (billing) → `currentUser`
//! (auth). `src/main.ts::main` (invoked at module level) calls `login`, `chargeCustomer` and
//! `logout`. Jest tests live next to each subsystem.
//!
//! `test/fixtures/analysis/entries`: one entry point of each stamped shape (Python `__main__`
//! guards, Flask route, click command, Go `main` in and out of package `main`, Java `static main`,
//! NestJS-style `@Get()`, an exported `handle*`, Rust `main`).

mod common;

use common::*;
use gortex_analysis::communities::{CommunityList, GetCommunitiesResult};
use gortex_analysis::processes::{ProcessKind, DEPTH_LIMIT};
use gortex_analysis::*;
use gortex_graph::Graph;
use serde_json::{json, Value};
use std::sync::{Arc, OnceLock};

fn build(fixture: &str) -> Arc<Graph> {
    let home = tempfile::tempdir().unwrap();
    let mut opts = options(home.path());
    opts.persist = false;
    let (index, report) = index(&fixtures().join("analysis").join(fixture), &opts);
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    index.graph.clone()
}

fn structure() -> &'static Graph {
    static G: OnceLock<Arc<Graph>> = OnceLock::new();
    G.get_or_init(|| build("structure"))
}

fn entries() -> &'static Graph {
    static G: OnceLock<Arc<Graph>> = OnceLock::new();
    G.get_or_init(|| build("entries"))
}

fn args<T: serde::de::DeserializeOwned>(v: Value) -> T {
    serde_json::from_value(v).expect("arguments deserialise")
}

fn list(r: GetCommunitiesResult) -> CommunityList {
    match r {
        GetCommunitiesResult::List(l) => l,
        other => panic!("expected a list, got {other:?}"),
    }
}

fn qualified(g: &Graph, i: u32) -> String {
    g.node_at(i).qualified.clone()
}

#[test]
fn two_subsystems_come_out_as_two_labelled_communities() {
    let g = structure();
    for algorithm in [Algorithm::Leiden, Algorithm::Louvain, Algorithm::Spectral] {
        let cs = detect_communities(g, algorithm);
        let labels: Vec<(&str, usize)> = cs.communities.iter().map(|c| (c.label.as_str(), c.size)).collect();
        assert_eq!(
            labels,
            vec![("src/auth · auditLog", 15), ("src/billing · totalFor", 14)],
            "{algorithm:?}"
        );
        assert_eq!(cs.singletons, 0);
        assert!(cs.modularity > 0.3, "{algorithm:?} modularity {}", cs.modularity);
        // Every subsystem symbol with calls sits in its subsystem's community.
        for c in &cs.communities {
            let dir = if c.id == 0 { "src/auth/" } else { "src/billing/" };
            for &m in &c.members {
                let path = &*g.node_at(m).path;
                assert!(path.starts_with(dir) || path == "src/main.ts", "{path} in {}", c.label);
            }
        }
        let auth = &cs.communities[0];
        assert_eq!(qualified(g, auth.hub), "auditLog");
        assert_eq!(auth.files[0].path, "src/auth/session.ts");
        assert!(auth.cohesion > 0.9 && auth.cohesion < 1.0, "{}", auth.cohesion);
    }
}

#[test]
fn leiden_and_louvain_agree_here_and_leiden_communities_are_connected() {
    let g = structure();
    let leiden = detect_communities(g, Algorithm::Leiden);
    let louvain = detect_communities(g, Algorithm::Louvain);
    assert_eq!(leiden.map.of_node, louvain.map.of_node);
    let adj = gortex_analysis::adjacency::Adjacency::build(g);
    for c in &leiden.communities {
        let inside: std::collections::HashSet<u32> = c.members.iter().copied().collect();
        let mut seen = std::collections::HashSet::from([c.members[0]]);
        let mut stack = vec![c.members[0]];
        while let Some(n) = stack.pop() {
            for (j, _) in adj.neighbours(adj.local_of(n).unwrap()) {
                let node = adj.nodes[j as usize];
                if inside.contains(&node) && seen.insert(node) {
                    stack.push(node);
                }
            }
        }
        assert_eq!(seen.len(), c.size, "{} is not connected", c.label);
    }
}

#[test]
fn detection_processes_and_hotspots_are_deterministic() {
    let g = structure();
    let a = detect_communities(g, Algorithm::Leiden);
    let b = detect_communities(g, Algorithm::Leiden);
    assert_eq!(a.map.of_node, b.map.of_node);
    assert_eq!(a.map.labels, b.map.labels);
    assert_eq!(a.modularity.to_bits(), b.modularity.to_bits());
    let show =
        |cs: &Communities| serde_json::to_string(&get_communities(g, cs, &args(json!({"id": 1}))).unwrap()).unwrap();
    assert_eq!(show(&a), show(&b));
    let (p, q) = (discover_processes(g), discover_processes(g));
    let all = |ps: &Processes| {
        serde_json::to_string(&get_processes(g, ps, &args(json!({"include_tests": true}))).unwrap()).unwrap()
    };
    assert_eq!(all(&p), all(&q));
    let hs = |cs: &Communities| serde_json::to_string(&god_nodes(g, &cs.map, 20)).unwrap();
    assert_eq!(hs(&a), hs(&b));
}

#[test]
fn get_communities_shows_members_files_and_the_bridge_neighbour() {
    let g = structure();
    let cs = detect_communities(g, Algorithm::Leiden);
    let l = list(get_communities(g, &cs, &args(json!({}))).unwrap());
    assert_eq!((l.count, l.total, l.singletons), (2, 2, 0));
    assert_eq!(l.communities[1].hub.id, "structure/src/billing/prices.ts::totalFor");
    let top: Vec<(&str, usize)> = l.communities[1]
        .top_files
        .iter()
        .map(|f| (f.path.as_str(), f.members))
        .collect();
    assert_eq!(
        top,
        vec![
            ("src/billing/prices.ts", 4),
            ("src/billing/cart.ts", 3),
            ("src/billing/invoice.ts", 3)
        ]
    );
    let billing = serde_json::to_value(
        get_communities(g, &cs, &args(json!({"id": "src/billing · totalFor", "limit": 3}))).unwrap(),
    )
    .unwrap();
    let c = &billing["community"];
    assert_eq!(c["id"], 1);
    assert_eq!(c["members_total"], 14);
    let members: Vec<&str> = c["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(members.len(), 3);
    assert_eq!(members[0], "totalFor");
    // chargeCustomer → currentUser, and main (in auth) → chargeCustomer.
    assert_eq!(
        c["neighbours"],
        json!([{"id": 0, "label": "src/auth · auditLog", "edges": 2, "weight": 2.0}])
    );
    let only_auth = list(get_communities(g, &cs, &args(json!({"path_prefix": "src/auth"}))).unwrap());
    assert_eq!(only_auth.total, 1);
    assert_eq!(only_auth.communities[0].label, "src/auth · auditLog");
}

#[test]
fn bad_community_arguments_are_refused() {
    let g = structure();
    let cs = detect_communities(g, Algorithm::Leiden);
    let e = get_communities(g, &cs, &args(json!({"id": 9}))).unwrap_err();
    assert_eq!(e.code, "not_found");
    assert_eq!(
        e.message,
        "no community has id 9; valid ids are 0..=1 (2 communities of two or more members)"
    );
    let e = get_communities(g, &cs, &args(json!({"id": "src/payments"}))).unwrap_err();
    assert_eq!(e.code, "not_found");
    assert!(e.message.contains("valid ids are 0..=1"), "{}", e.message);
    let e = get_communities(g, &cs, &args(json!({"id": 0, "min_size": 3}))).unwrap_err();
    assert_eq!(e.code, "invalid_argument");
    assert!(
        e.message
            .starts_with("min_size and path_prefix filter the community list"),
        "{}",
        e.message
    );
    let e = get_communities(g, &cs, &args(json!({"limit": 0}))).unwrap_err();
    assert_eq!(
        (e.code, e.message.as_str()),
        ("invalid_argument", "limit must be 1..=1000, got 0")
    );
    let e = clusters(g, &args(json!({"algorithm": "eigen"}))).unwrap_err();
    assert_eq!(e.code, "invalid_argument");
    assert!(
        e.message.contains("spectral") && e.message.contains("louvain"),
        "{}",
        e.message
    );
    let e = clusters(g, &args(json!({"limit": 0}))).unwrap_err();
    assert_eq!(e.message, "limit must be 1..=1000, got 0");
    let r = clusters(g, &args(json!({"algorithm": "louvain", "limit": 1}))).unwrap();
    assert_eq!(
        (r.algorithm, r.count, r.communities.len(), r.truncated),
        (Algorithm::Louvain, 2, 1, true)
    );
    assert!(r.modularity > 0.3);
}

#[test]
fn main_is_the_first_process_with_its_exact_call_tree() {
    let g = structure();
    let ps = discover_processes(g);
    let main = &ps.processes[0];
    assert_eq!((main.name.as_str(), main.kind), ("main", ProcessKind::Product));
    assert_eq!(main.stamp.as_deref(), Some("main"));
    // 3 callees, no callers, not exported, stamped, entry-like name: 3 × 2 × 2 × 1.5.
    assert_eq!(main.score, 18.0);
    let steps: Vec<(u32, String, bool)> = main
        .steps
        .iter()
        .map(|s| (s.depth, qualified(g, s.node), s.revisit))
        .collect();
    let expected: Vec<(u32, &str, bool)> = vec![
        (0, "main", false),
        (1, "login", false),
        (2, "findUser", false),
        (3, "auditLog", false),
        (2, "checkPassword", false),
        (3, "auditLog", true),
        (3, "hashToken", false),
        (2, "auditLog", true),
        (2, "issueToken", false),
        (3, "auditLog", true),
        (3, "hashToken", true),
        (1, "chargeCustomer", false),
        (2, "currentUser", false),
        (3, "verifyToken", false),
        (4, "hashToken", true),
        (4, "findUser", true),
        (4, "auditLog", true),
        (3, "auditLog", true),
        (3, "findUser", true),
        (2, "createInvoice", false),
        (3, "totalFor", false),
        (4, "basePrice", false),
        (4, "applyDiscount", false),
        (5, "recordEntry", false),
        (4, "applyTax", false),
        (5, "recordEntry", true),
        (4, "formatMoney", false),
        (3, "formatInvoice", false),
        (4, "recordEntry", true),
        (4, "formatMoney", true),
        (3, "recordEntry", true),
        (2, "formatMoney", true),
        (2, "recordPayment", false),
        (3, "recordEntry", true),
        (3, "formatMoney", true),
        (1, "logout", false),
        (2, "currentUser", true),
        (2, "auditLog", true),
    ];
    let expected: Vec<(u32, String, bool)> = expected.into_iter().map(|(d, n, r)| (d, n.to_string(), r)).collect();
    assert_eq!(steps, expected);
    assert_eq!((main.depth, main.files), (5, 9));
    assert!(main.truncated.is_empty());
    // The `via` line is the call site in the caller.
    assert_eq!((main.steps[1].via, main.steps[11].via, main.steps[35].via), (5, 6, 7));

    let shown = serde_json::to_value(get_processes(g, &ps, &args(json!({"id": "main", "limit": 2}))).unwrap()).unwrap();
    let p = &shown;
    assert!(p.get("process").is_none(), "the detail is at the top level");
    assert_eq!(p["step_count"], 38);
    assert_eq!(p["truncated"], json!(["limit"]));
    assert_eq!(p["entry_point"], p["entry"]["id"]);
    // The whole trace's files, once each in first-visit order (as many as the process counts).
    let files = p["files"].as_array().unwrap();
    assert_eq!(files.len(), main.files);
    assert_eq!(files[0], p["entry"]["file_path"]);
    let mut first_visits: Vec<String> = Vec::new();
    for s in &main.steps {
        let path = g.node_at(s.node).path.to_string();
        if !first_visits.contains(&path) {
            first_visits.push(path);
        }
    }
    assert_eq!(files, &first_visits.iter().map(|f| json!(f)).collect::<Vec<_>>());
    // A step is the node's fields flattened, plus its depth.
    let mut entry_step = p["entry"].clone();
    entry_step["depth"] = json!(0);
    assert_eq!(p["steps"][0], entry_step);
    assert_eq!(p["steps"][1]["via"], 5);
    assert_eq!(p["steps"][1]["id"], "structure/src/auth/session.ts::login");
    assert_eq!(p["steps"][1]["depth"], 1);
}

#[test]
fn tests_form_their_own_processes_and_never_enter_product_ones() {
    let g = structure();
    let ps = discover_processes(g);
    let tests: Vec<(&str, ProcessKind)> = ps
        .processes
        .iter()
        .filter(|p| p.kind == ProcessKind::Test)
        .map(|p| (p.name.as_str(), p.kind))
        .collect();
    assert_eq!(
        tests,
        vec![
            ("session.refreshes", ProcessKind::Test),
            ("session.logs_in", ProcessKind::Test),
            ("cart.quotes", ProcessKind::Test)
        ]
    );
    // Test processes come after every product process.
    let first_test = ps.processes.iter().position(|p| p.kind == ProcessKind::Test).unwrap();
    assert!(ps.processes[first_test..].iter().all(|p| p.kind == ProcessKind::Test));
    for p in ps.processes.iter().filter(|p| p.kind == ProcessKind::Product) {
        for s in &p.steps {
            assert!(!g.node_at(s.node).path.contains(".test."), "{} reaches a test", p.name);
        }
    }
    let product = serde_json::to_value(get_processes(g, &ps, &args(json!({}))).unwrap()).unwrap();
    assert_eq!(product["total"], first_test);
    assert_eq!(product["test_processes"], 3);
    assert!(product["processes"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["kind"] == "product"));
    let with_tests =
        serde_json::to_value(get_processes(g, &ps, &args(json!({"include_tests": true, "limit": 1000}))).unwrap())
            .unwrap();
    assert_eq!(with_tests["total"], first_test + 3);
    assert_eq!(with_tests["processes"][first_test]["kind"], "test");
    // A test's own trace reaches the product code it exercises.
    let quotes = ps.processes.iter().find(|p| p.name == "cart.quotes").unwrap();
    assert_eq!(qualified(g, quotes.steps[1].node), "quote");
    assert_eq!(ps.map.names.len(), ps.processes.len());
    let login = g.lookup("structure/src/auth/session.ts::login").unwrap();
    assert!(ps.map.by_node[&login].contains(&0));
}

#[test]
fn bad_process_arguments_are_refused() {
    let g = structure();
    let ps = discover_processes(g);
    let last = ps.processes.len() - 1;
    let e = get_processes(g, &ps, &args(json!({"id": 999}))).unwrap_err();
    assert_eq!(e.code, "not_found");
    assert_eq!(e.message, format!("no process has id 999; valid ids are 0..={last}"));
    let e = get_processes(g, &ps, &args(json!({"id": "nowhere"}))).unwrap_err();
    assert_eq!(e.code, "not_found");
    let e = get_processes(g, &ps, &args(json!({"limit": 0}))).unwrap_err();
    assert_eq!(e.message, "limit must be 1..=1000, got 0");
    assert!(serde_json::from_value::<GetProcessesArgs>(json!({"depth": 3})).is_err());
}

#[test]
fn entry_points_are_stamped_per_language() {
    let g = entries();
    let ps = discover_processes(g);
    let stamps: Vec<(String, Option<&str>)> = ps
        .processes
        .iter()
        .filter(|p| p.stamp.is_some() || g.node_at(p.entry).name == "main")
        .map(|p| (g.node_at(p.entry).id.to_string(), p.stamp.as_deref()))
        .collect();
    let mut stamps = stamps;
    stamps.sort();
    let expected: Vec<(String, Option<&str>)> = vec![
        ("entries/go/cmd/server/main.go::main", Some("main")),
        ("entries/go/lib/lib.go::main", None),
        ("entries/java/com/acme/App.java::App.main", Some("main")),
        ("entries/py/app.py::list_users", Some("decorator:app.route")),
        ("entries/py/app.py::main", Some("main")),
        ("entries/py/cli.py::sync", Some("decorator:click.command")),
        ("entries/py/tool.py::cli_entry", Some("module_call")),
        ("entries/rs/src/main.rs::main", Some("main")),
        (
            "entries/ts/users.controller.ts::UsersController.list",
            Some("decorator:Get"),
        ),
        ("entries/ts/users.controller.ts::handleRequest", Some("handler_name")),
    ]
    .into_iter()
    .map(|(id, s)| (id.to_string(), s))
    .collect();
    assert_eq!(stamps, expected);
    // Stamped entries outrank the functions they call.
    let rank = |id: &str| ps.processes.iter().position(|p| &*g.node_at(p.entry).id == id).unwrap();
    assert!(rank("entries/go/cmd/server/main.go::main") < rank("entries/go/cmd/server/main.go::serve"));
    assert!(rank("entries/go/cmd/server/main.go::main") < rank("entries/go/lib/lib.go::main"));
    assert!(ps.processes.iter().all(|p| !p.truncated.contains(&DEPTH_LIMIT)));
}

#[test]
fn the_bridge_function_is_the_top_hotspot() {
    let g = structure();
    let cs = detect_communities(g, Algorithm::Leiden);
    let r = hotspots(g, &cs.map, &args(json!({}))).unwrap();
    let rows: Vec<(&str, f64, usize, usize, usize)> = r
        .hotspots
        .iter()
        .map(|h| (h.node.qualified.as_str(), h.score, h.fan_in, h.fan_out, h.crossings))
        .collect();
    // Callers: main, checkout, renewSubscription; callees: currentUser, createInvoice,
    // formatMoney, recordPayment; crossings: currentUser and main (in auth).
    assert_eq!(rows, vec![("chargeCustomer", 100.0, 3, 4, 2)]);
    assert_eq!(r.hotspots[0].betweenness, 100.0);
    assert_eq!(r.hotspots[0].community, Some(1));
    assert!(r.threshold > 50.0 && r.threshold < 100.0, "{}", r.threshold);
    // Test functions are not ranked.
    assert_eq!(r.candidates, 26);
    let gods = god_nodes(g, &cs.map, 20);
    assert_eq!(gods.len(), 20);
    assert_eq!(gods[0].node.qualified, "chargeCustomer");
    assert!(gods.iter().all(|h| !h.node.is_test));
    let e = hotspots(g, &cs.map, &args(json!({"threshold": -1}))).unwrap_err();
    assert_eq!(e.message, "threshold must be 0..=100, got -1");
    let e = hotspots(g, &cs.map, &args(json!({"limit": 0}))).unwrap_err();
    assert_eq!(e.message, "limit must be 1..=1000, got 0");
}
