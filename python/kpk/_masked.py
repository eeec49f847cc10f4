"""The masked arrays of ``errors="mask"``: a bad item's answer is masked, and the array holds there
a fill value that no answer takes, so that ``.filled()`` and ``.data`` cannot pass it off as one.

The fill value is NaN in a float array and the smallest value of an integer array's dtype
(-128 for int8, -32768 for int16, ...); every answer of kpk lies far inside that range (a DTC or
DTZ is under 128 plies, a characteristic's natural value within [-7, 8]). A win/draw answer,
a bool where every item is good, comes as int8 (1 a win, 0 a draw) so that it can hold the fill
value -128: a bool has no value to spare.
"""

import numpy as np

__all__ = ["fill_value", "masked"]


def fill_value(dtype):
    """The fill value of a masked array of ``dtype``: NaN for floats, the dtype's minimum for
    integers."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return dtype.type(np.nan)
    return np.iinfo(dtype).min


def masked(array, mask):
    """``array`` (one answer per item, or one row per item) as a masked array, masked where
    ``mask`` is true, the masked items holding ``fill_value``; a masked array even when no item
    is masked."""
    array = np.asarray(array)
    if array.dtype == np.bool_:
        array = array.astype(np.int8)
    mask = np.asarray(mask, dtype=bool)
    if array.ndim == 2:
        mask = np.broadcast_to(mask.reshape(-1, 1), array.shape).copy()
    fill = fill_value(array.dtype)
    array[mask] = fill
    return np.ma.MaskedArray(array, mask=mask, fill_value=fill)
