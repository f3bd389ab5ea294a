"""The explorers' figure in the browser: a ``<canvas>`` that receives only the pixels that changed.

An ``ipywidgets.Image`` makes the browser fetch, decode and paint a whole PNG per move, and the kernel encode one:
at the explorers' sizes that was 20–35 ms of a 70–110 ms move (bench/NOTES.md, "Where a move's time goes").
Here the kernel compares the new frame with the one it sent last, encodes the smallest rectangle holding every
changed pixel (the module's fast PNG writer), and sends it in a custom message with its position; the browser
decodes it off the main thread (``createImageBitmap``) and draws it into the canvas. A view that starts (a cell
shown again, a Voilà page) asks for the whole frame. The front end is 40 lines of JavaScript run by anywidget,
whose JupyterLab and Voilà extension ships prebuilt in its wheel (CONTRIBUTING.md, "Widgets").
"""
from __future__ import annotations

import threading

import anywidget
import numpy as np
import traitlets

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
      if (!msg || msg.type !== "frame" || !buffers || !buffers.length) return;
      const blob = new Blob([buffers[0]], { type: "image/png" });
      const bitmap = createImageBitmap(blob);  // decoded off the main thread, meanwhile earlier frames draw
      chain = chain.then(() => bitmap).then((bm) => {
        if (canvas.width !== msg.W || canvas.height !== msg.H) {
          canvas.width = msg.W;
          canvas.height = msg.H;
          canvas.style.width = msg.W + "px";
          canvas.style.height = msg.H + "px";
        }
        ctx.clearRect(msg.x, msg.y, msg.w, msg.h);  // replace the rectangle's pixels (transparent ones too)
        ctx.drawImage(bm, msg.x, msg.y);
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
    """A figure shown in a ``<canvas>``: :meth:`show` sends the rectangle of pixels that changed since the last
    frame (a PNG of it), and a view that starts gets the whole frame.

    ``value`` is the whole last frame as PNG bytes (what ``ipywidgets.Image.value`` was: tests compare it with a
    plain draw); ``n_frames`` counts the frames shown, ``last_rect`` is ``(x, y, w, h)`` of the last one sent.
    """

    _esm = _ESM
    format = "png"

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._frame = None  # the last frame (h, w, 4) uint8, a copy
        self._png = None  # its PNG, made when asked for
        self._send_lock = threading.Lock()  # a whole frame for a new view and a diff never cross
        self.n_frames = 0
        self.last_rect = None
        self.on_msg(self._on_msg)

    @property
    def value(self) -> bytes:
        if self._frame is None:
            return b""
        if self._png is None:
            self._png = _encode(self._frame)
        return self._png

    def show(self, rgba) -> None:
        """Show ``rgba`` (an (h, w, 4) uint8 array): send the changed rectangle, or nothing if nothing changed."""
        rgba = np.ascontiguousarray(rgba)
        if rgba.ndim != 3 or rgba.shape[2] != 4 or rgba.dtype != np.uint8:
            raise ValueError(f"rgba: must be an (h, w, 4) uint8 array; got {rgba.dtype} {rgba.shape}")
        with self._send_lock:
            prev = self._frame
            if prev is None or prev.shape != rgba.shape:
                rect = (0, 0, rgba.shape[1], rgba.shape[0])
            else:
                rect = _changed_rect(prev, rgba)
            self._frame = rgba.copy()
            self._png = None
            self.n_frames += 1
            if rect is None:
                return
            self.last_rect = rect
            self._send_rect(rect)

    def _send_rect(self, rect) -> None:
        x, y, w, h = rect
        frame = self._frame
        self.send({"type": "frame", "x": x, "y": y, "w": w, "h": h, "W": frame.shape[1], "H": frame.shape[0],
                   "seq": self.n_frames}, [_encode(frame[y:y + h, x:x + w])])

    def _on_msg(self, _widget, content, _buffers) -> None:
        if isinstance(content, dict) and content.get("type") == "need_frame":
            with self._send_lock:
                if self._frame is not None:
                    self._send_rect((0, 0, self._frame.shape[1], self._frame.shape[0]))


def _changed_rect(prev, new):
    """(x, y, w, h) of the smallest rectangle holding every pixel where ``new`` differs from ``prev``; None if none."""
    diff = prev.view(np.uint32)[..., 0] != new.view(np.uint32)[..., 0]  # one compare per RGBA pixel
    rows = np.flatnonzero(diff.any(axis=1))
    if rows.size == 0:
        return None
    cols = np.flatnonzero(diff[rows[0]:rows[-1] + 1].any(axis=0))
    return int(cols[0]), int(rows[0]), int(cols[-1] - cols[0] + 1), int(rows[-1] - rows[0] + 1)


def _encode(pixels) -> bytes:
    from ._base import _opaque, _png

    pixels = np.ascontiguousarray(pixels)
    return _png(pixels[..., :3] if _opaque(pixels) else pixels, 1)
