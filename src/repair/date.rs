//! `DT` in FF[4]'s ISO form: `YYYY-MM-DD`, or shorter (`YYYY-MM`,
//! `YYYY`), several dates joined by commas with later ones shortened
//! (`2017-08-09,10`, `2017-08-30,09-01`).

use crate::sgf;

/// Whether a `DT` value is in FF[4] form.
pub fn is_ff4_date(value: &str) -> bool {
    let mut parts = value.split(',');
    let first = parts.next().unwrap_or("");
    let digits = |s: &str| s.split('-').map(|p| p.len()).collect::<Vec<_>>();
    let all_digits = |s: &str| s.split('-').all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    let full = |s: &str| all_digits(s) && matches!(digits(s)[..], [4] | [4, 2] | [4, 2, 2]);
    full(first) && parts.all(|p| full(p) || (all_digits(p) && matches!(digits(p)[..], [2] | [2, 2])))
}

/// A `DT` value not in FF[4] form as ISO (read by
/// [`sgf::date::first_date`]), with what the ISO form cannot hold: what
/// followed the date (a time, a second day), or the whole value when it
/// names the month in words (`Sun Mar 12 10:00:00 GMT+09:00 2011`);
/// `None` when no date can be read without guessing.
pub fn iso_date(value: &str) -> Option<(String, String)> {
    let (date, rest) = sgf::date::first_date(value)?;
    let kept = match rest {
        Some(rest) => rest,
        None if value.chars().any(char::is_alphabetic) => value.trim(),
        None => "",
    };
    Some((date.iso(), kept.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ff4_forms() {
        for ok in ["2017-08-09", "2017-08", "2017", "2017-08-09,10", "2017-08-30,09-01", "2017-08-09,2018-01-02"] {
            assert!(is_ff4_date(ok), "{ok}");
        }
        for bad in ["2017.08.09", "2017-8-9", "", "17-08-09", "2017-08-09 02:47", "August 9, 2017", "2017-08-09,"] {
            assert!(!is_ff4_date(bad), "{bad}");
        }
    }

    #[test]
    fn other_forms_to_iso() {
        let iso = |s: &str| iso_date(s).map(|(d, r)| format!("{d}|{r}"));
        assert_eq!(iso("2017.08.09 02:47").as_deref(), Some("2017-08-09|02:47"));
        assert_eq!(iso("2017.08.09").as_deref(), Some("2017-08-09|"));
        assert_eq!(iso("2017-8-9").as_deref(), Some("2017-08-09|"));
        assert_eq!(iso("2004/11/06 04:52:10 UT").as_deref(), Some("2004-11-06|04:52:10 UT"));
        assert_eq!(iso("Sun Mar 12 10:00:00 GMT+09:00 2011").as_deref(), Some("2011-03-12|Sun Mar 12 10:00:00 GMT+09:00 2011"));
        for unsure in ["04/05/2002", "a sunny afternoon"] {
            assert_eq!(iso(unsure), None, "{unsure}");
        }
    }
}
