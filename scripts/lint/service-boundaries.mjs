// Lint rule `boundaries/no-other-service-source`: no service imports another service's code, and no
// package or contract imports a service (docs/services.md, "Calls between services"). A service calls
// another through the client the provider publishes in contracts/src/clients; reference data two
// services share lives in a package. Tests and benchmarks, which start services, are not held to it.
import { readdirSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SERVICES_DIR = resolve(ROOT, 'services');

/** The services: the directories under services/ (each its package `@travel/<name>`). */
export const SERVICE_NAMES = new Set(
  readdirSync(SERVICES_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name),
);

/** The service a file belongs to, or undefined (a package, the contracts). */
function serviceOfFile(file) {
  const [top, name] = relative(ROOT, file).split(sep);
  return top === 'services' && SERVICE_NAMES.has(name) ? name : undefined;
}

/** The service an import specifier reaches, by package name or by a relative path; undefined for none. */
function serviceOfSpecifier(specifier, file) {
  const named = /^@travel\/([^/]+)(?:\/|$)/.exec(specifier);
  if (named) return SERVICE_NAMES.has(named[1]) ? named[1] : undefined;
  if (specifier.startsWith('.')) return serviceOfFile(resolve(dirname(file), specifier));
  return undefined;
}

const noOtherServiceSource = {
  meta: {
    type: 'problem',
    docs: { description: "No service imports another service's code; clients come from contracts/src/clients." },
    messages: {
      otherService:
        "'{{specifier}}' is the {{target}} service's code: take its published client and types from " +
        "'@travel/contracts' (contracts/src/clients), and shared reference data from a package.",
    },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const own = serviceOfFile(file);
    const check = (node) => {
      const specifier = node.source?.value;
      if (typeof specifier !== 'string') return;
      const target = serviceOfSpecifier(specifier, file);
      if (target && target !== own) context.report({ node, messageId: 'otherService', data: { specifier, target } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export const boundaries = { rules: { 'no-other-service-source': noOtherServiceSource } };
