import type { loginFlow as source } from "../en/login-flow.js";
import type { Messages } from "../types.js";

export const loginFlow: Messages<typeof source> = {
  loginNote:
    "Une application qui se présente comme « {{name}} » souhaite se connecter à votre compte. Connectez-vous d’abord pour lui donner l’accès.",
  "grant.title": "Connexion à votre compte",
  "grant.request": "Une application demande l’accès à votre compte.",
  "grant.reportedName": "Nom indiqué par l’application",
  "grant.startedFrom": "Lancée depuis l’adresse",
  "grant.startedAt": "Lancée",
  "grant.claim":
    "Ce nom est la description que l’application donne d’elle-même : Keystream ne peut pas le vérifier. L’adresse et l’heure sont ce que Keystream a constaté : n’accordez l’accès que si elles correspondent à l’appareil que vous êtes en train de connecter.",
  "grant.account":
    "Vous êtes connecté en tant que {{user}}. Autoriser l’accès crée un mot de passe d’application pour cette application ; vous pourrez le révoquer dans vos paramètres personnels.",
  "grant.warning":
    "Si vous n’êtes pas vous-même en train de connecter un appareil ou une application, quelqu’un essaie peut-être de vous amener à lui donner accès à vos données : annulez.",
  "grant.allow": "Autoriser l’accès",
  "grant.cancel": "Annuler",
  "done.title": "Compte connecté",
  "done.text":
    "L’application qui se présente comme {{name}} est maintenant connectée à votre compte. Vous pouvez fermer cette fenêtre et revenir à l’application.",
  "cancelled.title": "Accès refusé",
  "cancelled.text": "L’application n’a pas reçu l’accès à votre compte. Vous pouvez fermer cette fenêtre.",
  "invalid.title": "Lien non valide",
  "invalid.text":
    "Ce lien de connexion n’est pas valide, a expiré ou a déjà servi. Recommencez la connexion depuis votre application.",
};
