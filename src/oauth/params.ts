/** A form parameter's value when it is a single string (the HTTP layer refuses repeated ones). */
export function stringParam(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  return typeof value === "string" ? value : undefined;
}
