//! CSV that people write (strategy charts, index files, published tables),
//! read the same way everywhere: a leading byte-order mark ignored, quoted
//! fields read as CSV reads them, whitespace around fields trimmed, lines
//! of any number of fields (the reader of each layout counts them), blank
//! lines skipped.

/// The records of `text` that are not blank, each with its line number
/// (from 1); or the line where `text` stops being CSV, and why.
pub fn records(text: &str) -> Result<Vec<(u64, csv::StringRecord)>, (u64, String)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let mut records = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, csv::Position::line);
            (line, format!("not valid CSV: {e}"))
        })?;
        if record.iter().all(str::is_empty) {
            continue;
        }
        let line = record.position().map_or(0, csv::Position::line);
        records.push((line, record));
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_lines_go_and_each_record_keeps_its_line() {
        let read = records("\u{feff}a, b\n\n , \n\"c,d\",e,f\n").unwrap();
        let lines: Vec<(u64, Vec<&str>)> = read
            .iter()
            .map(|(line, record)| (*line, record.iter().collect()))
            .collect();
        assert_eq!(lines, vec![(1, vec!["a", "b"]), (4, vec!["c,d", "e", "f"])]);
    }
}
