"""salgrade's driver: runs a student's module inside the sandbox.

It names no assignment. Its command line is

    python -I -S _salgrade_driver.py IN_FD OUT_FD STUDENT_FILE ADAPTER_MODULE [LINT]

This one process answers every call, one after the other, until salgrade
closes the channel or ends the process (at a deadline, or after a death
salgrade starts a new process: nothing of this one is reused).

With LINT (a lint request as JSON), it first checks the student's file
against the container rule with the checker beside it (`_salgrade_lint.py`)
and sends the answer, before any student code runs: one process start per
student instead of two. It imports the assignment's adapter, then the
student's module, then answers requests one at a time. The wire format (JSON
lines on two private file descriptors, never stdin or stdout) is specified
in `src/runner/protocol.rs`.

The adapter is a module beside this one that knows the assignment:

    FUNCTIONS                     the names graded, in report order
    COURSE_MODULES                optional: the course's modules it builds inputs with
    before_import()               optional: set up what the student may assume
    find(module, function)        a callable to run, or None when missing
    prepare(function, input)      (args, state): fresh arguments from the case input
    describe(function, input, result, state)
                                  a JSON-safe description of the returned value
    changed(function, input, state)
                                  None, or how the call changed its input

The driver owns what every assignment shares: private descriptors, the
import, exceptions (the student's failure is data, even SystemExit), CPU
time, flushing the student's output. It reports raw facts; it never sees the
expected answers, and a request names its case by a token that means
nothing here.

What runs here is evidence, not truth: the student's code shares this
process. The answer itself is judged by salgrade, outside; what is decided
here (whether the input was changed, and the description of what was
returned) is guarded three ways. Everything the serving loop uses is bound
before the student's import as a local of the loop's one frame, which the
student's code cannot rebind: `sys.settrace` and `sys.setprofile` (whose
hooks could write to another frame's locals) are taken away, and `ctypes`
is not in the sandbox. Requests are read and answers written by the C
parts of `json` (from `_json`, without the module) and `os`, bound then
too. And after the student's call, before the input is checked, and again
before the answer is sent, the loop compares everything the driver and the
adapter look up at run time (the builtins, `operator`, `itertools`, the
course's modules and classes, the driver's and the adapter's namespaces,
and every function's code, defaults and closure there) with what it was
before the import: any difference makes that case and every later one a
`TamperingError` naming what changed.
"""

import os
import sys
import time
# The C parts of `json`, without the module: importing `json` costs a
# session about 8 ms (it compiles regular expressions), and this driver
# needs only its scanner and encoder, which these are.
from _json import encode_basestring, make_encoder, make_scanner

PROTOCOL = 2
MAX_LINE = 64 * 1024 * 1024
# The longest of a student's strings the driver sends (class names,
# messages, traceback lines); salgrade caps again on its side.
MAX_NAME = 200
MAX_MESSAGE = 500
# The modules whose namespaces the tamper check covers, beside the
# driver's, the adapter's and the course's: what the driver and the
# adapters use.
CHECKED_MODULES = ("builtins", "operator", "itertools", "_salgrade_values")
STUDENT_FILE = "?"


class JsonSettings:
    """What `json`'s C scanner reads from its decoder when it is made: the
    settings of `json.loads` (strict strings, Python's own int and float,
    and the three constants), copied into the scanner then."""
    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = {"-Infinity": float("-inf"), "Infinity": float("inf"),
                      "NaN": float("nan")}.__getitem__


def json_tools():
    """A scanner (`scan(text, 0)` is `(value, end)`) and an encoder
    (`"".join(encode(value, 0))` is `json.dumps(value, separators=(",",
    ":"), ensure_ascii=False)`), made now: what they use is copied into
    them, so nothing changed later reaches them."""
    scan = make_scanner(JsonSettings())
    encode = make_encoder(None, None, encode_basestring, None, ":", ",", False, False, False)
    return scan, encode


def take_private_fds(in_fd, out_fd):
    """Move the protocol fds out of the way so student code cannot write to 3 or 4 by guess."""
    high_in = os.dup(in_fd)
    high_out = os.dup(out_fd)
    import fcntl
    import resource
    # Near the top of the allowed range, so `os.write(3, ...)` or `os.write(4, ...)`
    # from student code hits nothing.
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft == resource.RLIM_INFINITY or soft > 1024:
        soft = 1024
    base = max(10, soft - 12 + (os.getpid() % 8))
    moved_in = fcntl.fcntl(high_in, fcntl.F_DUPFD_CLOEXEC, base)
    moved_out = fcntl.fcntl(high_out, fcntl.F_DUPFD_CLOEXEC, base + 1)
    for fd in (in_fd, out_fd, high_in, high_out):
        os.close(fd)
    return moved_in, moved_out


def short_traceback(exc):
    """The frames of the student's own file, most recent last, at most 6."""
    import traceback  # only when something was raised: it costs a start-up
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if os.path.basename(f.filename) == STUDENT_FILE]
    lines = ["line {}, in {}: {}".format(f.lineno, exact(f.name)[:MAX_NAME],
                                         exact(f.line or "").strip()[:MAX_NAME])
             for f in frames[-6:]]
    line = frames[-1].lineno if frames else None
    return line, "\n".join(lines)


def exact(text, str_str=str.__str__, isinstance=isinstance, str=str):
    """`text` as a plain str (a subclass's own methods never run), or ""."""
    return str_str(text) if isinstance(text, str) else ""


def class_name(obj, name_of=type.__dict__["__name__"].__get__, type=type):
    """The name of `obj`'s class as the interpreter knows it (a metaclass's
    `__name__` property is not asked), at most MAX_NAME characters."""
    return name_of(type(obj))[:MAX_NAME]


def describe_exception(exc):
    line, tb = short_traceback(exc)
    try:
        message = exact(str(exc))[:MAX_MESSAGE]
    except BaseException:
        message = "<unprintable>"
    out = {"type": class_name(exc), "message": message, "line": line, "traceback": tb}
    if isinstance(exc, SyntaxError):
        out["line"] = exc.lineno if type(exc.lineno) is int else None
        out["message"] = exact(exc.msg)[:MAX_MESSAGE]
        out["text"] = exact(exc.text or "").rstrip()[:MAX_NAME]
    return out


def raised(exc):
    try:
        outcome = describe_exception(exc)
    except BaseException:
        # The exception defeated its own description (a traceback whose
        # frames lie, say): its class is still known.
        outcome = {"type": class_name(exc), "message": "<undescribable>", "line": None,
                   "traceback": ""}
    outcome["kind"] = "raised"
    return outcome


def flush_student_streams():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:
            pass


def take_away_tracing():
    """Removes `sys.settrace` and `sys.setprofile`: a trace or profile
    function is called with the driver's frames, and its changes to their
    locals are written back into them; every check here relies on those
    locals. Nothing graded needs tracing. The interpreter keeps a copy of
    the `sys` module's first namespace (to make the module again), where
    code could find the originals through the collector: they are taken out
    of every container that holds them, so that none is left."""
    import gc

    def refused(*args):
        raise RuntimeError("tracing and profiling are turned off while salgrade grades")
    originals = (sys.settrace, sys.setprofile)
    sys.settrace = refused
    sys.setprofile = refused
    for original in originals:
        for holder in gc.get_referrers(original):
            if type(holder) is dict:
                for key in [k for k, v in holder.items() if v is original]:
                    holder[key] = refused
    del originals, original
    gc.collect()


def watched_state(namespaces, course):
    """What the tamper check compares (see the module doc), taken once,
    before the student's import: the namespaces, the namespaces of the
    course's classes found in them, every function found in all of these
    and the functions' closure cells; and, of each, the state then. The
    objects themselves are held, so that no id can be reused."""
    from itertools import chain, repeat
    from operator import attrgetter, methodcaller
    spaces, names, classes, class_names, functions, cells = [], [], [], [], [], []
    for label, space in namespaces:
        spaces.append(space)
        names.append(label)
        for value in list(space.values()):
            if (type(value) is type and getattr(value, "__module__", None) in course
                    and not any(c is vars(value) for c in classes)):
                classes.append(vars(value))
                class_names.append(value.__module__ + "." + value.__qualname__)
    for space in spaces + classes:
        for value in list(space.values()):
            if type(value) is FUNCTION:
                functions.append(value)
                for cell in value.__closure__ or ():
                    try:
                        cell.cell_contents
                    except ValueError:
                        continue
                    cells.append(cell)
    spaces, classes, functions, cells = tuple(spaces), tuple(classes), tuple(functions), tuple(cells)
    values = methodcaller("values")
    held = (tuple(map(tuple, map(values, spaces))), tuple(map(tuple, map(values, classes))),
            (tuple(map(attrgetter("__code__"), functions)),
             tuple(map(attrgetter("__defaults__"), functions)),
             tuple(map(attrgetter("__kwdefaults__"), functions)),
             tuple(map(attrgetter("cell_contents"), cells))))
    # A plain tuple: nothing the student's import can reach could change it.
    # The ids are for `what_changed`; the loop compares the objects held,
    # one by one, by identity (`is not`, in C: no object's own `__eq__`
    # is ever asked), in flat tuples; the keys, compared first, keep each
    # space's length apart.
    flat = chain.from_iterable
    return (spaces, tuple(names), classes, tuple(class_names), functions, cells, held,
            tuple(map(tuple, spaces)), tuple(map(tuple, map(map, repeat(id), held[0]))),
            tuple(map(tuple, classes)), tuple(map(len, classes)),
            tuple(map(tuple, map(map, repeat(id), held[1]))),
            tuple(flat(held[0])), tuple(flat(held[1])), tuple(flat(held[2])))


FUNCTION = type(watched_state)


def what_changed(names, spaces, before_keys, before_ids, class_names, classes, class_keys,
                 class_ids):
    """A few words on what differs from before the import, or None when all
    that differs is allowed: new attributes of a course's class, but for
    data descriptors (a property, say, which would take the place of the
    instance's own attribute) and dunder names (which change how every
    instance behaves). Asked only once a comparison found a difference."""
    try:
        for label, space, keys, ids in zip(names + class_names, spaces + classes,
                                           before_keys + class_keys, before_ids + class_ids):
            now = dict(zip(tuple(space), map(id, tuple(space.values()))))
            was = dict(zip(keys, ids))
            course = label in class_names
            for key in sorted(set(now) | set(was), key=repr):
                if now.get(key) == was.get(key):
                    continue
                if course and key not in was and not is_special(key, space[key]):
                    continue
                verb = ("added" if key not in was else "removed" if key not in now
                        else "replaced")
                return "`{}.{}` was {}".format(label, exact(str(key))[:MAX_NAME], verb)
        return None
    except BaseException:
        return "something they use was changed"


def is_special(key, value, mro=type.__dict__["__mro__"].__get__, type=type, vars=vars):
    """Whether a new attribute of a class changes how its instances behave:
    a dunder name, or a data descriptor (its class defines __set__ or
    __delete__)."""
    if type(key) is not str or (key.startswith("__") and key.endswith("__")):
        return True
    return any("__set__" in vars(k) or "__delete__" in vars(k) for k in mro(type(value)))


def serve(reader, out_fd, adapter, watched):
    """Answers calls one after the other until the channel closes: a
    generator, started before the student's import, which then sends it
    the student's module.

    Everything the loop uses is a local of this one frame, bound before
    the student's import (the generator runs to its first `yield` then),
    and it calls no function of the driver's or the
    adapter's between the student's code and the comparison, nor between
    the comparison and the message, but to word what changed: a function
    object's code and defaults can be replaced, this frame's locals
    cannot. (None of them is a cell, which could be.) The comparison runs
    twice, after the student's call (before the input is checked) and
    before the answer is sent, as the same lines: a function here would be
    one more thing to replace."""
    from itertools import chain, repeat
    from operator import attrgetter, is_not, methodcaller
    flat = chain.from_iterable
    readline = reader.readline
    scan, encode = json_tools()
    join, write, process_time, memoryview_ = "".join, os.write, time.process_time, memoryview
    find, prepare = adapter.find, adapter.prepare
    changed_fn, describe = adapter.changed, adapter.describe
    the_raised, student_streams, explain = raised, flush_student_streams, what_changed
    type_, dict_, tuple_, map_, len_, round_, str_, any_ = (type, dict, tuple, map, len, round,
                                                           str, any)
    get = dict.get
    (spaces, names, classes, class_names, functions, cells, held, keys_before, ids_before,
     class_keys, class_lens, class_ids, values_before, class_before, inner_before) = watched
    values = methodcaller("values")
    codes, defaults = attrgetter("__code__"), attrgetter("__defaults__")
    kwdefaults, contents = attrgetter("__kwdefaults__"), attrgetter("cell_contents")
    absent = object()
    class_gets = tuple_(map_(attrgetter("get"), classes))
    tamper_message = ("salgrade's checks or the course's classes were changed by your code "
                      "({}); its answers cannot be trusted").format
    replaced = "the code, defaults or closure of a function they use was replaced"
    tampered = None
    # Every name above is bound: the student's module is imported now.
    module = yield
    while True:
        line = readline(MAX_LINE)
        if not line:
            return
        request = scan(line.decode("utf-8"), 0)[0]
        if type_(request) is not dict_ or get(request, "type") != "call":
            continue
        token, name, given = get(request, "case"), get(request, "function"), get(request, "input")
        changed, outcome = None, {"kind": "missing"}
        start = process_time()
        try:
            fn = find(module, name)
        except BaseException as exc:
            fn, outcome = None, the_raised(exc)
        if fn is not None:
            try:
                args, state = prepare(name, given)
                result = fn(*args)
            except BaseException as exc:  # the student's failure is data, even SystemExit
                outcome = the_raised(exc)
            else:
                student_streams()
                # The comparison (the same lines as below).
                if tampered is None:
                    if (tuple_(map_(tuple_, spaces)) != keys_before
                            or any_(map_(is_not, flat(map_(values, spaces)), values_before))
                            or any_(map_(is_not, flat(map_(map_, class_gets, class_keys,
                                                           repeat(repeat(absent)))), class_before))
                            or any_(map_(is_not, chain(map_(codes, functions),
                                                       map_(defaults, functions),
                                                       map_(kwdefaults, functions),
                                                       map_(contents, cells)), inner_before))):
                        tampered = explain(names, spaces, keys_before, ids_before, class_names,
                                           classes, class_keys, class_ids) or replaced
                    elif tuple_(map_(len_, classes)) != class_lens:
                        tampered = explain(names, spaces, keys_before, ids_before, class_names,
                                           classes, class_keys, class_ids)
                if tampered is None:
                    # Describing the value runs student code too (a
                    # __eq__, a property), so its failures are the
                    # student's as well.
                    try:
                        changed = changed_fn(name, given, state)
                        outcome = {"kind": "returned",
                                   "answer": describe(name, given, result, state)}
                    except BaseException as exc:
                        changed, outcome = None, the_raised(exc)
        student_streams()
        cpu = round_((process_time() - start) * 1000.0, 3)
        # The comparison (the same lines as above).
        if tampered is None:
            if (tuple_(map_(tuple_, spaces)) != keys_before
                    or any_(map_(is_not, flat(map_(values, spaces)), values_before))
                    or any_(map_(is_not, flat(map_(map_, class_gets, class_keys,
                                                   repeat(repeat(absent)))), class_before))
                    or any_(map_(is_not, chain(map_(codes, functions), map_(defaults, functions),
                                               map_(kwdefaults, functions),
                                               map_(contents, cells)), inner_before))):
                tampered = explain(names, spaces, keys_before, ids_before, class_names,
                                   classes, class_keys, class_ids) or replaced
            elif tuple_(map_(len_, classes)) != class_lens:
                tampered = explain(names, spaces, keys_before, ids_before, class_names,
                                   classes, class_keys, class_ids)
        if tampered is not None:
            # Once changed, never trusted again in this process.
            if type_(tampered) is not str_:
                tampered = "?"
            outcome = {"kind": "raised", "type": "TamperingError",
                       "message": tamper_message(tampered), "line": None, "traceback": ""}
            changed = None
        data = (join(encode({"type": "result", "case": token, "outcome": outcome,
                             "cpu_ms": cpu, "input_changed": changed}, 0))
                + "\n").encode("utf-8", "replace")
        view = memoryview_(data)
        while view:
            view = view[write(out_fd, view):]


def main():
    global STUDENT_FILE
    in_fd, out_fd = take_private_fds(int(sys.argv[1]), int(sys.argv[2]))
    STUDENT_FILE = sys.argv[3]
    reader = os.fdopen(in_fd, "rb", buffering=1 << 16, closefd=False)

    scan, encode = json_tools()

    def send(message):
        data = "".join(encode(message, 0)) + "\n"
        view = memoryview(data.encode("utf-8", "replace"))
        while view:
            view = view[os.write(out_fd, view):]

    # salgrade's own imports (the checker, the adapter, the course's
    # modules, and the standard library's modules they import) look in the
    # standard library first: a student's file named like one of its
    # modules (`operator.py`, `ast.py`) is never what salgrade's code runs.
    here = os.getcwd()
    sys.path.append(here)
    sys.setrecursionlimit(1000)
    if len(sys.argv) > 5:
        import _salgrade_lint
        send(_salgrade_lint.check(scan(sys.argv[5], 0)[0]))
        del sys.modules["_salgrade_lint"]
    import importlib
    for name in CHECKED_MODULES:
        importlib.import_module(name)
    adapter = importlib.import_module(sys.argv[4])
    hook = getattr(adapter, "before_import", None)
    if hook is not None:
        hook()
    course = tuple(getattr(adapter, "COURSE_MODULES", ()))
    for name in course:
        importlib.import_module(name)
    # The student's own imports see their folder first, as `python FILE`
    # would have for them.
    sys.path[:] = [here] + [p for p in sys.path if p != here]
    take_away_tracing()
    watched = watched_state(
        [(name, vars(sys.modules[name]))
         for name in CHECKED_MODULES + ("__main__", sys.argv[4]) + course],
        frozenset(course))
    # The loop binds what it uses now, before the student's code runs: a
    # builtin (`any`, `map`) or a function of `operator` or `itertools`
    # replaced by the import would otherwise be what the loop compares with.
    loop = serve(reader, out_fd, adapter, watched)
    next(loop)
    try:
        module = importlib.import_module(os.path.splitext(STUDENT_FILE)[0])
    except BaseException as exc:
        flush_student_streams()
        send({"type": "import_failed", "error": describe_exception(exc)})
        return
    flush_student_streams()
    functions = {}
    for name in adapter.FUNCTIONS:
        try:
            functions[name] = adapter.find(module, name) is not None
        except BaseException:
            functions[name] = False
    send({"type": "ready", "protocol": PROTOCOL, "runtime": "Python " + sys.version.split()[0],
          "functions": functions})
    try:
        loop.send(module)
    except StopIteration:
        pass


if __name__ == "__main__":
    main()
