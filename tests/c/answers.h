/* What the C checks of the probe (probe.c) and of the DTZ model (dtz.c) share: the command line,
 * reading the model file whole, opening the answers file, counting failed checks and the closing
 * line. Define CHECK_NAME (the name each message starts with) before including this file. */
#ifndef KPK_TESTS_ANSWERS_H
#define KPK_TESTS_ANSWERS_H

#include <stdio.h>
#include <stdlib.h>

static int failures = 0;

static void check(int ok, const char *what) {
    if (!ok) {
        fprintf(stderr, CHECK_NAME ": FAILED: %s\n", what);
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

/* The model file's bytes from `MODEL ANSWERS` on the command line, or NULL after saying why. */
static unsigned char *read_model(int argc, char **argv, size_t *len) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s MODEL ANSWERS\n", argv[0]);
        return NULL;
    }
    unsigned char *bytes = read_file(argv[1], len);
    if (!bytes) fprintf(stderr, "cannot read %s\n", argv[1]);
    return bytes;
}

/* The answers file, or NULL after saying it cannot be read. */
static FILE *open_answers(const char *path) {
    FILE *answers = fopen(path, "r");
    if (!answers) fprintf(stderr, "cannot read %s\n", path);
    return answers;
}

/* The exit status: 1 after any failed check, else 0 after saying that `positions` agree with
 * `truth` in all four orientations. */
static int finish(long positions, const char *truth) {
    if (failures) {
        fprintf(stderr, CHECK_NAME ": %d failures\n", failures);
        return 1;
    }
    printf(CHECK_NAME ": %ld positions agree with %s in all four orientations\n", positions, truth);
    return 0;
}

#endif
