/**
 * The peer for the benchmarks: panva's oidc-provider (OpenID-certified), in-memory adapter, one
 * confidential client with client_secret_basic, refresh-token rotation on, PKCE off for the
 * confidential client — the same client set-up Keystream is measured with.
 *
 * It is a child process started by bench/run.ts. `POST /bench/seed?kind=code|refresh|access&n=N`
 * mints N artefacts through the provider's own models (as its interaction flow would), so the
 * load only measures the token/userinfo endpoints. Loopback only.
 */
import http from "node:http";
import Provider from "oidc-provider";
import MemoryAdapter from "oidc-provider/lib/adapters/memory_adapter.js";

const port = Number(process.env.PORT ?? 0);
const issuer = `http://127.0.0.1:${port}`;
export const PEER_CLIENT = {
  client_id: "bench-client-0123456789abcdef0123456789",
  client_secret: "bench-secret-0123456789abcdef0123456789abcdef",
  redirect_uris: ["http://127.0.0.1:9/cb"],
};

/**
 * The provider's own in-memory adapter, over an unbounded store. Its default store is an LRU of
 * 1000 entries: a pool of pre-minted codes (two entries each, with the grant) would be evicted
 * before use and every exchange would fail with invalid_grant. Same adapter code, no eviction.
 */
class UnboundedStore {
  private readonly entries = new Map<string, { value: unknown; expiry: number | undefined }>();
  get(key: string): unknown {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiry !== undefined && entry.expiry <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }
  set(key: string, value: unknown, options?: { maxAge?: number }): void {
    this.entries.set(key, { value, expiry: options?.maxAge === undefined ? undefined : Date.now() + options.maxAge });
  }
  delete(key: string): void {
    this.entries.delete(key);
  }
}
const store = new UnboundedStore();

const provider = new Provider(issuer, {
  adapter: (model: string) => new MemoryAdapter(model, store),
  clients: [
    {
      ...PEER_CLIENT,
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
    },
  ],
  pkce: { required: () => false },
  features: { devInteractions: { enabled: false } },
  scopes: ["openid", "offline_access", "profile", "email"],
  findAccount: async (_ctx: unknown, sub: string) => ({
    accountId: sub,
    claims: async () => ({ sub, name: "Bench User", email: "bench@example.com" }),
  }),
  issueRefreshToken: async () => true,
  rotateRefreshToken: () => true,
  ttl: { AccessToken: 3600, AuthorizationCode: 600, RefreshToken: 90 * 86400, Grant: 90 * 86400 },
});
provider.proxy = false;

/**
 * Keystream issues no ID tokens, so code and refresh artefacts are minted without `openid` (the
 * peer then signs no JWT either: like for like). Userinfo needs `openid` at the peer.
 */
function scopeFor(kind: string): string {
  return kind === "access" ? "openid profile email" : "offline_access";
}

async function newGrant(scope: string): Promise<string> {
  const grant = new provider.Grant({ accountId: "bench-user", clientId: PEER_CLIENT.client_id });
  grant.addOIDCScope(scope);
  return grant.save();
}

async function seed(kind: string, n: number): Promise<string[]> {
  const client = await provider.Client.find(PEER_CLIENT.client_id);
  if (!client) throw new Error("bench client missing");
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const scope = scopeFor(kind);
    const grantId = await newGrant(scope);
    const common = { accountId: "bench-user", client, grantId, scope };
    if (kind === "code") {
      const code = new provider.AuthorizationCode({ ...common, redirectUri: PEER_CLIENT.redirect_uris[0] });
      out.push(await code.save());
    } else if (kind === "refresh") {
      const refresh = new provider.RefreshToken({ ...common, gty: "authorization_code" });
      out.push(await refresh.save());
    } else {
      const access = new provider.AccessToken({ ...common, gty: "authorization_code" });
      out.push(await access.save());
    }
  }
  return out;
}

const callback = provider.callback();
const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? "/", issuer);
  if (req.method === "POST" && url.pathname === "/bench/seed") {
    seed(url.searchParams.get("kind") ?? "code", Number(url.searchParams.get("n") ?? 1)).then(
      (values) => {
        // The garbage of minting is collected now, before the run, not during it (started with
        // --expose-gc): Keystream's pool is minted in another process and costs its server nothing.
        (globalThis as { gc?: () => void }).gc?.();
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(values));
      },
      (error: Error) => {
        res.writeHead(500).end(error.message);
      },
    );
    return;
  }
  callback(req, res);
});
server.listen(port, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ listening: (server.address() as { port: number }).port })}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
