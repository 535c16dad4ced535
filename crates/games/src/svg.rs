//! A small SVG writer for the boards of [`crate::GameEntry::board_svg`]: each game draws its
//! spectator view with it (a grid of cells, rows of cards, lines of text), and the server turns
//! the SVG into a PNG for chat webhooks. Text uses the family `sans-serif`, which the renderer
//! maps to the font it embeds; nothing here needs a system font.

use std::fmt::Write as _;

use colosseum_engine::Seat;
use serde_json::Value;

/// `p1`'s colour (stones, cells, names).
pub const P1: &str = "#c0392b";
/// `p2`'s colour.
pub const P2: &str = "#2161a8";
/// Ink for text and lines.
pub const INK: &str = "#222222";
/// Muted text.
pub const MUTED: &str = "#666666";
/// The page's background.
pub const PAPER: &str = "#fbf8f1";

/// The colour of `seat`.
#[must_use]
pub fn seat_colour(seat: Seat) -> &'static str {
    match seat {
        Seat::P1 => P1,
        Seat::P2 => P2,
    }
}

/// An SVG document being written.
#[derive(Debug)]
pub struct Svg {
    width: u32,
    height: u32,
    body: String,
}

/// Text anchoring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// Text starts at x.
    Start,
    /// Text is centred on x.
    Middle,
    /// Text ends at x.
    End,
}

impl Svg {
    /// An empty document of `width` x `height` pixels on the paper colour.
    #[must_use]
    pub fn new(width: u32, height: u32) -> Self {
        let mut svg = Svg {
            width,
            height,
            body: String::new(),
        };
        svg.rect(0.0, 0.0, f64::from(width), f64::from(height), PAPER, None);
        svg
    }

    /// A rectangle, filled, with an optional stroke colour.
    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str, stroke: Option<&str>) {
        let stroke = stroke.map_or(String::new(), |s| {
            format!(r#" stroke="{s}" stroke-width="1.5""#)
        });
        let _ = write!(
            self.body,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" fill="{fill}"{stroke}/>"#
        );
    }

    /// A circle.
    pub fn circle(&mut self, cx: f64, cy: f64, r: f64, fill: &str, stroke: Option<&str>) {
        let stroke = stroke.map_or(String::new(), |s| {
            format!(r#" stroke="{s}" stroke-width="2""#)
        });
        let _ = write!(
            self.body,
            r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="{fill}"{stroke}/>"#
        );
    }

    /// A line.
    pub fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, colour: &str, width: f64) {
        let _ = write!(
            self.body,
            r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{colour}" stroke-width="{width:.1}"/>"#
        );
    }

    /// A closed polygon through `points`.
    pub fn polygon(&mut self, points: &[(f64, f64)], fill: &str, stroke: Option<&str>) {
        let pts: Vec<String> = points
            .iter()
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect();
        let stroke = stroke.map_or(String::new(), |s| {
            format!(r#" stroke="{s}" stroke-width="1""#)
        });
        let _ = write!(
            self.body,
            r#"<polygon points="{}" fill="{fill}"{stroke}/>"#,
            pts.join(" ")
        );
    }

    /// Text at (`x`, `y`) (the baseline), `size` pixels high.
    pub fn text(&mut self, x: f64, y: f64, size: f64, colour: &str, anchor: Anchor, text: &str) {
        let anchor = match anchor {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        };
        let _ = write!(
            self.body,
            r#"<text x="{x:.1}" y="{y:.1}" font-family="sans-serif" font-size="{size:.1}" fill="{colour}" text-anchor="{anchor}">{}</text>"#,
            escape(text)
        );
    }

    /// Bold text.
    pub fn bold(&mut self, x: f64, y: f64, size: f64, colour: &str, anchor: Anchor, text: &str) {
        let before = self.body.len();
        self.text(x, y, size, colour, anchor, text);
        self.body
            .insert_str(before + "<text".len(), r#" font-weight="bold""#);
    }

    /// A playing card `w` x `h` at (`x`, `y`) with `label` in the middle, outlined in `colour`.
    pub fn card(&mut self, x: f64, y: f64, w: f64, h: f64, colour: &str, label: &str) {
        let _ = write!(
            self.body,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" rx="4" fill="white" stroke="{colour}" stroke-width="2"/>"#
        );
        self.text(
            x + w / 2.0,
            y + h / 2.0 + h * 0.17,
            (h * 0.45).min(w * 0.55),
            colour,
            Anchor::Middle,
            label,
        );
    }

    /// The finished document.
    #[must_use]
    pub fn finish(self) -> String {
        format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">{body}</svg>"#,
            w = self.width,
            h = self.height,
            body = self.body
        )
    }
}

/// `text` with XML's special characters escaped.
#[must_use]
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// A small number field of a view (absent or not a number: 0).
#[must_use]
pub fn num(v: &Value) -> i64 {
    v.as_i64()
        .or_else(|| v.as_f64().map(|f| f.round() as i64))
        .unwrap_or(0)
}

/// A number as shown: whole numbers without decimals, halves with `.5`.
#[must_use]
pub fn shown(v: &Value) -> String {
    match v {
        Value::Number(n) => n
            .as_i64()
            .map(|i| i.to_string())
            .or_else(|| n.as_f64().map(|f| format!("{f}")))
            .unwrap_or_default(),
        Value::String(s) => s.clone(),
        Value::Null => "-".into(),
        other => other.to_string(),
    }
}

/// A list of numbers or strings as shown, joined by `sep`.
#[must_use]
pub fn list(v: &Value, sep: &str) -> String {
    v.as_array()
        .map(|a| a.iter().map(shown).collect::<Vec<_>>().join(sep))
        .unwrap_or_default()
}

/// A hand (a list of cards) as shown, spaced, or "empty".
#[must_use]
pub fn hand(v: &Value) -> String {
    let cards = list(v, " ");
    if cards.is_empty() {
        "empty".to_string()
    } else {
        cards
    }
}

/// The field of `v` for `seat` (`v.p1` or `v.p2`).
#[must_use]
pub fn of(v: &Value, seat: Seat) -> &Value {
    &v[seat.as_str()]
}

/// Draws a square grid of `rows` (each a string of one character per cell) at (`x`, `y`) with
/// cells of `size`; `cell` paints one cell from its character (return `false` to leave it
/// plain). Column letters above and row numbers at the left.
pub fn grid(
    svg: &mut Svg,
    x: f64,
    y: f64,
    size: f64,
    rows: &[Vec<char>],
    mut cell: impl FnMut(&mut Svg, f64, f64, f64, char),
) {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    for (c, letter) in ('a'..='z').take(cols).enumerate() {
        svg.text(
            x + size * (c as f64 + 0.5),
            y - 6.0,
            size * 0.35,
            MUTED,
            Anchor::Middle,
            &letter.to_string(),
        );
    }
    for (r, row) in rows.iter().enumerate() {
        let cy = y + size * r as f64;
        svg.text(
            x - 6.0,
            cy + size * 0.62,
            size * 0.35,
            MUTED,
            Anchor::End,
            &(r + 1).to_string(),
        );
        for (c, &ch) in row.iter().enumerate() {
            let cx = x + size * c as f64;
            svg.rect(cx, cy, size, size, "#efe6d2", Some("#9a8f7a"));
            cell(svg, cx, cy, size, ch);
        }
    }
}

/// The longest name a board picture shows in full, in characters (a longer one is cut and ends
/// with `...`).
pub const MAX_NAME: usize = 24;

/// The players' names as a board picture labels them: `p1`'s and `p2`'s, each at most
/// [`MAX_NAME`] characters. Pictures name people, never seat ids.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Names([String; 2]);

impl Names {
    /// `p1`'s and `p2`'s names (blank ones become "Player 1" and "Player 2").
    #[must_use]
    pub fn new(p1: &str, p2: &str) -> Self {
        let fit = |name: &str, seat: Seat| {
            let name = name.trim();
            if name.is_empty() {
                return Self::default().0[seat.index()].clone();
            }
            if name.chars().count() > MAX_NAME {
                let cut: String = name.chars().take(MAX_NAME - 3).collect();
                return format!("{}...", cut.trim_end());
            }
            name.to_string()
        };
        Names([fit(p1, Seat::P1), fit(p2, Seat::P2)])
    }

    /// `seat`'s name.
    #[must_use]
    pub fn of(&self, seat: Seat) -> &str {
        &self.0[seat.index()]
    }

    /// Both names, `p1`'s first.
    #[must_use]
    pub fn both(&self) -> [&str; 2] {
        [&self.0[0], &self.0[1]]
    }

    /// A view's seat field (`"p1"`, `"p2"`) as a name; any other text (`"nobody"`) as it is.
    #[must_use]
    pub fn seat_word<'a>(&'a self, text: &'a str) -> &'a str {
        match text {
            "p1" => self.of(Seat::P1),
            "p2" => self.of(Seat::P2),
            other => other,
        }
    }

    /// A sentence from a view (a reason, what the game waits for) with the names for `p1` and
    /// `p2` ([`crate::text::with_names`]) and no notation backticks.
    #[must_use]
    pub fn sentence(&self, text: &str) -> String {
        crate::text::with_names(text, self.both()).replace('`', "")
    }
}

impl Default for Names {
    /// "Player 1" and "Player 2": a picture drawn without the players' names.
    fn default() -> Self {
        Names(["Player 1".to_string(), "Player 2".to_string()])
    }
}

/// How much taller [`header`] is than a title and one line: a board's height adds it.
pub const HEADER_EXTRA: u32 = 18;

/// The game's title and the two players' header, shared by every board: `title` at the top,
/// then each player's name (bold) over their headline score (`scores`), in their colour, `p1`
/// on the left and `p2` from the middle. Returns the y below it.
pub fn header(svg: &mut Svg, width: f64, title: &str, names: &Names, scores: [String; 2]) -> f64 {
    header_in(svg, width, title, names, scores, [P1, P2])
}

/// [`header`] in the game's own `colours` for `p1` and `p2`.
pub fn header_in(
    svg: &mut Svg,
    width: f64,
    title: &str,
    names: &Names,
    scores: [String; 2],
    colours: [&str; 2],
) -> f64 {
    svg.bold(16.0, 30.0, 20.0, INK, Anchor::Start, title);
    for (seat, x) in [(Seat::P1, 16.0), (Seat::P2, width / 2.0)] {
        let colour = colours[seat.index()];
        svg.circle(x + 6.0, 52.0, 7.0, colour, None);
        svg.bold(x + 18.0, 58.0, 16.0, colour, Anchor::Start, names.of(seat));
        svg.text(
            x + 18.0,
            78.0,
            15.0,
            colour,
            Anchor::Start,
            &scores[seat.index()],
        );
    }
    svg.line(12.0, 88.0, width - 12.0, 88.0, "#cfc6b0", 1.0);
    98.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_the_document_is_closed() {
        let mut svg = Svg::new(100, 50);
        svg.text(1.0, 2.0, 10.0, INK, Anchor::Start, "a<b & \"c\"");
        svg.bold(1.0, 2.0, 10.0, INK, Anchor::Middle, "x");
        let out = svg.finish();
        assert!(out.contains("a&lt;b &amp; &quot;c&quot;"), "{out}");
        assert!(out.contains(r#"<text font-weight="bold" x="1.0""#), "{out}");
        assert!(out.starts_with("<svg") && out.ends_with("</svg>"));
    }

    #[test]
    fn numbers_show_as_the_view_has_them() {
        assert_eq!(shown(&serde_json::json!(3)), "3");
        assert_eq!(shown(&serde_json::json!(2.5)), "2.5");
        assert_eq!(list(&serde_json::json!([1, 2, 13]), " "), "1 2 13");
        assert_eq!(num(&serde_json::json!(null)), 0);
    }
}
