// docs/configuration.md is generated from the environment schema (src/config.ts): it must be what
// the schema renders today, and every variable must say what it is for.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EnvSchema } from '../../src/config.ts';
import {
  CONFIGURATION_DOC,
  configurationVariables,
  renderConfigurationDoc,
} from '../../scripts/configuration-doc.ts';

describe('docs/configuration.md', () => {
  it('is what the schema in src/config.ts renders', () => {
    const written = readFileSync(new URL(`../../${CONFIGURATION_DOC}`, import.meta.url), 'utf8');
    expect(
      written === renderConfigurationDoc(),
      `${CONFIGURATION_DOC} is out of date with src/config.ts: run \`npm run docs:config\``,
    ).toBe(true);
  });

  it('describes every variable of the schema', () => {
    const undescribed = configurationVariables()
      .filter((v) => !v.description?.trim())
      .map((v) => v.name);
    expect(undescribed, `add a description to these variables in src/config.ts`).toEqual([]);
  });

  it('says how a variable without a default in the schema gets one when loadConfig fills it in', () => {
    // A required variable without a schema default is filled in by loadConfig: its description must
    // say so, or the document would claim it has none.
    const required = new Set<string>(EnvSchema.required ?? []);
    const silent = configurationVariables()
      .filter((v) => required.has(v.name) && v.defaultValue === 'none')
      .map((v) => v.name);
    expect(silent, 'say "Default computed in code: ..." in their descriptions').toEqual([]);
  });
});
