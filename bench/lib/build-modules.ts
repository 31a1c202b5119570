import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

/**
 * A module of a build's dist/, by its path in this checkout's layout (`storage/driver/connect.js`);
 * a build made before storage/ had its sub-folders has it flat (`storage/connect.js`), so that
 * path is tried next and two such builds can be compared in alternation.
 */
export async function importFromBuild<T>(dist: string, module: string): Promise<T> {
  const flat = module.replace(/^storage\/(driver|lifecycle)\//, "storage/");
  const found = [module, flat].map((m) => path.join(dist, m)).find((file) => fs.existsSync(file));
  if (!found) throw new Error(`${module} is not in ${dist}`);
  return import(pathToFileURL(found).href) as Promise<T>;
}
