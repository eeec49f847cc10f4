/* The C ABI's DTZ model (include/kpk.h) against the bitbase's DTZ on every legal position, in all
 * four orientations (as given, files mirrored, colours reversed, both), plus damaged files and
 * bad arguments.
 *
 * usage: dtz MODEL ANSWERS   (ANSWERS from `cargo run --release --example dtz_answers`)
 * Exit status 0 when every answer agrees. Run by .ci/run. */
#include "kpk.h"

#include <stdio.h>
#include <stdlib.h>

static int failures = 0;

static void check(int ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "C DTZ probe: FAILED: %s\n", what);
        failures++;
    }
}

static unsigned char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *bytes = malloc((size_t)n);
    if (!bytes || fread(bytes, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(bytes);
        return NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return bytes;
}

static int dtz_of(const kpk_dtz_model *m, int wk, int bk, int wp, int black_pawn, int btm, int *ok) {
    int d = 9999;
    *ok = kpk_probe_dtz(m, wk, bk, wp, black_pawn, btm, &d) == 0;
    return d;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s MODEL ANSWERS\n", argv[0]);
        return 2;
    }
    size_t len = 0;
    unsigned char *bytes = read_file(argv[1], &len);
    if (!bytes) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 2;
    }
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

    FILE *answers = fopen(argv[2], "r");
    if (!answers) {
        fprintf(stderr, "cannot read %s\n", argv[2]);
        return 2;
    }
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
    if (failures) {
        fprintf(stderr, "C DTZ probe: %d failures\n", failures);
        return 1;
    }
    printf("C DTZ probe: %ld positions agree with the bitbase in all four orientations\n", positions);
    return 0;
}
