import type { ClientFields } from "./client-rules.js";

/**
 * ownCloud's three default clients (owncloud/oauth2 migration Version20170329194544,
 * docs/upstream/owncloud-oauth2.md A.4), seeded once on a fresh install so the official
 * desktop, Android and iOS apps work out of the box. Their ids and secrets are published in
 * ownCloud's source, so they identify the apps, they do not protect anything. Remove any of them
 * with `./occ oauth2:remove-client <client-id>`: the seed runs once per install and never again.
 * Since their secrets are public, they are never resource servers: they may introspect only the
 * tokens issued to themselves. They have full account access (`accountAccess`): the apps sync files
 * with tokens they request with sign-in scopes.
 */
export const DEFAULT_CLIENTS: readonly ClientFields[] = [
  {
    name: "Desktop Client",
    redirectUri: "http://localhost:*",
    clientId: "xdXOt13JKxym1B1QcEncf2XDkLAexMBFwiT9j6EfhhHFJhs2KM9jbjTmf8JBXE69",
    secret: "UBntmLjC2yYCeHwsyj73Uwo9TAaecAetRwMw0xYcvNL9yRdLSUi0hUAHfvCHFeFh",
    allowSubdomains: false,
    trusted: false,
    resourceServer: false,
    accountAccess: true,
  },
  {
    name: "Android",
    redirectUri: "oc://android.owncloud.com",
    clientId: "e4rAsNUSIUs0lF4nbv9FmCeUkTlV9GdgTLDH1b5uie7syb90SzEVrbN7HIpmWJeD",
    secret: "dInFYGV33xKzhbRmpqQltYNdfLdJIfJ9L5ISoKhNoT9qZftpdWSP71VrpGR9pmoD",
    allowSubdomains: false,
    trusted: false,
    resourceServer: false,
    accountAccess: true,
  },
  {
    name: "iOS",
    redirectUri: "oc://ios.owncloud.com",
    clientId: "mxd5OQDk6es5LzOzRvidJNfXLUZS2oN3oUFeXPP8LpPrhx3UroJFduGEYIBOxkY1",
    secret: "KFeFWWEZO9TkisIQzR3fo7hfiMXlOpaqP8CFuTbSHzV1TUuGECglPxpiVKJfOXIx",
    allowSubdomains: false,
    trusted: false,
    resourceServer: false,
    accountAccess: true,
  },
];
