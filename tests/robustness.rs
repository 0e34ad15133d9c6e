//! Property tests of robustness: whatever the input, kifu never panics,
//! every diagnostic points inside the decoded file, and the model survives
//! its writer and JSON.
//!
//! - random game trees, generated as models and written with the writer:
//!   parse(write(m)) == m, and SGF → JSON → SGF is the identity on them;
//! - random SGF-like text;
//! - random byte mutations of the fixtures and (when ../shared/corpus is
//!   present) of a sample of real files, through the whole check.
//!
//! The invariants themselves live in fuzz/targets.rs, shared with the fuzz
//! targets and tests/fuzz_smoke.rs.

#[path = "../fuzz/targets.rs"]
mod targets;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use kifu::json;
use kifu::sgf::{self, Collection, GameTree, GameTreeBuilder, NodeId};
use proptest::prelude::*;

mod common;

// ---------------------------------------------------------------------------
// Models

/// A property as generated: identifier, identifier as written (old FF[1-3]
/// style), values.
#[derive(Debug, Clone)]
struct PropModel {
    id: String,
    written: Option<String>,
    values: Vec<String>,
}

/// A node: which node on the path from the root to the previous node is
/// its parent (index taken modulo the path's length), and its properties.
#[derive(Debug, Clone)]
struct NodeModel {
    parent_pick: usize,
    props: Vec<PropModel>,
}

fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[a-s]{2}",
        1 => "[0-9.+-]{0,6}",
        2 => "[a-zA-Z0-9 \\]\\[\\\\:;()\n\r\t\u{0}äé中碁\u{feff}]{0,16}",
        1 => any::<String>(),
    ]
}

fn property() -> impl Strategy<Value = PropModel> {
    prop_oneof![
        // Upper-case identifiers (FF[4]), with or without values.
        6 => ("[A-Z]{1,3}", prop::collection::vec(value(), 0..4)).prop_map(|(id, values)| PropModel { id, written: None, values }),
        // Old long identifiers: `AddBlack` read as AB.
        1 => ("[A-Z][a-z]{1,4}[A-Z][a-z]{0,3}", prop::collection::vec(value(), 0..3)).prop_map(|(written, values)| PropModel {
            id: written.chars().filter(char::is_ascii_uppercase).collect(),
            written: Some(written),
            values,
        }),
        // Lower-case identifiers (invalid, kept as written): only with a value,
        // since without one they are not syntax at all.
        1 => ("[a-z]{1,4}", prop::collection::vec(value(), 1..3)).prop_map(|(id, values)| PropModel { id, written: None, values }),
    ]
}

fn node() -> impl Strategy<Value = NodeModel> {
    (any::<usize>(), prop::collection::vec(property(), 0..5)).prop_map(|(parent_pick, props)| NodeModel { parent_pick, props })
}

/// Builds a tree in preorder: each node hangs from a node on the path from
/// the root to the node before it.
fn build(nodes: &[NodeModel]) -> GameTree {
    let mut b = GameTreeBuilder::new();
    let mut path: Vec<NodeId> = Vec::new();
    for (i, n) in nodes.iter().enumerate() {
        let parent = if i == 0 {
            None
        } else {
            let k = n.parent_pick % path.len();
            path.truncate(k + 1);
            Some(path[k])
        };
        let id = b.add_node(parent, 0);
        path.push(id);
        for p in &n.props {
            b.add_property(&p.id, p.written.as_deref(), 0);
            for v in &p.values {
                b.add_value(v, 0);
            }
        }
    }
    b.finish()
}

fn collection() -> impl Strategy<Value = Collection> {
    prop::collection::vec(prop::collection::vec(node(), 1..24), 1..4).prop_map(|games| Collection { games: games.iter().map(|g| build(g)).collect() })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    /// parse(write(m)) == m, as text and as UTF-8 bytes through the charset
    /// step; and SGF → JSON → SGF is the identity.
    #[test]
    fn models_survive_the_writer_and_json(c in collection()) {
        let written = sgf::write_collection(&c);
        let parsed = sgf::parse_str(&written);
        prop_assert_eq!(&parsed.collection, &c, "written:\n{}", written);
        targets::assert_located(&parsed.source, &parsed.diagnostics);
        let utf8 = json::set_utf8_charset(&c);
        let text = sgf::write_collection(&utf8);
        let from_bytes = sgf::parse(text.as_bytes(), &Default::default());
        prop_assert_eq!(&from_bytes.collection, &utf8, "written:\n{}", text);

        let doc = json::collection_to_json("model.sgf", "UTF-8", &c);
        let back = json::from_json(&doc).map_err(|e| TestCaseError::fail(format!("{e}")))?;
        prop_assert_eq!(&back.collection, &c);
        prop_assert_eq!(sgf::write_collection(&back.collection), written);
        targets::assert_round_trips(&parsed.collection);
    }
}

// ---------------------------------------------------------------------------
// Random text

fn sgf_soup() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        Just("(;".to_string()),
        Just("(".to_string()),
        Just(")".to_string()),
        Just(";".to_string()),
        Just("[".to_string()),
        Just("]".to_string()),
        Just("\\".to_string()),
        Just("B[aa]".to_string()),
        Just("W[tt]".to_string()),
        Just("AB[dd][pp]".to_string()),
        Just("SZ[9]".to_string()),
        Just("SZ[52]".to_string()),
        Just("CA[Shift_JIS]".to_string()),
        Just("KM[6.5]".to_string()),
        Just("RE[B+R]".to_string()),
        Just("AddBlack".to_string()),
        Just("C[".to_string()),
        Just("LB[dd:x]".to_string()),
        Just(" ".to_string()),
        Just("\n".to_string()),
        Just("\r".to_string()),
        Just("\r\n".to_string()),
        Just("\u{0}".to_string()),
        "[a-zA-Z0-9]{1,3}",
        "[中碁é\u{feff}\u{fffd}]",
        any::<char>().prop_map(String::from),
    ];
    prop::collection::vec(token, 0..80).prop_map(|t| t.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, failure_persistence: None, ..ProptestConfig::default() })]

    /// Any text: no panic anywhere in the pipeline, diagnostics inside the
    /// text, and the model it gives survives the writer and JSON.
    #[test]
    fn random_text_never_breaks_the_pipeline(text in sgf_soup()) {
        let parsed = sgf::parse_str(&text);
        targets::assert_located(&parsed.source, &parsed.diagnostics);
        targets::assert_round_trips(&parsed.collection);
        targets::parse(text.as_bytes());
        targets::replay(text.as_bytes());
        targets::score(text.as_bytes());
    }

    /// Any bytes at all.
    #[test]
    fn random_bytes_never_break_the_pipeline(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        targets::decode(&bytes);
        targets::parse(&bytes);
        targets::replay(&bytes);
        targets::json(&bytes);
    }
}

// ---------------------------------------------------------------------------
// Mutations of real files

/// The fixtures, and a sample of the corpus when it is present (every
/// file up to 32 KB, at even steps through each part).
fn real_files() -> &'static [(String, Vec<u8>)] {
    static FILES: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    FILES.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut paths = sgf_files(&root.join("fixtures"), usize::MAX);
        let corpus = root.join("../shared/corpus");
        if corpus.is_dir() {
            for part in ["kgs", "fox-pro", "ai-games", "suites"] {
                paths.extend(sgf_files(&corpus.join(part), 25));
            }
        } else {
            eprintln!("robustness: corpus files SKIPPED: no corpus at {} (mutating the fixtures only)", corpus.display());
        }
        paths.into_iter().map(|p| (p.display().to_string(), std::fs::read(&p).unwrap())).collect()
    })
}

fn sgf_files(dir: &Path, take: usize) -> Vec<PathBuf> {
    let mut files = common::sgf_files(dir);
    files.retain(|f| std::fs::metadata(f).is_ok_and(|m| m.len() <= 32 * 1024));
    let step = (files.len() / take.max(1)).max(1);
    files.into_iter().step_by(step).take(take).collect()
}

#[derive(Debug, Clone)]
enum Edit {
    Set(usize, u8),
    Insert(usize, Vec<u8>),
    Delete(usize, usize),
    Truncate(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    let bytes = prop_oneof![
        3 => prop::collection::vec(any::<u8>(), 1..4),
        2 => prop::sample::select(vec![b"(".to_vec(), b")".to_vec(), b"[".to_vec(), b"]".to_vec(), b";".to_vec(), b"\\".to_vec(), b"\xff".to_vec(), b"\xc3".to_vec(), b"\0".to_vec(), b"CA[GB2312]".to_vec(), b"\r".to_vec()]),
    ];
    prop_oneof![
        4 => (any::<usize>(), any::<u8>()).prop_map(|(at, b)| Edit::Set(at, b)),
        4 => (any::<usize>(), bytes).prop_map(|(at, b)| Edit::Insert(at, b)),
        2 => (any::<usize>(), 1..32usize).prop_map(|(at, n)| Edit::Delete(at, n)),
        1 => any::<usize>().prop_map(Edit::Truncate),
    ]
}

fn apply(data: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut out = data.to_vec();
    for e in edits {
        let len = out.len();
        match e {
            Edit::Set(at, b) if len > 0 => out[at % len] = *b,
            Edit::Insert(at, b) => {
                let at = at % (len + 1);
                out.splice(at..at, b.iter().copied());
            }
            Edit::Delete(at, n) if len > 0 => {
                let at = at % len;
                out.drain(at..(at + n).min(len));
            }
            Edit::Truncate(at) => out.truncate(at % (len + 1)),
            _ => {}
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, failure_persistence: None, ..ProptestConfig::default() })]

    /// Real files with a few random byte edits: the whole check, the scorer
    /// and the conversions, with every diagnostic inside the decoded file.
    #[test]
    fn mutated_real_files_never_break_the_pipeline(pick in any::<usize>(), edits in prop::collection::vec(edit(), 1..6)) {
        let files = real_files();
        let (name, data) = &files[pick % files.len()];
        let bytes = apply(data, &edits);
        let checked = kifu::check::check_bytes(&bytes, &Default::default());
        targets::assert_located(&checked.source, &checked.diagnostics);
        let parsed = sgf::parse(&bytes, &Default::default());
        targets::assert_located(&parsed.source, &parsed.diagnostics);
        targets::assert_round_trips(&parsed.collection);
        let doc = json::to_json(name, &parsed, &json::JsonOptions { positions: true, pretty: pick % 2 == 0 });
        let back = json::from_json(&doc).map_err(|e| TestCaseError::fail(format!("{e}")))?;
        prop_assert!(back.collection == parsed.collection, "{}: SGF → JSON → model differs", name);
        targets::score(&bytes);
    }
}
