import { EnvReader, readBaseConfig, startService, type StartOptions } from '@travel/platform';
import { PerDiemCalculator } from './app/per-diem-calculator';
import { perDiemCalculatorRoutes } from './http/per-diem-calculator-routes';
import { PerDiemEmployeesClient } from './infra/per-diem-employees-client';
import { PerDiemFxClient } from './infra/per-diem-fx-client';

export const SERVICE = 'entries';
export const DEFAULT_PORT = 8082;

export function readConfig(env: NodeJS.ProcessEnv = process.env) {
  const reader = new EnvReader(env);
  const config = {
    ...readBaseConfig(SERVICE, DEFAULT_PORT, reader),
    /** The employees service: an employee's residency (per-diem calculator). */
    employeesUrl: reader.string('EMPLOYEES_URL', 'http://127.0.0.1:8081'),
    /** reference-fx: conversion of per-diem amounts into the base currency. */
    referenceFxUrl: reader.string('REFERENCE_FX_URL', 'http://127.0.0.1:8085'),
  };
  reader.done();
  return config;
}

/** The per-diem calculator (issue 14); the rest of the entries context answers 501 NOT_IMPLEMENTED until built. */
export const start = (env: NodeJS.ProcessEnv = process.env, options?: StartOptions) => {
  const config = readConfig(env);
  return startService(
    config,
    () => ({
      api: perDiemCalculatorRoutes(
        new PerDiemCalculator(
          new PerDiemEmployeesClient(config.employeesUrl, config.internalContextSecret),
          new PerDiemFxClient(config.referenceFxUrl, config.internalContextSecret),
        ),
      ),
      // Operations the contract documents in `paths` (the calculator, the removed ones) pass through.
      notImplemented: ['/api/v1/travel-entries', '/api/v1/approval-workflow'],
    }),
    options,
  );
};
