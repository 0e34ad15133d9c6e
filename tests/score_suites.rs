//! Rescoring held to hand-scored fixtures and to the peer projects' own
//! expectations.
//!
//! `fixtures/score/` has one small record per scoring rule, each a legal
//! game (setup, a few moves, two passes) whose count was done by hand and
//! is written in its `GC[]`; the tests assert the exact breakdown
//! (territory, stones, prisoners, dead stones, totals), the result and the
//! comparison with `RE[]`. The peer suites (GNU Go's `score.tst` and
//! `score2.tst`, Fuego's `scoring_*.tst`, the KataGo 7x7 ruleset example,
//! and the seki positions of GNU Go and Fuego) are read from
//! `../shared/corpus/suites` at run time; those tests skip, saying so, when
//! the corpus is absent. See docs/accuracy.md for the figures and for why
//! each disagreement happens.

use std::collections::HashMap;
use std::path::Path;

use assert_cmd::Command;
use kifu::board::Color;
use kifu::diag::Code;
use kifu::replay::RuleOverrides;
use kifu::rules::{KoRule, Rules, SekiEyes, Ties};
use kifu::score::{DeadStones, GameScore, MapPoint, ScoreOptions, Side, score_game};
use kifu::sgf::props::Point;
use kifu::sgf::{self, GameTree};
use serde_json::Value;

mod common;

// ---------------------------------------------------------------------------
// Helpers

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn fixture(name: &str) -> Vec<u8> {
    let path = manifest().join("fixtures/score").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The first game of an SGF text.
fn game_of(bytes: &[u8]) -> GameTree {
    let mut parsed = sgf::parse(bytes, &Default::default());
    assert!(!parsed.collection.games.is_empty(), "no game in {}", String::from_utf8_lossy(&bytes[..bytes.len().min(80)]));
    parsed.collection.games.swap_remove(0)
}

fn score(bytes: &[u8], options: &ScoreOptions) -> GameScore {
    score_game(&game_of(bytes), options).expect("a board to score")
}

/// The options `kifu score` uses with no flags, but for the estimator's
/// random numbers when `KIFU_ESTIMATE_SEED` is set.
fn defaults() -> ScoreOptions {
    ScoreOptions { estimate_seed: estimate_seed(), ..ScoreOptions::default() }
}

/// `KIFU_ESTIMATE_SEED`: 0 (unset) gives kifu's own answers; another seed
/// measures how much the suites' figures owe to the estimator's random
/// numbers (docs/accuracy.md, "Other random numbers"). The generated tables
/// of docs/accuracy.md are seed 0's, and are checked only on it.
fn estimate_seed() -> u64 {
    std::env::var("KIFU_ESTIMATE_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(0)
}

/// `--rules NAME`.
fn rules(name: &str) -> RuleOverrides {
    RuleOverrides { rules: Some(Rules::preset(name).expect("a preset")), ..Default::default() }
}

fn side(territory: u32, stones: u32, prisoners: u32, dead: u32, total: f64) -> Side {
    Side { territory, stones, prisoners, dead, total }
}

/// Asserts the whole count of a game.
#[track_caller]
fn assert_count(s: &GameScore, black: Side, white: Side, result: &str, agrees: Option<bool>) {
    let shown = || format!("{} (recorded {:?}, dead stones from {})\n{}", s.result, s.recorded, s.dead_stones_from, drawn(s));
    assert_eq!(s.black, black, "black: {}", shown());
    assert_eq!(s.white, white, "white: {}", shown());
    assert_eq!(s.result, result, "result: {}", shown());
    assert_eq!(s.agrees, agrees, "agrees: {}", shown());
}

/// Board points ("dd") to `--dead-stones dd,...` points.
fn points(letters: &[&str]) -> Vec<Point> {
    letters.iter().map(|p| Point::parse(p).expect("a point")).collect()
}

/// `D4` on a board of `size` rows, as GTP writes it (no I column).
fn gtp_point(v: &str, size: usize) -> Option<Point> {
    let v = v.trim().to_ascii_uppercase();
    if v == "PASS" {
        return None;
    }
    let col = "ABCDEFGHJKLMNOPQRST".find(v.chars().next()?)?;
    let row: usize = v[1..].parse().ok()?;
    Some(Point { x: col as u8, y: (size - row) as u8 })
}

/// What each point of the final board counts as, from `GameScore::map`:
/// `X`/`O` stones, `x`/`o` dead stones, `b`/`w` territory, `s` seki dame,
/// `-` no one's, `.` dame. Keys are (x, y) from the top left.
fn owners(s: &GameScore) -> HashMap<(u8, u8), char> {
    let map = &s.map;
    let mut out = HashMap::new();
    for y in 0..map.height() {
        for x in 0..map.width() {
            let c = match map.get(x, y) {
                MapPoint::Stone(Color::Black) => 'X',
                MapPoint::Stone(Color::White) => 'O',
                MapPoint::Dead(Color::Black) => 'x',
                MapPoint::Dead(Color::White) => 'o',
                MapPoint::Territory(Color::Black) => 'b',
                MapPoint::Territory(Color::White) => 'w',
                MapPoint::SekiDame => 's',
                MapPoint::NoOnes => '-',
                MapPoint::Dame => '.',
            };
            out.insert((x, y), c);
        }
    }
    out
}

/// The map drawn one row a line, for failure messages.
fn drawn(s: &GameScore) -> String {
    let owners = owners(s);
    (0..s.map.height()).map(|y| (0..s.map.width()).map(|x| owners[&(x, y)]).collect::<String>() + "\n").collect()
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

/// The main line of a game as SGF: the root and its first `moves` move
/// nodes (all when `None`), then `extra` moves (`None` is a pass). This is
/// what GTP's `loadsgf FILE N` loads (the position before move N: `moves`
/// = N - 1), plus the moves a test plays on it.
fn main_line_sgf(game: &GameTree, moves: Option<usize>, extra: &[(char, Option<Point>)]) -> String {
    let mut out = String::from("(");
    let mut played = 0;
    for node in game.main_line() {
        let is_move = node.has("B") || node.has("W");
        if is_move {
            if moves.is_some_and(|m| played >= m) {
                break;
            }
            played += 1;
        }
        out.push(';');
        for p in node.properties() {
            out.push_str(p.id());
            for v in p.values() {
                out.push('[');
                out.push_str(&escape(v.text()));
                out.push(']');
            }
        }
    }
    for (color, point) in extra {
        out.push(';');
        out.push(*color);
        out.push('[');
        if let Some(p) = point {
            out.push_str(&p.to_sgf());
        }
        out.push(']');
    }
    out.push(')');
    out
}

/// One expectation of a GTP regression file: `loadsgf FILE [N]`, then a
/// command whose answer is given on a `#? [...]` line.
#[derive(Debug)]
struct GtpCase {
    id: String,
    file: String,
    /// `loadsgf FILE N`: the position before move N.
    before_move: Option<usize>,
    command: String,
    /// The expected answer, regex escapes removed (`W+100.5`).
    expected: String,
    /// `#? [..]*`: a failure the peer project expects of itself.
    known_failure: bool,
}

/// The cases of a `.tst` file whose command starts with `prefix`. Lines
/// commented out (`# loadsgf`, `#1 final_score`) are not cases.
fn gtp_cases(tst: &str, prefix: &str) -> Vec<GtpCase> {
    let mut cases = Vec::new();
    let mut file = None;
    let mut before_move = None;
    let mut pending: Option<(String, String)> = None;
    for line in tst.lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("loadsgf ") {
            let mut parts = rest.split_whitespace();
            file = parts.next().map(str::to_string);
            before_move = parts.next().and_then(|n| n.parse().ok());
        } else if let Some(answer) = line.strip_prefix("#?") {
            if let (Some((id, command)), Some(file)) = (pending.take(), &file) {
                let answer = answer.trim();
                let known_failure = answer.ends_with('*');
                let expected: String = answer.trim_end_matches('*').trim_start_matches('[').trim_end_matches(']').chars().filter(|&c| c != '\\').collect();
                cases.push(GtpCase { id, file: file.clone(), before_move, command, expected, known_failure });
            }
        } else if !line.starts_with('#') && !line.is_empty() {
            let mut parts = line.splitn(2, ' ');
            let (id, command) = (parts.next().unwrap_or(""), parts.next().unwrap_or("").trim());
            pending = (id.chars().all(|c| c.is_ascii_digit()) && command.starts_with(prefix)).then(|| (id.to_string(), command.to_string()));
        }
    }
    cases
}

/// The position a GTP case loads, as SGF text.
/// A case's file name without folder and extension, as the docs name it.
fn stem(file: &str) -> String {
    Path::new(file).file_stem().map_or_else(|| file.to_string(), |s| s.to_string_lossy().into_owned())
}

fn load(dir: &Path, case: &GtpCase) -> String {
    let game = game_of(&read(&dir.join(&case.file)));
    main_line_sgf(&game, case.before_move.map(|n| n.saturating_sub(1)), &[])
}

// ---------------------------------------------------------------------------
// Hand-scored fixtures

/// Territory counting with ties to White, worked through as a real game: Black captured 1, White 2; 6 black and 9 white stones dead;
/// territory Black 22, White 15; Black 32, White 23.
#[test]
fn territory_counting_ties_to_white() {
    let bytes = fixture("territory-counting-ties-to-white.sgf");
    let options = ScoreOptions { rules: RuleOverrides { ties: Some(Ties::White), ..Default::default() }, ..defaults() };
    let s = score(&bytes, &options);
    assert_eq!(s.dead_stones_from, "markup");
    assert_count(&s, side(22, 22, 1, 9, 32.0), side(15, 20, 2, 6, 23.0), "B+9", Some(true));
    assert_eq!(s.dead_stones.len(), 15);
    assert_eq!((s.komi, s.rules, s.winner, s.margin), (0.0, "japanese", Some("B"), 9.0));
    // The dead stones are unambiguous: the same count from the list, and
    // from the estimator.
    let listed = ScoreOptions { dead_stones: DeadStones::Points(points(&["aa", "ad", "ga", "ge", "hf", "hh"])), ..options.clone() };
    assert_count(&score(&bytes, &listed), side(22, 22, 1, 9, 32.0), side(15, 20, 2, 6, 23.0), "B+9", Some(true));
    let estimated = ScoreOptions { dead_stones: DeadStones::Estimate, ..options };
    assert_count(&score(&bytes, &estimated), side(22, 22, 1, 9, 32.0), side(15, 20, 2, 6, 23.0), "B+9", Some(true));
}

/// 9x9 area counting, simple ko, komi 7.5, and no dead-stone
/// phase: the black stone G7 was not captured, so it counts, and the
/// region around it is no one's.
#[test]
fn area_counting_without_dead_stone_phase() {
    let bytes = fixture("area-counting-no-dead-stone-phase.sgf");
    let no_dead_stone_phase =
        ScoreOptions { rules: RuleOverrides { ko: Some(KoRule::Simple), komi: Some(7.5), ..rules("chinese") }, dead_stones: DeadStones::None, ..defaults() };
    let s = score(&bytes, &no_dead_stone_phase);
    assert_count(&s, side(27, 10, 0, 0, 37.0), side(0, 9, 0, 0, 16.5), "B+20.5", Some(true));
    assert_eq!(s.scoring, kifu::rules::Scoring::Area);
    // Chinese rules with a dead-stone phase remove G7: White wins.
    let chinese = score(&bytes, &ScoreOptions { dead_stones: DeadStones::Points(points(&["gc"])), ..defaults() });
    assert_count(&chinese, side(27, 9, 0, 0, 36.0), side(36, 9, 0, 1, 52.5), "W+16.5", Some(false));
}

/// A seki with two shared liberties and no eyes: the seki dame count for
/// nobody under either counting.
#[test]
fn seki_simple() {
    let bytes = fixture("seki-simple.sgf");
    let none = ScoreOptions { dead_stones: DeadStones::None, ..defaults() };
    let s = score(&bytes, &none);
    assert_count(&s, side(27, 16, 0, 0, 27.0), side(15, 21, 0, 0, 21.5), "B+5.5", Some(true));
    assert_eq!(s.seki_points, ["ai", "ei"]);
    let chinese = score(&bytes, &ScoreOptions { rules: rules("chinese"), ..none });
    assert_count(&chinese, side(27, 16, 0, 0, 43.0), side(15, 21, 0, 0, 42.5), "B+0.5", Some(false));
    assert_eq!(chinese.seki_points, ["ai", "ei"]);
    // The estimator sees no dead stone in a plain seki.
    let estimated = score(&bytes, &ScoreOptions { dead_stones: DeadStones::Estimate, ..defaults() });
    assert_eq!(estimated.dead_stones, Vec::<String>::new());
    assert_eq!(estimated.result, "B+5.5");
}

/// Bent four in the corner is dead as it stands under Japanese rules; the
/// record's markup says so.
#[test]
fn bent_four_in_the_corner() {
    let bytes = fixture("bent-four-in-the-corner.sgf");
    let s = score(&bytes, &defaults());
    assert_eq!(s.dead_stones_from, "markup");
    assert_count(&s, side(22, 16, 0, 7, 29.0), side(32, 10, 0, 0, 38.5), "W+9.5", Some(true));
    let mut dead = s.dead_stones.clone();
    dead.sort();
    assert_eq!(dead, ["fh", "fi", "gh", "hf", "hg", "hh", "if"]);
    // The estimator knows the shape: the playouts alone keep it as a seki.
    let estimated = score(&bytes, &ScoreOptions { dead_stones: DeadStones::Estimate, ..defaults() });
    let mut dead = estimated.dead_stones.clone();
    dead.sort();
    assert_eq!(dead, ["fh", "fi", "gh", "hf", "hg", "hh", "if"]);
    assert_eq!(estimated.result, "W+9.5");
}

/// Dame left unfilled count for nobody, under territory and area counting.
#[test]
fn dame_left_unfilled() {
    let bytes = fixture("dame-left-unfilled.sgf");
    let none = ScoreOptions { dead_stones: DeadStones::None, ..defaults() };
    let s = score(&bytes, &none);
    assert_count(&s, side(36, 9, 0, 0, 36.0), side(24, 9, 0, 0, 30.5), "B+5.5", Some(true));
    let map = owners(&s);
    for p in [(4, 2), (5, 5), (6, 8)] {
        assert_eq!(map[&p], '.', "{p:?} is dame\n{}", drawn(&s));
    }
    let chinese = score(&bytes, &ScoreOptions { rules: rules("chinese"), ..none });
    assert_count(&chinese, side(36, 9, 0, 0, 45.0), side(24, 9, 0, 0, 39.5), "B+5.5", Some(true));
    assert_eq!(score(&bytes, &defaults()).result, "B+5.5", "the estimator finds no dead stone");
}

/// A chain with one liberty on a dame and one in its own territory must
/// connect there once the dame is filled: that point is not territory
/// (territory counting only).
#[test]
fn necessary_connection_after_dame() {
    let bytes = fixture("necessary-connection-after-dame.sgf");
    let none = ScoreOptions { dead_stones: DeadStones::None, ..defaults() };
    let s = score(&bytes, &none);
    assert_count(&s, side(27, 9, 0, 0, 27.0), side(33, 10, 0, 0, 39.5), "W+12.5", Some(true));
    assert_eq!(owners(&s)[&(3, 8)], '-', "D1 is no territory\n{}", drawn(&s));
    let chinese = score(&bytes, &ScoreOptions { rules: rules("chinese"), ..none });
    assert_count(&chinese, side(28, 9, 0, 0, 37.0), side(33, 10, 0, 0, 49.5), "W+12.5", Some(true));
}

/// A KGS record: KGS's results keep a point a single dame forces as
/// territory, and kifu counts KGS records so, with the `connection-counted`
/// note; `--connections every` (Japanese rules as written) connects, as a
/// record not from KGS does.
#[test]
fn kgs_keeps_a_point_a_single_dame_forces() {
    let bytes = fixture("kgs-one-dame-connection.sgf");
    let s = score(&bytes, &ScoreOptions { dead_stones: DeadStones::None, ..defaults() });
    assert_eq!((s.result.as_str(), s.agrees), ("B+0.5", Some(true)), "\n{}", drawn(&s));
    assert_eq!(owners(&s)[&(0, 0)], 'b', "A4 is Black's\n{}", drawn(&s));
    assert!(s.diagnostics.iter().any(|d| d.code == Code::ConnectionCounted), "{:?}", s.diagnostics);
    let plain = String::from_utf8_lossy(&bytes).replace("PC[The KGS Go Server at http://www.gokgs.com/]", "");
    let japanese = score(plain.as_bytes(), &ScoreOptions { dead_stones: DeadStones::None, ..defaults() });
    assert_eq!((japanese.result.as_str(), japanese.agrees), ("W+0.5", Some(false)), "\n{}", drawn(&japanese));
    let out = kifu()
        .args(["score", "--format", "json", "--dead-stones", "none", "--connections", "every", "fixtures/score/kgs-one-dame-connection.sgf"])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_str(String::from_utf8(out.stdout).unwrap().lines().next().unwrap()).unwrap();
    assert_eq!((out.status.code(), doc["result"].as_str()), (Some(1), Some("W+0.5")));
}

/// The same with two dame: the opponent can fill both, and filling either
/// links the chain to nothing, so the connection inside is still forced.
#[test]
fn connection_after_two_dame() {
    let bytes = fixture("connection-after-two-dame.sgf");
    let none = ScoreOptions { dead_stones: DeadStones::None, ..defaults() };
    let s = score(&bytes, &none);
    assert_count(&s, side(18, 12, 0, 0, 18.0), side(34, 14, 0, 0, 40.5), "W+22.5", Some(true));
    assert_eq!(owners(&s)[&(0, 4)], '-', "A5 is no territory\n{}", drawn(&s));
    assert_eq!(score(&bytes, &defaults()).result, "W+22.5", "the estimator finds no dead stone");
    let chinese = score(&bytes, &ScoreOptions { rules: rules("chinese"), ..none });
    assert_count(&chinese, side(18, 12, 0, 0, 30.0), side(35, 14, 0, 0, 55.5), "W+25.5", Some(false));
}

/// A chain's only territory liberty is an eye its own stones surround:
/// filling it would be suicide, so once the opponent threatens to fill the
/// dame the owner fills a dame instead, and the eye stays territory.
#[test]
fn eye_is_not_a_connection() {
    let bytes = fixture("eye-is-not-a-connection.sgf");
    let none = ScoreOptions { dead_stones: DeadStones::None, ..defaults() };
    let s = score(&bytes, &none);
    assert_count(&s, side(19, 16, 0, 0, 19.0), side(13, 29, 0, 0, 19.5), "W+0.5", Some(true));
    assert_eq!(owners(&s)[&(4, 8)], 'b', "E1 is Black's territory\n{}", drawn(&s));
}

/// Equal scores: a draw by default, White's win where ties go to White.
#[test]
fn ties_to_white() {
    let bytes = fixture("ties-to-white.sgf");
    let none = ScoreOptions { dead_stones: DeadStones::None, ..defaults() };
    let s = score(&bytes, &none);
    assert_count(&s, side(27, 9, 0, 0, 27.0), side(27, 9, 0, 0, 27.0), "0", Some(true));
    assert_eq!(s.winner, None);
    let white = score(&bytes, &ScoreOptions { rules: RuleOverrides { ties: Some(Ties::White), ..none.rules }, ..none });
    assert_count(&white, side(27, 9, 0, 0, 27.0), side(27, 9, 0, 0, 27.0), "W+0", Some(false));
    assert_eq!(white.winner, Some("W"));
}

/// Handicap compensation under area counting: Chinese 1 point a stone, AGA
/// stones - 1, `--handicap-bonus` replaces both; none under territory.
#[test]
fn handicap_bonus_chinese_vs_aga() {
    let bytes = fixture("handicap-bonus-chinese-vs-aga.sgf");
    let none = ScoreOptions { dead_stones: DeadStones::None, ..defaults() };
    let black = side(42, 14, 0, 0, 56.0);
    let chinese = score(&bytes, &none);
    assert_count(&chinese, black.clone(), side(16, 9, 0, 0, 28.5), "B+27.5", Some(true));
    assert_eq!(chinese.handicap_bonus, 3.0);
    let aga = score(&bytes, &ScoreOptions { rules: rules("aga"), ..none.clone() });
    assert_count(&aga, black.clone(), side(16, 9, 0, 0, 27.5), "B+28.5", Some(false));
    assert_eq!(aga.handicap_bonus, 2.0);
    let zero = score(&bytes, &ScoreOptions { handicap_bonus: Some(0.0), ..none.clone() });
    assert_count(&zero, black, side(16, 9, 0, 0, 25.5), "B+30.5", Some(false));
    let japanese = score(&bytes, &ScoreOptions { rules: rules("japanese"), ..none });
    assert_count(&japanese, side(42, 14, 0, 0, 42.0), side(16, 9, 0, 0, 16.5), "B+25.5", Some(false));
    assert_eq!(japanese.handicap_bonus, 0.0);
}

/// Fox writes komi x100 (KM[375] = 3.75 stones = 7.5 points) and then the
/// margin in stones (RE[B+2.75] = 5.5 points).
#[test]
fn fox_komi_x100() {
    let bytes = fixture("fox-komi-x100.sgf");
    let s = score(&bytes, &ScoreOptions { dead_stones: DeadStones::None, ..defaults() });
    assert_eq!(s.komi, 7.5);
    assert_count(&s, side(37, 10, 0, 0, 47.0), side(25, 9, 0, 0, 41.5), "B+5.5", Some(true));
    assert_eq!(s.recorded.as_deref(), Some("B+2.75"));
}

/// Markup that lists only the empty points of each territory: the stones
/// left unmarked inside it, with no liberty elsewhere, are dead.
#[test]
fn markup_of_empty_points_only() {
    let s = score(&fixture("markup-empty-points-only.sgf"), &defaults());
    assert_eq!(s.dead_stones_from, "markup");
    assert_eq!(s.dead_stones, ["bb", "hh"]);
    assert_count(&s, side(37, 10, 0, 1, 38.0), side(25, 9, 0, 1, 26.0), "B+12", Some(true));
}

/// Fox writes KM[0] for even games it played with 6.5 komi: kifu scores
/// them with 6.5, says so, and keeps 0 where the game has a handicap, is
/// not from Fox, or `--komi` says so.
#[test]
fn fox_even_game_km0_is_6_5() {
    let bytes = fixture("fox-even-game-km0.sgf");
    let none = ScoreOptions { dead_stones: DeadStones::None, ..defaults() };
    let s = score(&bytes, &none);
    assert_eq!(s.komi, 6.5);
    assert_count(&s, side(37, 10, 0, 0, 37.0), side(25, 9, 0, 0, 31.5), "B+5.5", Some(true));
    assert!(s.diagnostics.iter().any(|d| d.code.name() == "komi-assumed"), "{:?}", s.diagnostics);

    let text = std::str::from_utf8(&bytes).unwrap();
    for (what, changed) in [
        ("handicap", text.replace("HA[0]", "HA[2]")),
        ("not Fox", text.replace("AP[foxwq]", "").replace("TC[3]TT[30]", "")),
        ("Chinese rules", text.replace("RU[Japanese]", "RU[Chinese]")),
    ] {
        assert_eq!(score(changed.as_bytes(), &none).komi, 0.0, "{what}");
    }
    assert_eq!(score(&bytes, &ScoreOptions { rules: RuleOverrides { komi: Some(0.0), ..none.rules }, ..none }).result, "B+12");
}

/// A seki with an eye each: KGS (the record says KGS) leaves out the eye
/// surrounded by chains at the seki dame only (E1), and counts the one a
/// chain with its own life also surrounds (A1); Art. 8 leaves out both, and
/// `--seki-eyes` chooses any of the three.
#[test]
fn seki_eyes_kgs_and_japanese() {
    let none = ScoreOptions { dead_stones: DeadStones::None, ..defaults() };
    let kgs = fixture("kgs-seki-eyes.sgf");
    let (a1, e1) = ((0, 8), (4, 8));
    let s = score(&kgs, &none);
    assert_count(&s, side(13, 21, 0, 0, 13.0), side(27, 18, 0, 0, 33.5), "W+20.5", Some(true));
    assert_eq!(s.seki_points, ["ci"]);
    assert_eq!((owners(&s)[&a1], owners(&s)[&e1]), ('b', '-'));
    let art8 = score(&kgs, &ScoreOptions { rules: RuleOverrides { seki_eyes: Some(SekiEyes::None), ..none.rules }, ..none.clone() });
    assert_count(&art8, side(12, 21, 0, 0, 12.0), side(27, 18, 0, 0, 33.5), "W+21.5", Some(false));
    assert_eq!((owners(&art8)[&a1], owners(&art8)[&e1]), ('-', '-'));
    let counted = score(&kgs, &ScoreOptions { rules: RuleOverrides { seki_eyes: Some(SekiEyes::Count), ..none.rules }, ..none.clone() });
    assert_count(&counted, side(13, 21, 0, 0, 13.0), side(28, 18, 0, 0, 34.5), "W+21.5", Some(false));

    // The one-eye-each seki without KGS: Art. 8 leaves out both eyes, as
    // KGS would (each is surrounded by a chain at the seki dame only).
    let japanese = fixture("japanese-seki-eyes-not-counted.sgf");
    let s = score(&japanese, &none);
    assert_count(&s, side(34, 18, 0, 0, 34.0), side(12, 14, 0, 0, 18.5), "B+15.5", Some(true));
    let (a1, e1) = ((0, 8), (4, 8));
    assert_eq!((owners(&s)[&a1], owners(&s)[&e1]), ('-', '-'));
    let as_kgs = score(&japanese, &ScoreOptions { rules: RuleOverrides { seki_eyes: Some(SekiEyes::Kgs), ..none.rules }, ..none.clone() });
    assert_count(&as_kgs, side(34, 18, 0, 0, 34.0), side(12, 14, 0, 0, 18.5), "B+15.5", Some(true));
    let counted = score(&japanese, &ScoreOptions { rules: RuleOverrides { seki_eyes: Some(SekiEyes::Count), ..none.rules }, ..none });
    assert_count(&counted, side(35, 18, 0, 0, 35.0), side(13, 14, 0, 0, 19.5), "B+15.5", Some(true));
}

// ---------------------------------------------------------------------------
// The command line

/// `kifu score --format json` on a fixture: the exit status and the one
/// game's JSON.
fn kifu_score(file: &str, args: &[&str]) -> (Option<i32>, Value) {
    let out = kifu().args(["score", "--format", "json"]).args(args).arg(format!("fixtures/score/{file}")).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let doc = serde_json::from_str(text.lines().next().unwrap_or_else(|| panic!("no output: {}", String::from_utf8_lossy(&out.stderr)))).unwrap();
    (out.status.code(), doc)
}

/// (Black's territory, White's territory, result) of a game's JSON.
fn territories(doc: &Value) -> (u64, u64, String) {
    (doc["black"]["territory"].as_u64().unwrap(), doc["white"]["territory"].as_u64().unwrap(), doc["result"].as_str().unwrap().to_string())
}

/// An open ko at the end is a connection its owner makes: one point less,
/// not a seki that takes the whole group's territory (issue 16).
#[test]
fn living_group_with_open_ko() {
    let (code, doc) = kifu_score("living-group-with-open-ko.sgf", &["--dead-stones", "none", "--rules", "japanese"]);
    assert_eq!((code, territories(&doc)), (Some(0), (54, 3, "B+51".to_string())), "{doc}");
    assert_eq!(doc["seki_points"], serde_json::json!([]));
    // Area counting fills nothing: the ko point is White's.
    let (_, doc) = kifu_score("living-group-with-open-ko.sgf", &["--dead-stones", "none", "--rules", "chinese"]);
    assert_eq!(territories(&doc), (54, 4, "B+47".to_string()), "{doc}");
}

/// The button (`Rules::button`): half a point to the first player to
/// pass, Black here; the group tax (`Tax::All`): two points a living group.
#[test]
fn button_and_group_tax() {
    let bytes = fixture("living-group-with-open-ko.sgf");
    let with = |rules: Rules| ScoreOptions { rules: RuleOverrides { rules: Some(rules), ..Default::default() }, dead_stones: DeadStones::None, ..defaults() };
    let chinese = Rules::preset("chinese").unwrap();
    let s = score(&bytes, &with(Rules { button: true, ..chinese }));
    assert_eq!((s.black.total, s.white.total, s.result.as_str()), (64.5, 17.0, "B+47.5"));
    // One group each: Black's territory 54 - 2, White's 4 - 2.
    let s = score(&bytes, &with(Rules { tax: kifu::rules::Tax::All, ..chinese }));
    assert_eq!((s.black.territory, s.white.territory, s.result.as_str()), (52, 2, "B+47"));
}

/// KataGo rule strings in `RU[]` decide the count, setting by setting: the
/// hand-scored fixtures above with their `RU[Japanese]` replaced.
#[test]
fn katago_rule_strings_change_the_count() {
    let scored = |file: &str, ru: &str| {
        let sgf = String::from_utf8(fixture(file)).unwrap().replace("RU[Japanese]", &format!("RU[{ru}]"));
        let out = kifu().args(["score", "--format", "json", "--dead-stones", "none", "-"]).write_stdin(sgf).output().unwrap();
        territories(&serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{ru}: {e}")))
    };
    let open_ko = "living-group-with-open-ko.sgf";
    // Territory counting: the open ko filled (White 4 - 1); taxALL takes 2 a group more.
    assert_eq!(scored(open_ko, "koSIMPLEscoreTERRITORYtaxSEKIsui0"), (54, 3, "B+51".into()));
    assert_eq!(scored(open_ko, "koSIMPLEscoreTERRITORYtaxALLsui0"), (52, 1, "B+51".into()));
    // Area counting fills nothing; taxALL still takes 2 a group.
    assert_eq!(scored(open_ko, "koPOSITIONALscoreAREAtaxNONEsui1"), (54, 4, "B+47".into()));
    assert_eq!(scored(open_ko, "koPOSITIONALscoreAREAtaxALLsui1"), (52, 2, "B+47".into()));
    // The seki tax: taxSEKI leaves the eyes of the double-ko seki to no one, taxNONE counts them.
    assert_eq!(scored("double-ko-seki.sgf", "koSIMPLEscoreTERRITORYtaxSEKIsui0"), (34, 0, "B+34".into()));
    assert_eq!(scored("double-ko-seki.sgf", "koSIMPLEscoreTERRITORYtaxNONEsui0"), (36, 2, "B+34".into()));
}

/// A group with two eyes beside a seki keeps its eyes; the seki dame are
/// no one's.
#[test]
fn two_eyed_group_beside_a_seki() {
    let (code, doc) = kifu_score("two-eyed-group-beside-a-seki.sgf", &["--dead-stones", "none"]);
    assert_eq!((code, territories(&doc)), (Some(0), (36, 2, "B+34".to_string())), "{doc}");
    assert_eq!(doc["seki_points"], serde_json::json!(["ai", "ei"]));
    let (_, doc) = kifu_score("two-eyed-group-beside-a-seki.sgf", &["--dead-stones", "none", "--rules", "chinese"]);
    assert_eq!((doc["black"]["total"].as_f64(), doc["white"]["total"].as_f64(), doc["result"].as_str()), (Some(52.0), Some(27.0), Some("B+25")));
}

/// A double-ko seki: neither ko can be connected, so it is a seki, and
/// under Art. 8 every eye of both groups is no one's.
#[test]
fn double_ko_seki() {
    let (code, doc) = kifu_score("double-ko-seki.sgf", &["--dead-stones", "none"]);
    assert_eq!((code, territories(&doc)), (Some(0), (34, 0, "B+34".to_string())), "{doc}");
    let (_, doc) = kifu_score("double-ko-seki.sgf", &["--dead-stones", "none", "--seki-eyes", "count"]);
    assert_eq!(territories(&doc), (36, 2, "B+34".to_string()), "{doc}");
}

/// A ten-thousand-year ko left open at the end is a seki (commentary to
/// the Japanese rules, Life and Death example 12): nothing is dead, the
/// dame and Black's eye are no one's; area counting counts the eye.
#[test]
fn ten_thousand_year_ko() {
    for dead_stones in ["none", "estimate"] {
        let (code, doc) = kifu_score("ten-thousand-year-ko.sgf", &["--dead-stones", dead_stones]);
        assert_eq!((code, territories(&doc)), (Some(0), (0, 52, "W+52".to_string())), "{doc}");
        assert_eq!((&doc["seki_points"], &doc["dead_stones"]), (&serde_json::json!(["ai", "ci"]), &serde_json::json!([])), "{doc}");
    }
    let (_, doc) = kifu_score("ten-thousand-year-ko.sgf", &["--dead-stones", "none", "--rules", "chinese"]);
    assert_eq!((doc["black"]["total"].as_f64(), doc["white"]["total"].as_f64(), doc["result"].as_str()), (Some(9.0), Some(69.0), Some("W+60")));
}

fn kifu() -> Command {
    let mut cmd = Command::cargo_bin("kifu").unwrap();
    cmd.current_dir(manifest());
    cmd
}

/// `kifu score --format json`: one object per game with the documented
/// field names.
#[test]
fn score_json_fields() {
    let out = kifu().args(["score", "--format", "json", "--ties", "white", "fixtures/score/territory-counting-ties-to-white.sgf"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1, "one line per game: {text}");
    let doc: Value = serde_json::from_str(lines[0]).unwrap();
    for field in ["file", "game", "rules", "komi", "black", "white", "dead_stones", "seki_points", "winner", "margin", "result", "recorded", "agrees"] {
        assert!(doc.get(field).is_some(), "no {field} in {doc}");
    }
    for color in ["black", "white"] {
        for field in ["territory", "stones", "prisoners", "dead", "total"] {
            assert!(doc[color].get(field).is_some(), "no {color}.{field} in {doc}");
        }
    }
    assert_eq!(doc["file"], "fixtures/score/territory-counting-ties-to-white.sgf");
    assert_eq!(doc["game"], 0);
    assert_eq!(doc["rules"], "japanese");
    assert_eq!(doc["komi"], 0.0);
    assert_eq!(doc["black"]["total"], 32.0);
    assert_eq!(doc["white"]["total"], 23.0);
    assert_eq!(doc["black"]["prisoners"], 1);
    assert_eq!(doc["white"]["dead"], 6);
    assert_eq!(doc["dead_stones"].as_array().map(Vec::len), Some(15));
    assert_eq!(doc["seki_points"], serde_json::json!([]));
    assert_eq!((doc["winner"].as_str(), doc["margin"].as_f64()), (Some("B"), Some(9.0)));
    assert_eq!((doc["result"].as_str(), doc["recorded"].as_str(), doc["agrees"].as_bool()), (Some("B+9"), Some("B+9"), Some(true)));
}

/// `--seki-eyes` on the command line: KGS's rule by default for a KGS
/// record (with the `seki-eyes-counted` note), and each rule on request;
/// the exit status says whether the recount agrees with RE.
#[test]
fn seki_eyes_flag() {
    let result = |extra: &[&str]| {
        let out = kifu().args(["score", "--format", "json", "--dead-stones", "none"]).args(extra).arg("fixtures/score/kgs-seki-eyes.sgf").output().unwrap();
        let doc: Value = serde_json::from_str(String::from_utf8(out.stdout).unwrap().lines().next().unwrap()).unwrap();
        (out.status.code(), doc["result"].as_str().unwrap().to_string())
    };
    assert_eq!(result(&[]), (Some(0), "W+20.5".to_string()));
    assert_eq!(result(&["--seki-eyes", "kgs"]), (Some(0), "W+20.5".to_string()));
    assert_eq!(result(&["--seki-eyes", "none"]), (Some(1), "W+21.5".to_string()));
    assert_eq!(result(&["--seki-eyes", "count"]), (Some(1), "W+21.5".to_string()));
    let text = kifu().args(["score", "--dead-stones", "none", "fixtures/score/kgs-seki-eyes.sgf"]).output().unwrap();
    assert!(String::from_utf8_lossy(&text.stdout).contains("info[seki-eyes-counted]"), "{}", String::from_utf8_lossy(&text.stdout));
}

/// `kifu check --score`: result-mismatch when RE disagrees with the
/// recount, result-syntax when RE is not a result.
#[test]
fn check_score_codes() {
    let codes = |file: &str| -> Vec<String> {
        let out = kifu().args(["check", "--score", "--format", "json", file]).output().unwrap();
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{file}: {e}: {}", String::from_utf8_lossy(&out.stdout)));
        doc["diagnostics"].as_array().unwrap().iter().map(|d| d["code"].as_str().unwrap().to_string()).collect()
    };
    assert_eq!(codes("fixtures/score/result-mismatch.sgf"), ["result-mismatch"]);
    assert_eq!(codes("fixtures/score/result-syntax.sgf"), ["result-syntax"]);
    assert_eq!(codes("fixtures/score/ties-to-white.sgf"), Vec::<String>::new());
    // Without --score, RE is not compared.
    kifu().args(["check", "fixtures/score/result-mismatch.sgf"]).assert().code(0);
}

// ---------------------------------------------------------------------------
// KataGo: the same 7x7 final position under Tromp-Taylor and Chinese rules

#[test]
fn katago_7x7_tromp_taylor_and_chinese() {
    let Some(dir) = common::corpus_dir("suites") else { return };
    let script = String::from_utf8(read(&dir.join("katago/cpp/tests/gtp/printsgffinalscore.txt"))).unwrap();
    let mut size = 19;
    let mut komi = 7.5;
    let mut moves = String::new();
    for line in script.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["boardsize", n] => size = n.parse().unwrap(),
            ["komi", k] => komi = k.parse().unwrap(),
            ["play", color, point] => {
                let c = if color.eq_ignore_ascii_case("b") { 'B' } else { 'W' };
                let p = gtp_point(point, size).map(|p| p.to_sgf()).unwrap_or_default();
                moves.push_str(&format!(";{c}[{p}]"));
            }
            _ => {}
        }
    }
    let sgf = format!("(;GM[1]FF[4]SZ[{size}]KM[{komi}]{moves})");
    assert!(sgf.ends_with(";W[];B[])"), "the script ends with two passes: {sgf}");
    // KataGo's printed results, RE[B+20] under Tromp-Taylor, RE[B+7] under Chinese.
    let printed = String::from_utf8(read(&dir.join("katago/cpp/tests/results/gtp/printsgffinalscore.txt.stdout"))).unwrap();
    let expected = |ru: &str| -> String {
        let line = printed.lines().find(|l| l.contains(&format!("RU[{ru}]RE["))).unwrap_or_else(|| panic!("no RE under {ru}"));
        line.split("RE[").nth(1).unwrap().split(']').next().unwrap().to_string()
    };
    assert_eq!((expected("TrompTaylor"), expected("Chinese")), ("B+20".to_string(), "B+7".to_string()));

    let tt = score(sgf.as_bytes(), &ScoreOptions { rules: rules("tromp-taylor"), ..defaults() });
    assert_eq!(tt.dead_stones_from, "none", "Tromp-Taylor has no dead-stone phase");
    assert_count(&tt, side(19, 10, 0, 0, 29.0), side(0, 9, 0, 0, 9.0), "B+20", None);
    let chinese = score(sgf.as_bytes(), &ScoreOptions { rules: rules("chinese"), ..defaults() });
    assert_eq!(chinese.dead_stones, ["fc"], "F5 is dead");
    assert_count(&chinese, side(19, 9, 0, 0, 28.0), side(12, 9, 0, 1, 21.0), "B+7", None);
}

// ---------------------------------------------------------------------------
// KGS: the server's own counts

/// The KGS games whose last node has the server's territory markup and
/// whose RE has a margin: the markup recount reproduces RE (issue 4: at
/// least 99.5%), and so does a flood fill of the same positions with the
/// markup's dead stones, once the connections the dame force are left out
/// of the territory (a plain flood fill: about 92%).
#[test]
fn kgs_markup_counts() {
    let Some(dir) = common::corpus_dir("kgs") else { return };
    let (mut games, mut markup_agrees, mut flood_fill_agrees) = (0, 0, 0);
    let mut misses = Vec::new();
    for path in common::sgf_files(&dir) {
        let bytes = read(&path);
        for game in sgf::parse(&bytes, &Default::default()).collection.games {
            let end = game.main_line().last().expect("a root");
            if !(end.has("TB") || end.has("TW")) {
                continue;
            }
            let markup = score_game(&game, &ScoreOptions { dead_stones: DeadStones::Markup, ..defaults() }).expect("a board");
            if markup.agrees.is_none() {
                continue;
            }
            let dead = markup.dead_stones.iter().map(|p| Point::parse(p).expect("a point")).collect();
            let flood_fill = score_game(&game, &ScoreOptions { dead_stones: DeadStones::Points(dead), ..defaults() }).expect("a board");
            games += 1;
            markup_agrees += usize::from(markup.agrees == Some(true));
            flood_fill_agrees += usize::from(flood_fill.agrees == Some(true));
            if flood_fill.agrees != Some(true) {
                misses.push(format!("  {}: RE {:?}, markup {}, flood fill {}", path.display(), markup.recorded, markup.result, flood_fill.result));
            }
        }
    }
    eprintln!("KGS games with markup: {games}; recount agrees on {markup_agrees}, flood fill on {flood_fill_agrees}\n{}", misses.join("\n"));
    assert!(games >= 500, "the corpus has over 500 such games: {games}");
    assert!(markup_agrees * 1000 >= games * 995, "markup: {markup_agrees} of {games}");
    assert!(flood_fill_agrees * 100 >= games * 99, "flood fill: {flood_fill_agrees} of {games}");
}

/// Some twenty white stones in Black's lower left, around a six-point space
/// with a stone inside, a two-point eye and a one-point eye: the playouts
/// kill them; read to the end (`score::life`), Black moving first cannot
/// capture any of their chains, and the count is RE's.
#[test]
fn kgs_group_the_playouts_kill_lives_when_read_to_the_end() {
    let Some(dir) = common::corpus_dir("kgs/KGS2002") else { return };
    let out = kifu().args(["score", "--format", "json", "--dead-stones", "estimate"]).arg(dir.join("2002-08-07-7.sgf")).output().unwrap();
    let doc: Value = serde_json::from_str(String::from_utf8(out.stdout).unwrap().lines().next().expect("a game")).unwrap();
    assert_eq!((doc["result"].as_str(), doc["agrees"].as_bool()), (Some("W+39.5"), Some(true)), "{doc}");
    let dead: Vec<&str> = doc["dead_stones"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    for white in ["bn", "ep", "ip", "ar", "gr", "cs"] {
        assert!(!dead.contains(&white), "{white} is alive: {dead:?}");
    }
}

// ---------------------------------------------------------------------------
// GNU Go: score.tst and score2.tst, 57 final scores

/// GNU Go scores with its default rules (Japanese, territory) and the SGF's
/// komi; kifu with its defaults for the file (RU, else Japanese; the dead
/// stones from the estimator). Some positions are unfinished, and GNU Go
/// plays them out before counting: docs/accuracy.md explains each miss.
#[test]
fn gnugo_final_scores() {
    let Some(dir) = common::corpus_dir("suites") else { return };
    let dir = dir.join("gnugo/regression");
    let mut cases = Vec::new();
    for tst in ["score.tst", "score2.tst"] {
        cases.extend(gtp_cases(&String::from_utf8(read(&dir.join(tst))).unwrap(), "final_score"));
    }
    assert_eq!(cases.len(), 57, "57 final_score expectations");
    let mut agree = 0;
    let mut misses = Vec::new();
    let mut table = String::from("| case | expected | kifu | finished | unsure chains |\n|---|---|---|---|---|\n");
    let mut missed = Vec::new();
    for case in &cases {
        let s = score(load(&dir, case).as_bytes(), &defaults());
        if s.result == case.expected {
            agree += 1;
        } else {
            let star = if case.known_failure { " `*`" } else { "" };
            missed.push(stem(&case.file));
            table += &format!(
                "| {}{star} | {} | {} | {} | {} |\n",
                stem(&case.file),
                case.expected,
                s.result,
                if s.finished { "yes" } else { "no" },
                s.unsure.len()
            );
            misses.push(format!(
                "  {} {}: expected {}{}, kifu {} ({}finished, {} unsure chains)",
                case.id,
                case.file,
                case.expected,
                if case.known_failure { " (a known GNU Go failure)" } else { "" },
                s.result,
                if s.finished { "" } else { "not " },
                s.unsure.len()
            ));
        }
    }
    eprintln!("GNU Go score.tst + score2.tst: kifu agrees on {agree} of {}", cases.len());
    for m in &misses {
        eprintln!("{m}");
    }
    // Issue 16: at least 54 of 57; every miss is explained in docs/accuracy.md.
    assert!(agree >= 54, "at least 54 of 57: {agree}\n{}", misses.join("\n"));
    table += &format!("\n**{agree} of {}** agree.\n", cases.len());
    if estimate_seed() != 0 {
        return;
    }
    common::check_generated_part("docs/accuracy.md", "gnugo-final-scores", &table);
    let doc = String::from_utf8(read(&manifest().join("docs/accuracy.md"))).unwrap();
    let unexplained: Vec<&String> = missed.iter().filter(|stem| !doc.contains(&format!("\n- {stem}"))).collect();
    assert!(unexplained.is_empty(), "docs/accuracy.md explains no miss of {unexplained:?} (a line `- CASE: why` under the GNU Go table)");
}

// ---------------------------------------------------------------------------
// Fuego: scoring_final.tst (Chinese rules) and scoring_static.tst

#[test]
fn fuego_scoring() {
    let Some(dir) = common::corpus_dir("suites") else { return };
    let dir = dir.join("fuego/regression");
    let finals = gtp_cases(&String::from_utf8(read(&dir.join("scoring_final.tst"))).unwrap(), "final_score");
    let statics = gtp_cases(&String::from_utf8(read(&dir.join("scoring_static.tst"))).unwrap(), "static_score");
    assert_eq!((finals.len(), statics.len()), (2, 30));
    let mut agree = 0;
    let mut misses = Vec::new();
    let mut table = String::from("| case | command | expected | kifu |\n|---|---|---|---|\n");
    for case in finals.iter().chain(&statics) {
        // final_score: Fuego's Chinese rules with dead stones; static_score:
        // the board as it stands, by area (Tromp-Taylor) or by territory.
        let options = match case.command.as_str() {
            "final_score" => ScoreOptions { rules: rules("chinese"), ..defaults() },
            "static_score tromp_taylor_score" => ScoreOptions { rules: rules("tromp-taylor"), dead_stones: DeadStones::None, ..defaults() },
            "static_score japanese_score" => ScoreOptions { rules: rules("japanese"), dead_stones: DeadStones::None, ..defaults() },
            other => panic!("unknown command {other}"),
        };
        let s = score(load(&dir, case).as_bytes(), &options);
        if s.result == case.expected {
            agree += 1;
        } else {
            table += &format!("| {} | {} | {} | {} |\n", stem(&case.file), case.command, case.expected, s.result);
            misses.push(format!("  {} {} {:?} {}: expected {}, kifu {}", case.id, case.file, case.before_move, case.command, case.expected, s.result));
        }
    }
    let total = finals.len() + statics.len();
    eprintln!("Fuego scoring_final.tst + scoring_static.tst: kifu agrees on {agree} of {total}");
    for m in &misses {
        eprintln!("{m}");
    }
    assert!(agree * 10 >= total * 9, "at least 90%: {agree} of {total}\n{}", misses.join("\n"));
    table += &format!("\n**{agree} of {total}** agree.\n");
    if estimate_seed() != 0 {
        return;
    }
    common::check_generated_part("docs/accuracy.md", "fuego-scores", &table);
}

// ---------------------------------------------------------------------------
// Seki: no territory inside a seki

/// Seki positions of GNU Go's `seki.tst` and `games/seki_exotics`, and of
/// Fuego's seki tests (`eval_seki.tst`, `static_safety_seki.tst`,
/// `uct_seki.tst`), each played out to two passes by GNU Go 3.8 (`genmove`
/// for both sides from the position the test loads; a position that loops
/// in kos is taken as loaded) where that ended in a seki. The table keeps the moves GNU Go played, its
/// `final_status_list seki` and `final_status_list dead`: kifu, given
/// those dead stones and Japanese rules (Art. 8), must count no point next
/// to a stone in seki as territory and must not call a seki stone dead.
/// Regenerate with `python3 benches/accuracy.py --seki-cases` (GNU Go does not
/// play quite the same moves on every run).
struct SekiCase {
    suite: &'static str,
    file: &'static str,
    /// `loadsgf FILE N`.
    before_move: Option<usize>,
    /// GTP moves, `B D4` or `W PASS`, comma separated.
    moves: &'static str,
    seki: &'static str,
    dead: &'static str,
}

/// Positions whose seki kifu's counting does not see, and why.
const SEKI_EXCEPTIONS: &[(&str, &str)] = &[(
    "games/seki_exotics/threeko3.sgf",
    "a seki held by three kos: no shared liberty is a seki dame (B5 can be filled without self-atari) \
     and a triple ko leaves the game without result under Japanese rules (Art. 12)",
)];

/// Generated (see above); GTP coordinates.
#[rustfmt::skip]
const SEKI_CASES: &[SekiCase] = &[
    // SEKI_CASES_BEGIN
    SekiCase { suite: "gnugo", file: "games/seki04.sgf", before_move: None, moves: "W B2, B A2, W B1, B C9, W PASS, B PASS", seki: "A4 B4 B3 C3 C2 D2 D1 A2 B2 B1", dead: "" },
    SekiCase { suite: "gnugo", file: "games/seki05.sgf", before_move: None, moves: "W C2, B B2, W B1, B D1, W C1, B A2, W C9, B PASS, W PASS", seki: "A3 B3 C3 D3 E3 A2 B2 E2 D1 E1 C2 B1 C1", dead: "" },
    SekiCase { suite: "gnugo", file: "games/seki06.sgf", before_move: None, moves: "W B2, B A2, W B1, B C1, W C9, B PASS, W PASS", seki: "A4 B4 B3 C3 D3 D2 C1 D1 A2 B2 B1", dead: "A9 B9" },
    SekiCase { suite: "gnugo", file: "games/seki07.sgf", before_move: None, moves: "W B2, B A2, W C1, B C2, W B1, B C9, W PASS, B PASS", seki: "A4 B4 B3 C3 D3 C2 D2 E2 E1 A2 B2 B1 C1", dead: "" },
    SekiCase { suite: "gnugo", file: "games/seki10.sgf", before_move: None, moves: "W B1, B C1, W A2, B C9, W PASS, B PASS", seki: "A3 B3 C3 C2 D2 E2 C1 E1 A2 B1", dead: "" },
    SekiCase { suite: "gnugo", file: "games/seki12.sgf", before_move: None, moves: "W B2, B C2, W C1, B A2, W B3, B A3, W B1, B C9, W A8, B PASS, W PASS", seki: "A4 B4 C4 A3 C3 D3 A2 C2 D2 E2 E1 B3 B2 B1 C1", dead: "" },
    SekiCase { suite: "gnugo", file: "games/seki14.sgf", before_move: None, moves: "W B2, B C9, W A8, B PASS, W PASS", seki: "A5 B5 B4 A3 B3 B2 C2 D2 E2 C1 E1 A1", dead: "" },
    SekiCase { suite: "gnugo", file: "games/seki16.sgf", before_move: None, moves: "W B2, B C2, W C1, B B3, W A3, B C9, W PASS, B PASS", seki: "A5 B5 B4 C4 B3 C3 D3 C2 D2 E2 E1 A3 B2 C1", dead: "" },
    SekiCase { suite: "gnugo", file: "games/seki_nakade1.sgf", before_move: None, moves: "B F3, W C3, B B2, W B3, B D2, W G7, B H6, W C7, B B6, W A9, B J9, W F7, B D7, W E7, B PASS, W PASS", seki: "A9 B9 H9 B8 C8 D8 E8 F8 G8 H8 C7 E7 F7 G7 D9 E9 F9", dead: "B3 C3" },
    SekiCase { suite: "gnugo", file: "games/seki_exotics/seki1.sgf", before_move: None, moves: "B D7, W C6, B PASS, W PASS", seki: "A2 B2 C2 D2 E2 F2 F1 B1 C1 D1", dead: "D7" },
    SekiCase { suite: "gnugo", file: "games/seki_exotics/seki2.sgf", before_move: None, moves: "B PASS, W PASS", seki: "A3 B3 C3 A2 C2 A1 B1 C1 D3 E3 F3 D2 F2 E1 F1", dead: "" },
    SekiCase { suite: "gnugo", file: "games/seki_exotics/seki3.sgf", before_move: None, moves: "B PASS, W PASS", seki: "B9 C9 E9 C8 D8 E8 A7 B7 C7 C6 D6 C5 A8", dead: "B3 A2 B2 G2" },
    SekiCase { suite: "gnugo", file: "games/seki_exotics/seki_bent4.sgf", before_move: None, moves: "W J1, B PASS, W PASS", seki: "B9 B8 D9 C8 D8 B7 C7 A6 B6 B5 C5 A8", dead: "H4 J4 H3 F2 G2 H2 F1" },
    SekiCase { suite: "gnugo", file: "games/seki_exotics/seki_score.sgf", before_move: None, moves: "B PASS, W PASS", seki: "L6 M6 A5 B5 A4 A3 B3 H5 J5 K5 J4 N5 O5 P5 O4 C4 E4 F4 G4 F3 G3 H3 L4 M4 Q4 D3 C2 D2 E2 P3 R3 S3 T3 Q2 R2 Q1 S2 T2 S1", dead: "" },
    SekiCase { suite: "gnugo", file: "games/seki_exotics/seki_stupid.sgf", before_move: None, moves: "B G7, W H6, B A1, W H7, B PASS, W PASS", seki: "A5 B5 B4 C4 D4 E4 F4 A3 B3 F3 A2 F2 A1 B1 F1 C3 D3 E3 B2 C2 E2 D1 E1", dead: "G7" },
    SekiCase { suite: "gnugo", file: "games/seki_exotics/threeko3.sgf", before_move: None, moves: "", seki: "B9 B8 B7 B6 C9 D9 C8 C7 D7 C6 C5 D5 E9 F9 F8 G8 E7 F7 F6 E5 F5 H9 J9 H8 J8 G7 H7 G6 G5 E4 F4 G4 E3 E2 E1 E8 D6 A5 B4 C4 D4 D3 D2 D1", dead: "" },
    SekiCase { suite: "gnugo", file: "games/seki_exotics/twoko_seki1.sgf", before_move: None, moves: "", seki: "A5 B5 C5 D5 E5 F5 A4 E4 F4 G4 A3 E3 G3 A2 B2 F2 G2 A1 G1 B4 C4 D4 B3 D3 C2 D2 E2 D1 C1 F1", dead: "" },
    SekiCase { suite: "gnugo", file: "games/seki_exotics/twoko_seki2.sgf", before_move: None, moves: "", seki: "A4 B4 D4 E4 F4 B3 C3 D3 F3 E3 A2 B2 D2 F2 A1 B1 C1 D1 E1 F1", dead: "" },
    SekiCase { suite: "fuego", file: "sgf/games/2007/seki-evaluation-problem.sgf", before_move: Some(53), moves: "B PASS, W PASS", seki: "F9 E8 F8 G8 E7 G7 E6 F6 H9 H8 J8 H7 G6 H6 J6 J5", dead: "A5" },
    SekiCase { suite: "fuego", file: "sgf/games/2007/seki-evaluation-problem.sgf", before_move: Some(54), moves: "W PASS, B PASS", seki: "F9 E8 F8 G8 E7 G7 E6 F6 H9 H8 J8 H7 G6 H6 J6 J5", dead: "A5" },
    SekiCase { suite: "fuego", file: "sgf/games/2007/CGOS/193838.sgf", before_move: Some(81), moves: "B J6, W A7, B A8, W PASS, B PASS", seki: "F6 G6 H6 H5 J5 H4 H3 J3 H2 J2 F5 G5 G4 F3 G3 G2 E2 E1 F1 H1", dead: "B9 D9 C8" },
    SekiCase { suite: "fuego", file: "sgf/games/2008/leela-seki-variation.sgf", before_move: Some(46), moves: "W A8, B G5, W D1, B C1, W PASS, B PASS", seki: "B9 B8 D9 C8 D8 C7 A6 B6 C6 D6 E6 A5 D5 A4 B4 A8", dead: "" },
    SekiCase { suite: "fuego", file: "sgf/games/2008/leela-seki-variation.sgf", before_move: Some(48), moves: "W A7, B G5, W D1, B C1, W D7, B PASS, W PASS", seki: "B9 B8 B7 D9 A8 C8 D8 A7 C7 D7 A6 B6 C6 D6 E6 A5 D5 A4 B4", dead: "" },
    SekiCase { suite: "fuego", file: "sgf/games/2008/leela-seki-variation.sgf", before_move: Some(58), moves: "W D7, B PASS, W PASS", seki: "B9 B8 B7 D9 A8 C8 D8 A7 C7 D7 A6 B6 C6 D6 E6 A5 D5 A4 B4", dead: "G8 H7 J7" },
    SekiCase { suite: "fuego", file: "sgf/games/2008/leela-seki-variation.sgf", before_move: Some(64), moves: "W PASS, B PASS", seki: "B9 B8 B7 D9 A8 C8 D8 A7 C7 A6 B6 C6 D6 E6 A5 D5 A4 B4", dead: "G8 J8 G7 H7 J7" },
    SekiCase { suite: "fuego", file: "sgf/games/2008/leela-seki-variation.sgf", before_move: Some(72), moves: "W PASS, B PASS", seki: "B9 B8 B7 D9 A8 C8 D8 A7 C7 A6 B6 C6 D6 E6 A5 D5 A4 B4", dead: "G8 J8 G7 H7 J7" },
    SekiCase { suite: "fuego", file: "sgf/games/2008/leela-seki-variation.sgf", before_move: Some(76), moves: "W PASS, B PASS", seki: "B9 B8 B7 D9 A8 C8 D8 A7 C7 A6 B6 C6 D6 E6 A5 D5 A4 B4", dead: "" },
    SekiCase { suite: "fuego", file: "sgf/games/2008/leela-seki-variation.sgf", before_move: Some(78), moves: "W PASS, B PASS", seki: "B9 B8 B7 D9 A8 C8 D8 A7 C7 A6 B6 C6 D6 E6 A5 D5 A4 B4", dead: "" },
    SekiCase { suite: "fuego", file: "sgf/games/2008/seki-miseval.sgf", before_move: Some(37), moves: "B H1, W J9, B F2, W B6, B B7, W B5, B A6, W A5, B A7, W E1, B E4, W D4, B F1, W E3, B PASS, W PASS", seki: "F9 G9 H9 J9 F8 H8 F7 F6 G6 G5 G4 H4 J4 G8 G7 H7 H6 J7 J5", dead: "" },
    SekiCase { suite: "fuego", file: "sgf/games/2008/KGS/7/26/Newou-Fuego9.sgf", before_move: Some(41), moves: "B G8, W B3, B C2, W D6, B E1, W G1, B E6, W C1, B D1, W B1, B C4, W D9, B E9, W C9, B PASS, W PASS", seki: "F5 G5 E4 F4 G4 H4 J4 F3 J3 F2 G2 G1 H1 H3 H2 J2", dead: "F8" },
    SekiCase { suite: "fuego", file: "sgf/games/2008/KGS/7/26/Newou-Fuego9.sgf", before_move: Some(53), moves: "B C1, W A2, B C9, W B9, B D9, W A4, B B1, W PASS, B PASS", seki: "F5 G5 E4 F4 G4 H4 J4 F3 J3 F2 G2 G1 H1 H3 H2 J2", dead: "F8" },
    SekiCase { suite: "fuego", file: "sgf/games/2008/KGS/7/25/PaperTiger-Fuego.sgf", before_move: Some(235), moves: "", seki: "M14 N14 P14 R14 M13 O13 P13 Q13 R13 S13 T13 M12 R12 M11 O11 P11 Q11 R11 M10 N10 O10 M9 O9 P9 P8 Q8 Q7 N6 Q6 N5 O5 P5 Q5 N12 O12 P12", dead: "C18 J18 J17 D5 B3 D3 D2 A2 B1 R1" },
    SekiCase { suite: "fuego", file: "sgf/games/2008/KGS/7/25/PaperTiger-Fuego.sgf", before_move: Some(345), moves: "B PASS, W PASS", seki: "Q15 M14 N14 P14 Q14 R14 M13 O13 P13 Q13 R13 S13 T13 M12 R12 M11 O11 P11 Q11 R11 M10 N10 O10 R10 M9 O9 P9 P8 Q8 Q7 R7 N6 Q6 N5 O5 P5 Q5 M4 N4 N12 O12 P12", dead: "F5 G5 H5 J5 G4 D1" },
    SekiCase { suite: "fuego", file: "sgf/games/2008/KGS/7/28/dege-Fuego9.sgf", before_move: Some(37), moves: "B H6, W H7, B J7, W J8, B J6, W B7, B H8, W H9, B J9, W G8, B G9, W C6, B A5, W F9, B F7, W F8, B A7, W A8, B A6, W A4, B B5, W G6, B J8, W H9, B H4, W F6, B G9, W F5, B E4, W H9, B D8, W D9, B G9, W D4, B G4, W H9, B B8, W B9, B G9, W J2, B H2, W H9, B PASS, W G9, B PASS, W PASS", seki: "A4 D4 A3 B3 C3 D3 E3 F3 E2 B1 C1 D1 E1 F1 A2 B2 C2", dead: "J2" },
    SekiCase { suite: "fuego", file: "sgf/games/2008/CGOS/seki-miseval-20081113151939.sgf", before_move: Some(2), moves: "B C9, W A8, B J4, W A4, B B9, W J6, B G6, W D6, B PASS, W PASS", seki: "A9 A8 B8 A7 A6 A5 A4 B4 C4 D4 A3 B3 D3 E3 A2 D2 C1 D1 E1 B2 C2 B1", dead: "" },
    SekiCase { suite: "fuego", file: "sgf/games/2008/CGOS/seki-miseval-20081113151939.sgf", before_move: Some(4), moves: "B J4, W G6, B C9, W A8, B B9, W A4, B PASS, W PASS", seki: "A9 A8 B8 A7 A6 A5 A4 B4 C4 D4 A3 B3 D3 E3 A2 D2 C1 D1 E1 B2 C2 B1", dead: "" },
    SekiCase { suite: "fuego", file: "sgf/games/2008/CGOS/seki-miseval-20081113151939.sgf", before_move: Some(6), moves: "B C9, W A8, B B9, W A4, B PASS, W PASS", seki: "A9 A8 B8 A7 A6 A5 A4 B4 C4 D4 A3 B3 D3 E3 A2 D2 C1 D1 E1 B2 C2 B1", dead: "" },
    SekiCase { suite: "fuego", file: "sgf/games/2008/CGOS/seki-miseval-20081113151939.sgf", before_move: Some(8), moves: "B B9, W A8, B PASS, W PASS", seki: "A9 A8 B8 A7 A6 A5 A4 B4 C4 D4 A3 B3 D3 E3 A2 D2 C1 D1 E1 B2 C2 B1", dead: "" },
    SekiCase { suite: "fuego", file: "sgf/games/2008/CGOS/seki-miseval-20081113151939.sgf", before_move: Some(10), moves: "B PASS, W PASS", seki: "A9 A8 B8 A7 A6 A5 A4 B4 C4 D4 A3 B3 D3 E3 A2 D2 C1 D1 E1 B2 C2 B1", dead: "" },
    SekiCase { suite: "fuego", file: "sgf/seki/sheppard-seki.sgf", before_move: None, moves: "W A7, B B4, W PASS, B PASS", seki: "G5 F4 G4 H4 J4 G3 H3 H2 J2 J1 E4 E3 F3 F2 G2 D2 D1 E1 G1", dead: "E9 H9 B8 F8 G7 B5 B2 B1" },
    SekiCase { suite: "fuego", file: "sgf/seki/sheppard-seki-2.sgf", before_move: None, moves: "B J3, W J4, B J5, W J3, B PASS, W PASS", seki: "A5 B5 B4 C4 B3 C3 D3 C2 D2 D1 A3 A2 B2 B1", dead: "" },
    SekiCase { suite: "fuego", file: "sgf/seki/seki-eye-vs-eye.1.sgf", before_move: None, moves: "B PASS, W PASS", seki: "B6 C6 C5 A4 B4 C4 D4 C3 D3 E3 F3 D2 E2 F2 D1 E1 A5", dead: "" },
    SekiCase { suite: "fuego", file: "sgf/seki/seki-eye-vs-no-eye.1.sgf", before_move: None, moves: "", seki: "B6 C6 C5 A4 B4 C4 D4 C3 D3 E3 F3 D2 D1 A5 F2 E1", dead: "" },
    SekiCase { suite: "fuego", file: "sgf/seki/static-safety-seki-bug.sgf", before_move: None, moves: "W E6, B PASS, W PASS", seki: "E9 E8 F8 G8 G7 H7 E6 F6 G6 H6 J6 F5 H5 E4 F4 G9 H9 J9 H8 J8", dead: "" },
    SekiCase { suite: "fuego", file: "sgf/seki/safety-solver-seki-problem.sgf", before_move: Some(41), moves: "B H7, W H8, B J8, W A8, B F7, W F8, B D6, W A6, B D4, W A5, B A4, W F5, B E7, W G7, B F6, W H9, B H6, W A1, B J3, W A3, B B4, W A2, B J1, W J9, B J7, W PASS, B PASS", seki: "F5 F4 A3 C3 D3 E3 F3 G3 A2 B2 C2 D2 G2 H2 A1 B1 H1 E2 F2 F1 D1", dead: "H5" },
    SekiCase { suite: "fuego", file: "sgf/seki/safety-solver-seki-problem.sgf", before_move: Some(42), moves: "W H7, B H6, W A8, B F7, W F8, B G7, W H8, B D6, W J6, B J5, W J7, B D4, W A6, B F5, W A5, B A3, W E7, B J3, W A4, B B4, W J1, B A1, W PASS, B PASS", seki: "F4 C3 D3 E3 F3 G3 B2 C2 D2 G2 H2 B1 H1 J1 E2 F2 D1 E1 F1", dead: "" },
    SekiCase { suite: "fuego", file: "sgf/seki/safety-solver-seki-problem.sgf", before_move: Some(56), moves: "W A8, B H6, W J6, B J5, W J7, B F7, W E7, B G7, W PASS, B PASS", seki: "F4 C3 D3 E3 F3 G3 B2 C2 D2 G2 H2 A1 B1 H1 J1 E2 F2 D1 E1 F1", dead: "" },
    SekiCase { suite: "fuego", file: "sgf/lifeanddeath/nakade-5plus-seki.sgf", before_move: None, moves: "W E6, B PASS, W PASS", seki: "E9 F9 E8 F8 F7 G7 E6 F6 G6 H6 J6 F5 H5 E4 F4 H9 J9 G8 H8 J8", dead: "" },
    SekiCase { suite: "fuego", file: "sgf/games/2008/KGS/7/26/Newou-Fuego9.sgf", before_move: Some(35), moves: "B D4, W F4, B G8, W B3, B D5, W C2, B F5, W D6, B D2, W B2, B C9, W B9, B D9, W E6, B F7, W D1, B E1, W C1, B D3, W G1, B C4, W PASS, B PASS", seki: "G5 E4 F4 G4 H4 J4 F3 J3 F2 G2 G1 H1 H3 H2 J2", dead: "F8" },
    SekiCase { suite: "fuego", file: "sgf/games/2008/KGS/8/17/AyaMC-Fuego9-variation.sgf", before_move: Some(1), moves: "B G8, W H8, B H9, W J8, B F8, W J7, B PASS, W J9, B G9, W PASS, B PASS", seki: "A9 C9 D9 F9 G9 H9 E8 F8 G8 D7 E7 C6 D6 C5 B8 C8 D8 B7 C7 B6 B5 D5 A4 B4 C4 D4 A3 C3 C2 A7 A6 F6 G6 H6 E5 F5 E4 B3 B2 D3 F3 D2 E2 F2 E1 F1 A1 C1", dead: "" },
    SekiCase { suite: "fuego", file: "sgf/games/2008/KGS/8/17/AyaMC-Fuego9-variation.sgf", before_move: Some(3), moves: "B H8, W J8, B J9, W J7, B H9, W F8, B E9, W G8, B PASS, W PASS", seki: "A9 C9 D9 E9 F9 G9 H9 J9 E8 H8 D7 E7 C6 D6 C5 B8 C8 D8 B7 C7 B6 B5 D5 A4 B4 C4 D4 A3 C3 C2 A7 A6 F6 G6 H6 E5 F5 E4 B3 B2 D3 F3 D2 E2 F2 E1 F1 A1 C1", dead: "" },
    SekiCase { suite: "fuego", file: "sgf/games/2008/KGS/8/17/AyaMC-Fuego9-variation.sgf", before_move: Some(5), moves: "B F8, W J9, B G8, W J7, B PASS, W PASS", seki: "A9 C9 D9 F9 G9 E8 F8 G8 D7 E7 C6 D6 C5 B8 C8 D8 B7 C7 B6 B5 D5 A4 B4 C4 D4 A3 C3 C2 A7 A6 F6 G6 H6 E5 F5 E4 B3 B2 D3 F3 D2 E2 F2 E1 F1 A1 C1", dead: "" },
    SekiCase { suite: "fuego", file: "sgf/games/2008/KGS/8/17/AyaMC-Fuego9-variation.sgf", before_move: Some(7), moves: "B F8, W J7, B G8, W PASS, B PASS", seki: "A9 C9 D9 E9 F9 G9 E8 F8 G8 D7 E7 C6 D6 C5 B8 C8 D8 B7 C7 B6 B5 D5 A4 B4 C4 D4 A3 C3 C2 A7 A6 F6 G6 H6 E5 F5 E4 B3 B2 D3 F3 D2 E2 F2 E1 F1 A1 C1", dead: "" },
    SekiCase { suite: "fuego", file: "sgf/games/2008/KGS/8/17/AyaMC-Fuego9-variation.sgf", before_move: Some(9), moves: "B F8, W J7, B G8, W PASS, B PASS", seki: "A9 C9 D9 E9 F9 G9 E8 F8 G8 D7 E7 C6 D6 C5 B8 C8 D8 B7 C7 B6 B5 D5 A4 B4 C4 D4 A3 C3 C2 A7 A6 F6 G6 H6 E5 F5 E4 B3 B2 D3 F3 D2 E2 F2 E1 F1 A1 C1", dead: "" },
    SekiCase { suite: "fuego", file: "sgf/games/2008/KGS/8/17/AyaMC-Fuego9-variation.sgf", before_move: Some(11), moves: "B A8, W J7, B F8, W PASS, B PASS", seki: "A9 B9 C9 D9 E9 F9 G9 A8 B8 E8 F8 A7 D7 E7 A6 C6 D6 C5 C8 D8 B7 C7 B6 B5 D5 A4 B4 C4 D4 A3 C3 C2 F6 G6 H6 E5 F5 E4 B3 B2 D3 F3 D2 E2 F2 E1 F1 A1 C1", dead: "" },
    SekiCase { suite: "fuego", file: "sgf/games/2008/KGS/8/17/AyaMC-Fuego9-variation.sgf", before_move: Some(13), moves: "B F8, W PASS, B PASS", seki: "A9 B9 C9 D9 E9 F9 G9 A8 B8 E8 F8 A7 D7 E7 A6 C6 D6 C5 C8 D8 B7 C7 B6 B5 D5 A4 B4 C4 D4 A3 C3 C2 F6 G6 H6 E5 F5 E4 B3 B2 D3 F3 D2 E2 F2 E1 F1 A1 C1", dead: "" },
    SekiCase { suite: "fuego", file: "sgf/games/2008/CGOS/Fuego-640-8c-20081113151939.sgf", before_move: Some(59), moves: "B E9, W J6, B J4, W G6, B PASS, W PASS", seki: "A9 A8 B8 A7 A6 A5 A4 B4 C4 D4 A3 B3 D3 E3 D2 B1 C1 D1 A2 B2 C2", dead: "" },
    SekiCase { suite: "fuego", file: "sgf/games/2012/Blubbel-AyaBot4-2.sgf", before_move: Some(305), moves: "B Q8, W K7, B T7, W O14, B N10, W H10, B K16, W N15, B PASS, W PASS", seki: "T18 R17 S17 T17 Q16 S16 T16 P15 Q15 R15 S15 R14 F17 G17 H17 K17 L17 M17 F16 G16 H16 J16 K16 L16 M16 N16 O16 H15 J15 K15 K14 L15 N15 O15 L14 M14 N14 O14 P14 Q14 S14 M13 O13 P13 R13 S13 P12 Q12 R12 O11 P11 Q11 P10 T14 T13 F13 G13 J13 L13 N13 F12 G12 H12 J12 K12 L12 M12 N12 O12 G11 H11 J11 N11 G10 J10 K10 M10 N10 O10 Q10 M9 N9 O9 P9 Q9 L8 M8 Q8 R8 S8 T8 O7 P7 Q7 R7 S7 T7 L6 M6 N6 O6 Q6 S6 K5 L5 L4 S12 R11 S11 T11 R10 R9 S9 T10", dead: "B16 G8 H8 J8 H7 N4 O4 P4 Q4 G2 H2" },
    // SEKI_CASES_END
];

#[test]
fn seki_has_no_territory() {
    let Some(dir) = common::corpus_dir("suites") else { return };
    let mut counted = 0;
    let mut failures = Vec::new();
    let mut estimate_misses = Vec::new();
    for case in SEKI_CASES {
        let base = match case.suite {
            "gnugo" => dir.join("gnugo/regression"),
            _ => dir.join("fuego/regression"),
        };
        let game = game_of(&read(&base.join(case.file)));
        let size = kifu::sgf::props::board_size(game.root()).expect("SZ").height as usize;
        let moves: Vec<(char, Option<Point>)> = case
            .moves
            .split(',')
            .filter(|m| !m.trim().is_empty())
            .map(|m| {
                let mut w = m.split_whitespace();
                let color = if w.next() == Some("B") { 'B' } else { 'W' };
                (color, gtp_point(w.next().unwrap_or("PASS"), size))
            })
            .collect();
        let sgf = main_line_sgf(&game, case.before_move.map(|n| n - 1), &moves);
        let seki: Vec<(u8, u8)> = case.seki.split_whitespace().filter_map(|p| gtp_point(p, size)).map(|p| (p.x, p.y)).collect();
        let dead: Vec<Point> = case.dead.split_whitespace().filter_map(|p| gtp_point(p, size)).collect();
        let name = format!("{} {}{}", case.suite, case.file, case.before_move.map_or(String::new(), |n| format!(" {n}")));
        let check = |s: &GameScore| -> Vec<String> {
            let map = owners(s);
            let mut bad = Vec::new();
            for &(x, y) in &seki {
                if matches!(map[&(x, y)], 'x' | 'o') {
                    bad.push(format!("seki stone {} dead", Point { x, y }.to_sgf()));
                }
                for (dx, dy) in [(0i32, 1i32), (0, -1), (1, 0), (-1, 0)] {
                    let q = ((x as i32 + dx) as u8, (y as i32 + dy) as u8);
                    if matches!(map.get(&q), Some('b' | 'w')) {
                        bad.push(format!("{} next to the seki counted as territory", Point { x: q.0, y: q.1 }.to_sgf()));
                    }
                }
            }
            bad.sort();
            bad.dedup();
            bad
        };
        let japanese = ScoreOptions { rules: RuleOverrides { seki_eyes: Some(SekiEyes::None), ..rules("japanese") }, ..defaults() };
        let given = ScoreOptions { dead_stones: if dead.is_empty() { DeadStones::None } else { DeadStones::Points(dead) }, ..japanese.clone() };
        let s = score(sgf.as_bytes(), &given);
        let bad = check(&s);
        if let Some((_, why)) = SEKI_EXCEPTIONS.iter().find(|(file, _)| *file == case.file) {
            eprintln!(
                "  {name}: not held to the rule ({why}); {}",
                if bad.is_empty() { "no territory in the seki anyway".to_string() } else { bad.join(", ") }
            );
        } else if !bad.is_empty() {
            failures.push(format!("{name}: {}\n{}", bad.join(", "), drawn(&s)));
        } else {
            counted += 1;
        }
        let estimated = score(sgf.as_bytes(), &ScoreOptions { dead_stones: DeadStones::Estimate, ..japanese });
        let bad = check(&estimated);
        if !bad.is_empty() {
            estimate_misses.push(format!("  {name}: {}", bad.join(", ")));
        }
    }
    eprintln!("seki positions: {counted} of {} counted with no territory in the seki (dead stones as GNU Go gives them)", SEKI_CASES.len());
    eprintln!("with kifu's own dead stones (--dead-stones estimate), {} of {} differ:", estimate_misses.len(), SEKI_CASES.len());
    for m in &estimate_misses {
        eprintln!("{m}");
    }
    assert!(failures.is_empty(), "territory inside a seki:\n{}", failures.join("\n"));
    assert_eq!(counted + SEKI_EXCEPTIONS.len(), SEKI_CASES.len());
}
