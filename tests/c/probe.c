/* The C ABI (include/kpk.h) against the Rust answers on every legal position, in all four
 * orientations (as given, files mirrored, colours reversed, both), plus FENs and bad arguments.
 *
 * usage: probe MODEL ANSWERS   (ANSWERS from `cargo run --release --example hybrid_answers`)
 * Exit status 0 when every answer agrees. Run by .ci/run. */
#define CHECK_NAME "C probe"
#include "answers.h"
#include "kpk.h"

#include <string.h>

int main(int argc, char **argv) {
    size_t len = 0;
    unsigned char *bytes = read_model(argc, argv, &len);
    if (!bytes) return 2;
    kpk_model *model = kpk_model_load(bytes, len);
    check(model != NULL, "the model loads");
    if (!model) return 1;

    /* A damaged copy is refused, never answered from. */
    bytes[len / 2] ^= 0x10;
    check(kpk_model_load(bytes, len) == NULL, "a corrupt model is refused");
    check(kpk_model_load(bytes, len - 1) == NULL, "a truncated model is refused");
    check(kpk_model_load(NULL, len) == NULL, "a null model is refused");
    free(bytes); /* the model keeps its own copy */

    FILE *answers = open_answers(argv[2]);
    if (!answers) return 2;
    int wk, bk, wp, btm;
    char outcome[16], source[16];
    long positions = 0;
    while (fscanf(answers, "%d %d %d %d %15s %15s", &wk, &bk, &wp, &btm, outcome, source) == 6) {
        int want = strcmp(outcome, "win") == 0 ? KPK_WIN : KPK_DRAW;
        int want_exception = strcmp(source, "exception") == 0;
        int exception = -1;
        int got = kpk_probe(model, wk, bk, wp, 0, btm, &exception);
        if (got != want || exception != want_exception) {
            fprintf(stderr, "C probe: %d %d %d %d: got %d (exception %d), want %s %s\n", wk, bk, wp, btm,
                    got, exception, outcome, source);
            failures++;
        }
        /* Mirrored files (a <-> h): the same answer. */
        check(kpk_probe(model, wk ^ 7, bk ^ 7, wp ^ 7, 0, btm, NULL) == want, "mirrored");
        /* Colours reversed (ranks flipped, the pawn Black's, the other side to move). */
        check(kpk_probe(model, bk ^ 56, wk ^ 56, wp ^ 56, 1, !btm, NULL) == want, "colour-flipped");
        check(kpk_probe(model, bk ^ 63, wk ^ 63, wp ^ 63, 1, !btm, NULL) == want, "both");
        positions++;
        if (failures > 20) break;
    }
    fclose(answers);
    check(positions == 165676, "the answers file lists every legal position");

    /* FENs: a win, the same colour-flipped and mirrored, a rook-pawn draw, and bad input. */
    check(kpk_probe_fen(model, "8/8/8/8/8/1K6/1P6/6k1 w - - 0 1", NULL) == KPK_WIN, "FEN win");
    check(kpk_probe_fen(model, "1K6/6p1/6k1/8/8/8/8/8 b - - 0 1", NULL) == KPK_WIN, "FEN flipped win");
    check(kpk_probe_fen(model, "k7/8/1K6/P7/8/8/8/8 b - - 0 1", NULL) == KPK_DRAW, "FEN rook-pawn draw");
    check(kpk_probe_fen(model, "not a fen", NULL) == KPK_ILLEGAL, "bad FEN");
    check(kpk_probe_fen(model, "8/8/8/8/2k5/1K6/1P6/8 w - - 0 1", NULL) == KPK_ILLEGAL, "adjacent kings");
    /* 33 eights cover 264 files, 8 modulo 256: the file count must not wrap. */
    check(kpk_probe_fen(model, "888888888888888888888888888888888/8/8/8/8/1K6/1P6/6k1 w", NULL) == KPK_ILLEGAL,
          "a first rank of 33 eights");
    check(kpk_probe_fen(model, "8/8/8/8/8/1K6/1P6/6k1 w - - \xc2\xb2 1", NULL) == KPK_ILLEGAL,
          "a superscript two as a move counter");
    check(kpk_probe_fen(model, NULL, NULL) == KPK_BAD_ARGUMENT, "null FEN");
    check(kpk_probe_fen(NULL, "8/8/8/8/8/1K6/1P6/6k1 w - - 0 1", NULL) == KPK_BAD_ARGUMENT, "null model");
    check(kpk_probe(model, 64, 0, 9, 0, 0, NULL) == KPK_BAD_ARGUMENT, "square 64");
    check(kpk_probe(model, -1, 0, 9, 0, 0, NULL) == KPK_BAD_ARGUMENT, "square -1");
    check(kpk_probe(model, 17, 6, 1, 0, 0, NULL) == KPK_ILLEGAL, "pawn on rank 1");
    kpk_model_free(model);
    kpk_model_free(NULL);

    return finish(positions, "the Rust answers");
}
