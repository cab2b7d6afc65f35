//! Deals as the JSON text of Solvitaire's deal files, written and read
//! (what the text means, and every check of it, is
//! `games::klondike::solvitaire`'s). No I/O.
//!
//! Written: one deal as a file of its own, a pile a line, as Solvitaire's
//! examples are laid out ([`render_deal_file`]: Solvitaire's command line
//! reads one deal a file); several as JSON Lines, one object a line
//! ([`render_deal_lines`]). The keys come in one order and the cards in
//! one spelling, so the same deals are the same bytes.
//!
//! Read ([`parse_deals`]): any JSON values one after another, each a deal
//! object or an array of them, so one object, an array, and JSON Lines
//! all read; the deals are numbered from 0 in the order they come.

use std::fmt::Write as _;

use serde::Deserialize;
use serde_json::Value;

use crate::cards::Card;
use crate::error::{Error, Result};
use crate::games::klondike::free_play::Layout;
use crate::games::klondike::solvitaire::SolvitaireDeal;

/// The keys of a deal object, as Solvitaire's schema allows them for
/// this game (no other: its schema has `additionalProperties: false`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DealObject {
    #[serde(rename = "tableau piles")]
    tableau_piles: Vec<Vec<String>>,
    #[serde(default)]
    stock: Vec<String>,
    #[serde(default)]
    foundations: Vec<String>,
    #[serde(default)]
    waste: Vec<String>,
}

/// A card text as a JSON string. (The texts are letters and digits, but
/// quoting through serde_json keeps the output JSON whatever they are.)
fn quoted(text: &str) -> String {
    Value::String(text.to_string()).to_string()
}

/// `["a", "b"]`, or `["a","b"]` when `compact`.
fn array(texts: &[String], compact: bool) -> String {
    let separator = if compact { "," } else { ", " };
    let items: Vec<String> = texts.iter().map(|t| quoted(t)).collect();
    format!("[{}]", items.join(separator))
}

/// The deal `deal` of `layout` as a Solvitaire deal file of its own: the
/// piles one a line, bottom card first; the stock on one line, its first
/// card turned last. Ends with a newline. Errors as
/// [`SolvitaireDeal::of_deal`] does.
pub fn render_deal_file(layout: &Layout, deal: &[Card]) -> Result<String> {
    let file = SolvitaireDeal::of_deal(layout, deal)?;
    let mut text = String::from("{\n  \"tableau piles\": [\n");
    for (i, pile) in file.tableau_piles.iter().enumerate() {
        let comma = if i + 1 < file.tableau_piles.len() {
            ","
        } else {
            ""
        };
        let _ = writeln!(text, "    {}{comma}", array(pile, false));
    }
    let _ = writeln!(text, "  ],\n  \"stock\": {}\n}}", array(&file.stock, false));
    Ok(text)
}

/// The deals of `layout` as JSON Lines: one compact object a line, in the
/// order given. Errors as [`SolvitaireDeal::of_deal`] does.
pub fn render_deal_lines<D: AsRef<[Card]>>(layout: &Layout, deals: &[D]) -> Result<String> {
    let mut text = String::new();
    for deal in deals {
        let file = SolvitaireDeal::of_deal(layout, deal.as_ref())?;
        let piles: Vec<String> = file
            .tableau_piles
            .iter()
            .map(|pile| array(pile, true))
            .collect();
        let _ = writeln!(
            text,
            "{{\"tableau piles\":[{}],\"stock\":{}}}",
            piles.join(","),
            array(&file.stock, true)
        );
    }
    Ok(text)
}

/// Whether `text` is JSON rather than deals one a line as `--deal` takes
/// them: its first character that is not white space opens an object or
/// an array (a card line starts with a rank, a comment with `#`).
pub fn is_json(text: &str) -> bool {
    matches!(text.trim_start().chars().next(), Some('{' | '['))
}

/// The deals of `layout` in `text` (JSON values one after another, each
/// a deal object or an array of deal objects), each in dealing order,
/// first first. A deal that is not a fresh deal of the layout, or text
/// that is not JSON, is refused with the line it starts on (from 1) and
/// what is wrong: `deal 3: tableau piles[2][0] "5H": is face up ...`
/// (deals numbered from 0), or the JSON parser's message, which gives
/// the line and column.
pub fn parse_deals(
    text: &str,
    layout: &Layout,
) -> std::result::Result<Vec<Vec<Card>>, (usize, Error)> {
    let mut deals = Vec::new();
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    // The line of the byte at `counted`, kept as the stream moves on, so
    // that finding each value's line reads the text once.
    let (mut line, mut counted) = (1, 0);
    loop {
        let start = stream.byte_offset()
            + text[stream.byte_offset()..]
                .find(|c: char| !c.is_whitespace())
                .unwrap_or(0);
        line += text.as_bytes()[counted..start]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        counted = start;
        let value = match stream.next() {
            None => break,
            Some(Ok(value)) => value,
            Some(Err(error)) => {
                return Err((
                    error.line().max(1),
                    Error::invalid("JSON", "text", format!("cannot be read: {error}")),
                ));
            }
        };
        let items = match value {
            Value::Array(items) => items,
            object => vec![object],
        };
        for item in items {
            let deal = read_deal(item, layout).map_err(|error| {
                let error = match error {
                    Error::InvalidValue {
                        parameter,
                        value,
                        allowed,
                    } => Error::InvalidValue {
                        parameter: format!("deal {}: {parameter}", deals.len()),
                        value,
                        allowed,
                    },
                    other => other,
                };
                (line, error)
            })?;
            deals.push(deal);
        }
    }
    Ok(deals)
}

/// The keys of a deal object, as [`DealObject`] names them.
const KEYS: [&str; 4] = ["tableau piles", "stock", "foundations", "waste"];

/// One deal object, read and checked.
fn read_deal(value: Value, layout: &Layout) -> Result<Vec<Card>> {
    let Some(object) = value.as_object() else {
        return Err(Error::invalid(
            "value",
            one_line_value(&value),
            "must be a deal: an object {\"tableau piles\": [...], \"stock\": [...]}, or an array of them",
        ));
    };
    if let Some(key) = object.keys().find(|key| !KEYS.contains(&key.as_str())) {
        return Err(Error::invalid(
            "key",
            Value::String(key.clone()),
            "is not a key of a Klondike deal in Solvitaire's format, which are \"tableau piles\", \"stock\", \"foundations\" and \"waste\"",
        ));
    }
    let object: DealObject = serde_path_to_error::deserialize(value).map_err(|error| {
        let path = error.path().to_string();
        let inner = error.into_inner().to_string();
        if path == "." || path.is_empty() {
            Error::invalid("object", "{...}", inner)
        } else {
            Error::invalid("value at", path, inner)
        }
    })?;
    SolvitaireDeal {
        tableau_piles: object.tableau_piles,
        stock: object.stock,
        foundations: object.foundations,
        waste: object.waste,
    }
    .to_deal(layout)
}

/// A JSON value for an error: its text, cut short if long.
fn one_line_value(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(60) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    use super::*;
    use crate::engine::montecarlo::{RunPlan, first_trials};
    use crate::games::klondike::brute::tests::random_deal;
    use crate::games::klondike::{Klondike, KlondikeSimulation};

    /// The first `n` deals of `klondike solve --trials n --seed seed`
    /// (chunks of 4, each from the sorted deck).
    fn solve_deals(n: usize, seed: u64) -> Vec<Vec<Card>> {
        let plan = RunPlan {
            chunk_size: 4,
            ..RunPlan::new(n as u64, seed, 0)
        };
        first_trials(&KlondikeSimulation::new(Klondike::standard()), &plan, n)
            .into_iter()
            .map(|(_, deal)| deal.to_vec())
            .collect()
    }

    fn full() -> Layout {
        Layout::FULL
    }

    #[test]
    fn a_thousand_seeded_deals_read_back_as_written_in_every_form() {
        let deals = solve_deals(1000, 1);
        let started = std::time::Instant::now();
        let lines = render_deal_lines(&full(), &deals).unwrap();
        assert_eq!(lines.lines().count(), 1000);
        assert_eq!(parse_deals(&lines, &full()).unwrap(), deals);
        let elapsed = started.elapsed();
        // An array of the same objects, and one file per deal.
        let array = format!("[{}]", lines.trim_end().replace('\n', ",\n"));
        assert_eq!(parse_deals(&array, &full()).unwrap(), deals);
        for deal in &deals {
            let file = render_deal_file(&full(), deal).unwrap();
            assert!(is_json(&file));
            assert_eq!(parse_deals(&file, &full()).unwrap(), vec![deal.clone()]);
        }
        // Written the same bytes again (one order of keys, one spelling).
        assert_eq!(render_deal_lines(&full(), &deals).unwrap(), lines);
        eprintln!("1,000 deals written and read back as JSON Lines in {elapsed:?}");
    }

    #[test]
    fn reduced_layouts_read_back_as_written() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(45);
        for ranks in 1..=13u8 {
            for piles in 1..=7u8 {
                let Ok(layout) = Layout::new(ranks, piles) else {
                    continue;
                };
                let deals: Vec<Vec<Card>> =
                    (0..20).map(|_| random_deal(layout, &mut rng)).collect();
                let lines = render_deal_lines(&layout, &deals).unwrap();
                assert_eq!(parse_deals(&lines, &layout).unwrap(), deals);
                let file = render_deal_file(&layout, &deals[0]).unwrap();
                assert_eq!(parse_deals(&file, &layout).unwrap()[0], deals[0]);
            }
        }
    }

    #[test]
    fn one_written_deal() {
        let deal = &solve_deals(1, 1)[0];
        insta::assert_snapshot!(render_deal_file(&full(), deal).unwrap());
        insta::assert_snapshot!(render_deal_lines(&full(), &[deal]).unwrap());
    }

    /// The message and line of reading `text` (which must be refused).
    fn refusal(text: &str) -> (usize, String) {
        let (line, error) = parse_deals(text, &full()).unwrap_err();
        (line, error.to_string())
    }

    #[test]
    fn a_bad_deal_is_named_by_its_number_and_line() {
        let deals = solve_deals(3, 2);
        let lines = render_deal_lines(&full(), &deals).unwrap();
        // The third deal (deal 2, line 4 after a blank line) has a key
        // Solvitaire does not allow.
        let mut text: Vec<String> = lines.lines().map(String::from).collect();
        text[2] = text[2].replacen('{', "{\"hole\": \"AS\", ", 1);
        let text = format!("{}\n\n{}\n{}\n", text[0], text[1], text[2]);
        let (line, message) = refusal(&text);
        assert_eq!(line, 4, "{message}");
        assert!(
            message.starts_with("deal 2: key \"hole\": is not a key of a Klondike deal in Solvitaire's format, which are \"tableau piles\", \"stock\", \"foundations\" and \"waste\""),
            "{message}"
        );
        // A wrong type is named by its path.
        let wrong = lines.replacen("\"stock\":[", "\"stock\":[5,", 1);
        let (line, message) = refusal(&wrong);
        assert_eq!(line, 1);
        assert!(
            message.starts_with(
                "deal 0: value at stock[0]: invalid type: integer `5`, expected a string"
            ),
            "{message}"
        );
        // Not JSON: the parser's line and column.
        let (line, message) = refusal("{\"tableau piles\": [\n[\"AC\",]]}");
        assert_eq!(line, 2);
        assert!(
            message.starts_with("JSON text: cannot be read: "),
            "{message}"
        );
        assert!(message.contains("line 2 column"), "{message}");
        // A value that is no deal.
        let (_, message) = refusal("[1]");
        assert!(
            message.starts_with("deal 0: value 1: must be a deal"),
            "{message}"
        );
        let (_, message) = refusal("{}");
        assert!(
            message.contains("missing field `tableau piles`"),
            "{message}"
        );
        // The game's own checks, numbered.
        // The first pile's one card (its top) written face down.
        let second = render_deal_file(&full(), &deals[1]).unwrap();
        let top = second.split('"').nth(3).unwrap();
        let second = second.replacen(
            &format!("[\"{top}\"]"),
            &format!("[\"{}\"]", top.to_lowercase()),
            1,
        );
        let (line, message) = refusal(&format!("{}\n{second}", lines.lines().next().unwrap()));
        assert_eq!(line, 2);
        assert!(
            message.starts_with(&format!(
                "deal 1: tableau piles[0][0] \"{}\": is face down",
                top.to_lowercase()
            )),
            "{message}"
        );
    }

    #[test]
    fn json_is_told_from_card_lines_by_its_first_character() {
        assert!(is_json("\n  {\"tableau piles\": []}"));
        assert!(is_json("[]"));
        assert!(!is_json("# deals\nAS 2S"));
        assert!(!is_json("AS 2S"));
        assert!(!is_json(""));
        assert_eq!(parse_deals("", &full()).unwrap(), Vec::<Vec<Card>>::new());
        assert_eq!(
            parse_deals(" [ ] \n", &full()).unwrap(),
            Vec::<Vec<Card>>::new()
        );
    }

    /// Text that looks like deal files: pieces of JSON and of deals.
    fn json_ish() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            Just("{".to_string()),
            Just("}".to_string()),
            Just("[".to_string()),
            Just("]".to_string()),
            Just(",".to_string()),
            Just(":".to_string()),
            Just("\n".to_string()),
            Just("\"tableau piles\"".to_string()),
            Just("\"stock\"".to_string()),
            Just("\"foundations\"".to_string()),
            Just("\"waste\"".to_string()),
            Just("null".to_string()),
            Just("1e999".to_string()),
            "\"[0-9AaJQKkT]{1,2}[CcDdHhSsX]\"",
            "\\PC{0,3}",
        ];
        proptest::collection::vec(piece, 0..80).prop_map(|pieces| pieces.concat())
    }

    proptest! {
        /// Any text: deals or a one-line error, never a panic.
        #[test]
        fn any_text_is_read_or_refused_in_one_line(text in prop_oneof![any::<String>(), json_ish()]) {
            if let Err((line, error)) = parse_deals(&text, &full()) {
                prop_assert!(line >= 1);
                prop_assert!(!error.to_string().contains('\n'));
            }
        }

        /// A written file with one edit: deals or a one-line error.
        #[test]
        fn an_edited_file_is_read_or_refused_in_one_line(
            seed in 0u64..1000,
            at in any::<usize>(),
            cut in 0usize..8,
            insert in "\\PC{0,3}",
        ) {
            let deals = solve_deals(2, seed);
            let text = render_deal_lines(&full(), &deals).unwrap();
            let mut chars: Vec<char> = text.chars().collect();
            let at = at % (chars.len() + 1);
            chars.drain(at..(at + cut).min(chars.len()));
            chars.splice(at..at, insert.chars());
            let text: String = chars.into_iter().collect();
            if let Err((_, error)) = parse_deals(&text, &full()) {
                prop_assert!(!error.to_string().contains('\n'));
            }
        }

        /// Any deals of any layout, written as lines or a file each, read
        /// back as written.
        #[test]
        fn any_deals_of_any_layout_read_back(
            ranks in 1u8..=13,
            piles in 1u8..=7,
            seed in any::<u64>(),
            n in 1usize..5,
        ) {
            let Ok(layout) = Layout::new(ranks, piles) else {
                return Ok(());
            };
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let deals: Vec<Vec<Card>> = (0..n).map(|_| random_deal(layout, &mut rng)).collect();
            let lines = render_deal_lines(&layout, &deals).unwrap();
            prop_assert_eq!(parse_deals(&lines, &layout).unwrap(), deals.clone());
            let files: String = deals
                .iter()
                .map(|deal| render_deal_file(&layout, deal).unwrap())
                .collect();
            prop_assert_eq!(parse_deals(&files, &layout).unwrap(), deals);
        }
    }
}
