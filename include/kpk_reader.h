/* kpk_reader.h: exact KPK (king and pawn against king) answers from kpk's model files, in one C
 * file: win/draw (KPKH, format version 3: a decision tree and its exceptions), Syzygy's DTZ
 * (KPKZ) and a DTC-optimal best move (KPKP, version 2). docs/MODEL_FORMATS.md specifies the files.
 *
 * Use: in exactly one C file of your program write
 *
 *     #define KPK_READER_IMPLEMENTATION
 *     #include "kpk_reader.h"
 *
 * and include it plainly everywhere else. C99; no allocation, no global state, nothing from the
 * C library beyond <stddef.h> and <stdint.h>. The caller owns every byte: the model file's bytes
 * (which a loaded kpkr_wdl reads at each query, so they must outlive it) and the structures below
 * (a static, a global or the heap: kpkr_dtz is 192 KiB and kpkr_play 120 KiB, too large for most
 * stacks). A loaded structure is only read: probe it from any number of threads.
 *
 * Positions are given by their squares, numbered a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63:
 * the white king, the black king, the pawn (Black's when pawn_is_black != 0), and the side to move
 * (Black when black_to_move != 0). Either colour may have the pawn and either side may move; files
 * a-h may be mirrored. A position is legal when the three squares differ and lie in 0..63, the
 * pawn stands on ranks 2-7 (its own side's), the kings are not next to each other, and the side
 * not to move is not in check (with the pawn side to move, the pawn does not attack the lone king).
 *
 * Loading checks the whole file before answering anything: magic, version, length, CRC-32 and
 * every field, as kpk's Rust reader (kpk-probe) does; a damaged or foreign file is refused with
 * one of the KPKR_E_* codes (the error names of docs/MODEL_FORMATS.md), never answered from.
 * The win/draw reader reads format version 3 only (the shipped models/kpk.hybrid); the integer-net
 * versions 1 and 2 are refused with KPKR_E_VERSION (kpk-probe reads them). The play reader reads
 * version 2 only (kpk writes no other).
 *
 * A trusting build: with KPK_READER_TRUST defined before the implementation, kpkr_wdl_load checks
 * nothing (no magic, length, CRC-32 or field ranges; the tree's table is still built): for a model
 * baked into a program and checked when it was built (by this reader without the define). Given a
 * damaged file it answers wrongly or reads out of bounds. The DTZ and play loaders are unchanged. */
#ifndef KPK_READER_H
#define KPK_READER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Answers. */
#define KPKR_DRAW 0
#define KPKR_WIN 1
#define KPKR_ILLEGAL (-8) /* the squares do not make a legal KPK position */
#define KPKR_NO_MOVE (-9) /* kpkr_best_move: the side to move has no legal move (stalemate) */

/* Load errors, in the order the checks run (docs/MODEL_FORMATS.md, "Error names"). */
#define KPKR_E_MAGIC (-1)      /* bad magic: fewer than 4 bytes, or another format's file */
#define KPKR_E_TRUNCATED (-2)  /* a field runs into the checksum or past the end */
#define KPKR_E_VERSION (-3)    /* a format version this reader does not read */
#define KPKR_E_LENGTH (-4)     /* the length field is not the file's size */
#define KPKR_E_CHECKSUM (-5)   /* the CRC-32 does not match */
#define KPKR_E_BIT_STREAM (-6) /* the bits end inside a value, or a value is out of its range */
#define KPKR_E_INVALID (-7)    /* any other field out of its range, or a byte after the padding */

/* A move: from and to squares (0..63) and the piece a promotion makes (0 none, then the
 * KPKR_QUEEN.. constants), packed as from | to << 6 | promotion << 12. */
#define KPKR_MOVE_FROM(m) ((m) & 63)
#define KPKR_MOVE_TO(m) (((m) >> 6) & 63)
#define KPKR_MOVE_PROMOTION(m) ((m) >> 12)
#define KPKR_QUEEN 1
#define KPKR_ROOK 2
#define KPKR_BISHOP 3
#define KPKR_KNIGHT 4

/* A loaded win/draw model (KPKH version 3): where its tree and its exceptions lie in the file's
 * bytes, and the offsets of the right subtrees of the tree's top 8 levels. 1,056 bytes. */
typedef struct kpkr_wdl {
    const uint8_t *stream; /* the file's bit stream: the tree, then the exceptions' gaps */
    uint32_t gaps;         /* the bit where the gaps start */
    uint32_t exceptions;   /* how many */
    uint32_t rice;         /* their Rice parameter */
    uint32_t jump[256];    /* by heap number (root 1, children 2h, 2h + 1): a right subtree's bit */
} kpkr_wdl;

/* A loaded DTZ model (KPKZ): |DTZ| for every position index, computed at load. */
typedef struct kpkr_dtz {
    uint8_t depth[196608];
} kpkr_dtz;

/* A loaded play model (KPKP version 2): every position's win/draw bit and, for the positions with
 * the pawn side to move, which of the ranked winning moves is the best one, computed at load. */
typedef struct kpkr_play {
    int8_t weights[90];      /* the move proposer's: 6 regimes of 15 */
    uint8_t win[196608 / 8]; /* bit i: index i is won for the pawn side */
    uint8_t ordinal[98304];  /* the best move's place among the ranked winning moves */
} kpkr_play;

/* Load the win/draw model file of len bytes at bytes into *model: 0, or a KPKR_E_* code. The
 * bytes must stay alive and unchanged while *model answers. Microseconds. */
int kpkr_wdl_load(kpkr_wdl *model, const uint8_t *bytes, size_t len);

/* KPKR_WIN when the side with the pawn wins, KPKR_DRAW, or KPKR_ILLEGAL. The pawn side to move:
 * one walk of the tree; the lone king to move: up to 8 (the one-ply rule). About a microsecond. */
int kpkr_wdl_probe(const kpkr_wdl *model, unsigned white_king, unsigned black_king, unsigned pawn,
                   int pawn_is_black, int black_to_move);

/* Load a DTZ model file (which embeds a win/draw model) into *model: 0 or a KPKR_E_* code. The
 * bytes are not needed afterwards. Answers every position once: about a tenth of a second. */
int kpkr_dtz_load(kpkr_dtz *model, const uint8_t *bytes, size_t len);

/* Syzygy's depth to zeroing in plies into *dtz: positive when the side to move wins, negative
 * when it loses, 0 in a draw. Returns 0, or KPKR_ILLEGAL (leaving *dtz unchanged). A lookup. */
int kpkr_dtz_probe(const kpkr_dtz *model, unsigned white_king, unsigned black_king, unsigned pawn,
                   int pawn_is_black, int black_to_move, int *dtz);

/* Load a play model file (which embeds a win/draw model) into *model: 0 or a KPKR_E_* code. The
 * bytes are not needed afterwards. Ranks every won position's moves once: about a tenth of a second. */
int kpkr_play_load(kpkr_play *model, const uint8_t *bytes, size_t len);

/* As kpkr_wdl_probe, from a loaded play model (its embedded win/draw model's answers). */
int kpkr_play_wdl(const kpkr_play *model, unsigned white_king, unsigned black_king, unsigned pawn,
                  int pawn_is_black, int black_to_move);

/* The play model's move, in the squares given (KPKR_MOVE_* unpack it), or KPKR_NO_MOVE, or
 * KPKR_ILLEGAL. The pawn side, winning: a move that wins in the fewest moves to conversion (DTC
 * one less; a winning promotion where DTC is 1). The lone king, drawing: its first move (in the
 * canonical orientation's square order) that keeps the draw. Otherwise the side to move's first
 * legal move in that order (docs/MODEL_FORMATS.md, "The best move"). */
int kpkr_best_move(const kpkr_play *model, unsigned white_king, unsigned black_king, unsigned pawn,
                   int pawn_is_black, int black_to_move);

#ifdef __cplusplus
}
#endif

#endif /* KPK_READER_H */

#ifdef KPK_READER_IMPLEMENTATION
#ifndef KPK_READER_IMPLEMENTED
#define KPK_READER_IMPLEMENTED

/* ---- Squares and positions, in the canonical orientation: the pawn White's on files a-d. ---- */

#define KPKR_SIDE_ (196608u / 2) /* indices with the pawn side to move */

static int kpkr_abs_(int v) { return v < 0 ? -v : v; }

/* King distance between squares a and b. */
static int kpkr_dist_(unsigned a, unsigned b) {
    int f = kpkr_abs_((int)(a & 7) - (int)(b & 7)), r = kpkr_abs_((int)(a >> 3) - (int)(b >> 3));
    return f > r ? f : r;
}

/* Whether a White pawn on p attacks square s. */
static int kpkr_pawn_attacks_(unsigned p, unsigned s) {
    return (s == p + 7 && (p & 7) > 0) || (s == p + 9 && (p & 7) < 7);
}

/* A placement: the pawn side's king K, the lone king k, the pawn P, side 0 when the pawn side is
 * to move; t is the transform (an XOR of squares) back to the caller's squares. */
typedef struct kpkr_pos_ {
    unsigned K, k, P, side, t;
} kpkr_pos_;

static int kpkr_legal_(const kpkr_pos_ *p) {
    return p->K != p->k && p->K != p->P && p->k != p->P && p->P >= 8 && p->P < 56 &&
           kpkr_dist_(p->K, p->k) > 1 && !(p->side == 0 && kpkr_pawn_attacks_(p->P, p->k));
}

static uint32_t kpkr_index_(const kpkr_pos_ *p) {
    return (((p->side * 24 + ((p->P >> 3) - 1) * 4 + (p->P & 7)) * 64 + p->K) * 64) + p->k;
}

static kpkr_pos_ kpkr_at_(uint32_t i) {
    kpkr_pos_ p;
    unsigned slot = i / 4096 % 24;
    p.side = i / KPKR_SIDE_;
    p.P = (slot / 4 + 1) * 8 + slot % 4;
    p.K = i / 64 % 64;
    p.k = i % 64;
    p.t = 0;
    return p;
}

/* The caller's squares turned to the canonical orientation: colours reversed when the pawn is
 * Black's (ranks flipped), files mirrored when the pawn is then on files e-h. 0 when illegal. */
static int kpkr_orient_(kpkr_pos_ *p, unsigned wk, unsigned bk, unsigned pawn, int pawn_black,
                        int btm) {
    unsigned f = pawn_black ? 56u : 0u, m;
    if (wk > 63 || bk > 63 || pawn > 63) return 0;
    m = ((pawn ^ f) & 7) >= 4 ? 7u : 0u;
    p->t = f | m;
    p->K = (pawn_black ? bk : wk) ^ p->t;
    p->k = (pawn_black ? wk : bk) ^ p->t;
    p->P = pawn ^ p->t;
    p->side = (unsigned)((btm != 0) != (pawn_black != 0));
    return kpkr_legal_(p);
}

/* ---- Bits: least significant first, bytes in file order. ---- */

typedef struct kpkr_bits_ {
    const uint8_t *s;
    uint32_t n, at; /* bits in the stream, the next bit */
    int err;        /* set when a read ran past the end or a value out of range */
} kpkr_bits_;

static uint32_t kpkr_get_(kpkr_bits_ *r, unsigned n) {
    uint32_t v = 0;
    unsigned i;
    for (i = 0; i < n; i++, r->at++) {
        if (r->at >= r->n) {
            r->err = 1;
            return 0;
        }
        v |= (uint32_t)(r->s[r->at >> 3] >> (r->at & 7) & 1) << i;
    }
    return v;
}

/* A Rice-coded value with parameter k (at most 24): a quotient above 2^24 is an error. */
static uint64_t kpkr_rice_(kpkr_bits_ *r, unsigned k) {
    uint64_t q = 0;
    while (kpkr_get_(r, 1)) {
        if (++q > (1u << 24)) {
            r->err = 1;
            return 0;
        }
    }
    return q << k | kpkr_get_(r, k);
}

/* Whether fewer than 8 bits are left and all are 0. */
static int kpkr_padded_end_(kpkr_bits_ *r) {
    return r->at <= r->n && r->n - r->at < 8 && kpkr_get_(r, r->n - r->at) == 0;
}

/* n <= 8 bits at bit `at` of a stream already checked to hold them. It reads the byte after
 * them too: in every file a checksum's 4 bytes follow a bit stream. */
static unsigned kpkr_peek_(const uint8_t *s, uint32_t at, unsigned n) {
    unsigned two = (unsigned)s[at >> 3] | (unsigned)s[(at >> 3) + 1] << 8;
    return two >> (at & 7) & ((1u << n) - 1);
}

static uint32_t kpkr_le_(const uint8_t *b, unsigned n) {
    uint32_t v = 0;
    while (n--) v = v << 8 | b[n];
    return v;
}

/* CRC-32 (IEEE 802.3, as zlib computes it). */
static uint32_t kpkr_crc_(const uint8_t *b, size_t n) {
    uint32_t c = 0xFFFFFFFFu;
    unsigned i;
    while (n--) {
        c ^= *b++;
        for (i = 0; i < 8; i++) c = c >> 1 ^ (0xEDB88320u & (0u - (c & 1)));
    }
    return ~c;
}

/* The envelope every model file shares, checked in order: magic, at least 15 bytes, version,
 * length, CRC-32. */
static int kpkr_envelope_(const uint8_t *b, size_t len, const char *magic, unsigned version) {
    if (len < 4 || b[0] != magic[0] || b[1] != magic[1] || b[2] != magic[2] || b[3] != magic[3])
        return KPKR_E_MAGIC;
    if (len < 15) return KPKR_E_TRUNCATED;
    if (b[4] != version) return KPKR_E_VERSION;
    if (kpkr_le_(b + 5, 4) != len) return KPKR_E_LENGTH;
    if (kpkr_crc_(b, len - 4) != kpkr_le_(b + len - 4, 4)) return KPKR_E_CHECKSUM;
    return 0;
}

/* ---- Table 4's characteristics and the trees over them. ---- */

/* Each characteristic's legal least value and its number of values less one (x1..x32). */
static const int8_t kpkr_lo_[32] = {1, 1, 1, 1, 1, 2, -7, -7, -3, -6, -3, -6, 0, 1, 0, 0,
                                    0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 1, 1, 0, -6, -5, 0};
static const uint8_t kpkr_span_[32] = {7, 7, 7, 7, 3, 5, 14, 14, 10, 12, 10, 12, 0, 4, 7, 7,
                                       1, 7, 6, 1, 7, 6, 1, 5, 1, 1, 6, 6, 7, 12, 11, 1};

/* Bits of a split's threshold on column x: the least n with 2^n at least its span. */
static const uint8_t kpkr_tbits_[32] = {3, 3, 3, 3, 2, 3, 4, 4, 4, 4, 4, 4, 0, 2, 3, 3,
                                        0, 3, 3, 0, 3, 3, 0, 3, 0, 0, 3, 3, 3, 4, 4, 0};

/* x1..x32 of a position with the pawn side to move (Haworth & Velliste, Table 4, wtm = 1). */
static void kpkr_features_(const kpkr_pos_ *p, int8_t *x) {
    int v[33], i;
    v[1] = (int)(p->K & 7) + 1, v[2] = (int)(p->K >> 3) + 1;
    v[3] = (int)(p->k & 7) + 1, v[4] = (int)(p->k >> 3) + 1;
    v[5] = (int)(p->P & 7) + 1, v[6] = (int)(p->P >> 3) + 1;
    v[7] = v[1] - v[3], v[8] = v[2] - v[4], v[9] = v[1] - v[5];
    v[10] = v[2] - v[6], v[11] = v[3] - v[5], v[12] = v[4] - v[6];
    v[13] = v[6] == 8;
    v[14] = v[6] == 2 ? 5 : 8 - v[6];
    v[15] = kpkr_abs_(v[7]), v[16] = kpkr_abs_(v[8]);
    v[17] = v[7] % 2 == 0 && v[8] % 2 == 0;
    v[18] = kpkr_abs_(v[9]), v[19] = kpkr_abs_(v[10]), v[20] = v[10] < 0;
    v[21] = kpkr_abs_(v[11]), v[22] = kpkr_abs_(v[12]), v[23] = v[12] < 0;
    v[24] = v[15] > v[16] ? v[15] : v[16];
    v[25] = v[17] == 0, v[26] = v[17] == 1;
    v[27] = v[18] > v[19] ? v[18] : v[19];
    v[28] = v[21] > v[22] ? v[21] : v[22];
    v[29] = v[21] > kpkr_abs_(8 - v[4]) ? v[21] : kpkr_abs_(8 - v[4]);
    v[30] = v[27] - v[28], v[31] = v[29] - v[14];
    v[32] = v[18] > 0 && v[31] > 1;
    for (i = 0; i < 32; i++) x[i] = (int8_t)v[i + 1];
}

/* A tree in a bit stream: its leaves hold a class (leaf_bits < 0: 1 bit, none for a leaf that is
 * the right sibling of a leaf) or a value of leaf_bits bits. */
typedef struct kpkr_tree_ {
    kpkr_bits_ r;
    int leaf_bits;
    uint32_t readable; /* the characteristics a split may read */
    uint32_t *jump;
    int deep, bad; /* a node below level 64; a split's field out of range */
} kpkr_tree_;

static unsigned kpkr_child_(unsigned h, unsigned side) { return h < 256 ? 2 * h + side : 256; }

/* Read and check the subtree at the reader's bit, at level `depth` and heap number h; `sibling`
 * is its left sibling's class when that is a leaf, else -1. Its class when it is a leaf, 2 for a
 * split, -1 when the reading stopped (a read past the end or a node too deep). */
static int kpkr_read_tree_(kpkr_tree_ *t, unsigned depth, unsigned h, int sibling) {
    unsigned x, thr;
    int left;
    if (depth > 64) return t->deep = 1, -1;
    if (!kpkr_get_(&t->r, 1)) {
        if (t->leaf_bits >= 0) return kpkr_get_(&t->r, (unsigned)t->leaf_bits), t->r.err ? -1 : 2;
        left = sibling >= 0 ? !sibling : (int)kpkr_get_(&t->r, 1);
        return t->r.err ? -1 : left;
    }
    x = kpkr_get_(&t->r, 5);
    thr = kpkr_get_(&t->r, kpkr_tbits_[x]);
    if (t->r.err) return -1;
    if (!(t->readable >> x & 1) || thr >= kpkr_span_[x]) t->bad = 1;
    left = kpkr_read_tree_(t, depth + 1, kpkr_child_(h, 0), -1);
    if (left < 0) return -1;
    if (h < 256) t->jump[h] = t->r.at;
    if (kpkr_read_tree_(t, depth + 1, kpkr_child_(h, 1), t->leaf_bits < 0 && left < 2 ? left : -1) < 0)
        return -1;
    return 2;
}

/* Read a whole tree from the reader's bit: 0, or the error. */
static int kpkr_check_tree_(kpkr_tree_ *t) {
    int got = kpkr_read_tree_(t, 0, 1, -1);
    if (t->deep) return KPKR_E_INVALID;
    if (got < 0) return KPKR_E_BIT_STREAM;
    return t->bad ? KPKR_E_INVALID : 0;
}

/* Where the subtree at bit `at` ends (a checked tree): its nodes read one by one. */
static uint32_t kpkr_skip_(const uint8_t *s, uint32_t at, int leaf_bits) {
    uint32_t open = 1;
    int after_split = 0, implied = 0;
    while (open) {
        if (kpkr_peek_(s, at, 1)) {
            unsigned x = kpkr_peek_(s, at + 1, 5);
            at += 6 + kpkr_tbits_[x];
            open++, after_split = 1, implied = 0;
        } else {
            at += leaf_bits >= 0 ? 1 + (unsigned)leaf_bits : implied ? 1u : 2u;
            open--, implied = after_split, after_split = 0;
        }
    }
    return at;
}

/* The leaf a checked tree at bit 0 of s gives characteristics f: its class or value. */
static unsigned kpkr_walk_(const uint8_t *s, const uint32_t *jump, int leaf_bits, const int8_t *f) {
    uint32_t at = 0;
    unsigned h = 1;
    int sibling = -1;
    for (;;) {
        unsigned x, thr;
        uint32_t left;
        if (!kpkr_peek_(s, at, 1)) {
            if (leaf_bits >= 0) return kpkr_peek_(s, at + 1, (unsigned)leaf_bits);
            return sibling >= 0 ? (unsigned)!sibling : kpkr_peek_(s, at + 1, 1);
        }
        x = kpkr_peek_(s, at + 1, 5);
        thr = kpkr_peek_(s, at + 6, kpkr_tbits_[x]);
        left = at + 6 + kpkr_tbits_[x];
        if (f[x] - kpkr_lo_[x] <= (int)thr) {
            at = left, h = kpkr_child_(h, 0), sibling = -1;
            continue;
        }
        if (leaf_bits < 0 && !kpkr_peek_(s, left, 1)) {
            sibling = (int)kpkr_peek_(s, left + 1, 1), at = left + 2;
        } else {
            at = h < 256 ? jump[h] : kpkr_skip_(s, left, leaf_bits);
            sibling = -1;
        }
        h = kpkr_child_(h, 1);
    }
}

/* ---- The win/draw model (KPKH version 3). ---- */

/* Whether index i (the pawn side to move) is an exception: the gaps (checked at load) read up to
 * it, a byte at a time. */
static int kpkr_is_exception_(const kpkr_wdl *m, uint32_t i) {
    uint32_t n, e = 0, next = 0, at = m->gaps;
    unsigned b;
    for (n = 0; n < m->exceptions; n++, next = e + 1) {
        uint32_t q = 0, rest = 0;
        while (kpkr_peek_(m->stream, at++, 1)) q++;
        for (b = 0; b < m->rice; b += 8) rest |= (uint32_t)kpkr_peek_(m->stream, at + b, m->rice - b < 8 ? m->rice - b : 8) << b;
        at += m->rice;
        e = next + (q << m->rice | rest);
        if (e >= i) return e == i;
    }
    return 0;
}

/* The pawn side to move: the tree's class, flipped for an exception. */
static int kpkr_covered_(const kpkr_wdl *m, const kpkr_pos_ *p) {
    int8_t f[32];
    kpkr_features_(p, f);
    return (int)kpkr_walk_(m->stream, m->jump, -1, f) != kpkr_is_exception_(m, kpkr_index_(p));
}

/* The lowest square of a nonempty set. */
static unsigned kpkr_low_(uint64_t set) {
    unsigned s = 0;
    while (!(set >> s & 1)) s++;
    return s;
}

/* The lone king's moves from p (its side to move): a bit per square it may step to; *takes set
 * when it may also take the pawn (next to it, unguarded). */
static uint64_t kpkr_lone_steps_(const kpkr_pos_ *p, int *takes) {
    uint64_t steps = 0;
    int df, dr;
    *takes = 0;
    for (dr = -1; dr <= 1; dr++)
        for (df = -1; df <= 1; df++) {
            int f = (int)(p->k & 7) + df, r = (int)(p->k >> 3) + dr;
            unsigned s = (unsigned)(r * 8 + f);
            if ((df == 0 && dr == 0) || f < 0 || f > 7 || r < 0 || r > 7 || kpkr_dist_(s, p->K) <= 1) continue;
            if (s == p->P) *takes = 1;
            else if (!kpkr_pawn_attacks_(p->P, s)) steps |= (uint64_t)1 << s;
        }
    return steps;
}

int kpkr_wdl_load(kpkr_wdl *m, const uint8_t *b, size_t len) {
    kpkr_tree_ t;
    uint64_t next = 0, e;
    uint32_t n;
    int err = 0;
#ifndef KPK_READER_TRUST
    if ((err = kpkr_envelope_(b, len, "KPKH", 3)) != 0) return err;
    /* The fields in file order: the input function, the mask, the exception header. */
    if (b[9] != 1) return KPKR_E_INVALID;
    if (len < 19) return KPKR_E_TRUNCATED;
    if (kpkr_le_(b + 10, 4) == 0 || b[14] != 0) return KPKR_E_INVALID;
    if (len < 23) return KPKR_E_TRUNCATED;
    if (b[18] > 24) return KPKR_E_INVALID; /* bit 7 set (numbered by confidence) included */
#endif
    t.readable = kpkr_le_(b + 10, 4);
    m->exceptions = kpkr_le_(b + 15, 3);
    m->rice = b[18];
    m->stream = b + 19;
    t.r.s = m->stream, t.r.n = (uint32_t)(len - 23) * 8, t.r.at = 0, t.r.err = 0;
    t.leaf_bits = -1, t.jump = m->jump, t.deep = 0, t.bad = 0;
    err = kpkr_check_tree_(&t);
    m->gaps = t.r.at;
#ifndef KPK_READER_TRUST
    if (err) return err;
    if (m->exceptions > KPKR_SIDE_) return KPKR_E_BIT_STREAM;
    for (n = 0; n < m->exceptions; n++, next = e + 1) {
        e = next + kpkr_rice_(&t.r, m->rice);
        if (t.r.err || e >= KPKR_SIDE_) return KPKR_E_BIT_STREAM;
    }
    if (!kpkr_padded_end_(&t.r)) return KPKR_E_INVALID;
    t.r.at = m->gaps, next = 0;
    for (n = 0; n < m->exceptions; n++, next = e + 1) {
        kpkr_pos_ p;
        e = next + kpkr_rice_(&t.r, m->rice);
        p = kpkr_at_((uint32_t)e);
        if (!kpkr_legal_(&p)) return KPKR_E_INVALID;
    }
#else
    (void)next, (void)e, (void)n;
#endif
    return err;
}

static int kpkr_wdl_answer_(const kpkr_wdl *m, const kpkr_pos_ *p) {
    int takes, all = 1;
    uint64_t steps;
    if (p->side == 0) return kpkr_covered_(m, p);
    steps = kpkr_lone_steps_(p, &takes);
    if (takes || !steps) return KPKR_DRAW;
    for (; steps && all; steps &= steps - 1) {
        kpkr_pos_ q = *p;
        q.side = 0, q.k = kpkr_low_(steps);
        all = kpkr_covered_(m, &q);
    }
    return all;
}

int kpkr_wdl_probe(const kpkr_wdl *m, unsigned wk, unsigned bk, unsigned pawn, int pawn_black,
                   int btm) {
    kpkr_pos_ p;
    if (!kpkr_orient_(&p, wk, bk, pawn, pawn_black, btm)) return KPKR_ILLEGAL;
    return kpkr_wdl_answer_(m, &p);
}

/* Every index's win/draw answer from a loaded model, into bits (or bytes, 255 for a win, when
 * `bytes` is set), every byte written: the pawn side to move by the tree, then the lone king to
 * move by the one-ply rule over those answers. */
static void kpkr_expand_(const kpkr_wdl *m, uint8_t *out, int bytes) {
    uint32_t i;
    unsigned acc = 0;
    for (i = 0; i < 2 * KPKR_SIDE_; i++) {
        kpkr_pos_ p = kpkr_at_(i);
        unsigned win = 0;
        if (kpkr_legal_(&p) && p.side == 0) {
            win = (unsigned)kpkr_covered_(m, &p);
        } else if (kpkr_legal_(&p)) {
            int takes;
            uint64_t steps = kpkr_lone_steps_(&p, &takes);
            for (win = !takes && steps; steps && win; steps &= steps - 1) {
                uint32_t j;
                p.side = 0, p.k = kpkr_low_(steps), j = kpkr_index_(&p);
                win = bytes ? out[j] != 0 : (unsigned)(out[j >> 3] >> (j & 7) & 1);
            }
        }
        acc |= win << (i & 7);
        if (bytes) out[i] = (uint8_t)(0u - win);
        else if ((i & 7) == 7) out[i >> 3] = (uint8_t)acc;
        if ((i & 7) == 7) acc = 0;
    }
}

/* ---- Promotions and the pawn's moves. ---- */

/* Does a promotion on q win at once, the lone king then to move? A queen when `diagonal`, else a
 * rook: not when the lone king takes it (next to it, the king not), nor when it is stalemated. */
static int kpkr_promotion_wins_(unsigned K, unsigned k, unsigned q, int diagonal) {
    uint64_t attacked = 0;
    static const int dirs[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    int d;
    unsigned s;
    if (kpkr_dist_(k, q) == 1 && kpkr_dist_(K, q) != 1) return 0;
    for (d = 0; d < (diagonal ? 8 : 4); d++) {
        int f = (int)(q & 7), r = (int)(q >> 3);
        for (;;) {
            f += dirs[d][0], r += dirs[d][1];
            if (f < 0 || f > 7 || r < 0 || r > 7) break;
            attacked |= (uint64_t)1 << (r * 8 + f);
            if ((unsigned)(r * 8 + f) == K) break;
        }
    }
    if (attacked >> k & 1) return 1;
    for (s = 0; s < 64; s++)
        if (kpkr_dist_(s, k) == 1 && kpkr_dist_(s, K) > 1 && !(attacked >> s & 1)) return 1;
    return 0;
}

/* ---- The DTZ model (KPKZ). ---- */

/* Does the pawn side to move in p have a pawn move that keeps the win? `won` holds a nonzero
 * byte for every won index with the lone king to move. */
static int kpkr_pawn_move_wins_(const kpkr_pos_ *p, const uint8_t *won) {
    unsigned one = p->P + 8, two = p->P + 16;
    kpkr_pos_ q = *p;
    if (one == p->K || one == p->k) return 0;
    if (one >= 56) return kpkr_promotion_wins_(p->K, p->k, one, 1) || kpkr_promotion_wins_(p->K, p->k, one, 0);
    q.side = 1, q.P = one;
    if (won[kpkr_index_(&q)]) return 1;
    q.P = two;
    return p->P < 16 && two != p->K && two != p->k && won[kpkr_index_(&q)];
}

int kpkr_dtz_load(kpkr_dtz *m, const uint8_t *b, size_t len) {
    kpkr_wdl wdl;
    kpkr_tree_ t;
    uint32_t jump[256], n, i, count, kg, kd, end, values, hard = 0, place = 0, next = 0;
    size_t at;
    int err = kpkr_envelope_(b, len, "KPKZ", 1);
    if (err) return err;
    n = kpkr_le_(b + 9, 2);
    at = 11 + (size_t)n;
    if (at + 6 > len - 4) return KPKR_E_TRUNCATED;
    t.leaf_bits = b[at], count = kpkr_le_(b + at + 1, 3), kg = b[at + 4], kd = b[at + 5];
    if (t.leaf_bits > 6 || kg > 24 || kd > 24) return KPKR_E_INVALID;
    t.r.s = b + at + 6, t.r.n = (uint32_t)(len - 4 - at - 6) * 8, t.r.at = 0, t.r.err = 0;
    t.readable = 0xFFFFFFFFu, t.jump = jump, t.deep = 0, t.bad = 0;
    if ((err = kpkr_check_tree_(&t)) != 0) return err;
    end = t.r.at;
    if (count > KPKR_SIDE_) return KPKR_E_BIT_STREAM;
    for (i = 0; i < count; i++, next++) {
        next += (uint32_t)kpkr_rice_(&t.r, kg);
        if (t.r.err || next >= KPKR_SIDE_) return KPKR_E_BIT_STREAM;
    }
    values = t.r.at;
    for (i = 0; i < count; i++) {
        uint64_t c = kpkr_rice_(&t.r, kd) + 1;
        if (t.r.err || c > 255) return KPKR_E_BIT_STREAM; /* zig-zag 255 is -128, 256 is 128 */
    }
    if (!kpkr_padded_end_(&t.r)) return KPKR_E_INVALID;
    if ((err = kpkr_wdl_load(&wdl, b + 11, n)) != 0) return err;

    /* Every index won or not (255 or 0), then the pawn side's depths in index order (the
     * corrections read beside the hard positions), then the lone king's. */
    kpkr_expand_(&wdl, m->depth, 1);
    t.r.at = end;
    next = count ? (uint32_t)kpkr_rice_(&t.r, kg) : 0;
    for (i = 0; i < KPKR_SIDE_; i++) {
        kpkr_pos_ p = kpkr_at_(i);
        int8_t f[32];
        int v;
        if (!m->depth[i]) continue;
        if (kpkr_pawn_move_wins_(&p, m->depth)) {
            m->depth[i] = 1;
            continue;
        }
        kpkr_features_(&p, f);
        v = (int)kpkr_walk_(t.r.s, jump, t.leaf_bits, f);
        if (place < count && next == hard) {
            uint32_t gaps = t.r.at;
            uint64_t z;
            t.r.at = values;
            z = kpkr_rice_(&t.r, kd) + 1; /* the correction's zig-zag code */
            values = t.r.at, t.r.at = gaps;
            v += z & 1 ? -(int)((z + 1) / 2) : (int)(z / 2);
            if (++place < count) next += 1 + (uint32_t)kpkr_rice_(&t.r, kg);
        }
        if (v < 0 || 2 * v + 3 > 127) return KPKR_E_INVALID;
        m->depth[i] = (uint8_t)(2 * v + 3);
        hard++;
    }
    if (place < count) return KPKR_E_INVALID;
    for (i = KPKR_SIDE_; i < 2 * KPKR_SIDE_; i++) {
        kpkr_pos_ p = kpkr_at_(i);
        int takes;
        uint64_t steps;
        unsigned longest = 0;
        if (!m->depth[i]) continue;
        for (steps = kpkr_lone_steps_(&p, &takes); steps; steps &= steps - 1) {
            kpkr_pos_ q = p;
            q.k = kpkr_low_(steps), q.side = 0;
            if (m->depth[kpkr_index_(&q)] > longest) longest = m->depth[kpkr_index_(&q)];
        }
        m->depth[i] = (uint8_t)(longest + 1);
    }
    return 0;
}

int kpkr_dtz_probe(const kpkr_dtz *m, unsigned wk, unsigned bk, unsigned pawn, int pawn_black,
                   int btm, int *dtz) {
    kpkr_pos_ p;
    int d;
    if (!kpkr_orient_(&p, wk, bk, pawn, pawn_black, btm)) return KPKR_ILLEGAL;
    d = m->depth[kpkr_index_(&p)];
    *dtz = p.side ? -d : d;
    return 0;
}

/* ---- The play model (KPKP version 2). ---- */

static int kpkr_won_(const kpkr_play *m, const kpkr_pos_ *p) {
    uint32_t i = kpkr_index_(p);
    return m->win[i >> 3] >> (i & 7) & 1;
}

static int kpkr_clamp2_(int v) { return v < -2 ? -2 : v > 2 ? 2 : v; }

/* The proposer's score of s (the lone king to move), reached from a position of regime r: the
 * fifteen features times the regime's weights. */
static int32_t kpkr_score_(const kpkr_play *m, unsigned r, const kpkr_pos_ *s) {
    int fK = (int)(s->K & 7), rK = (int)(s->K >> 3), fk = (int)(s->k & 7), rk = (int)(s->k >> 3);
    int fP = (int)(s->P & 7), rP = (int)(s->P >> 3), f[15], i;
    unsigned front = s->P + 8, queen = 56 + (s->P & 7);
    int32_t sum = 0;
    f[0] = 7 - rP;
    f[1] = kpkr_dist_(s->K, front);
    f[2] = kpkr_dist_(s->K, queen);
    f[3] = -kpkr_dist_(s->k, queen);
    f[4] = -kpkr_dist_(s->k, s->P);
    f[5] = -kpkr_clamp2_(rK - rP);
    f[6] = kpkr_dist_(s->K, s->P);
    f[7] = -kpkr_dist_(s->k, front);
    f[8] = kpkr_clamp2_(kpkr_dist_(s->k, queen) - (7 - rP));
    f[9] = fK == fk && rk == rK + 2;
    f[10] = kpkr_abs_(fK - fP);
    f[11] = kpkr_abs_(fK - fk) == kpkr_abs_(rK - rk) && kpkr_abs_(fK - fk) % 2 == 0;
    f[12] = fP == 0 || fP == 7 ? kpkr_dist_(s->K, queen) : 0;
    f[13] = rK == rP + 1 && kpkr_abs_(fK - fP) == 1;
    f[14] = rP == 1;
    for (i = 0; i < 15; i++) sum += f[i] * m->weights[r * 15 + (unsigned)i];
    return sum;
}

/* The pawn side's legal moves in p, in move-generation order (canonical squares, packed): the
 * king's by target square, then the pawn's (the four promotions, or one step then two). */
static unsigned kpkr_moves_(const kpkr_pos_ *p, int *moves) {
    unsigned n = 0, s, one = p->P + 8;
    for (s = 0; s < 64; s++)
        if (kpkr_dist_(s, p->K) == 1 && kpkr_dist_(s, p->k) > 1 && s != p->P)
            moves[n++] = (int)(p->K | s << 6);
    if (one == p->K || one == p->k) return n;
    if (one >= 56) {
        for (s = KPKR_QUEEN; s <= KPKR_KNIGHT; s++) moves[n++] = (int)(p->P | one << 6 | s << 12);
        return n;
    }
    moves[n++] = (int)(p->P | one << 6);
    if (p->P < 16 && one + 8 != p->K && one + 8 != p->k) moves[n++] = (int)(p->P | (one + 8) << 6);
    return n;
}

/* The pawn side's winning moves in p, best first as the proposer ranks them: winning promotions
 * (queen, rook), then the moves to won positions by score, smaller first, ties in generation
 * order. Their number; *promotes set when a promotion wins. */
static unsigned kpkr_ranked_(const kpkr_play *m, const kpkr_pos_ *p, int *ranked, int *promotes) {
    int moves[12], kept[12], won[12];
    int32_t key[12];
    unsigned n = kpkr_moves_(p, moves), i, j, count = 0, w = 0;
    unsigned fP = p->P & 7, rP = p->P >> 3;
    unsigned regime = (unsigned)(3 * (fP == 0 || fP == 7) + (rP >= 3) + (rP >= 5));
    *promotes = 0;
    for (i = 0; i < n; i++) {
        int mv = moves[i], piece = KPKR_MOVE_PROMOTION(mv), win;
        unsigned to = (unsigned)KPKR_MOVE_TO(mv);
        int32_t k;
        kpkr_pos_ s = *p;
        if (piece) {
            if (piece > KPKR_ROOK || !kpkr_promotion_wins_(p->K, p->k, to, piece == KPKR_QUEEN)) continue;
            k = INT32_MIN, win = 1, *promotes = 1;
        } else {
            if ((unsigned)KPKR_MOVE_FROM(mv) == p->K) s.K = to;
            else s.P = to;
            s.side = 1;
            k = kpkr_score_(m, regime, &s), win = kpkr_won_(m, &s);
        }
        for (j = count++; j > 0 && key[j - 1] > k; j--)
            key[j] = key[j - 1], kept[j] = kept[j - 1], won[j] = won[j - 1];
        key[j] = k, kept[j] = mv, won[j] = win;
    }
    for (i = 0; i < count; i++)
        if (won[i]) ranked[w++] = kept[i];
    return w;
}

int kpkr_play_load(kpkr_play *m, const uint8_t *b, size_t len) {
    kpkr_wdl wdl;
    kpkr_bits_ r;
    uint32_t n, i, count, kg, ko, choices = 0, e = 0, next = 0, place = 0, done = 0, ordinals;
    size_t at;
    int err = kpkr_envelope_(b, len, "KPKP", 2);
    if (err) return err;
    n = kpkr_le_(b + 9, 2);
    at = 11 + (size_t)n;
    if (at > len - 4) return KPKR_E_TRUNCATED;
    if ((err = kpkr_wdl_load(&wdl, b + 11, n)) != 0) return err;
    if (at + 96 > len - 4) return KPKR_E_TRUNCATED;
    if (b[at] != 90) return KPKR_E_INVALID;
    for (i = 0; i < 90; i++) m->weights[i] = (int8_t)((int)b[at + 1 + i] - (b[at + 1 + i] > 127 ? 256 : 0));
    count = kpkr_le_(b + at + 91, 3), kg = b[at + 94], ko = b[at + 95];
    if (kg > 24 || ko > 8) return KPKR_E_INVALID;
    kpkr_expand_(&wdl, m->win, 0);
    /* The choice positions (won, no winning promotion, two or more winning moves): their
     * number of winning moves, for now. */
    for (i = 0; i < KPKR_SIDE_; i++) {
        kpkr_pos_ p = kpkr_at_(i);
        int ranked[12], promotes;
        unsigned w = kpkr_won_(m, &p) ? kpkr_ranked_(m, &p, ranked, &promotes) : 0;
        m->ordinal[i] = (uint8_t)(w >= 2 && !promotes ? w : 0);
        choices += m->ordinal[i] != 0;
    }
    r.s = b + at + 96, r.n = (uint32_t)(len - 4 - at - 96) * 8, r.at = 0, r.err = 0;
    if (count > choices) return KPKR_E_BIT_STREAM;
    for (i = 0; i < count; i++, next = e + 1) {
        e = next + (uint32_t)kpkr_rice_(&r, kg);
        if (r.err || e >= choices) return KPKR_E_BIT_STREAM;
    }
    /* Each exception's ordinal (stored for three winning moves or more), read beside the choice
     * positions in index order; every other position plays its top-ranked winning move. */
    ordinals = r.at, r.at = 0;
    e = count ? (uint32_t)kpkr_rice_(&r, kg) : 0;
    for (i = 0; i < KPKR_SIDE_; i++) {
        unsigned w = m->ordinal[i];
        uint64_t o = 1;
        if (!w) continue;
        m->ordinal[i] = 0;
        if (done < count && place++ == e) {
            uint32_t gaps = r.at;
            if (w > 2) {
                r.at = ordinals;
                o = kpkr_rice_(&r, ko) + 1;
                ordinals = r.at;
                if (r.err) return KPKR_E_BIT_STREAM;
            }
            if (o >= w) return KPKR_E_INVALID;
            m->ordinal[i] = (uint8_t)o;
            r.at = gaps;
            if (++done < count) e += 1 + (uint32_t)kpkr_rice_(&r, kg);
        }
    }
    r.at = ordinals;
    return kpkr_padded_end_(&r) ? 0 : KPKR_E_INVALID;
}

int kpkr_play_wdl(const kpkr_play *m, unsigned wk, unsigned bk, unsigned pawn, int pawn_black,
                  int btm) {
    kpkr_pos_ p;
    if (!kpkr_orient_(&p, wk, bk, pawn, pawn_black, btm)) return KPKR_ILLEGAL;
    return kpkr_won_(m, &p);
}

int kpkr_best_move(const kpkr_play *m, unsigned wk, unsigned bk, unsigned pawn, int pawn_black,
                   int btm) {
    kpkr_pos_ p;
    int moves[12], mv = KPKR_NO_MOVE, promotes;
    if (!kpkr_orient_(&p, wk, bk, pawn, pawn_black, btm)) return KPKR_ILLEGAL;
    if (p.side == 0 && kpkr_won_(m, &p)) {
        kpkr_ranked_(m, &p, moves, &promotes);
        mv = moves[m->ordinal[kpkr_index_(&p)]];
    } else if (p.side == 0) {
        if (kpkr_moves_(&p, moves)) mv = moves[0];
    } else {
        /* The lone king's moves by target square: lost, the first; drawn, the first that keeps
         * the draw (taking the pawn, or a step to a position not won). */
        int takes, won = kpkr_won_(m, &p);
        uint64_t set = kpkr_lone_steps_(&p, &takes);
        if (takes) set |= (uint64_t)1 << p.P;
        for (; set; set &= set - 1) {
            kpkr_pos_ q = p;
            q.k = kpkr_low_(set), q.side = 0;
            if (mv == KPKR_NO_MOVE) mv = (int)(p.k | q.k << 6);
            if (!won && (q.k == p.P || !kpkr_won_(m, &q))) {
                mv = (int)(p.k | q.k << 6);
                break;
            }
        }
    }
    if (mv < 0) return mv;
    return (int)(((unsigned)mv & 63) ^ p.t) | (int)((((unsigned)mv >> 6 & 63) ^ p.t) << 6) | (mv >> 12 << 12);
}

#endif /* KPK_READER_IMPLEMENTED */
#endif /* KPK_READER_IMPLEMENTATION */
