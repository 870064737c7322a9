#!/usr/bin/env bash
# The whole test suite: README's test command and what .ci/run runs.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step is timed, and the times are printed at the end: the suite must
# stay within about 12 minutes on two cores from a fresh clone.
timings=()
step() {
    local name="$1" started=$SECONDS
    shift
    "$@"
    timings+=("$(printf '%5ds  %s' $((SECONDS - started)) "$name")")
}

# Unit, integration and feature tests (perft, searches, the lab end to end,
# the variant matrix against snapshots/) in the `ci` profile: optimized,
# without LTO, and with debug assertions, so the plans' guards (debug
# assertions in the hooks) are checked by every search of every test.
step "cargo test --workspace" cargo test --workspace --profile ci
# The trace feature (lab blame): a traced search visits the untraced nodes.
# Selected from the whole workspace, so the dependencies resolve with the
# step above's features and are not built again.
step "trace feature" cargo test --profile ci --workspace --features prunelab/trace --test trace
# The engine's rust-version is true for the committed lockfile.
step "msrv" bash ci/msrv.sh
# Every feature builds on its own; exclusive combinations are refused.
step "check-features" bash ci/check-features.sh
# The bench of what `make` builds equals the last `Bench: N` of the commit log.
step "bench signature" bash ci/bench-signature.sh
# What `make` builds (the variants build, what OpenBench's workers build)
# searches as every variant's snapshot says, through `matrix` and UCI.
step "variants build" bash ci/honesty.sh --variants-build
# Feature-built binaries print their snapshots' tables: a rotating subset of
# the variants plus the ones the last commit changed (HONESTY_PER_RUN a run).
step "honesty" bash ci/honesty.sh

echo "ci/test.sh: every step passed in ${SECONDS}s:"
printf '%s\n' "${timings[@]}"
