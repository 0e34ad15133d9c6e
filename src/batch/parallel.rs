//! Checking files on all cores with output in input order.
//!
//! `jobs` threads in all: one produces items (the walk) and works on them
//! when it is a whole window ahead, `jobs - 2` only work, and the calling
//! thread works and between its batches hands the results on strictly in
//! input order, whatever the thread timing. (A thread that only walked or
//! only waited for results would wake for each batch and take a core from
//! a worker: on a tree of small files the walk is about a tenth of the
//! work.) Items travel in batches of up to [`BATCH`], as a file takes
//! only some microseconds to check and a thread hand-off costs as much; a
//! batch holds fewer when its items take long ([`Pace`]: a collection of
//! a thousand games) or hold many bytes (archive members read whole). At
//! most [`MOST_BATCHES`] batches, holding at most [`WINDOW_BYTES`] (unless
//! there are only a few), are between production and hand-over at any
//! time, and only their first few items ([`Crew::near`]) are worked on, so
//! memory stays flat however many items there are, even when one item is
//! slow.

use std::collections::{BTreeMap, VecDeque};
use std::io;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, select_biased, unbounded};

/// Items per hand-off between threads.
const BATCH: usize = 16;
/// A batch whose items hold this many bytes is handed off with fewer items.
const BATCH_BYTES: usize = 1 << 20;
/// A batch holds as many items as take about this long, up to [`BATCH`]:
/// long enough that its hand-off (about a microsecond) is nothing beside
/// it, short enough that a few long items are shared out one by one and
/// the threads end together.
const BATCH_TIME: Duration = Duration::from_micros(500);

/// How long an item took in the batch worked on last, as the workers
/// measure it; the producer makes its next batch as long as fills
/// [`BATCH_TIME`]. Until a batch is measured, a batch is one item.
struct Pace(AtomicU64);

impl Pace {
    fn record(&self, items: usize, took: Duration) {
        let each = took.as_nanos() / items.max(1) as u128;
        self.0.store(u64::try_from(each).unwrap_or(u64::MAX).max(1), Ordering::Relaxed);
    }

    fn batch_len(&self) -> usize {
        match self.0.load(Ordering::Relaxed) {
            0 => 1,
            each => usize::try_from(BATCH_TIME.as_nanos() as u64 / each).unwrap_or(BATCH).clamp(1, BATCH),
        }
    }
}

/// What an item holds in memory until it is worked on: the bytes of an
/// archive member or a file named, read whole; nothing for a path read by
/// the worker.
pub trait Held {
    fn held_bytes(&self) -> usize {
        0
    }
}

impl<A: Held, B> Held for (A, B) {
    fn held_bytes(&self) -> usize {
        self.0.held_bytes()
    }
}

/// At most this many batches are between production and hand-over: enough
/// queued for the other threads to work through while the producer reads
/// a large folder (10,000 entries take it about 10 ms, and a batch of
/// small files a quarter of a millisecond).
const MOST_BATCHES: usize = 64;
/// ... and they hold at most this many bytes (archive members, files
/// named), unless they are fewer than [`ahead`].
const WINDOW_BYTES: usize = 4 << 20;

/// Batches that may always be queued, whatever bytes they hold, so that a
/// run of large items still goes on; and, of [`BATCH`] items each, the
/// items that may be worked on ahead of the hand-over ([`Crew::may_work`]).
fn ahead(jobs: usize) -> usize {
    jobs * 2 + 2
}

/// A batch as it is queued: its place among the batches and, for the
/// bound on the items worked on ahead, among the items.
struct Batch<I> {
    seq: usize,
    first_item: usize,
    items: Vec<I>,
}

/// The batches sent and not yet handed over, as the producer counts them.
struct Window {
    ahead: usize,
    /// Sequence number of the oldest batch in `held`.
    first: usize,
    /// Bytes held by each batch sent from `first` on.
    held: VecDeque<usize>,
}

impl Window {
    fn new(jobs: usize) -> Window {
        Window { ahead: ahead(jobs), first: 0, held: VecDeque::new() }
    }

    /// How many batches must have been handed over before the next one,
    /// holding `bytes`, may be sent (given that `handed_over` have been).
    fn needed(&mut self, handed_over: usize, bytes: usize) -> usize {
        while self.first < handed_over && self.held.pop_front().is_some() {
            self.first += 1;
        }
        let next = self.first + self.held.len();
        let mut needed = (next + 1).saturating_sub(MOST_BATCHES).max(self.first);
        let mut total = bytes + self.held.iter().skip(needed - self.first).sum::<usize>();
        while total > WINDOW_BYTES && next - needed >= self.ahead {
            total -= self.held[needed - self.first];
            needed += 1;
        }
        needed
    }

    fn sent(&mut self, bytes: usize) {
        self.held.push_back(bytes);
    }
}

/// How many batches and items were handed over, and whether the run
/// stopped; the producer waits on it for room, the workers for a batch
/// they may work on.
struct HandOver {
    state: Mutex<HandedOver>,
    changed: Condvar,
}

#[derive(Default)]
struct HandedOver {
    batches: usize,
    items: usize,
    stopped: bool,
    /// Threads waiting on `changed`: a notification with none is skipped
    /// (`notify_all` is a system call whether or not anyone waits).
    waiting: usize,
}

impl HandOver {
    fn lock(&self) -> std::sync::MutexGuard<'_, HandedOver> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many batches were handed over; `None` when the run stops.
    fn batches(&self) -> Option<usize> {
        let state = self.lock();
        (!state.stopped).then_some(state.batches)
    }

    /// Waits until `reached` says yes; `false` when the run stops.
    fn wait_until(&self, reached: impl Fn(&HandedOver) -> bool) -> bool {
        let mut state = self.lock();
        while !reached(&state) && !state.stopped {
            state.waiting += 1;
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
            state.waiting -= 1;
        }
        !state.stopped
    }

    fn advance(&self, batches: usize, items: usize) {
        let mut state = self.lock();
        (state.batches, state.items) = (batches, items);
        let waiting = state.waiting > 0;
        drop(state);
        if waiting {
            self.changed.notify_all();
        }
    }

    fn stop(&self) {
        self.lock().stopped = true;
        self.changed.notify_all();
    }
}

/// Whether the threads [`ordered_map`] starts share the process's table of
/// open files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileTable {
    /// Shared, as threads are: what a library in another program keeps to.
    Shared,
    /// On Linux, each thread the map starts works with a copy of the table
    /// (`unshare(CLONE_FILES)`). A file is then opened and closed without
    /// the lock the threads' opens and closes otherwise wait on, and read
    /// without counting references to it: on the KGS tree's 26,802 small
    /// files, two jobs spent 13% less time in the kernel (benches/README.md,
    /// "the file table"). Only for a program that owns the process, the
    /// command line: `produce` and `work` must close every file they open,
    /// on the thread that opened it, and pass none on; a file the caller
    /// opens during the run is not open for them, and one it closes stays
    /// open in their copies until the run ends. Elsewhere, or where the
    /// call is refused (a sandbox), the table stays shared.
    OwnPerThread,
}

impl FileTable {
    /// Called first on each thread the map starts.
    fn start_thread(self) {
        #[cfg(target_os = "linux")]
        if self == FileTable::OwnPerThread {
            // SAFETY: `unshare` only changes this thread's own state; on
            // failure the table is shared, as before the call.
            unsafe { libc::unshare(libc::CLONE_FILES) };
        }
    }
}

/// Runs `work` over the items `produce` gives, on `jobs` threads, and calls
/// `deliver` with the results in production order. Stops early (and
/// returns the error) when `deliver` fails. `work` should not panic (the
/// CLI catches panics per file); if it does, the run stops and the panic
/// goes on. `files` says whether the threads started share the table of
/// open files ([`FileTable`]).
pub fn ordered_map<I: Held + Send, R: Send>(
    jobs: usize,
    files: FileTable,
    produce: impl FnOnce(&mut dyn FnMut(I) -> ControlFlow<()>) + Send,
    work: impl Fn(I) -> R + Sync,
    mut deliver: impl FnMut(R) -> io::Result<()>,
) -> io::Result<()> {
    if jobs <= 1 {
        return sequential(produce, work, deliver);
    }
    let crew = Crew::new(work, jobs);
    // Unbounded, but the producer never runs more than the window ahead of
    // the hand-over.
    let (item_tx, item_rx) = unbounded::<Batch<I>>();
    let (result_tx, result_rx) = unbounded::<(usize, Vec<R>)>();
    std::thread::scope(|scope| {
        let crew = &crew;
        let (hand_over, pace) = (&crew.hand_over, &crew.pace);
        let (items, results) = (item_rx.clone(), result_tx.clone());
        scope.spawn(move || {
            files.start_thread();
            let (mut seq, mut first_item) = (0, 0);
            let mut window = Window::new(jobs);
            let mut batch = Vec::with_capacity(BATCH);
            // Every batch is queued as soon as the window has room, so that
            // the others have work while the walk reads a folder; a whole
            // window ahead, the producer works on the oldest queued batch
            // itself (the hand-over needs it first).
            let mut send = |batch: Vec<I>, bytes: usize| {
                let sent = loop {
                    let Some(handed_over) = hand_over.batches() else { break false };
                    let needed = window.needed(handed_over, bytes);
                    if handed_over >= needed {
                        let len = batch.len();
                        let sent = item_tx.send(Batch { seq, first_item, items: batch }).is_ok();
                        first_item += len;
                        break sent;
                    }
                    let going_on = match items.try_recv() {
                        Ok(older) => crew.may_work(&older) && results.send((older.seq, crew.work_on(older.items))).is_ok(),
                        Err(_) => hand_over.wait_until(|state| state.batches >= needed),
                    };
                    if !going_on {
                        break false;
                    }
                };
                window.sent(bytes);
                seq += 1;
                sent
            };
            let mut held = 0;
            let mut batch_len = pace.batch_len();
            produce(&mut |item| {
                held += item.held_bytes();
                batch.push(item);
                if batch.len() >= batch_len || held >= BATCH_BYTES {
                    let bytes = std::mem::take(&mut held);
                    if !send(std::mem::replace(&mut batch, Vec::with_capacity(BATCH)), bytes) {
                        return ControlFlow::Break(());
                    }
                    batch_len = pace.batch_len();
                }
                ControlFlow::Continue(())
            });
            if !batch.is_empty() {
                send(batch, held);
            }
            drop(item_tx);
            crew.work_until_done(items, results);
        });
        for _ in 2..jobs {
            let (items, results) = (item_rx.clone(), result_tx.clone());
            scope.spawn(move || {
                files.start_thread();
                crew.work_until_done(items, results)
            });
        }
        drop(result_tx);
        let outcome = crew.work_and_hand_over(item_rx, result_rx, &mut deliver);
        hand_over.stop();
        outcome
    })
}

/// What the threads share to work on batches.
struct Crew<W> {
    work: W,
    hand_over: HandOver,
    pace: Pace,
    /// Items that may be worked on ahead of the hand-over (see [`ahead`]).
    ahead_items: usize,
}

impl<W> Crew<W> {
    fn new(work: W, jobs: usize) -> Crew<W> {
        let hand_over = HandOver { state: Mutex::new(HandedOver::default()), changed: Condvar::new() };
        Crew { work, hand_over, pace: Pace(AtomicU64::new(0)), ahead_items: ahead(jobs) * BATCH }
    }

    /// Whether a batch may be worked on once `handed_over` items are: when
    /// its items are among the next `ahead_items`, so that the results
    /// waiting (which may be large: a game's arrays) stay few however deep
    /// the queue and however short the batches.
    fn near(&self, batch: &Batch<impl Sized>, handed_over: usize) -> bool {
        batch.first_item + batch.items.len() <= handed_over + self.ahead_items
    }

    /// Waits until `batch` may be worked on ([`Crew::near`]); `false` when
    /// the run stops.
    fn may_work<I>(&self, batch: &Batch<I>) -> bool {
        self.hand_over.wait_until(|state| self.near(batch, state.items))
    }

    /// `work` over a batch, timed for the [`Pace`]. A panic stops the run
    /// (the others must not wait for this batch's results) and goes on.
    fn work_on<I, R>(&self, batch: Vec<I>) -> Vec<R>
    where
        W: Fn(I) -> R,
    {
        let (items, started) = (batch.len(), Instant::now());
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| batch.into_iter().map(&self.work).collect())) {
            Ok(result) => {
                self.pace.record(items, started.elapsed());
                result
            }
            Err(panic) => {
                self.hand_over.stop();
                std::panic::resume_unwind(panic);
            }
        }
    }

    /// A worker's loop: every batch it can get, until there are no more or
    /// nobody takes the results.
    fn work_until_done<I, R>(&self, items: Receiver<Batch<I>>, results: Sender<(usize, Vec<R>)>)
    where
        W: Fn(I) -> R,
    {
        for batch in items {
            if !self.may_work(&batch) || results.send((batch.seq, self.work_on(batch.items))).is_err() {
                break;
            }
        }
    }

    /// The calling thread's part: hands over every result that is next in
    /// order as soon as it is there, works on a batch when there is one (a
    /// batch taken too far ahead waits until the hand-over comes near it),
    /// and otherwise waits for either. Returns when the other workers are
    /// done (then so is the producer) and everything has been handed over.
    fn work_and_hand_over<I, R>(
        &self,
        items: Receiver<Batch<I>>,
        results: Receiver<(usize, Vec<R>)>,
        deliver: &mut impl FnMut(R) -> io::Result<()>,
    ) -> io::Result<()>
    where
        W: Fn(I) -> R,
    {
        let mut waiting = BTreeMap::new();
        let (mut next, mut delivered) = (0, 0);
        let mut taken: Option<Batch<I>> = None;
        let no_items = crossbeam_channel::never();
        let mut items = &items;
        let mut others_done = false;
        loop {
            while let Some(batch) = waiting.remove(&next) {
                for result in batch {
                    deliver(result)?;
                    delivered += 1;
                }
                next += 1;
                self.hand_over.advance(next, delivered);
            }
            if let Some(batch) = taken.take_if(|batch| self.near(batch, delivered)) {
                waiting.insert(batch.seq, self.work_on(batch.items));
                continue;
            }
            // With the others done, every result there will be is in: a
            // batch still taken follows one missing behind a panic, which
            // goes on when the threads are joined.
            if others_done {
                return Ok(());
            }
            let more_items = if taken.is_none() { items } else { &no_items };
            select_biased! {
                recv(results) -> done => match done {
                    Ok((seq, batch)) => {
                        waiting.insert(seq, batch);
                    }
                    Err(_) => others_done = true,
                },
                recv(more_items) -> item => match item {
                    Ok(batch) => taken = Some(batch),
                    Err(_) => items = &no_items,
                },
            }
        }
    }
}

/// `--jobs 1`: everything on the calling thread, so one job uses one core.
/// Items are still taken in batches (as [`BATCH`] and [`BATCH_BYTES`]
/// say), all produced before any is worked on: a file named is read as
/// the walk opens it, so a batch's system calls run one after the other
/// and then its checks, each with the caches and branch history the
/// others left warm, rather than in turn (benches/README.md, "Issue 18,
/// whole process: per-file overhead").
fn sequential<I: Held, R>(
    produce: impl FnOnce(&mut dyn FnMut(I) -> ControlFlow<()>),
    work: impl Fn(I) -> R,
    mut deliver: impl FnMut(R) -> io::Result<()>,
) -> io::Result<()> {
    let mut batch = Vec::with_capacity(BATCH);
    let mut held = 0;
    let mut run = |batch: &mut Vec<I>| batch.drain(..).try_for_each(|item| deliver(work(item)));
    let mut outcome = Ok(());
    produce(&mut |item| {
        held += item.held_bytes();
        batch.push(item);
        if batch.len() < BATCH && held < BATCH_BYTES {
            return ControlFlow::Continue(());
        }
        held = 0;
        match run(&mut batch) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                outcome = Err(e);
                ControlFlow::Break(())
            }
        }
    });
    if outcome.is_ok() { run(&mut batch) } else { outcome }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Held for u64 {}

    /// Items 0, 1, 2, ... until the run stops.
    fn endless(f: &mut dyn FnMut(u64) -> ControlFlow<()>) {
        for i in 0.. {
            if f(i).is_break() {
                return;
            }
        }
    }

    /// Items 0 to `n - 1`, unless the run stops first.
    fn up_to(n: u64) -> impl FnOnce(&mut dyn FnMut(u64) -> ControlFlow<()>) + Send {
        move |f| {
            for i in 0..n {
                if f(i).is_break() {
                    return;
                }
            }
        }
    }

    /// What `ordered_map` delivers with `jobs` jobs, in the order delivered.
    fn delivered<I: Held + Send, R: Send>(
        jobs: usize,
        produce: impl FnOnce(&mut dyn FnMut(I) -> ControlFlow<()>) + Send,
        work: impl Fn(I) -> R + Sync,
    ) -> Vec<R> {
        let mut seen = Vec::new();
        ordered_map(jobs, FileTable::Shared, produce, work, |r| {
            seen.push(r);
            Ok(())
        })
        .unwrap();
        seen
    }

    #[test]
    fn results_come_in_input_order_whatever_the_timing() {
        let produce = up_to(200);
        let work = |i: u64| {
            std::thread::sleep(std::time::Duration::from_micros((i * 7919) % 500));
            i * 2
        };
        assert_eq!(delivered(4, produce, work), (0..200).map(|i| i * 2).collect::<Vec<_>>());
    }

    #[test]
    fn one_job_works_on_batches_in_order_and_on_the_last_short_one() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let produced = AtomicUsize::new(0);
        let produce = |f: &mut dyn FnMut(u64) -> ControlFlow<()>| {
            for i in 0..(2 * BATCH as u64 + 3) {
                produced.fetch_add(1, Ordering::SeqCst);
                if f(i).is_break() {
                    return;
                }
            }
        };
        let mut seen = Vec::new();
        ordered_map(
            1,
            FileTable::Shared,
            produce,
            |i| (i, produced.load(Ordering::SeqCst)),
            |r| {
                seen.push(r);
                Ok(())
            },
        )
        .unwrap();
        // Every item of a batch is produced before the first is worked on.
        let expected: Vec<(u64, usize)> =
            (0..2 * BATCH as u64 + 3).map(|i| (i, (i as usize / BATCH + 1) * BATCH)).map(|(i, n)| (i, n.min(2 * BATCH + 3))).collect();
        assert_eq!(seen, expected);
    }

    #[test]
    fn a_slow_producer_and_slow_items_still_give_every_result_in_order() {
        for jobs in [2, 3] {
            let produce = |f: &mut dyn FnMut(u64) -> ControlFlow<()>| {
                for i in 0..300 {
                    if i % 37 == 0 {
                        std::thread::sleep(std::time::Duration::from_millis(2));
                    }
                    if f(i).is_break() {
                        return;
                    }
                }
            };
            let work = |i: u64| {
                if i % 101 == 0 {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
                i + 1
            };
            assert_eq!(delivered(jobs, produce, work), (1..301).collect::<Vec<_>>(), "--jobs {jobs}");
        }
    }

    #[test]
    fn jobs_threads_work_in_all_and_the_producing_one_is_among_them() {
        use std::collections::HashSet;
        use std::sync::Mutex;
        use std::thread::{ThreadId, current};
        for jobs in [2, 3] {
            let producer = Mutex::new(None::<ThreadId>);
            let workers = Mutex::new(HashSet::new());
            let produce = |f: &mut dyn FnMut(u64) -> ControlFlow<()>| {
                *producer.lock().unwrap() = Some(current().id());
                for i in 0..400 {
                    if f(i).is_break() {
                        return;
                    }
                }
            };
            let work = |i: u64| {
                workers.lock().unwrap().insert(current().id());
                std::thread::sleep(std::time::Duration::from_micros(200));
                i
            };
            assert_eq!(delivered(jobs, produce, work), (0..400).collect::<Vec<_>>(), "--jobs {jobs}");
            let workers = workers.into_inner().unwrap();
            assert!(workers.len() <= jobs, "--jobs {jobs}: {} threads worked", workers.len());
            assert!(workers.contains(&producer.into_inner().unwrap().unwrap()), "--jobs {jobs}: the producing thread never worked");
            assert!(workers.contains(&current().id()), "--jobs {jobs}: the calling thread never worked");
        }
    }

    /// An item holding a whole batch's bytes, like a large archive member.
    struct Member(u64);

    impl Held for Member {
        fn held_bytes(&self) -> usize {
            BATCH_BYTES
        }
    }

    #[test]
    fn items_holding_many_bytes_travel_alone_so_few_are_in_flight() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        for jobs in [2, 3] {
            let (produced, most_in_flight) = (AtomicUsize::new(0), AtomicUsize::new(0));
            let produce = |f: &mut dyn FnMut(Member) -> ControlFlow<()>| {
                for i in 0..2_000 {
                    produced.fetch_add(1, Ordering::SeqCst);
                    if f(Member(i)).is_break() {
                        return;
                    }
                }
            };
            let mut delivered = 0;
            ordered_map(
                jobs,
                FileTable::Shared,
                produce,
                |Member(i)| i,
                |_| {
                    delivered += 1;
                    most_in_flight.fetch_max(produced.load(Ordering::SeqCst) - delivered, Ordering::SeqCst);
                    Ok(())
                },
            )
            .unwrap();
            assert_eq!(delivered, 2_000);
            // A batch a member: the batches that may always be queued, and one being filled.
            assert!(most_in_flight.into_inner() <= ahead(jobs) + 1, "--jobs {jobs}");
        }
    }

    #[test]
    fn the_window_holds_many_small_batches_but_few_large_ones() {
        let mut window = Window::new(2);
        for _ in 0..MOST_BATCHES {
            assert_eq!(window.needed(0, 100), 0);
            window.sent(100);
        }
        assert_eq!(window.needed(0, 100), 1, "a full window waits for the oldest batch");
        assert_eq!(window.needed(3, 100), 3);

        let mut window = Window::new(2);
        for _ in 0..ahead(2) {
            assert_eq!(window.needed(0, WINDOW_BYTES), 0, "a few batches go whatever they hold");
            window.sent(WINDOW_BYTES);
        }
        assert_eq!(window.needed(0, 1), 1);
        assert_eq!(window.needed(2, WINDOW_BYTES), 2);
    }

    #[test]
    fn behind_a_slow_item_few_results_wait_however_deep_the_queue() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        for jobs in [2, 3] {
            let (worked, most_waiting) = (AtomicUsize::new(0), AtomicUsize::new(0));
            let produce = up_to(3_000);
            let work = |i: u64| {
                if i == 0 {
                    std::thread::sleep(std::time::Duration::from_millis(100));
                }
                worked.fetch_add(1, Ordering::SeqCst)
            };
            let mut delivered = 0;
            ordered_map(jobs, FileTable::Shared, produce, work, |_| {
                delivered += 1;
                most_waiting.fetch_max(worked.load(Ordering::SeqCst) - delivered, Ordering::SeqCst);
                Ok(())
            })
            .unwrap();
            assert_eq!(delivered, 3_000);
            assert!(most_waiting.into_inner() <= ahead(jobs) * BATCH, "--jobs {jobs}");
        }
    }

    #[test]
    fn a_few_long_items_are_shared_out_between_the_threads() {
        use std::collections::HashMap;
        use std::sync::Mutex;
        let by_thread = Mutex::new(HashMap::new());
        let produce = up_to(20);
        let work = |i: u64| {
            std::thread::sleep(Duration::from_millis(10));
            *by_thread.lock().unwrap().entry(std::thread::current().id()).or_insert(0) += 1;
            i
        };
        assert_eq!(delivered(2, produce, work), (0..20).collect::<Vec<_>>());
        let counts: Vec<usize> = by_thread.into_inner().unwrap().into_values().collect();
        // In batches of 16 one thread would take 16 of the 20.
        assert!(counts.len() == 2 && counts.iter().all(|&n| n >= 6), "items by thread: {counts:?}");
    }

    #[test]
    fn behind_a_slow_item_the_others_work_on_as_many_items_however_short_the_batches() {
        use std::sync::atomic::AtomicUsize;
        let worked = AtomicUsize::new(0);
        let produce = up_to(200);
        // Every item is long enough to travel alone (see `Pace`).
        let work = |i: u64| {
            std::thread::sleep(Duration::from_millis(if i == 0 { 200 } else { 2 }));
            worked.fetch_add(1, Ordering::SeqCst)
        };
        let mut worked_before_the_first = None;
        ordered_map(2, FileTable::Shared, produce, work, |_| {
            worked_before_the_first.get_or_insert(worked.load(Ordering::SeqCst));
            Ok(())
        })
        .unwrap();
        // Up to 16 x 6 items may be worked on ahead; a bound of 6 batches
        // of one item would have allowed 6.
        assert!(worked_before_the_first.unwrap() >= 30, "{worked_before_the_first:?}");
    }

    #[test]
    fn a_batch_holds_as_many_items_as_fill_its_time() {
        let pace = Pace(AtomicU64::new(0));
        assert_eq!(pace.batch_len(), 1, "one item until an item is timed");
        pace.record(16, Duration::from_micros(16 * 12));
        assert_eq!(pace.batch_len(), BATCH);
        pace.record(2, Duration::from_millis(20));
        assert_eq!(pace.batch_len(), 1);
        pace.record(4, Duration::from_micros(400));
        assert_eq!(pace.batch_len(), 5);
    }

    #[test]
    fn a_panic_in_a_worker_stops_the_run_and_goes_on() {
        for jobs in [2, 3] {
            let work = |i: u64| if i == 500 { panic!("item 500") } else { i };
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| ordered_map(jobs, FileTable::Shared, endless, work, |_| Ok(()))));
            assert!(run.is_err(), "--jobs {jobs}: the panic goes on");
        }
    }

    #[test]
    fn a_failing_delivery_stops_the_run() {
        for jobs in [1, 2] {
            let mut delivered = 0;
            let deliver = |_| {
                delivered += 1;
                if delivered == 10 { Err(io::Error::other("closed")) } else { Ok(()) }
            };
            assert!(ordered_map(jobs, FileTable::Shared, endless, |i| i, deliver).is_err());
            assert_eq!(delivered, 10, "--jobs {jobs}");
        }
    }

    /// With a file table for each thread, the workers read the files they
    /// open, and the caller's file opened before the run is still open
    /// and readable after it.
    #[test]
    fn threads_with_their_own_file_tables_read_their_files_and_keep_the_callers() {
        use std::io::{Read, Seek};
        let dir = std::env::temp_dir().join(format!("kifu-file-table-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let paths: Vec<_> = (0..200u64)
            .map(|i| {
                let path = dir.join(format!("{i}.txt"));
                std::fs::write(&path, i.to_string()).unwrap();
                path
            })
            .collect();
        let mut callers = std::fs::File::open(&paths[7]).unwrap();
        for jobs in 1..=3 {
            let mut read = Vec::new();
            let work = |i: u64| std::fs::read_to_string(&paths[i as usize]).unwrap();
            ordered_map(jobs, FileTable::OwnPerThread, up_to(200), work, |text| {
                read.push(text);
                Ok(())
            })
            .unwrap();
            assert_eq!(read, (0..200).map(|i| i.to_string()).collect::<Vec<_>>(), "--jobs {jobs}");
            let mut text = String::new();
            callers.rewind().unwrap();
            callers.read_to_string(&mut text).unwrap();
            assert_eq!(text, "7", "--jobs {jobs}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
