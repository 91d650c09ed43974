# SPDX-License-Identifier: GPL-3.0-or-later
"""The tally of the CLI's Python tests: one line per check, "ok" or "FAIL" with why."""


class Checks:
    def __init__(self):
        self.passed = self.failed = 0

    def report(self, what, problem):
        """problem: None when the check passed, else what went wrong."""
        print(f"ok   {what}" if problem is None else f"FAIL {what}: {problem}")
        self.passed += problem is None
        self.failed += problem is not None
