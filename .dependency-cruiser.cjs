// The house rules of ARCHITECTURE.md ("What may import what"), checked by `npm run lint`.
const WAYS_IN = '(http|edge|ui|mcp|oauth|cli|embed)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-knows-no-way-in',
      comment:
        'The core (src/modules) imports no way in, no provider, not web/, and neither config.ts, ' +
        'the container nor main.ts: services receive their settings and collaborators.',
      severity: 'error',
      from: { path: '^src/modules/' },
      to: { path: [`^src/${WAYS_IN}/`, '^src/(web|providers)/', '^src/(config|container|main)[.]ts$'] },
    },
    {
      name: 'core-knows-no-framework',
      comment:
        'The core is called from tests, the CLI and workers with no request object; the libraries ' +
        'of adapters (mail, AI models, payments) are used in src/providers/ only.',
      severity: 'error',
      from: { path: '^src/modules/' },
      to: {
        path: 'node_modules/(fastify|@fastify/|fastify-plugin|@modelcontextprotocol/|eta/|nodemailer/|openai/|html-validate/|undici/|stripe/|prom-client/|@opentelemetry/)',
      },
    },
    {
      name: 'opentelemetry-only-when-asked',
      comment:
        'OpenTelemetry is loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set, by bin/sitewright.js: ' +
        'its libraries are imported in src/providers/otel/ alone, and nothing in src/ imports that.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/providers/otel/' },
      to: { path: ['node_modules/@opentelemetry/', '^src/providers/otel/'] },
    },
    {
      name: 'ways-in-stay-apart',
      comment: 'A way in never imports another; what they share lives in src/web/.',
      severity: 'error',
      from: { path: `^src/${WAYS_IN}/` },
      to: { path: `^src/${WAYS_IN}/`, pathNot: '^src/$1/' },
    },
    {
      name: 'plumbing-knows-no-domain',
      comment: 'jobs/, events/, db/ and lib/ know no domain: the core uses them, never the reverse.',
      severity: 'error',
      from: { path: '^src/(jobs|events|db|lib)/' },
      to: { path: ['^src/modules/', `^src/${WAYS_IN}/`, '^src/(web|providers)/'] },
    },
    {
      name: 'web-kit-knows-no-way-in',
      comment: 'web/ is the kit the ways in share; it imports none of them.',
      severity: 'error',
      from: { path: '^src/web/' },
      to: { path: `^src/${WAYS_IN}/` },
    },
    {
      name: 'no-circular',
      comment: 'No import circles, type-only ones included.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // Browser code bundled at build time; it imports only npm packages.
    exclude: { path: '^src/(ui/client|ui/assets|edge/assets)/' },
  },
};
