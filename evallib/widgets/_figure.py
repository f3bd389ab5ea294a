"""The explorers' figure in the browser: a ``<canvas>`` that receives only the pixels that changed.

An ``ipywidgets.Image`` makes the browser fetch, decode and paint a whole PNG per move, and the kernel encode one:
at the explorers' sizes that was about 20 ms of a 70–110 ms move (bench/NOTES.md, "Where a move's time goes").
Here the kernel compares the new frame with the one it sent last and encodes (the fast PNG writer of
``_base``) only what changed: the rectangle around it, or its 32 × 32 tiles side by side, whichever is smaller;
it sends that in a custom message with the positions; the browser decodes it off the main thread
(``createImageBitmap``) and draws it into the canvas. A view that starts (a cell
shown again, a Voilà page) asks for the whole frame. The front end is 50 lines of JavaScript run by anywidget,
whose JupyterLab and Voilà extension ships prebuilt in its wheel (CONTRIBUTING.md, "Widgets").
"""
from __future__ import annotations

import threading

import anywidget
import numpy as np

from ._base import _bounding_rect, _opaque, _png

_ESM = r"""
export default {
  render({ model, el }) {
    const canvas = document.createElement("canvas");
    canvas.className = "evallib-figure";
    canvas.width = 0;
    canvas.height = 0;
    const ctx = canvas.getContext("2d");
    let chain = Promise.resolve();
    const onFrame = (msg, buffers) => {
      if (!msg || (msg.type !== "frame" && msg.type !== "tiles") || !buffers || !buffers.length) return;
      const blob = new Blob([buffers[0]], { type: "image/png" });
      const bitmap = createImageBitmap(blob);  // decoded off the main thread, meanwhile earlier frames draw
      chain = chain.then(() => bitmap).then((bm) => {
        if (canvas.width !== msg.W || canvas.height !== msg.H) {
          canvas.width = msg.W;
          canvas.height = msg.H;
          canvas.style.width = msg.W + "px";
          canvas.style.height = msg.H + "px";
        }
        ctx.imageSmoothingEnabled = false;
        if (msg.type === "frame") {  // one rectangle at (x, y)
          ctx.clearRect(msg.x, msg.y, msg.w, msg.h);  // replace its pixels (transparent ones too)
          ctx.drawImage(bm, msg.x, msg.y);
        } else {  // t x t tiles side by side in the image, `cols` a row; pos: tile row, tile column of each
          const t = msg.t;
          for (let i = 0; i < msg.pos.length / 2; i++) {
            const sx = (i % msg.cols) * t, sy = Math.floor(i / msg.cols) * t;
            const dx = msg.pos[2 * i + 1] * t, dy = msg.pos[2 * i] * t;
            if (!msg.opaque) ctx.clearRect(dx, dy, t, t);
            ctx.drawImage(bm, sx, sy, t, t, dx, dy, t, t);
          }
        }
        bm.close();
        canvas.dataset.frame = String(msg.seq);
      }).catch((err) => { canvas.dataset.error = String(err); });
    };
    model.on("msg:custom", onFrame);
    el.appendChild(canvas);
    model.send({ type: "need_frame" });
    return () => model.off("msg:custom", onFrame);
  },
};
"""


class FigureCanvas(anywidget.AnyWidget):
    """A figure shown in a ``<canvas>``: :meth:`show` sends the pixels that changed since the last frame, and a
    view that starts gets the whole frame.

    What changed goes as one PNG: either the rectangle around every changed pixel, or, when that is cheaper,
    the ``TILE`` × ``TILE`` tiles holding a changed pixel, side by side (a move often changes a marker in each
    of two axes and a title: a rectangle around them all is most of the figure, their tiles a fifth of it).

    ``value`` is the whole last frame as PNG bytes (what ``ipywidgets.Image.value`` was: tests compare it with a
    plain draw); ``n_frames`` counts the frames shown, ``last_sent`` is what the last message carried:
    ``("rect", (x, y, w, h))`` or ``("tiles", n)``.
    """

    TILE = 32
    TILES_PER_ROW = 32  # of the image that carries tiles

    _esm = _ESM
    format = "png"

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._frame = None  # the last frame (h, w, 4) uint8, a copy
        self._png = None  # its PNG, made when asked for
        self._send_lock = threading.Lock()  # a whole frame for a new view and a diff never cross
        self.n_frames = 0
        self.last_sent = None
        self.on_msg(self._on_msg)

    @property
    def value(self) -> bytes:
        if self._frame is None:
            return b""
        if self._png is None:
            self._png = _encode(self._frame)
        return self._png

    def show(self, rgba) -> None:
        """Show ``rgba`` (an (h, w, 4) uint8 array): send what changed (nothing if nothing did)."""
        rgba = np.ascontiguousarray(rgba)
        if rgba.ndim != 3 or rgba.shape[2] != 4 or rgba.dtype != np.uint8:
            raise ValueError(f"rgba: must be an (h, w, 4) uint8 array; got {rgba.dtype} {rgba.shape}")
        with self._send_lock:
            prev = self._frame
            tiles = None
            if prev is None or prev.shape != rgba.shape:
                rect = (0, 0, rgba.shape[1], rgba.shape[0])
            else:
                diff = _changed(prev, rgba)
                rect = _bounding_rect(diff)
                if rect is not None:
                    tiles = _changed_tiles(diff, self.TILE)
                    if len(tiles) * self.TILE ** 2 >= 0.7 * rect[2] * rect[3]:
                        tiles = None  # the rectangle is about as small: one image, one draw
            self._frame = rgba.copy()
            self._png = None
            self.n_frames += 1
            if rect is None:
                return
            if tiles is None:
                self._send_rect(rect)
            else:
                self._send_tiles(tiles)

    def _send_rect(self, rect) -> None:
        x, y, w, h = rect
        frame = self._frame
        self.last_sent = ("rect", rect)
        self.send({"type": "frame", "x": x, "y": y, "w": w, "h": h, "W": frame.shape[1], "H": frame.shape[0],
                   "seq": self.n_frames}, [_encode(frame[y:y + h, x:x + w])])

    def _send_tiles(self, tiles) -> None:
        t, frame = self.TILE, self._frame
        H, W = frame.shape[:2]
        padded = np.zeros((-(-H // t) * t, -(-W // t) * t, 4), np.uint8)
        padded[:H, :W] = frame
        grid = padded.reshape(padded.shape[0] // t, t, padded.shape[1] // t, t, 4)
        picked = grid[tiles[:, 0], :, tiles[:, 1]]  # (n, t, t, 4)
        n = len(tiles)
        cols = min(n, self.TILES_PER_ROW)
        rows = -(-n // cols)
        atlas = np.zeros((rows * cols, t, t, 4), np.uint8)
        atlas[:n] = picked
        atlas = atlas.reshape(rows, cols, t, t, 4).transpose(0, 2, 1, 3, 4).reshape(rows * t, cols * t, 4)
        self.last_sent = ("tiles", n)
        self.send({"type": "tiles", "t": t, "cols": cols, "pos": tiles.ravel().tolist(), "W": W, "H": H,
                   "opaque": _opaque(frame), "seq": self.n_frames}, [_encode(atlas)])

    def _on_msg(self, _widget, content, _buffers) -> None:
        if isinstance(content, dict) and content.get("type") == "need_frame":
            with self._send_lock:
                if self._frame is not None:
                    self._send_rect((0, 0, self._frame.shape[1], self._frame.shape[0]))


def _changed(prev, new):
    """Where ``new`` differs from ``prev`` (two (h, w, 4) uint8 frames): one uint32 compare per RGBA pixel."""
    return prev.view(np.uint32)[..., 0] != new.view(np.uint32)[..., 0]


def _changed_rect(prev, new):
    """(x, y, w, h) of the smallest rectangle holding every pixel where ``new`` differs from ``prev``; None if none."""
    return _bounding_rect(_changed(prev, new))


def _changed_tiles(diff, t):
    """(tile row, tile column) of every t × t tile (the last row and column may be cut) with a True in ``diff``."""
    H, W = diff.shape
    padded = np.zeros((-(-H // t) * t, -(-W // t) * t), bool)
    padded[:H, :W] = diff
    return np.argwhere(padded.reshape(padded.shape[0] // t, t, padded.shape[1] // t, t).any(axis=(1, 3)))


def _encode(pixels) -> bytes:
    pixels = np.ascontiguousarray(pixels)
    return _png(pixels[..., :3] if _opaque(pixels) else pixels, 1)
