#!/usr/bin/env python3
"""Writes a synthetic archive of 19x19 Go games for the batch benchmark.

Each game is a real KGS game (from ../shared/corpus/kgs) under one of the 8
symmetries of the board, cut after a random number of moves (half the game
at least; about a third are kept whole): a prefix of a legal game is legal
and symmetries keep it so, so the archive replays without errors, with the
move statistics (captures, kos, lengths) of real play. Players, game names
and dates are made up; handicap stones (AB) are transformed with the moves.

Games are written KGS-style (one node a line) into collection files of
--per-file games each (default 1,000), 50 files a folder:

    OUT/000/collection-000000.sgf ... OUT/001/collection-000050.sgf ...

and OUT/manifest.json says what was written. Deterministic: the same seed,
templates and arguments give the same bytes.

Usage:
    gen_archive.py                       # 100,000 games into a new temp dir (its path is printed)
    gen_archive.py --games 1000000 --out /tmp/archive-1m
    --seed N          random seed (default 1)
    --per-file N      games per collection file (default 1000)
    --templates DIR   where the template games are (default ../shared/corpus/kgs
                      from the crate root, or $KIFU_CORPUS/kgs)
    --max-templates N templates read, evenly spaced over DIR (default 5000)

Python 3 standard library only.
"""

import argparse
import json
import os
import random
import re
import sys
import tempfile
from pathlib import Path

LETTERS = "abcdefghijklmnopqrs"
MOVE = re.compile(rb";\s*([BW])\[([a-z]{0,2})\]")
PROP = {name: re.compile(rb"\b" + name + rb"\[([^\]]*)\]") for name in (b"SZ", b"KM", b"HA", b"RU", b"DT", b"RE")}
AB = re.compile(rb"\bAB((?:\[[a-s]{2}\]\s*)+)")


def symmetry(k, x, y):
    """The k-th of the 8 symmetries of the 19x19 board (k = 0: identity)."""
    if k & 1:
        x = 18 - x
    if k & 2:
        y = 18 - y
    if k & 4:
        x, y = y, x
    return x, y


def transform(point, k):
    if len(point) != 2 or point == "tt":
        return point  # a pass
    x, y = symmetry(k, LETTERS.index(point[0]), LETTERS.index(point[1]))
    return LETTERS[x] + LETTERS[y]


def read_template(path):
    """A KGS game as (root properties, handicap stones, moves), or None when
    it is not a plain 19x19 game with one line of play and no White setup."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if data.count(b"(;") != 1 or b"AW[" in data or b"AE[" in data:
        return None
    props = {}
    for name, rx in PROP.items():
        m = rx.search(data)
        if m:
            props[name.decode()] = m.group(1).decode("utf-8", "replace")
    if props.get("SZ") != "19":
        return None
    stones = []
    m = AB.search(data)
    if m:
        stones = re.findall(r"\[([a-s]{2})\]", m.group(1).decode())
    moves = [(c.decode(), p.decode()) for c, p in MOVE.findall(data)]
    if len(moves) < 20 or any(len(p) not in (0, 2) for _, p in moves):
        return None
    return props, stones, moves


def collect(root):
    paths = [p for p in root.rglob("*") if p.suffix.lower() == ".sgf" and p.is_file()]
    paths.sort(key=lambda p: [os.fsencode(part) for part in p.parts])
    return paths


def write_game(out, rng, templates, index):
    props, stones, moves = rng.choice(templates)
    k = rng.randrange(8)
    whole = rng.random() < 1 / 3
    n = len(moves) if whole else rng.randint(len(moves) // 2, len(moves))
    head = [
        f"(;GM[1]FF[4]CA[UTF-8]AP[gen_archive.py:1]SZ[19]",
        f"GN[synthetic {index}]PB[black-{index % 9973}]PW[white-{index % 9967}]",
    ]
    for name in ("KM", "HA", "RU", "DT"):
        if name in props:
            head.append(f"{name}[{props[name]}]")
    if whole and "RE" in props:
        head.append(f"RE[{props['RE']}]")
    if stones:
        head.append("AB" + "".join(f"[{transform(p, k)}]" for p in stones))
    out.write("".join(head) + "\n")
    for colour, point in moves[:n]:
        out.write(f";{colour}[{transform(point, k)}]\n")
    out.write(")\n")
    return n


def main():
    here = Path(__file__).resolve().parent.parent
    corpus = Path(os.environ.get("KIFU_CORPUS", here / "../shared/corpus"))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--per-file", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", help="output folder (default: a new temp dir)")
    ap.add_argument("--templates", default=str(corpus / "kgs"))
    ap.add_argument("--max-templates", type=int, default=5000)
    args = ap.parse_args()
    if args.games < 1 or args.per_file < 1:
        ap.error("--games and --per-file must be positive")

    root = Path(args.templates)
    if not root.is_dir():
        print(f"gen_archive.py: template games not found at {root} (set KIFU_CORPUS or --templates)", file=sys.stderr)
        return 2
    paths = collect(root)
    step = max(1, len(paths) // max(1, args.max_templates))
    templates = [t for t in (read_template(p) for p in paths[::step][: args.max_templates]) if t]
    if not templates:
        print(f"gen_archive.py: no usable template game under {root}", file=sys.stderr)
        return 2

    out_dir = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="kifu-archive-"))
    out_dir.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    files, moves, written = [], 0, 0
    while written < args.games:
        k = len(files)
        path = out_dir / f"{k // 50:03d}" / f"collection-{k:06d}.sgf"
        path.parent.mkdir(exist_ok=True)
        count = min(args.per_file, args.games - written)
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            for i in range(count):
                moves += write_game(f, rng, templates, written + i)
        written += count
        files.append({"path": str(path.relative_to(out_dir)), "games": count})
    size = sum((out_dir / f["path"]).stat().st_size for f in files)
    manifest = {
        "generator": "benches/gen_archive.py",
        "seed": args.seed,
        "games": written,
        "moves": moves,
        "bytes": size,
        "per_file": args.per_file,
        "templates": len(templates),
        "files": files,
    }
    (out_dir / "manifest.json").write_text(json.dumps(manifest, indent=1))
    print(out_dir)
    print(
        f"gen_archive.py: {written:,} games, {moves:,} moves, {len(files):,} files, {size / 1e6:.1f} MB "
        f"({len(templates):,} templates from {root})",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
