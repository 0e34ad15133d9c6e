//! `kifu check --format sarif` against the OASIS SARIF 2.1.0 JSON schema
//! (vendored in tests/schemas/, see the README there), and against what
//! code-scanning interfaces read: rule ids and indices, levels, messages,
//! relative artifact URIs with a base id, regions, rule help linked to
//! docs/diagnostics.md, the invocation. Each log is also compared with the
//! JSON Lines output of the same run, so no format drops or alters a
//! diagnostic. The real binary is run on the fixtures, on files with
//! awkward names and, when ../shared/corpus is present, on a sample of it.

use std::collections::BTreeSet;
use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

mod common;

const SCHEMA: &str = include_str!("schemas/sarif-schema-2.1.0.json");
const DIAGNOSTICS_DOC: &str = include_str!("../docs/diagnostics.md");

fn kifu() -> Command {
    Command::cargo_bin("kifu").expect("binary built")
}

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Validates with the draft-04 rules the schema declares, formats included
/// (`uri`, `uri-reference`, `date-time`); the schema's references are all
/// local, nothing is fetched.
fn assert_schema_valid(log: &Value) {
    let schema: Value = serde_json::from_str(SCHEMA).expect("schema is JSON");
    assert_eq!(schema["$schema"], "http://json-schema.org/draft-04/schema#");
    let validator = jsonschema::draft4::options().should_validate_formats(true).build(&schema).expect("schema compiles");
    let errors: Vec<String> = validator.iter_errors(log).take(20).map(|e| format!("at {}: {}", e.instance_path(), e)).collect();
    assert!(errors.is_empty(), "SARIF log fails the 2.1.0 schema:\n{}", errors.join("\n"));
}

/// Runs `kifu check --format sarif` and `--format jsonl` on the same
/// arguments in `dir`; returns the SARIF log, the JSON Lines diagnostics
/// and the exit code (the same for both, checked).
fn check_both(dir: &Path, args: &[&str]) -> (Value, Vec<Value>, i32) {
    let run = |format: &str| {
        let out = kifu().current_dir(dir).args(["check", "--format", format]).args(args).output().unwrap();
        let code = out.status.code().expect("exit code");
        (String::from_utf8(out.stdout).expect("UTF-8 output"), code)
    };
    let (sarif, code) = run("sarif");
    let (jsonl, jsonl_code) = run("jsonl");
    assert_eq!(code, jsonl_code, "exit status differs between formats");
    assert!(sarif.ends_with("}\n") && sarif.lines().count() == 1, "one JSON document on one line");
    let log: Value = serde_json::from_str(&sarif).expect("SARIF output is JSON");
    let mut rows: Vec<Value> = jsonl.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(rows.pop().expect("summary line").get("summary").is_some());
    (log, rows, code)
}

/// Everything a code-scanning upload relies on, beyond the schema; and the
/// log says the same as the JSON Lines output, diagnostic for diagnostic.
fn assert_code_scanning_ready(log: &Value, jsonl: &[Value], cwd: &Path) {
    assert_eq!(log["version"], "2.1.0");
    let runs = log["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 1);
    let run = &runs[0];
    assert_eq!(run["columnKind"], "unicodeCodePoints", "columns count characters");

    // The tool: every code is a rule, in code order, with its help.
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "kifu");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    let rules = driver["rules"].as_array().expect("rules");
    let codes: Vec<&str> = kifu::diag::CODES.iter().map(|c| c.name).collect();
    let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids, codes, "one rule per code, in code order");
    for (rule, info) in rules.iter().zip(kifu::diag::CODES) {
        assert_eq!(rule["shortDescription"]["text"], info.summary);
        assert_eq!(rule["fullDescription"]["text"], info.explanation.replace('`', ""));
        let level = match info.severity {
            kifu::diag::Severity::Error => "error",
            kifu::diag::Severity::Warning => "warning",
            kifu::diag::Severity::Info => "note",
        };
        assert_eq!(rule["defaultConfiguration"]["level"], level, "{}", info.name);
        let markdown = rule["help"]["markdown"].as_str().expect("help.markdown");
        assert!(!rule["help"]["text"].as_str().expect("help.text").is_empty());
        // The help links to the code's own heading in docs/diagnostics.md.
        let anchor = markdown
            .split("docs/diagnostics.md#")
            .nth(1)
            .and_then(|rest| rest.split(['`', ')', ' ']).next())
            .unwrap_or_else(|| panic!("{}: no link to docs/diagnostics.md in {markdown:?}", info.name));
        assert_eq!(anchor, info.name);
        assert!(DIAGNOSTICS_DOC.contains(&format!("\n### `{anchor}`\n")), "{}: no heading for #{anchor} in docs/diagnostics.md", info.name);
        match rule.get("helpUri") {
            Some(uri) => assert!(uri.as_str().unwrap().ends_with(&format!("docs/diagnostics.md#{anchor}"))),
            // No repository address in Cargo.toml: no absolute link to give.
            None => assert_eq!(env!("CARGO_PKG_REPOSITORY"), "", "{}: helpUri missing", info.name),
        }
    }

    // The base of relative URIs is the directory kifu ran in.
    let base = run["originalUriBaseIds"]["%SRCROOT%"]["uri"].as_str().expect("%SRCROOT% base");
    let cwd = cwd.canonicalize().unwrap();
    assert!(base.starts_with("file:///") && base.ends_with('/'), "{base}");
    assert_eq!(unescape(base.trim_start_matches("file://")).trim_end_matches('/'), cwd.to_str().unwrap());

    let invocations = run["invocations"].as_array().expect("invocations");
    assert_eq!(invocations.len(), 1);
    assert_eq!(invocations[0]["executionSuccessful"], true);

    // Results: the JSON Lines diagnostics, one for one, in order.
    let results = run["results"].as_array().expect("results");
    assert_eq!(results.len(), jsonl.len(), "SARIF results and JSON Lines diagnostics differ in number");
    for (r, d) in results.iter().zip(jsonl) {
        let index = r["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(r["ruleId"], rules[index]["id"], "ruleIndex points at the rule of ruleId");
        assert_eq!(r["ruleId"], d["code"]);
        let level = match d["severity"].as_str().unwrap() {
            "info" => "note",
            other => other,
        };
        assert_eq!(r["level"], level);
        assert_eq!(r["message"]["text"], d["message"]);
        assert!(!d["message"].as_str().unwrap().is_empty());
        let locations = r["locations"].as_array().expect("locations");
        assert_eq!(locations.len(), 1);
        let physical = &locations[0]["physicalLocation"];
        let uri = physical["artifactLocation"]["uri"].as_str().expect("uri");
        let file = d["file"].as_str().unwrap();
        if Path::new(file).is_absolute() {
            assert!(uri.starts_with("file:///"), "{uri}");
            assert!(physical["artifactLocation"].get("uriBaseId").is_none());
            assert_eq!(unescape(&uri["file://".len()..]), file);
        } else if file != "-" {
            assert_eq!(physical["artifactLocation"]["uriBaseId"], "%SRCROOT%", "{uri}");
            assert!(!uri.starts_with("./") && !uri.starts_with('/') && !uri.contains('\\'), "{uri}");
            assert_eq!(unescape(uri), file.trim_start_matches("./"));
        }
        let region = &physical["region"];
        let line = d["line"].as_u64().unwrap();
        assert_eq!(region["startLine"].as_u64().unwrap(), line.max(1));
        if line > 0 {
            assert_eq!(region["startColumn"].as_u64().unwrap(), d["column"].as_u64().unwrap().max(1));
        }
        for key in ["game", "move", "color", "point", "variation"] {
            assert_eq!(r["properties"].get(key), d.get(key), "{key}");
        }
    }
}

/// Undoes percent-escapes (UTF-8 sequences included).
fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            out.push(u8::from_str_radix(&s[i + 1..i + 3], 16).expect("hex escape"));
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).expect("UTF-8")
}

fn levels(log: &Value) -> BTreeSet<String> {
    log["runs"][0]["results"].as_array().unwrap().iter().map(|r| r["level"].as_str().unwrap().to_string()).collect()
}

#[test]
fn the_vendored_schema_is_the_oasis_one() {
    let schema: Value = serde_json::from_str(SCHEMA).unwrap();
    assert_eq!(schema["id"], "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json");
    assert_eq!(schema["title"], "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema");
}

#[test]
fn the_validator_refuses_broken_logs() {
    // The validation below would prove nothing if it accepted anything.
    let (log, _, _) = check_both(manifest_dir(), &["fixtures/moves/ko-retake-immediate.sgf"]);
    assert_schema_valid(&log);
    let schema: Value = serde_json::from_str(SCHEMA).unwrap();
    let validator = jsonschema::draft4::options().should_validate_formats(true).build(&schema).unwrap();
    let mut bad_level = log.clone();
    bad_level["runs"][0]["results"][0]["level"] = "info".into();
    assert!(!validator.is_valid(&bad_level), "level 'info' is not SARIF");
    let mut bad_line = log.clone();
    bad_line["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0.into();
    assert!(!validator.is_valid(&bad_line), "lines are 1-based");
    let mut bad_uri = log.clone();
    bad_uri["runs"][0]["tool"]["driver"]["rules"][0]["helpUri"] = "docs/diagnostics.md#x".into();
    assert!(!validator.is_valid(&bad_uri), "helpUri must be absolute");
    let mut extra = log;
    extra["runs"][0]["results"][0]["file"] = "a.sgf".into();
    assert!(!validator.is_valid(&extra), "unknown properties are refused");
}

#[test]
fn fixtures_give_a_valid_log_with_errors_warnings_and_notes() {
    let (log, jsonl, code) = check_both(manifest_dir(), &["fixtures"]);
    assert_eq!(code, 1, "the fixtures hold errors");
    assert_schema_valid(&log);
    assert_code_scanning_ready(&log, &jsonl, manifest_dir());
    let found = levels(&log);
    for level in ["error", "warning", "note"] {
        assert!(found.contains(level), "no {level} result in the fixtures: {found:?}");
    }
    // Move context travels in the properties bag.
    let results = log["runs"][0]["results"].as_array().unwrap();
    let ko = results.iter().find(|r| r["ruleId"] == "ko").expect("a ko result");
    assert_eq!(ko["properties"]["color"], "W");
    assert!(ko["properties"]["move"].as_u64().is_some());
}

#[test]
fn a_clean_run_is_a_valid_log_with_no_results() {
    let (log, jsonl, code) = check_both(manifest_dir(), &["--allow", "unknown-rules", "fixtures/example-game.sgf"]);
    assert_eq!(code, 0);
    assert!(jsonl.is_empty(), "{jsonl:?}");
    assert_eq!(log["runs"][0]["results"], serde_json::json!([]));
    assert_schema_valid(&log);
    assert_code_scanning_ready(&log, &jsonl, manifest_dir());
}

#[test]
fn deny_and_allow_change_levels_and_stay_valid() {
    let args = ["--deny", "warnings", "--allow", "unknown-rules", "fixtures/syntax", "fixtures/charset"];
    let (log, jsonl, code) = check_both(manifest_dir(), &args);
    assert_eq!(code, 1);
    assert_schema_valid(&log);
    assert_code_scanning_ready(&log, &jsonl, manifest_dir());
    assert!(!levels(&log).contains("warning"));
}

/// Paths with spaces, commas, '%', '#', ':' and non-ASCII letters, given
/// relative (with and without `./`) and absolute, and standard input.
#[test]
fn awkward_paths_become_valid_uris() {
    let tmp = tempfile::tempdir().unwrap();
    let sub = tmp.path().join("club games");
    std::fs::create_dir(&sub).unwrap();
    let ko = std::fs::read(manifest_dir().join("fixtures/moves/ko-retake-immediate.sgf")).unwrap();
    let names = ["round 1, #3 (50%).sgf", "棋譜 é.sgf", "a:b.sgf", "x?y[1].sgf"];
    for name in names {
        std::fs::write(sub.join(name), &ko).unwrap();
    }
    // A file is checked once however it is named: the `./` form comes
    // first, and the absolute path names a copy outside the folder.
    let elsewhere = tmp.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    let absolute = elsewhere.join(names[1]);
    std::fs::write(&absolute, &ko).unwrap();
    let args = ["./club games/a:b.sgf", "club games", absolute.to_str().unwrap()];
    let (log, jsonl, code) = check_both(tmp.path(), &args);
    assert_eq!(code, 1);
    assert_schema_valid(&log);
    assert_code_scanning_ready(&log, &jsonl, tmp.path());
    let uris: BTreeSet<&str> = log["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str().unwrap())
        .collect();
    assert!(uris.contains("club%20games/round%201%2C%20%233%20%2850%25%29.sgf"), "{uris:?}");
    assert!(uris.contains("club%20games/a%3Ab.sgf"), "':' escaped, or it would read as a scheme: {uris:?}");
    assert!(uris.contains("club%20games/%E6%A3%8B%E8%AD%9C%20%C3%A9.sgf"), "{uris:?}");
    assert!(uris.iter().any(|u| u.starts_with("file:///") && u.ends_with("/elsewhere/%E6%A3%8B%E8%AD%9C%20%C3%A9.sgf")));

    // Standard input.
    let out = kifu().args(["check", "--format", "sarif", "-"]).write_stdin(ko).output().unwrap();
    let log: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_schema_valid(&log);
    assert!(!log["runs"][0]["results"].as_array().unwrap().is_empty());
}

/// An evenly spaced sample of the corpus (every part: KGS, Fox, AI games,
/// the test suites), given as relative paths from the crate root.
#[test]
fn corpus_sample_gives_a_valid_log() {
    let Some(dir) = common::corpus_dir("") else { return };
    let files = common::sgf_files(&dir);
    assert!(files.len() > 1000, "corpus too small: {}", files.len());
    const SAMPLE: usize = 800;
    let paths: Vec<String> = (0..SAMPLE).map(|i| files[i * files.len() / SAMPLE].strip_prefix(manifest_dir()).unwrap().to_str().unwrap().to_string()).collect();
    let args: Vec<&str> = paths.iter().map(String::as_str).collect();
    let (log, jsonl, _) = check_both(manifest_dir(), &args);
    assert_schema_valid(&log);
    assert_code_scanning_ready(&log, &jsonl, manifest_dir());
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert!(results.len() >= SAMPLE / 2, "only {} results on {SAMPLE} corpus files", results.len());
    let found = levels(&log);
    assert!(found.contains("warning") && found.contains("note"), "{found:?}");
    let files_seen: BTreeSet<&str> = results.iter().map(|r| r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str().unwrap()).collect();
    assert!(files_seen.len() > SAMPLE / 4, "results from {} files only", files_seen.len());
}

/// `--summary-only`: no result, but the log is whole (tool, rules,
/// invocation) and says what was found: the summary line in a note of the
/// invocation, the counts in the run's properties.
#[test]
fn summary_only_is_a_valid_log_that_says_what_was_found() {
    let out = kifu().current_dir(manifest_dir()).args(["check", "--format", "sarif", "--summary-only", "fixtures"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "the fixtures hold errors");
    let log: Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    assert_schema_valid(&log);
    let run = &log["runs"][0];
    assert_eq!(run["results"], serde_json::json!([]));
    assert_eq!(run["tool"]["driver"]["rules"].as_array().unwrap().len(), kifu::diag::CODES.len());
    let summary = &run["properties"]["summary"];
    assert!(summary["errors"].as_u64().unwrap() > 0 && summary["by_code"]["ko"].as_u64().unwrap() > 0, "{summary}");
    let notes = run["invocations"][0]["toolExecutionNotifications"].as_array().expect("a notification");
    let line = notes.iter().find(|n| n["level"] == "note").expect("the summary note")["message"]["text"].as_str().unwrap();
    assert!(line.contains(" files, ") && line.contains(&format!("{} errors", summary["errors"])), "{line}");
}
