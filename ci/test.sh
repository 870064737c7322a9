#!/usr/bin/env bash
# The whole test suite: README's test command and what .ci/run runs.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step is timed, and the times are printed at the end: the suite must
# stay within about 10 minutes on two cores from a fresh clone
# (docs/getting-started.md lists the steps' times).
timings=()
step() {
    local name="$1" started=$SECONDS
    shift
    "$@"
    timings+=("$(printf '%5ds  %s' $((SECONDS - started)) "$name")")
}

# A step that leaves a core idle for long runs in the background while the
# others compile or run (ci/background.sh); each such step builds in target
# folders of its own.
source ci/background.sh

# The variants build (what `make` builds: every variant's search in one
# binary) is one crate compiling 69 searches, mostly on one core: it builds
# while the tests compile, in its own target folder. The tests that search
# as many variants (the variant matrix, the lab's `uci:` participants), the
# bench signature and the variants build step all use this one binary.
background "make (the variants build)" bash ci/make-build.sh
# Two checks run beside the others at the lowest priority, on whatever core
# the steps above and below leave idle (a crate's serial end, a test binary
# on one thread): features type-check on their own (a rotating subset, and
# every one the last commit's declarations could change: CHECK_FEATURES_PER_RUN
# a run, tests/catalogue.rs proving the rest for all) and exclusive
# combinations are refused, from the start; feature-built binaries
# (ci-variants, as the variants build) print their snapshots' tables, a rotating subset of the
# variants plus the ones the last commit changed (HONESTY_PER_RUN a run),
# once the variants build is there: it tells the honesty check each
# variant's features, which it would otherwise build a release binary of
# the baseline for (24 of 40 CPU-s cold).
# The engine's rust-version is checked after the features, in their target
# folder, whose checked dependencies its clippy run reuses.
features_and_msrv() {
    nice -n 19 bash ci/check-features.sh && nice -n 19 bash ci/msrv.sh
}
background "check-features, msrv" features_and_msrv
honesty_after_the_variants_build() {
    local made
    made=$(file_of "make (the variants build)")
    while [ ! -e "$made.end" ]; do sleep 1; done
    PRUNELAB_VARIANTS_BUILD=$(output "make (the variants build)") nice -n 19 bash ci/honesty.sh
}
background "honesty" honesty_after_the_variants_build
# Unit, integration and feature tests (perft, searches, the lab end to end,
# the variant matrix against snapshots/) in the `ci` profile: optimized,
# without LTO, and with debug assertions, so the plans' guards (debug
# assertions in the hooks) are checked by every search of every test (the
# variants build has them too). The engine's library is built once, with
# its `trace` feature (lab blame), so tests/trace.rs runs beside the rest:
# it proves a traced search visits exactly the untraced nodes, so the other
# tests' node counts are the untraced search's, and the untraced build is
# what `make` builds (the matrix, the bench signature and honesty search
# it). A second build of the library without the feature cost 49 CPU-s.
test_features=(--workspace --profile ci --features prunelab/trace)
# The library's tests search each catalogue feature alone on its witness
# (prune::tests::every_feature_acts_where_it_says), one search compiled per
# feature: all 68 cost 86 CPU-s of a serial build, 10 about 11. A run
# searches FEATURE_SEARCHES_PER_RUN of them, rotating with the commit count
# as the feature check does, and every one when the last commit touched
# what declares features or the search's steps (each feature's chain
# variant is searched in every run by the variant matrix all the same).
feature_searches=$(bash ci/features-this-run.sh "${FEATURE_SEARCHES_PER_RUN:-10}" searches | tr '\n' ' ')
echo "ci/test.sh: the library's tests search alone: ${feature_searches}"
# (`env`: the build and the run see the same value, so the run builds nothing.)
cargo_test() { env PRUNELAB_FEATURE_SEARCHES="$feature_searches" cargo test "${test_features[@]}" "$@"; }
step "cargo test --workspace (build)" cargo_test --no-run
await "make (the variants build)"
PRUNELAB_VARIANTS_BUILD=$(output "make (the variants build)")
export PRUNELAB_VARIANTS_BUILD
# Two checks of what `make` builds, which need nothing but that binary, run
# beside the tests: the bench of what `make` builds equals the last `Bench:
# N` of the commit log; and it (the variants build, what OpenBench's
# workers build) searches as every variant's snapshot says through UCI (its
# `matrix` tables are the variant matrix's: cargo test runs it on this
# binary).
# (`&&`: a background step runs its function where `set -e` does not hold.)
what_make_builds() {
    bash ci/bench-signature.sh && bash ci/honesty.sh --variants-build --uci-only
}
background "bench signature, variants build" what_make_builds
# The test binaries run in two lanes side by side, two threads each: the
# engine's (its integration tests, the variant matrix the longest, about
# 100 s) and the lab's and the games crate's (about 75 s). `cargo test`
# runs one binary after another, and each binary's last long tests left
# a core idle. Each binary runs as cargo runs it: from its package's
# folder, with CARGO set; the list is the build's own (`--no-run`).
# (A test artifact's profile says `"test":true`; the binaries the tests
# run, such as prunelab's, are listed too, as executables that are not.)
artifacts=$(cargo_test --no-run --message-format=json 2>/dev/null | grep '"profile":{[^}]*"test":true' || true)
test_binaries=$(sed -n 's|.*"manifest_path":"\([^"]*\)/Cargo.toml".*"executable":"\([^"]*\)".*|\1 \2|p' <<<"$artifacts")
run_lane() {
    local lane="$1" folder binary status=0
    while read -r folder binary; do
        [ -n "$binary" ] || continue
        echo "     Running $binary (in ${folder/#"$PWD"/.})"
        (cd "$folder" && CARGO=$(command -v cargo) "$binary" --test-threads 2) || status=1
    done <<<"$lane"
    return "$status"
}
in_lab_lane='$1 == root "/lab" || $1 == root "/crates/games"'
lab_lane=$(awk -v root="$PWD" "$in_lab_lane" <<<"$test_binaries")
engine_lane=$(awk -v root="$PWD" "!($in_lab_lane)" <<<"$test_binaries")
# Every test binary the build made is in a lane, and each lane has some.
if [ "$(grep -c '"executable":"' <<<"$artifacts")" -ne "$(grep -c . <<<"$test_binaries")" ] ||
    [ -z "$lab_lane" ] || [ -z "$engine_lane" ]; then
    echo "ci/test.sh: could not read every test binary of the build's list:" >&2
    grep '"executable":"' <<<"$artifacts" >&2
    exit 1
fi
background "tests of the lab and the games crate (run)" run_lane "$lab_lane"
step "tests of the engine (run)" run_lane "$engine_lane"
await "tests of the lab and the games crate (run)"
await "bench signature, variants build"
await "check-features, msrv"
await "honesty"

echo "ci/test.sh: every step passed in ${SECONDS}s:"
printf '%s\n' "${timings[@]}"
