// The `sitewright` command. It opens the same DATA_DIR / DATABASE_URL as the server, so it can be
// used while the server runs; only `migrate` and `start` create a database (cli/database.ts).
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.ts';
import { orgCommand, keysCommand, migrateCommand } from './commands.ts';
import { CliError } from './output.ts';

const USAGE = `Usage: sitewright <command>

Commands:
  start                                   serve the API and deliver webhooks (what \`npm start\` runs)
  worker                                  deliver webhooks and run AI generations (no HTTP server)
  migrate                                 apply database migrations and exit
  backup [--to DIR] [--json]              write a verified backup of everything while the
                                          server runs: to DIR, else to each BACKUP_DIR
                                          (pruned to BACKUP_KEEP, then BACKUP_COMMAND)
  restore FILE [--force] [--json]         restore a backup into an empty DATA_DIR or
                                          database (--force: keep what is there aside)
  org create --name NAME [--json]         create an organization
  org list [--json]                       list organizations
  org update --org ORG_ID_OR_NAME --embed-origins ORIGIN[,ORIGIN...] [--json]
                                          set the origins that may frame the embeddable
                                          builder (an empty value clears them)
  keys create --org ORG_ID_OR_NAME --permissions read,write|embed [--name N] [--json]
                                          create an API key (shown once); an embed key
                                          opens embed sessions and does nothing else
  keys list --org ORG_ID_OR_NAME [--json] list an organization's keys (never the secret)
  keys revoke KEY_ID [--json]             revoke a key; it stops working on the next request
  user create --email E --org ORG_ID_OR_NAME --role owner|admin|member [--name N] [--json]
                                          create an account that is a member of ORG (an
                                          existing account joins ORG, its password unchanged)
  user reset-password --email E [--json]  set a new password and end the account's sessions
  billing connect --org ORG_ID_OR_NAME [--json]
                                          connect the organization's Stripe account with
                                          the key read from stdin (a restricted key rk_...)
  billing disconnect --org ORG_ID_OR_NAME [--json]
                                          remove its webhook endpoint and forget the key

The password of \`user\` commands is read from stdin when piped
(e.g. printf '%s' "$PW" | sitewright user ...); otherwise one is generated and printed once.

Settings come from the environment (DATA_DIR, DATABASE_URL, ...): see docs/configuration.md.`;

/** The options each command takes; any other one given is an error, never silently ignored. */
const COMMAND_FLAGS: Record<string, string[]> = {
  start: [],
  worker: [],
  migrate: [],
  backup: ['to', 'json'],
  restore: ['force', 'json'],
  'org create': ['name', 'json'],
  'org list': ['json'],
  'org update': ['org', 'embed-origins', 'json'],
  'keys create': ['org', 'permissions', 'name', 'json'],
  'keys list': ['org', 'json'],
  'keys revoke': ['json'],
  'user create': ['email', 'org', 'role', 'name', 'json'],
  'user reset-password': ['email', 'json'],
  'billing connect': ['org', 'json'],
  'billing disconnect': ['org', 'json'],
};

function refuseOtherFlags(command: string, values: Record<string, unknown>): void {
  const allowed = COMMAND_FLAGS[command];
  if (!allowed) return; // an unknown command: refused with its own message below
  const other = Object.keys(values).find(
    (flag) =>
      flag !== 'help' && values[flag] !== undefined && values[flag] !== false && !allowed.includes(flag),
  );
  if (other) throw new CliError(`${command} does not take --${other}`);
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      name: { type: 'string' },
      org: { type: 'string' },
      permissions: { type: 'string' },
      'embed-origins': { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      to: { type: 'string' },
      force: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, sub, ...rest] = positionals;
  if (values.help) {
    process.stdout.write(USAGE + '\n');
    return;
  }
  if (!command) throw new CliError(`a command is needed\n\n${USAGE}`);
  refuseOtherFlags(
    ['org', 'keys', 'user', 'billing'].includes(command) ? `${command} ${sub}` : command,
    values,
  );
  if (command === 'start') {
    if (positionals.length > 1) throw new CliError(`start takes no arguments\n\n${USAGE}`);
    const { startServer } = await import('../main.ts');
    return startServer();
  }
  const config = loadConfig();
  if (command === 'worker') {
    if (positionals.length > 1) throw new CliError(`worker takes no arguments\n\n${USAGE}`);
    // Workers on a database the server does not use would wait for work forever.
    const { openExistingDatabase } = await import('./database.ts');
    await (await openExistingDatabase(config)).close();
    const { workerCommand } = await import('./worker.ts');
    return workerCommand(config);
  }
  switch (command) {
    case 'migrate':
      return migrateCommand(config);
    case 'backup': {
      const { backupCommand } = await import('./backup.ts');
      return backupCommand(config, positionals.slice(1), values);
    }
    case 'restore': {
      const { restoreCommand } = await import('./backup.ts');
      return restoreCommand(config, positionals.slice(1), values);
    }
    case 'org':
      return orgCommand(config, sub, rest, values);
    case 'keys':
      return keysCommand(config, sub, rest, values);
    case 'user': {
      const { userCommand } = await import('./users.ts');
      return userCommand(config, sub, rest, values);
    }
    case 'billing': {
      const { billingCommand } = await import('./billing.ts');
      return billingCommand(config, sub, rest, values);
    }
    default:
      throw new CliError(`unknown command '${command}'\n\n${USAGE}`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (
    error instanceof CliError ||
    error instanceof ConfigError ||
    (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
  ) {
    process.stderr.write(`sitewright: ${(error as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  process.stderr.write(`sitewright: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
