"""salgrade's rule checker: finds the containers an assignment forbids.

It runs in the same sandbox and under the same interpreter as the student's
code, but it never imports that code: it only parses it with `ast`.

Protocol (the driver's: JSON lines on two private fds):

    checker -> runner  {"type": "ready", "protocol": 2, "runtime": "Python 3.11.7", "functions": {}}
    runner -> checker  {"type": "lint", "file": NAME, "checked": [...], "exempt": [...]}
    checker -> runner  {"type": "linted", "findings": [FINDING, ...]}
                       {"type": "unreadable", "error": ERROR}

`checked` names the graded functions. `exempt` names the student's
functions that may use containers (`salb2salbLL`: not followed, and
charged to checked code that uses it, since what it returns is not
checked) and, dotted (`salbnode.SALBnode`), the members of the course's
own modules that checked code may use: the course wrote them, so they are
trusted.

FINDING is {"function", "line", "column", "construct", "source", "path",
"graded"}: `function` is where the construct is (`helper`, `Walker.step`,
`module level`), `graded` every checked function it is charged to, `path`
one shortest chain of calls from the first of those down to it (empty for
code outside the checked functions). Columns count characters from 1. At
most MAX_FINDINGS are sent, and every function charged keeps one.

What counts as a use (docs/container-rule.md lists the same) is a boundary,
not a list of tricks. The checked code is every checked function and
everything it reaches by name: module-level functions, classes and lambdas it names
(every definition of the name), and the classes that define an attribute
it reads. There every name, attribute and call must resolve to something
known not to make or hold a container:

- a name: a local; a module-level unit (followed); a module-level variable
  whose every assignment in the file (`global` ones included) is checkable
  and holds no container; a builtin in SAFE_BUILTINS or an exception; a
  member of a module in MODULES whose entry is SAFE; a course member;
- an attribute, judged by its name whatever it is read on (every value the
  checked code holds is a number, a string, a node, the student's own
  object or the like): a name in METHODS (what returns or is a container,
  on a builtin type) or a dunder outside SAFE_DUNDERS is a finding, unless
  the value is visibly the student's own object of a class defining it (or,
  for a name only containers have, the student defines it anywhere);
- `getattr`, `setattr`, `delattr`, `operator.attrgetter` and `methodcaller`
  with a constant name: that attribute; with a computed one, or passed
  around as values, they cannot be checked.

Anything else is a finding. A use: literals and comprehensions, unpacking,
`*args`/`**kwargs` and `*`/`**` in calls, the container types and what
makes them (CALLS, called or only named, and through aliases: `Bag = set`,
`from builtins import dict as t`, `class Trail(list)`, `push =
Trail.append`), module-level containers, container members of MODULES.
Cannot be checked: dynamic code (DYNAMIC), reflection, a module or member
or builtin the checker does not know, the exempt functions, a name no
statement defines in a file that can define names at run time, a
module-level variable holding an object that unchecked code also reaches,
a graded function not defined by a `def` it can follow, and a file larger
than MAX_NODES or too deep to walk.

The rest of the file (module level, class bodies and functions the checked
code does not reach, the exempt functions, annotations) may use containers
but not reach through the namespaces the checked code's names are found in:
dynamic code, reflection (`globals()`, `vars()`, dunders outside
SAFE_DUNDERS, the members in UNCHECKED_REFLECTIVE), imports outside MODULES
and UNCHECKED_IMPORTS, files made (or programs run) by `open` or `os`, a
module-level `__getattr__`, attribute stores on a class, function, module or
module-level variable the checked code reaches, and such a class (or
`type(x)`) handed around as a value are each a finding charged to every
checked function; a class, function or module a checked function returns to
code outside the checked functions is charged where it is returned.

Deliberately allowed: `range`, generator expressions, `except (A, B):`,
annotations (unless they run reflection), docstrings, strings, `type(x)`
and `x.__class__` in checked code, and everything in the exempt functions
that stays inside them.
"""

import ast
import builtins
import os
import sys

# ---------------------------------------------------------------------------
# What the checker knows.

CONTAINER_TYPES = ("list", "tuple", "set", "frozenset", "dict")
# Builtins that make or return containers: used or even named, they count.
CALLS = {
    "list": "`list()` call",
    "tuple": "`tuple()` call",
    "set": "`set()` call",
    "frozenset": "`frozenset()` call",
    "dict": "`dict()` call",
    "bytearray": "`bytearray()` call (a mutable sequence)",
    "memoryview": "`memoryview()` call (a view of a sequence)",
    "sorted": "`sorted()` call (returns a list)",
    "zip": "`zip()` call (yields tuples)",
    "enumerate": "`enumerate()` call (yields tuples)",
    "divmod": "`divmod()` call (returns a tuple)",
    "dir": "`dir()` call (returns a list)",
    "vars": "`vars()` call (returns a dict)",
    "globals": "`globals()` call (returns a dict)",
    "locals": "`locals()` call (returns a dict)",
}
# Code the checker cannot see through: reported as uses it cannot check.
DYNAMIC = {
    "eval": "`eval()` (dynamic code: cannot be checked)",
    "exec": "`exec()` (dynamic code: cannot be checked)",
    "compile": "`compile()` (dynamic code: cannot be checked)",
    "__import__": "`__import__()` (dynamic import: cannot be checked)",
    "breakpoint": "`breakpoint()` (runs a debugger: cannot be checked)",
    "getattr": "`getattr()` with a computed name (cannot be checked)",
    "setattr": "`setattr()` with a computed name (cannot be checked)",
    "delattr": "`delattr()` with a computed name (cannot be checked)",
}
# Module-level names that are the interpreter's machinery, not values.
REFLECTIVE_NAMES = ("__builtins__", "__loader__", "__spec__", "__import__")
# Builtins known not to make or hold a container, whatever they are given.
SAFE_BUILTINS = frozenset((
    "abs", "aiter", "all", "anext", "any", "ascii", "bin", "bool", "bytes",
    "callable", "chr", "classmethod", "complex", "filter", "float", "format",
    "hasattr", "hash", "hex", "id", "input", "int", "isinstance",
    "issubclass", "iter", "len", "map", "max", "min", "next", "object",
    "oct", "ord", "pow", "print", "property", "range", "repr", "reversed",
    "round", "slice", "staticmethod", "str", "sum", "super", "type",
    "None", "True", "False", "Ellipsis", "NotImplemented", "__debug__",
    "__name__", "__doc__", "__file__", "__package__", "exit", "quit",
))
EXCEPTIONS = frozenset(
    name for name in dir(builtins)
    if isinstance(getattr(builtins, name), type)
    and issubclass(getattr(builtins, name), BaseException)
)

# Attributes of builtin types that return or are containers.
METHODS = {
    "items": "`.items()` (a dict method)",
    "keys": "`.keys()` (a dict method)",
    "values": "`.values()` (a dict method)",
    "split": "`.split()` (returns a list)",
    "rsplit": "`.rsplit()` (returns a list)",
    "splitlines": "`.splitlines()` (returns a list)",
    "partition": "`.partition()` (returns a tuple)",
    "rpartition": "`.rpartition()` (returns a tuple)",
    "append": "`.append()` (a list method)",
    "extend": "`.extend()` (a list method)",
    "insert": "`.insert()` (a list method)",
    "remove": "`.remove()` (a list or set method)",
    "sort": "`.sort()` (a list method)",
    "reverse": "`.reverse()` (a list method)",
    "pop": "`.pop()` (a list, dict or set method)",
    "popitem": "`.popitem()` (a dict method)",
    "get": "`.get()` (a dict method)",
    "setdefault": "`.setdefault()` (a dict method)",
    "update": "`.update()` (a dict or set method)",
    "fromkeys": "`.fromkeys()` (makes a dict)",
    "add": "`.add()` (a set method)",
    "discard": "`.discard()` (a set method)",
    "union": "`.union()` (a set method)",
    "intersection": "`.intersection()` (a set method)",
    "difference": "`.difference()` (a set method)",
    "symmetric_difference": "`.symmetric_difference()` (a set method)",
    "issubset": "`.issubset()` (a set method)",
    "issuperset": "`.issuperset()` (a set method)",
    "isdisjoint": "`.isdisjoint()` (a set method)",
    "copy": "`.copy()` (a list, dict or set method)",
    "clear": "`.clear()` (a list, dict or set method)",
    "maketrans": "`.maketrans()` (returns a dict)",
    "as_integer_ratio": "`.as_integer_ratio()` (returns a tuple)",
    "mro": "`.mro()` (returns a list)",
    "indices": "`.indices()` (returns a tuple)",
    "args": "`.args` (a tuple)",
    "keywords": "`.keywords` (a dict)",
    "exceptions": "`.exceptions` (a tuple)",
    "__dict__": "`__dict__` (a dict)",
    "__mro__": "`.__mro__` (a tuple of types: reflection)",
    "__bases__": "`.__bases__` (a tuple of types: reflection)",
    "__subclasses__": "`.__subclasses__()` (returns a list of types: reflection)",
    "__annotations__": "`.__annotations__` (a dict)",
    "__defaults__": "`.__defaults__` (a tuple)",
    "__kwdefaults__": "`.__kwdefaults__` (a dict)",
    "__closure__": "`.__closure__` (a tuple)",
    "__slots__": "`.__slots__` (a container)",
    "__notes__": "`.__notes__` (a list)",
    "__dir__": "`.__dir__()` (returns a list)",
    "__divmod__": "`.__divmod__()` (returns a tuple)",
    "__rdivmod__": "`.__rdivmod__()` (returns a tuple)",
    "__reduce__": "`.__reduce__()` (returns a tuple)",
    "__reduce_ex__": "`.__reduce_ex__()` (returns a tuple)",
    "__getnewargs__": "`.__getnewargs__()` (returns a tuple)",
    "__getnewargs_ex__": "`.__getnewargs_ex__()` (returns a tuple)",
    "__getstate__": "`.__getstate__()` (returns a dict)",
}
# The methods above that only a container has (the others make a container
# from a string, a number, a type or an exception).
CONTAINER_ONLY = frozenset((
    "items", "keys", "values", "append", "extend", "insert", "remove", "sort", "reverse",
    "pop", "popitem", "get", "setdefault", "update", "fromkeys", "add", "discard", "union",
    "intersection", "difference", "symmetric_difference", "issubset", "issuperset",
    "isdisjoint", "copy", "clear",
))
# Dunder attributes that neither make a container nor reach a namespace.
SAFE_DUNDERS = frozenset((
    "__class__", "__name__", "__qualname__", "__doc__", "__module__",
    "__init__", "__repr__", "__str__", "__format__", "__hash__", "__bool__",
    "__len__", "__iter__", "__next__", "__contains__", "__eq__", "__ne__",
    "__lt__", "__le__", "__gt__", "__ge__", "__add__", "__sub__", "__mul__",
    "__truediv__", "__floordiv__", "__mod__", "__pow__", "__neg__",
    "__pos__", "__abs__", "__index__", "__int__", "__float__",
))
# Non-dunder attributes that reach frames, code or a namespace.
REFLECTIVE_ATTRS = frozenset((
    "f_globals", "f_locals", "f_builtins", "f_back", "f_code", "tb_frame",
    "tb_next", "gi_frame", "gi_code", "gi_yieldfrom", "cr_frame", "cr_code",
    "cr_await", "ag_frame", "ag_code", "ag_await",
))
# Public attributes of builtin types known to return no container.
SAFE_ATTRS = frozenset((
    "capitalize", "casefold", "center", "count", "encode", "endswith",
    "expandtabs", "find", "format", "format_map", "index", "isalnum",
    "isalpha", "isascii", "isdecimal", "isdigit", "isidentifier", "islower",
    "isnumeric", "isprintable", "isspace", "istitle", "isupper", "join",
    "ljust", "lower", "lstrip", "removeprefix", "removesuffix", "replace",
    "rfind", "rindex", "rjust", "rstrip", "startswith", "strip", "swapcase",
    "title", "translate", "upper", "zfill", "decode", "hex", "fromhex",
    "bit_length", "bit_count", "conjugate", "denominator", "numerator",
    "real", "imag", "from_bytes", "to_bytes", "is_integer", "start", "stop",
    "step", "send", "throw", "close", "gi_running", "gi_suspended",
    "fget", "fset", "fdel", "getter", "setter", "deleter", "func",
    "with_traceback", "add_note", "errno", "strerror", "filename",
    "filename2", "characters_written", "msg", "lineno", "offset", "text",
    "end_lineno", "end_offset", "print_file_and_line", "value", "code",
    "name", "obj", "path", "object", "end", "reason", "encoding", "message",
    "derive", "subgroup",
))


def _builtin_attribute_names():
    """Every public attribute of the builtin types a checked value can be."""
    import functools
    kinds = [str, bytes, int, float, complex, bool, range, slice, type,
             object, property, staticmethod, classmethod, super, map,
             filter, reversed, type(x for x in ()), functools.partial]
    kinds.extend(getattr(builtins, name) for name in EXCEPTIONS)
    return frozenset(n for k in kinds for n in dir(k) if not n.startswith("_"))


BUILTIN_ATTRS = _builtin_attribute_names()

# Modules whose members the checker knows. A member maps to "safe" (makes
# and holds no container), "builtin" (the builtin of that name), or a text
# saying which container it makes; "*" is the default for other members
# (None: they cannot be checked).
SAFE = "safe"
MODULES = {
    "math": {"*": SAFE, "frexp": "`math.frexp()` (returns a tuple)",
             "modf": "`math.modf()` (returns a tuple)"},
    "cmath": {"*": SAFE, "polar": "`cmath.polar()` (returns a tuple)"},
    "operator": {"*": SAFE, "attrgetter": "attrgetter", "methodcaller": "methodcaller",
                 "itemgetter": "itemgetter"},
    "functools": {
        "reduce": SAFE, "partial": SAFE, "wraps": SAFE, "update_wrapper": SAFE,
        "total_ordering": SAFE, "cmp_to_key": SAFE,
        "cache": "`functools.cache` (memoises in a dict)",
        "lru_cache": "`functools.lru_cache` (memoises in a dict)",
        "cached_property": "`functools.cached_property` (stores in the instance's dict)",
        "singledispatch": "`functools.singledispatch` (keeps a dict of functions)",
    },
    "itertools": {
        "count": SAFE, "repeat": SAFE, "islice": SAFE, "chain": SAFE,
        "takewhile": SAFE, "dropwhile": SAFE, "accumulate": SAFE,
        "filterfalse": SAFE, "compress": SAFE, "starmap": SAFE,
        "cycle": "`itertools.cycle` (keeps a list of what it has seen)",
        "tee": "`itertools.tee` (returns a tuple)",
        "groupby": "`itertools.groupby` (yields tuples)",
        "product": "`itertools.product` (yields tuples)",
        "permutations": "`itertools.permutations` (yields tuples)",
        "combinations": "`itertools.combinations` (yields tuples)",
        "combinations_with_replacement": "`itertools.combinations_with_replacement` (yields tuples)",
        "zip_longest": "`itertools.zip_longest` (yields tuples)",
        "pairwise": "`itertools.pairwise` (yields tuples)",
        "batched": "`itertools.batched` (yields tuples)",
    },
    "sys": {
        "setrecursionlimit": SAFE, "getrecursionlimit": SAFE, "maxsize": SAFE,
        "getsizeof": SAFE, "intern": SAFE, "exit": SAFE, "stdout": SAFE, "stderr": SAFE,
        "modules": "`sys.modules` (a dict of every loaded module: reflection)",
        "argv": "`sys.argv` (a list)", "path": "`sys.path` (a list)",
        "version_info": "`sys.version_info` (a tuple)",
        "exc_info": "`sys.exc_info()` (returns a tuple)",
    },
    "copy": {"copy": SAFE, "deepcopy": "`copy.deepcopy` (keeps a dict of what it copied)"},
    "time": {
        "time": SAFE, "time_ns": SAFE, "perf_counter": SAFE, "perf_counter_ns": SAFE,
        "monotonic": SAFE, "monotonic_ns": SAFE, "process_time": SAFE,
        "process_time_ns": SAFE, "thread_time": SAFE, "sleep": SAFE, "ctime": SAFE,
        "localtime": "`time.localtime()` (returns a tuple)",
        "gmtime": "`time.gmtime()` (returns a tuple)",
    },
    "random": {
        "random": SAFE, "randint": SAFE, "randrange": SAFE, "uniform": SAFE,
        "seed": SAFE, "getrandbits": SAFE, "choice": SAFE, "gauss": SAFE,
        "sample": "`random.sample()` (returns a list)",
        "choices": "`random.choices()` (returns a list)",
        "shuffle": "`random.shuffle()` (shuffles a list)",
    },
    "string": dict((name, SAFE) for name in (
        "ascii_letters", "ascii_lowercase", "ascii_uppercase", "digits", "hexdigits",
        "octdigits", "punctuation", "printable", "whitespace", "capwords")),
    "dataclasses": {"dataclass": SAFE, "field": SAFE, "replace": SAFE, "is_dataclass": SAFE,
                    "astuple": "`dataclasses.astuple()` (returns a tuple)",
                    "asdict": "`dataclasses.asdict()` (returns a dict)",
                    "fields": "`dataclasses.fields()` (returns a tuple)"},
    "typing": {"cast": SAFE, "TYPE_CHECKING": SAFE},
    "builtins": {"*": "builtin"},
    "collections": {"*": "collections"},
    "heapq": {"*": "`heapq` (works on lists)"},
    "bisect": {"*": "`bisect` (works on lists)"},
    "array": {"*": "`array` (an array is a container)"},
    "queue": {"*": "`queue` (a queue is a container)"},
    "re": {"findall": "`re.findall()` (returns a list)", "split": "`re.split()` (returns a list)"},
    "os": dict(
        [(name, SAFE) for name in (
            "write", "read", "pread", "pwrite", "close", "dup", "dup2", "lseek", "fsync",
            "fork", "_exit", "kill", "killpg", "getpid", "getppid", "getpgid", "getpgrp",
            "setsid", "getuid", "geteuid", "getgid", "getegid", "getcwd", "urandom",
            "cpu_count", "remove", "unlink", "rmdir", "chmod", "sched_yield", "nice", "strerror", "fspath", "isatty", "execv", "execve",
            "sep", "linesep", "devnull", "name", "curdir", "pardir", "extsep", "pathsep")]
        + [(name, SAFE) for name in (
            "O_RDONLY", "O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND", "O_EXCL",
            "O_NONBLOCK", "O_CLOEXEC", "O_ACCMODE", "SEEK_SET", "SEEK_CUR", "SEEK_END",
            "EX_OK", "F_OK", "R_OK", "W_OK", "X_OK", "WNOHANG")]
        + [("listdir", "`os.listdir()` (returns a list)"), ("environ", "`os.environ` (a dict)"),
           ("pipe", "`os.pipe()` (returns a tuple)"), ("wait", "`os.wait()` (returns a tuple)"),
           ("waitpid", "`os.waitpid()` (returns a tuple)"), ("times", "`os.times()` (returns a tuple)"),
           ("uname", "`os.uname()` (returns a tuple)"), ("stat", "`os.stat()` (returns a tuple)"),
           ("fstat", "`os.fstat()` (returns a tuple)"), ("walk", "`os.walk()` (yields tuples)")]),
    "os.path": dict(
        [(name, SAFE) for name in (
            "join", "exists", "isfile", "isdir", "islink", "abspath", "realpath", "basename",
            "dirname", "getsize", "normpath", "expanduser", "isabs", "sep")]
        + [("split", "`os.path.split()` (returns a tuple)"),
           ("splitext", "`os.path.splitext()` (returns a tuple)")]),
    "struct": {"unpack": "`struct.unpack()` (returns a tuple)",
               "unpack_from": "`struct.unpack_from()` (returns a tuple)"},
}
# The members of `os` that make or rename files, or run a program that can.
FILE_MAKERS = ("open", "fdopen", "rename", "replace", "renames", "link", "symlink", "mkdir",
               "makedirs", "mkfifo", "mknod", "truncate", "ftruncate", "system", "popen",
               "execv", "execve", "execl", "execle", "execlp", "execlpe", "execvp", "execvpe",
               "spawnv", "spawnve", "spawnl", "spawnle", "spawnlp", "spawnlpe", "spawnvp",
               "spawnvpe", "posix_spawn", "posix_spawnp")
# Modules the code outside the checked functions may import: they cannot
# run hidden code or reach the namespaces the checked code uses (the
# reflective members of `sys` and `doctest` are findings of their own).
UNCHECKED_IMPORTS = frozenset(MODULES) | frozenset((
    "__future__", "abc", "dataclasses", "decimal", "doctest", "enum",
    "fractions", "json", "numbers", "os.path", "pprint", "statistics",
    "textwrap", "unittest",
))
# Members of the importable modules that reach a namespace, run code, or
# make a file that an import could then take for a module (None: every
# member), with the reason.
UNCHECKED_REFLECTIVE = {
    "sys": (("modules", "_getframe", "settrace", "setprofile", "meta_path", "path",
             "path_hooks", "path_importer_cache", "addaudithook", "displayhook",
             "excepthook", "breakpointhook", "unraisablehook", "__dict__"), "reflection"),
    "os": (FILE_MAKERS, "it can make a file that an import would take for a module"),
    "typing": (("get_type_hints", "ForwardRef"), "it evaluates annotations as code"),
    "doctest": (None, "it runs the docstrings' examples"),
    "unittest": (None, "it finds and runs code by name"),
}
MAX_SOURCE = 160
MODULE_LEVEL = "module level"
# How far the checker follows a chain of names or an expression: beyond,
# what it finds cannot be checked (no honest file comes near).
MAX_CHAIN = 64
# Findings kept in an answer; each checked function keeps at least its first.
MAX_FINDINGS = 400
# The largest file the checker reads (the model solution has about 500
# syntax nodes): a larger one cannot be checked, rather than risk the
# checker's deadline.
MAX_NODES = 50000


def _constant_name(call, index=1):
    """The attribute name of `getattr(obj, "name")`, when it is a constant."""
    if len(call.args) > index and isinstance(call.args[index], ast.Constant):
        return call.args[index].value if isinstance(call.args[index].value, str) else None
    return None


def is_dunder(name):
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


LITERALS = {
    ast.List: "list literal",
    ast.Tuple: "tuple literal",
    ast.Set: "set literal",
    ast.Dict: "dict literal",
    ast.ListComp: "list comprehension",
    ast.SetComp: "set comprehension",
    ast.DictComp: "dict comprehension",
}


def container_kind(value):
    """What a value is, if it is visibly a container."""
    for cls, text in LITERALS.items():
        if isinstance(value, cls):
            return text.split()[0]
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
        if value.func.id in CONTAINER_TYPES or value.func.id == "sorted":
            return "list" if value.func.id == "sorted" else value.func.id
    return None


# ---------------------------------------------------------------------------
# Scopes: which names a function, class, lambda or comprehension binds.

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
SCOPES = FUNCTIONS + (ast.Lambda, ast.ClassDef) + COMPREHENSIONS


def annotations_of(node):
    """A function's annotations: evaluated where it is defined."""
    args = node.args
    every = args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]
    found = [a.annotation for a in every if a is not None and a.annotation is not None]
    if node.returns is not None:
        found.append(node.returns)
    return found


def outer_parts(node):
    """The parts of a scope-making node evaluated in the enclosing scope."""
    if isinstance(node, FUNCTIONS):
        return (list(node.decorator_list) + list(node.args.defaults)
                + [d for d in node.args.kw_defaults if d is not None] + annotations_of(node))
    if isinstance(node, ast.Lambda):
        return list(node.args.defaults) + [d for d in node.args.kw_defaults if d is not None]
    if isinstance(node, ast.ClassDef):
        return list(node.decorator_list) + list(node.bases) + [k.value for k in node.keywords]
    if isinstance(node, COMPREHENSIONS):
        return [node.generators[0].iter]
    return []


def inner_parts(node):
    """The parts of a scope-making node evaluated in its own scope."""
    if isinstance(node, (FUNCTIONS + (ast.Lambda,))):
        args = node.args
        every = args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]
        params = [a for a in every if a is not None]
        body = node.body if isinstance(node.body, list) else [node.body]
        return params + list(body)
    if isinstance(node, ast.ClassDef):
        return list(node.body)
    if isinstance(node, COMPREHENSIONS):
        parts = []
        for i, gen in enumerate(node.generators):
            parts.append(gen.target)
            if i:
                parts.append(gen.iter)
            parts.extend(gen.ifs)
        if isinstance(node, ast.DictComp):
            parts.extend((node.key, node.value))
        else:
            parts.append(node.elt)
        return parts
    if isinstance(node, ast.Module):
        return list(node.body)
    return []


def walk_scope(parts, skip=()):
    """Every node evaluated in one scope: nested scopes are yielded (their
    outer parts walked too) but not entered. `skip`: node ids left out."""
    stack = list(reversed(parts))
    while stack:
        node = stack.pop()
        if id(node) in skip:
            continue
        yield node
        if isinstance(node, SCOPES):
            stack.extend(reversed(outer_parts(node)))
        else:
            stack.extend(reversed(list(ast.iter_child_nodes(node))))


class Scope:
    """The names one scope binds, and those it declares global."""

    def __init__(self, node, kind, skip=()):
        self.node = node
        self.kind = kind  # "module", "function", "class", "comprehension"
        self.bound = set()
        self.globals = set()
        self.imports = {}  # local name -> ("module", m) or ("member", m, attr)
        self.instances = {}  # local name -> class names it is only ever bound to
        self.values = {}  # local name -> the values `=` gives it
        self.stores = {}  # local name -> how many times it is bound
        assigned = self.values
        for n in walk_scope(inner_parts(node), skip):
            if n is node:
                continue
            if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
                self.bound.add(n.id)
                self.stores[n.id] = self.stores.get(n.id, 0) + 1
            elif isinstance(n, ast.arg):
                self.bound.add(n.arg)
            elif isinstance(n, (FUNCTIONS + (ast.ClassDef,))):
                self.bound.add(n.name)
            elif isinstance(n, ast.ExceptHandler) and n.name:
                self.bound.add(n.name)
            elif isinstance(n, ast.Import):
                for alias in n.names:
                    name = alias.asname or alias.name.split(".")[0]
                    self.bound.add(name)
                    self.imports[name] = ("module", alias.name if alias.asname else name)
            elif isinstance(n, ast.ImportFrom):
                for alias in n.names:
                    if alias.name == "*":
                        continue
                    name = alias.asname or alias.name
                    self.bound.add(name)
                    self.imports[name] = ("member", n.module or "", alias.name)
            elif isinstance(n, ast.Global):
                self.globals.update(n.names)
            elif isinstance(n, ast.Nonlocal):
                self.bound.update(n.names)
            elif type(n).__name__ in ("MatchAs", "MatchStar") and getattr(n, "name", None):
                self.bound.add(n.name)
            elif type(n).__name__ == "MatchMapping" and getattr(n, "rest", None):
                self.bound.add(n.rest)
            if isinstance(n, ast.Assign):
                for target in n.targets:
                    if isinstance(target, ast.Name):
                        assigned.setdefault(target.id, []).append(n.value)
        self.bound -= self.globals
        for name, values in assigned.items():
            classes = [v.func.id for v in values
                       if isinstance(v, ast.Call) and isinstance(v.func, ast.Name)]
            if len(classes) == len(values):
                self.instances[name] = classes


# ---------------------------------------------------------------------------
# The module: its units, its module-level bindings, what its classes define.

def is_main_guard(stmt):
    """`if __name__ == "__main__":` (its body does not run on import)."""
    test = getattr(stmt, "test", None)
    if not isinstance(stmt, ast.If) or not isinstance(test, ast.Compare):
        return False
    if len(test.ops) != 1 or not isinstance(test.ops[0], ast.Eq):
        return False
    sides = [test.left, test.comparators[0]]
    names = [s for s in sides if isinstance(s, ast.Name) and s.id == "__name__"]
    mains = [s for s in sides if isinstance(s, ast.Constant) and s.value == "__main__"]
    return bool(names and mains)


def main_guard_bodies(tree):
    """The ids of the statements under a module-level `if __name__ ==
    "__main__":` (at any depth of module-level `if`, `try`, ...)."""
    skip = set()
    stack = list(tree.body)
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, FUNCTIONS + (ast.ClassDef,)):
            continue
        if is_main_guard(stmt):
            skip.update(id(s) for s in stmt.body)
            stack.extend(stmt.orelse)
            continue
        for field in ("body", "orelse", "finalbody"):
            stack.extend(getattr(stmt, field, None) or [])
        for handler in getattr(stmt, "handlers", None) or []:
            stack.extend(handler.body)
        for case in getattr(stmt, "cases", None) or []:
            stack.extend(case.body)
    return skip


class Binding:
    """One way a module-level name gets its value."""

    def __init__(self, kind, node, value=None, owner=None, detail=None):
        self.kind = kind  # "unit", "import", "value", "opaque"
        self.node = node
        self.value = value  # the expression, for "value"
        self.owner = owner  # the top-level unit it is in, or None
        self.detail = detail  # ("module", m) / ("member", m, a) / why


def scope_bindings(parts, skip, wanted=None):
    """(name, Binding) for each name a scope binds: `parts` are its nodes
    (walked without entering nested scopes); `wanted` limits the names (a
    function's `global` ones)."""
    handled = set()
    for node in walk_scope(parts, skip):
        found = []
        if isinstance(node, FUNCTIONS + (ast.ClassDef,)):
            found = [(node.name, Binding("unit", node))]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                name = alias.asname or alias.name.split(".")[0]
                module = alias.name if alias.asname else name
                found.append((name, Binding("import", node, detail=("module", module))))
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name != "*":
                    found.append((alias.asname or alias.name, Binding(
                        "import", node, detail=("member", node.module or "", alias.name)
                        if not node.level else ("module", "." * node.level + (node.module or "")))))
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.NamedExpr)):
            value = getattr(node, "value", None)
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if value is not None:
                for target in targets:
                    found.extend(target_bindings(target, value, node, handled))
        elif isinstance(node, ast.ExceptHandler) and node.name:
            found = [(node.name, Binding("opaque", node, detail="an exception handler"))]
        elif type(node).__name__ in ("MatchAs", "MatchStar") and getattr(node, "name", None):
            found = [(node.name, Binding("opaque", node, detail="a `match` capture"))]
        elif type(node).__name__ == "MatchMapping" and getattr(node, "rest", None):
            found = [(node.rest, Binding("opaque", node, detail="a `match` capture"))]
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and id(node) not in handled:
            found = [(node.id, Binding("opaque", node, detail="a loop, `with` or unpacking"))]
        for name, binding in found:
            if wanted is None or name in wanted:
                yield name, binding


def target_bindings(target, value, stmt, handled):
    """Bindings of an assignment's target: a name gets the value; a tuple
    of names gets a tuple of values element by element, else opaque."""
    if isinstance(target, ast.Name):
        handled.add(id(target))
        return [(target.id, Binding("value", stmt, value))]
    if isinstance(target, (ast.Tuple, ast.List)):
        pairs = (isinstance(value, (ast.Tuple, ast.List))
                 and len(value.elts) == len(target.elts)
                 and not any(isinstance(e, ast.Starred) for e in target.elts + value.elts))
        found = []
        for i, element in enumerate(target.elts):
            if pairs:
                found.extend(target_bindings(element, value.elts[i], stmt, handled))
        return found
    return []


class Module:
    """The module-level names the checked code is resolved against."""

    def __init__(self, tree, lines, exempt):
        self.tree = tree
        self.lines = lines
        self.exempt = {e for e in exempt if "." not in e}
        self.course = {}  # course module -> its trusted members
        for entry in exempt:
            if "." in entry:
                module, _, member = entry.rpartition(".")
                self.course.setdefault(module, set()).add(member)
        self.main_guards = main_guard_bodies(tree)
        self._owners = None
        self.units = {}  # name -> [FunctionDef | ClassDef | Lambda]
        self.class_attrs = {}  # attribute name -> classes whose body binds it
        self.bindings = {}  # module-level name -> [Binding]
        self.attribute_stores = {}  # attribute name -> values stored under it
        self.star_imports = []
        for name, binding in scope_bindings(list(tree.body), self.main_guards):
            self.bindings.setdefault(name, []).append(binding)
            if binding.kind == "unit":
                self.units.setdefault(name, []).append(binding.node)
            elif binding.kind == "value" and isinstance(binding.value, ast.Lambda):
                self.units.setdefault(name, []).append(binding.value)
        for node in walk_scope(list(tree.body), self.main_guards):
            if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
                self.star_imports.append(node)
            if isinstance(node, ast.ClassDef):
                self.define_class(node)
        # One walk of the whole tree: each node's parent, the functions that
        # declare names `global`, the attributes stored anywhere.
        self.parents = {}
        self.size = 0
        declaring = {}
        for node in ast.walk(tree):
            self.size += 1
            for child in ast.iter_child_nodes(node):
                self.parents[id(child)] = node
            if isinstance(node, ast.Global):
                function = self.parents.get(id(node))
                while function is not None and not isinstance(function, FUNCTIONS):
                    function = self.parents.get(id(function))
                if function is not None:
                    declaring.setdefault(id(function), (function, set()))[1].update(node.names)
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Attribute):
                        self.attribute_stores.setdefault(target.attr, []).append(node.value)
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and isinstance(node.target, ast.Attribute):
                self.attribute_stores.setdefault(node.target.attr, []).append(None)
            elif isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Load):
                self.attribute_stores.setdefault(node.attr, [])
        # `global NAME` in a function: what it assigns there binds the
        # module-level name too.
        for function, declared in declaring.values():
            owner = self.owner_of(function)
            for name, binding in scope_bindings(inner_parts(function), (), declared):
                if binding.kind in ("unit", "import"):
                    # Not a module-level unit or import the walk can follow:
                    # it exists only once that function has run.
                    binding = Binding("opaque", binding.node, detail="a `def`, `class` or "
                                      "`import` inside a function")
                binding.owner = owner
                self.bindings.setdefault(name, []).append(binding)

    def define_class(self, node):
        for item in node.body:
            names = []
            if isinstance(item, FUNCTIONS + (ast.ClassDef,)):
                names = [item.name]
            elif isinstance(item, ast.Assign):
                names = [n.id for t in item.targets for n in ast.walk(t) if isinstance(n, ast.Name)]
            elif isinstance(item, (ast.AnnAssign, ast.AugAssign)) and isinstance(item.target, ast.Name):
                names = [item.target.id]
            for name in names:
                self.class_attrs.setdefault(name, []).append(node.name)

    def owner_of(self, node):
        """The name of the top-level unit `node` is in."""
        if self._owners is None:
            self._owners = {}
            for name, units in self.units.items():
                for unit in units:
                    for inner in ast.walk(unit):
                        self._owners[id(inner)] = name
        return self._owners.get(id(node), MODULE_LEVEL)

    # What a module member is.
    def member(self, module, attr):
        """("safe",) / ("container", text) / ("builtin", name) /
        ("course",) / ("special", name) / ("unknown", text) for
        `module.attr`."""
        if module in self.course:
            if attr in self.course[module]:
                return ("course",)
            return ("unknown", "`{}.{}` (not a member of the course's `{}` the rule knows: "
                               "cannot be checked)".format(module, attr, module))
        table = MODULES.get(module)
        if table is None:
            return ("unknown", "`{}.{}` (module `{}` is not one the checker knows: "
                               "cannot be checked)".format(module, attr, module))
        kind = table.get(attr, table.get("*"))
        if kind is None:
            return ("unknown", "`{}.{}` (not a member of `{}` the checker knows: "
                               "cannot be checked)".format(module, attr, module))
        if kind == SAFE:
            return ("safe",)
        if kind == "builtin":
            return ("builtin", attr)
        if kind == "collections":
            return ("container", "`{}.{}` (a collections type)".format(module, attr))
        if kind in ("attrgetter", "methodcaller", "itemgetter"):
            return ("special", kind)
        return ("container", kind)

    def known_module(self, module):
        return module in self.course or module in MODULES


# ---------------------------------------------------------------------------
# The walk.

class Checker(ast.NodeVisitor):
    """Walks code and records findings. `checked`: the code is checked (every
    name, attribute and call must resolve); otherwise it is the rest of the
    file, where only reaching through namespaces is reported. `annotation`:
    an annotation outside the checked code (only reflection counts)."""

    def __init__(self, run, label, checked, annotation=False):
        self.run = run
        self.module = run.module
        self.lines = run.lines
        self.checked = checked
        self.annotation = annotation
        self.label = list(label)
        self.findings = []
        self.calls = []  # module-level units this code refers to
        self.global_reads = []  # (name, node, context) judged after the walk
        self.inside_literal = 0
        self.scopes = [run.module_scope]
        self.classes = []  # enclosing class names, innermost last
        self.handled = set()  # ids of nodes their parent has judged
        self.handed_out = []  # returns of a class, function or module

    def visit(self, node):
        if id(node) in self.module.main_guards:
            return None
        return super().visit(node)

    # -- reporting -----------------------------------------------------------
    def report(self, node, construct):
        line = getattr(node, "lineno", 0)
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        offset = getattr(node, "col_offset", 0)
        column = len(text.encode("utf-8")[:offset].decode("utf-8", "replace")) + 1
        source = text.strip()
        if len(source) > MAX_SOURCE:
            source = source[: MAX_SOURCE - 3] + "..."
        self.findings.append({
            "function": ".".join(self.label),
            "line": line,
            "column": column,
            "construct": construct,
            "source": source,
        })
        if "cannot be checked" in construct or "reflection" in construct:
            self.run.doubt = True

    def uses_container(self, node, construct):
        """A container use: a finding in checked code only (the rest of the
        file may use containers)."""
        if self.checked:
            self.report(node, construct)

    # -- names and what they denote ------------------------------------------
    def resolve(self, name):
        """("local", scope) / ("global",) / ("builtin",) / ("undefined",)."""
        innermost = True
        for scope in reversed(self.scopes):
            if scope.kind == "module":
                break
            if scope.kind == "class" and not innermost:
                continue
            innermost = False
            if name in scope.globals:
                break
            if name in scope.bound:
                return ("local", scope)
        if name in self.module.bindings:
            return ("global",)
        if hasattr(builtins, name) or name in SAFE_BUILTINS:
            return ("builtin",)
        return ("undefined",)

    def denotes(self, node):
        """What an expression names, as far as names resolve: ("module", m),
        ("member", m, attr), ("builtin", name), ("unit", name), or None (a
        value)."""
        if isinstance(node, ast.Name):
            where = self.resolve(node.id)
            if where[0] == "local":
                ref = where[1].imports.get(node.id)
                return self.import_ref(ref) if ref else None
            if where[0] == "builtin":
                return ("builtin", node.id)
            if where[0] == "global":
                return self.global_denotes(node.id)
            return self.star_denotes(node.id)
        if isinstance(node, ast.Attribute):
            base = self.denotes(node.value)
            if base and base[0] == "module":
                return self.import_ref(("member", base[1], node.attr))
        return None

    def import_ref(self, ref):
        if ref[0] == "module":
            return ("module", ref[1])
        module, attr = ref[1], ref[2]
        sub = module + "." + attr
        if sub in MODULES or sub in self.module.course or sub in UNCHECKED_IMPORTS:
            return ("module", sub)
        return ("member", module, attr)

    def global_denotes(self, name, seen=None):
        """What a module-level name stands for, when every binding agrees."""
        memo = self.run.denoted
        if seen is None:
            if name not in memo:
                memo[name] = self.global_denotes(name, set())
            return memo[name]
        if name in seen or len(seen) > MAX_CHAIN:
            return None
        seen.add(name)
        meanings = set()
        for b in self.module.bindings.get(name, []):
            if b.kind == "unit":
                meanings.add(("unit", name))
            elif b.kind == "import":
                meanings.add(self.import_ref(b.detail))
            elif b.kind == "value" and b.owner is None and isinstance(b.value, ast.Lambda):
                meanings.add(("unit", name))
            elif b.kind == "value" and b.owner is None:
                meanings.add(self.value_denotes(b.value, seen))
            else:
                meanings.add(None)
        return meanings.pop() if len(meanings) == 1 else None

    def value_denotes(self, value, seen):
        if isinstance(value, ast.Name):
            if value.id in self.module.bindings:
                return self.global_denotes(value.id, seen)
            if hasattr(builtins, value.id):
                return ("builtin", value.id)
            return None
        if isinstance(value, ast.Attribute):
            base = self.value_denotes(value.value, seen)
            if base and base[0] == "module":
                return self.import_ref(("member", base[1], value.attr))
        return None

    def star_denotes(self, name):
        """A name no statement binds, found through `from M import *`."""
        for node in reversed(self.module.star_imports):
            module = node.module or ""
            if module in self.module.course:
                if name in self.module.course[module]:
                    return ("member", module, name)
                continue
            if module not in MODULES:
                return ("star", module)
            try:
                import importlib
                found = importlib.import_module(module)
            except ImportError:
                return ("star", module)
            exported = getattr(found, "__all__", None)
            if (name in exported) if exported is not None else (
                    hasattr(found, name) and not name.startswith("_")):
                return ("member", module, name)
        return None

    def container_type(self, node):
        """The container type `node` names (`list`, `builtins.dict`, a
        module-level alias of one, a container subclass), or None."""
        meaning = self.denotes(node)
        if meaning is None:
            return None
        if meaning[0] == "builtin" and meaning[1] in CONTAINER_TYPES + ("bytearray", "memoryview"):
            return meaning[1]
        if meaning[0] == "member" and meaning[1] == "builtins" and meaning[2] in CONTAINER_TYPES:
            return meaning[2]
        if meaning[0] == "member" and meaning[1] == "collections":
            return "collections." + meaning[2]
        if meaning[0] == "unit":
            return self.run.container_subclass(meaning[1])
        return None

    # -- scopes of nested code -----------------------------------------------
    def in_scope(self, node, kind, visit):
        self.scopes.append(Scope(node, kind, self.module.main_guards))
        try:
            visit()
        finally:
            self.scopes.pop()

    def enter_label(self, name):
        """`Class.method`, `outer.inner`; deeper nesting keeps two names."""
        if self.label == [MODULE_LEVEL]:
            self.label = [name]
            return "replaced"
        if len(self.label) == 1 and self.label[0] != name:
            self.label.append(name)
            return "appended"
        return None

    def leave_label(self, how):
        if how == "replaced":
            self.label = [MODULE_LEVEL]
        elif how == "appended":
            self.label.pop()

    def visit_FunctionDef(self, node):
        if not self.checked and id(node) in self.run.skip_ids:
            return
        if node.name in ("__getattr__", "__dir__") and len(self.scopes) == 1:
            self.report(node, "module-level `{}` (answers for names the file does not define: "
                              "cannot be checked)".format(node.name))
        for part in node.decorator_list + node.args.defaults + [
                d for d in node.args.kw_defaults if d is not None]:
            self.visit(part)
        how = self.enter_label(node.name)
        self.run.scan_annotations(self, annotations_of(node))
        self.check_arguments(node.args)

        def body():
            for stmt in node.body:
                self.visit(stmt)
        self.in_scope(node, "function", body)
        self.leave_label(how)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        if not self.checked and id(node) in self.run.skip_ids:
            return
        for part in node.decorator_list + node.bases + [k.value for k in node.keywords]:
            self.visit(part)
        how = self.enter_label(node.name)
        self.classes.append(node.name)

        def body():
            for stmt in node.body:
                self.visit(stmt)
        self.in_scope(node, "class", body)
        self.classes.pop()
        self.leave_label(how)

    def visit_Lambda(self, node):
        if not self.checked and id(node) in self.run.skip_ids:
            return
        for part in node.args.defaults + [d for d in node.args.kw_defaults if d is not None]:
            self.visit(part)
        self.check_arguments(node.args)
        self.in_scope(node, "function", lambda: self.visit(node.body))

    def visit_comprehension_scope(self, node):
        self.visit(node.generators[0].iter)

        def inner():
            for part in inner_parts(node):
                self.visit(part)
        self.in_scope(node, "comprehension", inner)

    def visit_GeneratorExp(self, node):
        self.visit_comprehension_scope(node)

    def check_arguments(self, args):
        if not self.checked:
            return
        if args.vararg is not None:
            self.report(args.vararg, "`*{}` parameter (a tuple)".format(args.vararg.arg))
        if args.kwarg is not None:
            self.report(args.kwarg, "`**{}` parameter (a dict)".format(args.kwarg.arg))

    def visit_arg(self, node):
        pass  # annotations are scanned where they run (scan_annotations)

    def visit_AnnAssign(self, node):
        # A local variable's annotation never runs; a module's or a class's does.
        if self.scopes[-1].kind in ("module", "class"):
            self.run.scan_annotations(self, [node.annotation])
        self.visit(node.target)
        if node.value is not None:
            self.visit(node.value)

    def visit_ExceptHandler(self, node):
        if isinstance(node.type, ast.Tuple):
            for element in node.type.elts:
                self.visit(element)
        elif node.type is not None:
            self.visit(node.type)
        for stmt in node.body:
            self.visit(stmt)

    # -- containers written out ------------------------------------------------
    def visit_container(self, node):
        if isinstance(node, (ast.Tuple, ast.List)) and isinstance(node.ctx, ast.Store):
            self.uses_container(node, "tuple unpacking" if isinstance(node, ast.Tuple) else "list unpacking")
        elif isinstance(node, (ast.Tuple, ast.List)) and isinstance(node.ctx, ast.Del):
            self.uses_container(node, "tuple in `del`" if isinstance(node, ast.Tuple) else "list in `del`")
        elif not self.inside_literal:
            self.uses_container(node, LITERALS[type(node)])
        self.inside_literal += 1
        if isinstance(node, COMPREHENSIONS):
            self.visit_comprehension_scope(node)
        else:
            self.generic_visit(node)
        self.inside_literal -= 1

    visit_List = visit_Tuple = visit_Set = visit_Dict = visit_container
    visit_ListComp = visit_SetComp = visit_DictComp = visit_container

    def visit_MatchStar(self, node):
        if node.name is not None:
            self.uses_container(node, "starred pattern `*{}` (makes a list)".format(node.name))

    def visit_MatchMapping(self, node):
        if node.rest is not None:
            self.uses_container(node, "`**{}` pattern (makes a dict)".format(node.rest))
        self.generic_visit(node)

    def visit_Return(self, node):
        if node.value is not None:
            self.note_handed_out(node.value)
        self.generic_visit(node)

    def visit_Yield(self, node):
        if node.value is not None:
            self.note_handed_out(node.value)
        self.generic_visit(node)

    def note_handed_out(self, value):
        """A class, function or module the checked code returns: a caller
        outside the checked code could change it (`K.memo = set()`)."""
        if not self.checked or not isinstance(value, ast.Name):
            return
        names = [value]
        where = self.resolve(value.id)
        if where[0] == "local" and value.id not in where[1].imports:
            names = [v for v in where[1].values.get(value.id, [])
                     if isinstance(v, ast.Name) and v.id != value.id]
            meanings = [self.denotes(n) for n in names]
        else:
            meanings = [self.denotes(value)]
        for meaning in meanings:
            if meaning and (meaning[0] in ("unit", "module") or (
                    meaning[0] == "member" and not (self.module.known_module(meaning[1]) and
                                                    self.module.member(meaning[1], meaning[2])[0] == "safe"))):
                self.handed_out.append(value)
                return

    def visit_Starred(self, node):
        if isinstance(node.ctx, ast.Store):
            self.uses_container(node, "starred unpacking (makes a list)")
        else:
            self.uses_container(node, "`*` unpacking")
        self.generic_visit(node)

    # -- imports ---------------------------------------------------------------
    def visit_Import(self, node):
        for alias in node.names:
            self.check_import(node, alias.name)

    def visit_ImportFrom(self, node):
        module = node.module or ""
        if node.level:
            self.report(node, "`from {}{} import ...` (a module the checker does not know: cannot "
                              "be checked)".format("." * node.level, module))
            return
        self.check_import(node, module)
        for alias in node.names:
            if alias.name == "*":
                if not self.module.known_module(module):
                    self.report(node, "`from {} import *` (binds names the checker cannot list: "
                                      "cannot be checked)".format(module))


    def check_import(self, node, module):
        top = module.split(".")[0]
        if self.checked:
            return  # what the checked code uses of it is judged where it is used
        if module in self.module.course or top in self.module.course:
            return
        if module in UNCHECKED_IMPORTS or top in UNCHECKED_IMPORTS:
            return  # a reflective member is reported where it is used
        self.report(node, "`import {}` (a module the checker does not know: cannot be "
                          "checked)".format(module))

    @staticmethod
    def reflective_member(module, attr):
        """Why a module's member reaches a namespace or runs code, or None."""
        if module == "builtins":
            if attr in REFLECTIVE_NAMES or attr in DYNAMIC or attr in ("globals", "vars", "locals"):
                return "reflection"
            return None
        members, why = UNCHECKED_REFLECTIVE.get(module, ((), None))
        return why if members is None or attr in members else None

    # -- names -----------------------------------------------------------------
    def visit_Name(self, node):
        if id(node) in self.handled or not isinstance(node.ctx, ast.Load):
            return
        self.use_name(node, "value")

    def use_name(self, node, context):
        """A name read as a value ("value"), called ("call"), or as the
        receiver of an attribute ("receiver")."""
        name = node.id
        where = self.resolve(name)
        if name in REFLECTIVE_NAMES and where[0] != "local":
            self.report(node, "`{}` (reflection: cannot be checked)".format(name))
            return
        if where[0] == "local":
            ref = where[1].imports.get(name)
            if ref is not None:
                self.use_meaning(node, self.import_ref(ref), context, name)
            return
        if where[0] == "builtin":
            self.use_builtin(node, name, context)
            return
        if where[0] == "undefined":
            meaning = self.star_denotes(name)
            if meaning and meaning[0] == "star":
                self.report(node, "`{}` (perhaps from `from {} import *`: cannot be checked)".format(
                    name, meaning[1]))
            elif meaning:
                self.use_meaning(node, meaning, context, name)
            elif self.checked:
                self.run.undefined.append((self, node))
            return
        bindings = self.module.bindings[name]
        is_unit = name in self.module.units
        if not self.checked:
            if self.annotation:
                return
            where = ".".join(self.label)
            meaning = self.global_denotes(name)
            if meaning and meaning[0] == "member" and self.reflective_member(meaning[1], meaning[2]):
                self.report(node, "`{}` (`{}.{}`: {}: cannot be checked)".format(
                    name, meaning[1], meaning[2], self.reflective_member(meaning[1], meaning[2])))
                return
            self.run.unchecked_reads.append((name, node, where))
            if is_unit and context == "call":
                self.run.unchecked_calls.append((name, node, where))
            if context == "value":
                self.check_value_position(node, name)
            return
        if is_unit and name in self.module.exempt:
            self.report(node, "`{}` (exempt from the rule, so what it does and returns cannot be "
                              "checked)".format(name))
            return
        if is_unit:
            self.calls.append(name)
        alias = self.run.alias_of(name)
        if alias is not None:
            if context != "receiver":
                self.run.report_alias(self, node, name, alias, context)
            return
        meaning = self.global_denotes(name)
        if meaning is not None and meaning[0] == "unit":
            if meaning[1] in self.module.exempt:
                self.report(node, "`{}` (stands for `{}`, exempt from the rule: what it returns "
                                  "cannot be checked)".format(name, meaning[1]))
            elif meaning[1] != name:
                self.calls.append(meaning[1])
            return
        if meaning is not None:
            self.use_meaning(node, meaning, context, name)
            return
        if any(b.kind == "unit" for b in bindings) and all(
                b.kind == "unit" or (b.kind == "value" and isinstance(b.value, ast.Lambda)) for b in bindings):
            return
        # A module-level variable: reach what its values refer to now; judge
        # them once every checked unit is known.
        for b in bindings:
            if b.kind == "value":
                self.calls.extend(self.run.units_in(b.value))
        self.global_reads.append((name, node, context))

    def check_value_position(self, node, name):
        """Outside the checked code, a class, function or module the checked
        code can reach may be called, compared or read, not handed around."""
        meaning = self.global_denotes(name)
        if meaning is None or meaning[0] not in ("unit", "module", "member"):
            return
        if meaning[0] == "member" and self.module.known_module(meaning[1]) and \
                self.module.member(meaning[1], meaning[2])[0] == "safe":
            return
        if meaning[0] == "unit" and meaning[1] not in self.run.reached:
            return
        if self.run.allowed_value_position(node, len(self.scopes) == 1):
            return
        what = {"unit": "a function or class the checked functions use", "module": "a module",
                "member": "a module's member"}[meaning[0]]
        self.report(node, "`{}` used as a value outside the checked functions ({}: cannot be "
                          "checked)".format(name, what))

    def use_meaning(self, node, meaning, context, spelled):
        """A name or attribute that denotes a module, a member or a builtin."""
        kind = meaning[0]
        if kind == "module":
            if context == "value" and self.checked:
                self.report(node, "module `{}` used as a value (its members cannot be "
                                  "checked)".format(meaning[1]))
            return
        if kind == "builtin":
            self.use_builtin(node, meaning[1], context, via=spelled if spelled != meaning[1] else None)
            return
        if kind == "unit":
            self.calls.append(meaning[1])
            return
        if kind != "member":
            return
        module, attr = meaning[1], meaning[2]
        if not self.checked:
            why = self.reflective_member(module, attr)
            if self.annotation:
                if why:
                    self.report(node, "`{}.{}` ({}: cannot be checked)".format(module, attr, why))
                return
            if module == "builtins":
                self.use_builtin(node, attr, context, via=spelled)
            elif why:
                self.report(node, "`{}.{}` ({}: cannot be checked)".format(module, attr, why))
            elif module in ("operator",) and attr in ("attrgetter", "methodcaller") and context != "call":
                self.report(node, "`{}.{}` used as a value (the names it is given cannot be "
                                  "checked)".format(module, attr))
            return
        what = self.module.member(module, attr)
        if what[0] == "builtin":
            self.use_builtin(node, attr, context, via=spelled)
        elif module == "collections":
            self.report(node, "`{}` (a collections type)".format(spelled))
        elif what[0] in ("container", "unknown"):
            self.report(node, what[1])
        elif what[0] == "special" and context != "call":
            self.report(node, "`{}.{}` used as a value (the names it is given cannot be "
                              "checked)".format(module, attr))

    def use_builtin(self, node, name, context, via=None):
        through = " (through `{}`)".format(via) if via else ""
        if name in REFLECTIVE_NAMES:
            self.report(node, "`{}` (reflection: cannot be checked)".format(name))
        elif name in ("getattr", "setattr", "delattr"):
            if context != "call":
                self.report(node, "`{}` used as a value (the names it is given cannot be "
                                  "checked)".format(name))
        elif name in DYNAMIC:
            self.report(node, DYNAMIC[name] + through)
        elif name == "open" and not self.checked:
            self.report(node, "`open()` outside the checked functions (a file it writes could be "
                              "imported in place of a module: cannot be checked)")
        elif name in CALLS:
            if not self.checked:
                if name in ("vars", "globals", "locals"):
                    self.report(node, "`{}()` (reflection: cannot be checked)".format(name))
            elif context == "call":
                self.report(node, CALLS[name] + through)
            elif context == "receiver":
                pass  # the attribute read on it is reported
            elif name in CONTAINER_TYPES or name in ("bytearray", "memoryview"):
                self.report(node, "`{}` (the {} type{})".format(
                    name, name, ", through `{}`".format(via) if via else ""))
            else:
                what = CALLS[name][CALLS[name].index("(") + 1:-1] if "(" in CALLS[name] else "a container"
                self.report(node, "`{}` used as a value{} ({})".format(name, through, what))
        elif name in SAFE_BUILTINS or name in EXCEPTIONS:
            return
        elif self.checked:
            self.report(node, "`{}` (a builtin the checker does not know: cannot be checked)".format(name))

    # -- attributes ------------------------------------------------------------
    def visit_Attribute(self, node):
        if id(node) in self.handled:
            return
        if not isinstance(node.ctx, ast.Load):
            self.store_attribute(node)
            self.visit(node.value)
            return
        self.use_attribute(node, "value")

    def handle_all(self, node):
        for inner in ast.walk(node):
            self.handled.add(id(inner))

    def use_attribute(self, node, context):
        base = node.value
        meaning = self.denotes(base)
        if meaning and meaning[0] == "module":
            self.handle_all(base)
            full = self.import_ref(("member", meaning[1], node.attr))
            if full[0] == "module":
                if context == "value" and self.checked:
                    self.report(node, "module `{}` used as a value (its members cannot be "
                                      "checked)".format(full[1]))
                return
            self.use_meaning(node, full, context, "{}.{}".format(meaning[1], node.attr))
            return
        if isinstance(base, ast.Name):
            self.handled.add(id(base))
            if isinstance(base.ctx, ast.Load):
                self.use_name(base, "receiver")
        else:
            self.visit(base)
        kind = self.container_type(base)
        if kind:
            if not self.checked:
                return
            if context == "call":
                self.report(node, "`{}.{}()` call".format(self.spelled(base), node.attr))
            elif isinstance(base, ast.Name) and self.run.alias_of(base.id):
                self.report(node, "`{}.{}` ({})".format(base.id, node.attr, self.run.alias_of(base.id)))
            else:
                self.report(node, "`{}.{}` (a {} method)".format(self.spelled(base), node.attr, kind))
            return
        self.judge_attribute(node, node.attr, base, context)

    @staticmethod
    def spelled(node):
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, ast.Attribute):
            return Checker.spelled(node.value) + "." + node.attr
        if isinstance(node, ast.Subscript):
            return Checker.spelled(node.value) + "[...]"
        if isinstance(node, ast.Call):
            return Checker.spelled(node.func) + "(...)"
        return "..."

    def judge_attribute(self, node, attr, receiver, context):
        """An attribute read on a value: judged by its name, whatever the
        value is (every value the checked code has is a number, a string, a
        node, one of the student's objects or the like)."""
        self.calls.extend(self.module.class_attrs.get(attr, []))
        if attr in REFLECTIVE_ATTRS:
            self.report(node, "`.{}` (reflection: cannot be checked)".format(attr))
            return
        if is_dunder(attr):
            if attr in SAFE_DUNDERS:
                if attr == "__class__" and not self.checked and not self.annotation:
                    parent = self.run.parents.get(id(node))
                    harmless = isinstance(parent, ast.Compare) or (
                        isinstance(parent, ast.Attribute) and parent.attr in ("__name__", "__qualname__"))
                    if not harmless:
                        self.report(node, "`.__class__` outside the checked functions (a class they "
                                          "can reach: cannot be checked)")
                return
            if self.checked and attr in METHODS:
                self.report(node, METHODS[attr])
            else:
                self.report(node, "`.{}` (reflection: cannot be checked)".format(attr))
            return
        if not self.checked:
            return
        if attr not in METHODS and (attr not in BUILTIN_ATTRS or attr in SAFE_ATTRS):
            return
        # The student's own method or attribute of that name, set anywhere.
        students = attr in self.module.class_attrs or attr in self.module.attribute_stores
        if students and self.run.is_students_object(self, receiver):
            return
        if students and attr in CONTAINER_ONLY and not self.run.is_builtin_value(self, receiver):
            # Only a container has it, and the checked code can hold no
            # container without another finding: this is the student's.
            return
        text = METHODS.get(attr, "`.{}` (an attribute of a builtin type the checker does not "
                                 "know: cannot be checked)".format(attr))
        if students and not self.run.is_builtin_value(self, receiver):
            self.report(node, "{}, or your class's `{}` on a value the checker cannot tell is "
                              "yours (cannot be checked)".format(text, attr))
        else:
            self.report(node, text)

    def store_attribute(self, node):
        """An attribute assigned or deleted."""
        if is_dunder(node.attr):
            self.report(node, "`.{}` assigned or deleted (reflection: cannot be checked)".format(node.attr))
            return
        if self.checked:
            return
        root = node.value
        while isinstance(root, (ast.Attribute, ast.Subscript)):
            if isinstance(root, ast.Attribute) and is_dunder(root.attr):
                break
            root = root.value
        problem = None
        if isinstance(root, ast.Name):
            where = self.resolve(root.id)
            if where[0] == "global":
                meaning = self.global_denotes(root.id)
                if meaning is None:
                    # A module-level variable: whatever it holds, the
                    # checked code may hold too.
                    problem = "module-level `{}`".format(root.id)
                elif meaning[0] == "unit":
                    if meaning[1] in self.run.reached:
                        problem = "`{}`".format(root.id)
                else:
                    problem = "`{}`".format(root.id)
            elif where[0] == "local" and root.id in where[1].imports:
                problem = "module `{}`".format(root.id)
            elif where[0] == "builtin":
                problem = "the builtin `{}`".format(root.id)
        elif not isinstance(root, ast.Constant):
            problem = "a value found by reflection or returned by a call"
        if problem:
            target = self.spelled(node.value)
            if isinstance(root, ast.Name) and target != root.id:
                problem = "`{}`, reached from {}".format(target, problem)
            self.report(node, "`{}.{}` assigned outside the checked functions (changes {}, "
                              "which they can reach: cannot be checked)".format(target, node.attr, problem))

    # -- calls -----------------------------------------------------------------
    def visit_Call(self, node):
        func = node.func
        meaning = self.denotes(func) if isinstance(func, (ast.Name, ast.Attribute)) else None
        special = None
        if meaning and meaning[0] == "builtin" and meaning[1] in ("getattr", "setattr", "delattr", "hasattr"):
            special = ("reflective", meaning[1])
        elif meaning and meaning[0] == "member" and meaning[1] == "builtins" and \
                meaning[2] in ("getattr", "setattr", "delattr", "hasattr"):
            special = ("reflective", meaning[2])
        elif meaning and meaning[0] == "member" and self.module.known_module(meaning[1]) and \
                self.module.member(meaning[1], meaning[2])[0] == "special":
            special = ("special", meaning[2])
        if isinstance(func, ast.Name):
            self.handled.add(id(func))
            if special is None:
                self.use_name(func, "call")
            elif self.resolve(func.id)[0] == "global" and self.checked:
                self.global_reads.append((func.id, func, "call"))
        elif isinstance(func, ast.Attribute):
            self.handled.add(id(func))
            if special is None:
                self.use_attribute(func, "call")
            else:
                self.handle_all(func)
        else:
            self.visit(func)
        if meaning == ("builtin", "type") and not self.checked and not self.annotation:
            parent = self.run.parents.get(id(node))
            harmless = isinstance(parent, ast.Compare) or (
                isinstance(parent, ast.Call) and parent.func is node) or (
                isinstance(parent, ast.Attribute) and isinstance(parent.ctx, ast.Load)) or (
                isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name)
                and parent.func.id in ("isinstance", "issubclass", "print", "str", "repr"))
            if not harmless:
                self.report(node, "`type()` outside the checked functions (a class they can "
                                  "reach, handed around: cannot be checked)")
        if special and special[0] == "reflective":
            self.reflective_call(node, special[1])
        elif special:
            self.special_call(node, special[1])
        for keyword in node.keywords:
            if keyword.arg is None:
                self.uses_container(keyword.value, "`**` unpacking")
        for arg in node.args:
            self.visit(arg)
        for keyword in node.keywords:
            self.visit(keyword.value)

    def reflective_call(self, node, name):
        """`getattr(obj, "name")` and its family: a constant name is checked
        as that attribute of `obj`; a computed one cannot be."""
        if name == "hasattr":
            return
        attr = _constant_name(node)
        if attr is None:
            self.report(node, DYNAMIC[name])
            return
        target = node.args[0] if node.args else None
        if target is None:
            return
        if name in ("setattr", "delattr"):
            fake = ast.copy_location(ast.Attribute(value=target, attr=attr, ctx=ast.Store()), node)
            self.store_attribute(fake)
            return
        meaning = self.denotes(target)
        if meaning and meaning[0] == "module":
            self.handle_all(target)
            self.use_meaning(node, self.import_ref(("member", meaning[1], attr)), "value",
                             "getattr({}, {!r})".format(meaning[1], attr))
        elif self.container_type(target):
            if self.checked:
                self.handle_all(target)
                self.report(node, "`{}.{}` (a {} method)".format(
                    self.spelled(target), attr, self.container_type(target)))
        else:
            self.judge_attribute(node, attr, target, "value")

    def special_call(self, node, which):
        """`operator.attrgetter("a.b")`, `methodcaller("m")`: the names are
        attributes; `itemgetter` with two or more items returns tuples."""
        if which == "itemgetter":
            if len(node.args) > 1 and self.checked:
                self.report(node, "`operator.itemgetter()` with several items (returns tuples)")
            return
        names = node.args if which == "attrgetter" else node.args[:1]
        for arg in names:
            if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                self.report(node, "`operator.{}()` with a computed name (cannot be checked)".format(which))
                return
            for attr in arg.value.split("."):
                self.judge_attribute(node, attr, None, "value")


class Lint:
    """One run of the checker over a parsed module."""

    def __init__(self, source, checked, exempt):
        self.tree = ast.parse(source)
        # Line numbers as `ast` counts them: str.splitlines would also split
        # on form feeds and other separators Python's tokenizer does not count.
        # (`re` is not imported for this: it costs every student's start.)
        self.lines = source.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        self.module = Module(self.tree, self.lines, exempt)
        self.module_scope = Scope(self.tree, "module", self.module.main_guards)
        # A checked function is a root of the walk when a statement of the
        # file binds its name; one no statement binds may still be made at
        # run time (`exec`, a module `__getattr__`).
        self.roots = [c for c in checked if c in self.module.bindings and c not in self.module.exempt]
        self.missing = [c for c in checked if c not in self.module.bindings and c not in self.module.exempt]
        self.postponed = any(
            isinstance(s, ast.ImportFrom) and s.module == "__future__"
            and any(a.name == "annotations" for a in s.names) for s in self.tree.body)
        self.doubt = False
        self.undefined = []
        self.unchecked_reads = []
        self.unchecked_calls = []
        self.annotation_findings = []
        self.reached = set()
        self.skip_ids = set()
        self.parents = self.module.parents
        self._subclass = {}
        self._alias = {}
        self._values = {}
        self._objects = {}
        self.denoted = {}

    # -- questions the walk asks ----------------------------------------------
    def container_subclass(self, class_name, seen=None):
        """The container type a class of the module derives from, or None."""
        if class_name in self._subclass:
            return self._subclass[class_name]
        seen = set() if seen is None else seen
        if class_name in seen:
            return None
        seen.add(class_name)
        found = None
        probe = Checker(self, [MODULE_LEVEL], False)
        for unit in self.module.units.get(class_name, []):
            if not isinstance(unit, ast.ClassDef):
                continue
            for base in unit.bases:
                meaning = probe.denotes(base)
                if not meaning:
                    continue
                if meaning[0] == "builtin" and meaning[1] in CONTAINER_TYPES:
                    found = meaning[1]
                elif meaning[0] == "member" and meaning[1] == "builtins" and meaning[2] in CONTAINER_TYPES:
                    found = meaning[2]
                elif meaning[0] == "member" and meaning[1] == "collections":
                    found = meaning[2]
                elif meaning[0] == "unit":
                    found = self.container_subclass(meaning[1], seen)
                if found:
                    break
        self._subclass[class_name] = found
        return found

    def units_in(self, value):
        """The module's units a module-level value refers to by name."""
        return [n.id for n in ast.walk(value) if isinstance(n, ast.Name) and n.id in self.module.units]

    def is_students_object(self, checker, receiver):
        """Whether `receiver` is known to be an instance of a class of the
        module: `self` in a method, a local only ever bound to calls of
        such classes, such a call, or an attribute only ever set to one."""
        def class_call(value):
            return (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
                    and any(isinstance(u, ast.ClassDef) for u in self.module.units.get(value.func.id, []))
                    and not self.container_subclass(value.func.id))
        if isinstance(receiver, ast.Call):
            return class_call(receiver)
        if isinstance(receiver, ast.Name):
            where = checker.resolve(receiver.id)
            if where[0] != "local":
                return False
            scope = where[1]
            node = scope.node
            if isinstance(node, FUNCTIONS) and isinstance(self.parents.get(id(node)), ast.ClassDef):
                params = node.args.posonlyargs + node.args.args
                if params and params[0].arg == receiver.id and not node.decorator_list:
                    return scope.stores.get(receiver.id, 0) == 0
            values, stores = self.assigned(scope, receiver.id)
            return bool(values) and len(values) == stores and all(class_call(v) for v in values)
        if isinstance(receiver, ast.Attribute):
            values = self.module.attribute_stores.get(receiver.attr, [])
            return bool(values) and all(class_call(v) for v in values)
        return False

    def is_builtin_value(self, checker, receiver, depth=0):
        """Whether `receiver` is visibly a string, a number, or what a method
        of one returns (`"a b".split()`), or a local only bound to such."""
        if depth > 8:
            return False
        if isinstance(receiver, (ast.Constant, ast.JoinedStr)):
            return True
        if isinstance(receiver, ast.BinOp) and isinstance(receiver.left, (ast.Constant, ast.JoinedStr)):
            return True
        if isinstance(receiver, ast.Call):
            if isinstance(receiver.func, ast.Attribute) and receiver.func.attr in METHODS:
                return self.is_builtin_value(checker, receiver.func.value, depth + 1)
            meaning = checker.denotes(receiver.func)
            return bool(meaning) and meaning[0] == "builtin" and meaning[1] in (
                "str", "bytes", "int", "float", "repr", "format", "chr", "hex", "bin", "oct", "ascii")
        if isinstance(receiver, ast.Name):
            where = checker.resolve(receiver.id)
            if where[0] != "local":
                return False
            values, stores = self.assigned(where[1], receiver.id)
            return bool(values) and len(values) == stores and all(
                self.is_builtin_value(checker, v, depth + 1) for v in values)
        return False

    @staticmethod
    def assigned(scope, name):
        """The values a scope assigns to a local name with `=`, and how many
        times it binds (or deletes) the name in all."""
        return scope.values.get(name, []), scope.stores.get(name, 0)

    def allowed_value_position(self, node, module_level):
        """Where a class, function or module may be named outside the
        checked functions: called, compared, in `isinstance`, `except`,
        `raise`, a class's bases, a decorator, or a module-level alias."""
        parent = self.parents.get(id(node))
        if isinstance(parent, ast.Call):
            if parent.func is node:
                return True
            if isinstance(parent.func, ast.Name) and parent.func.id in ("isinstance", "issubclass") \
                    and any(a is node for a in parent.args[1:]):
                return True
        if isinstance(parent, ast.Tuple):
            grand = self.parents.get(id(parent))
            if isinstance(grand, ast.ExceptHandler):
                return True
            if isinstance(grand, ast.Call) and isinstance(grand.func, ast.Name) and \
                    grand.func.id in ("isinstance", "issubclass"):
                return True
        if isinstance(parent, (ast.Compare, ast.ExceptHandler, ast.Raise)):
            return True
        if isinstance(parent, ast.ClassDef) and any(b is node for b in parent.bases):
            return True
        if isinstance(parent, FUNCTIONS + (ast.ClassDef,)) and any(d is node for d in parent.decorator_list):
            return True
        if isinstance(parent, ast.Attribute) and parent.value is node:
            return True
        if module_level and isinstance(parent, ast.Assign) and parent.value is node and all(
                isinstance(t, ast.Name) for t in parent.targets):
            return True
        return False

    def alias_of(self, name):
        """What a module-level alias of a container type, of a builtin that
        makes one, of a container subclass or of a container method stands
        for (`Bag = set`, `class Trail(list)`, `push = Trail.append`)."""
        if name in self._alias:
            return self._alias[name]
        self._alias[name] = None
        probe = Checker(self, [MODULE_LEVEL], True)
        found = None
        for b in self.module.bindings.get(name, []):
            if b.kind == "unit" and isinstance(b.node, ast.ClassDef):
                kind = self.container_subclass(name)
                if kind:
                    found = "subclass of " + kind
            elif b.kind == "import":
                meaning = probe.import_ref(b.detail)
                if meaning[0] == "member" and meaning[1] == "builtins" and meaning[2] in CALLS:
                    found = meaning[2]
                elif meaning[0] == "member" and meaning[1] == "collections":
                    found = None
            elif b.kind == "value" and b.owner is None:
                value = b.value
                if isinstance(value, ast.Attribute):
                    kind = probe.container_type(value.value)
                    if kind and value.attr not in ("__name__", "__doc__"):
                        found = "method {}.{}".format(kind, value.attr)
                        break
                meaning = probe.value_denotes(value, set([name]))
                if meaning and meaning[0] == "builtin" and meaning[1] in CALLS:
                    found = meaning[1]
                elif meaning and meaning[0] == "member" and meaning[1] == "builtins" and meaning[2] in CALLS:
                    found = meaning[2]
                elif meaning and meaning[0] == "unit" and self.container_subclass(meaning[1]):
                    found = "subclass of " + self.container_subclass(meaning[1])
            if found:
                break
        self._alias[name] = found
        return found

    def report_alias(self, checker, node, name, alias, context):
        if alias in CALLS:
            if context == "call":
                checker.report(node, "{} (through `{}`)".format(CALLS[alias], name))
            else:
                checker.report(node, "`{}` (the {} builtin, through `{}`)".format(alias, alias, name))
        else:
            checker.report(node, "`{}{}` ({})".format(name, "()" if context == "call" else "", alias))

    def scan_annotations(self, checker, annotations):
        """Annotations run where they are written (unless the module
        postpones them): reflection there counts, containers do not."""
        if self.postponed or not annotations:
            return
        scan = Checker(self, checker.label, False, annotation=True)
        scan.scopes = list(checker.scopes)
        for annotation in annotations:
            scan.visit(annotation)
        self.annotation_findings.extend(scan.findings)

    # -- module-level variables ------------------------------------------------
    def module_value(self, value, seen):
        """What a value bound outside the checked code is: "const" (numbers,
        strings and the like), "object" (an object the checked code may
        use), ("container", text) or "unknown". `seen`: the names whose
        values are being judged (a name met again cannot be checked)."""
        key = (id(value), frozenset(seen))
        if key not in self._values:
            self._values[key] = self.judge_value(value, frozenset(seen), 0)
        return self._values[key]

    def judge_value(self, v, seen, depth):
        if depth > MAX_CHAIN:
            return "unknown"

        def judge(x):
            return self.judge_value(x, seen, depth + 1)

        def worst(verdicts):
            for verdict in verdicts:
                if verdict not in ("const", "object"):
                    return verdict
            return "object" if "object" in verdicts else "const"

        probe = Checker(self, [MODULE_LEVEL], True)
        if isinstance(v, (ast.Constant, ast.JoinedStr)):
            return "const"
        kind = container_kind(v)
        if kind:
            return ("container", "a {}".format(kind))
        if isinstance(v, ast.UnaryOp):
            return judge(v.operand)
        if isinstance(v, ast.BinOp):
            return worst([judge(v.left), judge(v.right)])
        if isinstance(v, ast.BoolOp):
            return worst([judge(x) for x in v.values])
        if isinstance(v, ast.Compare):
            return worst([judge(v.left)] + [judge(x) for x in v.comparators])
        if isinstance(v, ast.IfExp):
            return worst([judge(v.test), judge(v.body), judge(v.orelse)])
        if isinstance(v, ast.Name):
            if v.id not in self.module.bindings:
                if v.id in SAFE_BUILTINS or v.id in EXCEPTIONS:
                    return "const"
                if v.id in CALLS:
                    return ("container", "the builtin `{}`".format(v.id))
                return "unknown"
            if v.id in seen:
                return "unknown"
            meaning = probe.global_denotes(v.id)
            if meaning and meaning[0] == "unit":
                return "object"
            if meaning and meaning[0] == "member":
                return self.judge_member(meaning)
            verdicts = []
            for b in self.module.bindings[v.id]:
                if b.kind != "value":
                    return "unknown"
                if b.owner is not None:
                    if b.owner not in self.reached:
                        return "unknown"
                    verdicts.append("object")
                else:
                    verdicts.append(self.judge_value(b.value, seen | {v.id}, depth + 1))
            return worst(verdicts)
        if isinstance(v, ast.Attribute):
            meaning = probe.denotes(v)
            if meaning and meaning[0] == "member":
                return self.judge_member(meaning)
            return "unknown"
        if isinstance(v, ast.Call):
            if isinstance(v.func, ast.Attribute) and probe.container_type(v.func.value):
                return ("container", "`{}.{}()` call".format(probe.spelled(v.func.value), v.func.attr))
            meaning = probe.denotes(v.func)
            verdict = worst([judge(a) for a in v.args] + [judge(k.value) for k in v.keywords])
            if verdict not in ("const", "object"):
                return verdict
            if meaning is None:
                return "unknown"
            if meaning[0] == "builtin":
                if meaning[1] in CALLS:
                    return ("container", CALLS[meaning[1]])
                if meaning[1] == "object":
                    return "const"
                if meaning[1] in ("type", "super", "iter", "map", "filter", "reversed"):
                    return "object"
                if meaning[1] in SAFE_BUILTINS or meaning[1] in EXCEPTIONS:
                    return "const"
                return "unknown"
            if meaning[0] == "member":
                what = self.judge_member(meaning)
                if what == "const" and self.module.member(meaning[1], meaning[2])[0] == "course":
                    return "object"
                return what
            if meaning[0] == "unit":
                return "unknown" if meaning[1] in self.module.exempt else "object"
            return "unknown"
        return "unknown"

    def judge_member(self, meaning):
        """A module member's value, as `judge_value` sees values."""
        if not self.module.known_module(meaning[1]):
            return "unknown"
        what = self.module.member(meaning[1], meaning[2])
        if what[0] in ("safe", "course"):
            return "const"
        if what[0] == "builtin":
            if meaning[2] in CALLS:
                return ("container", CALLS[meaning[2]])
            return "const" if meaning[2] in SAFE_BUILTINS or meaning[2] in EXCEPTIONS else "unknown"
        if what[0] == "container":
            return ("container", what[1])
        return "unknown"

    def judge_global(self, checker, name, node, context):
        """A module-level variable the checked code reads: every binding
        outside the checked code must be checkable and hold no container."""
        for b in self.module.bindings[name]:
            if b.kind == "unit" or (b.owner is not None and b.owner in self.reached):
                continue
            if b.kind == "import":
                checker.use_meaning(node, checker.import_ref(b.detail), context, name)
            elif b.kind == "opaque":
                checker.report(node, "module-level `{}` (bound by {} at line {}: cannot be "
                                     "checked)".format(name, b.detail, b.node.lineno))
            elif container_kind(b.value):
                checker.report(node, "module-level {} `{}`".format(container_kind(b.value), name))
            else:
                verdict = self.module_value(b.value, {name})
                if verdict == "unknown":
                    where = " in `{}`".format(b.owner) if b.owner else ""
                    checker.report(node, "module-level `{}` (set at line {}{} to something the "
                                         "checker cannot check)".format(name, b.node.lineno, where))
                elif verdict not in ("const", "object"):
                    checker.report(node, "module-level `{}` ({})".format(name, verdict[1]))

    def bound_otherwise(self, checker, name):
        """A checked function bound by something other than a `def`: a
        value is checked as code of the function (`willfinish = impl` follows
        `impl`); anything else cannot be checked."""
        for b in self.module.bindings[name]:
            if b.owner is None and (b.kind == "unit" or (
                    b.kind == "value" and isinstance(b.value, ast.Lambda))):
                continue
            if b.kind == "value" and b.owner is None:
                checker.visit(b.value)
            elif b.owner is not None:
                checker.report(b.node, "`{}` (set in `{}`, where the checker cannot follow it: "
                                       "cannot be checked)".format(name, b.owner))
            elif b.kind == "import":
                checker.report(b.node, "`{}` (imported: the checker cannot see its code: cannot "
                                       "be checked)".format(name))
            else:
                checker.report(b.node, "`{}` (bound by {}: cannot be checked)".format(name, b.detail))

    def holds_object(self, name):
        """Whether a module-level variable may hold an object other code
        could change (anything but numbers, strings and the like)."""
        if name not in self._objects:
            self._objects[name] = any(
                b.kind == "opaque" or (b.kind == "value" and self.module_value(b.value, {name}) != "const")
                for b in self.module.bindings.get(name, []))
        return self._objects[name]

    # -- the run ---------------------------------------------------------------
    def run(self):
        if self.module.size > MAX_NODES:
            return [{
                "function": MODULE_LEVEL, "line": 1, "column": 1,
                "construct": "the whole file ({} syntax nodes, more than the checker reads: cannot "
                             "be checked)".format(self.module.size),
                "source": self.lines[0].strip()[:MAX_SOURCE] if self.lines else "",
                "path": [], "graded": self.roots + self.missing,
            }]
        walked = {}

        def walk(name):
            if name not in walked:
                checker = Checker(self, [name], True)
                for unit in self.module.units.get(name, []):
                    checker.visit(unit)
                if name in self.roots:
                    self.bound_otherwise(checker, name)
                callees = [c for c in checker.calls if c in self.module.units and c not in self.module.exempt]
                walked[name] = (checker, callees)
            return walked[name]

        # Follow the call graph breadth first from each checked function:
        # `graded` says which checked functions reach a unit, `path` is a
        # shortest chain of calls from the first of them.
        paths = {}
        graded = {}
        for root in self.roots:
            seen = {root}
            queue = [[root]]
            while queue:
                path = queue.pop(0)
                unit = path[-1]
                self.reached.add(unit)
                paths.setdefault(unit, path)
                graded.setdefault(unit, [])
                if root not in graded[unit]:
                    graded[unit].append(root)
                for callee in walk(unit)[1]:
                    if callee not in seen:
                        seen.add(callee)
                        queue.append(path + [callee])
        for name in self.reached:
            for unit in self.module.units.get(name, []):
                self.skip_ids.add(id(unit))
        # The rest of the file, where only reaching through namespaces counts.
        rest = Checker(self, [MODULE_LEVEL], False)
        for stmt in self.tree.body:
            rest.label = [MODULE_LEVEL]
            rest.scopes = [self.module_scope]
            rest.visit(stmt)
        # Module-level variables the checked code reads: what they are bound
        # to, and whether code outside the checked code reaches them too.
        closure = {}
        for name in self.reached:
            todo, seen = [name], {name}
            variables = set()
            while todo:
                unit = todo.pop()
                variables.update(r[0] for r in walked[unit][0].global_reads)
                for callee in walked[unit][1]:
                    if callee not in seen:
                        seen.add(callee)
                        todo.append(callee)
            closure[name] = variables
        reads_outside = {}
        for variable, n, where in self.unchecked_reads:
            reads_outside.setdefault(variable, []).append((n, where))
        for unit, n, where in self.unchecked_calls:
            for variable in closure.get(unit, ()):
                reads_outside.setdefault(variable, []).append((n, where))
        for name in sorted(self.reached):
            checker = walked[name][0]
            judged = set()
            for variable, node, context in checker.global_reads:
                if (variable, id(node)) in judged:
                    continue
                judged.add((variable, id(node)))
                self.judge_global(checker, variable, node, context)
                if not self.holds_object(variable):
                    continue
                outside = reads_outside.get(variable, [])
                if outside:
                    n, where = outside[0]
                    who = "code at module level" if where == MODULE_LEVEL else "`{}`".format(where)
                    checker.report(node, "module-level `{}` (holds an object that {} (line {}), "
                                         "which is not checked, also reaches: cannot be checked)".format(
                                             variable, who, n.lineno))
        reaches = {}
        for name in self.reached:
            todo, seen = [name], {name}
            while todo:
                for callee in walked[todo.pop()][1]:
                    if callee not in seen:
                        seen.add(callee)
                        todo.append(callee)
            reaches[name] = seen
        for unit, n, where in self.unchecked_calls:
            for inner in sorted(reaches.get(unit, ())):
                checker = walked[inner][0]
                for value in checker.handed_out:
                    who = "code at module level" if where == MODULE_LEVEL else "`{}`".format(where)
                    checker.report(value, "`{}` handed out to {} (line {}), which is not checked "
                                          "and could change it: cannot be checked".format(
                                              value.id, who, n.lineno))
                checker.handed_out = []
        dynamic = self.doubt or rest.findings or self.annotation_findings
        if dynamic:
            for checker, node in self.undefined:
                checker.report(node, "`{}` (defined nowhere in the file, which can define names "
                                     "in ways the checker cannot follow: cannot be checked)".format(node.id))
        missing = []
        if dynamic and self.roots:
            first = min((f["line"], f["column"]) for f in rest.findings + self.annotation_findings) \
                if rest.findings or self.annotation_findings else (1, 1)
            for name in self.missing:
                where = ast.copy_location(ast.Pass(), self.tree.body[0]) if self.tree.body else ast.Pass()
                where.lineno, where.col_offset = first[0], 0
                checker = Checker(self, [name], True)
                checker.report(where, "`{}` (defined by no statement of the file, which can define "
                                      "names in ways the checker cannot follow: cannot be "
                                      "checked)".format(name))
                missing.extend(dict(f, path=[name], graded=[name]) for f in checker.findings)
        unique = {}
        for unit, path in paths.items():
            for f in walked[unit][0].findings:
                key = (f["line"], f["column"], f["construct"])
                if key not in unique:
                    unique[key] = dict(f, path=path, graded=graded[unit])
        if self.roots:
            charged = self.roots + [m["function"] for m in missing]
            for f in rest.findings + self.annotation_findings:
                key = (f["line"], f["column"], f["construct"])
                if key not in unique:
                    unique[key] = dict(f, path=[], graded=charged)
            for f in missing:
                unique.setdefault((f["line"], f["column"], f["construct"]), f)
        return capped(sorted(unique.values(), key=lambda f: (f["line"], f["column"], f["construct"])))


def capped(findings):
    """The first MAX_FINDINGS findings, and the first of each checked
    function charged only later: an answer stays small, and every
    function a finding charges is still charged."""
    if len(findings) <= MAX_FINDINGS:
        return findings
    kept = findings[:MAX_FINDINGS]
    charged = {g for f in kept for g in f["graded"]}
    for f in findings[MAX_FINDINGS:]:
        if not set(f["graded"]) <= charged:
            kept.append(f)
            charged.update(f["graded"])
    return kept


def lint(source, checked, exempt):
    return Lint(source, checked, exempt).run()


def main():
    import fcntl
    import json
    in_fd, out_fd = int(sys.argv[1]), int(sys.argv[2])
    reader = os.fdopen(in_fd, "rb")
    fcntl.fcntl(out_fd, fcntl.F_SETFD, fcntl.FD_CLOEXEC)

    def send(message):
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode()
        view = memoryview(data)
        while view:
            view = view[os.write(out_fd, view):]

    send({"type": "ready", "protocol": 2, "runtime": "Python " + sys.version.split()[0],
          "functions": {}})
    send(check(json.loads(reader.readline())))


def check(request):
    """The answer to one lint request: `linted` with the findings, or
    `unreadable`. The driver calls it too, before it imports the student's
    module, so nothing the student's code does can change what it finds."""
    try:
        with open(request["file"], "rb") as f:
            raw = f.read()
        # Exactly what import does with the bytes (importlib's
        # source_to_code): the coding cookie, else UTF-8, decides the
        # encoding, so a file import rejects is unreadable here too.
        compile(raw, os.path.basename(request["file"]), "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
        import importlib.util
        source = importlib.util.decode_source(raw)
    except SyntaxError as exc:
        where = " (line {})".format(exc.lineno) if exc.lineno else ""
        return {"type": "unreadable", "error": "SyntaxError: {}{}".format(exc.msg, where)}
    except (RecursionError, MemoryError, ValueError) as exc:
        return {"type": "unreadable", "error": "{}: {}".format(type(exc).__name__, str(exc)[:200])}
    # The file compiles, so it runs: a file too deep or too large for the
    # checker is not let off the rule, it cannot be checked.
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4000))
    try:
        findings = lint(source, request["checked"], set(request["exempt"]))
    except (RecursionError, MemoryError) as exc:
        findings = [{
            "function": MODULE_LEVEL, "line": 1, "column": 1,
            "construct": "the whole file ({}: too deep or too large for the checker: cannot be "
                         "checked)".format(type(exc).__name__),
            "source": "", "path": [],
            "graded": [c for c in request["checked"] if c not in request["exempt"]],
        }]
    finally:
        sys.setrecursionlimit(limit)
    return {"type": "linted", "findings": findings}


if __name__ == "__main__":
    main()
