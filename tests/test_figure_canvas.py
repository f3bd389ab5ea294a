"""The explorers' canvas widget (evallib/widgets/_figure.py): what it sends is exactly what changed.

Oracles: a brute-force diff (np.argwhere over every pixel) for the rectangle, Pillow's PNG decoder for the
bytes sent, and a replay of every message onto a blank canvas, as the browser does, against the frame shown.
"""
from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

import evallib as el
from evallib.widgets._figure import FigureCanvas, _changed_rect


def _decode(png):
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))


def _brute_rect(a, b):
    where = np.argwhere(np.any(a != b, axis=2))
    if len(where) == 0:
        return None
    (y0, x0), (y1, x1) = where.min(axis=0), where.max(axis=0)
    return int(x0), int(y0), int(x1 - x0 + 1), int(y1 - y0 + 1)


class Recorder:
    """Stands in for the browser: keeps every message and draws it into its own canvas as the JavaScript does."""

    def __init__(self, widget):
        self.sent, self.canvas = [], None
        widget.send = self.receive

    def receive(self, content, buffers=None):
        self.sent.append((content, buffers))
        if self.canvas is None or self.canvas.shape[:2] != (content["H"], content["W"]):
            self.canvas = np.zeros((content["H"], content["W"], 4), np.uint8)
        image = _decode(buffers[0])
        if content["type"] == "frame":
            x, y, w, h = (content[k] for k in "xywh")
            assert image.shape[:2] == (h, w)
            self.canvas[y:y + h, x:x + w] = image
            return
        assert content["type"] == "tiles"
        t, cols, pos = content["t"], content["cols"], content["pos"]
        for i in range(len(pos) // 2):
            sy, sx = (i // cols) * t, (i % cols) * t
            dy, dx = pos[2 * i] * t, pos[2 * i + 1] * t
            h, w = min(t, content["H"] - dy), min(t, content["W"] - dx)  # the canvas clips the last row, column
            self.canvas[dy:dy + h, dx:dx + w] = image[sy:sy + h, sx:sx + w]

    def pixels_sent(self, k=-1):
        content, buffers = self.sent[k]
        if content["type"] == "frame":
            return content["w"] * content["h"]
        return len(content["pos"]) // 2 * content["t"] ** 2


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 40), st.integers(1, 40), st.lists(st.tuples(st.integers(0, 39), st.integers(0, 39),
                                                                  st.integers(0, 3), st.integers(0, 255)),
                                                        max_size=6), st.integers(0, 2**32 - 1))
def test_changed_rect_is_the_bounding_box_of_every_changed_pixel(h, w, changes, seed):
    a = np.random.default_rng(seed).integers(0, 256, (h, w, 4), dtype=np.uint8)
    b = a.copy()
    for y, x, c, v in changes:
        b[y % h, x % w, c] = v
    assert _changed_rect(a, b) == _brute_rect(a, b)


def test_the_browser_side_replay_of_the_messages_is_every_frame_shown():
    rng = np.random.default_rng(0)
    w = FigureCanvas()
    browser = Recorder(w)
    frame = rng.integers(0, 256, (30, 50, 4), dtype=np.uint8)
    frame[..., 3] = 255
    w.show(frame)
    first = browser.sent[-1][0]
    assert (first["x"], first["y"], first["w"], first["h"]) == (0, 0, 50, 30), "the first frame is sent whole"
    np.testing.assert_array_equal(browser.canvas, frame)
    for k in range(5):
        frame = frame.copy()
        frame[5 + k:9 + k, 10:13 + 2 * k, :3] = rng.integers(0, 256, (4, 3 + 2 * k, 3))
        n = len(browser.sent)
        w.show(frame)
        assert len(browser.sent) == n + 1
        assert browser.sent[-1][0]["type"] == "frame" and w.last_sent[0] == "rect"
        assert browser.pixels_sent() <= 4 * (3 + 2 * k), "only the changed rectangle is sent"
        np.testing.assert_array_equal(browser.canvas, frame)
        np.testing.assert_array_equal(_decode(w.value), frame)
    n = len(browser.sent)
    w.show(frame.copy())
    assert len(browser.sent) == n, "an unchanged frame sends nothing"
    assert w.n_frames == 7


def test_a_new_view_gets_the_whole_frame_and_transparency_is_kept():
    w = FigureCanvas()
    browser = Recorder(w)
    w._on_msg(w, {"type": "need_frame"}, [])
    assert browser.sent == [], "nothing to send before the first frame"
    frame = np.zeros((8, 9, 4), np.uint8)
    frame[2:4, 3:5] = (255, 0, 0, 128)
    w.show(frame)
    browser.canvas = None  # a view that starts afresh
    w._on_msg(w, {"type": "need_frame"}, [])
    content = browser.sent[-1][0]
    assert (content["x"], content["y"], content["w"], content["h"]) == (0, 0, 9, 8)
    np.testing.assert_array_equal(browser.canvas, frame)


@pytest.mark.parametrize("bad", [np.zeros((4, 4, 3), np.uint8), np.zeros((4, 4, 4), np.float64), np.zeros((4, 4))])
def test_show_refuses_what_is_not_rgba_bytes(bad):
    with pytest.raises(ValueError, match="rgba"):
        FigureCanvas().show(bad)


def test_an_explorer_move_sends_a_rectangle_that_rebuilds_its_figure():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 200)
    ex = el.widgets.threshold_explorer(y, y + rng.normal(0, 0.9, 200))
    browser = Recorder(ex.image)
    ex.image._on_msg(ex.image, {"type": "need_frame"}, [])
    name = next(n for n, c in ex.controls.items() if hasattr(c, "step"))
    c = ex.controls[name]
    full = ex.image.value
    for v in (c.value + c.step, c.value + 3 * c.step):
        ex.set(**{name: v})
        h, w = browser.canvas.shape[:2]
        assert browser.pixels_sent() < w * h / 2, "a blitted move sends less than half of the figure"
        np.testing.assert_array_equal(browser.canvas, _decode(ex.image.value))
    assert ex.image.value != full


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 100), st.integers(1, 100), st.lists(st.tuples(st.integers(0, 99), st.integers(0, 99),
                                                                    st.integers(1, 30), st.integers(1, 30)),
                                                          min_size=1, max_size=5), st.booleans(),
       st.integers(0, 2**32 - 1))
def test_any_change_replayed_from_rectangles_or_tiles_gives_the_new_frame(h, w, boxes, opaque, seed):
    """Two frames with a few changed boxes (tiles when they are far apart, a rectangle when not), replayed."""
    rng = np.random.default_rng(seed)
    first = rng.integers(0, 256, (h, w, 4), dtype=np.uint8)
    if opaque:
        first[..., 3] = 255
    second = first.copy()
    for y, x, bh, bw in boxes:
        second[y % h:y % h + bh, x % w:x % w + bw, :3] ^= 0x5A
    canvas = FigureCanvas()
    canvas.TILE = 8  # small figures, so that both kinds of message occur
    browser = Recorder(canvas)
    canvas.show(first)
    canvas.show(second)
    np.testing.assert_array_equal(browser.canvas, second)
    rect = _brute_rect(first, second)
    if rect is None:  # the boxes cancelled out (XOR twice)
        assert len(browser.sent) == 1, "an unchanged frame sends nothing"
    else:
        assert browser.pixels_sent() <= rect[2] * rect[3] or canvas.last_sent[0] == "rect"


def test_far_apart_changes_go_as_tiles():
    frame = np.full((64, 256, 4), 255, np.uint8)
    canvas = FigureCanvas()
    browser = Recorder(canvas)
    canvas.show(frame)
    moved = frame.copy()
    moved[3, 5, 0] = moved[60, 250, 1] = 0  # two pixels in opposite corners: their rectangle is the figure
    canvas.show(moved)
    assert canvas.last_sent == ("tiles", 2) and browser.sent[-1][0]["opaque"] is True
    assert browser.pixels_sent() == 2 * 32 * 32
    np.testing.assert_array_equal(browser.canvas, moved)
