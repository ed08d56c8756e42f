import assert from "node:assert/strict";
import { test } from "node:test";
import { ApiError, expired, notFound, type StatusDetails } from "../api/index.ts";
import {
  errorFromResponse,
  fromStatus,
  isConflict,
  isNotFound,
  isResourceExpired,
  isTooLargeResourceVersion,
} from "./errors.ts";

interface Want {
  code: number;
  reason: string;
  message: string;
  details: StatusDetails | undefined;
}

const statusCases: readonly { name: string; status: unknown; httpCode?: number; want: Want }[] = [
  {
    name: "keeps code, reason, message and causes",
    status: {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: 'Pod "p" is invalid: spec.containers: Required value',
      reason: "Invalid",
      details: {
        name: "p",
        kind: "Pod",
        causes: [{ reason: "FieldValueRequired", field: "spec.containers" }],
      },
      code: 422,
    },
    want: {
      code: 422,
      reason: "Invalid",
      message: 'Pod "p" is invalid: spec.containers: Required value',
      details: {
        name: "p",
        kind: "Pod",
        causes: [{ reason: "FieldValueRequired", field: "spec.containers" }],
      },
    },
  },
  {
    name: "round-trips what the server's ApiError wrote",
    status: notFound({ group: "apps", resource: "deployments" }, "web").toStatus(),
    want: {
      code: 404,
      reason: "NotFound",
      message: 'deployments.apps "web" not found',
      details: { name: "web", group: "apps", kind: "deployments" },
    },
  },
  {
    name: "takes the HTTP code when the Status has none",
    status: {
      kind: "Status",
      status: "Failure",
      reason: "Expired",
      message: "too old resource version: 1 (5)",
    },
    httpCode: 410,
    want: {
      code: 410,
      reason: "Expired",
      message: "too old resource version: 1 (5)",
      details: undefined,
    },
  },
  {
    name: "maps an unknown reason to the code's",
    status: { kind: "Status", code: 429, reason: "SomethingNew", message: "slow down" },
    want: { code: 429, reason: "TooManyRequests", message: "slow down", details: undefined },
  },
  {
    name: "uses client-go's message when the Status has none",
    status: { kind: "Status", code: 409 },
    want: {
      code: 409,
      reason: "Conflict",
      message: "the server reported a conflict",
      details: undefined,
    },
  },
  {
    name: "treats a non-Status as an error for the HTTP code",
    status: { kind: "Pod" },
    httpCode: 404,
    want: {
      code: 404,
      reason: "NotFound",
      message: "the server could not find the requested resource",
      details: undefined,
    },
  },
];
for (const c of statusCases) {
  test(`fromStatus: ${c.name}`, () => {
    const error = fromStatus(c.status, c.httpCode);
    assert.ok(error instanceof ApiError, "error instanceof ApiError");
    assert.deepEqual(
      { code: error.code, reason: error.reason, message: error.message, details: error.details },
      c.want,
    );
  });
}

const bodyCases = [
  {
    name: "a plain-text 500 quotes the body",
    code: 500,
    body: "boom",
    want: [
      500,
      "InternalError",
      'an error on the server ("boom") has prevented the request from succeeding',
    ],
  },
  {
    name: "a plain-text 403 keeps the server's text",
    code: 403,
    body: "no access\n",
    want: [403, "Forbidden", "no access"],
  },
  {
    name: "an empty 401 asks for credentials",
    code: 401,
    body: "",
    want: [401, "Unauthorized", "the server has asked for the client to provide credentials"],
  },
  {
    name: "a JSON Status body is decoded",
    code: 410,
    body: JSON.stringify(expired("gone").toStatus()),
    want: [410, "Expired", "gone"],
  },
] as const;
for (const c of bodyCases) {
  test(`errorFromResponse: ${c.name}`, () => {
    const error = errorFromResponse(c.code, c.body);
    assert.deepEqual([error.code, error.reason, error.message], c.want);
  });
}

test("isNotFound, isConflict, isResourceExpired, isTooLargeResourceVersion: classify by reason and code", () => {
  const tooLarge = new ApiError(504, "Timeout", "Too large resource version", {
    causes: [{ reason: "ResourceVersionTooLarge", message: "Too large resource version" }],
  });
  const cases = [
    [notFound({ group: "", resource: "pods" }, "p"), [true, false, false, false]],
    [new ApiError(409, "Conflict", "x"), [false, true, false, false]],
    [expired("old"), [false, false, true, false]],
    [tooLarge, [false, false, false, true]],
    [new Error("plain"), [false, false, false, false]],
  ] as const;
  for (const [error, want] of cases) {
    assert.deepEqual(
      [
        isNotFound(error),
        isConflict(error),
        isResourceExpired(error),
        isTooLargeResourceVersion(error),
      ],
      want,
      error.message,
    );
  }
});
