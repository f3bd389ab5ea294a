#!/usr/bin/env bash
# pip_install.sh VENV_BIN ARGS...  =  "pip install ARGS" into the venv, with uv when it can be had.
#
# uv (from PyPI) installs the same packages from the same index several times faster than pip (numbers in
# bench/RESULTS.md, "Set-up time"). Order: `uv` on PATH; else uv installed into the venv with pip (one wheel,
# a few seconds); else plain pip (after upgrading it). EVALLIB_INSTALLER=pip forces plain pip.
#
# A package index (mirror) the user configured is honoured by both. uv does not read pip's configuration, so the
# index pip would use -- PIP_INDEX_URL, else global.index-url (or install.index-url) of `pip config list` (pip.conf /
# pip.ini), and likewise extra-index-url -- is passed to uv as its default index. uv's own settings win:
# UV_DEFAULT_INDEX (or UV_INDEX_URL) set in the environment is left alone, e.g.
#     UV_DEFAULT_INDEX=https://mirrors.tuna.tsinghua.edu.cn/pypi/web/simple make lab
set -euo pipefail
bin=$1
shift
py="$bin/python"

# pip's configured value of OPTION (index-url, extra-index-url): the environment, else pip's config files.
pip_setting() {
    local env_name="PIP_$(echo "$1" | tr 'a-z-' 'A-Z_')" value
    value=${!env_name:-}
    if [ -z "$value" ]; then
        # `pip config list` merges every config file (`pip config get` looks at one): global.X='...' or install.X='...'
        value=$("$py" -m pip config list 2>/dev/null | sed -n "s/^\(global\|install\)\.$1='\(.*\)'\$/\2/p" | tail -n 1 \
                || true)
    fi
    printf '%s' "$value"
}

if [ "${EVALLIB_INSTALLER:-uv}" != pip ]; then
    uv=$(command -v uv || true)
    if [ -z "$uv" ]; then
        [ -x "$bin/uv" ] || "$py" -m pip install --quiet --disable-pip-version-check uv >/dev/null 2>&1 || true
        [ -x "$bin/uv" ] && uv="$bin/uv"
    fi
    if [ -n "$uv" ]; then
        index_args=()
        if [ -z "${UV_DEFAULT_INDEX:-}${UV_INDEX_URL:-}" ]; then
            index=$(pip_setting index-url)
            extra=$(pip_setting extra-index-url)
            [ -n "$index" ] && index_args+=(--index-url "$index")
            for e in $extra; do index_args+=(--extra-index-url "$e"); done
            # pip picks the best version across all its indexes; uv, by default, only looks at the first index
            # that has a package (e.g. an old matplotlib on a partial mirror): ask uv for pip's behaviour.
            [ ${#index_args[@]} -gt 0 ] && index_args+=(--index-strategy unsafe-best-match)
            [ -n "$index" ] && echo "uv: using pip's configured index $index" >&2
        fi
        # No --compile-bytecode: compiling the whole venv (11,000 files) took most of a fresh set-up, for modules
        # nothing imports. Python writes a module's bytecode when it is first imported (the Makefile allows it
        # even under PYTHONDONTWRITEBYTECODE), and make's set-up imports the kernels' stack once
        # (scripts/warm_imports.py; bench/RESULTS.md, "Bytecode"). A venv that will be read-only when used (a
        # shared hub install) should be installed with UV_COMPILE_BYTECODE=1, uv's own setting: all compiled now.
        exec "$uv" pip install --quiet --python "$py" ${index_args[@]+"${index_args[@]}"} "$@"
    fi
    echo "uv not available: installing with pip" >&2
fi
# pip reads its own configuration (PIP_INDEX_URL, pip.conf); UV_DEFAULT_INDEX set for uv is given to pip too.
pip_index=()
if [ -n "${UV_DEFAULT_INDEX:-${UV_INDEX_URL:-}}" ] && [ -z "${PIP_INDEX_URL:-}" ]; then
    pip_index=(--index-url "${UV_DEFAULT_INDEX:-$UV_INDEX_URL}")
fi
"$py" -m pip install --quiet --disable-pip-version-check ${pip_index[@]+"${pip_index[@]}"} --upgrade pip \
    || echo "could not upgrade pip (offline or a mirror without it): going on with the installed one" >&2
exec "$py" -m pip install --quiet --disable-pip-version-check ${pip_index[@]+"${pip_index[@]}"} "$@"
