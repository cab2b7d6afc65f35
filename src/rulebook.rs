//! The rule book, `RULES.md`, compiled into the program so that an
//! installed binary can print it (`deckodds rules [GAME]`) without the
//! source tree.
//!
//! The book is a general part (cards, decks, shuffles) followed by one
//! numbered section per game, `## N. Title`, in the order of
//! [`registry::GAMES`]. Help texts, doc comments and `results/` cite
//! "RULES.md section N", so the numbers are fixed: a game's
//! [`GameEntry::rules_section`] is the number the book uses.
//! No I/O here: [`text_for`] returns the text and `commands` prints it.

use crate::error::{Error, Result};
use crate::games::registry::{self, GameEntry};

/// The whole rule book, as committed beside `ARCHITECTURE.md`.
pub const RULE_BOOK: &str = include_str!("../RULES.md");

/// Parses a game's id (`roll-call`), as `deckodds rules` takes it, into
/// its registry entry; the error lists every id allowed.
pub fn parse_game(text: &str) -> Result<&'static GameEntry> {
    registry::by_id(text.trim()).ok_or_else(|| {
        Error::invalid(
            "game",
            text,
            format!("must be one of {}", registry::ids().join(", ")),
        )
    })
}

/// The heading that opens section `number`: `## N. `.
fn heading(number: u8) -> String {
    format!("## {number}. ")
}

/// Where the line starting with `prefix` begins in the book, if any line
/// does.
fn line_starting(prefix: &str) -> Option<usize> {
    if RULE_BOOK.starts_with(prefix) {
        return Some(0);
    }
    RULE_BOOK
        .match_indices(&format!("\n{prefix}"))
        .next()
        .map(|(at, _)| at + 1)
}

/// The general part of the book: everything before section 1.
pub fn general() -> &'static str {
    let end = line_starting(&heading(1)).unwrap_or(RULE_BOOK.len());
    &RULE_BOOK[..end]
}

/// `game`'s section, from its heading to the next heading of the same
/// level (or the end of the book). Empty only if the book lacked the
/// section, which the tests rule out.
pub fn section(game: &GameEntry) -> &'static str {
    numbered_section(game.rules_section)
}

/// Every section number the book holds: each game's own and the later
/// ones that extend a game.
pub fn section_numbers() -> Vec<u8> {
    let mut numbers: Vec<u8> = registry::GAMES
        .iter()
        .flat_map(|game| {
            std::iter::once(game.rules_section).chain(game.later_sections.iter().copied())
        })
        .collect();
    numbers.sort_unstable();
    numbers
}

/// Section `number`, from its heading to the next heading of the same
/// level (or the end of the book); empty if the book lacks it.
fn numbered_section(number: u8) -> &'static str {
    let Some(start) = line_starting(&heading(number)) else {
        return "";
    };
    let body = &RULE_BOOK[start..];
    // The next `## ` heading after this one's own line.
    let end = body
        .match_indices("\n## ")
        .next()
        .map_or(body.len(), |(at, _)| at + 1);
    &body[..end]
}

/// What `deckodds rules [GAME]` prints: the whole book, or the general
/// part, `game`'s section and the later sections that extend it.
pub fn text_for(game: Option<&GameEntry>) -> String {
    match game {
        None => RULE_BOOK.to_string(),
        Some(game) => {
            let mut text = format!("{}{}", general(), section(game));
            for &later in game.later_sections {
                // Sections end with their last line; a blank line keeps
                // the next heading apart, as in the book.
                if !text.ends_with("\n\n") {
                    text.push('\n');
                }
                text.push_str(numbered_section(later));
            }
            text
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_its_numbered_section_in_order() {
        let mut last = 0;
        for game in registry::GAMES {
            let text = section(game);
            assert!(
                text.starts_with(&heading(game.rules_section)),
                "section {} of RULES.md is missing",
                game.rules_section
            );
            let at = line_starting(&heading(game.rules_section)).unwrap();
            assert!(at > last, "section {} is out of order", game.rules_section);
            last = at;
        }
    }

    #[test]
    fn a_section_holds_its_own_game_and_no_other() {
        for game in registry::GAMES {
            let text = section(game);
            assert_eq!(
                text.matches("\n## ").count() + usize::from(text.starts_with("## ")),
                1,
                "section {} holds one heading of its level",
                game.rules_section
            );
            for other in registry::GAMES.iter().filter(|&&other| other != game) {
                assert!(!text.contains(&heading(other.rules_section)));
            }
        }
    }

    #[test]
    fn later_sections_exist_come_after_the_games_and_are_printed_with_their_game() {
        let numbers = section_numbers();
        let mut deduplicated = numbers.clone();
        deduplicated.dedup();
        assert_eq!(numbers, deduplicated, "a section belongs to one game");
        assert_eq!(numbers, (1..=numbers.len() as u8).collect::<Vec<_>>());
        for game in registry::GAMES {
            let printed = text_for(Some(game));
            for &later in game.later_sections {
                assert!(later as usize > registry::GAMES.len(), "{later}");
                let text = numbered_section(later);
                assert!(
                    text.starts_with(&heading(later)),
                    "section {later} is missing"
                );
                assert!(printed.contains(text), "{}: section {later}", game.id);
            }
        }
    }

    #[test]
    fn the_general_part_comes_first_and_names_the_shuffles() {
        let general = general();
        assert!(general.starts_with("# "));
        assert!(!general.contains(&heading(1)));
        for shuffle in ["uniform", "naive", "naive-carry"] {
            assert!(general.contains(&format!("`{shuffle}`")), "{shuffle}");
        }
        assert_eq!(text_for(None), RULE_BOOK);
        let roll_call = text_for(Some(&registry::ROLL_CALL));
        assert!(roll_call.starts_with(general));
        assert!(roll_call.ends_with(section(&registry::ROLL_CALL)));
    }

    #[test]
    fn names_parse_and_unknown_ones_list_the_allowed() {
        for game in registry::GAMES {
            assert_eq!(parse_game(game.id).unwrap(), game);
        }
        let message = parse_game("poker").unwrap_err().to_string();
        assert_eq!(
            message,
            "game poker: must be one of idiots-delight, roll-call, prisoners-patience, klondike, blackjack"
        );
    }
}
