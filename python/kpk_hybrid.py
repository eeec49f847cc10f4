"""Reference reader of kpk hybrid model files (models/kpk.hybrid), format versions 1, 2 and 3.

Standard library only. Written from the format's specification (src/hybrid/format.md, printed in
reports/COMPRESSION.md), not from the Rust code; CI checks it against the Rust answers on every
one of the 165,676 legal positions.

    >>> import kpk_hybrid
    >>> model = kpk_hybrid.load("models/kpk.hybrid")
    >>> model.probe_fen("8/8/8/8/8/1K6/1P6/6k1 w - - 0 1")
    ('win', 'net')

Squares are numbered a1 = 0, b1 = 1, ..., h8 = 63. Answers are from the pawn side's point of view:
'win' when the side with the pawn wins, else 'draw'; the second item says whether the answer is
the net's ('net') or the decision tree's ('tree', version 3), flipped by the exception table
('exception'), or, in a version-2 or -3 file with the lone king to move, the one-ply rule's over
the model's other answers ('rule').
"""

import operator
import re
import struct
import sys
import zlib
from operator import mul

MAGIC = b"KPKH"
VERSION = 1  # the net and the exceptions answer every legal position
VERSION_PAWN_SIDE = 2  # they answer the pawn side to move; the lone king's positions by the rule
VERSION_TREE = 3  # a decision tree in place of the net, answering as in version 2
MAX_DEPTH = 64  # the deepest level of a tree node (the root is level 0)
# Table 4's legal ranges (lo, hi) of x1..x32: a split's threshold is stored relative to lo.
RANGES = [(1, 8), (1, 8), (1, 8), (1, 8), (1, 4), (2, 7), (-7, 7), (-7, 7), (-3, 7), (-6, 6),
          (-3, 7), (-6, 6), (0, 0), (1, 5), (0, 7), (0, 7), (0, 1), (0, 7), (0, 6), (0, 1),
          (0, 7), (0, 6), (0, 1), (2, 7), (0, 1), (0, 1), (1, 7), (1, 7), (0, 7), (-6, 6),
          (-5, 6), (0, 1)]
MAX_INDEX = 2 * 24 * 64 * 64
MAX_RICE = 24
MAX_QUOTIENT = 1 << 24
CONFIDENCE_ORDER = 0x80

# SIGMOID[u + 128] = round(255 * sigma(u / 16)), u in -128..=128; part of the format.
SIGMOID = bytes([
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4, 4, 4,
    5, 5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 9, 10, 10, 11, 11,
    12, 13, 14, 14, 15, 16, 17, 18, 19, 20, 22, 23, 24, 26, 27, 29,
    30, 32, 34, 36, 38, 40, 42, 44, 47, 49, 51, 54, 57, 60, 62, 65,
    69, 72, 75, 78, 82, 85, 89, 93, 96, 100, 104, 108, 112, 116, 120, 124,
    128, 131, 135, 139, 143, 147, 151, 155, 159, 162, 166, 170, 173, 177, 180, 183,
    186, 190, 193, 195, 198, 201, 204, 206, 208, 211, 213, 215, 217, 219, 221, 223,
    225, 226, 228, 229, 231, 232, 233, 235, 236, 237, 238, 239, 240, 241, 241, 242,
    243, 244, 244, 245, 245, 246, 247, 247, 248, 248, 248, 249, 249, 249, 250, 250,
    250, 251, 251, 251, 251, 252, 252, 252, 252, 252, 253, 253, 253, 253, 253, 253,
    253, 253, 253, 254, 254, 254, 254, 254, 254, 254, 254, 254, 254, 254, 254, 254,
    254, 254, 254, 254, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255,
])


class FormatError(ValueError):
    """The bytes are not a valid model file."""


class IllegalPosition(ValueError):
    """The squares or the FEN do not make a legal KPK position."""


class _Bits:
    """Bits least significant first within each byte."""

    def __init__(self, data):
        self.data = data
        self.pos = 0

    def bit(self):
        byte = self.pos >> 3
        if byte >= len(self.data):
            raise FormatError("the bit stream ends inside a value")
        b = (self.data[byte] >> (self.pos & 7)) & 1
        self.pos += 1
        return b

    def bits(self, n):
        v = 0
        for i in range(n):
            v |= self.bit() << i
        return v

    def rice(self, k):
        # Quotient in unary (1-bits ended by a 0-bit), then the k-bit remainder, low bit first.
        q = 0
        while self.bit():
            q += 1
            if q > MAX_QUOTIENT:
                raise FormatError("a coded value is out of range")
        r = 0
        for i in range(k):
            r |= self.bit() << i
        return (q << k) | r

    def rice_signed(self, k):
        u = self.rice(k)
        return (u >> 1) ^ -(u & 1)  # zig-zag: 0, 1, 2, 3, ... -> 0, -1, 1, -2, ...

    def at_padded_end(self):
        total = len(self.data) * 8
        return 0 <= total - self.pos < 8 and all(
            (self.data[i >> 3] >> (i & 7)) & 1 == 0 for i in range(self.pos, total))


def characteristics(c, wtm):
    """Table 4's x1..x32 (index 0..31) from the 1-based coordinates c = [x1..x6]."""
    x = [0] * 33
    x[1:7] = c
    x[7] = x[1] - x[3]
    x[8] = x[2] - x[4]
    x[9] = x[1] - x[5]
    x[10] = x[2] - x[6]
    x[11] = x[3] - x[5]
    x[12] = x[4] - x[6]
    x[13] = int(x[6] == 8)
    x[14] = 5 if x[6] == 2 else 8 - x[6]
    x[15] = abs(x[7])
    x[16] = abs(x[8])
    x[17] = int(x[7] % 2 == 0 and x[8] % 2 == 0)
    x[18] = abs(x[9])
    x[19] = abs(x[10])
    x[20] = int(x[10] < 0)
    x[21] = abs(x[11])
    x[22] = abs(x[12])
    x[23] = int(x[12] < 0)
    x[24] = max(x[15], x[16])
    x[25] = int((wtm and x[17] == 0) or (not wtm and x[17] == 1))
    x[26] = 1 - x[25]
    x[27] = max(x[18], x[19])
    x[28] = max(x[21], x[22])
    x[29] = max(x[21], abs(8 - x[4]))
    x[30] = x[27] - x[28]
    x[31] = x[29] - x[14]
    x[32] = int(x[18] > 0 and x[31] > (1 if wtm else 2))
    return x[1:]


def canonical(wk, bk, wp, pawn_is_black=False, black_to_move=False):
    """(wk, bk, wp, white_to_move) with the pawn White's on files a-d; raises IllegalPosition.

    A square is a whole number 0..63 (an int, or anything operator.index accepts): a float or a
    bool is refused with TypeError rather than truncated. pawn_is_black and black_to_move are
    bools (or 0 and 1): a string such as 'no' is refused with TypeError, not read as true."""
    for s in (wk, bk, wp):
        if isinstance(s, bool):
            raise TypeError("a square is a whole number 0..63, not a bool: %r" % (s,))
        try:
            operator.index(s)
        except TypeError:
            raise TypeError("a square is a whole number 0..63, not %r" % (s,)) from None
    wk, bk, wp = operator.index(wk), operator.index(bk), operator.index(wp)
    if not all(0 <= s < 64 for s in (wk, bk, wp)):
        raise IllegalPosition("a square is not in 0..64")
    for name, flag in (("pawn_is_black", pawn_is_black), ("black_to_move", black_to_move)):
        if not (isinstance(flag, bool) or (type(flag) is int and flag in (0, 1))):
            raise TypeError("%s is True or False (or 1 or 0), not %r" % (name, flag))
    wtm = not black_to_move
    if pawn_is_black:
        wk, bk, wp, wtm = bk ^ 56, wk ^ 56, wp ^ 56, not wtm
    if wp % 8 >= 4:
        wk, bk, wp = wk ^ 7, bk ^ 7, wp ^ 7
    _check_legal(wk, bk, wp, wtm)
    return wk, bk, wp, wtm


def _check_legal(wk, bk, wp, wtm):
    if len({wk, bk, wp}) < 3:
        raise IllegalPosition("two pieces on one square")
    if wp // 8 in (0, 7):
        raise IllegalPosition("the pawn on its first or last rank")
    if abs(wk % 8 - bk % 8) <= 1 and abs(wk // 8 - bk // 8) <= 1:
        raise IllegalPosition("the kings are adjacent")
    if wtm and bk // 8 == wp // 8 + 1 and abs(bk % 8 - wp % 8) == 1:
        raise IllegalPosition("the side not to move is in check")


def index(wk, bk, wp, wtm):
    """The position's index (canonical squares), as the exception table numbers positions."""
    slot = (wp // 8 - 1) * 4 + wp % 8
    return (((0 if wtm else 1) * 24 + slot) * 64 + wk) * 64 + bk


def legal_positions():
    """Every legal position (canonical squares) in index order."""
    for i in range(MAX_INDEX):
        bk, wk, slot, wtm = i % 64, i // 64 % 64, i // 4096 % 24, i < MAX_INDEX // 2
        wp = (slot // 4 + 1) * 8 + slot % 4
        try:
            _check_legal(wk, bk, wp, wtm)
        except IllegalPosition:
            continue
        yield i, (wk, bk, wp, wtm)


# The FEN grammar is kpk's (kpk-probe/src/fen.rs): fields separated by runs of ASCII whitespace
# (space, tab, LF, CR, form feed), 2 to 6 of them; the placement's 8 ranks of the digits 1-8 and
# the letters KkPpQqRrBbNn, each covering 8 files; "w" or "b"; castling "-"; en passant "-" or a
# square on rank 3 or 6; counters of the ASCII digits 0-9. Then KPK material and legality, then
# an en passant square must be one the pawn of the side not to move has just passed in its double
# step, as python-chess's Board.is_valid() checks it (en_passant_possible).
_FEN_SPACE = re.compile("[ \t\n\r\f]+")
_ASCII_DIGITS = frozenset("0123456789")


def parse_fen(fen):
    """(wk, bk, pawn, pawn_is_black, black_to_move) of a KPK FEN; raises IllegalPosition."""
    fields = [f for f in _FEN_SPACE.split(fen) if f]
    if not 2 <= len(fields) <= 6:
        raise IllegalPosition("not 2 to 6 fields")
    rows = fields[0].split("/")
    if len(rows) != 8:
        raise IllegalPosition("not eight ranks")
    pieces = {}
    for i, row in enumerate(rows):
        rank, file = 7 - i, 0
        for ch in row:
            if ch in "12345678":
                file += ord(ch) - ord("0")
            elif ch in "KkPpQqRrBbNn":
                pieces.setdefault(ch, []).append(rank * 8 + file)
                file += 1
            else:
                raise IllegalPosition("unexpected character in the placement")
        if file != 8:
            raise IllegalPosition("a rank is not eight squares")
    pawns = pieces.get("P", []) + pieces.get("p", [])
    if (set(pieces) - set("KkPp") or len(pieces.get("K", [])) != 1
            or len(pieces.get("k", [])) != 1 or len(pawns) != 1):
        raise IllegalPosition("not king and pawn against king")
    if fields[1] not in ("w", "b"):
        raise IllegalPosition("the side to move is not w or b")
    if len(fields) > 2 and fields[2] != "-":
        raise IllegalPosition("castling rights in KPK")
    if len(fields) > 3 and fields[3] != "-" and not (
            len(fields[3]) == 2 and fields[3][0] in "abcdefgh" and fields[3][1] in "36"):
        raise IllegalPosition("bad en passant square")
    if any(not set(f) <= _ASCII_DIGITS for f in fields[4:]):
        raise IllegalPosition("bad move counter")
    wk, bk, pawn, pawn_is_black, black_to_move = (
        pieces["K"][0], pieces["k"][0], pawns[0], "p" in pieces, fields[1] == "b")
    if len(fields) > 3 and fields[3] != "-":
        ep = "abcdefgh".index(fields[3][0]) + 8 * (int(fields[3][1]) - 1)
        if not en_passant_possible(ep, (wk, bk, pawn), pawn_is_black, black_to_move):
            raise IllegalPosition("impossible en passant square")
    return wk, bk, pawn, pawn_is_black, black_to_move


def en_passant_possible(ep, pieces, pawn_is_black, black_to_move):
    """Is square ``ep`` (0..63, a1 = 0) the square the pawn of the side not to move has just passed
    in its double step: on the sixth rank with White to move (the third with Black to move), the
    pawn just in front of it, the square and the one behind it empty? ``pieces`` holds the kings'
    and the pawn's squares, the pawn last."""
    rank, ahead = (2, -8) if black_to_move else (5, 8)
    behind = ep + ahead
    return (ep // 8 == rank and pawn_is_black != black_to_move and ep - ahead == pieces[2]
            and ep not in pieces and 0 <= behind < 64 and behind not in pieces)


class Model:
    """A loaded model: input function, integer layers, exception indices."""

    def __init__(self, data):
        data = bytes(data)
        if len(data) < 4 or data[:4] != MAGIC:
            raise FormatError("not a kpk hybrid model (bad magic)")
        if len(data) < 15:
            raise FormatError("truncated")
        if data[4] not in (VERSION, VERSION_PAWN_SIDE, VERSION_TREE):
            raise FormatError("unsupported format version %d" % data[4])
        self.pawn_side_only = data[4] in (VERSION_PAWN_SIDE, VERSION_TREE)
        (length,) = struct.unpack_from("<I", data, 5)
        if length != len(data):
            raise FormatError("truncated or padded")
        body = data[:-4]
        if zlib.crc32(body) != struct.unpack_from("<I", data, len(data) - 4)[0]:
            raise FormatError("checksum mismatch")
        at = 9
        if body[at] == 0:
            self.xs = None  # coordinates: x1..x6 and the side to move
            width, at = 7, at + 1
        elif body[at] == 1:
            mask = int.from_bytes(body[at + 1:at + 6], "little")
            if len(body) < at + 6 or mask == 0 or mask >> 33:
                raise FormatError("bad input mask")
            self.xs = [x for x in range(1, 34) if mask >> (x - 1) & 1]
            width, at = len(self.xs), at + 6
        else:
            raise FormatError("unknown input function")
        self.tree = None
        if data[4] == VERSION_TREE:
            self._read_tree_file(body, at)
            return
        if len(body) <= at:
            raise FormatError("truncated")
        n_layers = body[at]
        at += 1
        if not 1 <= n_layers <= 8 or len(body) < at + 4 * n_layers + 4:
            raise FormatError("bad layer count or truncated headers")
        headers = [body[at + 4 * l:at + 4 * l + 4] for l in range(n_layers)]
        at += 4 * n_layers
        n_exceptions = int.from_bytes(body[at:at + 3], "little")
        ke, by_confidence = body[at + 3] & 0x7F, bool(body[at + 3] & CONFIDENCE_ORDER)
        bits = _Bits(body[at + 4:])
        self.layers = []
        n_in = width
        for n_out_minus_1, shift, kw, kb in headers:
            n_out, shift = n_out_minus_1 + 1, shift - 256 if shift > 127 else shift
            if kw > MAX_RICE or kb > MAX_RICE or n_out > 64 or not -8 <= shift <= 24:
                raise FormatError("a layer header is out of range")
            w = [bits.rice_signed(kw) for _ in range(n_out * n_in)]
            b = [bits.rice_signed(kb) for _ in range(n_out)]
            if any(abs(v) > 32767 for v in w) or any(abs(v) > 1 << 24 for v in b):
                raise FormatError("a weight or bias is out of range")
            rows = [w[i * n_in:(i + 1) * n_in] for i in range(n_out)]
            self.layers.append((rows, b, shift))
            n_in = n_out
        if n_in != 1:
            raise FormatError("the last layer is not one neuron")
        self._check_bounds()
        if ke > MAX_RICE:
            raise FormatError("the exceptions' Rice parameter is out of range")
        self._read_exceptions(bits, n_exceptions, ke, by_confidence)

    def _read_exceptions(self, bits, n_exceptions, ke, by_confidence):
        """The exception gaps to the end of the stream, their checks, then the rule's answers."""
        if by_confidence:
            keyed = sorted((abs(self.net_output(*p)), i) for i, p in self._covered())
            order = [i for _, i in keyed]
        else:
            order = None
        universe = len(order) if order else MAX_INDEX
        values, nxt = [], 0
        if n_exceptions > universe:
            raise FormatError("too many exceptions")
        for _ in range(n_exceptions):
            e = nxt + bits.rice(ke)  # gaps: the first value, then each difference minus one
            if e >= universe:
                raise FormatError("an exception is out of range")
            values.append(e)
            nxt = e + 1
        if not bits.at_padded_end():
            raise FormatError("the bit stream does not end where the file does")
        self.exceptions = frozenset(order[v] for v in values) if order else frozenset(values)
        for i in self.exceptions:
            bk, wk, slot = i % 64, i // 64 % 64, i // 4096 % 24
            if self.pawn_side_only and i >= MAX_INDEX // 2:
                raise FormatError("an exception names a position the model does not cover")
            try:
                _check_legal(wk, bk, (slot // 4 + 1) * 8 + slot % 4, i < MAX_INDEX // 2)
            except IllegalPosition:
                raise FormatError("an exception names no legal position") from None
        self.rule_wins = self._rule_answers() if self.pawn_side_only else None

    def _read_tree_file(self, body, at):
        """Version 3 after magic, version and length: mask, exception header, tree, gaps."""
        if self.xs is None or self.xs[-1] > 32:
            raise FormatError("a version-3 file reads characteristics x1..x32 only")
        if len(body) < at + 4:
            raise FormatError("truncated")
        n_exceptions = int.from_bytes(body[at:at + 3], "little")
        ke = body[at + 3]
        if ke & CONFIDENCE_ORDER:
            raise FormatError("a version-3 file numbers its exceptions by index")
        if ke > MAX_RICE:
            raise FormatError("the exceptions' Rice parameter is out of range")
        bits = _Bits(body[at + 4:])
        self.tree = self._read_node(bits, 0, None)
        self._read_exceptions(bits, n_exceptions, ke, False)

    def _read_node(self, bits, depth, sibling):
        """A subtree in preorder: True/False for a leaf's class (win/draw), (x, le, left, right) for
        a split that sends x <= le left; `sibling` is the class of a left sibling leaf."""
        if depth > MAX_DEPTH:
            raise FormatError("the tree is deeper than 64 levels")
        if not bits.bit():
            return (not sibling) if sibling is not None else bool(bits.bit())
        x = bits.bits(5) + 1
        lo, hi = RANGES[x - 1]
        t = bits.bits(max(hi - lo - 1, 0).bit_length())
        if x not in self.xs or t >= hi - lo:
            raise FormatError("a split reads a characteristic outside the mask or out of its range")
        left = self._read_node(bits, depth + 1, None)
        right = self._read_node(bits, depth + 1, left if isinstance(left, bool) else None)
        return (x, lo + t, left, right)

    def tree_answer(self, wk, bk, wp):
        """The tree's class (canonical squares, the pawn side to move): True for a win."""
        c = [wk % 8 + 1, wk // 8 + 1, bk % 8 + 1, bk // 8 + 1, wp % 8 + 1, wp // 8 + 1]
        f = characteristics(c, True)
        node = self.tree
        while not isinstance(node, bool):
            x, le, left, right = node
            node = left if f[x - 1] <= le else right
        return node

    def _covered(self):
        """The (index, position) pairs the net and the exceptions answer."""
        return ((i, p) for i, p in legal_positions() if p[3] or not self.pawn_side_only)

    def _rule_answers(self):
        """The indices of the positions with the lone king to move that the one-ply rule makes wins:
        it cannot take the pawn, it has a move (no stalemate), and every move leads to a win."""
        wins = {i for i, p in self._covered() if self._covered_answer(*p)[0] == "win"}
        rule_wins = set()
        for i, (wk, bk, wp, wtm) in legal_positions():
            if wtm:
                continue
            replies, takes, all_win = 0, False, True
            for df in (-1, 0, 1):
                for dr in (-1, 0, 1):
                    f, r = bk % 8 + df, bk // 8 + dr
                    if (df, dr) == (0, 0) or not (0 <= f < 8 and 0 <= r < 8):
                        continue
                    to = r * 8 + f
                    if abs(f - wk % 8) <= 1 and abs(r - wk // 8) <= 1:
                        continue  # next to the pawn side's king
                    if to == wp:
                        takes = True  # the pawn is not guarded: its king is not next to it
                        continue
                    if r == wp // 8 + 1 and abs(f - wp % 8) == 1:
                        continue  # attacked by the pawn
                    replies += 1
                    all_win = all_win and index(wk, to, wp, True) in wins
            if not takes and replies > 0 and all_win:
                rule_wins.add(i)
        return rule_wins

    def _check_bounds(self):
        bound = 8
        for rows, biases, shift in self.layers:
            for row, b in zip(rows, biases):
                if abs(b) + sum(abs(w) * bound for w in row) + (1 << max(shift, 0)) >= 2**31 - 1:
                    raise FormatError("an accumulator could overflow 32 bits")
            bound = 255

    def inputs(self, wk, bk, wp, wtm):
        c = [wk % 8 + 1, wk // 8 + 1, bk % 8 + 1, bk // 8 + 1, wp % 8 + 1, wp // 8 + 1]
        side = 0 if wtm else 1
        if self.xs is None:
            return c + [side]
        f = characteristics(c, wtm) + [side]
        return [f[x - 1] for x in self.xs]

    def net_output(self, wk, bk, wp, wtm):
        """The output layer's accumulator (canonical squares); win iff > 0."""
        a = self.inputs(wk, bk, wp, wtm)
        last = len(self.layers) - 1
        for l, (rows, biases, shift) in enumerate(self.layers):
            acc = [b + sum(map(mul, row, a)) for row, b in zip(rows, biases)]
            if l == last:
                return acc[0]
            if shift > 0:
                u = [(s + (1 << (shift - 1))) >> shift for s in acc]
            elif shift < 0:
                u = [s << -shift for s in acc]
            else:
                u = acc
            a = [SIGMOID[min(max(v, -128), 128) + 128] for v in u]

    def probe(self, white_king, black_king, pawn, pawn_is_black=False, black_to_move=False):
        """('win' | 'draw', 'net' | 'exception') from the pawn side's point of view."""
        wk, bk, wp, wtm = canonical(white_king, black_king, pawn, pawn_is_black, black_to_move)
        if self.pawn_side_only and not wtm:
            return ("win" if index(wk, bk, wp, wtm) in self.rule_wins else "draw"), "rule"
        return self._covered_answer(wk, bk, wp, wtm)

    def _covered_answer(self, wk, bk, wp, wtm):
        """The net's (or tree's) answer (canonical squares), flipped where the exception table says."""
        if self.tree is not None:
            net_win, source = self.tree_answer(wk, bk, wp), "tree"
        else:
            net_win, source = self.net_output(wk, bk, wp, wtm) > 0, "net"
        if index(wk, bk, wp, wtm) in self.exceptions:
            return ("draw" if net_win else "win"), "exception"
        return ("win" if net_win else "draw"), source

    def probe_fen(self, fen):
        return self.probe(*parse_fen(fen))


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def load(path):
    """Load a model file."""
    return Model(read_bytes(path))


def orientations(wk, bk, wp, black_to_move):
    """The four orientations of canonical squares (as given, files mirrored, colours reversed,
    both): `(turn, (white_king, black_king, pawn, pawn_is_black, black_to_move))`, `turn` the
    square numbers' XOR."""
    for turn, black in ((0, False), (7, False), (56, True), (63, True)):
        sq = (bk, wk, wp) if black else (wk, bk, wp)
        yield turn, (sq[0] ^ turn, sq[1] ^ turn, sq[2] ^ turn, black, black_to_move != black)


def answer_rows(answers_path, reader):
    """The rows of an answers file (one legal position a line, its fields split); exits naming
    `reader` unless the file lists every one of the 165,676 legal positions."""
    n = 0
    with open(answers_path) as f:
        for line in f:
            yield line.split()
            n += 1
    if n != 165676:
        raise SystemExit("%s: %d answers, expected 165676" % (reader, n))


def _check(model_path, answers_path):
    """Compare with the Rust answers on every legal position (see examples/hybrid_answers.rs)."""
    model = load(model_path)
    n = 0
    for row in answer_rows(answers_path, "python reader"):
        wk, bk, wp, btm = int(row[0]), int(row[1]), int(row[2]), row[3] == "1"
        want = (row[4], row[5])
        for turn, squares in orientations(wk, bk, wp, btm):
            got = model.probe(*squares)
            if got != want:
                raise SystemExit("python reader: %s gives %s turned by %d, Rust %s" % (" ".join(row), got, turn, want))
        n += 1
    assert model.probe_fen("8/8/8/8/8/1K6/1P6/6k1 w - - 0 1")[0] == "win"
    assert model.probe_fen("1K6/6p1/6k1/8/8/8/8/8 b - - 0 1")[0] == "win"
    assert model.probe_fen("k7/8/1K6/P7/8/8/8/8 b - - 0 1")[0] == "draw"
    for bad in ("8/8/8/8/8/1K6/1P6/6k1 w - - \u00b2 1", "8/8/8/8/8/1K6/1P6/6k1\u00a0w",
                "8" * 33 + "/8/8/8/8/1K6/1P6/6k1 w"):
        try:
            model.probe_fen(bad)
        except IllegalPosition:
            continue
        raise SystemExit("python reader: accepts %r" % bad)
    # Every shorter body, its length and checksum made right again, is a FormatError, never an
    # IndexError or a model: the file's fields must all be present (format.md).
    with open(model_path, "rb") as f:
        body = f.read()[:-4]
    for cut in range(9, len(body)):
        short = bytearray(body[:cut])
        short[5:9] = struct.pack("<I", cut + 4)
        try:
            Model(bytes(short) + struct.pack("<I", zlib.crc32(bytes(short))))
        except FormatError:
            continue
        raise SystemExit("python reader: accepts the model cut to %d bytes" % cut)
    print("python reader: %d positions agree with the Rust answers in all four orientations" % n)


def _verdicts(model_path):
    """For each line of standard input, a string as hexadecimal UTF-8: its verdict as a FEN on one
    line, `reject` or `OUTCOME SOURCE INDEX` (tests/fen_verdicts.rs compares these with kpk's)."""
    model = load(model_path)
    out = []
    for line in sys.stdin:
        fen = bytes.fromhex(line.strip()).decode("utf-8")
        try:
            wk, bk, wp, pawn_is_black, black_to_move = parse_fen(fen)
            outcome, source = model.probe(wk, bk, wp, pawn_is_black, black_to_move)
        except IllegalPosition:
            out.append("reject")
            continue
        i = index(*canonical(wk, bk, wp, pawn_is_black, black_to_move))
        out.append("%s %s %d" % (outcome, source, i))
    sys.stdout.write("".join(v + "\n" for v in out))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--verdicts":
        _verdicts(sys.argv[2])
    elif len(sys.argv) == 3:
        _check(sys.argv[1], sys.argv[2])
    else:
        raise SystemExit("usage: python3 kpk_hybrid.py MODEL ANSWERS | --verdicts MODEL < HEX-LINES")
