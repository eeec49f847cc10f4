/* kpk.h: exact KPK (king and pawn against king) win/draw answers from a kpk hybrid model file
 * (a net or a decision tree, plus the positions it gets wrong; src/hybrid/format.md).
 *
 * Link with libkpk_probe (cargo build --release -p kpk-probe-c: target/release/libkpk_probe.so).
 * A model is immutable once loaded: probe it from any number of threads. No global state.
 *
 * Squares are numbered a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63.
 * Answers are from the pawn side's point of view: KPK_WIN when the side with the pawn wins.
 *
 * Without Rust: include/kpk_reader.h reads the shipped models (win/draw, DTZ and the play model's
 * best move) in one C file; this library also reads the net models (format versions 1 and 2) and
 * parses FENs (docs/MODEL_FORMATS.md, "Readers").
 */
#ifndef KPK_H
#define KPK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KPK_DRAW 0
#define KPK_WIN 1
#define KPK_ILLEGAL (-1)      /* not a legal KPK position (or not a KPK FEN) */
#define KPK_BAD_ARGUMENT (-2) /* a null model or FEN, or a square outside 0..63 */
#define KPK_INTERNAL (-3)     /* a defect in the library, caught at the boundary; never expected */

typedef struct kpk_model kpk_model;

/* Decode a model file from len bytes (the bytes are copied; free them when you like).
 * Returns NULL when the bytes are not a valid model file (corrupt, truncated, other version). */
kpk_model *kpk_model_load(const uint8_t *bytes, size_t len);

/* Free a model; NULL is ignored. */
void kpk_model_free(kpk_model *model);

/* KPK_WIN, KPK_DRAW, KPK_ILLEGAL or KPK_BAD_ARGUMENT (or KPK_INTERNAL) for a white king, a black king and a pawn
 * (black if pawn_is_black != 0) on the given squares, Black to move if black_to_move != 0.
 * If from_exception is not NULL it receives 1 when the answer came from the exception table
 * and 0 otherwise (from the net, from the decision tree of a format-3 file, or from the one-ply
 * rule for the lone king to move in a format-2 or -3 file). Format versions 1, 2 and 3 load. */
int kpk_probe(const kpk_model *model, int white_king, int black_king, int pawn,
              int pawn_is_black, int black_to_move, int *from_exception);

/* As kpk_probe, for a position in FEN (NUL-terminated); a FEN that is not KPK, not well-formed
 * or not UTF-8 gives KPK_ILLEGAL. The grammar is kpk's (kpk-probe/src/fen.rs): fields separated
 * by ASCII whitespace, counters of ASCII digits. */
int kpk_probe_fen(const kpk_model *model, const char *fen, int *from_exception);

/* DTZ models (KPKZ files, src/hybrid/format.md "The DTZ model"): Syzygy's depth to zeroing. */
typedef struct kpk_dtz_model kpk_dtz_model;

/* Decode a DTZ model file; NULL when the bytes are not a valid one (corrupt, truncated, other
 * version). The bytes are copied. Loading answers every position once (a few milliseconds). */
kpk_dtz_model *kpk_dtz_model_load(const uint8_t *bytes, size_t len);

/* Free a DTZ model; NULL is ignored. */
void kpk_dtz_model_free(kpk_dtz_model *model);

/* Writes to *dtz the plies to the next pawn move or capture with best play: positive when the
 * side to move wins, negative when it loses, 0 in a draw (squares and flags as kpk_probe).
 * Returns 0, KPK_ILLEGAL or KPK_BAD_ARGUMENT (a null model or dtz, a square outside 0..63). */
int kpk_probe_dtz(const kpk_dtz_model *model, int white_king, int black_king, int pawn,
                  int pawn_is_black, int black_to_move, int *dtz);

#ifdef __cplusplus
}
#endif

#endif /* KPK_H */
