"""Test harness: response validation against a served OpenAPI document.

    contract = ContractChecker(httpx.get(base + "/api/stats/openapi.json").json())
    contract.check(response)   # body schema for the path and status, documented headers

Templated paths (`/pools/{poolId}`) match one path segment; an undocumented status fails; a
documented header must be present unless documented `required: false`; a HEAD answer has no body.
Needs the `test` extra (jsonschema).
"""
from __future__ import annotations

import re
from typing import Any

import httpx
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

CONTRACT_URI = "urn:api-openapi-contract"


class ContractChecker:
    """The served OpenAPI document as a validator of responses."""

    def __init__(self, doc: dict):
        self.doc = doc
        self.registry = Registry().with_resource(CONTRACT_URI, Resource.from_contents(doc, default_specification=DRAFT202012))

    def deref(self, node: dict) -> dict:
        while isinstance(node, dict) and "$ref" in node:
            target: Any = self.doc
            for part in node["$ref"].removeprefix("#/").split("/"):
                target = target[part.replace("~1", "/").replace("~0", "~")]
            node = target
        return node

    def validate(self, schema: dict, instance: Any) -> None:
        validator = Draft202012Validator(self._anchored(schema), registry=self.registry)
        errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.absolute_path))
        assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:5])

    def _anchored(self, schema: Any) -> Any:
        """Rewrite local refs (#/components/...) to point into the registered document."""
        if isinstance(schema, dict):
            return {k: (f"{CONTRACT_URI}{v}" if k == "$ref" and v.startswith("#") else self._anchored(v)) for k, v in schema.items()}
        if isinstance(schema, list):
            return [self._anchored(v) for v in schema]
        return schema

    def path_item(self, path: str) -> dict:
        """The contract's path item for a concrete path (templates like /pools/{poolId} match one segment)."""
        if path in self.doc["paths"]:
            return self.doc["paths"][path]
        for template, item in self.doc["paths"].items():
            if "{" in template and re.fullmatch(re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(template)), path):
                return item
        return {}

    def response_doc(self, method: str, path: str, status: int) -> dict:
        operation = self.path_item(path).get(method.lower())
        if operation is None:
            name = {404: "NotFound", 405: "MethodNotAllowed"}[status]
            return self.deref(self.doc["components"]["responses"][name])
        responses = operation["responses"]
        assert str(status) in responses, f"{method} {path} answered {status}, which the contract does not document"
        return self.deref(responses[str(status)])

    def check(self, response: httpx.Response) -> None:
        request = response.request
        documented = self.response_doc(request.method, request.url.path, response.status_code)
        content = documented.get("content")
        if content is None or request.method == "HEAD":  # a HEAD answer never has a body
            assert response.content == b""
        else:
            assert response.headers["content-type"].startswith("application/json")
            self.validate(content["application/json"]["schema"], response.json())
        for name, header in documented.get("headers", {}).items():
            header = self.deref(header)
            if header.get("required") is False and name not in response.headers:
                continue  # documented as optional (Content-Encoding); every other header must be sent
            assert name in response.headers, f"documented header {name} missing on {response.status_code}"
            value: Any = response.headers[name]
            if header["schema"].get("type") == "integer":
                value = int(value)
            self.validate(header["schema"], value)


class CheckedClient:
    """A client of a served API whose every answer is checked against its OpenAPI document
    (fetched once from `contract_path`)."""

    def __init__(self, url: str, http: httpx.Client, contract_path: str = "/openapi.json"):
        self.url, self.http = url, http
        self.contract = ContractChecker(http.get(url + contract_path).json())

    def get(self, path: str, **kw) -> httpx.Response:
        r = self.http.get(self.url + path, **kw)
        self.contract.check(r)
        return r

    def data(self, path: str) -> tuple[Any, dict]:
        """The `data` and `meta` of a 200 answer."""
        r = self.get(path)
        assert r.status_code == 200, r.text
        return r.json()["data"], r.json()["meta"]

    def every_row(self, path: str) -> tuple[list[dict], dict]:
        """(every `data.rows` of a paginated route's traversal, its first page's body): `path` with
        its query, followed by pageInfo.nextCursor to the end."""
        rows, cursor, first = [], None, None
        joiner = "&" if "?" in path else "?"
        while True:
            body = self.get(path + (f"{joiner}cursor={cursor}" if cursor else "")).json()
            first = first or body
            rows += body["data"]["rows"]
            cursor = body["pageInfo"]["nextCursor"]
            if not cursor:
                return rows, first
