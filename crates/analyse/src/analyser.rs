//! Each position once ([`Analyser`]): requests for positions go to the cache, to an analysis
//! already under way, or to the pool; what the pool finds is committed to the cache by a
//! thread of its own.

use std::{
    collections::HashMap,
    sync::{
        Arc, Condvar, Mutex, PoisonError,
        atomic::{AtomicU64, Ordering},
        mpsc,
    },
    thread::JoinHandle,
    time::{Duration, Instant},
};

use tabia_notation::pgn::Game;

use crate::{
    Analysis, AnnotateOptions, Cache, CacheError, Failure, GameAnalysis, GameRequest, Job, Plan,
    PlanError, Pool, PoolReport, Selection,
};

/// How many analyses the committer gathers before it commits them, at most.
const COMMIT_ITEMS: usize = 2048;
/// How long an analysis waits in the committer, at most, before it is committed.
const COMMIT_EVERY: Duration = Duration::from_millis(500);

/// An answer to come: the analysis of one position.
type Answer = Result<Arc<Analysis>, Arc<Failure>>;

#[derive(Debug, Default)]
struct Slot {
    answer: Mutex<Option<Answer>>,
    ready: Condvar,
}

impl Slot {
    fn set(&self, answer: Answer) {
        *self.answer.lock().unwrap_or_else(PoisonError::into_inner) = Some(answer);
        self.ready.notify_all();
    }

    fn wait(&self) -> Answer {
        let mut answer = self.answer.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if let Some(answer) = answer.as_ref() {
                return answer.clone();
            }
            answer = self
                .ready
                .wait(answer)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}

/// A position's analysis, ready or to come ([`Analyser::request`]).
#[derive(Debug)]
pub struct Ticket(TicketState);

#[derive(Debug)]
enum TicketState {
    Ready(Answer),
    Waiting(Arc<Slot>),
}

impl Ticket {
    /// Waits for the analysis (or why there is none).
    ///
    /// # Errors
    ///
    /// The [`Failure`] of the position: its engine crashed, hung or answered garbage as many
    /// times as the pool retries, or the pool was stopped.
    pub fn wait(self) -> Result<Arc<Analysis>, Arc<Failure>> {
        match self.0 {
            TicketState::Ready(answer) => answer,
            TicketState::Waiting(slot) => slot.wait(),
        }
    }
}

/// What an [`Analyser`] did: positions analysed, taken from the cache, from an analysis of the
/// same run, failed; and the pool's report.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AnalyserReport {
    /// Positions the engines analysed.
    pub analysed: u64,
    /// Positions the cache had.
    pub cached: u64,
    /// Positions asked again in this run (a transposition, the same opening in another game),
    /// answered by the first request's analysis.
    pub repeated: u64,
    /// Positions with no analysis.
    pub failed: u64,
    /// The pool's report (restarts, each engine's share).
    pub pool: PoolReport,
}

#[derive(Debug, Default)]
struct Shared {
    /// Positions asked and not yet in the cache (with no cache: every position asked).
    pending: Mutex<HashMap<String, Arc<Slot>>>,
    analysed: AtomicU64,
    cached: AtomicU64,
    repeated: AtomicU64,
    failed: AtomicU64,
}

/// A pool of engines behind a cache: [`Analyser::request`] answers each position once per
/// run and, with a cache, once for good.
#[derive(Debug)]
pub struct Analyser {
    pool: Pool,
    cache: Option<Arc<Cache>>,
    shared: Arc<Shared>,
    commits: Option<mpsc::Sender<(String, Arc<Analysis>)>>,
    committer: Option<JoinHandle<Result<(), CacheError>>>,
}

impl Analyser {
    /// An analyser over `pool`, keeping what it finds in `cache` (none: only for this run).
    pub fn new(pool: Pool, cache: Option<Cache>) -> Analyser {
        let shared = Arc::new(Shared::default());
        let cache = cache.map(Arc::new);
        let (commits, committer) = match &cache {
            Some(cache) => {
                let (sender, receiver) = mpsc::channel();
                let (cache, shared) = (Arc::clone(cache), Arc::clone(&shared));
                let handle = std::thread::Builder::new()
                    .name("tabia-analyse-cache".to_owned())
                    .spawn(move || commit_loop(&cache, &shared, &receiver))
                    .ok();
                (handle.is_some().then_some(sender), handle)
            }
            None => (None, None),
        };
        Analyser {
            pool,
            cache,
            shared,
            commits,
            committer,
        }
    }

    /// The pool.
    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    /// The analysis of the position `epd` (its FEN `fen`): from the cache, from this run's
    /// request of the same position, or from the pool.
    pub fn request(&self, epd: &str, fen: &str, chess960: bool) -> Ticket {
        if let Some(slot) = self.pending().get(epd) {
            self.shared.repeated.fetch_add(1, Ordering::Relaxed);
            return Ticket(TicketState::Waiting(Arc::clone(slot)));
        }
        if let Some(cache) = &self.cache
            && let Ok(Some(analysis)) = cache.get(epd)
        {
            self.shared.cached.fetch_add(1, Ordering::Relaxed);
            return Ticket(TicketState::Ready(Ok(Arc::new(analysis))));
        }
        let slot = {
            let mut pending = self.pending();
            if let Some(slot) = pending.get(epd) {
                // Asked by another thread since.
                self.shared.repeated.fetch_add(1, Ordering::Relaxed);
                return Ticket(TicketState::Waiting(Arc::clone(slot)));
            }
            let slot = Arc::new(Slot::default());
            pending.insert(epd.to_owned(), Arc::clone(&slot));
            slot
        };
        let (answer, shared) = (Arc::clone(&slot), Arc::clone(&self.shared));
        let commits = self.commits.clone();
        let key = epd.to_owned();
        self.pool
            .submit(Job::new(fen, chess960, move |result| match result {
                Ok(analysis) => {
                    let analysis = Arc::new(analysis);
                    shared.analysed.fetch_add(1, Ordering::Relaxed);
                    answer.set(Ok(Arc::clone(&analysis)));
                    if let Some(commits) = commits {
                        let _ = commits.send((key, analysis));
                    }
                }
                Err(failure) => {
                    shared.failed.fetch_add(1, Ordering::Relaxed);
                    answer.set(Err(Arc::new(failure)));
                }
            }));
        Ticket(TicketState::Waiting(slot))
    }

    /// Asks for every position `plan` wants ([`Plan::wanted`]); the tickets' answers come
    /// with [`PlanTickets::wait`].
    pub fn request_plan(&self, plan: &Plan) -> PlanTickets {
        let positions = plan.positions();
        let tickets = plan
            .wanted()
            .into_iter()
            .map(|i| {
                let p = &positions[i];
                (i, self.request(&p.epd, &p.fen, plan.chess960()))
            })
            .collect();
        PlanTickets {
            len: positions.len(),
            tickets,
        }
    }

    /// Asks for the positions of `game` that `selection` needs ([`Plan::new`],
    /// [`Analyser::request_plan`]) and returns at once: the engines work on them while the
    /// caller asks for more games, and [`GameRequest::wait`] gives the answers. A program
    /// that reads many games asks for a batch of them before it waits, so that no engine
    /// idles at the end of a game.
    ///
    /// # Errors
    ///
    /// [`PlanError`] when the game's moves do not replay, or its variant is not one UCI
    /// engines play (no position is asked).
    pub fn request_game(
        &self,
        game: &Game,
        selection: &Selection,
    ) -> Result<GameRequest, PlanError> {
        let plan = Plan::new(game, selection)?;
        let tickets = self.request_plan(&plan);
        Ok(GameRequest::new(plan, tickets))
    }

    /// Analyses one game and writes the analyses into it: [`Analyser::request_game`], then
    /// waits, then [`GameAnalysis::annotate`] (`[%eval]`s, advice, the accuracy tags), as
    /// `tabia analyse` writes each game. A game whose analysis was cut short by
    /// [`Analyser::stop`] ([`GameAnalysis::stopped`]) is left as it was; positions that failed
    /// otherwise are left without evaluation ([`GameAnalysis::unanalysed`] says which and
    /// why).
    ///
    /// This waits for the game's analyses: to keep N engines busy, call it from N threads
    /// or more (each game's positions are analysed in parallel, but an engine idles while
    /// the last positions of a game are searched and no other game is asked).
    ///
    /// # Errors
    ///
    /// [`PlanError`], as [`Analyser::request_game`].
    pub fn annotate_game(
        &self,
        game: &mut Game,
        selection: &Selection,
        options: &AnnotateOptions,
    ) -> Result<GameAnalysis, PlanError> {
        let analysis = self.request_game(game, selection)?.wait();
        if !analysis.stopped() {
            analysis.annotate(game, options);
        }
        Ok(analysis)
    }

    /// The counts so far: analysed, cached, repeated, failed (for a progress bar).
    pub fn counts(&self) -> (u64, u64, u64, u64) {
        let s = &self.shared;
        (
            s.analysed.load(Ordering::Relaxed),
            s.cached.load(Ordering::Relaxed),
            s.repeated.load(Ordering::Relaxed),
            s.failed.load(Ordering::Relaxed),
        )
    }

    /// Stops: the positions not yet analysed are answered with a stopped [`Failure`] (Ctrl-C).
    pub fn stop(&self) {
        self.pool.stop();
    }

    /// Waits for the engines to finish what they were given, quits them and commits what is
    /// left to the cache.
    ///
    /// # Errors
    ///
    /// The cache's error, if a commit failed (the analyses of that commit are then not kept).
    pub fn finish(mut self) -> Result<AnalyserReport, CacheError> {
        let pool = self.pool.finish();
        drop(self.commits.take());
        if let Some(committer) = self.committer.take() {
            committer.join().unwrap_or(Ok(()))?;
        }
        let (analysed, cached, repeated, failed) = {
            let s = &self.shared;
            (
                s.analysed.load(Ordering::Relaxed),
                s.cached.load(Ordering::Relaxed),
                s.repeated.load(Ordering::Relaxed),
                s.failed.load(Ordering::Relaxed),
            )
        };
        Ok(AnalyserReport {
            analysed,
            cached,
            repeated,
            failed,
            pool,
        })
    }

    fn pending(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Slot>>> {
        self.shared
            .pending
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

/// The analyses of one game's positions ([`PlanTickets::wait`]).
#[derive(Debug, Clone, Default)]
pub struct PlanAnswers {
    /// `analyses[i]` is position `i`'s, as [`Plan::annotate`] takes them (`None` where the
    /// engine was not asked, or failed).
    pub analyses: Vec<Option<Arc<Analysis>>>,
    /// The positions that failed: index and why.
    pub failures: Vec<(usize, Arc<Failure>)>,
}

impl PlanAnswers {
    /// The analyses as [`Plan::annotate`] takes them.
    pub fn refs(&self) -> Vec<Option<&Analysis>> {
        self.analyses.iter().map(|a| a.as_deref()).collect()
    }
}

/// The tickets of one game's positions ([`Analyser::request_plan`]).
#[derive(Debug)]
pub struct PlanTickets {
    len: usize,
    tickets: Vec<(usize, Ticket)>,
}

impl PlanTickets {
    /// Waits for every position's analysis.
    pub fn wait(self) -> PlanAnswers {
        let mut analyses = vec![None; self.len];
        let mut failures = Vec::new();
        for (i, ticket) in self.tickets {
            match ticket.wait() {
                Ok(analysis) => analyses[i] = Some(analysis),
                Err(failure) => failures.push((i, failure)),
            }
        }
        PlanAnswers { analyses, failures }
    }
}

/// The committer: gathers analyses and commits them in batches, then forgets them from the
/// pending map (the cache answers them from then on).
fn commit_loop(
    cache: &Cache,
    shared: &Shared,
    receiver: &mpsc::Receiver<(String, Arc<Analysis>)>,
) -> Result<(), CacheError> {
    let mut batch: Vec<(String, Arc<Analysis>)> = Vec::new();
    let mut since = Instant::now();
    let mut result = Ok(());
    loop {
        let wait = COMMIT_EVERY.saturating_sub(since.elapsed());
        let closed = match receiver.recv_timeout(wait) {
            Ok(item) => {
                batch.push(item);
                false
            }
            Err(mpsc::RecvTimeoutError::Timeout) => false,
            Err(mpsc::RecvTimeoutError::Disconnected) => true,
        };
        if batch.len() >= COMMIT_ITEMS || (since.elapsed() >= COMMIT_EVERY) || closed {
            if !batch.is_empty() {
                let items: Vec<(String, Analysis)> = batch
                    .iter()
                    .map(|(epd, a)| (epd.clone(), Analysis::clone(a)))
                    .collect();
                match cache.put(&items) {
                    Ok(()) => {
                        let mut pending = shared
                            .pending
                            .lock()
                            .unwrap_or_else(PoisonError::into_inner);
                        for (epd, _) in &batch {
                            pending.remove(epd);
                        }
                    }
                    // Keep going (the analyses stay in memory, answered from there), report
                    // the first error at the end.
                    Err(err) => {
                        if result.is_ok() {
                            result = Err(err);
                        }
                    }
                }
                batch.clear();
            }
            since = Instant::now();
        }
        if closed {
            return result;
        }
    }
}
