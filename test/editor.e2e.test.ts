// Editor support as curators meet it: the YAML language server (what VS Code's YAML extension
// runs) is started over stdio with the repository's .vscode/settings.json, and must complete
// keys, describe them on hover and flag errors in every metadata file kind. A second part proves
// that the settings' globs, and every file's schema comment, cover every file under metadata/.

import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fg from 'fast-glob';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { classify } from '../src/kinds/registry.ts';
import { SCHEMA_FILES } from '../src/pipeline/validate.ts';
import { FIXTURE, PROJECT } from './helpers.ts';

const settings = JSON.parse(readFileSync(path.join(PROJECT, '.vscode/settings.json'), 'utf8')) as {
  'yaml.schemas': Record<string, string>;
};

/** A JSON-RPC message of the Language Server Protocol: a request, a response or a notification. */
interface Message {
  id?: number;
  method?: string;
  params?: unknown;
  result?: unknown;
}

interface Diagnostics {
  uri: string;
  diagnostics: { message: string; range: { start: { line: number; character: number } } }[];
}

/** A minimal Language Server Protocol client over the server's stdio. */
class LanguageClient {
  private buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly pending = new Map<number, (result: unknown) => void>();
  private readonly listeners: ((method: string | undefined, params: unknown) => void)[] = [];

  constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly configuration: unknown,
  ) {
    child.stdout.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.drain();
    });
  }

  private drain(): void {
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, headerEnd).toString())?.[1]);
      if (this.buffer.length < headerEnd + 4 + length) return;
      const message = JSON.parse(this.buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8')) as Message;
      this.buffer = this.buffer.subarray(headerEnd + 4 + length);
      this.dispatch(message);
    }
  }

  private dispatch(message: Message): void {
    if (message.id !== undefined && message.method === undefined) {
      this.pending.get(message.id)?.(message.result);
      this.pending.delete(message.id);
    } else if (message.id !== undefined) {
      // A request from the server: answer configuration requests with the settings.
      const items = message.method === 'workspace/configuration' ? (message.params as { items: unknown[] }).items : undefined;
      const result = items ? items.map(() => this.configuration) : null;
      this.write({ jsonrpc: '2.0', id: message.id, result });
    } else {
      for (const listener of this.listeners) listener(message.method, message.params);
    }
  }

  private write(message: unknown): void {
    const body = Buffer.from(JSON.stringify(message), 'utf8');
    this.child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.child.stdin.write(body);
  }

  request<T>(method: string, params: unknown): Promise<T> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve as (r: unknown) => void);
      this.write({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method: string, params: unknown): void {
    this.write({ jsonrpc: '2.0', method, params });
  }

  diagnosticsFor(uri: string): Promise<Diagnostics['diagnostics']> {
    return new Promise((resolve) => {
      this.listeners.push((method, params) => {
        const published = params as Diagnostics;
        if (method === 'textDocument/publishDiagnostics' && published.uri === uri) resolve(published.diagnostics);
      });
    });
  }
}

let server: ChildProcessWithoutNullStreams | undefined;
let client: LanguageClient;
let version = 0;

beforeAll(async () => {
  const yaml = { schemas: settings['yaml.schemas'], validate: true, completion: true, hover: true };
  server = spawn(process.execPath, [path.join(PROJECT, 'node_modules/yaml-language-server/bin/yaml-language-server'), '--stdio']);
  client = new LanguageClient(server, yaml);
  const root = pathToFileURL(PROJECT).href;
  await client.request('initialize', {
    processId: process.pid,
    rootUri: root,
    workspaceFolders: [{ uri: root, name: 'archive-schema' }],
    capabilities: {
      workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true } },
      textDocument: { completion: { completionItem: { snippetSupport: false } }, hover: { contentFormat: ['plaintext', 'markdown'] } },
    },
  });
  client.notify('initialized', {});
  client.notify('workspace/didChangeConfiguration', { settings: { yaml } });
});

afterAll(() => {
  server?.kill();
});

/** Opens a document (its text as given, at the path of a real metadata file) and waits for its diagnostics. */
async function open(relative: string, text: string) {
  const uri = pathToFileURL(path.join(PROJECT, relative)).href;
  const diagnostics = client.diagnosticsFor(uri);
  client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: ++version, text } });
  return { uri, diagnostics: await diagnostics };
}

/**
 * A file of each kind from the test fixture, opened where the settings map its kind under
 * metadata/; it has no schema comment, so only the settings' mapping applies.
 */
const KINDS = {
  survey: 'metadata/alpha/survey.yaml',
  release: 'metadata/alpha/dr1/release.yaml',
  'catalogue-group': 'metadata/alpha/dr1/catalogues/SpecCat.yaml',
  'imaging-facility': 'metadata/alpha/dr2/imaging/VST.yaml',
} as const;

const withoutComment = (relative: string) => readFileSync(path.join(FIXTURE, relative.replace(/^metadata\//, '')), 'utf8');

describe('the YAML language server with the repository settings', () => {
  test.each(Object.entries(KINDS))('%s: a valid file shows no problems', async (_kind, relative) => {
    const { diagnostics } = await open(relative, withoutComment(relative));
    expect(diagnostics).toEqual([]);
  });

  test.each(Object.entries(KINDS))('%s: an unknown key is flagged while typing', async (_kind, relative) => {
    const text = withoutComment(relative).replace(/^name:/m, 'nmae:');
    const { diagnostics } = await open(relative, text);
    const messages = diagnostics.map((d) => d.message);
    expect(messages).toEqual(expect.arrayContaining([expect.stringMatching(/Property nmae is not allowed/)]));
  });

  test('keys are completed, with their descriptions', async () => {
    const relative = KINDS['catalogue-group'];
    const text = 'id: 99\nname: SpecCat\n\n';
    const { uri } = await open(relative, text);
    const completion = await client.request<{ items: { label: string; documentation?: unknown }[] } | { label: string }[]>(
      'textDocument/completion',
      { textDocument: { uri }, position: { line: 2, character: 0 } },
    );
    const items = Array.isArray(completion) ? completion : completion.items;
    const labels = items.map((i) => i.label);
    expect(labels).toEqual(expect.arrayContaining(['pretty_name', 'description', 'tables', 'created', 'updated', 'contact']));
    expect(labels).not.toContain('id');
    const tables = items.find((i) => i.label === 'tables') as { documentation?: unknown };
    expect(JSON.stringify(tables.documentation)).toContain('in the order they are published');
  });

  test('hovering a key shows its description', async () => {
    const relative = KINDS['imaging-facility'];
    const { uri } = await open(relative, withoutComment(relative));
    const line = withoutComment(relative)
      .split('\n')
      .findIndex((l) => l.includes('central_wave_ang:'));
    const hover = await client.request<{ contents: unknown }>('textDocument/hover', {
      textDocument: { uri },
      position: { line, character: 8 },
    });
    expect(JSON.stringify(hover.contents)).toContain('central wavelength in Angstrom');
  });

  test('a schema comment alone is enough outside the mapped folders', async () => {
    const text = `# yaml-language-server: $schema=../../../../schemas/release.schema.json\n${withoutComment(KINDS.release).replace(/^version: .*$/m, 'version: two')}`;
    const { diagnostics } = await open('metadata/alpha/dr1/extra/release-copy.yaml', text);
    expect(diagnostics.map((d) => d.message)).toEqual(
      expect.arrayContaining([expect.stringMatching(/Incorrect type\. Expected "number"/)]),
    );
  });
});

describe('every metadata file is covered', () => {
  const files = fg.sync('metadata/**/*.yaml', { cwd: PROJECT }).sort();

  test('by exactly one glob of the settings, the one for its kind', () => {
    const matches = new Map<string, string[]>();
    for (const [schema, glob] of Object.entries(settings['yaml.schemas'])) {
      for (const file of fg.sync(glob, { cwd: PROJECT })) matches.set(file, [...(matches.get(file) ?? []), schema]);
    }
    for (const file of files) {
      const placed = classify(path.relative(path.join(PROJECT, 'metadata'), path.join(PROJECT, file)).split(path.sep).join('/'));
      if ('problem' in placed) throw new Error(`${file}: ${placed.problem}`);
      expect(matches.get(file), file).toEqual([`./schemas/${SCHEMA_FILES[placed.kind]}`]);
    }
    expect(files.length).toBeGreaterThan(0);
  });

  test('by a schema comment pointing at the schema of its kind', () => {
    for (const file of files) {
      const first = readFileSync(path.join(PROJECT, file), 'utf8').split('\n')[0] ?? '';
      const m = /^# yaml-language-server: \$schema=(.+)$/.exec(first);
      expect(m, file).not.toBeNull();
      const target = path.resolve(path.dirname(path.join(PROJECT, file)), m?.[1] ?? '');
      const placed = classify(path.relative(path.join(PROJECT, 'metadata'), path.join(PROJECT, file)).split(path.sep).join('/'));
      if ('problem' in placed) throw new Error(placed.problem);
      expect(target, file).toBe(path.join(PROJECT, 'schemas', SCHEMA_FILES[placed.kind]));
    }
  });
});
