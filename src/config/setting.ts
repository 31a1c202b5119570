import fs from "node:fs";
import { Ajv, type ValidateFunction } from "ajv";
import { type Static, type TSchema, Type } from "typebox";

/**
 * One declared setting: its type as a TypeBox (JSON Schema) type, its default and what it means.
 * The same declaration reads a JSON file (the value as it stands), the environment and occ's
 * `--value` (text, coerced by the schema's type, then checked alike), so that a value is either
 * accepted everywhere or refused everywhere with the same "must be …" (a string "false" in the file
 * must not pass where occ would refuse it).
 */
export interface Setting<S extends TSchema = TSchema> {
  readonly schema: S;
  readonly description: string;
  readonly defaultValue: Static<S>;
  /**
   * A check the schema cannot say (a URL's parts) giving the value's normal form; throws a
   * SettingTypeError naming what was expected.
   */
  normalize?(value: Static<S>): Static<S>;
}

/** Thrown by `normalize`: its message completes "must be …". */
export class SettingTypeError extends Error {}

/** What a valid value looks like, read off the schema: "an integer from 0 to 65535". */
export function expectedOf(setting: Setting): string {
  const schema = setting.schema as Record<string, unknown>;
  if (typeof schema.expected === "string") return schema.expected;
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.join(", ")}`;
  const range = (noun: string) => {
    const { minimum, maximum, exclusiveMinimum } = schema as { minimum?: number; maximum?: number; exclusiveMinimum?: number };
    if (exclusiveMinimum !== undefined) return `${noun} greater than ${exclusiveMinimum} and at most ${maximum}`;
    if (minimum !== undefined && maximum !== undefined) return `${noun} from ${minimum} to ${maximum}`;
    return noun;
  };
  const unit = typeof schema.unit === "string" ? schema.unit : undefined;
  switch (schema.type) {
    case "boolean":
      return "a boolean (true or false)";
    case "integer":
      return range(unit ? `a whole number of ${unit}` : "an integer");
    case "number":
      return range(unit ? `a number of ${unit}` : "a number");
    case "array":
      return "a list of strings (a JSON array; comma-separated in the environment)";
    default:
      return "a string";
  }
}

export type Checked = { ok: true; value: unknown } | { ok: false; expected: string };

/**
 * The JSON Schema validator of the declarations: Ajv, the one Fastify validates requests with
 * (already loaded by the server). The schemas are built by the functions below, so they are not
 * checked against the meta-schema, and keywords Ajv does not know are annotations, not errors:
 * `unit` and `expected` (read by expectedOf) and TypeBox's `~kind`. Created, and each declaration
 * compiled, on its first check.
 */
let validator: Ajv | undefined;
const compiled = new WeakMap<TSchema, ValidateFunction>();

function validatorOf(schema: TSchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validator ??= new Ajv({ validateSchema: false, strictSchema: false });
    validate = validator.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/** Checks a value (already typed: from JSON, or coerced from text) against its declaration. */
export function checkSetting(setting: Setting, value: unknown): Checked {
  if (!validatorOf(setting.schema)(value)) return { ok: false, expected: expectedOf(setting) };
  if (!setting.normalize) return { ok: true, value };
  try {
    return { ok: true, value: setting.normalize(value as never) };
  } catch (error) {
    if (error instanceof SettingTypeError) return { ok: false, expected: error.message };
    throw error;
  }
}

/**
 * Text (an environment variable, `--value`) to the schema's type, then checked. Strict on purpose:
 * "80.5" is not an integer and "1e3" not a number of seconds (a plain Number() would take both).
 */
export function settingFromText(setting: Setting, text: string): Checked {
  const type = (setting.schema as { type?: unknown }).type;
  const trimmed = text.trim();
  let value: unknown = text;
  if (type === "boolean") {
    const lowered = trimmed.toLowerCase();
    if (["true", "1", "yes"].includes(lowered)) value = true;
    else if (["false", "0", "no"].includes(lowered)) value = false;
  } else if (type === "integer") {
    if (/^-?\d+$/.test(trimmed)) value = Number(trimmed);
  } else if (type === "number") {
    if (/^-?\d+(\.\d+)?$/.test(trimmed)) value = Number(trimmed);
  } else if (type === "array") {
    value = text
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean);
  }
  return checkSetting(setting, value);
}

/** A value as an operator wrote it, for an error message: `"false" (a string)`. */
export function shown(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  if (typeof value === "string") return `${json} (a string)`;
  if (Array.isArray(value)) return `${json} (a list)`;
  if (value === null) return "null";
  return json;
}

// The declarations' building blocks. `expected`/`unit` are read by expectedOf, ignored by checks.

export function booleanSetting(description: string, defaultValue: boolean): Setting<ReturnType<typeof Type.Boolean>> {
  return { schema: Type.Boolean(), description, defaultValue };
}

export function integerSetting(
  description: string,
  defaultValue: number,
  minimum: number,
  maximum: number,
  unit?: string,
): Setting<ReturnType<typeof Type.Integer>> {
  return { schema: Type.Integer({ minimum, maximum, ...(unit ? { unit } : {}) }), description, defaultValue };
}

export function secondsSetting(
  description: string,
  defaultValue: number,
  maximum: number,
): Setting<ReturnType<typeof Type.Number>> {
  return { schema: Type.Number({ exclusiveMinimum: 0, maximum, unit: "seconds" }), description, defaultValue };
}

export function stringSetting(
  description: string,
  defaultValue: string,
  options: { minLength?: number; expected?: string; normalize?: (value: string) => string } = {},
): Setting<ReturnType<typeof Type.String>> {
  const { normalize, ...schema } = options;
  return { schema: Type.String(schema), description, defaultValue, ...(normalize ? { normalize } : {}) };
}

export function enumSetting<const V extends string>(
  description: string,
  defaultValue: V,
  values: readonly V[],
): Setting & { defaultValue: V } {
  return { schema: Type.Enum([...values]), description, defaultValue };
}

export function stringListSetting(description: string): Setting<ReturnType<typeof Type.Array<ReturnType<typeof Type.String>>>> {
  return { schema: Type.Array(Type.String({ minLength: 1 })), description, defaultValue: [] };
}

/** A process setting: also read from an environment variable, which wins over the file. */
export type VariableSetting = Setting & { readonly variable: string };

export function fromVariable<S extends Setting>(variable: string, setting: S): S & { readonly variable: string } {
  return { ...setting, variable };
}

/**
 * The declared variables that are set (an empty one counts as unset, so `VAR=` leaves the file's value or
 * the default), each coerced from text and checked; a refusal names the variable and what it must be.
 */
export function readVariables(declarations: Readonly<Record<string, VariableSetting>>, env: NodeJS.ProcessEnv): ValidatedObject {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, setting] of Object.entries(declarations)) {
    const raw = env[setting.variable];
    if (raw === undefined || raw === "") continue;
    const checked = settingFromText(setting, raw);
    if (checked.ok) values[key] = checked.value;
    else problems.push(`${setting.variable} must be ${checked.expected}, got "${raw}"`);
  }
  return { values, problems };
}

/** The problems of one read, each naming the key and what it must be. */
export interface ValidatedObject {
  values: Record<string, unknown>;
  problems: string[];
}

/** Validates every key of a JSON object against the declarations; unknown keys are problems too. */
export function validateObject(
  declarations: Readonly<Record<string, Setting>>,
  object: Record<string, unknown>,
): ValidatedObject {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, raw] of Object.entries(object)) {
    const setting = Object.hasOwn(declarations, key) ? declarations[key] : undefined;
    if (!setting) {
      problems.push(`unknown key "${key}" (known keys: ${Object.keys(declarations).join(", ")})`);
      continue;
    }
    const checked = checkSetting(setting, raw);
    if (checked.ok) values[key] = checked.value;
    else problems.push(`"${key}" must be ${checked.expected}, got ${shown(raw)}`);
  }
  return { values, problems };
}

/**
 * Reads a JSON file that must hold an object. A syntax error names the file, line and column
 * (Node's own message gives a character position only).
 */
export function readJsonObject(file: string): Record<string, unknown> {
  const text = fs.readFileSync(file, "utf8");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new SyntaxError(`${file}: invalid JSON ${where(text, (error as Error).message)}: ${(error as Error).message}`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new ConfigurationError(`${file} must hold a JSON object ({ "key": value, … })`);
  }
  return parsed as Record<string, unknown>;
}

function where(text: string, message: string): string {
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (lineColumn) return `at line ${lineColumn[1]}, column ${lineColumn[2]}`;
  const position = /position (\d+)/.exec(message);
  const offset = position ? Number(position[1]) : text.length;
  const before = text.slice(0, offset).split("\n");
  return `at line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
}

/** A configuration that must not be used: the message names the file or variable and the key. */
export class ConfigurationError extends Error {}
