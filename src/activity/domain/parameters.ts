/**
 * Subject and message parameters (docs/spec/activity-api.md, subjectparams): one `{type, value}` per parameter;
 * `collection` holds other parameters. Files may carry their file-cache `id`.
 */
export type ScalarParameter =
  | { type: "file"; value: string; id?: number }
  | { type: "user"; value: string }
  | { type: "federated-cloud-id"; value: string }
  | { type: "parameter"; value: string };

export type CollectionParameter = { type: "collection"; value: ScalarParameter[] };

export type Parameter = ScalarParameter | CollectionParameter;

export const PARAMETER_TYPES = ["file", "user", "federated-cloud-id", "parameter", "collection"] as const;

/**
 * docs/upstream/nextcloud-activity.md §9.1: parameters beyond 4000 characters are "overly long"
 * upstream; we refuse them.
 */
export const MAX_PARAMETER_LENGTH = 4000;
export const MAX_COLLECTION_ITEMS = 100;
export const MAX_PARAMETERS = 20;

/** Validates one parameter; returns the problem, or the normalised parameter. */
export function parseParameter(input: unknown, where: string, insideCollection = false): Parameter | string {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return `${where} must be an object {type, value}`;
  const record = input as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!["type", "value", "id"].includes(key)) return `${where} has an unknown key "${key}"`;
  }
  const { type, value, id } = record;
  if (typeof type !== "string" || !(PARAMETER_TYPES as readonly string[]).includes(type)) {
    return `${where}.type must be one of ${PARAMETER_TYPES.join(", ")}`;
  }
  if (id !== undefined && type !== "file") return `${where}.id is only allowed for a file`;
  if (type === "collection") {
    if (insideCollection) return `${where}: a collection cannot contain a collection`;
    if (!Array.isArray(value) || value.length === 0 || value.length > MAX_COLLECTION_ITEMS) {
      return `${where}.value must be an array of 1 to ${MAX_COLLECTION_ITEMS} parameters`;
    }
    const items: ScalarParameter[] = [];
    for (const [index, item] of value.entries()) {
      const parsed = parseParameter(item, `${where}.value[${index}]`, true);
      if (typeof parsed === "string") return parsed;
      items.push(parsed as ScalarParameter);
    }
    return { type: "collection", value: items };
  }
  if (typeof value !== "string" || value.length > MAX_PARAMETER_LENGTH) {
    return `${where}.value must be a string of at most ${MAX_PARAMETER_LENGTH} characters`;
  }
  if (type === "file") {
    if (id !== undefined && (typeof id !== "number" || !Number.isSafeInteger(id) || id < 0)) {
      return `${where}.id must be a non-negative integer`;
    }
    return id === undefined ? { type, value } : { type, value, id };
  }
  return { type: type as ScalarParameter["type"], value } as ScalarParameter;
}

export function parseParameterList(input: unknown, where: string): Parameter[] | string {
  if (input === undefined) return [];
  if (!Array.isArray(input) || input.length > MAX_PARAMETERS)
    return `${where} must be an array of at most ${MAX_PARAMETERS} parameters`;
  const out: Parameter[] = [];
  for (const [index, item] of input.entries()) {
    const parsed = parseParameter(item, `${where}[${index}]`);
    if (typeof parsed === "string") return parsed;
    out.push(parsed);
  }
  return out;
}

/** Reads a stored JSON parameter list (written by publish, so trusted); anything else is `[]`. */
export function decodeParameters(json: string): Parameter[] {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? (parsed as Parameter[]) : [];
  } catch {
    return [];
  }
}

export function sameParameter(a: Parameter, b: Parameter): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
