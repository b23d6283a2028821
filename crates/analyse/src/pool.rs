//! Many engines at once: a [`Pool`] of N [`Engine`]s on N threads taking [`Job`]s from one
//! queue, first come first served, each job answered through its callback.
//!
//! Nothing is lost: an engine that crashes, hangs or answers garbage is started again and the
//! position tried again on the fresh engine, up to [`PoolSpec::retries`] times; then the job
//! is answered with a [`Failure`] and the pool goes on.

use std::{
    collections::VecDeque,
    fmt,
    sync::{
        Arc, Condvar, Mutex, MutexGuard, PoisonError,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    thread::{self, JoinHandle},
    time::{Duration, Instant},
};

use crate::{
    analysis::{Analysis, Limit, Settings},
    uci::{Engine, EngineCommand, EngineHandle, UciError, UciErrorKind},
};

/// How many times in a row an engine thread tries to start its engine again before it gives
/// up, and the pause before the first retry (doubled for each next one).
const START_TRIES: u32 = 3;
const START_BACKOFF: Duration = Duration::from_millis(100);

/// What a pool runs and asks: the engine, its options, the search and how much patience.
#[derive(Debug, Clone)]
pub struct PoolSpec {
    /// How to run each engine.
    pub command: EngineCommand,
    /// The options set on each engine after `uci`, in order (`Threads`, `Hash`).
    pub options: Vec<(String, String)>,
    /// How long each position is searched.
    pub limit: Limit,
    /// How many lines (UCI's `MultiPV`), at least 1.
    pub multipv: u32,
    /// How long an engine has to start, and to analyse one position, before it counts as
    /// hung.
    pub timeout: Duration,
    /// How many times a position is tried again on a fresh engine after the engine crashed,
    /// hung or answered garbage.
    pub retries: u32,
}

impl PoolSpec {
    /// The options an engine is given unless told otherwise: one thread and 16 MB of hash,
    /// so that (with `ucinewgame` before each position) a position's analysis does not depend
    /// on the machine nor on the positions analysed before it: what makes it cacheable.
    pub const DEFAULT_OPTIONS: [(&'static str, &'static str); 2] =
        [("Threads", "1"), ("Hash", "16")];

    /// `options` (in order) after the [`DEFAULT_OPTIONS`](PoolSpec::DEFAULT_OPTIONS) not
    /// given (by name, in any case): the options of `tabia analyse` and of the Python
    /// package's `tabia.analyse`, whose order is part of the cache's key
    /// ([`Settings::fingerprint`]).
    ///
    /// ```
    /// use tabia_analyse::PoolSpec;
    ///
    /// let given = vec![("threads".to_owned(), "4".to_owned())];
    /// let options = PoolSpec::options_with_defaults(given);
    /// assert_eq!(options, [("Hash".to_owned(), "16".to_owned()), ("threads".to_owned(), "4".to_owned())]);
    /// ```
    pub fn options_with_defaults(mut options: Vec<(String, String)>) -> Vec<(String, String)> {
        for (name, value) in PoolSpec::DEFAULT_OPTIONS {
            if !options.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)) {
                options.insert(0, (name.to_owned(), value.to_owned()));
            }
        }
        options
    }
}

/// A position to analyse and what to do with the answer. The callback runs on an engine's
/// thread: it should be quick (send the result on a channel, say).
pub struct Job {
    /// The position.
    pub fen: String,
    /// Whether it is a Chess960 position (`UCI_Chess960`).
    pub chess960: bool,
    /// Called once with the analysis or why there is none.
    pub done: Box<dyn FnOnce(Result<Analysis, Failure>) + Send>,
}

impl Job {
    /// A job for `fen`, answered to `done`.
    pub fn new(
        fen: impl Into<String>,
        chess960: bool,
        done: impl FnOnce(Result<Analysis, Failure>) + Send + 'static,
    ) -> Job {
        Job {
            fen: fen.into(),
            chess960,
            done: Box::new(done),
        }
    }
}

impl fmt::Debug for Job {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Job")
            .field("fen", &self.fen)
            .field("chess960", &self.chess960)
            .finish_non_exhaustive()
    }
}

/// Why a position has no analysis: the last error, after how many tries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The position.
    pub fen: String,
    /// How many times an engine was asked (0 when none was: the pool was stopped first, or
    /// had no engine left, or the position is not legal).
    pub attempts: u32,
    /// The last error.
    pub error: UciError,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.error)?;
        if self.attempts > 1 {
            write!(f, " (tried {} times)", self.attempts)?;
        }
        Ok(())
    }
}

impl std::error::Error for Failure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// What a pool did, when it is finished.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PoolReport {
    /// Positions analysed.
    pub analysed: u64,
    /// Positions that failed (each answered with a [`Failure`]), those stopped aside.
    pub failed: u64,
    /// Positions not analysed because the pool was stopped.
    pub stopped: u64,
    /// Engines started again after one crashed, hung or answered garbage.
    pub restarts: u64,
    /// Each engine thread's share of the work.
    pub engines: Vec<EngineReport>,
}

/// One engine thread's work.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EngineReport {
    /// Positions it analysed.
    pub positions: u64,
    /// Time spent in analyses, failed ones included.
    pub busy: Duration,
    /// Times its engine was started again.
    pub restarts: u64,
}

/// N engines on N threads, analysing the positions submitted, first come first served.
///
/// ```no_run
/// use std::{sync::mpsc, time::Duration};
///
/// use tabia_analyse::{Job, Limit, Pool, PoolSpec};
///
/// let spec = PoolSpec {
///     command: "stockfish".parse()?,
///     options: vec![("Threads".into(), "1".into()), ("Hash".into(), "16".into())],
///     limit: Limit { depth: Some(10), ..Limit::default() },
///     multipv: 1,
///     timeout: Duration::from_secs(30),
///     retries: 2,
/// };
/// let pool = Pool::start(spec, 2)?;
/// println!("{}", pool.settings().fingerprint());
/// let (sender, answers) = mpsc::channel();
/// for fen in ["6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"] {
///     let sender = sender.clone();
///     pool.submit(Job::new(fen, false, move |result| {
///         let _ = sender.send((fen, result));
///     }));
/// }
/// drop(sender);
/// for (fen, result) in answers {
///     match result {
///         Ok(analysis) => println!("{fen}: {:?}", analysis.score()),
///         Err(failure) => eprintln!("{failure}"),
///     }
/// }
/// let report = pool.finish();
/// assert_eq!(report.analysed, 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Pool {
    shared: Arc<Shared>,
    workers: Vec<JoinHandle<EngineReport>>,
    name: String,
}

#[derive(Debug)]
struct Shared {
    spec: PoolSpec,
    queue: Mutex<Queue>,
    /// Signalled when a job is queued, or the queue closed or stopped.
    ready: Condvar,
    /// Each thread's engine of the moment, for [`Pool::stop`].
    engines: Vec<Mutex<Option<EngineHandle>>>,
    /// Set first thing by [`Pool::stop`].
    stopping: AtomicBool,
    analysed: AtomicU64,
    failed: AtomicU64,
    stopped: AtomicU64,
}

#[derive(Debug, Default)]
struct Queue {
    jobs: VecDeque<Job>,
    /// No more jobs will come: threads leave when it is empty.
    closed: bool,
    /// [`Pool::stop`]: threads leave now.
    stopped: bool,
    /// Engine threads still working.
    live: usize,
    /// Why no engine thread is left, when none is: later jobs fail with it.
    dead: Option<UciError>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // Every critical section leaves its data consistent: a panic elsewhere does not matter.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Pool {
    /// Starts `engines` engines (at least one) in parallel, each as [`Engine::start`] does,
    /// and a thread for each.
    ///
    /// # Errors
    ///
    /// The first engine's error when one cannot start (the others are killed).
    pub fn start(spec: PoolSpec, engines: usize) -> Result<Pool, UciError> {
        let count = engines.max(1);
        let started: Vec<Result<Engine, UciError>> = thread::scope(|scope| {
            let starts: Vec<_> = (0..count)
                .map(|_| scope.spawn(|| Engine::start(&spec.command, &spec.options, spec.timeout)))
                .collect();
            starts
                .into_iter()
                .map(|start| {
                    start
                        .join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                })
                .collect()
        });
        let engines = started
            .into_iter()
            .collect::<Result<Vec<Engine>, UciError>>()?;
        let name = engines.first().map_or_else(
            || spec.command.to_string(),
            |engine| engine.name().to_owned(),
        );
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue {
                live: engines.len(),
                ..Queue::default()
            }),
            ready: Condvar::new(),
            engines: engines
                .iter()
                .map(|engine| Mutex::new(Some(engine.handle())))
                .collect(),
            stopping: AtomicBool::new(false),
            analysed: AtomicU64::new(0),
            failed: AtomicU64::new(0),
            stopped: AtomicU64::new(0),
            spec,
        });
        let mut workers = Vec::with_capacity(engines.len());
        for (index, engine) in engines.into_iter().enumerate() {
            let worker = Worker {
                shared: Arc::clone(&shared),
                index,
                engine: Some(engine),
                report: EngineReport::default(),
                retired: false,
            };
            let spawned = thread::Builder::new()
                .name(format!("tabia-engine-{index}"))
                .spawn(move || worker.run());
            match spawned {
                Ok(handle) => workers.push(handle),
                Err(err) => {
                    let pool = Pool {
                        shared: Arc::clone(&shared),
                        workers,
                        name: name.clone(),
                    };
                    drop(pool);
                    let kind = UciErrorKind::Spawn(format!("no thread for the engine: {err}"));
                    return Err(UciError::new(kind, &shared.spec.command));
                }
            }
        }
        Ok(Pool {
            shared,
            workers,
            name,
        })
    }

    /// The engines' name, as the first one's `id name` says.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What decides the pool's answers besides the position: the key of a cache of them.
    pub fn settings(&self) -> Settings {
        let spec = &self.shared.spec;
        Settings {
            engine: self.name.clone(),
            options: spec.options.clone(),
            limit: spec.limit,
            multipv: spec.multipv.max(1),
        }
    }

    /// Queues a position; an idle engine takes it at once. After [`stop`](Pool::stop), or
    /// when no engine is left, the job is answered at once with a [`Failure`].
    pub fn submit(&self, job: Job) {
        let mut queue = lock(&self.shared.queue);
        if queue.stopped {
            drop(queue);
            self.shared.answer_stopped(job);
        } else if let Some(error) = queue.dead.clone() {
            drop(queue);
            self.shared.answer(job, 0, Err(error));
        } else {
            queue.jobs.push_back(job);
            drop(queue);
            self.shared.ready.notify_one();
        }
    }

    /// Stops the pool (a Ctrl-C): the jobs queued are answered now with a failure of kind
    /// [`Stopped`](UciErrorKind::Stopped), the searches running are sent `stop` and their jobs
    /// answered so too. [`finish`](Pool::finish) then quits the engines.
    pub fn stop(&self) {
        self.shared.stopping.store(true, Ordering::SeqCst);
        let jobs = {
            let mut queue = lock(&self.shared.queue);
            queue.stopped = true;
            std::mem::take(&mut queue.jobs)
        };
        self.shared.ready.notify_all();
        for job in jobs {
            self.shared.answer_stopped(job);
        }
        for slot in &self.shared.engines {
            if let Some(engine) = lock(slot).as_ref() {
                engine.stop();
            }
        }
    }

    /// Waits until every job submitted is answered, quits the engines and says what they did.
    ///
    /// # Panics
    ///
    /// When a job's callback panicked, with its panic.
    pub fn finish(mut self) -> PoolReport {
        lock(&self.shared.queue).closed = true;
        self.shared.ready.notify_all();
        let mut engines = Vec::with_capacity(self.workers.len());
        for worker in std::mem::take(&mut self.workers) {
            match worker.join() {
                Ok(report) => engines.push(report),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        let shared = &self.shared;
        PoolReport {
            analysed: shared.analysed.load(Ordering::SeqCst),
            failed: shared.failed.load(Ordering::SeqCst),
            stopped: shared.stopped.load(Ordering::SeqCst),
            restarts: engines.iter().map(|engine| engine.restarts).sum(),
            engines,
        }
    }
}

impl Drop for Pool {
    /// A pool not finished is stopped and its engines killed.
    fn drop(&mut self) {
        if self.workers.is_empty() {
            return;
        }
        self.stop();
        for slot in &self.shared.engines {
            if let Some(engine) = lock(slot).as_ref() {
                engine.kill();
            }
        }
        for worker in std::mem::take(&mut self.workers) {
            let _ = worker.join();
        }
    }
}

impl Shared {
    /// The next job, waiting for one; `None` when the thread should leave.
    fn take(&self) -> Option<Job> {
        let mut queue = lock(&self.queue);
        loop {
            if queue.stopped {
                return None;
            }
            if let Some(job) = queue.jobs.pop_front() {
                return Some(job);
            }
            if queue.closed {
                return None;
            }
            queue = self
                .ready
                .wait(queue)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    fn answer(&self, job: Job, attempts: u32, result: Result<Analysis, UciError>) {
        let counter = match &result {
            Ok(_) => &self.analysed,
            Err(error) if *error.kind() == UciErrorKind::Stopped => &self.stopped,
            Err(_) => &self.failed,
        };
        counter.fetch_add(1, Ordering::SeqCst);
        let Job { fen, done, .. } = job;
        done(result.map_err(|error| Failure {
            fen,
            attempts,
            error,
        }));
    }

    fn answer_stopped(&self, job: Job) {
        let error = UciError::new(UciErrorKind::Stopped, &self.spec.command).analysing(&job.fen);
        self.answer(job, 0, Err(error));
    }
}

/// One engine thread.
struct Worker {
    shared: Arc<Shared>,
    index: usize,
    /// `None` after a failure, until the next job starts a fresh one.
    engine: Option<Engine>,
    report: EngineReport,
    retired: bool,
}

impl Worker {
    fn run(mut self) -> EngineReport {
        while let Some(job) = self.shared.take() {
            if let Err(start) = self.analyse(job) {
                // No engine to be had: this thread leaves the queue to the others.
                self.retire(Some(start));
                break;
            }
        }
        if let Some(engine) = self.engine.take() {
            *lock(&self.shared.engines[self.index]) = None;
            engine.quit();
        }
        self.retire(None);
        std::mem::take(&mut self.report)
    }

    /// Analyses `job` and answers it, on a fresh engine as many times as allowed; the error
    /// of the last start when no engine could be started.
    fn analyse(&mut self, job: Job) -> Result<(), UciError> {
        let shared = Arc::clone(&self.shared);
        let spec = &shared.spec;
        let mut attempts = 0;
        loop {
            let mut engine = match self.engine.take() {
                Some(engine) => engine,
                None => match self.restart() {
                    Ok(engine) => engine,
                    Err(error) => {
                        let stopped = *error.kind() == UciErrorKind::Stopped;
                        shared.answer(job, attempts, Err(error.clone()));
                        return if stopped { Ok(()) } else { Err(error) };
                    }
                },
            };
            attempts += 1;
            let started = Instant::now();
            let result = engine.analyse(
                &job.fen,
                job.chess960,
                &spec.limit,
                spec.multipv,
                spec.timeout,
            );
            self.report.busy += started.elapsed();
            let error = match result {
                Ok(analysis) => {
                    self.engine = Some(engine);
                    self.report.positions += 1;
                    shared.answer(job, attempts, Ok(analysis));
                    return Ok(());
                }
                Err(error) => error,
            };
            match error.kind() {
                UciErrorKind::Position(_) => {
                    self.engine = Some(engine);
                    shared.answer(job, 0, Err(error));
                    return Ok(());
                }
                UciErrorKind::Stopped => {
                    self.engine = Some(engine);
                    shared.answer(job, attempts, Err(error));
                    return Ok(());
                }
                _ => {}
            }
            // The engine crashed, hung or talked nonsense: it is killed, and a fresh one
            // started for the next try.
            *lock(&shared.engines[self.index]) = None;
            drop(engine);
            if shared.stopping.load(Ordering::SeqCst) {
                let stopped =
                    UciError::new(UciErrorKind::Stopped, &spec.command).analysing(&job.fen);
                shared.answer(job, attempts, Err(stopped));
                return Ok(());
            }
            if attempts > spec.retries {
                shared.answer(job, attempts, Err(error));
                return Ok(());
            }
        }
    }

    /// Starts a fresh engine, trying a few times with a pause between.
    fn restart(&mut self) -> Result<Engine, UciError> {
        let spec = &self.shared.spec;
        let mut pause = START_BACKOFF;
        let mut tries = 0;
        let engine = loop {
            if self.shared.stopping.load(Ordering::SeqCst) {
                return Err(UciError::new(UciErrorKind::Stopped, &spec.command));
            }
            tries += 1;
            match Engine::start(&spec.command, &spec.options, spec.timeout) {
                Ok(engine) => break engine,
                Err(error) if tries >= START_TRIES => return Err(error),
                Err(_) => {
                    thread::sleep(pause);
                    pause *= 2;
                }
            }
        };
        self.report.restarts += 1;
        let handle = engine.handle();
        *lock(&self.shared.engines[self.index]) = Some(handle.clone());
        // A stop that came while the engine started did not see it.
        if self.shared.stopping.load(Ordering::SeqCst) {
            handle.stop();
        }
        Ok(engine)
    }

    /// This thread works no more: when it was the last, the jobs queued fail with `error`
    /// (they would wait for ever), as will those submitted later.
    fn retire(&mut self, error: Option<UciError>) {
        if std::mem::replace(&mut self.retired, true) {
            return;
        }
        let jobs = {
            let mut queue = lock(&self.shared.queue);
            queue.live -= 1;
            if queue.live > 0 || queue.stopped {
                return;
            }
            let error = error.unwrap_or_else(|| {
                let kind = UciErrorKind::Spawn("no engine thread is left".to_owned());
                UciError::new(kind, &self.shared.spec.command)
            });
            queue.dead = Some(error.clone());
            std::mem::take(&mut queue.jobs)
                .into_iter()
                .map(|job| (job, error.clone()))
                .collect::<Vec<_>>()
        };
        for (job, error) in jobs {
            self.shared.answer(job, 0, Err(error));
        }
    }
}

impl Drop for Worker {
    /// A thread that panics (in a job's callback) still leaves the queue.
    fn drop(&mut self) {
        if !self.retired {
            self.retire(None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pools_and_handles_are_shared_between_threads() {
        fn shared<T: Send + Sync>() {}
        fn sent<T: Send>() {}
        shared::<Pool>();
        shared::<EngineHandle>();
        sent::<Engine>();
        sent::<Job>();
    }

    #[test]
    fn failures_say_how_often_they_were_tried() {
        let fen = "7k/8/8/8/8/8/8/K7 w - - 0 1";
        let failure = |attempts| Failure {
            fen: fen.to_owned(),
            attempts,
            error: UciError::new(UciErrorKind::Crashed(None), "sf").analysing(fen),
        };
        assert_eq!(
            failure(1).to_string(),
            "engine `sf`: closed its output while analysing 7k/8/8/8/8/8/8/K7 w - - 0 1"
        );
        assert_eq!(
            failure(3).to_string(),
            "engine `sf`: closed its output while analysing 7k/8/8/8/8/8/8/K7 w - - 0 1 \
             (tried 3 times)"
        );
    }
}
