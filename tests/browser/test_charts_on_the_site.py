"""Every explorer on the static site (issue 26), with no server at all: the site's explorer pages
(``explorers/NN_*.html``, built once per session by scripts/build_site.py's own functions, vega inlined from the
npm registry) are opened from ``file://`` in headless Chromium with every request that is not a local file
aborted (and none attempted), and every control of every explorer is moved from the keyboard; the readout the
chart then shows must be what evallib computes for the new setting (explorer_moves.py).
"""

from __future__ import annotations

import os

import pytest
from explorer_moves import (
    BUILT_HERE,
    CASES,
    CHAPTER_OF,
    READ_TEXTS,
    build_explorer_pages,
    case_params,
    move_every_control,
    nth_on_chapter_page,
    nth_on_page,
    outputs,
    press,
)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="session")
def site_pages(browser_available, tmp_path_factory):
    from scripts import webassets

    try:
        webassets.ensure_vendor(verbose=False)
    except SystemExit as exc:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"the site needs vega from the npm registry: {exc}")
    chapters = sorted(set(CHAPTER_OF.values()))  # their own pages too (test_the_chapters_stored_explorers_...)
    return build_explorer_pages(tmp_path_factory.mktemp("site"), outputs(), also=chapters)


@pytest.fixture(scope="module")
def site(browser, site_pages):
    """One browser context for the site: file:// only; every other request is recorded and aborted."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    attempted = []

    def guard(route):
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            attempted.append(route.request.url)
            route.abort()

    ctx.route("**/*", guard)
    opened = {}

    def open_page(stem):
        if stem not in opened:
            pg = ctx.new_page()
            errors = []
            pg.on("pageerror", lambda e: errors.append(str(e)))
            pg.goto(site_pages[stem].as_uri())
            pg.wait_for_function(
                "() => document.querySelectorAll('.evallib-vega').length > 0 && Array.from("
                "document.querySelectorAll('.evallib-vega')).every(d => d.dataset.evallibVega === 'ready')",
                timeout=60_000,
            )
            assert not errors, f"{stem}: {errors}"
            opened[stem] = pg
        opened[stem].bring_to_front()  # a page behind another gets no animation frames
        return opened[stem]

    try:
        yield open_page
        assert attempted == [], f"the site tried to load from the network: {attempted}"
    finally:
        ctx.close()


@pytest.mark.parametrize("case", case_params())
def test_every_control_moves_on_the_site_offline(site, case):
    page = site(case.notebook)
    chart = page.locator(".evallib-vega").nth(nth_on_page(case))
    move_every_control(page, chart, case)


@pytest.mark.parametrize("case", [c for c in CASES if c.notebook == BUILT_HERE], ids=lambda c: c.id)
def test_the_chapters_stored_explorers_built_here_above_also_move(site, case):
    """Chapters 09, 13 and 14 on their own pages: the explorers the value tests build from small inputs are the
    chapters' stored outputs here (their inputs take the chapter's own minute): each draws, and every move
    changes what it shows."""
    page = site(CHAPTER_OF[case.builder])
    chart = page.locator(".evallib-vega").nth(nth_on_chapter_page(case))
    chart.scroll_into_view_if_needed()
    for move in case.moves:
        before = chart.evaluate(READ_TEXTS)
        press(page, chart, move)
        page.wait_for_function(
            "([root, before]) => (" + READ_TEXTS + ")(root) !== before", arg=[chart.element_handle(), before]
        )
