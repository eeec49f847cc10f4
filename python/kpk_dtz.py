"""Reference reader of the kpk DTZ model file (models/kpk-dtz.hybrid): Syzygy's depth to zeroing.

Standard library only. Written from the format's specification (src/hybrid/format.md, "The DTZ
model"), over kpk_hybrid.py's reader of the embedded win/draw model; CI checks it against the
bitbase on every one of the 165,676 legal positions in four orientations.

    >>> import kpk_dtz
    >>> model = kpk_dtz.load("models/kpk-dtz.hybrid")
    >>> model.probe_dtz_fen("5k2/8/8/8/8/2P5/8/3K4 w - - 0 1")
    15

DTZ is from the side to move's point of view: positive when it wins, negative when it loses, 0 in
a draw; squares are numbered a1 = 0, ..., h8 = 63.
"""

import struct
import sys
import zlib

import kpk_hybrid as kh

MAGIC = b"KPKZ"
VERSION = 1
MAX_LEAF_BITS = 6
MAX_DTZ = 127
X_BITS = 5
KING_STEPS = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]


def _dist(a, b):
    return max(abs(a % 8 - b % 8), abs(a // 8 - b // 8))


def _step(s, df, dr):
    f, r = s % 8 + df, s // 8 + dr
    return r * 8 + f if 0 <= f < 8 and 0 <= r < 8 else None


def _tbits(x):
    lo, hi = kh.RANGES[x]
    return 0 if hi - lo <= 1 else (hi - lo - 1).bit_length()


def promotion_wins(wk, bk, q, diagonal):
    """A queen (diagonal) or rook on q, the lone king to move: won unless taken or stalemated."""
    if _dist(bk, q) == 1 and _dist(wk, q) != 1:
        return False
    attacked = set()
    for df, dr in KING_STEPS:
        if not diagonal and df and dr:
            continue
        s = _step(q, df, dr)
        while s is not None:
            attacked.add(s)
            if s == wk:
                break
            s = _step(s, df, dr)
    if bk in attacked:
        return True
    return any(s is not None and _dist(s, wk) > 1 and s not in attacked
               for s in (_step(bk, df, dr) for df, dr in KING_STEPS))


class DtzModel:
    """A loaded DTZ model: |DTZ| of every index, computed at load."""

    def __init__(self, data):
        if len(data) < 4 or data[:4] != MAGIC:
            raise kh.FormatError("not a kpk DTZ model (bad magic)")
        if len(data) < 15:
            raise kh.FormatError("truncated")
        if data[4] != VERSION:
            raise kh.FormatError("unsupported DTZ model version %d" % data[4])
        if struct.unpack_from("<I", data, 5)[0] != len(data):
            raise kh.FormatError("the length field is not the file's length")
        body = data[:-4]
        if zlib.crc32(body) != struct.unpack_from("<I", data, len(data) - 4)[0]:
            raise kh.FormatError("checksum mismatch")
        n = struct.unpack_from("<H", body, 9)[0]
        at = 11 + n
        if at + 6 > len(body):
            raise kh.FormatError("truncated")
        self.wdl = kh.Model(bytes(body[11:at]))
        leaf_bits, count = body[at], body[at + 1] | body[at + 2] << 8 | body[at + 3] << 16
        kg, kd = body[at + 4], body[at + 5]
        if leaf_bits > MAX_LEAF_BITS or kg > kh.MAX_RICE or kd > kh.MAX_RICE:
            raise kh.FormatError("the leaf width or a Rice parameter is out of range")
        bits = kh._Bits(body[at + 6:])
        self.nodes = []
        self._read_node(bits, leaf_bits, 0)
        places, nxt = [], 0
        for _ in range(count):
            place = nxt + bits.rice(kg)
            if place >= kh.MAX_INDEX // 2:
                raise kh.FormatError("a correction's place is out of range")
            places.append(place)
            nxt = place + 1
        corrections = {}
        for place in places:
            u = bits.rice(kd) + 1  # a correction is never 0: its zig-zag code less one is stored
            corrections[place] = (u >> 1) ^ -(u & 1)
            if not -128 <= corrections[place] <= 127:
                raise kh.FormatError("a correction is out of range")
        if not bits.at_padded_end():
            raise kh.FormatError("the bit stream does not end where the file does")
        self._answer_all(corrections)

    def _read_node(self, bits, leaf_bits, depth):
        if depth > kh.MAX_DEPTH:
            raise kh.FormatError("the value tree is deeper than 64 levels")
        if not bits.bit():
            self.nodes.append(("leaf", bits.bits(leaf_bits)))
            return
        x = bits.bits(X_BITS)
        lo, hi = kh.RANGES[x]
        if lo == hi:
            raise kh.FormatError("a split reads a characteristic of one value")
        t = bits.bits(_tbits(x))
        if t >= hi - lo:
            raise kh.FormatError("a split's threshold is out of range")
        at = len(self.nodes)
        self.nodes.append(None)
        self._read_node(bits, leaf_bits, depth + 1)
        self.nodes[at] = ("split", x, lo + t, len(self.nodes))
        self._read_node(bits, leaf_bits, depth + 1)

    def tree_value(self, wk, bk, wp):
        f = kh.characteristics([wk % 8 + 1, wk // 8 + 1, bk % 8 + 1, bk // 8 + 1, wp % 8 + 1, wp // 8 + 1], True)
        i = 0
        while self.nodes[i][0] == "split":
            _, x, limit, right = self.nodes[i]
            i = i + 1 if f[x] <= limit else right
        return self.nodes[i][1]

    def _wins(self, wk, bk, wp, wtm):
        return self.wdl.probe(wk, bk, wp, False, not wtm)[0] == "win"

    def _winning_pawn_move(self, wk, bk, wp):
        one = wp + 8
        if one in (wk, bk):
            return False
        if one >= 56:
            return promotion_wins(wk, bk, one, False) or promotion_wins(wk, bk, one, True)

        def won(to):
            try:
                kh._check_legal(wk, bk, to, False)
            except kh.IllegalPosition:
                return False
            return self._wins(wk, bk, to, False)
        return won(one) or (wp < 16 and one + 8 not in (wk, bk) and won(one + 8))

    def _answer_all(self, corrections):
        self.depth = [0] * kh.MAX_INDEX
        positions = list(kh.legal_positions())
        place = 0
        for i, (wk, bk, wp, wtm) in positions:
            if not wtm or not self._wins(wk, bk, wp, True):
                continue
            if self._winning_pawn_move(wk, bk, wp):
                self.depth[i] = 1
                continue
            v = self.tree_value(wk, bk, wp) + corrections.pop(place, 0)
            if v < 0 or 2 * v + 3 > MAX_DTZ:
                raise kh.FormatError("a hard position's DTZ is out of range")
            self.depth[i] = 2 * v + 3
            place += 1
        if corrections:
            raise kh.FormatError("a correction names no hard position")
        for i, (wk, bk, wp, wtm) in positions:
            if wtm or not self._wins(wk, bk, wp, False):
                continue
            longest = 0
            for df, dr in KING_STEPS:
                to = _step(bk, df, dr)
                if to is None or to == wp or _dist(to, wk) <= 1:
                    continue
                try:
                    kh._check_legal(wk, to, wp, True)
                except kh.IllegalPosition:
                    continue
                longest = max(longest, self.depth[kh.index(wk, to, wp, True)])
            self.depth[i] = longest + 1

    def probe_dtz(self, white_king, black_king, pawn, pawn_is_black=False, black_to_move=False):
        """DTZ from the side to move's point of view (raises kpk_hybrid.IllegalPosition)."""
        wk, bk, wp, wtm = kh.canonical(white_king, black_king, pawn, pawn_is_black, black_to_move)
        d = self.depth[kh.index(wk, bk, wp, wtm)]
        return d if wtm else -d

    def probe_dtz_fen(self, fen):
        return self.probe_dtz(*kh.parse_fen(fen))


def load(path):
    with open(path, "rb") as f:
        return DtzModel(f.read())


def _check(model_path, answers_path):
    """Compare with the bitbase's DTZ (examples/dtz_answers.rs) on every position, four ways."""
    model = load(model_path)
    n = 0
    with open(answers_path) as f:
        for line in f:
            wk, bk, wp, btm, dtz = (int(v) for v in line.split())
            for flip, black in ((0, False), (7, False), (56, True), (63, True)):
                sq = (bk, wk, wp) if black else (wk, bk, wp)
                got = model.probe_dtz(sq[0] ^ flip, sq[1] ^ flip, sq[2] ^ flip, black, bool(btm) != black)
                if got != dtz:
                    raise SystemExit("python DTZ reader: %s gives %d turned by %d" % (line.strip(), got, flip))
            n += 1
    if n != 165676:
        raise SystemExit("python DTZ reader: %d answers, expected 165676" % n)
    with open(model_path, "rb") as f:
        data = f.read()
    for bad in (data[:-1], data[:20], data[:len(data) // 2] + bytes([data[len(data) // 2] ^ 16]) + data[len(data) // 2 + 1:]):
        try:
            DtzModel(bad)
        except kh.FormatError:
            continue
        raise SystemExit("python DTZ reader: accepts a damaged file")
    print("python DTZ reader: %d positions agree with the bitbase in all four orientations" % n)


if __name__ == "__main__":
    if len(sys.argv) == 3:
        _check(sys.argv[1], sys.argv[2])
    else:
        raise SystemExit("usage: python3 kpk_dtz.py MODEL ANSWERS")
