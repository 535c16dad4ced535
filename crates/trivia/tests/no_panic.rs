//! Bad input never panics: random text through the matcher, the race and the bank loader.

use colosseum_engine::Seat;
use colosseum_trivia::{matches, normalize, Bank, Race};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn matching_never_panics_and_is_symmetric(a in "\\PC{0,40}", b in "\\PC{0,40}") {
        let _ = normalize(&a);
        prop_assert_eq!(matches(&a, &b), matches(&b, &a));
        if !normalize(&a).is_empty() {
            prop_assert!(matches(&a, &a));
        }
    }

    #[test]
    fn number_words_never_panic(words in proptest::collection::vec(
        prop::sample::select(vec!["one", "hundred", "thousand", "and", "twenty", "nineteen", "zero", "-", "9", "a", "the"]),
        0..12,
    )) {
        let _ = normalize(&words.join(" "));
    }

    #[test]
    fn races_take_any_text_at_any_time(events in proptest::collection::vec((any::<bool>(), "\\PC{0,12}", 0u64..400_000), 0..30)) {
        let bank = Bank::sample();
        let mut race = Race::open(bank.questions()[0].clone(), 0);
        for (p1, text, at) in events {
            let seat = if p1 { Seat::P1 } else { Seat::P2 };
            let _ = race.answer(seat, &text, at);
        }
        let times: Vec<u64> = race.log().iter().map(|e| e.at()).collect();
        prop_assert!(times.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn mutated_banks_are_errors_not_panics(cuts in proptest::collection::vec((0usize..4000, "\\PC{0,6}"), 1..6)) {
        let sample = Bank::sample_text();
        let mut end = 4000.min(sample.len());
        while !sample.is_char_boundary(end) {
            end -= 1;
        }
        let mut text = sample[..end].to_string();
        for (at, insert) in cuts {
            let mut at = at.min(text.len());
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            text.insert_str(at, &insert);
        }
        let _ = Bank::from_toml(&text);
    }
}
