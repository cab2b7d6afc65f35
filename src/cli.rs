//! Command-line definitions (clap). No logic lives here: values arrive as
//! text where the library validates them, so every error message comes from
//! one place and names the option.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// deckodds: exact and Monte-Carlo odds for card games, and whether the two
/// agree.
#[derive(Debug, Parser)]
#[command(name = "deckodds", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    /// Options every command accepts.
    #[command(flatten)]
    pub global: GlobalArgs,

    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Options every command accepts.
#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// Print no progress bar and no notes on stderr (errors still print).
    #[arg(long, short, global = true)]
    pub quiet: bool,

    /// Worker threads for Monte-Carlo runs and exact enumerations (default:
    /// one per core). Results do not depend on it.
    #[arg(long, allow_negative_numbers = true, global = true, value_name = "N")]
    pub threads: Option<String>,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Blackjack dealer outcomes by upcard (RULES.md section 5).
    #[command(subcommand)]
    Blackjack(BlackjackCommand),
    /// Idiot's Delight: the distribution of cards left (RULES.md section 1).
    #[command(subcommand, name = "idiots-delight")]
    IdiotsDelight(IdiotsDelightCommand),
    /// Roll-Call, or Hit or Miss (RULES.md section 2): the odds of winning
    /// each version.
    #[command(subcommand)]
    RollCall(RollCallCommand),
    /// Prisoner's patience (RULES.md section 3): the odds under the seed
    /// program's rules and a person's, and which deals can be won at all.
    #[command(subcommand, name = "prisoners-patience")]
    PrisonersPatience(PrisonersCommand),
    /// Klondike with the exercise's fixed move policy (RULES.md section 4):
    /// $52 a game, $5 a card on the foundations; the odds, the money, and
    /// complete records of games.
    #[command(subcommand)]
    Klondike(KlondikeCommand),
    /// Runs analysis specs (analysis/*.toml, each a publication table or a
    /// family of them) and writes their tables to results/, each with a
    /// provenance record (NAME.provenance.json: the spec, program version,
    /// seed, trials, checksums of the counts and of each file, time and
    /// cores), the index results/README.md, then a summary.
    Reproduce {
        /// The specs to run: spec files (analysis/NAME.toml), or the names
        /// of tables or families in analysis/ (roll-call-exact-4x3,
        /// roll-call-exact). Default: every spec but the slow ones.
        #[arg(value_name = "SPEC")]
        specs: Vec<PathBuf>,
        /// The quick profile: each Monte-Carlo spec's quick-trials instead of
        /// its trials (the same code paths), into results-quick/ unless
        /// --results says otherwise. Slow exact tables are left out.
        #[arg(long)]
        quick: bool,
        /// Check instead of writing: every committed file still has the
        /// checksum its provenance records, tables that do not sample
        /// recompute identically, Monte-Carlo ones give the recorded counts
        /// under the quick profile, the index is current, and every file
        /// belongs to a spec. Fails naming the first file that differs.
        #[arg(long, conflicts_with = "quick")]
        check: bool,
        /// Also the slow specs (slow = true: minutes each), which are
        /// otherwise skipped (and with --check, not recomputed).
        #[arg(long)]
        slow: bool,
        /// Where to write, or with --check where to check (default:
        /// results/, or results-quick/ with --quick).
        #[arg(long, value_name = "DIR")]
        results: Option<PathBuf>,
    },
    /// Sums the count files of a run's parts (each made with --shard k/n
    /// --out FILE.json) into exactly the output of the one run: checks they
    /// are the parts 0..n of the same command, program, seed and chunking,
    /// each once, then writes like the command itself (--out, --format).
    Merge {
        /// The count files, one per part, in any order.
        #[arg(value_name = "FILE")]
        files: Vec<PathBuf>,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Prints the rule book (RULES.md, built into the program): the whole
    /// book, or its general part and one game's section.
    Rules {
        /// The game, by its command's name: idiots-delight, roll-call,
        /// prisoners-patience, klondike or blackjack. Default: every game.
        #[arg(value_name = "GAME")]
        game: Option<String>,
    },
    /// Prints a completion script for a shell: bash, zsh, fish, powershell
    /// or elvish (e.g. `deckodds completions bash > FILE` in bash's
    /// completions directory).
    Completions {
        /// The shell: bash, zsh, fish, powershell or elvish.
        #[arg(value_name = "SHELL")]
        shell: String,
    },
    /// Prints deckodds' manual page (roff: `deckodds man | man -l -`), or
    /// with --out DIR writes one page per command into DIR.
    Man {
        /// An existing directory to write deckodds.1,
        /// deckodds-blackjack.1, deckodds-blackjack-exact.1, ... into.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
}

/// The help heading of the options that cut, save, resume and stop long
/// runs: they belong to how a run is carried out, not to what it computes
/// (so analysis specs do not take them).
pub const LONG_RUNS: &str = "Long runs";

/// `--shard`: a run cut into parts. Exhaustive enumerations take it alone
/// (see [`RunArgs`] for sampling runs).
#[derive(Clone, Debug, Default, Args)]
pub struct PartArgs {
    /// Run only part k of n (counted from 0: 0/4 .. 3/4). With --out
    /// FILE.json each part writes a count file; `deckodds merge` sums the
    /// parts into exactly the one run's output.
    #[arg(long, value_name = "K/N", help_heading = LONG_RUNS)]
    pub shard: Option<String>,
}

/// The long-run options of a command that samples: parts, checkpoints and
/// MPI.
#[derive(Clone, Debug, Default, Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub parts: PartArgs,

    /// Save the run's counts to FILE every few seconds (atomically, and
    /// synced to disk). Ctrl-C or SIGTERM then finishes the chunks in flight, saves, prints
    /// how to resume, and exits with status 130. The file is removed when
    /// the run finishes. FILE must not exist yet.
    #[arg(long, value_name = "FILE", help_heading = LONG_RUNS)]
    pub checkpoint: Option<PathBuf>,

    /// Continue the run saved in FILE by --checkpoint: give the same
    /// command line (the checkpoint refuses any other). The counts at the
    /// end are exactly those of a run never interrupted. Saves to FILE
    /// again as it goes (or to --checkpoint's file).
    #[arg(long, value_name = "FILE", help_heading = LONG_RUNS)]
    pub resume: Option<PathBuf>,

    /// Seconds between saves of --checkpoint (default 5). Saves come
    /// between blocks of chunks, about a second of work each.
    #[arg(long, allow_negative_numbers = true, value_name = "SECONDS", help_heading = LONG_RUNS)]
    pub checkpoint_every: Option<String>,

    /// Run as one rank of an MPI job (`mpirun -n N deckodds COMMAND ...
    /// --mpi`): rank r runs part r/N of the run, the ranks' counts are
    /// summed on rank 0, which writes the one run's output. Needs a build
    /// with `--features mpi`.
    #[arg(long, help_heading = LONG_RUNS)]
    pub mpi: bool,
}

/// A precision target, for a Monte-Carlo run of one version (`mc`, `solve
/// --trials`).
#[derive(Clone, Debug, Default, Args)]
pub struct PrecisionArgs {
    /// Sample until the 95% interval of every outcome (or of the outcome
    /// --for names) is narrower than X either side of the estimate: a
    /// proportion (0.0005) or percentage points (0.05%). Adds chunks of
    /// trials in order and stops at the first chunk that meets the target,
    /// so the result is that of --trials N for the N it reports, and the
    /// same for a seed on any machine.
    #[arg(long, allow_negative_numbers = true, value_name = "X", help_heading = LONG_RUNS)]
    pub until_halfwidth: Option<String>,

    /// The outcome --until-halfwidth watches: a label as the report prints
    /// it (52: Klondike's going out; 1: Prisoner's patience's one stack, a
    /// win; bust), in every distribution that has it, or
    /// DISTRIBUTION/LABEL for one (upcard=A/bust).
    #[arg(long = "for", value_name = "OUTCOME", help_heading = LONG_RUNS)]
    pub for_outcome: Option<String>,

    /// The most trials --until-halfwidth runs (default 1e9); it takes the
    /// place of --trials.
    #[arg(long, allow_negative_numbers = true, value_name = "N", help_heading = LONG_RUNS)]
    pub max_trials: Option<String>,
}

/// Every long-run option a command line gave, gathered from wherever its
/// command takes them (empty for a command that takes none).
#[derive(Clone, Debug, Default)]
pub struct LongRunArgs {
    pub run: RunArgs,
    pub precision: PrecisionArgs,
}

impl Command {
    /// The long-run options given to this command.
    pub fn long_run_args(&self) -> LongRunArgs {
        use BlackjackCommand as B;
        use IdiotsDelightCommand as I;
        use KlondikeCommand as K;
        use PrisonersCommand as P;
        use RollCallCommand as R;
        let parts = |parts: &PartArgs| LongRunArgs {
            run: RunArgs {
                parts: parts.clone(),
                ..RunArgs::default()
            },
            ..LongRunArgs::default()
        };
        let sampling = |run: &RunArgs, precision: Option<&PrecisionArgs>| LongRunArgs {
            run: run.clone(),
            precision: precision.cloned().unwrap_or_default(),
        };
        match self {
            Command::Blackjack(B::Mc {
                sampling: s,
                precision,
                ..
            }) => sampling(&s.runs, Some(precision)),
            Command::Blackjack(B::Compare { sampling: s, .. }) => sampling(&s.runs, None),
            Command::Blackjack(B::Exact { .. } | B::Eor { .. }) => LongRunArgs::default(),
            Command::IdiotsDelight(I::Exact { parts: p, .. })
            | Command::RollCall(R::Exact { parts: p, .. })
            | Command::PrisonersPatience(P::Exact { parts: p, .. }) => parts(p),
            Command::IdiotsDelight(I::Mc {
                sampling: s,
                precision,
                ..
            })
            | Command::RollCall(R::Mc {
                sampling: s,
                precision,
                ..
            })
            | Command::PrisonersPatience(P::Mc {
                sampling: s,
                precision,
                ..
            })
            | Command::Klondike(K::Mc {
                sampling: s,
                precision,
                ..
            }) => sampling(&s.runs, Some(precision)),
            Command::IdiotsDelight(
                I::Compare { sampling: s, .. } | I::Power { sampling: s, .. },
            )
            | Command::RollCall(R::Compare { sampling: s, .. })
            | Command::PrisonersPatience(P::Compare { sampling: s, .. }) => sampling(&s.runs, None),
            Command::PrisonersPatience(P::Solve {
                runs, precision, ..
            }) => sampling(runs, Some(precision)),
            Command::RollCall(
                R::FirstPass { .. } | R::Replay { .. } | R::LongestZeroStrike { .. },
            )
            | Command::PrisonersPatience(P::Replay { .. })
            | Command::Klondike(K::Record { .. })
            | Command::Reproduce { .. }
            | Command::Merge { .. }
            | Command::Rules { .. }
            | Command::Completions { .. }
            | Command::Man { .. } => LongRunArgs::default(),
        }
    }
}

/// Klondike commands. The outcome is the number of cards on the
/// foundations when the game ends (52 = went out); the net winnings of a
/// game are 5 x cards - 52 dollars.
#[derive(Debug, Subcommand)]
pub enum KlondikeCommand {
    /// Monte Carlo: the distribution of cards on the foundations with 95%
    /// intervals, the mean net winnings per game with its standard error,
    /// the total over the games played, and the chance of going out.
    Mc {
        #[command(flatten)]
        rules: KlondikeRules,
        #[command(flatten)]
        sampling: GameSamplingArgs,
        #[command(flatten)]
        precision: PrecisionArgs,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Complete, readable records of games: the deal (face-down cards
    /// marked), every move with the rule that made it, every stock turn,
    /// the foundations at the end and the money. By default the first
    /// --games games of `klondike mc` with the same --seed and rules.
    Record {
        #[command(flatten)]
        rules: KlondikeRules,
        /// Games to record (at most 1000).
        #[arg(
            long,
            allow_negative_numbers = true,
            value_name = "N",
            default_value = "2"
        )]
        games: String,
        /// Master seed, as for `klondike mc`: game k is the k-th game that
        /// run plays.
        #[arg(
            long,
            allow_negative_numbers = true,
            value_name = "S",
            default_value = "1"
        )]
        seed: String,
        /// Record only games that went out: the first --games of them in
        /// the run (searching at most its first 100,000,000 games).
        #[arg(long, conflicts_with = "deal")]
        went_out: bool,
        /// Record this deal instead: the 52 cards, first dealt first, e.g.
        /// "7C 10D AS ..." (ranks A 2..10 J Q K or T, suits C D H S or
        /// ♣ ♦ ♥ ♠), separated by spaces or commas.
        #[arg(long, value_name = "CARDS", conflicts_with_all = ["games", "seed"])]
        deal: Option<String>,
        /// Write suits as the letters C D H S instead of ♣ ♦ ♥ ♠.
        #[arg(long)]
        ascii: bool,
        /// Write the records to this file (FILE.txt, atomically) instead
        /// of standard output.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
}

/// The rule variants of Klondike (defaults: the exercise's).
#[derive(Debug, Args)]
pub struct KlondikeRules {
    /// Cards turned from the stock at a time: 1 or 3.
    #[arg(
        long,
        allow_negative_numbers = true,
        value_name = "N",
        default_value = "1"
    )]
    pub draw: String,
    /// Passes through the stock, at least 1 (1 = no redeal; each further
    /// pass turns the waste over into a new stock).
    #[arg(
        long,
        allow_negative_numbers = true,
        value_name = "N",
        default_value = "1"
    )]
    pub passes: String,
}

/// Prisoner's patience commands. The outcome is the number of stacks left
/// when the deck is exhausted (1 = won).
#[derive(Debug, Subcommand)]
pub enum PrisonersCommand {
    /// The exact distribution of stacks left on a small deck, as reduced
    /// fractions: every arrangement counted.
    Exact {
        #[command(flatten)]
        version: PrisonersVersion,
        /// Which enumerator: "memo" (memoised card by card, states merged
        /// under the rank cycle's symmetries) or "exhaustive" (every
        /// arrangement played; the independent cross-check, for decks up to
        /// about 13 cards).
        #[arg(long, value_name = "ENGINE", default_value = "memo")]
        engine: String,
        /// Run a deck estimated at over 10 minutes anyway.
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        output: OutputArgs,
        #[command(flatten)]
        parts: PartArgs,
    },
    /// Monte-Carlo distribution of stacks left, with 95% intervals.
    Mc {
        #[command(flatten)]
        version: PrisonersVersion,
        #[command(flatten)]
        sampling: GameSamplingArgs,
        #[command(flatten)]
        precision: PrecisionArgs,
        /// Keep the deals of the first N games won, one a line, in FILE.
        #[arg(long, num_args = 2, allow_negative_numbers = true, value_names = ["N", "FILE"])]
        save_wins: Option<Vec<String>>,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Agreement reports: Monte Carlo against exact ("exact", decks of at
    /// most 24 cards), the seed's 661 wins in 16,000,000 games against
    /// deckodds' estimate under each stack-move rule ("seed"), or the two
    /// stack-move rules against each other ("rules").
    ///
    /// Exit status: 0 when every comparison agrees, 1 when any disagrees
    /// (after the whole report is written, as `diff` and `cmp` do), 2 for
    /// bad input.
    Compare {
        #[command(flatten)]
        version: PrisonersVersion,
        #[command(flatten)]
        sampling: GameSamplingArgs,
        /// What to compare with: exact, seed or rules.
        #[arg(long = "with", value_name = "WHAT", default_value = "exact")]
        with: String,
        /// Significance level of the verdicts.
        #[arg(
            long,
            allow_negative_numbers = true,
            value_name = "ALPHA",
            default_value = "0.001"
        )]
        level: String,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Plays one deal step by step: each card dealt, each move made, the
    /// row of stacks after each card.
    Replay {
        #[command(flatten)]
        version: PrisonersVersion,
        /// The deal, first card first: ranks A, 2..10, J, Q, K (or 1..13),
        /// separated by spaces or commas, each rank exactly --suits times
        /// (suits do not matter).
        #[arg(long, value_name = "CARDS")]
        deal: String,
    },
    /// Which deals can be won at all when the player chooses the moves
    /// freely (after each card any number of moves, each a stack onto the
    /// stack 1 or 3 to its left whose top fits): one deal (--deal, with a
    /// winning line of play), random deals (--trials) or every arrangement
    /// of a small deck (--every), beside what the seed's fixed sweep wins.
    Solve {
        #[command(flatten)]
        version: PrisonersVersion,
        /// Solve this deal (ranks, first card first).
        #[arg(long, value_name = "CARDS", conflicts_with_all = ["trials", "every"])]
        deal: Option<String>,
        /// Solve this many random deals (accepts 1000, 1e3).
        #[arg(
            long,
            allow_negative_numbers = true,
            value_name = "N",
            conflicts_with = "every"
        )]
        trials: Option<String>,
        /// Master seed of the random deals.
        #[arg(
            long,
            allow_negative_numbers = true,
            value_name = "S",
            default_value = "1"
        )]
        seed: String,
        /// With --trials: write the deals a player choosing freely can win
        /// to FILE, one a line with its game number (from 0), as
        /// --save-wins does.
        #[arg(long, value_name = "FILE")]
        save_winnable: Option<PathBuf>,
        /// Solve every distinct arrangement of the deck, exactly (decks of
        /// at most 12 cards).
        #[arg(long)]
        every: bool,
        /// States the search may visit per deal before it calls the deal
        /// undecided (--every always searches to the end).
        #[arg(
            long,
            allow_negative_numbers = true,
            value_name = "N",
            default_value = "4000000"
        )]
        max_nodes: String,
        #[command(flatten)]
        output: OutputArgs,
        #[command(flatten)]
        runs: RunArgs,
        #[command(flatten)]
        precision: PrecisionArgs,
    },
}

/// A version of Prisoner's patience: the deck and how stacks move.
#[derive(Debug, Args)]
pub struct PrisonersVersion {
    /// Suits: copies of each rank, at least 1 (at most 64 cards in all).
    #[arg(
        long,
        allow_negative_numbers = true,
        value_name = "S",
        default_value = "4"
    )]
    pub suits: String,
    /// Ranks, 3..=13; they wrap round (R fits 1).
    #[arg(
        long,
        allow_negative_numbers = true,
        value_name = "R",
        default_value = "13"
    )]
    pub ranks: String,
    /// "reversed" (a stack moves card by card, as the seed's program does,
    /// so its bottom card ends on top) or "kept" (it moves as a unit, as a
    /// person plays).
    #[arg(long, value_name = "RULE", default_value = "reversed")]
    pub stack_move: String,
}

/// Roll-Call commands. Every command reports all versions at once: cards
/// left when the game is lost after K = 1, 2 or 3 strikes (passes without a
/// match) in a row, and in unlimited play, which is decided exactly.
#[derive(Debug, Subcommand)]
pub enum RollCallCommand {
    /// Exact distributions on a small deck: every distinct arrangement
    /// played (13 x 1, 6.2e9 arrangements, takes about six minutes on two
    /// idle cores).
    Exact {
        #[command(flatten)]
        version: RollCallVersion,
        /// Run a deck estimated at over 10 minutes anyway.
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        output: OutputArgs,
        #[command(flatten)]
        parts: PartArgs,
    },
    /// Monte-Carlo distributions with 95% intervals.
    Mc {
        #[command(flatten)]
        version: RollCallVersion,
        #[command(flatten)]
        sampling: GameSamplingArgs,
        #[command(flatten)]
        precision: PrecisionArgs,
        /// Keep the deals of the first N games won (unlimited play), one a
        /// line, in FILE.
        #[arg(long, num_args = 2, allow_negative_numbers = true, value_names = ["N", "FILE"])]
        save_wins: Option<Vec<String>>,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Agreement reports: Monte Carlo against exact ("exact": every
    /// distribution on a deck of at most 13 cards, the first pass on any
    /// deck), or one version against another on the same deals ("order":
    /// same vs reversed; "count": continuous vs restart).
    ///
    /// Exit status: 0 when every comparison agrees, 1 when any disagrees
    /// (after the whole report is written, as `diff` and `cmp` do), 2 for
    /// bad input.
    Compare {
        #[command(flatten)]
        version: RollCallVersion,
        #[command(flatten)]
        sampling: GameSamplingArgs,
        /// What to compare with: exact, order or count.
        #[arg(long = "with", value_name = "WHAT", default_value = "exact")]
        with: String,
        /// Significance level of the verdicts.
        #[arg(
            long,
            allow_negative_numbers = true,
            value_name = "ALPHA",
            default_value = "0.001"
        )]
        level: String,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// The exact distribution of matches in the first pass (rook
    /// polynomials; instant for any deck). No match at all is Frustration
    /// solitaire's loss.
    FirstPass {
        /// Ranks, 2..=13.
        #[arg(
            long,
            allow_negative_numbers = true,
            value_name = "R",
            default_value = "13"
        )]
        ranks: String,
        /// Copies of each rank, at least 1 (at most 64 cards in all).
        #[arg(
            long,
            allow_negative_numbers = true,
            value_name = "S",
            default_value = "4"
        )]
        copies: String,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Plays one deal pass by pass: every card turned, the count, matched
    /// or not.
    Replay {
        #[command(flatten)]
        version: RollCallVersion,
        /// The deal, first card first: ranks A, 2..10, J, Q, K (or 1..13),
        /// separated by spaces, each rank exactly --copies times.
        #[arg(long, value_name = "CARDS")]
        deal: String,
    },
    /// Searches for the deal won without a single strike that takes the
    /// most passes, verifies it by replay, and states the best upper bound
    /// it can prove.
    LongestZeroStrike {
        #[command(flatten)]
        version: RollCallVersion,
        /// Seed of the search's choices (the same seed, the same deal).
        #[arg(
            long,
            allow_negative_numbers = true,
            value_name = "S",
            default_value = "1"
        )]
        seed: String,
    },
}

/// A version of Roll-Call: the deck and the two rule variants.
#[derive(Debug, Args)]
pub struct RollCallVersion {
    /// Ranks, 2..=13 (the count runs 1..=R).
    #[arg(
        long,
        allow_negative_numbers = true,
        value_name = "R",
        default_value = "13"
    )]
    pub ranks: String,
    /// Copies of each rank, at least 1 (at most 64 cards in all).
    #[arg(
        long,
        allow_negative_numbers = true,
        value_name = "S",
        default_value = "4"
    )]
    pub copies: String,
    /// "continuous" (the count runs on across passes) or "restart" (back
    /// to 1 every pass); `mc` also takes "all": every version side by
    /// side, on the same deals.
    #[arg(long, value_name = "RULE", default_value = "continuous")]
    pub count: String,
    /// "same" (each pass sees the cards left in the same order) or
    /// "reversed" (reversed every pass); `mc` also takes "all".
    #[arg(long, value_name = "ORDER", default_value = "same")]
    pub order: String,
}

/// Idiot's Delight commands.
#[derive(Debug, Subcommand)]
pub enum IdiotsDelightCommand {
    /// Exact distribution of cards left on a small deck, as reduced
    /// fractions: every arrangement counted.
    Exact {
        #[command(flatten)]
        deck: IdiotsDelightDeck,
        /// Which enumerator: "memo" (memoised deal by deal, canonical up to
        /// renaming suits and ranks) or "exhaustive" (every arrangement
        /// played by the Monte-Carlo runner's play function; the
        /// independent cross-check, for decks up to about 13 cards).
        #[arg(long, value_name = "ENGINE", default_value = "memo")]
        engine: String,
        /// The shuffle: "uniform" (every order equally likely), "naive",
        /// the SAS paper's biased shuffle applied to the sorted deck (exact
        /// for decks of at most 10 cards), or "both" (one table, a row
        /// each).
        #[arg(long, value_name = "SHUFFLE", default_value = "uniform")]
        shuffle: String,
        /// Run even when the estimated time or memory is over the limits.
        #[arg(long)]
        force: bool,
        /// Memory the memo may use, in GiB; beyond it results stay exact
        /// but slower.
        #[arg(
            long,
            allow_negative_numbers = true,
            value_name = "GIB",
            default_value = "16"
        )]
        memory: String,
        #[command(flatten)]
        output: OutputArgs,
        #[command(flatten)]
        parts: PartArgs,
    },
    /// Monte-Carlo distribution of cards left, with 95% intervals and the
    /// mean with its standard error.
    Mc {
        #[command(flatten)]
        deck: IdiotsDelightDeck,
        #[command(flatten)]
        sampling: GameSamplingArgs,
        #[command(flatten)]
        precision: PrecisionArgs,
        /// The shuffle before each game: uniform, naive (the SAS paper's
        /// biased shuffle of the sorted deck) or naive-carry (of the
        /// previous game's deck, as the SAS program does).
        #[arg(long, value_name = "SHUFFLE", default_value = "uniform")]
        shuffle: String,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Agreement report: Monte Carlo against the exact distribution (decks
    /// of at most 20 cards), or against the SAS paper's table of 1,000,000
    /// games (52 cards, or --published).
    ///
    /// Exit status: 0 when every comparison agrees, 1 when any disagrees
    /// (after the whole report is written, as `diff` and `cmp` do), 2 for
    /// bad input.
    Compare {
        #[command(flatten)]
        deck: IdiotsDelightDeck,
        #[command(flatten)]
        sampling: GameSamplingArgs,
        /// The shuffle(s) to run: uniform, naive, naive-carry, or all (one
        /// row each).
        #[arg(long, value_name = "SHUFFLE", default_value = "uniform")]
        shuffle: String,
        /// Compare with a published table instead of the exact
        /// distribution: "sas" (the paper's counts, built in), or a CSV file
        /// with a header and rows `cards_left,count`.
        #[arg(long, value_name = "sas|FILE.csv")]
        published: Option<String>,
        /// Significance level of the verdicts.
        #[arg(
            long,
            allow_negative_numbers = true,
            value_name = "ALPHA",
            default_value = "0.001"
        )]
        level: String,
        /// Also draw the distributions as an SVG bar chart (the first
        /// shuffle's estimates as bars with 95% intervals, the published
        /// table and any other shuffles as markers). Needs --published.
        #[arg(long, value_name = "FILE.svg", requires = "published")]
        chart: Option<PathBuf>,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// How many games it takes to detect the naive shuffle's bias: the
    /// power of a chi-square test of naive-shuffle counts against the
    /// uniform distribution, from deckodds' own runs.
    Power {
        #[command(flatten)]
        deck: IdiotsDelightDeck,
        #[command(flatten)]
        sampling: GameSamplingArgs,
        /// The biased shuffle to measure: naive or naive-carry.
        #[arg(long, value_name = "SHUFFLE", default_value = "naive")]
        shuffle: String,
        /// Significance level of the test whose power is computed.
        #[arg(
            long,
            allow_negative_numbers = true,
            value_name = "ALPHA",
            default_value = "0.001"
        )]
        level: String,
        /// Replicate experiments run at the predicted 90%-power size to
        /// check the prediction (0 to skip).
        #[arg(
            long,
            allow_negative_numbers = true,
            value_name = "N",
            default_value = "100"
        )]
        replicates: String,
        #[command(flatten)]
        output: OutputArgs,
    },
}

/// The deck of an Idiot's Delight game.
#[derive(Debug, Args)]
pub struct IdiotsDelightDeck {
    /// Suits in the deck, 1..=16 (at most 64 cards in all).
    #[arg(
        long,
        allow_negative_numbers = true,
        value_name = "S",
        default_value = "4"
    )]
    pub suits: String,
    /// Ranks in each suit, 1..=13.
    #[arg(
        long,
        allow_negative_numbers = true,
        value_name = "R",
        default_value = "13"
    )]
    pub ranks: String,
}

/// How a Monte-Carlo run of games samples.
#[derive(Debug, Args)]
pub struct GameSamplingArgs {
    /// Games to play (accepts 1000000, 1_000_000 or 1e6).
    #[arg(
        long,
        allow_negative_numbers = true,
        value_name = "N",
        default_value = "1000000"
    )]
    pub trials: String,

    /// Master seed. The same seed and trials give the same counts on any
    /// machine with any number of threads.
    #[arg(
        long,
        allow_negative_numbers = true,
        value_name = "S",
        default_value = "1"
    )]
    pub seed: String,

    #[command(flatten)]
    pub runs: RunArgs,
}

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
            allow_negative_numbers = true,
            value_name = "N",
            requires = "published",
            conflicts_with = "hands_per_row"
        )]
        hands: Option<String>,
        /// The published table's sample size in hands per row.
        #[arg(
            long,
            allow_negative_numbers = true,
            value_name = "N",
            requires = "published"
        )]
        hands_per_row: Option<String>,
        /// Significance level of the verdicts. For a published table it is
        /// family-wise over all cells (Bonferroni).
        #[arg(
            long,
            allow_negative_numbers = true,
            value_name = "ALPHA",
            default_value = "0.001"
        )]
        level: String,
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
        #[arg(long, value_name = "OUTCOME", default_value = "all")]
        outcome: String,
        #[command(flatten)]
        output: OutputArgs,
    },
}

/// The rules of the dealer's game.
#[derive(Debug, Args)]
pub struct BlackjackRules {
    /// Decks in the shoe: 1..=64, or "inf" for an infinite deck (every draw
    /// independent).
    #[arg(
        long,
        allow_negative_numbers = true,
        value_name = "N|inf",
        default_value = "2"
    )]
    pub decks: String,

    /// The dealer hits soft 17 (H17). Default: stands on all 17s (S17).
    #[arg(long)]
    pub h17: bool,

    /// How hand totals are scored: "correct", or "sorted-fold", the error
    /// the quiz write-up found in a published simulation (ten, ace, ace
    /// scored 22), to see what that error does to a table.
    #[arg(long, value_name = "RULE", default_value = "correct")]
    pub scoring: String,

    /// Condition on the dealer not holding a natural (the dealer peeked and
    /// play went on).
    #[arg(long)]
    pub peek: bool,

    /// Cards taken out of the shoe besides the upcard, e.g. the player's:
    /// "10 10 6". Values A, 2..10, or T, J, Q, K for ten-valued cards.
    #[arg(long, value_name = "CARDS", default_value = "")]
    pub remove: String,
}

/// How a Monte-Carlo run samples.
#[derive(Debug, Args)]
pub struct SamplingArgs {
    /// Hands per upcard (accepts 1000000, 1_000_000 or 1e6).
    #[arg(
        long,
        allow_negative_numbers = true,
        value_name = "N",
        default_value = "1000000"
    )]
    pub trials: String,

    /// Master seed. The same seed and trials give the same counts on any
    /// machine with any number of threads.
    #[arg(
        long,
        allow_negative_numbers = true,
        value_name = "S",
        default_value = "1"
    )]
    pub seed: String,

    #[command(flatten)]
    pub runs: RunArgs,
}

/// Where and how results are written.
#[derive(Debug, Args)]
pub struct OutputArgs {
    /// Output format: table, md, csv, json, latex or svg (the chart).
    /// Default: from --out's extension (.md .csv .json .tex, .txt for the
    /// table, .svg for the chart), else table.
    #[arg(long, value_name = "FORMAT", help_heading = "Output")]
    pub format: Option<String>,

    /// Write to this file instead of standard output (`-` is standard
    /// output): a regular file is replaced atomically (complete or not at
    /// all), a device or FIFO written in place. Repeat it to write several
    /// formats from one run (e.g. --out t.md --out t.json --out t.svg).
    /// Checked before the run: a known extension, an existing writable
    /// directory, no other output on the same file.
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    pub out: Vec<PathBuf>,

    /// Decimal places of percentages in table, md and latex output, 0..=12
    /// (the table shows two significant digits where these would print a
    /// rare outcome as zero).
    #[arg(
        long,
        allow_negative_numbers = true,
        value_name = "N",
        help_heading = "Output"
    )]
    pub digits: Option<usize>,
}
