import type { secondFactor as source } from "../en/second-factor.js";
import type { Messages } from "../types.js";

export const secondFactor: Messages<typeof source> = {
  "provider.totp": "Application d’authentification (TOTP)",
  "provider.backup_codes": "Codes de récupération",
  "provider.webauthn": "Clés d’accès",
  "challenge.title": "Second facteur",
  "challenge.intro": "Votre compte est protégé par un second facteur. Utilisez-en un pour terminer la connexion.",
  "challenge.totpLabel": "Le code à six chiffres affiché par votre application d’authentification",
  "challenge.recoveryLabel": "L’un de vos codes de récupération",
  "challenge.recoveryHint": "Chaque code de récupération ne sert qu’une fois.",
  "challenge.submit": "Vérifier",
  "challenge.wrong": "Le code est incorrect ou a déjà été utilisé.",
  "challenge.throttled": "Trop de tentatives échouées. Veuillez réessayer plus tard.",
  "challenge.none":
    "Aucun des seconds facteurs de votre compte n’est utilisable ici. Demandez à votre administrateur de les réinitialiser.",
  "challenge.cancel": "Annuler et se déconnecter",
  "setup.title": "Configurer un second facteur",
  "setup.intro":
    "Votre administrateur exige un second facteur pour chaque compte. Configurez maintenant une application d’authentification pour terminer la connexion.",
  "setup.doneTitle": "Second facteur configuré",
  "setup.done":
    "Votre application d’authentification est activée. Voici vos codes de récupération : conservez-les en lieu sûr, ils ne sont affichés que cette fois.",
  "setup.continue": "Continuer",
  "totp.scan":
    "Scannez ce code QR avec votre application d’authentification (par exemple Aegis, FreeOTP ou Google Authenticator), ou saisissez-y la clé ci-dessous.",
  "totp.qrLabel": "Code QR de la clé pour votre application d’authentification",
  "totp.secret": "Clé",
  "totp.codeLabel": "Le code que votre application affiche maintenant, pour confirmer",
  "totp.enable": "Activer",
  "totp.wrongCode": "Le code ne correspond pas. Vérifiez que l’horloge de votre appareil est juste et saisissez le code actuel.",
  "settings.title": "Authentification à deux facteurs",
  "settings.intro":
    "Un second facteur protège votre compte même si quelqu’un connaît votre mot de passe. Avec lui, les clients de bureau et mobiles se connectent par le navigateur ou avec un mot de passe d’application.",
  "settings.enforced": "Votre administrateur exige un second facteur pour chaque compte.",
  "settings.totp.enabled": "Activée.",
  "settings.totp.off": "Non configurée.",
  "settings.totp.begin": "Configurer une application d’authentification",
  "settings.totp.cancel": "Annuler la configuration",
  "settings.totp.disable": "Désactiver l’application d’authentification",
  "settings.totp.enabledNotice":
    "L’application d’authentification est activée. Générez maintenant des codes de récupération, au cas où vous perdriez l’appareil.",
  "settings.totp.disabledNotice": "L’application d’authentification a été désactivée, et vos codes de récupération avec elle.",
  "settings.recovery.count": "{{unused}} codes de récupération restants sur {{total}}.",
  "settings.recovery.none": "Aucun code de récupération généré.",
  "settings.recovery.needFactor": "Configurez d’abord une application d’authentification.",
  "settings.recovery.generate": "Générer de nouveaux codes de récupération",
  "settings.recovery.generated":
    "Vos nouveaux codes de récupération. Conservez-les en lieu sûr : ils ne sont affichés que cette fois et chacun ne sert qu’une fois. Vos anciens codes ne fonctionnent plus.",
  "settings.recovery.download": "Les télécharger en fichier texte",
  "settings.recovery.fileIntro": "Codes de récupération Keystream de {{uid}} (chacun sert une fois)",
  "admin.column": "Seconds facteurs",
  "admin.none": "Aucun",
  "admin.remove": "Retirer",
  "admin.removeNamed": "Retirer {{provider}} de {{uid}}",
  "admin.removed": "{{provider}} retiré pour {{uid}}.",
  "admin.noSuch": "L’utilisateur n’a pas ce second facteur.",
};
