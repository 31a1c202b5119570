import { assetSource, type HashedAsset, hashedAsset } from "../hashed-assets.js";

/**
 * The one stylesheet of every page (src/http/assets/keystream.css), served as a file by
 * http/routes/assets.ts so the CSP needs no `'unsafe-inline'` for styles and the CSS never passes
 * through the HTML escaper (which would turn the font stack's quotes into `&quot;` and every page
 * serif).
 *
 * Colours are chosen for WCAG 2.2 AA (docs/decisions.md): text ≥ 4.5:1, control borders and focus
 * rings ≥ 3:1 (1.4.11), targets at least 24×24 CSS px (2.5.8).
 */
export const STYLESHEET_DIR = "/index.php/apps/keystream/css";
/** The stylesheet's bytes under their URL: the content hash in the name busts caches on every change. */
export const STYLESHEET: HashedAsset = hashedAsset(STYLESHEET_DIR, "keystream", "css", assetSource("keystream.css").trim());
export const STYLESHEET_PATH = STYLESHEET.path;
