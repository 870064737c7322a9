#!/usr/bin/env bash
# The check of a new technique, after `cargo lab new-technique NAME` and the
# author's test: nothing left to write, the snapshot written and the only one
# that moved, the book's catalogue (docs/catalogue.md) rewritten, the feature and catalogue tests
# (only their test binaries are built), then the verdict, `lab ab NAME`.
#
# Usage: ci/check-technique.sh NAME [lab ab options...]
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ] || [[ "$1" == -* ]]; then
    echo "usage: ci/check-technique.sh NAME [lab ab options...]" >&2
    exit 2
fi
name=$1
shift
file=src/prune/${name//-/_}.rs
variant=variants/$name.toml
for path in "$file" "$variant"; do
    if [ ! -f "$path" ]; then
        echo "check-technique: no $path: run \`cargo lab new-technique $name --hook HOOK\` first" >&2
        exit 1
    fi
done
started=$SECONDS
step() {
    echo
    echo "== check-technique $name: $* ($((SECONDS - started)) s)"
}

step "1. nothing left to write"
if grep -n -F "(to write)" "$file" "$variant" || grep -n "^| \`$name\` |.*(to write)" docs/variants.md; then
    echo "check-technique: write what is marked (to write) above first" >&2
    exit 1
fi
# The claim is the author's: at least one `key = value` under [expect].
if ! awk '/^\[/ { in_expect = ($1 == "[expect]"); next } in_expect && /^[^#[:space:]].*=/ { found = 1 } END { exit !found }' "$variant"; then
    echo "check-technique: $variant claims nothing: write its claim under [expect] (lab/src/verdicts/claims/grammar.rs lists the claims)" >&2
    exit 1
fi

# The big builds of the later steps start now, each while the others
# compile (ci/background.sh): the variants build the matrix searches with
# (step 2), and the lab with the release builds of the variant and its
# parent that `lab ab` measures (step 5). The test binaries of steps 2 and
# 4 build meanwhile, in one cargo run.
source ci/background.sh
background "the variants build" bash ci/make-build.sh
parent=$(sed -n 's/^extends = "\(.*\)"$/\1/p' "$variant" | head -n 1)
background "lab build" cargo lab --quiet build "$name" ${parent:+"$parent"}
# The library's tests compile the searches of the variant's own features
# only, not one per catalogue feature (build.rs, PRUNELAB_FEATURE_SEARCHES):
# step 4's `every_feature_acts_where_it_says` checks those; CI checks all.
# Only the tests' cargo runs get it: the lab's builds would start again.
own_features=$(awk '/^features *= *\[/ { on = 1 } on { print } on && /\]/ { exit }' "$variant" |
    grep -o '"[^"]*"' | tr -d '"' | tr '\n' ' ' || true)
with_own_searches() { PRUNELAB_FEATURE_SEARCHES=$own_features "$@"; }
with_own_searches cargo test --quiet --profile ci --no-run --lib --test engine
await "the variants build"
PRUNELAB_VARIANTS_BUILD=$(output "the variants build")
export PRUNELAB_VARIANTS_BUILD

step "2. the snapshot: snapshots/$name.snap, and no other moves"
# Writes every snapshot that moved (CI never does); fails when the variant
# searches its parent's very tree without claiming it.
with_own_searches env -u CI INSTA_UPDATE=always cargo test --quiet --profile ci --test engine -- matrix::
moved=$(git status --porcelain -- snapshots | sed 's/^...//' | grep -v -x "snapshots/$name.snap" || true)
if [ ! -f "snapshots/$name.snap" ] || [ -n "$moved" ]; then
    cargo lab --quiet snapdiff >&2 || true
    if [ -n "$moved" ]; then
        echo "check-technique: other snapshots moved (the feature must be off everywhere else):" >&2
        echo "$moved" >&2
    else
        echo "check-technique: no snapshots/$name.snap was written" >&2
    fi
    exit 1
fi
cargo lab --quiet snapdiff

step "3. the generated blocks of README and the book (the catalogue)"
with_own_searches bash ci/readme-figures.sh

step "4. the feature acts, the catalogue and the book agree"
with_own_searches cargo test --quiet --profile ci --lib -- prune::tests::every_feature_acts_where_it_says
with_own_searches cargo test --quiet --profile ci --test engine -- catalogue:: readme::

step "5. the verdict"
await "lab build"
# `lab ab` exits 3 when a claim of the variant does not hold or its games
# are against it (docs/verdicts.md, "Exit status"): the check fails with it.
# It says where its verdict is on stderr: shown as it comes and kept here
# (with its exit status, on the last line) to read the claims.
exec 3>&1
said=$(
    set +e
    cargo lab ab "$name" "$@" 2>&1 1>&3 3>&- | tee /dev/stderr
    echo "lab ab exit status ${PIPESTATUS[0]}"
)
exec 3>&-
verdict=${said##*lab ab exit status }
if [ "$verdict" -eq 3 ]; then
    echo "check-technique: $name's verdict contradicts it: a claim does not hold or its games are against it (above)" >&2
    exit 1
elif [ "$verdict" -ne 0 ]; then
    exit "$verdict"
fi
# A verdict that judged no claim at its scope (each one "not measured":
# another suite or depth, no parent) checked nothing of the technique.
summary=$(printf '%s\n' "$said" | sed -n 's/^verdict: \(.*\)summary\.md$/\1summary.json/p' | tail -n 1)
if [ -z "$summary" ] || [ ! -f "$summary" ]; then
    echo "check-technique: $name: \`lab ab\` named no verdict to read its claims from (was it --quiet?)" >&2
    exit 1
fi
if ! grep -q -E '"verdict": "(holds|does not hold|undecided)"' "$summary"; then
    echo "check-technique: $name's verdict judged no claim at its scope: every claim is \"not measured\" ($summary); run \`lab ab $name\` on the claims' suite and depth (the verdict suite at depth 10 unless a claim names its own)" >&2
    exit 1
fi
echo "check-technique: $name passed every check in $((SECONDS - started)) s"
