//! All-In Goofspiel's bot hooks: its candidate plays, the modelled face-down play, the playouts.

use colosseum_engine::{Game, Pending, Seat, SeededRng};
use colosseum_games::all_in_goofspiel::{self, AllInGoofspiel, Play};
use rand::seq::{IndexedRandom, SliceRandom};
use rand::Rng;

use crate::{BotGame, Observation};

/// All-In Goofspiel: win rounds cheaply, go all-in when it reaches 28.
impl BotGame for AllInGoofspiel {
    const HAS_HEURISTIC: bool = true;
    const HIDDEN_INFORMATION: bool = true;
    const PURIFY: f64 = 0.5;
    /// Half the budget (`mcts:hard` 15,000 iterations): candidates are listed by strength.
    const SEARCH_SCALE: f64 = 0.5;

    fn heuristic_description() -> &'static str {
        "goes all-in (whole hand, largest number) when winning the round reaches 28; otherwise as starter puts down a few high cards in valuable rounds, as responder answers a short play with one card more, lets a long one (4+ cards) go, and beats a play of no cards with its lowest card"
    }

    /// Plays that make sense, by count and strength ([`all_in_candidates`]), plus the
    /// heuristic's choice: no widening, since random card lists are nearly all nonsense.
    fn search_moves(&self, seat: Seat, rng: &mut SeededRng, out: &mut Vec<Play>) {
        all_in_candidates(self, seat, out);
        if self.pending() == Pending::One(seat) {
            let mv = Self::heuristic_move(&Observation::new(self, seat, &[]), rng);
            if !out.contains(&mv) {
                out.push(mv);
            }
        }
    }

    /// Playouts mix the heuristic ([`ALL_IN_ROLLOUT_HEURISTIC`] of the moves) with the
    /// candidate plays: random card lists almost never empty a hand at 28 points, so playouts of
    /// them nearly all end in a draw and carry no signal. (Playouts run on determinized states,
    /// so the heuristic's observation is of a sample.)
    fn rollout_move(&self, seat: Seat, rng: &mut SeededRng) -> Option<Play> {
        if self.pending() != Pending::One(seat) {
            return None;
        }
        if rng.random_bool(ALL_IN_ROLLOUT_HEURISTIC) {
            Some(Self::heuristic_move(
                &Observation::new(self, seat, &[]),
                rng,
            ))
        } else {
            let mut candidates = Vec::new();
            all_in_candidates(self, seat, &mut candidates);
            candidates.choose(rng).copied()
        }
    }

    fn fill_withheld(
        &self,
        seat: Seat,
        view: &serde_json::Value,
        rng: &mut SeededRng,
    ) -> Option<Play> {
        let count = view["current"]["face_down_count"].as_u64()? as usize;
        let mut cards: Vec<i8> = self.hand(seat).iter().collect();
        if count > cards.len() {
            return None;
        }
        cards.shuffle(rng);
        Play::new(&cards[..count])
    }

    /// The starter's heuristic play, worked out from the position before it put its cards down,
    /// when it has as many cards as the ones face down.
    fn model_withheld(&self, seat: Seat, rng: &mut SeededRng) -> Option<Self> {
        let starter = self.starter();
        if starter == seat || self.face_down_count().is_none() {
            return None;
        }
        let before = self.before_face_down();
        let play = Self::heuristic_move(&Observation::new(&before, starter, &[]), rng);
        self.with_face_down(play)
    }

    /// The position before the starter's face-down cards, with the starter's candidates of
    /// the same count ([`all_in_candidates`] and its heuristic's play, as at every node) and
    /// [`ALL_IN_WITHHELD_RANDOM`] random lists of that count from its hand (hands are public,
    /// so the position is the same in every determinization).
    fn withheld_root(&self, seat: Seat, rng: &mut SeededRng, out: &mut Vec<Play>) -> Option<Self> {
        let starter = self.starter();
        if starter == seat {
            return None;
        }
        let count = self.face_down_count()?;
        let before = self.before_face_down();
        let mut candidates = Vec::new();
        before.search_moves(starter, rng, &mut candidates);
        for play in candidates {
            if play.len() == count && !out.contains(&play) {
                out.push(play);
            }
        }
        let mut cards: Vec<i8> = before.hand(starter).iter().collect();
        if count <= cards.len() {
            for _ in 0..ALL_IN_WITHHELD_RANDOM {
                cards.shuffle(rng);
                if let Some(play) = Play::new(&cards[..count]) {
                    if !out.contains(&play) {
                        out.push(play);
                    }
                }
            }
        }
        Some(before)
    }

    fn heuristic_move(observation: &Observation<'_, Self>, _: &mut SeededRng) -> Play {
        let seat = observation.seat();
        let view = observation.view();
        let Some(current) = view.current else {
            return Play::PASS;
        };
        let (hand, points) = match seat {
            Seat::P1 => (&view.hands.p1, view.points.p1.as_f64()),
            Seat::P2 => (&view.hands.p2, view.points.p2.as_f64()),
        };
        let worth = f64::from(current.worth);
        let mut high: Vec<i8> = hand.iter().copied().filter(|&c| c >= 0).collect();
        all_in_goofspiel::order_for_largest(&mut high);
        let negatives: Vec<i8> = hand.iter().copied().filter(|&c| c < 0).collect();
        let whole = || {
            let mut cards = high.clone();
            cards.extend(negatives.iter().copied());
            Play::new(&cards).unwrap_or(Play::PASS)
        };
        if points + worth >= f64::from(all_in_goofspiel::WINNING_POINTS) {
            // Winning this round ends the game: only an empty hand wins it.
            return whole();
        }
        let their_hand = match seat {
            Seat::P1 => &view.hands.p2,
            Seat::P2 => &view.hands.p1,
        };
        let their_count = if current.starter == seat {
            None
        } else {
            current.face_down_count.map(usize::from)
        };
        if their_hand.is_empty() || their_count == Some(0) {
            // They make 0: any positive number takes the round, so spend the lowest card.
            if let Some(&low) = high.iter().filter(|&&c| c > 0).min() {
                return Play::new(&[low]).unwrap_or(Play::PASS);
            }
        }
        if their_count.is_some_and(|k| k >= 4) {
            // Chasing a long number costs too many cards: let the round go.
            return Play::PASS;
        }
        let count = if current.starter == seat {
            // A few cards in valuable rounds, one otherwise; dump a negative card in round 1.
            if current.round == 1 && !negatives.is_empty() {
                return Play::new(&negatives[..1]).unwrap_or(Play::PASS);
            }
            (current.round as usize).div_ceil(3)
        } else {
            usize::from(current.face_down_count.unwrap_or(0)) + 1
        };
        // Spend the middling cards (keep the hand balanced): skip the largest one or two.
        let count = count.min(high.len());
        if count == 0 {
            return Play::PASS;
        }
        let skip = if high.len() > count + 2 { 1 } else { 0 };
        Play::new(&high[skip..skip + count]).unwrap_or(Play::PASS)
    }
}

/// The share of All-In Goofspiel's playout moves that are the heuristic's (the rest a random
/// candidate play, [`all_in_candidates`]). Half, before: most candidates put down many cards, so
/// playouts emptied both hands within a few rounds and taught the search that spending its best
/// cards early costs nothing: against the heuristic, `hard` spent 12, 11 and 10 together in
/// round 1 (worth 1 point) in 8 of 30 games, and 5 of its 9 losses were among them. At 0.9
/// `hard` won 20 of 20 against the heuristic (the same seeds: 13 wins, 1 draw at 0.5).
const ALL_IN_ROLLOUT_HEURISTIC: f64 = 0.9;

/// How many random lists of the face-down count join the starter's candidates where search
/// answers a face-down play ([`BotGame::withheld_root`]): the starter's regret matching weighs
/// them against the sensible plays, so the belief is not limited to what the candidates cover.
const ALL_IN_WITHHELD_RANDOM: usize = 6;

/// The strongest `k`-card number from `cards` (non-negative ones): two-digit cards first, then
/// the highest, arranged for the largest number.
fn all_in_strongest(nonnegative: &[i8], k: usize) -> Vec<i8> {
    let mut by_strength = nonnegative.to_vec();
    by_strength.sort_by_key(|&c| std::cmp::Reverse((c >= 10, c)));
    let mut chosen = by_strength[..k.min(by_strength.len())].to_vec();
    all_in_goofspiel::order_for_largest(&mut chosen);
    chosen
}

/// All-In Goofspiel's search candidates for `seat`: pass; every card alone; for every count,
/// the strongest number and the strongest with the negative cards dumped after it; the cheapest
/// one to four cards; the negatives alone; and, for a responder, the cheapest play of the fewest
/// cards that beats anything the starter can have made with its count (alone and with the
/// negatives after it).
pub(crate) fn all_in_candidates(state: &AllInGoofspiel, seat: Seat, out: &mut Vec<Play>) {
    if state.pending() != Pending::One(seat) {
        return;
    }
    let push = |out: &mut Vec<Play>, cards: &[i8]| {
        if let Some(play) = Play::new(cards) {
            if !out.contains(&play) {
                out.push(play);
            }
        }
    };
    let hand: Vec<i8> = state.hand(seat).iter().collect();
    let nonnegative: Vec<i8> = hand.iter().copied().filter(|&c| c >= 0).collect();
    let negatives: Vec<i8> = hand.iter().copied().filter(|&c| c < 0).collect();
    push(out, &[]);
    for &c in hand.iter().rev() {
        push(out, &[c]);
    }
    for k in 2..=nonnegative.len() {
        push(out, &all_in_strongest(&nonnegative, k));
    }
    if !negatives.is_empty() {
        push(out, &negatives);
        for k in 1..=nonnegative.len() {
            let mut cards = all_in_strongest(&nonnegative, k);
            cards.extend(negatives.iter().copied());
            push(out, &cards);
        }
    }
    let mut low = nonnegative.clone();
    low.sort_unstable();
    for k in 2..=low.len().min(4) {
        let mut cards = low[..k].to_vec();
        all_in_goofspiel::order_for_largest(&mut cards);
        push(out, &cards);
    }
    if state.starter() != seat {
        if let Some(count) = state.face_down_count() {
            let theirs: Vec<i8> = state
                .hand(seat.other())
                .iter()
                .filter(|&c| c >= 0)
                .collect();
            let best = all_in_goofspiel::number(&all_in_strongest(&theirs, count)).max(0);
            if let Some(k) = (1..=nonnegative.len())
                .find(|&k| all_in_goofspiel::number(&all_in_strongest(&nonnegative, k)) > best)
            {
                // Start from the strongest k cards and swap each for the lowest spare card that
                // still beats `best`.
                let mut chosen = all_in_strongest(&nonnegative, k);
                for i in 0..k {
                    for &spare in &low {
                        if chosen.contains(&spare) || spare >= chosen[i] {
                            continue;
                        }
                        let mut trial = chosen.clone();
                        trial[i] = spare;
                        all_in_goofspiel::order_for_largest(&mut trial);
                        if all_in_goofspiel::number(&trial) > best {
                            chosen = trial;
                            break;
                        }
                    }
                }
                all_in_goofspiel::order_for_largest(&mut chosen);
                push(out, &chosen);
                if !negatives.is_empty() {
                    let mut cards = chosen.clone();
                    cards.extend(negatives.iter().copied());
                    if all_in_goofspiel::number(&cards) > best {
                        push(out, &cards);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use colosseum_engine::{Step, Viewer};

    /// Plays `texts` in turn from a new All-In Goofspiel game.
    fn all_in_after(texts: &[&str]) -> AllInGoofspiel {
        let mut game = AllInGoofspiel::new(Default::default());
        for text in texts {
            let Pending::One(seat) = game.pending() else {
                panic!("nobody acts");
            };
            let mv = game.parse_move(seat, text).unwrap();
            game.apply(Step::One { seat, mv }).unwrap();
        }
        game
    }

    #[test]
    fn all_in_candidates_cover_counts_and_the_cheapest_answer() {
        // p1 starts round 1 with two cards face down: the most two of its cards make is 1211.
        let game = all_in_after(&["12 11"]);
        let mut moves = Vec::new();
        all_in_candidates(&game, Seat::P2, &mut moves);
        let texts: Vec<String> = moves.iter().map(|m| game.format_move(m)).collect();
        for expected in [
            "pass",
            "-3",
            "12",
            "12 11",
            "12 11 10",
            "-3 -2 -1",
            "12 11 -3 -2 -1",
        ] {
            assert!(
                texts.contains(&expected.to_string()),
                "{expected} in {texts:?}"
            );
        }
        for (i, m) in moves.iter().enumerate() {
            assert!(game.check_move(Seat::P2, m).is_ok(), "{}", texts[i]);
            assert!(!moves[..i].contains(m), "{} twice", texts[i]);
        }
        // The fewest cards that beat anything p1 can have made, without its best cards.
        let cheapest = moves
            .iter()
            .filter(|m| m.len() == 3 && m.number() > 1211)
            .find(|m| m.cards().iter().all(|&c| c < 12))
            .unwrap_or_else(|| panic!("no cheap three-card answer in {texts:?}"));
        assert!(cheapest.cards().iter().filter(|&&c| c >= 10).count() <= 1);
        // The starter gets the same kinds of plays (every card alone, every count); a seat that
        // does not act gets nothing.
        let opening = all_in_after(&[]);
        let mut starter = Vec::new();
        all_in_candidates(&opening, Seat::P1, &mut starter);
        assert!((1..=13).all(|k| starter.iter().any(|m| m.len() == k)));
        assert!(starter
            .iter()
            .all(|m| opening.check_move(Seat::P1, m).is_ok()));
        let mut none = Vec::new();
        all_in_candidates(&game, Seat::P1, &mut none);
        assert!(none.is_empty());
    }

    /// The opponent model's guess at the starter's face-down cards comes from the position
    /// before it put them down, never from the cards themselves.
    #[test]
    fn the_modelled_face_down_play_ignores_the_real_one() {
        let mut rng = colosseum_engine::seeded_rng(5);
        // The heuristic opens round 1 with its lowest negative card, one card.
        let modelled = |first: &str, rng: &mut SeededRng| {
            all_in_after(&[first])
                .model_withheld(Seat::P2, rng)
                .map(|g| {
                    g.view(Viewer::Seat(Seat::P1))
                        .current
                        .unwrap()
                        .face_down_cards
                })
        };
        assert_eq!(modelled("12", &mut rng), Some(Some(vec![-3])));
        assert_eq!(modelled("-3", &mut rng), Some(Some(vec![-3])));
        assert_eq!(modelled("5", &mut rng), Some(Some(vec![-3])));
        // Two cards face down: the heuristic would not have put down two, so no model.
        assert_eq!(modelled("12 11", &mut rng), None);
        // The starter knows its own cards: nothing to model.
        assert!(all_in_after(&["12"])
            .model_withheld(Seat::P1, &mut rng)
            .is_none());
    }

    /// The responder's search starts before the face-down cards: the starter to act, with plays
    /// of the face-down count only, each from its hand and each leaving the responder's view as
    /// it is; nothing for the starter itself or before anything is face down.
    #[test]
    fn the_withheld_root_holds_only_plays_the_responder_cannot_tell_apart() {
        let mut rng = colosseum_engine::seeded_rng(8);
        for (history, count) in [
            (&["-3", "1", "12 11"][..], 2),
            (&["5"][..], 1),
            (&["-3", "1", "12 11 10 9 8"][..], 5),
        ] {
            let game = all_in_after(history);
            let responder = game.starter().other();
            let seen = serde_json::to_value(game.view(Viewer::Seat(responder))).unwrap();
            let mut plays = Vec::new();
            let before = game.withheld_root(responder, &mut rng, &mut plays).unwrap();
            assert_eq!(before.pending(), Pending::One(game.starter()));
            assert!(before.face_down_count().is_none());
            assert!(plays.len() > ALL_IN_WITHHELD_RANDOM / 2, "{plays:?}");
            for play in &plays {
                assert_eq!(play.len(), count, "{play:?}");
                let mut after = before.clone();
                after
                    .apply(Step::One {
                        seat: game.starter(),
                        mv: *play,
                    })
                    .unwrap();
                let view = serde_json::to_value(after.view(Viewer::Seat(responder))).unwrap();
                assert_eq!(view, seen, "{play:?}");
            }
            let mut none = Vec::new();
            assert!(game
                .withheld_root(game.starter(), &mut rng, &mut none)
                .is_none());
            assert!(before
                .withheld_root(responder, &mut rng, &mut none)
                .is_none());
            assert!(none.is_empty());
        }
    }
}
