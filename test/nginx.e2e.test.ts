// `archive-schema nginx` as an operator meets it: refusals with exit 2 (of every value nginx would
// read as more than a value, or reject), a server block that a real nginx accepts inside its own
// http { }, and compressed answers from a site built with --precompress, from the copies or on the
// fly. The contract itself on nginx is in contract.e2e.test.ts, run there on every host.

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { NGINX_MODULES_DIR } from '../src/project.ts';
import { SKIP_NGINX, cli, http, nginxSite, tempdir, testdir } from './helpers.ts';
import type { HttpResult } from './helpers.ts';

const BASE = 'https://schema.test';

describe('refusals', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await testdir();
    // Besides dist, built sites in folders whose names nginx would read as more than a path.
    for (const out of ['dist', '$http_x_root', 'a$b/dist', 'line\nbreak']) {
      const built = await cli(['build', '--base-url', BASE, '--out', out], dir);
      expect(built.code, built.stderr).toBe(0);
    }
  });

  test.each([
    ['a folder that holds no build', ['nginx', '--root', 'metadata'], /metadata holds no build; run `npm run build` first/],
    ['a listen address that is not one', ['nginx', '--root', 'dist', '--listen', 'localhost'], /--listen localhost: it is not HOST:PORT/],
    [
      'a server name nginx would read as more than names',
      ['nginx', '--root', 'dist', '--server-name', 'a; include /etc/passwd'],
      /--server-name a; include \/etc\/passwd: a; is not a host name .*; give host names/,
    ],
    ['a modules folder without the JavaScript module', ['nginx', '--root', 'dist', '--modules', 'metadata'], /libnginx-mod-http-js/],
    // Each of these once printed a configuration that `nginx -t` rejects, or one that did what no one meant.
    [
      'a port above 65535',
      ['nginx', '--listen', '127.0.0.1:99999'],
      /^archive-schema: --listen 127\.0\.0\.1:99999: the port 99999 is not a whole number from 1 to 65535; give HOST:PORT/,
    ],
    ['port 0 with no host', ['nginx', '--listen', ':0'], /--listen :0: the port 0 is not a whole number from 1 to 65535/],
    ['port 0 alone', ['nginx', '--listen', '0'], /--listen 0: the port 0 is not/],
    ['port 0 on an address', ['nginx', '--listen', '127.0.0.1:0'], /--listen 127\.0\.0\.1:0: the port 0 is not/],
    [
      'an IPv4 address out of range',
      ['nginx', '--listen', '999.1.1.1:80'],
      /--listen 999\.1\.1\.1:80: 999\.1\.1\.1 is neither an IP address nor a host name/,
    ],
    ['an IPv6 address that is not one', ['nginx', '--listen', '[zz]:80'], /--listen \[zz\]:80: \[zz\] is not an IPv6 address/],
    [
      'a 5,000-character server name',
      ['nginx', '--server-name', 'a'.repeat(5000)],
      /^archive-schema: --server-name a{40}… \(5000 characters\): it is not a host name \(at most 253 characters/,
    ],
    ['a server name with a label over 63 characters', ['nginx', '--server-name', `${'a'.repeat(64)}.org`], /it is not a host name/],
    ['a server name with a line break', ['nginx', '--server-name', 'a\nb'], /--server-name a\\u000Ab: it is not a host name/],
    [
      'a root named $http_x_root, which a request header would fill in',
      ['nginx', '--root', '$http_x_root'],
      /--root \$http_x_root \(.*\/\$http_x_root\): the path holds "\$", which nginx reads in a path as the start of a variable/,
    ],
    ['a root with $ elsewhere in its path', ['nginx', '--root', 'a$b/dist'], /--root a\$b\/dist \(.*\): the path holds "\$"/],
    [
      'a root with a line break',
      ['nginx', '--root', 'line\nbreak'],
      /--root line\\u000Abreak \(.*\): the path holds a control character \(U\+000A\)/,
    ],
    [
      'a modules folder with a line break',
      ['nginx', '--modules', '/usr/lib/nginx\nmodules'],
      /--modules \/usr\/lib\/nginx\\u000Amodules: the path holds a control character/,
    ],
  ])('%s: exit 2 and what to do', async (_name, argv, message) => {
    const r = await cli(argv, dir);
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});

describe.skipIf(SKIP_NGINX)('on a real nginx', () => {
  let dir: string;
  let dist: string;
  beforeAll(async () => {
    dir = await testdir();
    const built = await cli(['build', '--base-url', BASE, '--precompress'], dir);
    expect(built.code, built.stderr).toBe(0);
    dist = path.join(dir, 'dist');
  });

  test('the server block passes `nginx -t` inside an operator’s own http { }', async () => {
    const printed = await cli(['nginx', '--root', 'dist', '--listen', '127.0.0.1:8089', '--server-name', 'schema.example.org'], dir);
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout).not.toMatch(/^\s*(load_module|pid|events|http)\b/m);
    const prefix = await tempdir();
    await writeFile(path.join(prefix, 'site.conf'), printed.stdout);
    const modules = ['ngx_http_js_module.so', 'ngx_http_brotli_filter_module.so', 'ngx_http_brotli_static_module.so'];
    await writeFile(
      path.join(prefix, 'nginx.conf'),
      `${modules.map((m) => `load_module ${path.join(NGINX_MODULES_DIR, m)};`).join('\n')}
pid nginx.pid;
error_log stderr;
events {}
http {
    access_log off;
    include site.conf;
}
`,
    );
    const tested = execFileSync('nginx', ['-t', '-p', prefix, '-c', path.join(prefix, 'nginx.conf')], { encoding: 'utf8', stdio: 'pipe' });
    expect(tested).toBe('');
  });

  // The build writes no symbolic link, and nginx follows the links an operator puts in the site as
  // it does anywhere: Debian's brotli_static serves no copy once disable_symlinks is on.
  describe('hostile requests never leave the site', () => {
    const SECRET = 'nginx-hostile-secret-52c1';
    let origin: string;
    let stop: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      const outside = path.join(dir, 'outside');
      await mkdir(outside);
      await writeFile(path.join(dir, 'secret.txt'), SECRET);
      await writeFile(path.join(outside, 'index.html'), SECRET);
      ({ origin, stop } = await nginxSite(dist));
    });
    afterAll(async () => {
      await stop?.();
    });

    test.each([
      '/../secret.txt',
      '/../../../../../../etc/passwd',
      '/api/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      '/%252e%252e/secret.txt',
      '/%c0%ae%c0%ae/secret.txt',
      '/..\\secret.txt',
      '/..%5csecret.txt',
      '//etc/passwd',
      'http://x/../../etc/passwd',
      '/index.html%00',
      '/etc/passwd',
      '/outside/index.html',
      '/.archive-schema-output',
      '/api/schema/..%2f..%2fsecret.txt/',
      '/api/schema/%2e%2e/',
      `/api/schema/1/${'a'.repeat(300)}`,
    ])('GET %s', async (target) => {
      const r = await http(origin, 'GET', target);
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      expect(r.body).not.toContain(SECRET);
      expect(r.body).not.toMatch(/root:x?:0:0/);
    });
  });

  describe('compression', () => {
    let origin: string;
    let stop: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      ({ origin, stop } = await nginxSite(dist));
    });
    afterAll(async () => {
      await stop?.();
    });
    const get = (target: string, encoding?: string, method = 'GET'): Promise<HttpResult> =>
      http(origin, method, target, encoding ? { 'Accept-Encoding': encoding } : {});
    const decoded = (r: HttpResult): Buffer => {
      const encoding = r.headers['content-encoding'];
      if (encoding === 'br') return brotliDecompressSync(r.bytes);
      if (encoding === 'gzip') return gunzipSync(r.bytes);
      return r.bytes;
    };

    test.each([
      ['a listing, from its precompressed copy', '/api/schema/?data_type=catalogues', 'api/schema/data_type/catalogues.json'],
      ['a survey, from its precompressed copy', '/api/schema/1/', 'api/schema/1/index.json'],
      ['a document from the download, compressed as it is sent', '/download/columns.vot', 'download/columns.vot'],
      ['the whole archive, its gzip being the download’s own archive.json.gz', '/download/archive.json', 'download/archive.json'],
    ])('%s: br and gzip as asked, the same bytes once decoded', async (_name, target, file) => {
      const plain = await readFile(path.join(dist, file));
      const identity = await get(target);
      expect(identity.headers['content-encoding']).toBeUndefined();
      expect(identity.bytes.equals(plain)).toBe(true);
      // A copy is preferred, a brotli one first; then brotli made as it is sent, then gzip.
      const copies = { br: existsSync(path.join(dist, `${file}.br`)), gzip: existsSync(path.join(dist, `${file}.gz`)) };
      const both = copies.br || !copies.gzip ? 'br' : 'gzip';
      for (const [asked, sent] of [
        ['br', 'br'],
        ['gzip', 'gzip'],
        ['gzip, deflate, br', both],
        ['br;q=0, gzip', 'gzip'],
      ] as const) {
        const r = await get(target, asked);
        expect(r.status, asked).toBe(200);
        expect(r.headers['content-encoding'], asked).toBe(sent);
        expect(r.headers.vary, asked).toMatch(/Accept-Encoding/);
        expect(decoded(r).equals(plain), asked).toBe(true);
        expect(r.bytes.length).toBeLessThan(plain.length);
      }
    });

    test.each([
      ['/api/schema/?data_type=catalogues', 'api/schema/data_type/catalogues.json.gz'],
      ['/download/archive.json', 'download/archive.json.gz'],
    ])('a copy is what is sent when there is one: %s', async (target, file) => {
      const r = await get(target, 'gzip');
      const copy = await readFile(path.join(dist, file));
      expect(r.bytes.equals(copy)).toBe(true);
      expect(Number(r.headers['content-length'])).toBe(copy.length);
    });

    test('a browsable page is compressed after its request line is filled in', async () => {
      const r = await get('/api/schema/?format=api&data_type=imaging', 'gzip');
      expect(r.headers['content-encoding']).toBe('gzip');
      expect(decoded(r).toString()).toContain('<b>GET</b> /api/schema/?format=api&amp;data_type=imaging</pre>');
      expect(decoded(r).equals((await get('/api/schema/?format=api&data_type=imaging')).bytes)).toBe(true);
    });

    test('HEAD gives the headers GET gives, compressed too', async () => {
      for (const encoding of ['br', 'gzip', undefined]) {
        const g = await get('/api/schema/?data_type=catalogues', encoding);
        const h = await get('/api/schema/?data_type=catalogues', encoding, 'HEAD');
        expect(h.bytes.length).toBe(0);
        for (const name of ['content-type', 'content-encoding', 'content-length', 'vary', 'etag', 'allow']) {
          expect(h.headers[name], `${encoding ?? 'identity'} ${name}`).toBe(g.headers[name]);
        }
      }
    });

    test('short answers are never compressed, and say nothing of Accept-Encoding', async () => {
      const r = await get('/api/schema/?data_type=bogus', 'br, gzip');
      expect(r.status).toBe(400);
      expect(r.headers['content-encoding']).toBeUndefined();
      expect(r.headers.vary).toBe('Accept');
    });
  });
});
