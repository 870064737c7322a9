#!/usr/bin/env bash
# The whole test suite: README's test command and what .ci/run runs.
set -euo pipefail
cd "$(dirname "$0")/.."
# Unit, integration and feature tests, in release (perft and searches).
cargo test --release
# The plans' guards are debug assertions in the hooks: run them in debug.
cargo test --test guards
# Every feature builds on its own; exclusive combinations are refused.
bash ci/check-features.sh
