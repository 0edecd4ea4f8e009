// The official MCP conformance suite (@modelcontextprotocol/conformance) against the running
// server. The suite needs Node 22 (it imports fs.globSync), so on an older Node it runs on a
// Node 22 from the npm registry (node-<platform>-<arch>); both are installed once into
// node_modules/.cache/mcp-conformance. Of its server scenarios, four apply to a product's server:
// the handshake, ping, the tool list and DNS-rebinding protection. The others call the tools,
// resources and prompts of the suite's own reference server (test_simple_text, test_image, ...),
// which Sitewright does not have.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useLoopback, useTestApi } from '../helpers/app.ts';

const SUITE = '@modelcontextprotocol/conformance@0.1.16';
const NODE_22 = '22.23.3';
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];
const CACHE = join(process.cwd(), 'node_modules', '.cache', 'mcp-conformance');
const CLI = join(CACHE, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const run = promisify(execFile);

const api = useTestApi();
const server = useLoopback(api);

/** A Node that runs the suite: this one from 22 on, else Node 22 from the npm registry. */
async function suiteNode(): Promise<string> {
  const major = Number(process.versions.node.split('.')[0]);
  const nodePackage = `node-${process.platform}-${process.arch}`;
  const binary = major >= 22 ? process.execPath : join(CACHE, 'node_modules', nodePackage, 'bin', 'node');
  if (!existsSync(CLI) || !existsSync(binary)) {
    mkdirSync(CACHE, { recursive: true });
    const packages = [SUITE, ...(major >= 22 ? [] : [`${nodePackage}@${NODE_22}`])];
    await run(
      'npm',
      ['install', '--prefix', CACHE, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', ...packages],
      { timeout: 240_000 },
    );
  }
  return binary;
}

describe('the official MCP conformance suite', () => {
  it('passes every scenario that applies to a product’s server', { timeout: 300_000 }, async () => {
    const node = await suiteNode();
    for (const scenario of SCENARIOS) {
      const { stdout } = await run(
        node,
        [CLI, 'server', '--url', `${server.url}/api/mcp`, '--scenario', scenario],
        { timeout: 60_000 },
      ).catch((error: { stdout?: string; message: string }) => {
        throw new Error(`${scenario}: ${error.stdout ?? ''} ${error.message}`);
      });
      const result = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(stdout);
      expect(result, `${scenario}: ${stdout}`).not.toBeNull();
      expect(Number(result![1]), `${scenario}: ${stdout}`).toBeGreaterThan(0);
      expect(Number(result![3]), `${scenario}: ${stdout}`).toBe(0);
    }
  });
});
