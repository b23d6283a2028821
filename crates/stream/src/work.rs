//! [`Work`]: what the workers of a [`Pipeline`](crate::Pipeline) do, one trait for every
//! kind of item, and the adapters that make one of closures.

use std::marker::PhantomData;

use tabia_notation::pgn::{Origin, RawGame, Skip, Visitor};

use crate::Visited;

/// Work done on all cores in input order, like ripgrep's `Sink`: what a worker does with each
/// item of a batch ([`Work::item`], into the batch's accumulator) and with the batch once its
/// items are done ([`Work::finish`], still on the worker); the [`Pipeline`](crate::Pipeline)
/// hands the finished batches to the caller in input order.
///
/// `Item` is what the pipeline gives: `&T` for [`Pipeline::run`](crate::Pipeline::run) over
/// any items, [`Visited`] for [`Pipeline::run_games`](crate::Pipeline::run_games) over the
/// games of a PGN input read in place. Closures become a `Work` with [`fold`] (and
/// [`Fold::finish`] for a last step per batch); a type of its own suits work with state.
///
/// ```
/// use tabia_stream::{SplitGames, Pipeline, RawGame, Work};
///
/// /// The plies of the games, added up per batch: the batch's sum is all the caller gets.
/// struct Plies;
///
/// impl Work<&RawGame> for Plies {
///     type Batch = u64;
///     type Done = u64;
///     fn item(&self, plies: &mut u64, _number: u64, game: &RawGame) {
///         *plies += game.parse().map_or(0, |game| game.mainline.moves.len() as u64);
///     }
///     fn finish(&self, plies: u64) -> u64 {
///         plies
///     }
/// }
///
/// let pgn = b"1. e4 e5 2. Nf3 1-0\n\n1. d4 0-1\n".repeat(100);
/// let mut total = 0;
/// Pipeline::new().with_batch_bytes(64).run(SplitGames::new(&pgn[..]), &Plies, |plies, _numbers| {
///     total += plies;
///     Ok::<_, ()>(())
/// })?;
/// assert_eq!(total, 400);
/// # Ok::<(), ()>(())
/// ```
pub trait Work<Item>: Sync {
    /// What a worker fills from the items of one batch (made with `Default` for each batch).
    type Batch: Default;
    /// What a finished batch gives the caller.
    type Done: Send;

    /// One item of the batch, with its 1-based number in the input.
    fn item(&self, batch: &mut Self::Batch, number: u64, item: Item);

    /// The batch, once all its items are done, on the same worker: per-batch work that must
    /// not fall on the caller's one thread (`tabia table` encodes its columns here).
    fn finish(&self, batch: Self::Batch) -> Self::Done;
}

/// A [`Work`] of a closure that adds each item to the batch's `A`; the caller gets the `A`s.
///
/// ```
/// use tabia_stream::{Pipeline, fold};
///
/// let items = (1..=100u64).map(|i| Ok::<_, ()>(i.to_string()));
/// let mut sum = 0;
/// Pipeline::new().with_batch_bytes(50).run(
///     items,
///     &fold(|sum: &mut u64, _number, item: &String| *sum += item.parse::<u64>().unwrap()),
///     |batch, _numbers| {
///         sum += batch;
///         Ok::<_, ()>(())
///     },
/// )?;
/// assert_eq!(sum, 5050);
/// # Ok::<(), ()>(())
/// ```
///
/// The closure's parameters name their types (`|sum: &mut u64, _number, item: &String|`):
/// the item may borrow for any lifetime, which Rust infers only from the closure itself.
pub fn fold<A, F>(f: F) -> Fold<A, F> {
    Fold(f, PhantomData)
}

/// The [`Work`] of a closure: see [`fold`].
pub struct Fold<A, F>(F, PhantomData<fn() -> A>);

impl<A, F> Fold<A, F> {
    /// With a last step per batch on the worker: the caller gets `finish` of each batch's `A`.
    pub fn finish<G>(self, finish: G) -> Finish<A, F, G> {
        Finish(self.0, finish, PhantomData)
    }
}

impl<A, Item, F> Work<Item> for Fold<A, F>
where
    A: Default + Send,
    F: Fn(&mut A, u64, Item) + Sync,
{
    type Batch = A;
    type Done = A;

    fn item(&self, batch: &mut A, number: u64, item: Item) {
        (self.0)(batch, number, item);
    }

    fn finish(&self, batch: A) -> A {
        batch
    }
}

/// The [`Work`] of two closures: see [`Fold::finish`].
pub struct Finish<A, F, G>(F, G, PhantomData<fn() -> A>);

impl<A, B, Item, F, G> Work<Item> for Finish<A, F, G>
where
    A: Default,
    B: Send,
    F: Fn(&mut A, u64, Item) + Sync,
    G: Fn(A) -> B + Sync,
{
    type Batch = A;
    type Done = B;

    fn item(&self, batch: &mut A, number: u64, item: Item) {
        (self.0)(batch, number, item);
    }

    fn finish(&self, batch: A) -> B {
        (self.1)(batch)
    }
}

/// Work on each game's bytes ([`RawGame`]) run over games read in place
/// ([`Pipeline::run_games`](crate::Pipeline::run_games) with the [`Bytes`] visitor): each game
/// is copied out of the piece of input it was found in.
///
/// ```
/// use tabia_stream::{Bytes, Pipeline, RawGame, OnRawGames, fold};
///
/// let pgn = b"[Event \"a\"]\n\n1. e4 {a comment\n[over lines]} e5 1-0\n\n".repeat(500);
/// let mut lines = Vec::new();
/// let outcome = Pipeline::new().with_jobs(2).with_batch_bytes(1000).run_games(
///     &pgn[..],
///     Bytes::default,
///     &OnRawGames(fold(|starts: &mut Vec<u64>, _number, game: &RawGame| {
///         starts.push(game.start.line)
///     })),
///     |starts, numbers| {
///         assert_eq!(starts.len() as u64, numbers.end - numbers.start);
///         lines.extend(starts);
///         Ok::<_, ()>(())
///     },
/// )?;
/// assert_eq!(outcome.items, 500);
/// assert!(lines.iter().zip(0..).all(|(&line, k)| line == 1 + 5 * k));
/// # Ok::<(), ()>(())
/// ```
pub struct OnRawGames<W>(pub W);

impl<'a, W, B, D> Work<Visited<'a, ()>> for OnRawGames<W>
where
    W: for<'g> Work<&'g RawGame, Batch = B, Done = D>,
    B: Default,
    D: Send,
{
    type Batch = B;
    type Done = D;

    fn item(&self, batch: &mut B, number: u64, game: Visited<'a, ()>) {
        self.0.item(batch, number, &game.to_raw());
    }

    fn finish(&self, batch: B) -> D {
        self.0.finish(batch)
    }
}

/// The visitor that reads nothing of a game: [`Pipeline::run_games`](crate::Pipeline::run_games)
/// then only splits the input into games ([`Visited::bytes`], [`Visited::start`]).
#[derive(Debug, Default, Clone, Copy)]
pub struct Bytes;

impl Visitor for Bytes {
    type Output = ();

    fn begin_game(&mut self, _: Origin) -> Skip {
        Skip(true)
    }

    fn end_game(&mut self) {}
}
