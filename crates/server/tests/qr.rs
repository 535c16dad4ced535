//! `POST /api/qr` through the real router: an invite link's QR code as an SVG whose dark
//! modules are the code's (finder patterns in three corners, a quiet zone of four modules), and
//! clear 400s for what it refuses.

mod common;

use std::collections::HashSet;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use common::server;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

/// The status, content type and body text of `POST /api/qr` with `body` as it is.
async fn post(body: &str, content_type: &str) -> (StatusCode, String, String) {
    let s = server();
    let req = Request::builder()
        .method("POST")
        .uri("/api/qr")
        .header(header::CONTENT_TYPE, content_type)
        .body(Body::from(body.to_string()))
        .unwrap();
    let res = s.router.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let kind = res
        .headers()
        .get(header::CONTENT_TYPE)
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    (status, kind, String::from_utf8(bytes.to_vec()).unwrap())
}

/// The side (in modules) and the dark modules of the SVG the endpoint draws.
fn modules(svg: &str) -> (usize, HashSet<(usize, usize)>) {
    let side: usize = svg
        .split("viewBox=\"0 0 ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no viewBox: {svg}"));
    let d = svg
        .split(" d=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap_or_else(|| panic!("no path: {svg}"));
    let dark = d
        .split('M')
        .filter(|m| !m.is_empty())
        .map(|m| {
            let xy = m.trim_end_matches("h1v1h-1z");
            let (x, y) = xy.split_once(' ').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect();
    (side, dark)
}

/// Whether the 7x7 finder pattern sits with its top-left module at (`x`, `y`): a dark ring, a
/// light ring, a dark 3x3 centre.
fn finder_at(dark: &HashSet<(usize, usize)>, x: usize, y: usize) -> bool {
    (0..7).all(|i| {
        (0..7).all(|j| {
            let ring = i.min(j).min(6 - i).min(6 - j);
            dark.contains(&(x + i, y + j)) == (ring != 1)
        })
    })
}

#[tokio::test]
async fn an_invite_link_becomes_an_svg_qr_code() {
    let link = "http://127.0.0.1:8080/m/abcdefgh12345678#seat=0123456789abcdef0123456789abcdef";
    let (status, kind, svg) = post(&json!({ "text": link }).to_string(), "application/json").await;
    assert_eq!(status, StatusCode::OK, "{svg}");
    assert_eq!(kind, "image/svg+xml");
    assert!(
        svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
        "{svg}"
    );
    let (side, dark) = modules(&svg);
    let width = side - 8;
    assert!(
        width >= 21 && (width - 21) % 4 == 0,
        "not a QR size: {width}"
    );
    // The quiet zone: nothing dark within four modules of the edge.
    assert!(
        dark.iter()
            .all(|&(x, y)| (4..4 + width).contains(&x) && (4..4 + width).contains(&y)),
        "a dark module in the quiet zone"
    );
    for (x, y) in [(4, 4), (4 + width - 7, 4), (4, 4 + width - 7)] {
        assert!(finder_at(&dark, x, y), "no finder pattern at ({x}, {y})");
    }
    assert!(!finder_at(&dark, 4 + width - 7, 4 + width - 7));
    // Another text, another code.
    let (_, _, other) = post(
        &json!({ "text": "http://x/m/b" }).to_string(),
        "application/json",
    )
    .await;
    assert_ne!(modules(&other).1, dark);
}

#[tokio::test]
async fn what_is_not_a_qr_text_is_refused_with_the_reason() {
    let long = "x".repeat(1001);
    for (body, content_type, want) in [
        (
            json!({"text": ""}).to_string(),
            "application/json",
            "1 to 1000 characters",
        ),
        (
            json!({ "text": long }).to_string(),
            "application/json",
            "this one has 1001",
        ),
        (json!({}).to_string(), "application/json", "text"),
        (
            json!({"text": "a", "size": 3}).to_string(),
            "application/json",
            "size",
        ),
        ("text=a".to_string(), "text/plain", "Content-Type"),
    ] {
        let (status, kind, answer) = post(&body, content_type).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {answer}");
        assert!(kind.starts_with("application/json"), "{kind}");
        let v: Value = serde_json::from_str(&answer).unwrap();
        assert_eq!(v["error"]["code"], "bad_request", "{v}");
        let message = v["error"]["message"].as_str().unwrap();
        assert!(message.contains(want), "{body}: {message}");
    }
}
