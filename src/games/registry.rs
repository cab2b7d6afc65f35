//! The one list of games: for each game, everything the layers above its
//! folder need to know about it and would otherwise each keep a list of:
//! its id (the top-level subcommand, the `game` of analysis specs, the
//! argument of `deckodds rules`), the name of its reports (the `"game"` of
//! their JSON), its name for people, its section of the rule book, the
//! heading of its tables in the results index, which of its commands
//! sample nothing or draw their own chart given an option, and how its
//! charts head their panels.
//!
//! Data only: no I/O, no logic beyond look-ups. A game's identity is
//! spelled here, in its own folder, its cli file and its command file, and
//! nowhere else (`tests/integration/house.rs` checks it, and checks that
//! every top-level subcommand but the cross-game ones has an entry here and
//! every entry a subcommand).

/// One of a game's commands given one of its options, both as the command
/// line spells them without dashes: `compare` with `published`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommandWith {
    /// The subcommand of the game: `compare`.
    pub command: &'static str,
    /// The option, without its dashes: `published`.
    pub option: &'static str,
}

/// A game deckodds plays, as the layers above its folder know it.
#[derive(Debug, PartialEq, Eq)]
pub struct GameEntry {
    /// The top-level subcommand that plays it, which analysis specs name as
    /// `game` and `deckodds rules` takes: `prisoners-patience`.
    pub id: &'static str,
    /// The `"game"` of its reports' JSON: `blackjack-dealer`. (Blackjack's
    /// effect-of-removal report appends `-eor` to it.)
    pub report_name: &'static str,
    /// Its name for people, as chart titles write it: `Prisoner's
    /// patience`. It names what the game's reports are of, so blackjack's
    /// is its dealer's (`Blackjack dealer`, the report `blackjack-dealer`).
    pub display_name: &'static str,
    /// The game as a reader names it, as the front page's headline table
    /// writes it: the display name, but for blackjack, whose headline rows
    /// are the player's (`Blackjack`).
    pub game_name: &'static str,
    /// The number of its section in RULES.md, which help texts, doc
    /// comments and `results/` cite; the sections follow the order of
    /// [`GAMES`].
    pub rules_section: u8,
    /// Further sections of the book for the same game, which extend the
    /// first: blackjack's player half (6), Klondike played freely (7).
    /// They are numbered after the five games' own sections, so that no
    /// number ever changes; `deckodds rules GAME` prints them too.
    pub later_sections: &'static [u8],
    /// The commands whose rules are those of one of the later sections,
    /// as (command, section): the blackjack player's commands (6),
    /// Klondike's solver (7). Every other command follows
    /// [`GameEntry::rules_section`]; see [`GameEntry::section_of`].
    pub later_section_commands: &'static [(&'static str, u8)],
    /// The heading of its tables in the results index, before `(RULES.md
    /// section N)`: `Roll-Call, or Hit or Miss`.
    pub results_heading: &'static str,
    /// Options with which one of its commands that can sample samples
    /// nothing, so that an analysis spec of it takes no `[monte-carlo]`:
    /// checking a published table, solving every arrangement.
    pub samples_nothing_with: &'static [CommandWith],
    /// Options with which one of its commands draws the chart of a spec's
    /// `svg` output itself (`--chart`), because the chart shows figures its
    /// JSON does not carry; every other chart is drawn from the JSON.
    pub draws_own_chart_with: &'static [CommandWith],
    /// Whether a report of it with one distribution per upcard (keys
    /// `upcard=...`) is drawn as stacked bars, one per upcard.
    pub stacks_upcards: bool,
    /// Distribution keys its charts head with words instead of the key:
    /// (key, heading).
    pub panel_headings: &'static [(&'static str, &'static str)],
    /// Names of `name=value` distribution keys its charts head with words:
    /// (name, words), giving `words = value`.
    pub panel_key_names: &'static [(&'static str, &'static str)],
    /// The outcome that is a win in a report of it with one distribution
    /// (the game's question), which its chart annotates with its
    /// probability: Idiot's Delight's `0` cards left. `None` for a game
    /// whose reports have no single win (blackjack's dealer, Roll-Call's
    /// several questions).
    pub win_outcome: Option<&'static str>,
}

impl GameEntry {
    /// The game's [`GameEntry::win_outcome`], for a game that has one: in
    /// a `const`, naming a game without one fails to compile.
    pub const fn win(&self) -> &'static str {
        match self.win_outcome {
            Some(win) => win,
            None => panic!("this game's reports have no single win outcome"),
        }
    }
}

/// Idiot's Delight (RULES.md section 1).
pub const IDIOTS_DELIGHT: GameEntry = GameEntry {
    id: "idiots-delight",
    report_name: "idiots-delight",
    display_name: "Idiot's Delight",
    game_name: "Idiot's Delight",
    rules_section: 1,
    later_sections: &[],
    later_section_commands: &[],
    results_heading: "Idiot's Delight",
    samples_nothing_with: &[],
    // `compare --published --chart` overlays the published table on the
    // bars; a spec draws the comparison's deviations from its JSON instead.
    draws_own_chart_with: &[],
    stacks_upcards: false,
    panel_headings: &[],
    panel_key_names: &[],
    win_outcome: Some("0"),
};

/// Roll-Call, or Hit or Miss (RULES.md section 2).
pub const ROLL_CALL: GameEntry = GameEntry {
    id: "roll-call",
    report_name: "roll-call",
    display_name: "Roll-Call",
    game_name: "Roll-Call",
    rules_section: 2,
    later_sections: &[],
    later_section_commands: &[],
    results_heading: "Roll-Call, or Hit or Miss",
    samples_nothing_with: &[],
    draws_own_chart_with: &[],
    stacks_upcards: false,
    panel_headings: &[
        ("zero-strike", "won without a strike"),
        ("first-pass-matches", "matches in the first pass"),
    ],
    panel_key_names: &[("K", "cards left, K")],
    win_outcome: None,
};

/// Prisoner's patience (RULES.md section 3).
pub const PRISONERS_PATIENCE: GameEntry = GameEntry {
    id: "prisoners-patience",
    report_name: "prisoners-patience",
    display_name: "Prisoner's patience",
    game_name: "Prisoner's patience",
    rules_section: 3,
    later_sections: &[],
    later_section_commands: &[],
    results_heading: "Prisoner's patience",
    samples_nothing_with: &[CommandWith {
        command: "solve",
        option: "every",
    }],
    draws_own_chart_with: &[],
    stacks_upcards: false,
    panel_headings: &[("sweep-x-free-choice", "fixed sweep × free choice")],
    panel_key_names: &[],
    win_outcome: Some("1"),
};

/// Klondike with a fixed policy (RULES.md section 4).
pub const KLONDIKE: GameEntry = GameEntry {
    id: "klondike",
    report_name: "klondike",
    display_name: "Klondike",
    game_name: "Klondike",
    rules_section: 4,
    later_sections: &[7],
    later_section_commands: &[("solve", 7)],
    results_heading: "Klondike",
    samples_nothing_with: &[],
    draws_own_chart_with: &[],
    stacks_upcards: false,
    panel_headings: &[],
    panel_key_names: &[],
    win_outcome: Some("52"),
};

/// Blackjack: the dealer's outcomes (RULES.md section 5).
pub const BLACKJACK: GameEntry = GameEntry {
    id: "blackjack",
    report_name: "blackjack-dealer",
    display_name: "Blackjack dealer",
    game_name: "Blackjack",
    rules_section: 5,
    later_sections: &[6],
    later_section_commands: &[
        ("player", 6),
        ("strategy", 6),
        ("house-edge", 6),
        ("house-edge-grid", 6),
        ("table", 6),
        ("cut-card-effect", 6),
        ("indices", 6),
        ("counts", 6),
        ("count-distribution", 6),
    ],
    results_heading: "Blackjack: the dealer's outcomes and the player's decisions",
    samples_nothing_with: &[CommandWith {
        command: "compare",
        option: "published",
    }],
    draws_own_chart_with: &[],
    stacks_upcards: true,
    panel_headings: &[],
    panel_key_names: &[],
    win_outcome: None,
};

/// The `"game"` of the blackjack player's reports (RULES.md section 6):
/// `blackjack player`'s values and `blackjack strategy`'s chart.
pub const BLACKJACK_PLAYER_REPORT: &str = "blackjack-player";

/// The `"game"` of `blackjack house-edge`'s report: the round's value and
/// its effects of removal (RULES.md section 6).
pub const BLACKJACK_HOUSE_EDGE_REPORT: &str = "blackjack-house-edge";

/// The `"game"` of `blackjack house-edge-grid`'s report: the round's value
/// under each rule set of a grid (RULES.md section 6).
pub const BLACKJACK_HOUSE_EDGE_GRID_REPORT: &str = "blackjack-house-edge-grid";

/// The `"game"` of `blackjack table`'s report: rounds at the table down a
/// shoe (RULES.md section 6, "At the table").
pub const BLACKJACK_TABLE_REPORT: &str = "blackjack-table";

/// The `"game"` of `blackjack cut-card-effect`'s report: the house edge off
/// the top, with one round per shoe and to a cut card, by decks (RULES.md
/// section 6, "At the table").
pub const BLACKJACK_CUT_CARD_REPORT: &str = "blackjack-cut-card-effect";

/// The `"game"` of `blackjack indices`' report: index plays for a count
/// (RULES.md section 6, "Index plays").
pub const BLACKJACK_INDICES_REPORT: &str = "blackjack-indices";

/// Every game, in the order of its section in RULES.md.
pub const GAMES: [&GameEntry; 5] = [
    &IDIOTS_DELIGHT,
    &ROLL_CALL,
    &PRISONERS_PATIENCE,
    &KLONDIKE,
    &BLACKJACK,
];

/// The game whose id is `id`, if any.
pub fn by_id(id: &str) -> Option<&'static GameEntry> {
    GAMES.into_iter().find(|game| game.id == id)
}

/// The game whose reports carry `report_name` as their `"game"`, if any.
pub fn by_report_name(report_name: &str) -> Option<&'static GameEntry> {
    GAMES
        .into_iter()
        .find(|game| game.report_name == report_name)
}

/// Every game's id, in the order of [`GAMES`], for messages that list the
/// ids allowed.
pub fn ids() -> Vec<&'static str> {
    GAMES.iter().map(|game| game.id).collect()
}

impl GameEntry {
    /// The section of RULES.md whose rules `command` (a subcommand of the
    /// game) follows: its later section if it is one of
    /// [`GameEntry::later_section_commands`], else the game's own.
    pub fn section_of(&self, command: &str) -> u8 {
        self.later_section_commands
            .iter()
            .find(|(name, _)| *name == command)
            .map_or(self.rules_section, |&(_, section)| section)
    }

    /// Whether `command` given `option` samples nothing (see
    /// [`GameEntry::samples_nothing_with`]).
    pub fn samples_nothing(&self, command: &str, option: &str) -> bool {
        contains(self.samples_nothing_with, command, option)
    }

    /// Whether `command` given `option` draws its own chart (see
    /// [`GameEntry::draws_own_chart_with`]).
    pub fn draws_own_chart(&self, command: &str, option: &str) -> bool {
        contains(self.draws_own_chart_with, command, option)
    }

    /// The words a chart heads the panel of distribution `key` with, if
    /// the game gives any: for the whole key, or for the name of a
    /// `name=value` key (`K=2` as `cards left, K = 2`).
    pub fn panel_heading(&self, key: &str) -> Option<String> {
        if let Some((_, words)) = self.panel_headings.iter().find(|(k, _)| *k == key) {
            return Some((*words).to_string());
        }
        let (name, value) = key.split_once('=')?;
        self.panel_key_names
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, words)| format!("{words} = {value}"))
    }
}

fn contains(list: &[CommandWith], command: &str, option: &str) -> bool {
    list.iter()
        .any(|entry| entry.command == command && entry.option == option)
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn ids_and_report_names_are_unique_and_sections_run_in_order() {
        let ids: HashSet<&str> = GAMES.iter().map(|game| game.id).collect();
        assert_eq!(ids.len(), GAMES.len());
        let reports: HashSet<&str> = GAMES.iter().map(|game| game.report_name).collect();
        assert_eq!(reports.len(), GAMES.len());
        for (index, game) in GAMES.iter().enumerate() {
            assert_eq!(usize::from(game.rules_section), index + 1, "{}", game.id);
            assert_eq!(by_id(game.id), Some(*game));
            assert_eq!(by_report_name(game.report_name), Some(*game));
        }
        assert_eq!(by_id("poker"), None);
        assert_eq!(by_report_name("blackjack-dealer-eor"), None);
    }

    #[test]
    fn panel_headings_read_whole_keys_then_key_names() {
        assert_eq!(
            ROLL_CALL.panel_heading("zero-strike").as_deref(),
            Some("won without a strike")
        );
        assert_eq!(
            ROLL_CALL.panel_heading("K=unlimited").as_deref(),
            Some("cards left, K = unlimited")
        );
        assert_eq!(ROLL_CALL.panel_heading("passes"), None);
        assert_eq!(PRISONERS_PATIENCE.panel_heading("K=2"), None);
    }

    #[test]
    fn exceptions_are_looked_up_by_command_and_option() {
        assert!(BLACKJACK.samples_nothing("compare", "published"));
        assert!(!BLACKJACK.samples_nothing("compare", "hands"));
        assert!(!IDIOTS_DELIGHT.samples_nothing("compare", "published"));
        // No game draws its own chart for a spec now (Idiot's Delight's
        // SAS comparison is drawn from its JSON); the look-up still works.
        assert!(!IDIOTS_DELIGHT.draws_own_chart("compare", "published"));
        let drawing = GameEntry {
            draws_own_chart_with: &[CommandWith {
                command: "compare",
                option: "published",
            }],
            ..IDIOTS_DELIGHT
        };
        assert!(drawing.draws_own_chart("compare", "published"));
        assert!(!drawing.draws_own_chart("compare", "hands"));
        assert!(!BLACKJACK.draws_own_chart("compare", "published"));
    }

    /// A command's section is one of its game's, and the player's half of
    /// blackjack and Klondike's solver cite theirs.
    #[test]
    fn commands_in_later_sections_cite_one_of_their_games_sections() {
        for game in GAMES {
            for &(_, section) in game.later_section_commands {
                assert!(game.later_sections.contains(&section), "{}", game.id);
            }
        }
        assert_eq!(BLACKJACK.section_of("exact"), 5);
        assert_eq!(BLACKJACK.section_of("strategy"), 6);
        assert_eq!(BLACKJACK.section_of("house-edge-grid"), 6);
        assert_eq!(KLONDIKE.section_of("mc"), 4);
        assert_eq!(KLONDIKE.section_of("solve"), 7);
        assert_eq!(ROLL_CALL.section_of("mc"), 2);
    }
}
