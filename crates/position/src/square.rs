//! Square helpers: algebraic names and Games::Chess's `(x, y)` coordinates (0–7 each, file
//! then rank, `(0, 0)` is a1).

use shakmaty::{File, Rank, Square};

/// The square at file `x` and rank `y` (0–7 each), or `None` off the board.
///
/// ```
/// use tabia_position::{shakmaty::Square, xy_to_square};
///
/// assert_eq!(xy_to_square(4, 3), Some(Square::E4));
/// assert_eq!(xy_to_square(8, 0), None);
/// ```
pub fn xy_to_square(x: u32, y: u32) -> Option<Square> {
    (x < 8 && y < 8).then(|| Square::from_coords(File::new(x), Rank::new(y)))
}

/// The `(x, y)` coordinates of a square named in algebraic notation (`a1` … `h8`), or `None`
/// if the text is not a square (Games::Chess `algebraic_to_xy`).
///
/// ```
/// use tabia_position::algebraic_to_xy;
///
/// assert_eq!(algebraic_to_xy("c7"), Some((2, 6)));
/// assert_eq!(algebraic_to_xy("i9"), None);
/// ```
pub fn algebraic_to_xy(name: &str) -> Option<(u32, u32)> {
    match name.as_bytes() {
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some((u32::from(f - b'a'), u32::from(r - b'1'))),
        _ => None,
    }
}

/// The algebraic name of the square at `(x, y)`, or `None` off the board (Games::Chess
/// `xy_to_algebraic`).
///
/// ```
/// use tabia_position::xy_to_algebraic;
///
/// assert_eq!(xy_to_algebraic(0, 0).as_deref(), Some("a1"));
/// assert_eq!(xy_to_algebraic(7, 8), None);
/// ```
pub fn xy_to_algebraic(x: u32, y: u32) -> Option<String> {
    xy_to_square(x, y).map(|sq| sq.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_square_round_trips() {
        for sq in Square::ALL {
            let name = sq.to_string();
            let (x, y) = algebraic_to_xy(&name).expect("square");
            assert_eq!(xy_to_square(x, y), Some(sq));
            assert_eq!(xy_to_algebraic(x, y), Some(name));
        }
        assert_eq!(algebraic_to_xy("a"), None);
        assert_eq!(algebraic_to_xy("A1"), None);
    }
}
