// Prints the registry of services (contracts/src/services.ts) for the tools that are not TypeScript:
//   npx tsx scripts/services.ts   -> [{"name":"gateway","port":8080,"resources":[],"urlEnv":"GATEWAY_URL"}, …]
import { SERVICES, urlEnvOf } from '../contracts/src/services';

process.stdout.write(`${JSON.stringify(SERVICES.map((s) => ({ ...s, urlEnv: urlEnvOf(s.name) })))}\n`);
