"""Print a notebook's text outputs (for reviewing a regenerated notebook in the terminal)."""

import json
import sys

for path in sys.argv[1:]:
    nb = json.load(open(path))
    print(f"=== {path}")
    for i, c in enumerate(nb["cells"]):
        if c["cell_type"] != "code":
            continue
        for o in c.get("outputs", []):
            if o["output_type"] == "stream":
                print(f"[{i}] {o['name']}: " + "".join(o["text"]).rstrip())
            elif o["output_type"] in ("execute_result", "display_data"):
                print(f"[{i}] " + "".join(o["data"].get("text/plain", "")).rstrip())
            elif o["output_type"] == "error":
                print(f"[{i}] ERROR {o['ename']}: {o['evalue']}")
