#!/usr/bin/env bash
# Prints each named variant's features (its own, its parents', and the ones
# they imply) on one line, space-separated: what `cargo build --features`
# needs (ci/honesty.sh, the bench recipe in docs/benchmarks.md). The variants are read by the
# library's loader, through a default release build of prunelab (or the
# variants build PRUNELAB_VARIANTS_BUILD names), so this and the matrix
# agree on what a variant is. `make VARIANT=` does not need it: it
# builds every variant's search in one binary, the name checked by build.rs.
#
# With --tunables it prints each variant's tunable values instead, as
# $PRUNELAB_TUNABLES takes them (NAME=value,...; an empty line for none),
# which its `cargo build --features` needs too.
#
# Usage: ci/variant-features.sh [--tunables] VARIANT...
set -euo pipefail
cd "$(dirname "$0")/.."

command=variant-features
if [ "${1:-}" = "--tunables" ]; then
    command=variant-tunables
    shift
fi
if [ $# -eq 0 ]; then
    echo "usage: ci/variant-features.sh [--tunables] VARIANT..." >&2
    exit 2
fi
# PRUNELAB_VARIANTS_BUILD: the variants build of this tree, already built
# (ci/test.sh's, from ci/make-build.sh): its loader is the same library's,
# so no release build is made just to ask it.
if [ -n "${PRUNELAB_VARIANTS_BUILD:-}" ]; then
    binary=$PRUNELAB_VARIANTS_BUILD
else
    target_dir=$(cargo metadata --format-version 1 --no-deps | grep -o '"target_directory":"[^"]*"' | cut -d'"' -f4)
    # PRUNELAB_BUILD_DIR: the target folder to build in (ci/ scripts use the
    # lab's, target/lab/cargo, to share its dependencies).
    build_dir=${PRUNELAB_BUILD_DIR:-$target_dir}
    CARGO_TARGET_DIR="$build_dir" cargo build --release --quiet -p prunelab --bin prunelab
    binary=$build_dir/release/prunelab
fi
for variant in "$@"; do
    "$binary" "$command" "$variant"
done
