"""KPK positions in the four orientations of a canonical one (White pawn on files a-d).

kpk answers from the pawn side's point of view, so a position, its mirror in the d/e line, its
colour-flipped twin (colours swapped, ranks flipped, side to move swapped) and both have the same
result, DTC and characteristics.
"""

ORIENTATIONS = [
    ("canonical", False, False),
    ("mirrored", False, True),
    ("flipped", True, False),
    ("flipped+mirrored", True, True),
]


def square_index(name):
    return (ord(name[0]) - ord("a")) + 8 * (int(name[1]) - 1)


def square_name(i):
    return "abcdefgh"[i % 8] + str(i // 8 + 1)


def transform(i, flip, mirror):
    if flip:
        i ^= 56
    if mirror:
        i ^= 7
    return i


def fen(side, wk, bk, wp, flip=False, mirror=False):
    """The FEN of canonical squares (names or indices) seen in an orientation."""
    pieces = {}
    kings = ("k", "K") if flip else ("K", "k")
    for sq, piece in ((wk, kings[0]), (bk, kings[1]), (wp, "p" if flip else "P")):
        i = square_index(sq) if isinstance(sq, str) else sq
        pieces[transform(i, flip, mirror)] = piece
    ranks = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            p = pieces.get(8 * rank + file)
            if p is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
            row, empty = row + p, 0
        ranks.append(row + (str(empty) if empty else ""))
    to_move = side if not flip else {"w": "b", "b": "w"}[side]
    return "/".join(ranks) + f" {to_move} - - 0 1"


def uci_back(move, flip, mirror):
    """A UCI move of an oriented position mapped back to the canonical orientation."""
    a = transform(square_index(move[0:2]), flip, mirror)
    b = transform(square_index(move[2:4]), flip, mirror)
    return square_name(a) + square_name(b) + move[4:]
