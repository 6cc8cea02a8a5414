"""Every JSON answer of the API checked against the OpenAPI document the site serves.

``install(app)`` adds an ``after_request`` hook to a test app: each answer under ``/api/`` is
validated (jsonschema) against the schema the served document gives for its route, method and
status, with every object closed (``additionalProperties: false``), so a field the site sends
but does not declare fails the test as surely as a wrong type. Statuses the document does not
list for a route fail too.
"""

from __future__ import annotations

import copy
from typing import Any

import jsonschema
from flask import Flask, Response, request

from replay_server.api import _openapi_path


def _strict(node: Any) -> Any:
    """OpenAPI 3.0 schema objects as JSON Schema: ``nullable`` as a type, objects closed."""
    if isinstance(node, list):
        return [_strict(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _strict(value) for key, value in node.items()}
    if node.pop("nullable", False):
        if "type" in node:
            node["type"] = [node["type"], "null"]
        elif "$ref" in node or "allOf" in node:
            node = {"anyOf": [{"type": "null"}, node]}
    if node.get("type") == "object" and "properties" in node:
        node.setdefault("additionalProperties", False)
    return node


def install(app: Flask) -> list[tuple[str, int]]:
    """Check every API answer of ``app``; returns the list of (route, status) checked."""
    checked: list[tuple[str, int]] = []
    document: dict[str, Any] = {}

    def check(response: Response) -> Response:
        if not request.path.startswith("/api/") or request.path.endswith("/openapi.json"):
            return response
        if not document:
            from replay_server.api import build_openapi

            document.update(_strict(copy.deepcopy(build_openapi())))
        rule = request.url_rule.rule if request.url_rule is not None else None
        assert response.mimetype == "application/json", (request.path, response.mimetype)
        body = response.get_json()
        if rule is None or request.method not in (request.url_rule.methods or ()):
            schema_ref = "#/components/schemas/Error"  # no route (404, 405): the error shape
        else:
            operation = document["paths"][_openapi_path(rule)][request.method.lower()]
            answers = operation["responses"]
            answer = answers.get(str(response.status_code))
            assert answer is not None, (
                f"{request.method} {rule} answered {response.status_code}, which the OpenAPI "
                f"document does not list (it lists {sorted(answers)})")
            schema_ref = answer["content"]["application/json"]["schema"].get("$ref")
            if schema_ref is None:
                schema = answer["content"]["application/json"]["schema"]
                jsonschema.validate(body, schema)
                checked.append((rule, response.status_code))
                return response
        jsonschema.validate(body, {"$ref": schema_ref, "components": document["components"]},
                            cls=jsonschema.Draft7Validator)
        checked.append((rule or request.path, response.status_code))
        return response

    app.after_request(check)
    return checked
