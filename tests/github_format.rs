//! `kifu check --format github`: every line is a well-formed GitHub Actions
//! workflow command, `::error file=F,line=L,col=C,title=T::MESSAGE` (or
//! `warning`, `notice`), escaped as the runner requires (in the message
//! `%`, CR and LF as `%25`, `%0D`, `%0A`; in property values `:` and `,` as
//! `%3A` and `%2C` too), and says what the JSON Lines output says.

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

fn kifu() -> Command {
    Command::cargo_bin("kifu").expect("binary built")
}

/// One parsed workflow command.
#[derive(Debug)]
struct WorkflowCommand {
    command: String,
    properties: Vec<(String, String)>,
    message: String,
}

impl WorkflowCommand {
    fn get(&self, key: &str) -> Option<&str> {
        self.properties.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
}

/// Parses a line strictly, panicking with the line on anything the runner
/// would misread: unknown commands or properties, unescaped `,` `:` in
/// property values, stray `%`, raw CR or LF.
fn parse(line: &str) -> WorkflowCommand {
    let rest = line.strip_prefix("::").unwrap_or_else(|| panic!("not a workflow command: {line:?}"));
    let end = rest.find("::").unwrap_or_else(|| panic!("no '::' before the message: {line:?}"));
    let (head, message) = (&rest[..end], &rest[end + 2..]);
    let (command, props) = head.split_once(' ').unwrap_or((head, ""));
    assert!(["error", "warning", "notice"].contains(&command), "command {command:?} in {line:?}");
    let mut properties = Vec::new();
    if !props.is_empty() {
        for prop in props.split(',') {
            let (key, value) = prop.split_once('=').unwrap_or_else(|| panic!("property {prop:?} in {line:?}"));
            assert!(["file", "line", "col", "endLine", "endColumn", "title"].contains(&key), "unknown property {key:?} in {line:?}");
            assert!(!value.contains(':'), "unescaped ':' in property {key} of {line:?}");
            properties.push((key.to_string(), unescape(value, &["%25", "%0D", "%0A", "%3A", "%2C"], line)));
        }
    }
    let message = unescape(message, &["%25", "%0D", "%0A"], line);
    WorkflowCommand { command: command.to_string(), properties, message }
}

/// Undoes the escapes allowed in a field; any other `%` is an error.
fn unescape(s: &str, allowed: &[&str], line: &str) -> String {
    assert!(!s.contains(['\r', '\n']), "raw CR or LF in {line:?}");
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find('%') {
        out.push_str(&rest[..i]);
        let escape = rest.get(i..i + 3).unwrap_or("");
        assert!(allowed.contains(&escape), "stray '%' ({escape:?}) in {line:?}");
        out.push(match escape {
            "%25" => '%',
            "%0D" => '\r',
            "%0A" => '\n',
            "%3A" => ':',
            _ => ',',
        });
        rest = &rest[i + 3..];
    }
    out.push_str(rest);
    out
}

/// Runs `check --format github` and `--format jsonl` on the same arguments
/// in `dir`; checks every annotation against its diagnostic and returns
/// the annotations and the closing summary notice.
fn check(dir: &Path, args: &[&str]) -> (Vec<WorkflowCommand>, Option<WorkflowCommand>) {
    let github = kifu().current_dir(dir).args(["check", "--format", "github"]).args(args).output().unwrap();
    // Under --quiet, the annotations are the errors of the full output.
    let quiet = args.contains(&"--quiet");
    let unquiet: Vec<&str> = args.iter().copied().filter(|a| *a != "--quiet").collect();
    let jsonl = kifu().current_dir(dir).args(["check", "--format", "jsonl"]).args(&unquiet).output().unwrap();
    assert_eq!(github.status.code(), jsonl.status.code());
    let text = String::from_utf8(github.stdout).expect("UTF-8");
    assert!(text.is_empty() || text.ends_with('\n'));
    assert!(!text.contains('\r'), "a raw CR would split a command");
    let mut commands: Vec<WorkflowCommand> = text.lines().map(parse).collect();
    let summary = match commands.last() {
        Some(c) if c.get("file").is_none() => commands.pop(),
        _ => None,
    };
    let mut rows: Vec<Value> = String::from_utf8(jsonl.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    rows.pop().expect("summary line");
    if quiet {
        rows.retain(|d| d["severity"] == "error");
    }
    assert_eq!(commands.len(), rows.len(), "one annotation per diagnostic");
    for (c, d) in commands.iter().zip(&rows) {
        let level = match d["severity"].as_str().unwrap() {
            "info" => "notice",
            other => other,
        };
        assert_eq!(c.command, level);
        assert_eq!(c.get("file"), d["file"].as_str());
        assert_eq!(c.get("title"), Some(format!("kifu {}", d["code"].as_str().unwrap()).as_str()));
        assert_eq!(c.message, d["message"].as_str().unwrap());
        let line = d["line"].as_u64().unwrap();
        if line == 0 {
            assert_eq!((c.get("line"), c.get("col")), (None, None), "no position: no line or col");
        } else {
            assert_eq!(c.get("line"), Some(line.to_string().as_str()));
            assert_eq!(c.get("col"), Some(d["column"].to_string().as_str()));
        }
    }
    (commands, summary)
}

#[test]
fn fixtures_give_well_formed_annotations() {
    let (commands, summary) = check(Path::new(env!("CARGO_MANIFEST_DIR")), &["fixtures"]);
    for level in ["error", "warning", "notice"] {
        assert!(commands.iter().any(|c| c.command == level), "no {level} annotation");
    }
    let summary = summary.expect("a closing summary notice");
    assert_eq!(summary.command, "notice");
    assert_eq!(summary.get("title"), Some("kifu"));
    assert!(summary.message.contains(" files, "), "{}", summary.message);
}

#[test]
fn quiet_gives_only_errors_and_no_summary_notice() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (commands, summary) = check(dir, &["--quiet", "fixtures/moves"]);
    assert!(summary.is_none());
    assert!(!commands.is_empty());
    assert!(commands.iter().all(|c| c.command == "error"), "{commands:?}");
}

/// A file name with every character that needs escaping, and file content
/// whose quoted text (in the messages) holds '%', ',' and ':'.
#[test]
fn awkward_names_and_messages_are_escaped() {
    let tmp = tempfile::tempdir().unwrap();
    let name = "50%, a:b\nc\r.sgf";
    let content = "50% off, next: line\n(;GM[1]FF[4]SZ[19]KM[6.5%]HA[x,y:z]RU[Japanese];B[pd];W[pd])";
    std::fs::write(tmp.path().join(name), content).unwrap();
    let out = kifu().current_dir(tmp.path()).args(["check", "--format", "github", name]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("file=50%25%2C a%3Ab%0Ac%0D.sgf,line="), "{text}");
    assert!(text.contains("::text before the first game tree ignored: '50%25 off, next: line'"), "{text}");
    let (commands, _) = check(tmp.path(), &[name]);
    assert!(commands.iter().all(|c| c.get("file") == Some(name)));
    assert!(commands.iter().any(|c| c.command == "error" && c.get("title") == Some("kifu occupied-point")));
    assert!(commands.iter().any(|c| c.message.contains("KM[6.5%]")));
}

#[test]
fn the_parser_refuses_malformed_commands() {
    // The checks above would prove nothing if `parse` accepted anything.
    for bad in [
        "error file=a.sgf::m",                  // no leading '::'
        "::error file=a.sgf,line=1",            // no message
        "::fatal file=a.sgf::m",                // unknown command
        "::error file=a:b.sgf,line=1::m",       // unescaped ':' in a property
        "::error file=a,b.sgf,line=1::m",       // unescaped ',' (a property 'b.sgf')
        "::error file=a.sgf,line=1::50% off",   // stray '%'
        "::error file=a%3Ab.sgf,line=1::a%3Ab", // '%3A' is not a message escape
        "::error file=a.sgf,lines=1::m",        // unknown property
    ] {
        assert!(std::panic::catch_unwind(|| parse(bad)).is_err(), "accepted {bad:?}");
    }
    let ok = parse("::warning file=a%2Cb%3Ac.sgf,line=3,col=5,title=kifu ko::50%25%0Anext");
    assert_eq!(ok.get("file"), Some("a,b:c.sgf"));
    assert_eq!(ok.message, "50%\nnext");
}
