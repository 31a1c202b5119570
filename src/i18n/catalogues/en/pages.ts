/** Texts of the HTML pages (src/http/pages/): the source catalogue, English. */
export const pages = {
  "layout.skipToContent": "Skip to main content",
  "layout.logOut": "Log out",
  "layout.reference": "Reference for the administrator:",
} as const;
