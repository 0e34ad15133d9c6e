#!/bin/sh
# Rescoring as users run it: whole `kifu score` processes over the KGS tree
# (every game: counted, resigned, timed out), wall and CPU time, with
# `--jobs 1` and `--jobs 2`, beside `--finished-only` and `kifu check` on the
# same tree, in the same run. Prints a markdown table.
#
#   benches/score.sh
#
# BENCH_RUNS   timed runs of each command (default 3); the median is reported
# KIFU_CORPUS  corpus root (default ../shared/corpus)
# BENCH_SET    folder under the corpus to score (default kgs)
# KIFU_BIN     the kifu binary to measure (default: cargo build --release, then a copy of it)
# BENCH_BASELINE  another kifu binary (an older build) whose `score --jobs 1` and `--jobs 2`
#              run in the same rounds, for a before/after ratio
#
# See benches/README.md, "score".
set -eu
cd "$(dirname "$0")/.."

runs="${BENCH_RUNS:-3}"
corpus="${KIFU_CORPUS:-../shared/corpus}"
set_dir="$corpus/${BENCH_SET:-kgs}"

if [ ! -d "$set_dir" ]; then
    echo "score.sh: SKIPPED: $set_dir not found (set KIFU_CORPUS to the corpus location)"
    exit 0
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# A private copy of the release binary (others may rebuild meanwhile).
if [ -n "${KIFU_BIN:-}" ]; then
    cp "$KIFU_BIN" "$tmp/kifu"
else
    cargo build --release
    cp target/release/kifu "$tmp/kifu"
fi

python3 - "$tmp/kifu" "$runs" "$set_dir" "${BENCH_BASELINE:-}" <<'EOF'
import datetime, os, platform, re, resource, statistics, subprocess, sys, time

kifu, runs, root, baseline = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]


def measure(cmd):
    """Runs cmd: (wall s, CPU s of the process: user + system, stderr)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        sys.exit(f"score.sh: {' '.join(cmd)} exited {proc.returncode}: {proc.stderr.decode(errors='replace')[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.stderr.decode(errors="replace")


def summary(cmd):
    """The files and games the summary line of `kifu score` counts, and those counted before the end."""
    _, _, said = measure(cmd)
    line = said.strip().splitlines()[-1]

    def number(pattern):
        found = re.search(pattern, line)
        return int(found.group(1).replace(",", "")) if found else 0

    return number(r"score: ([\d,]+) files?"), number(r" ([\d,]+) games? in "), number(r"; ([\d,]+) counted before the end")


# Untimed: the games each command handles, and a warm page cache.
files, games, in_play = summary([kifu, "score", "--format", "json", root])
_, finished, _ = summary([kifu, "score", "--format", "json", "--finished-only", root])

tools = [
    ("kifu score --jobs 1", [kifu, "score", "--format", "json", "--quiet", "--jobs", "1", root], games),
    ("kifu score --jobs 2", [kifu, "score", "--format", "json", "--quiet", "--jobs", "2", root], games),
    ("kifu score --finished-only --jobs 2", [kifu, "score", "--format", "json", "--quiet", "--finished-only", "--jobs", "2", root], finished),
    ("kifu check --score --jobs 2 (reference)", [kifu, "check", "--score", "--quiet", "--jobs", "2", root], games),
]
if baseline:
    tools += [(f"baseline score --jobs {j}", [baseline, "score", "--format", "json", "--quiet", "--jobs", str(j), root], games) for j in (1, 2)]
walls = {name: [] for name, _, _ in tools}
cpus = {name: [] for name, _, _ in tools}
for r in range(runs):
    for name, cmd, _ in tools:  # alternating, so load from elsewhere falls on all
        print(f"score.sh: run {r + 1}/{runs}: {name}", file=sys.stderr)
        wall, cpu, _ = measure(cmd)
        walls[name].append(wall)
        cpus[name].append(cpu)

print()
print(f"### kifu score over {root} ({datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC)")
print()
print(f"{files:,} files, {games:,} games: {finished:,} end with two passes (the ones `--finished-only` keeps), "
      f"{in_play:,} do not (resigned, timed out, unfinished; those without a margin in RE get the in-play estimate).")
print()
print("| command | games | median wall s (min-max) | games/s | median CPU s | games/s a core |")
print("|---|---:|---:|---:|---:|---:|")
for name, _, n in tools:
    w, c = statistics.median(walls[name]), statistics.median(cpus[name])
    print(f"| {name} | {n:,} | {w:.2f} ({min(walls[name]):.2f}-{max(walls[name]):.2f}) | {n / w:,.0f} | {c:.2f} | {n / c:,.0f} |")
j1, j2 = statistics.median(walls["kifu score --jobs 1"]), statistics.median(walls["kifu score --jobs 2"])
rate = games / j2
print()
print(f"- --jobs 2 / --jobs 1 = {j1 / j2:.2f}x; kifu score --jobs 2: {rate:,.0f} games/s "
      f"(issue 18 goal >= 2,000: {'met' if rate >= 2000 else 'NOT met'}).")
if baseline:
    for j in (1, 2):
        b = statistics.median(walls[f"baseline score --jobs {j}"]) / statistics.median(walls[f"kifu score --jobs {j}"])
        c = statistics.median(cpus[f"baseline score --jobs {j}"]) / statistics.median(cpus[f"kifu score --jobs {j}"])
        print(f"- --jobs {j}: the baseline ({baseline}) takes {b:.2f}x the wall time, {c:.2f}x the CPU time.")
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
print(f"- Machine: {cpu} ({os.cpu_count()} logical CPUs). Whole processes (start, walk, read, parse, replay, "
      f"estimate, count, JSON out to /dev/null), medians of {runs} alternating runs; CPU = user + system time.")
EOF
