#!/usr/bin/env bash
# Install Debian's Chromium and its WebDriver for tests/test_browser.py, when they are missing and
# this runs as root with apt-get (CI does: .ci/run calls this). Elsewhere it says what to install and
# succeeds: the browser test skips without Chromium.
set -euo pipefail
if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then
    exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    if ! { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver >/dev/null; }; then
        echo "scripts/browser.sh: apt-get could not install chromium; tests/test_browser.py will skip" >&2
    fi
else
    echo "scripts/browser.sh: no chromium; tests/test_browser.py will skip (apt-get install chromium chromium-driver)" >&2
fi
