/* The C ABI's DTZ model (include/kpk.h) against the bitbase's DTZ on every legal position, in all
 * four orientations (as given, files mirrored, colours reversed, both), plus damaged files and
 * bad arguments.
 *
 * usage: dtz MODEL ANSWERS   (ANSWERS from `cargo run --release --example dtz_answers`)
 * Exit status 0 when every answer agrees. Run by .ci/run. */
#define CHECK_NAME "C DTZ probe"
#include "answers.h"
#include "kpk.h"

static int dtz_of(const kpk_dtz_model *m, int wk, int bk, int wp, int black_pawn, int btm, int *ok) {
    int d = 9999;
    *ok = kpk_probe_dtz(m, wk, bk, wp, black_pawn, btm, &d) == 0;
    return d;
}

int main(int argc, char **argv) {
    size_t len = 0;
    unsigned char *bytes = read_model(argc, argv, &len);
    if (!bytes) return 2;
    kpk_dtz_model *model = kpk_dtz_model_load(bytes, len);
    check(model != NULL, "the DTZ model loads");
    if (!model) return 1;
    bytes[len / 2] ^= 0x10;
    check(kpk_dtz_model_load(bytes, len) == NULL, "a corrupt DTZ model is refused");
    bytes[len / 2] ^= 0x10;
    check(kpk_dtz_model_load(bytes, len - 1) == NULL, "a truncated DTZ model is refused");
    check(kpk_dtz_model_load(NULL, len) == NULL, "a null DTZ model is refused");
    check(kpk_model_load(bytes, len) == NULL, "a DTZ model is no win/draw model");
    free(bytes);

    FILE *answers = open_answers(argv[2]);
    if (!answers) return 2;
    int wk, bk, wp, btm, want;
    long positions = 0;
    while (fscanf(answers, "%d %d %d %d %d", &wk, &bk, &wp, &btm, &want) == 5) {
        int ok = 0;
        int got = dtz_of(model, wk, bk, wp, 0, btm, &ok);
        if (!ok || got != want) {
            fprintf(stderr, "C DTZ probe: %d %d %d %d: got %d, want %d\n", wk, bk, wp, btm, got, want);
            failures++;
        }
        check(dtz_of(model, wk ^ 7, bk ^ 7, wp ^ 7, 0, btm, &ok) == want && ok, "mirrored");
        check(dtz_of(model, bk ^ 56, wk ^ 56, wp ^ 56, 1, !btm, &ok) == want && ok, "colour-flipped");
        check(dtz_of(model, bk ^ 63, wk ^ 63, wp ^ 63, 1, !btm, &ok) == want && ok, "both");
        positions++;
        if (failures > 20) break;
    }
    fclose(answers);
    check(positions == 165676, "the answers file lists every legal position");
    int d = 0;
    check(kpk_probe_dtz(model, 64, 0, 9, 0, 0, &d) == KPK_BAD_ARGUMENT, "square 64");
    check(kpk_probe_dtz(model, 17, 6, 9, 0, 0, NULL) == KPK_BAD_ARGUMENT, "null dtz");
    check(kpk_probe_dtz(NULL, 17, 6, 9, 0, 0, &d) == KPK_BAD_ARGUMENT, "null model");
    check(kpk_probe_dtz(model, 17, 6, 1, 0, 0, &d) == KPK_ILLEGAL, "pawn on rank 1");
    kpk_dtz_model_free(model);
    kpk_dtz_model_free(NULL);
    return finish(positions, "the bitbase");
}
