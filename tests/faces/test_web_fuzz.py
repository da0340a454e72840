"""Fuzz the HTTP API from its own OpenAPI schema: no input may cause a server error.

Schemathesis generates valid and invalid bodies for every operation. On top of
"never a 5xx", each answer must use a documented status code and content type
and match the documented schema, and a body that violates the schema must be
refused (422; 400 when it is not JSON at all; 413 when it is over the size limit).
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import checks

from unbeatable import api
from unbeatable.web import create_app

CONFIG = schemathesis.Config.from_dict(
    {"checks": {"negative_data_rejection": {"expected-statuses": [400, 413, 422]}}}
)

# A small budget for every game offered but tic-tac-toe (always solved
# exactly) keeps each generated request quick: the schema's examples name
# them, and a Gomoku request at its own budget searches for seconds.
BUDGETS = {name: 0.05 for name in api.OFFERED if name != "tictactoe"}
schema = schemathesis.openapi.from_asgi(
    "/openapi.json", create_app(time_limits=BUDGETS), config=CONFIG
)

CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_schema_conformance,
    checks.negative_data_rejection,
]


@pytest.mark.slow
@schema.parametrize()
@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck), database=None)
def test_api_survives_generated_requests(case: schemathesis.Case) -> None:
    """Every generated request gets a documented, well-formed answer."""
    case.call_and_validate(checks=CHECKS)
