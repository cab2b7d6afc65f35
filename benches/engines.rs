//! Criterion benchmarks of the engines. Speed lives here, never in timed
//! tests. Run with `cargo bench --features bench --bench engines`; README reports the figures.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use deckodds::cards::DeckSpec;
use deckodds::engine::NoProgress;
use deckodds::engine::SequentialGame;
use deckodds::engine::Simulation;
use deckodds::games::blackjack::dealer::dealer_table;
use deckodds::games::blackjack::player::{
    PlayerParams, PlayerRules, SplitModel, Surrender, solve_exact, solve_float,
};
use deckodds::games::blackjack::{DealerParams, DealerSimulation, Decks, Soft17};
use deckodds::games::idiots_delight::{IdiotsDelight, IdiotsDelightSimulation};
use deckodds::games::klondike::{Klondike, KlondikeParams, KlondikeSimulation};
use deckodds::games::prisoners_patience::{
    PrisonersParams, PrisonersPatience, PrisonersSimulation, StackMove,
};
use deckodds::games::roll_call::{
    Count, Kernel, PassOrder, RollCall, RollCallParams, RollCallSimulation, Silent,
};
use deckodds::rng::{Shuffle, shuffle, stream_rng};
use rand::seq::SliceRandom;
use rayon::prelude::*;

/// The full exact 10-upcard table; the target is at most 1 ms for 8 decks
/// H17 on one core.
fn exact_dealer_table(c: &mut Criterion) {
    let mut group = c.benchmark_group("exact dealer table (10 upcards)");
    for (name, decks, soft17) in [
        ("8 decks H17", Decks::Finite(8), Soft17::Hit),
        ("2 decks S17", Decks::Finite(2), Soft17::Stand),
        ("infinite H17", Decks::Infinite, Soft17::Hit),
    ] {
        let params = DealerParams {
            decks,
            soft17,
            ..DealerParams::default()
        };
        group.bench_function(name, |b| b.iter(|| dealer_table(black_box(&params))));
    }
    group.finish();
}

/// Monte-Carlo dealer hands on one core, fresh shoe per hand; the target is
/// at least 20 million hands per second.
fn monte_carlo_dealer_hands(c: &mut Criterion) {
    const HANDS: u64 = 100_000;
    let mut group = c.benchmark_group("monte-carlo dealer hands (one core)");
    group.throughput(Throughput::Elements(HANDS));
    for (name, decks, upcard) in [
        ("8 decks H17, upcard 6", Decks::Finite(8), 6),
        ("2 decks S17, upcard A", Decks::Finite(2), 1),
        ("infinite H17, upcard 2", Decks::Infinite, 2),
    ] {
        let params = DealerParams {
            decks,
            soft17: if name.contains("H17") {
                Soft17::Hit
            } else {
                Soft17::Stand
            },
            ..DealerParams::default()
        };
        let simulation = DealerSimulation::new(&params, upcard).expect("valid parameters");
        let mut rng = stream_rng(1, 0, 0);
        let mut scratch = simulation.new_scratch();
        let mut counts = vec![0u64; simulation.n_bins()];
        group.bench_function(name, |b| {
            b.iter(|| {
                for _ in 0..HANDS {
                    simulation.trial(&mut rng, &mut scratch, &mut counts);
                }
            })
        });
    }
    group.finish();
}

/// A bare 52-card shuffle: ours (Fisher-Yates with Lemire bounded integers)
/// against rand's `shuffle`, the baseline every game's cost is compared to.
fn shuffle_52(c: &mut Criterion) {
    let mut group = c.benchmark_group("shuffle 52 cards");
    let mut cards = DeckSpec::STANDARD.sorted_cards();
    let mut rng = stream_rng(1, 0, 0);
    group.bench_function("deckodds::rng::shuffle", |b| {
        b.iter(|| shuffle(&mut rng, black_box(&mut cards)))
    });
    group.bench_function("rand SliceRandom::shuffle", |b| {
        b.iter(|| black_box(&mut cards).shuffle(&mut rng))
    });
    group.finish();
}

/// 52-card Idiot's Delight games on one core, shuffle included, exactly as
/// the Monte-Carlo runner plays them (`Simulation::trials`: eight games side
/// by side); the target is at least 5 million games per second.
fn idiots_delight_games(c: &mut Criterion) {
    const GAMES: u64 = 100_000;
    let mut group = c.benchmark_group("idiots delight 52-card games (one core)");
    group.throughput(Throughput::Elements(GAMES));
    let game = IdiotsDelight::standard();
    for shuffle in Shuffle::ALL {
        let simulation = IdiotsDelightSimulation::new(game, shuffle);
        let mut rng = stream_rng(1, 0, 0);
        let mut lanes = simulation.new_scratch();
        let mut counts = vec![0u64; simulation.n_bins()];
        group.bench_function(format!("{} shuffle + play", shuffle.name()), |b| {
            b.iter(|| simulation.trials(&mut rng, &mut lanes, GAMES, &mut counts))
        });
    }
    // The same games one at a time (one lane): what playing eight side by
    // side gains.
    let simulation = IdiotsDelightSimulation::new(game, Shuffle::Uniform);
    let mut rng = stream_rng(1, 0, 0);
    let mut lanes = simulation.new_scratch();
    let mut counts = vec![0u64; simulation.n_bins()];
    group.bench_function("uniform shuffle + play, one game at a time", |b| {
        b.iter(|| {
            for _ in 0..GAMES {
                simulation.trial(&mut rng, &mut lanes, &mut counts);
            }
        })
    });
    // The exact enumerators' driver, dealing one card at a time, on one
    // shuffled deck replayed (so its branches are learnt: a lower bound).
    let mut rng = stream_rng(2, 0, 0);
    let mut deck = DeckSpec::STANDARD.sorted_cards();
    shuffle(&mut rng, &mut deck);
    group.bench_function(
        "deal one card at a time, play only, one deck replayed",
        |b| {
            b.iter(|| {
                let mut left = 0usize;
                for _ in 0..GAMES {
                    left += game.play(black_box(&deck));
                }
                left
            })
        },
    );
    group.finish();
}

/// 52-card Roll-Call games on one core, shuffle included, every version
/// reported at once (the Monte-Carlo runner's trial, exactly); the target
/// is at least 2 million games per second.
fn roll_call_games(c: &mut Criterion) {
    const GAMES: u64 = 100_000;
    let mut group = c.benchmark_group("roll-call 52-card games (one core)");
    group.throughput(Throughput::Elements(GAMES));
    for (count, order) in [
        (Count::Continuous, PassOrder::Same),
        (Count::Continuous, PassOrder::Reversed),
        (Count::Restart, PassOrder::Same),
    ] {
        let game = RollCall::new(RollCallParams {
            count,
            order,
            ..RollCallParams::default()
        })
        .expect("a valid version");
        let simulation = RollCallSimulation::new(game);
        let mut rng = stream_rng(1, 0, 0);
        let mut deck = simulation.new_scratch();
        let mut counts = vec![0u64; simulation.n_bins()];
        let name = format!("count {}, order {}", count.name(), order.name());
        group.bench_function(name, |b| {
            b.iter(|| simulation.trials(&mut rng, &mut deck, GAMES, &mut counts))
        });
    }
    group.finish();
}

/// The standard Roll-Call game with each pass kernel this CPU has (the
/// runner uses the fastest), shuffle and tally included as in the runner.
fn roll_call_kernels(c: &mut Criterion) {
    const GAMES: u64 = 100_000;
    let mut group = c.benchmark_group("roll-call 52-card games by kernel (one core)");
    group.throughput(Throughput::Elements(GAMES));
    let game = RollCall::standard();
    let tally = RollCallSimulation::new(game).tally();
    for kernel in Kernel::ALL {
        if !kernel.available() {
            eprintln!(
                "kernel {} skipped: this CPU does not have it",
                kernel.name()
            );
            continue;
        }
        let mut rng = stream_rng(1, 0, 0);
        let mut deck = game.sorted_ranks();
        let mut counts = vec![0u64; tally.n_bins()];
        group.bench_function(kernel.name(), |b| {
            b.iter(|| {
                for _ in 0..GAMES {
                    shuffle(&mut rng, &mut deck);
                    tally.add(&game.play_using(kernel, &deck, &mut Silent), &mut counts);
                }
            })
        });
    }
    group.finish();
}

/// 52-card games of Prisoner's patience on one core, shuffle included (the
/// Monte-Carlo runner's trial, exactly); the target is at least 1 million
/// games per second.
fn prisoners_patience_games(c: &mut Criterion) {
    const GAMES: u64 = 100_000;
    let mut group = c.benchmark_group("prisoners-patience 52-card games (one core)");
    group.throughput(Throughput::Elements(GAMES));
    for stack_move in [StackMove::Reversed, StackMove::Kept] {
        let game = PrisonersPatience::new(PrisonersParams {
            stack_move,
            ..PrisonersParams::default()
        })
        .expect("a valid version");
        let simulation = PrisonersSimulation::new(game);
        let mut rng = stream_rng(1, 0, 0);
        let mut deck = simulation.new_scratch();
        let mut counts = vec![0u64; simulation.n_bins()];
        let name = format!("stack move {}", stack_move.name());
        group.bench_function(name, |b| {
            b.iter(|| simulation.trials(&mut rng, &mut deck, GAMES, &mut counts))
        });
    }
    group.finish();
}

/// 52-card games of Klondike by the fixed policy on one core, shuffle
/// included (the Monte-Carlo runner's trial, exactly); the target is at
/// least 0.5 million games per second for the exercise's rules.
fn klondike_games(c: &mut Criterion) {
    const GAMES: u64 = 20_000;
    let mut group = c.benchmark_group("klondike 52-card games (one core)");
    group.throughput(Throughput::Elements(GAMES));
    for (draw, passes) in [(1, 1), (3, 1), (1, 3)] {
        let game = Klondike::new(KlondikeParams { draw, passes }).expect("valid rules");
        let simulation = KlondikeSimulation::new(game);
        let mut rng = stream_rng(1, 0, 0);
        let mut deck = simulation.new_scratch();
        let mut counts = vec![0u64; simulation.n_bins()];
        let name = format!("draw {draw}, {passes} pass(es)");
        group.bench_function(name, |b| {
            b.iter(|| simulation.trials(&mut rng, &mut deck, GAMES, &mut counts))
        });
    }
    group.finish();
}

/// The blackjack player solver (RULES.md section 6): every hand's values
/// and the round's value for 6 decks, S17, DAS, re-split to 4 hands (the
/// default rules, `cdz`) on one core; the targets are at most 100 ms in
/// `f64` and at most 30 s exactly. Exact 1 deck for comparison.
fn blackjack_player(c: &mut Criterion) {
    let one_core = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread pool");
    let rules_for = |decks| PlayerParams {
        rules: PlayerRules {
            decks: Decks::Finite(decks),
            ..PlayerRules::default()
        },
        split_model: SplitModel::Cdz,
        removed: Vec::new(),
    };
    let mut group = c.benchmark_group("blackjack_player");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    let six_decks = rules_for(6);
    group.measurement_time(Duration::from_secs(5));
    group.bench_function("float_6_decks", |b| {
        b.iter(|| one_core.install(|| solve_float(black_box(&six_decks), &NoProgress)))
    });
    let one_deck = rules_for(1);
    group.measurement_time(Duration::from_secs(40));
    group.bench_function("exact_1_deck", |b| {
        b.iter(|| one_core.install(|| solve_exact(black_box(&one_deck), &NoProgress)))
    });
    group.measurement_time(Duration::from_secs(120));
    group.bench_function("exact_6_decks", |b| {
        b.iter(|| one_core.install(|| solve_exact(black_box(&six_decks), &NoProgress)))
    });
    group.finish();
}

/// The publication grid in `f64`: decks 1, 2, 4, 6, 8 x S17/H17 x DAS/no
/// DAS x no/late surrender (peek, 3:2, re-split to 4, no re-split of aces),
/// on every core (rayon over the rule sets and inside each). The issue
/// counts the grid as 80 rule sets and sets under a minute on two cores;
/// the product it lists is 40, measured here (80 would take twice as long).
fn blackjack_player_grid(c: &mut Criterion) {
    let mut grid = Vec::new();
    for decks in [1, 2, 4, 6, 8] {
        for soft17 in [Soft17::Stand, Soft17::Hit] {
            for double_after_split in [true, false] {
                for surrender in [Surrender::None, Surrender::Late] {
                    grid.push(PlayerParams {
                        rules: PlayerRules {
                            decks: Decks::Finite(decks),
                            soft17,
                            double_after_split,
                            surrender,
                            ..PlayerRules::default()
                        },
                        split_model: SplitModel::Cdz,
                        removed: Vec::new(),
                    });
                }
            }
        }
    }
    assert_eq!(grid.len(), 5 * 2 * 2 * 2);
    let mut group = c.benchmark_group("blackjack_player");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(30));
    group.bench_function("float_grid_40_rule_sets_all_cores", |b| {
        b.iter(|| {
            grid.par_iter()
                .map(|params| solve_float(params, &NoProgress).map(|table| table.overall))
                .collect::<Vec<_>>()
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    exact_dealer_table,
    monte_carlo_dealer_hands,
    shuffle_52,
    idiots_delight_games,
    roll_call_games,
    roll_call_kernels,
    prisoners_patience_games,
    klondike_games,
    blackjack_player,
    blackjack_player_grid,
    blackjack_round_simulation,
    blackjack_table_simulation,
    blackjack_indices
);
criterion_main!(benches);

/// Monte-Carlo blackjack rounds on one core (RULES.md section 6: 6 decks,
/// S17, DAS, re-split to 4, the solved table's decisions), each dealt
/// off the top of the full shoe: the runner's trial, exactly.
fn blackjack_round_simulation(c: &mut Criterion) {
    use deckodds::engine::NoProgress;
    use deckodds::games::blackjack::player::round::RoundSimulation;
    use deckodds::games::blackjack::player::{PlayerParams, PlayerRules, SplitModel, solve_float};

    const ROUNDS: u64 = 100_000;
    let params = PlayerParams::full_shoe(PlayerRules::default(), SplitModel::Cdz);
    let table = solve_float(&params, &NoProgress).expect("valid rules");
    let simulation = RoundSimulation::new(&table).expect("a cdz table of a full shoe");
    let mut rng = stream_rng(1, 0, 0);
    let mut shoe = simulation.new_scratch();
    let mut counts = vec![0u64; simulation.n_bins()];
    let mut group = c.benchmark_group("blackjack_player");
    group.throughput(Throughput::Elements(ROUNDS));
    group.bench_function("round_simulation", |b| {
        b.iter(|| simulation.trials(&mut rng, &mut shoe, ROUNDS, &mut counts))
    });
    group.finish();
}

/// Blackjack at the table on one core: 6 decks (RULES.md section 6
/// defaults), the exact engine's composition-dependent decisions from a
/// lookup table, rounds dealt down the shoe to a cut card at 75% (a trial
/// is a shoe, about 43 rounds), with and without a hi-lo count, and with
/// the count betting a 1-12 ramp (issue 46), and the counter's whole game:
/// the basic chart with the Illustrious 18 played by the count and the
/// ramp; and one round per shoe. Throughput in rounds.
fn blackjack_table_simulation(c: &mut Criterion) {
    use deckodds::engine::NoProgress;
    use deckodds::games::blackjack::player::chart::strategy_chart;
    use deckodds::games::blackjack::player::{PlayerParams, PlayerRules, SplitModel, solve_float};
    use deckodds::games::blackjack::table::{
        BetRamp, BettingPlan, ChartStrategy, Dealing, IndexPlays, TableSimulation, Wonging,
    };

    const ROUNDS: u64 = 100_000;
    let rules = PlayerRules::default();
    let params = PlayerParams::full_shoe(rules, SplitModel::Cdz);
    let table = solve_float(&params, &NoProgress).expect("valid rules");
    let cards = rules.shoe().total();
    let hi_lo = [-1, 1, 1, 1, 1, 1, 0, 0, 0, -1];
    let mut group = c.benchmark_group("blackjack_table");
    group.throughput(Throughput::Elements(ROUNDS));
    let ramp = BettingPlan {
        ramp: BetRamp::parse("<=1:1,2:2,3:4,4:8,>=5:12").expect("a ramp"),
        wonging: Wonging::default(),
    };
    for (name, dealing, tags, betting) in [
        (
            "cut_card_75",
            Dealing::cut_card(0.75, cards).unwrap(),
            None,
            None,
        ),
        (
            "cut_card_75_hi_lo",
            Dealing::cut_card(0.75, cards).unwrap(),
            Some(hi_lo),
            None,
        ),
        (
            "cut_card_75_hi_lo_ramp_1_12",
            Dealing::cut_card(0.75, cards).unwrap(),
            Some(hi_lo),
            Some(ramp),
        ),
        (
            "one_round_per_shoe",
            Dealing::rounds_per_shoe(1, cards).unwrap(),
            None,
            None,
        ),
    ] {
        let simulation = TableSimulation::with_table(&table, dealing, tags).expect("a table");
        let simulation = match betting {
            Some(plan) => simulation.with_betting(plan).expect("a counted table"),
            None => simulation,
        };
        bench_table(&mut group, name, &simulation, ROUNDS);
    }
    // Schlesinger's Illustrious 18 for hi-lo (multi-deck S17 DAS).
    let illustrious_18 = IndexPlays::parse_csv(
        "section,row,upcard,deviation,direction,index\n\
         insurance,,A,I,>=,3\nhard,16,T,S,>=,0\nhard,15,T,S,>=,4\npairs,TT,5,P,>=,5\n\
         pairs,TT,6,P,>=,4\nhard,10,T,D,>=,4\nhard,12,3,S,>=,2\nhard,12,2,S,>=,3\n\
         hard,11,A,D,>=,1\nhard,9,2,D,>=,1\nhard,10,A,D,>=,4\nhard,9,7,D,>=,3\n\
         hard,16,9,S,>=,5\nhard,13,2,H,<,-1\nhard,12,4,H,<,0\nhard,12,5,H,<,-2\n\
         hard,12,6,H,<,-1\nhard,13,3,H,<,-2\n",
    )
    .expect("an index file");
    let chart = ChartStrategy::from_chart(&strategy_chart(&table).expect("a chart"))
        .expect("basic strategy");
    let counter = TableSimulation::with_chart(
        rules,
        &chart,
        Dealing::cut_card(0.75, cards).unwrap(),
        Some(hi_lo),
    )
    .expect("a table")
    .with_index_plays(illustrious_18, &chart)
    .expect("a counted table")
    .with_betting(BettingPlan {
        ramp: BetRamp::parse("<=1:1,2:2,3:4,4:8,>=5:12").expect("a ramp"),
        wonging: Wonging::default(),
    })
    .expect("a counted table");
    bench_table(
        &mut group,
        "cut_card_75_hi_lo_i18_ramp_1_12",
        &counter,
        ROUNDS,
    );
    group.finish();
}

/// One case of the table group: `rounds` rounds (whole shoes) a sample.
fn bench_table(
    group: &mut criterion::BenchmarkGroup<criterion::measurement::WallTime>,
    name: &str,
    simulation: &deckodds::games::blackjack::table::TableSimulation,
    rounds: u64,
) {
    let shoes = simulation.shoes_for_rounds(rounds);
    let mut rng = stream_rng(1, 0, 0);
    let mut scratch = simulation.new_scratch();
    let mut counts = vec![0u64; simulation.n_bins()];
    group.bench_function(name, |b| {
        b.iter(|| simulation.trials(&mut rng, &mut scratch, shoes, &mut counts))
    });
}

/// Index plays (RULES.md section 6, "Index plays"): hi-lo, 6 decks, S17,
/// DAS, 75 %, the decisions of the Illustrious 18 and the Fab 4 valued at
/// every round of 8 shoes, on one core (about 340 rounds, each valuing
/// the dealer's outcomes for some 1,900 shoes). `blackjack indices` at its
/// defaults deals about 2,500 such shoes, most of them watching a few
/// decisions near their index.
fn blackjack_indices(c: &mut Criterion) {
    use deckodds::engine::NoProgress;
    use deckodds::games::blackjack::player::chart::strategy_chart;
    use deckodds::games::blackjack::player::{PlayerParams, PlayerRules, SplitModel, solve_float};
    use deckodds::games::blackjack::table::indices::{IndexFinder, IndexParams, lists};
    use deckodds::games::blackjack::table::{ChartStrategy, CountSystem, Dealing};

    let one_core = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread pool");
    let rules = PlayerRules::default();
    let solved = solve_float(
        &PlayerParams::full_shoe(rules, SplitModel::Cdz),
        &NoProgress,
    )
    .expect("valid rules");
    let chart = ChartStrategy::from_chart(&strategy_chart(&solved).expect("a chart"))
        .expect("the solver's chart reads back");
    let finder = IndexFinder::new(
        IndexParams {
            rules,
            tags: CountSystem::parse("hi-lo").expect("hi-lo").tags,
            dealing: Dealing::cut_card(0.75, rules.shoe().total()).expect("75 %"),
            decisions: lists::decisions(),
            seed: 1,
        },
        &chart,
    )
    .expect("a finder");
    let plan = finder.everything(8, 0);
    let mut group = c.benchmark_group("blackjack indices (one core)");
    group.sample_size(10);
    group.throughput(Throughput::Elements(plan.n_shoes()));
    group.bench_function("I18 and Fab 4 decisions, every round of 8 shoes", |b| {
        b.iter(|| one_core.install(|| finder.run(black_box(&plan), &NoProgress)))
    });
    group.finish();
}
