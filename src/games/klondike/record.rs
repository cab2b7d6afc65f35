//! The record of one Klondike game (RULES.md section 4), for a person who
//! knows the game: the deal, every move with the rule that made it, the
//! stock turns, and the end with the foundations and the money.
//!
//! Also the record of a won game of free play (RULES.md section 7), in the
//! same format: [`render_solution`].
//!
//! Architecture invariant: like the rest of `report`, this only builds a
//! string; it plays the game through [`Klondike::play_with`] (the one play
//! function, so the record cannot disagree with the odds), or a free-play
//! game through the rules checker ([`check::replay`]), and does no I/O.

use std::fmt::Write as _;

use crate::cards::{Card, rank_name};
use crate::error::Result;
use crate::games::klondike::check::{self, FreeTable};
use crate::games::klondike::free_play::{FreeMove, FreePlayRules, Layout, Passes};
use crate::games::klondike::{
    Event, Klondike, KlondikeRecord, Observer, PAY_PER_CARD, PILES, STAKE, Table,
};

/// How suits are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SuitStyle {
    /// Suit symbols: `10♥ A♠` (♣ ♦ ♥ ♠), and `—` `–` for ranges.
    #[default]
    Unicode,
    /// Plain ASCII, as [`Card`]'s `Display` writes cards: `10H AS`.
    Ascii,
}

/// Presentation choices for [`render_record`]; they change no card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct RecordOptions {
    /// How suits are written (Unicode by default).
    pub suits: SuitStyle,
}

/// Marks a face-down card in a tableau; the same in both styles.
const FACE_DOWN: &str = "##";

/// Plays `deal` (a permutation of the 52 cards, checked by the caller) with
/// `game` and returns the record text, ending with a newline.
///
/// The record, in order: a line naming the rules and the money; the deal,
/// first card first, on one line of cards separated by single spaces (in
/// [`SuitStyle::Ascii`] it parses back card by card with
/// [`crate::cards::parse_card`], so it can be given again as `--deal`); the
/// tableau after the deal, piles 1 to 7 as columns, face-down cards `##`;
/// the stock in the order it is turned; every event in order, moves
/// numbered 1 to [`KlondikeRecord::moves`] and marked with the rule of
/// RULES.md section 4 that made them, each with the cards turned up by it,
/// and the stock turns and redeals unnumbered with what caused them; and
/// the end: why the game ended, the tableau, any cards still face down,
/// the waste, the foundations, the moves and turns made, the cards played
/// to the foundations ([`KlondikeRecord::foundation_cards`]) and the net
/// winnings ([`KlondikeRecord::net`]).
///
/// Guarantee: deterministic (the same deal gives the same text); with
/// [`SuitStyle::Ascii`] the text is pure ASCII. Cost: one game, linear in
/// its events.
pub fn render_record(game: &Klondike, deal: &[Card], options: &RecordOptions) -> String {
    let style = options.suits;
    let dealt = game.deal(deal);
    let mut log = EventLog { events: Vec::new() };
    let record = game.play_with(deal, &mut log);
    let end = log.events.last().map_or(dealt, |&(_, table)| table);

    let mut out = String::new();
    let params = game.params();
    let _ = writeln!(
        out,
        "Klondike, draw {}, {} through the stock; ${STAKE} a game, ${PAY_PER_CARD} a foundation card",
        params.draw,
        plural(usize::from(params.passes), "pass", "passes"),
    );
    write_deal(
        &mut out,
        style,
        deal,
        &tableau(&dealt, style),
        dealt.stock(),
    );
    out.push_str("Play: moves numbered, each with the rule that made it: (1) to a foundation,\n");
    out.push_str("(2) waste to a pile, (3) a run to a pile, (4) no move, so turn the stock.\n");
    let turns = play(&mut out, game, &dealt, &log.events, style);
    out.push('\n');
    ending(&mut out, &end, &record, turns, style);
    out
}

/// The part every record starts with after its first line: the deal on
/// one line, the tableau after the deal (`tableau`, as the caller laid
/// it out) and the stock in the order it is turned.
fn write_deal(out: &mut String, style: SuitStyle, deal: &[Card], tableau: &str, stock: &[Card]) {
    out.push('\n');
    out.push_str("Deal, first card first:\n");
    let _ = writeln!(out, "{}", style.cards(deal));
    out.push('\n');
    let _ = writeln!(out, "Tableau after the deal ({FACE_DOWN} face down):");
    out.push_str(tableau);
    out.push('\n');
    let _ = writeln!(
        out,
        "Stock, in the order it is turned ({} cards):",
        stock.len()
    );
    let _ = writeln!(out, "{}", style.cards(stock));
    out.push('\n');
}

/// Keeps every event with the table after it; a game has at most a few
/// hundred, so the copies cost nothing worth saving.
struct EventLog {
    events: Vec<(Event, Table)>,
}

impl Observer for EventLog {
    fn event(&mut self, event: Event, table: &Table) {
        self.events.push((event, *table));
    }
}

/// What the turns and redeals counted while writing the play.
struct Turns {
    /// Stock turns, each of one to `draw` cards.
    stock_turns: usize,
    /// Passes through the stock begun, 1 plus the redeals.
    passes: usize,
}

/// Writes one line per event; returns the turns counted.
fn play(
    out: &mut String,
    game: &Klondike,
    dealt: &Table,
    events: &[(Event, Table)],
    style: SuitStyle,
) -> Turns {
    let passes_allowed = game.params().passes;
    let mut before = dealt;
    let mut previous: Option<Event> = None;
    let mut moves = 0;
    let mut turns = Turns {
        stock_turns: 0,
        passes: 1,
    };
    for (event, after) in events {
        let line = match *event {
            Event::StockTurned { .. } => {
                turns.stock_turns += 1;
                // Why the stock was turned: RULES.md turns one card at the
                // start, one whenever a move empties the waste, and one as
                // step 4 when no move is possible (after a redeal the
                // redeal line has said so already).
                let (cause, onto) = match previous {
                    None => ("start: turned", "the waste"),
                    Some(Event::Redeal { .. }) => ("then turned", "the waste"),
                    Some(_) if before.waste().is_empty() => ("the waste is empty, so turned", "it"),
                    Some(_) => ("(4) turned", "the waste"),
                };
                let turned = &after.waste()[before.waste().len()..];
                let on_top = if turned.len() > 1 {
                    format!(
                        ", {} on top",
                        style.card(after.waste()[after.waste().len() - 1])
                    )
                } else {
                    String::new()
                };
                let left = match after.stock().len() {
                    0 => "the stock is now empty".to_string(),
                    n => format!("{n} left in the stock"),
                };
                format!(
                    "      {cause} {} onto {onto}{on_top}; {left}",
                    style.cards(turned)
                )
            }
            Event::Redeal { pass } => {
                turns.passes = usize::from(pass);
                format!(
                    "      (4) the stock is empty: the waste ({}) turned over as the stock, pass {pass} of {passes_allowed}",
                    plural(after.stock().len(), "card", "cards")
                )
            }
            _ => {
                moves += 1;
                format!(
                    "{moves:>4}  {}{}",
                    describe_move(event, before, style),
                    consequences(event, before, after, style)
                )
            }
        };
        let _ = writeln!(out, "{line}");
        before = after;
        previous = Some(*event);
    }
    turns
}

/// A move as a reader checks it against the rules: the rule, the cards,
/// where from and where to (what they went onto is read from `before`).
fn describe_move(event: &Event, before: &Table, style: SuitStyle) -> String {
    let onto = |pile: usize| match before.pile(pile).0.last() {
        Some(&top) => format!("onto {} on pile {}", style.card(top), pile + 1),
        None => format!("to the empty pile {}", pile + 1),
    };
    match *event {
        Event::PileToFoundation { pile, card } => format!(
            "(1) {} from pile {} to the foundation",
            style.card(card),
            pile + 1
        ),
        Event::WasteToFoundation { card } => {
            format!("(1) {} from the waste to the foundation", style.card(card))
        }
        Event::WasteToPile { pile, card } => {
            format!("(2) {} from the waste {}", style.card(card), onto(pile))
        }
        Event::RunToPile {
            from, to, cards, ..
        } => {
            let (pile, _) = before.pile(from);
            let run = &pile[pile.len() - cards..];
            let count = if cards > 1 {
                format!(" ({cards} cards)")
            } else {
                String::new()
            };
            format!(
                "(3) {}{count} from pile {} {}",
                style.cards(run),
                from + 1,
                onto(to)
            )
        }
        Event::StockTurned { .. } | Event::Redeal { .. } => unreachable!("not a move"),
    }
}

/// What a move did besides itself, found by comparing the tables: cards
/// turned up, piles emptied, and the waste's new top card.
fn consequences(event: &Event, before: &Table, after: &Table, style: SuitStyle) -> String {
    let mut notes = Vec::new();
    for p in 0..PILES {
        let (was, was_down) = before.pile(p);
        let (is, is_down) = after.pile(p);
        if is_down < was_down {
            notes.push(format!(
                "{} turned up on pile {}",
                style.card(is[is_down]),
                p + 1
            ));
        } else if is.is_empty() && !was.is_empty() {
            notes.push(format!("pile {} is empty", p + 1));
        }
    }
    if matches!(
        event,
        Event::WasteToFoundation { .. } | Event::WasteToPile { .. }
    ) && let Some(&top) = after.waste().last()
    {
        notes.push(format!("{} is on top of the waste", style.card(top)));
    }
    notes.iter().map(|note| format!("; {note}")).collect()
}

/// The end: why, the table, the foundations, the counts and the money.
fn ending(out: &mut String, end: &Table, record: &KlondikeRecord, turns: Turns, style: SuitStyle) {
    let why = if record.went_out() {
        "all 52 cards are on the foundations".to_string()
    } else if end.waste().is_empty() {
        "the stock and the waste are empty and no move is possible".to_string()
    } else if turns.passes > 1 {
        format!(
            "the stock is empty after pass {} and no move is possible",
            turns.passes
        )
    } else {
        "the stock is empty and no move is possible".to_string()
    };
    let _ = writeln!(out, "End: {why}.");
    let _ = writeln!(out, "Tableau at the end ({FACE_DOWN} face down):");
    out.push_str(&tableau(end, style));
    let hidden: Vec<String> = (0..PILES)
        .filter_map(|p| {
            let (cards, down) = end.pile(p);
            (down > 0).then(|| format!("pile {}: {}", p + 1, style.cards(&cards[..down])))
        })
        .collect();
    if !hidden.is_empty() {
        let _ = writeln!(out, "Still face down, bottom first: {}", hidden.join("; "));
    }
    if !end.waste().is_empty() {
        let _ = writeln!(out, "Waste, top last: {}", style.cards(end.waste()));
    }
    let foundations: Vec<String> = end
        .foundations()
        .iter()
        .enumerate()
        .map(|(suit, &top)| {
            let cards = match top {
                0 => style.dash().to_string(),
                1 => rank_name(1).to_string(),
                _ => format!("{}{}{}", rank_name(1), style.range(), rank_name(top)),
            };
            format!("{} {cards}", style.suit(suit as u8))
        })
        .collect();
    let _ = writeln!(out, "Foundations: {}", foundations.join("  "));
    let _ = writeln!(
        out,
        "Moves: {}; stock turns: {}",
        record.moves, turns.stock_turns
    );
    let played = record.foundation_cards;
    let _ = writeln!(out, "Cards played to the foundations: {played} of 52");
    let net = record.net();
    let sign = if net < 0 { '-' } else { '+' };
    let _ = writeln!(
        out,
        "Money: paid ${STAKE}, won ${PAY_PER_CARD} x {played} = ${}, net {sign}${}",
        PAY_PER_CARD * i32::from(played),
        net.abs()
    );
}

/// The seven piles as columns headed 1 to 7, bottom card in the first row;
/// an empty pile shows a dash.
fn tableau(table: &Table, style: SuitStyle) -> String {
    piles_as_columns(PILES, |p| table.pile(p), style)
}

/// `piles` piles as columns headed 1 to `piles`, bottom card in the first
/// row; `pile(p)` gives pile `p`'s cards, bottom first, and how many are
/// face down. An empty pile shows a dash.
fn piles_as_columns<'a>(
    piles: usize,
    pile: impl Fn(usize) -> (&'a [Card], usize),
    style: SuitStyle,
) -> String {
    /// Wide enough for `10♥` and two spaces between columns.
    const WIDTH: usize = 5;
    let mut out = String::new();
    let header: String = (1..=piles).map(|p| format!("{p:<WIDTH$}")).collect();
    let _ = writeln!(out, "  {}", header.trim_end());
    let rows = (0..piles).map(|p| pile(p).0.len()).max().unwrap_or(0);
    for row in 0..rows.max(1) {
        let line: String = (0..piles)
            .map(|p| {
                let (cards, down) = pile(p);
                let cell = match cards.get(row) {
                    Some(_) if row < down => FACE_DOWN.to_string(),
                    Some(&card) => style.card(card),
                    None if row == 0 => style.dash().to_string(),
                    None => String::new(),
                };
                // Pad by characters, not bytes: a suit symbol is one
                // column but three bytes.
                format!("{cell:<WIDTH$}")
            })
            .collect();
        let _ = writeln!(out, "  {}", line.trim_end());
    }
    out
}

/// `1 pass`, `3 passes`.
fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

impl SuitStyle {
    /// A suit's symbol or letter (suits 0..=3 are clubs, diamonds, hearts,
    /// spades).
    fn suit(self, suit: u8) -> String {
        match self {
            SuitStyle::Unicode => ['♣', '♦', '♥', '♠'][usize::from(suit)].to_string(),
            SuitStyle::Ascii => ['C', 'D', 'H', 'S'][usize::from(suit)].to_string(),
        }
    }

    fn card(self, card: Card) -> String {
        match self {
            SuitStyle::Unicode => format!("{}{}", rank_name(card.rank()), self.suit(card.suit())),
            SuitStyle::Ascii => card.to_string(),
        }
    }

    /// Cards separated by single spaces, so the text parses back.
    fn cards(self, cards: &[Card]) -> String {
        let names: Vec<String> = cards.iter().map(|&card| self.card(card)).collect();
        names.join(" ")
    }

    /// Written for "none" (an empty pile or foundation).
    fn dash(self) -> &'static str {
        match self {
            SuitStyle::Unicode => "—",
            SuitStyle::Ascii => "-",
        }
    }

    /// Between the ends of a range of ranks, as in `A–5`.
    fn range(self) -> &'static str {
        match self {
            SuitStyle::Unicode => "–",
            SuitStyle::Ascii => "-",
        }
    }
}

/// The record of a won game of free play (RULES.md section 7): `moves`
/// played on `deal` under `rules`, replayed through the rules checker
/// ([`check::replay`]) first, so an illegal or losing list is an error and
/// never a wrong record. Any layout: a reduced deck is named in the first
/// line and its tableau has `rules.layout.piles` columns.
///
/// The record, in order: a line naming the rules (draw, passes, and the
/// deck if reduced); the deal, first card first, on one line (in
/// [`SuitStyle::Ascii`] each card parses back with
/// [`crate::cards::parse_card`], so a full deal can be given again as
/// `--deal`); the tableau after the deal, piles numbered from 1 as
/// columns, face-down cards `##`; the stock in the order it is turned;
/// every move numbered from 1 with the cards it moves, where to, and the
/// cards it turns up, and the stock turns unnumbered (a turn that first
/// turns the waste over says so, with the pass it begins); and the end: the
/// foundations, the moves, turns and passes made.
///
/// Guarantee: deterministic; pure ASCII with [`SuitStyle::Ascii`]. Errors:
/// a bad deal, an illegal move (named by its number), or a list that does
/// not end with every card on the foundations.
pub fn render_solution(
    rules: &FreePlayRules,
    deal: &[Card],
    moves: &[FreeMove],
    options: &RecordOptions,
) -> Result<String> {
    let tables = check::replay(rules, deal, moves)?;
    let dealt = FreeTable::deal(rules, deal)?;
    let style = options.suits;
    let layout = rules.layout;
    let passes = match rules.passes {
        Passes::Limited(n) => plural(usize::from(n), "pass", "passes"),
        Passes::Unlimited => "unlimited passes".to_string(),
    };
    let deck = if layout == Layout::FULL {
        String::new()
    } else {
        format!(
            "; a reduced deck of 4 suits A to {}, {}",
            rank_name(layout.ranks),
            plural(usize::from(layout.piles), "pile", "piles")
        )
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Klondike free play, draw {}, {passes} through the stock{deck}: a won game",
        rules.draw
    );
    write_deal(
        &mut out,
        style,
        deal,
        &free_tableau(&dealt, style),
        &dealt.stock,
    );
    out.push_str("Play: moves numbered, stock turns not.\n");
    let mut before = &dealt;
    let mut numbered = 0;
    let mut stock_turns = 0;
    for (&mv, after) in moves.iter().zip(&tables) {
        let line = if mv == FreeMove::Turn {
            stock_turns += 1;
            free_turn(before, after, rules.passes, style)
        } else {
            numbered += 1;
            format!(
                "{numbered:>4}  {}{}",
                describe_free_move(mv, before, style),
                free_consequences(mv, before, after, style)
            )
        };
        let _ = writeln!(out, "{line}");
        before = after;
    }
    out.push('\n');
    let _ = writeln!(
        out,
        "End: all {} cards are on the foundations.",
        layout.n_cards()
    );
    let foundations: Vec<String> = (0..4u8)
        .map(|suit| {
            format!(
                "{} {}{}{}",
                style.suit(suit),
                rank_name(1),
                style.range(),
                rank_name(layout.ranks)
            )
        })
        .collect();
    let _ = writeln!(out, "Foundations: {}", foundations.join("  "));
    let _ = writeln!(
        out,
        "Moves: {numbered}; stock turns: {stock_turns}; passes through the stock: {}",
        before.passes_used
    );
    Ok(out)
}

/// A free table's piles as columns.
fn free_tableau(table: &FreeTable, style: SuitStyle) -> String {
    piles_as_columns(
        table.piles.len(),
        |p| (table.piles[p].cards.as_slice(), table.piles[p].face_down),
        style,
    )
}

/// A stock turn's line: the cards turned, and the waste turned over first
/// if the stock was empty.
fn free_turn(before: &FreeTable, after: &FreeTable, passes: Passes, style: SuitStyle) -> String {
    let (redeal, kept) = if before.stock.is_empty() {
        let of = match passes {
            Passes::Limited(n) => format!(" of {n}"),
            Passes::Unlimited => String::new(),
        };
        let redeal = format!(
            "the stock is empty: the waste ({}) turned over as the stock, pass {}{of}; then ",
            plural(before.waste.len(), "card", "cards"),
            after.passes_used
        );
        (redeal, 0)
    } else {
        (String::new(), before.waste.len())
    };
    let turned = &after.waste[kept..];
    let on_top = match turned {
        [.., top] if turned.len() > 1 => format!(", {} on top", style.card(*top)),
        _ => String::new(),
    };
    let left = match after.stock.len() {
        0 => "the stock is now empty".to_string(),
        n => format!("{n} left in the stock"),
    };
    format!(
        "      {redeal}turned {} onto the waste{on_top}; {left}",
        style.cards(turned)
    )
}

/// A free move as a reader checks it: the cards, where from and where to
/// (piles numbered from 1; what they went onto is read from `before`).
fn describe_free_move(mv: FreeMove, before: &FreeTable, style: SuitStyle) -> String {
    let onto = |to: u8| {
        let to = usize::from(to);
        match before.piles[to].top() {
            Some(top) => format!("onto {} on pile {}", style.card(top), to + 1),
            None => format!("to the empty pile {}", to + 1),
        }
    };
    let waste_top = || style.card(*before.waste.last().expect("replayed: the waste has a card"));
    match mv {
        FreeMove::PileToFoundation { from } => {
            let card = before.piles[usize::from(from)].top().expect("replayed");
            format!(
                "{} from pile {} to the foundation",
                style.card(card),
                from + 1
            )
        }
        FreeMove::WasteToFoundation => format!("{} from the waste to the foundation", waste_top()),
        FreeMove::WasteToPile { to } => format!("{} from the waste {}", waste_top(), onto(to)),
        FreeMove::PileToPile { from, to, cards } => {
            let pile = &before.piles[usize::from(from)].cards;
            let run = &pile[pile.len() - usize::from(cards)..];
            let count = if cards > 1 {
                format!(" ({cards} cards)")
            } else {
                String::new()
            };
            format!(
                "{}{count} from pile {} {}",
                style.cards(run),
                from + 1,
                onto(to)
            )
        }
        FreeMove::FoundationToPile { suit, to } => {
            let card = Card::new(before.foundations[usize::from(suit)], suit);
            format!("{} from the foundation {}", style.card(card), onto(to))
        }
        FreeMove::Turn => unreachable!("a turn has its own line"),
    }
}

/// What a free move did besides itself: cards turned up, piles emptied,
/// and the waste's new top card.
fn free_consequences(
    mv: FreeMove,
    before: &FreeTable,
    after: &FreeTable,
    style: SuitStyle,
) -> String {
    let mut notes = Vec::new();
    for (p, (was, is)) in before.piles.iter().zip(&after.piles).enumerate() {
        if is.face_down < was.face_down {
            notes.push(format!(
                "{} turned up on pile {}",
                style.card(is.cards[is.face_down]),
                p + 1
            ));
        } else if is.cards.is_empty() && !was.cards.is_empty() {
            notes.push(format!("pile {} is empty", p + 1));
        }
    }
    if matches!(
        mv,
        FreeMove::WasteToFoundation | FreeMove::WasteToPile { .. }
    ) && let Some(&top) = after.waste.last()
    {
        notes.push(format!("{} is on top of the waste", style.card(top)));
    }
    notes.iter().map(|note| format!("; {note}")).collect()
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::seq::SliceRandom;

    use super::*;
    use crate::cards::{DeckSpec, parse_card};
    use crate::games::klondike::KlondikeParams;

    fn shuffled(seed: u64) -> Vec<Card> {
        let mut deck = DeckSpec::STANDARD.sorted_cards();
        deck.shuffle(&mut rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed));
        deck
    }

    fn game(draw: u8, passes: u8) -> Klondike {
        Klondike::new(KlondikeParams { draw, passes }).unwrap()
    }

    fn ascii() -> RecordOptions {
        RecordOptions {
            suits: SuitStyle::Ascii,
        }
    }

    /// The events of a game, to pick deals that show what a record must.
    fn events(game: &Klondike, deal: &[Card]) -> Vec<(Event, Table)> {
        let mut log = EventLog { events: Vec::new() };
        game.play_with(deal, &mut log);
        log.events
    }

    /// The deal of the snapshots: the first seed whose standard game has
    /// every kind of move, a card turned up by a run move, a turn forced by
    /// an empty waste and cards left face down, so the snapshots show them
    /// all. The search is bounded so that a mistake here fails, not hangs.
    fn busy_deal() -> Vec<Card> {
        let game = Klondike::standard();
        (0..1_000)
            .map(shuffled)
            .find(|deal| {
                let events = events(&game, deal);
                let has = |kind: fn(&Event) -> bool| events.iter().any(|(e, _)| kind(e));
                let is_move =
                    |e: &Event| !matches!(e, Event::StockTurned { .. } | Event::Redeal { .. });
                let forced_turn = events.windows(2).any(|pair| {
                    let [(first, table), (second, _)] = pair else {
                        unreachable!()
                    };
                    is_move(first)
                        && table.waste().is_empty()
                        && matches!(second, Event::StockTurned { .. })
                });
                let run_turns_up = events.windows(2).any(|pair| {
                    let [(_, before), (event, after)] = pair else {
                        unreachable!()
                    };
                    matches!(*event, Event::RunToPile { from, .. }
                        if after.pile(from).1 < before.pile(from).1)
                });
                let (_, end) = events.last().unwrap();
                has(|e| matches!(e, Event::PileToFoundation { .. }))
                    && has(|e| matches!(e, Event::WasteToFoundation { .. }))
                    && has(|e| matches!(e, Event::WasteToPile { .. }))
                    && has(|e| matches!(e, Event::RunToPile { cards: 2.., .. }))
                    && forced_turn
                    && run_turns_up
                    && (0..PILES).any(|p| end.pile(p).1 > 0)
            })
            .expect("a busy deal among the first 1,000 seeds")
    }

    /// The first seed whose game (draw 1, three passes) goes out.
    fn winning_deal() -> Vec<Card> {
        (0..1_000)
            .map(shuffled)
            .find(|deal| game(1, 3).play(deal).went_out())
            .expect("a deal that goes out among the first 1,000 seeds")
    }

    #[test]
    fn unicode_record_of_a_busy_game() {
        insta::assert_snapshot!(render_record(
            &Klondike::standard(),
            &busy_deal(),
            &RecordOptions::default()
        ));
    }

    #[test]
    fn ascii_record_of_a_busy_game() {
        insta::assert_snapshot!(render_record(&Klondike::standard(), &busy_deal(), &ascii()));
    }

    #[test]
    fn record_of_a_game_that_goes_out() {
        let text = render_record(&game(1, 3), &winning_deal(), &RecordOptions::default());
        assert!(text.contains("End: all 52 cards are on the foundations."));
        assert!(text.contains("Foundations: ♣ A–K  ♦ A–K  ♥ A–K  ♠ A–K\n"));
        insta::assert_snapshot!(text);
    }

    /// Checks one record against the game's own outcome: the moves are
    /// numbered 1 to `moves`, and the cards, the money and the deal line
    /// say what the game says.
    fn check(game: &Klondike, deal: &[Card], options: &RecordOptions) {
        let record = game.play(deal);
        let text = render_record(game, deal, options);
        assert!(text.ends_with('\n'));
        let numbers: Vec<u16> = text
            .lines()
            .filter_map(|line| line.trim_start().split_once("  ("))
            .filter_map(|(number, _)| number.parse().ok())
            .collect();
        let expected: Vec<u16> = (1..=record.moves).collect();
        assert_eq!(numbers, expected, "moves numbered 1 to record.moves");
        let played = format!(
            "\nCards played to the foundations: {} of 52\n",
            record.foundation_cards
        );
        assert!(text.contains(&played), "{played}");
        let net = record.net();
        let money = format!(", net {}${}\n", if net < 0 { '-' } else { '+' }, net.abs());
        assert!(text.contains(&money), "{money}");
        let deal_line = text
            .lines()
            .skip_while(|line| *line != "Deal, first card first:")
            .nth(1)
            .unwrap();
        let parsed: Vec<Card> = deal_line
            .split(' ')
            .map(|token| parse_card(token).unwrap())
            .collect();
        assert_eq!(parsed, deal, "the deal line parses back");
        if options.suits == SuitStyle::Ascii {
            assert!(text.is_ascii(), "ASCII style is pure ASCII");
        }
    }

    #[test]
    fn records_agree_with_the_games_in_every_variant() {
        for (draw, passes) in [(1, 1), (3, 1), (1, 3), (3, 3)] {
            let game = game(draw, passes);
            for seed in 0..100 {
                let deal = shuffled(1_000 + seed);
                check(&game, &deal, &ascii());
                check(&game, &deal, &RecordOptions::default());
            }
        }
        check(&game(1, 3), &winning_deal(), &ascii());
    }

    /// A won free-play game on a reduced deck (3 ranks, 3 piles, draw 3,
    /// unlimited passes): the first seed whose shortest win (brute force)
    /// moves a card from pile to pile.
    fn reduced_win() -> (FreePlayRules, Vec<Card>, Vec<FreeMove>) {
        let rules = FreePlayRules::new(3, Passes::Unlimited, Layout::new(3, 3).unwrap()).unwrap();
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        for _ in 0..200 {
            let mut deal: Vec<Card> = (0..4)
                .flat_map(|suit| (1..=3).map(move |rank| Card::new(rank, suit)))
                .collect();
            deal.shuffle(&mut rng);
            let found = crate::games::klondike::brute::brute_force(&rules, &deal, 200_000).unwrap();
            let moves = found.witness;
            if moves
                .iter()
                .any(|mv| matches!(mv, FreeMove::PileToPile { .. }))
            {
                return (rules, deal, moves);
            }
        }
        panic!("no such deal among 200 seeds")
    }

    /// The policy's won game (draw 1, three passes) as free moves.
    fn full_win() -> (FreePlayRules, Vec<Card>, Vec<FreeMove>) {
        let deal = winning_deal();
        let (moves, _, went_out) =
            crate::games::klondike::check::tests::policy_moves(&game(1, 3), &deal);
        assert!(went_out);
        let rules = FreePlayRules::new(1, Passes::Limited(3), Layout::FULL).unwrap();
        (rules, deal, moves)
    }

    #[test]
    fn solution_record_of_a_reduced_deal() {
        let (rules, deal, moves) = reduced_win();
        insta::assert_snapshot!(
            render_solution(&rules, &deal, &moves, &RecordOptions::default()).unwrap()
        );
    }

    #[test]
    fn solution_record_of_a_full_deal() {
        let (rules, deal, moves) = full_win();
        insta::assert_snapshot!(render_solution(&rules, &deal, &moves, &ascii()).unwrap());
    }

    /// Checks a solution's record: moves numbered 1 to the moves that are
    /// not turns, one unnumbered line per turn, the deal line parses back,
    /// and ASCII is ASCII.
    fn check_solution(
        rules: &FreePlayRules,
        deal: &[Card],
        moves: &[FreeMove],
        options: &RecordOptions,
    ) {
        let text = render_solution(rules, deal, moves, options).unwrap();
        assert!(text.ends_with('\n'));
        let play: Vec<&str> = text
            .lines()
            .skip_while(|line| !line.starts_with("Play:"))
            .skip(1)
            .take_while(|line| !line.is_empty())
            .collect();
        assert_eq!(play.len(), moves.len(), "one line per move");
        let numbers: Vec<usize> = play
            .iter()
            .filter_map(|line| line.trim_start().split_once("  "))
            .filter_map(|(number, _)| number.parse().ok())
            .collect();
        let expected: Vec<usize> =
            (1..=moves.iter().filter(|&&mv| mv != FreeMove::Turn).count()).collect();
        assert_eq!(numbers, expected);
        let turns = play
            .iter()
            .filter(|line| line.starts_with("      "))
            .count();
        assert_eq!(
            turns,
            moves.iter().filter(|&&mv| mv == FreeMove::Turn).count()
        );
        let deal_line = text
            .lines()
            .skip_while(|line| *line != "Deal, first card first:")
            .nth(1)
            .unwrap();
        let parsed: Vec<Card> = deal_line
            .split(' ')
            .map(|t| parse_card(t).unwrap())
            .collect();
        assert_eq!(parsed, deal);
        if options.suits == SuitStyle::Ascii {
            assert!(text.is_ascii());
        }
    }

    #[test]
    fn solution_records_hold_every_move() {
        for (rules, deal, moves) in [reduced_win(), full_win()] {
            check_solution(&rules, &deal, &moves, &ascii());
            check_solution(&rules, &deal, &moves, &RecordOptions::default());
        }
    }

    #[test]
    fn a_wrong_solution_gets_no_record() {
        let (rules, deal, moves) = reduced_win();
        let short = render_solution(&rules, &deal, &moves[..moves.len() - 1], &ascii());
        assert!(short.unwrap_err().to_string().contains("do not win"));
        let mut wrong = moves.clone();
        wrong.insert(0, FreeMove::WasteToFoundation);
        let message = render_solution(&rules, &deal, &wrong, &ascii())
            .unwrap_err()
            .to_string();
        assert!(
            message.starts_with("move 1 (WasteToFoundation): is illegal"),
            "{message}"
        );
    }
}
