/**
 * gortex's built-in web page (/ui): plain browser JavaScript, no build step. It draws the graph
 * from GET /v1/graph with sigma.js over graphology (filters and the node cap applied by the
 * server, so a 100k-node graph is never fetched whole), searches symbols, shows a symbol's source,
 * callers, callees and usages, and lists the analyses. Every data call goes to /v1 of the server
 * that served the page, with `Authorization: Bearer <token>` when the URL fragment has
 * `#token=…`. The globals `graphology` and `Sigma` come from the vendor bundles.
 */
'use strict';

(function main() {
  // ---------------------------------------------------------------------------------------------
  // Talking to /v1

  /** The bearer token of `#token=…`, if any (a fragment is never sent to the server). */
  const token = new URLSearchParams(location.hash.replace(/^#/, '')).get('token') || '';

  /** An error whose message is what the server said. */
  class ApiError extends Error {}

  /** GET or POST a /v1 route; the parsed JSON answer, or an ApiError naming the failure. */
  async function api(route, body) {
    const headers = { Accept: 'application/json' };
    if (token) headers.Authorization = `Bearer ${token}`;
    const init = { headers };
    if (body !== undefined) {
      init.method = 'POST';
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const res = await fetch(route, init);
    const text = await res.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ApiError(`${route}: ${res.status} ${text.slice(0, 200)}`);
    }
    if (!res.ok && !(json && Array.isArray(json.content))) {
      const hint = res.status === 401 ? ' (open the page as /ui/#token=YOUR_TOKEN)' : '';
      throw new ApiError(`${json.message || json.error || res.status}${hint}`);
    }
    return json;
  }

  /** `?repo=` of the repository chosen at the top, or ''. */
  function repoQuery(repo = state.repo) {
    return repo ? `?repo=${encodeURIComponent(repo)}` : '';
  }

  /** Runs a tool (POST /v1/tools/{name}) and returns the JSON inside its MCP envelope. */
  async function tool(name, args, repo) {
    const envelope = await api(`/v1/tools/${name}${repo === undefined ? '' : repoQuery(repo)}`, { arguments: args });
    const text = (envelope.content || []).map((c) => c.text).join('\n');
    if (envelope.isError) throw new ApiError(text);
    return JSON.parse(text);
  }

  // ---------------------------------------------------------------------------------------------
  // Small DOM helpers

  const $ = (sel) => document.querySelector(sel);

  /** An element with attributes (`class`, `data-*`, …) and children (strings or nodes). */
  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'onclick') node.addEventListener('click', v);
      else node.setAttribute(k, v === true ? '' : String(v));
    }
    for (const child of children) if (child !== undefined && child !== null) node.append(child);
    return node;
  }

  /** A clickable list row that opens symbol `id`. */
  function symbolRow(id, name, sub, badge) {
    return el(
      'li',
      {},
      el('button', { type: 'button', class: 'row', 'data-id': id, onclick: () => openSymbol(id) }, el('span', { class: 'name' }, name), badge ? el('span', { class: 'badge' }, badge) : null, sub ? el('div', { class: 'sub' }, sub) : null),
    );
  }

  /** Replaces a list's rows; an italic line when there are none. */
  function fillList(list, rows, emptyText) {
    list.replaceChildren(...(rows.length > 0 ? rows : [el('li', { class: 'empty' }, emptyText)]));
  }

  function setStatus(text, isError) {
    const status = $('#status');
    status.textContent = text;
    status.classList.toggle('error', Boolean(isError));
  }

  const where = (path, line) => (path ? `${path}${line ? `:${line}` : ''}` : '');

  // ---------------------------------------------------------------------------------------------
  // State

  const state = {
    repo: '',
    repos: [],
    graph: null,
    renderer: null,
    selected: null,
    hovered: null,
    /** Analyses already loaded for the current repository choice. */
    loaded: new Set(),
  };

  /** Colours of communities (and of kinds when communities are off). */
  const PALETTE = ['#4f8cff', '#f59e0b', '#10b981', '#ef4444', '#8b5cf6', '#14b8a6', '#ec4899', '#84cc16', '#f97316', '#06b6d4', '#a16207', '#6366f1', '#be123c', '#0f766e', '#7c3aed', '#65a30d'];
  const GREY = '#9aa4af';

  // ---------------------------------------------------------------------------------------------
  // The graph

  /** The /v1/graph URL of the current filters. */
  function graphUrl() {
    const params = new URLSearchParams();
    const kinds = [...document.querySelectorAll('#kinds input:checked')].map((i) => i.value);
    if (kinds.length > 0) params.set('kind', kinds.join(','));
    const language = $('#language').value;
    if (language) params.set('language', language);
    const prefix = $('#path').value.trim();
    if (prefix) params.set('path', prefix);
    if ($('#communities').checked) params.set('communities', '1');
    const max = Math.max(1, Math.min(20000, Number($('#max-nodes').value) || 1500));
    params.set('max_nodes', String(max));
    if (state.repo) params.set('repo', state.repo);
    return `/v1/graph?${params.toString()}`;
  }

  /**
   * A deterministic layout: groups (communities, else top directories) on a sunflower spiral, each
   * group's nodes on a small sunflower around its centre (best connected in the middle), then a
   * time-capped force relaxation — springs along edges, a pull to the group centre, and repulsion
   * between nearby nodes found through a grid — so it stays fast for a few thousand nodes.
   */
  function layout(nodes, edges) {
    const GOLDEN = Math.PI * (3 - Math.sqrt(5));
    const groups = new Map();
    for (const n of nodes) {
      const key = n.community !== undefined ? `${n.repo_prefix}#${n.community}` : `${n.repo_prefix}/${(n.file_path || '').split('/')[0]}`;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(n);
    }
    const ordered = [...groups.entries()].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
    const SPACING = 10;
    const pos = new Map();
    const centre = new Map();
    let area = 0;
    ordered.forEach(([key, members], g) => {
      // Centre distance grows with the area already used, so groups rarely overlap.
      const radius = g === 0 ? 0 : Math.sqrt(area) * SPACING * 1.25;
      area += members.length;
      const cx = radius * Math.cos(g * GOLDEN * 3);
      const cy = radius * Math.sin(g * GOLDEN * 3);
      members.sort((a, b) => b.degree - a.degree || (a.id < b.id ? -1 : 1));
      members.forEach((n, j) => {
        const r = Math.sqrt(j + 0.5) * SPACING * 0.9;
        pos.set(n.id, { x: cx + r * Math.cos(j * GOLDEN), y: cy + r * Math.sin(j * GOLDEN), dx: 0, dy: 0 });
        centre.set(n.id, { x: cx, y: cy });
      });
      void key;
    });

    const points = nodes.map((n) => pos.get(n.id));
    // Each pair linked once (the answer repeats an edge per kind and call site), no self links.
    const seen = new Set();
    const links = [];
    for (const e of edges) {
      const a = pos.get(e.from);
      const b = pos.get(e.to);
      const key = e.from < e.to ? `${e.from}\u0000${e.to}` : `${e.to}\u0000${e.from}`;
      if (!a || !b || a === b || seen.has(key)) continue;
      seen.add(key);
      links.push([a, b]);
    }
    // A node's pull is shared among its links, so hubs do not drag everything into one knot.
    const degree = new Map();
    for (const [a, b] of links) {
      degree.set(a, (degree.get(a) || 0) + 1);
      degree.set(b, (degree.get(b) || 0) + 1);
    }
    const centres = nodes.map((n) => centre.get(n.id));
    const REPULSE = SPACING * 2;
    const started = performance.now();
    for (let iter = 0; iter < 300 && performance.now() - started < 400; iter++) {
      const cooling = 1 - iter / 300;
      for (const p of points) p.dx = p.dy = 0;
      // Springs along edges.
      for (const [a, b] of links) {
        const dx = b.x - a.x;
        const dy = b.y - a.y;
        const d = Math.sqrt(dx * dx + dy * dy) || 0.01;
        const f = ((d - SPACING * 1.5) / d) * 0.3;
        const fa = f / degree.get(a);
        const fb = f / degree.get(b);
        a.dx += dx * fa;
        a.dy += dy * fa;
        b.dx -= dx * fb;
        b.dy -= dy * fb;
      }
      // A pull to the group centre.
      points.forEach((p, i) => {
        p.dx += (centres[i].x - p.x) * 0.01;
        p.dy += (centres[i].y - p.y) * 0.01;
      });
      // Repulsion between nodes closer than REPULSE, looked up in a grid of that cell size.
      const grid = new Map();
      for (const p of points) {
        const k = `${Math.floor(p.x / REPULSE)},${Math.floor(p.y / REPULSE)}`;
        if (!grid.has(k)) grid.set(k, []);
        grid.get(k).push(p);
      }
      for (const p of points) {
        const gx = Math.floor(p.x / REPULSE);
        const gy = Math.floor(p.y / REPULSE);
        for (let ox = -1; ox <= 1; ox++) {
          for (let oy = -1; oy <= 1; oy++) {
            const cell = grid.get(`${gx + ox},${gy + oy}`);
            if (!cell) continue;
            for (const q of cell) {
              if (q === p) continue;
              const dx = p.x - q.x;
              const dy = p.y - q.y;
              const d2 = dx * dx + dy * dy;
              if (d2 >= REPULSE * REPULSE) continue;
              const d = Math.sqrt(d2) || 0.01;
              const f = ((REPULSE - d) / d) * 0.15;
              p.dx += dx * f;
              p.dy += dy * f;
            }
          }
        }
      }
      const maxStep = SPACING * cooling + 0.1;
      for (const p of points) {
        const len = Math.sqrt(p.dx * p.dx + p.dy * p.dy);
        const scale = len > maxStep ? maxStep / len : 1;
        p.x += p.dx * scale;
        p.y += p.dy * scale;
      }
    }
    // Stragglers (nodes with no link in the view, small far groups) are pulled in to a ring just
    // outside the bulk, so they do not shrink everything else when the camera fits the graph.
    if (points.length > 20) {
      const cx = points.reduce((t, p) => t + p.x, 0) / points.length;
      const cy = points.reduce((t, p) => t + p.y, 0) / points.length;
      const dist = points.map((p) => Math.hypot(p.x - cx, p.y - cy)).sort((a, b) => a - b);
      const ring = dist[Math.floor(dist.length * 0.9)] * 1.15 + SPACING;
      for (const p of points) {
        const d = Math.hypot(p.x - cx, p.y - cy);
        if (d <= ring) continue;
        const k = (ring + Math.log(1 + d - ring) * SPACING * 0.5) / d;
        p.x = cx + (p.x - cx) * k;
        p.y = cy + (p.y - cy) * k;
      }
    }
    return pos;
  }

  /** Fetches the graph of the current filters and draws it. */
  async function loadGraph() {
    const url = graphUrl();
    const count = $('#status');
    setStatus('loading the graph…');
    let answer;
    try {
      answer = await api(url);
    } catch (error) {
      setStatus(`graph: ${error.message}`, true);
      return;
    }
    const started = performance.now();
    const Graph = graphology.Graph || graphology;
    const graph = new Graph({ type: 'directed', multi: false, allowSelfLoops: false });
    const labels = new Map();
    for (const r of answer.stats.per_repo || []) {
      for (const [c, label] of Object.entries(r.community_labels || {})) labels.set(`${r.repo}#${c}`, label);
    }
    // Colours: by community when asked for, else by kind; the legend lists the largest groups.
    const colourOf = new Map();
    const groupSize = new Map();
    const byCommunity = url.includes('communities=1');
    const groupOf = (n) => (!byCommunity ? `kind:${n.kind}` : n.community !== undefined ? `${n.repo_prefix}#${n.community}` : 'none');
    for (const n of answer.nodes) groupSize.set(groupOf(n), (groupSize.get(groupOf(n)) || 0) + 1);
    [...groupSize.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .filter(([g]) => g !== 'none')
      .forEach(([g], i) => colourOf.set(g, i < PALETTE.length ? PALETTE[i] : GREY));
    colourOf.set('none', '#c4cbd3');
    const maxDegree = answer.nodes.reduce((m, n) => Math.max(m, n.degree || 0), 1);
    const positions = layout(answer.nodes, answer.edges);
    for (const n of answer.nodes) {
      const p = positions.get(n.id);
      graph.addNode(n.id, {
        x: p.x,
        y: p.y,
        size: 2.5 + (7.5 * Math.log(1 + (n.degree || 0))) / Math.log(1 + maxDegree),
        label: n.name,
        color: colourOf.get(groupOf(n)),
        kind: n.kind,
        file_path: n.file_path,
        start_line: n.start_line,
      });
    }
    for (const e of answer.edges) {
      if (e.from === e.to || !graph.hasNode(e.from) || !graph.hasNode(e.to) || graph.hasEdge(e.from, e.to)) continue;
      graph.addEdge(e.from, e.to, { color: e.cross_repo ? '#d97706' : '#c9d1d9', size: 0.6 });
    }
    drawGraph(graph);
    const ms = Math.round(performance.now() - started);
    const total = answer.stats.total_nodes;
    count.dataset.nodes = String(graph.order);
    count.dataset.edges = String(graph.size);
    count.dataset.url = url;
    setStatus(`${graph.order.toLocaleString()} nodes · ${graph.size.toLocaleString()} edges shown of ${total.toLocaleString()} nodes${answer.truncated ? ' (best connected kept; narrow the filters to see more)' : ''} · drawn in ${ms} ms`);
    const message = $('#graph-message');
    message.hidden = graph.order > 0;
    message.textContent = graph.order > 0 ? '' : 'No node matches these filters.';
    // The legend: the largest groups and their colours.
    const legend = [...groupSize.entries()].sort((a, b) => b[1] - a[1]).slice(0, PALETTE.length);
    $('#legend').replaceChildren(
      ...legend.map(([g, size]) => el('div', {}, el('span', { class: 'swatch', style: `background:${colourOf.get(g)}` }), `${legendName(g, labels)} (${size})`)),
    );
  }

  /** The legend's name of a colour group: a kind, a community's label, or `no community`. */
  function legendName(group, labels) {
    if (group === 'none') return 'no community';
    if (group.startsWith('kind:')) return group.slice(5);
    const hash = group.lastIndexOf('#');
    return labels.get(group) || `community ${group.slice(hash + 1)}${state.repos.length > 1 ? ` of ${group.slice(0, hash)}` : ''}`;
  }

  /** Replaces the drawn graph (one sigma renderer, kept across reloads). */
  function drawGraph(graph) {
    state.graph = graph;
    if (state.renderer) {
      state.renderer.kill();
      state.renderer = null;
    }
    const renderer = new Sigma(graph, $('#graph'), {
      labelRenderedSizeThreshold: 7,
      defaultEdgeType: 'line',
      zIndex: true,
      // Neighbours of the hovered or selected node stay in colour; the rest fade.
      nodeReducer: (id, attrs) => {
        const focus = state.hovered || state.selected;
        if (!focus || !graph.hasNode(focus)) return attrs;
        if (id === focus) return { ...attrs, highlighted: true, zIndex: 2 };
        if (graph.areNeighbors(id, focus)) return { ...attrs, zIndex: 1 };
        return { ...attrs, color: '#e3e7eb', label: '', zIndex: 0 };
      },
      edgeReducer: (id, attrs) => {
        const focus = state.hovered || state.selected;
        if (!focus || !graph.hasNode(focus)) return attrs;
        return graph.hasExtremity(id, focus) ? { ...attrs, color: '#57606a', size: 1.2 } : { ...attrs, hidden: true };
      },
    });
    renderer.on('clickNode', ({ node }) => openSymbol(node));
    renderer.on('enterNode', ({ node }) => {
      state.hovered = node;
      renderer.refresh({ skipIndexation: true });
    });
    renderer.on('leaveNode', () => {
      state.hovered = null;
      renderer.refresh({ skipIndexation: true });
    });
    renderer.on('clickStage', () => {
      state.selected = null;
      renderer.refresh({ skipIndexation: true });
    });
    state.renderer = renderer;
  }

  /** Fills the kind checkboxes and the language list from /v1/stats. */
  async function loadFacets() {
    const stats = await api(`/v1/stats${repoQuery()}`);
    const kinds = new Map();
    const languages = new Map();
    for (const r of stats.repos || []) {
      for (const [k, n] of Object.entries(r.nodes_by_kind || {})) kinds.set(k, (kinds.get(k) || 0) + n);
      for (const [l, v] of Object.entries(r.languages || {})) languages.set(l, (languages.get(l) || 0) + (typeof v === 'number' ? v : v.files || 0));
    }
    const checked = new Set([...document.querySelectorAll('#kinds input:checked')].map((i) => i.value));
    $('#kinds').replaceChildren(
      ...[...kinds.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([k, n]) => el('label', {}, el('input', { type: 'checkbox', value: k, name: 'kind', checked: checked.has(k) }), `${k} `, el('small', {}, `(${n.toLocaleString()})`))),
    );
    const select = $('#language');
    const current = select.value;
    select.replaceChildren(el('option', { value: '' }, 'any'), ...[...languages.keys()].sort().map((l) => el('option', { value: l, selected: l === current }, l)));
  }

  // ---------------------------------------------------------------------------------------------
  // Search and the symbol panel

  let searchSeq = 0;
  async function search(query) {
    const seq = ++searchSeq;
    const list = $('#search-results');
    if (!query.trim()) {
      list.replaceChildren();
      return;
    }
    try {
      const answer = await tool('search_symbols', { query, limit: 20 }, state.repo);
      if (seq !== searchSeq) return;
      fillList(
        list,
        (answer.results || []).map((r) => symbolRow(r.id, r.qualified || r.name, `${r.kind} · ${where(r.path, r.line)}${r.repo && !state.repo ? ` · ${r.repo}` : ''}`)),
        `nothing matches “${query}”`,
      );
    } catch (error) {
      if (seq === searchSeq) list.replaceChildren(el('li', { class: 'empty error' }, error.message));
    }
  }

  /** A node's one-line description: kind · path:line. */
  const nodeSub = (n) => [n.kind, where(n.file_path || n.path, n.start_line || n.line)].filter(Boolean).join(' · ');

  let openSeq = 0;
  /** Opens symbol `id` in the panel: source, callers, callees and usages; selects it in the graph. */
  async function openSymbol(id) {
    const seq = ++openSeq;
    const panel = $('#panel');
    panel.hidden = false;
    panel.dataset.id = id;
    $('#panel-title').textContent = id.split('::').pop() || id;
    $('#panel-meta').textContent = id;
    $('#panel-source').textContent = 'loading…';
    for (const list of ['#panel-callers', '#panel-callees', '#panel-usages']) $(list).replaceChildren(el('li', { class: 'empty' }, 'loading…'));
    if (state.renderer && state.graph.hasNode(id)) {
      state.selected = id;
      state.renderer.refresh({ skipIndexation: true });
      const at = state.renderer.getNodeDisplayData(id);
      if (at) state.renderer.getCamera().animate({ x: at.x, y: at.y }, { duration: 300 });
    }
    const [source, callers, callees, usages] = await Promise.allSettled([
      tool('get_symbol_source', { id, context_lines: 3 }),
      tool('get_callers', { id }),
      tool('get_dependencies', { id }),
      tool('find_usages', { id }),
    ]);
    if (seq !== openSeq) return;
    const fail = (r) => el('li', { class: 'empty error' }, r.reason ? r.reason.message : 'failed');

    if (source.status === 'fulfilled') {
      const s = source.value;
      const node = s.node || {};
      $('#panel-title').textContent = node.qual_name || node.name || $('#panel-title').textContent;
      $('#panel-meta').replaceChildren(`${node.kind || ''} · ${where(s.path, s.start_line)}${node.repo_prefix ? ` · ${node.repo_prefix}` : ''}`, el('br'), node.signature || '');
      const lines = String(s.source || '').replace(/\n$/, '').split('\n');
      const from = s.from_line || s.start_line || 1;
      $('#panel-source').replaceChildren(
        ...lines.map((text, i) => {
          const n = from + i;
          const inside = n >= s.start_line && n <= s.end_line;
          return el('span', { class: inside ? 'focus' : null }, el('span', { class: 'ln' }, String(n)), `${text}\n`);
        }),
      );
    } else {
      $('#panel-source').replaceChildren(el('span', { class: 'error' }, source.reason.message));
    }

    if (callers.status === 'fulfilled') {
      fillList($('#panel-callers'), (callers.value.callers || []).map((c) => symbolRow(c.caller.id, c.caller.qual_name || c.caller.name, `${nodeSub(c.caller)}${c.kind && c.kind !== 'calls' ? ` · ${c.kind}` : ''}`)), 'no callers');
    } else $('#panel-callers').replaceChildren(fail(callers));

    if (callees.status === 'fulfilled') {
      fillList($('#panel-callees'), (callees.value.nodes || []).map((n) => symbolRow(n.id, n.qual_name || n.name, nodeSub(n), (n.edge_kinds || []).join(', '))), 'no callees');
    } else $('#panel-callees').replaceChildren(fail(callees));

    if (usages.status === 'fulfilled') {
      const names = new Map((usages.value.nodes || []).map((n) => [n.id, n.qual_name || n.name]));
      fillList($('#panel-usages'), (usages.value.usages || []).map((u) => symbolRow(u.from, names.get(u.from) || u.from, where(u.path, u.line), u.context)), 'no usages');
    } else $('#panel-usages').replaceChildren(fail(usages));
  }

  // ---------------------------------------------------------------------------------------------
  // The analyses

  /** Repositories to run a per-repository analysis on: the chosen one, else every one. */
  const analysisRepos = () => (state.repo ? [state.repo] : state.repos.map((r) => r.id));

  /** Runs `analyze {kind}` on each repository and concatenates `field` of the answers. */
  async function analyzeAll(kind, field) {
    const rows = [];
    for (const repo of analysisRepos()) rows.push(...((await tool('analyze', { kind, limit: 50 }, repo))[field] || []));
    return rows;
  }

  const ANALYSES = {
    async communities() {
      const answer = await api(`/v1/communities${repoQuery()}`);
      return (answer.communities || []).map((c) => symbolRow(c.hub, c.name, `${c.symbols} symbols · ${c.files} files · cohesion ${c.cohesion}${c.repo ? ` · ${c.repo}` : ''}`));
    },
    async processes() {
      const answer = await api(`/v1/processes${repoQuery()}`);
      return (answer.processes || []).map((p) => symbolRow(p.entry || p.id, p.name, `${p.steps} steps · ${p.files} files · ${p.entry_file}`, p.category));
    },
    async dead_code() {
      return (await analyzeAll('dead_code', 'dead')).map((d) => symbolRow(d.symbol.id, d.symbol.qual_name || d.symbol.name, `${nodeSub(d.symbol)} · ${d.reason}`, d.confidence));
    },
    async hotspots() {
      return (await analyzeAll('hotspots', 'hotspots')).map((h) => symbolRow(h.node.id, h.node.qual_name || h.node.name, `${nodeSub(h.node)} · fan-in ${h.fan_in} · fan-out ${h.fan_out}`, `score ${h.score}`));
    },
    async cycles() {
      return (await analyzeAll('cycles', 'cycles')).map((c) =>
        el(
          'li',
          {},
          el('div', { class: 'cycle-head' }, `${c.kind} cycle of ${c.size} · ${c.severity}`),
          el('ul', { class: 'rows' }, ...(c.members || []).map((m) => symbolRow(m.id, m.qual_name || m.name, nodeSub(m)))),
        ),
      );
    },
  };

  async function showTab(name) {
    for (const b of document.querySelectorAll('#tabs button')) b.classList.toggle('active', b.dataset.tab === name);
    for (const p of document.querySelectorAll('.pane')) p.classList.toggle('active', p.id === `pane-${name}`);
    if (!ANALYSES[name] || state.loaded.has(name)) return;
    state.loaded.add(name);
    const list = $(`#pane-${name} ul.rows`);
    list.replaceChildren(el('li', { class: 'empty' }, 'loading…'));
    try {
      fillList(list, await ANALYSES[name](), 'nothing found');
      list.dataset.loaded = 'true';
    } catch (error) {
      state.loaded.delete(name);
      list.replaceChildren(el('li', { class: 'empty error' }, error.message));
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Wiring

  async function start() {
    try {
      state.repos = (await api('/v1/repos')).repos || [];
    } catch (error) {
      setStatus(error.message, true);
      return;
    }
    $('#repo').append(...state.repos.map((r) => el('option', { value: r.id }, `${r.id} (${r.nodes.toLocaleString()} nodes)`)));
    $('#repo').addEventListener('change', async () => {
      state.repo = $('#repo').value;
      state.loaded.clear();
      await loadFacets();
      await loadGraph();
      const active = document.querySelector('#tabs button.active');
      if (active) await showTab(active.dataset.tab);
    });
    for (const b of document.querySelectorAll('#tabs button')) b.addEventListener('click', () => showTab(b.dataset.tab));
    $('#filters').addEventListener('submit', (event) => {
      event.preventDefault();
      loadGraph();
    });
    $('#filters').addEventListener('change', (event) => {
      // Checkboxes and selects apply at once; text fields on Enter or Apply.
      if (event.target.matches('input[type=checkbox], select')) loadGraph();
    });
    let timer;
    $('#search').addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => search($('#search').value), 250);
    });
    $('#search-form').addEventListener('submit', (event) => {
      event.preventDefault();
      clearTimeout(timer);
      search($('#search').value);
    });
    $('#panel-close').addEventListener('click', () => {
      $('#panel').hidden = true;
      state.selected = null;
      if (state.renderer) state.renderer.refresh({ skipIndexation: true });
    });
    // The graph's box changes when the symbol panel opens or closes: sigma must redraw to fit.
    new ResizeObserver(() => {
      if (state.renderer) state.renderer.refresh();
    }).observe($('#graph'));
    try {
      await loadFacets();
    } catch (error) {
      setStatus(error.message, true);
      return;
    }
    await loadGraph();
  }

  start();
})();
