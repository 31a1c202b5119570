import type { device as source } from "../en/device.js";
import type { Messages } from "../types.js";

export const device: Messages<typeof source> = {
  loginNote: "Meld u aan om een apparaat of opdrachtregeltoepassing aan uw account te koppelen.",
  "entry.title": "Een apparaat koppelen",
  "entry.text": "Voer de code in die uw apparaat of uw opdrachtregeltoepassing toont.",
  "entry.label": "Code",
  "entry.hint": "Acht letters, bijvoorbeeld WDJB-MJHT; het streepje is optioneel.",
  "entry.continue": "Doorgaan",
  "entry.malformed": "Dit is geen geldige code: een code heeft acht letters, bijvoorbeeld WDJB-MJHT.",
  "entry.unknown": "Deze code is niet geldig, verlopen of al gebruikt. Controleer de code, of begin opnieuw op uw apparaat.",
  "entry.throttled": "Er zijn te veel verkeerde codes ingevoerd. Wacht even voordat u het opnieuw probeert.",
  "confirm.title": "Een apparaat autoriseren",
  "confirm.question": "De toepassing ‘{{name}}’ op een apparaat vraagt toestemming om uw account te gebruiken",
  "confirm.code": "Ga alleen verder als uw apparaat deze code toont: {{code}}",
  "confirm.warning":
    "Als u niet zelf zojuist bent begonnen met aanmelden op een apparaat, probeert iemand u misschien te misleiden om toegang tot uw account te krijgen: weiger.",
  "approved.title": "Apparaat gekoppeld",
  "approved.text": "De toepassing ‘{{name}}’ heeft nu toegang tot uw account. U kunt teruggaan naar uw apparaat.",
  "denied.title": "Toegang geweigerd",
  "denied.text": "Het apparaat heeft geen toegang tot uw account gekregen. U kunt dit venster sluiten.",
};
