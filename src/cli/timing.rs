//! kpk's one timer, shared by every benchmark (`kpk bench`): wall-clock and thread-CPU seconds
//! over repeated runs after warm-up runs.

use std::time::{Duration, Instant};

/// CPU time of the calling thread: on a machine shared with other jobs it is far steadier than wall
/// time, which also counts the time the scheduler gives to others.
fn thread_cpu_seconds() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec; CLOCK_THREAD_CPUTIME_ID is supported on Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// kpk's one timer: `f` run `warm_up` times untimed, then `runs` times (at least once), each run's
/// wall-clock and thread-CPU seconds, both lists sorted.
pub fn timed<T>(warm_up: usize, runs: usize, mut f: impl FnMut() -> T) -> (Vec<f64>, Vec<f64>) {
    for _ in 0..warm_up {
        std::hint::black_box(f());
    }
    let (mut wall, mut cpu) = (Vec::new(), Vec::new());
    for _ in 0..runs.max(1) {
        let (t, c) = (Instant::now(), thread_cpu_seconds());
        std::hint::black_box(f());
        cpu.push(thread_cpu_seconds() - c);
        wall.push(t.elapsed().as_secs_f64());
    }
    for v in [&mut wall, &mut cpu] {
        v.sort_by(f64::total_cmp);
    }
    (wall, cpu)
}

/// Wall time of `f` over `runs` runs after three warm-up runs: (min, median, mean).
pub fn time_runs<T>(runs: usize, f: impl FnMut() -> T) -> (Duration, Duration, Duration) {
    let (wall, _) = timed(3, runs, f);
    let mean = wall.iter().sum::<f64>() / wall.len() as f64;
    let d = Duration::from_secs_f64;
    (d(wall[0]), d(wall[wall.len() / 2]), d(mean))
}
