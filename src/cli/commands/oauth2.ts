import type { Command } from "commander";
import type { OAuthClient } from "../../oauth/ports.js";
import { type CommandContext, valueOrExit } from "../context.js";
import { type OutputFormat, outputOption, printData } from "../output.js";

function isoDate(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

function listing(clients: OAuthClient[], allowedGroups: Map<number, string[]>): Record<string, Record<string, string | boolean>> {
  return Object.fromEntries(
    clients.map((c) => [
      c.name,
      {
        name: c.name,
        "redirect-url": c.redirectUri,
        "client-id": c.clientId,
        "client-secret": c.secret,
        "allow-sub-domains": c.allowSubdomains,
        trusted: c.trusted,
        "resource-server": c.resourceServer,
        // Only when set: ownCloud's listing has no such key.
        ...(c.accountAccess ? { "account-access": true } : {}),
        // Only when registered: a client that does not use OpenID Connect logout lists no extra key.
        ...(c.postLogoutRedirectUri ? { "post-logout-redirect-url": c.postLogoutRedirectUri } : {}),
        // Only when narrowed: a trusted client without the key skips consent for every scope.
        ...(c.trustedScopes ? { "trusted-scopes": c.trustedScopes } : {}),
        // Only for a client that registered itself (RFC 7591): never trusted, deleted after 90 days unused.
        ...(c.registeredAt === undefined
          ? {}
          : {
              "self-registered": true,
              "registered-at": isoDate(c.registeredAt),
              "last-used-at": c.lastUsedAt === undefined ? "never" : isoDate(c.lastUsedAt),
            }),
        // Only when registered (OpenID Connect Back-Channel Logout 1.0).
        ...(c.backchannelLogoutUri ? { "backchannel-logout-url": c.backchannelLogoutUri } : {}),
        // Only when restricted (docs/oauth2.md): a client without the key admits everyone, as ownCloud's.
        ...(allowedGroups.has(c.id) ? { "allowed-groups": (allowedGroups.get(c.id) ?? []).join(",") } : {}),
      },
    ]),
  );
}

const CLEANUP_STEPS = {
  deviceCodes: "device authorizations",
  codes: "authorization codes",
  accessTokens: "access tokens",
  refreshTokens: "refresh tokens",
  grants: "empty grants",
} as const;

export function registerOAuth2Commands(program: Command, context: CommandContext): void {
  program
    .command("oauth2:add-client")
    .summary("add an OAuth2 client")
    .description("Add an OAuth2 client (ownCloud's arguments and messages); prints its name and client id.")
    .argument("<name>", "display name on the consent page")
    .argument("<client-id>", "client identifier, at least 32 characters")
    .argument("<client-secret>", "client secret, at least 32 characters")
    .argument("<redirect-url>", "redirect URI; http://localhost:* allows any port")
    .argument("[allow-sub-domains]", "true or false", "false")
    .argument("[trusted]", "true or false: skip the consent page", "false")
    .argument("[force-trust]", "true allows trusting a localhost or 127.0.0.1 client (testing only)")
    .option("--trusted <value>", "same as the trusted argument")
    .option("--force-trust <value>", "same as the force-trust argument")
    .option("--resource-server <value>", "true or false: may introspect the tokens of every client", "false")
    .option(
      "--account-access <value>",
      "true or false: an ownCloud or Nextcloud client, its tokens have full account access",
      "false",
    )
    .option("--post-logout-redirect-url <url>", "OpenID Connect: where logout may return to (RP-initiated logout)")
    .option("--trusted-scopes <scopes>", "a trusted client skips the consent page only for these scopes (default: all)")
    .option("--backchannel-logout-url <url>", "OpenID Connect: where logout tokens are posted when a session ends")
    .option(
      "--allowed-groups <groups>",
      'only members of these groups (comma-separated) may use it; "" everyone (default: the host setting oauth2.new_clients_allowed_groups)',
    )
    .addOption(outputOption())
    .action(
      async (
        name: string,
        clientId: string,
        secret: string,
        redirectUri: string,
        allowSubdomains: string,
        trusted: string,
        forceTrust: string | undefined,
        options: {
          trusted?: string;
          forceTrust?: string;
          resourceServer: string;
          accountAccess: string;
          postLogoutRedirectUrl?: string;
          trustedScopes?: string;
          backchannelLogoutUrl?: string;
          allowedGroups?: string;
          output: OutputFormat;
        },
      ) => {
        const { oauth } = await context.open({ create: true });
        const client = valueOrExit(
          await oauth.clients.add({
            name,
            clientId,
            secret,
            redirectUri,
            allowSubdomains,
            trusted: options.trusted ?? trusted,
            forceTrust: options.forceTrust ?? forceTrust,
            resourceServer: options.resourceServer,
            accountAccess: options.accountAccess,
            postLogoutRedirectUri: options.postLogoutRedirectUrl,
            trustedScopes: options.trustedScopes,
            backchannelLogoutUri: options.backchannelLogoutUrl,
            allowedGroups: options.allowedGroups,
          }),
        );
        // ownCloud's command prints nothing; one line says what was added (the secret is not repeated).
        printData(context, options.output, { name: client.name, "client-id": client.clientId }, () =>
          context.print(`The client "${client.name}" was added successfully, client id ${client.clientId}`),
        );
      },
    );

  program
    .command("oauth2:list-clients")
    .summary("list OAuth2 clients")
    .description("List the OAuth2 clients with every field, secrets included (as ownCloud's).")
    .addOption(outputOption())
    .action(async (options: { output: OutputFormat }) => {
      const { oauth } = await context.open();
      const all = await oauth.clients.list();
      const clients = listing(all, await oauth.clients.allowedGroups(all));
      // PHP's json_encode of an empty array: `[]`.
      printData(context, options.output, Object.keys(clients).length === 0 ? [] : clients);
    });

  program
    .command("oauth2:modify-client")
    .summary("modify an OAuth2 client")
    .description("Modify one field of an OAuth2 client (ownCloud's keys and messages).")
    .argument("<name>", "the client's current name")
    .argument(
      "<key>",
      "name, client-id, client-secret, redirect-url, allow-sub-domains, trusted, resource-server, account-access, post-logout-redirect-url, trusted-scopes, backchannel-logout-url or allowed-groups (comma-separated groups, empty for everyone)",
    )
    .argument("<value>", "the new value")
    .option("--force-trust <value>", "true allows trusting a localhost or 127.0.0.1 client (testing only)")
    .action(async (name: string, key: string, value: string, options: { forceTrust?: string }) => {
      const { oauth } = await context.open();
      valueOrExit(await oauth.clients.modify(name, key, value, options.forceTrust === "true"));
    });

  program
    .command("oauth2:remove-client")
    .summary("remove an OAuth2 client")
    .description("Remove an OAuth2 client, and at once all its codes and tokens.")
    .argument("<client-id>")
    .action(async (clientId: string) => {
      const { oauth } = await context.open();
      const client = valueOrExit(await oauth.clients.removeByClientId(clientId));
      context.print(`Client ${client.clientId} has been deleted`);
    });

  program
    .command("oauth2:cleanup")
    .summary("delete expired codes and tokens")
    .description(
      "Delete device authorizations, authorization codes, access and refresh tokens one week after their expiry, then the grants " +
        "left empty; each step's count is reported on stderr as it completes.",
    )
    .addOption(outputOption())
    .action(async (options: { output: OutputFormat }) => {
      const { oauth } = await context.open();
      const counts = await oauth.cleanup((step, deleted) =>
        context.progress(`oauth2:cleanup: ${CLEANUP_STEPS[step]}: ${deleted} deleted`),
      );
      printData(context, options.output, { ...counts }, () =>
        context.print(
          `Deleted ${counts.deviceCodes} device authorizations, ${counts.codes} authorization codes, ${counts.accessTokens} access tokens, ${counts.refreshTokens} refresh tokens and ${counts.grants} empty grants.`,
        ),
      );
    });
}
