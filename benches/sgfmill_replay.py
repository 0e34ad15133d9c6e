#!/usr/bin/env python3
"""sgfmill's parse + replay, timed the way benches/check.rs times kifu.

For each file, loaded into memory before timing:
    game = sgf.Sgf_game.from_bytes(data)
    board, plays = sgf_moves.get_setup_and_moves(game, boards.Board(game.get_size()))
    board.play(row, col, colour) for every main-line move (passes skipped)
An illegal move (board.play raising ValueError/IndexError: point occupied,
off the board) is counted and the replay goes on. A file sgfmill cannot
read (from_bytes raises ValueError) or set up (get_setup_and_moves raises
ValueError: bad setup, AB/AW after the root, bad size) is counted and
skipped; the time spent finding that out is part of the run.

sgfmill reads only the first game of a file and replays only its main line
(the leftmost variation); kifu replays every variation of every game.

Usage:
    sgfmill_replay.py --files LIST            # files from LIST (one path a line), e.g.
                                              # written by `check -- kgs --sample N --write-list LIST`
    sgfmill_replay.py --set kgs [--sample N]  # walk the set under the corpus itself;
                                              # --sample N: N evenly spaced files (default 5000, 0 = all)
    --runs N    timed runs, median reported (default $BENCH_RUNS or 5)
    --json OUT  write the figures (every run's time) as JSON to OUT
"""

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

try:
    from sgfmill import boards, sgf, sgf_moves
except ImportError:
    sys.exit("sgfmill_replay.py: sgfmill is not installed (pip install sgfmill)")

SETS = {"kgs": "kgs", "fox-pro": "fox-pro", "ai-games": "ai-games", "all": ""}


def collect(corpus, folder):
    root = corpus / folder if folder else corpus
    paths = [p for p in root.rglob("*") if p.suffix.lower() == ".sgf" and p.is_file()]
    # Same order as the Rust bench (PathBuf sorts component by component).
    paths.sort(key=lambda p: [os.fsencode(part) for part in p.parts])
    return paths


def sample(paths, n):
    """n paths spread evenly: index floor(i * len / n), as check.rs does."""
    if n <= 0 or n >= len(paths):
        return paths
    return [paths[i * len(paths) // n] for i in range(n)]


def read_list(path):
    with open(path, "rb") as f:
        return [os.fsdecode(line) for line in f.read().split(b"\n") if line]


def one_run(data, from_disk=False):
    """One timed pass over every file (`data`: their bytes, or with
    `from_disk` their paths, read in the pass). Returns (wall s, cpu s, counts)."""
    games = moves = played = illegal = rejected = setup_rejected = 0
    cpu0 = time.thread_time()
    t0 = time.perf_counter()
    for b in data:
        if from_disk:
            with open(b, "rb") as f:
                b = f.read()
        try:
            game = sgf.Sgf_game.from_bytes(b)
        except ValueError:
            rejected += 1
            continue
        try:
            board, plays = sgf_moves.get_setup_and_moves(game, boards.Board(game.get_size()))
        except ValueError:
            setup_rejected += 1
            continue
        games += 1
        moves += len(plays)
        for colour, move in plays:
            if move is None:
                continue
            row, col = move
            try:
                board.play(row, col, colour)
                played += 1
            except (ValueError, IndexError):
                illegal += 1
    wall = time.perf_counter() - t0
    cpu = time.thread_time() - cpu0
    counts = {
        "games": games,
        "moves": moves,
        "stones_played": played,
        "illegal": illegal,
        "rejected": rejected,
        "setup_rejected": setup_rejected,
    }
    return wall, cpu, counts


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--files", help="file with one path a line")
    src.add_argument("--set", choices=sorted(SETS), help="walk this set under the corpus")
    ap.add_argument("--sample", type=int, default=5000, help="with --set: N evenly spaced files (0 = all)")
    ap.add_argument("--corpus", default=os.environ.get("KIFU_CORPUS", str(Path(__file__).resolve().parent.parent / "../shared/corpus")))
    ap.add_argument("--runs", type=int, default=int(os.environ.get("BENCH_RUNS", "5")))
    ap.add_argument("--json", help="write figures as JSON to this file")
    ap.add_argument("--quiet", action="store_true", help="no per-run lines on stderr")
    ap.add_argument("--from-disk", action="store_true", help="read each file in the timed pass (for whole-process timing, benches/process.sh)")
    args = ap.parse_args()
    if args.runs < 1:
        ap.error("--runs must be positive")

    if args.files:
        paths = read_list(args.files)
        label = "list:" + Path(args.files).name
    else:
        corpus = Path(args.corpus)
        if not corpus.is_dir():
            print(f"sgfmill bench: SKIPPED: corpus not found at {corpus}")
            return 0
        paths = sample(collect(corpus, SETS[args.set]), args.sample)
        label = args.set if args.sample <= 0 else f"{args.set} sample"

    data = []
    if args.from_disk:
        data = paths
        nbytes = sum(os.path.getsize(p) for p in paths)
    else:
        for p in paths:
            try:
                with open(p, "rb") as f:
                    data.append(f.read())
            except OSError as e:
                print(f"sgfmill bench: cannot read {p}: {e}", file=sys.stderr)
        nbytes = sum(len(b) for b in data)

    walls, cpus, counts = [], [], None
    for run in range(args.runs):
        wall, cpu, c = one_run(data, args.from_disk)
        walls.append(wall)
        cpus.append(cpu)
        counts = c
        if not args.quiet:
            print(f"sgfmill bench: {label}: run {run + 1}/{args.runs}: {wall:.2f} s ({c['games'] / wall:.0f} games/s)", file=sys.stderr)

    med = statistics.median(walls)
    result = {
        "label": label,
        "files": len(data),
        "bytes": nbytes,
        **counts,
        "run_s": walls,
        "cpu_s": cpus,
        "median": {
            "run_s": med,
            "games_per_s": counts["games"] / med,
            "moves_per_s": counts["moves"] / med,
            "mb_per_s": nbytes / 1e6 / med,
            "us_per_game": med * 1e6 / max(counts["games"], 1),
        },
    }
    doc = {
        "bench": "sgfmill_replay",
        "python": platform.python_version(),
        "sgfmill": getattr(sys.modules.get("sgfmill"), "__version__", None) or sgfmill_version(),
        "runs": args.runs,
        "results": [result],
    }
    if args.json:
        with open(args.json, "w") as f:
            json.dump(doc, f, indent=2)
    m = result["median"]
    print(
        f"sgfmill {doc['sgfmill']} (Python {doc['python']}): {label}: {len(data)} files, {counts['games']} games, "
        f"{counts['moves']} main-line moves ({counts['illegal']} illegal, {counts['rejected']} unreadable, "
        f"{counts['setup_rejected']} bad setup); median of {args.runs}: {m['games_per_s']:.0f} games/s, "
        f"{m['moves_per_s']:.0f} moves/s, {m['us_per_game']:.0f} µs/game"
    )
    return 0


def sgfmill_version():
    try:
        from importlib.metadata import version

        return version("sgfmill")
    except Exception:
        return "unknown"


if __name__ == "__main__":
    sys.exit(main())
