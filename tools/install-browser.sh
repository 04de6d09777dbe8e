#!/bin/sh
# Installs what the browser tests need on a Debian machine: Debian's Chromium (run as root,
# as CI does) and Playwright from pip into the project's venv (it drives the system
# Chromium; `playwright install` downloads nothing here).
set -eu
PYTHON="${1:-.venv/bin/python}"
if ! command -v chromium >/dev/null 2>&1; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "install-browser: run as root (or install the chromium package yourself)" >&2
        exit 1
    fi
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver
fi
"$PYTHON" -m pip install -q "playwright>=1.40"
