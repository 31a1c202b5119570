import type { notifications as source } from "../en/notifications.js";
import type { Messages } from "../types.js";

export const notifications: Messages<typeof source> = {
  "login_flow_granted.subject": "Nouvel appareil connecté : {{name}}",
  "login_flow_granted.message":
    "Une application qui se nomme « {{name}} » a reçu l’accès à votre compte par Login Flow, avec un mot de passe d’application. Si ce n’était pas vous, révoquez-le dans vos paramètres personnels et changez votre mot de passe.",
  "oauth_client_authorized.subject": "{{name}} a été autorisée à accéder à votre compte",
  "oauth_client_authorized.message":
    "L’application « {{name}} » peut désormais accéder à votre compte. Si ce n’était pas vous, révoquez son accès dans vos paramètres personnels et changez votre mot de passe.",
  "app_password_created.subject": "Nouveau mot de passe d’application : {{name}}",
  "app_password_created.message":
    "Un mot de passe d’application nommé « {{name}} » a été créé pour votre compte. Si ce n’était pas vous, révoquez-le dans vos paramètres personnels et changez votre mot de passe.",
  "password_changed.subject": "Votre mot de passe a été changé",
  "password_changed.message":
    "Le mot de passe de votre compte a été changé. Si ce n’était pas vous, contactez immédiatement votre administrateur.",
  "second_factor_added.subject": "Second facteur ajouté : {{provider}}",
  "second_factor_added.message":
    "{{provider}} protège désormais votre compte. Si ce n’était pas vous, contactez immédiatement votre administrateur.",
  "second_factor_removed.subject": "Second facteur supprimé : {{provider}}",
  "second_factor_removed.message":
    "{{provider}} ne protège plus votre compte. Si ce n’était pas vous, contactez immédiatement votre administrateur.",
  "settings.title": "Notifications",
  "settings.intro":
    "Keystream vous prévient, dans vos applications de bureau et mobiles, quand quelque chose change qui peut accéder à votre compte. Les messages de votre administrateur vous parviennent toujours.",
  "settings.legend": "Me prévenir quand",
  "settings.switch.login_flow": "un appareil ou une application se connecte par Login Flow",
  "settings.switch.oauth_client": "une application est autorisée à accéder à mon compte",
  "settings.switch.app_password": "un mot de passe d’application est créé",
  "settings.switch.password": "mon mot de passe est changé",
  "settings.switch.second_factor": "un second facteur est ajouté ou supprimé",
  "settings.save": "Enregistrer",
  "settings.saved": "Vos paramètres de notification ont été enregistrés.",
};
