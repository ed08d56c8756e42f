"""Shared helpers for the Python client end-to-end scripts.

Each script prints one JSON object on stdout: one entry per step, holding the step's result
or {"error": "..."} when it failed, for the TypeScript test to assert on. A script whose steps
did not all succeed names them on stderr and exits 1; one that fails outside a step exits 1
with the reason and prints nothing on stdout.
"""

import json
import sys
import traceback

from kubernetes.client.exceptions import ApiException


class Steps:
    """Runs named steps, keeping each one's result or error so one failure hides no other."""

    def __init__(self):
        self.results = {}
        self.failed = []

    def run(self, name, step):
        try:
            self.results[name] = step()
        except ApiException as error:
            self.results[name] = {"error": f"{error.status} {error.reason}: {error.body}"}
            self.failed.append(name)
        except Exception as error:  # noqa: BLE001 - every failure is reported per step
            self.results[name] = {"error": f"{type(error).__name__}: {error}"}
            self.failed.append(name)
            traceback.print_exc(file=sys.stderr)
        return self.results[name]


def run(main):
    """Runs main(argv, steps), prints the steps' results as JSON, exits 1 if any failed."""
    steps = Steps()
    try:
        main(sys.argv[1:], steps)
    except Exception as error:  # noqa: BLE001 - report any failure to the test
        sys.stderr.write(f"{type(error).__name__}: {error}\n")
        traceback.print_exc(file=sys.stderr)
        sys.exit(1)
    sys.stdout.write(json.dumps(steps.results, sort_keys=True) + "\n")
    if steps.failed:
        sys.stderr.write(f"failed steps: {', '.join(steps.failed)}\n")
        sys.exit(1)


def api_failure(call, *args, **kwargs):
    """Calls an API method that must fail; returns its HTTP status and parsed Status body."""
    try:
        call(*args, **kwargs)
    except ApiException as error:
        return {"status": error.status, "body": json.loads(error.body) if error.body else None}
    raise AssertionError(f"{call.__name__} succeeded; an ApiException was expected")


def names(items):
    return sorted(item.metadata.name for item in items)
