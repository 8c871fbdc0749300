// vitest globalSetup of the tests that start processes: one Chromium for every browser test file
// (test/browser.ts connects to it), launched before the first file and closed after the last.
// Launching one per file cost a second or more each, and two at once on a 2-core machine slowed both.

import puppeteer from 'puppeteer-core';
import type { TestProject } from 'vitest/node';

/** The browser the tests drive: Debian's Chromium unless ARCHIVE_SCHEMA_CHROMIUM names another. */
export const CHROMIUM = process.env.ARCHIVE_SCHEMA_CHROMIUM ?? '/usr/bin/chromium';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared browser's DevTools WebSocket address, for puppeteer.connect. */
    chromiumWsEndpoint: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    // A DevTools port (chosen by Chromium: port 0) rather than a pipe, so that the test files, in
    // other processes, can connect; it listens on the loopback interface only.
    pipe: false,
    // Without the sandbox only as root, where Chromium refuses it.
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
  project.provide('chromiumWsEndpoint', browser.wsEndpoint());
  return async () => {
    await browser.close();
  };
}
