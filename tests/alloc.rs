//! The per-position hot paths allocate nothing: a counting global allocator watches them.
//! (Its own test binary, so the counting allocator affects no other test.)

use kpk::net::mlp::{Mlp, Workspace};
use ndarray::Array2;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static WATCHING: Cell<bool> = const { Cell::new(false) };
}

// SAFETY: every call is forwarded to the system allocator unchanged; we only count.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if WATCHING.with(Cell::get) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: same contract as ours.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if WATCHING.with(Cell::get) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: same contract as ours.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made by `f` on this thread.
fn allocations(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    WATCHING.with(|w| w.set(true));
    f();
    WATCHING.with(|w| w.set(false));
    ALLOCATIONS.load(Ordering::Relaxed) - before
}

#[test]
fn forward_and_online_steps_allocate_nothing() {
    let mut net = Mlp::new(&[32, 64, 20, 1], 1.0, 1).unwrap();
    let mut ws = Workspace::new(&net);
    let mut velocity: Vec<Array2<f64>> = net.layers().iter().map(|w| Array2::zeros(w.dim())).collect();
    let inputs: Vec<f64> = (0..100 * 32).map(|i| (i % 15) as f64 - 7.0).collect();
    // The counter sees allocations: a control.
    assert!(allocations(|| drop(std::hint::black_box(vec![0u8; 10]))) >= 1);
    let n = allocations(|| {
        for (k, x) in inputs.chunks_exact(32).enumerate() {
            let d = [(k % 2) as f64];
            std::hint::black_box(net.forward_with(&mut ws, x));
            net.sgd_step(&mut ws, x, &d, 0.1, None);
            net.sgd_step(&mut ws, x, &d, 0.1, Some((0.9, &mut velocity)));
        }
    });
    assert_eq!(n, 0, "allocations in the per-position loop");
}
