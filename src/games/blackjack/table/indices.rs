//! Index plays (RULES.md section 6, "Index plays"): for each decision of
//! basic strategy, the true count at which another action becomes better.
//!
//! # Method
//!
//! Shoes are dealt as the table deals them ([`TableShoe`], rounds played by
//! the basic-strategy chart through the round's play function, to the cut
//! card). At the start of every round the shoe actually left, `S`, is known
//! exactly, and for every decision (a two-card hand class against an
//! upcard) each action's value is computed *exactly* on `S`, in `f64`, for
//! each two-card hand of the class: the player's two cards and the upcard
//! taken from `S`, the dealer's outcome probabilities on the cards left by
//! [`FloatDealer`] (one pass gives every upcard), hitting valued by the best
//! of standing and hitting again on the cards then left (composition
//! dependent, recursively), doubling by one card and standing, splitting as
//! two hands each from one of the pair and the other card of the pair out
//! of the shoe (with double after split as the rules say, split aces one
//! card each, no re-split), surrender at half the bet, insurance from the
//! tens left. Under peek the dealer's natural is conditioned away as the
//! exact solver does: values are `E[X; no natural]`, which rank the actions
//! as `E[X | no natural]` does, and a decision's weight is the probability
//! of its hand, upcard and no natural.
//!
//! Each hand is counted at the true count the player sees when deciding
//! (the round's running count plus the tags of the two cards and the
//! upcard, over the cards left less those three), so a decision's gain
//! (alternative less basic action) is averaged over rounds by that true
//! count, weighted by how often the hand is dealt. The *index* is where
//! that mean gain changes sign: interpolated linearly between the two
//! adjacent true counts whose means straddle zero (bin `i` of the floored
//! true count placed at `i`), so that the index to play is the least whole
//! count at which the deviation is right (`ceil` of the crossing). Its
//! 95% interval is by the delta method from the two means' standard
//! errors, each the ratio estimator's by shoe (shoes are independent; a
//! shoe's rounds are not).
//!
//! Why exact values rather than playing both actions from the same cards
//! (common random numbers, as simulation-only tools do): a round's exact
//! gain has no luck of the draw in it, only the composition's, so the mean
//! gain at a count settles with a few thousand shoes instead of hundreds of
//! millions of rounds, and the value of the actions is the same number the
//! exact player engine gives for that shoe.
//!
//! Determinism: chunk `k` of shoes is dealt from `stream_rng(seed, 0, k)`
//! and the chunks' sums are added in chunk order, so a run's figures do not
//! depend on the number of threads.

use rayon::prelude::*;

use super::chart_strategy::ChartStrategy;
use super::count::{TRUE_COUNT_BINS, TRUE_COUNT_MIN, true_count, true_count_bin};
use super::shoe::{Dealing, TableShoe};
use crate::engine::Progress;
use crate::error::{Error, Result};
use crate::games::blackjack::player::compositions::{BUST, Compositions};
use crate::games::blackjack::player::number::FloatDealer;
use crate::games::blackjack::player::round::{RoundPlayer, Strategy};
use crate::games::blackjack::player::rules::natural_hole_card;
use crate::games::blackjack::player::solve::Spot;
use crate::games::blackjack::player::{
    Action, Hand, HoleCard, PlayerRules, Surrender, settle, value_letter,
};
use crate::games::blackjack::{DealerOutcome, N_VALUES, Shoe};
use crate::rng::stream_rng;
use crate::stats::Z95;

/// The kind of a decision: a two-card hand class, or insurance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HandClass {
    /// Two cards of different values, no ace, this total (5..=19).
    Hard(u8),
    /// An ace and another card (not a ten), this total (13..=20).
    Soft(u8),
    /// Two cards of this value (1 for aces).
    Pair(u8),
    /// The insurance bet, against an ace, whatever the hand.
    Insurance,
}

impl HandClass {
    /// The section's name, as the index file writes it: `hard`, `soft`,
    /// `pairs`, `insurance`.
    pub fn section(self) -> &'static str {
        match self {
            HandClass::Hard(_) => "hard",
            HandClass::Soft(_) => "soft",
            HandClass::Pair(_) => "pairs",
            HandClass::Insurance => "insurance",
        }
    }

    /// The row's label: the total (`16`), the pair (`TT`, `AA`), or empty
    /// for insurance.
    pub fn row(self) -> String {
        match self {
            HandClass::Hard(total) | HandClass::Soft(total) => total.to_string(),
            HandClass::Pair(value) => format!("{0}{0}", value_letter(value)),
            HandClass::Insurance => String::new(),
        }
    }

    /// The two-card hands of the class, lower value first.
    fn hands(self) -> Vec<(u8, u8)> {
        let all = (1..=N_VALUES as u8).flat_map(|a| (a..=N_VALUES as u8).map(move |b| (a, b)));
        match self {
            HandClass::Hard(total) => all
                .filter(|&(a, b)| a != 1 && a != b && a + b == total)
                .collect(),
            HandClass::Soft(total) => all
                .filter(|&(a, b)| a == 1 && b != 1 && b != 10 && 11 + b == total)
                .collect(),
            HandClass::Pair(value) => vec![(value, value)],
            HandClass::Insurance => all.collect(),
        }
    }
}

/// One decision: a hand class against an upcard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Decision {
    pub class: HandClass,
    /// 1 (ace) ..= 10.
    pub upcard: u8,
}

impl Decision {
    /// `hard 16 v T`, `pairs TT v 5`, `insurance`.
    pub fn name(&self) -> String {
        match self.class {
            HandClass::Insurance => "insurance".to_string(),
            class => format!(
                "{} {} v {}",
                class.section(),
                class.row(),
                value_letter(self.upcard)
            ),
        }
    }

    /// Every decision of two-card hands against every upcard: hard 5..=19,
    /// soft 13..=20 and every pair, and insurance.
    pub fn all() -> Vec<Decision> {
        let classes = (5..=19)
            .map(HandClass::Hard)
            .chain((13..=20).map(HandClass::Soft))
            .chain((1..=10).map(HandClass::Pair));
        let mut all: Vec<Decision> = classes
            .flat_map(|class| (1..=10).map(move |upcard| Decision { class, upcard }))
            .collect();
        all.push(Decision::INSURANCE);
        all
    }

    /// The insurance decision.
    pub const INSURANCE: Decision = Decision {
        class: HandClass::Insurance,
        upcard: 1,
    };
}

/// The standard short lists of index plays and their published indices.
///
/// The Illustrious 18 and the Fab 4 are Don Schlesinger's, from
/// *Blackjack Attack: Playing the Pros' Way* (3rd ed., RGE Publishing,
/// 2005), chapter 5, for hi-lo in a multi-deck (S17, DAS) game: the plays
/// that bring most of the gain of a full set of indices. The index is the
/// true count at or above which the listed action is taken (for the
/// negative-direction plays, 13 v 2, 12 v 4..6 and 13 v 3, the player
/// stands at or above it and hits below).
pub mod lists {
    use super::{Action, Decision, HandClass};

    /// A published index play.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct Published {
        pub list: &'static str,
        pub decision: Decision,
        /// The action taken at or above the index.
        pub at_or_above: Action,
        pub index: i32,
    }

    const fn play(
        list: &'static str,
        class: HandClass,
        upcard: u8,
        at_or_above: Action,
        index: i32,
    ) -> Published {
        Published {
            list,
            decision: Decision { class, upcard },
            at_or_above,
            index,
        }
    }

    use Action::{Double, Split, Stand, Surrender};
    use HandClass::{Hard, Insurance, Pair};

    /// Schlesinger's Illustrious 18, in his order (by value of the play).
    /// Insurance's "action" is recorded as [`Action::Stand`]: it is the bet
    /// taken, not an action on the hand.
    pub const ILLUSTRIOUS_18: [Published; 18] = [
        play("I18", Insurance, 1, Stand, 3),
        play("I18", Hard(16), 10, Stand, 0),
        play("I18", Hard(15), 10, Stand, 4),
        play("I18", Pair(10), 5, Split, 5),
        play("I18", Pair(10), 6, Split, 4),
        play("I18", Hard(10), 10, Double, 4),
        play("I18", Hard(12), 3, Stand, 2),
        play("I18", Hard(12), 2, Stand, 3),
        play("I18", Hard(11), 1, Double, 1),
        play("I18", Hard(9), 2, Double, 1),
        play("I18", Hard(10), 1, Double, 4),
        play("I18", Hard(9), 7, Double, 3),
        play("I18", Hard(16), 9, Stand, 5),
        play("I18", Hard(13), 2, Stand, -1),
        play("I18", Hard(12), 4, Stand, 0),
        play("I18", Hard(12), 5, Stand, -2),
        play("I18", Hard(12), 6, Stand, -1),
        play("I18", Hard(13), 3, Stand, -2),
    ];

    /// Schlesinger's Fab 4 surrender plays (late surrender).
    pub const FAB_4: [Published; 4] = [
        play("Fab 4", Hard(14), 10, Surrender, 3),
        play("Fab 4", Hard(15), 10, Surrender, 0),
        play("Fab 4", Hard(15), 9, Surrender, 2),
        play("Fab 4", Hard(15), 1, Surrender, 1),
    ];

    /// Both lists' decisions.
    pub fn decisions() -> Vec<Decision> {
        let mut all: Vec<Decision> = ILLUSTRIOUS_18
            .iter()
            .chain(FAB_4.iter())
            .map(|play| play.decision)
            .collect();
        all.sort();
        all.dedup();
        all
    }
}

/// What an index run is asked.
#[derive(Clone, Debug)]
pub struct IndexParams {
    pub rules: PlayerRules,
    /// Count tags by value, ace first.
    pub tags: [i8; N_VALUES],
    /// When the dealer shuffles (the cut card).
    pub dealing: Dealing,
    /// The decisions to find indices for.
    pub decisions: Vec<Decision>,
    pub seed: u64,
}

/// Shoes in one chunk of an index run (one stream of the generator).
pub const SHOES_PER_CHUNK: u64 = 4;

/// The 95% half-width, in true counts, a run brings its indices to unless
/// asked otherwise ([`IndexFinder::to_precision`]).
pub const DEFAULT_PRECISION: f64 = 0.25;

/// The pilot's shoes unless asked otherwise.
pub const DEFAULT_PILOT_SHOES: u64 = 300;

/// The most shoes a run deals unless asked otherwise.
pub const DEFAULT_MAX_SHOES: u64 = 200_000;

/// The gain sums of one decision by true-count bin.
#[derive(Clone, Debug, Default)]
struct BinSums {
    /// `sum w g` per action (indexed by [`action_slot`]).
    gain: [f64; N_SLOTS],
    /// `sum w`.
    weight: f64,
}

/// The sums over shoes that give a bin's mean and its standard error.
#[derive(Clone, Debug, Default)]
struct BinTotals {
    /// Shoes with a hand of the decision at this count.
    shoes: u64,
    gain: [f64; N_SLOTS],
    weight: f64,
    gain_squares: [f64; N_SLOTS],
    weight_squares: f64,
    products: [f64; N_SLOTS],
}

/// Actions a decision can compare: stand, hit, double, split, surrender,
/// and the insurance bet (slot 5, against not insuring).
const N_SLOTS: usize = 6;
const INSURE: usize = 5;

fn action_slot(action: Action) -> usize {
    match action {
        Action::Stand => 0,
        Action::Hit => 1,
        Action::Double => 2,
        Action::Split => 3,
        Action::Surrender => 4,
    }
}

const SLOT_ACTIONS: [Action; 5] = [
    Action::Stand,
    Action::Hit,
    Action::Double,
    Action::Split,
    Action::Surrender,
];

/// Per decision, per true-count bin.
#[derive(Clone, Debug)]
struct Sums<T> {
    cells: Vec<[T; TRUE_COUNT_BINS]>,
}

impl<T: Default + Clone> Sums<T> {
    fn new(n: usize) -> Sums<T> {
        Sums {
            cells: vec![std::array::from_fn(|_| T::default()); n],
        }
    }
}

/// The index run's engine: the decisions, their hands and basic actions,
/// and which compositions' values each shoe needs.
pub struct IndexFinder {
    params: IndexParams,
    player: RoundPlayer,
    dealer: &'static FloatDealer,
    compositions: &'static Compositions,
    /// Per decision, its basic action (none for insurance).
    basic: Vec<Option<Action>>,
    /// Per decision, its two-card hands.
    hands: Vec<Vec<(u8, u8)>>,
    /// Per decision, the compositions its hands reach, as bits.
    reach: Vec<Vec<u64>>,
    /// Per pair value (index value - 1) split by some decision, the
    /// compositions its split hands reach, ascending.
    split_needed: [Vec<u32>; N_VALUES],
    /// Upcards some decision is against.
    upcards: Vec<u8>,
    shoe_cards: Vec<u8>,
}

/// Compositions reachable from `start` by hitting while the total is
/// under 21 (the start included), marked in `marks`.
fn mark_reachable(compositions: &Compositions, start: u32, marks: &mut [bool]) {
    if marks[start as usize] {
        return;
    }
    marks[start as usize] = true;
    if compositions.hands[start as usize].total() >= 21 {
        return;
    }
    for &child in &compositions.children[start as usize] {
        if child != BUST {
            mark_reachable(compositions, child, marks);
        }
    }
}

fn marked(marks: &[bool]) -> Vec<u32> {
    marks
        .iter()
        .enumerate()
        .filter(|&(_, &m)| m)
        .map(|(i, _)| i as u32)
        .collect()
}

impl IndexFinder {
    /// The finder for `params`, whose basic strategy is `chart` (resolved
    /// against the rules by [`ChartStrategy::decide`]).
    ///
    /// Errors (naming the parameter) under ENHC (the method conditions on
    /// the dealer's peek), for an infinite deck, or with no decision.
    pub fn new(params: IndexParams, chart: &ChartStrategy) -> Result<IndexFinder> {
        let rules = params.rules;
        rules.validate()?;
        if rules.hole_card != HoleCard::Peek {
            return Err(Error::invalid(
                "hole_card",
                "enhc",
                "indices are found for the peek game (the dealer checks for a natural \
                 first); use --hole-card peek",
            ));
        }
        let shoe = rules.shoe();
        if shoe.infinite {
            return Err(Error::invalid(
                "decks",
                "inf",
                "a count needs a finite shoe of 1..=8 decks",
            ));
        }
        if params.decisions.is_empty() {
            return Err(Error::invalid("decisions", "none", "at least one decision"));
        }
        let compositions = Compositions::get();
        let basic = params
            .decisions
            .iter()
            .map(|decision| match decision.class {
                HandClass::Insurance => None,
                class => {
                    let (a, b) = class.hands()[0];
                    Some(chart.decide(&rules, decision.upcard, &Hand::of(&[a, b]), Spot::Initial))
                }
            })
            .collect();
        let hands: Vec<Vec<(u8, u8)>> = params
            .decisions
            .iter()
            .map(|decision| decision.class.hands())
            .collect();
        let mut reach = Vec::with_capacity(params.decisions.len());
        let mut split_marks: [Vec<bool>; N_VALUES] = std::array::from_fn(|_| Vec::new());
        for (decision, hands) in params.decisions.iter().zip(&hands) {
            let mut marks = vec![false; compositions.len()];
            if decision.class != HandClass::Insurance {
                for &(a, b) in hands {
                    let index = compositions
                        .index_of(&Hand::of(&[a, b]))
                        .expect("a two-card hand never busts");
                    mark_reachable(compositions, index, &mut marks);
                }
            }
            let mut bits = vec![0u64; compositions.len().div_ceil(64)];
            for (i, _) in marks.iter().enumerate().filter(|&(_, &m)| m) {
                bits[i / 64] |= 1 << (i % 64);
            }
            reach.push(bits);
            if let HandClass::Pair(value) = decision.class {
                let marks = &mut split_marks[usize::from(value - 1)];
                if marks.is_empty() {
                    *marks = vec![false; compositions.len()];
                    let one = compositions
                        .index_of(&Hand::of(&[value]))
                        .expect("one card never busts");
                    mark_reachable(compositions, one, marks);
                }
            }
        }
        let mut upcards: Vec<u8> = params.decisions.iter().map(|d| d.upcard).collect();
        upcards.sort_unstable();
        upcards.dedup();
        let strategy = Strategy::from_decisions(compositions, |upcard, hand, spot| {
            Some(chart.decide(&rules, upcard, hand, spot))
        });
        Ok(IndexFinder {
            player: RoundPlayer::new(rules, strategy, compositions),
            dealer: FloatDealer::for_rules(rules.dealer_rules()),
            compositions,
            basic,
            hands,
            reach,
            split_needed: split_marks.map(|marks| marked(&marks)),
            upcards,
            shoe_cards: shoe.cards(),
            params,
        })
    }

    /// The dealer's outcome rows computed at each round's start (one per
    /// composition a decision's hands reach, and per split hand's): the
    /// measure of a run's work.
    pub fn rows_per_round(&self) -> usize {
        let mut all = vec![0u64; self.compositions.len().div_ceil(64)];
        for bits in &self.reach {
            for (word, add) in all.iter_mut().zip(bits) {
                *word |= add;
            }
        }
        all.iter().map(|w| w.count_ones() as usize).sum::<usize>()
            + self.split_needed.iter().map(Vec::len).sum::<usize>()
    }

    /// The decisions, in the order of the results.
    pub fn decisions(&self) -> &[Decision] {
        &self.params.decisions
    }

    /// Every decision on every hand of `n_shoes` shoes (rounded up to
    /// whole chunks), from chunk `first_chunk` on: the plan of a fixed run,
    /// and of the pilot of a run to a precision.
    pub fn everything(&self, n_shoes: u64, first_chunk: u64) -> RunPlan {
        RunPlan {
            first_chunk,
            n_chunks: n_shoes.div_ceil(SHOES_PER_CHUNK).max(2),
            decisions: vec![DecisionPlan::EVERY_HAND; self.params.decisions.len()],
            round_stride: 1,
            min_bin_shoes: MIN_BIN_SHOES,
        }
    }

    /// The pilot of a run to a precision: every decision on every
    /// [`PILOT_ROUND_STRIDE`]-th round of `n_shoes` shoes, its means taken
    /// from fewer shoes ([`PILOT_MIN_BIN_SHOES`]): it only has to find
    /// roughly where each crossing is and how fast its interval narrows.
    pub fn pilot(&self, n_shoes: u64) -> RunPlan {
        RunPlan {
            round_stride: PILOT_ROUND_STRIDE,
            min_bin_shoes: PILOT_MIN_BIN_SHOES,
            ..self.everything(n_shoes, 0)
        }
    }

    /// The next run toward a 95% half-width of `target` true counts for
    /// every index within [`TARGET_REACH`] of zero, given what is known
    /// (`known`, found from `shoes_watched` shoes per decision), dealing
    /// from chunk `first_chunk` at most `max_shoes` shoes; `None` when
    /// every such index is there (or nothing is left to look for).
    ///
    /// Each decision is watched on the share of the run's shoes its
    /// half-width asks for (it falls as one over the square root of the
    /// shoes), and only at true counts within [`WINDOW`] of its crossing,
    /// where its fit is made. A decision whose means do not yet straddle
    /// zero, but whose trend crosses zero within [`TREND_REACH`], is
    /// watched on every shoe at every count, to find it, until it has been
    /// watched on [`SEARCH_SHOES`].
    pub fn plan_next(
        &self,
        known: &[DecisionIndices],
        shoes_watched: &[u64],
        target: f64,
        first_chunk: u64,
        max_shoes: u64,
    ) -> Option<RunPlan> {
        enum Want {
            Nothing,
            Shoes(f64, f64),
            Search,
        }
        let wants: Vec<Want> = known
            .iter()
            .zip(shoes_watched)
            .map(|(decision, &watched)| {
                let near = decision
                    .plays
                    .iter()
                    .filter(|play| play.crossing.abs() <= TARGET_REACH)
                    .map(|play| (play.half_width(), play.crossing))
                    .max_by(|a, b| a.0.total_cmp(&b.0));
                match near {
                    Some((half, _)) if half <= target => Want::Nothing,
                    Some((half, crossing)) => {
                        let more = watched as f64 * ((half / target).powi(2) * PLAN_MARGIN - 1.0);
                        Want::Shoes(more.max(MIN_PLANNED_SHOES), crossing)
                    }
                    None if decision.plays.is_empty()
                        && watched < SEARCH_SHOES
                        && decision
                            .trends
                            .iter()
                            .flatten()
                            .any(|zero| zero.abs() <= TREND_REACH) =>
                    {
                        Want::Search
                    }
                    None => Want::Nothing,
                }
            })
            .collect();
        let most = wants
            .iter()
            .map(|want| match want {
                Want::Shoes(shoes, _) => *shoes,
                _ => 0.0,
            })
            .fold(0.0, f64::max);
        let searching = wants.iter().any(|want| matches!(want, Want::Search));
        if most == 0.0 && !searching {
            return None;
        }
        let most = most.max(MIN_PLANNED_SHOES).min(max_shoes as f64);
        if most < 1.0 {
            return None;
        }
        let n_chunks = ((most / SHOES_PER_CHUNK as f64).ceil() as u64).max(1);
        let decisions = wants
            .iter()
            .map(|want| match *want {
                Want::Nothing => DecisionPlan::NEVER,
                Want::Search => DecisionPlan::EVERY_HAND,
                Want::Shoes(shoes, crossing) => DecisionPlan {
                    share: (shoes / most).min(1.0),
                    window: Some(crossing),
                },
            })
            .collect();
        Some(RunPlan {
            first_chunk,
            n_chunks,
            decisions,
            round_stride: 1,
            min_bin_shoes: MIN_BIN_SHOES,
        })
    }

    /// Deals the plan's shoes: their sums, to add to a tally.
    pub fn deal(&self, plan: &RunPlan, progress: &dyn Progress) -> Tally {
        let n_decisions = self.params.decisions.len();
        let chunks: Vec<Totals> = (plan.first_chunk..plan.first_chunk + plan.n_chunks)
            .into_par_iter()
            .map(|chunk| {
                let totals = self.chunk(plan, chunk);
                progress.advance(SHOES_PER_CHUNK);
                totals
            })
            .collect();
        // Added in chunk order: the same sums whatever the threads.
        let mut totals = Totals::new(n_decisions);
        for chunk in &chunks {
            totals.add(chunk);
        }
        Tally { totals }
    }

    /// Each decision's indices from a tally, its means resting on at least
    /// `min_bin_shoes` shoes each.
    pub fn indices(&self, tally: &Tally, min_bin_shoes: u64) -> Vec<DecisionIndices> {
        let totals = &tally.totals;
        self.params
            .decisions
            .iter()
            .enumerate()
            .map(|(d, decision)| {
                indices_of(
                    *decision,
                    self.basic[d],
                    &totals.bins.cells[d],
                    totals.shoes[d],
                    min_bin_shoes,
                )
            })
            .collect()
    }

    /// Every index to a 95% half-width of `target` true counts (those
    /// within [`TARGET_REACH`] of zero), as far as `max_shoes` shoes allow:
    /// a pilot of `pilot_shoes` ([`IndexFinder::pilot`]), then runs planned
    /// by [`IndexFinder::plan_next`] until every such index is there. A
    /// decision the planned runs never watched keeps the pilot's figures.
    ///
    /// Deterministic: each run's plan depends only on the runs before it,
    /// and its shoes are the next chunks of the seed's streams.
    pub fn to_precision(
        &self,
        pilot_shoes: u64,
        target: f64,
        max_shoes: u64,
        progress: &dyn Progress,
    ) -> PrecisionRun {
        let pilot_plan = self.pilot(pilot_shoes);
        let pilot = self.run(&pilot_plan, progress);
        let mut known = pilot.clone();
        let mut watched = vec![pilot_plan.n_shoes(); known.len()];
        let mut next_chunk = pilot_plan.n_chunks;
        let mut shoes_dealt = pilot_plan.n_shoes();
        let mut tally: Option<Tally> = None;
        let mut runs = 1;
        while let Some(plan) = self.plan_next(
            &known,
            &watched,
            target,
            next_chunk,
            max_shoes.saturating_sub(shoes_dealt),
        ) {
            let part = self.deal(&plan, progress);
            let tally = match &mut tally {
                Some(tally) => {
                    tally.add(&part);
                    tally
                }
                None => tally.insert(part),
            };
            known = self.indices(tally, MIN_BIN_SHOES);
            watched = tally.shoes_watched().to_vec();
            next_chunk += plan.n_chunks;
            shoes_dealt += plan.n_shoes();
            runs += 1;
        }
        let decisions = known
            .into_iter()
            .zip(pilot)
            .zip(&watched)
            .map(|((planned, pilot), &watched)| {
                if tally.is_some() && watched > 0 {
                    planned
                } else {
                    pilot
                }
            })
            .collect();
        PrecisionRun {
            decisions,
            shoes_dealt,
            runs,
        }
    }

    /// Runs a plan at once: [`IndexFinder::deal`], then
    /// [`IndexFinder::indices`].
    pub fn run(&self, plan: &RunPlan, progress: &dyn Progress) -> Vec<DecisionIndices> {
        self.indices(&self.deal(plan, progress), plan.min_bin_shoes)
    }

    /// The sums of one chunk of shoes.
    fn chunk(&self, plan: &RunPlan, chunk: u64) -> Totals {
        let mut rng = stream_rng(self.params.seed, 0, chunk);
        let n_decisions = self.params.decisions.len();
        let mut totals = Totals::new(n_decisions);
        let mut shoe_sums = Sums::<BinSums>::new(n_decisions);
        let mut cards = self.shoe_cards.clone();
        let mut scratch = Scratch::new(self.compositions.len());
        let full = self.params.rules.shoe().counts;
        let mut watched = vec![false; n_decisions];
        for shoe_in_chunk in 0..SHOES_PER_CHUNK {
            let shoe_number = chunk * SHOES_PER_CHUNK + shoe_in_chunk;
            for (d, watch) in watched.iter_mut().enumerate() {
                *watch = plan.decisions[d].watches(shoe_number);
                totals.shoes[d] += u64::from(*watch);
            }
            for cell in &mut shoe_sums.cells {
                cell.fill(BinSums::default());
            }
            let mut shoe = TableShoe::new(&mut rng, &mut cards);
            let mut left = full;
            let mut running = 0i32;
            let mut rounds = 0u32;
            while self.params.dealing.deals_another(shoe.dealt(), rounds) {
                if rounds.is_multiple_of(plan.round_stride) && watched.iter().any(|&w| w) {
                    self.evaluate(&left, running, plan, &watched, &mut scratch, &mut shoe_sums);
                }
                shoe.start_round();
                self.player
                    .play(&mut shoe)
                    .expect("the shoe holds the most cards a round can take");
                for &value in shoe.round_cards() {
                    left[usize::from(value - 1)] -= 1;
                    running += i32::from(self.params.tags[usize::from(value - 1)]);
                }
                rounds += 1;
                if shoe.reshuffled() {
                    break;
                }
            }
            totals.add_shoe(&shoe_sums);
        }
        totals
    }

    /// Adds the weighted gains of every watched decision's hands that its
    /// plan takes, on the shoe `left` (running count `running`), to `sums`.
    fn evaluate(
        &self,
        left: &[u32; N_VALUES],
        running: i32,
        plan: &RunPlan,
        watched: &[bool],
        scratch: &mut Scratch,
        sums: &mut Sums<BinSums>,
    ) {
        let rules = &self.params.rules;
        let tags = &self.params.tags;
        let total: u32 = left.iter().sum();
        // Which hands count, at the true count the player sees them.
        scratch.hands.clear();
        scratch.reach.fill(0);
        let mut split_pairs = [false; N_VALUES];
        for (d, decision) in self.params.decisions.iter().enumerate() {
            if !watched[d] {
                continue;
            }
            let u = decision.upcard;
            let mut any = false;
            for &(a, b) in &self.hands[d] {
                let Some(weight) = deal_probability(left, a, b, u) else {
                    continue;
                };
                let seen =
                    tags[usize::from(a - 1)] + tags[usize::from(b - 1)] + tags[usize::from(u - 1)];
                let tc = true_count(running + i32::from(seen), total - 3);
                if !plan.decisions[d].takes(tc) {
                    continue;
                }
                scratch.hands.push(HandAt {
                    decision: d as u32,
                    a,
                    b,
                    bin: true_count_bin(tc) as u8,
                    weight,
                });
                any = true;
            }
            if any && decision.class != HandClass::Insurance {
                for (word, add) in scratch.reach.iter_mut().zip(&self.reach[d]) {
                    *word |= add;
                }
                if let HandClass::Pair(p) = decision.class {
                    split_pairs[usize::from(p - 1)] = true;
                }
            }
        }
        if scratch.hands.is_empty() {
            return;
        }
        scratch.needed.clear();
        for (w, &word) in scratch.reach.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                scratch.needed.push((w * 64) as u32 + bits.trailing_zeros());
                bits &= bits - 1;
            }
        }
        scratch.splits(self, left, &split_pairs);
        Scratch::values(
            &mut scratch.shoes,
            &mut scratch.fits,
            &mut scratch.main,
            self,
            left,
            &scratch.needed,
        );
        let table = &scratch.main;
        for hand_at in &scratch.hands {
            let d = hand_at.decision as usize;
            let decision = &self.params.decisions[d];
            let (a, b, u) = (hand_at.a, hand_at.b, decision.upcard);
            let weight = hand_at.weight;
            let cell = &mut sums.cells[d][usize::from(hand_at.bin)];
            if decision.class == HandClass::Insurance {
                // Insurance pays 2 to 1 on half the bet: it gains 1 when
                // the hole card is a ten and loses 1/2 otherwise.
                let mut after = *left;
                for v in [a, b, u] {
                    after[usize::from(v - 1)] -= 1;
                }
                let q = f64::from(after[9]) / f64::from(total - 3);
                cell.weight += weight;
                cell.gain[INSURE] += weight * (1.5 * q - 0.5);
                continue;
            }
            let hand = Hand::of(&[a, b]);
            let index = self
                .compositions
                .index_of(&hand)
                .expect("a two-card hand never busts") as usize;
            let ui = usize::from(u - 1);
            let no_natural = table.no_natural[index][ui];
            let mut value = [f64::NAN; N_SLOTS];
            value[0] = table.stand[index][ui];
            value[1] = table.hit[index][ui];
            if rules.may_double(&hand, false) {
                value[2] = table.double[index][ui];
            }
            if let HandClass::Pair(p) = decision.class
                && rules.max_hands_for(p) >= 2
            {
                value[3] = scratch.split[usize::from(p - 1)][ui];
            }
            match rules.surrender {
                Surrender::None => {}
                Surrender::Late => value[4] = -0.5 * no_natural,
                // Early: before the peek, so -1/2 against the others'
                // `E[X; no natural]` less the natural's loss of one unit.
                Surrender::Early => value[4] = -0.5 + (1.0 - no_natural),
            }
            let basic = self.basic[d].expect("a hand decision has a basic action");
            let base = value[action_slot(basic)];
            cell.weight += weight * no_natural;
            for (gain, &value) in cell.gain.iter_mut().zip(&value).take(INSURE) {
                if !value.is_nan() {
                    *gain += weight * (value - base);
                }
            }
        }
    }
}

/// A hand to value: its decision, cards, true-count bin and weight.
#[derive(Clone, Copy, Debug)]
struct HandAt {
    decision: u32,
    a: u8,
    b: u8,
    bin: u8,
    weight: f64,
}

/// What a run does: which chunks of shoes it deals, and how it watches
/// each decision.
#[derive(Clone, Debug, PartialEq)]
pub struct RunPlan {
    /// Its first chunk (chunk `k` is dealt from stream `k`).
    pub first_chunk: u64,
    pub n_chunks: u64,
    /// Per decision, in the finder's order.
    pub decisions: Vec<DecisionPlan>,
    /// Rounds valued: every `round_stride`-th of each shoe, from its first.
    pub round_stride: u32,
    /// The fewest shoes a true count's mean must rest on to be used.
    pub min_bin_shoes: u64,
}

impl RunPlan {
    /// Shoes the plan deals.
    pub fn n_shoes(&self) -> u64 {
        self.n_chunks * SHOES_PER_CHUNK
    }
}

/// Which shoes and hands of a run a decision is valued on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DecisionPlan {
    /// The share of shoes it watches, spread evenly along the run (shoe
    /// `n` if the fractional part of `(n + 1) x golden ratio` is below it).
    pub share: f64,
    /// With a crossing, only hands at true counts within [`WINDOW`] of it.
    pub window: Option<f64>,
}

/// How far from a pilot's crossing a planned run values a decision's
/// hands, in true counts: the fit's bins (two either side of the crossing)
/// and a margin for the pilot's error.
pub const WINDOW: f64 = 3.0;

/// The planned shoes' margin over what the pilot's half-widths ask for.
const PLAN_MARGIN: f64 = 1.5;

/// The true counts within which [`IndexFinder::plan_next`] brings indices
/// to the target precision: beyond them a shoe too seldom goes for a
/// target to be met in reasonable time.
pub const TARGET_REACH: f64 = 6.0;

/// The fewest shoes a planned run watches a decision on.
const MIN_PLANNED_SHOES: f64 = 400.0;

/// The farthest true count at which a planned run looks for a crossing the
/// pilot's means only hint at.
const TREND_REACH: f64 = 12.0;

/// The shoes after which a planned run stops looking for a crossing the
/// means only hint at.
const SEARCH_SHOES: u64 = 2_000;

/// Rounds a pilot values: one in this many.
pub const PILOT_ROUND_STRIDE: u32 = 3;

/// The fewest shoes a pilot's mean rests on.
pub const PILOT_MIN_BIN_SHOES: u64 = 10;

impl DecisionPlan {
    /// Every hand of every shoe.
    pub const EVERY_HAND: DecisionPlan = DecisionPlan {
        share: 1.0,
        window: None,
    };

    /// No hand.
    pub const NEVER: DecisionPlan = DecisionPlan {
        share: 0.0,
        window: None,
    };

    fn watches(&self, shoe_number: u64) -> bool {
        const GOLDEN: f64 = 0.618_033_988_749_894_9;
        self.share >= 1.0 || ((shoe_number + 1) as f64 * GOLDEN).fract() < self.share
    }

    fn takes(&self, true_count: i32) -> bool {
        self.window
            .is_none_or(|crossing| (f64::from(true_count) - crossing).abs() <= WINDOW)
    }
}

/// The outcome of [`IndexFinder::to_precision`].
#[derive(Clone, Debug)]
pub struct PrecisionRun {
    /// Per decision, in the finder's order.
    pub decisions: Vec<DecisionIndices>,
    /// Shoes dealt in all, the pilot's included.
    pub shoes_dealt: u64,
    /// Runs made, the pilot included.
    pub runs: u32,
}

/// What runs of an [`IndexFinder`] dealt, summed (runs of the same
/// finder add up).
pub struct Tally {
    totals: Totals,
}

impl Tally {
    /// Adds another run's sums.
    pub fn add(&mut self, other: &Tally) {
        self.totals.add(&other.totals);
    }

    /// Per decision, the shoes it was watched on.
    pub fn shoes_watched(&self) -> &[u64] {
        &self.totals.shoes
    }
}

/// A run's sums: per decision and bin, and the shoes each decision
/// watched.
struct Totals {
    bins: Sums<BinTotals>,
    shoes: Vec<u64>,
}

impl Totals {
    fn new(n: usize) -> Totals {
        Totals {
            bins: Sums::new(n),
            shoes: vec![0; n],
        }
    }

    fn add(&mut self, other: &Totals) {
        for (shoes, add) in self.shoes.iter_mut().zip(&other.shoes) {
            *shoes += add;
        }
        for (total, part) in self.bins.cells.iter_mut().zip(&other.bins.cells) {
            for (bin, add) in total.iter_mut().zip(part) {
                bin.shoes += add.shoes;
                bin.weight += add.weight;
                bin.weight_squares += add.weight_squares;
                for slot in 0..N_SLOTS {
                    bin.gain[slot] += add.gain[slot];
                    bin.gain_squares[slot] += add.gain_squares[slot];
                    bin.products[slot] += add.products[slot];
                }
            }
        }
    }

    fn add_shoe(&mut self, shoe: &Sums<BinSums>) {
        for (total, shoe_cell) in self.bins.cells.iter_mut().zip(&shoe.cells) {
            for (bin, sums) in total.iter_mut().zip(shoe_cell) {
                if sums.weight == 0.0 {
                    continue;
                }
                bin.shoes += 1;
                bin.weight += sums.weight;
                bin.weight_squares += sums.weight * sums.weight;
                for slot in 0..N_SLOTS {
                    bin.gain[slot] += sums.gain[slot];
                    bin.gain_squares[slot] += sums.gain[slot] * sums.gain[slot];
                    bin.products[slot] += sums.gain[slot] * sums.weight;
                }
            }
        }
    }
}

/// The values of every needed composition against every needed upcard, on
/// one shoe (index value - 1 within a row).
struct ValueTable {
    stand: Vec<PerUpcard>,
    hit: Vec<PerUpcard>,
    best: Vec<PerUpcard>,
    double: Vec<PerUpcard>,
    no_natural: Vec<PerUpcard>,
}

/// Per composition and upcard (index value - 1).
type PerUpcard = [f64; N_VALUES];

/// A shoe's work space, reused from round to round.
struct Scratch {
    /// The hands valued at this round.
    hands: Vec<HandAt>,
    /// The compositions they reach, as bits, and as numbers.
    reach: Vec<u64>,
    needed: Vec<u32>,
    shoes: Vec<Shoe>,
    fits: Vec<bool>,
    main: ValueTable,
    split_hands: ValueTable,
    /// Per pair value and upcard, `E[X; no natural]` of splitting.
    split: [PerUpcard; N_VALUES],
}

impl ValueTable {
    fn new(n: usize) -> ValueTable {
        ValueTable {
            stand: vec![[0.0; N_VALUES]; n],
            hit: vec![[0.0; N_VALUES]; n],
            best: vec![[0.0; N_VALUES]; n],
            double: vec![[0.0; N_VALUES]; n],
            no_natural: vec![[0.0; N_VALUES]; n],
        }
    }

    fn clear(&mut self, i: usize, ui: usize) {
        self.stand[i][ui] = f64::NAN;
        self.hit[i][ui] = f64::NAN;
        self.best[i][ui] = f64::NAN;
        self.double[i][ui] = f64::NAN;
        self.no_natural[i][ui] = f64::NAN;
    }
}

impl Scratch {
    fn new(n: usize) -> Scratch {
        Scratch {
            hands: Vec::new(),
            reach: vec![0; n.div_ceil(64)],
            needed: Vec::with_capacity(n),
            shoes: Vec::with_capacity(n),
            fits: Vec::with_capacity(n),
            main: ValueTable::new(n),
            split_hands: ValueTable::new(n),
            split: [[f64::NAN; N_VALUES]; N_VALUES],
        }
    }

    /// Fills `table` with the values of the `needed` compositions on the
    /// shoe `world`, for every upcard the finder needs.
    fn values(
        shoes: &mut Vec<Shoe>,
        fits: &mut Vec<bool>,
        table: &mut ValueTable,
        finder: &IndexFinder,
        world: &[u32; N_VALUES],
        needed: &[u32],
    ) {
        let compositions = finder.compositions;
        let payout = finder.params.rules.blackjack_payout();
        // The dealer's rows on the shoe less each hand that fits in it.
        shoes.clear();
        fits.clear();
        for &index in needed {
            let hand = &compositions.hands[index as usize];
            let fit = (0..N_VALUES).all(|v| u32::from(hand.counts()[v]) <= world[v]);
            fits.push(fit);
            if fit {
                shoes.push(Shoe {
                    counts: std::array::from_fn(|v| world[v] - u32::from(hand.counts()[v])),
                    infinite: false,
                });
            }
        }
        let rows = finder.dealer.rows_many(shoes);
        let mut next_row = rows.len();
        // Children after parents: fill from the end.
        for (k, &index) in needed.iter().enumerate().rev() {
            let i = index as usize;
            if !fits[k] {
                for &u in &finder.upcards {
                    table.clear(i, usize::from(u - 1));
                }
                continue;
            }
            next_row -= 1;
            let rows = &rows[next_row];
            let counts = &shoes[next_row].counts;
            let hand = compositions.hands[i];
            let cards: u32 = counts.iter().sum();
            let total = hand.total();
            for &u in &finder.upcards {
                let ui = usize::from(u - 1);
                let Some(row) = rows[ui] else {
                    table.clear(i, ui);
                    continue;
                };
                table.no_natural[i][ui] = 1.0 - row[DealerOutcome::Natural.index()];
                let mut stand = 0.0;
                for (o, &p) in row.iter().enumerate() {
                    if o == DealerOutcome::Natural.index() {
                        continue;
                    }
                    let (n, d) = settle(total, 1, false, false, payout, DealerOutcome::ALL[o]);
                    stand += p * n as f64 / d as f64;
                }
                table.stand[i][ui] = stand;
                if total >= 21 {
                    table.hit[i][ui] = f64::NAN;
                    table.double[i][ui] = f64::NAN;
                    table.best[i][ui] = stand;
                    continue;
                }
                // The player draws from the shoe less the upcard.
                let draw_total = f64::from(cards - 1);
                let (mut hit, mut double) = (0.0, 0.0);
                for c in 1..=N_VALUES as u8 {
                    let ci = usize::from(c - 1);
                    let n = counts[ci] - u32::from(c == u);
                    if n == 0 {
                        continue;
                    }
                    let p = f64::from(n) / draw_total;
                    let child = compositions.children[i][ci];
                    let (after, stood) = if child == BUST {
                        // Busted: the bet is lost, counted where the
                        // dealer has no natural (like every value here).
                        let no_natural = match natural_hole_card(u) {
                            Some(hole) => {
                                let n_hole = counts[usize::from(hole - 1)] - u32::from(hole == c);
                                1.0 - f64::from(n_hole) / f64::from(cards - 2)
                            }
                            None => 1.0,
                        };
                        (-no_natural, -no_natural)
                    } else {
                        let c = child as usize;
                        (table.best[c][ui], table.stand[c][ui])
                    };
                    hit += p * after;
                    double += p * stood;
                }
                table.hit[i][ui] = hit;
                table.double[i][ui] = 2.0 * double;
                table.best[i][ui] = if hit > stand { hit } else { stand };
            }
        }
        debug_assert_eq!(next_row, 0);
    }

    /// Fills `split[p - 1]` for every pair value split by some decision:
    /// two hands, each one card of the pair and what it draws, valued with
    /// the other card of the pair out of the shoe (the split hand's own
    /// actions: double after split as the rules say, split aces one card).
    fn splits(&mut self, finder: &IndexFinder, left: &[u32; N_VALUES], pairs: &[bool; N_VALUES]) {
        let compositions = finder.compositions;
        let rules = &finder.params.rules;
        for p in 1..=N_VALUES as u8 {
            let pi = usize::from(p - 1);
            let needed = &finder.split_needed[pi];
            self.split[pi] = [f64::NAN; N_VALUES];
            if !pairs[pi] || needed.is_empty() || left[pi] < 2 {
                continue;
            }
            let mut world = *left;
            world[pi] -= 1;
            Scratch::values(
                &mut self.shoes,
                &mut self.fits,
                &mut self.split_hands,
                finder,
                &world,
                needed,
            );
            let table = &self.split_hands;
            let one = compositions
                .index_of(&Hand::of(&[p]))
                .expect("one card never busts") as usize;
            // The shoe a split hand draws its second card from: less both
            // cards of the pair and the upcard.
            let mut counts = world;
            counts[pi] -= 1;
            let cards: u32 = counts.iter().sum();
            for &u in &finder.upcards {
                let ui = usize::from(u - 1);
                if counts[ui] == 0 {
                    continue;
                }
                let draw_total = f64::from(cards - 1);
                let mut split = 0.0;
                for c in 1..=N_VALUES as u8 {
                    let ci = usize::from(c - 1);
                    let n = counts[ci] - u32::from(c == u);
                    if n == 0 {
                        continue;
                    }
                    let child = compositions.children[one][ci] as usize;
                    let value = if p == 1 {
                        table.stand[child][ui]
                    } else if rules.may_double(&compositions.hands[child], true) {
                        table.best[child][ui].max(table.double[child][ui])
                    } else {
                        table.best[child][ui]
                    };
                    split += f64::from(n) / draw_total * value;
                }
                self.split[pi][ui] = 2.0 * split;
            }
        }
    }
}

/// The probability that the upcard is `u` and the player's two cards are
/// `a` and `b` (in either order), dealt from `left`; `None` if impossible.
fn deal_probability(left: &[u32; N_VALUES], a: u8, b: u8, u: u8) -> Option<f64> {
    let mut counts = *left;
    let total: u32 = counts.iter().sum();
    let mut ways = 1.0;
    for v in [a, b, u] {
        let n = &mut counts[usize::from(v - 1)];
        if *n == 0 {
            return None;
        }
        ways *= f64::from(*n);
        *n -= 1;
    }
    if a != b {
        ways *= 2.0;
    }
    Some(ways / (f64::from(total) * f64::from(total - 1) * f64::from(total - 2)))
}

/// An index: where one action overtakes the basic one.
#[derive(Clone, Debug, PartialEq)]
pub struct IndexPlay {
    /// The action taken on the deviation's side.
    pub deviation: Action,
    /// Whether the deviation is right at and above the index (`true`) or
    /// below it.
    pub at_or_above: bool,
    /// The least whole true count on the basic side (`>=`) or at which
    /// basic strategy becomes right again (`<`): `ceil(crossing)`.
    pub index: i32,
    /// Where the mean gain crosses zero, interpolated.
    pub crossing: f64,
    /// The crossing's 95% interval.
    pub ci95: [f64; 2],
}

impl IndexPlay {
    /// Half the width of the 95% interval.
    pub fn half_width(&self) -> f64 {
        (self.ci95[1] - self.ci95[0]) / 2.0
    }
}

/// Per true-count bin, a mean gain and its standard error, `None` where
/// too few shoes saw the hand.
pub type GainByCount = Vec<Option<(f64, f64)>>;

/// A decision's gain by true count and its indices.
#[derive(Clone, Debug, PartialEq)]
pub struct DecisionIndices {
    pub decision: Decision,
    /// Basic strategy's action (`None` for insurance: not insuring).
    pub basic: Option<Action>,
    /// Per alternative action (insurance: taking it), its mean gain over
    /// basic in units per hand dealt, by true-count bin (`None` where no
    /// hand was seen), with its standard error.
    pub gains: Vec<(Option<Action>, GainByCount)>,
    /// The indices found: at most one per alternative.
    pub plays: Vec<IndexPlay>,
    /// Per alternative of `gains`, where a weighted line through all its
    /// means crosses zero (a hint where no two means straddle it).
    pub trends: Vec<Option<f64>>,
    /// Shoes dealt.
    pub n_shoes: u64,
}

/// The fewest shoes a bin's mean must rest on to be reported: its
/// standard error, by shoe, needs a few tens of shoes to mean anything.
pub const MIN_BIN_SHOES: u64 = 30;

fn indices_of(
    decision: Decision,
    basic: Option<Action>,
    bins: &[BinTotals; TRUE_COUNT_BINS],
    n_shoes: u64,
    min_bin_shoes: u64,
) -> DecisionIndices {
    let slots: Vec<(usize, Option<Action>)> = match basic {
        None => vec![(INSURE, None)],
        Some(basic) => SLOT_ACTIONS
            .iter()
            .enumerate()
            .filter(|&(_, &a)| a != basic)
            .map(|(slot, &a)| (slot, Some(a)))
            .collect(),
    };
    let n = n_shoes as f64;
    let mut gains = Vec::new();
    let mut plays = Vec::new();
    let mut trends = Vec::new();
    for (slot, action) in slots {
        let means: Vec<Option<(f64, f64)>> = bins
            .iter()
            .map(|bin| {
                if bin.shoes < min_bin_shoes || bin.gain_squares[slot] == 0.0 {
                    return None;
                }
                let m = bin.gain[slot] / bin.weight;
                let spread = bin.gain_squares[slot] - 2.0 * m * bin.products[slot]
                    + m * m * bin.weight_squares;
                let variance = (n / (n - 1.0)) * spread.max(0.0) / (bin.weight * bin.weight);
                Some((m, variance.sqrt()))
            })
            .collect();
        if means.iter().all(Option::is_none) {
            continue;
        }
        trends.push(trend_zero(&means));
        if let Some(play) = crossing(&means) {
            plays.push(IndexPlay {
                deviation: action.unwrap_or(Action::Stand),
                ..play
            });
        }
        gains.push((action, means));
    }
    DecisionIndices {
        decision,
        basic,
        gains,
        plays,
        trends,
        n_shoes,
    }
}

/// The sign change of a gain curve (bins of the floored true count, bin
/// `i` placed at `i`, the open-ended end bins left out) nearest to where a
/// weighted least-squares line through all the means crosses zero, and
/// the crossing of a weighted line through the two means either side of
/// it and the next one out on each side (where the bins have them): the
/// gain is close to linear over a few counts, and four bins pin the
/// crossing down better than the two beside it. Its interval is the delta
/// method's from the fit's covariance.
fn crossing(means: &[Option<(f64, f64)>]) -> Option<IndexPlay> {
    let points = points_of(means);
    let candidates: Vec<usize> = (1..points.len())
        .filter(|&k| {
            points[k].0 == points[k - 1].0 + 1.0 && (points[k - 1].1 <= 0.0) != (points[k].1 <= 0.0)
        })
        .collect();
    let whole = weighted_line(&points)?;
    let line_zero = -whole.intercept / whole.slope;
    let &k = candidates.iter().min_by(|&&a, &&b| {
        let da = (points[a].0 - 0.5 - line_zero).abs();
        let db = (points[b].0 - 0.5 - line_zero).abs();
        da.total_cmp(&db)
    })?;
    let window: Vec<(f64, f64, f64)> = points[k.saturating_sub(2)..(k + 2).min(points.len())]
        .iter()
        .copied()
        .filter(|p| (p.0 - points[k].0 + 0.5).abs() <= 2.0)
        .collect();
    let (x0, m0, s0) = points[k - 1];
    let (x1, m1, s1) = points[k];
    // The fit's crossing, if it falls between the two means that straddle
    // zero (a flat or noisy window can put it anywhere); else the straight
    // line through those two.
    let fitted = weighted_line(&window).and_then(|local| {
        let crossing = -local.intercept / local.slope;
        let variance = (local.var_intercept
            + 2.0 * crossing * local.covariance
            + crossing * crossing * local.var_slope)
            / (local.slope * local.slope);
        (x0 - 0.5..=x1 + 0.5)
            .contains(&crossing)
            .then_some((crossing, variance, local.slope > 0.0))
    });
    let (crossing, variance, rising) = fitted.unwrap_or_else(|| {
        let d = m0 - m1;
        let variance = (m1 * m1 * s0 * s0 + m0 * m0 * s1 * s1) / (d * d * d * d);
        (x0 + m0 / d, variance, m1 > m0)
    });
    let half = Z95 * variance.max(0.0).sqrt();
    Some(IndexPlay {
        deviation: Action::Stand,
        at_or_above: rising,
        index: crossing.ceil() as i32,
        crossing,
        ci95: [crossing - half, crossing + half],
    })
}

/// The means as `(true count, mean, standard error)`, the open-ended end
/// bins left out.
fn points_of(means: &[Option<(f64, f64)>]) -> Vec<(f64, f64, f64)> {
    means
        .iter()
        .enumerate()
        .skip(1)
        .take(TRUE_COUNT_BINS - 2)
        .filter_map(|(bin, m)| {
            m.map(|(mean, se)| (f64::from(bin as i32 + TRUE_COUNT_MIN), mean, se))
        })
        .collect()
}

/// Where a weighted line through all the means crosses zero.
fn trend_zero(means: &[Option<(f64, f64)>]) -> Option<f64> {
    let line = weighted_line(&points_of(means))?;
    Some(-line.intercept / line.slope)
}

/// A weighted least-squares line and its parameters' covariance.
struct Line {
    intercept: f64,
    slope: f64,
    var_intercept: f64,
    var_slope: f64,
    covariance: f64,
}

/// The line through `(x, mean, se)` points weighted by `1 / se^2`, if the
/// points have two distinct `x` and the slope is not zero.
fn weighted_line(points: &[(f64, f64, f64)]) -> Option<Line> {
    let (mut sw, mut sx, mut sy, mut sxx, mut sxy) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for &(x, mean, se) in points {
        let w = 1.0 / (se * se).max(1e-30);
        sw += w;
        sx += w * x;
        sy += w * mean;
        sxx += w * x * x;
        sxy += w * x * mean;
    }
    let det = sw * sxx - sx * sx;
    if det.is_nan() || det <= 0.0 {
        return None;
    }
    let slope = (sw * sxy - sx * sy) / det;
    if slope == 0.0 || !slope.is_finite() {
        return None;
    }
    Some(Line {
        intercept: (sy - slope * sx) / sw,
        slope,
        var_intercept: sxx / det,
        var_slope: sw / det,
        covariance: -sx / det,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::NoProgress;
    use crate::games::blackjack::player::chart::strategy_chart;
    use crate::games::blackjack::player::{PlayerParams, SplitModel, solve};
    use crate::games::blackjack::{Decks, Soft17};

    const HI_LO: [i8; N_VALUES] = [-1, 1, 1, 1, 1, 1, 0, 0, 0, -1];

    fn finder(rules: PlayerRules, decisions: Vec<Decision>) -> IndexFinder {
        let params = PlayerParams::full_shoe(rules, SplitModel::Cdz);
        let solved = solve::<f64>(&params, &NoProgress).unwrap();
        let chart = ChartStrategy::from_chart(&strategy_chart(&solved).unwrap()).unwrap();
        let cards = rules.shoe().total();
        IndexFinder::new(
            IndexParams {
                rules,
                tags: HI_LO,
                dealing: Dealing::cut_card(0.75, cards).unwrap(),
                decisions,
                seed: 7,
            },
            &chart,
        )
        .unwrap()
    }

    fn one_deck() -> PlayerRules {
        PlayerRules {
            decks: Decks::Finite(1),
            surrender: Surrender::Late,
            ..PlayerRules::default()
        }
    }

    /// The values the finder computes on a shoe with cards gone are the
    /// exact solver's on that shoe (`blackjack player --removed`): stand,
    /// hit (then the best play by composition), double and late surrender
    /// of every two-card hand the decisions hold, against every upcard,
    /// given no dealer natural. The solver is the independent method: it
    /// values hands by its own recursion over compositions.
    #[test]
    fn values_on_a_shoe_are_the_exact_solvers_on_that_shoe() {
        for soft17 in [Soft17::Stand, Soft17::Hit] {
            values_match_the_solver(PlayerRules {
                soft17,
                ..one_deck()
            });
        }
    }

    fn values_match_the_solver(rules: PlayerRules) {
        let removed = vec![10, 10, 5, 2, 9, 1, 6];
        let mut left = rules.shoe().counts;
        for &v in &removed {
            left[usize::from(v - 1)] -= 1;
        }
        let decisions: Vec<Decision> = Decision::all()
            .into_iter()
            .filter(|d| matches!(d.class, HandClass::Hard(_) | HandClass::Soft(_)))
            .collect();
        let finder = finder(rules, decisions);
        let solved = solve::<f64>(
            &PlayerParams {
                rules,
                split_model: SplitModel::Cdz,
                removed,
            },
            &NoProgress,
        )
        .unwrap();
        let mut scratch = Scratch::new(finder.compositions.len());
        scratch.reach.fill(0);
        for bits in &finder.reach {
            for (word, add) in scratch.reach.iter_mut().zip(bits) {
                *word |= add;
            }
        }
        let needed: Vec<u32> = (0..finder.compositions.len() as u32)
            .filter(|&i| scratch.reach[i as usize / 64] >> (i % 64) & 1 == 1)
            .collect();
        Scratch::values(
            &mut scratch.shoes,
            &mut scratch.fits,
            &mut scratch.main,
            &finder,
            &left,
            &needed,
        );
        let table = &scratch.main;
        let mut compared = 0;
        for (d, decision) in finder.decisions().iter().enumerate() {
            let u = decision.upcard;
            for &(a, b) in &finder.hands[d] {
                if deal_probability(&left, a, b, u).is_none() {
                    continue;
                }
                let row = solved.hand(a, b, u).expect("a dealt hand has a row");
                let i = finder.compositions.index_of(&Hand::of(&[a, b])).unwrap() as usize;
                let ui = usize::from(u - 1);
                let no_natural = table.no_natural[i][ui];
                let close = |ours: f64, theirs: f64, what: &str| {
                    assert!(
                        (ours / no_natural - theirs).abs() < 1e-12,
                        "{} {a}{b} v {u} {what}: {} here, {theirs} solved",
                        decision.name(),
                        ours / no_natural
                    );
                };
                close(table.stand[i][ui], row.values.stand, "stand");
                close(table.hit[i][ui], row.values.hit, "hit");
                close(table.double[i][ui], row.values.double.unwrap(), "double");
                close(
                    -0.5 * no_natural,
                    row.values.surrender.unwrap(),
                    "surrender",
                );
                compared += 1;
            }
        }
        assert!(compared > 200, "{compared} hands compared");
    }

    /// A split's value here is two independent hands with no re-split; the
    /// solver's (cdz, one split at most) deals the second hand after the
    /// first. They differ by the first hand's cards' effect on the second:
    /// less than a hundredth of a unit for every pair against every upcard
    /// on a full deck.
    #[test]
    fn splits_are_close_to_the_solvers_with_no_resplit() {
        let rules = PlayerRules {
            max_hands: 2,
            ..one_deck()
        };
        let decisions: Vec<Decision> = Decision::all()
            .into_iter()
            .filter(|d| matches!(d.class, HandClass::Pair(_)))
            .collect();
        let finder = finder(rules, decisions);
        let solved = solve::<f64>(
            &PlayerParams::full_shoe(rules, SplitModel::Cdz),
            &NoProgress,
        )
        .unwrap();
        let left = rules.shoe().counts;
        let mut scratch = Scratch::new(finder.compositions.len());
        scratch.splits(&finder, &left, &[true; N_VALUES]);
        let mut largest: f64 = 0.0;
        for p in 1..=10u8 {
            for u in 1..=10u8 {
                let row = solved.hand(p, p, u).unwrap();
                // The split's E[X; no natural], and the pair's chance of
                // no natural as the solver conditions it.
                let ours = scratch.split[usize::from(p - 1)][usize::from(u - 1)]
                    / (1.0 - row.dealer_natural);
                largest = largest.max((ours - row.values.split.unwrap()).abs());
            }
        }
        assert!(largest < 0.01, "largest difference {largest}");
    }

    /// Same seed, the same figures with one thread or two.
    #[test]
    fn figures_do_not_depend_on_threads() {
        let rules = PlayerRules {
            decks: Decks::Finite(2),
            ..PlayerRules::default()
        };
        let finder = finder(
            rules,
            vec![
                Decision {
                    class: HandClass::Hard(16),
                    upcard: 10,
                },
                Decision::INSURANCE,
            ],
        );
        let plan = finder.everything(16, 0);
        let with = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| finder.run(&plan, &NoProgress))
        };
        let one = with(1);
        assert_eq!(one, with(2));
        assert!(one.iter().all(|d| d.n_shoes == 16));
    }

    fn line(slope: f64, zero: f64) -> Vec<Option<(f64, f64)>> {
        (0..TRUE_COUNT_BINS)
            .map(|bin| {
                let tc = f64::from(bin as i32 + TRUE_COUNT_MIN);
                Some((slope * (tc - zero), 0.001))
            })
            .collect()
    }

    #[test]
    fn a_straight_gain_crosses_where_it_is_zero() {
        let rising = crossing(&line(0.01, 2.3)).unwrap();
        assert!((rising.crossing - 2.3).abs() < 1e-9);
        assert_eq!((rising.index, rising.at_or_above), (3, true));
        let falling = crossing(&line(-0.02, -1.6)).unwrap();
        assert!((falling.crossing + 1.6).abs() < 1e-9);
        assert_eq!((falling.index, falling.at_or_above), (-1, false));
        // No sign change: no index.
        let mut never = line(0.01, 30.0);
        never[0] = None;
        assert_eq!(crossing(&never), None);
    }

    #[test]
    fn the_lists_name_decisions_the_finder_takes() {
        assert_eq!(lists::ILLUSTRIOUS_18.len(), 18);
        let all = Decision::all();
        for play in lists::ILLUSTRIOUS_18.iter().chain(&lists::FAB_4) {
            assert!(all.contains(&play.decision), "{}", play.decision.name());
        }
        // Two-card hands: hard totals without aces or pairs, soft with one
        // ace and no ten.
        assert_eq!(HandClass::Hard(16).hands(), vec![(6, 10), (7, 9)]);
        assert_eq!(HandClass::Soft(18).hands(), vec![(1, 7)]);
        assert_eq!(HandClass::Insurance.hands().len(), 55);
    }
}
