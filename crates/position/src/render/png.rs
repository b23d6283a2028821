//! PNG: the SVG board rasterised by resvg (pure Rust; no fonts needed, labels are paths).

use resvg::{tiny_skia, usvg};
use shakmaty::Setup;

use super::{RenderError, RenderOptions, render_svg};

/// A PNG image of the board: exactly the picture of [`render_svg`](crate::render_svg), drawn by
/// the pure-Rust rasteriser resvg, `size` × `size` pixels (RGBA).
///
/// # Errors
///
/// [`RenderError::InvalidSize`] if `size` is outside
/// [`RenderOptions::MIN_SIZE`]..=[`RenderOptions::MAX_SIZE`]; [`RenderError::Rasterise`] if
/// resvg fails, which would be a bug.
///
/// ```
/// use tabia_position::{RenderOptions, render_png, shakmaty::Setup};
///
/// let options = RenderOptions { size: 64, ..RenderOptions::default() };
/// let png = render_png(&Setup::initial(), &options)?;
/// assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
/// # Ok::<_, tabia_position::RenderError>(())
/// ```
pub fn render_png(setup: &Setup, options: &RenderOptions) -> Result<Vec<u8>, RenderError> {
    let size = options.size;
    if !(RenderOptions::MIN_SIZE..=RenderOptions::MAX_SIZE).contains(&size) {
        return Err(RenderError::InvalidSize(size));
    }
    let svg = render_svg(setup, options);
    let tree = usvg::Tree::from_str(&svg, &usvg::Options::default())
        .map_err(|err| RenderError::Rasterise(Box::new(err)))?;
    let mut pixmap = tiny_skia::Pixmap::new(size, size).ok_or(RenderError::InvalidSize(size))?;
    let view = tree.size();
    let transform =
        tiny_skia::Transform::from_scale(size as f32 / view.width(), size as f32 / view.height());
    resvg::render(&tree, transform, &mut pixmap.as_mut());
    pixmap
        .encode_png()
        .map_err(|err| RenderError::Rasterise(Box::new(err)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(png: &[u8]) -> tiny_skia::Pixmap {
        tiny_skia::Pixmap::decode_png(png).unwrap()
    }

    #[test]
    fn size_is_checked() {
        for size in [0, 15, 4097] {
            let options = RenderOptions {
                size,
                ..RenderOptions::default()
            };
            assert!(matches!(
                render_png(&Setup::initial(), &options),
                Err(RenderError::InvalidSize(s)) if s == size
            ));
        }
    }

    #[test]
    fn image_has_the_asked_size() {
        let options = RenderOptions {
            size: 100,
            coordinates: Some(false),
            ..RenderOptions::default()
        };
        let pixmap = decode(&render_png(&Setup::empty(), &options).unwrap());
        assert_eq!((pixmap.width(), pixmap.height()), (100, 100));
    }
}
