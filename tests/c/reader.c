/* The one-file C reader (include/kpk_reader.h) against the bitbase's win/draw and DTZ and the play
 * model's move (from Rust), on every legal position in all four orientations (as given, files
 * mirrored, colours reversed, both), plus damaged files and illegal squares. This file includes
 * no kpk header but the reader.
 *
 * usage: reader MODELS_DIR ANSWERS [REFUSALS]
 *   ANSWERS from `cargo run --release --example reader_answers`; REFUSALS, kpk-probe's verdicts on
 *   damaged copies of the win/draw and DTZ models (`cargo run --release --example model_refusals`),
 *   which the reader must share: the same error name for each copy, or both accept it. (One
 *   difference is allowed: a win/draw model's version byte set to 1 or 2, a net version that
 *   kpk-probe reads and this reader refuses as version.)
 * Exit status 0 when every answer agrees. Run by .ci/run with gcc and with clang. */
#define CHECK_NAME "C one-file reader"
#define KPK_READER_IMPLEMENTATION
#include "kpk_reader.h"
#include "answers.h"

#include <string.h>

static kpkr_wdl wdl;
static kpkr_dtz dtz;
static kpkr_play play;

static unsigned char *model(const char *dir, const char *name, size_t *len) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    unsigned char *bytes = read_file(path, len);
    if (!bytes) fprintf(stderr, "cannot read %s\n", path);
    return bytes;
}

/* The move the caller sees for a canonical move through transform t (an XOR of squares). */
static int moved(int from, int to, int piece, unsigned t) {
    if (from < 0) return KPKR_NO_MOVE;
    return (int)(((unsigned)from ^ t) | ((unsigned)to ^ t) << 6 | (unsigned)piece << 12);
}

/* Each load refuses a damaged copy: a flipped bit (checksum), one byte less (length), another
 * magic, and the file of another kind. */
static void damaged(unsigned char *bytes, size_t len, int (*load)(const uint8_t *, size_t), const char *what) {
    char message[128];
    bytes[len / 2] ^= 0x10;
    snprintf(message, sizeof message, "%s: a flipped bit is a checksum error", what);
    check(load(bytes, len) == KPKR_E_CHECKSUM, message);
    bytes[len / 2] ^= 0x10;
    snprintf(message, sizeof message, "%s: a byte less is a length error", what);
    check(load(bytes, len - 1) == KPKR_E_LENGTH, message);
    snprintf(message, sizeof message, "%s: 3 bytes are a bad magic", what);
    check(load(bytes, 3) == KPKR_E_MAGIC, message);
    snprintf(message, sizeof message, "%s: 14 bytes are truncated", what);
    check(load(bytes, 14) == KPKR_E_TRUNCATED, message);
    check(load(bytes, len) == 0, "the undamaged copy still loads");
}

static int load_wdl(const uint8_t *b, size_t n) { return kpkr_wdl_load(&wdl, b, n); }
static int load_dtz(const uint8_t *b, size_t n) { return kpkr_dtz_load(&dtz, b, n); }
static int load_play(const uint8_t *b, size_t n) { return kpkr_play_load(&play, b, n); }

static const char *error_name(int code) {
    static const char *names[] = {"ok", "bad-magic", "truncated", "version", "length", "checksum", "bit-stream", "invalid"};
    return code <= 0 && code >= -7 ? names[-code] : "unknown";
}

/* Each damaged copy of REFUSALS judged as kpk-probe judged it; the copies checked. */
static long refusals(const char *dir, const char *path) {
    FILE *list = open_answers(path);
    char file[64], want[32];
    long at, value, copies = 0;
    if (!list) return 0;
    while (fscanf(list, "%63s %ld %ld %31s", file, &at, &value, want) == 4) {
        size_t len = 0;
        unsigned char *bytes = model(dir, file, &len);
        int dtz_file = strcmp(file, "kpk-dtz.hybrid") == 0, code;
        long version_byte = dtz_file ? 15 : 4;
        if (!bytes) return 0;
        bytes[at] = (unsigned char)value;
        uint32_t crc = kpkr_crc_(bytes, len - 4);
        for (int i = 0; i < 4; i++) bytes[len - 4 + i] = (unsigned char)(crc >> (8 * i));
        code = dtz_file ? kpkr_dtz_load(&dtz, bytes, len) : kpkr_wdl_load(&wdl, bytes, len);
        if (strcmp(error_name(code), want) != 0 && !(at == version_byte && (value == 1 || value == 2) && code == KPKR_E_VERSION)) {
            fprintf(stderr, CHECK_NAME ": %s with byte %ld set to %ld: %s, kpk-probe says %s\n", file, at, value,
                    error_name(code), want);
            failures++;
        }
        free(bytes);
        copies++;
    }
    fclose(list);
    return copies;
}

int main(int argc, char **argv) {
    size_t wl = 0, dl = 0, pl = 0, nl = 0;
    (void)read_model; /* answers.h's: this test reads four models from a folder instead */
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: %s MODELS_DIR ANSWERS [REFUSALS]\n", argv[0]);
        return 2;
    }
    unsigned char *w = model(argv[1], "kpk.hybrid", &wl), *d = model(argv[1], "kpk-dtz.hybrid", &dl);
    unsigned char *p = model(argv[1], "kpk-play.hybrid", &pl), *net = model(argv[1], "kpk-net.hybrid", &nl);
    if (!w || !d || !p || !net) return 2;
    check(kpkr_dtz_load(&dtz, d, dl) == 0, "the DTZ model loads");
    check(kpkr_play_load(&play, p, pl) == 0, "the play model loads");
    damaged(d, dl, load_dtz, "DTZ");
    damaged(p, pl, load_play, "play");
    damaged(w, wl, load_wdl, "win/draw");
    check(kpkr_wdl_load(&wdl, net, nl) == KPKR_E_VERSION, "the net hybrid (version 2) is refused by version");
    check(kpkr_wdl_load(&wdl, d, dl) == KPKR_E_MAGIC, "a DTZ model is no win/draw model");
    check(kpkr_dtz_load(&dtz, w, wl) == KPKR_E_MAGIC, "a win/draw model is no DTZ model");
    check(kpkr_wdl_load(&wdl, w, wl) == 0, "the win/draw model loads");

    FILE *answers = open_answers(argv[2]);
    if (!answers) return 2;
    int wk, bk, wp, btm, want_wdl, want_dtz, from, to, piece;
    long positions = 0;
    while (fscanf(answers, "%d %d %d %d %d %d %d %d %d", &wk, &bk, &wp, &btm, &want_wdl, &want_dtz, &from, &to,
                  &piece) == 9) {
        /* The four orientations: the transform of squares, whether the pawn is Black's. */
        static const unsigned t[4] = {0, 7, 56, 63};
        for (int o = 0; o < 4; o++) {
            int black = o >= 2, got_dtz = 9999;
            unsigned a = (unsigned)wk ^ t[o], b = (unsigned)bk ^ t[o], pawn = (unsigned)wp ^ t[o];
            unsigned white_king = black ? b : a, black_king = black ? a : b;
            int side = btm != black;
            int got_wdl = kpkr_wdl_probe(&wdl, white_king, black_king, pawn, black, side);
            int got_play = kpkr_play_wdl(&play, white_king, black_king, pawn, black, side);
            int got_dtz_ok = kpkr_dtz_probe(&dtz, white_king, black_king, pawn, black, side, &got_dtz);
            int got_move = kpkr_best_move(&play, white_king, black_king, pawn, black, side);
            int want_move = moved(from, to, piece, t[o]);
            if (got_wdl != want_wdl || got_play != want_wdl || got_dtz_ok != 0 || got_dtz != want_dtz ||
                got_move != want_move) {
                fprintf(stderr,
                        CHECK_NAME ": %d %d %d %d orientation %d: wdl %d/%d, dtz %d, move %d; want %d, %d, %d\n", wk,
                        bk, wp, btm, o, got_wdl, got_play, got_dtz, got_move, want_wdl, want_dtz, want_move);
                failures++;
            }
        }
        positions++;
        if (failures > 20) break;
    }
    fclose(answers);
    check(positions == 165676, "the answers file lists every legal position");

    /* Squares that make no legal position. */
    int any = 0;
    check(kpkr_wdl_probe(&wdl, 64, 0, 9, 0, 0) == KPKR_ILLEGAL, "square 64");
    check(kpkr_wdl_probe(&wdl, 17, 6, 1, 0, 0) == KPKR_ILLEGAL, "a pawn on rank 1");
    check(kpkr_wdl_probe(&wdl, 17, 6, 17, 0, 0) == KPKR_ILLEGAL, "two pieces on one square");
    check(kpkr_wdl_probe(&wdl, 17, 18, 9, 0, 0) == KPKR_ILLEGAL, "kings side by side");
    check(kpkr_wdl_probe(&wdl, 0, 18, 9, 0, 0) == KPKR_ILLEGAL, "the pawn side to move, the lone king in check");
    check(kpkr_dtz_probe(&dtz, 17, 6, 57, 0, 0, &any) == KPKR_ILLEGAL, "a pawn on rank 8");
    check(kpkr_best_move(&play, 17, 6, 57, 1, 0) == KPKR_ILLEGAL, "a black pawn on its rank 1");
    free(w), free(d), free(p), free(net);
    if (argc == 4) {
        long copies = refusals(argv[1], argv[3]);
        printf(CHECK_NAME ": %ld damaged copies judged as kpk-probe judges them\n", copies);
        check(copies > 1000, "the refusals file lists the damaged copies");
    }
    return finish(positions, "the bitbase (win/draw, DTZ) and the play model's moves");
}
