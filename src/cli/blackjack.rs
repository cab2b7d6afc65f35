//! `deckodds blackjack ...`: the dealer-outcome commands (RULES.md section
//! 5) and the player's (section 6: `player`, `strategy`, `house-edge`).

use std::path::PathBuf;

use clap::{Arg, Args, Subcommand};

use super::common::{LevelArgs, OneOrAll, OutputArgs, PrecisionArgs, SamplingArgs};
use super::values::{parse_cards, parse_count, parse_level, parse_seed};
use crate::error::{Error, Result};
use crate::games::blackjack::player::{
    BlackjackPays, DoubleOn, HoleCard, PlayerRules, SplitModel, Surrender, parse_hand, parse_upcard,
};
use crate::games::blackjack::table::betting::MAX_BET;
use crate::games::blackjack::table::indices;
use crate::games::blackjack::table::trip::MAX_BANKROLL;
use crate::games::blackjack::table::{
    BetRamp, CountSystem, DeckEstimation, TrueCountMethod, TrueCountRounding,
};
use crate::games::blackjack::{DealerParams, Decks, OUTCOME_LABELS, Scoring, Soft17};

/// Blackjack dealer-outcome commands.
#[derive(Debug, Subcommand)]
pub enum BlackjackCommand {
    /// Exact outcome probabilities for every upcard, as reduced fractions.
    Exact {
        #[command(flatten)]
        rules: BlackjackRules,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Monte-Carlo outcome counts for every upcard, with 95% Wilson intervals.
    #[command(mut_args = hands_per_upcard)]
    Mc {
        #[command(flatten)]
        rules: BlackjackRules,
        #[command(flatten)]
        sampling: SamplingArgs,
        #[command(flatten)]
        precision: PrecisionArgs,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Agreement report: Monte Carlo against the exact probabilities
    /// (default), or a published table (--published) against them.
    ///
    /// Exit status: 0 when they agree (every cell of a published table
    /// consistent; rows it lacks are named, not counted against it), 1
    /// when any disagrees (after the whole report is written, as `diff`
    /// and `cmp` do), 2 for bad input.
    #[command(mut_args = hands_per_upcard)]
    Compare {
        #[command(flatten)]
        rules: BlackjackRules,
        #[command(flatten)]
        sampling: SamplingArgs,
        /// A published table to check instead of running Monte Carlo: a CSV
        /// with a header row (row label, then outcomes bust,17,18,19,20,21,
        /// natural) and one row of percentages per upcard (2..10, T, J, Q, K,
        /// A), or the CSV `blackjack exact` or `mc` writes. Without --hands
        /// it is checked as an exact table: every cell must equal the exact
        /// percentage rounded to its printed digits (an exact fraction must
        /// equal it).
        #[arg(long, value_name = "FILE.csv")]
        published: Option<PathBuf>,
        /// The published table's sample size in hands, in all, split equally
        /// over its rows.
        #[arg(
            long,
            value_name = "N",
            requires = "published",
            conflicts_with = "hands_per_row",
            value_parser = parse_count
        )]
        hands: Option<u64>,
        /// The published table's sample size in hands per row.
        #[arg(long, value_name = "N", requires = "published", value_parser = parse_count)]
        hands_per_row: Option<u64>,
        /// Significance level of the verdicts. For a published table it is
        /// family-wise over all cells (Bonferroni).
        #[arg(long, value_name = "ALPHA", default_value = "0.001", value_parser = parse_level)]
        level: f64,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Effect of removal: the exact change in every outcome probability when
    /// one card of each value is taken out of the shoe.
    Eor {
        #[command(flatten)]
        rules: BlackjackRules,
        /// Which outcome's changes to show: bust, 17, 18, 19, 20, 21,
        /// natural, or all.
        #[arg(long, value_name = "OUTCOME", default_value = "all", value_parser = parse_outcome)]
        outcome: OneOrAll<usize>,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// The player's half (RULES.md section 6): `player`, `strategy`,
    /// `house-edge`.
    #[command(flatten)]
    Player(PlayerCommand),
}

/// The player's commands (RULES.md section 6), each taking the same rule
/// options ([`PlayerRulesArgs`]).
#[derive(Debug, Subcommand)]
pub enum PlayerCommand {
    /// The player's decisions (RULES.md section 6): the exact value of
    /// stand, hit, double, split and surrender for every two-card hand
    /// against every upcard (or one hand's with --hand and --upcard), the
    /// round's overall value and insurance's. Values are per unit bet, with
    /// the hand's cards and the upcard out of the shoe and, under peek with
    /// an ace or a ten up, given that the dealer has no natural. Exact
    /// fractions by default; --float for f64 (much faster).
    ///
    /// `player compare` plays rounds by Monte Carlo with the same decisions
    /// and compares their mean with the exact overall value.
    #[command(name = "player", args_conflicts_with_subcommands = true)]
    Values {
        #[command(flatten)]
        solve: PlayerSolveArgs,
        /// One two-card hand: two values such as A7, 6T, 88 (A, 2..9, T,
        /// J, Q, K or 10; either order). Needs --upcard.
        #[arg(long, value_name = "HAND", value_parser = parse_hand)]
        hand: Option<(u8, u8)>,
        /// The dealer's upcard: A, 2..9, T (J, Q, K, 10). Alone: every hand
        /// against it.
        #[arg(long, value_name = "CARD", value_parser = parse_upcard)]
        upcard: Option<u8>,
        #[command(flatten)]
        output: OutputArgs,
        /// Boxed: its options are many, the player's few.
        #[command(subcommand)]
        command: Option<Box<PlayerSubcommand>>,
    },
    /// The basic-strategy chart (RULES.md section 6): for each class of
    /// two-card hand (hard 5..20, soft 13..20, pairs) and upcard, the
    /// action of highest value averaged over the class, with composition
    /// exceptions marked.
    Strategy {
        #[command(flatten)]
        solve: PlayerSolveArgs,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// The house edge (RULES.md section 6): the round's overall value off
    /// the top, its negative the house edge, and the effect of removal on
    /// it: the change, in percentage points, when one card of each value
    /// is taken out of the shoe (strategy re-optimised each time). The
    /// overall value is exact unless --float; the effects of removal are
    /// computed in f64 (eleven solves) unless --exact-eor. An infinite
    /// deck has no effect of removal (taking a card out changes nothing):
    /// it reports the house edge alone.
    HouseEdge {
        #[command(flatten)]
        solve: PlayerSolveArgs,
        /// Compute the effects of removal exactly (eleven exact solves:
        /// minutes for six decks) instead of in f64.
        #[arg(long, conflicts_with = "float")]
        exact_eor: bool,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// The house edge across the rule grid that tables publish (RULES.md
    /// section 6): decks 1, 2, 4, 6, 8 × S17/H17 × DAS/no DAS × no/late
    /// surrender, the rest the common American game (peek, 3:2, double any
    /// two, re-split to 4 hands, no re-split of aces): 40 rule sets, a row
    /// per deck count. Exact fractions by default (minutes); --float takes
    /// seconds.
    HouseEdgeGrid {
        /// How split hands are played, and so valued (see `player --help`).
        #[arg(long, value_name = "MODEL", default_value = "cdz", value_parser = SplitModel::parse)]
        split_model: SplitModel,
        /// Compute in f64 instead of exact fractions.
        #[arg(long)]
        float: bool,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Blackjack at the table (RULES.md section 6, "At the table"): one
    /// player, rounds dealt one after another down a shoe to a cut card
    /// (--penetration) or a fixed number of rounds per shoe, with the
    /// composition-dependent decisions of the exact engine (default), the
    /// basic-strategy chart, or your own chart (--strategy FILE.csv). Reports
    /// the mean value per round with its 95% interval (by shoe), the house
    /// edge, the net results, wins, losses, pushes, naturals and busts, and
    /// with --count the value per round by true count.
    ///
    /// `table compare` sets the mean against the exact value off the top:
    /// with a fixed number of rounds per shoe they must agree; with a cut
    /// card the difference is the cut-card effect. `table compare
    /// --published FILE` also checks a simulator's published house edge
    /// (and win, loss and push rates) against both.
    #[command(
        name = "table",
        args_conflicts_with_subcommands = true,
        mut_args = table_rounds
    )]
    Table {
        #[command(flatten)]
        table: TableArgs,
        #[command(flatten)]
        sampling: SamplingArgs,
        #[command(flatten)]
        output: OutputArgs,
        /// Boxed: its options are many.
        #[command(subcommand)]
        command: Option<Box<TableSubcommand>>,
    },
    /// The cut-card effect by decks (RULES.md section 6, "At the table"):
    /// for 1, 2, 6 and 8 decks under S17 and H17 (DAS, 3:2, peek, the
    /// rest the defaults), the exact house edge off the top beside the
    /// simulated one with one round per shoe (which must agree with it)
    /// and with a cut card at --penetration, whose difference from the
    /// exact value is the cut-card effect, each with its 95% interval. The
    /// player plays the exact engine's composition-dependent decisions.
    #[command(mut_args = table_rounds)]
    CutCardEffect {
        /// The fraction of the shoe dealt before the cut card (see `table
        /// --help`).
        #[arg(long, value_name = "P", default_value = "0.75", value_parser = parse_penetration)]
        penetration: f64,
        #[command(flatten)]
        sampling: SamplingArgs,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Index plays (RULES.md section 6, "Index plays"): for each decision
    /// of basic strategy where another action becomes better within the
    /// true counts a shoe reaches, the true count at which it does (the
    /// index), with its 95% interval, for a counting system (--count). The
    /// Illustrious 18 (and, with --surrender late, the Fab 4) are set
    /// beside Schlesinger's published indices.
    ///
    /// Shoes are dealt to the cut card as at the table; at every round
    /// each decision's actions are valued exactly on the shoe actually
    /// left (no luck of the draw in them), and each hand's gain is counted
    /// at the true count the player sees when deciding (running count over
    /// decks left, floored, the hand and upcard included). A pilot finds
    /// roughly where each index is; runs then watch each decision near its
    /// index until every index within 6 of zero has a 95% interval within
    /// --precision. --format csv writes the index file `blackjack table
    /// --indices` plays.
    Indices(IndicesArgs),
    /// Counting systems analysed exactly (issue 46): for every built-in
    /// system (hi-lo, ko, hi-opt-i, hi-opt-ii, zen, omega-ii) and any given
    /// with --count, the betting correlation (BC: the tags against the
    /// player's exact effects of removal), Griffin's playing efficiency
    /// (PE: the share of the ideal count's gain from departing from basic
    /// strategy, over every two-card decision) and the insurance
    /// correlation (IC), beside the published figures. The effects of
    /// removal are the exact engine's (f64, 22 solves) for the rules given:
    /// a single deck unless --decks says otherwise, as Griffin's were.
    #[command(mut_args = single_deck)]
    Counts(CountsArgs),
    /// The exact distribution of the running count and the true count
    /// (running count per deck left, floored) after --after cards of a
    /// freshly shuffled shoe (a multivariate hypergeometric over the
    /// tags), beside --trials deals of those cards from the table
    /// simulator's shoe, with chi-square tests of the one against the
    /// other (bins of expectation below 5 pooled) and their p.
    ///
    /// Exit status: 0 when both tests agree at --level, 1 when either
    /// does not (after the whole report is written), 2 for bad input.
    CountDistribution(CountDistributionArgs),
}

/// `blackjack indices`.
#[derive(Debug, Args)]
pub struct IndicesArgs {
    #[command(flatten)]
    pub rules: PlayerRulesArgs,
    /// The counting system: hi-lo, ko, hi-opt-i, hi-opt-ii, zen,
    /// omega-ii, or tags for A,2,...,9,T (see `table --help`).
    #[arg(long, value_name = "SYSTEM", default_value = "hi-lo", value_parser = CountSystem::parse, allow_hyphen_values = true)]
    pub count: CountSystem,
    /// The fraction of the shoe dealt before the cut card (see `table
    /// --help`).
    #[arg(long, value_name = "P", default_value = "0.75", value_parser = parse_penetration)]
    pub penetration: f64,
    /// Which decisions: lists (those of the Illustrious 18 and the Fab
    /// 4, in about a minute) or all (every two-card hand against every
    /// upcard, and insurance: an hour or more).
    #[arg(long, value_name = "lists|all", default_value = "lists", value_parser = DecisionSet::parse)]
    pub decisions: DecisionSet,
    /// The 95% half-width, in true counts, every index within 6 of zero
    /// is brought to.
    #[arg(long, value_name = "TC", default_value_t = indices::DEFAULT_PRECISION, value_parser = parse_precision)]
    pub precision: f64,
    /// The most shoes to deal, the pilot's included.
    #[arg(long, value_name = "N", default_value_t = indices::DEFAULT_MAX_SHOES, value_parser = parse_count)]
    pub max_shoes: u64,
    /// The pilot's shoes.
    #[arg(long, value_name = "N", default_value_t = indices::DEFAULT_PILOT_SHOES, value_parser = parse_count)]
    pub pilot_shoes: u64,
    /// The master seed.
    #[arg(long, value_name = "S", default_value = "1", value_parser = parse_seed)]
    pub seed: u64,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// `--decisions` of `blackjack indices`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecisionSet {
    /// The decisions of the Illustrious 18 and the Fab 4.
    Lists,
    /// Every decision.
    All,
}

impl DecisionSet {
    /// `lists` or `all`.
    pub fn parse(text: &str) -> Result<DecisionSet> {
        match text.trim() {
            "lists" => Ok(DecisionSet::Lists),
            "all" => Ok(DecisionSet::All),
            _ => Err(Error::invalid("decisions", text, "must be lists or all")),
        }
    }
}

/// A `--precision`: a half-width in true counts, 0.01..=5.
fn parse_precision(text: &str) -> Result<f64> {
    let allowed = "a 95% half-width in true counts, 0.01 to 5";
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| Error::invalid("precision", text, allowed))?;
    if (0.01..=5.0).contains(&value) {
        Ok(value)
    } else {
        Err(Error::invalid("precision", text, allowed))
    }
}

/// `blackjack counts`.
#[derive(Debug, Args)]
pub struct CountsArgs {
    #[command(flatten)]
    pub rules: PlayerRulesArgs,

    /// A system to analyse besides the built-in ones (repeat it for
    /// several): a name, or tags for A,2,...,9,T (-1,1,1,1,1,1,0,0,0,-1 or
    /// A=-1,2=1,...,T=-1), each in -9..=9.
    #[arg(long, visible_alias = "tags", value_name = "SYSTEM", value_parser = CountSystem::parse, allow_hyphen_values = true)]
    pub count: Vec<CountSystem>,

    /// The playing efficiency's depth: cards seen before the round, of
    /// the cards behind each decision. Default: half the shoe (26 a deck).
    #[arg(long, value_name = "N", value_parser = parse_cards)]
    pub cards_seen: Option<u32>,

    #[command(flatten)]
    pub output: OutputArgs,
}

/// `blackjack count-distribution`.
#[derive(Debug, Args)]
pub struct CountDistributionArgs {
    /// The counting system: hi-lo, ko, hi-opt-i, hi-opt-ii, zen, omega-ii,
    /// or tags for A,2,...,9,T (-1,1,1,1,1,1,0,0,0,-1 or A=-1,...,T=-1).
    #[arg(long, visible_alias = "tags", value_name = "SYSTEM", default_value = "hi-lo", value_parser = CountSystem::parse, allow_hyphen_values = true)]
    pub count: CountSystem,

    /// Decks in the shoe: 1..=8.
    #[arg(long, value_name = "N", default_value = "6", value_parser = parse_count_decks)]
    pub decks: u32,

    /// Cards dealt from the shoe before the count is read: 0 up to one
    /// fewer than the shoe holds (a true count needs a card left).
    /// Default: half the shoe (26 a deck).
    #[arg(long, value_name = "K", value_parser = parse_cards)]
    pub after: Option<u32>,

    /// Deals to simulate (accepts 1000000, 1_000_000 or 1e6).
    #[arg(long, value_name = "N", default_value = "1000000", value_parser = parse_count)]
    pub trials: u64,

    /// Master seed. The same seed and trials give the same counts with
    /// any number of threads.
    #[arg(long, value_name = "S", default_value = "1", value_parser = parse_seed)]
    pub seed: u64,

    /// Significance level of the verdicts.
    #[arg(long, value_name = "ALPHA", default_value = "0.001", value_parser = parse_level)]
    pub level: f64,

    #[command(flatten)]
    pub output: OutputArgs,
}

/// `--decks` of `count-distribution`: 1..=8 decks.
fn parse_count_decks(text: &str) -> Result<u32> {
    match parse_table_decks(text)? {
        Decks::Finite(n) => Ok(n),
        Decks::Infinite => Err(Error::invalid(
            "decks",
            text.trim(),
            format!("must be 1..={TABLE_DECKS}: a count is of a finite shoe"),
        )),
    }
}

/// `blackjack counts` analyses a single deck unless told otherwise, as
/// Griffin did.
fn single_deck(arg: Arg) -> Arg {
    match arg.get_id().as_str() {
        "decks" => arg.default_value("1"),
        _ => arg,
    }
}

/// `deckodds blackjack table ...`.
#[derive(Debug, Subcommand)]
pub enum TableSubcommand {
    /// The table's mean value per round against the exact value of a round
    /// off the top (the f64 solve of the same rules): with a fixed number
    /// of rounds per shoe and the composition-dependent strategy they must
    /// agree; with a cut card their difference is the cut-card effect, and
    /// with a chart the chart's cost, each stated with its 95% interval.
    ///
    /// --published FILE checks a simulator's published figures (a claim
    /// file: `house-edge-percent = X` and `rounds = N` lines, optionally
    /// `win-percent`, `loss-percent`, `push-percent`, `source`) against the
    /// exact value off the top and against this table's simulation of the
    /// same rules, penetration and strategy, at the claim's sample size.
    ///
    /// Exit status: 0 when they agree (or, with a cut card or a chart, once
    /// the difference is reported; a claim consistent with either
    /// reference), 1 when they do not (after the whole report is written),
    /// 2 for bad input.
    #[command(mut_args = table_rounds)]
    Compare {
        #[command(flatten)]
        table: TableArgs,
        #[command(flatten)]
        sampling: SamplingArgs,
        /// A simulator's published claim to check (see above).
        #[arg(long, value_name = "FILE")]
        published: Option<PathBuf>,
        #[command(flatten)]
        level: LevelArgs,
        #[command(flatten)]
        output: OutputArgs,
    },
}

/// What a table deals and how the player plays: the rules, when the
/// dealer shuffles, the strategy and the count.
#[derive(Debug, Args)]
pub struct TableArgs {
    #[command(flatten)]
    pub rules: PlayerRulesArgs,

    /// The fraction of the shoe dealt before the cut card: 0 < P <= 1
    /// (0.75 or 75%). A round starts while the cut card is still in the
    /// shoe; the dealer shuffles after the round it comes out in. It must
    /// leave at least 4 cards behind it.
    #[arg(
        long,
        value_name = "P",
        default_value = "0.75",
        value_parser = parse_penetration,
        conflicts_with = "rounds_per_shoe",
        help_heading = "Dealing"
    )]
    pub penetration: f64,

    /// Deal exactly K rounds from every shoe instead of dealing to a cut
    /// card (1: every round from a freshly shuffled shoe, a continuous
    /// shuffler, whose mean is the exact value off the top).
    #[arg(long, value_name = "K", value_parser = parse_rounds_per_shoe, help_heading = "Dealing")]
    pub rounds_per_shoe: Option<u32>,

    /// The player's decisions: cd (the exact engine's composition-dependent
    /// decisions for the full shoe, as `blackjack player` gives them),
    /// basic (the chart `blackjack strategy` prints, composition exceptions
    /// ignored), or FILE.csv, a chart in the layout `blackjack strategy
    /// --format csv` writes (kind,section,row,upcard,action,hand). Default:
    /// cd, or basic with --indices.
    #[arg(long, value_name = "cd|basic|FILE.csv", value_parser = TableStrategy::parse, help_heading = "Player")]
    pub strategy: Option<TableStrategy>,

    /// Make index plays: FILE.csv, an index file as `blackjack indices
    /// --format csv` writes it (the columns section, row, upcard,
    /// deviation, direction and index, read by name), or generated (find
    /// the Illustrious 18 and Fab 4 indices for this table's rules, count
    /// and penetration first, as `blackjack indices` does by default: about
    /// a minute). The chart (--strategy basic or FILE.csv; not cd) is
    /// played with each play in its cell wherever it holds, at the true
    /// count once the upcard and the player's two cards are seen;
    /// insurance, where a play takes it, is half a unit, its net part of
    /// the round's. Needs --count; the peek game only.
    #[arg(long, value_name = "FILE.csv|generated", value_parser = IndexSource::parse, requires = "count", help_heading = "Player")]
    pub indices: Option<IndexSource>,

    /// Count cards with this system and report the value per round by
    /// true count (running count over decks left, floored unless
    /// --true-count and --deck-estimation say otherwise): hi-lo, ko,
    /// hi-opt-i, hi-opt-ii, zen, omega-ii, or tags for A,2,...,9,T (e.g.
    /// -1,1,1,1,1,1,0,0,0,-1 or A=-1,2=1,...,T=-1). The count changes no
    /// decision, and no bet without --bet-ramp: it sorts the rounds. Every
    /// system starts
    /// at 0 and is divided by the decks left, unbalanced ones (ko) too:
    /// no initial running count.
    // A tag list may start with `-` (`-1,1,...`): it is the value, not a
    // flag (clap's negative numbers are single numbers only).
    #[arg(long, value_name = "SYSTEM", value_parser = CountSystem::parse, allow_hyphen_values = true, help_heading = "Player")]
    pub count: Option<CountSystem>,

    /// How the true count (running count over decks left) is rounded to a
    /// whole number: floor (down; the default), truncate (towards zero, as
    /// a counter who drops the fraction), or round (to the nearest, halves
    /// away from zero). Needs --count.
    #[arg(long, value_name = "floor|truncate|round", value_parser = TrueCountRounding::parse, requires = "count", help_heading = "Player")]
    pub true_count: Option<TrueCountRounding>,

    /// How the decks left are estimated for the true count: perfect (cards
    /// left over 52; the default), half (to the nearest half deck, 13
    /// cards past one rounding up, never below half a deck), or whole (to
    /// the nearest deck, never below one). Needs --count.
    #[arg(long, value_name = "perfect|half|whole", value_parser = DeckEstimation::parse, requires = "count", help_heading = "Player")]
    pub deck_estimation: Option<DeckEstimation>,

    /// Boxed: its options are many (and the commands' variants differ
    /// less in size).
    #[command(flatten)]
    pub betting: Box<BettingArgs>,
}

/// How a counter bets (issue 46): a ramp by true count, the table's
/// limits, wonging, and the bankroll the risk figures are of.
#[derive(Debug, Args)]
pub struct BettingArgs {
    /// Bet by the true count: TC:BET rows for consecutive true counts, the
    /// first meaning that count and below, the last that count and above,
    /// bets in whole units 1..=10000, e.g. "<=1:1,2:2,3:4,4:8,>=5:12" (the
    /// `<=` and `>=` may be left out). Needs --count. Adds the money
    /// figures: win rate and SD per round and per 100, average and initial
    /// bet, DI, SCORE, N0 (see GUIDE, "Betting").
    // A ramp may start with `-` (`-1:1,...`): it is the value, not a flag.
    #[arg(long, value_name = "RAMP", value_parser = BetRamp::parse, allow_hyphen_values = true, group = "ramp", requires = "count", help_heading = "Betting")]
    pub bet_ramp: Option<BetRamp>,

    /// The ramp as a CSV file: `true_count,bet` lines (a header line
    /// `true_count,bet`, blank lines and `#` comments allowed), the first
    /// row meaning that count and below, the last that count and above.
    #[arg(
        long,
        value_name = "FILE.csv",
        group = "ramp",
        requires = "count",
        help_heading = "Betting"
    )]
    pub bet_ramp_file: Option<PathBuf>,

    /// The table's minimum bet in units: ramp bets below it are raised to
    /// it (the report prints the ramp as played).
    #[arg(long, value_name = "UNITS", value_parser = parse_bet, requires = "ramp", help_heading = "Betting")]
    pub min_bet: Option<u32>,

    /// The table's maximum bet in units: ramp bets above it are cut to it.
    #[arg(long, value_name = "UNITS", value_parser = parse_bet, requires = "ramp", help_heading = "Betting")]
    pub max_bet: Option<u32>,

    /// Back-count: watch each shoe from the shuffle and play only from the
    /// first round whose true count is at least TC. Rounds sat out are
    /// still dealt (with no bet), as rounds observed, not played.
    #[arg(long, value_name = "TC", value_parser = parse_ramp_count, allow_hyphen_values = true, requires = "ramp", help_heading = "Betting")]
    pub wong_in: Option<i32>,

    /// Leave the shoe at the first round whose true count is below TC: the
    /// rest of that shoe is dealt, not played.
    #[arg(long, value_name = "TC", value_parser = parse_ramp_count, allow_hyphen_values = true, requires = "ramp", help_heading = "Betting")]
    pub wong_out: Option<i32>,

    /// A bankroll in units: adds the Kelly scaling of the ramp (the bet
    /// multiplier bankroll x WR / SD^2) and the closed-form risk of ruin
    /// exp(-2 WR bankroll / SD^2).
    #[arg(long, value_name = "UNITS", value_parser = parse_bankroll, requires = "ramp", help_heading = "Betting")]
    pub bankroll: Option<u64>,

    /// Simulate trips of N rounds (dealt shoe after shoe, from --bankroll,
    /// bets never cut) and report the share that lose the bankroll, with
    /// its 95% Wilson interval: a second run, on its own stream of --seed.
    #[arg(long, value_name = "N", value_parser = parse_count, requires = "bankroll", help_heading = "Betting")]
    pub trip_rounds: Option<u64>,

    /// Trips to simulate with --trip-rounds.
    #[arg(long, value_name = "N", default_value = "10000", value_parser = parse_count, requires = "trip_rounds", help_heading = "Betting")]
    pub trips: u64,
}

/// `--min-bet`, `--max-bet`: whole units, 1..=MAX_BET.
fn parse_bet(text: &str) -> Result<u32> {
    text.trim()
        .parse::<u32>()
        .ok()
        .filter(|bet| (1..=MAX_BET).contains(bet))
        .ok_or_else(|| {
            Error::invalid(
                "bet",
                text.trim(),
                format!("must be a whole number of units in 1..={MAX_BET}"),
            )
        })
}

/// `--wong-in`, `--wong-out`: a whole true count in -50..=50.
fn parse_ramp_count(text: &str) -> Result<i32> {
    text.trim()
        .trim_start_matches('+')
        .parse::<i32>()
        .ok()
        .filter(|tc| (-50..=50).contains(tc))
        .ok_or_else(|| {
            Error::invalid(
                "true_count",
                text.trim(),
                "must be a whole true count in -50..=50",
            )
        })
}

/// `--bankroll`: whole units, 1..=MAX_BANKROLL (`1e4` allowed).
fn parse_bankroll(text: &str) -> Result<u64> {
    parse_count(text)
        .ok()
        .filter(|units| *units <= MAX_BANKROLL)
        .ok_or_else(|| {
            Error::invalid(
                "bankroll",
                text.trim(),
                format!("must be a whole number of units in 1..={MAX_BANKROLL}"),
            )
        })
}

impl TableArgs {
    /// The true count's method: --true-count and --deck-estimation, each
    /// its default when not given.
    pub fn true_count_method(&self) -> TrueCountMethod {
        TrueCountMethod {
            rounding: self.true_count.unwrap_or_default(),
            decks: self.deck_estimation.unwrap_or_default(),
        }
    }

    /// The strategy played: `--strategy`, or by default cd (basic with
    /// `--indices`, whose plays are made on a chart).
    pub fn strategy(&self) -> TableStrategy {
        match (&self.strategy, &self.indices) {
            (Some(strategy), _) => strategy.clone(),
            (None, Some(_)) => TableStrategy::Basic,
            (None, None) => TableStrategy::CompositionDependent,
        }
    }
}

/// `--indices` of `blackjack table`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IndexSource {
    /// An index file.
    File(PathBuf),
    /// Found first, by an index run of the table's rules and count.
    Generated,
}

impl IndexSource {
    /// `generated` (in any case), or a file's path (anything else; the file
    /// is read when the command runs).
    pub fn parse(text: &str) -> Result<IndexSource> {
        let trimmed = text.trim();
        match trimmed.to_ascii_lowercase().as_str() {
            "generated" => Ok(IndexSource::Generated),
            "" => Err(Error::invalid(
                "indices",
                text,
                "must be an index file (CSV) or generated",
            )),
            _ => Ok(IndexSource::File(PathBuf::from(trimmed))),
        }
    }
}

/// `--strategy` of `blackjack table`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableStrategy {
    /// The exact engine's composition-dependent decisions.
    CompositionDependent,
    /// The basic-strategy chart.
    Basic,
    /// A chart read from a CSV file.
    Chart(PathBuf),
}

impl TableStrategy {
    /// `cd`, `basic` (in any case), or a file's path (anything else; the
    /// file is read when the command runs).
    pub fn parse(text: &str) -> Result<TableStrategy> {
        let trimmed = text.trim();
        match trimmed.to_ascii_lowercase().as_str() {
            "cd" => Ok(TableStrategy::CompositionDependent),
            "basic" => Ok(TableStrategy::Basic),
            "" => Err(Error::invalid(
                "strategy",
                text,
                "must be cd, basic or a chart's CSV file",
            )),
            _ => Ok(TableStrategy::Chart(PathBuf::from(trimmed))),
        }
    }
}

/// `--penetration`: a fraction of the shoe, `0.75` or `75%`. Whether the
/// cut card leaves a round's cards behind it depends on the shoe, and is
/// checked with it.
fn parse_penetration(text: &str) -> Result<f64> {
    let refused = || {
        Error::invalid(
            "penetration",
            text.trim(),
            "must be a fraction of the shoe, 0 < P <= 1 (e.g. 0.75 or 75%)",
        )
    };
    let trimmed = text.trim();
    let value = match trimmed.strip_suffix('%') {
        Some(percent) => percent.trim().parse::<f64>().map_err(|_| refused())? / 100.0,
        None => trimmed.parse::<f64>().map_err(|_| refused())?,
    };
    if value > 0.0 && value <= 1.0 {
        Ok(value)
    } else {
        Err(refused())
    }
}

/// `--rounds-per-shoe`: a whole number of at least 1 (the shoe's size
/// bounds it, checked with the shoe).
fn parse_rounds_per_shoe(text: &str) -> Result<u32> {
    text.trim()
        .parse::<u32>()
        .ok()
        .filter(|&rounds| rounds >= 1)
        .ok_or_else(|| {
            Error::invalid(
                "rounds_per_shoe",
                text.trim(),
                "must be a whole number of at least 1",
            )
        })
}

/// `deckodds blackjack player ...`.
#[derive(Debug, Subcommand)]
pub enum PlayerSubcommand {
    /// Monte Carlo against exact: plays rounds off the top of a full shoe
    /// with the exact engine's decisions (the same rules and split model)
    /// and compares their mean net result per round with the exact overall
    /// value.
    ///
    /// Exit status: 0 when they agree, 1 when they do not (after the whole
    /// report is written), 2 for bad input.
    #[command(mut_args = rounds)]
    Compare {
        #[command(flatten)]
        solve: PlayerSolveArgs,
        #[command(flatten)]
        sampling: SamplingArgs,
        #[command(flatten)]
        level: LevelArgs,
        #[command(flatten)]
        output: OutputArgs,
    },
}

/// `--trials` of `player compare`, which plays rounds.
fn rounds(arg: Arg) -> Arg {
    match arg.get_id().as_str() {
        "trials" => arg.help("Rounds to play (accepts 1000000, 1_000_000 or 1e6)"),
        _ => arg,
    }
}

/// `--trials` of `blackjack table`, which plays rounds in whole shoes.
fn table_rounds(arg: Arg) -> Arg {
    match arg.get_id().as_str() {
        "trials" => arg.help(
            "Rounds to play, about (accepts 1000000, 1_000_000 or 1e6). The unit of the run \
             is the shoe: N rounds are N shoes of one round, or as many shoes as deal N \
             rounds on average (a fixed pilot run estimates the rounds per shoe); the report \
             gives the rounds played",
        ),
        _ => arg,
    }
}

/// What the player's engine solves: the rules, the split model, and the
/// kind of number.
#[derive(Debug, Args)]
pub struct PlayerSolveArgs {
    #[command(flatten)]
    pub rules: PlayerRulesArgs,

    /// How split hands are played, and so valued: cdz (each split hand
    /// played as the unsplit optimum plays the same cards), cdp1 (the
    /// post-split strategy optimised once, for the shoe with one more pair
    /// card out) or cdp (optimised for each number of pair cards out). All
    /// three coincide for an infinite deck.
    #[arg(long, value_name = "MODEL", default_value = "cdz", value_parser = SplitModel::parse)]
    pub split_model: SplitModel,

    /// Compute in f64 instead of exact fractions: much faster, equal to
    /// the exact values to about 1e-12; JSON then carries decimals only.
    #[arg(long)]
    pub float: bool,
}

/// The rules of a round between a player and the dealer (RULES.md section
/// 6), spelled the same in every player command. Defaults are RULES.md's:
/// 6 decks, S17, peek, 3:2, double any two, DAS, re-split to 4 hands, no
/// re-split of aces, no surrender. (Each field is named as `PlayerRules`
/// names the parameter, so that the library's errors find the flag.)
#[derive(Debug, Args)]
#[command(next_help_heading = "Rules (RULES.md section 6)")]
pub struct PlayerRulesArgs {
    /// Decks in the shoe: 1..=8 (as at a table), or "inf" for an infinite
    /// deck (every draw independent: each value 1/13, tens 4/13).
    #[arg(long, value_name = "N|inf", default_value = "6", value_parser = parse_table_decks)]
    pub decks: Decks,

    /// The dealer hits soft 17 (H17). Default: stands on all 17s (S17).
    #[arg(long)]
    pub h17: bool,

    /// European no hole card: the dealer takes no hole card until the
    /// player has played, and a dealer natural then takes every bet,
    /// doubles and splits included. Default: the dealer peeks with an ace
    /// or a ten up, and a natural ends the round at once for one unit.
    #[arg(long)]
    pub enhc: bool,

    /// What a player natural (a two-card 21 not from a split) pays: 3:2,
    /// 6:5 or 1:1. It pushes against a dealer natural.
    #[arg(
        long = "bj-pays",
        value_name = "PAYS",
        default_value = "3:2",
        value_parser = BlackjackPays::parse
    )]
    pub blackjack_pays: BlackjackPays,

    /// Which first two cards may be doubled: any, 9-11 or 10-11 (hard
    /// totals). A doubled hand stakes 2 and takes exactly one card.
    #[arg(long, value_name = "RULE", default_value = "any", value_parser = DoubleOn::parse)]
    pub double: DoubleOn,

    /// No doubling after a split. Default: a split hand may double on the
    /// totals --double allows.
    #[arg(long)]
    pub no_das: bool,

    /// Hands in all after re-splits: 2 (split once), 3 or 4.
    #[arg(
        long,
        value_name = "N",
        default_value = "4",
        value_parser = PlayerRules::parse_max_hands
    )]
    pub max_hands: u8,

    /// Split aces may be split again (up to --max-hands, so not with
    /// --max-hands 2). Split aces take one card each either way.
    #[arg(long)]
    pub resplit_aces: bool,

    /// Surrender: none, late (half the bet back unless the dealer has a
    /// natural: after the peek, or under --enhc a natural found at the end
    /// takes the whole bet) or early (before the peek, against any upcard,
    /// half the bet back whatever the dealer holds).
    #[arg(long, value_name = "RULE", default_value = "none", value_parser = Surrender::parse)]
    pub surrender: Surrender,
}

impl PlayerRulesArgs {
    /// The rule set these options give, checked (errors name parameters:
    /// `resplit_aces` with two hands).
    pub fn rules(&self) -> Result<PlayerRules> {
        let rules = PlayerRules {
            decks: self.decks,
            soft17: if self.h17 { Soft17::Hit } else { Soft17::Stand },
            hole_card: if self.enhc {
                HoleCard::Enhc
            } else {
                HoleCard::Peek
            },
            blackjack_pays: self.blackjack_pays,
            double: self.double,
            double_after_split: !self.no_das,
            max_hands: self.max_hands,
            resplit_aces: self.resplit_aces,
            surrender: self.surrender,
        };
        rules.validate()?;
        Ok(rules)
    }
}

/// The most decks at a table (RULES.md section 6); the engine takes up to
/// 64, for the limit studies of its tests.
const TABLE_DECKS: u32 = 8;

/// `--decks` of the player's commands: 1..=8 or `inf` (the dealer's table
/// takes up to 64).
fn parse_table_decks(text: &str) -> Result<Decks> {
    let refused = || {
        Error::invalid(
            "decks",
            text.trim(),
            format!("must be 1..={TABLE_DECKS} or \"inf\""),
        )
    };
    match Decks::parse(text) {
        Ok(Decks::Finite(n)) if n > TABLE_DECKS => Err(refused()),
        Ok(decks) => Ok(decks),
        Err(_) => Err(refused()),
    }
}

/// `--trials` of the blackjack commands, which deal hands for every
/// upcard (`mut_args`, which keeps the options' order, unlike `mut_arg`).
fn hands_per_upcard(arg: Arg) -> Arg {
    match arg.get_id().as_str() {
        "trials" => arg.help("Hands per upcard (accepts 1000000, 1_000_000 or 1e6)"),
        _ => arg,
    }
}

/// `--outcome`: an outcome's index in [`OUTCOME_LABELS`], or all.
fn parse_outcome(text: &str) -> Result<OneOrAll<usize>> {
    let position = |label: &str| {
        OUTCOME_LABELS
            .iter()
            .position(|&l| l == label)
            .ok_or_else(|| Error::invalid("outcome", label, ""))
    };
    OneOrAll::parse(
        text,
        position,
        &format!("must be one of {}, or all", OUTCOME_LABELS.join(", ")),
    )
}

/// The rules of the dealer's game.
#[derive(Debug, Args)]
pub struct BlackjackRules {
    /// Decks in the shoe: 1..=64, or "inf" for an infinite deck (every draw
    /// independent).
    #[arg(long, value_name = "N|inf", default_value = "2", value_parser = Decks::parse)]
    pub decks: Decks,

    /// The dealer hits soft 17 (H17). Default: stands on all 17s (S17).
    #[arg(long)]
    pub h17: bool,

    /// How hand totals are scored: "correct", or "sorted-fold", the error
    /// the quiz write-up found in a published simulation (ten, ace, ace
    /// scored 22), to see what that error does to a table.
    #[arg(long, value_name = "RULE", default_value = "correct", value_parser = Scoring::parse)]
    pub scoring: Scoring,

    /// Condition on the dealer not holding a natural (the dealer peeked and
    /// play went on).
    #[arg(long)]
    pub peek: bool,

    /// Cards taken out of the shoe besides the upcard, e.g. the player's:
    /// "10 10 6". Values A, 2..10, or T, J, Q, K for ten-valued cards.
    // The field is named as `DealerParams` names it, so that the library's
    // errors about it (`removed`) find this flag; `::std::vec::Vec` makes
    // clap take the list as one value.
    #[arg(
        long = "remove",
        value_name = "CARDS",
        default_value = "",
        value_parser = DealerParams::parse_removed
    )]
    pub removed: ::std::vec::Vec<u8>,
}
