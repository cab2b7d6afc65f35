//! The Klondike solver's per-deal core: 20 fixed random deals of the
//! thoughtful game (draw 3, unlimited passes), each solved with a node
//! budget so that the hard ones cost a bounded time.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use deckodds::cards::Card;
use deckodds::games::klondike::free_play::FreePlayRules;
use deckodds::games::klondike::solve::{SolveBudget, Solver};
use deckodds::games::klondike::sorted_deck;
use deckodds::rng::{shuffle, stream_rng};

/// Deals 0..20 of the measurements' stream (seed 1, stream 0).
fn deals() -> Vec<[Card; 52]> {
    (0..20)
        .map(|i| {
            let mut deal = sorted_deck();
            shuffle(&mut stream_rng(1, 0, i), &mut deal);
            deal
        })
        .collect()
}

fn thoughtful_deals(c: &mut Criterion) {
    let deals = deals();
    let budget = SolveBudget {
        max_nodes: 100_000,
        max_time: None,
    };
    let mut solver = Solver::new(FreePlayRules::THOUGHTFUL);
    // The work measured, printed once so that a time can be read as a
    // rate (the states depend only on the solver, not on the machine).
    let states: u64 = deals
        .iter()
        .map(|deal| solver.solve(deal, &budget).unwrap().nodes)
        .sum();
    eprintln!("klondike_solve: {states} states searched per iteration");
    let mut group = c.benchmark_group("klondike_solve");
    group.sample_size(10);
    group.throughput(Throughput::Elements(deals.len() as u64));
    group.bench_function("20 thoughtful deals, 100k nodes each", |b| {
        b.iter(|| {
            let mut nodes = 0;
            for deal in &deals {
                nodes += solver.solve(black_box(deal), &budget).unwrap().nodes;
            }
            nodes
        })
    });
    group.finish();
}

criterion_group!(benches, thoughtful_deals);
criterion_main!(benches);
