//! kifu: a fast, trustworthy toolkit for Go game records in SGF.
//!
//! Data flows one way: bytes → [`sgf`] (decode, parse, the lossless model)
//! → [`replay`] (on a [`board`], under [`rules`]) → diagnostics
//! ([`diag`]) → [`report`]. [`json`] converts the model to and from JSON;
//! [`check`] runs the whole pipeline on one file; [`cli`] is the command
//! line. Each module knows nothing of the stages after it.

pub mod board;
pub mod check;
pub mod cli;
pub mod dedup;
pub mod diag;
pub mod json;
pub mod replay;
pub mod report;
pub mod rules;
pub mod score;
pub mod sgf;

/// The README's Rust example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
