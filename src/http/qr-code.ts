import { rawHtml, type SafeHtml } from "./html.js";

/**
 * `text` as a QR code in inline SVG (the `qrcode` library's renderer: paths with presentation
 * attributes only, no script and no style attribute, so the page's CSP holds). Error correction M,
 * the usual for key URIs; the four-module quiet zone the QR specification asks for. The library
 * (with its dependencies, ≈ 30 modules) is loaded at the first code drawn: most starts never draw one.
 */
export async function qrCodeSvg(text: string): Promise<SafeHtml> {
  const { default: QRCode } = await import("qrcode");
  const svg = await QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 4 });
  // The library's own markup, made from `text` as module paths: no text of `text` appears in it.
  return rawHtml(svg.trim().replace(/^<svg /, '<svg aria-hidden="true" focusable="false" '));
}
