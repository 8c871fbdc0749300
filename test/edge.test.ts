// The Netlify edge function itself (netlify/edge-functions/api.ts), called as Netlify calls it:
// with a web Request and a context whose next() is what the CDN's rules and files answered.

import { describe, expect, test } from 'vitest';
import edge from '../netlify/edge-functions/api.ts';

const context = (status: number, body: string, type: string) => ({
  next: () =>
    Promise.resolve(
      new Response(body, { status, headers: { 'Content-Type': type, 'Cache-Control': 'public, max-age=0, must-revalidate' } }),
    ),
});
const call = (method: string, url: string, ctx = context(200, '[]', 'application/json')) =>
  edge(new Request(`https://schema.test${url}`, { method }), ctx);

describe('the edge function', () => {
  test("adds the API's headers, Allow among them, to what the files answered", async () => {
    const res = await call('GET', '/api/schema/?data_type=imaging', context(200, '[]', 'application/json; charset=utf-8'));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('[]');
    expect(Object.fromEntries(res.headers)).toEqual({
      allow: 'GET, HEAD, OPTIONS',
      vary: 'Accept',
      'content-type': 'application/json',
      'access-control-allow-origin': '*',
      'x-content-type-options': 'nosniff',
      'cache-control': 'public, max-age=0, must-revalidate',
    });
  });

  test("gives the host's own 404 page the API's body", async () => {
    const res = await call('GET', '/api/schema/99/', context(404, '<html>Page not found</html>', 'text/html; charset=utf-8'));
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.text()).toBe('{"detail":"Not found."}');
  });

  test('answers methods the rules cannot tell apart without asking the files', async () => {
    const never = { next: () => Promise.reject(new Error('files must not be asked')) };
    const post = await call('POST', '/api/schema/1/', never);
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(await post.text()).toBe('{"detail":"Method \\"POST\\" not allowed."}');
    const options = await call('OPTIONS', '/api/schema/?data_type=imaging', never);
    expect(options.status).toBe(200);
    expect(JSON.parse(await options.text())).toMatchObject({ name: 'Schema List', description: '' });
  });

  test('fills a page file in with the request as made, for GET and for HEAD', async () => {
    const page = '<!DOCTYPE html>\n<!--request-->\n<pre>[]</pre>\n';
    const pageFile = () => ({
      next: () =>
        Promise.resolve(
          new Response(page, { headers: { 'Content-Type': 'text/html; charset=UTF-8', 'Content-Length': String(page.length) } }),
        ),
    });
    const get = await call('GET', '/api/schema/?format=api&data_type=ifs', pageFile());
    const body = await get.text();
    expect(body).toBe(
      '<!DOCTYPE html>\n<nav class="crumbs" aria-label="Breadcrumbs">Schema List</nav>\n<h1>Schema List</h1>\n<div class="formats">Formats:<a href="/api/schema/?data_type=ifs&amp;format=json">json</a><a href="/api/schema/?data_type=ifs&amp;format=api">api</a></div>\n' +
        '<pre class="request"><b>GET</b> /api/schema/?format=api&amp;data_type=ifs</pre>\n<pre>[]</pre>\n',
    );
    expect(get.headers.get('content-length')).toBe(String(new TextEncoder().encode(body).length));
    const head = await call('HEAD', '/api/schema/?format=api&data_type=ifs', pageFile());
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
    expect(await head.text()).toBe('');
  });

  // The "Schema List" crumb of imaging, ifs and spectra pages led to the catalogues listing.
  test.each([
    ['/api/schema/1/?data_type=imaging&format=api', '/api/schema/?data_type=imaging&amp;format=api'],
    ['/api/schema/1/?format=api&data_type=spectra', '/api/schema/?data_type=spectra&amp;format=api'],
    ['/api/schema/1/?data_type=ifs&format=api&data_type=imaging', '/api/schema/?data_type=imaging&amp;format=api'],
    // A survey's own page names no data type: the crumb leads to the first listing.
    ['/api/schema/1/?format=api', '/api/schema/?data_type=catalogues&amp;format=api'],
  ])('the breadcrumb of %s leads to the listing of its data type', async (target, listing) => {
    const page = '<!DOCTYPE html>\n<!--request-->\n<pre>{}</pre>\n';
    const res = await call('GET', target, {
      next: () => Promise.resolve(new Response(page, { headers: { 'Content-Type': 'text/html; charset=utf-8' } })),
    });
    expect(await res.text()).toContain(
      `<nav class="crumbs" aria-label="Breadcrumbs"><a href="${listing}">Schema List</a> / Schema Instance</nav>\n<h1>Schema Instance</h1>`,
    );
  });

  test('leaves paths outside /api/ alone', async () => {
    const res = await call('GET', '/index.html', context(200, '<html></html>', 'text/html'));
    expect(res.headers.get('allow')).toBeNull();
    expect(await res.text()).toBe('<html></html>');
  });
});
