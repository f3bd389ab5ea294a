"""Run an explorer's chart in Vega itself (Node.js, no browser): compile the Vega-Lite spec with vega-lite, set
params, run the dataflow and return what the chart shows (the text of every text mark, in the SVG Vega writes)
and named datasets. The independent check that a chart's Vega expressions show evallib's numbers.

vega and vega-lite come from the npm registry once (scripts/webassets.ensure_vendor, as for `make site`).
"""

from __future__ import annotations

import html
import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

_RUNNER = r"""
const fs = require('fs');
const Module = require('module');
const [vegaPath, vlPath] = process.argv.slice(-2);
const orig = Module._resolveFilename;
Module._resolveFilename = function (req, ...rest) { return req === 'vega' ? vegaPath : orig.call(this, req, ...rest); };
const vega = require(vegaPath);
const vl = require(vlPath);
const input = JSON.parse(fs.readFileSync(0, 'utf8'));
(async () => {
  const vgSpec = vl.compile(input.spec).spec;
  const out = [];
  for (const state of input.states) {
    const view = new vega.View(vega.parse(vgSpec), {renderer: 'none'});
    await view.runAsync();  // drawn at its initial state first, as a learner meets it: a move then re-runs the
    for (const [k, v] of Object.entries(state)) view.signal(k, v);  // dataflow on the same tuples (a formula
    await view.runAsync();  // that overwrites a field it reads goes wrong only then)
    const texts = [];
    (function walk(node) {
      if (!node) return;
      // a mark's texts in reading order (top to bottom, left to right), not the dataflow's tuple order
      if (node.marktype === 'text') for (const it of [...node.items].sort((a, b) => (a.y - b.y) || (a.x - b.x))) {
        if (it.text !== undefined && it.text !== null)
          texts.push(Array.isArray(it.text) ? it.text.join('\n') : String(it.text));
      }
      for (const it of (node.items || [])) { if (it.items) walk(it); }
      if (node.items === undefined && node.marktype === undefined && node.root) walk(node.root);
    })(view.scenegraph().root);
    const data = {};
    for (const name of (input.data || [])) data[name] = view.data(name);
    out.push({texts, data});
    view.finalize();
  }
  process.stdout.write(JSON.stringify(out));
})().catch(e => { console.error(String(e && e.stack || e)); process.exit(1); });
"""


def _vendor():
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("Node.js is needed to run Vega outside a browser (Debian: apt-get install nodejs)")
    from scripts import webassets

    vend = webassets.ensure_vendor(verbose=False)
    vega = vend["vega"] / "build" / "vega.min.js"
    vl = vend["vega-lite"] / "build" / "vega-lite.min.js"
    return node, vega, vl


def run(spec: dict, states: list[dict], data: tuple[str, ...] = ()) -> list[dict]:
    """For each ``state`` (param name -> value), set on a view already run at its initial state (a move, as in
    the browser): ``{"texts": [every text mark's text], "data": {name: rows}}``."""
    node, vega, vl = _vendor()
    r = subprocess.run(
        [node, "-e", _RUNNER, str(vega), str(vl)],
        input=json.dumps({"spec": spec, "states": states, "data": list(data)}),
        capture_output=True,
        text=True,
        timeout=600,
    )
    if r.returncode:
        raise RuntimeError(r.stderr[-3000:])
    out = json.loads(r.stdout)
    for o in out:
        o["texts"] = [html.unescape(t) for t in o["texts"]]
    return out
