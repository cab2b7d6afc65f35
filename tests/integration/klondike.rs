//! Klondike: the policy checked move by move against an independent
//! reading of RULES.md section 4, the table's invariants on random deals
//! (proptest), the money, records. (Thread independence, bad input and
//! the JSON contract: games.rs.)

use deckodds::cards::Card;
use deckodds::games::klondike::{
    Event, Klondike, KlondikeParams, Observer, PILES, Table, sorted_deck,
};
use deckodds::rng::{shuffle, stream_rng};
use proptest::prelude::*;
use serde_json::Value;

use crate::support::run_line;

fn game(draw: u8, passes: u8) -> Klondike {
    Klondike::new(KlondikeParams { draw, passes }).unwrap()
}

fn is_red(card: Card) -> bool {
    matches!(card.suit(), 1 | 2)
}

/// Whether pile `p` of `table` takes `card`, read from RULES.md: a king on
/// an empty pile, else one rank lower in the other colour on its top.
fn takes(table: &Table, p: usize, card: Card) -> bool {
    match table.pile(p).0.last() {
        None => card.rank() == 13,
        Some(&top) => top.rank() == card.rank() + 1 && is_red(top) != is_red(card),
    }
}

fn fits_foundation(table: &Table, card: Card) -> bool {
    table.foundations()[usize::from(card.suit())] + 1 == card.rank()
}

/// The move RULES.md's policy makes on `table` (steps 1 to 3), or `None`
/// if step 4 (turn the stock) is next. Written from the rule book, not
/// from the game's code.
fn policy_move(table: &Table) -> Option<Event> {
    for pile in 0..PILES {
        if let Some(&card) = table.pile(pile).0.last()
            && fits_foundation(table, card)
        {
            return Some(Event::PileToFoundation { pile, card });
        }
    }
    let waste_top = table.waste().last().copied();
    if let Some(card) = waste_top {
        if fits_foundation(table, card) {
            return Some(Event::WasteToFoundation { card });
        }
        if let Some(pile) = (0..PILES).find(|&p| takes(table, p, card)) {
            return Some(Event::WasteToPile { pile, card });
        }
    }
    for from in 0..PILES {
        let (cards, face_down) = table.pile(from);
        let Some(&bottom) = cards.get(face_down) else {
            continue;
        };
        let king_on_bare_table = bottom.rank() == 13 && face_down == 0;
        for to in (0..PILES).filter(|&to| to != from) {
            let empty = table.pile(to).0.is_empty();
            if takes(table, to, bottom) && !(king_on_bare_table && empty) {
                return Some(Event::RunToPile {
                    from,
                    to,
                    card: bottom,
                    cards: cards.len() - face_down,
                });
            }
        }
    }
    None
}

/// Checks every event against the policy and the table's invariants.
struct Referee {
    before: Table,
    events: usize,
    moves: usize,
}

impl Observer for Referee {
    fn event(&mut self, event: Event, table: &Table) {
        self.events += 1;
        let before = &self.before;
        match event {
            Event::StockTurned { .. } | Event::Redeal { .. } => {
                // The stock is turned when no move is possible, or at once
                // when the waste is empty (at the start, after a move
                // emptied it, after a redeal).
                assert!(
                    policy_move(before).is_none() || before.waste().is_empty(),
                    "turned the stock with {:?} to make",
                    policy_move(before)
                );
            }
            Event::PileToFoundation { card, .. } | Event::WasteToFoundation { card } => {
                self.moves += 1;
                assert_eq!(Some(event), policy_move(before));
                // Foundations ascend by suit from the ace.
                assert_eq!(table.foundations()[usize::from(card.suit())], card.rank());
            }
            Event::WasteToPile { .. } | Event::RunToPile { .. } => {
                self.moves += 1;
                assert_eq!(Some(event), policy_move(before));
            }
        }
        check_invariants(table);
        self.before = *table;
    }
}

/// 52 cards, each in one place; face-up runs descend in alternating
/// colours; a face-down card only under a face-up one.
fn check_invariants(table: &Table) {
    let mut seen = [false; 256];
    let mut count = 0;
    let mut see = |card: Card| {
        assert!(!seen[usize::from(card.code())], "{card} in two places");
        seen[usize::from(card.code())] = true;
        count += 1;
    };
    for p in 0..PILES {
        let (cards, face_down) = table.pile(p);
        assert!(cards.is_empty() || face_down < cards.len(), "face-down top");
        cards.iter().for_each(|&c| see(c));
        for pair in cards[face_down..].windows(2) {
            assert_eq!(pair[0].rank(), pair[1].rank() + 1, "run descends");
            assert_ne!(is_red(pair[0]), is_red(pair[1]), "colours alternate");
        }
    }
    table.waste().iter().for_each(|&c| see(c));
    table.stock().iter().for_each(|&c| see(c));
    for (suit, &top) in table.foundations().iter().enumerate() {
        (1..=top).for_each(|rank| see(Card::new(rank, suit as u8)));
    }
    assert_eq!(count, 52);
}

/// Plays `deal` under the referee; returns the record and the final table.
fn refereed(game: Klondike, deal: &[Card]) -> (usize, Table) {
    let mut referee = Referee {
        before: game.deal(deal),
        events: 0,
        moves: 0,
    };
    check_invariants(&referee.before);
    let record = game.play_with(deal, &mut referee);
    assert_eq!(record, game.play(deal));
    assert_eq!(usize::from(record.moves), referee.moves);
    let end = referee.before;
    assert_eq!(
        end.foundations().iter().sum::<u8>(),
        record.foundation_cards
    );
    // The game ends only when it is won, or with the stock empty and no
    // move left.
    assert!(record.went_out() || (end.stock().is_empty() && policy_move(&end).is_none()));
    (referee.events, end)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    /// Every move is the one the policy makes, every turn of the stock is
    /// allowed, the invariants hold at every step, and the game ends.
    #[test]
    fn random_deals_follow_the_policy_and_keep_the_invariants(
        seed in any::<u64>(),
        draw in prop_oneof![Just(1u8), Just(3u8)],
        passes in 1u8..=4,
    ) {
        let mut deal = sorted_deck();
        shuffle(&mut stream_rng(seed, 0, 0), &mut deal);
        let (events, _) = refereed(game(draw, passes), &deal);
        prop_assert!(events > 0);
    }
}

/// Hand-made deals at the edges: the sorted deck and its reverse, under
/// every kind of rule.
#[test]
fn edge_deals_follow_the_policy() {
    let sorted = sorted_deck();
    let mut reversed = sorted;
    reversed.reverse();
    for deal in [sorted, reversed] {
        for (draw, passes) in [(1, 1), (3, 1), (1, 5), (3, 5)] {
            refereed(game(draw, passes), &deal);
        }
    }
}

/// The JSON contract: key `foundation-cards`, labels "0".."52", and a
/// money summary that adds up from the counts.
#[test]
fn mc_json_carries_the_distribution_and_the_money() {
    let text = run_line("klondike mc --quiet --trials 20000 --seed 4 --passes 2 --format json");
    let json: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["params"]["passes"], 2);
    let distribution = &json["distributions"][0];
    assert_eq!(distribution["key"], "foundation-cards");
    let labels: Vec<String> = (0..=52).map(|n| n.to_string()).collect();
    assert_eq!(crate::support::outcome_labels(distribution), labels);
    let counts: Vec<i64> = distribution["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["count"].as_i64().unwrap())
        .collect();
    let games: i64 = counts.iter().sum();
    assert_eq!(games, 20_000);
    let total: i64 = (0..=52).map(|n| counts[n as usize] * (5 * n - 52)).sum();
    let summary = |key: &str| -> Value {
        json["summary"]
            .as_array()
            .unwrap()
            .iter()
            .find(|item| item["key"] == key)
            .unwrap_or_else(|| panic!("no summary {key}"))
            .clone()
    };
    assert_eq!(summary("total-net")["value"].as_i64().unwrap(), total);
    let mean_net = summary("net-per-game");
    let mean_cards = distribution["mean"]["estimate"].as_f64().unwrap();
    let estimate = mean_net["estimate"].as_f64().unwrap();
    assert!((estimate - total as f64 / games as f64).abs() < 1e-9);
    assert!((estimate - (5.0 * mean_cards - 52.0)).abs() < 1e-9);
    let standard_error = mean_net["standard_error"].as_f64().unwrap();
    let cards_error = distribution["mean"]["standard_error"].as_f64().unwrap();
    assert!((standard_error - 5.0 * cards_error).abs() < 1e-9);
    let went_out = summary("went-out");
    assert_eq!(went_out["count"].as_i64().unwrap(), counts[52]);
    assert_eq!(went_out["trials"].as_i64().unwrap(), games);
}

/// The human table, with the money under it.
#[test]
fn mc_table_shows_the_money() {
    let text = run_line("klondike mc --quiet --trials 3000 --seed 2");
    insta::assert_snapshot!(text);
}

/// The cards played to the foundations, as a record states them.
fn cards_played(record: &str) -> u64 {
    let line = record
        .lines()
        .find_map(|line| line.strip_prefix("Cards played to the foundations: "))
        .expect("a cards-played line");
    line.split(' ').next().unwrap().parse().unwrap()
}

/// `record`'s game k is game k of `mc` with the same seed and rules: one
/// recorded game ends where a one-game run counts it; the deal line, given
/// back with --deal, reproduces the record; --went-out records games won.
#[test]
fn records_are_the_games_of_mc() {
    for (seed, rules) in [(1, ""), (7, "--draw 3"), (12, "--passes 3")] {
        let record = run_line(&format!(
            "klondike record --quiet --games 1 --seed {seed} --ascii {rules}"
        ));
        let json: Value = serde_json::from_str(&run_line(&format!(
            "klondike mc --quiet --trials 1 --seed {seed} --format json {rules}"
        )))
        .unwrap();
        let counted = json["distributions"][0]["outcomes"]
            .as_array()
            .unwrap()
            .iter()
            .position(|o| o["count"] == 1)
            .unwrap();
        assert_eq!(
            cards_played(&record) as usize,
            counted,
            "seed {seed} {rules}"
        );
        // The deal line gives the same game back.
        let deal = record
            .lines()
            .skip_while(|line| *line != "Deal, first card first:")
            .nth(1)
            .unwrap()
            .replace(' ', ",");
        let again = run_line(&format!(
            "klondike record --quiet --ascii {rules} --deal {deal}"
        ));
        let body = |text: &str| text.lines().skip(1).collect::<Vec<_>>().join("\n");
        assert_eq!(
            body(&again),
            body(&record[record.find('\n').unwrap() + 1..])
        );
    }
    let won = run_line("klondike record --quiet --games 2 --went-out --ascii");
    assert_eq!(won.matches("=== Game ").count(), 2);
    assert_eq!(
        won.matches("Cards played to the foundations: 52 of 52")
            .count(),
        2
    );
    assert!(won.is_ascii());
}
