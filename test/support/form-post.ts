import assert from "node:assert/strict";

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };
const htmlUnescaped = (text: string): string => text.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] ?? entity);

/**
 * The form of a `response_mode=form_post` page (OAuth 2.0 Form Post Response Mode §2) read as a
 * browser would submit it: the form's action and its hidden fields, HTML-unescaped.
 */
export function formPostOf(page: string): { action: string; params: URLSearchParams } {
  const form = /<form method="post" action="([^"]*)" id="form-post">([\s\S]*?)<\/form>/.exec(page);
  assert.ok(form, `a form_post page: ${page.slice(0, 400)}`);
  const params = new URLSearchParams();
  for (const input of (form[2] ?? "").matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    params.append(htmlUnescaped(input[1] ?? ""), htmlUnescaped(input[2] ?? ""));
  }
  return { action: htmlUnescaped(form[1] ?? ""), params };
}
