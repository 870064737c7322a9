#!/usr/bin/env bash
# Sourced by ci/test.sh and ci/check-technique.sh: a step that mostly keeps
# one core busy (one big crate, a fat-LTO link) runs in the background while
# the others compile or run. `background NAME COMMAND...` starts it, its
# output kept aside; `await NAME` waits for it, prints what it said, adds
# its time (from its start) to `timings` when the caller keeps them, and
# fails the caller when it failed; `output NAME` is what it printed on
# standard output. A caller that exits first stops it, with every process
# it started (it runs in its own process group).
background_dir=$(mktemp -d)
declare -A pids=() started_at=()
cleanup() {
    local name
    for name in "${!pids[@]}"; do
        kill -- "-${pids[$name]}" 2>/dev/null || true
    done
    rm -rf "$background_dir"
}
trap cleanup EXIT
file_of() { echo "$background_dir/${1//[^A-Za-z0-9]/_}"; }
background() {
    local name="$1" file
    shift
    file=$(file_of "$name")
    started_at[$name]=$SECONDS
    set -m
    (
        status=0
        "$@" >"$file.out" 2>"$file.err" || status=$?
        echo "$SECONDS" >"$file.end"
        exit "$status"
    ) &
    pids[$name]=$!
    set +m
}
output() { cat "$(file_of "$1").out"; }
await() {
    local name="$1" status=0 file
    file=$(file_of "$name")
    wait "${pids[$name]}" || status=$?
    unset "pids[$name]"
    cat "$file.out"
    cat "$file.err" >&2
    if declare -p timings >/dev/null 2>&1; then
        local ended=$SECONDS
        [ -s "$file.end" ] && ended=$(cat "$file.end")
        timings+=("$(printf '%5ds  %s (in the background)' $((ended - started_at[$name])) "$name")")
    fi
    if [ "$status" -ne 0 ]; then
        echo "$(basename "$0"): $name failed (exit status $status)" >&2
        exit "$status"
    fi
}

