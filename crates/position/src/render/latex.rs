//! LaTeX for the `chessboard` package (loaded by `xskak`).

use shakmaty::{Color, Role, Setup};

use super::{RenderOptions, fen_of};

/// LaTeX drawing the position with the `chessboard` package (which `xskak` loads):
/// `\chessboard[setfen=<FEN>]`, with `inverse` for `flip`, the labels switched off when
/// `coordinates` is `Some(false)`, and the two squares of the last move coloured under the pieces. With
/// `standalone` the result is a complete document of class `standalone` loading `xskak`.
///
/// A Crazyhouse position (a setup with pockets) is set in a one-column `tabular`: a line
/// naming the pieces in the pocket of the side drawn at the top (Black's, White's with
/// `flip`) with `skak`'s figurines (`\symqueen`, …), the board, and the other pocket's line.
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
    // `chessboard` reads no pockets in a FEN: they are drawn apart (below).
    let board = Setup {
        pockets: None,
        ..setup.clone()
    };
    let mut keys = vec![format!("setfen={}", fen_of(&board))];
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
    let pockets = setup.pockets.as_ref().map(|pockets| {
        let line = |color: Color| {
            let mut line = format!("\\textit{{{color:?}'s pocket:}}");
            let mut empty = true;
            for role in Role::ALL.into_iter().rev() {
                for _ in 0..*pockets.get(color).get(role) {
                    line.push_str(" \\sym");
                    line.push_str(role_name(role));
                    line.push_str("{}");
                    empty = false;
                }
            }
            if empty {
                line.push_str(" none");
            }
            line
        };
        if options.flip {
            (line(Color::White), line(Color::Black))
        } else {
            (line(Color::Black), line(Color::White))
        }
    });
    if let Some((top, _)) = &pockets {
        tex.push_str("\\begin{tabular}{@{}c@{}}\n");
        tex.push_str(top);
        tex.push_str("\\\\\n");
    }
    tex.push_str("\\chessboard[");
    for (i, key) in keys.iter().enumerate() {
        if i > 0 {
            tex.push_str(",\n  ");
        }
        tex.push_str(key);
    }
    tex.push_str("]\n");
    if let Some((_, bottom)) = &pockets {
        tex.push_str("\\\\\n");
        tex.push_str(bottom);
        tex.push_str("\n\\end{tabular}\n");
    }
    if options.standalone {
        tex.push_str("\\end{document}\n");
    }
    tex
}

/// The name of a role as `skak` spells its figurine command (`\symqueen`).
pub(super) fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
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

    #[test]
    fn crazyhouse_pockets_above_and_below() {
        let setup = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[QNpp] w KQkq - 0 4"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_setup();
        let tex = render_latex(&setup, &RenderOptions::default());
        assert_eq!(
            tex,
            "\\begin{tabular}{@{}c@{}}\n\
             \\textit{Black's pocket:} \\sympawn{} \\sympawn{}\\\\\n\
             \\chessboard[setfen=r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 4,\n  \
             showmover=true]\n\
             \\\\\n\
             \\textit{White's pocket:} \\symqueen{} \\symknight{}\n\
             \\end{tabular}\n"
        );
        let mut empty = setup;
        empty.pockets = Some(Default::default());
        let flipped = render_latex(
            &empty,
            &RenderOptions {
                flip: true,
                ..RenderOptions::default()
            },
        );
        assert!(flipped.starts_with(
            "\\begin{tabular}{@{}c@{}}\n\\textit{White's pocket:} none\\\\\n\\chessboard["
        ));
        assert!(flipped.ends_with("\\textit{Black's pocket:} none\n\\end{tabular}\n"));
    }
}
