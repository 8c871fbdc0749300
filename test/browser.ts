// A real browser for the tests of the schema browser's pages: Debian's Chromium (never one that npm
// downloads) driven by puppeteer-core, launched once for the whole run (test/browser-setup.ts); each
// test file connects to it and opens its pages in a browser context of its own (no cookies, storage
// or cache shared with another file). Each test opens fresh pages (tabs) that record every request,
// console error, uncaught error, failed load and dialog; each is closed when its test is done with it,
// the context after the file. axe-core checks a page's accessibility.

import { createRequire } from 'node:module';
import puppeteer from 'puppeteer-core';
import type { Browser, BrowserContext, HTTPResponse, Page } from 'puppeteer-core';
import { afterAll, beforeAll, inject } from 'vitest';
// The type of what the run's setup provides (inject's chromiumWsEndpoint).
import type {} from './browser-setup.ts';

/** axe-core's script, injected into a page to check it. */
export const AXE_SCRIPT = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

export interface PageOptions {
  /** The viewport's width in CSS pixels (1280 unless given); its height is 800. */
  width?: number;
  /** The colour scheme the page is shown in. */
  scheme?: 'light' | 'dark';
  /** Leave the page's Content-Security-Policy unenforced (for axe-core's injected script). */
  bypassCsp?: boolean;
}

/** A page and what it has done since it was opened. */
export interface WatchedPage {
  page: Page;
  /** Every URL requested, the documents' own included, in order. */
  requests: string[];
  /** The text of every console message of type error. */
  consoleErrors: string[];
  /** Every uncaught exception in the page. */
  pageErrors: string[];
  /** Requests that failed, and responses with an error status, as "URL: reason". */
  failures: string[];
  /** The messages of alert, confirm and prompt dialogs (each dismissed). */
  dialogs: string[];
  /** Opens a URL and waits for its load event; the main document's response. */
  goto(url: string): Promise<HTTPResponse | null>;
}

/**
 * The browser for the tests of one file: the run's shared Chromium, connected to before its first
 * test, in a context of its own that is closed after its last. `page` opens a fresh page for a test,
 * hands it to `use` and closes it when `use` is done, however it ends: tests that run at once each
 * have their own.
 */
export function useBrowser(): { page<T>(options: PageOptions, use: (watched: WatchedPage) => Promise<T>): Promise<T> } {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  const open = new Set<Page>();
  beforeAll(async () => {
    browser = await puppeteer.connect({ browserWSEndpoint: inject('chromiumWsEndpoint') });
    context = await browser.createBrowserContext();
  });
  afterAll(async () => {
    await Promise.all([...open].map((p) => p.close()));
    await context?.close();
    await browser?.disconnect();
  });
  return {
    async page(options, use) {
      if (!context) throw new Error('the browser is not connected (useBrowser is called at the top of a test file)');
      const page = await context.newPage();
      open.add(page);
      try {
        return await use(await watch(page, options));
      } finally {
        open.delete(page);
        await page.close();
      }
    },
  };
}

/** Sets a page up as asked and records what it does. */
export async function watch(page: Page, options: PageOptions = {}): Promise<WatchedPage> {
  const watched: WatchedPage = {
    page,
    requests: [],
    consoleErrors: [],
    pageErrors: [],
    failures: [],
    dialogs: [],
    goto: (url) => page.goto(url, { waitUntil: 'load' }),
  };
  page.on('request', (request) => watched.requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') watched.consoleErrors.push(`${message.text()} (${message.location().url ?? 'no URL'})`);
  });
  page.on('pageerror', (error) => watched.pageErrors.push(error instanceof Error ? error.message : String(error)));
  page.on('requestfailed', (request) => watched.failures.push(`${request.url()}: ${request.failure()?.errorText ?? 'failed'}`));
  page.on('response', (response) => {
    if (response.status() >= 400) watched.failures.push(`${response.url()}: ${response.status()}`);
  });
  page.on('dialog', (dialog) => {
    watched.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  // No deadline of puppeteer's own (30 s) on a wait or a load: each waits for its event, and a test
  // that never gets it ends at the test's timeout. On a busy machine a page took longer than 30 s.
  page.setDefaultTimeout(0);
  // Every page behaves as the focused one, as a visitor's tab does: tests run at once in tabs of one
  // window, and a focus event (the search loads its data on one) went to whichever tab was brought
  // to the front last, so a test could wait for it for ever.
  const session = await page.createCDPSession();
  await session.send('Emulation.setFocusEmulationEnabled', { enabled: true });
  // Tabs open at once share the browser's cache: a page asked for again would come back 304.
  await page.setCacheEnabled(false);
  await page.setViewport({ width: options.width ?? 1280, height: 800 });
  if (options.scheme) await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: options.scheme }]);
  if (options.bypassCsp) await page.setBypassCSP(true);
  return watched;
}

/** One rule axe-core found broken, with the elements that break it. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  /** Each element: its selector (axe-core's target), the start of its markup, and what is wrong with it. */
  nodes: { target: string; html: string; summary: string }[];
}

/**
 * axe-core's violations on the page as it is now, of the given impacts (serious and critical unless
 * said), outside the elements `exclude` selects. The page must have been opened with bypassCsp: the
 * script is injected inline.
 */
export async function axeViolations(
  page: Page,
  options: { impacts?: readonly string[]; exclude?: readonly string[] } = {},
): Promise<AxeViolation[]> {
  const impacts = options.impacts ?? ['serious', 'critical'];
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_SCRIPT });
  const found = await page.evaluate(async (exclude) => {
    const axe = (window as unknown as { axe: { run: (context: unknown) => Promise<{ violations: unknown[] }> } }).axe;
    const results = await axe.run({ include: [['html']], exclude: exclude.map((selector) => [selector]) });
    return results.violations as {
      id: string;
      impact: string | null;
      help: string;
      nodes: { target: unknown[]; html: string; failureSummary?: string }[];
    }[];
  }, options.exclude ?? []);
  return found
    .filter((v) => impacts.includes(v.impact ?? ''))
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({
        target: n.target.map(String).join(' '),
        html: n.html,
        summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').trim(),
      })),
    }));
}
