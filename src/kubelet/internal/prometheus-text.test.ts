import assert from "node:assert/strict";
import { test } from "node:test";
import {
  formatValue,
  type MetricFamily,
  parsePrometheusText,
  renderPrometheusText,
} from "./prometheus-text.ts";

const cases: readonly { name: string; families: MetricFamily[]; want: string }[] = [
  {
    name: "a counter without labels gets HELP with its stability level and TYPE",
    families: [
      { name: "a_total", help: "Things.", type: "counter", samples: [{ labels: {}, value: 3 }] },
    ],
    want: "# HELP a_total [ALPHA] Things.\n# TYPE a_total counter\na_total 3\n",
  },
  {
    name: "families sort by name, samples by labels, labels by name",
    families: [
      {
        name: "z",
        help: "Z",
        type: "gauge",
        samples: [
          { labels: { scope: "container", boundary: "uncore_cache" }, value: 1 },
          { labels: { scope: "container", boundary: "physical_cpu" }, value: 0 },
        ],
      },
      { name: "b", help: "B", type: "gauge", samples: [{ labels: {}, value: -2000 }] },
    ],
    want: [
      "# HELP b [ALPHA] B",
      "# TYPE b gauge",
      "b -2000",
      "# HELP z [ALPHA] Z",
      "# TYPE z gauge",
      'z{boundary="physical_cpu",scope="container"} 0',
      'z{boundary="uncore_cache",scope="container"} 1',
      "",
    ].join("\n"),
  },
  {
    name: "a vector never used is left out; label values and help are escaped",
    families: [
      { name: "empty", help: "E", type: "counter", samples: [] },
      {
        name: "s",
        help: 'a\\b\nc "d"',
        type: "gauge",
        stability: "STABLE",
        samples: [{ labels: { v: 'x"y\\z\n' }, value: 0.5 }],
      },
    ],
    want: '# HELP s [STABLE] a\\\\b\\nc "d"\n# TYPE s gauge\ns{v="x\\"y\\\\z\\n"} 0.5\n',
  },
  { name: "no families is an empty text", families: [], want: "" },
];

for (const c of cases) {
  test(`renderPrometheusText: ${c.name}`, () => {
    assert.equal(renderPrometheusText(c.families), c.want);
  });
}

const values: readonly [number, string][] = [
  [0, "0"],
  [382000, "382000"],
  [1_000_000, "1e+06"],
  [1_020_000, "1.02e+06"],
  [-2000, "-2000"],
  [0.5, "0.5"],
  [0.00001, "1e-05"],
  [Number.POSITIVE_INFINITY, "+Inf"],
  [Number.NaN, "NaN"],
];

for (const [value, want] of values) {
  test(`formatValue: ${value} is written as Go's 'g' format writes it`, () => {
    assert.equal(formatValue(value), want);
  });
}

test("parsePrometheusText: reads back the samples a render wrote", () => {
  const text = renderPrometheusText([
    {
      name: "c",
      help: "C",
      type: "counter",
      samples: [
        { labels: {}, value: 7 },
        { labels: { node: "n1" }, value: 1 },
      ],
    },
  ]);
  assert.deepEqual(
    [...parsePrometheusText(text)],
    [
      ["c", 7],
      ['c{node="n1"}', 1],
    ],
  );
});
