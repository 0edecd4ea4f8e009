// `sitewright billing connect|disconnect --org ORG`: client billing for headless installs, the
// same as Settings → Billing. The key comes on standard input only (never an argument, which
// would stay in the shell's history and the process list).
import type { Config } from '../config.ts';
import { secretBox } from '../container.ts';
import { systemPrincipal } from '../modules/access/principal.ts';
import { BillingCatalog } from '../modules/billing/catalog.ts';
import { BillingConnections } from '../modules/billing/connections.ts';
import type { BillingDeps } from '../modules/billing/context.ts';
import { SECRETS_MISSING } from '../modules/index.ts';
import type { Database } from '../db/index.ts';
import { createStripeProcessor } from '../providers/stripe/processor.ts';
import { noExtra, requireOrg, withOrgs } from './commands.ts';
import { CliError, printJson } from './output.ts';

interface Flags {
  org?: string | undefined;
  json?: boolean | undefined;
}

const USAGE =
  'usage: printf \'%s\' "$STRIPE_KEY" | sitewright billing connect --org ORG [--json] | sitewright billing disconnect --org ORG [--json]';

function billingDeps(config: Config, database: Database): BillingDeps {
  return {
    database,
    processor: createStripeProcessor(config.stripe),
    secrets: secretBox(config),
    secretsMissing: SECRETS_MISSING,
    publicUrl: config.publicUrl,
  };
}

export async function billingCommand(
  config: Config,
  sub: string | undefined,
  args: string[],
  flags: Flags,
): Promise<void> {
  if (sub === 'connect') {
    noExtra(args, 'billing connect');
    const key = await keyFromStdin();
    const result = await withOrgs(
      config,
      async (orgs, database) => {
        const org = await requireOrg(orgs, flags.org, 'billing connect');
        const deps = billingDeps(config, database);
        const connected = await new BillingConnections(deps).connectKey(systemPrincipal(org.id), key);
        await new BillingCatalog(deps).syncAll(org.id);
        return { org, ...connected };
      },
      true,
    );
    const { connection, warning } = result;
    if (flags.json) printJson({ org_id: result.org.id, ...connection, warning });
    else
      process.stdout.write(
        `${result.org.name}: billing connected to Stripe account ${connection.account_id}` +
          `${connection.account_name ? ` (${connection.account_name})` : ''}, ` +
          `${connection.livemode ? 'LIVE mode' : 'test mode'}\n  webhook: ${connection.webhook_url}\n` +
          (warning ? `\nwarning: ${warning}\n` : ''),
      );
    return;
  }
  if (sub === 'disconnect') {
    noExtra(args, 'billing disconnect');
    const result = await withOrgs(
      config,
      async (orgs, database) => {
        const org = await requireOrg(orgs, flags.org, 'billing disconnect');
        const done = await new BillingConnections(billingDeps(config, database)).disconnect(
          systemPrincipal(org.id),
        );
        return { org, done };
      },
      true,
    );
    const { disconnected, stripe } = result.done;
    if (flags.json) printJson({ org_id: result.org.id, disconnected, stripe });
    else
      process.stdout.write(
        !disconnected
          ? `${result.org.name}: billing was not connected\n`
          : stripe === 'failed'
            ? `${result.org.name}: billing disconnected; its webhook endpoint could not be removed from Stripe (delete it in the Stripe Dashboard)\n`
            : `${result.org.name}: billing disconnected (on Stripe: ${stripe})\n`,
      );
    return;
  }
  throw new CliError(USAGE);
}

/** The key, one line on stdin; a terminal or nothing is refused with how to give it. */
async function keyFromStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new CliError(`billing connect reads the key from stdin\n${USAGE}`);
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') throw new CliError(`billing connect reads the key from stdin\n${USAGE}`);
  if (/[\r\n]/.test(text)) throw new CliError('the key on stdin must be a single line');
  return text;
}
