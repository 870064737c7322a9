#!/usr/bin/env bash
# Prints the catalogue features a CI run checks one by one, a line each:
# PER_RUN of them in a row of the catalogue starting where the commit count
# points, so consecutive commits cover every feature (68 in 7 at 10 a run),
# plus every feature the last commit could change: all of them when it
# touched what declares features (Cargo.toml, the macros, the generator),
# or with `searches` the search's steps too, else the features its
# technique files (src/prune/) name.
#
# Usage: ci/features-this-run.sh PER_RUN declarations|searches
# ci/check-features.sh type-checks these (`declarations`: what a feature
# compiles alone); ci/test.sh has the library's tests search these alone
# (`searches`, PRUNELAB_FEATURE_SEARCHES: where a feature acts).
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C
declarations='Cargo\.toml|build\.rs|crates/engine-build/|src/techniques\.rs|src/features\.rs|src/prune/mod\.rs'
case "${2:-}" in
    declarations) all_when="^($declarations)" ;;
    searches) all_when="^($declarations|src/search\.rs|src/picker\.rs|src/context\.rs|src/movepick\.rs)" ;;
    *)
        echo "usage: ci/features-this-run.sh PER_RUN declarations|searches" >&2
        exit 2
        ;;
esac
per_run=$1
read -r -a all_features <<<"$(sed -n '/^\[features\]/,/^\[/p' Cargo.toml | grep -o '^"[^"]*"' | tr -d '"' | tr '\n' ' ')"

# A number that moves with every commit: the commit count, else 0.
commit_number() {
    git rev-list --count HEAD 2>/dev/null || echo 0
}

# The features the last commit could change: every one when it touched a
# file all_when matches, else those its technique files name.
changed_features() {
    local changed file feature
    if ! changed=$(git diff --name-only HEAD~1 HEAD 2>/dev/null); then
        echo "features-this-run: notice: no parent commit; no changed features added" >&2
        return 0
    fi
    if grep -qE "$all_when" <<<"$changed"; then
        printf '%s\n' "${all_features[@]}"
        return 0
    fi
    for file in $(grep -E '^src/prune/.*\.rs$' <<<"$changed"); do
        [ -e "$file" ] || continue
        for feature in "${all_features[@]}"; do
            grep -qF "\"$feature\"" "$file" && echo "$feature"
        done
    done
}

selected=()
add() {
    [[ " ${selected[*]} " == *" $1 "* ]] || selected+=("$1")
}
count=${#all_features[@]}
start=$(($(commit_number) * per_run % count))
for ((i = 0; i < per_run && i < count; i++)); do
    add "${all_features[$(((start + i) % count))]}"
done
while read -r feature; do
    [ -n "$feature" ] && add "$feature"
done < <(changed_features)
printf '%s\n' "${selected[@]}"
