//! `DT` in FF[4]'s ISO form: `YYYY-MM-DD`, or shorter (`YYYY-MM`,
//! `YYYY`), several dates joined by commas with later ones shortened
//! (`2017-08-09,10`, `2017-08-30,09-01`).

/// Whether a `DT` value is in FF[4] form.
pub fn is_ff4_date(value: &str) -> bool {
    let mut parts = value.split(',');
    let first = parts.next().unwrap_or("");
    let digits = |s: &str| s.split('-').map(|p| p.len()).collect::<Vec<_>>();
    let all_digits = |s: &str| s.split('-').all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    let full = |s: &str| all_digits(s) && matches!(digits(s)[..], [4] | [4, 2] | [4, 2, 2]);
    full(first) && parts.all(|p| full(p) || (all_digits(p) && matches!(digits(p)[..], [2] | [2, 2])))
}

/// A date in another common form (`2017.08.09 02:47`, `2017/08/09`,
/// `2017-8-9`, `2017-08-09T02:47:00+08:00`, year first) as ISO, with
/// what followed it (the time), trimmed; `None` when the value does not
/// start with such a date (`August 9, 2017`, `09.08.2017`: day and
/// month order unsure, left as written).
pub fn iso_date(value: &str) -> Option<(String, String)> {
    let value = value.trim();
    let end = value.find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | '/' | '-'))).unwrap_or(value.len());
    let (date, rest) = value.split_at(end);
    let fields: Vec<&str> = date.split(['.', '/', '-']).collect();
    let [year, month, day] = fields[..] else { return None };
    let number = |s: &str, max: u32| s.parse::<u32>().ok().filter(|n| (1..=max).contains(n) && s.len() <= 2);
    let (Some(month), Some(day)) = (number(month, 12), number(day, 31)) else { return None };
    if year.len() != 4 || !year.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let rest = rest.trim_start_matches('T').trim();
    Some((format!("{year}-{month:02}-{day:02}"), rest.to_string()))
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
        assert_eq!(iso("2020-03-04T10:11:12.5+08:00").as_deref(), Some("2020-03-04|10:11:12.5+08:00"));
        for unsure in ["09.08.2017", "August 9, 2017", "2017-13-01", "2017", "a sunny afternoon", "17.08.09"] {
            assert_eq!(iso(unsure), None, "{unsure}");
        }
    }
}
