//! A game's board as a PNG: the game's SVG hook ([`colosseum_games::GameEntry::board_svg`],
//! drawn from the spectator's view) rendered by `resvg` with the one font embedded in the binary
//! (a Latin-1 cut of DejaVu Sans, `crates/server/fonts/`), so text renders the same on a machine
//! with no fonts installed.

use std::sync::{Arc, OnceLock};

use resvg::{tiny_skia, usvg};
use serde_json::Value;

/// The embedded font (DejaVu Sans, Latin-1 and a few symbols; its licence is beside it).
const FONT: &[u8] = include_bytes!("../../fonts/DejaVuSans-subset.ttf");

/// The largest board drawn, per side, in pixels (a hook asking for more is scaled down).
pub const MAX_SIDE: u32 = 2_000;

fn options() -> &'static usvg::Options<'static> {
    static OPTIONS: OnceLock<usvg::Options<'static>> = OnceLock::new();
    OPTIONS.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_font_data(FONT.to_vec());
        db.set_sans_serif_family("DejaVu Sans");
        db.set_serif_family("DejaVu Sans");
        db.set_monospace_family("DejaVu Sans");
        usvg::Options {
            font_family: "DejaVu Sans".into(),
            fontdb: Arc::new(db),
            ..usvg::Options::default()
        }
    })
}

/// Renders an SVG document to PNG bytes.
///
/// # Errors
/// The SVG does not parse, or has no area.
pub fn svg_to_png(svg: &str) -> Result<Vec<u8>, String> {
    let tree = usvg::Tree::from_str(svg, options()).map_err(|e| format!("the board's SVG: {e}"))?;
    let size = tree.size();
    let scale = (MAX_SIDE as f32 / size.width().max(size.height())).min(1.0);
    let (w, h) = (
        (size.width() * scale).ceil() as u32,
        (size.height() * scale).ceil() as u32,
    );
    let mut pixmap =
        tiny_skia::Pixmap::new(w, h).ok_or_else(|| "the board's SVG has no area".to_string())?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| format!("encoding the board: {e}"))
}

/// The board of game `game` (a registry id) for the spectator's `view`, labelled with the
/// players' `names` (`p1`'s first), as PNG bytes.
///
/// # Errors
/// An unknown game, or a drawing that does not render.
pub fn board_png(game: &str, view: &Value, names: &[String; 2]) -> Result<Vec<u8>, String> {
    let entry = colosseum_games::find(game).map_err(|e| e.to_string())?;
    let names = colosseum_games::svg::Names::new(&names[0], &names[1]);
    svg_to_png(&(entry.board_svg)(view, &names))
}
