//! The exact value of every decision (RULES.md section 6), in exact
//! fractions or in `f64`, by one generic solver.
//!
//! # Method
//!
//! **Hands by composition.** A hand's future depends only on the cards it
//! holds, the upcard and the cards known to be out, so values are kept per
//! composition ([`Compositions`]) and filled from the most cards down:
//! standing reads the dealer's outcome probabilities for the shoe less the
//! hand and the upcard, hitting averages the best of the children, doubling
//! the stand of the children, twice.
//!
//! **Plans, then rows, then values.** A world (an upcard and the cards out
//! besides the hand) is first planned: the compositions it must value, in
//! children-first order, and for each the dealer's shoe its stand value
//! reads. A world played optimally values every composition it can deal; a
//! world played by a fixed policy (every split world under `cdz`, and
//! `cdp1`'s after the first) only those its split hands reach (a hand that
//! hits reaches its children, one that doubles needs their stand values,
//! one that stands its own), a small part of the whole. The dealer's shoes
//! of every plan are numbered densely (`Removals`) and their rows
//! computed once, in batches ([`Number::dealer_rows_many`]), shared by
//! every upcard, world and thread; evaluation then reads rows by number.
//!
//! **The dealer's natural.** Under peek, values are conditioned on the
//! dealer not holding a natural. The hole card may be thought of as dealt
//! after the player's cards (the shoe is exchangeable and nothing the
//! player does depends on it), so the solver computes `W = E[X ; no
//! natural]`: stand reads the dealer's unconditional outcomes with the
//! natural's payoff set to zero, and a bust costs the stake times P(no
//! natural | the cards seen). For a hand `H`, `W(H) / P(no natural | H)` is
//! the conditional value, and both actions compared at `H` share that
//! divisor, so choosing by `W` is choosing by the conditional value. Under
//! ENHC the natural is an ordinary outcome that takes every stake.
//!
//! **Splits** are valued as in Eric Farmer's analysis of re-splitting
//! (the same identities, derived afresh here). Dealing and play can be
//! reordered without changing any expectation as long as each hand's play
//! depends only on its own cards (a fixed post-split strategy), so:
//! - a card removed unseen changes no expected value ("burn" identity);
//!   hence a split hand's value with `a` more pair cards and `b` non-pair
//!   cards out unseen, `X(a, b)`, follows from values with pair cards out
//!   only, by `X(a, b-1) = v X(a+1, b-1) + (1-v) X(a, b)`, `v` the chance
//!   the unseen card is a pair card; the same for `N(a, b)`, a hand whose
//!   second card is known not to be a pair card;
//! - the re-split process is a sequence of pair (P) and non-pair (N)
//!   second cards: ending with `h` hands below the maximum (`h-2` P's and
//!   `h` N's) each hand is worth `N(h-2, h-1)`; reaching the maximum `M`
//!   after `k` hands were completed, those are worth `N(M-2, k-1)` each and
//!   the other `M-k` hands, whose second cards are unconstrained,
//!   `X(M-2, k)` each. [`resplit_patterns`] lists the sequences.
//!
//! The post-split strategy is the split model's: `cdz` plays each split
//! hand as the unsplit optimum plays the same cards; `cdp1` optimises once
//! for the shoe with the other pair card out; `cdp` optimises in each world
//! of `a` extra pair cards out (the customary definition: each `X(a, 0)`
//! with its own optimum). For an infinite deck every world is the same, so
//! the three coincide.
//!
//! **The round.** The overall value sums, over upcard and two-card hand,
//! its probability times the best action's value, plus, under peek, the
//! dealer's naturals (the player's natural pushes, everything else loses
//! one unit); early surrender is weighed against that whole value.

use ahash::AHashMap;
use num_rational::BigRational;
use rayon::prelude::*;

use super::compositions::{BUST, Compositions};
use super::number::{LANES, Number, Rows};
use super::rules::{
    ACTIONS, Action, Hand, HoleCard, PlayerRules, SplitModel, Surrender, natural_hole_card,
};
use crate::engine::Progress;
use crate::error::{Error, Result};
use crate::games::blackjack::{
    DealerOutcome, DealerRules, N_OUTCOMES, N_VALUES, Shoe, UPCARDS, value_name,
};

/// What to solve: a rule set, a split model, and cards taken out of the
/// full shoe before the round (for effects of removal).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerParams {
    /// The rules.
    pub rules: PlayerRules,
    /// How split hands are played.
    pub split_model: SplitModel,
    /// Values (1..=10) out of the shoe before the round.
    pub removed: Vec<u8>,
}

impl PlayerParams {
    /// A rule set and split model, dealt from the full shoe (nothing
    /// removed): what every command and table solves, and effects of
    /// removal start from.
    pub fn full_shoe(rules: PlayerRules, split_model: SplitModel) -> PlayerParams {
        PlayerParams {
            rules,
            split_model,
            removed: Vec::new(),
        }
    }

    /// The shoe the round is dealt from: the rules' full shoe less
    /// `removed`. Errors (naming `removed`) if a value is removed more often
    /// than the shoe holds it, or from an infinite deck.
    pub fn shoe(&self) -> Result<Shoe> {
        let mut shoe = self.rules.shoe();
        if shoe.infinite {
            if let Some(&value) = self.removed.first() {
                return Err(Error::invalid(
                    "removed",
                    value_name(value),
                    "an infinite deck has no cards to remove; use a finite number of decks",
                ));
            }
            return Ok(shoe);
        }
        for &value in &self.removed {
            let count = &mut shoe.counts[usize::from(value - 1)];
            if *count == 0 {
                return Err(Error::invalid(
                    "removed",
                    value_name(value),
                    "more cards of this value are removed than the shoe holds",
                ));
            }
            *count -= 1;
        }
        Ok(shoe)
    }
}

/// The values of the actions open to a hand. `None` where the action is
/// not allowed (double, split, surrender).
#[derive(Clone, Debug, PartialEq)]
pub struct ActionValues<T> {
    /// Stand (on a natural: its payout).
    pub stand: T,
    /// Hit, then play on optimally by composition.
    pub hit: T,
    /// Double: one card, twice the stake.
    pub double: Option<T>,
    /// Split a pair (valued under the split model).
    pub split: Option<T>,
    /// Surrender.
    pub surrender: Option<T>,
}

impl<T> ActionValues<T> {
    /// The value of `action`, if it is allowed.
    pub fn get(&self, action: Action) -> Option<&T> {
        match action {
            Action::Stand => Some(&self.stand),
            Action::Hit => Some(&self.hit),
            Action::Double => self.double.as_ref(),
            Action::Split => self.split.as_ref(),
            Action::Surrender => self.surrender.as_ref(),
        }
    }
}

impl<T: PartialOrd> ActionValues<T> {
    /// The allowed action of highest value, ties going to the first in
    /// [`ACTIONS`] order.
    pub fn best(&self) -> Action {
        let mut best = Action::Stand;
        for action in ACTIONS {
            if let (Some(value), Some(current)) = (self.get(action), self.get(best))
                && value > current
            {
                best = action;
            }
        }
        best
    }
}

/// One two-card hand against one upcard.
#[derive(Clone, Debug, PartialEq)]
pub struct HandRow<T> {
    /// The lower value (ace lowest).
    pub first: u8,
    /// The higher value.
    pub second: u8,
    /// The upcard's value.
    pub upcard: u8,
    /// The probability of this upcard and this hand off the top.
    pub probability: T,
    /// P(the dealer has a natural | these three cards seen): zero unless an
    /// ace or a ten is up.
    pub dealer_natural: T,
    /// Each action's expected value, with the three cards out of the shoe
    /// and, under peek, conditioned on no dealer natural (early surrender
    /// excepted: it is taken before the peek, so its value is simply -1/2).
    pub values: ActionValues<T>,
    /// The best action. Under early surrender it is weighed against the
    /// whole value of playing on, the dealer's natural included.
    pub best: Action,
    /// Insurance's value per unit insured, with an ace up:
    /// `3 P(ten in the hole | the cards seen) - 1`.
    pub insurance: Option<T>,
}

/// Stand, hit and (for two cards) double for one composition and upcard,
/// conditioned as the hand rows are. What the chart and the
/// composition-dependent strategy read.
#[derive(Clone, Debug, PartialEq)]
pub struct CompositionValues<T> {
    /// Stand (a two-card 21 counted as 21, not as a natural).
    pub stand: T,
    /// Hit, then play on optimally.
    pub hit: T,
    /// Double, for two-card hands the rules let double (unsplit).
    pub double: Option<T>,
}

/// The solved game: every hand's values, the round's value, and what a
/// composition-dependent player decides.
#[derive(Clone, Debug)]
pub struct PlayerTable<T> {
    /// What was solved.
    pub params: PlayerParams,
    /// The 55 two-card hands (AA, A2, .., TT) against each upcard in
    /// [`UPCARDS`] order, hand by hand; hands the shoe cannot deal are left
    /// out.
    pub hands: Vec<HandRow<T>>,
    /// The expected value of a round off the top, playing the best action
    /// everywhere: the player's edge (the house edge is its negative).
    pub overall: T,
    /// Insurance's value off the top (only the ace seen), if an ace can be
    /// up.
    pub insurance: Option<T>,
    /// Per composition (numbered by [`Compositions`]) and upcard (value -
    /// 1): its values, where the shoe can deal it.
    pub compositions: Vec<[Option<CompositionValues<T>>; N_VALUES]>,
}

/// Where in a round a hand is, for [`PlayerTable::decide`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spot {
    /// The first two cards, not from a split: every action the rules allow.
    Initial,
    /// The first two cards of a split hand (other than split aces, which
    /// take one card and stand): stand, hit, or double after split.
    SplitHand,
    /// Three or more cards: stand or hit.
    Later,
}

impl<T: Number> PlayerTable<T> {
    /// The row of a two-card hand against an upcard.
    pub fn hand(&self, first: u8, second: u8, upcard: u8) -> Option<&HandRow<T>> {
        let (first, second) = (first.min(second), first.max(second));
        self.hands
            .iter()
            .find(|row| row.first == first && row.second == second && row.upcard == upcard)
    }

    /// The house edge in percent: minus the overall value, times 100.
    pub fn house_edge_percent(&self) -> f64 {
        -self.overall.to_f64() * 100.0
    }

    /// What the composition-dependent player of this table does: the
    /// decisions the solver assumed, so a round played with them is worth
    /// [`PlayerTable::overall`] on average (under `cdz`, whose split hands
    /// play as unsplit hands of the same cards do). `None` for a hand the
    /// table has no values for (busted, or not dealable).
    pub fn decide(&self, upcard: u8, hand: &Hand, spot: Spot) -> Option<Action> {
        let rules = &self.params.rules;
        match spot {
            Spot::Initial => {
                let (first, second) = hand.pair_values()?;
                Some(self.hand(first, second, upcard)?.best)
            }
            Spot::SplitHand | Spot::Later => {
                let index = Compositions::get().index_of(hand)?;
                let values = self.compositions[index as usize][usize::from(upcard - 1)].as_ref()?;
                if hand.total() == 21 {
                    return Some(Action::Stand);
                }
                let mut best = Action::Stand;
                let mut best_value = &values.stand;
                if values.hit > *best_value {
                    best = Action::Hit;
                    best_value = &values.hit;
                }
                if spot == Spot::SplitHand
                    && rules.may_double(hand, true)
                    && let Some(double) = &values.double
                    && double > best_value
                {
                    best = Action::Double;
                }
                Some(best)
            }
        }
    }
}

/// Solves a rule set exactly, in reduced fractions.
pub fn solve_exact(
    params: &PlayerParams,
    progress: &dyn Progress,
) -> Result<PlayerTable<BigRational>> {
    solve(params, progress)
}

/// Solves a rule set in `f64`.
pub fn solve_float(params: &PlayerParams, progress: &dyn Progress) -> Result<PlayerTable<f64>> {
    solve(params, progress)
}

/// Units of [`Progress`] a solve reports: one per upcard.
pub const PROGRESS_UNITS: u64 = N_VALUES as u64;

/// Solves a rule set in any [`Number`], computing in its
/// [`Number::Work`] kind. Errors if the parameters are invalid or the shoe
/// is too small to deal a round.
pub fn solve<T: Number>(params: &PlayerParams, progress: &dyn Progress) -> Result<PlayerTable<T>> {
    Ok(solve_in::<T::Work>(params, progress)?.map(T::from_work))
}

impl<W> PlayerTable<W> {
    /// The same table with every value turned into another kind of number.
    fn map<T>(self, to: impl Fn(W) -> T + Copy) -> PlayerTable<T> {
        let actions = |values: ActionValues<W>| ActionValues {
            stand: to(values.stand),
            hit: to(values.hit),
            double: values.double.map(to),
            split: values.split.map(to),
            surrender: values.surrender.map(to),
        };
        PlayerTable {
            params: self.params,
            hands: self
                .hands
                .into_iter()
                .map(|row| HandRow {
                    first: row.first,
                    second: row.second,
                    upcard: row.upcard,
                    probability: to(row.probability),
                    dealer_natural: to(row.dealer_natural),
                    values: actions(row.values),
                    best: row.best,
                    insurance: row.insurance.map(to),
                })
                .collect(),
            overall: to(self.overall),
            insurance: self.insurance.map(to),
            compositions: self
                .compositions
                .into_iter()
                .map(|per_upcard| {
                    per_upcard.map(|values| {
                        values.map(|values| CompositionValues {
                            stand: to(values.stand),
                            hit: to(values.hit),
                            double: values.double.map(to),
                        })
                    })
                })
                .collect(),
        }
    }
}

/// [`solve`] in the number it computes in.
fn solve_in<T: Number>(params: &PlayerParams, progress: &dyn Progress) -> Result<PlayerTable<T>> {
    params.rules.validate()?;
    let shoe = params.shoe()?;
    if !shoe.infinite && shoe.total() < 8 {
        return Err(Error::invalid(
            "removed",
            shoe.total(),
            "leaves too few cards to deal a round",
        ));
    }
    let solver = Solver::<T>::new(params.clone(), shoe);
    let n = solver.compositions.len();
    let upcards: Vec<u8> = (1..=N_VALUES as u8)
        .filter(|&upcard| solver.shoe.has(upcard, 1))
        .collect();
    // Plan, number the dealer's shoes, compute their rows, evaluate: first
    // the unsplit hands, then the splits (which need the unsplit decisions
    // under cdz).
    let mut removals = Removals::<T>::new();
    let planned: Vec<Vec<PlannedStep>> = upcards
        .par_iter()
        .map(|&upcard| solver.plan_optimal(upcard, &Hand::empty(), None, false))
        .collect();
    let plans: Vec<Vec<Step>> = planned
        .into_iter()
        .map(|plan| removals.register(plan))
        .collect();
    removals.compute(solver.rules.dealer_rules());
    let unsplit: Vec<World<T>> = upcards
        .par_iter()
        .zip(&plans)
        .map(|(&upcard, steps)| {
            let mut world = World::new(n);
            solver.evaluate(
                upcard,
                &Hand::empty(),
                steps,
                false,
                false,
                &Policy::Optimal,
                &removals,
                &mut world,
            );
            world
        })
        .collect();
    let splits = solver.split_values(&upcards, &unsplit, &mut removals);
    let mut per_upcard: Vec<UpcardResult<T>> = upcards
        .par_iter()
        .enumerate()
        .map(|(slot, &upcard)| {
            let result = solver.solve_upcard(upcard, &unsplit[slot], &splits[slot]);
            progress.advance(1);
            result
        })
        .collect();
    // Upcards the shoe cannot deal contribute nothing.
    let mut slots = upcards.iter().zip(per_upcard.drain(..)).peekable();
    let per_upcard: Vec<UpcardResult<T>> = (1..=N_VALUES as u8)
        .map(|upcard| match slots.peek() {
            Some(&(&dealt, _)) if dealt == upcard => slots.next().expect("peeked").1,
            _ => {
                progress.advance(1);
                UpcardResult {
                    round_value: T::zero(),
                    rows: Vec::new(),
                    compositions: (0..n).map(|_| None).collect(),
                }
            }
        })
        .collect();

    let mut overall = T::zero();
    let mut compositions: Vec<[Option<CompositionValues<T>>; N_VALUES]> =
        (0..solver.compositions.len())
            .map(|_| std::array::from_fn(|_| None))
            .collect();
    let mut rows_by_upcard: Vec<Vec<HandRow<T>>> = Vec::with_capacity(N_VALUES);
    for (upcard_index, result) in per_upcard.into_iter().enumerate() {
        overall = overall.plus(&result.round_value);
        for (index, values) in result.compositions.into_iter().enumerate() {
            compositions[index][upcard_index] = values;
        }
        rows_by_upcard.push(result.rows);
    }
    // Hands in name order, each against the upcards in table order.
    let mut hands = Vec::with_capacity(55 * N_VALUES);
    for first in 1..=N_VALUES as u8 {
        for second in first..=N_VALUES as u8 {
            for &upcard in &UPCARDS {
                if let Some(row) = rows_by_upcard[usize::from(upcard - 1)]
                    .iter()
                    .find(|row| row.first == first && row.second == second)
                {
                    hands.push(row.clone());
                }
            }
        }
    }
    let insurance = (shoe.count(1) > 0).then(|| {
        let left = Left::of(&shoe).minus(1, 1);
        T::ratio(3 * i64::from(left.count(10)), i64::from(left.total)).minus(&T::ratio(1, 1))
    });
    Ok(PlayerTable {
        params: params.clone(),
        hands,
        overall,
        insurance,
        compositions,
    })
}

/// What one upcard contributes.
struct UpcardResult<T> {
    /// P(upcard) times the upcard's average round value.
    round_value: T,
    rows: Vec<HandRow<T>>,
    compositions: Vec<Option<CompositionValues<T>>>,
}

/// The cards left in a shoe.
#[derive(Clone, Copy, Debug)]
struct Left {
    counts: [u32; N_VALUES],
    total: u32,
    infinite: bool,
}

impl Left {
    fn of(shoe: &Shoe) -> Left {
        Left {
            counts: shoe.counts,
            total: shoe.total(),
            infinite: shoe.infinite,
        }
    }

    #[inline]
    fn count(&self, value: u8) -> u32 {
        self.counts[usize::from(value - 1)]
    }

    /// Less `n` cards of `value` (saturating: callers check `has` first).
    #[inline]
    fn minus(mut self, value: u8, n: u32) -> Left {
        if !self.infinite {
            let count = &mut self.counts[usize::from(value - 1)];
            *count = count.saturating_sub(n);
            self.total -= n;
        }
        self
    }

    /// Whether the shoe holds `n` cards of `value`.
    #[inline]
    fn has(&self, value: u8, n: u32) -> bool {
        self.infinite || self.count(value) >= n
    }

    /// Less a hand, if the shoe holds it.
    fn minus_hand(&self, hand: &Hand) -> Option<Left> {
        let mut left = *self;
        for value in 1..=N_VALUES as u8 {
            let n = u32::from(hand.count(value));
            if n > 0 {
                if !left.has(value, n) {
                    return None;
                }
                left = left.minus(value, n);
            }
        }
        Some(left)
    }

    /// As a [`Shoe`], for the dealer rows.
    fn shoe(&self) -> Shoe {
        Shoe {
            counts: self.counts,
            infinite: self.infinite,
        }
    }

    /// The memo key of this shoe (the counts, packed).
    fn key(&self) -> u128 {
        self.counts
            .iter()
            .fold(0u128, |key, &count| (key << 12) | u128::from(count))
    }

    /// The chance the next card is `value`.
    fn chance<T: Number>(&self, value: u8) -> T {
        T::ratio(i64::from(self.count(value)), i64::from(self.total))
    }
}

/// How a world's hands play: optimally by value, or as a fixed policy
/// planned them (each step's decision: stand (0), hit (1) or double (2)).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Policy {
    Optimal,
    Fixed,
}

const STAND: u8 = 0;
const HIT: u8 = 1;
const DOUBLE: u8 = 2;
/// A step of a fixed policy's plan that only stands (a doubled hand's
/// card): its stand value, no play of its own.
const STAND_ONLY: u8 = 3;

/// The values of one world (an upcard, and cards out besides the hand),
/// per composition; `None` where the world's plan did not reach it.
struct World<T> {
    stand: Vec<Option<T>>,
    hit: Vec<Option<T>>,
    /// The value of the hand played on from here (by the policy), for
    /// compositions of three or more cards; the chosen two-card value for
    /// split hands.
    played: Vec<Option<T>>,
    /// The decision behind `played`.
    decision: Vec<u8>,
    /// Double (two-card compositions only, where allowed).
    double: Vec<Option<T>>,
}

impl<T: Number> World<T> {
    fn new(n: usize) -> World<T> {
        World {
            stand: vec![None; n],
            hit: vec![None; n],
            played: vec![None; n],
            decision: vec![STAND; n],
            double: vec![None; n],
        }
    }

    /// Forgets what `steps` wrote, so the world can hold the next plan's.
    fn clear(&mut self, steps: &[Step]) {
        for step in steps {
            let index = step.composition as usize;
            self.stand[index] = None;
            self.hit[index] = None;
            self.played[index] = None;
            self.double[index] = None;
            self.decision[index] = STAND;
        }
    }
}

/// One composition a world evaluates, as planned: what it does and the
/// dealer's shoe its stand value reads (if it needs one).
struct PlannedStep {
    composition: u32,
    decision: u8,
    dealer: Option<Left>,
}

/// One composition a world evaluates. A world's steps come children
/// first (descending composition number), so every value a step reads is
/// written before.
#[derive(Clone, Copy, Debug)]
struct Step {
    composition: u32,
    /// Under a fixed policy, what the hand does (or [`STAND_ONLY`]); unused
    /// under the optimal policy, which decides by value.
    decision: u8,
    /// The number of the dealer's shoe in [`Removals`], or [`NO_REMOVAL`]
    /// when the step needs no stand value.
    removal: u32,
}

/// A step that reads no dealer rows.
const NO_REMOVAL: u32 = u32::MAX;

/// The dealer's shoes a solve reads, numbered densely: each is the round's
/// shoe less a removal (a hand's cards, plus the pair cards out in a split
/// world), the upcard still in. Plans register the removals they reach
/// before anything is evaluated; the rows are then computed in batches
/// ([`Number::dealer_rows_many`], [`LANES`] shoes per pass in `f64`), once
/// per shoe, and shared by every upcard, world and thread, read by number
/// with no lookup in the evaluation loop. (An infinite shoe is the same
/// after any removal, so it has one number.)
struct Removals<T: Number> {
    index: AHashMap<u128, u32>,
    shoes: Vec<Shoe>,
    /// The rows of `shoes[..rows.len()]`.
    rows: Vec<Rows<T>>,
}

impl<T: Number> Removals<T> {
    fn new() -> Removals<T> {
        Removals {
            index: AHashMap::new(),
            shoes: Vec::new(),
            rows: Vec::new(),
        }
    }

    /// Numbers the dealer's shoes a plan reads.
    /// Registers every world's plan of every job (as [`Self::register`])
    /// and computes the dealer rows the new shoes need.
    fn register_jobs(
        &mut self,
        planned: Vec<Vec<Vec<PlannedStep>>>,
        rules: DealerRules,
    ) -> Vec<Vec<Vec<Step>>> {
        let plans = planned
            .into_iter()
            .map(|worlds| worlds.into_iter().map(|p| self.register(p)).collect())
            .collect();
        self.compute(rules);
        plans
    }

    fn register(&mut self, planned: Vec<PlannedStep>) -> Vec<Step> {
        planned
            .into_iter()
            .map(|step| Step {
                composition: step.composition,
                decision: step.decision,
                removal: match step.dealer {
                    None => NO_REMOVAL,
                    Some(left) => *self.index.entry(left.key()).or_insert_with(|| {
                        self.shoes.push(left.shoe());
                        (self.shoes.len() - 1) as u32
                    }),
                },
            })
            .collect()
    }

    /// Computes the rows of every shoe registered since the last call.
    fn compute(&mut self, rules: DealerRules) {
        // A few large chunks per thread: each call sets up its scratch
        // once, in whole passes.
        let pending = &self.shoes[self.rows.len()..];
        let chunk = pending
            .len()
            .div_ceil(4 * rayon::current_num_threads())
            .next_multiple_of(LANES)
            .max(LANES);
        let batches: Vec<Vec<Rows<T>>> = pending
            .par_chunks(chunk)
            .map(|batch| T::dealer_rows_many(batch, rules))
            .collect();
        self.rows.reserve(pending.len());
        self.rows.extend(batches.into_iter().flatten());
    }

    /// The dealer's row for `upcard` from shoe number `removal`.
    #[inline]
    fn row(&self, removal: u32, upcard: u8) -> &T::Row {
        self.rows[removal as usize][usize::from(upcard - 1)]
            .as_ref()
            .expect("the upcard is in the shoe")
    }
}

/// One pair against one upcard: the worlds of its split.
struct SplitJob {
    /// The upcard's position in the solver's list of dealable upcards.
    slot: usize,
    upcard: u8,
    pair: u8,
    /// The shoe less the upcard and the pair.
    after_pair: Left,
    /// Extra pair cards out in the last world.
    max_extra: u32,
}

/// A split job's worlds evaluated so far, and (cdp1) the first world's
/// decisions.
type JobWorlds<T> = (Vec<SplitWorldValues<T>>, Option<Vec<u8>>);

/// A split world's values: `X(a, 0)` and `N(a, 0)` for its `a`.
struct SplitWorldValues<T> {
    x: T,
    n: T,
}

struct Solver<T> {
    params: PlayerParams,
    rules: PlayerRules,
    shoe: Left,
    compositions: &'static Compositions,
    marker: std::marker::PhantomData<T>,
}

impl<T: Number> Solver<T> {
    fn new(params: PlayerParams, shoe: Shoe) -> Solver<T> {
        Solver {
            rules: params.rules,
            params,
            shoe: Left::of(&shoe),
            compositions: Compositions::get(),
            marker: std::marker::PhantomData,
        }
    }

    fn peek(&self) -> bool {
        self.rules.hole_card == HoleCard::Peek
    }

    /// P(the dealer's hole card makes a natural with `upcard`), drawn from
    /// `player_left` (the shoe less the upcard and every card seen).
    fn natural_chance(&self, upcard: u8, player_left: &Left) -> T {
        match natural_hole_card(upcard) {
            Some(hole) if player_left.total > 0 => player_left.chance(hole),
            _ => T::zero(),
        }
    }

    /// A bust's value for `stake`: minus the stake, and under peek only
    /// when the dealer has no natural (see the module doc).
    fn bust_value(&self, upcard: u8, player_left: &Left, stake: i64) -> T {
        let minus_stake = T::ratio(-stake, 1);
        if self.peek() && natural_hole_card(upcard).is_some() {
            let no_natural = T::ratio(1, 1).minus(&self.natural_chance(upcard, player_left));
            minus_stake.times(&no_natural)
        } else {
            minus_stake
        }
    }

    /// Standing on `hand` (not a natural) against the dealer's `row` (the
    /// shoe less the hand and the cards out, upcard still in).
    fn stand_value(&self, hand: &Hand, row: &T::Row) -> T {
        let total = hand.total();
        let payoffs: [i8; N_OUTCOMES] = std::array::from_fn(|index| match index {
            i if i == DealerOutcome::Bust.index() => 1,
            i if i == DealerOutcome::Natural.index() => {
                if self.peek() {
                    0
                } else {
                    -1
                }
            }
            i => match total.cmp(&(16 + i as u8)) {
                std::cmp::Ordering::Greater => 1,
                std::cmp::Ordering::Equal => 0,
                std::cmp::Ordering::Less => -1,
            },
        });
        T::row_value(row, &payoffs)
    }

    /// The player's shoe of a world (`upcard` up, `out` also out), before
    /// the hand; `None` if the world cannot be dealt.
    fn player_base(&self, upcard: u8, out: &Hand) -> Option<Left> {
        let before_hand = self.shoe.minus_hand(out)?;
        before_hand
            .has(upcard, 1)
            .then(|| before_hand.minus(upcard, 1))
    }

    /// The plan of a world played optimally: every composition of two or
    /// more cards the world can deal, holding `must_hold` (if any), two
    /// cards only for split aces (`one_card`); each stands on the dealer's
    /// shoe less itself and `out`.
    fn plan_optimal(
        &self,
        upcard: u8,
        out: &Hand,
        must_hold: Option<u8>,
        one_card: bool,
    ) -> Vec<PlannedStep> {
        let Some(player_base) = self.player_base(upcard, out) else {
            return Vec::new();
        };
        let before_hand = self.shoe.minus_hand(out).expect("the world is dealt");
        (0..self.compositions.len())
            .rev()
            .filter_map(|index| {
                let hand = &self.compositions.hands[index];
                if hand.n_cards() < 2
                    || must_hold.is_some_and(|v| hand.count(v) == 0)
                    || (one_card && hand.n_cards() > 2)
                {
                    return None;
                }
                player_base.minus_hand(hand)?;
                Some(PlannedStep {
                    composition: index as u32,
                    decision: STAND,
                    dealer: before_hand.minus_hand(hand),
                })
            })
            .collect()
    }

    /// What a fixed policy's split hand does at composition `index`.
    fn fixed_decision(&self, index: usize, one_card: bool, decisions: &[u8]) -> u8 {
        let hand = &self.compositions.hands[index];
        if one_card || hand.total() == 21 {
            return STAND;
        }
        match decisions[index] {
            DOUBLE if !self.rules.may_double(hand, true) => HIT,
            decision => decision,
        }
    }

    /// The plan of a split world (`pair` split, `out` the pair cards out
    /// besides the split hand's own) under a fixed policy: only the
    /// compositions its hands can reach. From each two-card split hand the
    /// world can deal, a hand that hits reaches its children, a hand that
    /// doubles needs its children's stand values, a hand that stands its
    /// own. `marks` is scratch, one per composition, left zeroed.
    fn plan_fixed(
        &self,
        upcard: u8,
        out: &Hand,
        pair: u8,
        one_card: bool,
        decisions: &[u8],
        marks: &mut [u8],
    ) -> Vec<PlannedStep> {
        const PLAYED: u8 = 1;
        const STANDS: u8 = 2;
        let Some(player_base) = self.player_base(upcard, out) else {
            return Vec::new();
        };
        let before_hand = self.shoe.minus_hand(out).expect("the world is dealt");
        let mut reached: Vec<u32> = Vec::new();
        let mut stack: Vec<u32> = Vec::new();
        let root_left = player_base.minus(pair, 1);
        for value in 1..=N_VALUES as u8 {
            if !root_left.has(value, 1) {
                continue;
            }
            let root = self
                .compositions
                .index_of(&Hand::of(&[pair, value]))
                .expect("two cards never bust");
            if marks[root as usize] & PLAYED == 0 {
                if marks[root as usize] == 0 {
                    reached.push(root);
                }
                marks[root as usize] |= PLAYED;
                stack.push(root);
            }
        }
        while let Some(index) = stack.pop() {
            let index = index as usize;
            let decision = self.fixed_decision(index, one_card, decisions);
            if decision == STAND {
                marks[index] |= STANDS;
                continue;
            }
            let hand = &self.compositions.hands[index];
            let player_left = player_base
                .minus_hand(hand)
                .expect("reached hands are in the shoe");
            for value in 1..=N_VALUES as u8 {
                let child = self.compositions.children[index][usize::from(value - 1)];
                if child == BUST || !player_left.has(value, 1) {
                    continue;
                }
                let mark = &mut marks[child as usize];
                if *mark == 0 {
                    reached.push(child);
                }
                if decision == HIT {
                    if *mark & PLAYED == 0 {
                        *mark |= PLAYED;
                        stack.push(child);
                    }
                } else {
                    *mark |= STANDS;
                }
            }
        }
        reached.sort_unstable_by(|a, b| b.cmp(a));
        reached
            .into_iter()
            .map(|index| {
                let mark = std::mem::take(&mut marks[index as usize]);
                let hand = &self.compositions.hands[index as usize];
                PlannedStep {
                    composition: index,
                    decision: if mark & PLAYED != 0 {
                        self.fixed_decision(index as usize, one_card, decisions)
                    } else {
                        STAND_ONLY
                    },
                    dealer: (mark & STANDS != 0)
                        .then(|| before_hand.minus_hand(hand).expect("in the shoe")),
                }
            })
            .collect()
    }

    /// Evaluates a world's plan: `upcard` up, `out` also out of the shoe.
    /// Two-card compositions are split hands when `after_split`
    /// (double-after-split applies; the optimal policy picks among stand,
    /// hit and double), and one-card-only split aces when `one_card`.
    #[allow(clippy::too_many_arguments)]
    fn evaluate(
        &self,
        upcard: u8,
        out: &Hand,
        steps: &[Step],
        after_split: bool,
        one_card: bool,
        policy: &Policy,
        removals: &Removals<T>,
        world: &mut World<T>,
    ) {
        let Some(player_base) = self.player_base(upcard, out) else {
            return;
        };
        let optimal = *policy == Policy::Optimal;
        for step in steps {
            let index = step.composition as usize;
            let hand = &self.compositions.hands[index];
            let player_left = player_base
                .minus_hand(hand)
                .expect("planned hands are in the shoe");
            let stand = (step.removal != NO_REMOVAL)
                .then(|| self.stand_value(hand, removals.row(step.removal, upcard)));
            let children = &self.compositions.children[index];
            let may_double = !one_card && self.rules.may_double(hand, after_split);
            let wants_hit = optimal || step.decision == HIT;
            let wants_double = may_double && (optimal || step.decision == DOUBLE);
            let mut hit = T::zero();
            let mut double = T::zero();
            if !one_card && player_left.total > 0 && (wants_hit || wants_double) {
                for value in 1..=N_VALUES as u8 {
                    if player_left.count(value) == 0 {
                        continue;
                    }
                    let chance: T = player_left.chance(value);
                    let child = children[usize::from(value - 1)];
                    if child == BUST {
                        let after = player_left.minus(value, 1);
                        if wants_hit {
                            hit = hit.plus(&chance.times(&self.bust_value(upcard, &after, 1)));
                        }
                        if wants_double {
                            double =
                                double.plus(&chance.times(&self.bust_value(upcard, &after, 2)));
                        }
                    } else {
                        let child = child as usize;
                        if wants_hit {
                            let played = world.played[child].as_ref().expect("children first");
                            hit = hit.plus(&chance.times(played));
                        }
                        if wants_double {
                            let stood = world.stand[child].as_ref().expect("children first");
                            double = double.plus(&chance.times(&stood.scaled(2, 1)));
                        }
                    }
                }
            }
            let double = wants_double.then_some(double);
            // The policy: what this hand does, and so what it is worth.
            let decision = if !optimal {
                step.decision
            } else if one_card || hand.total() == 21 {
                STAND
            } else {
                let stand = stand.as_ref().expect("optimal steps stand");
                let mut decision = if hit > *stand { HIT } else { STAND };
                // Only a split hand's own two cards may double here; an
                // unsplit hand's double is weighed in its row.
                if after_split
                    && hand.n_cards() == 2
                    && let Some(d) = &double
                    && d > (if decision == HIT { &hit } else { stand })
                {
                    decision = DOUBLE;
                }
                decision
            };
            let played = match decision {
                HIT => Some(hit.clone()),
                DOUBLE => Some(double.clone().expect("double is allowed")),
                STAND => Some(stand.clone().expect("a hand that stands has a stand value")),
                _ => None,
            };
            world.stand[index] = stand;
            world.hit[index] = wants_hit.then_some(hit);
            world.double[index] = double;
            world.played[index] = played;
            world.decision[index] = decision;
        }
    }

    /// The unsplit optimum's decisions for split hands (`cdz`): stand or hit
    /// for three or more cards, and for two cards the best of stand, hit
    /// and (if allowed after a split) double, all by unsplit values.
    fn cdz_decisions(&self, unsplit: &World<T>) -> Vec<u8> {
        (0..self.compositions.len())
            .map(|index| {
                let hand = &self.compositions.hands[index];
                let (Some(stand), Some(hit)) = (&unsplit.stand[index], &unsplit.hit[index]) else {
                    return STAND;
                };
                if hand.total() == 21 {
                    return STAND;
                }
                let mut decision = if hit > stand { HIT } else { STAND };
                if hand.n_cards() == 2
                    && self.rules.may_double(hand, true)
                    && let Some(double) = &unsplit.double[index]
                {
                    let best = if decision == HIT { hit } else { stand };
                    if double > best {
                        decision = DOUBLE;
                    }
                }
                decision
            })
            .collect()
    }

    /// The pair cards out, besides the split hand's own, in world `extra`.
    fn split_out(pair: u8, extra: u32) -> Hand {
        Hand::of(&vec![pair; extra as usize + 1])
    }

    /// The split jobs: every pair each dealable upcard can be dealt with.
    fn split_jobs(&self, upcards: &[u8]) -> Vec<SplitJob> {
        let mut jobs = Vec::new();
        for (slot, &upcard) in upcards.iter().enumerate() {
            let after_upcard = self.shoe.minus(upcard, 1);
            for pair in 1..=N_VALUES as u8 {
                if after_upcard.minus_hand(&Hand::of(&[pair, pair])).is_none() {
                    continue;
                }
                let max_hands = self.rules.max_hands_for(pair);
                let after_pair = after_upcard.minus(pair, 2);
                let max_extra = if self.shoe.infinite {
                    0
                } else {
                    (2 * u32::from(max_hands - 2)).min(after_pair.count(pair))
                };
                jobs.push(SplitJob {
                    slot,
                    upcard,
                    pair,
                    after_pair,
                    max_extra,
                });
            }
        }
        jobs
    }

    /// Evaluates one split world and reads its `X(a, 0)` and `N(a, 0)`
    /// off the split hands' two-card values; `world` is left clear. With
    /// `decisions`, the world's decisions are copied there (the rest
    /// stand).
    #[allow(clippy::too_many_arguments)]
    fn split_world(
        &self,
        job: &SplitJob,
        extra: u32,
        steps: &[Step],
        policy: &Policy,
        removals: &Removals<T>,
        world: &mut World<T>,
        decisions: Option<&mut Vec<u8>>,
    ) -> SplitWorldValues<T> {
        let pair = job.pair;
        let one_card = pair == 1;
        let out = Self::split_out(pair, extra);
        self.evaluate(
            job.upcard, &out, steps, true, one_card, policy, removals, world,
        );
        // The split hand's second card, from the shoe of this world.
        let left = job.after_pair.minus(pair, extra);
        let non_pair_total = left.total - left.count(pair);
        let mut x = T::zero();
        let mut n = T::zero();
        for value in 1..=N_VALUES as u8 {
            if left.count(value) == 0 {
                continue;
            }
            let hand = Hand::of(&[pair, value]);
            let index = self
                .compositions
                .index_of(&hand)
                .expect("two cards never bust") as usize;
            let Some(played) = &world.played[index] else {
                continue;
            };
            x = x.plus(&left.chance::<T>(value).times(played));
            if value != pair && non_pair_total > 0 {
                n = n.plus(
                    &T::ratio(i64::from(left.count(value)), i64::from(non_pair_total))
                        .times(played),
                );
            }
        }
        if let Some(decisions) = decisions {
            decisions.clear();
            decisions.resize(self.compositions.len(), STAND);
            for step in steps {
                let index = step.composition as usize;
                decisions[index] = world.decision[index];
            }
        }
        world.clear(steps);
        SplitWorldValues { x, n }
    }

    /// Every split's value (as `W`, see the module doc) under the split
    /// model, per dealable upcard (in `upcards` order) and pair.
    fn split_values(
        &self,
        upcards: &[u8],
        unsplit: &[World<T>],
        removals: &mut Removals<T>,
    ) -> Vec<[Option<T>; N_VALUES]> {
        let n = self.compositions.len();
        let model = self.params.split_model;
        let jobs = self.split_jobs(upcards);
        let cdz: Vec<Vec<u8>> = if model == SplitModel::Cdz {
            unsplit.par_iter().map(|w| self.cdz_decisions(w)).collect()
        } else {
            Vec::new()
        };
        // The first round of plans: every world whose policy is known now
        // (all of them but cdp1's worlds past the first).
        let first_extras = |job: &SplitJob| match model {
            SplitModel::Cdp1 => 0..=0,
            _ => 0..=job.max_extra,
        };
        let planned: Vec<Vec<Vec<PlannedStep>>> = jobs
            .par_iter()
            .map_init(
                || vec![0u8; n],
                |marks, job| {
                    let one_card = job.pair == 1;
                    first_extras(job)
                        .map(|extra| {
                            let out = Self::split_out(job.pair, extra);
                            match model {
                                SplitModel::Cdz => self.plan_fixed(
                                    job.upcard,
                                    &out,
                                    job.pair,
                                    one_card,
                                    &cdz[job.slot],
                                    marks,
                                ),
                                _ => self.plan_optimal(job.upcard, &out, Some(job.pair), one_card),
                            }
                        })
                        .collect()
                },
            )
            .collect();
        let plans = removals.register_jobs(planned, self.rules.dealer_rules());
        let removals_now: &Removals<T> = removals;
        // The first worlds' play: cdz's fixed policy, else re-optimised.
        let first_policy = if model == SplitModel::Cdz {
            Policy::Fixed
        } else {
            Policy::Optimal
        };
        // Per job: its worlds' values so far, and (cdp1) the first world's
        // decisions.
        let mut evaluated: Vec<JobWorlds<T>> = jobs
            .par_iter()
            .zip(&plans)
            .map_init(
                || World::new(n),
                |world, (job, worlds)| {
                    let mut cdp1 = None;
                    let values = worlds
                        .iter()
                        .enumerate()
                        .map(|(extra, steps)| {
                            let keep = (model == SplitModel::Cdp1 && extra == 0)
                                .then(|| cdp1.insert(Vec::new()));
                            self.split_world(
                                job,
                                extra as u32,
                                steps,
                                &first_policy,
                                removals_now,
                                world,
                                keep,
                            )
                        })
                        .collect();
                    (values, cdp1)
                },
            )
            .collect();
        // cdp1: the other worlds, played by the first world's decisions.
        if model == SplitModel::Cdp1 {
            let planned: Vec<Vec<Vec<PlannedStep>>> = jobs
                .par_iter()
                .zip(&evaluated)
                .map_init(
                    || vec![0u8; n],
                    |marks, (job, (_, decisions))| {
                        let decisions = decisions.as_ref().expect("the first world's decisions");
                        (1..=job.max_extra)
                            .map(|extra| {
                                self.plan_fixed(
                                    job.upcard,
                                    &Self::split_out(job.pair, extra),
                                    job.pair,
                                    job.pair == 1,
                                    decisions,
                                    marks,
                                )
                            })
                            .collect()
                    },
                )
                .collect();
            let plans = removals.register_jobs(planned, self.rules.dealer_rules());
            let removals_now: &Removals<T> = removals;
            let more: Vec<Vec<SplitWorldValues<T>>> = jobs
                .par_iter()
                .zip(&plans)
                .map_init(
                    || World::new(n),
                    |world, (job, worlds)| {
                        worlds
                            .iter()
                            .enumerate()
                            .map(|(i, steps)| {
                                self.split_world(
                                    job,
                                    i as u32 + 1,
                                    steps,
                                    &Policy::Fixed,
                                    removals_now,
                                    world,
                                    None,
                                )
                            })
                            .collect()
                    },
                )
                .collect();
            for ((values, _), more) in evaluated.iter_mut().zip(more) {
                values.extend(more);
            }
        }
        let mut splits: Vec<[Option<T>; N_VALUES]> = upcards
            .iter()
            .map(|_| std::array::from_fn(|_| None))
            .collect();
        for (job, (values, _)) in jobs.iter().zip(evaluated) {
            splits[job.slot][usize::from(job.pair - 1)] = Some(self.combine_split(job, &values));
        }
        splits
    }

    /// A split's value from its worlds' `X(a, 0)` and `N(a, 0)`, over the
    /// ways the re-splits can end.
    fn combine_split(&self, job: &SplitJob, worlds: &[SplitWorldValues<T>]) -> T {
        let pair = job.pair;
        let max_hands = self.rules.max_hands_for(pair);
        let after_pair = job.after_pair;
        let x0: Vec<T> = worlds.iter().map(|w| w.x.clone()).collect();
        let n0: Vec<T> = worlds.iter().map(|w| w.n.clone()).collect();
        let table = RemovalValues {
            x0: &x0,
            n0: &n0,
            pair_cards: i64::from(after_pair.count(pair)),
            cards: i64::from(after_pair.total),
            infinite: self.shoe.infinite,
        };
        let mut value = T::zero();
        for pattern in resplit_patterns(max_hands) {
            let weight = pattern_weight::<T>(&after_pair, pair, pattern.pairs, pattern.non_pairs);
            if weight.is_zero_value() {
                continue;
            }
            let mut hands = T::zero();
            let a = i64::from(pattern.pairs);
            let k = i64::from(pattern.non_pairs);
            if pattern.reached_max {
                // k hands completed with a non-pair card before the last
                // pair card; the other max - k take any second card.
                if k > 0 {
                    hands = hands.plus(&table.n(a, k - 1).scaled(k, 1));
                }
                let open = i64::from(max_hands) - k;
                hands = hands.plus(&table.x(a, k).scaled(open, 1));
            } else {
                // h = k hands, all completed with a non-pair card.
                hands = hands.plus(&table.n(a, k - 1).scaled(k, 1));
            }
            value = value.plus(&weight.times(&hands).scaled(i64::from(pattern.count), 1));
        }
        value
    }

    /// One dealable upcard's rows, composition values and share of the
    /// round, from its unsplit world and its splits' values.
    fn solve_upcard(
        &self,
        upcard: u8,
        unsplit: &World<T>,
        splits: &[Option<T>; N_VALUES],
    ) -> UpcardResult<T> {
        let n = self.compositions.len();
        let after_upcard = self.shoe.minus(upcard, 1);
        let peek_natural = self.peek() && natural_hole_card(upcard).is_some();
        let (pay_n, pay_d) = self.rules.blackjack_payout();
        let one = T::ratio(1, 1);

        // Conditioned values of every composition, for the chart and the
        // composition-dependent strategy.
        let compositions: Vec<Option<CompositionValues<T>>> = (0..n)
            .map(|index| {
                let (Some(stand), Some(hit)) = (&unsplit.stand[index], &unsplit.hit[index]) else {
                    return None;
                };
                let hand = &self.compositions.hands[index];
                let left = after_upcard.minus_hand(hand)?;
                let divisor = if peek_natural {
                    one.minus(&self.natural_chance(upcard, &left))
                } else {
                    one.clone()
                };
                if divisor.is_zero_value() {
                    return None;
                }
                Some(CompositionValues {
                    stand: stand.over(&divisor),
                    hit: hit.over(&divisor),
                    double: unsplit.double[index].as_ref().map(|d| d.over(&divisor)),
                })
            })
            .collect();

        let mut rows = Vec::new();
        let mut round_value = T::zero();
        for first in 1..=N_VALUES as u8 {
            for second in first..=N_VALUES as u8 {
                let hand = Hand::of(&[first, second]);
                let Some(left) = after_upcard.minus_hand(&hand) else {
                    continue;
                };
                let index = self
                    .compositions
                    .index_of(&hand)
                    .expect("two cards never bust") as usize;
                let (Some(stand), Some(hit)) = (&unsplit.stand[index], &unsplit.hit[index]) else {
                    continue;
                };
                let natural_chance = self.natural_chance(upcard, &left);
                let no_natural = one.minus(&natural_chance);
                let is_natural = hand.is_two_card_21();
                // Values as W = E[X; no natural] under peek, E[X] under ENHC.
                let stand = if is_natural {
                    no_natural.scaled(pay_n, pay_d)
                } else {
                    stand.clone()
                };
                let split = (first == second).then(|| {
                    splits[usize::from(first - 1)]
                        .clone()
                        .expect("every dealable pair has a split value")
                });
                // Late surrender gives half the bet back only when the
                // dealer has no natural. Under peek the natural is found
                // first (W = E[X; no natural] = -P(no natural)/2); under
                // ENHC it is found at the end and takes the whole bet:
                // -1/2 - P(natural)/2 (RULES.md section 6). Early surrender
                // comes before any natural is known: -1/2.
                let surrender = match self.rules.surrender {
                    Surrender::None => None,
                    Surrender::Late if peek_natural => Some(no_natural.scaled(-1, 2)),
                    Surrender::Late => Some(T::ratio(-1, 2).minus(&natural_chance.scaled(1, 2))),
                    Surrender::Early => Some(T::ratio(-1, 2)),
                };
                let mut values = ActionValues {
                    stand,
                    hit: hit.clone(),
                    double: if self.rules.may_double(&hand, false) {
                        unsplit.double[index].clone()
                    } else {
                        None
                    },
                    split,
                    surrender: if self.rules.surrender == Surrender::Late {
                        surrender.clone()
                    } else {
                        None
                    },
                };
                let mut best = values.best();
                let mut value = values.get(best).expect("the best is allowed").clone();
                if peek_natural {
                    // The dealer's natural: the player's natural pushes,
                    // every other hand loses its one unit.
                    if !is_natural {
                        value = value.minus(&natural_chance);
                    }
                }
                if self.rules.surrender == Surrender::Early {
                    let give_up = T::ratio(-1, 2);
                    if give_up > value {
                        best = Action::Surrender;
                        value = give_up.clone();
                    }
                }
                // Report conditioned on no natural (under peek with an ace or
                // a ten up).
                if peek_natural && !no_natural.is_zero_value() {
                    values = ActionValues {
                        stand: values.stand.over(&no_natural),
                        hit: values.hit.over(&no_natural),
                        double: values.double.map(|v| v.over(&no_natural)),
                        split: values.split.map(|v| v.over(&no_natural)),
                        surrender: values.surrender.map(|v| v.over(&no_natural)),
                    };
                }
                if self.rules.surrender == Surrender::Early {
                    values.surrender = surrender;
                }
                let probability = self.deal_probability(upcard, first, second);
                round_value = round_value.plus(&probability.times(&value));
                let insurance =
                    (upcard == 1).then(|| T::ratio(3, 1).times(&natural_chance).minus(&one));
                rows.push(HandRow {
                    first,
                    second,
                    upcard,
                    probability,
                    dealer_natural: natural_chance,
                    values,
                    best,
                    insurance,
                });
            }
        }
        UpcardResult {
            round_value,
            rows,
            compositions,
        }
    }

    /// P(upcard, then the player's two cards are `first` and `second` in
    /// either order), off the top.
    fn deal_probability(&self, upcard: u8, first: u8, second: u8) -> T {
        let up: T = self.shoe.chance(upcard);
        let left = self.shoe.minus(upcard, 1);
        let p_first: T = left.chance(first);
        let p_second: T = left.minus(first, 1).chance(second);
        let both = p_first.times(&p_second);
        let ordered = if first == second {
            both
        } else {
            both.scaled(2, 1)
        };
        up.times(&ordered)
    }
}

/// `X(a, 0)` and `N(a, 0)` per world, and what the identities need.
struct RemovalValues<'a, T> {
    x0: &'a [T],
    n0: &'a [T],
    /// Pair cards in the shoe less the upcard and the pair.
    pair_cards: i64,
    /// Cards in that shoe.
    cards: i64,
    infinite: bool,
}

impl<T: Number> RemovalValues<'_, T> {
    /// A split hand's value, any second card, with `a` more pair cards and
    /// `b` unseen non-pair cards out.
    fn x(&self, a: i64, b: i64) -> T {
        if self.infinite {
            return self.x0[0].clone();
        }
        if b == 0 {
            return self.x0[a as usize].clone();
        }
        // Removing one more unseen card from (a, b-1): a pair card with
        // chance v.
        let pairs_left = self.pair_cards - a;
        if pairs_left == 0 {
            return self.x(a, b - 1);
        }
        let v = T::ratio(pairs_left, self.cards - a - (b - 1));
        let not_v = T::ratio(1, 1).minus(&v);
        if not_v.is_zero_value() {
            return T::zero();
        }
        self.x(a, b - 1)
            .minus(&v.times(&self.x(a + 1, b - 1)))
            .over(&not_v)
    }

    /// The same for a hand whose second card is not a pair card.
    fn n(&self, a: i64, b: i64) -> T {
        if self.infinite {
            return self.n0[0].clone();
        }
        if b == 0 {
            return self.n0[a as usize].clone();
        }
        let pairs_left = self.pair_cards - a;
        if pairs_left == 0 {
            return self.n(a, b - 1);
        }
        // Given the hand's own non-pair card, the unseen card is a pair
        // card with chance v.
        let v = T::ratio(pairs_left, self.cards - a - b);
        let not_v = T::ratio(1, 1).minus(&v);
        if not_v.is_zero_value() {
            return T::zero();
        }
        self.n(a, b - 1)
            .minus(&v.times(&self.n(a + 1, b - 1)))
            .over(&not_v)
    }
}

/// A class of second-card sequences of a split: `pairs` pair cards and
/// `non_pairs` non-pair cards, `count` orders of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResplitPattern {
    /// Pair cards drawn as second cards (each made a new hand).
    pub pairs: u8,
    /// Non-pair second cards drawn before the process ended.
    pub non_pairs: u8,
    /// Whether the last pair card brought the hands to the maximum (the
    /// remaining hands then take any second card).
    pub reached_max: bool,
    /// How many orders of these cards the process can draw.
    pub count: u32,
}

/// The ways a split ends, for at most `max_hands` hands. Second cards are
/// drawn for one open hand at a time; a pair card, while fewer than
/// `max_hands` hands are out, makes a new open hand; a non-pair card
/// closes the hand. The process ends when no hand is open (every hand has a
/// non-pair card) or the maximum is reached.
pub fn resplit_patterns(max_hands: u8) -> Vec<ResplitPattern> {
    let mut patterns: Vec<ResplitPattern> = Vec::new();
    fn walk(
        max_hands: u8,
        hands: u8,
        open: u8,
        pairs: u8,
        non_pairs: u8,
        out: &mut Vec<ResplitPattern>,
    ) {
        if hands == max_hands || open == 0 {
            let reached_max = hands == max_hands;
            match out.iter_mut().find(|p| {
                p.pairs == pairs && p.non_pairs == non_pairs && p.reached_max == reached_max
            }) {
                Some(p) => p.count += 1,
                None => out.push(ResplitPattern {
                    pairs,
                    non_pairs,
                    reached_max,
                    count: 1,
                }),
            }
            return;
        }
        walk(max_hands, hands + 1, open + 1, pairs + 1, non_pairs, out);
        walk(max_hands, hands, open - 1, pairs, non_pairs + 1, out);
    }
    walk(max_hands, 2, 2, 0, 0, &mut patterns);
    patterns
}

/// The chance of one order of `pairs` pair cards and `non_pairs` others
/// from `left`.
fn pattern_weight<T: Number>(left: &Left, pair: u8, pairs: u8, non_pairs: u8) -> T {
    let pair_cards = i64::from(left.count(pair));
    let others = i64::from(left.total) - pair_cards;
    let total = i64::from(left.total);
    let mut weight = T::ratio(1, 1);
    let mut drawn = 0;
    for i in 0..i64::from(pairs) {
        let (n, d) = if left.infinite {
            (pair_cards, total)
        } else {
            (pair_cards - i, total - drawn)
        };
        if n <= 0 {
            return T::zero();
        }
        weight = weight.scaled(n, d);
        drawn += 1;
    }
    for i in 0..i64::from(non_pairs) {
        let (n, d) = if left.infinite {
            (others, total)
        } else {
            (others - i, total - drawn)
        };
        if n <= 0 {
            return T::zero();
        }
        weight = weight.scaled(n, d);
        drawn += 1;
    }
    weight
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::NoProgress;

    #[test]
    fn resplit_patterns_count_the_orders() {
        // Two hands: both take any card.
        assert_eq!(
            resplit_patterns(2),
            vec![ResplitPattern {
                pairs: 0,
                non_pairs: 0,
                reached_max: true,
                count: 1
            }]
        );
        // Three hands: P (max at once), NP, or NN.
        let three = resplit_patterns(3);
        assert_eq!(three.len(), 3);
        assert!(three.contains(&ResplitPattern {
            pairs: 1,
            non_pairs: 0,
            reached_max: true,
            count: 1
        }));
        assert!(three.contains(&ResplitPattern {
            pairs: 1,
            non_pairs: 1,
            reached_max: true,
            count: 1
        }));
        assert!(three.contains(&ResplitPattern {
            pairs: 0,
            non_pairs: 2,
            reached_max: false,
            count: 1
        }));
        // Four hands: ending below the maximum with 3 hands has 2 orders
        // (PNNN, NPNN), a Catalan number.
        let four = resplit_patterns(4);
        assert!(four.contains(&ResplitPattern {
            pairs: 1,
            non_pairs: 3,
            reached_max: false,
            count: 2
        }));
        // Every sequence's probabilities add up to one for any chance of a
        // pair card.
        for max_hands in 2..=4 {
            let p = 0.3f64;
            let total: f64 = resplit_patterns(max_hands)
                .iter()
                .map(|pattern| {
                    f64::from(pattern.count)
                        * p.powi(i32::from(pattern.pairs))
                        * (1.0 - p).powi(i32::from(pattern.non_pairs))
                })
                .sum();
            assert!((total - 1.0).abs() < 1e-12, "{max_hands}: {total}");
        }
    }

    #[test]
    fn infinite_deck_basic_game_runs() {
        let params = PlayerParams {
            rules: PlayerRules {
                decks: crate::games::blackjack::Decks::Infinite,
                ..PlayerRules::default()
            },
            split_model: SplitModel::Cdz,
            removed: Vec::new(),
        };
        let table = solve_float(&params, &NoProgress).unwrap();
        assert_eq!(table.hands.len(), 550);
        eprintln!("infinite house edge {}", table.house_edge_percent());
    }
}
