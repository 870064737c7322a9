#!/usr/bin/env bash
# The whole test suite: README's test command and what .ci/run runs.
set -euo pipefail
cd "$(dirname "$0")/.."
# Unit, integration and feature tests (perft, searches, the lab end to end,
# the variant matrix against snapshots/) in the `ci` profile: optimized,
# without LTO, and with debug assertions, so the plans' guards (debug
# assertions in the hooks) are checked by every search of every test.
cargo test --workspace --profile ci
# The trace feature (lab blame): a traced search visits the untraced nodes.
cargo test --profile ci -p prunelab --features trace --test trace
# The engine's rust-version is true for the committed lockfile.
bash ci/msrv.sh
# Every feature builds on its own; exclusive combinations are refused.
bash ci/check-features.sh
# The default build's bench equals the last `Bench: N` of the commit log.
bash ci/bench-signature.sh
# Feature-built binaries print their snapshots' tables: a rotating subset of
# the variants plus the ones the last commit changed (HONESTY_PER_RUN a run).
bash ci/honesty.sh
