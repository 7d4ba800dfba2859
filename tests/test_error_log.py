"""The suite's own guard (tests/conftest.py, `error_log`): an ERROR the bot logs fails the test that caused
it, unless the test declared it; a declared ERROR that never comes fails too."""

from __future__ import annotations

import pytest

INNER = '''
import logging

import pytest

def fall_back():
    # What bot.sessions.session does when the AI crashes: log, then play the first legal move.
    logging.getLogger("bot.sessions.session").error("the AI failed to choose a move; playing the first legal move")

def test_undeclared():
    fall_back()

@pytest.mark.logs_error("the AI failed")
def test_declared():
    fall_back()

@pytest.mark.logs_error("could not chart game")
def test_declared_but_never_logged():
    pass

def test_quiet():
    logging.getLogger("bot").warning("a warning is not an error")
'''


@pytest.mark.logs_error("the AI failed")  # the inner run logs into this test's log too
def test_an_error_the_test_did_not_declare_fails_it(pytester: pytest.Pytester) -> None:
    pytester.makeconftest("from tests.conftest import *  # noqa: F403")
    pytester.makepyprojecttoml('[tool.pytest.ini_options]\nasyncio_default_fixture_loop_scope = "function"\n')
    pytester.makepyfile(test_inner=INNER)

    recorded = pytester.inline_run("-p", "no:cacheprovider")

    reports = recorded.getreports("pytest_runtest_logreport")
    # The guard checks when the test's fixtures are torn down, so that is where the failure is reported.
    outcomes = {report.nodeid.split("::")[-1]: report for report in reports if report.when == "teardown"}
    assert outcomes["test_undeclared"].failed
    assert "logged at ERROR: bot.sessions.session: the AI failed" in outcomes["test_undeclared"].longreprtext
    assert outcomes["test_declared"].passed
    assert outcomes["test_declared_but_never_logged"].failed
    assert "never logged: ['could not chart game']" in outcomes["test_declared_but_never_logged"].longreprtext
    assert outcomes["test_quiet"].passed
