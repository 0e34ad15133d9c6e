#!/bin/sh
# Whole processes, timed from start to exit, alternating, medians and ratios:
#  1. `kifu check --jobs 1 --quiet FILES` against sgfmill's parse + main-line
#     replay (a Python process reading the same files), on the same list of
#     KGS one-game files named on the command line, with the floor of it: a
#     process that only reads those files (benches/read_files.rs);
#  2. `kifu score` over evenly spaced KGS files (all games, resigned ones
#     included): --jobs 1, --jobs 2, --jobs 2 --finished-only, and
#     `kifu check --score --jobs 2` on the same files for reference.
#
#   benches/process.sh
#   BENCH_RUNS=7 BENCH_FILES=2000 BENCH_SCORE_FILES=2000 benches/process.sh
#
# BENCH_RUNS         alternating rounds (default 5); the median is reported
# BENCH_FILES        KGS files of part 1, evenly spaced (default 2000)
# BENCH_SCORE_FILES  KGS files of part 2, evenly spaced (default 500; 0 = skip part 2)
# KIFU_CORPUS        corpus root (default ../shared/corpus)
#
# See benches/README.md, "Whole processes".
set -eu
cd "$(dirname "$0")/.."

corpus="${KIFU_CORPUS:-../shared/corpus}"
if [ ! -d "$corpus/kgs" ]; then
    echo "process.sh: SKIPPED: corpus not found at $corpus (set KIFU_CORPUS to its location)"
    exit 0
fi
cargo build --release
if ! python3 -c 'import sgfmill' 2>/dev/null; then
    echo "process.sh: installing sgfmill" >&2
    python3 -m pip install --quiet sgfmill
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# A private copy: others may rebuild the crate while this runs.
cp target/release/kifu "$tmp/kifu"
# The floor: a process that only reads the named files (benches/read_files.rs).
read_exe="$(benches/bench_exe.sh read_files)"
cp "$read_exe" "$tmp/read-files"

python3 - "$tmp" "$corpus" "${BENCH_RUNS:-5}" "${BENCH_FILES:-2000}" "${BENCH_SCORE_FILES:-500}" <<'EOF'
import datetime, json, os, platform, resource, statistics, subprocess, sys, time
from pathlib import Path

tmp, corpus = Path(sys.argv[1]), Path(sys.argv[2])
runs, n_files, n_score = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
kifu = str(tmp / "kifu")

paths = sorted((p for p in (corpus / "kgs").rglob("*") if p.suffix.lower() == ".sgf" and p.is_file()),
               key=lambda p: [os.fsencode(part) for part in p.parts])


def spaced(n):
    n = len(paths) if n <= 0 else min(n, len(paths))
    return [str(paths[i * len(paths) // n]) for i in range(n)]


def measure(cmd, ok=(0, 1)):
    """Wall and CPU (user + system) seconds of one whole process, and its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in ok:
        sys.exit(f"process.sh: {' '.join(cmd[:4])} ... exited {proc.returncode}: {proc.stderr.decode()[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.stdout.decode()


def alternate(label, tools):
    """Runs each tool once a round, `runs` rounds; medians."""
    times = {name: ([], []) for name, _ in tools}
    outs = {}
    for r in range(runs):
        for name, cmd in tools:
            print(f"process.sh: {label}: round {r + 1}/{runs}: {name}", file=sys.stderr)
            wall, cpu, out = measure(cmd)
            times[name][0].append(wall)
            times[name][1].append(cpu)
            outs[name] = out
    return {name: (statistics.median(w), min(w), max(w), statistics.median(c)) for name, (w, c) in times.items()}, outs


def n(x):
    return f"{x:,.0f}"


now = datetime.datetime.now(datetime.timezone.utc)
files = spaced(n_files)
listing = tmp / "files.list"
listing.write_bytes(b"".join(os.fsencode(p) + b"\n" for p in files))
# Untimed: warms the page cache.
measure([kifu, "check", "--jobs", "1", "--quiet"] + files)
tools = [
    ("kifu check --jobs 1 --quiet", [kifu, "check", "--jobs", "1", "--quiet"] + files),
    ("sgfmill parse + main-line replay", [sys.executable, "benches/sgfmill_replay.py", "--files", str(listing),
                                          "--runs", "1", "--from-disk", "--quiet"]),
    ("read only: open, fstat, read, close (no parse)", [str(tmp / "read-files")] + files),
]
medians, _ = alternate("check", tools)
print()
print(f"### Whole processes on {len(files):,} KGS one-game files named on the command line ({now:%Y-%m-%d %H:%M} UTC)")
print()
print("| command | median s (min-max) | games/s | µs/game | CPU s (user + system), median | games/s on CPU time |")
print("|---|---:|---:|---:|---:|---:|")
for name, (wall, lo, hi, cpu) in medians.items():
    print(f"| {name} | {wall:.3f} ({lo:.3f}-{hi:.3f}) | {n(len(files) / wall)} | {wall * 1e6 / len(files):.1f} | {cpu:.3f} | {n(len(files) / cpu)} |")
k, p, floor = medians[tools[0][0]], medians[tools[1][0]], medians[tools[2][0]]
print()
print(f"- kifu is {p[0] / k[0]:.0f}x sgfmill on wall time, {p[3] / k[3]:.0f}x on CPU time "
      f"(goal >= 150x: {'met' if min(p[0] / k[0], p[3] / k[3]) >= 150 else 'NOT met' if max(p[0] / k[0], p[3] / k[3]) < 150 else 'met on one of the two'}). "
      "Both times are of whole processes (start, read every file, parse, replay, exit); "
      "kifu also checks every property and the ko, superko and suicide rules.")
budget, read = p[3] / 150 * 1e6 / len(files), floor[3] * 1e6 / len(files)
print(f"- 150x sgfmill leaves {budget:.1f} µs of CPU a file; reading it alone takes {read:.1f}: "
      f"kifu's own work would have to fit in {budget - read:.1f} µs a file (it takes {k[3] * 1e6 / len(files) - read:.1f}).")

if n_score:
    files = spaced(n_score)
    measure([kifu, "score", "--jobs", "2", "--quiet", "--format", "json", "--finished-only"] + files)
    tools = [
        ("kifu score --jobs 1", [kifu, "score", "--quiet", "--format", "json", "--jobs", "1"] + files),
        ("kifu score --jobs 2", [kifu, "score", "--quiet", "--format", "json", "--jobs", "2"] + files),
        ("kifu score --jobs 2 --finished-only", [kifu, "score", "--quiet", "--format", "json", "--jobs", "2", "--finished-only"] + files),
        ("kifu check --score --jobs 2 (reference)", [kifu, "check", "--score", "--quiet", "--jobs", "2"] + files),
    ]
    medians, outs = alternate("score", tools)
    games = {name: sum(1 for line in outs[name].splitlines() if line.startswith("{")) for name, _ in tools}
    games[tools[3][0]] = len(files)
    finished = sum(1 for line in outs[tools[1][0]].splitlines() if json.loads(line).get("finished"))
    print()
    print(f"### kifu score on {len(files):,} evenly spaced KGS files ({finished:,} games ended by two passes, the others resigned, timed out or unfinished)")
    print()
    print("| command | games scored | median s (min-max) | games/s | CPU s, median |")
    print("|---|---:|---:|---:|---:|")
    for name, (wall, lo, hi, cpu) in medians.items():
        print(f"| {name} | {n(games[name])} | {wall:.2f} ({lo:.2f}-{hi:.2f}) | {n(games[name] / wall)} | {cpu:.2f} |")
    j1, j2 = medians[tools[0][0]], medians[tools[1][0]]
    print()
    print(f"- score --jobs 2 / --jobs 1 = {j1[0] / j2[0]:.2f}x; --jobs 2: {n(games[tools[1][0]] / j2[0])} games/s "
          f"(goal >= 2,000 games/s on all games: {'met' if games[tools[1][0]] / j2[0] >= 2000 else 'NOT met'}).")

cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
print()
print(f"Machine: {cpu} ({os.cpu_count()} logical CPUs), Python {platform.python_version()}; "
      f"median of {runs} alternating rounds; CPU time from getrusage of the children.")
EOF
