import type { Config } from '../config.ts';
import { openDatabase, type Database } from '../db/index.ts';
import { EmbedService } from '../modules/embed/service.ts';
import { ClientsService } from '../modules/clients/service.ts';
import { systemPrincipal } from '../modules/access/principal.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { DomainError } from '../modules/common/errors.ts';
import { OrgService, PERMISSIONS, type Organization, type Permission } from '../modules/orgs/service.ts';
import { announceDatabase, openExistingDatabase } from './database.ts';
import { CliError, printJson, printTable } from './output.ts';

interface Flags {
  name?: string | undefined;
  org?: string | undefined;
  permissions?: string | undefined;
  'embed-origins'?: string | undefined;
  json?: boolean | undefined;
}

export async function migrateCommand(config: Config): Promise<void> {
  announceDatabase(config);
  const database = openDatabase({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    sqliteSynchronous: config.sqliteSynchronous,
  });
  try {
    const applied = await migrateToLatest(database.db, database.engine);
    process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
  } finally {
    await database.close();
  }
}

/** Runs `fn` on the server's existing database; `writes`: say which one on stderr. */
export async function withOrgs<T>(
  config: Config,
  fn: (orgs: OrgService, database: Database) => Promise<T>,
  writes = false,
): Promise<T> {
  const database = await openExistingDatabase(config);
  if (writes) announceDatabase(config);
  try {
    return await fn(new OrgService(database), database);
  } catch (error) {
    if (error instanceof DomainError) throw new CliError(error.message);
    throw error;
  } finally {
    await database.close();
  }
}

export function noExtra(args: string[], what: string): void {
  if (args.length > 0) throw new CliError(`${what}: unexpected argument '${args[0]}'`);
}

export async function orgCommand(
  config: Config,
  sub: string | undefined,
  args: string[],
  flags: Flags,
): Promise<void> {
  if (sub === 'create') {
    noExtra(args, 'org create');
    if (!flags.name?.trim()) throw new CliError('org create needs --name NAME');
    const org = await withOrgs(config, (orgs) => orgs.createOrg(flags.name!), true);
    if (flags.json) printJson(org);
    else process.stdout.write(`created organization ${org.name}\n  id: ${org.id}\n`);
    return;
  }
  if (sub === 'list') {
    noExtra(args, 'org list');
    const list = await withOrgs(config, (orgs) => orgs.listOrgs());
    if (flags.json) printJson(list);
    else printTable(list as unknown as Record<string, string>[], ['id', 'name', 'created_at']);
    return;
  }
  if (sub === 'update') {
    noExtra(args, 'org update');
    const text = flags['embed-origins'];
    if (text === undefined) throw new CliError('org update needs --embed-origins ORIGIN[,ORIGIN...]');
    const wanted = text
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean);
    const result = await withOrgs(
      config,
      async (orgs, database) => {
        const org = await requireOrg(orgs, flags.org, 'org update');
        const embed = new EmbedService(database, new ClientsService(database), config);
        return { org, origins: await embed.setOrigins(systemPrincipal(org.id), wanted) };
      },
      true,
    );
    if (flags.json) printJson({ id: result.org.id, embed_origins: result.origins });
    else
      process.stdout.write(
        `${result.org.name}: embed origins ${result.origins.length ? result.origins.join(', ') : '(none)'}\n`,
      );
    return;
  }
  throw new CliError(
    'usage: sitewright org create --name NAME [--json] | sitewright org list [--json] | ' +
      'sitewright org update --org ORG --embed-origins ORIGIN[,ORIGIN...] [--json]',
  );
}

export async function requireOrg(
  orgs: OrgService,
  idOrName: string | undefined,
  what: string,
): Promise<Organization> {
  if (!idOrName) throw new CliError(`${what} needs --org ORG_ID_OR_NAME`);
  const org = await orgs.findOrg(idOrName);
  if (!org) throw new CliError(`no organization with id or name '${idOrName}'`);
  return org;
}

function parsePermissions(text: string | undefined): Permission[] {
  if (!text) throw new CliError('keys create needs --permissions read, write, read,write or embed');
  const list = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const unknown = list.filter((p) => !PERMISSIONS.includes(p as Permission));
  if (unknown.length > 0 || list.length === 0) {
    throw new CliError(`unknown permission '${unknown[0] ?? text}': use read, write, read,write or embed`);
  }
  return list as Permission[];
}

export async function keysCommand(
  config: Config,
  sub: string | undefined,
  args: string[],
  flags: Flags,
): Promise<void> {
  if (sub === 'create') {
    noExtra(args, 'keys create');
    const permissions = parsePermissions(flags.permissions);
    const created = await withOrgs(
      config,
      async (orgs) => {
        const org = await requireOrg(orgs, flags.org, 'keys create');
        return orgs.createKey(org.id, permissions, flags.name?.trim() || null);
      },
      true,
    );
    const { id, key, org_id, name, created_at } = created;
    if (flags.json) printJson({ id, key, org_id, permissions: created.permissions, name, created_at });
    else {
      process.stdout.write(
        `created API key ${id} (${created.permissions.join(',')})\n\n  ${key}\n\n` +
          'Store it now: it is shown only once. Use it as "Authorization: Bearer <key>".\n',
      );
    }
    return;
  }
  if (sub === 'list') {
    noExtra(args, 'keys list');
    const keys = await withOrgs(config, async (orgs) =>
      orgs.listKeys((await requireOrg(orgs, flags.org, 'keys list')).id),
    );
    if (flags.json) printJson(keys);
    else {
      printTable(
        keys.map((k) => ({
          ...k,
          permissions: k.permissions.join(','),
          status: k.revoked_at ? 'revoked' : 'active',
        })),
        ['id', 'name', 'prefix', 'permissions', 'status', 'created_at', 'last_used_at'],
      );
    }
    return;
  }
  if (sub === 'revoke') {
    const [keyId, ...extra] = args;
    noExtra(extra, 'keys revoke');
    if (!keyId) throw new CliError('usage: sitewright keys revoke KEY_ID');
    const key = await withOrgs(config, (orgs) => orgs.revokeKey(keyId), true);
    if (!key) throw new CliError(`no API key with id '${keyId}'`);
    if (flags.json) printJson(key);
    else process.stdout.write(`revoked API key ${key.id} at ${key.revoked_at}\n`);
    return;
  }
  throw new CliError('usage: sitewright keys create|list|revoke ... (see sitewright --help)');
}
