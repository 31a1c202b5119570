import type { DatabaseKind } from "./options.js";
import type { Report } from "./report.js";

/** What every scenario gets: one database kind, the load duration, where to create PostgreSQL databases. */
export interface ScenarioContext {
  database: DatabaseKind;
  durationSeconds: number;
  postgresAdminUrl: string | undefined;
}

export type Scenario = (context: ScenarioContext) => Promise<Report>;
