import assert from "node:assert/strict";

/** One sample of the Prometheus text exposition format (version 0.0.4). */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  /** `# TYPE` of each metric family. */
  types: Map<string, string>;
  samples: Sample[];
  /** The value of the one sample with this name and (at least) these labels; undefined when absent. */
  value(name: string, labels?: Record<string, string>): number | undefined;
  /** Samples with this name and (at least) these labels. */
  find(name: string, labels?: Record<string, string>): Sample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?\s*/gy;

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  let position = 0;
  while (position < text.length) {
    LABEL.lastIndex = position;
    const match = LABEL.exec(text);
    assert.ok(match, `malformed labels in: ${line}`);
    labels[match[1] as string] = (match[2] as string).replace(/\\(["\\n])/g, (_, c: string) => (c === "n" ? "\n" : c));
    position = LABEL.lastIndex;
  }
  return labels;
}

function parseValue(text: string, line: string): number {
  if (text === "+Inf") return Number.POSITIVE_INFINITY;
  if (text === "-Inf") return Number.NEGATIVE_INFINITY;
  if (text === "NaN") return Number.NaN;
  const value = Number(text);
  assert.ok(!Number.isNaN(value), `malformed value in: ${line}`);
  return value;
}

/**
 * Parses the text format strictly (every line a comment, blank, or a well-formed sample, and every
 * sample of a family declared by `# TYPE`), so a test fails on output Prometheus would reject.
 */
export function parseExposition(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    if (line.startsWith("#")) {
      const type = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
      if (type) types.set(type[1] as string, type[2] as string);
      else assert.match(line, /^# HELP \S+ /, `unknown comment: ${line}`);
      continue;
    }
    const match = SAMPLE.exec(line);
    assert.ok(match, `malformed sample: ${line}`);
    const name = match[1] as string;
    const family = name.replace(/_(bucket|sum|count|total|created)$/, "");
    assert.ok(types.has(name) || types.has(family), `sample of an undeclared family: ${line}`);
    samples.push({ name, labels: parseLabels(match[2] ?? "", line), value: parseValue(match[3] as string, line) });
  }
  const find = (name: string, labels: Record<string, string> = {}) =>
    samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return {
    types,
    samples,
    find,
    value(name, labels) {
      const found = find(name, labels);
      assert.ok(found.length <= 1, `${found.length} samples of ${name} ${JSON.stringify(labels)}`);
      return found[0]?.value;
    },
  };
}
