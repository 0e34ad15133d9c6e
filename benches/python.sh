#!/bin/sh
# The Python benchmarks with the module built from this checkout: builds
# the wheel with maturin (release) and installs it into the virtual
# environment the tests keep (target/python-tests/venv, which sees this
# Python's packages), then runs
#
#   benches/python.sh [ARGS]          benches/python_replay.py ARGS (kifu.games + replay() vs sgfmill)
#   benches/python.sh export [ARGS]   benches/export.py ARGS (kifu export --to npz: memory, agreement)
#
# Installs maturin, numpy and sgfmill there with pip when they are missing.
# See benches/README.md, "Python".
set -eu
cd "$(dirname "$0")/.."
scratch=target/python-tests
venv="$scratch/venv"
if [ ! -x "$venv/bin/python" ]; then
    "${KIFU_PYTHON:-python3}" -m venv --system-site-packages "$venv"
fi
for module in maturin numpy sgfmill; do
    if ! "$venv/bin/python" -c "import $module" 2>/dev/null; then
        echo "python.sh: installing $module" >&2
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$module"
    fi
done
maturin="$venv/bin/maturin"
[ -x "$maturin" ] || maturin=maturin
rm -rf "$scratch/wheels"
"$maturin" build --release --quiet --manifest-path python/Cargo.toml --out "$scratch/wheels" --interpreter "$venv/bin/python" >&2
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps --force-reinstall "$scratch"/wheels/*.whl
script=benches/python_replay.py
if [ "${1:-}" = export ]; then
    shift
    script=benches/export.py
    cargo build --release --quiet
fi
"$venv/bin/python" "$script" "$@"
