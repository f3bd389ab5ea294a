#!/usr/bin/env bash
# Sandbox for scripts/autograde.py: Debian's bubblewrap (`bwrap`). Installs it with apt-get when it is missing and
# this machine allows it (root with apt-get); otherwise it says why and exits 0: the autograder then refuses to
# grade (unless --unsafe-no-sandbox) and the attack tests skip with that reason. Where it may install but apt-get
# fails, it exits 1: CI must not pass with the sandbox tests skipped.
set -uo pipefail
if command -v bwrap >/dev/null 2>&1; then
    exit 0
fi
if [ "$(id -u)" != "0" ]; then
    echo "install_sandbox: bwrap missing and not root: the autograder will refuse to grade" \
         "(as root: apt-get install -y bubblewrap)" >&2
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install_sandbox: bwrap missing and no apt-get: the autograder will refuse to grade" >&2
    exit 0
fi
echo "install_sandbox: installing Debian's bubblewrap with apt-get" >&2
export DEBIAN_FRONTEND=noninteractive
if apt-get update -qq && apt-get install -y -qq --no-install-recommends bubblewrap >/dev/null \
        && command -v bwrap >/dev/null 2>&1; then
    echo "install_sandbox: $(bwrap --version)" >&2
    exit 0
fi
echo "install_sandbox: apt-get could not install bubblewrap (see above)" >&2
exit 1
