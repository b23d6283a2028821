//! The threads: one accepts connections, one per connection reads its requests and writes the
//! answers (a bounded number of them), and a few workers answer the requests, taking them from
//! one queue (`Queue::recv`), each request in a `catch_unwind` so that a bug is a 500, not a
//! dead server.

use std::{
    collections::VecDeque,
    io::{BufReader, Write},
    net::{SocketAddr, TcpListener, TcpStream},
    panic::{AssertUnwindSafe, catch_unwind},
    sync::{
        Arc, Condvar, Mutex,
        atomic::{AtomicBool, AtomicUsize, Ordering},
        mpsc,
    },
    thread::{self, JoinHandle},
    time::Duration,
};

use crate::http::{Deadline, Incoming, Method, Reply, Request, read_request};

/// How long a connection may take to send a request's head (and between requests).
const READ_TIME: Duration = Duration::from_secs(10);
/// How long writing an answer may take.
const WRITE_TIME: Duration = Duration::from_secs(10);
/// Open connections at most: past them a new one is answered 503 and closed.
const MAX_CONNECTIONS: usize = 512;
/// Requests waiting for a worker at most: past them a request is answered 503.
const MAX_QUEUED: usize = 1024;

/// What answers a request: the router, or a test's function.
pub(crate) type Handler = dyn Fn(&Request) -> Reply + Send + Sync;

/// A request waiting for a worker, and where its answer goes.
struct Job {
    request: Request,
    answer: mpsc::SyncSender<Reply>,
}

/// The requests waiting for a worker.
#[derive(Default)]
struct Queue {
    jobs: Mutex<(VecDeque<Job>, bool)>,
    ready: Condvar,
}

impl Queue {
    /// Adds a job; gives it back when the queue is full or closed.
    fn push(&self, job: Job) -> Result<(), Job> {
        let mut jobs = self.jobs.lock().unwrap_or_else(|e| e.into_inner());
        if jobs.1 || jobs.0.len() >= MAX_QUEUED {
            return Err(job);
        }
        jobs.0.push_back(job);
        drop(jobs);
        self.ready.notify_one();
        Ok(())
    }

    /// The next job; `None` once the queue is closed.
    fn recv(&self) -> Option<Job> {
        let mut jobs = self.jobs.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if jobs.1 {
                return None;
            }
            if let Some(job) = jobs.0.pop_front() {
                return Some(job);
            }
            jobs = self.ready.wait(jobs).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Closes the queue: the jobs waiting are answered 503, the workers end.
    fn close(&self) {
        let waiting = {
            let mut jobs = self.jobs.lock().unwrap_or_else(|e| e.into_inner());
            jobs.1 = true;
            std::mem::take(&mut jobs.0)
        };
        self.ready.notify_all();
        for job in waiting {
            let _ = job.answer.send(Reply::error(503, "the server is stopping"));
        }
    }
}

/// A running server: its address, and how to stop it.
///
/// ```no_run
/// # fn main() -> Result<(), tabia_serve::ServeError> {
/// let handle = tabia_serve::serve("my-index".as_ref(), tabia_serve::ServeOptions::default())?;
/// println!("on http://{}", handle.addr());
/// handle.wait();
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct Handle {
    addr: SocketAddr,
    stopping: Arc<AtomicBool>,
    queue: Arc<Queue>,
    threads: Vec<JoinHandle<()>>,
}

impl std::fmt::Debug for Queue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Queue").finish_non_exhaustive()
    }
}

impl Handle {
    /// The address the server listens on (with the port chosen when port 0 was asked for).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stops accepting connections and answering requests, and waits for the workers to end.
    /// Requests already read are answered 503; open connections close after their request.
    pub fn stop(mut self) {
        self.stopping.store(true, Ordering::SeqCst);
        self.queue.close();
        // Wake the accepting thread.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }

    /// Runs until the process ends.
    pub fn wait(mut self) {
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// Starts the threads on a bound listener: `workers` workers calling `handler`.
pub(crate) fn start(
    listener: TcpListener,
    workers: usize,
    handler: Arc<Handler>,
) -> std::io::Result<Handle> {
    let addr = listener.local_addr()?;
    let stopping = Arc::new(AtomicBool::new(false));
    let queue = Arc::new(Queue::default());
    let mut threads = Vec::new();
    for i in 0..workers.max(1) {
        let queue = Arc::clone(&queue);
        let handler = Arc::clone(&handler);
        threads.push(
            thread::Builder::new()
                .name(format!("serve-worker-{i}"))
                .spawn(move || work(&queue, &*handler))?,
        );
    }
    let accepting = {
        let stopping = Arc::clone(&stopping);
        let queue = Arc::clone(&queue);
        thread::Builder::new()
            .name("serve-accept".to_owned())
            .spawn(move || accept(&listener, &stopping, &queue))?
    };
    threads.push(accepting);
    Ok(Handle {
        addr,
        stopping,
        queue,
        threads,
    })
}

fn work(queue: &Queue, handler: &Handler) {
    while let Some(job) = queue.recv() {
        let reply = catch_unwind(AssertUnwindSafe(|| handler(&job.request)))
            .unwrap_or_else(|_| Reply::error(500, "internal error (a bug: please report it)"));
        let _ = job.answer.send(reply);
    }
}

fn accept(listener: &TcpListener, stopping: &Arc<AtomicBool>, queue: &Arc<Queue>) {
    let open = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        if stopping.load(Ordering::SeqCst) {
            break;
        }
        let Ok(mut stream) = stream else {
            // Out of file descriptors, a connection reset before it was accepted: go on.
            thread::sleep(Duration::from_millis(10));
            continue;
        };
        let _ = stream.set_write_timeout(Some(WRITE_TIME));
        let _ = stream.set_nodelay(true);
        if open.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            open.fetch_sub(1, Ordering::SeqCst);
            let _ = Reply::error(503, "too many connections").write_to(&mut stream, false, false);
            continue;
        }
        let connection = {
            let open = Arc::clone(&open);
            let stopping = Arc::clone(stopping);
            let queue = Arc::clone(queue);
            move || {
                connect(stream, &stopping, &queue);
                open.fetch_sub(1, Ordering::SeqCst);
            }
        };
        if thread::Builder::new()
            .name("serve-connection".to_owned())
            .stack_size(256 * 1024)
            .spawn(connection)
            .is_err()
        {
            open.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// Serves one connection: its requests one after the other, until it closes.
fn connect(stream: TcpStream, stopping: &AtomicBool, queue: &Queue) {
    let Ok(mut out) = stream.try_clone() else {
        return;
    };
    let mut input = BufReader::new(Deadline::new(stream));
    let (answer, answered) = mpsc::sync_channel(1);
    loop {
        input.get_mut().set(READ_TIME);
        let (request, keep_alive) = match read_request(&mut input) {
            Incoming::Request(request, keep_alive) => (request, keep_alive),
            Incoming::Closed => return,
            Incoming::Refuse(reply) => {
                let _ = reply.write_to(&mut out, false, false);
                return;
            }
        };
        let keep_alive = keep_alive && !stopping.load(Ordering::SeqCst);
        let head_only = request.method == Method::Head;
        let job = Job {
            request,
            answer: answer.clone(),
        };
        let reply = match queue.push(job) {
            Ok(()) => answered
                .recv()
                .unwrap_or_else(|_| Reply::error(503, "the server is stopping")),
            Err(_) => Reply::error(503, "the server is busy or stopping"),
        };
        if reply.write_to(&mut out, head_only, keep_alive).is_err() || !keep_alive {
            let _ = out.flush();
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::*;

    fn get(addr: SocketAddr, path: &str) -> String {
        let mut stream = TcpStream::connect(addr).expect("connect");
        write!(stream, "GET {path} HTTP/1.1\r\nConnection: close\r\n\r\n").expect("write");
        let mut text = String::new();
        stream.read_to_string(&mut text).expect("read");
        text
    }

    #[test]
    fn a_panic_is_a_500_and_the_server_goes_on() {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let handler: Arc<Handler> = Arc::new(|request: &Request| {
            if request.target == "/panic" {
                panic!("a bug");
            }
            Reply::ok(crate::http::TEXT, "fine")
        });
        let handle = start(listener, 2, handler).expect("start");
        let addr = handle.addr();
        for _ in 0..3 {
            assert!(get(addr, "/panic").starts_with("HTTP/1.1 500 "));
            let answer = get(addr, "/");
            assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{answer}");
            assert!(answer.ends_with("\r\n\r\nfine"));
        }
        handle.stop();
        assert!(TcpStream::connect(addr).is_err() || get(addr, "/").is_empty());
    }
}
