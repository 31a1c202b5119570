import type { passwordConfirmation as source } from "../en/password-confirmation.js";
import type { Messages } from "../types.js";

export const passwordConfirmation: Messages<typeof source> = {
  title: "Confirmez votre mot de passe",
  intro:
    "Cette action donne à un appareil ou à une application un accès durable à votre compte. Vous avez saisi votre mot de passe pour la dernière fois il y a plus de {{minutes}} minutes : saisissez-le de nouveau pour continuer.",
  fieldHint:
    "Vous avez saisi votre mot de passe pour la dernière fois il y a plus de {{minutes}} minutes : saisissez-le de nouveau pour continuer.",
  password: "Votre mot de passe",
  confirm: "Confirmer et continuer",
  wrong: "Le mot de passe est incorrect.",
  throttled: "Trop de tentatives échouées. Veuillez réessayer plus tard.",
};
