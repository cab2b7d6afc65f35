//! The blackjack player engine (RULES.md section 6) against an
//! independent brute force, the dealer table, published figures, and
//! itself (exact against float, the split models, the infinite deck as a
//! limit).

use std::collections::HashMap;

use deckodds::engine::NoProgress;
use deckodds::games::blackjack::dealer::dealer_table;
use deckodds::games::blackjack::player::solve::PlayerTable;
use deckodds::games::blackjack::player::{
    Action, BlackjackPays, DoubleOn, Hand, HoleCard, PlayerParams, PlayerRules, SplitModel, Spot,
    Surrender, settle, solve_exact, solve_float,
};
use deckodds::games::blackjack::{
    DealerHand, DealerOutcome, DealerParams, Decks, N_VALUES, Scoring, Soft17,
};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

fn ratio(n: i64, d: i64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

fn params(rules: PlayerRules, removed: &[u8]) -> PlayerParams {
    PlayerParams {
        rules,
        split_model: SplitModel::Cdz,
        removed: removed.to_vec(),
    }
}

/// Plays whole rounds exactly, card by card in the real dealing order
/// (upcard, the player's two cards, the hole card; each hand played out in
/// turn, re-splits at once; the dealer last), with the decisions of a
/// solved table. Nothing here shares code with the solver except the rules'
/// own functions (`DealerHand`, `settle`, `may_double`, `max_hands_for`)
/// and the decisions, so agreement checks the solver's whole method: the
/// conditioning on the dealer's natural, the split identities and the
/// round's sum.
struct BruteForce<'a> {
    table: &'a PlayerTable<BigRational>,
    rules: PlayerRules,
    play_memo: HashMap<PlayState, BigRational>,
    dealer_memo: HashMap<(DealerHand, [u32; N_VALUES]), Vec<BigRational>>,
}

/// Where a round is: the seats, the one playing, upcard, hole card, shoe.
type PlayState = (Vec<Seat>, usize, u8, u8, [u32; N_VALUES]);

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Seat {
    hand: Hand,
    stake: i64,
    from_split: bool,
    done: bool,
}

impl<'a> BruteForce<'a> {
    fn new(table: &'a PlayerTable<BigRational>) -> Self {
        BruteForce {
            table,
            rules: table.params.rules,
            play_memo: HashMap::new(),
            dealer_memo: HashMap::new(),
        }
    }

    /// The value of a round off the top of `shoe`.
    fn round_value(&mut self, shoe: [u32; N_VALUES]) -> BigRational {
        let mut value = BigRational::zero();
        for upcard in 1..=10u8 {
            let (p_up, shoe) = draw(&shoe, upcard);
            if p_up.is_zero() {
                continue;
            }
            for first in 1..=10u8 {
                let (p_first, shoe) = draw(&shoe, first);
                if p_first.is_zero() {
                    continue;
                }
                for second in 1..=10u8 {
                    let (p_second, shoe) = draw(&shoe, second);
                    if p_second.is_zero() {
                        continue;
                    }
                    for hole in 1..=10u8 {
                        let (p_hole, shoe) = draw(&shoe, hole);
                        if p_hole.is_zero() {
                            continue;
                        }
                        let deal = &p_up * &p_first * &p_second * &p_hole;
                        value += deal * self.after_deal(upcard, hole, first, second, shoe);
                    }
                }
            }
        }
        value
    }

    fn after_deal(
        &mut self,
        upcard: u8,
        hole: u8,
        first: u8,
        second: u8,
        shoe: [u32; N_VALUES],
    ) -> BigRational {
        let hand = Hand::of(&[first, second]);
        let dealer_natural = upcard + hole == 11 && (upcard == 1 || hole == 1);
        let decision = self
            .table
            .decide(upcard, &hand, Spot::Initial)
            .expect("every dealt hand has a decision");
        if self.rules.surrender == Surrender::Early && decision == Action::Surrender {
            return ratio(-1, 2);
        }
        if self.rules.hole_card == HoleCard::Peek && dealer_natural {
            return if hand.is_two_card_21() {
                BigRational::zero()
            } else {
                -BigRational::one()
            };
        }
        if decision == Action::Surrender {
            // Late: under peek a natural was settled above; under ENHC it
            // shows at the end and takes the whole bet.
            return if dealer_natural {
                -BigRational::one()
            } else {
                ratio(-1, 2)
            };
        }
        if hand.is_two_card_21() && decision == Action::Stand {
            let (n, d) = self.rules.blackjack_payout();
            return if dealer_natural {
                BigRational::zero()
            } else {
                ratio(n, d)
            };
        }
        let seats = match decision {
            Action::Split => vec![
                Seat {
                    hand: Hand::of(&[first]),
                    stake: 1,
                    from_split: true,
                    done: false,
                },
                Seat {
                    hand: Hand::of(&[first]),
                    stake: 1,
                    from_split: true,
                    done: false,
                },
            ],
            Action::Stand => vec![Seat {
                hand,
                stake: 1,
                from_split: false,
                done: true,
            }],
            Action::Hit | Action::Double => {
                // The initial decision is taken here; later ones in `play`.
                let stake = if decision == Action::Double { 2 } else { 1 };
                return self.draw_then(shoe, |this, card, shoe| {
                    let grown = hand.with(card);
                    let done = decision == Action::Double || grown.is_bust() || grown.total() == 21;
                    let seat = Seat {
                        hand: grown,
                        stake,
                        from_split: false,
                        done,
                    };
                    this.play(vec![seat], 0, upcard, hole, shoe)
                });
            }
            Action::Surrender => unreachable!(),
        };
        self.play(seats, 0, upcard, hole, shoe)
    }

    /// Expected value over the next card.
    fn draw_then(
        &mut self,
        shoe: [u32; N_VALUES],
        mut then: impl FnMut(&mut Self, u8, [u32; N_VALUES]) -> BigRational,
    ) -> BigRational {
        let total: u32 = shoe.iter().sum();
        assert!(total > 0, "the shoe ran out: pick a larger test shoe");
        let mut value = BigRational::zero();
        for card in 1..=10u8 {
            let (p, after) = draw(&shoe, card);
            if !p.is_zero() {
                value += p * then(self, card, after);
            }
        }
        value
    }

    /// Plays seat `current` on (and the rest after it), then the dealer.
    fn play(
        &mut self,
        seats: Vec<Seat>,
        current: usize,
        upcard: u8,
        hole: u8,
        shoe: [u32; N_VALUES],
    ) -> BigRational {
        let key = (seats.clone(), current, upcard, hole, shoe);
        if let Some(value) = self.play_memo.get(&key) {
            return value.clone();
        }
        let value = if current == seats.len() {
            self.settle_all(&seats, upcard, hole, shoe)
        } else if seats[current].done {
            self.play(seats, current + 1, upcard, hole, shoe)
        } else if seats[current].hand.n_cards() == 1 {
            // A split hand's second card; a pair card re-splits at once
            // while the rules allow another hand.
            let pair = (1..=10u8)
                .find(|&v| seats[current].hand.count(v) == 1)
                .unwrap();
            self.draw_then(shoe, |this, card, shoe| {
                let mut seats = seats.clone();
                if card == pair && seats.len() < usize::from(this.rules.max_hands_for(pair)) {
                    seats.push(Seat {
                        hand: Hand::of(&[pair]),
                        stake: 1,
                        from_split: true,
                        done: false,
                    });
                } else {
                    let seat = &mut seats[current];
                    seat.hand.add(card);
                    // Split aces take one card; 21 stands.
                    seat.done = pair == 1 || seat.hand.total() == 21;
                }
                this.play(seats, current, upcard, hole, shoe)
            })
        } else {
            let seat = seats[current].clone();
            let spot = if seat.hand.n_cards() == 2 && seat.from_split {
                Spot::SplitHand
            } else {
                Spot::Later
            };
            let decision = self.table.decide(upcard, &seat.hand, spot).unwrap();
            match decision {
                Action::Stand => {
                    let mut seats = seats;
                    seats[current].done = true;
                    self.play(seats, current + 1, upcard, hole, shoe)
                }
                Action::Hit | Action::Double => self.draw_then(shoe, |this, card, shoe| {
                    let mut seats = seats.clone();
                    let seat = &mut seats[current];
                    seat.hand.add(card);
                    if decision == Action::Double {
                        seat.stake = 2;
                        seat.done = true;
                    }
                    if seat.hand.is_bust() || seat.hand.total() == 21 {
                        seat.done = true;
                    }
                    this.play(seats, current, upcard, hole, shoe)
                }),
                other => panic!("{other:?} is not a later decision"),
            }
        };
        self.play_memo.insert(key, value.clone());
        value
    }

    fn settle_all(
        &mut self,
        seats: &[Seat],
        upcard: u8,
        hole: u8,
        shoe: [u32; N_VALUES],
    ) -> BigRational {
        if seats.iter().all(|s| s.hand.is_bust()) {
            return ratio(-seats.iter().map(|s| s.stake).sum::<i64>(), 1);
        }
        let mut dealer = DealerHand::new(upcard);
        dealer.add(hole);
        let outcomes = self.dealer(dealer, shoe);
        let payout = self.rules.blackjack_payout();
        let mut value = BigRational::zero();
        for (index, p) in outcomes.iter().enumerate() {
            if p.is_zero() {
                continue;
            }
            let outcome = DealerOutcome::ALL[index];
            for seat in seats {
                let (n, d) = settle(
                    seat.hand.total(),
                    seat.stake,
                    false,
                    seat.hand.is_bust(),
                    payout,
                    outcome,
                );
                value += p * ratio(n, d);
            }
        }
        value
    }

    fn dealer(&mut self, hand: DealerHand, shoe: [u32; N_VALUES]) -> Vec<BigRational> {
        let rules = self.rules.dealer_rules();
        if !hand.must_draw(rules) {
            let mut out = vec![BigRational::zero(); 7];
            out[hand.outcome(rules).index()] = BigRational::one();
            return out;
        }
        if let Some(v) = self.dealer_memo.get(&(hand, shoe)) {
            return v.clone();
        }
        let total: u32 = shoe.iter().sum();
        assert!(total > 0, "the shoe ran out in the dealer's hand");
        let mut out = vec![BigRational::zero(); 7];
        for card in 1..=10u8 {
            let (p, after) = draw(&shoe, card);
            if p.is_zero() {
                continue;
            }
            let mut next = hand;
            next.add(card);
            for (o, q) in self.dealer(next, after).into_iter().enumerate() {
                out[o] += &p * q;
            }
        }
        self.dealer_memo.insert((hand, shoe), out.clone());
        out
    }
}

/// P(next card is `value`) and the shoe after it.
fn draw(shoe: &[u32; N_VALUES], value: u8) -> (BigRational, [u32; N_VALUES]) {
    let total: u32 = shoe.iter().sum();
    let count = shoe[usize::from(value - 1)];
    if count == 0 || total == 0 {
        return (BigRational::zero(), *shoe);
    }
    let mut after = *shoe;
    after[usize::from(value - 1)] -= 1;
    (ratio(i64::from(count), i64::from(total)), after)
}

/// One deck less every 2..6: aces, 7, 8, 9 and tens (32 cards).
const HIGH_CARDS: [u8; 20] = [2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6];

fn one_deck(rules: PlayerRules) -> PlayerRules {
    PlayerRules {
        decks: Decks::Finite(1),
        ..rules
    }
}

fn brute_force_agrees(rules: PlayerRules, removed: &[u8]) {
    let params = params(rules, removed);
    let table = solve_exact(&params, &NoProgress).unwrap();
    let shoe = params.shoe().unwrap().counts;
    let brute = BruteForce::new(&table).round_value(shoe);
    assert_eq!(
        table.overall,
        brute,
        "{rules:?}: solver {} against brute force {}",
        table.overall.to_f64().unwrap(),
        brute.to_f64().unwrap()
    );
}

/// One deck less every 3..7 and 9: aces, 2s, 8s and tens (28 cards), where
/// hands hit often and pairs of every kind re-split.
fn aces_twos_eights_tens() -> Vec<u8> {
    (3..=7)
        .chain(9..=9)
        .flat_map(|v| std::iter::repeat_n(v, 4))
        .collect()
}

#[test]
fn the_round_value_equals_a_card_by_card_brute_force() {
    let base = one_deck(PlayerRules::default());
    brute_force_agrees(base, &HIGH_CARDS);
    brute_force_agrees(
        PlayerRules {
            hole_card: HoleCard::Enhc,
            soft17: Soft17::Hit,
            blackjack_pays: BlackjackPays::SixToFive,
            surrender: Surrender::Late,
            ..base
        },
        &HIGH_CARDS,
    );
}

#[test]
fn the_round_value_equals_the_brute_force_where_hands_hit_often() {
    let removed = aces_twos_eights_tens();
    let base = one_deck(PlayerRules::default());
    for rules in [
        base,
        PlayerRules {
            hole_card: HoleCard::Enhc,
            resplit_aces: true,
            ..base
        },
        PlayerRules {
            max_hands: 3,
            resplit_aces: true,
            double_after_split: false,
            surrender: Surrender::Early,
            ..base
        },
        PlayerRules {
            max_hands: 2,
            double: DoubleOn::TenToEleven,
            soft17: Soft17::Hit,
            ..base
        },
    ] {
        brute_force_agrees(rules, &removed);
    }
}

/// Wizard of Odds, "Blackjack Appendix 1: Expected Values for Infinite Deck"
/// (https://wizardofodds.com/games/blackjack/appendix/1/): S17, double any
/// two and after splits, split to four hands except aces (one card each),
/// peek. Values printed to six decimals; ours must round to them.
#[test]
fn infinite_deck_values_match_wizard_of_odds_appendix_1() {
    let params = params(
        PlayerRules {
            decks: Decks::Infinite,
            ..PlayerRules::default()
        },
        &[],
    );
    let table = solve_float(&params, &NoProgress).unwrap();
    let close = |ours: f64, published: f64, what: &str| {
        assert!(
            (ours - published).abs() <= 5e-7 + 1e-12,
            "{what}: ours {ours:.7}, published {published}"
        );
    };
    let row = |a: u8, b: u8, up: u8| table.hand(a, b, up).unwrap();
    // Stand, total 16 or less, against 2, 4, 7, T, A.
    for (up, published) in [
        (2, -0.292784),
        (4, -0.211063),
        (7, -0.475375),
        (10, -0.54043),
        (1, -0.666951),
    ] {
        close(
            row(6, 10, up).values.stand.to_f64().unwrap(),
            published,
            "stand 16",
        );
    }
    // Stand 18 and 20.
    for (up, published) in [(2, 0.121742), (7, 0.399554), (9, -0.183163), (1, -0.100199)] {
        close(
            row(8, 10, up).values.stand.to_f64().unwrap(),
            published,
            "stand 18",
        );
    }
    close(
        row(10, 10, 10).values.stand.to_f64().unwrap(),
        0.554538,
        "stand 20 v T",
    );
    // Hit: hard 12, 16, 11; soft 18 (A7).
    for (up, published) in [
        (2, -0.25339),
        (4, -0.213537),
        (6, -0.170526),
        (10, -0.381043),
    ] {
        close(
            row(2, 10, up).values.hit.to_f64().unwrap(),
            published,
            "hit 12",
        );
    }
    for (up, published) in [(7, -0.414779), (10, -0.539826), (1, -0.517149)] {
        close(
            row(7, 9, up).values.hit.to_f64().unwrap(),
            published,
            "hit 16",
        );
    }
    close(
        row(5, 6, 1).values.hit.to_f64().unwrap(),
        0.143001,
        "hit 11 v A",
    );
    for (up, published) in [(2, 0.062905), (9, -0.100744), (10, -0.143808)] {
        close(
            row(1, 7, up).values.hit.to_f64().unwrap(),
            published,
            "hit soft 18",
        );
    }
    // Double: 11, 10, soft 18.
    for (up, published) in [(2, 0.470641), (6, 0.66738), (10, 0.179689), (1, 0.109061)] {
        close(
            row(5, 6, up).values.double.unwrap().to_f64().unwrap(),
            published,
            "double 11",
        );
    }
    close(
        row(4, 6, 10).values.double.unwrap().to_f64().unwrap(),
        -0.008659,
        "double 10 v T",
    );
    close(
        row(1, 7, 6).values.double.unwrap().to_f64().unwrap(),
        0.381506,
        "double soft 18 v 6",
    );
    // Split (re-splitting whenever a pair card comes, to four hands).
    for (pair, up, published) in [
        (8, 10, -0.480686),
        (8, 1, -0.372535),
        (9, 7, 0.364837),
        (9, 2, 0.195625),
        (2, 4, 0.059088),
        (1, 1, 0.109061),
        (1, 6, 0.66738),
        (10, 6, 0.468117),
    ] {
        let split = row(pair, pair, up).values.split.unwrap().to_f64().unwrap();
        close(split, published, &format!("split {pair}{pair} v {up}"));
    }
}

/// The same page's house edge for these rules: player EV -0.511734%.
#[test]
fn infinite_deck_house_edge_matches_wizard_of_odds_exactly_rounded() {
    let params = params(
        PlayerRules {
            decks: Decks::Infinite,
            ..PlayerRules::default()
        },
        &[],
    );
    let table = solve_exact(&params, &NoProgress).unwrap();
    let percent = &table.overall * ratio(100, 1);
    // -0.511734 is the exact value rounded to six decimals: the exact value
    // lies within half a unit of the last digit.
    let published = ratio(-511_734, 1_000_000);
    let half = ratio(1, 2_000_000);
    assert!(
        (&percent - &published).abs() <= half,
        "{}",
        percent.to_f64().unwrap()
    );
}

#[test]
fn standing_reads_the_dealer_table_with_the_players_cards_removed() {
    for rules in [
        PlayerRules::default(),
        PlayerRules {
            decks: Decks::Finite(2),
            soft17: Soft17::Hit,
            ..PlayerRules::default()
        },
    ] {
        // One card each of 2..6 left, so every upcard can still be dealt.
        let thinned: Vec<u8> = (2..=6).flat_map(|v| [v, v, v]).collect();
        let table = solve_exact(&params(one_deck(rules), &thinned), &NoProgress).unwrap();
        for (first, second) in [(10, 7), (10, 8), (9, 10), (10, 10), (7, 8), (1, 7)] {
            let mut removed = thinned.clone();
            removed.extend([first, second]);
            let dealer = dealer_table(&DealerParams {
                decks: Decks::Finite(1),
                soft17: rules.soft17,
                scoring: Scoring::Correct,
                peek: true,
                removed,
            })
            .unwrap();
            for (row_index, &upcard) in deckodds::games::blackjack::UPCARDS.iter().enumerate() {
                let Some(row) = table.hand(first, second, upcard) else {
                    continue;
                };
                let total = Hand::of(&[first, second]).total();
                let mut expected = BigRational::zero();
                for (o, p) in dealer[row_index].iter().enumerate() {
                    let (n, d) = settle(total, 1, false, false, (3, 2), DealerOutcome::ALL[o]);
                    expected += p * ratio(n, d);
                }
                assert_eq!(row.values.stand, expected, "{first}{second} v {upcard}");
            }
        }
    }
}

#[test]
fn the_overall_value_is_the_sum_of_the_hands_best_values_and_the_naturals() {
    for rules in [
        one_deck(PlayerRules::default()),
        one_deck(PlayerRules {
            surrender: Surrender::Late,
            soft17: Soft17::Hit,
            ..PlayerRules::default()
        }),
        one_deck(PlayerRules {
            surrender: Surrender::Early,
            ..PlayerRules::default()
        }),
        one_deck(PlayerRules {
            hole_card: HoleCard::Enhc,
            ..PlayerRules::default()
        }),
    ] {
        let table = solve_exact(&params(rules, &HIGH_CARDS), &NoProgress).unwrap();
        let mut sum = BigRational::zero();
        let mut probability = BigRational::zero();
        for row in &table.hands {
            let natural = row.first == 1 && row.second == 10;
            let peeked = rules.hole_card == HoleCard::Peek;
            let no_natural = BigRational::one() - &row.dealer_natural;
            let value = if row.best == Action::Surrender && rules.surrender == Surrender::Early {
                ratio(-1, 2)
            } else {
                let best = row.values.get(row.best).unwrap().clone();
                if peeked {
                    let lost = if natural {
                        BigRational::zero()
                    } else {
                        -row.dealer_natural.clone()
                    };
                    best * no_natural + lost
                } else {
                    best
                }
            };
            sum += &row.probability * value;
            probability += &row.probability;
        }
        assert_eq!(probability, BigRational::one(), "{rules:?}");
        assert_eq!(sum, table.overall, "{rules:?}");
    }
}

fn float_equals_exact(params: &PlayerParams) {
    let exact = solve_exact(params, &NoProgress).unwrap();
    let float = solve_float(params, &NoProgress).unwrap();
    assert_eq!(exact.hands.len(), float.hands.len());
    let near = |e: &BigRational, f: f64| (e.to_f64().unwrap() - f).abs() < 1e-12;
    assert!(near(&exact.overall, float.overall), "{params:?}");
    for (e, f) in exact.hands.iter().zip(&float.hands) {
        let cell = (e.first, e.second, e.upcard, e.best);
        assert_eq!(cell, (f.first, f.second, f.upcard, f.best), "{params:?}");
        assert!(near(&e.values.stand, f.values.stand), "{cell:?}");
        assert!(near(&e.values.hit, f.values.hit), "{cell:?}");
        for action in [Action::Double, Action::Split, Action::Surrender] {
            match (e.values.get(action), f.values.get(action)) {
                (Some(e), Some(&f)) => assert!(near(e, f), "{cell:?} {action:?}"),
                (None, None) => {}
                _ => panic!("{cell:?}: {action:?} allowed in one only"),
            }
        }
    }
}

#[test]
fn float_equals_exact_to_1e_12_on_every_hand_of_a_full_deck() {
    float_equals_exact(&params(one_deck(PlayerRules::default()), &[]));
}

#[test]
fn float_equals_exact_to_1e_12_under_every_split_model() {
    for split_model in [SplitModel::Cdz, SplitModel::Cdp1, SplitModel::Cdp] {
        for (rules, removed) in [
            (
                PlayerRules {
                    decks: Decks::Infinite,
                    hole_card: HoleCard::Enhc,
                    blackjack_pays: BlackjackPays::SixToFive,
                    ..PlayerRules::default()
                },
                vec![],
            ),
            (
                one_deck(PlayerRules {
                    max_hands: 3,
                    resplit_aces: true,
                    soft17: Soft17::Hit,
                    surrender: Surrender::Late,
                    double_after_split: false,
                    ..PlayerRules::default()
                }),
                HIGH_CARDS.to_vec(),
            ),
            (one_deck(PlayerRules::default()), aces_twos_eights_tens()),
        ] {
            float_equals_exact(&PlayerParams {
                rules,
                split_model,
                removed,
            });
        }
    }
}

#[test]
fn better_informed_split_strategies_are_worth_more_and_coincide_for_an_infinite_deck() {
    for decks in [
        Decks::Finite(1),
        Decks::Finite(2),
        Decks::Finite(6),
        Decks::Infinite,
    ] {
        let value = |split_model| {
            solve_float(
                &PlayerParams {
                    rules: PlayerRules {
                        decks,
                        ..PlayerRules::default()
                    },
                    split_model,
                    removed: vec![],
                },
                &NoProgress,
            )
            .unwrap()
            .overall
        };
        let (cdz, cdp1, cdp) = (
            value(SplitModel::Cdz),
            value(SplitModel::Cdp1),
            value(SplitModel::Cdp),
        );
        if decks == Decks::Infinite {
            assert_eq!(cdz, cdp1);
            assert_eq!(cdz, cdp);
        } else {
            assert!(cdz <= cdp1 && cdp1 <= cdp, "{decks}: {cdz} {cdp1} {cdp}");
        }
    }
}

#[test]
fn large_shoes_approach_the_infinite_deck() {
    let value = |decks| {
        solve_float(
            &params(
                PlayerRules {
                    decks,
                    ..PlayerRules::default()
                },
                &[],
            ),
            &NoProgress,
        )
        .unwrap()
        .overall
    };
    let limit = value(Decks::Infinite);
    let distances: Vec<f64> = [1, 2, 4, 8, 16, 32, 64]
        .into_iter()
        .map(|n| (value(Decks::Finite(n)) - limit).abs())
        .collect();
    for pair in distances.windows(2) {
        assert!(pair[1] < pair[0], "{distances:?}");
    }
    // Roughly as 1/decks: 64 decks are at least 32 times closer than one.
    assert!(distances[6] < distances[0] / 32.0, "{distances:?}");
}

/// Every two-card hand and every composition's stand, hit and double,
/// against every upcard, for one full deck under rules other than the
/// default's: the float mode within 1e-12 of the exact one.
#[test]
fn float_equals_exact_on_every_hand() {
    let params = params(
        one_deck(PlayerRules {
            soft17: Soft17::Hit,
            resplit_aces: true,
            surrender: Surrender::Late,
            ..PlayerRules::default()
        }),
        &[],
    );
    float_equals_exact(&params);
    let exact = solve_exact(&params, &NoProgress).unwrap();
    let float = solve_float(&params, &NoProgress).unwrap();
    let near = |e: &BigRational, f: f64| (e.to_f64().unwrap() - f).abs() < 1e-12;
    let mut compared = 0;
    for (index, (e, f)) in exact
        .compositions
        .iter()
        .zip(&float.compositions)
        .enumerate()
    {
        for (upcard, (e, f)) in e.iter().zip(f).enumerate() {
            match (e, f) {
                (Some(e), Some(f)) => {
                    let cell = (index, upcard + 1);
                    assert!(near(&e.stand, f.stand), "{cell:?} stand");
                    assert!(near(&e.hit, f.hit), "{cell:?} hit");
                    match (&e.double, f.double) {
                        (Some(e), Some(f)) => assert!(near(e, f), "{cell:?} double"),
                        (None, None) => {}
                        _ => panic!("{cell:?}: double allowed in one only"),
                    }
                    compared += 1;
                }
                (None, None) => {}
                _ => panic!(
                    "composition {index} upcard {}: valued in one only",
                    upcard + 1
                ),
            }
        }
    }
    // Every composition of two or more cards a full deck can deal with the
    // upcard out (19,620 pairs of composition and upcard): far more than
    // the 550 two-card cells.
    assert!(compared > 10_000, "{compared}");
}

/// The round's value, pinned as exact fractions, for rule sets on small
/// shoes where the solver's split worlds, the dealer's shoes it numbers and
/// its plans all come into play. The fractions are the card-by-card brute
/// force's (`BruteForce::round_value` above, playing the solved table's
/// decisions), printed once when this test was written; they do not come
/// from the solver.
#[test]
fn overall_values_are_pinned() {
    let base = one_deck(PlayerRules::default());
    let pinned = [
        (base, HIGH_CARDS.to_vec(), (8437577987, 46569773250)),
        (
            PlayerRules {
                hole_card: HoleCard::Enhc,
                soft17: Soft17::Hit,
                blackjack_pays: BlackjackPays::SixToFive,
                surrender: Surrender::Late,
                ..base
            },
            HIGH_CARDS.to_vec(),
            // Printed again when a late surrender under ENHC came to lose
            // its whole bet to a dealer natural (it was half, as early).
            (12281856547, 55883727900),
        ),
        (
            PlayerRules {
                hole_card: HoleCard::Enhc,
                resplit_aces: true,
                ..base
            },
            aces_twos_eights_tens(),
            (2587429739, 11583668250),
        ),
        (
            PlayerRules {
                max_hands: 3,
                resplit_aces: true,
                double_after_split: false,
                surrender: Surrender::Early,
                ..base
            },
            aces_twos_eights_tens(),
            (28401305308, 105411381075),
        ),
        (
            PlayerRules {
                max_hands: 2,
                double: DoubleOn::TenToEleven,
                soft17: Soft17::Hit,
                ..base
            },
            aces_twos_eights_tens(),
            (177906492497, 1054113810750),
        ),
    ];
    for (rules, removed, (numerator, denominator)) in pinned {
        let table = solve_exact(&params(rules, &removed), &NoProgress).unwrap();
        assert_eq!(table.overall, ratio(numerator, denominator), "{rules:?}");
    }
}
