import { createRequire } from "node:module";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { buildInfo } from "../product.js";

/** Seconds: from a fast userinfo (≈ 1 ms) to the statement timeout's order of magnitude. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds: a statement is usually well under a millisecond. */
const QUERY_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1, 5];
/** Seconds: background jobs delete in batches, from milliseconds to minutes. */
const JOB_BUCKETS = [0.01, 0.1, 1, 10, 60, 300, 1800];

/**
 * prom-client's default metrics (its collectDefaultMetrics list, 15.1.3) without `gc`: the GC
 * metric's PerformanceObserver cost 8–10 % of a userinfo request's CPU (docs/performance.md), as
 * a busy server scavenges hundreds of times a second. collectDefaultMetrics has no way to leave one
 * out, so the modules are loaded one by one; a missing one (a prom-client upgrade) fails at start,
 * and test/http/server-logs.test.ts checks the series.
 */
const PROCESS_METRICS = [
  "processCpuTotal",
  "processStartTime",
  "osMemoryHeap",
  "processOpenFileDescriptors",
  "processMaxFileDescriptors",
  "eventLoopLag",
  "processResources",
  "processHandles",
  "processRequests",
  "heapSizeAndUsed",
  "heapSpacesSizeAndUsed",
  "version",
];

type DefaultMetric = (registry: Registry, config: { eventLoopMonitoringPrecision: number }) => void;

/** The route label of a request no route matched (a 404): one series, whatever the URL. */
export const UNMATCHED_ROUTE = "(unmatched)";

/** Live credentials, counted when scraped (storage/stores/observability/metrics-store.ts). */
export interface LiveCredentialCounts {
  sessions: number;
  accessTokens: number;
  refreshTokens: number;
}

/** What the metrics read from storage at scrape time; plain numbers, no prom-client outside this module. */
export interface StorageGauges {
  /** PostgreSQL pool connections; absent on SQLite (one connection, no pool). */
  pool?: () => { total: number; idle: number; waiting: number };
  /** Outages of the database so far and whether one is going on (storage/driver/availability.ts). */
  availability: () => { unavailable: boolean; outages: number; failures: number };
  /** Live sessions and tokens: a count query per scrape. */
  liveCredentials: () => Promise<LiveCredentialCounts>;
}

/**
 * Every Prometheus metric of one server, in a Registry of its own (never prom-client's
 * global one: two apps in one process, as in the tests, keep separate counts). The HTTP and
 * storage layers record into it through the methods below; domain code never sees it. Recording
 * is an increment or an observation on a label set (a few hundred ns); what costs more (counting
 * sessions and tokens) runs only when scraped.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly httpRequests: Histogram<"method" | "route" | "status_code">;
  private readonly tokenRequests: Counter<"grant_type" | "outcome">;
  private readonly throttled: Counter<"throttle" | "action">;
  private readonly jobRuns: Counter<"job" | "outcome">;
  private readonly jobDuration: Histogram<"job">;
  private readonly queryDuration: Histogram;
  private readonly queryErrors: Counter;
  private processMetrics = false;

  constructor() {
    const registers = [this.registry];
    this.httpRequests = new Histogram({
      name: "keystream_http_request_duration_seconds",
      help: "HTTP requests by method, route pattern and status, and their latency (the _count is the number of requests)",
      labelNames: ["method", "route", "status_code"],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.tokenRequests = new Counter({
      name: "keystream_oauth_token_requests_total",
      help: "Token endpoint answers by grant_type and outcome (success, an RFC 6749 error code, or throttled)",
      labelNames: ["grant_type", "outcome"],
      registers,
    });
    this.throttled = new Counter({
      name: "keystream_throttle_total",
      help: "Throttled attempts by throttle (login, oauth) and action (refused: 429 past the ceiling; delayed)",
      labelNames: ["throttle", "action"],
      registers,
    });
    this.jobRuns = new Counter({
      name: "keystream_job_runs_total",
      help: "Background job runs on this node by job and outcome (success, failure)",
      labelNames: ["job", "outcome"],
      registers,
    });
    this.jobDuration = new Histogram({
      name: "keystream_job_duration_seconds",
      help: "Background job run time",
      labelNames: ["job"],
      buckets: JOB_BUCKETS,
      registers,
    });
    // No labels: an observation without labels costs a fifth of a labelled one, and a request
    // runs several statements.
    this.queryDuration = new Histogram({
      name: "keystream_db_query_duration_seconds",
      help: "Database statement durations (every statement, failed ones included)",
      buckets: QUERY_BUCKETS,
      registers,
    });
    this.queryErrors = new Counter({
      name: "keystream_db_query_errors_total",
      help: "Database statements that failed (constraint violations included; outages are keystream_db_outages_total)",
      registers,
    });
    // The Prometheus "info" pattern (a constant 1, the facts in labels), as Prometheus' own
    // prometheus_build_info: which release and commit each node runs.
    new Gauge({
      name: "keystream_build_info",
      help: "Always 1; version (package.json) and commit (recorded by npm run build) of the running build",
      labelNames: ["version", "commit"],
      registers,
    }).set(buildInfo(), 1);
  }

  /** One answered HTTP request; `route` is the route pattern (bounded), never the URL. */
  observeRequest(method: string, route: string | undefined, statusCode: number, milliseconds: number): void {
    this.httpRequests.observe({ method, route: route ?? UNMATCHED_ROUTE, status_code: String(statusCode) }, milliseconds / 1000);
  }

  /** One token endpoint answer; `grantType` must already be a bounded value (see http/routes/oauth-api.ts). */
  tokenRequest(grantType: string, outcome: string): void {
    this.tokenRequests.inc({ grant_type: grantType, outcome });
  }

  throttleRefused(throttle: string): void {
    this.throttled.inc({ throttle, action: "refused" });
  }

  throttleDelayed(throttle: string): void {
    this.throttled.inc({ throttle, action: "delayed" });
  }

  jobRan(job: string, outcome: "success" | "failure", milliseconds: number): void {
    this.jobRuns.inc({ job, outcome });
    this.jobDuration.observe({ job }, milliseconds / 1000);
  }

  observeQuery(milliseconds: number, failed: boolean): void {
    this.queryDuration.observe(milliseconds / 1000);
    if (failed) this.queryErrors.inc();
  }

  /** Gauges read from storage when scraped: the pool, outages, live sessions and tokens. */
  watchStorage(source: StorageGauges): void {
    const registers = [this.registry];
    const pool = source.pool;
    if (pool) {
      new Gauge({
        name: "keystream_db_pool_connections",
        help: "PostgreSQL pool connections by state (total, idle, waiting: requests waiting for a connection)",
        labelNames: ["state"],
        registers,
        collect() {
          const stats = pool();
          this.set({ state: "total" }, stats.total);
          this.set({ state: "idle" }, stats.idle);
          this.set({ state: "waiting" }, stats.waiting);
        },
      });
    }
    new Gauge({
      name: "keystream_db_unavailable",
      help: "1 while the database is unavailable (an outage: requests answered 503), else 0",
      registers,
      collect() {
        this.set(source.availability().unavailable ? 1 : 0);
      },
    });
    new Counter({
      name: "keystream_db_outages_total",
      help: "Database outages since start (each logged once as database_unavailable)",
      registers,
      collect() {
        this.reset();
        this.inc(source.availability().outages);
      },
    });
    new Counter({
      name: "keystream_db_unavailable_failures_total",
      help: "Requests and jobs that met an unavailable database since start",
      registers,
      collect() {
        this.reset();
        this.inc(source.availability().failures);
      },
    });
    new Gauge({
      name: "keystream_live_credentials",
      help: "Unexpired login sessions, access tokens and refresh tokens (counted in the database when scraped)",
      labelNames: ["kind"],
      registers,
      async collect() {
        // The database away: the series keep their last values; keystream_db_unavailable says why.
        const counts = await source.liveCredentials().catch(() => undefined);
        if (!counts) return;
        this.set({ kind: "session" }, counts.sessions);
        this.set({ kind: "access_token" }, counts.accessTokens);
        this.set({ kind: "refresh_token" }, counts.refreshTokens);
      },
    });
  }

  /**
   * prom-client's process metrics (CPU, memory, event loop lag, handles; not GC: PROCESS_METRICS)
   * in this registry, once: they install observers that live as long as the process, so only the
   * server asks.
   */
  collectProcessMetrics(): void {
    if (this.processMetrics) return;
    this.processMetrics = true;
    const load = createRequire(import.meta.url);
    for (const name of PROCESS_METRICS) {
      (load(`prom-client/lib/metrics/${name}`) as DefaultMetric)(this.registry, { eventLoopMonitoringPrecision: 10 });
    }
  }

  /** The Prometheus text exposition format (version 0.0.4). */
  get contentType(): string {
    return this.registry.contentType;
  }

  exposition(): Promise<string> {
    return this.registry.metrics();
  }
}
