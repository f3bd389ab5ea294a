#!/usr/bin/env bash
# Browser for tests/browser: Debian's chromium at /usr/bin/chromium (never a browser downloaded by
# `playwright install`). Installs it with apt-get when it is missing and this machine allows it (root with
# apt-get; about 40 s); otherwise it says why and exits 0: the browser tests then skip with that reason.
# Where it may install but apt-get fails, it exits 1: CI must not pass with the browser tests skipped.
set -uo pipefail
CHROMIUM=${EVALLIB_CHROMIUM:-/usr/bin/chromium}  # the browser tests read the same variable
# Chinese glyphs for the Chinese edition's browser test (issue 16): Debian's fonts-noto-cjk next to chromium.
have_cjk() { command -v fc-list >/dev/null 2>&1 && fc-list :lang=zh family | grep -q "Noto Sans CJK"; }
if [ -x "$CHROMIUM" ]; then
    if ! have_cjk && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
        echo "install_browser: installing fonts-noto-cjk with apt-get" >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends fonts-noto-cjk >/dev/null \
            || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
                 --no-install-recommends fonts-noto-cjk >/dev/null; } || exit 1
    fi
    exit 0
fi
if [ "$(id -u)" != "0" ]; then
    echo "install_browser: $CHROMIUM missing and not root: browser tests will be skipped" \
         "(as root: apt-get install -y chromium)" >&2
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install_browser: $CHROMIUM missing and no apt-get: browser tests will be skipped" >&2
    exit 0
fi
echo "install_browser: installing Debian's chromium with apt-get (about 40 s)" >&2
export DEBIAN_FRONTEND=noninteractive
if apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium fonts-noto-cjk >/dev/null \
        && [ -x "$CHROMIUM" ]; then
    echo "install_browser: $("$CHROMIUM" --version 2>/dev/null)" >&2
    exit 0
fi
echo "install_browser: apt-get could not install chromium (see above); install it or run the tests as a" \
     "user without apt rights to skip the browser tests" >&2
exit 1
