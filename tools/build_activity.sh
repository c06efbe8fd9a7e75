#!/usr/bin/env bash
# The Activity's script: the Embedded App SDK (from package-lock.json) and bot/web/activity_src/*.js,
# bundled by esbuild into bot/web/static/activity.bundle.js, which is committed so that installing
# the bot needs no Node. The same lockfile and sources give the same bytes.
#   tools/build_activity.sh           rebuild the committed bundle
#   tools/build_activity.sh --check   rebuild elsewhere and fail if the committed bundle differs
set -euo pipefail
cd "$(dirname "$0")/../bot/web/activity_src"
out=../static/activity.bundle.js
if [ "${1:-}" = "--check" ]; then
    out=$(mktemp --suffix=.js)
    trap 'rm -f "$out"' EXIT
fi
banner="/*! The Activity's script, built by tools/build_activity.sh from bot/web/activity_src. Includes
@discord/embedded-app-sdk (MIT License, Copyright (c) 2024 Discord Inc.) and what it bundles: zod,
eventemitter3, uuid, decimal.js-light, lodash.transform (MIT), tslib (0BSD), big-integer (Unlicense). */"
npm ci --no-audit --no-fund --loglevel=error >/dev/null
npx --no-install esbuild main.js --bundle --minify --format=iife --target=es2020,safari15 \
    --charset=utf8 --legal-comments=eof --banner:js="$banner" --log-level=warning --outfile="$out"
if [ "${1:-}" = "--check" ]; then
    if ! cmp -s "$out" ../static/activity.bundle.js; then
        echo "bot/web/static/activity.bundle.js is not what its sources build: run tools/build_activity.sh and commit it" >&2
        exit 1
    fi
    echo "activity.bundle.js matches its sources"
fi
