import type { DatabaseConnection, Dialect, Driver } from "kysely";
import { raisedByDatabase } from "./availability.js";

/**
 * The storage boundary for errors: every Kysely query (and the transactions and connections under
 * it) runs through the driver this dialect makes, which marks each error the driver, a connection
 * or a statement raises as the database's own (availability.ts raisedByDatabase), so that only
 * those can be taken for an outage. The statements connect.ts runs directly on the SQLite handle
 * are marked there.
 */
export function databaseBoundary(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: () => markingDriver(dialect.createDriver()),
  };
}

/** `call()`, its error (thrown or rejected: Kysely's SQLite connection throws at once) marked as the database's. */
async function marked<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw raisedByDatabase(error);
  }
}

/**
 * `driver` with its errors marked. Connections are changed in place, not wrapped: Kysely's
 * PostgreSQL driver finds its own connection object again when releasing it.
 */
function markingDriver(driver: Driver): Driver {
  const patched = new WeakSet<DatabaseConnection>();
  const patch = (connection: DatabaseConnection): DatabaseConnection => {
    if (patched.has(connection)) return connection;
    patched.add(connection);
    const executeQuery = connection.executeQuery.bind(connection);
    const streamQuery = connection.streamQuery.bind(connection);
    connection.executeQuery = (query) => marked(() => executeQuery(query));
    connection.streamQuery = async function* (query, chunkSize) {
      try {
        yield* streamQuery(query, chunkSize);
      } catch (error) {
        throw raisedByDatabase(error);
      }
    };
    return connection;
  };
  const { savepoint, rollbackToSavepoint, releaseSavepoint } = driver;
  return {
    init: () => marked(() => driver.init()),
    acquireConnection: async () => patch(await marked(() => driver.acquireConnection())),
    beginTransaction: (connection, settings) => marked(() => driver.beginTransaction(connection, settings)),
    commitTransaction: (connection) => marked(() => driver.commitTransaction(connection)),
    rollbackTransaction: (connection) => marked(() => driver.rollbackTransaction(connection)),
    ...(savepoint && {
      savepoint: (connection, name, compile) => marked(() => savepoint.call(driver, connection, name, compile)),
    }),
    ...(rollbackToSavepoint && {
      rollbackToSavepoint: (connection, name, compile) =>
        marked(() => rollbackToSavepoint.call(driver, connection, name, compile)),
    }),
    ...(releaseSavepoint && {
      releaseSavepoint: (connection, name, compile) => marked(() => releaseSavepoint.call(driver, connection, name, compile)),
    }),
    releaseConnection: (connection) => driver.releaseConnection(connection),
    destroy: () => driver.destroy(),
  };
}
