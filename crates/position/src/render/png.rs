//! PNG: the SVG board rasterised by resvg (pure Rust; no fonts needed, labels are paths).

use resvg::{tiny_skia, usvg};
use shakmaty::Setup;

use super::{RenderError, RenderOptions, render_svg, svg::pixel_height};

/// A PNG image of the board: exactly the picture of [`crate::render_svg`], drawn by
/// the pure-Rust rasteriser resvg, `size` × `size` pixels (RGBA); a Crazyhouse position,
/// drawn with its pockets above and below the board, is `size` wide and taller in proportion
/// ([`svg_height`](crate::svg_height)).
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
    let height = pixel_height(setup, options);
    let mut pixmap = tiny_skia::Pixmap::new(size, height).ok_or(RenderError::InvalidSize(size))?;
    let view = tree.size();
    let transform =
        tiny_skia::Transform::from_scale(size as f32 / view.width(), height as f32 / view.height());
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

    #[test]
    fn crazyhouse_pockets_make_the_image_taller_and_are_drawn() {
        let setup = "4k3/8/8/8/8/8/8/4K3[Qpp] w - - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_setup();
        let pixel = |p: &tiny_skia::Pixmap, x: u32, y: u32| {
            let c = p.pixel(x, y).unwrap();
            (c.red(), c.green(), c.blue())
        };
        let small = RenderOptions {
            size: 88,
            ..RenderOptions::default()
        };
        let pixmap = decode(&render_png(&setup, &small).unwrap());
        assert_eq!((pixmap.width(), pixmap.height()), (88, 100));
        // One pixel a board unit: strips of 60 rows above and below the 880 of the board.
        let full = RenderOptions {
            size: 880,
            ..RenderOptions::default()
        };
        let pixmap = decode(&render_png(&setup, &full).unwrap());
        assert_eq!((pixmap.width(), pixmap.height()), (880, 1000));
        let strip = (0xd6, 0xcd, 0xbb);
        for (x, y) in [(850, 3), (500, 30), (850, 997), (500, 970)] {
            assert_eq!(pixel(&pixmap, x, y), strip, "({x}, {y})");
        }
        // The frame starts below the top strip.
        assert_eq!(pixel(&pixmap, 5, 65), (0x2d, 0x2b, 0x28));
        // Black's two pawns on the top strip (ink bodies), White's queen below (paper body).
        let count = |x0: u32, y0: u32, color: (u8, u8, u8)| {
            (x0..x0 + 50)
                .flat_map(|x| (y0..y0 + 50).map(move |y| (x, y)))
                .filter(|&(x, y)| pixel(&pixmap, x, y) == color)
                .count()
        };
        let ink = (0x1d, 0x1d, 0x1d);
        let paper = (0xfb, 0xfa, 0xf6);
        assert!(count(10, 5, ink) > 200, "{}", count(10, 5, ink));
        assert!(count(60, 5, ink) > 200);
        assert_eq!(count(110, 5, ink), 0);
        assert!(count(10, 945, paper) > 200, "{}", count(10, 945, paper));
        assert_eq!(count(60, 945, paper), 0);
    }
}
