"""Describing a returned plain value for salgrade's judges, keeping its Python
type (so `True` is not taken for `1`). Shared by the assignments' adapters;
placed in the sandbox as `_salgrade_values.py`.

Answer: {"kind": "value", "type": T, "value": V} for None, bool, int, float and
str (large ints, NaN and infinities as their repr), otherwise
{"kind": "value", "type": T, "value": null, "repr": R}.

Types are compared exactly (`type(v) is int`): a subclass of a plain type is
described by its repr, and its own methods decide nothing here. `T` is the
class's name as the interpreter knows it.
"""

PLAIN = (type(None), bool, int, float, str)


def plain(value, type=type, repr=repr, PLAIN=PLAIN, int=int, float=float, str=str,
          name_of=type.__dict__["__name__"].__get__, str_str=str.__str__,
          int_repr=int.__repr__, float_repr=float.__repr__, abs=abs):
    kind = type(value)
    name = name_of(kind)[:200]
    if kind in PLAIN:
        if kind is str:
            value = value[:200]
        elif kind is int and abs(value) > 2 ** 53:
            value = int_repr(value)[:200]
        elif kind is float and (value != value or value in (float("inf"), float("-inf"))):
            value = float_repr(value)
        return {"kind": "value", "type": name, "value": value}
    try:
        text = repr(value)
        text = str_str(text)[:200] if isinstance(text, str) else "<unprintable>"
    except BaseException:
        text = "<unprintable>"
    return {"kind": "value", "type": name, "value": None, "repr": text}
