"""The one explorer pattern of the course (issue 26): evallib computes, the browser draws.

An explorer is an Altair (Vega-Lite 5) chart built from data that evallib precomputed over its controls' grid;
its sliders and menus are Vega parameters bound to native ``<input>`` elements, and moving one filters the
precomputed rows in the browser: no kernel, no round trip. :class:`Explorer` wraps the chart with its data and
the readout of the initial state; its ``_repr_mimebundle_`` carries the Vega-Lite spec
(``application/vnd.vegalite.v5+json``, drawn by JupyterLab's built-in renderer, nbconvert HTML and the slides)
and the readout as ``text/plain`` (nbval and readers without JavaScript). docs/design/explorers.md has the
pattern, a worked example and how to test.

Vega-Lite version: JupyterLab 4.6 bundles vega 5.33.0, vega-lite 5.6.1 and vega-embed 6.21.3; Altair 5.5 writes
v5.20.1 specs. Charts here use only what 5.6.1 has (params bound to inputs, filter/calculate/flatten/window
transforms, layer and concat, ``lineBreak`` on text marks).
"""

from __future__ import annotations

import json
import numbers
import string
import textwrap
import unicodedata

import altair as alt

from .._validation import Interval, validate_params

__all__ = [
    "Explorer",
    "slider",
    "menu",
    "match",
    "readout",
    "readout_expr",
    "readout_fields",
    "wrap",
    "inline",
    "WIDTH",
    "READOUT_WIDTH",
    "VEGALITE_MIME",
]

VEGALITE_MIME = "application/vnd.vegalite.v5+json"
# The widest an explorer may be: JupyterLab's notebook at a 1,280 px window with the file browser open leaves
# about 900 px to an output; 720 px (panels, axes, legends and padding included) leaves room to spare.
WIDTH = 720
READOUT_WIDTH = WIDTH - 100  # beside the axis titles' column of the views above it
# The readout's font: 12 px monospace, 7.2 px a column (a CJK character takes two).
_FONT_SIZE, _COLUMN_PX, _LINE_PX = 12, 7.3, 16

# Declared constraints shared by the builders (evallib._validation.validate_params). A bound the controls' grid
# sets (a multiple of 5, at most the slider's end) stays inline, after the declaration, with its own message.
SEED = ["random_state"]
REAL = [Interval(numbers.Real, None, None)]
PROBABILITY = [Interval(numbers.Real, 0, 1)]
OPEN_UNIT = [Interval(numbers.Real, 0, 1, closed="neither")]
NONNEGATIVE = [Interval(numbers.Real, 0, None, closed="left")]
POSITIVE = [Interval(numbers.Real, 0, None, closed="neither")]


def at_least(minimum: int) -> list:
    """An int >= ``minimum`` (a count: degree, samples, folds, data sets)."""
    return [Interval(numbers.Integral, minimum, None, closed="left")]


def _check_name(name, arg="name"):
    if not isinstance(name, str) or not name.isidentifier() or name.startswith("_"):
        raise ValueError(f"{arg}: must be an identifier (a Vega signal name) not starting with '_'; got {name!r}")
    return name


class Explorer:
    """An explorer: an Altair chart drawn in the browser, the data evallib precomputed for it, and the readout of
    its initial state.

    Parameters: ``chart`` (an Altair top-level chart whose controls are Vega params), ``data`` (what evallib
    precomputed: a DataFrame or a dict of them), ``text`` (the readout for the initial state, exactly as printed),
    ``title`` (shown above the controls), ``values`` (the controls' initial values, name -> value).

    Displayed, it gives the Vega-Lite spec and the readout as text/plain: the chart moves with no kernel.

    >>> import altair as alt, pandas as pd
    >>> e = Explorer(alt.Chart(pd.DataFrame({"x": [1]})).mark_point().encode(x="x:Q"), data=None, text="one point")
    >>> e._repr_mimebundle_()[0]["text/plain"]
    'one point'
    """

    def __init__(self, chart, *, data, text: str, title: str = "", values: dict | None = None):
        if not isinstance(chart, alt.TopLevelMixin):
            raise TypeError(f"chart: must be an Altair top-level chart; got {type(chart).__name__}")
        if not isinstance(text, str):
            raise TypeError(f"text: must be a str (the readout of the initial state); got {type(text).__name__}")
        if not isinstance(title, str):
            raise TypeError(f"title: must be a str; got {type(title).__name__}")
        import pandas as pd

        if data is not None and not isinstance(data, (pd.DataFrame, dict)):
            raise TypeError(f"data: must be None, a DataFrame or a dict of them; got {type(data).__name__}")
        if values is not None and not isinstance(values, dict):
            raise TypeError(f"values: must be a dict (control name -> initial value); got {type(values).__name__}")
        self.chart, self.data, self.text, self.title = chart, data, text, title
        self.values = dict(values or {})
        self._spec = None

    def spec(self, *, validate: bool = True) -> dict:
        """The Vega-Lite spec (a dict), validated against Altair's Vega-Lite 5 schema."""
        if validate:
            if self._spec is None:
                self._spec = self.chart.to_dict(validate=True)
            return json.loads(json.dumps(self._spec))  # a copy the caller may change
        return self.chart.to_dict(validate=False)

    def nbytes(self) -> int:
        """Bytes of the spec as a notebook stores it (nbformat's JSON, indent=1): the size bench/RESULTS.md gives."""
        return len(json.dumps(self.spec(), indent=1, ensure_ascii=False).encode())

    def _repr_mimebundle_(self, include=None, exclude=None):
        # SVG: the chart's texts are in the page's DOM (readable, searchable, tested); no export menu (its
        # "Open in Vega Editor" would leave the page). JupyterLab's renderer reads embed_options.
        return (
            {VEGALITE_MIME: self.spec(), "text/plain": self.text},
            {VEGALITE_MIME: {"embed_options": {"renderer": "svg", "actions": False}}},
        )

    def jupyter_chart(self):
        """Altair's JupyterChart of this chart (an anywidget): its ``params`` follow the controls in the kernel.

        Its JavaScript loads vega-embed from a CDN unless ``altair.JupyterChart.enable_offline()`` was called
        (which needs the vl-convert-python package); no chapter needs it, the displayed Explorer needs neither.
        """
        return alt.JupyterChart(self.chart)

    def __repr__(self) -> str:
        vals = ", ".join(f"{k}={v:.6g}" if isinstance(v, float) else f"{k}={v!r}" for k, v in self.values.items())
        return f"Explorer({self.title!r}: {vals})"


@validate_params({"value": REAL, "lo": REAL, "hi": REAL, "step": POSITIVE, "description": ["str"], "name": ["str"]})
def slider(value, lo, hi, step=1, description="", *, name):
    """A Vega parameter ``name`` bound to a range ``<input>`` (Tab to it, the arrow keys move it), labelled with
    ``description`` in the learner's language (evallib.i18n.ui).

    In JupyterLab, Left/Right move the slider (Up/Down stay JupyterLab's cell navigation in command mode).

    >>> slider(3, 0, 15, 1, "degree", name="degree").name
    'degree'
    """
    from ..i18n import ui

    if lo > hi:
        raise ValueError(f"lo, hi: the slider's range needs lo <= hi; got lo={lo!r}, hi={hi!r}")
    if not lo <= value <= hi:
        raise ValueError(f"value: must lie in [lo, hi] = [{lo!r}, {hi!r}]; got {value!r}")
    return alt.param(
        name=_check_name(name),
        value=value,
        bind=alt.binding_range(min=lo, max=hi, step=step, name=ui(description) + " "),
    )


@validate_params(
    {
        "options": ["array-like"],
        "description": ["str"],
        "name": ["str"],
        "labels": [None, "array-like"],
        "radio": ["boolean"],
    }
)
def menu(value, options, description="", *, name, labels=None, radio=True):
    """A Vega parameter ``name`` bound to radio buttons (``radio=True``, the default: arrows change them in
    JupyterLab, where Up/Down on a ``<select>`` move between cells) or a ``<select>``; ``labels`` are shown for the
    ``options`` (translated with evallib.i18n.ui when they are strings).

    >>> menu(0.05, [0.05, 0.1], "alpha", name="alpha").name
    'alpha'
    """
    from ..i18n import ui

    options = list(options)
    if not options:
        raise ValueError("options: must not be empty")
    if value not in options:
        raise ValueError(f"value: must be one of the options {options!r}; got {value!r}")
    if labels is not None:
        labels = [ui(str(s)) for s in labels]
        if len(labels) != len(options):
            raise ValueError(f"labels: one per option ({len(options)}); got {len(labels)}")
    kind = alt.binding_radio if radio else alt.binding_select
    kw = {"labels": labels} if labels is not None else {}
    return alt.param(name=_check_name(name), value=value, bind=kind(options=options, name=ui(description) + " ", **kw))


def match(**columns) -> str:
    """A Vega filter expression keeping the rows whose columns equal the given params (``column=param``, a param
    or its name); numbers compare within 1e-9, so a slider's 0.35 finds the row Python wrote as 0.35.

    >>> match(k="n_splits")
    "abs(datum['k'] - n_splits) < 1e-9"
    """
    if not columns:
        raise ValueError("columns: give at least one column=param")
    parts = []
    for col, p in columns.items():
        pname = _check_name(p.name if isinstance(p, alt.Parameter) else p, col)
        parts.append(f"abs(datum['{col}'] - {pname}) < 1e-9")
    return " && ".join(parts)


def _columns(s: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)


def wrap(text: str, width: int | None = None, *, sep: str = " | ") -> str:
    """``text`` broken into lines (joined by "\\n") of at most ``width`` columns (default: what fits
    :data:`READOUT_WIDTH`), at ``sep`` first, then at spaces: never inside a word or a number.

    >>> wrap("degree  3 | training MSE 0.0123 | test MSE 0.0456", 32)
    'degree  3 | training MSE 0.0123\\ntest MSE 0.0456'
    """
    if not isinstance(text, str):
        raise TypeError(f"text: must be a str; got {type(text).__name__}")
    width = int(READOUT_WIDTH // _COLUMN_PX) if width is None else width
    if not isinstance(width, int) or width < 10:
        raise ValueError(f"width: must be an int >= 10 (columns); got {width!r}")
    out = []
    for para in text.split("\n"):
        line = ""
        for piece in para.split(sep):
            cand = piece if not line else line + sep + piece
            if _columns(cand) <= width:
                line = cand
                continue
            if line:
                out.append(line)
            # a piece longer than a line: at spaces only (a CJK piece without spaces stays whole)
            chunks = textwrap.wrap(piece, width, break_long_words=False, break_on_hyphens=False) or [""]
            out.extend(chunks[:-1])
            line = chunks[-1]
        out.append(line)
    return "\n".join(out)


def readout(data, *, text: str = "readout", where: str | None = None, n_lines: int = 2, width: int = READOUT_WIDTH):
    """A chart of one text mark: the field ``text`` of the row of ``data`` (data, or an ``alt.Chart`` with its
    transforms) that ``where`` (a Vega expression, e.g. :func:`match`) keeps, left-aligned, in lines broken by
    "\\n" (see :func:`wrap`), ``n_lines`` high."""
    chart = (data if isinstance(data, alt.Chart) else alt.Chart(data)).mark_text(
        align="left", baseline="top", lineBreak="\n", font="monospace", fontSize=_FONT_SIZE, lineHeight=_LINE_PX
    )
    if where is not None:
        chart = chart.transform_filter(where)
    return chart.encode(text=alt.Text(f"{text}:N"), x=alt.value(0), y=alt.value(2)).properties(
        width=width, height=n_lines * _LINE_PX + 4, view=alt.ViewBackground(stroke=None)
    )


def _fields(template: str):
    from ..i18n import gettext

    translated = gettext(template)
    return translated, list(string.Formatter().parse(translated))


def readout_fields(template: str, /, **values) -> dict:
    """Each field of the (translated) readout ``template`` formatted as :func:`evallib.i18n.say` formats it:
    ``{name: str}``, the columns a chart puts in its data for :func:`readout_expr`.

    >>> readout_fields("estimate {mean:.4f} from {n:d} fits", mean=0.25, n=3)
    {'mean': '0.2500', 'n': '3'}
    """
    _, parts = _fields(template)
    out = {}
    for _lit, field, spec, conv in parts:
        if field is None:
            continue
        if field not in values:
            raise ValueError(f"template needs the field '{field}' (give it as a keyword argument)")
        v = values[field]
        out[field] = format(repr(v) if conv == "r" else str(v) if conv == "s" else v, spec)
    return out


def readout_expr(template: str, /, prefix: str = "", *, width: int | None = None, sample: dict | None = None) -> str:
    """A Vega expression that writes the (translated) readout ``template`` from the data columns
    ``prefix + field`` holding :func:`readout_fields`' strings: the same sentence as ``say(template, ...)``, for
    explorers whose grid has too many points to store one sentence each. With ``sample`` (the fields of one
    state), it breaks lines where :func:`wrap` breaks that state's sentence."""
    translated, parts = _fields(template)
    if sample is not None:  # put "\n" where wrap() breaks the sample sentence: between two literal pieces
        from ..i18n import say

        lines = wrap(say(template, **sample), width).split("\n")
        if len(lines) > 1:
            sep = " | "  # break the template after as many separators as each line of the sample holds
            counts = [line.count(sep) for line in lines]
            pieces = translated.split(sep)
            out, i = [], 0
            for c in counts:
                out.append(sep.join(pieces[i : i + c + 1]))
                i += c + 1
            if i == len(pieces):  # wrapped only at separators: the template breaks there too
                translated = "\n".join(out)
                parts = list(string.Formatter().parse(translated))
    terms = []
    for lit, field, _spec, _conv in parts:
        if lit:
            terms.append(json.dumps(lit.replace("{{", "{").replace("}}", "}"), ensure_ascii=False))
        if field is not None:
            terms.append(f"datum[{json.dumps(prefix + field)}]")
    return " + ".join(terms) if terms else "''"


def inline(records, *, name: str | None = None) -> alt.InlineData:
    """Rows (a DataFrame or a list of dicts) as inline JSON text: a notebook stores the data as one string
    (nbformat would put every number of a list on its own line) and Vega parses it in the browser. Lists inside
    a row stay lists (a chart can ``transform_flatten`` them)."""
    import pandas as pd

    if isinstance(records, pd.DataFrame):
        records = records.to_dict(orient="records")
    if not isinstance(records, list):
        raise TypeError(f"records: must be a DataFrame or a list of dicts; got {type(records).__name__}")
    text = json.dumps(records, separators=(",", ":"), ensure_ascii=False, allow_nan=False, default=_plain)
    kw = {"name": name} if name else {}
    return alt.InlineData(values=text, format=alt.DataFormat(type="json"), **kw)


def _plain(v):
    import numpy as np

    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.floating):
        return float(v)
    if isinstance(v, np.ndarray):
        return v.tolist()
    raise TypeError(f"records: cannot write a {type(v).__name__} as JSON")
