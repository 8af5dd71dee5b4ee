"""What PrairieLearn records and shows from an external grader's
`results.json`: a port, written for salgrade's tests, of
PrairieLearn/PrairieLearn at commit 88fb8556a7a1768e2082736be9095241b11238d7:

- `apps/grader-host/src/index.ts` (`runJob`) and
  `apps/prairielearn/src/lib/externalGraderLocal.ts`: the file is read only
  when the container exited 0 and did not time out, refused over 1 MiB,
  and parsed as JSON (JavaScript's parser: no NaN, no Infinity);
- `apps/prairielearn/src/lib/externalGraderCommon.ts` (`makeGradingResult`):
  `succeeded`, `results`, the score (absent or null counts as 0, a
  non-number fails the job) and `format_errors`;
- `apps/prairielearn/src/lib/externalGrader.ts` (`processGradingResult`):
  gradable only when the job succeeded and `results.gradable` is not false,
  and then only with a finite score in [0, 1];
- `apps/prairielearn/elements/pl-external-grader-results/
  pl-external-grader-results.py` (`render`): the score shown, and per-test
  points only when every test has `points` and `max_points`.

None of their code is copied.

Usage: python3 prairielearn.py EXIT_CODE RESULTS_JSON
Prints one JSON object: what was recorded and what the element shows.
"""

import json
import math
import os
import sys

LIMIT = 1024 * 1024


def read_results(exit_code, path):
    """The grader host: `succeeded`, `results` and `message`."""
    job = {"succeeded": exit_code == 0}
    if not job["succeeded"]:
        job["results"] = None
        return job
    try:
        data = open(path, "rb").read()
    except OSError:
        job["succeeded"] = False
        job["message"] = "Could not read grading results."
        return job
    if len(data) > LIMIT:
        job["succeeded"] = False
        job["message"] = "The grading results were larger than 1MB."
        return job

    def refuse(constant):
        raise ValueError(constant)

    try:
        job["results"] = json.loads(data.decode("utf-8"), parse_constant=refuse)
    except ValueError:
        job["succeeded"] = False
        job["message"] = "Could not parse the grading results."
    return job


def make_grading_result(job):
    """`makeGradingResult`: the score and the feedback kept."""
    if not job["succeeded"]:
        return {"score": 0, "feedback": job}
    results = job.get("results")
    if not results:
        return {"score": 0, "feedback": {"succeeded": False, "message": "no results"}}
    score = 0
    if results.get("score") is not None:
        s = results["score"]
        if isinstance(s, (int, float)) and not isinstance(s, bool) and not math.isnan(s):
            score = s
        else:
            return {"score": 0, "feedback": {"succeeded": False, "message": "score not a number"}}
    return {"score": score, "feedback": job}


def process_grading_result(grading):
    """`processGradingResult`: whether the submission is gradable, and the
    score recorded (None when it is not gradable)."""
    feedback = grading["feedback"]
    job_succeeded = bool(feedback.get("succeeded"))
    results = feedback.get("results") or {}
    score = grading["score"]
    if not bool(results.get("succeeded", True)):
        score = 0
    gradable = job_succeeded and bool(results.get("gradable", True))
    why = None
    if gradable:
        if not isinstance(score, (int, float)) or not math.isfinite(score):
            gradable, why = False, "score is not a number"
        elif score < 0 or score > 1:
            gradable, why = False, "score is out of range"
    return {"gradable": gradable, "score": score if gradable else None, "why": why}


def round_value(value, digits=2):
    return f"{value:.{digits}f}".rstrip("0").rstrip(".")


def render_element(feedback):
    """The results element's view of a graded submission: what it shows,
    or the error it raises."""
    results = feedback.get("results")
    if not (bool(feedback.get("succeeded")) and results):
        return {"shown": "grading failed", "message": feedback.get("message")}
    view = {"gradable": results.get("gradable", True)}
    try:
        view["score_percent"] = round_value(results.get("score", 0) * 100)
        tests = results.get("tests")
        view["tests"] = []
        if tests:
            missing = any(
                t.get("points") is None or t.get("max_points") is None for t in tests
            )
            view["tests_missing_points"] = missing
            if not missing:
                view["points"] = round_value(sum(t["points"] for t in tests))
                view["max_points"] = round_value(sum(t["max_points"] for t in tests))
            for t in tests:
                shown = {"name": t.get("name", "")}
                if not missing:
                    shown["points"] = round_value(t.get("points"))
                    shown["max_points"] = round_value(t.get("max_points"))
                view["tests"].append(shown)
        view["has_message"] = bool(results.get("message"))
        view["has_output"] = bool(results.get("output"))
        view["format_errors"] = results.get("format_errors", [])
    except (TypeError, ValueError) as e:
        view["broken"] = str(e)
    return view


def main(argv):
    exit_code = int(argv[1])
    path = argv[2]
    job = read_results(exit_code, path)
    grading = make_grading_result(job)
    recorded = process_grading_result(grading)
    print(
        json.dumps(
            {
                "bytes": os.path.getsize(path) if os.path.exists(path) else None,
                "job_succeeded": job["succeeded"],
                "message": job.get("message"),
                "recorded": recorded,
                "element": render_element(grading["feedback"]),
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv)
