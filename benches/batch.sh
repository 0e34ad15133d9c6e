#!/bin/sh
# Batch checking as users run it: whole `kifu check` processes over a folder
# tree, wall time and peak memory, with `--jobs 1` and `--jobs 2`, beside
# sgf-parse (parse only) and sgfmill (parse + main-line replay), in the same
# run; on ../shared/corpus/kgs and on a synthetic archive made by
# benches/gen_archive.py. Prints markdown tables.
#
#   benches/batch.sh
#
# BENCH_RUNS           timed runs of each command (default 3); the median time is reported
# BENCH_GAMES          games in the synthetic archive (default 100000)
# BENCH_MEMORY_GAMES   games in the archive for the memory figure (default 1000000; 0 = skip)
# BENCH_SGFMILL_GAMES  about this many games, evenly spaced, for sgfmill (default 10000; 0 = all:
#                      sgfmill does ~600 games/s, 100,000 games take minutes a run)
# BENCH_TMP            where the archives are written (default: a new temp dir, removed at the end;
#                      1,000,000 games take about 1.3 GB)
# BENCH_NO_JOBS_FLAG   1 = run kifu without --jobs (only for a kifu that does not have the flag yet:
#                      both kifu rows then measure the same thing)
# KIFU_CORPUS          corpus root (default ../shared/corpus)
#
# Needs GNU time (/usr/bin/time, Debian package `time`: installed here with
# apt-get when missing and run as root), python3, and sgfmill (pip-installed
# when missing, as benches/replay.sh does). See benches/README.md, "batch".
set -eu
cd "$(dirname "$0")/.."

runs="${BENCH_RUNS:-3}"
games="${BENCH_GAMES:-100000}"
memory_games="${BENCH_MEMORY_GAMES:-1000000}"
sgfmill_games="${BENCH_SGFMILL_GAMES:-10000}"
corpus="${KIFU_CORPUS:-../shared/corpus}"

if [ ! -d "$corpus/kgs" ]; then
    echo "batch.sh: SKIPPED: corpus not found at $corpus (set KIFU_CORPUS to its location)"
    exit 0
fi

if [ ! -x /usr/bin/time ]; then
    echo "batch.sh: GNU time (/usr/bin/time) is missing; it measures peak memory. Installing the Debian package 'time'." >&2
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt-get install -y -qq time >/dev/null || { apt-get update -qq && apt-get install -y -qq time >/dev/null; }
    else
        echo "batch.sh: cannot install it here: run 'sudo apt-get install time' (Debian/Ubuntu) and retry" >&2
        exit 1
    fi
fi

if ! python3 -c 'import sgfmill' 2>/dev/null; then
    echo "batch.sh: installing sgfmill" >&2
    python3 -m pip install --quiet sgfmill
fi

if [ -n "${BENCH_TMP:-}" ]; then
    tmp="$BENCH_TMP"
    mkdir -p "$tmp"
else
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
fi

# kifu: a private copy of the release binary (others may rebuild meanwhile).
cargo build --release
cp target/release/kifu "$tmp/kifu"
jobs_flag=1
if [ "${BENCH_NO_JOBS_FLAG:-0}" = 1 ]; then
    jobs_flag=0
    echo "batch.sh: BENCH_NO_JOBS_FLAG=1: kifu runs without --jobs; the two kifu rows measure the same command" >&2
elif ! "$tmp/kifu" check --help | grep -q -- '--jobs'; then
    echo "batch.sh: this kifu has no 'check --jobs' (set BENCH_NO_JOBS_FLAG=1 to measure it without)" >&2
    exit 1
fi

# sgf-parse: a small walker built outside the crate (same version as the
# dev-dependency, from cargo's cache), parsing every file like benches/parse.rs.
sgf_parse_version="$(sed -n 's/^sgf-parse = "\(.*\)"$/\1/p' Cargo.toml)"
mkdir -p "$tmp/sgf-parse-walk/src"
cat >"$tmp/sgf-parse-walk/Cargo.toml" <<EOF
[package]
name = "sgf-parse-walk"
version = "0.1.0"
edition = "2021"

[dependencies]
sgf-parse = "=$sgf_parse_version"

[profile.release]
codegen-units = 4
lto = "thin"

[workspace]
EOF
cat >"$tmp/sgf-parse-walk/src/main.rs" <<'EOF'
//! Parses every *.sgf file under the arguments with sgf_parse::parse, one
//! file at a time (read, decode lossily as UTF-8, parse, drop); prints the
//! counts as JSON.
use std::path::{Path, PathBuf};

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).expect("readable folder").filter_map(|e| e.ok()).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf")) {
            out.push(p);
        }
    }
}

fn count_nodes<P: sgf_parse::SgfProp>(root: &sgf_parse::SgfNode<P>) -> usize {
    let mut stack = vec![root];
    let mut n = 0;
    while let Some(node) = stack.pop() {
        n += 1;
        stack.extend(node.children());
    }
    n
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // sgf-parse recurses: a large stack, as in benches/parse.rs.
    let worker = std::thread::Builder::new().stack_size(1 << 30).spawn(move || {
        let mut files = Vec::new();
        for a in &args {
            walk(Path::new(a), &mut files);
        }
        let (mut games, mut nodes, mut rejected, mut bytes) = (0usize, 0usize, 0usize, 0u64);
        for f in &files {
            let data = std::fs::read(f).expect("readable file");
            bytes += data.len() as u64;
            match sgf_parse::parse(&String::from_utf8_lossy(&data)) {
                Ok(trees) => {
                    games += trees.len();
                    for t in &trees {
                        nodes += match t {
                            sgf_parse::GameTree::GoGame(root) => count_nodes(root),
                            sgf_parse::GameTree::Unknown(root) => count_nodes(root),
                        };
                    }
                }
                Err(_) => rejected += 1,
            }
        }
        println!("{{\"files\":{},\"bytes\":{bytes},\"games\":{games},\"nodes\":{nodes},\"rejected\":{rejected}}}", files.len());
    });
    worker.expect("thread").join().expect("no panic");
}
EOF
echo "batch.sh: building the sgf-parse walker (sgf-parse $sgf_parse_version)" >&2
CARGO_TARGET_DIR="$tmp/sgf-parse-walk/target" cargo build --quiet --release --offline \
    --manifest-path "$tmp/sgf-parse-walk/Cargo.toml" 2>/dev/null ||
    CARGO_TARGET_DIR="$tmp/sgf-parse-walk/target" cargo build --quiet --release \
        --manifest-path "$tmp/sgf-parse-walk/Cargo.toml"
cp "$tmp/sgf-parse-walk/target/release/sgf-parse-walk" "$tmp/sgf-parse-walk-bin"

# sgfmill: every game of every file (collections too), main line replayed,
# one file at a time, as benches/sgfmill_replay.py does for one game a file.
cat >"$tmp/sgfmill_batch.py" <<'EOF'
import json, sys
from sgfmill import boards, sgf, sgf_grammar, sgf_moves

games = moves = illegal = rejected = nbytes = 0
with open(sys.argv[1], "rb") as listing:
    paths = [line.rstrip(b"\n") for line in listing if line.strip()]
for path in paths:
    with open(path, "rb") as f:
        data = f.read()
    nbytes += len(data)
    try:
        trees = sgf_grammar.parse_sgf_collection(data)
    except ValueError:
        rejected += 1
        continue
    for tree in trees:
        try:
            game = sgf.Sgf_game.from_coarse_game_tree(tree)
            board, plays = sgf_moves.get_setup_and_moves(game, boards.Board(game.get_size()))
        except ValueError:
            rejected += 1
            continue
        games += 1
        moves += len(plays)
        for colour, move in plays:
            if move is not None:
                try:
                    board.play(move[0], move[1], colour)
                except (ValueError, IndexError):
                    illegal += 1
print(json.dumps({"files": len(paths), "bytes": nbytes, "games": games, "moves": moves, "illegal": illegal, "rejected": rejected}))
EOF

echo "batch.sh: writing the synthetic archive ($games games)" >&2
python3 benches/gen_archive.py --games "$games" --out "$tmp/archive" >/dev/null
if [ "$memory_games" -gt 0 ]; then
    echo "batch.sh: writing the archive for the memory figure ($memory_games games)" >&2
    if [ "$memory_games" = "$games" ]; then
        ln -s "$tmp/archive" "$tmp/archive-memory"
    else
        python3 benches/gen_archive.py --games "$memory_games" --out "$tmp/archive-memory" >/dev/null
    fi
fi

python3 - "$tmp" "$runs" "$corpus" "$sgfmill_games" "$jobs_flag" "$memory_games" <<'EOF'
import datetime, json, os, platform, statistics, subprocess, sys, time
from pathlib import Path

tmp, runs, corpus = Path(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
sgfmill_games, jobs_flag, memory_games = int(sys.argv[4]), sys.argv[5] == "1", int(sys.argv[6])
kifu = str(tmp / "kifu")


def sgf_files(root):
    paths = [p for p in root.rglob("*") if p.suffix.lower() == ".sgf" and p.is_file()]
    paths.sort(key=lambda p: [os.fsencode(part) for part in p.parts])
    return paths


def measure(cmd, ok=(0,)):
    """Runs cmd under GNU time: (wall s, peak RSS bytes, stdout)."""
    tfile = tmp / "time.txt"
    t0 = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-v", "-o", str(tfile)] + cmd, stdout=subprocess.PIPE)
    wall = time.perf_counter() - t0
    if proc.returncode not in ok:
        sys.exit(f"batch.sh: {' '.join(cmd)} exited {proc.returncode}")
    rss_kb = next(int(l.split(":")[1]) for l in tfile.read_text().splitlines() if "Maximum resident set size" in l)
    return wall, rss_kb * 1024, proc.stdout.decode()


def kifu_cmd(jobs, path, fmt=None):
    cmd = [kifu, "check"]
    cmd += ["--format", fmt] if fmt else ["--quiet"]
    if jobs_flag and jobs:
        cmd += ["--jobs", str(jobs)]
    return cmd + [str(path)]


def sample(files, per_file, target):
    """Evenly spaced files holding about `target` games (all when 0)."""
    n = len(files) if target <= 0 else max(1, min(len(files), -(-target // per_file)))
    return [files[i * len(files) // n] for i in range(n)]


sets = []
kgs = corpus / "kgs"
kgs_files = sgf_files(kgs)
sets.append(("kgs", kgs, kgs_files, 1))
manifest = json.loads((tmp / "archive" / "manifest.json").read_text())
sets.append((f"synthetic {manifest['games']:,} games", tmp / "archive", sgf_files(tmp / "archive"), manifest["per_file"]))

rows = []
for label, root, files, per_file in sets:
    nbytes = sum(p.stat().st_size for p in files)
    # Untimed: counts, and warms the page cache.
    _, _, out = measure(kifu_cmd(1, root, "jsonl"), ok=(0, 1))
    summary = json.loads(out.strip().splitlines()[-1])["summary"]
    mill_files = sample(files, per_file, sgfmill_games)
    listing = tmp / "sgfmill.list"
    listing.write_bytes(b"".join(os.fsencode(p) + b"\n" for p in mill_files))
    tools = [
        ("kifu check --jobs 1", kifu_cmd(1, root), (0, 1)),
        ("kifu check --jobs 2", kifu_cmd(2, root), (0, 1)),
        ("sgf-parse (parse only)", [str(tmp / "sgf-parse-walk-bin"), str(root)], (0,)),
        ("sgfmill (parse + replay)", [sys.executable, str(tmp / "sgfmill_batch.py"), str(listing)], (0,)),
    ]
    times = {name: [] for name, _, _ in tools}
    rss = {name: 0 for name, _, _ in tools}
    outs = {}
    for r in range(runs):
        for name, cmd, ok in tools:  # alternating, so load from elsewhere falls on all
            print(f"batch.sh: {label}: run {r + 1}/{runs}: {name}", file=sys.stderr)
            wall, peak, out = measure(cmd, ok)
            times[name].append(wall)
            rss[name] = max(rss[name], peak)
            outs[name] = out
    for name, _, _ in tools:
        t = statistics.median(times[name])
        if name.startswith("kifu"):
            files_n, games, b = len(files), summary["games"], nbytes
        else:
            c = json.loads(outs[name].strip().splitlines()[-1])
            files_n, games, b = c["files"], c["games"], c["bytes"]
        rows.append({"set": label, "tool": name, "files": files_n, "games": games, "bytes": b, "median_s": t,
                     "min_s": min(times[name]), "max_s": max(times[name]), "rss": rss[name],
                     "games_per_s": games / t, "mb_per_s": b / 1e6 / t, "summary": summary})

def n(x):
    return f"{x:,.0f}"

print()
print(f"### Batch checking, whole processes ({datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC)")
print()
print("| set | command | files | games | MB | median s (min-max) | games/s | MB/s | peak RSS MB | kifu --jobs 1 is |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for r in rows:
    base = next(x for x in rows if x["set"] == r["set"] and x["tool"] == "kifu check --jobs 1")
    vs = "" if r is base else f"{base['games_per_s'] / r['games_per_s']:.1f}x faster" if base["games_per_s"] >= r["games_per_s"] else f"{r['games_per_s'] / base['games_per_s']:.2f}x slower"
    if r["tool"] == "kifu check --jobs 2":
        vs = ""
    print(f"| {r['set']} | {r['tool']} | {n(r['files'])} | {n(r['games'])} | {r['bytes'] / 1e6:.1f} "
          f"| {r['median_s']:.2f} ({r['min_s']:.2f}-{r['max_s']:.2f}) | {n(r['games_per_s'])} | {r['mb_per_s']:.1f} "
          f"| {r['rss'] / 1e6:.1f} | {vs} |")
print()
for label, *_ in sets:
    j1 = next(x for x in rows if x["set"] == label and x["tool"] == "kifu check --jobs 1")
    j2 = next(x for x in rows if x["set"] == label and x["tool"] == "kifu check --jobs 2")
    ratio = j1["median_s"] / j2["median_s"]
    s = j1["summary"]
    print(f"- {label}: --jobs 2 / --jobs 1 = {ratio:.2f}x (goal >= 1.8x: {'met' if ratio >= 1.8 else 'NOT met'}); "
          f"kifu found {s['errors']:,} errors, {s['warnings']:,} warnings, {s['infos']:,} infos in {s['moves']:,} moves.")
if not jobs_flag:
    print("- BENCH_NO_JOBS_FLAG=1: kifu ran without --jobs; the jobs rows and the ratio above say nothing about --jobs.")

if memory_games > 0:
    root = tmp / "archive-memory"
    m = json.loads((root / "manifest.json").read_text())
    print()
    print(f"### Peak memory on {m['games']:,} games ({len(m['files']):,} files, {m['bytes'] / 1e6:,.0f} MB, {m['moves']:,} moves), one run each")
    print()
    print("| command | wall s | games/s | peak RSS MB | goal < 100 MB |")
    print("|---|---:|---:|---:|---|")
    for jobs in (1, 2):
        wall, peak, _ = measure(kifu_cmd(jobs, root), ok=(0, 1))
        print(f"| kifu check --quiet --jobs {jobs} | {wall:.1f} | {n(m['games'] / wall)} | {peak / 1e6:.1f} | {'met' if peak < 100e6 else 'NOT met'} |")

cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
print()
print(f"Machine: {cpu} ({os.cpu_count()} logical CPUs), Python {platform.python_version()}. "
      f"Wall time of whole processes (start, walk, read, work, exit), median of {runs} alternating runs; "
      "peak RSS: GNU time's 'Maximum resident set size', the largest over the runs. "
      "kifu: parse + property checks + replay of every variation, output --quiet; "
      "sgf-parse: parse only (files decoded as UTF-8 lossily first); "
      f"sgfmill: parse + main-line replay, on {'every file' if sgfmill_games <= 0 else f'about {sgfmill_games:,} games, evenly spaced files'}. "
      "MB = 10^6 bytes of SGF files.")
EOF
