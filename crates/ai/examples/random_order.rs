//! The moonshot of issue 21: classic Goofspiel with the prizes in random order (point
//! difference) solved exactly for its value, N by N, with the figures of docs/benchmarks.md.
//!
//! `cargo run --release -p colosseum-ai --example random_order -- 1 2 3 4 5 6 7 8 9`

fn main() {
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    for arg in std::env::args().skip(1) {
        let Ok(n) = arg.parse::<u32>() else {
            eprintln!("random_order: `{arg}` is not a number of cards");
            std::process::exit(2);
        };
        let start = std::time::Instant::now();
        match colosseum_ai::table::random_order(n, threads) {
            Ok(s) => println!(
                "N={n}: root value {:.3e}, {} positions, {} matrix games, {:.2} s on {threads} \
                 threads, {:.1} MiB of values at the widest two levels",
                s.root_value,
                s.positions,
                s.games,
                start.elapsed().as_secs_f64(),
                s.peak_bytes as f64 / (1024.0 * 1024.0)
            ),
            Err(e) => {
                eprintln!("random_order: {e}");
                std::process::exit(2);
            }
        }
    }
}
