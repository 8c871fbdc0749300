// `archive-schema nginx` as an operator meets it: refusals with exit 2 (of every value nginx would
// read as more than a value, or reject), a server block that a real nginx accepts inside its own
// http { }, compressed answers from a site built with --precompress, from the copies or on the fly,
// and the requests `serve` refuses refused alike: links out of the site, bodies that cannot be
// read. The contract itself on nginx is in contract.e2e.test.ts, run there on every host.

import { execFileSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { NGINX_MODULES_DIR } from '../src/project.ts';
import { SKIP_NGINX, cli, http, nginxSite, serveSite, tempdir, testdir } from './helpers.ts';
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
    ['a value that looks like a message template', ['nginx', '--listen', '%s$&:0'], /--listen %s\$&:0: the port 0 is not/],
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

  test('the configuration takes nothing from a request but its line: no header, cookie or raw parameter', async () => {
    const printed = await cli(['nginx', '--standalone'], dir);
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout.match(/\$(?:http|cookie|arg|args|query_string|request_body)\w*/g) ?? []).toEqual([]);
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

  // Traversal in every encoding; links planted in the site are below, beside `serve`.
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

  // The same site on nginx and on `serve`, from a folder whose name has every character nginx's
  // configuration must quote (quotes, a semicolon, braces, a backslash, #, spaces, non-ASCII), with
  // symbolic links planted in it: both refuse the same requests with the same answers.
  describe('nginx refuses what serve refuses, with the same answers', () => {
    const SECRET = 'nginx-link-secret-9e04';
    let origin: string;
    let stop: (() => Promise<void>) | undefined;
    let served: { origin: string; server: ChildProcess } | undefined;
    let passwd = '';
    beforeAll(async () => {
      const site = path.join(await tempdir(), `a site's; {odd} "name" #1 \\ é`);
      const built = await cli(['build', '--base-url', BASE, '--out', site], dir);
      expect(built.code, built.stderr).toBe(0);
      const outside = path.join(path.dirname(site), 'outside');
      await mkdir(outside);
      for (const name of ['secret.txt', 'index.html', 'index.json']) await writeFile(path.join(outside, name), SECRET);
      await symlink('/etc', path.join(site, 'browse/etc'));
      await symlink('../outside', path.join(site, 'linkdir'));
      await symlink(outside, path.join(site, 'linkabs'));
      await symlink('../outside/secret.txt', path.join(site, 'linkfile.txt'));
      await symlink('index.html', path.join(site, 'inner.html'));
      await symlink('loop', path.join(site, 'loop'));
      await symlink(outside, path.join(site, 'api/schema/987654321'));
      await symlink(path.join(outside, 'secret.txt'), path.join(site, 'browse/style-linked.css'));
      // A document whose file is a link out of the site, and an answer page's folder.
      await rm(path.join(site, 'download/columns.vot'));
      await symlink(path.join(outside, 'secret.txt'), path.join(site, 'download/columns.vot'));
      await symlink(outside, path.join(site, '_errors/outside'));
      passwd = (await readFile('/etc/passwd', 'utf8')).split('\n')[0] ?? '';
      ({ origin, stop } = await nginxSite(site));
      served = await serveSite(site);
    });
    afterAll(async () => {
      await stop?.();
      served?.server.kill('SIGTERM');
    });

    const SAME = ['content-type', 'allow', 'vary', 'access-control-allow-origin', 'x-content-type-options', 'content-security-policy'];
    const seen = (r: HttpResult) => ({
      status: r.status,
      headers: Object.fromEntries(SAME.map((name) => [name, r.headers[name]])),
      body: r.body,
    });

    test.each([
      ['a folder link to /etc: /etc/passwd', '/browse/etc/passwd', 404],
      ['a folder link to /etc: the folder', '/browse/etc/', 404],
      ['a folder link to /etc: the folder without its slash', '/browse/etc', 404],
      ['a relative folder link out of the site', '/linkdir/secret.txt', 404],
      ['a folder link out of the site: its index', '/linkdir/', 404],
      ['an absolute folder link out of the site', '/linkabs/secret.txt', 404],
      ['a file link out of the site', '/linkfile.txt', 404],
      ["a file link out of the site under the browser's files", '/browse/style-linked.css', 404],
      ['a link inside the site to a site file', '/inner.html', 404],
      ['a link that loops on itself', '/loop', 404],
      ['a survey folder linked out of the site: the survey', '/api/schema/987654321/', 404],
      ['a survey folder linked out of the site: its JSON', '/api/schema/987654321/?format=json', 404],
      ['a survey folder linked out of the site: its page', '/api/schema/987654321/?format=api', 404],
      ['a survey folder linked out of the site: its file by name', '/api/schema/987654321/index.json', 404],
      ["a document's file linked out of the site", '/download/columns.vot', 404],
      ["a link in the answer pages' folder", '/_errors/outside/secret.txt', 404],
      ['the site itself, from a folder named with quotes, braces and a semicolon', '/index.html', 200],
      ['the API, from the same folder', '/api/schema/?data_type=catalogues', 200],
      ['a browsable page, from the same folder', '/api/schema/?data_type=catalogues&format=api', 200],
    ])('%s: %s is %i on both', async (_name, target, status) => {
      const [n, s] = await Promise.all([http(origin, 'GET', target), http(served?.origin ?? '', 'GET', target)]);
      expect(n.status).toBe(status);
      expect(seen(n)).toEqual(seen(s));
      expect(n.body).not.toContain(SECRET);
      if (passwd) expect(n.body).not.toContain(passwd);
    });

    // What a request's headers say chooses nothing: a root or a path named by a header (what a
    // root with "$http_x_root" in it did), a method or an address claimed by a proxy header.
    test.each([
      ['X-Root', '/etc'],
      ['X-Root', '../../../../etc'],
      ['Host', 'evil.example'],
      ['X-Forwarded-Host', 'evil.example'],
      ['X-Original-URL', '/etc/passwd'],
      ['X-Rewrite-URL', '/etc/passwd'],
      ['X-Accel-Redirect', '/etc/passwd'],
      ['X-HTTP-Method-Override', 'DELETE'],
      ['X-Archive-Schema-File', '0'],
    ])('a request header %s: %s changes no answer', async (name, value) => {
      for (const target of ['/passwd', '/etc/passwd', '/index.html', '/api/schema/?data_type=catalogues']) {
        const [plain, hostile, onServe] = await Promise.all([
          http(origin, 'GET', target),
          http(origin, 'GET', target, { [name]: value }),
          http(served?.origin ?? '', 'GET', target, { [name]: value }),
        ]);
        expect(seen(hostile), target).toEqual(seen(plain));
        expect(seen(onServe), target).toEqual(seen(plain));
        if (passwd) expect(hostile.body).not.toContain(passwd);
      }
    });

    /** Sends exactly these bytes on a connection and reads what comes back until the server closes it. */
    const raw = (at: string, bytes: string): Promise<string> => {
      const { hostname, port } = new URL(at);
      return new Promise((resolve, reject) => {
        const chunks: Buffer[] = [];
        const socket = net.connect(Number(port), hostname, () => socket.write(bytes));
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.on('error', reject);
        socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
      });
    };
    /** An answer's status, the headers both hosts set, its length and its body. */
    const answer = (text: string) => {
      const [head = '', body = ''] = text.split('\r\n\r\n', 2);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      return {
        status: statusLine.split(' ')[1],
        headers: Object.fromEntries([...SAME, 'content-length', 'connection'].map((name) => [name, headers[name]])),
        body,
        answers: text.match(/^HTTP\/1\.1 /gm)?.length,
      };
    };

    // A body in chunks that are not chunks: nginx once answered with its own 404 page (looking for
    // an answer page named by no answer) where `serve` answered 400; both now answer 400, once.
    test.each(
      ['GET', 'HEAD', 'POST', 'OPTIONS', 'DELETE'].flatMap((method) =>
        [
          '/api/schema/?data_type=catalogues',
          '/api/schema/?data_type=catalogues&format=api',
          '/api/schema/?data_type=bogus&format=api',
          '/api/schema/1/',
          '/api/nowhere',
          '/index.html',
          '/browse/',
          '/download/columns.csv',
          '/nowhere',
        ].map((target) => ({ method, target })),
      ),
    )('a body that cannot be read: $method $target is 400 on both', async ({ method, target }) => {
      const request = `${method} ${target} HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\nabc\r\n0\r\n\r\n`;
      const [n, s] = await Promise.all([raw(origin, request), raw(served?.origin ?? '', request)]);
      expect(answer(n)).toEqual({
        status: '400',
        headers: expect.objectContaining({ 'content-type': 'text/plain; charset=utf-8', 'content-length': '12' }) as unknown,
        body: method === 'HEAD' ? '' : 'Bad Request\n',
        answers: 1,
      });
      expect(answer(s)).toEqual(answer(n));
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
