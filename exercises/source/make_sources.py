"""Writes the instructor notebooks exercises/source/NN_*.ipynb (otter-grader format, see
scripts/release_exercises.py). Run: .venv/bin/python exercises/source/make_sources.py && make release

The answer cells take their prompt, solution code and points from evallib/grading.py (the same text the
learner's ex.solution() shows), so the two cannot drift apart; this file adds the statements, the figures and
data cells around them, and the hidden tests. Instructors may also edit the notebooks directly (as in otter):
then do not run this script again.
"""
import sys
import textwrap
from pathlib import Path

import nbformat

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from sets import SETS  # noqa: E402

from evallib.grading import exercise_set  # noqa: E402


def md(text):
    return nbformat.v4.new_markdown_cell(textwrap.dedent(text).strip("\n"))


def code(text):
    return nbformat.v4.new_code_cell(textwrap.dedent(text).strip("\n"))


def raw(text):
    return nbformat.v4.new_raw_cell(textwrap.dedent(text).strip("\n"))


def setup_code(key):
    return (f"import numpy as np\nimport matplotlib.pyplot as plt\nimport evallib as el\n"
            f"from evallib.grading import exercise_set\n"
            f"rng = el.setup_notebook(seed=0)\nex = exercise_set(\"{key}\")")


HOW_TO = """
Each problem has an answer cell: replace the `...` with your answer (or write the function's body), run it, then
run the check cell below it: **correct**, **incorrect** (with what is wrong) or **not attempted**.
`ex.hint("q1")` gives a nudge and `ex.solution("q1")` the worked solution. Run the cells from the top;
keep the names (`q1`, the function names) as they are: a grader reads them.
"""


def test_cell(points, message, body):
    head = f'""" # BEGIN TEST CONFIG\nhidden: true\npoints: {points}\n'
    if message:
        head += f"failure_message: {message}\n"
    head += '""" # END TEST CONFIG\n'
    return nbformat.v4.new_code_cell(head + textwrap.dedent(body).strip("\n"))


def build(key, spec):
    ex = exercise_set(key)
    name = spec["name"]
    cells = [
        raw(f"# ASSIGNMENT CONFIG\nname: {name}\ninit_cell: false\ncheck_all_cell: false\nexport_cell: false"),
        md(f"# Exercises {spec['title']}\n\n{textwrap.dedent(spec['intro']).strip()}\n\n"
           f"Chapter: [../notebooks/{name}.ipynb](../notebooks/{name}.ipynb). "
           f"{textwrap.dedent(HOW_TO).strip()}"),
        code(setup_code(key)),
    ]
    seen = []
    for item in spec["problems"]:
        q = item["q"]
        p = ex.problems[q]
        seen.append(q)
        cells += [c if not isinstance(c, str) else code(c) for c in item.get("before", [])]
        cells.append(raw(f"# BEGIN QUESTION\nname: {q}\npoints: {p.points}"))
        book = f", book exercise {p.book}" if p.book else ""
        cells.append(md(f"### {q} · {p.title} ({p.points} point{'s' if p.points != 1 else ''}, {p.kind}{book})\n\n"
                        + textwrap.dedent(item["statement"]).strip()))
        solution = textwrap.dedent(p.solution).strip("\n")
        assert '"""' not in solution and '"""' not in p.prompt, f"{key} {q}: use ''' inside prompts/solutions"
        cells.append(code(f'""" # BEGIN PROMPT\n{p.prompt}\n""" # END PROMPT\n'
                          f"# BEGIN SOLUTION NO PROMPT\n{solution}\n# END SOLUTION"))
        args = ", ".join(p.answers)
        cells.append(code(f'ex.check("{q}", {args})   # ex.hint("{q}") · ex.solution("{q}")'))
        cells.append(raw("# BEGIN TESTS"))
        tests = item.get("tests") or []
        first = (p.points - sum(t[0] for t in tests), "",
                 f'from evallib.grading import exercise_set\nexercise_set("{key}").assert_correct("{q}", {args})')
        all_tests = [first, *tests]
        total = sum(t[0] for t in all_tests)
        assert total == p.points, f"{key} {q}: tests add up to {total}, problem is worth {p.points}"
        cells += [test_cell(*t) for t in all_tests]
        cells.append(raw("# END TESTS"))
        cells.append(raw("# END QUESTION"))
        cells += [c if not isinstance(c, str) else code(c) for c in item.get("after", [])]
    assert seen == list(ex.problems), f"{key}: notebook problems {seen} != registry {list(ex.problems)}"
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    nb.metadata["language_info"] = {"name": "python"}
    nb.cells = cells
    return nb


def main(keys):
    import subprocess
    sys.path.insert(0, str(HERE.parent.parent / "scripts"))
    from nbsettings import STRIP_FLAGS
    for key, spec in SETS.items():
        if keys and key not in keys:
            continue
        path = HERE / f"{spec['name']}.ipynb"
        nbformat.write(build(key, spec), path)
        subprocess.run([sys.executable, "-m", "nbstripout", *STRIP_FLAGS, str(path)], check=True)
        print(f"wrote {path.relative_to(HERE.parent.parent)}")


if __name__ == "__main__":
    main(sys.argv[1:])
