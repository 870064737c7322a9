#!/usr/bin/env bash
# The honesty check: a binary built with `cargo build --features "<a
# variant's features>"` must print, with `prunelab matrix`, exactly the
# table of `snapshots/<variant>.snap`, which tests/matrix.rs computes for all
# variants in one build. A mismatch means the generic technique-set search
# and the Cargo-feature build disagree; the diff is printed. It builds in
# the `ci-variants` profile (HONESTY_PROFILE; `release` is what `make`
# builds): node counts do not depend on the profile, and a variant's build
# took 12 CPU-s there, 22 in `release` (fat LTO).
#
# The variants build (what `make` builds, every variant's search in one
# binary, the UCI option Variant choosing it) is checked the same way, for
# every variant at once: `prunelab matrix --variant NAME` against the
# snapshot, and one search through UCI (`setoption name Variant value NAME`,
# the suite's first position to its depth) against the snapshot's first row.
#
# Usage:
#   ci/honesty.sh                 a rotating subset plus the variants the last commit changed
#   ci/honesty.sh --all           every variant
#   ci/honesty.sh NAME...         the named variants
#   ci/honesty.sh --variants-build [NAME...]   the variants build: every variant, or the named ones
#   ci/honesty.sh --variants-build --uci-only [NAME...]
#                                 its UCI searches only: ci/test.sh, whose
#                                 variant matrix (tests/matrix.rs) has compared
#                                 this very binary's tables with the snapshots
#
# The default subset is HONESTY_PER_RUN (3) variants in a row of the sorted
# list, starting where the commit count points, so consecutive commits cover
# every variant (docs/benchmarks.md says in how many commits; tests/readme.rs checks it).
set -euo pipefail
cd "$(dirname "$0")/.."
# One order for the variant list everywhere.
export LC_ALL=C

per_run=${HONESTY_PER_RUN:-3}
all_variants=()
for file in variants/*.toml; do
    [ -e "$file" ] || continue
    name=${file#variants/}
    all_variants+=("${name%.toml}")
done
if [ ${#all_variants[@]} -eq 0 ]; then
    echo "honesty: no variants in variants/" >&2
    exit 1
fi

is_variant() {
    local name=$1 known
    for known in "${all_variants[@]}"; do
        [ "$known" = "$name" ] && return 0
    done
    return 1
}

# A number that moves with every commit: the commit count, else (no history)
# the head commit's hash, else 0.
commit_number() {
    local count hash
    if count=$(git rev-list --count HEAD 2>/dev/null); then
        echo "$count"
    elif hash=$(git rev-parse --short=7 HEAD 2>/dev/null); then
        echo $((16#$hash))
    else
        echo 0
    fi
}

# Variants whose variant file or snapshot the last commit touched.
changed_variants() {
    if ! git rev-parse --verify --quiet HEAD~1 >/dev/null 2>&1; then
        echo "honesty: notice: no parent commit (shallow clone or first commit); no changed variants added" >&2
        return 0
    fi
    git diff --name-only HEAD~1 HEAD -- variants snapshots |
        sed -n -e 's|^variants/\(.*\)\.toml$|\1|p' -e 's|^snapshots/\(.*\)\.snap$|\1|p' |
        LC_ALL=C sort -u
}

selected=()
variants_build=false
tables=true
if [ "${1:-}" = --variants-build ]; then
    variants_build=true
    shift
    if [ "${1:-}" = --uci-only ]; then
        tables=false
        shift
    fi
    [ $# -eq 0 ] && set -- --all
fi
case "${1:-}" in
    --all)
        selected=("${all_variants[@]}")
        ;;
    "")
        count=${#all_variants[@]}
        start=$(($(commit_number) * per_run % count))
        for ((i = 0; i < per_run && i < count; i++)); do
            selected+=("${all_variants[$(((start + i) % count))]}")
        done
        while read -r name; do
            [ -z "$name" ] && continue
            if is_variant "$name" && [[ " ${selected[*]} " != *" $name "* ]]; then
                selected+=("$name")
            fi
        done < <(changed_variants)
        ;;
    -*)
        echo "usage: ci/honesty.sh [--all | VARIANT...]" >&2
        exit 2
        ;;
    *)
        for name in "$@"; do
            if ! is_variant "$name"; then
                echo "honesty: unknown variant '$name'; variants: ${all_variants[*]}" >&2
                exit 2
            fi
        done
        selected=("$@")
        ;;
esac
if [ ${#selected[@]} -eq 0 ]; then
    echo "honesty: no variant selected"
    exit 0
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# The snapshot's body: everything after insta's `---` ... `---` header.
snapshot_body() {
    awk 'seen >= 2 { print; next } $0 == "---" { seen++ }' "$1"
}

if $variants_build; then
    # What ci/make-build.sh already made, when ci/test.sh hands it over (a
    # second make would copy over the binary the tests are running).
    binary=${PRUNELAB_VARIANTS_BUILD:-$(bash ci/make-build.sh)}
    echo "honesty: the variants build ($("$binary" features | head -n 1)): ${#selected[@]} variant(s)"
    started_all=$(date +%s)
    failed=()
    # Each variant's table in its own process, HONESTY_JOBS (2: CI's cores) at a time.
    check_table() {
        local variant=$1
        snapshot_body "snapshots/$variant.snap" >"$scratch/$variant.expected"
        if ! "$binary" matrix --variant "$variant" >"$scratch/$variant.actual" 2>&1 ||
            ! diff -u --label "snapshots/$variant.snap" --label "prunelab matrix --variant $variant" \
                "$scratch/$variant.expected" "$scratch/$variant.actual" >"$scratch/$variant.diff"; then
            echo "$variant"
        fi
    }
    export -f check_table snapshot_body
    export binary scratch
    if $tables; then
        while read -r variant; do
            echo "honesty: the variants build as $variant DIFFERS from its snapshot:" >&2
            cat "$scratch/$variant.diff" >&2
            failed+=("$variant")
        done < <(printf '%s\n' "${selected[@]}" | xargs -P "${HONESTY_JOBS:-2}" -I{} bash -c 'check_table "$1"' _ {})
    fi
    # Through UCI: the suite's first position is the start position.
    depth=$(snapshot_body "snapshots/${selected[0]}.snap" | sed -n 's/^depth \([0-9]*\), Hash 16, 1 thread, from ucinewgame$/\1/p')
    coproc ENGINE { "$binary"; }
    for variant in "${selected[@]}"; do
        read -r position nodes best < <(snapshot_body "snapshots/$variant.snap" | awk -F'|' 'NR == 4 { gsub(/ /, ""); print $1, $2, $3 }')
        printf 'setoption name Variant value %s\nucinewgame\nposition startpos\ngo depth %s\n' "$variant" "$depth" >&"${ENGINE[1]}"
        searched="" moved=""
        while read -r -t 120 line <&"${ENGINE[0]}"; do
            case $line in
                "info depth $depth "*) searched=$(sed -n 's/.* nodes \([0-9]*\) .*/\1/p' <<<"$line") ;;
                bestmove*) moved=$(cut -d' ' -f2 <<<"$line"); break ;;
                "info string error"*) echo "honesty: $variant over UCI: $line" >&2 ;;
            esac
        done
        if [ "$position" != seeds.startpos ] || [ "$searched $moved" != "$nodes $best" ]; then
            echo "honesty: the variants build as $variant over UCI: $position gave nodes $searched bestmove $moved, the snapshot says $nodes $best" >&2
            [[ " ${failed[*]} " == *" $variant "* ]] || failed+=("$variant")
        fi
    done
    echo quit >&"${ENGINE[1]}"
    wait "$ENGINE_PID" || true
    echo "honesty: the variants build: ${#selected[@]} variant(s) in $(($(date +%s) - started_all)) s"
    if [ ${#failed[@]} -gt 0 ]; then
        echo "honesty: the variants build disagrees with the snapshot for: ${failed[*]}" >&2
        exit 1
    fi
    if $tables; then
        echo "honesty: the variants build searches as every checked variant's snapshot says, through matrix and UCI"
    else
        echo "honesty: the variants build searches as every checked variant's snapshot says through UCI (its tables: tests/matrix.rs)"
    fi
    exit 0
fi

echo "honesty: checking ${#selected[@]} variant(s): ${selected[*]}"

target_dir=$(cargo metadata --format-version 1 --no-deps | grep -o '"target_directory":"[^"]*"' | cut -d'"' -f4)
profile=${HONESTY_PROFILE:-ci-variants}
# Variant builds share their dependencies with the variants build's
# (ci/make-build.sh's folder) in its profile, else with `lab build`'s, and
# never replace target/release/prunelab.
if [ "$profile" = ci-variants ]; then
    build_dir="$target_dir/variants-build"
else
    build_dir="$target_dir/lab/cargo"
fi

# Resolve every feature list first, one line per variant (the baseline's is
# empty): each build below replaces the binary.
feature_lists=()
PRUNELAB_BUILD_DIR="$build_dir" bash ci/variant-features.sh "${selected[@]}" >"$scratch/features"
while IFS= read -r line; do
    feature_lists+=("$line")
done <"$scratch/features"
# And each one's tunable values, which its build takes in $PRUNELAB_TUNABLES.
tunable_lists=()
PRUNELAB_BUILD_DIR="$build_dir" bash ci/variant-features.sh --tunables "${selected[@]}" >"$scratch/tunables"
while IFS= read -r line; do
    tunable_lists+=("$line")
done <"$scratch/tunables"
if [ ${#feature_lists[@]} -ne ${#selected[@]} ]; then
    echo "honesty: expected ${#selected[@]} feature lists, got ${#feature_lists[@]}" >&2
    exit 1
fi

failed=()
started_all=$(date +%s)
for i in "${!selected[@]}"; do
    variant=${selected[$i]}
    features=${feature_lists[$i]}
    snapshot=snapshots/$variant.snap
    if [ ! -f "$snapshot" ]; then
        echo "honesty: $variant: no $snapshot (run the matrix test to create it)" >&2
        failed+=("$variant")
        continue
    fi
    started=$(date +%s)
    tunables=${tunable_lists[$i]}
    if [ -n "$tunables" ]; then
        export PRUNELAB_TUNABLES=$tunables
    else
        unset PRUNELAB_TUNABLES
    fi
    CARGO_TARGET_DIR="$build_dir" cargo build --profile "$profile" --quiet --bin prunelab --features "$features"
    built=$(date +%s)
    if ! "$build_dir/$profile/prunelab" matrix --variant "$variant" >"$scratch/actual"; then
        echo "honesty: $variant: the binary built with --features \"$features\" does not run its matrix" >&2
        failed+=("$variant")
        continue
    fi
    finished=$(date +%s)
    snapshot_body "$snapshot" >"$scratch/expected"
    timing="build $((built - started)) s, matrix $((finished - built)) s"
    if diff -u --label "$snapshot" --label "prunelab matrix (--features \"$features\")" \
        "$scratch/expected" "$scratch/actual" >"$scratch/diff"; then
        echo "honesty: $variant agrees with its snapshot ($timing)"
    else
        echo "honesty: $variant DIFFERS from its snapshot ($timing):" >&2
        cat "$scratch/diff" >&2
        failed+=("$variant")
    fi
done
echo "honesty: ${#selected[@]} variant(s) in $(($(date +%s) - started_all)) s"
if [ ${#failed[@]} -gt 0 ]; then
    echo "honesty: the feature-built binary disagrees with the snapshot for: ${failed[*]}" >&2
    exit 1
fi
