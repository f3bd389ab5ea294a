"""An explorer inside a lecture deck (issue 26), offline and with no kernel: chapter 11's deck is exported as
`make slides --no-execute` exports it (scripts/export_slides.py: reveal.js, MathJax and vega inlined), opened from
``file://`` in headless Chromium with every other request aborted, and the roofline explorer's slide is shown.
Its controls are of every kind the explorers use (a menu, sliders, a checkbox, radio buttons), and the keys that
move them (arrows, Space) are also reveal.js's keys for the next slide: each key must change the chart, to what
evallib computes, and leave the deck on the same slide.
"""

from __future__ import annotations

import os

import pytest
from explorer_moves import CASES, ROOT, move_every_control

pytestmark = pytest.mark.browser

CHAPTER = "11_roofline"


@pytest.fixture(scope="module")
def deck(browser_available, tmp_path_factory):
    from scripts import export_slides

    try:
        assets = export_slides._assets()
    except SystemExit as exc:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"the deck needs reveal.js and vega from the npm registry: {exc}")
    path, _ = export_slides.export_one(
        ROOT / "notebooks" / f"{CHAPTER}.ipynb", tmp_path_factory.mktemp("deck"), False, assets
    )
    return path


@pytest.mark.parametrize("case", [c for c in CASES if c.notebook == CHAPTER], ids=lambda c: c.id)
def test_an_explorer_moves_in_the_deck_offline_and_the_slide_stays(browser, deck, case):
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    attempted, errors = [], []
    ctx.route(
        "**/*",
        lambda route: (
            route.continue_()
            if route.request.url.startswith("file://")
            else (attempted.append(route.request.url), route.abort())
        ),
    )
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(deck.as_uri())
        page.wait_for_selector("body[data-evallib-deck=ready]", timeout=60_000)
        # the slide of the case's explorer (its nth stored chart in the chapter), shown as a lecturer reaches it
        where = page.evaluate(
            """n => { const s = document.querySelectorAll('script[type="application/vnd.vegalite.v5+json"]')[n];
                      const i = Reveal.getIndices(s.closest('section')); Reveal.slide(i.h, i.v); return i; }""",
            case.nth,
        )
        chart = page.locator("section.present .evallib-vega").first
        page.wait_for_function(
            "d => d.dataset.evallibVega === 'ready'", arg=chart.element_handle(timeout=30_000), timeout=60_000
        )
        move_every_control(page, chart, case)
        assert page.evaluate("() => Reveal.getIndices()") == where, "a control's key moved the deck"
        assert not errors and not attempted, (errors, attempted)
    finally:
        ctx.close()
