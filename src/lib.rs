//! kifu: a fast, trustworthy toolkit for Go game records in SGF.
//!
//! Data flows one way: bytes → [`sgf`] (decode, parse, the lossless model)
//! → [`replay`] (on a [`board`], under [`rules`]) → [`analysis`] (chains,
//! regions, pass-alive) → [`score`] → diagnostics
//! ([`diag`]) → [`report`]. [`json`] converts the model to and from JSON;
//! [`arrays`] turns a replayed line into arrays for training pipelines;
//! [`check`] runs the whole pipeline on one file; `batch` runs it over
//! files, folders and archives on several threads (feature `batch`); `cli`
//! is the command line (feature `cli`, on by default). Each module knows
//! nothing of the stages after it.
//!
//! Features: `cli` (default) brings clap, indicatif, toml, ignore and
//! tempfile for the binary; `batch` (implied by `cli`) brings walkdir and
//! the archive readers. A library user who wants neither sets
//! `default-features = false`.

pub mod analysis;
pub mod arrays;
#[cfg(feature = "batch")]
pub mod batch;
mod bits;
pub mod board;
pub mod check;
#[cfg(feature = "cli")]
pub mod cli;
pub mod dedup;
pub mod diag;
pub mod formats;
pub mod info;
pub mod json;
pub mod provenance;
pub mod repair;
pub mod replay;
pub mod report;
pub mod rules;
pub mod score;
pub mod sgf;
mod spare;

/// The README's Rust example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
