#!/usr/bin/env bash
# Builds the seed corpora of the fuzz targets in fuzz/corpus/<target>/ from
# the project's fixtures/ and a sample of ../shared/corpus (PER_PART files
# from each part: kgs, fox-pro, ai-games and each suite). The JSON target
# gets the same files converted by `kifu convert --to json`.
#
#   fuzz/seed.sh            # 40 files per part
#   PER_PART=200 fuzz/seed.sh
#
# Deterministic: files are taken at even steps through the sorted list.
# Seeds larger than 256 KB are left out (the fuzzer mutates small inputs).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
corpus="${CORPUS:-$root/../shared/corpus}"
per_part="${PER_PART:-40}"
out="$here/corpus"
max_bytes=262144

mkdir -p "$out"/{parse,decode,replay,score,json}

# take DIR N: N files from DIR at even steps, as NUL-separated paths.
take() {
  local dir="$1" n="$2"
  find "$dir" -type f \( -iname '*.sgf' \) -size -"${max_bytes}"c -print0 | sort -z |
    awk -v RS='\0' -v ORS='\0' -v n="$n" '{ f[NR] = $0 } END { if (NR == 0) exit; step = NR / n; if (step < 1) step = 1; for (i = 1; i <= NR; i += step) print f[int(i)] }'
}

# add FILE: copies FILE into the SGF corpora under a name made of its hash.
add() {
  local f="$1" name
  name="$(sha1sum "$f" | cut -c1-16)"
  for t in parse decode replay score; do cp "$f" "$out/$t/$name"; done
}

count=0
while IFS= read -r -d '' f; do add "$f"; count=$((count + 1)); done < <(find "$root/fixtures" -type f -iname '*.sgf' -print0 | sort -z)
echo "fixtures: $count files"

if [ -d "$corpus" ]; then
  parts=("$corpus/kgs" "$corpus/fox-pro" "$corpus/ai-games")
  for d in "$corpus"/suites/*/; do parts+=("${d%/}"); done
  for part in "${parts[@]}"; do
    [ -d "$part" ] || continue
    n=0
    while IFS= read -r -d '' f; do add "$f"; n=$((n + 1)); done < <(take "$part" "$per_part")
    echo "${part#"$corpus"/}: $n files"
  done
else
  echo "no corpus at $corpus: seeds from fixtures/ only" >&2
fi

# JSON seeds: each SGF seed converted (small ones only, to keep mutations fast).
(cd "$root" && cargo build --release --quiet --bin kifu)
kifu="$root/target/release/kifu"
n=0
for f in "$out"/parse/*; do
  [ "$(stat -c %s "$f")" -le 65536 ] || continue
  j="$out/json/$(basename "$f").json"
  "$kifu" convert --to json "$f" > "$j" 2>/dev/null || true
  [ -s "$j" ] || rm -f "$j"
  n=$((n + 1))
done
echo "json: $n documents"
for t in parse decode replay score json; do echo "$t: $(ls "$out/$t" | wc -l) seeds"; done
