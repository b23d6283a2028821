//! The explorer page: one HTML file, its script and its style, in the binary
//! (`include_str!`), nothing fetched from elsewhere. The board is drawn by tabia-position's SVG
//! renderer (`/tabia/position`), the squares laid over it take the clicks.

use crate::http::Reply;

const HTML: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/page.js");
const STYLE: &str = include_str!("page/page.css");

/// The page's files by path.
pub(crate) fn asset(path: &str) -> Option<Reply> {
    let (content_type, body) = match path {
        "/" | "/index.html" => ("text/html; charset=utf-8", HTML),
        "/tabia/page.js" => ("text/javascript; charset=utf-8", SCRIPT),
        "/tabia/page.css" => ("text/css; charset=utf-8", STYLE),
        _ => return None,
    };
    Some(Reply::ok(content_type, body))
}
