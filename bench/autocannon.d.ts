// The part of autocannon's Node API (9.x) that bench/serve.ts uses. autocannon ships no types, and
// @types/autocannon describes 7.x; this states only what the benchmark relies on, as 9.0.0 has it.

declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    /** One connection, with the internals the benchmark reaches into. */
    interface Client extends EventEmitter {
      /** Requests in flight; addBody appends a chunk to the body kept as a string. */
      pipelinedRequests: { addBody(data: string): void };
      /** Sends the next request (after each response, and on each new connection). */
      _doRequest(...args: unknown[]): void;
      /** Closes the connection and opens another, which sends the next request. */
      _resetConnection(): void;
      /** http-parser-js's headers, emitted as they are complete. */
      on(event: 'headers', listener: (info: { shouldKeepAlive?: boolean }) => void): this;
    }

    interface Options {
      url: string;
      connections: number;
      /** Seconds; ignored when `amount` is set. */
      duration?: number;
      /** Requests in all, spread over the connections; at least one per connection. */
      amount?: number;
      /** Seconds a response may take, from its request on, before it counts as a timeout. */
      timeout?: number;
      headers?: Record<string, string>;
      /** Milliseconds between samples; a run that is over is noticed at the next sample. */
      sampleInt?: number;
      setupClient?: (client: Client) => void;
    }

    interface Result {
      /** Connection errors and timeouts. */
      errors: number;
      timeouts: number;
      resets: number;
      /** Seconds. */
      duration: number;
    }

    interface Instance extends EventEmitter {
      stop(): void;
      on(event: 'response', listener: (client: Client, statusCode: number, bytes: number, milliseconds: number) => void): this;
    }
  }

  function autocannon(options: autocannon.Options, callback: (error: Error | null, result: autocannon.Result) => void): autocannon.Instance;

  export = autocannon;
}
