#!/usr/bin/env bash
# Builds what `make` builds (as OpenBench's workers run it), from the
# committed Makefile's VARIANT and FEATURES lines, not the environment's,
# and prints the binary's path. It builds in the ci-variants profile
# (MAKE_PROFILE; the ci profile with the engine at opt-level 1): the node
# counts are the release build's, the build is quicker on CI's two cores.
# ci/bench-signature.sh and ci/honesty.sh --variants-build share it, and so
# do the tests that search as many variants: it builds in
# target/variants-build/, where crates/test-support/src/variants_build.rs
# builds the same (ci/test.sh hands them this binary, PRUNELAB_VARIANTS_BUILD).
set -euo pipefail
cd "$(dirname "$0")/.."

profile=${MAKE_PROFILE:-ci-variants}
target_dir=$(cargo metadata --format-version 1 --no-deps | grep -o '"target_directory":"[^"]*"' | cut -d'"' -f4)
binary="$target_dir/make-$profile/prunelab"
mkdir -p "$(dirname "$binary")"
env -u VARIANT -u FEATURES -u EXE CARGO_TARGET_DIR="$target_dir/variants-build" \
    make --no-print-directory PROFILE="$profile" EXE="$binary" >&2
echo "$binary"
