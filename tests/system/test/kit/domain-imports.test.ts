import { IMPORT_RULE as RULE, lintRules } from './lint-probe';

// ARCHITECTURE.md: src/domain holds pure rules; it imports no I/O, no framework and no other room of the
// service. The lint rule enforces it; these cases fail if the rule is removed or loosened.

describe('src/domain imports no I/O', () => {
  it.each([
    ["import mongoose from 'mongoose';\nexport const m = mongoose;\n"],
    ["import express from 'express';\nexport const e = express;\n"],
    ["import { connect } from 'amqplib';\nexport const c = connect;\n"],
    ["import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n"],
    ["import { startService } from '@travel/platform';\nexport const s = startService;\n"],
    ["import { vehicleModel } from '../infra/models';\nexport const v = vehicleModel;\n"],
    ["import { routes } from '../http/routes';\nexport const r = routes;\n"],
    ["import { VehiclesApp } from '../app/vehicles';\nexport const a = VehiclesApp;\n"],
  ])('refuses %s', (code) => {
    expect(lintRules(code, 'services/fleet/src/domain/probe.ts')).toContain(RULE);
  });

  it.each([
    ["import type { FieldErrors } from '@travel/platform';\nexport type F = FieldErrors;\n"],
    ["import { AppError } from '@travel/platform/src/errors';\nexport const a = AppError;\n"],
    ["import { Money } from '@travel/money';\nexport const m = Money;\n"],
    ["import { requiredText } from '@travel/text-rules';\nexport const t = requiredText;\n"],
  ])('allows %s', (code) => {
    expect(lintRules(code, 'services/fleet/src/domain/probe.ts')).toEqual([]);
  });

  it('leaves the other rooms free to do I/O', () => {
    expect(
      lintRules("import mongoose from 'mongoose';\nexport const m = mongoose;\n", 'services/fleet/src/infra/probe.ts'),
    ).toEqual([]);
  });
});
