/*
 * Times and checks the smallest decoder (libkpk_footprint.a, kpk-probe's lazy path) beside
 * pfkpk's generator (pfkpk/, BSD-2-Clause), on every legal KPK position with a white pawn, each
 * side to move, and the same positions with colours reversed.
 *
 *   harness MODEL   prints: lazy LOAD_NS QUERY_NS QUERY_STACK_BYTES WORKSPACE_BYTES HANDLE_BYTES LOAD_STACK_BYTES
 *                           pfkpk GENERATE_NS QUERY_NS QUERY_STACK_BYTES TABLE_BYTES GENERATE_STACK_BYTES
 *                           creader LOAD_NS QUERY_NS QUERY_STACK_BYTES STRUCT_BYTES LOAD_STACK_BYTES
 *
 * creader is the one-file C reader (include/kpk_reader.h) compiled into this unit: checking, or
 * trusting when the harness is built with -DKPK_READER_TRUST.
 *
 * Built with cc -Os, as the decoder is built for size. Times are the fastest of several passes
 * (other jobs sharing the machine only slow a pass down). A query is one call from the caller's squares: the lazy path orients the position,
 * checks its legality and answers; pfkpk's probe mirrors it and reads its table. Stack bytes are
 * the deepest byte any of the calls wrote below the harness's frame (the stack is filled with a
 * pattern first; a one-line wrapper's frame included). Any disagreement between the three, or between a position and its colour-reversed twin,
 * exits 1.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* pfkpk's source in this unit: its table must be cleared before each timed generation, since a
 * generation that starts from a solved table stops early. */
#include "pfkpk/kpk.c"

#define KPK_READER_IMPLEMENTATION
#include "../include/kpk_reader.h"

int kpk_lazy_load(const uint8_t *bytes, size_t len, uint32_t *work, size_t words, void *handle);
int kpk_lazy_probe(const void *handle, uint8_t wk, uint8_t bk, uint8_t pawn, bool pawn_black,
                   bool black_to_move);

#define MAX_WORDS 65536
#define HANDLE_BYTES 32
#define PAINT 65536
#define PASSES 7

static uint32_t work[MAX_WORDS];
static _Alignas(16) unsigned char handle[HANDLE_BYTES];
/* The painted area's bounds, kept as numbers: it is read after paint() returns, on purpose. */
static uintptr_t paint_top, paint_bottom;

struct placement { uint8_t wk, bk, pawn, black_to_move; };

static double now_ns(void)
{
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Fill PAINT bytes of the stack below the caller's frame with a pattern. */
static __attribute__((noinline)) void paint(void)
{
        volatile unsigned char area[PAINT];
        for (int i = 0; i < PAINT; i++) area[i] = 0xA5;
        paint_bottom = (uintptr_t)area;
        paint_top = (uintptr_t)area + PAINT;
}

/* Bytes below the caller's frame written since paint(). */
static __attribute__((noinline)) size_t stack_used(void)
{
        volatile unsigned char *p = (volatile unsigned char *)paint_bottom;
        while ((uintptr_t)p < paint_top && *p == 0xA5) p++;
        return (size_t)(paint_top - (uintptr_t)p);
}

static __attribute__((noinline)) int lazy_probe(const struct placement *q, bool flip)
{
        if (!flip) return kpk_lazy_probe(handle, q->wk, q->bk, q->pawn, false, q->black_to_move);
        /* Colours reversed: ranks flipped, the kings' colours and the side to move swapped. */
        return kpk_lazy_probe(handle, q->bk ^ 56, q->wk ^ 56, q->pawn ^ 56, true, !q->black_to_move);
}

static kpkr_wdl creader;

static __attribute__((noinline)) int c_load(const uint8_t *bytes, size_t len)
{
        return kpkr_wdl_load(&creader, bytes, len);
}

static __attribute__((noinline)) int c_probe(const struct placement *q, bool flip)
{
        if (!flip) return kpkr_wdl_probe(&creader, q->wk, q->bk, q->pawn, 0, q->black_to_move);
        return kpkr_wdl_probe(&creader, q->bk ^ 56, q->wk ^ 56, q->pawn ^ 56, 1, !q->black_to_move);
}

/* pfkpk numbers squares file by file (a1 = 0, a2 = 1, ...); kpk rank by rank (a1 = 0, b1 = 1). */
static int pf(uint8_t sq) { return (sq % 8) * 8 + sq / 8; }

static __attribute__((noinline)) int pfkpk_probe(const struct placement *q)
{
        return kpkProbe(q->black_to_move, pf(q->wk), pf(q->pawn), pf(q->bk)) != 0;
}

static __attribute__((noinline)) int pfkpk_generate(void)
{
        memset(kpkTable, 0, sizeof kpkTable);
        return kpkGenerate();
}

static __attribute__((noinline)) int lazy_load(const uint8_t *bytes, size_t len)
{
        return kpk_lazy_load(bytes, len, work, MAX_WORDS, handle);
}

int main(int argc, char **argv)
{
        if (argc != 2) { fprintf(stderr, "usage: harness MODEL\n"); return 2; }
        FILE *f = fopen(argv[1], "rb");
        static uint8_t bytes[1 << 20];
        size_t len = f ? fread(bytes, 1, sizeof bytes, f) : 0;
        if (!f || len == 0 || len == sizeof bytes) { fprintf(stderr, "harness: cannot read %s\n", argv[1]); return 2; }
        fclose(f);

        paint();
        int words = lazy_load(bytes, len);
        size_t load_stack = stack_used();
        if (words < 0) { fprintf(stderr, "harness: the decoder refused %s\n", argv[1]); return 1; }
        paint();
        int c_refused = c_load(bytes, len);
        size_t c_load_stack = stack_used();
        if (c_refused) { fprintf(stderr, "harness: the C reader refused %s (%d)\n", argv[1], c_refused); return 1; }
        paint();
        int table = pfkpk_generate();
        size_t generate_stack = stack_used();

        /* Every placement once with the stack painted once: the deepest call leaves its mark. */
        static struct placement legal[2 * 64 * 64 * 64];
        size_t n = 0, wrong = 0;
        paint();
        for (int side = 0; side < 2; side++)
                for (int wk = 0; wk < 64; wk++)
                        for (int bk = 0; bk < 64; bk++)
                                for (int pawn = 8; pawn < 56; pawn++) {
                                        struct placement q = { wk, bk, pawn, side };
                                        if (lazy_probe(&q, false) >= 0) legal[n++] = q;
                                }
        size_t stack = stack_used();
        paint();
        for (size_t i = 0; i < n; i++) pfkpk_probe(&legal[i]);
        size_t pf_stack = stack_used();
        paint();
        for (size_t i = 0; i < n; i++) c_probe(&legal[i], false);
        size_t c_stack = stack_used();
        for (size_t i = 0; i < n; i++) {
                int a = lazy_probe(&legal[i], false);
                wrong += a != pfkpk_probe(&legal[i]) || lazy_probe(&legal[i], true) != a;
                wrong += c_probe(&legal[i], false) != a || c_probe(&legal[i], true) != a;
        }
        if (wrong || n != 2 * 165676) {
                fprintf(stderr, "harness: %zu legal positions (expected %d), %zu disagreements\n", n, 2 * 165676, wrong);
                return 1;
        }

        double load = 1e300, generate = 1e300, query = 1e300, pf_query = 1e300, c_load_ns = 1e300, c_query = 1e300;
        for (int pass = 0; pass < PASSES; pass++) {
                double t = now_ns();
                for (int i = 0; i < 100; i++) lazy_load(bytes, len);
                double l = (now_ns() - t) / 100;
                t = now_ns();
                pfkpk_generate();
                double g = now_ns() - t;
                long wins = 0;
                t = now_ns();
                for (size_t i = 0; i < n; i++) wins += lazy_probe(&legal[i], false);
                double q = (now_ns() - t) / n;
                t = now_ns();
                for (size_t i = 0; i < n; i++) wins -= pfkpk_probe(&legal[i]);
                double p = (now_ns() - t) / n;
                t = now_ns();
                for (int i = 0; i < 100; i++) c_load(bytes, len);
                double cl = (now_ns() - t) / 100;
                t = now_ns();
                for (size_t i = 0; i < n; i++) wins += c_probe(&legal[i], false);
                double cq = (now_ns() - t) / n;
                for (size_t i = 0; i < n; i++) wins -= pfkpk_probe(&legal[i]);
                if (wins != 0) { fprintf(stderr, "harness: the answers changed between passes\n"); return 1; }
                c_load_ns = cl < c_load_ns ? cl : c_load_ns;
                c_query = cq < c_query ? cq : c_query;
                load = l < load ? l : load;
                generate = g < generate ? g : generate;
                query = q < query ? q : query;
                pf_query = p < pf_query ? p : pf_query;
        }
        printf("lazy %.0f %.1f %zu %d %d %zu\n", load, query, stack, words * 4, HANDLE_BYTES, load_stack);
        printf("pfkpk %.0f %.1f %zu %d %zu\n", generate, pf_query, pf_stack, table, generate_stack);
        printf("creader %.0f %.1f %zu %zu %zu\n", c_load_ns, c_query, c_stack, sizeof creader, c_load_stack);
        return 0;
}
