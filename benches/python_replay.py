#!/usr/bin/env python3
"""KGS games read and replayed into NumPy boards from Python: kifu
(kifu.games + Game.replay()) against sgfmill (parse + replay), on the same
files, in alternating runs; prints a markdown table.

Each run reads the files from disk (the page cache is warmed first):
    kifu       for path, game in kifu.games(files, jobs=J): game.replay(strict=False)
               -> boards int8 (n + 1, 19, 19), moves, colours, captures
    sgfmill    Sgf_game.from_bytes, sgf_moves.get_setup_and_moves, board.play
               for every main-line move (no arrays: sgfmill's own speed)
    sgfmill+np the same, plus the board copied into an int8 NumPy array after
               every move (the output kifu gives)

Usage (kifu installed: `pip install ./python`, or `bash benches/python.sh`,
which builds it into a scratch virtual environment and runs this):
    benches/python_replay.py [--set kgs] [--sample 5000] [--runs 5] [--jobs 2] [--json OUT]
BENCH_RUNS sets --runs. The corpus is ../shared/corpus (KIFU_CORPUS).
"""

import argparse
import itertools
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sgfmill_replay import SETS, boards, collect, sample, sgf, sgf_moves, sgfmill_version  # noqa: E402

try:
    import kifu
except ImportError:
    sys.exit("python_replay.py: the kifu module is not installed (pip install ./python, or bash benches/python.sh)")

STONE = {None: 0, "b": 1, "w": -1}


def kifu_run(paths, jobs):
    games = moves = positions = stopped = 0
    cpu0, t0 = time.process_time(), time.perf_counter()
    for _, game in kifu.games(paths, jobs=jobs):
        replay = game.replay(strict=False)
        games += 1
        moves += len(replay)
        positions += replay.boards.shape[0]
        stopped += not replay.complete
    wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    return wall, cpu, {"games": games, "moves": moves, "positions": positions, "stopped": stopped}


def board_array(board, out):
    side = board.side
    cells = np.fromiter(map(STONE.__getitem__, itertools.chain.from_iterable(board.board)), dtype=np.int8, count=side * side)
    out[:] = cells.reshape(side, side)[::-1]


def sgfmill_run(paths, arrays):
    games = moves = positions = refused = 0
    cpu0, t0 = time.process_time(), time.perf_counter()
    for path in paths:
        with open(path, "rb") as f:
            data = f.read()
        try:
            game = sgf.Sgf_game.from_bytes(data)
            board, plays = sgf_moves.get_setup_and_moves(game, boards.Board(game.get_size()))
        except ValueError:
            refused += 1
            continue
        if arrays:
            out = np.empty((len(plays) + 1, board.side, board.side), dtype=np.int8)
            board_array(board, out[0])
        for k, (colour, move) in enumerate(plays):
            if move is not None:
                try:
                    board.play(move[0], move[1], colour)
                except (ValueError, IndexError):
                    pass
            if arrays:
                board_array(board, out[k + 1])
        games += 1
        moves += len(plays)
        positions += len(plays) + 1
    wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    return wall, cpu, {"games": games, "moves": moves, "positions": positions, "refused": refused}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", choices=sorted(SETS), default="kgs")
    ap.add_argument("--sample", type=int, default=5000, help="N evenly spaced files (0 = all)")
    ap.add_argument("--corpus", default=os.environ.get("KIFU_CORPUS", str(Path(__file__).resolve().parent.parent / "../shared/corpus")))
    ap.add_argument("--runs", type=int, default=int(os.environ.get("BENCH_RUNS", "5")))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="kifu threads besides the one-thread run (default: all cores)")
    ap.add_argument("--json", help="write every run's figures as JSON to this file")
    args = ap.parse_args()
    corpus = Path(args.corpus)
    if not corpus.is_dir():
        print(f"python_replay.py: SKIPPED: corpus not found at {corpus} (set KIFU_CORPUS)")
        return 0
    paths = [str(p) for p in sample(collect(corpus, SETS[args.set]), args.sample)]
    for path in paths:  # warm the page cache: both sides then read from memory
        with open(path, "rb") as f:
            f.read()

    sides = {
        "kifu, 1 thread": lambda: kifu_run(paths, 1),
        f"kifu, {args.jobs} threads": lambda: kifu_run(paths, args.jobs),
        "sgfmill": lambda: sgfmill_run(paths, False),
        "sgfmill + NumPy boards": lambda: sgfmill_run(paths, True),
    }
    if args.jobs == 1:
        del sides["kifu, 1 threads"]
    runs = {name: [] for name in sides}
    for run in range(args.runs):
        for name, side in sides.items():
            wall, cpu, counts = side()
            runs[name].append({"wall_s": wall, "cpu_s": cpu, **counts})
            print(f"python_replay.py: run {run + 1}/{args.runs}: {name}: {wall:.2f} s ({counts['games'] / wall:,.0f} games/s)", file=sys.stderr)

    def median(name, key):
        return statistics.median(r[key] for r in runs[name])

    base = median("sgfmill", "wall_s")
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(f"\n### kifu.games + replay() vs sgfmill, {args.set}, {len(paths):,} files ({stamp})\n")
    print("| side | games | positions | wall s | games/s | CPU s | sgfmill time / this |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in sides:
        first = runs[name][0]
        wall = median(name, "wall_s")
        print(f"| {name} | {first['games']:,} | {first['positions']:,} | {wall:.3f} | {first['games'] / wall:,.0f} | {median(name, 'cpu_s'):.3f} | {base / wall:.1f}x |")
    ratio = base / median("kifu, 1 thread", "wall_s")
    cpu_ratio = median("sgfmill", "cpu_s") / median("kifu, 1 thread", "cpu_s")
    print(
        f"\nMedians of {args.runs} alternating runs, wall time, files read from the page cache. CPU s: the process's CPU time (all threads). "
        f"kifu {kifu.__version__}, sgfmill {sgfmill_version()}, Python {platform.python_version()}, NumPy {np.__version__}, "
        f"{os.cpu_count()} CPUs. Games kifu stopped at an illegal move: {runs['kifu, 1 thread'][0]['stopped']}; "
        f"files sgfmill refused: {runs['sgfmill'][0]['refused']}."
    )
    print(f"Goal: kifu at least 50x sgfmill parse + replay ({'met' if ratio >= 50 else 'NOT met'}: {ratio:.1f}x on one thread, {cpu_ratio:.1f}x on CPU time).")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"date_utc": stamp, "files": len(paths), "runs": runs}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
