//! The bot protocol never sends a program what its seat may not see (Galespiel's secret cycle
//! order), and the requests it sends can be answered by Colosseum's own engine.

use colosseum_ai::protocol::{self, Request};
use colosseum_ai::{seat_history, Observation, RandomBot};
use colosseum_engine::{
    parse_pairs, seeded_rng, AnyGame, Erased, Game, Pending, RawOptions, Seat, SeededRng, Step,
    TextStep, Viewer,
};
use colosseum_games::galespiel::{Galespiel, PrizeOrder};
use rand::seq::SliceRandom;

/// The request line for `seat`, as a host builds it.
fn request_line(game: &Galespiel, steps: &[TextStep], seat: Seat, options: &RawOptions) -> String {
    let history = seat_history(game, steps, seat);
    let mut request: Request = protocol::request(&Observation::new(game, seat, &history), options);
    request.game = "galespiel".to_string();
    serde_json::to_string(&request).unwrap()
}

/// `steps` with the chance step at `c` replaced by `order`, replayed from the start, with what
/// `seat` saw after each step from `c` on; `None` if they do not replay.
fn replay_with(
    options: &RawOptions,
    steps: &[TextStep],
    c: usize,
    order: PrizeOrder,
    seat: Seat,
) -> Option<(Galespiel, Vec<TextStep>, Vec<String>)> {
    let mut game = Erased(Galespiel::from_raw(options).unwrap());
    let mut changed = steps.to_vec();
    changed[c] = TextStep::chance(game.0.format_chance(&order));
    let mut seen = Vec::new();
    for (k, step) in changed.iter().enumerate() {
        game.apply(step).ok()?;
        if k >= c {
            seen.push(serde_json::to_string(&game.0.view(Viewer::Seat(seat))).unwrap());
        }
    }
    Some((game.0, changed, seen))
}

/// Plays random games; at every decision, the request for each acting seat (1) is identical for
/// every cycle order under which the seat would have seen exactly the same views since the order
/// was drawn (so the request cannot hold the prizes the seat has not seen), and (2) is answered
/// by the engine side, which follows the masked steps to the view sent.
#[test]
fn galespiel_requests_never_hold_hidden_chance_outcomes() {
    let mut alternatives_with_other_orders = 0;
    let mut requests = 0;
    for (options, games) in [
        (RawOptions::new(), 2u64),
        (parse_pairs(["items=elder-tree"]).unwrap(), 2),
    ] {
        for seed in 0..games {
            let mut rng: SeededRng = seeded_rng(seed);
            let mut game = Galespiel::from_raw(&options).unwrap();
            let mut steps: Vec<TextStep> = Vec::new();
            while game.pending() != Pending::Over && steps.len() < 70 {
                let pending = game.pending();
                for &seat in pending.seats() {
                    let line = request_line(&game, &steps, seat, &options);
                    requests += 1;
                    // (1) Other orders of the current cycle that give the seat the same view.
                    let c = steps.iter().rposition(|s| s.chance.is_some()).unwrap();
                    let real = game
                        .parse_chance(steps[c].chance.as_ref().unwrap())
                        .unwrap();
                    let (_, _, seen) = replay_with(&options, &steps, c, real, seat).unwrap();
                    for _ in 0..3 {
                        let mut other = real;
                        other.0.shuffle(&mut rng);
                        // Orders under which the seat would have seen exactly the same views
                        // since this cycle's order was drawn.
                        let Some((alt, alt_steps, alt_seen)) =
                            replay_with(&options, &steps, c, other, seat)
                        else {
                            continue;
                        };
                        if alt_seen != seen {
                            continue;
                        }
                        if other != real {
                            alternatives_with_other_orders += 1;
                        }
                        assert_eq!(
                            request_line(&alt, &alt_steps, seat, &options),
                            line,
                            "seed {seed}: the request for {seat} depends on prizes it has not seen"
                        );
                    }
                    // (2) The engine side follows the masked steps to the same view and answers.
                    let mut output = Vec::new();
                    let answered = protocol::serve(
                        &|raw: &RawOptions| Galespiel::from_raw(raw).map_err(|e| e.to_string()),
                        &mut RandomBot,
                        &mut format!("{line}\n").as_bytes(),
                        &mut output,
                        &mut seeded_rng(1),
                    )
                    .unwrap();
                    assert_eq!(answered, 1, "{}", String::from_utf8_lossy(&output));
                }
                let step = match pending {
                    Pending::Chance => Step::Chance(game.sample_chance(&mut rng).unwrap()),
                    Pending::Both => Step::Both {
                        p1: game.random_move(Seat::P1, &mut rng).unwrap(),
                        p2: game.random_move(Seat::P2, &mut rng).unwrap(),
                    },
                    Pending::One(seat) => Step::One {
                        seat,
                        mv: game.random_move(seat, &mut rng).unwrap(),
                    },
                    Pending::Over => unreachable!(),
                };
                steps.push(colosseum_ai::arena::text_step(&game, &step));
                game.apply(step).unwrap();
            }
        }
    }
    assert!(requests > 100, "{requests} requests");
    assert!(
        alternatives_with_other_orders > 50,
        "only {alternatives_with_other_orders} hidden alternatives were tried"
    );
}
