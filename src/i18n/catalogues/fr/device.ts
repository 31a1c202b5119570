import type { device as source } from "../en/device.js";
import type { Messages } from "../types.js";

export const device: Messages<typeof source> = {
  loginNote: "Connectez-vous pour relier un appareil ou une application en ligne de commande à votre compte.",
  "entry.title": "Connecter un appareil",
  "entry.text": "Saisissez le code affiché par votre appareil ou votre application en ligne de commande.",
  "entry.label": "Code",
  "entry.hint": "Huit lettres, par exemple WDJB-MJHT ; le tiret est facultatif.",
  "entry.continue": "Continuer",
  "entry.malformed": "Ce code n’est pas valide : un code comporte huit lettres, par exemple WDJB-MJHT.",
  "entry.unknown": "Ce code n’est pas valide, a expiré ou a déjà été utilisé. Vérifiez-le, ou recommencez depuis votre appareil.",
  "entry.throttled": "Trop de codes erronés ont été saisis. Veuillez patienter un moment avant de réessayer.",
  "confirm.title": "Autoriser un appareil",
  "confirm.question": "L’application « {{name}} » sur un appareil demande l’autorisation d’accéder à votre compte",
  "confirm.code": "Ne continuez que si votre appareil affiche ce code : {{code}}",
  "confirm.warning":
    "Si vous n’êtes pas vous-même en train de vous connecter sur un appareil, quelqu’un essaie peut-être de vous amener à lui donner accès à votre compte : refusez.",
  "approved.title": "Appareil connecté",
  "approved.text": "L’application « {{name}} » a désormais accès à votre compte. Vous pouvez retourner sur votre appareil.",
  "denied.title": "Accès refusé",
  "denied.text": "L’appareil n’a pas obtenu l’accès à votre compte. Vous pouvez fermer cette fenêtre.",
};
