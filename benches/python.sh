#!/bin/sh
# The Python benchmarks with the module built from this checkout: builds
# the wheel with maturin (release), installs it into a scratch virtual
# environment that sees this Python's packages, and runs
#
#   benches/python.sh [ARGS]          benches/python_replay.py ARGS (kifu.games + replay() vs sgfmill)
#   benches/python.sh export [ARGS]   benches/export.py ARGS (kifu export --to npz: memory, agreement)
#
# Installs maturin, numpy and sgfmill with pip when they are missing.
# See benches/README.md, "Python".
set -eu
cd "$(dirname "$0")/.."
python="${KIFU_PYTHON:-python3}"
for module in maturin numpy sgfmill; do
    if ! "$python" -c "import $module" 2>/dev/null; then
        echo "python.sh: installing $module" >&2
        "$python" -m pip install --quiet "$module"
    fi
done
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$python" -m venv --system-site-packages "$tmp/venv"
"$python" -m maturin build --release --quiet --manifest-path python/Cargo.toml --out "$tmp/wheels" --interpreter "$tmp/venv/bin/python"
"$tmp/venv/bin/python" -m pip install --quiet --no-deps --no-index "$tmp"/wheels/*.whl
script=benches/python_replay.py
if [ "${1:-}" = export ]; then
    shift
    script=benches/export.py
    cargo build --release --quiet
fi
"$tmp/venv/bin/python" "$script" "$@"
