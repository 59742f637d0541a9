import { serviceEntry } from '@travel/contracts';
import { env, envSection, serviceConfig } from '@travel/platform';

import { SERVICE } from './service-name';

export { SERVICE };
export const DEFAULT_PORT = serviceEntry('entries').port;

/** The shared settings plus the services entries calls (docs/configuration.md, "Entries"). */
export const configSchema = serviceConfig(
  SERVICE,
  DEFAULT_PORT,
  envSection('entries', {
    EMPLOYEES_URL: env.urls({
      default: 'http://127.0.0.1:8081',
      description:
        'The employees service: an entry’s employee, the cost centers they may charge (0045), the default fallback approvers (0105), the company’s details and people’s names on the travel order and settlement PDFs (0137). Unreachable: `503 SERVICE_UNAVAILABLE`.',
    }),
    REFERENCE_FX_URL: env.urls({
      default: 'http://127.0.0.1:8085',
      description:
        'reference-fx: amounts in a foreign currency converted into the base currency (advances, expenses), and the company per-diem policy per-diem rows are priced with (0127). Unreachable: writes that need a rate or price per-diem rows answer `503 SERVICE_UNAVAILABLE`.',
    }),
    FLEET_URL: env.urls({
      default: 'http://127.0.0.1:8083',
      description:
        'fleet: the vehicle of a Mileage row is claimed there before the row is stored (docs/decisions/0048); its plate is printed on the travel order and settlement (0137). Unreachable: such writes and the PDFs answer `503 SERVICE_UNAVAILABLE`.',
    }),
  }),
  (v) => ({
    /** The employees service: an entry's employee and the cost centers they may charge. */
    employeesUrl: v.EMPLOYEES_URL,
    /** reference-fx: conversion of amounts into the base currency; the company per-diem policy. */
    referenceFxUrl: v.REFERENCE_FX_URL,
    /** fleet: a vehicle named on a Mileage row is claimed there before the row is stored. */
    fleetUrl: v.FLEET_URL,
  }),
);
