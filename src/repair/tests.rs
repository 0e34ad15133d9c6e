use super::*;

fn fixed(sgf: &str) -> Repaired {
    repair_file(sgf.as_bytes(), "x.sgf", &ParseOptions::default())
}

/// The fixes as the change list prints them.
fn listed(r: &Repaired) -> Vec<String> {
    r.fixes.iter().map(Fix::to_string).collect()
}

#[test]
fn repair_lists_recoveries_and_charset() {
    let latin1 = b"(;GM[1]CA[ISO-8859-1]PB[Jos\xe9];B[dd]";
    let repaired = repair_file(latin1, "x.sgf", &ParseOptions::default());
    assert!(repaired.text.contains("PB[Jos\u{e9}]") && repaired.text.contains("CA[UTF-8]"), "{}", repaired.text);
    assert!(
        repaired.changes.iter().any(|c| c.starts_with("converted from ISO-8859-1") || c.starts_with("converted from windows-1252")),
        "{:?}",
        repaired.changes
    );
    assert!(repaired.changes.iter().any(|c| c.starts_with("missing-close-paren")), "{:?}", repaired.changes);
}

#[test]
fn the_copy_is_canonical_ff4() {
    let repaired = fixed("(;GaMe[1]FF[3]AddBlack[aa]Comment[hi];Black[cc])");
    assert_eq!(repaired.text, "(;GM[1]FF[4]CA[UTF-8]AB[aa]C[hi];B[cc])\n");
    let expected = [
        "old-identifier at 1:3: 'GaMe' -> 'GM'",
        "old-identifier at 1:15: 'AddBlack' -> 'AB'",
        "old-identifier at 1:27: 'Comment' -> 'C'",
        "old-identifier at 1:39: 'Black' -> 'B'",
        "file-format at 1:10: 'FF[3]' -> 'FF[4]'",
        "charset at 1:2: '' -> 'CA[UTF-8]'",
    ];
    assert_eq!(listed(&repaired), expected);
}

#[test]
fn a_file_with_no_game_gives_no_copy() {
    for (bytes, why) in [(&b""[..], "empty-file"), (b"\x89PNG\r\n\x1a\n\x00\xff", "not-sgf")] {
        let repaired = repair_file(bytes, "x.sgf", &ParseOptions::default());
        assert_eq!(repaired.no_game.as_deref(), Some(why));
    }
}

/// The part of the copy after the root's FF, CA (and GM).
fn body(sgf: &str) -> String {
    let text = fixed(sgf).text;
    text.trim_end().replacen("(;FF[4]CA[UTF-8]", "(;", 1).replacen("(;GM[1]FF[4]CA[UTF-8]", "(;", 1)
}

#[test]
fn duplicates_merge_in_order() {
    assert_eq!(body("(;FF[4]CA[UTF-8]AB[aa]PB[x]AB[bb][aa])"), "(;AB[aa][bb]PB[x])");
    // The comments of one node join; a second name goes to GC.
    assert_eq!(body("(;FF[4]CA[UTF-8];B[aa]C[one]C[two])"), "(;;B[aa]C[one\n\ntwo])");
    assert_eq!(body("(;FF[4]CA[UTF-8]GN[a]GN[b])"), r"(;GN[a]GC[kifu --fix kept: GN\[b\]])");
    // Two moves in one node: which was first is not known.
    assert_eq!(body("(;FF[4]CA[UTF-8];B[aa]W[bb])"), "(;;B[aa]W[bb])");
}

#[test]
fn single_values_keep_the_first() {
    assert_eq!(body("(;FF[4]CA[UTF-8]GN[][]PB[x][x])"), "(;GN[]PB[x])");
    let r = fixed("(;FF[4]CA[UTF-8]GC[note]PW[a][b])");
    assert!(r.text.contains("PW[a]") && r.text.contains("GC[note\nkifu --fix kept: PW\\[b\\]]"), "{}", r.text);
    assert_eq!(listed(&r), ["invalid-value at 1:25: 'PW[a][b]' -> 'PW[a]' (the rest kept in GC)"]);
}

#[test]
fn values_in_ff4_form() {
    assert_eq!(body("(;FF[4]CA[UTF-8]AP[foxwq]TM[])"), "(;AP[foxwq:])");
    assert_eq!(body("(;FF[4]CA[UTF-8]AP[Aya 5.56])"), "(;AP[Aya:5.56])");
    assert_eq!(body("(;FF[4]CA[UTF-8]DT[2017.08.09 02:47])"), r"(;DT[2017-08-09]GC[kifu --fix kept: DT\[02:47\]])");
    assert_eq!(body("(;FF[4]CA[UTF-8]DT[August 9])"), "(;DT[August 9])");
    assert_eq!(body("(;FF[4]CA[UTF-8]RE[draw])"), "(;RE[0])");
    assert_eq!(body("(;FF[4]CA[UTF-8]RE[B+Resign])"), "(;RE[B+Resign])");
    assert_eq!(body("(;FF[4]CA[UTF-8]RE[b+time])"), "(;RE[B+T])");
    assert_eq!(body("(;FF[4]CA[UTF-8]RE[White resigns.])"), r"(;RE[B+R]GC[kifu --fix kept: RE\[White resigns.\]])");
    assert_eq!(body("(;FF[4]CA[UTF-8]RE[john wins])"), "(;RE[john wins])");
    // A move annotation without a move goes to the comment.
    assert_eq!(body("(;FF[4]CA[UTF-8];TE[1]C[hm])"), "(;;C[hm\nkifu --fix kept: TE\\[1\\]])");
    assert_eq!(body("(;FF[4]CA[UTF-8];B[aa]TE[1])"), "(;;B[aa]TE[1])");
}

#[test]
fn old_passes_become_ff4_passes() {
    assert_eq!(fixed("(;FF[3]SZ[19];B[tt];W[aa])").text, "(;FF[4]CA[UTF-8]SZ[19];B[];W[aa])\n");
    // On a larger board tt is a point.
    assert_eq!(fixed("(;FF[3]SZ[21];B[tt])").text, "(;FF[4]CA[UTF-8]SZ[21];B[tt])\n");
    assert_eq!(fixed("(;FF[4]SZ[19];B[tt])").text, "(;FF[4]CA[UTF-8]SZ[19];B[tt])\n");
}

#[test]
fn fox_komi_as_played() {
    assert_eq!(body("(;FF[4]CA[UTF-8]RU[Japanese]KM[650];B[aa])"), "(;RU[Japanese]KM[6.5];B[aa])");
    // 3.75 stones: 7.5 points, and the margin in stones too.
    assert_eq!(body("(;FF[4]CA[UTF-8]RU[Chinese]KM[375]RE[B+2.75];B[aa])"), "(;RU[Chinese]KM[7.5]RE[B+5.5];B[aa])");
    assert_eq!(body("(;FF[4]CA[UTF-8]RU[Japanese]AP[foxwq]KM[0]HA[0];B[aa])"), "(;RU[Japanese]AP[foxwq:]KM[6.5]HA[0];B[aa])");
    // Not Fox: KM[0] is 0.
    assert_eq!(body("(;FF[4]CA[UTF-8]RU[Japanese]KM[0];B[aa])"), "(;RU[Japanese]KM[0];B[aa])");
}

#[test]
fn handicap_stones_set_up() {
    // Fox's HA[2] with no stone, White first: the standard placement.
    assert_eq!(body("(;FF[4]CA[UTF-8]SZ[19]HA[2];W[cc];B[qq])"), "(;SZ[19]HA[2]AB[pd][dp];W[cc];B[qq])");
    // The handicap written as Black moves.
    let r = fixed("(;FF[4]CA[UTF-8]SZ[19]HA[2];B[pd];B[dp];W[cc])");
    assert_eq!(r.text, "(;FF[4]CA[UTF-8]SZ[19]HA[2]AB[pd][dp];W[cc])\n");
    assert_eq!(listed(&r), ["handicap-mismatch at 1:29: 'B[pd];B[dp]' -> 'AB[pd][dp]'"]);
    // Not beyond doubt: a comment on a move, a variation, Black again.
    for kept in ["(;SZ[19]HA[2];B[pd]C[x];B[dp];W[cc])", "(;SZ[19]HA[2];B[pd](;B[dp];W[cc])(;W[cc]))", "(;SZ[19]HA[2];B[pd];B[dp];B[cc])"] {
        assert!(!fixed(kept).text.contains("AB"), "{kept}");
    }
}

#[test]
fn empty_nodes_go_where_no_line_changes() {
    assert_eq!(body("(;FF[4]CA[UTF-8];B[aa];;W[bb];)"), "(;;B[aa];W[bb])");
    // An empty leaf beside another variation is a line of its own.
    assert_eq!(body("(;FF[4]CA[UTF-8];B[aa](;)(;W[bb]))"), "(;;B[aa]\n(;)\n(;W[bb]))");
    assert_eq!(body("(;FF[4]CA[UTF-8];B[aa](;;)(;W[bb]))"), "(;;B[aa]\n(;)\n(;W[bb]))");
}
