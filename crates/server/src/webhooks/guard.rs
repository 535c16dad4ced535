//! Where a webhook may post: the hosts it may name and the addresses it may reach.
//!
//! A webhook URL is chosen by whoever sets it, and the server then sends requests to it, so an
//! unchecked URL would let anyone aim the server at its own network (server-side request
//! forgery). Three checks close that:
//!
//! * **The URL** ([`Policy::check_url`]): `https` only, to the chat platforms' webhook hosts
//!   ([`DEFAULT_HOSTS`], port 443) or to the hosts the operator names with `colosseum serve
//!   --webhook-hosts`; no user name or password; an address written as the host (including the
//!   old decimal, octal and hex forms of IPv4 such as `2130706433` or `0x7f.1`) must be public.
//! * **The addresses** ([`refused_address`]): whatever the name, every address it resolves to
//!   must be public: loopback, private, shared (CGNAT), link-local, unique-local, multicast,
//!   broadcast, unspecified, documentation and reserved ranges are refused, as are the IPv6
//!   forms that carry one of those IPv4 addresses (mapped, compatible, NAT64, 6to4).
//! * **The connection** ([`GuardedConnector`]): the name is resolved once (through the
//!   [`Resolve`] the server holds), the answers are checked, and the connection goes to a
//!   checked address, so a name cannot resolve to a public address for the check and a
//!   private one for the connection (DNS rebinding). TLS still verifies the certificate
//!   against the name. Redirects are never followed (a 3xx is a failed attempt).
//!
//! `colosseum serve --webhook-allow-private` (`Limits::webhook_allow_private`) turns the address
//! checks off and allows `http`: for tests and for a LAN whose operator really wants it. It is
//! dangerous on a public server: whoever may set a webhook may then reach the server's own
//! network.

use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, RwLock};
use std::task::{Context, Poll};

use hyper::Uri;
use hyper_util::rt::TokioIo;

use crate::limits::Limits;

/// The webhook hosts allowed by default (`https`, port 443): Discord's and Slack's.
pub const DEFAULT_HOSTS: &[&str] = &[
    "discord.com",
    "discordapp.com",
    "ptb.discord.com",
    "canary.discord.com",
    "hooks.slack.com",
];

/// Resolves a host name to addresses (the system's resolver by default; tests point their own).
pub trait Resolve: Send + Sync + 'static {
    /// The addresses of `host` (a name, never an IP literal).
    fn resolve<'a>(
        &'a self,
        host: &'a str,
        port: u16,
    ) -> Pin<Box<dyn Future<Output = io::Result<Vec<IpAddr>>> + Send + 'a>>;
}

/// The system's resolver (`getaddrinfo`, through Tokio).
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemResolver;

impl Resolve for SystemResolver {
    fn resolve<'a>(
        &'a self,
        host: &'a str,
        port: u16,
    ) -> Pin<Box<dyn Future<Output = io::Result<Vec<IpAddr>>> + Send + 'a>> {
        Box::pin(async move {
            Ok(tokio::net::lookup_host((host, port))
                .await?
                .map(|a| a.ip())
                .collect())
        })
    }
}

/// The resolver a server's webhooks use, replaceable (tests point it).
pub type ResolverCell = Arc<RwLock<Arc<dyn Resolve>>>;

/// Where webhooks may go, from [`Limits`].
#[derive(Clone, Copy, Debug)]
pub struct Policy {
    /// Hosts allowed beside [`DEFAULT_HOSTS`] (`HOST`: any port; `HOST:PORT`: that port).
    pub hosts: &'static [String],
    /// Private and loopback addresses and `http` allowed (dangerous).
    pub allow_private: bool,
}

impl Policy {
    /// The policy of `limits`.
    #[must_use]
    pub fn of(limits: &Limits) -> Self {
        Policy {
            hosts: limits.webhook_hosts,
            allow_private: limits.webhook_allow_private,
        }
    }

    /// What is allowed, in words, for error messages.
    #[must_use]
    pub fn allowed(&self) -> String {
        let mut hosts: Vec<String> = DEFAULT_HOSTS.iter().map(|h| (*h).to_string()).collect();
        hosts.extend(self.hosts.iter().cloned());
        let scheme = if self.allow_private {
            "http:// or https://"
        } else {
            "https://"
        };
        let others = if self.hosts.is_empty() {
            "; the server's operator may allow others with --webhook-hosts"
        } else {
            ""
        };
        format!(
            "give the {scheme} URL of a Discord or Slack webhook, at most {} bytes, on one of \
             these hosts: {}{others}",
            super::MAX_URL,
            hosts.join(", ")
        )
    }

    /// Checks a parsed webhook URL: its scheme, that it has no user information, that its host
    /// (and port) is allowed, and that a host written as an address is public. `Err` says what
    /// is wrong.
    ///
    /// # Errors
    /// What is wrong with the URL, in words.
    pub fn check_url(&self, uri: &Uri) -> Result<(), String> {
        match uri.scheme_str() {
            Some("https") => {}
            Some("http") if self.allow_private => {}
            Some("http") => {
                return Err("is http://: webhooks are sent over https:// only".to_string())
            }
            Some(_) => return Err("has a scheme other than https".to_string()),
            None => return Err("is not an absolute URL".to_string()),
        }
        let authority = uri.authority().map(|a| a.as_str()).unwrap_or_default();
        if authority.contains('@') {
            return Err("has a user name or password before its host".to_string());
        }
        let host = uri.host().unwrap_or_default();
        if host.is_empty() {
            return Err("has no host".to_string());
        }
        let host = host.to_ascii_lowercase();
        let port = uri.port_u16();
        let default_ok = DEFAULT_HOSTS.contains(&host.as_str())
            && uri.scheme_str() == Some("https")
            && port.is_none_or(|p| p == 443);
        let operator_ok = self
            .hosts
            .iter()
            .any(|entry| host_entry_allows(entry, &host, port));
        if !default_ok && !operator_ok {
            return Err(format!(
                "names the host `{}`{}, which is not allowed",
                host,
                port.map(|p| format!(" (port {p})")).unwrap_or_default()
            ));
        }
        if !self.allow_private {
            if let Some(ip) = literal_address(&host) {
                if let Some(why) = refused_address(ip) {
                    return Err(format!("names the address {ip}, {why}"));
                }
            }
        }
        Ok(())
    }
}

/// Whether the operator's `entry` (`HOST`, `HOST:PORT`, `[V6]`, `[V6]:PORT`) allows `host`
/// (lower case, IPv6 in brackets as `Uri::host` gives it) on `port`.
fn host_entry_allows(entry: &str, host: &str, port: Option<u16>) -> bool {
    let entry = entry.trim().to_ascii_lowercase();
    let (name, want) = if let Some(rest) = entry.strip_prefix('[') {
        match rest.split_once(']') {
            Some((v6, tail)) => (
                format!("[{v6}]"),
                tail.strip_prefix(':').and_then(|p| p.parse::<u16>().ok()),
            ),
            None => return false,
        }
    } else if entry.matches(':').count() == 1 {
        let (n, p) = entry.split_once(':').unwrap_or((&entry, ""));
        match p.parse::<u16>() {
            Ok(p) => (n.to_string(), Some(p)),
            Err(_) => return false,
        }
    } else if entry.contains(':') {
        (format!("[{entry}]"), None)
    } else {
        (entry.clone(), None)
    };
    name.trim_end_matches('.') == host.trim_end_matches('.')
        && want.is_none_or(|w| port == Some(w) || (port.is_none() && (w == 443 || w == 80)))
}

/// The address a URL's host writes, if it is one: an IPv6 literal in brackets, a dotted IPv4,
/// or one of the older IPv4 forms `inet_aton` (and so the system resolver) still reads:
/// a single number (`2130706433`), octal (`0177.0.0.1`), hex (`0x7f.1`), fewer parts (`127.1`).
#[must_use]
pub fn literal_address(host: &str) -> Option<IpAddr> {
    let bare = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host);
    if let Ok(ip) = bare.parse::<IpAddr>() {
        return Some(ip);
    }
    legacy_ipv4(bare.trim_end_matches('.')).map(IpAddr::V4)
}

/// `inet_aton`'s reading of `s`: one to four parts, each decimal, octal (a leading 0) or hex
/// (`0x`), the last filling the bytes left.
fn legacy_ipv4(s: &str) -> Option<Ipv4Addr> {
    let parts: Vec<&str> = s.split('.').collect();
    if parts.is_empty() || parts.len() > 4 {
        return None;
    }
    let mut nums = Vec::with_capacity(parts.len());
    for p in &parts {
        let n = if let Some(hex) = p.strip_prefix("0x").or_else(|| p.strip_prefix("0X")) {
            if hex.is_empty() {
                0
            } else {
                u64::from_str_radix(hex, 16).ok()?
            }
        } else if p.len() > 1 && p.starts_with('0') {
            u64::from_str_radix(&p[1..], 8).ok()?
        } else {
            if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            p.parse::<u64>().ok()?
        };
        nums.push(n);
    }
    let (last, head) = nums.split_last()?;
    if head.iter().any(|&n| n > 255) {
        return None;
    }
    let rest_bits = 8 * (4 - head.len() as u32);
    if rest_bits < 64 && *last >= 1u64 << rest_bits {
        return None;
    }
    let mut v: u64 = 0;
    for (i, &n) in head.iter().enumerate() {
        v |= n << (24 - 8 * i as u32);
    }
    v |= last;
    u32::try_from(v).ok().map(Ipv4Addr::from)
}

/// Why a webhook may not reach `ip` (`None`: a public address it may reach).
#[must_use]
pub fn refused_address(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => refused_v4(v4),
        IpAddr::V6(v6) => refused_v6(v6),
    }
}

fn in_v4(ip: Ipv4Addr, net: [u8; 4], bits: u32) -> bool {
    let mask = if bits == 0 {
        0
    } else {
        u32::MAX << (32 - bits)
    };
    u32::from(ip) & mask == u32::from(Ipv4Addr::from(net)) & mask
}

fn refused_v4(ip: Ipv4Addr) -> Option<&'static str> {
    const RANGES: &[([u8; 4], u32, &str)] = &[
        ([0, 0, 0, 0], 8, "an unspecified address (0.0.0.0/8)"),
        ([10, 0, 0, 0], 8, "a private address (10.0.0.0/8)"),
        (
            [100, 64, 0, 0],
            10,
            "a shared (carrier NAT) address (100.64.0.0/10)",
        ),
        ([127, 0, 0, 0], 8, "a loopback address (127.0.0.0/8)"),
        (
            [169, 254, 0, 0],
            16,
            "a link-local address (169.254.0.0/16)",
        ),
        ([172, 16, 0, 0], 12, "a private address (172.16.0.0/12)"),
        ([192, 0, 0, 0], 24, "a reserved address (192.0.0.0/24)"),
        ([192, 0, 2, 0], 24, "a documentation address (192.0.2.0/24)"),
        ([192, 88, 99, 0], 24, "a reserved address (192.88.99.0/24)"),
        ([192, 168, 0, 0], 16, "a private address (192.168.0.0/16)"),
        ([198, 18, 0, 0], 15, "a reserved address (198.18.0.0/15)"),
        (
            [198, 51, 100, 0],
            24,
            "a documentation address (198.51.100.0/24)",
        ),
        (
            [203, 0, 113, 0],
            24,
            "a documentation address (203.0.113.0/24)",
        ),
        ([224, 0, 0, 0], 4, "a multicast address (224.0.0.0/4)"),
        ([255, 255, 255, 255], 32, "the broadcast address"),
        ([240, 0, 0, 0], 4, "a reserved address (240.0.0.0/4)"),
    ];
    RANGES
        .iter()
        .find(|(net, bits, _)| in_v4(ip, *net, *bits))
        .map(|(_, _, why)| *why)
}

fn refused_v6(ip: Ipv6Addr) -> Option<&'static str> {
    let s = ip.segments();
    if ip.is_unspecified() {
        return Some("an unspecified address (::)");
    }
    if ip.is_loopback() {
        return Some("a loopback address (::1)");
    }
    // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d): the IPv4 address decides.
    if s[..5] == [0, 0, 0, 0, 0] && (s[5] == 0xffff || s[5] == 0) {
        let v4 = Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8);
        return refused_v4(v4).or(if s[5] == 0 {
            Some("an IPv4-compatible IPv6 address (::/96, deprecated)")
        } else {
            None
        });
    }
    // NAT64 (64:ff9b::/96): the IPv4 address it translates to decides.
    if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        let v4 = Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8);
        return refused_v4(v4);
    }
    // 6to4 (2002::/16): the IPv4 address in bits 16 to 47 decides.
    if s[0] == 0x2002 {
        let v4 = Ipv4Addr::new((s[1] >> 8) as u8, s[1] as u8, (s[2] >> 8) as u8, s[2] as u8);
        return refused_v4(v4);
    }
    if s[0] & 0xff00 == 0xff00 {
        return Some("a multicast address (ff00::/8)");
    }
    if s[0] & 0xffc0 == 0xfe80 {
        return Some("a link-local address (fe80::/10)");
    }
    if s[0] & 0xffc0 == 0xfec0 {
        return Some("a site-local address (fec0::/10)");
    }
    if s[0] & 0xfe00 == 0xfc00 {
        return Some("a unique-local address (fc00::/7)");
    }
    if s[0] == 0x2001 && s[1] == 0x0db8 {
        return Some("a documentation address (2001:db8::/32)");
    }
    if s[0] & 0xfff0 == 0x3ff0 {
        return Some("a documentation address (3fff::/20)");
    }
    // 2001::/23: IETF protocol assignments (Teredo, benchmarking, ORCHID, ...).
    if s[0] == 0x2001 && s[1] < 0x0200 {
        return Some("a reserved address (2001::/23)");
    }
    // Everything else outside global unicast (2000::/3) is reserved or special.
    if s[0] & 0xe000 != 0x2000 {
        return Some("a reserved address (outside 2000::/3)");
    }
    None
}

/// A refusal by the address checks: never retried.
#[derive(Debug)]
pub struct Refused(pub String);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refused {}

/// Whether `error` (or anything in its chain) is a [`Refused`]; its words if so.
#[must_use]
pub fn refusal(error: &(dyn std::error::Error + 'static)) -> Option<String> {
    let mut at: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(e) = at {
        if let Some(r) = e.downcast_ref::<Refused>() {
            return Some(r.0.clone());
        }
        // `io::Error::source` skips the error it wraps: look inside.
        if let Some(inner) = e.downcast_ref::<io::Error>().and_then(io::Error::get_ref) {
            if let Some(r) = inner.downcast_ref::<Refused>() {
                return Some(r.0.clone());
            }
        }
        at = e.source();
    }
    None
}

fn refused(why: String) -> io::Error {
    io::Error::new(io::ErrorKind::PermissionDenied, Refused(why))
}

/// The addresses `host` (as `Uri::host` gives it) may be reached at on `port`, each checked:
/// an address literal as it is, a name through `resolver`. Any refused address refuses them
/// all (a name that also resolves to a private address is not trusted), unless `allow_private`.
///
/// # Errors
/// The name does not resolve (an I/O error), or resolves to a refused address ([`Refused`]).
pub async fn checked_addresses(
    resolver: &dyn Resolve,
    allow_private: bool,
    host: &str,
    port: u16,
) -> io::Result<Vec<SocketAddr>> {
    let ips = match literal_address(host) {
        Some(ip) => vec![ip],
        None => resolver.resolve(host, port).await?,
    };
    if ips.is_empty() {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!("{host} has no address"),
        ));
    }
    if !allow_private {
        for ip in &ips {
            if let Some(why) = refused_address(*ip) {
                return Err(refused(format!(
                    "{host} resolves to {ip}, {why}: webhooks go only to public addresses"
                )));
            }
        }
    }
    Ok(ips
        .into_iter()
        .map(|ip| SocketAddr::new(ip, port))
        .collect())
}

/// The TCP connector of the webhooks' client: resolves once, checks every address, connects
/// to a checked one. The TLS layer above it verifies the certificate against the URL's name.
#[derive(Clone)]
pub struct GuardedConnector {
    /// The resolver (replaceable: tests point it).
    pub resolver: ResolverCell,
    /// Private addresses and `http` allowed.
    pub allow_private: bool,
}

impl tower::Service<Uri> for GuardedConnector {
    type Response = TokioIo<tokio::net::TcpStream>;
    type Error = io::Error;
    type Future = Pin<Box<dyn Future<Output = io::Result<Self::Response>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, uri: Uri) -> Self::Future {
        let resolver = self
            .resolver
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        let allow_private = self.allow_private;
        Box::pin(async move {
            let https = match uri.scheme_str() {
                Some("https") => true,
                Some("http") if allow_private => false,
                _ => return Err(refused(format!("{uri}: webhooks are sent over https only"))),
            };
            let host = uri.host().unwrap_or_default().to_string();
            let port = uri.port_u16().unwrap_or(if https { 443 } else { 80 });
            let addrs = checked_addresses(&*resolver, allow_private, &host, port).await?;
            let mut last = None;
            for addr in addrs {
                match tokio::net::TcpStream::connect(addr).await {
                    Ok(tcp) => {
                        let _ = tcp.set_nodelay(true);
                        return Ok(TokioIo::new(tcp));
                    }
                    Err(e) => last = Some(e),
                }
            }
            Err(last.unwrap_or_else(|| io::Error::other("no address to connect to")))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn inward_addresses_are_refused_and_public_ones_taken() {
        for bad in [
            "0.0.0.0",
            "0.1.2.3",
            "10.0.0.1",
            "100.64.0.1",
            "100.127.255.255",
            "127.0.0.1",
            "127.255.255.254",
            "169.254.169.254",
            "172.16.0.1",
            "172.31.255.255",
            "192.0.0.8",
            "192.0.2.1",
            "192.168.1.1",
            "198.18.0.1",
            "198.51.100.7",
            "203.0.113.9",
            "224.0.0.1",
            "239.255.255.250",
            "240.0.0.1",
            "255.255.255.255",
            "::",
            "::1",
            "::ffff:127.0.0.1",
            "::ffff:10.1.2.3",
            "::ffff:169.254.169.254",
            "::127.0.0.1",
            "::8.8.8.8",
            "64:ff9b::a00:1",
            "2002:7f00:1::",
            "2002:c0a8:101::1",
            "fe80::1",
            "febf::1",
            "fec0::1",
            "fc00::1",
            "fd12:3456::1",
            "ff02::1",
            "2001:db8::1",
            "3fff::1",
            "2001::1",
            "2001:10::1",
            "100::1",
            "4000::1",
        ] {
            assert!(refused_address(ip(bad)).is_some(), "{bad} was taken");
        }
        for good in [
            "1.1.1.1",
            "8.8.8.8",
            "100.63.255.255",
            "100.128.0.0",
            "162.159.135.232",
            "172.15.255.255",
            "172.32.0.0",
            "192.169.0.1",
            "223.255.255.255",
            "2606:4700::6810:84e5",
            "2a00:1450:4001::1",
            "::ffff:8.8.8.8",
            "64:ff9b::808:808",
            "2002:808:808::1",
        ] {
            assert_eq!(refused_address(ip(good)), None, "{good} was refused");
        }
    }

    #[test]
    fn the_old_ipv4_forms_are_read_as_the_resolver_reads_them() {
        for (text, want) in [
            ("2130706433", "127.0.0.1"),
            ("0x7f000001", "127.0.0.1"),
            ("017700000001", "127.0.0.1"),
            ("0177.0.0.1", "127.0.0.1"),
            ("0x7f.1", "127.0.0.1"),
            ("127.1", "127.0.0.1"),
            ("10.1", "10.0.0.1"),
            ("192.168.257", "192.168.1.1"),
            ("0", "0.0.0.0"),
            ("[::ffff:127.0.0.1]", "::ffff:127.0.0.1"),
        ] {
            assert_eq!(literal_address(text), Some(ip(want)), "{text}");
        }
        for name in [
            "discord.com",
            "1.2.3.4.5",
            "256.1.1.1",
            "08.1.1.1",
            "a1",
            "",
        ] {
            assert_eq!(literal_address(name), None, "{name}");
        }
    }

    #[test]
    fn operator_entries_allow_their_host_and_port() {
        assert!(host_entry_allows(
            "hooks.example.org",
            "hooks.example.org",
            Some(8443)
        ));
        assert!(host_entry_allows(
            "Hooks.Example.org",
            "hooks.example.org",
            None
        ));
        assert!(host_entry_allows(
            "hooks.example.org:8443",
            "hooks.example.org",
            Some(8443)
        ));
        assert!(!host_entry_allows(
            "hooks.example.org:8443",
            "hooks.example.org",
            Some(22)
        ));
        assert!(!host_entry_allows(
            "hooks.example.org",
            "evil.example.org",
            None
        ));
        assert!(host_entry_allows("[::1]:9000", "[::1]", Some(9000)));
        assert!(host_entry_allows("::1", "[::1]", Some(9000)));
    }
}
