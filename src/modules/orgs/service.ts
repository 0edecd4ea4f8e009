// Organizations and their API keys: created by the CLI (and later the dashboard), checked on
// every API request.
import type { Database } from '../../db/index.ts';
import type { PreparedQuery } from '../../db/prepared.ts';
import { newId, isUuid } from '../../lib/ids.ts';
import { nowIso, toIso } from '../../lib/clock.ts';
import { ConflictError, invalid } from '../common/errors.ts';
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey } from '../../lib/keys.ts';
import * as repo from './repo.ts';

/**
 * What a key may do: `read` (GET) and `write` (POST, PATCH, PUT, DELETE) on /api/v1, or `embed`:
 * create and revoke embed sessions and nothing else (a key holds `embed` alone).
 */
export type Permission = 'read' | 'write' | 'embed';
export const PERMISSIONS: readonly Permission[] = ['read', 'write', 'embed'];

export interface Organization {
  id: string;
  name: string;
  created_at: string;
}

export interface ApiKeyInfo {
  id: string;
  org_id: string;
  name: string | null;
  prefix: string;
  permissions: Permission[];
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** Who is calling: the result of a successful authentication. */
export interface Caller {
  orgId: string;
  keyId: string;
  permissions: Permission[];
  /** An OAuth connector token of an agency client's own account: that client's projects only. */
  clientId?: string;
}

/** `last_used_at` is written at most this often per key, to keep reads free of writes. */
const LAST_USED_RESOLUTION_MS = 60_000;

export class OrgService {
  private readonly findActiveKey: PreparedQuery<{ hash: string }, repo.ActiveKeyRow>;

  constructor(private readonly database: Database) {
    this.findActiveKey = repo.prepareFindActiveKey(database);
  }

  private get db() {
    return this.database.db;
  }

  async createOrg(name: string): Promise<Organization> {
    const trimmed = name.trim();
    if (!trimmed) throw invalid('organization name must not be empty');
    // `--org` takes an id or a name: a name shaped like an id would be ambiguous.
    if (isUuid(trimmed))
      throw invalid('organization name must not be a UUID (--org takes either an id or a name)');
    const existing = await repo.findOrgByName(this.db, trimmed);
    if (existing)
      throw new ConflictError(`an organization named "${trimmed}" already exists (${existing.id})`);
    const org = { id: newId(), name: trimmed, created_at: nowIso() };
    await repo.insertOrg(this.db, org);
    return org;
  }

  async listOrgs(): Promise<Organization[]> {
    const rows = await repo.listOrgs(this.db);
    return rows.map((r) => ({ id: r.id, name: r.name, created_at: toIso(r.created_at) }));
  }

  /** Finds an organization by id or, failing that, by exact name. */
  async findOrg(idOrName: string): Promise<Organization | undefined> {
    const row = await repo.findOrg(this.db, idOrName);
    return row && { id: row.id, name: row.name, created_at: toIso(row.created_at) };
  }

  /** How many people are members (organizations made with the CLI start with none). */
  memberCount(orgId: string): Promise<number> {
    return repo.countMembers(this.db, orgId);
  }

  async rename(orgId: string, name: string): Promise<Organization> {
    const trimmed = name.trim();
    if (!trimmed) throw invalid('organization name must not be empty');
    if (trimmed.length > 200) throw invalid('organization name must have at most 200 characters');
    if (isUuid(trimmed)) throw invalid('organization name must not be a UUID');
    const existing = await repo.findOrgByName(this.db, trimmed);
    if (existing && existing.id !== orgId)
      throw new ConflictError(`an organization named "${trimmed}" already exists`);
    await repo.renameOrg(this.db, orgId, trimmed);
    const org = await this.findOrg(orgId);
    if (!org) throw invalid('no such organization');
    return org;
  }

  /** Revokes a key of `orgId`; undefined when that organization has no such key. */
  async revokeOrgKey(orgId: string, keyId: string): Promise<ApiKeyInfo | undefined> {
    const keys = await repo.listApiKeys(this.db, orgId);
    if (!keys.some((k) => k.id === keyId)) return undefined;
    return this.revokeKey(keyId);
  }

  async createKey(
    orgId: string,
    permissions: Permission[],
    name: string | null,
  ): Promise<ApiKeyInfo & { key: string }> {
    if (permissions.length === 0) throw invalid('a key needs a permission: read, write, embed');
    if (permissions.includes('embed') && permissions.length > 1)
      throw invalid('an embed key holds the embed permission alone (it can call no other route)');
    const key = generateApiKey();
    const row = {
      id: newId(),
      org_id: orgId,
      name,
      key_hash: hashApiKey(key),
      prefix: displayPrefix(key),
      permissions: PERMISSIONS.filter((p) => permissions.includes(p)).join(','),
      created_at: nowIso(),
      last_used_at: null,
      revoked_at: null,
    };
    await repo.insertApiKey(this.db, row);
    return { ...toKeyInfo(row), key };
  }

  async listKeys(orgId: string): Promise<ApiKeyInfo[]> {
    const rows = await repo.listApiKeys(this.db, orgId);
    return rows.map(toKeyInfo);
  }

  /** Revokes a key; returns false when no such key exists. Revoking twice keeps the first time. */
  async revokeKey(keyId: string): Promise<ApiKeyInfo | undefined> {
    if (!isUuid(keyId)) return undefined;
    const row = await repo.revokeApiKey(this.db, keyId);
    return row && toKeyInfo(row);
  }

  /**
   * The caller behind a bearer key, or undefined for a malformed, unknown or revoked key. Looked up
   * on every request (one prepared read by the key's hash), so a revocation by any process is
   * seen at once.
   */
  async authenticate(key: string): Promise<Caller | undefined> {
    if (!isWellFormedApiKey(key)) return undefined;
    const now = Date.now();
    const row = await this.findActiveKey.first({ hash: hashApiKey(key) });
    if (!row) return undefined;
    const lastUsedMs = row.last_used_at === null ? 0 : Date.parse(toIso(row.last_used_at));
    if (now - lastUsedMs >= LAST_USED_RESOLUTION_MS) {
      await repo.touchApiKey(this.db, row.id);
    }
    return { orgId: row.org_id, keyId: row.id, permissions: row.permissions.split(',') as Permission[] };
  }
}

function toKeyInfo(row: {
  id: string;
  org_id: string;
  name: string | null;
  prefix: string;
  permissions: string;
  created_at: string | Date;
  last_used_at: string | Date | null;
  revoked_at: string | Date | null;
}): ApiKeyInfo {
  return {
    id: row.id,
    org_id: row.org_id,
    name: row.name,
    prefix: row.prefix,
    permissions: row.permissions.split(',').filter(Boolean) as Permission[],
    created_at: toIso(row.created_at),
    last_used_at: toIso(row.last_used_at),
    revoked_at: toIso(row.revoked_at),
  };
}
