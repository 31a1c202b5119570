import pino from "pino";
import { ManualClock } from "../../src/clock.js";
import { HostSettings } from "../../src/config/host-settings.js";
import { createServices, type Services } from "../../src/services.js";
import { createTestStorage, type TestStorage } from "./storage.js";

/** The services on real storage, without the HTTP application: for tests that ask a service, not a page. */
export interface TestServices {
  services: Services;
  clock: ManualClock;
  testStorage: TestStorage;
  close(): Promise<void>;
}

/** The services as createTestApp (support/app.ts) wires them, with a manual clock, and no app built. */
export async function createTestServices(): Promise<TestServices> {
  const testStorage = await createTestStorage();
  const clock = new ManualClock();
  const services = createServices({
    storage: testStorage.storage,
    dataDir: testStorage.dataDir,
    clock,
    settings: new HostSettings(testStorage.dataDir),
    log: pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" }),
  });
  return { services, clock, testStorage, close: () => testStorage.cleanup() };
}
