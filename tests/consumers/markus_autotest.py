"""What MarkUs records from a custom tester's stdout: a port, written for
salgrade's tests, of the parsing and recording in

- MarkUsProject/markus-autotesting at commit
  9396b956b8edc5b651b56d11326397f625683829:
  `server/autotest_server/utils.py` (`loads_partial_json`) and
  `server/autotest_server/__init__.py` (`_create_test_group_result`, and
  `_run_test_specs`, which keeps what a timed-out script printed);
- MarkUsProject/Markus at commit 4401041cde7e11b738f9949e122ea9d287840c47:
  `app/models/test_run.rb` (`update_results!`, `error_type`),
  `app/models/test_result.rb` (its validations) and
  `app/models/submission.rb` (`set_autotest_marks`).

None of their code is copied; each step below says what it follows.

Usage: python3 markus_autotest.py STDOUT_FILE [--criterion-max M] [--timed-out]
Prints one JSON object: what the run became.
"""

import json
import math
import re
import sys


def loads_partial_json(text):
    """The server's decoding of stdout: JSON values one after another, with
    whitespace between them; a value that is not an object, or any other
    non-blank text, marks the output malformed. Python's decoder, as the
    server's, accepts NaN and Infinity."""
    decoder = json.JSONDecoder()
    text = text.strip()
    i, found, malformed = 0, [], False
    while i < len(text):
        try:
            value, end = decoder.raw_decode(text, i)
        except json.JSONDecodeError:
            if text[i].strip():
                malformed = True
            i += 1
            continue
        if isinstance(value, dict):
            found.append(value)
        elif text[i:end].strip():
            malformed = True
        i = end
    return found, malformed


def group_result(stdout, timed_out):
    """The server's test group result: records by their keys, every other
    object a test."""
    objects, malformed = loads_partial_json(stdout)
    result = {
        "tests": [],
        "timeout": 1 if timed_out else None,
        "malformed": stdout if malformed else None,
        "records": [],
    }
    for obj in objects:
        for key in ("annotations", "tags", "extra_marks", "overall_comment"):
            if key in obj:
                result["records"].append(key)
                break
        else:
            result["tests"].append(obj)
    return result


def ruby_json_roundtrip(result):
    """The server hands the result to MarkUs as JSON, which MarkUs parses
    with Ruby's JSON: NaN and Infinity (which Python writes) are refused,
    and the whole run is lost."""
    text = json.dumps(result)

    def refuse(constant):
        raise ValueError(constant)

    try:
        return json.loads(text, parse_constant=refuse)
    except ValueError:
        return None


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def blank(value):
    """Rails's `blank?` for what JSON can hold."""
    if value is None or value is False:
        return True
    if isinstance(value, str):
        return value.strip() == ""
    if isinstance(value, (list, dict)):
        return len(value) == 0
    return False


def numeric(value):
    """Rails's numericality check on a raw value: a number, or a string
    that reads as one."""
    if is_number(value):
        return not (isinstance(value, float) and math.isnan(value))
    if isinstance(value, str):
        return re.fullmatch(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*", value) is not None
    return False


def as_number(value):
    return float(value) if isinstance(value, str) else value


def update_results(tests):
    """`TestRun#update_results!` for one group: each test stored through
    `TestResult`'s validations, or dropped with its error; the stored
    tests' marks added up (a mark that is a numeric string is stored but
    cannot be added: Ruby raises, and the rest of that test's marks are not
    counted)."""
    stored, dropped = [], []
    earned, total = 0, 0
    names = set()
    for test in tests:
        name = test.get("name")
        output = test.get("output")
        if not isinstance(output, str):
            dropped.append({"name": name, "why": "output is not a string"})
            continue
        why = None
        if blank(name):
            why = "blank name"
        elif str(name) in names:
            why = "repeated name"
        elif test.get("status") not in ("pass", "partial", "fail", "error", "error_all"):
            why = "status"
        else:
            for key in ("marks_earned", "marks_total"):
                value = test.get(key)
                if blank(value) and not is_number(value):
                    why = key + " missing"
                elif not numeric(value):
                    why = key + " not a number"
                elif as_number(value) < 0:
                    why = key + " negative"
                if why:
                    break
        if why is None:
            time = test.get("time")
            if time is not None:
                whole = isinstance(time, int) and not isinstance(time, bool)
                whole = whole or (isinstance(time, str) and re.fullmatch(r"[+-]?\d+", time))
                if not whole or int(time) < 0:
                    why = "time not a whole number of ms"
        if why:
            dropped.append({"name": name, "why": why})
            continue
        names.add(str(name))
        stored.append(test)
        if not is_number(test["marks_earned"]):
            continue
        earned += test["marks_earned"]
        if not is_number(test["marks_total"]):
            continue
        total += test["marks_total"]
    return stored, dropped, earned, total


def criterion_mark(earned, total, criterion_max):
    """`Submission#set_autotest_marks` for a flexible criterion fed by one
    test group."""
    if earned == 0 or total == 0:
        return 0.0
    if earned >= total:
        return criterion_max
    return round(earned / total * criterion_max, 2)


def main(argv):
    path = argv[1]
    criterion_max = 100.0
    if "--criterion-max" in argv:
        criterion_max = float(argv[argv.index("--criterion-max") + 1])
    timed_out = "--timed-out" in argv
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        stdout = f.read()
    result = ruby_json_roundtrip(group_result(stdout, timed_out))
    if result is None:
        print(json.dumps({"lost": True}))
        return
    stored, dropped, earned, total = update_results(result["tests"])
    # `error_type`: set only when no test was sent at all; a group with an
    # error type leaves the criterion's mark as it was.
    error_type = None
    if not result["tests"]:
        error_type = "timeout" if result["timeout"] else "no_results"
    print(
        json.dumps(
            {
                "lost": False,
                "malformed": result["malformed"] is not None,
                "records": result["records"],
                "sent": len(result["tests"]),
                "stored": [
                    {
                        "name": t["name"],
                        "status": t["status"],
                        "marks_earned": t["marks_earned"],
                        "marks_total": t["marks_total"],
                        "time": t.get("time"),
                        "output": t["output"],
                    }
                    for t in stored
                ],
                "dropped": dropped,
                "marks_earned": earned,
                "marks_total": total,
                "error_type": error_type,
                "criterion_mark": None
                if error_type
                else criterion_mark(earned, total, criterion_max),
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv)
