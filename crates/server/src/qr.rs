//! `POST /api/qr`: a QR code of a short text (the table's invite link) as an SVG image, so that a
//! friend can scan the invite from the screen of the player waiting for them. The `qrcode` crate
//! encodes; the SVG is drawn here from its modules, one path of unit squares.

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use crate::error::ApiError;
use crate::routes::extract::Body;

/// The longest text a QR code is made of, in characters (an invite link is under 200).
pub const MAX_QR_TEXT: usize = 1000;

/// The light modules around the code that scanners need, in modules.
const QUIET: usize = 4;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct QrBody {
    text: String,
}

/// The SVG document of `text`'s QR code (error correction M), or why there is none.
///
/// # Errors
/// An empty text, one over [`MAX_QR_TEXT`] characters, or one too long for any QR version.
pub fn svg(text: &str) -> Result<String, ApiError> {
    let chars = text.chars().count();
    if chars == 0 || chars > MAX_QR_TEXT {
        return Err(ApiError::bad_request(format!(
            "a QR code is made of a `text` of 1 to {MAX_QR_TEXT} characters; this one has {chars}"
        )));
    }
    let code = qrcode::QrCode::with_error_correction_level(text.as_bytes(), qrcode::EcLevel::M)
        .map_err(|e| ApiError::bad_request(format!("no QR code holds this text: {e}")))?;
    let width = code.width();
    let side = width + 2 * QUIET;
    let mut path = String::new();
    for (i, colour) in code.to_colors().iter().enumerate() {
        if *colour == qrcode::Color::Dark {
            let (x, y) = (i % width + QUIET, i / width + QUIET);
            path.push_str(&format!("M{x} {y}h1v1h-1z"));
        }
    }
    Ok(format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {side} {side}\" \
         shape-rendering=\"crispEdges\"><rect width=\"{side}\" height=\"{side}\" fill=\"#fff\"/>\
         <path fill=\"#000\" d=\"{path}\"/></svg>"
    ))
}

/// `POST /api/qr` with `{"text": ...}`: `image/svg+xml`, or 400 with the reason.
pub(crate) async fn post(Body(body): Body<QrBody>) -> Result<Response, ApiError> {
    let doc = svg(&body.text)?;
    Ok((
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        doc,
    )
        .into_response())
}
