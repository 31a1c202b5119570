import type { passwordConfirmation as source } from "../en/password-confirmation.js";
import type { Messages } from "../types.js";

export const passwordConfirmation: Messages<typeof source> = {
  title: "Bevestig uw wachtwoord",
  intro:
    "Deze actie geeft een apparaat of toepassing blijvende toegang tot uw account. U hebt uw wachtwoord meer dan {{minutes}} minuten geleden voor het laatst ingevoerd: voer het opnieuw in om door te gaan.",
  fieldHint:
    "U hebt uw wachtwoord meer dan {{minutes}} minuten geleden voor het laatst ingevoerd: voer het opnieuw in om door te gaan.",
  password: "Uw wachtwoord",
  confirm: "Bevestigen en doorgaan",
  wrong: "Het wachtwoord is onjuist.",
  throttled: "Te veel mislukte pogingen. Probeer het later opnieuw.",
};
