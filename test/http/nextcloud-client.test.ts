import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { basicAuthFor, fileEvent, publish } from "../activity/support.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { accepted } from "../support/results.js";

/**
 * The server surface the Nextcloud desktop client 3.7 reads, request by request as it sends them
 * (research/nextcloud-desktop-client.md §1–§5, §7); the client itself is driven in
 * test/clients/nextcloud-desktop.test.ts. Each test is named after the rule it holds.
 */

/** `major.minor.patch` of a status.php version as both clients compare it. */
function versionTriple(version: string): [number, number, number] {
  const [major = 0, minor = 0, patch = 0] = version.split(".").map(Number);
  return [major, minor, patch];
}

function atLeast(version: string, major: number): boolean {
  return versionTriple(version)[0] >= major;
}

/** The headers the client's JSON jobs send (research §1.2, §4.1). */
const CLIENT_HEADERS = {
  "ocs-apirequest": "true",
  "user-agent": "Mozilla/5.0 (Linux) mirall/3.7.3git (Nextcloud, debian-6.1.0 ClientArchitecture: x86_64 OsArchitecture: x86_64)",
};

describe("the Nextcloud desktop client's server surface", () => {
  let t: TestApp;
  let alice: string;

  before(async () => {
    t = await createTestApp();
    accepted(await t.services.users.create({ uid: "alice", displayName: "Alice Ä. Example", email: "alice@example.org" }));
    alice = await basicAuthFor(t, "alice");
  });
  after(() => t.close());

  it("status.php makes the Nextcloud client choose Login Flow v2 and keeps the ownCloud client in its supported OAuth mode", async () => {
    const response = await t.app.inject({ method: "GET", url: "/status.php" });
    assert.equal(response.statusCode, 200);
    // Both clients read only the first 4 KiB and need the key `installed` (research §1.3).
    assert.ok(Buffer.byteLength(response.body) <= 4096, `${Buffer.byteLength(response.body)} bytes`);
    const body = response.json();
    assert.equal(body.installed, true);
    assert.equal(body.maintenance, false);
    // Nextcloud 3.7: Login Flow v2 from 16.0.0 on, and 16 is also its lowest supported server.
    assert.ok(atLeast(body.version, 16), `version ${body.version} gives the Nextcloud client Login Flow v2`);
    // ownCloud 2.11: supported from 10 on, unless version-productname ends in "Nextcloud".
    assert.ok(atLeast(body.version, 10), `version ${body.version} is supported by the ownCloud client`);
    assert.doesNotMatch(`${body.version}-${body.productname}`, /Nextcloud$/);
    // The capabilities repeat the same version (the client re-reads core.status.version, §1.3).
    const capabilities = await t.app.inject({
      method: "GET",
      url: "/ocs/v1.php/cloud/capabilities?format=json",
      headers: CLIENT_HEADERS,
    });
    const ocs = capabilities.json().ocs;
    assert.equal(ocs.data.capabilities.core.status.version, body.version);
    assert.equal(ocs.data.version.major, versionTriple(body.version)[0]);
  });

  it("the client's unauthenticated probe of the server root is not a Basic or Bearer challenge (that would force its Basic page)", async () => {
    const response = await t.app.inject({ method: "GET", url: "/", headers: CLIENT_HEADERS });
    assert.notEqual(response.statusCode, 401);
    assert.equal(response.headers["www-authenticate"], undefined);
  });

  it("cloud/user answers an app password with compact OCS v1 JSON: statuscode 100 as the client's regex reads it, id and display-name", async () => {
    const response = await t.app.inject({
      method: "GET",
      url: "/ocs/v1.php/cloud/user?format=json",
      headers: { ...CLIENT_HEADERS, authorization: alice },
    });
    assert.equal(response.statusCode, 200);
    // The client takes the status with the regex "statuscode":(\d+) on the raw text (research §3.3).
    assert.match(response.body, /"statuscode":100[,}]/);
    assert.doesNotMatch(response.body, /": /, "compact JSON, no space after a colon");
    const data = response.json().ocs.data;
    assert.equal(data.id, "alice");
    assert.equal(data["display-name"], "Alice Ä. Example");
  });

  it("the capabilities carry the activity, notifications and notify_push keys and nothing Keystream does not serve (no desktoplogin, user status, E2E, direct editing)", async () => {
    for (const [url, auth] of [
      // Auth-type detection asks v2 without credentials (research §1.2 step 2c); the validator v1 with them (§3.1).
      ["/ocs/v2.php/cloud/capabilities?format=json", undefined],
      ["/ocs/v1.php/cloud/capabilities?format=json", alice],
    ] as const) {
      const response = await t.app.inject({
        method: "GET",
        url,
        headers: { ...CLIENT_HEADERS, ...(auth ? { authorization: auth } : {}) },
      });
      assert.equal(response.statusCode, 200, url);
      assert.doesNotMatch(response.body, /": /, `${url}: compact JSON`);
      const capabilities = response.json().ocs.data.capabilities;
      assert.ok("activity" in capabilities, `${url}: the activity key enables the tray's Activity list (§4.6)`);
      // Push of activities and notifications both: the client stops polling them (usermodel.cpp checkPushNotificationsAreReady).
      assert.deepEqual(capabilities.notify_push?.type, ["files", "activities", "notifications"], `${url}: notify_push`);
      // The notifications API is served: the tray's notification request goes to it (§4.7).
      assert.deepEqual(capabilities.notifications?.["ocs-endpoints"], [
        "list",
        "get",
        "delete",
        "delete-all",
        "icons",
        "rich-strings",
      ]);
      for (const absent of ["globalscale", "user_status", "end-to-end-encryption"]) {
        assert.equal(capabilities[absent], undefined, `${url}: ${absent}`);
      }
      assert.equal(capabilities.files?.directEditing, undefined, `${url}: files.directEditing`);
    }
  });

  it("routes Keystream does not implement answer 404, never 401, to a valid app password (any 401 signs the client out)", async () => {
    // Research §3.6 and §5: what the client calls besides the routes Keystream serves.
    const calls: [method: "GET" | "POST" | "DELETE", url: string][] = [
      ["GET", "/ocs/v2.php/core/navigation/apps?absolute=true&format=json"],
      ["GET", "/ocs/v2.php/apps/user_status/api/v1/user_status?format=json"],
      ["GET", "/ocs/v2.php/apps/files/api/v1/directEditing?format=json"],
      ["GET", "/ocs/v2.php/search/providers?format=json"],
      ["GET", "/index.php/avatar/alice/128"],
      ["GET", "/remote.php/dav/avatars/alice/128.png"],
      ["GET", "/index.php/apps/theming/img/core/filetypes/text.svg"],
      ["POST", "/index.php/core/wipe/check"],
    ];
    for (const [method, url] of calls) {
      const response = await t.app.inject({
        method,
        url,
        headers: { ...CLIENT_HEADERS, authorization: alice },
        ...(method === "POST" ? { payload: { token: "whatever" } } : {}),
      });
      assert.equal(response.statusCode, 404, `${method} ${url} answered ${response.statusCode}: ${response.body}`);
      assert.equal(response.headers["www-authenticate"], undefined, `${method} ${url}`);
    }
  });

  it("the tray's notifications request (format=json, then If-None-Match) answers 200 with the list, then 304", async () => {
    // Research §4.7: gui/tray/notificationhandler.cpp; a 401 would sign the client out.
    const url = "/ocs/v2.php/apps/notifications/api/v2/notifications?format=json";
    await t.services.notifications.adminMessage("alice", { short: "Hello from the administrator", long: "" });
    const first = await t.app.inject({ method: "GET", url, headers: { ...CLIENT_HEADERS, authorization: alice } });
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.json().ocs.meta.statuscode, 200);
    assert.equal(first.json().ocs.data[0].subject, "Hello from the administrator");
    const again = await t.app.inject({
      method: "GET",
      url,
      headers: { ...CLIENT_HEADERS, authorization: alice, "if-none-match": String(first.headers.etag) },
    });
    assert.equal(again.statusCode, 304);
  });

  it("the activity stream answers the client's request (previews=true&since&limit&format=json) with previews [] on every element, integer ids and rich subjects", async () => {
    accepted(await t.services.users.create({ uid: "carol", displayName: "Carol" }));
    const carol = await basicAuthFor(t, "carol");
    const published: number[] = [];
    // Three different subjects: alike activities close in time would be grouped into one element.
    const kinds = [
      { type: "file_created", subject: "created_self" },
      { type: "file_changed", subject: "changed_self" },
      { type: "file_deleted", subject: "deleted_self" },
    ];
    for (const [i, kind] of kinds.entries()) {
      t.clock.advance(60);
      const [id] = await publish(
        t,
        fileEvent("carol", {
          ...kind,
          subjectparams: [{ type: "file", value: `/report-${i}.odt`, id: 40 + i }],
          object_id: 40 + i,
          object_name: `/report-${i}.odt`,
        }),
      );
      published.push(id!);
    }
    const url = (since: number) => `/ocs/v2.php/apps/activity/api/v2/activity?previews=true&since=${since}&limit=2&format=json`;
    const first = await t.app.inject({ method: "GET", url: url(0), headers: { ...CLIENT_HEADERS, authorization: carol } });
    assert.equal(first.statusCode, 200);
    const page = first.json().ocs.data as Record<string, unknown>[];
    assert.deepEqual(
      page.map((e) => e.activity_id),
      [published[2], published[1]],
      "newest first",
    );
    for (const element of page) {
      assert.ok(Number.isInteger(element.activity_id) && (element.activity_id as number) > 0);
      assert.ok(Number.isInteger(element.object_id));
      assert.deepEqual(element.previews, [], "previews is an empty list when there are none");
      const [template, parameters] = element.subject_rich as [string, Record<string, { type: string; id: string; name: string }>];
      // Every {placeholder} has its parameter: a missing one trips the client's debug assertion (research §4.2).
      for (const placeholder of template.matchAll(/\{([^}]+)\}/g)) {
        assert.ok(parameters[placeholder[1]!], `parameter ${placeholder[1]} of ${template}`);
        assert.equal(typeof parameters[placeholder[1]!]!.name, "string");
      }
      assert.equal(typeof element.icon, "string");
      assert.ok(element.objects !== undefined);
    }
    // The client's next request is since=<the last element's id>: the next older page (research §4.1).
    const next = await t.app.inject({
      method: "GET",
      url: url(page.at(-1)!.activity_id as number),
      headers: { ...CLIENT_HEADERS, authorization: carol },
    });
    assert.deepEqual(
      (next.json().ocs.data as { activity_id: number; previews: unknown }[]).map((e) => [e.activity_id, e.previews]),
      [[published[0], []]],
    );
    // Without previews=true the field is absent, as upstream answers.
    const plain = await t.app.inject({
      method: "GET",
      url: "/ocs/v2.php/apps/activity/api/v2/activity?format=json",
      headers: { ...CLIENT_HEADERS, authorization: carol },
    });
    assert.ok((plain.json().ocs.data as Record<string, unknown>[]).every((e) => !("previews" in e)));
    // previews=false and previews=0 are PHP false (research §2).
    for (const value of ["false", "0", ""]) {
      const off = await t.app.inject({
        method: "GET",
        url: `/ocs/v2.php/apps/activity/api/v2/activity?previews=${value}&format=json`,
        headers: { ...CLIENT_HEADERS, authorization: carol },
      });
      assert.ok(
        (off.json().ocs.data as Record<string, unknown>[]).every((e) => !("previews" in e)),
        `previews=${value}`,
      );
    }
  });

  it("an app password revokes itself with DELETE /ocs/v2.php/core/apppassword (the client's account removal); other credentials cannot", async () => {
    accepted(await t.services.users.create({ uid: "dave", displayName: "Dave" }));
    accepted(await t.services.users.setPassword("dave", "dave's account password 1"));
    const removed = accepted(await t.services.appPasswords.create("dave", "Desktop to remove"));
    const kept = accepted(await t.services.appPasswords.create("dave", "Phone"));
    const basic = (secret: string) => `Basic ${Buffer.from(`dave:${secret}`).toString("base64")}`;
    const remove = (authorization: string) =>
      t.app.inject({
        method: "DELETE",
        url: "/ocs/v2.php/core/apppassword?format=json",
        headers: { ...CLIENT_HEADERS, authorization },
      });

    // The account password is not an app password: 403, nothing revoked.
    const withPassword = await remove(basic("dave's account password 1"));
    assert.equal(withPassword.statusCode, 403);
    assert.equal(withPassword.json().ocs.meta.statuscode, 403);

    const response = await remove(basic(removed.secret));
    assert.equal(response.statusCode, 200);
    assert.match(response.body, /"statuscode":200/);
    // That app password no longer works; the user's other one does.
    const again = await t.app.inject({
      method: "GET",
      url: "/ocs/v1.php/cloud/user?format=json",
      headers: { ...CLIENT_HEADERS, authorization: basic(removed.secret) },
    });
    assert.equal(again.statusCode, 401);
    assert.deepEqual(
      (await t.services.appPasswords.list("dave")).map((p) => p.name),
      ["Phone"],
    );
    const other = await t.app.inject({
      method: "GET",
      url: "/ocs/v1.php/cloud/user?format=json",
      headers: { ...CLIENT_HEADERS, authorization: basic(kept.secret) },
    });
    assert.equal(other.statusCode, 200);
  });
});
