//! Rounds at the table by Monte Carlo: [`TableSimulation`], one trial per
//! shoe, and what its counts say, [`TableSummary`].
//!
//! A trial deals one shoe: rounds one after another through the round's
//! play function (`RoundPlayer::play`, the one `blackjack player compare`
//! plays off the top) from a [`TableShoe`], until [`Dealing`] says to
//! shuffle. The shoe is the unit of the run, so its counts depend only on
//! the seed and the number of shoes (and the chunking), never on threads or
//! shards. Each round is counted in the tally (see [`TallyLayout`]): its
//! net result, what happened in it, and with a counting system its net
//! result under the true count it was dealt at; each shoe adds its number
//! of rounds, and the sums of squares and products of its rounds and net
//! that give the standard error of the mean per round by shoe.

use super::chart_strategy::ChartStrategy;
use super::count::{TRUE_COUNT_BINS, TrueCountMethod, true_count_bin, true_count_label};
use super::shoe::{Dealing, TableShoe};
use crate::engine::Simulation;
use crate::error::{Error, Result};
use crate::games::blackjack::player::compositions::Compositions;
use crate::games::blackjack::player::number::Number;
use crate::games::blackjack::player::round::{
    NET_BINS, RoundPlayer, Strategy, bin_of_net_tenths, events, most_cards_of_a_round,
    net_tenths_of_bin,
};
use crate::games::blackjack::player::{PlayerRules, PlayerTable, SplitModel};
use crate::games::blackjack::{N_VALUES, Shoe};
use crate::rng::{GameRng, stream_rng};

/// Where each count of a [`TableSimulation`]'s tally is. The tally is one
/// `Vec<u64>` (the runner's), in this order:
///
/// - `NET_BINS` bins: rounds by net result (tenths of a unit, -8..=+8).
/// - `events::COMBINATIONS` bins: rounds by the set of events in them.
/// - 1: shoes whose last round ran out of cards and went on from the
///   shuffled discards.
/// - 4 sums over shoes, of `net^2` (net in tenths), `rounds^2`, and
///   `rounds * net` split into its positive and negative parts: with the
///   bins above they give the variance of the mean per round by shoe.
/// - `most_rounds + 1` bins: shoes by their number of rounds (each trial
///   counted once: the distribution `merge` checks).
/// - with a count, `TRUE_COUNT_BINS * NET_BINS` bins: rounds by the true
///   count they were dealt at, then by net result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TallyLayout {
    /// The most rounds a shoe can deal.
    pub most_rounds: usize,
    /// Whether rounds are counted by true count.
    pub counting: bool,
}

impl TallyLayout {
    const NET: usize = 0;
    const EVENTS: usize = Self::NET + NET_BINS;
    const RESHUFFLED: usize = Self::EVENTS + events::COMBINATIONS;
    const NET_SQUARES: usize = Self::RESHUFFLED + 1;
    const ROUNDS_SQUARES: usize = Self::NET_SQUARES + 1;
    const PRODUCTS_POSITIVE: usize = Self::ROUNDS_SQUARES + 1;
    const PRODUCTS_NEGATIVE: usize = Self::PRODUCTS_POSITIVE + 1;
    const ROUNDS_PER_SHOE: usize = Self::PRODUCTS_NEGATIVE + 1;

    fn by_true_count(&self) -> usize {
        Self::ROUNDS_PER_SHOE + self.most_rounds + 1
    }

    /// Counts in the tally.
    pub fn len(&self) -> usize {
        self.by_true_count()
            + if self.counting {
                TRUE_COUNT_BINS * NET_BINS
            } else {
                0
            }
    }

    /// Never empty (the net bins are always there).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The tally's shoes by number of rounds (`0..=most_rounds`): every
    /// shoe counted once.
    pub fn rounds_per_shoe<'t>(&self, tally: &'t [u64]) -> &'t [u64] {
        &tally[Self::ROUNDS_PER_SHOE..Self::ROUNDS_PER_SHOE + self.most_rounds + 1]
    }

    /// The tally's rounds by net result ([`NET_BINS`] bins).
    pub fn net<'t>(&self, tally: &'t [u64]) -> &'t [u64] {
        &tally[Self::NET..Self::NET + NET_BINS]
    }

    /// Checks that the counts of `tally` agree with one another, as every
    /// tally a run makes does: its shoes by number of rounds add up to
    /// `R` rounds (and to the sum of the rounds' squares), and the rounds
    /// by net result, by events and (with a count) by true count each
    /// count those `R` rounds; no more shoes went on from the discards
    /// than were dealt. A tally edited in one place (rounds added to the
    /// net results, its checksum made again) fails here; the error says
    /// which counts disagree, in one line.
    pub fn check_consistent(&self, tally: &[u64]) -> std::result::Result<(), String> {
        if tally.len() != self.len() {
            return Err(format!(
                "{} counts, and a table run's tally has {}",
                tally.len(),
                self.len()
            ));
        }
        let too_many = || "its counts overflow 64 bits".to_string();
        let sum = |counts: &[u64]| {
            counts
                .iter()
                .try_fold(0u64, |sum, &count| sum.checked_add(count))
                .ok_or_else(too_many)
        };
        let weighted = |power: u32| {
            self.rounds_per_shoe(tally)
                .iter()
                .enumerate()
                .try_fold(0u64, |sum, (rounds, &shoes)| {
                    (rounds as u64)
                        .checked_pow(power)
                        .and_then(|weight| weight.checked_mul(shoes))
                        .and_then(|term| sum.checked_add(term))
                })
                .ok_or_else(too_many)
        };
        let shoes = sum(self.rounds_per_shoe(tally))?;
        let rounds = weighted(1)?;
        let mut counted = vec![
            ("net results", sum(self.net(tally))?),
            (
                "events",
                sum(&tally[Self::EVENTS..Self::EVENTS + events::COMBINATIONS])?,
            ),
        ];
        if self.counting {
            counted.push((
                "true counts",
                sum(&tally[self.by_true_count()..self.len()])?,
            ));
        }
        for (what, count) in counted {
            if count != rounds {
                return Err(format!(
                    "the rounds by {what} count {count} rounds, and its {shoes} shoes by rounds per shoe hold {rounds}"
                ));
            }
        }
        let squares = weighted(2)?;
        if tally[Self::ROUNDS_SQUARES] != squares {
            return Err(format!(
                "its sum of rounds per shoe squared is {}, and its shoes by rounds per shoe give {squares}",
                tally[Self::ROUNDS_SQUARES]
            ));
        }
        if tally[Self::RESHUFFLED] > shoes {
            return Err(format!(
                "{} shoes went on from the discards, of {shoes} shoes dealt",
                tally[Self::RESHUFFLED]
            ));
        }
        Ok(())
    }
}

/// One player at a table, dealt shoe after shoe (see the module doc).
#[derive(Clone, Debug)]
pub struct TableSimulation {
    player: RoundPlayer,
    /// The shoe's cards, one value each.
    shoe_cards: Vec<u8>,
    dealing: Dealing,
    /// Count tags by value (ace first), with a counting system.
    tags: Option<[i8; N_VALUES]>,
    /// How the running count becomes the true count rounds are sorted by.
    true_count_method: TrueCountMethod,
    layout: TallyLayout,
}

impl TableSimulation {
    /// The table of `table`'s rules and shoe (the full shoe, or less
    /// `removed`), played with its composition-dependent decisions for
    /// that shoe (whatever has been dealt since), dealt as `dealing` says,
    /// counting with `tags` if given (by value, ace first).
    ///
    /// Errors (naming the parameter) if the table's split model is not
    /// `cdz` (its decisions after a split are `cdz`'s), the deck is
    /// infinite, the shoe cannot hold a round's most cards, or `dealing`
    /// was made for another shoe.
    pub fn with_table<T: Number>(
        table: &PlayerTable<T>,
        dealing: Dealing,
        tags: Option<[i8; N_VALUES]>,
    ) -> Result<TableSimulation> {
        if table.params.split_model != SplitModel::Cdz {
            return Err(Error::invalid(
                "split_model",
                table.params.split_model.name(),
                "the table plays split hands as cdz does (the decisions the solved table \
                 gives); solve with cdz",
            ));
        }
        let compositions = Compositions::get();
        let shoe = table.params.shoe()?;
        TableSimulation::new(
            table.params.rules,
            &shoe,
            Strategy::of(table, compositions),
            dealing,
            tags,
        )
    }

    /// The table of `rules` (the full shoe) played by `chart`'s decisions,
    /// resolved against the rules ([`ChartStrategy::decide`]), dealt as
    /// `dealing` says, counting with `tags` if given.
    ///
    /// Errors (naming the parameter) as [`TableSimulation::with_table`].
    pub fn with_chart(
        rules: PlayerRules,
        chart: &ChartStrategy,
        dealing: Dealing,
        tags: Option<[i8; N_VALUES]>,
    ) -> Result<TableSimulation> {
        let compositions = Compositions::get();
        let strategy = Strategy::from_decisions(compositions, |upcard, hand, spot| {
            Some(chart.decide(&rules, upcard, hand, spot))
        });
        TableSimulation::new(rules, &rules.shoe(), strategy, dealing, tags)
    }

    pub(crate) fn new(
        rules: PlayerRules,
        shoe: &Shoe,
        strategy: Strategy,
        dealing: Dealing,
        tags: Option<[i8; N_VALUES]>,
    ) -> Result<TableSimulation> {
        rules.validate()?;
        if shoe.infinite {
            return Err(Error::invalid(
                "decks",
                "inf",
                "a table deals a finite shoe of 1..=8 decks (an infinite deck has no cut card: \
                 every round is off the top)",
            ));
        }
        let cards = shoe.total();
        let needed = most_cards_of_a_round(shoe);
        if cards < needed {
            return Err(Error::invalid(
                "removed",
                format!("{cards} cards left"),
                format!("a round may need up to {needed} cards of this shoe; remove fewer cards"),
            ));
        }
        if let Dealing::CutCard {
            cards: made_for, ..
        } = dealing
            && made_for != cards
        {
            return Err(Error::invalid(
                "penetration",
                format!("a cut card for {made_for} cards"),
                format!("the shoe holds {cards} cards"),
            ));
        }
        Ok(TableSimulation {
            player: RoundPlayer::new(rules, strategy, Compositions::get()),
            shoe_cards: shoe.cards(),
            dealing,
            tags,
            true_count_method: TrueCountMethod::default(),
            layout: TallyLayout {
                most_rounds: dealing.most_rounds(cards) as usize,
                counting: tags.is_some(),
            },
        })
    }

    /// This table with the true count computed by `method` (the default,
    /// [`TrueCountMethod::default`], is the floored count over the exact
    /// decks left). The method changes which true count a round is counted
    /// under, nothing else; without a counting system it changes nothing.
    pub fn with_true_count_method(mut self, method: TrueCountMethod) -> TableSimulation {
        self.true_count_method = method;
        self
    }

    /// How the true count is computed.
    pub fn true_count_method(&self) -> TrueCountMethod {
        self.true_count_method
    }

    /// The rules the rounds are played by.
    pub fn rules(&self) -> &PlayerRules {
        self.player.rules()
    }

    /// When the dealer shuffles.
    pub fn dealing(&self) -> Dealing {
        self.dealing
    }

    /// Where the counts are in the tally.
    pub fn layout(&self) -> TallyLayout {
        self.layout
    }

    /// The play function the rounds go through.
    pub(crate) fn player(&self) -> &RoundPlayer {
        &self.player
    }

    /// The shoe's cards, one value each.
    pub(crate) fn shoe_card_values(&self) -> &[u8] {
        &self.shoe_cards
    }

    /// Cards in the shoe.
    pub fn shoe_cards(&self) -> u32 {
        self.shoe_cards.len() as u32
    }

    /// The mean number of rounds a shoe deals: exact with a fixed number of
    /// rounds per shoe, else the mean of [`PILOT_SHOES`] shoes of a fixed
    /// stream (the same on every machine), which sizes a run asked for in
    /// rounds ([`TableSimulation::shoes_for_rounds`]).
    pub fn rounds_per_shoe_estimate(&self) -> f64 {
        match self.dealing {
            Dealing::RoundsPerShoe { rounds } => f64::from(rounds),
            Dealing::CutCard { .. } => {
                let mut rng = stream_rng(0, PILOT_STREAM, 0);
                let mut scratch = self.new_scratch();
                let mut tally = vec![0; self.layout.len()];
                self.trials(&mut rng, &mut scratch, PILOT_SHOES, &mut tally);
                let rounds: u64 = self.layout.net(&tally).iter().sum();
                rounds as f64 / PILOT_SHOES as f64
            }
        }
    }

    /// The shoes that deal about `n_rounds` rounds: `n_rounds` over
    /// [`TableSimulation::rounds_per_shoe_estimate`], rounded up (exactly
    /// `n_rounds` rounds with one round per shoe).
    pub fn shoes_for_rounds(&self, n_rounds: u64) -> u64 {
        let per_shoe = self.rounds_per_shoe_estimate();
        ((n_rounds as f64 / per_shoe).ceil() as u64).max(1)
    }

    /// Shoes per chunk of a run: about [`ROUNDS_PER_CHUNK`] rounds.
    pub fn shoes_per_chunk(&self) -> u64 {
        ((ROUNDS_PER_CHUNK as f64 / self.rounds_per_shoe_estimate()).round() as u64).max(1)
    }
}

/// Shoes of the pilot run that estimates rounds per shoe.
pub const PILOT_SHOES: u64 = 2_000;

/// The pilot's stream (no run of a command uses it).
const PILOT_STREAM: u64 = u64::MAX;

/// Rounds in a chunk of a table run, about: as many as a chunk of the
/// other games' trials.
pub const ROUNDS_PER_CHUNK: u64 = 1 << 16;

impl Simulation for TableSimulation {
    /// The shoe's cards: a permutation of them, which a new shoe deals from
    /// the front without a reset (see [`TableShoe`]).
    type Scratch = Vec<u8>;

    fn n_bins(&self) -> usize {
        self.layout.len()
    }

    fn new_scratch(&self) -> Vec<u8> {
        self.shoe_cards.clone()
    }

    #[inline]
    fn trial(&self, rng: &mut GameRng, cards: &mut Vec<u8>, counts: &mut [u64]) {
        let layout = self.layout;
        let by_true_count = layout.by_true_count();
        let mut shoe = TableShoe::new(rng, cards);
        let mut rounds = 0u32;
        let mut running = 0i32;
        let mut shoe_net = 0i64;
        while self.dealing.deals_another(shoe.dealt(), rounds) {
            shoe.start_round();
            // The true count as the round is dealt: every card of the
            // shoe's earlier rounds has been seen.
            let true_count_at = self.tags.map(|_| {
                true_count_bin(
                    self.true_count_method
                        .true_count(running, shoe.cards_left()),
                )
            });
            // `new` made sure the shoe (and its discards) hold a round's
            // most cards.
            let round = self
                .player
                .play(&mut shoe)
                .expect("the shoe holds the most cards a round can take");
            let bin = bin_of_net_tenths(round.net);
            counts[TallyLayout::NET + bin] += 1;
            counts[TallyLayout::EVENTS + usize::from(round.events)] += 1;
            if let (Some(tags), Some(tc)) = (&self.tags, true_count_at) {
                counts[by_true_count + tc * NET_BINS + bin] += 1;
                running += shoe
                    .round_cards()
                    .iter()
                    .map(|&value| i32::from(tags[usize::from(value - 1)]))
                    .sum::<i32>();
            }
            rounds += 1;
            shoe_net += i64::from(round.net);
            if shoe.reshuffled() {
                counts[TallyLayout::RESHUFFLED] += 1;
                break;
            }
        }
        counts[TallyLayout::ROUNDS_PER_SHOE + rounds as usize] += 1;
        let rounds = i64::from(rounds);
        counts[TallyLayout::NET_SQUARES] += (shoe_net * shoe_net) as u64;
        counts[TallyLayout::ROUNDS_SQUARES] += (rounds * rounds) as u64;
        // Both sums take a term, one of them zero: a sign tested by a
        // branch would be mispredicted about every other one-round shoe.
        let product = rounds * shoe_net;
        counts[TallyLayout::PRODUCTS_POSITIVE] += product.max(0) as u64;
        counts[TallyLayout::PRODUCTS_NEGATIVE] += product.min(0).unsigned_abs();
    }
}

/// The normal quantile of a 95% two-sided interval.
const Z_95: f64 = 1.959_963_984_540_054;

/// What a table run's counts say.
#[derive(Clone, Debug, PartialEq)]
pub struct TableSummary {
    /// Shoes dealt.
    pub n_shoes: u64,
    /// Rounds played.
    pub n_rounds: u64,
    /// The mean net result per round, in units (total net over total
    /// rounds).
    pub mean: f64,
    /// The standard deviation of one round's net result, in units.
    pub standard_deviation: f64,
    /// The standard error of the mean per round, by shoe: the ratio
    /// estimator's (shoes are independent, the rounds of a shoe are not),
    /// which is `standard_deviation / sqrt(n_rounds)` with one round per
    /// shoe.
    pub standard_error: f64,
    /// `mean -+ 1.96 standard_error`.
    pub ci95: [f64; 2],
    /// Rounds by net result (tenths of a unit, [`NET_BINS`] bins from -8.0
    /// units).
    pub net: Vec<u64>,
    /// Rounds won, lost and pushed (net above, below and at zero).
    pub wins: u64,
    pub losses: u64,
    pub pushes: u64,
    /// Rounds in which each event happened, in `events::NAMED` order.
    pub events: Vec<(&'static str, u64)>,
    /// Shoes whose last round went on from the shuffled discards.
    pub reshuffled_shoes: u64,
    /// Shoes by their number of rounds (index = rounds).
    pub rounds_per_shoe: Vec<u64>,
    /// Rounds by the true count they were dealt at (with a count).
    pub by_true_count: Vec<TrueCountRow>,
}

/// Rounds dealt at one true count.
#[derive(Clone, Debug, PartialEq)]
pub struct TrueCountRow {
    /// `<=-10`, `-9`, .., `0`, `+1`, .., `>=+10`.
    pub label: String,
    /// Rounds dealt at this true count.
    pub rounds: u64,
    /// Their mean net result, in units (`None` with no round).
    pub mean: Option<f64>,
    /// The standard deviation of their net results (`None` below two
    /// rounds).
    pub standard_deviation: Option<f64>,
    /// The mean's 95% interval, treating the rounds as independent (`None`
    /// below two rounds).
    pub ci95: Option<[f64; 2]>,
}

/// Mean and sample standard deviation of net results counted by bin, in
/// units: `(rounds, mean, sd)`, the mean summed exactly in tenths.
fn net_moments(net: &[u64]) -> (u64, Option<f64>, Option<f64>) {
    let rounds: u64 = net.iter().sum();
    if rounds == 0 {
        return (0, None, None);
    }
    let tenths: i128 = net
        .iter()
        .enumerate()
        .map(|(bin, &count)| i128::from(net_tenths_of_bin(bin)) * i128::from(count))
        .sum();
    let mean = tenths as f64 / 10.0 / rounds as f64;
    if rounds < 2 {
        return (rounds, Some(mean), None);
    }
    let squares: f64 = net
        .iter()
        .enumerate()
        .map(|(bin, &count)| {
            let deviation = f64::from(net_tenths_of_bin(bin)) / 10.0 - mean;
            count as f64 * deviation * deviation
        })
        .sum();
    (
        rounds,
        Some(mean),
        Some((squares / (rounds - 1) as f64).sqrt()),
    )
}

impl TableSummary {
    /// The summary of a run's `tally`, laid out as `layout` says.
    ///
    /// Errors (naming `counts`) if the tally is not of the layout's length,
    /// or holds fewer than two shoes or two rounds (no spread).
    pub fn from_tally(layout: &TallyLayout, tally: &[u64]) -> Result<TableSummary> {
        if tally.len() != layout.len() {
            return Err(Error::invalid(
                "counts",
                format!("{} counts", tally.len()),
                format!("a table run's tally has {} counts", layout.len()),
            ));
        }
        let net = layout.net(tally);
        let (n_rounds, mean, standard_deviation) = net_moments(net);
        let rounds_per_shoe = layout.rounds_per_shoe(tally).to_vec();
        let n_shoes: u64 = rounds_per_shoe.iter().sum();
        let (Some(mean), Some(standard_deviation)) = (mean, standard_deviation) else {
            return Err(Error::invalid(
                "counts",
                format!("{n_rounds} rounds"),
                "a mean's standard error needs at least two rounds",
            ));
        };
        if n_shoes < 2 {
            return Err(Error::invalid(
                "counts",
                format!("{n_shoes} shoes"),
                "a standard error by shoe needs at least two shoes",
            ));
        }
        // The ratio estimator's variance: sum over shoes of (net - mean *
        // rounds)^2 / (n (n - 1) mean_rounds^2), from the sums of squares
        // and products (net in tenths).
        let net_squares = tally[TallyLayout::NET_SQUARES] as f64 / 100.0;
        let rounds_squares = tally[TallyLayout::ROUNDS_SQUARES] as f64;
        let products = (tally[TallyLayout::PRODUCTS_POSITIVE] as f64
            - tally[TallyLayout::PRODUCTS_NEGATIVE] as f64)
            / 10.0;
        let residuals =
            (net_squares - 2.0 * mean * products + mean * mean * rounds_squares).max(0.0);
        let shoes = n_shoes as f64;
        let mean_rounds = n_rounds as f64 / shoes;
        let standard_error = (residuals / (shoes * (shoes - 1.0))).sqrt() / mean_rounds;
        let (mut wins, mut losses, mut pushes) = (0, 0, 0);
        for (bin, &count) in net.iter().enumerate() {
            match net_tenths_of_bin(bin).signum() {
                1 => wins += count,
                -1 => losses += count,
                _ => pushes += count,
            }
        }
        let combinations = &tally[TallyLayout::EVENTS..TallyLayout::EVENTS + events::COMBINATIONS];
        let events = events::NAMED
            .iter()
            .map(|&(bit, name)| {
                let rounds = combinations
                    .iter()
                    .enumerate()
                    .filter(|(set, _)| *set as u8 & bit != 0)
                    .map(|(_, &count)| count)
                    .sum();
                (name, rounds)
            })
            .collect();
        let by_true_count = if layout.counting {
            let start = layout.by_true_count();
            (0..TRUE_COUNT_BINS)
                .map(|tc| {
                    let bins = &tally[start + tc * NET_BINS..start + (tc + 1) * NET_BINS];
                    let (rounds, mean, standard_deviation) = net_moments(bins);
                    let ci95 = match (mean, standard_deviation) {
                        (Some(mean), Some(sd)) => {
                            let half = Z_95 * sd / (rounds as f64).sqrt();
                            Some([mean - half, mean + half])
                        }
                        _ => None,
                    };
                    TrueCountRow {
                        label: true_count_label(tc),
                        rounds,
                        mean,
                        standard_deviation,
                        ci95,
                    }
                })
                .collect()
        } else {
            Vec::new()
        };
        Ok(TableSummary {
            n_shoes,
            n_rounds,
            mean,
            standard_deviation,
            standard_error,
            ci95: [mean - Z_95 * standard_error, mean + Z_95 * standard_error],
            net: net.to_vec(),
            wins,
            losses,
            pushes,
            events,
            reshuffled_shoes: tally[TallyLayout::RESHUFFLED],
            rounds_per_shoe,
            by_true_count,
        })
    }

    /// The house edge in percent: minus the mean, times 100.
    pub fn house_edge_percent(&self) -> f64 {
        -100.0 * self.mean
    }

    /// The mean number of rounds per shoe.
    pub fn mean_rounds_per_shoe(&self) -> f64 {
        self.n_rounds as f64 / self.n_shoes as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::NoProgress;
    use crate::engine::montecarlo::{RunPlan, run, run_chunks};
    use crate::games::blackjack::player::rules::{DoubleOn, HoleCard, Surrender};
    use crate::games::blackjack::player::{PlayerParams, solve_float};
    use crate::games::blackjack::table::CountSystem;
    use crate::games::blackjack::{Decks, Soft17};

    fn simulation(rules: PlayerRules, dealing: impl Fn(u32) -> Dealing) -> TableSimulation {
        let table = solve_float(
            &PlayerParams::full_shoe(rules, SplitModel::Cdz),
            &NoProgress,
        )
        .unwrap();
        let cards = rules.shoe().total();
        TableSimulation::with_table(&table, dealing(cards), None).unwrap()
    }

    fn summary(simulation: &TableSimulation, shoes: u64, seed: u64) -> TableSummary {
        let counts = run(simulation, &RunPlan::new(shoes, seed, 0), &NoProgress);
        TableSummary::from_tally(&simulation.layout(), &counts).unwrap()
    }

    #[test]
    fn one_round_per_shoe_agrees_with_the_exact_overall_value() {
        let base = PlayerRules::default();
        let rule_sets = [
            PlayerRules {
                decks: Decks::Finite(1),
                ..base
            },
            PlayerRules {
                decks: Decks::Finite(2),
                soft17: Soft17::Hit,
                double_after_split: false,
                ..base
            },
            PlayerRules {
                surrender: Surrender::Late,
                ..base
            },
            PlayerRules {
                hole_card: HoleCard::Enhc,
                surrender: Surrender::Late,
                ..base
            },
            PlayerRules {
                decks: Decks::Finite(8),
                hole_card: HoleCard::Enhc,
                double: DoubleOn::TenToEleven,
                surrender: Surrender::Early,
                ..base
            },
        ];
        for (seed, rules) in rule_sets.into_iter().enumerate() {
            let table = solve_float(
                &PlayerParams::full_shoe(rules, SplitModel::Cdz),
                &NoProgress,
            )
            .unwrap();
            let cards = rules.shoe().total();
            let simulation = TableSimulation::with_table(
                &table,
                Dealing::rounds_per_shoe(1, cards).unwrap(),
                None,
            )
            .unwrap();
            let summary = summary(&simulation, 1_000_000, 40 + seed as u64);
            assert_eq!(summary.n_rounds, 1_000_000);
            assert_eq!(summary.n_shoes, 1_000_000);
            // With one round a shoe the standard error by shoe is the
            // plain one.
            let plain = summary.standard_deviation / 1_000.0;
            assert!((summary.standard_error - plain).abs() < 1e-9 * plain);
            let z = (summary.mean - table.overall) / summary.standard_error;
            assert!(
                z.abs() < 5.0,
                "{rules:?}: mean {} against exact {} (z {z})",
                summary.mean,
                table.overall
            );
        }
    }

    #[test]
    fn counts_depend_on_the_seed_not_on_threads_or_shards() {
        let rules = PlayerRules::default();
        let table = solve_float(
            &PlayerParams::full_shoe(rules, SplitModel::Cdz),
            &NoProgress,
        )
        .unwrap();
        let hi_lo = CountSystem::parse("hi-lo").unwrap();
        let simulation = TableSimulation::with_table(
            &table,
            Dealing::cut_card(0.75, 312).unwrap(),
            Some(hi_lo.tags),
        )
        .unwrap();
        let plan = RunPlan {
            n_trials: 3_000,
            seed: 9,
            stream: 0,
            chunk_size: 256,
        };
        let on = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| run(&simulation, &plan, &NoProgress))
        };
        let one = on(1);
        assert_eq!(one, on(2));
        let mut shards = run_chunks(&simulation, &plan, 0..5, &NoProgress);
        for (total, count) in shards.iter_mut().zip(run_chunks(
            &simulation,
            &plan,
            5..plan.n_chunks(),
            &NoProgress,
        )) {
            *total += count;
        }
        assert_eq!(one, shards);
        assert_ne!(
            one,
            run(&simulation, &RunPlan { seed: 10, ..plan }, &NoProgress)
        );
        let summary = TableSummary::from_tally(&simulation.layout(), &one).unwrap();
        assert_eq!(summary.n_shoes, 3_000);
        // Every round is counted once by net, once by events, once by true
        // count; won, lost and pushed add up.
        let by_count: u64 = summary.by_true_count.iter().map(|row| row.rounds).sum();
        assert_eq!(by_count, summary.n_rounds);
        assert_eq!(
            summary.wins + summary.losses + summary.pushes,
            summary.n_rounds
        );
        let by_shoe: u64 = summary
            .rounds_per_shoe
            .iter()
            .enumerate()
            .map(|(rounds, &shoes)| rounds as u64 * shoes)
            .sum();
        assert_eq!(by_shoe, summary.n_rounds);
    }

    /// The default rules' solved table, and its six-decks table dealt to
    /// 75% and counted with hi-lo.
    fn counted_six_decks() -> (PlayerTable<f64>, TableSimulation) {
        let table = solve_float(
            &PlayerParams::full_shoe(PlayerRules::default(), SplitModel::Cdz),
            &NoProgress,
        )
        .unwrap();
        let simulation = TableSimulation::with_table(
            &table,
            Dealing::cut_card(0.75, 312).unwrap(),
            Some(CountSystem::parse("hi-lo").unwrap().tags),
        )
        .unwrap();
        (table, simulation)
    }

    #[test]
    fn a_high_true_count_is_worth_more_than_a_low_one() {
        // Six decks to 75%: hi-lo's true count of +3 or more gives the
        // player the edge, -3 or less the house more than off the top (the
        // counter's whole game); both far more than five standard errors
        // apart at 20,000 shoes.
        let (table, simulation) = counted_six_decks();
        let summary = summary(&simulation, 20_000, 7);
        let pooled = |rows: &[TrueCountRow]| {
            let rounds: u64 = rows.iter().map(|row| row.rounds).sum();
            let net: f64 = rows
                .iter()
                .map(|row| row.mean.unwrap_or(0.0) * row.rounds as f64)
                .sum();
            (net / rounds as f64, (1.3 / rounds as f64).sqrt())
        };
        let zero = TRUE_COUNT_BINS / 2;
        let (low, low_se) = pooled(&summary.by_true_count[..=zero - 3]);
        let (high, high_se) = pooled(&summary.by_true_count[zero + 3..]);
        assert_eq!(summary.by_true_count[zero].label, "0");
        assert!(high > 0.0 && low < table.overall, "high {high} low {low}");
        assert!((high - low) / (low_se.hypot(high_se)) > 5.0);
    }

    #[test]
    fn a_run_s_tallies_agree_and_one_edited_in_one_place_does_not() {
        let (_, simulation) = counted_six_decks();
        let layout = simulation.layout();
        let tally = run(&simulation, &RunPlan::new(500, 3, 0), &NoProgress);
        assert_eq!(layout.check_consistent(&tally), Ok(()));
        let rounds: u64 = layout.net(&tally).iter().sum();
        let edited = |at: usize, more: u64| {
            let mut edited = tally.clone();
            edited[at] += more;
            layout.check_consistent(&edited).unwrap_err()
        };
        // 1,000 rounds more in the net results (the edit).
        assert_eq!(
            edited(TallyLayout::NET + 40, 1000),
            format!(
                "the rounds by net results count {} rounds, and its 500 shoes by rounds per shoe hold {rounds}",
                rounds + 1000
            )
        );
        assert!(edited(TallyLayout::EVENTS, 1).starts_with("the rounds by events count"));
        assert!(edited(layout.by_true_count(), 1).starts_with("the rounds by true counts count"));
        assert!(edited(TallyLayout::ROUNDS_PER_SHOE + 3, 1).contains("501 shoes"));
        assert!(
            edited(TallyLayout::ROUNDS_SQUARES, 1)
                .starts_with("its sum of rounds per shoe squared")
        );
        assert!(
            edited(TallyLayout::RESHUFFLED, 501)
                .ends_with("shoes went on from the discards, of 500 shoes dealt")
        );
        assert!(layout.check_consistent(&tally[1..]).is_err());
    }

    #[test]
    fn a_deep_cut_in_one_deck_finishes_rounds_from_the_discards() {
        let deep = simulation(
            PlayerRules {
                decks: Decks::Finite(1),
                ..PlayerRules::default()
            },
            |cards| Dealing::cut_card(0.9, cards).unwrap(),
        );
        let summary = summary(&deep, 100_000, 3);
        assert!(summary.reshuffled_shoes > 0);
        assert!(summary.reshuffled_shoes < summary.n_shoes / 10);
        assert!((5.0..9.0).contains(&summary.mean_rounds_per_shoe()));
        assert_eq!(summary.rounds_per_shoe.len(), deep.layout().most_rounds + 1);
    }

    #[test]
    fn runs_asked_for_in_rounds_deal_about_that_many() {
        let shoe = simulation(PlayerRules::default(), |cards| {
            Dealing::cut_card(0.75, cards).unwrap()
        });
        let estimate = shoe.rounds_per_shoe_estimate();
        assert!((40.0..46.0).contains(&estimate), "{estimate}");
        assert_eq!(estimate, shoe.rounds_per_shoe_estimate());
        let shoes = shoe.shoes_for_rounds(1_000_000);
        assert_eq!(shoes, (1_000_000.0 / estimate).ceil() as u64);
        let one = simulation(PlayerRules::default(), |cards| {
            Dealing::rounds_per_shoe(1, cards).unwrap()
        });
        assert_eq!(one.shoes_for_rounds(1_000_000), 1_000_000);
        assert_eq!(one.shoes_per_chunk(), ROUNDS_PER_CHUNK);
    }

    #[test]
    fn an_infinite_deck_or_a_foreign_cut_card_is_refused() {
        let rules = PlayerRules {
            decks: Decks::Infinite,
            ..PlayerRules::default()
        };
        let table = solve_float(
            &PlayerParams::full_shoe(rules, SplitModel::Cdz),
            &NoProgress,
        )
        .unwrap();
        let message =
            TableSimulation::with_table(&table, Dealing::rounds_per_shoe(1, 52).unwrap(), None)
                .unwrap_err()
                .to_string();
        assert!(message.contains("decks"), "{message}");
        let six = solve_float(
            &PlayerParams::full_shoe(PlayerRules::default(), SplitModel::Cdz),
            &NoProgress,
        )
        .unwrap();
        let message = TableSimulation::with_table(&six, Dealing::cut_card(0.75, 52).unwrap(), None)
            .unwrap_err()
            .to_string();
        assert!(message.contains("312"), "{message}");
    }
}
