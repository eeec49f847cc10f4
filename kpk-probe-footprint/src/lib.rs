//! kpk-probe's lazy query path ([`kpk_probe::lazy`]) behind two C functions, `no_std`, with no
//! allocator and no FEN parser: only what answering a position by its squares needs. The caller
//! owns every byte: the model file, the workspace the tree and the exceptions are decoded into,
//! and the handle.
#![no_std]

use core::mem::MaybeUninit;
use kpk_probe::{Color, Lazy, Outcome, Square};

/// The pawn side wins.
pub const KPK_WIN: i32 = 1;
/// The position is a draw.
pub const KPK_DRAW: i32 = 0;
/// The squares do not make a legal KPK position, or the file is not a version-3 model.
pub const KPK_REFUSED: i32 = -1;

/// Bytes of the handle a caller provides to [`kpk_lazy_load`] (aligned as a pointer).
pub const HANDLE_BYTES: usize = core::mem::size_of::<Lazy<'static>>();
// Two slices: 32 bytes on x86-64 (harness.c's HANDLE_BYTES), 16 on a 32-bit machine.
const _: () = assert!(HANDLE_BYTES == 4 * core::mem::size_of::<usize>());

/// kpk-probe names `alloc` (its expanded [`kpk_probe::Model`] needs it), so a static library
/// must name an allocator; the lazy path never allocates, and this one refuses every request.
struct NoAllocation;

// SAFETY: returning null is the allowed answer to any request; nothing is ever freed.
unsafe impl core::alloc::GlobalAlloc for NoAllocation {
    unsafe fn alloc(&self, _: core::alloc::Layout) -> *mut u8 {
        core::ptr::null_mut()
    }
    unsafe fn dealloc(&self, _: *mut u8, _: core::alloc::Layout) {}
}

#[global_allocator]
static ALLOCATOR: NoAllocation = NoAllocation;

/// Nothing in the lazy path panics on any input (its indexing is checked or provably in range);
/// the handler only has to exist.
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}

/// Check the model file of `len` bytes at `bytes`, fill the `words` words at `work` (the table of
/// right subtrees and the exceptions), and write the handle to `handle`. Returns the words used,
/// or [`KPK_REFUSED`].
///
/// # Safety
/// `bytes` must point to `len` readable bytes, `work` to `words` writable words, and `handle` to
/// [`HANDLE_BYTES`] writable bytes aligned as a pointer; `bytes`, `work` and `handle` must live
/// and stay unchanged while the handle answers.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kpk_lazy_load(
    bytes: *const u8,
    len: usize,
    work: *mut u32,
    words: usize,
    handle: *mut MaybeUninit<Lazy<'static>>,
) -> i32 {
    // SAFETY: the caller promises `len` readable bytes and `words` writable words.
    let (bytes, work) =
        unsafe { (core::slice::from_raw_parts(bytes, len), core::slice::from_raw_parts_mut(work, words)) };
    match Lazy::load(bytes, work) {
        Ok(lazy) => {
            let used = kpk_probe::lazy::workspace_words(bytes) as i32;
            // SAFETY: the caller promises a writable, aligned handle.
            unsafe { (*handle).write(lazy) };
            used
        }
        Err(_) => KPK_REFUSED,
    }
}

/// The answer for a white king, a black king and a pawn (Black's when `pawn_black`) on squares
/// `0..64` (a1 = 0, b1 = 1, …, h8 = 63), Black to move when `black_to_move`, from the pawn
/// side's point of view: [`KPK_WIN`], [`KPK_DRAW`] or [`KPK_REFUSED`].
///
/// # Safety
/// `handle` must have been written by a successful [`kpk_lazy_load`] whose workspace still lives.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kpk_lazy_probe(
    handle: *const Lazy<'static>,
    white_king: u8,
    black_king: u8,
    pawn: u8,
    pawn_black: bool,
    black_to_move: bool,
) -> i32 {
    let (Some(wk), Some(bk), Some(p)) = (Square::new(white_king), Square::new(black_king), Square::new(pawn))
    else {
        return KPK_REFUSED;
    };
    let colour = |black| if black { Color::Black } else { Color::White };
    // SAFETY: the caller promises a handle from a successful load.
    let lazy = unsafe { &*handle };
    match lazy.probe_squares(wk, bk, p, colour(pawn_black), colour(black_to_move)) {
        Ok(a) if a.outcome == Outcome::Win => KPK_WIN,
        Ok(_) => KPK_DRAW,
        Err(_) => KPK_REFUSED,
    }
}
