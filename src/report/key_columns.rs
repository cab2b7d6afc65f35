//! The parameter columns of a long-form CSV: one column per parameter of
//! the distribution keys (`upcard`, `K`, `version`, ...), after the `key`
//! column, so that a data frame needs no splitting of `upcard=2`.

use crate::distribution::key_params;

/// The parameter columns of a table: the union of the keys' parameter
/// names, in the order they are first seen.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeyColumns {
    names: Vec<String>,
}

impl KeyColumns {
    /// The columns of a table whose rows have the keys `keys`.
    pub fn of<'a>(keys: impl IntoIterator<Item = &'a str>) -> KeyColumns {
        let mut names: Vec<String> = Vec::new();
        for key in keys {
            for (name, _) in key_params(key) {
                if !names.iter().any(|seen| seen == name) {
                    names.push(name.to_string());
                }
            }
        }
        KeyColumns { names }
    }

    /// The columns' headers: each parameter's name, or `key.NAME` for a
    /// name that is one of the table's own columns (`fixed`), so that
    /// every header names one column.
    pub fn header(&self, fixed: &[&str]) -> Vec<String> {
        self.names
            .iter()
            .map(|name| {
                if fixed.contains(&name.as_str()) {
                    format!("key.{name}")
                } else {
                    name.clone()
                }
            })
            .collect()
    }

    /// The cells of a row with key `key`: each parameter's value, empty
    /// where the key lacks it (or is a plain label).
    pub fn cells(&self, key: &str) -> Vec<String> {
        let params = key_params(key);
        self.names
            .iter()
            .map(|name| {
                params
                    .iter()
                    .find(|(param, _)| param == name)
                    .map_or(String::new(), |(_, value)| (*value).to_string())
            })
            .collect()
    }

    /// `header` with the parameter columns after its first `after`
    /// columns (those up to `key`).
    pub fn spliced_header(&self, header: &[&str], after: usize) -> Vec<String> {
        let mut full: Vec<String> = header[..after].iter().map(|h| h.to_string()).collect();
        full.extend(self.header(header));
        full.extend(header[after..].iter().map(|h| h.to_string()));
        full
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_the_union_in_first_seen_order_with_empty_cells_for_the_rest() {
        let keys = ["version=2 upcard=A", "cards-left", "K=1 upcard=3", ""];
        let columns = KeyColumns::of(keys);
        assert_eq!(
            columns.header(&["key", "outcome"]),
            ["version", "upcard", "K"]
        );
        assert_eq!(columns.cells("version=2 upcard=A"), ["2", "A", ""]);
        assert_eq!(columns.cells("cards-left"), ["", "", ""]);
        assert_eq!(columns.cells("K=1 upcard=3"), ["", "3", "1"]);
        assert_eq!(columns.cells("summary"), ["", "", ""]);
    }

    #[test]
    fn a_parameter_named_as_a_column_is_prefixed_and_plain_labels_add_none() {
        let columns = KeyColumns::of(["outcome=win key=1", "plain label"]);
        assert_eq!(
            columns.spliced_header(&["key", "outcome", "count"], 1),
            ["key", "key.outcome", "key.key", "outcome", "count"]
        );
        assert_eq!(
            KeyColumns::of(["cards-left", "stacks"]),
            KeyColumns::default()
        );
    }
}
