/**
 * The part of autocannon 9 the bench uses. @types/autocannon is not installed; this file
 * declares only what bench/lib/load.ts calls. It must stay a script (no top-level import or
 * export) so that `declare module` declares the module rather than augmenting it.
 */
declare module 'autocannon' {
  namespace autocannon {
    interface Options {
      url: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      pipelining?: number;
      /** Seconds before a request counts as a timeout. */
      timeout?: number;
      method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
      headers?: Record<string, string>;
      body?: string | Buffer;
      title?: string;
      /** Latencies of non-2xx responses are left out of the histogram unless this is false. */
      excludeErrorStats?: boolean;
      /** The requests each connection sends in turn (default: one, from the options above). */
      requests?: RequestSpec[];
    }

    /** What one request is built from; unset fields come from the options. */
    interface RequestParams {
      method?: Options['method'];
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
    }

    interface RequestSpec extends RequestParams {
      /**
       * Called (synchronously, in the connection's turn) each time the request is built: before
       * every send. Return the request to send; the body is copied into the request buffer.
       */
      setupRequest?: (request: RequestParams, context: Record<string, unknown>) => RequestParams | null;
      /** Called with every response to this request; body is the whole response body as text. */
      onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string | string[]>) => void;
    }

    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total?: number;
      p50: number;
      p90: number;
      p99: number;
    }

    interface Result {
      title?: string;
      url: string;
      connections: number;
      pipelining: number;
      /** Seconds, measured. */
      duration: number;
      start: Date;
      finish: Date;
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      resets: number;
      '1xx': number;
      '2xx': number;
      '3xx': number;
      '4xx': number;
      '5xx': number;
      statusCodeStats: Record<string, { count: number }>;
      latency: Histogram;
      requests: Histogram & { sent: number };
      throughput: Histogram;
    }

    /** The running job: an event emitter that is also a promise of the result. */
    interface Instance extends PromiseLike<Result> {
      on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTimeMs: number) => void): this;
      on(event: 'reqError', listener: (error: Error) => void): this;
      on(event: 'done', listener: (result: Result) => void): this;
      stop(): void;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;

  export = autocannon;
}
