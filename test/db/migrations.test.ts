// Upgrading a database that already holds data: migration 008 rebuilds page_views and rolls its
// rows up, 009 counts the day's AI messages from existing generations, 010 packs the raw views
// per site and day. Nothing is lost.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/index.ts';
import { migrateTo, migrateToLatest } from '../../src/db/migrate.ts';
import { daily, topBy } from '../../src/modules/analytics/repo.ts';
import { rawViews } from '../helpers/page-views.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

let test: TestDatabase;
let database: Database;
afterAll(async () => {
  await database?.close();
  await test?.drop();
});

it('keeps page views and AI messages recorded before the rollups existed', async () => {
  test = await createTestDatabase();
  database = openDatabase({
    dataDir: test.dataDir,
    databaseUrl: test.databaseUrl,
    sqliteSynchronous: 'NORMAL',
  });
  const { db, engine } = database;
  await migrateTo(db, engine, '007_generations');

  const now = new Date().toISOString();
  const today = now.slice(0, 10);
  await sql`insert into organizations (id, name, created_at) values ('o1', 'Org', ${now})`.execute(db);
  await sql`insert into clients (id, org_id, user_id, email, email_lower, status, payment_status, created_at, updated_at)
    values ('c1', 'o1', 'u1', 'a@example.com', 'a@example.com', 'active', 'none', ${now}, ${now})`.execute(
    db,
  );
  for (const p of ['p1', 'p2']) {
    await sql`insert into projects (id, org_id, user_id, org_client_id, name, name_lower, status, tags, starred, is_public, subdomain, created_at, updated_at)
      values (${p}, 'o1', 'u1', 'c1', ${p}, ${p}, 'active', '[]', ${engine === 'postgres' ? sql`false` : sql`0`}, ${engine === 'postgres' ? sql`false` : sql`0`}, ${`site-${p}`}, ${now}, ${now})`.execute(
      db,
    );
  }
  const view = (id: string, project: string, path: string, referrer: string | null, visitor: string) =>
    sql`insert into page_views (id, org_id, project_id, path, referrer, device, visitor_hash, viewed_at)
      values (${id}, 'o1', ${project}, ${path}, ${referrer}, 'desktop', ${visitor}, ${now})`.execute(db);
  await view('v1', 'p1', '/', 'google.com', 'a');
  await view('v2', 'p1', '/', null, 'a');
  await view('v3', 'p1', '/about', null, 'b');
  await view('v4', 'p2', '/', null, 'c');
  await sql`insert into generations (id, org_id, project_id, org_client_id, prompt, model, status, attempts, created_at, updated_at)
    values ('g1', 'o1', 'p1', 'c1', 'x', 'builtin', 'succeeded', 1, ${now}, ${now}),
           ('g2', 'o1', 'p2', 'c1', 'y', 'builtin', 'succeeded', 1, ${now}, ${now})`.execute(db);

  await migrateToLatest(db, engine);

  const raw = (await rawViews(db, { orgId: 'o1' })).map((v) => [
    v.project_id,
    v.path,
    v.referrer,
    v.visitor_hash,
    v.viewed_at,
  ]);
  expect(raw.sort()).toEqual(
    [
      ['p1', '/', 'google.com', 'a', now],
      ['p1', '/', null, 'a', now],
      ['p1', '/about', null, 'b', now],
      ['p2', '/', null, 'c', now],
    ].sort(),
  );
  const packs = await db
    .selectFrom('page_view_packs')
    .select(['project_id', 'view_count'])
    .orderBy('project_id')
    .execute();
  expect(packs).toEqual([
    { project_id: 'p1', view_count: 3 },
    { project_id: 'p2', view_count: 1 },
  ]);
  const scope = { orgId: 'o1', from: today, to: today };
  expect(await daily(db, scope)).toEqual([{ day: today, views: 4, visitors: 3 }]);
  expect(await daily(db, { ...scope, projectId: 'p1' })).toEqual([{ day: today, views: 3, visitors: 2 }]);
  expect(await topBy(db, engine, scope, 'path')).toEqual([
    { key: '/', views: 3 },
    { key: '/about', views: 1 },
  ]);
  expect(await topBy(db, engine, scope, 'referrer')).toEqual([
    { key: '(direct)', views: 3 },
    { key: 'google.com', views: 1 },
  ]);
  expect(await db.selectFrom('ai_usage').selectAll().execute()).toEqual([
    { org_client_id: 'c1', day: today, messages: 2 },
  ]);
});

it('gives every project with files a first version, and moves file content into shared blobs', async () => {
  const fresh = await createTestDatabase();
  const opened = openDatabase({
    dataDir: fresh.dataDir,
    databaseUrl: fresh.databaseUrl,
    sqliteSynchronous: 'NORMAL',
  });
  try {
    const { db, engine } = opened;
    await migrateTo(db, engine, '012_accounts');
    const now = new Date().toISOString();
    const no = engine === 'postgres' ? sql`false` : sql`0`;
    await sql`insert into organizations (id, name, created_at) values ('o1', 'Org', ${now})`.execute(db);
    await sql`insert into clients (id, org_id, user_id, email, email_lower, status, payment_status, created_at, updated_at)
      values ('c1', 'o1', 'u1', 'a@example.com', 'a@example.com', 'active', 'none', ${now}, ${now})`.execute(
      db,
    );
    for (const p of ['p1', 'p2']) {
      await sql`insert into projects (id, org_id, user_id, org_client_id, name, name_lower, status, tags, starred, is_public, subdomain, created_at, updated_at)
        values (${p}, 'o1', 'u1', 'c1', ${p}, ${p}, 'active', '[]', ${no}, ${no}, ${`site-${p}`}, ${now}, ${now})`.execute(
        db,
      );
    }
    const file = (text: string) => {
      const content = Buffer.from(text);
      return { content, size: content.length, sha256: createHash('sha256').update(content).digest('hex') };
    };
    const index = file('<h1>Home</h1>');
    const css = file('body{margin:0}');
    for (const [path, f] of [
      ['index.html', index],
      ['style.css', css],
    ] as const) {
      await sql`insert into project_files (org_id, project_id, path, content, content_type, size, sha256, updated_at)
        values ('o1', 'p1', ${path}, ${f.content}, 'text/html', ${f.size}, ${f.sha256}, ${now})`.execute(db);
    }
    await sql`insert into deployments (id, org_id, project_id, file_count, total_bytes, created_at) values ('d1', 'o1', 'p1', 1, ${index.size}, ${now})`.execute(
      db,
    );
    await sql`insert into deployment_files (deployment_id, path, content, content_type, size, sha256)
      values ('d1', 'index.html', ${index.content}, 'text/html', ${index.size}, ${index.sha256})`.execute(db);
    await sql`insert into templates (id, org_id, name, category, is_public, source_project_id, created_at, updated_at)
      values ('t1', 'o1', 'T', 'general', ${no}, 'p1', ${now}, ${now})`.execute(db);
    await sql`insert into template_files (org_id, template_id, path, content, content_type, size, sha256, updated_at)
      values ('o1', 't1', 'style.css', ${css.content}, 'text/css', ${css.size}, ${css.sha256}, ${now})`.execute(
      db,
    );

    await migrateToLatest(db, engine);

    const versions = await db
      .selectFrom('versions')
      .select(['project_id', 'number', 'source', 'file_count', 'size'])
      .execute();
    expect(versions).toEqual([
      { project_id: 'p1', number: 1, source: 'files_api', file_count: 2, size: index.size + css.size },
    ]);
    const blobs = await db.selectFrom('blobs').select(['sha256', 'content']).orderBy('sha256').execute();
    expect(blobs.map((b) => [b.sha256, Buffer.from(b.content).toString()]).sort()).toEqual(
      [
        [index.sha256, '<h1>Home</h1>'],
        [css.sha256, 'body{margin:0}'],
      ].sort(),
    );
    const served = await db
      .selectFrom('deployment_files as f')
      .innerJoin('blobs as b', 'b.sha256', 'f.sha256')
      .select(['f.path', 'b.content'])
      .where('f.deployment_id', '=', 'd1')
      .execute();
    expect(served.map((r) => [r.path, Buffer.from(r.content).toString()])).toEqual([
      ['index.html', '<h1>Home</h1>'],
    ]);
    expect(await db.selectFrom('template_files').select(['path', 'sha256']).execute()).toEqual([
      { path: 'style.css', sha256: css.sha256 },
    ]);
  } finally {
    await opened.close();
    await fresh.drop();
  }
});
