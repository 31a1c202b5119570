import { runContract } from "./harness.js";
import { overviewContract } from "./second-factor-overview.contract.js";

runContract("SecondFactorOverview", overviewContract);
