// tap_schema.vot loaded into a TAP service's database: a throwaway PostgreSQL cluster (Debian's
// postgresql; .ci/run installs it) on a free port, TAP 1.1's TAP_SCHEMA tables with their NOT NULL
// constraints and keys, astropy reading the VOTable into INSERTs, and every row read back.

import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, readdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cli, testdir } from './helpers.ts';

// ---- The cluster -----------------------------------------------------------------------------------------

/** The newest PostgreSQL's programs Debian installed, or undefined. */
function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin/initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : path.join(root, versions[0], 'bin');
}

/** initdb and postgres refuse to run as root: as root, they run as the postgres user. */
const AS_POSTGRES = process.getuid?.() === 0;

function run(program: string, args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const [command, argv] = AS_POSTGRES ? ['runuser', ['-u', 'postgres', '--', program, ...args]] : [program, args];
  return new Promise((resolve) => {
    const child = execFile(command, argv, { maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

// ---- TAP 1.1's TAP_SCHEMA --------------------------------------------------------------------------------

const DATATYPES =
  "'boolean','bit','unsignedByte','short','int','long','char','unicodeChar','float','double','floatComplex','doubleComplex'";

/**
 * TAP_SCHEMA as TAP 1.1 (section 4) defines it: its columns, those it requires not null, the 0/1
 * flags, table_type table or view, the unique names, and the foreign keys it asks services to
 * enforce; datatype one of VOTable's.
 */
const TAP_SCHEMA_DDL = `
CREATE SCHEMA "TAP_SCHEMA";
CREATE TABLE "TAP_SCHEMA".schemas (
  schema_name varchar NOT NULL PRIMARY KEY, utype varchar, description varchar, schema_index integer);
CREATE TABLE "TAP_SCHEMA".tables (
  schema_name varchar NOT NULL REFERENCES "TAP_SCHEMA".schemas (schema_name),
  table_name varchar NOT NULL PRIMARY KEY,
  table_type varchar NOT NULL CHECK (table_type IN ('table', 'view')),
  utype varchar, description varchar, table_index integer);
CREATE TABLE "TAP_SCHEMA".columns (
  table_name varchar NOT NULL REFERENCES "TAP_SCHEMA".tables (table_name),
  column_name varchar NOT NULL,
  datatype varchar NOT NULL CHECK (datatype IN (${DATATYPES})),
  arraysize varchar, xtype varchar, "size" integer, description varchar, utype varchar, unit varchar, ucd varchar,
  indexed integer NOT NULL CHECK (indexed IN (0, 1)),
  principal integer NOT NULL CHECK (principal IN (0, 1)),
  std integer NOT NULL CHECK (std IN (0, 1)),
  column_index integer,
  PRIMARY KEY (table_name, column_name));
CREATE TABLE "TAP_SCHEMA".keys (
  key_id varchar NOT NULL PRIMARY KEY,
  from_table varchar NOT NULL REFERENCES "TAP_SCHEMA".tables (table_name),
  target_table varchar NOT NULL REFERENCES "TAP_SCHEMA".tables (table_name),
  description varchar, utype varchar);
CREATE TABLE "TAP_SCHEMA".key_columns (
  key_id varchar NOT NULL REFERENCES "TAP_SCHEMA".keys (key_id), from_column varchar NOT NULL, target_column varchar NOT NULL);
`;

/**
 * astropy reads tap_schema.vot and writes an INSERT for every row of every TABLE, into the
 * TAP_SCHEMA table of its name, by its FIELD names: an empty cell is NULL.
 */
const LOADER = String.raw`
import sys, numpy
from astropy.io.votable import parse
def literal(v):
    # VOTable writes a null number as an empty TD (astropy masks it) and a null string as an
    # empty one, which astropy reads as '' (as STILTS does, a loader takes it for null).
    if numpy.ma.is_masked(v) or (isinstance(v, str) and v == ''):
        return 'NULL'
    if isinstance(v, (numpy.integer, int)):
        return str(int(v))
    return "'" + str(v).replace("'", "''") + "'"
out = ['BEGIN;']
for resource in parse(sys.argv[1], verify='exception').resources:
    for t in resource.tables:
        names = ', '.join('"' + f.name + '"' for f in t.fields)
        for row in t.array:
            out.append('INSERT INTO "TAP_SCHEMA".%s (%s) VALUES (%s);' % (t.name, names, ', '.join(literal(row[f.ID or f.name]) for f in t.fields)))
out.append('COMMIT;')
print('\n'.join(out))
`;

// ---- The archive -------------------------------------------------------------------------------------------

/** A group beside the fixture's with columns of every kind of type, one without, and text that needs quoting. */
const TYPES = `id: 29
name: Types
created: 2020-01-01T00:00:00Z
updated: 2020-01-01T00:00:00Z
tables:
  - id: 290
    name: Typed
    description: "O'Brien's table: \\"quoted\\", 🔭"
    columns:
      - {id: 2900, name: ID, ucd: meta.id;meta.main, datatype: long}
      - {id: 2901, name: RA, ucd: pos.eq.ra;meta.main, unit: deg, datatype: double, principal: false}
      - {id: 2902, name: NAME, description: "It's a name", datatype: char, arraysize: 32*}
      - {id: 2903, name: FLAGS, datatype: short, arraysize: 3x4}
      - {id: 2904, name: UNTYPED, description: Its type is not recorded}
      - {id: 2905, name: SED, unit: mJy, ucd: phot.flux.density, datatype: float, arraysize: '*', principal: true}
      - {id: 2906, name: OK, datatype: boolean}
      - {id: 2907, name: size, datatype: int}
`;

interface Loaded {
  load: { code: number; stdout: string; stderr: string };
  read: Record<string, Record<string, string>[]>;
}
let loaded: Loaded | undefined;
let stop: (() => Promise<void>) | undefined;
const bin = postgresBin();

beforeAll(async () => {
  if (!bin)
    throw new Error(
      'PostgreSQL is not installed; install it with: sudo apt-get install -y --no-install-recommends postgresql (.ci/run does)',
    );
  const dir = await testdir({ 'alpha/dr2/catalogues/Types.yaml': TYPES });
  expect((await cli(['build', '--out', 'dist', '--base-url', 'https://schema.test'], dir)).code).toBe(0);
  const vot = path.join(dir, 'dist/download/tap_schema.vot');
  const sql = execFileSync('/usr/bin/python3', ['-c', LOADER, vot], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

  const cluster = path.join(dir, 'pg');
  execFileSync('mkdir', [cluster]);
  if (AS_POSTGRES) {
    // The postgres user must reach the cluster's folder through the test's.
    chmodSync(dir, 0o755);
    chownSync(cluster, Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })), 0);
  }
  const init = await run(path.join(bin, 'initdb'), [
    '-D',
    path.join(cluster, 'data'),
    '-A',
    'trust',
    '-U',
    'tap',
    '--no-sync',
    '-E',
    'UTF8',
    '--locale',
    'C',
  ]);
  expect(init.code, init.stderr).toBe(0);
  const port = await freePort();
  const start = await run(path.join(bin, 'pg_ctl'), [
    '-D',
    path.join(cluster, 'data'),
    '-l',
    path.join(cluster, 'log'),
    '-w',
    '-o',
    `-p ${port} -k ${cluster} -c listen_addresses=''`,
    'start',
  ]);
  expect(start.code, start.stderr).toBe(0);
  stop = async () => {
    await run(path.join(bin, 'pg_ctl'), ['-D', path.join(cluster, 'data'), '-m', 'immediate', '-w', 'stop']);
  };
  const psql = (input: string, ...args: string[]) =>
    run(
      path.join(bin, 'psql'),
      ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-h', cluster, '-p', String(port), '-U', 'tap', '-d', 'postgres', ...args],
      input,
    );
  const ddl = await psql(TAP_SCHEMA_DDL);
  expect(ddl.code, ddl.stderr).toBe(0);
  const load = await psql(sql);
  const read: Loaded['read'] = {};
  for (const table of ['schemas', 'tables', 'columns', 'keys', 'key_columns']) {
    const out = await psql('', '-c', `COPY (SELECT * FROM "TAP_SCHEMA".${table}) TO STDOUT WITH (FORMAT csv, HEADER, FORCE_QUOTE *)`);
    expect(out.code, out.stderr).toBe(0);
    // Quoted fields are values, empty unquoted ones NULL: FORCE_QUOTE tells them apart.
    read[table] = parseCsv(out.stdout, {
      columns: true,
      cast: (value, context) => (context.quoting ? value : value === '' ? null : value),
    });
  }
  loaded = { load, read };
}, 120_000);

afterAll(async () => {
  await stop?.();
});

describe('tap_schema.vot in PostgreSQL, under TAP 1.1 constraints', () => {
  test('loads: every INSERT is accepted, NOT NULL, 0/1 flags, datatypes and foreign keys included', () => {
    expect(loaded?.load.stderr).toBe('');
    expect(loaded?.load.code).toBe(0);
  });

  test('schemas and tables read back: one schema per release with catalogues, one row per catalogue table', () => {
    expect(loaded?.read.schemas?.map((r) => r.schema_name)).toEqual(['alpha_dr1', 'alpha_dr2']);
    expect(loaded?.read.tables?.map((r) => [r.schema_name, r.table_name, r.table_type])).toEqual([
      ['alpha_dr1', 'alpha_dr1.SpecCat_SpecObj', 'table'],
      ['alpha_dr2', 'alpha_dr2.InputCat_TilingCat', 'table'],
      ['alpha_dr2', 'alpha_dr2.Types_Typed', 'table'],
    ]);
    expect(loaded?.read.tables?.[2]?.description).toBe('O\'Brien\'s table: "quoted", 🔭');
  });

  test('columns read back with their types, sizes, flags and order; the column without a datatype is not there', () => {
    const typed = loaded?.read.columns
      ?.filter((r) => r.table_name === 'alpha_dr2.Types_Typed')
      .map((r) => [r.column_name, r.datatype, r.arraysize, r.size, r.unit, r.ucd, r.indexed, r.principal, r.std, r.column_index]);
    expect(typed).toEqual([
      ['ID', 'long', null, null, null, 'meta.id;meta.main', '0', '1', '0', '1'],
      ['RA', 'double', null, null, 'deg', 'pos.eq.ra;meta.main', '0', '0', '0', '2'],
      ['NAME', 'char', '32*', '32', null, null, '0', '0', '0', '3'],
      ['FLAGS', 'short', '3x4', null, null, null, '0', '0', '0', '4'],
      ['SED', 'float', '*', null, 'mJy', 'phot.flux.density', '0', '1', '0', '6'],
      ['OK', 'boolean', null, null, null, null, '0', '0', '0', '7'],
      // A name ADQL reserves, delimited as TAP asks.
      ['"size"', 'int', null, null, null, null, '0', '0', '0', '8'],
    ]);
    expect(loaded?.read.columns?.find((r) => r.column_name === 'NAME')?.description).toBe("It's a name");
    expect(loaded?.read.columns?.map((r) => r.table_name)).toEqual([
      ...Array<string>(3).fill('alpha_dr1.SpecCat_SpecObj'),
      'alpha_dr2.InputCat_TilingCat',
      ...Array<string>(7).fill('alpha_dr2.Types_Typed'),
    ]);
  });

  test('no foreign keys are recorded', () => {
    expect(loaded?.read.keys).toEqual([]);
    expect(loaded?.read.key_columns).toEqual([]);
  });
});
