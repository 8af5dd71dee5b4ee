"""Describing a returned plain value for salgrade's judges, keeping its Python
type (so `True` is not taken for `1`). Shared by the assignments' adapters;
placed in the sandbox as `_salgrade_values.py`.

Answer: {"kind": "value", "type": T, "value": V} for None, bool, int, float and
str (large ints, NaN and infinities as their repr), otherwise
{"kind": "value", "type": T, "value": null, "repr": R}.
"""


def plain(value):
    kind = type(value).__name__
    if value is None or isinstance(value, (bool, int, float, str)):
        if isinstance(value, str):
            value = value[:200]
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2 ** 53:
            value = repr(value)[:200]
        if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
            value = repr(value)
        return {"kind": "value", "type": kind, "value": value}
    try:
        text = repr(value)[:200]
    except BaseException:
        text = "<unprintable>"
    return {"kind": "value", "type": kind, "value": None, "repr": text}
