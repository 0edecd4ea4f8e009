#!/usr/bin/env node
// The `sitewright` command. TypeScript sources run through tsx, so `npm install` is the only set-up.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
