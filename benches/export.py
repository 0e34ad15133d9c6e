#!/usr/bin/env python3
"""`kifu export --to npz` on the KGS games at two sizes: time, peak memory
(flat as the number of files grows?) and output size; then the larger
export checked game for game against kifu.games + Game.replay().

Usage (the kifu binary built, `cargo build --release`; the kifu module
installed, or through `bash benches/python.sh export`):
    benches/export.py [--small 2000] [--large 0] [--jobs 2] [--no-verify]
--large 0 takes every KGS file. Peak RSS is GNU time's 'Maximum resident
set size' (/usr/bin/time, Debian package `time`). The corpus is
../shared/corpus (KIFU_CORPUS); the outputs go to a scratch folder.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sgfmill_replay import collect, sample  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def export(binary, files, out, jobs, scratch):
    """Runs one export of `files` (paths or a folder); returns (wall s, peak RSS MB)."""
    timing = scratch / "time.txt"
    cmd = ["/usr/bin/time", "-v", "-o", str(timing), str(binary), "export", "--to", "npz", "--quiet", "--jobs", str(jobs), "-o", str(out), *map(str, files)]
    t0 = time.perf_counter()
    done = subprocess.run(cmd, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t0
    if done.returncode not in (0, 1):
        sys.exit(f"export.py: kifu export failed ({done.returncode}): {done.stderr}")
    rss_kb = next(int(line.split(":")[1]) for line in timing.read_text().splitlines() if "Maximum resident set size" in line)
    return wall, rss_kb / 1000


def verify(out, files):
    """The export against kifu.games + replay(), game for game."""
    import kifu

    data = np.load(out)
    count, offsets, moves = data["move_count"], data["board_offset"], data["move_offset"]
    boards, played, names = data["boards"], data["moves"], data["file"]
    g = 0
    for path, game in kifu.games(files):
        if game.size != (19, 19):
            continue
        r = game.replay(strict=False)
        n, b, m = count[g], offsets[g], moves[g]
        ok = names[g] == path and n == len(r) and np.array_equal(boards[b : b + n + 1], r.boards) and np.array_equal(played[m : m + n], r.moves)
        if not ok:
            sys.exit(f"export.py: game {g} ({path}) differs from replay()")
        g += 1
    if g != len(count):
        sys.exit(f"export.py: {len(count)} games exported, {g} replayed")
    return g


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--small", type=int, default=2000, help="files in the small run")
    ap.add_argument("--large", type=int, default=0, help="files in the large run (0 = every KGS file)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--no-verify", action="store_true", help="do not check the large export against replay()")
    ap.add_argument("--corpus", default=os.environ.get("KIFU_CORPUS", str(ROOT / "../shared/corpus")))
    args = ap.parse_args()
    corpus = Path(args.corpus)
    if not corpus.is_dir():
        print(f"export.py: SKIPPED: corpus not found at {corpus} (set KIFU_CORPUS)")
        return 0
    binary = Path(os.environ.get("KIFU_BIN") or ROOT / "target" / "release" / "kifu")
    if not binary.is_file():
        sys.exit(f"export.py: {binary} is missing: cargo build --release (or set KIFU_BIN)")
    if not Path("/usr/bin/time").is_file():
        sys.exit("export.py: GNU time (/usr/bin/time) is missing: apt-get install time")
    everything = collect(corpus, "kgs")
    sizes = [args.small, args.large or len(everything)]
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        inputs = {}
        for n in sizes:
            # Every file: the folder itself (26,802 paths would not fit a command line).
            files = [str(corpus / "kgs")] if n >= len(everything) else [str(p) for p in sample(everything, n)]
            inputs[n] = files
            out = scratch / f"kgs-{n}.npz"
            wall, rss = export(binary, files, out, args.jobs, scratch)
            data = np.load(out)
            rows.append((n, len(data["move_count"]), len(data["boards"]), wall, rss, out.stat().st_size / 1e6))
            print(f"export.py: {n:,} files: {wall:.1f} s, peak RSS {rss:.1f} MB", file=sys.stderr)
        verified = None if args.no_verify else verify(scratch / f"kgs-{sizes[-1]}.npz", inputs[sizes[-1]])
    print(f"\n### kifu export --to npz on KGS ({stamp}, --jobs {args.jobs})\n")
    print("| files | games | positions | wall s | peak RSS MB | npz MB |")
    print("|---:|---:|---:|---:|---:|---:|")
    for n, games, positions, wall, rss, size in rows:
        print(f"| {n:,} | {games:,} | {positions:,} | {wall:.1f} | {rss:.1f} | {size:,.0f} |")
    growth = rows[1][4] / rows[0][4]
    print(f"\n{rows[1][0] / rows[0][0]:.1f}x the files, {growth:.2f}x the peak memory.", end=" ")
    if verified is not None:
        print(f"The larger export loads with numpy.load and equals kifu.games + replay() on all {verified:,} games.")
    else:
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
