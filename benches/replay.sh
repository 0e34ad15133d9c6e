#!/bin/sh
# kifu check (parse + checks + replay) against sgfmill (parse + main-line
# replay), on the same files, in alternating runs; prints markdown tables.
#
#   benches/replay.sh            # set kgs
#   benches/replay.sh all        # any set of benches/check.rs: kgs, fox-pro, ai-games, all
#
# BENCH_RUNS     timed runs per side (default 5); the median is reported
# BENCH_SAMPLE   files in the evenly spaced sample both sides run (default 5000; 0 = whole set)
# BENCH_CPU      CPU to pin both sides to with taskset (default: the last one; "none" = unpinned)
# KIFU_CORPUS    corpus root (default ../shared/corpus)
#
# See benches/README.md, "check / replay".
set -eu
cd "$(dirname "$0")/.."

set_name="${1:-kgs}"
runs="${BENCH_RUNS:-5}"
sample="${BENCH_SAMPLE:-5000}"

corpus="${KIFU_CORPUS:-../shared/corpus}"
if [ ! -d "$corpus" ]; then
    echo "replay.sh: SKIPPED: corpus not found at $corpus (set KIFU_CORPUS to its location)"
    exit 0
fi

cargo build --release
# Build the bench once and run a private copy of it: others may edit and
# rebuild the crate while this runs, and every round must time the same code.
bench_exe="$(benches/bench_exe.sh check)"

if ! python3 -c 'import sgfmill' 2>/dev/null; then
    echo "replay.sh: installing sgfmill" >&2
    python3 -m pip install --quiet sgfmill
fi

pin=""
if [ "${BENCH_CPU:-}" != "none" ] && command -v taskset >/dev/null 2>&1; then
    cpu="${BENCH_CPU:-$(($(nproc) - 1))}"
    pin="taskset -c $cpu"
    echo "replay.sh: both sides pinned to CPU $cpu" >&2
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cp "$bench_exe" "$tmp/check-bench"

# 1. kifu on the whole set and on the sample; writes the sample's file list.
if [ "$sample" -gt 0 ]; then
    sample_args="--sample $sample"
else
    sample_args=""
fi
echo "replay.sh: kifu, set $set_name (whole set, then sample), $runs runs" >&2
# shellcheck disable=SC2086
BENCH_RUNS="$runs" $pin "$tmp/check-bench" "$set_name" $sample_args \
    --write-list "$tmp/files.list" --json "$tmp/kifu-full.json" >"$tmp/kifu-full.txt"
if grep -q SKIPPED "$tmp/kifu-full.txt"; then
    cat "$tmp/kifu-full.txt"
    exit 0
fi

# 2. Alternating runs on the same list: kifu (3 quick passes), sgfmill (1 pass), ...
i=1
while [ "$i" -le "$runs" ]; do
    echo "replay.sh: alternating run $i/$runs: kifu" >&2
    if ! BENCH_RUNS=3 $pin "$tmp/check-bench" --files "$tmp/files.list" \
        --json "$tmp/kifu-$i.json" >"$tmp/kifu-$i.txt" 2>&1; then
        cat "$tmp/kifu-$i.txt" >&2
        echo "replay.sh: kifu run $i failed" >&2
        exit 1
    fi
    echo "replay.sh: alternating run $i/$runs: sgfmill" >&2
    $pin python3 benches/sgfmill_replay.py --files "$tmp/files.list" --runs 1 --quiet \
        --json "$tmp/sgfmill-$i.json" >/dev/null
    i=$((i + 1))
done

# 3. Merge.
python3 - "$tmp" "$runs" "$set_name" <<'EOF'
import json, statistics, sys
from pathlib import Path

tmp, runs, set_name = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
full = json.loads((tmp / "kifu-full.json").read_text())
kifu_runs = [json.loads((tmp / f"kifu-{i}.json").read_text())["results"][0] for i in range(1, runs + 1)]
peer_runs = [json.loads((tmp / f"sgfmill-{i}.json").read_text())["results"][0] for i in range(1, runs + 1)]
peer_doc = json.loads((tmp / "sgfmill-1.json").read_text())

k0, p0 = kifu_runs[0], peer_runs[0]
k_check = [t for r in kifu_runs for t in r["check_s"]]
k_parse = [t for r in kifu_runs for t in r["parse_s"]]
k_cpu = [t for r in kifu_runs for t in (r["check_cpu_s"] or [])]
p_wall = [t for r in peer_runs for t in r["run_s"]]
p_cpu = [t for r in peer_runs for t in r["cpu_s"]]
kt, pt = statistics.median(k_check), statistics.median(p_wall)

def n(x):
    return f"{x:,.0f}"

label = f"{set_name} sample" if k0["files"] < full["results"][0]["files"] else set_name
moves = n(k0["moves"]) if k0["moves"] == p0["moves"] else f"{n(k0['moves'])} / {n(p0['moves'])}"
ratio = pt / kt
print()
print(f"### kifu check vs sgfmill, same {k0['files']:,} files ({full['date_utc']} UTC)")
print()
print("| set | games | moves | kifu games/s | kifu moves/s | sgfmill games/s | sgfmill moves/s | ratio |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
print(
    f"| {label} | {n(k0['games'])} | {moves} | {n(k0['games'] / kt)} | {n(k0['moves'] / kt)} "
    f"| {n(p0['games'] / pt)} | {n(p0['moves'] / pt)} | {ratio:.1f}x |"
)
print()
print(
    f"Median of {len(k_check)} kifu passes and {len(p_wall)} sgfmill passes, alternating "
    f"(kifu x3, sgfmill x1, ...), single thread, wall time. ratio = sgfmill time / kifu time on the same files."
)
if k0["moves"] != p0["moves"]:
    print("moves: kifu (every variation) / sgfmill (main line only).")
else:
    print("moves: the same count both sides (no variations in these files); kifu would replay every variation, sgfmill only the main line.")
if k_cpu and p_cpu:
    print(f"On thread CPU time instead of wall time: kifu {n(k0['games'] / statistics.median(k_cpu))} games/s, "
          f"sgfmill {n(p0['games'] / statistics.median(p_cpu))} games/s, ratio {statistics.median(p_cpu) / statistics.median(k_cpu):.1f}x.")
print(
    f"sgfmill {peer_doc['sgfmill']} on Python {peer_doc['python']}: {p0['illegal']} illegal moves, "
    f"{p0['rejected']} files unreadable, {p0['setup_rejected']} with setup it refuses. "
    f"kifu sample split: parse {statistics.median(k_parse) * 1e6 / k0['games']:.1f} µs/game, "
    f"checks + replay {(kt - statistics.median(k_parse)) * 1e6 / k0['games']:.1f} µs/game."
)
print()
print(f"### kifu on the whole set (median of {full['runs']} runs)")
print()
print("| set | files | games | moves | MB | games/s | moves/s | MB/s | µs/game | parse µs/game | checks+replay µs/game | games/s, CPU time | parse / checks+replay µs/game, CPU time |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for r in full["results"]:
    m = r["median"]
    cpu_games = n(m["games_per_cpu_s"]) if m.get("games_per_cpu_s") else "n/a"
    if m.get("parse_us_per_game_cpu") is not None:
        cpu_split = f"{m['parse_us_per_game_cpu']:.1f} / {m['replay_us_per_game_cpu']:.1f}"
    else:
        cpu_split = "n/a"
    print(
        f"| {r['label']} | {n(r['files'])} | {n(r['games'])} | {n(r['moves'])} | {r['bytes'] / 1e6:.1f} "
        f"| {n(m['games_per_s'])} | {n(m['moves_per_s'])} | {m['mb_per_s']:.1f} | {m['us_per_game']:.1f} "
        f"| {m['parse_us_per_game']:.1f} | {m['replay_us_per_game']:.1f} | {cpu_games} | {cpu_split} |"
    )
print()
for r in full["results"]:
    if r["panicked"]:
        print(f"kifu PANICKED on {len(r['panicked'])} files of {r['label']} (left out of the timing): {', '.join(r['panicked'][:5])}")
print(f"Machine: {full['cpu']} ({full['nproc']} logical CPUs); date {full['date_utc']} UTC.")
print("games/s, µs/game: wall time, median run; the CPU-time columns use the bench thread's on-CPU time instead (other load on the machine inflates wall time, hardly CPU time).")
whole = full["results"][0]["median"]["games_per_s"]
whole_cpu = full["results"][0]["median"].get("games_per_cpu_s") or whole
print(
    f"Goal: >= 50,000 games/s per core on kgs ({'met' if max(whole, whole_cpu) >= 50000 else 'NOT met'}: "
    f"{n(whole)} wall, {n(whole_cpu)} CPU time, on {set_name}), "
    f">= 150x sgfmill ({'met' if ratio >= 150 else 'NOT met'}: {ratio:.1f}x)."
)
EOF
