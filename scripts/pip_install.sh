#!/usr/bin/env bash
# pip_install.sh VENV_BIN ARGS...  =  "pip install ARGS" into the venv, with uv when it can be had.
#
# uv (from PyPI) installs the same packages from the same index several times faster than pip (numbers in
# bench/RESULTS.md, "Set-up time"). Order: `uv` on PATH; else uv installed into the venv with pip (one wheel,
# a few seconds); else plain pip (after upgrading it). EVALLIB_INSTALLER=pip forces plain pip.
set -euo pipefail
bin=$1
shift
py="$bin/python"
if [ "${EVALLIB_INSTALLER:-uv}" != pip ]; then
    uv=$(command -v uv || true)
    if [ -z "$uv" ]; then
        [ -x "$bin/uv" ] || "$py" -m pip install --quiet --disable-pip-version-check uv >/dev/null 2>&1 || true
        [ -x "$bin/uv" ] && uv="$bin/uv"
    fi
    if [ -n "$uv" ]; then
        exec "$uv" pip install --quiet --python "$py" "$@"
    fi
    echo "uv not available: installing with pip" >&2
fi
"$py" -m pip install --quiet --disable-pip-version-check --upgrade pip
exec "$py" -m pip install --quiet --disable-pip-version-check "$@"
