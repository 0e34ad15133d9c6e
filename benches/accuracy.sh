#!/bin/sh
# Scoring accuracy of `kifu score` on the counted games of the corpus, and
# GNU Go's (`gnugo --score aftermath`) on a sample of them; writes the
# figures into docs/accuracy.md (between the GENERATED markers) and the raw
# rows into target/accuracy/.
#
#   benches/accuracy.sh                 # everything (GNU Go takes a few minutes)
#   benches/accuracy.sh --no-gnugo      # kifu only; reuses the last GNU Go rows
#   benches/accuracy.sh --sample 60 --jobs 4
#
# KIFU_CORPUS   corpus root (default ../shared/corpus); absent: SKIPPED, exit 0
#
# See docs/accuracy.md and benches/accuracy.py --help.
set -eu
cd "$(dirname "$0")/.."

corpus="${KIFU_CORPUS:-../shared/corpus}"
if [ ! -d "$corpus" ]; then
    echo "accuracy.sh: SKIPPED: corpus not found at $corpus (set KIFU_CORPUS to its location)"
    exit 0
fi

cargo build --release
# Score with a private copy: others may rebuild the crate while this runs.
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
target_dir="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
cp "$target_dir/release/kifu" "$tmp/kifu"

case " $* " in
*" --no-gnugo "*) ;;
*)
    if ! command -v gnugo >/dev/null 2>&1 && [ ! -x /usr/games/gnugo ]; then
        echo "accuracy.sh: installing gnugo (Debian package)" >&2
        if [ "$(id -u)" -eq 0 ]; then
            apt-get install -y gnugo >&2 || { apt-get update >&2 && apt-get install -y gnugo >&2; }
        else
            sudo apt-get install -y gnugo >&2 || { sudo apt-get update >&2 && sudo apt-get install -y gnugo >&2; }
        fi
    fi
    ;;
esac

KIFU_BIN="$tmp/kifu" KIFU_CORPUS="$corpus" python3 benches/accuracy.py "$@"
