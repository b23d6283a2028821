//! Edits of the game tree for output forms: stripping what a reader does not want, and
//! splitting variations into games of their own.

use super::{CommandKind, Game, Line, Move, Outcome, writer::SEVEN_TAG_ROSTER};

/// What [`Game::strip`] removes from a game.
///
/// ```
/// use tabia_notation::pgn::{Game, Strip};
///
/// let mut game: Game = "[ECO \"C20\"]\n\n1. e4 $1 {good} (1. d4) e5 *".parse()?;
/// game.strip(&Strip { comments: true, nags: true, variations: true, tags: true, ..Strip::default() });
/// assert_eq!(game, "1. e4 e5 *".parse::<Game>()?);
/// # Ok::<_, tabia_notation::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Strip {
    /// Every comment, before and after moves.
    pub comments: bool,
    /// Every NAG (and so every `!`, `?` suffix, read as NAGs).
    pub nags: bool,
    /// Every variation: only the mainline is left.
    pub variations: bool,
    /// Every tag but the Seven Tag Roster and the tags that say where the game starts
    /// (`FEN`, `SetUp`, `Variant`), without which the moves would not read back.
    pub tags: bool,
    /// The commands of these kinds in comments (`[%clk]`, `[%eval]`, `[%cal]`, …: see
    /// [`Game::strip_commands`]); a comment left empty is dropped.
    pub commands: Vec<CommandKind>,
}

/// Tags [`Strip::tags`] keeps besides the Seven Tag Roster.
const START_TAGS: [&str; 3] = ["FEN", "SetUp", "Variant"];

impl Game {
    /// Removes what `strip` names, everywhere in the tree (nested variations on an explicit
    /// stack, whatever their depth).
    pub fn strip(&mut self, strip: &Strip) {
        if strip.tags {
            self.tags.retain(|(name, _)| {
                SEVEN_TAG_ROSTER.contains(&name.as_str()) || START_TAGS.contains(&name.as_str())
            });
        }
        if strip.variations {
            // Dropping a line drops its nested variations from an explicit stack.
            for m in &mut self.mainline.moves {
                m.variations.clear();
            }
        }
        if !strip.commands.is_empty() && !strip.comments {
            self.strip_commands(&strip.commands);
        }
        if !strip.comments && !strip.nags {
            return;
        }
        let mut stack: Vec<&mut Line> = vec![&mut self.mainline];
        while let Some(line) = stack.pop() {
            if strip.comments {
                line.comments.clear();
            }
            for m in &mut line.moves {
                if strip.comments {
                    m.comments.clear();
                }
                if strip.nags {
                    m.nags.clear();
                }
                stack.extend(m.variations.iter_mut());
            }
        }
    }

    /// The game without its variations, then every variation as a game of its own (text
    /// order, nested ones too, down to `max_depth` levels when given): the moves of the line
    /// it branches from up to the branch, then the variation's moves. This is pgn-extract's
    /// `--splitvariants`.
    ///
    /// A variation's game keeps the tags, the comments before the first move and those of
    /// the moves it is made of; comments before the variation's first move are put after the
    /// move before it. Its result is `*` (tag and marker): a variation has no result.
    ///
    /// ```
    /// use tabia_notation::pgn::Game;
    ///
    /// let game: Game = "1. e4 e5 (1... c5 (1... e6) 2. Nf3) 2. Nf3 1-0".parse()?;
    /// let games: Vec<String> = game
    ///     .split_variations(None)
    ///     .iter()
    ///     .map(|g| g.to_string().rsplit("\n\n").next().unwrap_or_default().to_owned())
    ///     .collect();
    /// assert_eq!(games, ["1. e4 e5 2. Nf3 1-0", "1. e4 c5 2. Nf3 *", "1. e4 e6 *"]);
    /// # Ok::<_, tabia_notation::Error>(())
    /// ```
    pub fn split_variations(&self, max_depth: Option<usize>) -> Vec<Game> {
        /// A line to be written as a game: the moves before it, and how deep it is.
        struct Pending<'a> {
            line: &'a Line,
            prefix: Vec<Move>,
            depth: usize,
        }
        let mut games = Vec::new();
        let mut stack = vec![Pending {
            line: &self.mainline,
            prefix: Vec::new(),
            depth: 0,
        }];
        while let Some(Pending {
            line,
            mut prefix,
            depth,
        }) = stack.pop()
        {
            let branch = prefix.len();
            if depth > 0
                && let Some(m) = prefix.last_mut()
            {
                m.comments.extend(line.comments.iter().cloned());
            }
            if depth < max_depth.unwrap_or(usize::MAX) {
                for (i, m) in line.moves.iter().enumerate().rev() {
                    for variation in m.variations.iter().rev() {
                        let mut before = prefix.clone();
                        before.extend(line.moves[..i].iter().map(bare));
                        stack.push(Pending {
                            line: variation,
                            prefix: before,
                            depth: depth + 1,
                        });
                    }
                }
            }
            let mut comments = self.mainline.comments.clone();
            if depth > 0 && branch == 0 {
                comments.extend(line.comments.iter().cloned());
            }
            prefix.extend(line.moves.iter().map(bare));
            let mut game = Game {
                tags: self.tags.clone(),
                mainline: Line {
                    comments,
                    moves: prefix,
                },
                result: self.result,
                start: self.start,
                // What the reader repaired is about the mainline's game.
                warnings: if depth == 0 {
                    self.warnings.clone()
                } else {
                    Vec::new()
                },
            };
            if depth > 0 {
                game.result = Outcome::Unknown;
                for (name, value) in &mut game.tags {
                    if name == "Result" {
                        "*".clone_into(value);
                    }
                }
            }
            games.push(game);
        }
        games
    }
}

/// A copy of a move without its variations.
fn bare(m: &Move) -> Move {
    Move {
        san: m.san,
        nags: m.nags.clone(),
        comments: m.comments.clone(),
        variations: Vec::new(),
        at: m.at,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(pgn: &str) -> Game {
        pgn.parse().unwrap()
    }

    #[test]
    fn strip_each_kind_alone() {
        let text = "[Event \"e\"]\n[ECO \"C20\"]\n[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n\n\
                    {pre} 1. Kb1 $1 {c} (1. Kb2 {v} $2 (1. Ka2)) Kg1 *";
        let strip = |s: Strip| {
            let mut g = parse(text);
            g.strip(&s);
            g
        };
        let comments = strip(Strip {
            comments: true,
            ..Strip::default()
        });
        assert_eq!(
            comments,
            parse(
                "[Event \"e\"]\n[ECO \"C20\"]\n[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n\n\
                 1. Kb1 $1 (1. Kb2 $2 (1. Ka2)) Kg1 *"
            )
        );
        let nags = strip(Strip {
            nags: true,
            ..Strip::default()
        });
        assert_eq!(
            nags,
            parse(
                "[Event \"e\"]\n[ECO \"C20\"]\n[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n\n\
                 {pre} 1. Kb1 {c} (1. Kb2 {v} (1. Ka2)) Kg1 *"
            )
        );
        let variations = strip(Strip {
            variations: true,
            ..Strip::default()
        });
        assert_eq!(
            variations,
            parse(
                "[Event \"e\"]\n[ECO \"C20\"]\n[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n\n\
                 {pre} 1. Kb1 $1 {c} Kg1 *"
            )
        );
        let tags = strip(Strip {
            tags: true,
            ..Strip::default()
        });
        assert_eq!(
            tags.tags,
            [
                ("Event".to_owned(), "e".to_owned()),
                ("FEN".to_owned(), "8/8/8/8/8/8/8/K6k w - - 0 1".to_owned())
            ]
        );
    }

    #[test]
    fn split_keeps_path_comments_and_marks_variations_unfinished() {
        let game = parse(
            "[Result \"1-0\"]\n\n{pre} 1. e4 e5 {c} (1... c5 {sic} (1... e6 2. d4) 2. Nf3 $1) \
             ({x} 1... d5) 2. Nf3 1-0",
        );
        let games = game.split_variations(None);
        let texts: Vec<String> = games.iter().map(|g| g.to_string()).collect();
        let tail = |s: &str| s.rsplit("\n\n").next().unwrap_or_default().to_owned();
        assert_eq!(
            texts.iter().map(|t| tail(t)).collect::<Vec<_>>(),
            [
                "{pre} 1. e4 e5 {c} 2. Nf3 1-0",
                "{pre} 1. e4 c5 {sic} 2. Nf3 $1 *",
                "{pre} 1. e4 e6 2. d4 *",
                "{pre} 1. e4 {x} 1... d5 *",
            ]
        );
        assert!(texts[0].contains("[Result \"1-0\"]"));
        assert!(texts[1].contains("[Result \"*\"]"));
        assert_eq!(game.split_variations(Some(1)).len(), 3);
        assert_eq!(game.split_variations(Some(0)).len(), 1);
    }

    #[test]
    fn split_and_strip_walk_deep_trees_without_recursion() {
        let depth = 50_000;
        let text = format!(
            "1. e4 {}{} *",
            "(1. d4 {c} ".repeat(depth),
            ")".repeat(depth)
        );
        let mut game = parse(&text);
        game.strip(&Strip {
            comments: true,
            ..Strip::default()
        });
        assert!(!game.to_string().contains('{'));
        assert_eq!(game.split_variations(Some(3)).len(), 4);
        game.strip(&Strip {
            variations: true,
            ..Strip::default()
        });
        assert_eq!(game.mainline.moves[0].variations.len(), 0);
    }
}
