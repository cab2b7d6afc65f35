//! Command-line definitions (clap): what deckodds takes, and nothing it
//! does. One file per game (its commands and the options only they take),
//! `common.rs` for the options several commands share (each defined once
//! and flattened where it applies), `values.rs` for the parsers of plain
//! values, and here the command tree, the cross-game commands and the
//! errors.
//!
//! Values are parsed here, at the edge, into typed values: each option's
//! `value_parser` calls the one parsing function of its type (the
//! library's `Decks::parse`, `Shuffle::parse`, `Shard::parse`, ..., or
//! [`values`] for counts, seeds, levels), so a command receives a `u64`
//! or a `Decks`, and a bad value is refused before anything runs, in one
//! line naming the flag ([`value_error`]). The library names parameters
//! in its errors (`decks 0: ...`), not flags; [`name_flags`] names the
//! flag of a game's command for an error the game's engines return once
//! it runs (`--decks inf: ...`).

use std::path::PathBuf;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Arg, Args, Parser, Subcommand};
use clap_complete::Shell;

use crate::error::{Error, Result};
use crate::games::registry::{self, GameEntry};

mod blackjack;
mod common;
mod idiots_delight;
mod klondike;
mod prisoners_patience;
mod roll_call;
pub mod values;

pub use blackjack::{
    BettingArgs, BlackjackCommand, BlackjackRules, CountDistributionArgs, CountsArgs, DecisionSet,
    IndexSource, IndicesArgs, PlayerCommand, PlayerRulesArgs, PlayerSolveArgs, PlayerSubcommand,
    TableArgs, TableStrategy, TableSubcommand,
};
pub use common::{
    Engine, LONG_RUNS, LevelArgs, LongRunArgs, OneOrAll, OutputArgs, PartArgs, PrecisionArgs,
    RunArgs, SamplingArgs,
};
pub use idiots_delight::{IdiotsDelightCommand, IdiotsDelightDeck, PublishedCounts};
pub use klondike::{
    DealFormat, DealSource, FreePlayArgs, KlondikeCommand, KlondikeRules, parse_passes,
};
pub use prisoners_patience::{PrisonersBaseline, PrisonersCommand, PrisonersVersion};
pub use roll_call::{RollCallBaseline, RollCallCommand, RollCallDeck, RollCallVersion};

/// deckodds: exact and Monte-Carlo odds for card games, and whether the two
/// agree.
#[derive(Debug, Parser)]
#[command(
    name = "deckodds",
    version,
    about,
    long_about = None,
    propagate_version = true,
    mut_args = negative_numbers_are_values,
    mut_subcommands = negative_numbers_everywhere
)]
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
    #[arg(long, global = true, value_name = "N", value_parser = values::parse_threads)]
    pub threads: Option<usize>,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Blackjack: the dealer's outcomes by upcard (RULES.md section 5), and
    /// the player's decisions, strategy chart and house edge (section 6).
    #[command(subcommand, name = registry::BLACKJACK.id)]
    Blackjack(BlackjackCommand),
    /// Idiot's Delight: the distribution of cards left (RULES.md section 1).
    #[command(subcommand, name = registry::IDIOTS_DELIGHT.id)]
    IdiotsDelight(IdiotsDelightCommand),
    /// Roll-Call, or Hit or Miss (RULES.md section 2): the odds of winning
    /// each version.
    #[command(subcommand, name = registry::ROLL_CALL.id)]
    RollCall(RollCallCommand),
    /// Prisoner's patience (RULES.md section 3): the odds under the seed
    /// program's rules and a person's, and which deals can be won at all.
    #[command(subcommand, name = registry::PRISONERS_PATIENCE.id)]
    PrisonersPatience(PrisonersCommand),
    /// Klondike (RULES.md section 4, and section 7 for `solve`): which
    /// deals can be won with good play (`solve`), and the exercise's fixed
    /// move policy ($52 a game, $5 a card on the foundations): its odds,
    /// the money, and complete records of games.
    #[command(subcommand, name = registry::KLONDIKE.id)]
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
        /// With --check: compare with the tables that `reproduce --quick
        /// --results DIR` wrote just before, with this program, instead of
        /// recomputing them (the same comparisons, without doing the
        /// quick run's work twice; CI runs README's main command, then
        /// this).
        #[arg(long, value_name = "DIR", requires = "check")]
        recomputed_in: Option<PathBuf>,
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
        #[arg(value_name = "GAME", value_parser = crate::rulebook::parse_game)]
        game: Option<&'static GameEntry>,
    },
    /// Prints a completion script for a shell: bash, zsh, fish, powershell
    /// or elvish (e.g. `deckodds completions bash > FILE` in bash's
    /// completions directory).
    Completions {
        /// The shell: bash, zsh, fish, powershell or elvish.
        #[arg(value_name = "SHELL", value_parser = parse_shell)]
        shell: Shell,
    },
    /// Prints the JSON Schema of a kind of document deckodds writes
    /// (`deckodds schema report`), lists the kinds with none, or with
    /// --dir DIR writes every kind's schema into DIR as KIND.json (as
    /// schema/ in the source holds them). Every JSON document names its
    /// kind in its first key, `"schema": "deckodds.KIND/v1"`.
    Schema {
        /// The kind of document, e.g. report or comparison; `deckodds
        /// schema` lists them.
        #[arg(value_name = "KIND")]
        kind: Option<String>,
        /// An existing directory to write every kind's schema into, as
        /// KIND.json.
        #[arg(long, value_name = "DIR", conflicts_with = "kind")]
        dir: Option<PathBuf>,
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
            Command::Blackjack(B::Player(PlayerCommand::Values {
                command: Some(player),
                ..
            })) => match player.as_ref() {
                PlayerSubcommand::Compare { sampling: s, .. } => sampling(&s.runs, None),
            },
            Command::Blackjack(B::Player(
                PlayerCommand::Table {
                    sampling: s,
                    command: None,
                    ..
                }
                | PlayerCommand::CutCardEffect { sampling: s, .. },
            )) => sampling(&s.runs, None),
            Command::Blackjack(B::Player(PlayerCommand::Table {
                command: Some(table),
                ..
            })) => match table.as_ref() {
                TableSubcommand::Compare { sampling: s, .. } => sampling(&s.runs, None),
            },
            Command::Blackjack(
                B::Exact { .. }
                | B::Eor { .. }
                | B::Player(
                    PlayerCommand::Values { command: None, .. }
                    | PlayerCommand::Strategy { .. }
                    | PlayerCommand::HouseEdge { .. }
                    | PlayerCommand::HouseEdgeGrid { .. }
                    | PlayerCommand::Indices(..)
                    | PlayerCommand::Counts(..)
                    | PlayerCommand::CountDistribution(..),
                ),
            ) => LongRunArgs::default(),
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
            })
            | Command::Klondike(K::Solve {
                runs, precision, ..
            }) => sampling(runs, Some(precision)),
            Command::RollCall(
                R::FirstPass { .. } | R::Replay { .. } | R::LongestZeroStrike { .. },
            )
            | Command::PrisonersPatience(P::Replay { .. })
            | Command::Klondike(K::Record { .. } | K::Deals { .. })
            | Command::Reproduce { .. }
            | Command::Merge { .. }
            | Command::Rules { .. }
            | Command::Completions { .. }
            | Command::Schema { .. }
            | Command::Man { .. } => LongRunArgs::default(),
        }
    }
}

/// Every option's value may start with `-` where it reads as a number
/// (`--decks -2`, `--seed -1`), so that its parser, not clap's search for
/// an unknown flag, says what is wrong with it. Set here for every option
/// of every command (through [`Cli`]'s `mut_args` and `mut_subcommands`),
/// so that no option is left out.
fn negative_numbers_are_values(arg: Arg) -> Arg {
    arg.allow_negative_numbers(true)
}

/// [`negative_numbers_are_values`] for a command's options and its
/// subcommands', all the way down.
fn negative_numbers_everywhere(command: clap::Command) -> clap::Command {
    command
        .mut_args(negative_numbers_are_values)
        .mut_subcommands(negative_numbers_everywhere)
}

/// The shells `deckodds completions` writes scripts for, by the name it
/// takes.
const SHELLS: [(&str, Shell); 5] = [
    ("bash", Shell::Bash),
    ("zsh", Shell::Zsh),
    ("fish", Shell::Fish),
    ("powershell", Shell::PowerShell),
    ("elvish", Shell::Elvish),
];

/// `completions SHELL`: one of [`SHELLS`].
fn parse_shell(text: &str) -> Result<Shell> {
    SHELLS
        .iter()
        .find(|(name, _)| *name == text.trim())
        .map(|&(_, shell)| shell)
        .ok_or_else(|| {
            let names: Vec<&str> = SHELLS.iter().map(|(name, _)| *name).collect();
            Error::invalid(
                "shell",
                text,
                format!("must be one of {}", names.join(", ")),
            )
        })
}

/// The error of a value that one of deckodds' value parsers refused, as
/// every other error reads: one line, `--decks 0: must be 1..=64 or
/// "inf"`, naming the flag (or the positional argument: `GAME poker:
/// ...`) and, from the parser, the value (or the part of it at fault:
/// `--deal Z: ...`) and what is allowed. `None` for any other clap error.
pub fn value_error(error: &clap::Error) -> Option<Error> {
    if error.kind() != ErrorKind::ValueValidation {
        return None;
    }
    let Some(Error::InvalidValue { value, allowed, .. }) =
        std::error::Error::source(error).and_then(|source| source.downcast_ref::<Error>())
    else {
        return None;
    };
    let Some(ContextValue::String(usage)) = error.get(ContextKind::InvalidArg) else {
        return None;
    };
    // `--decks <N|inf>`, `[GAME]`, `<SHELL>`: the flag, or the name.
    let first = usage.split_whitespace().next().unwrap_or(usage);
    let name = first
        .trim_start_matches(['[', '<'])
        .trim_end_matches("...")
        .trim_end_matches([']', '>']);
    Some(Error::invalid(name, value, allowed))
}

/// `error` with the parameter it names (the library's: `decks`, `suits x
/// ranks` for two refused together) replaced by the flags that set it in
/// `G`, a game's commands (`--decks`, `--suits x --ranks`), found in the
/// clap definition itself (a parameter is named as the option's field:
/// `removed` for `--remove`), so the two cannot drift apart. An error
/// naming anything else (a deck, a witness, a flag already) is returned
/// as it is.
pub fn name_flags<G: Subcommand>(error: Error) -> Error {
    let Error::InvalidValue { parameter, .. } = &error else {
        return error;
    };
    match flags_of::<G>(parameter) {
        Some(flags) => error.naming(&flags),
        None => error,
    }
}

/// The flags of `parameter` (`suits x ranks`: `--suits x --ranks`) in
/// `G`'s commands, if each part is an option there.
fn flags_of<G: Subcommand>(parameter: &str) -> Option<String> {
    let commands = G::augment_subcommands(clap::Command::new("game"));
    let flags: Option<Vec<String>> = parameter
        .split(" x ")
        .map(|part| flag_in(&commands, part))
        .collect();
    flags.map(|flags| flags.join(" x "))
}

/// The flag of the option whose id (its field's name) is `id`, in
/// `command` or its subcommands.
fn flag_in(command: &clap::Command, id: &str) -> Option<String> {
    command
        .get_arguments()
        .find(|arg| arg.get_id() == id)
        .and_then(|arg| arg.get_long())
        .map(|long| format!("--{long}"))
        .or_else(|| {
            command
                .get_subcommands()
                .find_map(|command| flag_in(command, id))
        })
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;
    use crate::engine::NoProgress;
    use crate::games::blackjack::player::house_edge::effect_of_removal as player_effect_of_removal;
    use crate::games::blackjack::player::{
        BlackjackPays, DoubleOn, PlayerParams, PlayerRules, SplitModel, Surrender, parse_hand,
        parse_upcard,
    };
    use crate::games::blackjack::{DealerParams, Decks, Scoring, dealer::effect_of_removal};
    use crate::games::idiots_delight::IdiotsDelight;
    use crate::games::klondike::{Klondike, KlondikeParams, parse_deal};
    use crate::games::prisoners_patience::{PrisonersParams, PrisonersPatience, StackMove};
    use crate::games::roll_call::{Count, PassOrder, RollCall, RollCallParams};
    use crate::rng::Shuffle;

    /// The one line a refused command line gives, as `main` prints it.
    fn refused(args: &str) -> String {
        let error = Cli::try_parse_from(args.split_whitespace()).unwrap_err();
        value_error(&error)
            .unwrap_or_else(|| panic!("{args}: not a value's error: {error}"))
            .to_string()
    }

    #[test]
    fn a_refused_value_names_its_flag_the_value_and_what_is_allowed() {
        assert_eq!(
            refused("deckodds blackjack exact --decks 0"),
            "--decks 0: must be 1..=64 or \"inf\""
        );
        // A negative number is a value, so its parser says what is wrong.
        assert_eq!(
            refused("deckodds klondike mc --trials -5"),
            "--trials -5: must be a whole number of at least 1 (e.g. 1000000, 1_000_000 or 1e6)"
        );
        assert_eq!(
            refused("deckodds --threads -2 klondike mc"),
            "--threads -2: must be 1..=1024"
        );
        // The part of the value at fault, where the parser names one.
        assert!(refused("deckodds roll-call replay --deal A,Z").starts_with("--deal Z: "));
        // A positional value is named as its usage names it.
        assert!(refused("deckodds rules poker").starts_with("GAME poker: must be one of "));
        assert!(refused("deckodds completions tcsh").starts_with("SHELL tcsh: must be one of "));
        // Any other mistake is clap's to describe.
        let error = Cli::try_parse_from(["deckodds", "klondike", "mc", "--trails", "5"]);
        assert!(value_error(&error.unwrap_err()).is_none());
    }

    #[test]
    fn values_arrive_typed() {
        let cli = Cli::try_parse_from(
            "deckodds --threads 3 blackjack compare --decks inf --trials 2_000 --seed 7 --level 0.01"
                .split_whitespace(),
        )
        .unwrap();
        assert_eq!(cli.global.threads, Some(3));
        let Command::Blackjack(BlackjackCommand::Compare {
            rules,
            sampling,
            level,
            ..
        }) = cli.command
        else {
            panic!("not blackjack compare");
        };
        assert_eq!(rules.decks, Decks::Infinite);
        assert_eq!(rules.scoring, Scoring::Correct);
        assert_eq!((sampling.trials, sampling.seed, level), (2_000, 7, 0.01));
    }

    /// Errors the games' engines return once a command runs name the
    /// parameter; each game's commands name the flag. Produced by the
    /// engines themselves, so that a parameter renamed in a game without
    /// its option (or the other way round) fails here.
    #[test]
    fn engine_errors_name_the_flags_of_the_game_that_ran() {
        fn named<G: Subcommand>(error: Error) -> String {
            name_flags::<G>(error).to_string()
        }
        let bad_shoe = DealerParams {
            decks: Decks::Infinite,
            removed: vec![5],
            ..DealerParams::default()
        };
        let infinite = DealerParams {
            decks: Decks::Infinite,
            ..DealerParams::default()
        };
        let roll_call = |ranks, copies| {
            let (count, order) = (Count::Continuous, PassOrder::Same);
            RollCall::new(RollCallParams {
                ranks,
                copies,
                count,
                order,
            })
            .unwrap_err()
        };
        let prisoners = |suits, ranks| {
            let stack_move = StackMove::Reversed;
            PrisonersPatience::new(PrisonersParams {
                suits,
                ranks,
                stack_move,
            })
            .unwrap_err()
        };
        let klondike = |draw, passes| Klondike::new(KlondikeParams { draw, passes }).unwrap_err();
        let player_rules = |max_hands, resplit_aces| PlayerRules {
            max_hands,
            resplit_aces,
            ..PlayerRules::default()
        };
        let infinite_player = PlayerParams {
            rules: PlayerRules {
                decks: Decks::Infinite,
                ..PlayerRules::default()
            },
            split_model: SplitModel::Cdz,
            removed: Vec::new(),
        };
        type B = BlackjackCommand;
        type I = IdiotsDelightCommand;
        type R = RollCallCommand;
        type P = PrisonersCommand;
        type K = KlondikeCommand;
        let cases = [
            (named::<B>(bad_shoe.shoe().unwrap_err()), "--remove 5: "),
            (
                named::<B>(effect_of_removal(&infinite).unwrap_err()),
                "--decks inf: ",
            ),
            (
                named::<B>(Scoring::parse("x").unwrap_err()),
                "--scoring x: ",
            ),
            (
                named::<I>(IdiotsDelight::new(16, 13).unwrap_err()),
                "--suits x --ranks 16x13: ",
            ),
            (
                named::<I>(Shuffle::parse("riffle").unwrap_err()),
                "--shuffle riffle: ",
            ),
            (named::<R>(roll_call(1, 4)), "--ranks 1: "),
            (named::<R>(roll_call(13, 0)), "--copies 0: "),
            (named::<R>(roll_call(13, 5)), "--ranks x --copies 13 x 5"),
            (named::<R>(Count::parse("x").unwrap_err()), "--count x: "),
            (
                named::<R>(PassOrder::parse("x").unwrap_err()),
                "--order x: ",
            ),
            (
                named::<R>(RollCall::standard().check_deal(&[1]).unwrap_err()),
                "--deal 1 cards: ",
            ),
            (named::<P>(prisoners(4, 2)), "--ranks 2: "),
            (named::<P>(prisoners(0, 13)), "--suits 0: "),
            (named::<P>(prisoners(5, 13)), "--suits x --ranks 5 x 13"),
            (
                named::<P>(StackMove::parse("x").unwrap_err()),
                "--stack-move x: ",
            ),
            (
                named::<P>(PrisonersPatience::standard().check_deal(&[1]).unwrap_err()),
                "--deal 1 cards: ",
            ),
            (
                named::<B>(player_rules(2, true).validate().unwrap_err()),
                "--resplit-aces x --max-hands yes x 2: ",
            ),
            (
                named::<B>(PlayerRules::parse_max_hands("5").unwrap_err()),
                "--max-hands 5: ",
            ),
            (
                named::<B>(BlackjackPays::parse("2:1").unwrap_err()),
                "--bj-pays 2:1: ",
            ),
            (
                named::<B>(DoubleOn::parse("8-11").unwrap_err()),
                "--double 8-11: ",
            ),
            (
                named::<B>(Surrender::parse("x").unwrap_err()),
                "--surrender x: ",
            ),
            (
                named::<B>(SplitModel::parse("x").unwrap_err()),
                "--split-model x: ",
            ),
            (named::<B>(parse_hand("AX").unwrap_err()), "--hand AX: "),
            (named::<B>(parse_upcard("1").unwrap_err()), "--upcard 1: "),
            (
                named::<B>(
                    player_effect_of_removal::<f64>(&infinite_player, &NoProgress).unwrap_err(),
                ),
                "--decks inf: ",
            ),
            (named::<K>(klondike(2, 1)), "--draw 2: "),
            (named::<K>(klondike(1, 0)), "--passes 0: "),
            (named::<K>(parse_deal("1X").unwrap_err()), "--deal 1X: "),
        ];
        for (message, prefix) in cases {
            assert!(message.starts_with(prefix), "{message}: not {prefix}");
        }
        // The comparisons' parameters, in every game that compares.
        for parameter in ["level", "hands", "hands_per_row"] {
            assert!(
                flags_of::<BlackjackCommand>(parameter).is_some(),
                "{parameter}"
            );
        }
        assert!(flags_of::<IdiotsDelightCommand>("level").is_some());
        assert!(flags_of::<RollCallCommand>("level").is_some());
        assert!(flags_of::<PrisonersCommand>("level").is_some());
        // What is no option stays as the library named it.
        let deck = Error::invalid("deck", "30 distinct cards", "too many");
        assert_eq!(
            named::<IdiotsDelightCommand>(deck),
            "deck 30 distinct cards: too many"
        );
    }

    /// The player's rule options arrive as the engine's types, the same in
    /// every player command, with RULES.md's defaults.
    #[test]
    fn player_rules_arrive_typed_with_the_rule_books_defaults() {
        let rules_of = |line: &str| -> PlayerRules {
            let cli = Cli::try_parse_from(line.split_whitespace()).unwrap();
            let solve = match cli.command {
                Command::Blackjack(BlackjackCommand::Player(
                    PlayerCommand::Values { solve, .. }
                    | PlayerCommand::Strategy { solve, .. }
                    | PlayerCommand::HouseEdge { solve, .. },
                )) => solve,
                other => panic!("{line}: {other:?}"),
            };
            solve.rules.rules().unwrap()
        };
        for command in ["player", "strategy", "house-edge"] {
            assert_eq!(
                rules_of(&format!("deckodds blackjack {command}")),
                PlayerRules::default(),
                "{command}"
            );
        }
        let rules = rules_of(
            "deckodds blackjack house-edge --decks inf --h17 --enhc --bj-pays 6:5 --double 10-11 --no-das --max-hands 3 --resplit-aces --surrender late",
        );
        assert_eq!(
            rules,
            PlayerRules {
                decks: Decks::Infinite,
                soft17: crate::games::blackjack::Soft17::Hit,
                hole_card: crate::games::blackjack::player::HoleCard::Enhc,
                blackjack_pays: BlackjackPays::SixToFive,
                double: DoubleOn::TenToEleven,
                double_after_split: false,
                max_hands: 3,
                resplit_aces: true,
                surrender: Surrender::Late,
            }
        );
        // The dealer's table keeps its own --decks: 2 by default, up to 64.
        assert!(
            Cli::try_parse_from("deckodds blackjack exact --decks 64".split_whitespace()).is_ok()
        );
        assert_eq!(
            refused("deckodds blackjack player --decks 9"),
            "--decks 9: must be 1..=8 or \"inf\""
        );
    }

    /// `player compare` samples as every Monte-Carlo command does: its
    /// trials and seed typed, its long-run options gathered for the
    /// context.
    #[test]
    fn player_compare_samples_with_the_common_options() {
        let cli = Cli::try_parse_from(
            "deckodds blackjack player compare --decks 1 --trials 2e3 --seed 7 --level 0.01 --checkpoint c.json"
                .split_whitespace(),
        )
        .unwrap();
        let long_runs = cli.command.long_run_args();
        assert_eq!(
            long_runs.run.checkpoint.as_deref(),
            Some(std::path::Path::new("c.json"))
        );
        let Command::Blackjack(BlackjackCommand::Player(PlayerCommand::Values {
            command: Some(player),
            ..
        })) = cli.command
        else {
            panic!("not player compare");
        };
        let PlayerSubcommand::Compare {
            solve,
            sampling,
            level,
            ..
        } = *player;
        assert_eq!(solve.rules.decks, Decks::Finite(1));
        assert_eq!(
            (sampling.trials, sampling.seed, level.level),
            (2_000, 7, 0.01)
        );
        // Rule options go after `compare`, not before it.
        assert!(
            Cli::try_parse_from("deckodds blackjack player --decks 1 compare".split_whitespace())
                .is_err()
        );
    }

    #[test]
    fn every_option_takes_a_negative_number_as_its_value() {
        let mut cli = Cli::command();
        cli.build();
        fn check(command: &clap::Command) {
            let values = command
                .get_arguments()
                .filter(|arg| arg.get_action().takes_values());
            for arg in values {
                assert!(
                    arg.is_allow_negative_numbers_set(),
                    "{} {}",
                    command.get_name(),
                    arg.get_id()
                );
            }
            command
                .get_subcommands()
                .filter(|command| command.get_name() != "help")
                .for_each(check);
        }
        check(&cli);
    }
}
