#!/bin/sh
# Builds the bench target NAME (benches/NAME.rs) and prints its executable's
# path, for the scripts that time a private copy of it:
#
#   exe="$(benches/bench_exe.sh check)"
set -eu
name="$1"
exe="$(cargo bench --bench "$name" --no-run --message-format=json |
    python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("target", {}).get("name") == sys.argv[1] and m.get("executable"):
        print(m["executable"])' "$name")"
if [ -z "$exe" ]; then
    echo "bench_exe.sh: could not build benches/$name.rs" >&2
    exit 1
fi
echo "$exe"
