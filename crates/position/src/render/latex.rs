//! LaTeX for the `chessboard` package (loaded by `xskak`).

use shakmaty::Setup;

use super::{RenderOptions, fen_of};

/// LaTeX drawing the position with the `chessboard` package (which `xskak` loads):
/// `\chessboard[setfen=<FEN>]`, with `inverse` for `flip`, the labels switched off when
/// `coordinates` is `Some(false)`, and the two squares of the last move coloured under the pieces. With
/// `standalone` the result is a complete document of class `standalone` loading `xskak`.
///
/// ```
/// use tabia_position::{RenderOptions, render_latex, shakmaty::Setup};
///
/// let tex = render_latex(&Setup::initial(), &RenderOptions::default());
/// assert_eq!(
///     tex,
///     "\\chessboard[setfen=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,\n\
///      \x20 showmover=true]\n"
/// );
/// ```
pub fn render_latex(setup: &Setup, options: &RenderOptions) -> String {
    let mut keys = vec![format!("setfen={}", fen_of(setup))];
    if options.flip {
        keys.push("inverse=true".to_owned());
    }
    if !options.coordinates_or(true) {
        keys.push("label=false".to_owned());
    }
    keys.push("showmover=true".to_owned());
    if let Some(last_move) = options.last_move {
        keys.push("pgfstyle=color,color=yellow!50".to_owned());
        if last_move.from == last_move.to {
            keys.push(format!("colorbackfields={{{}}}", last_move.to));
        } else {
            keys.push(format!(
                "colorbackfields={{{},{}}}",
                last_move.from, last_move.to
            ));
        }
    }

    let mut tex = String::with_capacity(256);
    if options.standalone {
        tex.push_str("\\documentclass{standalone}\n\\usepackage{xskak}\n\\begin{document}\n");
    }
    tex.push_str("\\chessboard[");
    for (i, key) in keys.iter().enumerate() {
        if i > 0 {
            tex.push_str(",\n  ");
        }
        tex.push_str(key);
    }
    tex.push_str("]\n");
    if options.standalone {
        tex.push_str("\\end{document}\n");
    }
    tex
}

#[cfg(test)]
mod tests {
    use shakmaty::Square;

    use super::*;
    use crate::LastMove;

    #[test]
    fn every_option_is_written() {
        let options = RenderOptions {
            flip: true,
            coordinates: Some(false),
            last_move: Some(LastMove {
                from: Square::E2,
                to: Square::E4,
            }),
            standalone: true,
            ..RenderOptions::default()
        };
        let tex = render_latex(&Setup::initial(), &options);
        assert_eq!(
            tex,
            "\\documentclass{standalone}\n\
             \\usepackage{xskak}\n\
             \\begin{document}\n\
             \\chessboard[setfen=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,\n  \
             inverse=true,\n  \
             label=false,\n  \
             showmover=true,\n  \
             pgfstyle=color,color=yellow!50,\n  \
             colorbackfields={e2,e4}]\n\
             \\end{document}\n"
        );
    }
}
