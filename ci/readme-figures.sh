#!/usr/bin/env bash
# Rewrites the generated blocks of README and the book (docs/), each in the
# file that holds it, with what the code produces now: the catalogue
# (`prunelab features --all`), the snapshot example, the variant file
# example (razor-r1's) and the honesty rotation's length. tests/readme.rs
# fails while any of them differs, and names this command.
#
#   ci/readme-figures.sh          the blocks above (a normal test build)
#   ci/readme-figures.sh --tune   also the margin example: a `tune` build
#                                 searches the variants with razor-r1 again
#                                 with R1's margin raised (minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
features=()
case "${1:-}" in
    "") ;;
    --tune) features=(--features tune) ;;
    *)
        echo "usage: ci/readme-figures.sh [--tune]" >&2
        exit 2
        ;;
esac
PRUNELAB_README=write cargo test --quiet --profile ci "${features[@]}" --test engine -- \
    readme::readme_generated_blocks_are_what_the_code_produces

# The honesty rotation's length (tests/readme.rs checks it): every variant
# is covered in variants / per-run consecutive commits, so a new variant can
# move it.
variants=$(find variants -maxdepth 1 -name '*.toml' | wc -l)
per_run=$(sed -n 's/.*per_run=\${HONESTY_PER_RUN:-\([0-9]*\)}.*/\1/p' ci/honesty.sh)
commits=$(((variants + per_run - 1) / per_run))
# Across line breaks: the prose may wrap anywhere in the sentence.
find docs -name '*.md' -print0 | COMMITS=$commits xargs -0 perl -0 -pi -e \
    's/(chosen\s+by\s+the\s+commit\s+count,\s+so\s+)[0-9]+(\s+consecutive\s+commits)/${1}$ENV{COMMITS}$2/' README.md
git diff --stat -- README.md docs
