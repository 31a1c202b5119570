import type { Command } from "commander";
import type { AdminResult } from "../../oauth/client-administration.js";
import type { OAuthClient } from "../../oauth/ports.js";
import { type CommandContext, CommandError } from "../context.js";

/** A refused operation becomes exit 1 with ownCloud's message (research A.5). */
function unwrap<T>(result: AdminResult<T>): T {
  if (!result.ok) throw new CommandError(result.message);
  return result.value;
}

/** PHP's json_encode escapes slashes (`http:\/\/localhost:*`); list-clients output keeps that form. */
function phpJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(/\//g, "\\/");
}

function listing(clients: OAuthClient[]): Record<string, Record<string, string | boolean>> {
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
        // Only when registered, so listings of clients without one read as before (issue 15).
        ...(c.postLogoutRedirectUri ? { "post-logout-redirect-url": c.postLogoutRedirectUri } : {}),
      },
    ]),
  );
}

export function registerOAuth2Commands(program: Command, context: CommandContext): void {
  program
    .command("oauth2:add-client")
    .description("Adds an OAuth2 client")
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
    .option("--post-logout-redirect-url <url>", "OpenID Connect: where logout may return to (RP-initiated logout)")
    .action(
      async (
        name: string,
        clientId: string,
        secret: string,
        redirectUri: string,
        allowSubdomains: string,
        trusted: string,
        forceTrust: string | undefined,
        options: { trusted?: string; forceTrust?: string; resourceServer: string; postLogoutRedirectUrl?: string },
      ) => {
        const { oauth } = await context.open();
        unwrap(
          await oauth.clients.add({
            name,
            clientId,
            secret,
            redirectUri,
            allowSubdomains,
            trusted: options.trusted ?? trusted,
            forceTrust: options.forceTrust ?? forceTrust,
            resourceServer: options.resourceServer,
            postLogoutRedirectUri: options.postLogoutRedirectUrl,
          }),
        );
      },
    );

  program
    .command("oauth2:list-clients")
    .description("Lists OAuth2 clients")
    .option("--output <format>", "plain, json or json_pretty", "plain")
    .action(async (options: { output: string }) => {
      if (!["plain", "json", "json_pretty"].includes(options.output)) {
        throw new CommandError(`--output must be plain, json or json_pretty, got "${options.output}"`);
      }
      const { oauth } = await context.open();
      const clients = listing(await oauth.clients.list());
      if (options.output === "plain") {
        for (const [name, fields] of Object.entries(clients)) {
          context.print(`  - ${name}:`);
          for (const [key, value] of Object.entries(fields)) context.print(`    - ${key}: ${String(value)}`);
        }
        return;
      }
      const data = Object.keys(clients).length === 0 ? [] : clients;
      context.print(phpJson(data, options.output === "json_pretty" ? 4 : undefined));
    });

  program
    .command("oauth2:modify-client")
    .description("Modify OAuth2 client details")
    .argument("<name>", "the client's current name")
    .argument(
      "<key>",
      "name, client-id, client-secret, redirect-url, allow-sub-domains, trusted, resource-server or post-logout-redirect-url",
    )
    .argument("<value>", "the new value")
    .option("--force-trust <value>", "true allows trusting a localhost or 127.0.0.1 client (testing only)")
    .action(async (name: string, key: string, value: string, options: { forceTrust?: string }) => {
      const { oauth } = await context.open();
      unwrap(await oauth.clients.modify(name, key, value, options.forceTrust === "true"));
    });

  program
    .command("oauth2:remove-client")
    .description("Removes an OAuth2 client (and at once all its codes and tokens)")
    .argument("<client-id>")
    .action(async (clientId: string) => {
      const { oauth } = await context.open();
      const client = unwrap(await oauth.clients.removeByClientId(clientId));
      context.print(`Client ${client.clientId} has been deleted`);
    });

  program
    .command("oauth2:cleanup")
    .description("Deletes authorization codes, access and refresh tokens one week after their expiry")
    .action(async () => {
      const { oauth } = await context.open();
      const counts = await oauth.cleanup();
      context.print(
        `Deleted ${counts.codes} authorization codes, ${counts.accessTokens} access tokens, ${counts.refreshTokens} refresh tokens and ${counts.grants} empty grants.`,
      );
    });
}
