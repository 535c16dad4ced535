//! Property tests of the two readers issue 36 put on the server's edge: a webhook URL's host
//! (where the server may connect) and a name (how people read it). Each takes text from anyone.

use std::net::Ipv4Addr;

use axum::http::Uri;
use colosseum_server::names::{looks_like_bot, refused, same_name};
use colosseum_server::webhooks::guard::{literal_address, refused_address, Policy};
use proptest::prelude::*;

/// An IPv4 address the server's network may hold: loopback, private, shared, link-local (cloud
/// metadata), "this network".
fn inward_v4() -> impl Strategy<Value = Ipv4Addr> {
    let within = |base: u32, host_bits: u32| {
        any::<u32>().prop_map(move |x| Ipv4Addr::from(base | (x & ((1u32 << host_bits) - 1))))
    };
    prop_oneof![
        within(0x7f00_0000, 24), // 127/8
        within(0x0a00_0000, 24), // 10/8
        within(0xac10_0000, 20), // 172.16/12
        within(0xc0a8_0000, 16), // 192.168/16
        within(0xa9fe_0000, 16), // 169.254/16
        within(0x6440_0000, 22), // 100.64/10
        within(0x0000_0000, 24), // 0/8
    ]
}

/// The ways a URL can write `ip`: dotted, one decimal number, hex, octal parts, two parts,
/// IPv4-mapped IPv6 in both forms.
fn spellings(ip: Ipv4Addr) -> Vec<String> {
    let n = u32::from(ip);
    let [a, b, c, d] = ip.octets();
    vec![
        ip.to_string(),
        n.to_string(),
        format!("0x{n:x}"),
        format!("0{a:o}.0{b:o}.0{c:o}.0{d:o}"),
        format!("{a}.{}", n & 0x00ff_ffff),
        format!("[::ffff:{ip}]"),
        format!("[{}]", ip.to_ipv6_mapped()),
    ]
}

fn policy(host: &str) -> Policy {
    let hosts: &'static [String] = Box::leak(vec![host.to_string()].into_boxed_slice());
    Policy {
        hosts,
        allow_private: false,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// However an inward address is written, and even where the operator allowed that very
    /// host, a webhook URL naming it is refused for its address.
    #[test]
    fn an_inward_address_is_refused_however_it_is_written(ip in inward_v4(), port in 1u16..) {
        for host in spellings(ip) {
            prop_assert_eq!(literal_address(&host).map(|a| match a {
                std::net::IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(a, std::net::IpAddr::V4),
                v4 => v4,
            }), Some(ip.into()), "{} reads as another address", host);
            for url in [format!("https://{host}/hook"), format!("https://{host}:{port}/api/webhooks/1/x")] {
                let uri: Uri = url.parse().expect("a URL");
                let answer = policy(&host).check_url(&uri);
                prop_assert!(
                    answer.as_ref().is_err_and(|e| e.contains("names the address")),
                    "{} was not refused for its address: {:?}", url, answer
                );
            }
        }
    }

    /// A public address the operator allowed is taken; the check never panics on any host.
    #[test]
    fn any_host_text_is_read_without_panicking(host in "\\PC{0,40}") {
        let _ = literal_address(&host);
        if let Ok(uri) = format!("https://{host}/hook").parse::<Uri>() {
            let _ = policy(&host).check_url(&uri);
        }
    }

    /// A name holding a format character (zero-width, bidirectional control, word joiner...)
    /// anywhere is refused, naming its code point.
    #[test]
    fn a_name_with_an_invisible_character_is_refused(
        before in "[A-Za-z]{1,10}",
        after in "[A-Za-z]{0,10}",
        hidden in prop::sample::select(vec!['\u{200b}', '\u{200c}', '\u{200d}', '\u{2060}', '\u{feff}', '\u{00ad}', '\u{202e}', '\u{2066}', '\u{061c}', '\u{3164}', '\u{115f}', '\u{fe0f}']),
    ) {
        let name = format!("{before}{hidden}{after}");
        let why = refused(&name);
        let code = format!("U+{:04X}", u32::from(hidden));
        prop_assert!(why.as_ref().is_some_and(|w| w.contains(&code)), "{:?} -> {:?}", name, why);
    }

    /// Reading names is an equivalence on any text: a name reads as itself, either way round,
    /// and as its upper case; no text makes it panic.
    #[test]
    fn names_compare_as_an_equivalence(a in "\\PC{0,20}", b in "\\PC{0,20}") {
        prop_assert!(same_name(&a, &a));
        prop_assert_eq!(same_name(&a, &b), same_name(&b, &a));
        // Case aside (where lower case undoes upper case: not for a few letters such as U+1C80,
        // whose upper case lowers to another letter).
        let upper = a.to_uppercase();
        if upper.to_lowercase() == a.to_lowercase() {
            prop_assert!(same_name(&a, &upper), "{:?} and {:?}", a, upper);
        }
        let _ = refused(&a);
        let _ = looks_like_bot(&a);
    }
}

#[test]
fn public_addresses_are_not_refused() {
    for ip in ["1.1.1.1", "162.159.128.233", "2606:4700::6810:84e5"] {
        let ip: std::net::IpAddr = ip.parse().unwrap();
        assert_eq!(refused_address(ip), None, "{ip}");
    }
}
