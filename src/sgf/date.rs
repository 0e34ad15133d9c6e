//! Reading `DT` values as real files write them.
//!
//! FF[4] wants `YYYY-MM-DD` (a list of dates, later ones shortened: `2006-01-05,06`),
//! but archives hold `2017.08.09 02:47`, `2017/08/09 10:00:00 UT`, `9.3.2002`,
//! `August 9, 2011` and the like. [`first_date`] finds the first calendar date a
//! value names and says what of the value it did not use (a time, a second day),
//! so a caller can keep that part instead of losing it.

/// A calendar date; `month` and `day` are absent when the value names only a
/// year (or a year and month).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Date {
    pub year: u16,
    pub month: Option<u8>,
    pub day: Option<u8>,
}

impl Date {
    /// `2017-08-09`, `2017-08` or `2017`: the FF[4] and ISO 8601 forms.
    pub fn iso(&self) -> String {
        match (self.month, self.day) {
            (Some(m), Some(d)) => format!("{:04}-{m:02}-{d:02}", self.year),
            (Some(m), None) => format!("{:04}-{m:02}", self.year),
            _ => format!("{:04}", self.year),
        }
    }
}

/// The first date of a `DT` value, and the rest of the value after that date
/// (trimmed, `None` when empty), or `None` when no date can be read without
/// guessing (`a sunny afternoon`, `03-04-05`, `04/05/2002` where either order
/// fits).
pub fn first_date(value: &str) -> Option<(Date, Option<&str>)> {
    let (date, end) = numeric_date(value).or_else(|| named_month_date(value))?;
    let rest = value[end..].trim_matches(|c: char| c.is_whitespace() || c == ',');
    Some((date, (!rest.is_empty()).then_some(rest)))
}

/// `YYYY-MM-DD`, `YYYY.M.D`, `YYYY/MM/DD`, `YYYY-MM`, `YYYY` at the start;
/// or day first with the year last (`9.3.2002`, `28-03-2002`), read so only
/// when the separator is `.` (the European form) or the day is over 12.
/// Returns the date and the byte offset where its digits end.
fn numeric_date(value: &str) -> Option<(Date, usize)> {
    let start = value.len() - value.trim_start().len();
    let numbers = leading_numbers(&value[start..]);
    let n = |i: usize| numbers.get(i).and_then(|p: &Number| p.text.parse::<u16>().ok());
    let (date, used) = match numbers.iter().map(|p| p.text.len()).collect::<Vec<_>>().as_slice() {
        [4] | [4, 1 | 2] | [4, 1 | 2, 1 | 2] => {
            let (month, day) = (n(1).map(|m| m as u8), n(2).map(|d| d as u8));
            (Date { year: n(0)?, month, day }, numbers.len())
        }
        [1 | 2, 1 | 2, 4] => {
            let (first, second) = (n(0)? as u8, n(1)? as u8);
            let (day, month) = match numbers[0].separator {
                '.' => (first, second),
                _ if first > 12 => (first, second),
                _ if second > 12 => (second, first),
                _ => return None,
            };
            (Date { year: n(2)?, month: Some(month), day: Some(day) }, 3)
        }
        _ => return None,
    };
    valid(date).then(|| (date, start + numbers[used - 1].end))
}

/// A run of digits at the start of a date, the separator before the next
/// run, and the byte offset where it ends.
struct Number<'a> {
    text: &'a str,
    separator: char,
    end: usize,
}

/// Up to three runs of one to four digits at the start of `text`, joined by
/// one of `-./` (`2017.08.09`, `9.3.2002`).
fn leading_numbers(text: &str) -> Vec<Number<'_>> {
    let mut numbers = Vec::new();
    let mut at = 0;
    while numbers.len() < 3 {
        let digits = text[at..].bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 || digits > 4 {
            break;
        }
        let end = at + digits;
        let separator = text[end..].chars().next().filter(|c| matches!(c, '-' | '.' | '/'));
        numbers.push(Number { text: &text[at..end], separator: separator.unwrap_or(' '), end });
        match separator {
            Some(c) if text[end + 1..].starts_with(|d: char| d.is_ascii_digit()) => at = end + c.len_utf8(),
            _ => break,
        }
    }
    numbers
}

const MONTHS: [&str; 12] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/// A month named in English with a day and a four-digit year somewhere in
/// the value, as in `August 9, 2011` or `Sun Mar 12 10:00:00 GMT+09:00 2011`.
/// Numbers that are part of a time or a zone (`10:00:00`, `+09:00`) are not
/// days. The whole value is used.
fn named_month_date(value: &str) -> Option<(Date, usize)> {
    let words: Vec<&str> = value.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty()).collect();
    let month = words.iter().find_map(|w| {
        let w = w.to_ascii_lowercase();
        MONTHS.iter().position(|m| w.len() >= 3 && m.starts_with(&w[..3]) && w.chars().all(|c| c.is_ascii_alphabetic()) && (w.len() == 3 || full_month(&w)))
    })?;
    let plain: Vec<u16> = words.iter().filter(|w| w.bytes().all(|b| b.is_ascii_digit())).filter_map(|w| w.parse().ok()).collect();
    let year = *plain.iter().find(|&&n| n >= 1000)?;
    let days: Vec<u16> = plain.iter().copied().filter(|&n| (1..=31).contains(&n)).collect();
    let [day] = days.as_slice() else { return None };
    let date = Date { year, month: Some(month as u8 + 1), day: Some(*day as u8) };
    valid(date).then_some((date, value.len()))
}

fn full_month(word: &str) -> bool {
    ["january", "february", "march", "april", "june", "july", "august", "september", "october", "november", "december"].contains(&word) || word == "sept"
}

fn valid(date: Date) -> bool {
    let Some(month) = date.month else { return date.day.is_none() };
    if !(1..=12).contains(&month) {
        return false;
    }
    let Some(day) = date.day else { return true };
    let leap = date.year % 4 == 0 && (date.year % 100 != 0 || date.year % 400 == 0);
    let days_in_month = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    (1..=days_in_month).contains(&day)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(value: &str) -> Option<(String, Option<&str>)> {
        first_date(value).map(|(d, rest)| (d.iso(), rest))
    }

    #[test]
    fn the_forms_real_files_write() {
        assert_eq!(read("2017-08-09"), Some(("2017-08-09".into(), None)));
        assert_eq!(read("2017.08.09 02:47"), Some(("2017-08-09".into(), Some("02:47"))));
        assert_eq!(read("2006-01-05,2006-01-06"), Some(("2006-01-05".into(), Some("2006-01-06"))));
        assert_eq!(read("2006-01-05,06"), Some(("2006-01-05".into(), Some("06"))));
        assert_eq!(read("2019/06/18 10:00:00 UT"), Some(("2019-06-18".into(), Some("10:00:00 UT"))));
        assert_eq!(read("2003-9-7"), Some(("2003-09-07".into(), None)));
        assert_eq!(read("2003"), Some(("2003".into(), None)));
        assert_eq!(read("2003-11"), Some(("2003-11".into(), None)));
        assert_eq!(read("2021-03-04T10:20:30.123456789+09:00"), Some(("2021-03-04".into(), Some("T10:20:30.123456789+09:00"))));
        assert_eq!(read("9.3.2002"), Some(("2002-03-09".into(), None)));
        assert_eq!(read("28-03-2002"), Some(("2002-03-28".into(), None)));
        assert_eq!(read("August 9, 2011"), Some(("2011-08-09".into(), None)));
        assert_eq!(read("Sun Mar 12 10:00:00 GMT+09:00 2011"), Some(("2011-03-12".into(), None)));
    }

    #[test]
    fn what_cannot_be_read_without_guessing() {
        for value in ["", "a sunny afternoon last summer", "04-05-2002", "2017-13-01", "2017-02-30", "12th and 13th march 02", "123456"] {
            assert_eq!(read(value), None, "{value:?}");
        }
        assert_eq!(read("2016-02-29"), Some(("2016-02-29".into(), None)));
        assert_eq!(read("2100-02-29"), None);
    }
}
